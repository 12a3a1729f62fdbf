"""Numerical parity of the exported graphs with PyTorch, at two levels.

Tensors: real validation batches of mixed lengths and sizes; each batch is encoded, every row gets a
cached prefix of its own length (so rows sit at different positions, with garbage in the masked
cache slots), and one decoder step is compared: logits, this step's K/V, encoder output, cross K/V.

Sequences: greedy translations through PyTorch and through the scheduler's step loop, the one the
server runs, must be token-identical.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import numpy as np
import torch

from model.checkpoint import pad_batch
from model.greedy import greedy
from model.transformer import Transformer
from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import decode
from translator.model_format import ENCODER_INPUTS

# fp32 logits may differ by this much per unit of the largest |logit| (at least 1): float32 rounding error
# grows with the magnitude of the values, so trained models with logits of 30-50 get a proportionally
# larger bound, while a real export bug (a wrong weight or op) moves logits by their own order of magnitude.
LOGITS_TOLERANCE = 1e-4
BATCH_SIZES = (1, 2, 3, 4, 5, 8, 11, 16, 23, 32)


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


def tensor_parity(model: Transformer, runtime: Runtime, pairs: list[tuple[str, list[int], list[int]]],
                  batches: int = 32, seed: int = 0) -> dict:
    """Compare encoder and one decoder step on `batches` batches of (text, source ids, target ids)."""
    rng = random.Random(seed)
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
        with torch.no_grad():
            memory = model.encode(src, src_mask)
            cache = model.init_cache(memory, src_mask)
            longest = max(prefix)
            if longest:
                past = torch.tensor([seq[:longest] + [cfg.pad_id] * max(0, longest - len(seq)) for seq in decoder_inputs])
                _, cache = model.decode(past, torch.arange(longest).expand(size, -1), src_mask, cache)
                cache.self_mask = torch.arange(longest)[None, :] < torch.tensor(prefix)[:, None]
            step_tokens = torch.tensor([[seq[p]] for seq, p in zip(decoder_inputs, prefix)])
            logits, step_kv = model.decode_step_kv(step_tokens, torch.tensor(prefix)[:, None], src_mask, cache)
        encoded = runtime.encode(list(sources))
        _compare(stats, "memory", _encoder_memory(runtime, src, encoded.memory_mask), memory.numpy(), where,
                 src_mask.numpy())
        for i, name in enumerate(runtime.cross_names):
            reference = (cache.cross_k if i % 2 == 0 else cache.cross_v)[i // 2]
            _compare(stats, name, encoded.cross[i], reference.numpy(), where)
        pool = runtime.new_pool(size)
        pool.join(encoded, [None] * size)
        pool.reserve(longest + 1)
        noise = np.random.default_rng(index)
        for i, buffer in enumerate(pool.self_kv):  # masked slots hold garbage on purpose
            past = (cache.self_k if i % 2 == 0 else cache.self_v)[i // 2].numpy()
            buffer[:] = noise.standard_normal(buffer.shape)
            buffer[:, :, :longest] = np.where(cache.self_mask.numpy()[:, None, :, None], past, buffer[:, :, :longest])
        pool.lengths[:] = prefix
        pool.last_tokens[:] = step_tokens[:, 0].numpy()
        ort_logits = runtime.step(pool)
        _compare(stats, "logits", ort_logits, logits[:, 0].numpy(), where)
        rows = np.arange(size)
        for i, buffer in enumerate(pool.self_kv):
            reference = step_kv[i // 2][i % 2][:, :, 0].numpy()
            _compare(stats, f"present_{'key' if i % 2 == 0 else 'value'}_{i // 2}", buffer[rows, :, prefix], reference, where)
    report = {name: {"max_abs": s.max_abs, "max_rel": s.max_rel, "max_reference": s.max_reference,
                     "worst_input": s.worst} for name, s in stats.items()}
    return {"batches": batches, "batch_sizes": sorted({BATCH_SIZES[i % len(BATCH_SIZES)] for i in range(batches)}),
            "outputs": report}


def _encoder_memory(runtime: Runtime, src: torch.Tensor, src_mask: np.ndarray) -> np.ndarray:
    memory, *_ = runtime.encoder.run(None, dict(zip(ENCODER_INPUTS, (src.numpy(), src_mask))))
    return memory


def _compare(stats, name, ours, reference, where, mask=None):
    if mask is not None:  # padding positions of the encoder output are never read
        ours, reference = ours * mask[..., None], reference * mask[..., None]
    stats.setdefault(name, DiffStats()).update(ours, reference, where)


def sequence_parity(model: Transformer, runtime: Runtime, texts: list[str], batch_size: int = 32) -> dict:
    """Greedy token ids through PyTorch and through the runtime: share identical, every mismatch listed."""
    tokenizer = runtime.tokenizer
    sources = tokenizer.encode_batch(texts)
    order = sorted(range(len(texts)), key=lambda i: len(sources[i]))
    mismatches = []
    for start in range(0, len(order), batch_size):
        chunk = order[start : start + batch_size]
        chunk_sources = [sources[i] for i in chunk]
        limit = min(2 * max(map(len, chunk_sources)) + 10, runtime.limits.max_output_tokens)
        src, src_mask = pad_batch(chunk_sources, model.cfg.pad_id)
        reference = greedy(model, src, src_mask, limit)
        ours = [r.output_ids for r in decode(runtime, chunk_sources, DecodingOptions(max_output_tokens=limit))]
        for i, a, b in zip(chunk, reference, ours):
            if a != b:
                first = next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
                mismatches.append({"source": texts[i], "pytorch": tokenizer.decode(a), "onnx": tokenizer.decode(b),
                                   "first_differing_token": first})
    identical = len(texts) - len(mismatches)
    return {"sentences": len(texts), "token_identical": identical, "share": identical / len(texts), "mismatches": mismatches}
