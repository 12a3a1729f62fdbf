"""ONNX Runtime inference for an exported model directory: encode once, then decode step by step over
a ``SlotPool``, the KV cache and per-row state of every running sequence. No torch here.

The pool's rows 0..size-1 are the running sequences; a decoder step reads the first ``size`` rows of
each buffer, which are contiguous views, so nothing is gathered or copied to build a batch. Rows change
only through ``join`` (writes the new rows' own slots) and ``free`` (moves the last row into each hole).
"""

from __future__ import annotations

import itertools
import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnxruntime as ort

from service._rowkernel import RowKernel
from service.config import DeviceUnavailable
from service.model import Model, ModelInfo
from translator.model_format import (DECODER_ALIGNMENTS, DECODER_INPUTS, DECODER_LOGITS, ENCODER_INPUTS, cache_names,
                                     graph_files, position_major)

CACHE_CHUNK = 8  # cache lengths (self and source positions) are multiples of this
# The fixed cost of one encoder run on CPU, in source positions (shipped model, 1 thread: ~0.23 ms int8 and ~0.7 ms
# fp32 per run, ~45 and ~110 us per position). Sources are grouped so that no group pads more than this; on a GPU
# positions are nearly free and a run's launches are not, so every source goes into one run there.
CPU_RUN_COST_POSITIONS = 6
# What a row asks of a step beyond a greedy token (bits of SlotPool.features). A step checks which of them any row
# has (one reduction) and skips the work of the others: the plain greedy batch pays only for UNREPEATED's pass over
# the rows (suppress_repeats, on unless a request turns it off; under a microsecond at 64 rows).
STREAMING, SAMPLED, SCORED, ALIGNED, BEAM, UNREPEATED = 1, 2, 4, 8, 16, 32


def session_options(threads: int | None, spinning: bool) -> ort.SessionOptions:
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    options.inter_op_num_threads = 1
    options.intra_op_num_threads = threads or os.cpu_count() or 1
    # Spinning threads burn a core each while waiting for the next step; off, an idle server uses ~0 CPU.
    options.add_session_config_entry("session.intra_op.allow_spinning", "1" if spinning else "0")
    options.log_severity_level = 3
    return options


# fp32 graphs compute in fp32 on a GPU as on the CPU, as the parity gates proved them: ONNX Runtime's CUDA provider
# otherwise rounds the inputs of fp32 products to TF32 (10-bit mantissa) on Ampere and later GPUs. fp16 is the fast one.
CUDA_PROVIDER = ("CUDAExecutionProvider", {"use_tf32": "0"})


def choose_providers(device: str) -> list:
    """CUDA when asked for and present, else CPU."""
    available = ort.get_available_providers()
    if device == "cuda":
        if "CUDAExecutionProvider" not in available:
            raise DeviceUnavailable(f"device 'cuda' asked for, but this onnxruntime offers only {available}; "
                                    "install onnxruntime-gpu (pip install '.[gpu]') or use --device cpu")
        # onnxruntime-gpu[cuda,cudnn] installs CUDA and cuDNN as pip packages, which the loader does not search:
        # load them first (ONNX Runtime finds them itself where they are installed system-wide or torch loaded them).
        if hasattr(ort, "preload_dlls"):  # 1.21+; '.[gpu]' asks for it, an older one installed by hand lacks it
            ort.preload_dlls()
        return [CUDA_PROVIDER, "CPUExecutionProvider"]
    return ["CPUExecutionProvider"]


def require_provider(session: ort.InferenceSession, device: str) -> None:
    """Fail where ONNX Runtime could not start the device's provider: it would log an error and go on with the
    next (a 'cuda' model would run on the CPU, and only the log would say so)."""
    wanted = CUDA_PROVIDER[0] if device == "cuda" else "CPUExecutionProvider"
    if (running := session.get_providers()[0]) != wanted:
        raise DeviceUnavailable(
            f"{wanted} asked for, but ONNX Runtime could not start it (its log above says why), so the model would run "
            f"on {running}. It needs the CUDA major version this onnxruntime-gpu was built for "
            f"({getattr(ort, 'cuda_version', '') or 'see its docs'}) and cuDNN 9: install '.[gpu]' "
            "(onnxruntime-gpu[cuda,cudnn] brings both), or use --device cpu")


