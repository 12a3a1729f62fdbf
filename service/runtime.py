"""ONNX Runtime inference for an exported model directory: encode once, then decode step by step
with a KV cache that lives in numpy buffers owned by a ``DecoderBatch``. No torch here.

A ``DecoderBatch`` changes membership only through ``select(rows)`` and ``concat(batches)``; rows
may be at different positions, which the masks and per-row positions make exact.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import onnxruntime as ort

from model.tokenizer import SpecialIds, Tokenizer

PRECISIONS = {"fp32": "", "int8": ".int8", "fp16": ".fp16"}
CACHE_CHUNK = 16  # self-attention cache capacity is a multiple of this; it doubles when full


def model_files(model_dir: Path, precision: str) -> tuple[Path, Path]:
    suffix = PRECISIONS[precision]
    return model_dir / f"encoder{suffix}.onnx", model_dir / f"decoder{suffix}.onnx"


def session_options(threads: int | None) -> ort.SessionOptions:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.inter_op_num_threads = 1
    if threads:
        options.intra_op_num_threads = threads
    options.log_severity_level = 3
    return options


def choose_providers(device: str) -> list[str]:
    """CUDA when asked for and present, else CPU."""
    available = ort.get_available_providers()
    if device == "cuda":
        if "CUDAExecutionProvider" not in available:
            raise RuntimeError(f"device 'cuda' asked for, but this onnxruntime offers only {available}; "
                               "install onnxruntime-gpu (pip install '.[gpu]') or use --device cpu")
        return ["CUDAExecutionProvider", "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


@dataclass
class DecoderBatch:
    """Decoder state of B rows. Per layer, cross K/V (B, H, S, Dh) and self K/V buffers (B, H, C, Dh);
    row i has ``lengths[i]`` valid self positions (its next position) and ``memory_mask[i]`` valid source ones."""

    cross: list[np.ndarray]  # [key_0, value_0, key_1, ...]
    memory_mask: np.ndarray  # (B, S) bool
    self_kv: list[np.ndarray]  # [key_0, value_0, ...], each (B, H, C, Dh)
    lengths: np.ndarray  # (B,) int64
    last_tokens: np.ndarray  # (B,) int64: the token each row feeds next

    @property
    def size(self) -> int:
        return len(self.lengths)

    @property
    def capacity(self) -> int:
        return self.self_kv[0].shape[2]

    def nbytes(self) -> int:
        return sum(a.nbytes for a in self.cross + self.self_kv)

    def select(self, rows) -> "DecoderBatch":
        """The batch restricted to rows (in that order), trimmed to the lengths they still need."""
        rows = np.asarray(rows, dtype=np.int64)
        memory_mask = self.memory_mask[rows]
        source = int(memory_mask.sum(1).max()) if len(rows) else 0  # sources are right-padded
        lengths = self.lengths[rows]
        capacity = cache_capacity(int(lengths.max()) + 1 if len(rows) else 1)
        return DecoderBatch(
            cross=[np.ascontiguousarray(a[rows, :, :source]) for a in self.cross],
            memory_mask=np.ascontiguousarray(memory_mask[:, :source]),
            self_kv=[np.ascontiguousarray(a[rows, :, : min(capacity, self.capacity)]) for a in self.self_kv],
            lengths=lengths.copy(),
            last_tokens=self.last_tokens[rows].copy(),
        )

    @staticmethod
    def concat(batches: list["DecoderBatch"]) -> "DecoderBatch":
        """One batch holding the rows of all batches, padded to the longest source and cache."""
        batches = [b for b in batches if b.size]
        if len(batches) == 1:
            return batches[0]
        source = max(b.memory_mask.shape[1] for b in batches)
        capacity = max(b.capacity for b in batches)
        return DecoderBatch(
            cross=[np.concatenate([_pad_axis(b.cross[i], 2, source) for b in batches]) for i in range(len(batches[0].cross))],
            memory_mask=np.concatenate([_pad_axis(b.memory_mask, 1, source) for b in batches]),
            self_kv=[np.concatenate([_pad_axis(b.self_kv[i], 2, capacity) for b in batches]) for i in range(len(batches[0].self_kv))],
            lengths=np.concatenate([b.lengths for b in batches]),
            last_tokens=np.concatenate([b.last_tokens for b in batches]),
        )

    def ensure_capacity(self) -> None:
        """Double the self-attention buffers when some row is about to outgrow them: copies stay O(length)
        in total, and a step attends over at most twice the longest row (masked slots cost little)."""
        if int(self.lengths.max()) >= self.capacity:
            self.self_kv = [_pad_axis(a, 2, 2 * self.capacity) for a in self.self_kv]


def cache_capacity(length: int) -> int:
    """Buffer positions for `length` cached positions: the next multiple of CACHE_CHUNK."""
    return -(-length // CACHE_CHUNK) * CACHE_CHUNK


def _pad_axis(array: np.ndarray, axis: int, size: int) -> np.ndarray:
    if array.shape[axis] == size:
        return array
    widths = [(0, 0)] * array.ndim
    widths[axis] = (0, size - array.shape[axis])
    return np.pad(array, widths)


@dataclass
class ModelInfo:
    name: str
    version: str
    precision: str
    provider: str
    config: dict = field(repr=False)


class Runtime:
    """The encoder and decoder sessions of one exported model, and its tokenizer."""

    def __init__(self, model_dir: Path, *, precision: str = "fp32", device: str = "cpu", threads: int | None = None):
        self.model_dir = Path(model_dir)
        if precision not in PRECISIONS:
            raise ValueError(f"precision {precision!r} must be one of {sorted(PRECISIONS)}")
        config_path = self.model_dir / "config.json"
        if not config_path.exists():
            raise FileNotFoundError(f"{self.model_dir} is not an exported model directory: config.json is missing")
        meta = json.loads(config_path.read_text())
        self.config = meta["model"]
        self.limits = meta["limits"]
        encoder_path, decoder_path = model_files(self.model_dir, precision)
        if not encoder_path.exists():
            raise FileNotFoundError(f"{encoder_path} is missing: export the model with this precision first")
        providers = choose_providers(device)
        options = session_options(threads)
        self.encoder = ort.InferenceSession(str(encoder_path), options, providers=providers)
        self.decoder = ort.InferenceSession(str(decoder_path), options, providers=providers)
        self.info = ModelInfo(meta["name"], str(meta["version"]), precision, self.decoder.get_providers()[0], meta)
        cfg = self.config
        self.special = SpecialIds(pad=cfg["pad_id"], unk=cfg["unk_id"], bos=cfg["bos_id"], eos=cfg["eos_id"])
        self.tokenizer = Tokenizer.from_dir(self.model_dir, self.special)
        self.layers = cfg["decoder_layers"]
        self.cross_names = [f"cross_{k}_{i}" for i in range(self.layers) for k in ("key", "value")]
        self.past_names = [f"past_{k}_{i}" for i in range(self.layers) for k in ("key", "value")]

    @property
    def max_positions(self) -> int:
        return self.config["max_positions"]

    def encode(self, sources: list[list[int]]) -> DecoderBatch:
        """Run the encoder once for these sources; the batch is ready for the first decoder step."""
        lengths = np.array([len(s) for s in sources], dtype=np.int64)
        src_ids = np.full((len(sources), int(lengths.max())), self.special.pad, dtype=np.int64)
        for row, ids in enumerate(sources):
            src_ids[row, : len(ids)] = ids
        src_mask = np.arange(src_ids.shape[1])[None, :] < lengths[:, None]
        _, *cross = self.encoder.run(None, {"src_ids": src_ids, "src_mask": src_mask})
        heads, head_dim = cross[0].shape[1], cross[0].shape[3]
        empty = np.zeros((len(sources), heads, CACHE_CHUNK, head_dim), dtype=cross[0].dtype)
        return DecoderBatch(
            cross=cross, memory_mask=src_mask, self_kv=[empty.copy() for _ in range(2 * self.layers)],
            lengths=np.zeros(len(sources), dtype=np.int64),
            last_tokens=np.full(len(sources), self.config["decoder_start_id"], dtype=np.int64),
        )

    def step(self, batch: DecoderBatch) -> np.ndarray:
        """Feed each row's last token at its own position; returns logits (B, V) and appends the step's K/V."""
        batch.ensure_capacity()
        feed = {
            "tokens": batch.last_tokens, "positions": batch.lengths, "memory_mask": batch.memory_mask,
            "past_mask": np.arange(batch.capacity)[None, :] < batch.lengths[:, None],
            **dict(zip(self.past_names, batch.self_kv)), **dict(zip(self.cross_names, batch.cross)),
        }
        logits, *present = self.decoder.run(None, feed)
        rows = np.arange(batch.size)
        for buffer, step_kv in zip(batch.self_kv, present):
            buffer[rows, :, batch.lengths, :] = step_kv[:, :, 0, :]  # (B, H, Dh) into column lengths[i]
        batch.lengths += 1
        return logits
