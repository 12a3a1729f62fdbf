"""Decoding options and results, and sampling's token choice, row by row with each request's own random generator
(the greedy choice is the slot pool's kernel's, service/_rowkernel.c; beam search is in service.beam). No torch
here."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, replace

import numpy as np

MAX_BEAM_SIZE = 8  # the server's default ceiling on beam_size (ServerConfig.max_beam_size)
MAX_LENGTH_PENALTY = 10.0
MAX_TEMPERATURE = 100.0
# Without max_output_tokens a sentence may generate twice its source tokens plus 20 (end-of-sentence counted in both),
# within the model's limit. A translation's length follows its source's: of 72,943 single-sentence catalog messages
# and dictionary pairs, no reference is longer (3 x + 10 would have cut one). A model stuck repeating itself stops
# there instead of at the model's limit ("Scream Tracker 3 audio", 11 source tokens, generated 117 of "S S S" before
# its end-of-sentence; now 42).
SOURCE_LENGTH_FACTOR, SOURCE_LENGTH_SLACK = 2, 20
# suppress_repeats: the longest block of tokens (a word or a few) whose third copy in a row is suppressed.
MAX_REPEAT_PERIOD = 8


class FinishReason(enum.Enum):
    EOS = "eos"  # the model ended the sentence
    LENGTH = "length"  # max_output_tokens reached
    CANCELLED = "cancelled"  # the client went away
    DEADLINE = "deadline"  # the request's deadline passed
    ERROR = "error"  # the decoder step failed (a server fault)


@dataclass(frozen=True)
class DecodingCapabilities:
    """What a model and server allow a request to ask for."""

    max_output_tokens: int
    vocab_size: int
    max_beam_size: int = MAX_BEAM_SIZE
    alignments: bool = True  # the export's decoder outputs cross-attention


@dataclass(frozen=True)
class DecodingOptions:
    """Per-request decoding options; mirrors translator.v1.DecodingOptions (see the .proto for each field)."""

    max_output_tokens: int = 0  # 0 = bounded by the source's length and the model's limit (`max_tokens`)
    min_output_tokens: int = 0  # end-of-sentence is suppressed before this many tokens
    beam_size: int = 1  # 1 (or 0) = greedy
    length_penalty: float = 1.0  # hypotheses rank by log-probability / length ** length_penalty
    num_hypotheses: int = 1  # n-best: at most beam_size
    return_scores: bool = False
    sampling_temperature: float = 0.0  # > 0 samples instead of taking the most likely token
    sampling_topk: int = 0  # sample among the k most likely tokens (0 = all)
    sampling_topp: float = 1.0  # ... within the smallest set whose probability reaches p (1 = all)
    seed: int | None = None  # sampling's random seed; None = a fresh one per request
    return_alignments: bool = False
    suppress_repeats: bool = True  # no third copy in a row of a block of <= MAX_REPEAT_PERIOD tokens the source lacks

    @classmethod
    def forced(cls, tokens: int, **options) -> "DecodingOptions":
        """Exactly `tokens` tokens per sentence, each as the model ranks it: a benchmark's fixed work, alike in
        every engine (forced past its end, a sentence repeats itself, which suppress_repeats would steer)."""
        return cls(tokens, tokens, suppress_repeats=False, **options)

    @property
    def sampling(self) -> bool:
        return self.sampling_temperature > 0

    def max_tokens(self, source_tokens: int, limit: int) -> int:
        """Tokens a sentence of `source_tokens` may generate: max_output_tokens where set, else its source's bound
        (SOURCE_LENGTH_FACTOR), at least min_output_tokens and at most the model's `limit`."""
        if self.max_output_tokens:
            return self.max_output_tokens
        bound = SOURCE_LENGTH_FACTOR * source_tokens + SOURCE_LENGTH_SLACK
        return min(limit, max(bound, self.min_output_tokens))

    def validate(self, limits: "DecodingCapabilities | int") -> "DecodingOptions":
        """Checked options with defaults filled in; ValueError names the field and its allowed range."""
        if isinstance(limits, int):
            limits = DecodingCapabilities(max_output_tokens=limits, vocab_size=1 << 31)
        limit = limits.max_output_tokens
        if self.max_output_tokens < 0 or self.max_output_tokens > limit:
            raise ValueError(f"max_output_tokens={self.max_output_tokens} must be between 0 (model default) and {limit}")
        if self.min_output_tokens < 0:
            raise ValueError(f"min_output_tokens={self.min_output_tokens} must not be negative")
        max_tokens = self.max_output_tokens or limit
        if self.min_output_tokens > max_tokens:
            raise ValueError(f"min_output_tokens={self.min_output_tokens} must not exceed max_output_tokens={max_tokens}")
        beam = self.beam_size or 1
        if not 1 <= beam <= limits.max_beam_size:
            raise ValueError(f"beam_size={self.beam_size} must be between 1 (greedy) and {limits.max_beam_size}")
        _check_range("length_penalty", self.length_penalty, 0.0, MAX_LENGTH_PENALTY)
        hypotheses = self.num_hypotheses or 1
        if not 1 <= hypotheses <= beam:
            raise ValueError(f"num_hypotheses={self.num_hypotheses} must be between 1 and beam_size={beam}")
        _check_range("sampling_temperature", self.sampling_temperature, 0.0, MAX_TEMPERATURE, "no sampling")
        if self.sampling and beam > 1:
            raise ValueError(f"sampling_temperature={self.sampling_temperature} samples one hypothesis: it needs "
                             f"beam_size 1, not {beam}")
        if not 0 <= self.sampling_topk <= limits.vocab_size:
            raise ValueError(f"sampling_topk={self.sampling_topk} must be between 0 (all tokens) and {limits.vocab_size}")
        topp = self.sampling_topp or 1.0
        if not 0 < topp <= 1 or math.isnan(topp):
            raise ValueError(f"sampling_topp={self.sampling_topp} must be in (0, 1] (0 or 1: no nucleus cut)")
        if self.seed is not None and not 0 <= self.seed < 2 ** 64:
            raise ValueError(f"seed={self.seed} must be between 0 and 2^64-1")
        if self.return_alignments and not limits.alignments:
            raise ValueError("return_alignments: this model was exported without alignments; re-export it "
                             "(translator export) to get them")
        return replace(self, beam_size=beam, num_hypotheses=hypotheses, sampling_topp=topp)


