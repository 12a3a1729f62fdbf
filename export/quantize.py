"""Reduced-precision variants of an exported model: int8 (dynamic, weights) for CPU, fp16 for CUDA."""

from __future__ import annotations

from pathlib import Path

import tempfile

import onnx
from onnxruntime.quantization import QuantType, quantize_dynamic
from onnxruntime.quantization.shape_inference import quant_pre_process

from translator.model_format import graph_files


def quantize_int8(model_dir: Path, per_channel: bool = False) -> list[Path]:
    """Dynamic quantization of the weight matrices (MatMul/Gemm) to signed int8; activations stay float.

    One scale per weight matrix by default: ORT's DynamicQuantizeMatMul then rescales its output by a scalar,
    which measured 1.15x faster per decoder step at batch 1 than a scale per output channel (1.06x at 8, 1.02x at
    32) on the shipped model, whose int8 chrF was 34.14 per tensor and 33.99 per channel (fp32 34.16).
    per_channel=True is the finer grain for weights with outlier channels; the export falls back to it when
    the per-tensor model fails the quality gate.

    ONNX Runtime's pre-processing (constant folding) runs first: the tied output projection is a Transpose of
    the embedding table in the exported graph, which the quantizer skips (its weight is not an initializer)
    although it is the largest matrix of a decoder step; folded, it is quantized too.
    """
    written = []
    for source, target in zip(graph_files(model_dir, "fp32"), graph_files(model_dir, "int8")):
        quantize_graph(source, target, per_channel)
        written.append(target)
    return written


def quantize_graph(source: Path, target: Path, per_channel: bool = False) -> None:
    """One ONNX graph through quantize_int8's recipe (pre-processing, then int8 weights)."""
    with tempfile.TemporaryDirectory() as tmp:
        folded = Path(tmp) / Path(source).name
        quant_pre_process(source, folded, skip_symbolic_shape=True)
        quantize_dynamic(folded, target, op_types_to_quantize=["MatMul", "Gemm"], weight_type=QuantType.QInt8,
                         per_channel=per_channel)


def convert_fp16(model_dir: Path) -> list[Path]:
    """fp16 weights and compute with float32 inputs/outputs, so the runtime's buffers stay the same."""
    from onnxruntime.transformers.float16 import convert_float_to_float16

    written = []
    for source, target in zip(graph_files(model_dir, "fp32"), graph_files(model_dir, "fp16")):
        onnx.save(convert_float_to_float16(onnx.load(str(source)), keep_io_types=True), str(target))
        written.append(target)
    return written
