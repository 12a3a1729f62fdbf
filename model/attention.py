"""Scaled dot-product attention and multi-head attention (Vaswani et al., 2017, §3.2)."""

from __future__ import annotations

import math

import torch
from torch import nn

# (keys transposed (B, H, Dh, Tk), values (B, H, Tk, Dh), mask broadcastable to (B, H, Tq, Tk), True = may attend).
# Keys are kept transposed so that q·kᵀ is a plain batched matrix product: over a cache of many rows (one query
# position each) that reads ~4x faster in ONNX Runtime than a product with a transposed operand (bench profile).
KVBlock = tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]


def scaled_dot_product_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, mask: torch.Tensor | None):
    """softmax(q kᵀ / √d_k) v. q: (B, H, Tq, Dh), k and v (B, H, Tk, Dh). Returns the output (B, H, Tq, Dh) and
    probabilities (B, H, Tq, Tk)."""
    return blockwise_attention(q, [(k.transpose(-2, -1), v, mask)])


def blockwise_attention(q: torch.Tensor, blocks: list[KVBlock]):
    """Attention over the concatenation of several K/V blocks, without concatenating the K/V themselves.

    The decoder attends to its cached past and to this step's keys: only the (small) scores are
    concatenated, so a step never copies the cache.
    """
    scale = 1.0 / math.sqrt(q.size(-1))
    # One query against one key (a decoder step's own position): broadcast products instead of batched matrix
    # products, which ONNX Runtime runs at ~1 us per (row, head) for so little work (b32, 4 heads: 39 vs 8 us).
    single = [q.size(-2) == 1 and k.size(-1) == 1 for k, _, _ in blocks]
    scores = []
    for (k, v, mask), one in zip(blocks, single):
        block = (q * k.transpose(-2, -1)).sum(-1, keepdim=True) if one else q @ k  # (B, H, Tq, Tk)
        block = block * scale
        if mask is not None:
            # A finite minimum (not -inf) keeps fully masked rows (padding queries) free of NaN.
            block = block.masked_fill(~mask, torch.finfo(block.dtype).min)
        scores.append(block)
    probs = torch.cat(scores, dim=-1).softmax(dim=-1) if len(scores) > 1 else scores[0].softmax(dim=-1)
    out, start = 0, 0
    for (k, v, _), one in zip(blocks, single):
        weights = probs.narrow(-1, start, v.size(2))
        out = out + (weights * v if one else weights @ v)  # (B, H, Tq, Dh)
        start += v.size(2)
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

    # With one position (a decoder step) moving the heads axis is a relabelling: a view, where the exported graph
    # would otherwise copy with a Transpose node.
    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, _ = x.shape
        if length == 1:
            return x.view(batch, self.n_heads, 1, self.head_dim)
        return x.view(batch, length, self.n_heads, self.head_dim).transpose(1, 2)  # (B, H, T, Dh)

    def split_keys(self, x: torch.Tensor) -> torch.Tensor:
        """(B, T, D) → keys transposed (B, H, Dh, T)."""
        batch, length, _ = x.shape
        if length == 1:
            return x.view(batch, self.n_heads, self.head_dim, 1)
        return x.view(batch, length, self.n_heads, self.head_dim).permute(0, 2, 3, 1)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        batch, _, length, _ = x.shape
        if length == 1:
            return x.reshape(batch, 1, -1)
        return x.transpose(1, 2).reshape(batch, length, -1)  # (B, T, D)

    def project_kv(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Keys transposed (B, H, Dh, T) and values (B, H, T, Dh) of x (B, T, D)."""
        return self.split_keys(self.k_proj(x)), self.split_heads(self.v_proj(x))

    def packed_qkv(self, x: torch.Tensor) -> torch.Tensor:
        """Queries, keys and values of x (B, T, D) side by side (B, T, 3D), in one matrix product: one (quantized)
        MatMul in the exported graph instead of three."""
        weight = torch.cat([self.q_proj.weight, self.k_proj.weight, self.v_proj.weight])
        bias = torch.cat([self.q_proj.bias, self.k_proj.bias, self.v_proj.bias])
        return nn.functional.linear(x, weight, bias)

    def project_qkv(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        """Queries (B, H, T, Dh), keys transposed and values of x (B, T, D) for self-attention."""
        q, k, v = self.packed_qkv(x).chunk(3, dim=-1)
        return self.split_heads(q), self.split_keys(k), self.split_heads(v)

    def attend(self, q: torch.Tensor, blocks: list[KVBlock], need_weights: bool = False):
        """Projected queries (B, H, Tq, Dh) attend over projected K/V blocks → (B, Tq, D) [and probabilities]."""
        out, probs = blockwise_attention(q, blocks)
        out = self.out_proj(self.merge_heads(out))  # (B, Tq, D)
        return (out, probs) if need_weights else out

    def forward(self, query: torch.Tensor, blocks: list[KVBlock], need_weights: bool = False):
        """query (B, Tq, D) attends over already projected K/V blocks."""
        return self.attend(self.split_heads(self.q_proj(query)), blocks, need_weights)
