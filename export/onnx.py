"""Checkpoint → encoder.onnx + decoder.onnx.

encoder: src_ids (B, S), src_mask (B, S) → memory (B, S, D) and each decoder layer's cross keys (B, H, Dh, S)
and values (B, H, S, Dh). Keys are transposed throughout (model.attention.KVBlock says why).
decoder: one step for B rows at their own positions:
    tokens (B,), positions (B,), memory_mask (B, S), past_mask (B, P),
    per layer past_key_i (B, H, Dh, P), past_value_i (B, H, P, Dh), cross_key_i (B, H, Dh, S), cross_value_i (B, H, S, Dh)
    → logits (B, V), per layer present_key_i (B, H, Dh, 1), present_value_i (B, H, 1, Dh), and alignments (B, layers, S): each
    layer's cross-attention of this position, averaged over heads (costs a mean over probabilities computed anyway).
The runtime keeps the past in its own buffers and writes each step's K/V into them, so a step's work
grows with the current length P, never with a maximum.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import onnx
import torch
from torch import nn

from model.transformer import Cache, Transformer
from translator.model_format import (DECODER_ALIGNMENTS, DECODER_FILE, DECODER_INPUTS, DECODER_LOGITS, ENCODER_FILE, ENCODER_INPUTS,
                                     ENCODER_MEMORY, cache_names)

OPSET = 20


class EncoderGraph(nn.Module):
    def __init__(self, model: Transformer):
        super().__init__()
        self.model = model

    def forward(self, src_ids: torch.Tensor, src_mask: torch.Tensor):
        memory = self.model.encode(src_ids, src_mask)
        cross = [kv for layer in self.model.decoder_layers for kv in layer.cross_attn.project_kv(memory)]
        return (memory, *cross)


class DecoderGraph(nn.Module):
    def __init__(self, model: Transformer):
        super().__init__()
        self.model = model

    def forward(self, tokens, positions, memory_mask, past_mask, *caches):
        layers = len(self.model.decoder_layers)
        past, cross = caches[: 2 * layers], caches[2 * layers :]
        cache = Cache(self_k=list(past[0::2]), self_v=list(past[1::2]), cross_k=list(cross[0::2]),
                      cross_v=list(cross[1::2]), self_mask=past_mask)
        states, step_kv, alignments = self.model.decoder_states(tokens[:, None], positions[:, None], memory_mask, cache)
        # One position per row: (B, D) states go into the output projection, so the (large) logits are written
        # once, straight into the graph's output, with no reshape or gather copying them again.
        logits = self.model.logits(states.flatten(1))
        return (logits, *[t for kv in step_kv for t in kv], torch.cat(alignments, dim=1))


def sample_inputs(model: Transformer, batch: int = 3, src_len: int = 5, past_len: int = 4):
    cfg = model.cfg
    src_ids = torch.randint(4, cfg.vocab_size, (batch, src_len))
    src_mask = torch.ones(batch, src_len, dtype=torch.bool)
    src_mask[0, -1] = False
    def kv(length):  # keys transposed, values
        return [torch.randn(batch, cfg.n_heads, cfg.head_dim, length), torch.randn(batch, cfg.n_heads, length, cfg.head_dim)]

    layers = cfg.decoder_layers
    decoder_args = (
        torch.randint(4, cfg.vocab_size, (batch,)), torch.arange(batch) + past_len - batch + 1, src_mask,
        torch.ones(batch, past_len, dtype=torch.bool),
        *[t for _ in range(layers) for t in kv(past_len)], *[t for _ in range(layers) for t in kv(src_len)],
    )
    return (src_ids, src_mask), decoder_args


def export_onnx(model: Transformer, out_dir: Path, opset: int = OPSET) -> dict:
    """Write encoder.onnx and decoder.onnx (fp32) into out_dir; return the graphs' op counts."""
    model = model.eval()
    layers = model.cfg.decoder_layers
    encoder_args, decoder_args = sample_inputs(model)
    batch, source, past = torch.export.Dim("batch"), torch.export.Dim("source"), torch.export.Dim("past")
    # torch.export treats dims of size 0/1 as static, so the samples above use sizes ≥ 2.
    kv_dims = lambda length: [{0: batch, 3: length}, {0: batch, 2: length}]  # noqa: E731  keys transposed, values
    with torch.no_grad():
        torch.onnx.export(
            EncoderGraph(model).eval(), encoder_args, str(out_dir / ENCODER_FILE), dynamo=True, external_data=False, verbose=False,
            opset_version=opset, input_names=list(ENCODER_INPUTS),
            output_names=[ENCODER_MEMORY, *cache_names("cross", layers)],
            dynamic_shapes=({0: batch, 1: source}, {0: batch, 1: source}),
        )
        torch.onnx.export(
            DecoderGraph(model).eval(), decoder_args, str(out_dir / DECODER_FILE), dynamo=True, external_data=False, verbose=False,
            opset_version=opset,
            input_names=[*DECODER_INPUTS, *cache_names("past", layers), *cache_names("cross", layers)],
            output_names=[DECODER_LOGITS, *cache_names("present", layers), DECODER_ALIGNMENTS],
            dynamic_shapes=({0: batch}, {0: batch}, {0: batch, 1: source}, {0: batch, 1: past},
                            (*kv_dims(past) * layers, *kv_dims(source) * layers)),
        )
    return {name: check_graph(out_dir / name) for name in (ENCODER_FILE, DECODER_FILE)}


def check_graph(path: Path) -> dict:
    """onnx.checker and strict shape inference must pass; returns opset and op counts."""
    onnx.checker.check_model(str(path), full_check=True)
    proto = onnx.load(str(path))
    onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
    return {"opset": next(o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")),
            "ops": dict(Counter(node.op_type for node in proto.graph.node).most_common())}
