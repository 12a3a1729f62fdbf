"""Decoding options and results, and the per-row token choice that the scheduler's step applies to the
whole batch at once. No torch here."""

from __future__ import annotations

import enum
from dataclasses import dataclass

import numpy as np


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


def greedy_tokens(logits: np.ndarray, block_eos: np.ndarray, eos_id: int) -> np.ndarray:
    """The most likely token of each row; rows flagged in block_eos cannot choose EOS (min_output_tokens)."""
    if block_eos.any():
        logits[block_eos, eos_id] = -np.inf
    return logits.argmax(axis=-1)
