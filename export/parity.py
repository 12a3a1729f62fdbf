"""Numerical parity of the exported graphs with the checkpoint, at two levels, against a float64 reference.

Tensors: real validation batches of mixed lengths and sizes; each batch is encoded, every row gets a
cached prefix of its own length (so rows sit at different positions, with garbage in the masked
cache slots), and one decoder step is compared: logits, this step's K/V, encoder output, cross K/V.
Every output is compared with the same computation in float64 (the exact result, up to 1e-16), and
PyTorch's own float32 error is recorded beside it for scale.

The logits gate is a multiple of float32 rounding, measured on this model: PyTorch's own fp32 logits are
compared with float64 on the same batches, and ONNX Runtime's may be at most PYTORCH_ERROR_MULTIPLE (8)
times as far from float64. Both engines round the same computation in float32, in different orders, so
their errors are of one size (ONNX/PyTorch 0.76-1.06 on seven Marian configs); the error grows with the
model's depth, width and the logits' magnitude, and so does the bound. A floor of ROUNDING_MULTIPLE (64)
float32 epsilons (2^-23) per unit of the largest |logit| (at least 1) keeps a model that PyTorch happens
to compute almost exactly from getting a bound below what reordering alone may cost. A real export defect
(a wrong weight, op or mask) moves logits by orders more; the tests corrupt weights to show which sizes
the gate catches.

Sequences: greedy translations through PyTorch and through the scheduler's step loop, the one the
server runs. Where they first differ, the float64 logits of the two chosen tokens are compared: a
margin within twice the bound (each engine may be off by one bound) is a near-tie, reported with
its margin but not a failure; a wider margin is a mismatch, and fails the export.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field

import numpy as np
import torch

from model.checkpoint import pad_batch
from model.greedy import greedy
from model.transformer import Transformer
from service.decoding import MAX_REPEAT_PERIOD, DecodingOptions
from service.runtime import Runtime
from service.scheduler import decode
from translator.model_format import ENCODER_INPUTS, position_major

FP32_EPSILON = 2.0 ** -23
PYTORCH_ERROR_MULTIPLE = 8
ROUNDING_MULTIPLE = 64
BATCH_SIZES = (1, 2, 3, 4, 5, 8, 11, 16, 23, 32)
ALIGNMENT_TOLERANCE = 1e-4  # attention probabilities: far above fp32 rounding (~1e-7), far below what reads on a heatmap


def logits_bound(max_abs_logit: float, pytorch_error: float) -> float:
    """How far ONNX Runtime's fp32 logits may be from the float64 reference: see the module's docstring."""
    return max(PYTORCH_ERROR_MULTIPLE * pytorch_error, ROUNDING_MULTIPLE * FP32_EPSILON * max(1.0, max_abs_logit))


def float64_copy(model: Transformer) -> Transformer:
    return copy.deepcopy(model).double().eval()


@dataclass
class DiffStats:
    """Largest absolute and relative (|Δ| / (|ref| + 1e-3)) difference seen for one output."""

    max_abs: float = 0.0
    max_rel: float = 0.0
    max_reference: float = 0.0  # the largest |value| compared: the scale float32 rounding grows with
    worst: dict = field(default_factory=dict)

    def update(self, ours: np.ndarray, reference: np.ndarray, where: dict) -> None:
        diff = np.abs(ours.astype(np.float64) - reference.astype(np.float64))
        if diff.size == 0:
            return
        rel = float((diff / (np.abs(reference) + 1e-3)).max())
        self.max_rel = max(self.max_rel, rel)
        self.max_reference = max(self.max_reference, float(np.abs(reference).max()))
        if diff.max() > self.max_abs:
            self.max_abs = float(diff.max())
            row = int(np.unravel_index(diff.argmax(), diff.shape)[0])
            self.worst = {**where, "row": row, "source": where["sources"][row]}
            self.worst.pop("sources")


@dataclass
class Reference:
    """One batch through PyTorch: encoder output, the cache after each row's prefix, and one decoder step."""

    memory: torch.Tensor
    cache: object
    logits: torch.Tensor
    step_kv: list
    alignments: torch.Tensor  # (B, layers, S): the step's cross-attention, heads averaged


