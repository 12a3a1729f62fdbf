"""Checkpoint → encoder.onnx + decoder.onnx.

encoder: src_ids (B, S), src_mask (B, S) → memory (B, S, D) and each decoder layer's cross keys (B, H, Dh, S)
and values (B, H, S, Dh). Cross keys are transposed (model.attention.KVBlock says why).
decoder: one step for B rows at their own positions:
    tokens (B,), positions (B,), memory_mask (B, S),
    per layer past_key_i, past_value_i (B, H, P, Dh), cross_key_i (B, H, Dh, S), cross_value_i (B, H, S, Dh)
    → logits (B, V), per layer present_key_i, present_value_i (B, H, P, Dh): the past with this step's K/V written at
    each row's position, and alignments (B, layers, S): each layer's cross-attention of this position, averaged over
    heads (costs a mean over probabilities computed anyway).
Row i's past is positions [0, positions[i]) of its buffers; P (≥ positions + 1) is the runtime's buffer length.
Self-attention over the past is ONNX Runtime's GroupQueryAttention: bound to the same memory as the past (IO
binding), the present is written in place, so a step appends to the cache without copying it and without a
numpy scatter into a transposed layout, and attends in one fused kernel per layer.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import onnx
import torch
from onnx.defs import OpSchema
from onnxscript import INT32
from onnxscript import opset20 as op
from onnxscript.values import Op, Opset
from torch import nn

from model.attention import blockwise_attention
from model.transformer import Transformer
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


# -- self-attention over the runtime's buffers: ONNX Runtime's GroupQueryAttention ----------------------------------
@torch.library.custom_op("translator::cached_self_attention", mutates_args=())
def cached_self_attention(qkv: torch.Tensor, past_k: torch.Tensor, past_v: torch.Tensor, positions: torch.Tensor,
                          num_heads: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One position per row: its queries, keys and values side by side, qkv (B, 1, 3D), attend over the row's past
    (positions [0, positions[i]) of past_k, past_v (B, H, P, Dh)) and itself → (out (B, 1, D) heads merged,
    present_k, present_v: the buffers with this step's K/V at positions[i]). What com.microsoft::GroupQueryAttention
    computes from a packed QKV input; this is its PyTorch meaning."""
    batch, _, packed = qkv.shape
    width = packed // 3
    q, k, v = (t.reshape(batch, num_heads, 1, width // num_heads) for t in qkv.chunk(3, dim=-1))
    past_mask = torch.arange(past_k.size(2))[None, :] < positions[:, None]
    out, _ = blockwise_attention(q, [(past_k.transpose(2, 3), past_v, past_mask[:, None, None, :]),
                                     (k.transpose(2, 3), v, None)])
    rows = torch.arange(batch)
    present_k, present_v = past_k.clone(), past_v.clone()
    present_k[rows, :, positions], present_v[rows, :, positions] = k[:, :, 0], v[:, :, 0]
    return out.reshape(batch, 1, width), present_k, present_v


@cached_self_attention.register_fake
def _(qkv, past_k, past_v, positions, num_heads):
    batch, length, packed = qkv.shape
    return qkv.new_empty(batch, length, packed // 3), torch.empty_like(past_k), torch.empty_like(past_v)


_MS = Opset("com.microsoft", 1)
_PARAMETER = OpSchema.FormalParameter
_OMITTED = OpSchema.FormalParameterOption.Optional
# onnxscript needs a schema to record a call; ONNX has none for ONNX Runtime's contrib ops. The inputs named here
# are the ones used (of GroupQueryAttention's 7+ inputs, in its order); key and value stay empty: the query input
# holds all three (packed), which spares the graph a Split and its copies.
GROUP_QUERY_ATTENTION = Op(_MS, "GroupQueryAttention", OpSchema(
    "GroupQueryAttention", "com.microsoft", 1,
    inputs=[_PARAMETER("query", "T"), _PARAMETER("key", "T", param_option=_OMITTED),
            _PARAMETER("value", "T", param_option=_OMITTED), _PARAMETER("past_key", "T"), _PARAMETER("past_value", "T"),
            _PARAMETER("seqlens_k", "M"), _PARAMETER("total_sequence_length", "M")],
    outputs=[_PARAMETER(name, "T") for name in ("output", "present_key", "present_value")],
    type_constraints=[("T", ["tensor(float)", "tensor(float16)"], ""), ("M", ["tensor(int32)"], "")],
    attributes=[OpSchema.Attribute("num_heads", OpSchema.AttrType.INT, ""),
                OpSchema.Attribute("kv_num_heads", OpSchema.AttrType.INT, "")]))


def cached_self_attention_onnx(qkv, past_k, past_v, positions, num_heads: int):
    """seqlens_k is each row's past length (GroupQueryAttention's "total length - 1"); total_sequence_length the
    buffers' P, which it never exceeds."""
    seqlens = op.Cast(positions, to=INT32.dtype)
    total = op.Cast(op.Squeeze(op.Shape(past_k, start=2, end=3)), to=INT32.dtype)
    return GROUP_QUERY_ATTENTION(qkv, None, None, past_k, past_v, seqlens, total, num_heads=num_heads,
                                 kv_num_heads=num_heads)


@dataclass
class StepBuffers:
    """The decoder's view of the runtime's buffers for one step (what model.transformer.Cache is to PyTorch
    decoding): self-attention goes through cached_self_attention and returns the whole present buffers."""

    past_k: list[torch.Tensor]
    past_v: list[torch.Tensor]
    cross_k: list[torch.Tensor]
    cross_v: list[torch.Tensor]
    positions: torch.Tensor  # (B,)

    def attend_self(self, layer_index: int, layer, causal_mask: torch.Tensor, h: torch.Tensor):
        attention = layer.self_attn
        out, present_k, present_v = cached_self_attention(attention.packed_qkv(h), self.past_k[layer_index],
                                                          self.past_v[layer_index], self.positions, attention.n_heads)
        return attention.out_proj(out), present_k, present_v


class DecoderGraph(nn.Module):
    def __init__(self, model: Transformer):
        super().__init__()
        self.model = model

    def forward(self, tokens, positions, memory_mask, *caches):
        layers = len(self.model.decoder_layers)
        past, cross = caches[: 2 * layers], caches[2 * layers :]
        buffers = StepBuffers(list(past[0::2]), list(past[1::2]), list(cross[0::2]), list(cross[1::2]), positions)
        states, present, alignments = self.model.decoder_states(tokens[:, None], positions[:, None], memory_mask, buffers)
        # One position per row: (B, D) states go into the output projection, so the (large) logits are written
        # once, straight into the graph's output, with no reshape or gather copying them again.
        logits = self.model.logits(states.flatten(1))
        return (logits, *[t for kv in present for t in kv], torch.cat(alignments, dim=1))


def sample_inputs(model: Transformer, batch: int = 3, src_len: int = 5, past_len: int = 6):
    cfg = model.cfg
    src_ids = torch.randint(4, cfg.vocab_size, (batch, src_len))
    src_mask = torch.ones(batch, src_len, dtype=torch.bool)
    src_mask[0, -1] = False
    heads, head_dim, layers = cfg.n_heads, cfg.head_dim, cfg.decoder_layers
    past = [torch.randn(batch, heads, past_len, head_dim) for _ in range(2 * layers)]
    cross = [torch.randn(batch, heads, head_dim, src_len) if i % 2 == 0 else torch.randn(batch, heads, src_len, head_dim)
             for i in range(2 * layers)]  # keys transposed, values
    decoder_args = (torch.randint(4, cfg.vocab_size, (batch,)), torch.arange(batch) + 1, src_mask, *past, *cross)
    return (src_ids, src_mask), decoder_args


def export_onnx(model: Transformer, out_dir: Path, opset: int = OPSET) -> dict:
    """Write encoder.onnx and decoder.onnx (fp32) into out_dir; return the graphs' op counts."""
    model = model.eval()
    layers = model.cfg.decoder_layers
    encoder_args, decoder_args = sample_inputs(model)
    batch, source, past = torch.export.Dim("batch"), torch.export.Dim("source"), torch.export.Dim("past")
    # torch.export treats dims of size 0/1 as static, so the samples above use sizes ≥ 2.
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
            dynamic_shapes=({0: batch}, {0: batch}, {0: batch, 1: source},
                            ({0: batch, 2: past}, {0: batch, 2: past}) * layers
                            + ({0: batch, 3: source}, {0: batch, 2: source}) * layers),  # cross keys transposed
            custom_translation_table={torch.ops.translator.cached_self_attention.default: cached_self_attention_onnx},
        )
    return {name: check_graph(out_dir / name) for name in (ENCODER_FILE, DECODER_FILE)}


def check_graph(path: Path) -> dict:
    """onnx.checker and strict shape inference must pass; returns opset and op counts."""
    onnx.checker.check_model(str(path), full_check=True)
    proto = onnx.load(str(path))
    onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
    return {"opset": next(o.version for o in proto.opset_import if o.domain in ("", "ai.onnx")),
            "ops": dict(Counter(node.op_type for node in proto.graph.node).most_common())}
