"""Decoding over the runtime: options, results, and the greedy loop that the CLI, the parity check,
the benchmarks and (step by step) the scheduler share. No torch here."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from service.runtime import DecoderBatch, Runtime


class FinishReason(enum.Enum):
    EOS = "eos"  # the model ended the sentence
    LENGTH = "length"  # max_output_tokens reached
    CANCELLED = "cancelled"  # the client went away
    DEADLINE = "deadline"  # the request's deadline passed
    ERROR = "error"  # the decoder step failed (a server fault)


@dataclass(frozen=True)
class DecodingOptions:
    """Per-request decoding options; mirrors translator.v1.DecodingOptions."""

    max_output_tokens: int = 0  # 0 = the model's limit
    min_output_tokens: int = 0  # end-of-sentence is suppressed before this many tokens

    def validate(self, limit: int) -> "DecodingOptions":
        """Checked options with defaults filled in; ValueError says what to fix."""
        if self.max_output_tokens < 0 or self.max_output_tokens > limit:
            raise ValueError(f"max_output_tokens={self.max_output_tokens} must be between 0 (model default) and {limit}")
        if self.min_output_tokens < 0:
            raise ValueError(f"min_output_tokens={self.min_output_tokens} must not be negative")
        max_tokens = self.max_output_tokens or limit
        if self.min_output_tokens > max_tokens:
            raise ValueError(f"min_output_tokens={self.min_output_tokens} must not exceed max_output_tokens={max_tokens}")
        return DecodingOptions(max_tokens, self.min_output_tokens)


@dataclass
class TranslationResult:
    text: str
    token_ids: list[int]
    input_tokens: int
    finish_reason: FinishReason

    @property
    def output_tokens(self) -> int:
        return len(self.token_ids)


def pick_tokens(logits: np.ndarray, generated: np.ndarray, min_tokens: np.ndarray, eos_id: int) -> np.ndarray:
    """Greedy choice per row; rows with fewer than min_tokens generated cannot choose EOS."""
    block_eos = generated < min_tokens
    if block_eos.any():
        logits[block_eos, eos_id] = -np.inf
    return logits.argmax(axis=-1)


def greedy_decode(runtime: Runtime, sources: list[list[int]], options: DecodingOptions) -> list[tuple[list[int], FinishReason]]:
    """Greedy decoding of a batch with the KV cache; finished rows leave the batch at once."""
    eos = runtime.special.eos
    batch: DecoderBatch = runtime.encode(sources)
    rows = np.arange(len(sources))  # original index of each batch row
    outputs: list[list[int]] = [[] for _ in sources]
    reasons: list[FinishReason | None] = [None] * len(sources)
    max_tokens = min(options.max_output_tokens, runtime.max_positions)
    min_tokens = np.full(len(sources), options.min_output_tokens)
    while batch.size:
        logits = runtime.step(batch)
        tokens = pick_tokens(logits, batch.lengths - 1, min_tokens[rows], eos)
        done = tokens == eos
        for row, token, ended in zip(rows, tokens.tolist(), done):
            if ended:
                reasons[row] = FinishReason.EOS
            else:
                outputs[row].append(token)
        done |= batch.lengths >= max_tokens
        for row in rows[done]:
            reasons[row] = reasons[row] or FinishReason.LENGTH
        batch.last_tokens = tokens
        if done.any():
            keep = np.flatnonzero(~done)
            batch, rows = batch.select(keep), rows[keep]
    return list(zip(outputs, reasons))


class Translator:
    """Text in, text out, through the ONNX runtime: ``Translator(model_dir).translate_batch(texts)``."""

    def __init__(self, model_dir: Path, *, device: str = "cpu", precision: str = "fp32", threads: int | None = None,
                 max_batch_size: int = 32):
        self.runtime = Runtime(model_dir, device=device, precision=precision, threads=threads)
        self.max_batch_size = max_batch_size

    def translate_batch(self, texts: list[str], *, options: DecodingOptions = DecodingOptions()) -> list[TranslationResult]:
        options = options.validate(self.runtime.limits["max_output_tokens"])
        tokenizer = self.runtime.tokenizer
        sources = tokenizer.encode_batch(texts)
        order = sorted(range(len(texts)), key=lambda i: len(sources[i]))
        results: list[TranslationResult | None] = [None] * len(texts)
        for start in range(0, len(order), self.max_batch_size):
            chunk = order[start : start + self.max_batch_size]
            for i, (ids, reason) in zip(chunk, greedy_decode(self.runtime, [sources[i] for i in chunk], options)):
                results[i] = TranslationResult(tokenizer.decode(ids), ids, len(sources[i]), reason)
        return results