def cache_capacity(length: int) -> int:
    """Buffer positions for `length` positions. Steps grow by about a quarter: a step attends over at most
    ~25% (or CACHE_CHUNK) masked positions, and growth stays geometric, so its copies are amortised O(1)."""
    capacity = CACHE_CHUNK
    while capacity < length:
        capacity += max(CACHE_CHUNK, capacity // 4 // CACHE_CHUNK * CACHE_CHUNK)
    return capacity


# A pool's buffers as a decoder step binds them: a new number whenever any of them is reallocated, unique across
# pools, so that the runtime rebinds exactly when a binding's memory may have moved.
_GENERATIONS = itertools.count()


def length_groups(lengths: list[int], padding_per_run: float) -> list[list[int]]:
    """Indices into `lengths`, in groups to encode together, shortest first. A source joins the group of the
    ones just shorter than it unless the group would then hold more than `padding_per_run` padded positions
    (what a separate encoder run costs, in positions: padding is computed like real tokens)."""
    order = sorted(range(len(lengths)), key=lengths.__getitem__)
    groups, total = [[order[0]]], lengths[order[0]]  # total: real positions of the last group
    for index in order[1:]:
        group = groups[-1]
        if len(group) * lengths[index] - total <= padding_per_run:  # the group's padding with this source in it
            group.append(index)
            total += lengths[index]
        else:
            groups.append([index])
            total = lengths[index]
    return groups


@dataclass
class EncoderRun:
    """One encoder run's output for some of the sources being encoded: each decoder layer's cross K/V (keys
    transposed (k, H, Dh, S), values (k, H, S, Dh)), the source mask (k, S), and which of the sources its k rows
    are (their indices, in row order). A pool joins the runs' rows directly: nothing gathers them first."""

    sources: list[int]
    cross: list[np.ndarray]
    memory_mask: np.ndarray


class SlotPool:
    """Decoder state of up to ``slots`` sequences: per layer self K/V (N, H, C, Dh) and cross K/V (keys transposed
    (N, H, Dh, S), values (N, H, S, Dh)), the source mask, per-row arrays (position, last token, limits, generated
    ids), and the decoder's outputs of the last step (logits, alignments), which the step writes in place.

    Row i < size holds ``requests[i]``; ``lengths[i]`` is its number of cached positions, which is also
    the number of tokens it has generated. Masked slots may hold stale values of earlier occupants. ``kernel`` runs
    the per-row loops of a step over these arrays in C (service/_rowkernel.c: after a decoder run, each numpy
    operation costs tens of microseconds in cache misses); the arrays it holds are never reallocated.
    C and S grow by about a quarter when a row needs more and shrink when the rows that needed them have
    left, so copies are amortised and a step attends over little more than its rows need.
    """

    ROW_ARRAYS = ("memory_mask", "lengths", "last_tokens", "max_tokens", "min_tokens", "deadlines", "features", "output",
                  "logprobs", "scores", "beam_index", "coverage")

    def __init__(self, *, slots: int, layers: int, heads: int, head_dim: int, max_output_tokens: int, vocab_size: int,
                 dtype=np.float32, start_token: int = 0):
        self.slots, self.layers, self.heads, self.head_dim = slots, layers, heads, head_dim
        self.dtype, self.start_token = np.dtype(dtype), start_token
        self.size = 0
        self.requests: list = [None] * slots
        self.self_kv = self._kv(CACHE_CHUNK, keys_transposed=False)  # [key_0, value_0, key_1, ...]
        self.cross = self._kv(CACHE_CHUNK, keys_transposed=True)
        self.memory_mask = np.zeros((slots, CACHE_CHUNK), dtype=bool)
        self.logits = np.zeros((slots, vocab_size), dtype=np.float32)  # of the last step
        self.alignments = np.zeros((slots, layers, CACHE_CHUNK), dtype=np.float32)  # of the last step, every layer
        # the alignment layer's cross-attention each source position received, summed over the row's steps (a beam's
        # rows are not its hypotheses': those keep their alignments)
        self.coverage = np.zeros((slots, CACHE_CHUNK), dtype=np.float32)
        self.generation = next(_GENERATIONS)
        self.lengths = np.zeros(slots, dtype=np.int64)
        self.last_tokens = np.zeros(slots, dtype=np.int64)
        self.max_tokens = np.zeros(slots, dtype=np.int64)
        self.min_tokens = np.zeros(slots, dtype=np.int64)
        self.output = np.zeros((slots, max_output_tokens), dtype=np.int64)  # generated ids, read when a row finishes
        self.deadlines = np.full(slots, np.inf)  # time.monotonic() by which each row must finish
        self.features = np.zeros(slots, dtype=np.uint8)  # STREAMING | SAMPLED | SCORED | ALIGNED | BEAM | UNREPEATED
        self.logprobs = np.zeros((slots, max_output_tokens), dtype=np.float32)  # of the generated ids (scored rows)
        self.scores = np.zeros(slots)  # cumulative log-probability of each beam
        self.beam_index = np.zeros(slots, dtype=np.int64)  # a beam row's place among its request's rows
        self.kernel = RowKernel(self.logits, self.lengths, self.min_tokens, self.max_tokens, self.deadlines,
                                self.features, self.last_tokens, self.output)

    def _kv(self, positions: int, keys_transposed: bool) -> list[np.ndarray]:
        """Zeroed K/V of every layer, ``[key_0, value_0, key_1, ...]``: values (slots, H, positions, Dh), keys the
        same or, transposed, (slots, H, Dh, positions) (the cross K/V, as the encoder writes them)."""
        value = (self.slots, self.heads, positions, self.head_dim)
        key = (self.slots, self.heads, self.head_dim, positions) if keys_transposed else value
        return [np.zeros(shape, dtype=self.dtype) for _ in range(self.layers) for shape in (key, value)]

    @property
    def capacity(self) -> int:
        """Self-attention positions per row."""
        return self.self_kv[0].shape[2]

    @property
    def source_capacity(self) -> int:
        return self.cross[1].shape[2]

    @property
    def free_slots(self) -> int:
        return self.slots - self.size

    def nbytes(self) -> int:
        """Bytes allocated for K/V, all slots."""
        return sum(a.nbytes for a in self.self_kv + self.cross)

    def bytes_in_use(self) -> int:
        """Bytes of K/V held by running rows."""
        return self.nbytes() * self.size // self.slots

    # -- membership -------------------------------------------------------------------------------
    def join(self, runs: list[EncoderRun], requests: list, copies: list[int] | None = None) -> np.ndarray:
        """Give the new sequences the next rows, copies[i] rows for requests[i] (its beams, default 1), each
        holding its encoder output (runs cover requests' sources); only those rows are written. Returns the rows,
        in the order of requests."""
        copies = copies or [1] * len(requests)
        k = sum(copies)
        if k > self.free_slots:
            raise ValueError(f"{k} sequences do not fit in {self.free_slots} free slots")
        longest = max(run.memory_mask.shape[1] for run in runs)
        if longest > self.source_capacity:
            self._resize_source(longest)
        starts = list(itertools.accumulate(copies, initial=self.size))  # request i gets rows starts[i] to starts[i+1]-1
        for run in runs:
            targets = [row for i in run.sources for row in range(starts[i], starts[i + 1])]  # this run's new rows
            # The run's row of each new row: the run itself (a view) unless a beam repeats a row.
            picks = slice(None) if len(targets) == len(run.sources) else [j for j, i in enumerate(run.sources) for _ in range(copies[i])]
            source = run.memory_mask.shape[1]
            for buffer, values in zip(position_major(self.cross), position_major(run.cross)):
                buffer[targets, :, :source] = values[picks]
            self.memory_mask[targets] = False
            self.memory_mask[targets, :source] = run.memory_mask[picks]
        rows = np.arange(self.size, self.size + k)
        self.lengths[rows] = 0
        self.coverage[rows] = 0
        self.last_tokens[rows] = self.start_token
        self.beam_index[rows] = [beam for c in copies for beam in range(c)]
        self.scores[rows] = np.where(self.beam_index[rows] == 0, 0.0, -np.inf)  # all beams start alike: one is live
        self.requests[self.size : self.size + k] = [r for r, c in zip(requests, copies) for _ in range(c)]
        self.size += k
        return rows

    def free(self, rows) -> None:
        """Remove these rows; each hole is filled by moving the current last row into it (one row's copy)."""
        for row in sorted((int(r) for r in rows), reverse=True):  # larger holes first: the last row is never freed later
            last = self.size - 1
            if row != last:
                for buffer in self.self_kv + self.cross:
                    buffer[row] = buffer[last]
                for name in self.ROW_ARRAYS:
                    array = getattr(self, name)
                    array[row] = array[last]
                self.requests[row] = self.requests[last]
            self.requests[last] = None
            self.size = last
        self._shrink()

    def clear(self) -> None:
        self.free(range(self.size))

    # -- capacity -----------------------------------------------------------------------------------
    def reserve(self, positions: int) -> None:
        """Make room for every running row to cache `positions` positions (geometric growth: amortised O(1) per step)."""
        if positions > self.capacity:
            self._resize_self(positions)

    def _shrink(self) -> None:
        """Give back cache length once the running rows need half of it (the hysteresis avoids thrashing).
        An empty pool keeps its size: the next requests are likely to be like the last ones."""
        if self.size == 0:
            return
        longest = self.kernel.longest(self.size) + 1
        source = int(np.flatnonzero(self.memory_mask[: self.size].any(0)).max(initial=0)) + 1
        if cache_capacity(longest) * 2 <= self.capacity:
            self._resize_self(longest)
        if cache_capacity(source) * 2 <= self.source_capacity:
            self._resize_source(source)

    def _resize_self(self, needed: int) -> None:
        self.self_kv = [self._resized(buffer, 2, needed) for buffer in self.self_kv]
        self.generation = next(_GENERATIONS)

    def _resize_source(self, needed: int) -> None:
        self.cross = [self._resized(buffer, 3 if i % 2 == 0 else 2, needed) for i, buffer in enumerate(self.cross)]  # keys transposed
        self.memory_mask, self.alignments = self._resized(self.memory_mask, 1, needed), self._resized(self.alignments, 2, needed)
        self.coverage = self._resized(self.coverage, 1, needed)
        self.generation = next(_GENERATIONS)

    def _resized(self, buffer: np.ndarray, axis: int, needed: int) -> np.ndarray:
        """A copy of buffer with `axis` resized to cache_capacity(needed); running rows keep their values."""
        size = cache_capacity(needed)
        shape = list(buffer.shape)
        shape[axis] = size
        new = np.zeros(shape, dtype=buffer.dtype)
        keep = min(size, buffer.shape[axis])
        index = (slice(0, self.size),) + (slice(None),) * (axis - 1) + (slice(0, keep),)
        new[index] = buffer[index]
        return new


class Runtime(Model):
    """The encoder and decoder sessions of one exported model, and its tokenizer."""

    def __init__(self, model_dir: Path, *, precision: str = "fp32", device: str = "cpu", threads: int | None = None,
                 spinning: bool = False, alignment_layer: int = -1):
        encoder_path, decoder_path = graph_files(Path(model_dir), precision)  # an unknown precision fails first
        super().__init__(model_dir)
        if not encoder_path.exists():
            raise FileNotFoundError(f"{encoder_path} is missing: export the model with this precision first")
        providers = choose_providers(device)
        options = session_options(threads, spinning)
        self.encoder = ort.InferenceSession(str(encoder_path), options, providers=providers)
        self.decoder = ort.InferenceSession(str(decoder_path), options, providers=providers)
        for session in (self.encoder, self.decoder):
            require_provider(session, device)
        self.info = ModelInfo(self.meta.name, self.meta.version, precision, self.decoder.get_providers()[0])
        self.padding_per_run = CPU_RUN_COST_POSITIONS if self.info.provider == "CPUExecutionProvider" else math.inf
        layers = self.meta.decoder_layers
        self.cross_names = cache_names("cross", layers)
        self.past_names = cache_names("past", layers)
        self.present_names = cache_names("present", layers)
        self.has_alignments = DECODER_ALIGNMENTS in {o.name for o in self.decoder.get_outputs()}
        self._bindings: dict[int, tuple] = {}  # _bound_step's, by batch size, for the session and pool generation in _bound
        self._bound: tuple | None = None
        if not -layers <= alignment_layer < layers:
            raise ValueError(f"alignment_layer={alignment_layer} must index one of the {layers} decoder layers "
                             f"(0..{layers - 1}, or negative from the last)")
        self.alignment_layer = alignment_layer % layers

    def new_pool(self, slots: int) -> SlotPool:
        cfg = self.meta.model
        return SlotPool(slots=slots, layers=self.meta.decoder_layers, heads=cfg["n_heads"],
                        head_dim=cfg["d_model"] // cfg["n_heads"], max_output_tokens=self.limits.max_output_tokens,
                        vocab_size=self.vocab_size, start_token=cfg["decoder_start_id"])

    def encode(self, sources: list[list[int]]) -> list[EncoderRun]:
        """Encode these sources in runs of similar length (padded positions cost as much as real ones), each
        right-padded to its longest."""
        return [self._encode_run(sources, indices) for indices in length_groups([len(s) for s in sources], self.padding_per_run)]

    def _encode_run(self, sources: list[list[int]], indices: list[int]) -> EncoderRun:
        """One encoder run for these of the sources, right-padded to the longest."""
        lengths = np.array([len(sources[i]) for i in indices], dtype=np.int64)
        src_ids = np.full((len(indices), int(lengths.max())), self.special.pad, dtype=np.int64)
        for row, index in enumerate(indices):
            src_ids[row, : lengths[row]] = sources[index]
        src_mask = np.arange(src_ids.shape[1])[None, :] < lengths[:, None]
        _, *cross = self.encoder.run(None, dict(zip(ENCODER_INPUTS, (src_ids, src_mask))))
        return EncoderRun(indices, cross, src_mask)

    def step(self, pool: SlotPool) -> tuple[np.ndarray, np.ndarray | None]:
        """Feed each running row's last token at its own position; returns logits (size, V) and the alignment
        layer's cross-attention (size, S) (None for a decoder without alignments), both views of the pool's output
        buffers that the next step overwrites. The step's K/V are written into each row's cache in place, at its
        length, which then advances."""
        n = pool.size
        pool.reserve(pool.kernel.longest(n) + 1)
        binding, logits, alignments = self._bound_step(pool)
        self.decoder.run_with_iobinding(binding)
        pool.kernel.advance(n)
        return logits, alignments

    def _bound_step(self, pool: SlotPool) -> tuple[ort.IOBinding, np.ndarray, np.ndarray | None]:
        """The decoder's inputs and outputs bound to the first `size` rows of the pool's buffers, the present K/V to
        the very memory of the past (GroupQueryAttention then appends in place), and the views of the outputs that
        step returns. On the CPU, one set per batch size, kept until a buffer moves: rows joining and leaving change
        the size at almost every step under load, and binding again (~4 us per tensor, and the cache's conversion to
        ONNX Runtime's tensors) made a step ~10% slower. Not on a GPU: there bind_input copies the array to the device
        at once, so a kept binding would feed later steps the tokens and cache of the step it was made for."""
        key = (self.decoder, pool.generation)  # a benchmark may swap in another session
        if self._bound != key:
            self._bindings.clear()
            self._bound = key
        n = pool.size
        if (bound := self._bindings.get(n)) is None:
            binding = self.decoder.io_binding()
            inputs = [*zip(DECODER_INPUTS, (pool.last_tokens[:n], pool.lengths[:n], pool.memory_mask[:n])),
                      *zip(self.past_names, (buffer[:n] for buffer in pool.self_kv)),
                      *zip(self.cross_names, (buffer[:n] for buffer in pool.cross))]
            outputs = [(DECODER_LOGITS, pool.logits[:n]), *zip(self.present_names, (buffer[:n] for buffer in pool.self_kv))]
            if self.has_alignments:
                outputs.append((DECODER_ALIGNMENTS, pool.alignments[:n]))
            for bind, arrays in ((binding.bind_input, inputs), (binding.bind_output, outputs)):
                for name, array in arrays:
                    bind(name, "cpu", 0, array.dtype, list(array.shape), array.ctypes.data)
            alignments = pool.alignments[:n, self.alignment_layer] if self.has_alignments else None
            bound = (binding, pool.logits[:n], alignments)
            if self.info.provider == "CPUExecutionProvider":
                self._bindings[n] = bound
        return bound