@torch.no_grad()
def reference_step(model: Transformer, src, src_mask, decoder_inputs: list[list[int]], prefix: list[int]) -> Reference:
    cfg, size, longest = model.cfg, src.size(0), max(prefix)
    memory = model.encode(src, src_mask)
    cache = model.init_cache(memory, src_mask)
    if longest:
        past = torch.tensor([seq[:longest] + [cfg.pad_id] * max(0, longest - len(seq)) for seq in decoder_inputs])
        _, cache = model.decode(past, torch.arange(longest).expand(size, -1), src_mask, cache)
        cache.self_mask = torch.arange(longest)[None, :] < torch.tensor(prefix)[:, None]
    step_tokens = torch.tensor([[seq[p]] for seq, p in zip(decoder_inputs, prefix)])
    logits, step_kv, alignments = model.decode_step_kv(step_tokens, torch.tensor(prefix)[:, None], src_mask, cache)
    return Reference(memory, cache, logits[:, 0], step_kv, torch.stack([a[:, 0] for a in alignments], dim=1))


def tensor_parity(model: Transformer, runtime: Runtime, pairs: list[tuple[str, list[int], list[int]]],
                  batches: int = 32, seed: int = 0, exact: Transformer | None = None) -> dict:
    """Compare encoder and one decoder step on `batches` batches of (text, source ids, target ids) with float64."""
    rng = random.Random(seed)
    exact = exact or float64_copy(model)
    stats: dict[str, DiffStats] = {}
    cfg = model.cfg
    cursor = 0
    for index in range(batches):
        size = BATCH_SIZES[index % len(BATCH_SIZES)]
        chunk = [pairs[(cursor + i) % len(pairs)] for i in range(size)]
        cursor += size
        texts, sources, targets = zip(*chunk)
        src, src_mask = pad_batch(list(sources), cfg.pad_id)
        decoder_inputs = [[cfg.decoder_start_id] + list(t) for t in targets]
        prefix = [rng.randint(0, len(seq) - 1) for seq in decoder_inputs]  # cached positions per row
        where = {"batch": index, "batch_size": size, "sources": list(texts)}
        fp32 = reference_step(model, src, src_mask, decoder_inputs, prefix)  # its cache feeds the runtime
        truth = reference_step(exact, src, src_mask, decoder_inputs, prefix)
        _compare(stats, "pytorch_fp32_logits", fp32.logits.numpy(), truth.logits.numpy(), where)
        pool = runtime.new_pool(size)
        pool.join(runtime.encode(list(sources)), [None] * size)  # the cross K/V as the decoder reads them
        width = src.shape[1]
        real = pool.memory_mask[:, :width]  # padded source positions are never read (and a length group's may be zeros)
        _compare(stats, "memory", _encoder_memory(runtime, src, real), truth.memory.numpy(), where, real[:, :, None])
        reference_cross = [t.numpy() for kv in zip(truth.cache.cross_k, truth.cache.cross_v) for t in kv]
        for name, ours, reference in zip(runtime.cross_names, position_major(pool.cross), position_major(reference_cross)):
            _compare(stats, name, ours[:, :, :width], reference, where, real[:, None, :, None])
        longest = max(prefix)
        pool.reserve(longest + 1)
        noise = np.random.default_rng(index)
        past_kv = position_major([t.numpy() for kv in zip(fp32.cache.self_k, fp32.cache.self_v) for t in kv])
        for buffer, past in zip(pool.self_kv, past_kv):  # masked slots hold garbage on purpose
            buffer[:] = noise.standard_normal(buffer.shape)
            buffer[:, :, :longest] = np.where(fp32.cache.self_mask.numpy()[:, None, :, None], past, buffer[:, :, :longest])
        pool.lengths[:] = prefix
        pool.last_tokens[:] = [seq[p] for seq, p in zip(decoder_inputs, prefix)]
        logits, alignments = runtime.step(pool)
        _compare(stats, "logits", logits, truth.logits.numpy(), where)
        if alignments is not None:
            reference = truth.alignments[:, runtime.alignment_layer].numpy()  # (B, S); the pool holds more positions
            _compare(stats, "alignments", alignments[:, : reference.shape[1]], reference, where)
        rows = np.arange(size)
        step_kv = position_major([t.numpy() for kv in truth.step_kv for t in kv])
        for i, (buffer, reference) in enumerate(zip(pool.self_kv, step_kv)):
            _compare(stats, f"present_{'key' if i % 2 == 0 else 'value'}_{i // 2}", buffer[rows, :, prefix], reference[:, :, 0], where)
    report = {name: {"max_abs": s.max_abs, "max_rel": s.max_rel, "max_reference": s.max_reference,
                     "worst_input": s.worst} for name, s in stats.items()}
    return {"batches": batches, "batch_sizes": sorted({BATCH_SIZES[i % len(BATCH_SIZES)] for i in range(batches)}),
            "reference": "float64", "outputs": report}


