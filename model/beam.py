"""Beam search in PyTorch: the reference for the served engine's (service/beam.py), written separately from it.

Per sentence, k beams start from the decoder start token (only the first is live). Each step ranks the k × V
continuations by cumulative log-probability (a stable sort: ties go to the lower beam, then the lower token id)
and reads the best 2k in order: an end-of-sentence among the first k finishes a hypothesis, the others continue
until k beams are filled. A sentence is done when k hypotheses finished or after max_len tokens (its live beams
finish there). Hypotheses rank by log-probability / decisions ** length_penalty, decisions counting
end-of-sentence; equal scores keep the order in which they finished.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from model.greedy import suppress_repeats
from model.transformer import Cache, Transformer


class BeamHypothesis(NamedTuple):
    token_ids: list[int]  # end-of-sentence excluded
    token_logprobs: list[float]  # per decision, end-of-sentence included when it ended there
    score: float
    ended: bool  # with end-of-sentence (else: max_len reached)


@torch.inference_mode()
def beam_search(model: Transformer, src_ids: torch.Tensor, src_mask: torch.Tensor, beam_size: int, max_len: int,
                length_penalty: float = 1.0, num_hypotheses: int = 1, min_len: int = 0,
                repeat_period: int = 0) -> list[list[BeamHypothesis]]:
    """The num_hypotheses best hypotheses of every source row, best first (repeat_period: as model.greedy's)."""
    cfg, k = model.cfg, beam_size
    sources = [ids[mask].tolist() for ids, mask in zip(src_ids, src_mask) for _ in range(k)]
    batch = src_ids.size(0)
    rows_mask = src_mask.repeat_interleave(k, dim=0)
    cache = model.init_cache(model.encode(src_ids, src_mask).repeat_interleave(k, dim=0), rows_mask)
    history = torch.full((batch * k, 0), cfg.pad_id, dtype=torch.long)
    history_logprobs = torch.zeros(batch * k, 0, dtype=torch.float64)
    last = torch.full((batch * k, 1), cfg.decoder_start_id, dtype=torch.long)
    scores = torch.full((batch, k), float("-inf"), dtype=torch.float64)
    scores[:, 0] = 0.0
    finished: list[list[BeamHypothesis]] = [[] for _ in range(batch)]
    done = [False] * batch

    def finish(sentence: int, ids, logprobs, ended: bool) -> None:
        logprobs = [float(x) for x in logprobs]
        score = sum(logprobs) / max(len(logprobs), 1) ** length_penalty
        finished[sentence].append(BeamHypothesis([int(t) for t in ids], logprobs, score, ended))

    for step in range(max_len):
        logits, cache = model.decode(last, torch.full((batch * k, 1), step), rows_mask, cache)
        logits = logits[:, -1].float()
        if step < min_len:  # blocked before normalising, as the served engine does
            logits[:, cfg.eos_id] = float("-inf")
        if repeat_period:
            suppress_repeats(logits, history.tolist(), sources, repeat_period)
        logprobs = logits.log_softmax(dim=-1)
        vocab = logprobs.size(-1)
        candidates = (scores.reshape(-1, 1) + logprobs.double()).reshape(batch, k * vocab)
        ranked = torch.sort(candidates, dim=1, descending=True, stable=True).indices[:, : 2 * k].tolist()
        parents, tokens = [], []
        for sentence in range(batch):
            base = sentence * k
            if done[sentence]:  # keeps its rows (ignored) so that the batch keeps its shape
                parents += range(base, base + k)
                tokens += [cfg.pad_id] * k
                continue
            live = []
            for rank, index in enumerate(ranked[sentence]):
                parent, token = divmod(index, vocab)
                row = base + parent
                if token == cfg.eos_id:
                    if rank < k and candidates[sentence, index].isfinite():
                        finish(sentence, history[row].tolist(), [*history_logprobs[row].tolist(), logprobs[row, token]], True)
                else:
                    live.append((row, token, candidates[sentence, index].item()))
                    if len(live) == k:
                        break
            parents += [row for row, _, _ in live]
            tokens += [token for _, token, _ in live]
            scores[sentence] = torch.tensor([score for _, _, score in live], dtype=torch.float64)
            if step + 1 >= max_len:
                for row, token, _ in live:
                    finish(sentence, [*history[row].tolist(), token],
                           [*history_logprobs[row].tolist(), logprobs[row, token]], False)
            done[sentence] = step + 1 >= max_len or len(finished[sentence]) >= k
        index = torch.tensor(parents)
        new_tokens = torch.tensor(tokens)[:, None]
        chosen = logprobs[index, new_tokens[:, 0]].double()[:, None]
        history = torch.cat([history[index], new_tokens], dim=1)
        history_logprobs = torch.cat([history_logprobs[index], chosen], dim=1)
        cache = reorder(cache, index)
        last = new_tokens
        if all(done):
            break
    return [sorted(hypotheses, key=lambda h: -h.score)[:num_hypotheses] for hypotheses in finished]


def reorder(cache: Cache, index: torch.Tensor) -> Cache:
    """The cache with its rows taken from `index` (cross K/V are the same for every beam of a sentence)."""
    return Cache(self_k=[k[index] for k in cache.self_k], self_v=[v[index] for v in cache.self_v],
                 cross_k=cache.cross_k, cross_v=cache.cross_v, self_mask=cache.self_mask[index])


@torch.inference_mode()
def sequence_logprobs(model: Transformer, source: list[int], target: list[int], ended: bool = True) -> list[float]:
    """Teacher-forced log-probability of each token of target (then of end-of-sentence when ended): what a
    hypothesis' token scores should be."""
    cfg = model.cfg
    src = torch.tensor([source])
    tgt_in = torch.tensor([[cfg.decoder_start_id, *target]])
    logprobs = model(src, torch.ones_like(src, dtype=torch.bool), tgt_in)[0].float().log_softmax(dim=-1)
    labels = [*target, cfg.eos_id] if ended else target
    return [float(logprobs[i, token]) for i, token in enumerate(labels)]
