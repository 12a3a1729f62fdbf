"""Scaled dot-product attention and multi-head attention (Vaswani et al., 2017, §3.2)."""

from __future__ import annotations

import math

import torch
from torch import nn

# (keys (B, H, Tk, Dh), values (B, H, Tk, Dh), mask broadcastable to (B, H, Tq, Tk) with True = may attend)
KVBlock = tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]


def scaled_dot_product_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None):
    """softmax(q kᵀ / √d_k) v. q: (B, H, Tq, Dh). Returns the output (B, H, Tq, Dh) and probabilities (B, H, Tq, Tk)."""
    return blockwise_attention(q, [(k, v, mask)])


def blockwise_attention(q: torch.Tensor, blocks: list[KVBlock]):
    """Attention over the concatenation of several K/V blocks, without concatenating the K/V themselves.

    The decoder attends to its cached past and to this step's keys: only the (small) scores are
    concatenated, so a step never copies the cache.
    """
    scale = 1.0 / math.sqrt(q.size(-1))
    scores = []
    for k, v, mask in blocks:
        block = q @ k.transpose(-2, -1) * scale  # (B, H, Tq, Tk)
        if mask is not None:
            # A finite minimum (not -inf) keeps fully masked rows (padding queries) free of NaN.
            block = block.masked_fill(~mask, torch.finfo(block.dtype).min)
        scores.append(block)
    probs = torch.cat(scores, dim=-1).softmax(dim=-1) if len(scores) > 1 else scores[0].softmax(dim=-1)
    out, start = 0, 0
    for k, v, _ in blocks:
        out = out + probs[..., start : start + k.size(2)] @ v  # (B, H, Tq, Dh)
        start += k.size(2)
    return out, probs


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
        """Keys and values of x (B, T, D): two (B, H, T, Dh) tensors."""
        return self.split_heads(self.k_proj(x)), self.split_heads(self.v_proj(x))

    def forward(self, query: torch.Tensor, blocks: list[KVBlock], need_weights: bool = False):
        """query (B, Tq, D) attends over already projected K/V blocks."""
        q = self.split_heads(self.q_proj(query))  # (B, H, Tq, Dh)
        out, probs = blockwise_attention(q, blocks)
        out = self.out_proj(self.merge_heads(out))  # (B, Tq, D)
        return (out, probs) if need_weights else out