def _encoder_memory(runtime: Runtime, src: torch.Tensor, src_mask: np.ndarray) -> np.ndarray:
    memory, *_ = runtime.encoder.run(None, dict(zip(ENCODER_INPUTS, (src.numpy(), src_mask))))
    return memory


def _compare(stats, name, ours, reference, where, mask=None):
    """`mask` (broadcast against both) keeps the positions that count."""
    if mask is not None:
        ours, reference = ours * mask, reference * mask
    stats.setdefault(name, DiffStats()).update(ours, reference, where)


def sequence_parity(model: Transformer, runtime: Runtime, texts: list[str], bound: float, batch_size: int = 32,
                    exact: Transformer | None = None) -> dict:
    """Greedy token ids through PyTorch and through the runtime. Each difference is judged at its first differing
    token by the float64 margin between the two engines' choices: a near-tie within 2 × bound, else a mismatch."""
    tokenizer, exact = runtime.tokenizer, exact or float64_copy(model)
    sources = tokenizer.encode_batch(texts)
    order = sorted(range(len(texts)), key=lambda i: len(sources[i]))
    near_ties, mismatches = [], []
    for start in range(0, len(order), batch_size):
        chunk = order[start : start + batch_size]
        chunk_sources = [sources[i] for i in chunk]
        limit = min(2 * max(map(len, chunk_sources)) + 10, runtime.limits.max_output_tokens)
        src, src_mask = pad_batch(chunk_sources, model.cfg.pad_id)
        reference = greedy(model, src, src_mask, limit, repeat_period=MAX_REPEAT_PERIOD)
        ours = [r.output_ids for r in decode(runtime, chunk_sources, DecodingOptions(max_output_tokens=limit))]
        for i, a, b in zip(chunk, reference, ours):
            if a == b:
                continue
            difference = first_difference(exact, sources[i], a, b)
            difference |= {"source": texts[i], "pytorch": tokenizer.decode(a), "onnx": tokenizer.decode(b)}
            (near_ties if abs(difference["float64_margin"]) <= 2 * bound else mismatches).append(difference)
    identical = len(texts) - len(near_ties) - len(mismatches)
    return {"sentences": len(texts), "token_identical": identical, "share": identical / len(texts),
            "near_ties": near_ties, "mismatches": mismatches}


@torch.no_grad()
def first_difference(exact: Transformer, source: list[int], a: list[int], b: list[int]) -> dict:
    """Where two greedy outputs part, and the float64 logit margin of PyTorch's token over ours there."""
    cfg = exact.cfg
    first = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    token_a = a[first] if first < len(a) else cfg.eos_id  # the shorter output ended there
    token_b = b[first] if first < len(b) else cfg.eos_id
    src = torch.tensor([source])
    logits = exact(src, torch.ones_like(src, dtype=torch.bool), torch.tensor([[cfg.decoder_start_id] + a[:first]]))[0, -1]
    return {"first_differing_token": first, "pytorch_token": token_a, "onnx_token": token_b,
            "float64_margin": float(logits[token_a] - logits[token_b])}
