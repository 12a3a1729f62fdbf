"""Beam search for one request inside the continuous batch.

A request with beam_size k holds k rows of the slot pool, ordered by ``SlotPool.beam_index``. Each step
``BeamSearch.step`` ranks the k × V continuations by cumulative log-probability (ties: lower beam, then
lower token id), keeps the best 2k, turns the end-of-sentence ones among the best k into finished
hypotheses, and continues the best k others. The scheduler then reorders only this request's rows by
their parents. The search ends when k hypotheses have finished or max_output_tokens is reached (the live
beams then finish with LENGTH); the result is the num_hypotheses best by
``log-probability / decisions ** length_penalty`` (decisions = generated tokens, end-of-sentence included).
model/beam.py is the PyTorch reference of the same algorithm.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from service.decoding import DecodingOptions, FinishReason, Hypothesis, normalized_score


@dataclass
class BeamStep:
    parents: np.ndarray  # (k,) beam each live beam continues
    tokens: np.ndarray  # (k,) their new tokens
    token_logprobs: np.ndarray  # (k,) log-probabilities of those tokens
    scores: np.ndarray  # (k,) cumulative log-probabilities
    done: bool  # the search has ended: read BeamSearch.best()


class BeamSearch:
    def __init__(self, options: DecodingOptions, eos: int, aligned: bool = False):
        """aligned: the hypotheses keep their alignments, as options.return_alignments asks too."""
        self.options, self.eos, self.width = options, eos, options.beam_size
        self.finished: list[Hypothesis] = []
        aligned = aligned or options.return_alignments
        self.attention: list[list[np.ndarray]] | None = [[] for _ in range(self.width)] if aligned else None
        self.streamed = 0  # tokens of the agreed prefix already streamed

    def step(self, logprobs: np.ndarray, scores: np.ndarray, history: np.ndarray, history_logprobs: np.ndarray,
             attention: np.ndarray | None, max_tokens: int) -> BeamStep:
        """logprobs (k, V) of this step; scores (k,) so far; history / history_logprobs (k, t-1): the beams'
        tokens and their log-probabilities; attention (k, S) of this step, where the hypotheses keep alignments."""
        k, vocab = logprobs.shape
        candidates = (scores[:, None] + logprobs.astype(np.float64)).ravel()
        live: list[int] = []
        for rank, index in enumerate(best_indices(candidates, 2 * k).tolist()):
            parent, token = divmod(index, vocab)
            if token == self.eos:
                if rank < k and np.isfinite(candidates[index]):
                    self._finish(history[parent], [*history_logprobs[parent], logprobs[parent, token]], FinishReason.EOS,
                                 None if attention is None else self.attention[parent])
            else:
                live.append(index)
                if len(live) == k:
                    break
        parents, tokens = np.divmod(np.array(live), vocab)
        step = BeamStep(parents, tokens, logprobs[parents, tokens], candidates[live], False)
        if attention is not None:
            self.attention = [self.attention[p] + [attention[p]] for p in parents.tolist()]
        generated = history.shape[1] + 1
        if generated >= max_tokens:
            for beam, (parent, token) in enumerate(zip(parents.tolist(), tokens.tolist())):
                self._finish([*history[parent], token], [*history_logprobs[parent], step.token_logprobs[beam]],
                             FinishReason.LENGTH, None if attention is None else self.attention[beam])
        step.done = generated >= max_tokens or len(self.finished) >= self.width
        return step

    def _finish(self, tokens, logprobs, reason: FinishReason, attention: list[np.ndarray] | None) -> None:
        """A finished hypothesis; attention holds one row per generated token (end-of-sentence has none)."""
        logprobs = [float(x) for x in logprobs]
        score = normalized_score(sum(logprobs), len(logprobs), self.options.length_penalty)
        rows = None if attention is None else stack_rows(attention)
        self.finished.append(Hypothesis([int(t) for t in tokens], reason, logprobs, score, rows))

    def best(self) -> list[Hypothesis]:
        """The num_hypotheses best finished hypotheses, best first (ties: the earlier finished)."""
        return sorted(self.finished, key=lambda h: -h.score)[: self.options.num_hypotheses]

    def agreed_prefix(self, history: np.ndarray) -> list[int]:
        """Tokens not yet streamed that every live beam (history (k, t)) and every finished hypothesis share:
        the final best translation starts with them."""
        length = history.shape[1]
        same = (history == history[0]).all(axis=0)
        agreed = int(np.argmin(same)) if not same.all() else length
        for hypothesis in self.finished:
            ids = hypothesis.token_ids
            shared = next((i for i, (a, b) in enumerate(zip(ids, history[0])) if a != b), min(len(ids), length))
            agreed = min(agreed, shared)
        if agreed <= self.streamed:
            return []
        new = history[0, self.streamed : agreed].tolist()
        self.streamed = agreed
        return new


def best_indices(values: np.ndarray, count: int, margin: float = 4.0) -> np.ndarray:
    """Indices of the `count` largest values, largest first, ties by lower index: exactly a stable descending
    sort's first `count`. Only the values within `margin` of the largest are sorted (widened until at least
    `count` are): a trained model puts few tokens near the top, and one comparison pass over k × V costs
    ~1 ns per value where numpy's argpartition costs ~14."""
    best = values.max()
    while True:
        chosen = np.flatnonzero(values >= best - margin)
        if chosen.size >= count or not np.isfinite(best - margin):
            break
        margin *= 2
    if chosen.size < count:  # fewer finite values than asked for: the rest are -inf, in index order
        chosen = np.arange(values.size)
    return chosen[np.lexsort((chosen, -values[chosen]))][:count]


def stack_rows(rows: list[np.ndarray]) -> np.ndarray:
    """(tokens, source) from per-token attention rows; (0, 0) for none."""
    return np.stack(rows) if rows else np.zeros((0, 0), dtype=np.float32)
