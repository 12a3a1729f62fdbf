"""Scaled dot-product attention and multi-head attention (Vaswani et al., 2017, §3.2)."""

from __future__ import annotations

import math

import torch
from torch import nn


def scaled_dot_product_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None):
    """softmax(q kᵀ / √d_k) v.

    q: (B, H, Tq, Dh); k, v: (B, H, Tk, Dh); mask: broadcastable to (B, H, Tq, Tk), True = may attend.
    Returns the output (B, H, Tq, Dh) and the attention probabilities (B, H, Tq, Tk).
    """
    scores = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))  # (B, H, Tq, Tk)
    if mask is not None:
        # A finite minimum (not -inf) keeps fully masked rows (padding queries) free of NaN.
        scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
    probs = scores.softmax(dim=-1)
    return probs @ v, probs


class MultiHeadAttention(nn.Module):
    """Projects, splits heads, attends, merges. Parameter names follow Marian/BART."""

    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, _ = x.shape
        return x.view(batch, length, self.n_heads, self.head_dim).transpose(1, 2)  # (B, H, T, Dh)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, _, length, _ = x.shape
        return x.transpose(1, 2).reshape(batch, length, -1)  # (B, T, D)

    def project_kv(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Keys and values of x: two (B, H, T, Dh) tensors."""
        return self.split_heads(self.k_proj(x)), self.split_heads(self.v_proj(x))

    def forward(self, query: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None,
                need_weights: bool = False):
        """query (B, Tq, D) attends over already projected k, v (B, H, Tk, Dh)."""
        q = self.split_heads(self.q_proj(query))  # (B, H, Tq, Dh)
        out, probs = scaled_dot_product_attention(q, k, v, mask)
        out = self.out_proj(self.merge_heads(out))  # (B, Tq, D)
        return (out, probs) if need_weights else out