def _check_range(name: str, value: float, low: float, high: float, low_means: str = "") -> None:
    if not low <= value <= high:  # also refuses NaN
        hint = f" ({low:g}: {low_means})" if low_means else ""
        raise ValueError(f"{name}={value} must be between {low:g}{hint} and {high:g}")


@dataclass
class Hypothesis:
    """One translation of a sentence, as the model scored it."""

    token_ids: list[int]  # generated ids, end-of-sentence excluded
    finish_reason: FinishReason
    token_logprobs: list[float]  # per decision: the generated tokens, then end-of-sentence when it ended there
    score: float  # sum(token_logprobs) / len(token_logprobs) ** length_penalty: what beam search ranks by
    alignments: np.ndarray | None = None  # (len(token_ids), source tokens): cross-attention, rows sum to 1


def normalized_score(logprob_sum: float, decisions: int, length_penalty: float) -> float:
    return logprob_sum / max(decisions, 1) ** length_penalty


@dataclass
class TranslationResult:
    text: str
    token_ids: list[int]
    input_tokens: int
    finish_reason: FinishReason
    hypotheses: list[Hypothesis] | None = None  # best first (num_hypotheses of them)

    @property
    def output_tokens(self) -> int:
        return len(self.token_ids)


def log_softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise log-probabilities (float32 in, float32 out)."""
    shifted = logits - logits.max(axis=-1, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))


def sample_token(logits: np.ndarray, options: DecodingOptions, rng: np.random.Generator) -> int:
    """One token from softmax(logits / temperature), cut to the top k and to the nucleus of mass p. One uniform
    draw per token (inverse CDF over the tokens sorted by probability, ties by id), so a request's tokens depend
    only on its seed and its own logits, whatever else shares the batch."""
    order = np.argsort(-logits, kind="stable")
    if options.sampling_topk:
        order = order[: options.sampling_topk]
    scaled = (logits[order] - logits[order[0]]).astype(np.float64) / options.sampling_temperature
    probs = np.exp(scaled)
    probs /= probs.sum()
    cumulative = np.cumsum(probs)
    if options.sampling_topp < 1.0:  # keep the smallest prefix whose mass reaches p
        keep = int(np.searchsorted(cumulative, options.sampling_topp)) + 1
        cumulative = cumulative[:keep] / cumulative[min(keep, len(cumulative)) - 1]
    choice = int(np.searchsorted(cumulative, rng.random(), side="right"))
    return int(order[min(choice, len(cumulative) - 1)])
