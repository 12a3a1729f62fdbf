"""Positional encoding, feed-forward, residual + LayerNorm, encoder and decoder layers."""

from __future__ import annotations

import math

import torch
from torch import nn

from model.attention import MultiHeadAttention

ACTIVATIONS = {"relu": nn.ReLU, "gelu": nn.GELU, "silu": nn.SiLU,
               "gelu_tanh": lambda: nn.GELU(approximate="tanh")}  # Hugging Face's gelu_new
POSITION_LAYOUTS = ("interleaved", "concat")
NORM_POSITIONS = ("pre", "post")


def sinusoidal_table(max_positions: int, d_model: int, layout: str = "interleaved") -> torch.Tensor:
    """(max_positions, d_model) table with PE(pos, 2i) = sin(pos / 10000^(2i/d)), PE(pos, 2i+1) = cos(...).

    ``interleaved`` puts sin/cos on even/odd dimensions (the paper); ``concat`` puts all sines in the
    first half and all cosines in the second (Marian, fairseq).
    """
    position = torch.arange(max_positions, dtype=torch.float64)[:, None]  # (P, 1)
    frequency = torch.exp(-math.log(10000.0) * torch.arange(0, d_model, 2, dtype=torch.float64) / d_model)  # (D/2,)
    angles = position * frequency  # (P, D/2)
    if layout == "concat":
        table = torch.cat([angles.sin(), angles.cos()], dim=-1)
    else:
        table = torch.stack([angles.sin(), angles.cos()], dim=-1).flatten(1)  # (P, D) as sin, cos, sin, ...
    return table.float()


class FeedForward(nn.Module):
    """FFN(x) = act(x W1 + b1) W2 + b2, applied to each position."""

    def __init__(self, d_model: int, d_ff: int, activation: str):
        super().__init__()
        self.fc1 = nn.Linear(d_model, d_ff)
        self.activation = ACTIVATIONS[activation]()
        self.fc2 = nn.Linear(d_ff, d_model)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.activation(self.fc1(x)))


class Residual(nn.Module):
    """x + sublayer(x) with LayerNorm before the sublayer (pre-norm) or after the sum (post-norm)."""

    def __init__(self, d_model: int, norm_position: str, dropout: float, eps: float):
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=eps)
        self.pre_norm = norm_position == "pre"
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, sublayer) -> tuple[torch.Tensor, ...]:
        """sublayer returns its output first, then anything to pass through (e.g. this step's K/V)."""
        out, *extra = sublayer(self.norm(x) if self.pre_norm else x)
        x = x + self.dropout(out)
        return (x if self.pre_norm else self.norm(x), *extra)


class EncoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads)
        self.feed_forward = FeedForward(cfg.d_model, cfg.d_ff, cfg.activation)
        self.self_attn_residual = Residual(cfg.d_model, cfg.norm_position, cfg.dropout, cfg.layer_norm_eps)
        self.feed_forward_residual = Residual(cfg.d_model, cfg.norm_position, cfg.dropout, cfg.layer_norm_eps)

    def attend_self(self, h: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        q, k, v = self.self_attn.project_qkv(h)
        return self.self_attn.attend(q, [(k, v, mask)])

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """x (B, S, D); mask (B, 1, 1, S), True = real token."""
        x, = self.self_attn_residual(x, lambda h: (self.attend_self(h, mask),))
        x, = self.feed_forward_residual(x, lambda h: (self.feed_forward(h),))
        return x


class DecoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.self_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads)
        self.cross_attn = MultiHeadAttention(cfg.d_model, cfg.n_heads)
        self.feed_forward = FeedForward(cfg.d_model, cfg.d_ff, cfg.activation)
        self.self_attn_residual = Residual(cfg.d_model, cfg.norm_position, cfg.dropout, cfg.layer_norm_eps)
        self.cross_attn_residual = Residual(cfg.d_model, cfg.norm_position, cfg.dropout, cfg.layer_norm_eps)
        self.feed_forward_residual = Residual(cfg.d_model, cfg.norm_position, cfg.dropout, cfg.layer_norm_eps)

    def forward(self, x, attend_self, cross_k, cross_v, cross_mask):
        """x (B, T, D) → (x, k, v, alignment). attend_self(h) → (out, k, v) is self-attention over the cached past and
        these positions; the cache that holds the past says how (model.transformer.Cache), and what k and v it
        returns; alignment (B, T, S) is the cross-attention probabilities averaged over heads."""
        x, k, v = self.self_attn_residual(x, attend_self)
        x, probs = self.cross_attn_residual(x, lambda h: self.cross_attn(h, [(cross_k, cross_v, cross_mask)], need_weights=True))
        x, = self.feed_forward_residual(x, lambda h: (self.feed_forward(h),))
        return x, k, v, probs.mean(dim=1)
