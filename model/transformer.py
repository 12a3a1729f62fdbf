"""The encoder–decoder Transformer with an explicit KV cache.

``encode(src_ids, src_mask) -> memory``; ``init_cache(memory, src_mask) -> Cache``;
``decode(tokens, positions, memory_mask, cache) -> (logits, cache)``.
Masks use one convention everywhere: True = may attend.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

import torch
from torch import nn

from model.layers import ACTIVATIONS, NORM_POSITIONS, POSITION_LAYOUTS, DecoderLayer, EncoderLayer, sinusoidal_table
from translator.tokenizer import BOS_ID, EOS_ID, PAD_ID, UNK_ID

CONFIG_FILE = "config.json"
WEIGHTS_FILE = "model.safetensors"


@dataclass(frozen=True)
class TransformerConfig:
    """Every hyperparameter of the model; exactly what ``config.json`` stores."""

    vocab_size: int = 8000
    d_model: int = 256
    n_heads: int = 4
    d_ff: int = 1024
    encoder_layers: int = 6
    decoder_layers: int = 2
    dropout: float = 0.1
    activation: str = "relu"  # relu | gelu | gelu_tanh (Hugging Face's "gelu_new") | silu (Marian's "swish")
    norm_position: str = "pre"  # pre | post (Marian: post)
    position_layout: str = "interleaved"  # interleaved | concat (Marian: concat)
    scale_embedding: bool = True  # multiply token embeddings by √d_model
    tie_embeddings: bool = True  # source and target share one embedding
    tie_output: bool = True  # the output projection is the target embedding
    final_logits_bias: bool = False  # Marian adds a learned (here: loaded) bias to the logits
    layer_norm_eps: float = 1e-5
    max_positions: int = 512
    pad_id: int = PAD_ID
    unk_id: int = UNK_ID
    bos_id: int = BOS_ID
    eos_id: int = EOS_ID
    decoder_start_id: int = BOS_ID  # Marian starts decoding with pad

    def __post_init__(self):
        problems = []
        if self.d_model % self.n_heads:
            problems.append(f"d_model={self.d_model} must be divisible by n_heads={self.n_heads}")
        if self.d_model % 2:
            problems.append(f"d_model={self.d_model} must be even for the sinusoidal positional encoding")
        if self.activation not in ACTIVATIONS:
            problems.append(f"activation={self.activation!r} must be one of {sorted(ACTIVATIONS)}")
        if self.norm_position not in NORM_POSITIONS:
            problems.append(f"norm_position={self.norm_position!r} must be one of {NORM_POSITIONS}")
        if self.position_layout not in POSITION_LAYOUTS:
            problems.append(f"position_layout={self.position_layout!r} must be one of {POSITION_LAYOUTS}")
        if min(self.vocab_size, self.d_model, self.d_ff, self.encoder_layers, self.decoder_layers, self.max_positions) < 1:
            problems.append("sizes and layer counts must be positive")
        if not 0 <= self.dropout < 1:
            problems.append(f"dropout={self.dropout} must be in [0, 1)")
        for name in ("pad_id", "unk_id", "bos_id", "eos_id", "decoder_start_id"):
            if not 0 <= getattr(self, name) < self.vocab_size:
                problems.append(f"{name}={getattr(self, name)} must be a token id below vocab_size={self.vocab_size}")
        if problems:
            raise ValueError("invalid TransformerConfig: " + "; ".join(problems))

    @property
    def head_dim(self) -> int:
        return self.d_model // self.n_heads

    def save(self, directory: Path) -> None:
        (Path(directory) / CONFIG_FILE).write_text(json.dumps(asdict(self), indent=2) + "\n")

    @classmethod
    def load(cls, directory: Path) -> "TransformerConfig":
        data = json.loads((Path(directory) / CONFIG_FILE).read_text())
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"{directory}/{CONFIG_FILE} has unknown keys {sorted(unknown)}")
        return cls(**data)


@dataclass
class Cache:
    """Decoder state per layer, mapping one-to-one onto the ONNX decoder's cache: keys transposed (B, H, Dh, T),
    values (B, H, T, Dh) (model.attention.KVBlock says why).

    cross_k/cross_v are projected once from the encoder output; self_k/self_v grow by the decoded
    positions. self_mask (B, T) marks which cached positions are real (rows may differ in length).
    """

    self_k: list[torch.Tensor]
    self_v: list[torch.Tensor]
    cross_k: list[torch.Tensor]
    cross_v: list[torch.Tensor]
    self_mask: torch.Tensor

    @property
    def length(self) -> int:
        return self.self_mask.size(1)

    def attend_self(self, layer_index: int, layer, causal_mask: torch.Tensor, h: torch.Tensor):
        """A decoder layer's self-attention of these positions (h (B, T, D), normalised) over the cached past and,
        causally, themselves → (out (B, T, D), their keys transposed (B, H, Dh, T), their values (B, H, T, Dh))."""
        attention = layer.self_attn
        q, k, v = attention.project_qkv(h)  # these positions only
        past = (self.self_k[layer_index], self.self_v[layer_index], self.self_mask[:, None, None, :])
        return attention.attend(q, [past, (k, v, causal_mask)]), k, v

    def extend(self, step_kv: list[tuple[torch.Tensor, torch.Tensor]], step_mask: torch.Tensor) -> "Cache":
        """The cache with these positions appended (a new object; the old one is unchanged)."""
        return replace(
            self,
            self_k=[torch.cat([past, k], dim=3) for past, (k, _) in zip(self.self_k, step_kv)],
            self_v=[torch.cat([past, v], dim=2) for past, (_, v) in zip(self.self_v, step_kv)],
            self_mask=torch.cat([self.self_mask, step_mask], dim=1),
        )


class Transformer(nn.Module):
    def __init__(self, cfg: TransformerConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.target_embed = self.embed if cfg.tie_embeddings else nn.Embedding(cfg.vocab_size, cfg.d_model, padding_idx=cfg.pad_id)
        self.register_buffer("positional", sinusoidal_table(cfg.max_positions, cfg.d_model, cfg.position_layout), persistent=False)
        self.embed_scale = math.sqrt(cfg.d_model) if cfg.scale_embedding else 1.0
        self.dropout = nn.Dropout(cfg.dropout)
        self.encoder_layers = nn.ModuleList(EncoderLayer(cfg) for _ in range(cfg.encoder_layers))
        self.decoder_layers = nn.ModuleList(DecoderLayer(cfg) for _ in range(cfg.decoder_layers))
        final_norm = cfg.norm_position == "pre"  # post-norm layers already end with a LayerNorm
        self.encoder_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if final_norm else nn.Identity()
        self.decoder_norm = nn.LayerNorm(cfg.d_model, eps=cfg.layer_norm_eps) if final_norm else nn.Identity()
        self.output_projection = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        if cfg.tie_output:
            self.output_projection.weight = self.target_embed.weight
        self.register_buffer("logits_bias", torch.zeros(cfg.vocab_size), persistent=cfg.final_logits_bias)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        for name, param in self.named_parameters():
            if param.dim() > 1:
                nn.init.xavier_uniform_(param)
            elif name.endswith("bias"):
                nn.init.zeros_(param)
        for embedding in dict.fromkeys([self.embed, self.target_embed]):  # once each, in a fixed order
            nn.init.normal_(embedding.weight, std=self.cfg.d_model ** -0.5)
            with torch.no_grad():
                embedding.weight[self.cfg.pad_id].zero_()

    def embed_tokens(self, embedding: nn.Embedding, ids: torch.Tensor, positions: torch.Tensor) -> torch.Tensor:
        return self.dropout(embedding(ids) * self.embed_scale + self.positional[positions])  # (B, T, D)

    def encode(self, src_ids: torch.Tensor, src_mask: torch.Tensor) -> torch.Tensor:
        """src_ids (B, S), src_mask (B, S) True = real token → memory (B, S, D)."""
        positions = torch.arange(src_ids.size(1), device=src_ids.device).expand_as(src_ids)
        x = self.embed_tokens(self.embed, src_ids, positions)
        mask = src_mask[:, None, None, :]  # (B, 1, 1, S)
        for layer in self.encoder_layers:
            x = layer(x, mask)
        return self.encoder_norm(x)

    def init_cache(self, memory: torch.Tensor, memory_mask: torch.Tensor) -> Cache:
        """Project every decoder layer's cross-attention K/V once; start with an empty self-attention cache."""
        batch = memory.size(0)
        cross = [layer.cross_attn.project_kv(memory) for layer in self.decoder_layers]
        empty = memory.new_zeros(batch, self.cfg.n_heads, 0, self.cfg.head_dim)  # (B, H, 0, Dh)
        return Cache(
            self_k=[empty.transpose(2, 3)] * len(cross),
            self_v=[empty] * len(cross),
            cross_k=[k for k, _ in cross],
            cross_v=[v for _, v in cross],
            self_mask=torch.zeros(batch, 0, dtype=torch.bool, device=memory.device),
        )

    def decode_step_kv(self, tokens, positions, memory_mask, cache: Cache):
        """The decoder on T new positions per row → logits (B, T, V), each layer's K/V of those positions and
        each layer's cross-attention (B, T, S) averaged over heads (the alignments)."""
        states, step_kv, alignments = self.decoder_states(tokens, positions, memory_mask, cache)
        return self.logits(states), step_kv, alignments

    def logits(self, states: torch.Tensor) -> torch.Tensor:
        """Decoder states (..., D) → logits (..., V)."""
        logits = self.output_projection(self.decoder_norm(states))
        if self.cfg.final_logits_bias:  # else the bias is zero: no graph node adds it
            logits = logits + self.logits_bias
        return logits

    def decoder_states(self, tokens, positions, memory_mask, cache: Cache):
        """The decoder layers on T new positions per row → states (B, T, D) before the final norm, each layer's K/V
        (as the cache's attend_self returns them) and each layer's cross-attention (B, T, S) averaged over heads.

        tokens, positions (B, T); memory_mask (B, S). Query t may attend to the valid cached positions
        and to new positions ≤ t.
        """
        steps = tokens.size(1)
        causal_mask = torch.ones(steps, steps, dtype=torch.bool, device=tokens.device).tril()  # (T, T)
        cross_mask = memory_mask[:, None, None, :]  # (B, 1, 1, S)
        x = self.embed_tokens(self.target_embed, tokens, positions)
        step_kv, alignments = [], []
        for i, layer in enumerate(self.decoder_layers):
            attend_self = functools.partial(cache.attend_self, i, layer, causal_mask)
            x, k, v, alignment = layer(x, attend_self, cache.cross_k[i], cache.cross_v[i], cross_mask)
            step_kv.append((k, v))
            alignments.append(alignment)
        return x, step_kv, alignments

    def decode(self, tokens, positions, memory_mask, cache: Cache) -> tuple[torch.Tensor, Cache]:
        logits, step_kv, _ = self.decode_step_kv(tokens, positions, memory_mask, cache)
        return logits, cache.extend(step_kv, torch.ones_like(tokens, dtype=torch.bool))

    def forward(self, src_ids, src_mask, tgt_in) -> torch.Tensor:
        """Teacher-forced logits (B, T, V) for training: tgt_in starts with decoder_start_id."""
        memory = self.encode(src_ids, src_mask)
        positions = torch.arange(tgt_in.size(1), device=tgt_in.device).expand_as(tgt_in)
        logits, _ = self.decode(tgt_in, positions, src_mask, self.init_cache(memory, src_mask))
        return logits


def num_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in {id(p): p for p in model.parameters()}.values())
