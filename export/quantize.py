"""Reduced-precision variants of an exported model: int8 for CPU, fp16 for CUDA."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.shape_inference import quant_pre_process

from translator.model_format import graph_files


def quantize_int8(model_dir: Path, per_channel: bool = False) -> list[Path]:
    """int8 weights and int8 activations, one scale per activation row: each token's activations are quantized
    by their own largest magnitude, so a sentence's int8 translation does not depend on what it is batched with.

    ONNX Runtime's dynamic quantization (`DynamicQuantizeMatMul`) takes one scale per activation tensor, the
    largest magnitude of the whole batch: 18 of the first 100 test sentences came out different translated alone
    than batched with the next 200 (0 with a scale per row), at the same chrF. The row scales are ONNX nodes and
    cost int8 speed (a decoder step ~1.17x, 6-11% of the served tokens/s): docs/performance.md, "int8 activations".

    Weights: one scale per matrix by default, the faster kernel; per_channel=True (one per output column) is the
    finer grain for weights with outlier channels, the export's fallback when the per-matrix model fails the
    quality gate. ONNX Runtime's pre-processing (constant folding) runs first: the tied output projection is a
    Transpose of the embedding table in the exported graph, quantizable only once folded into a weight.
    """
    written = []
    for source, target in zip(graph_files(model_dir, "fp32"), graph_files(model_dir, "int8")):
        quantize_graph(source, target, per_channel)
        written.append(target)
    return written


def quantize_graph(source: Path, target: Path, per_channel: bool = False) -> None:
    """One ONNX graph through quantize_int8's recipe: every MatMul by a constant 2-D float weight becomes integer."""
    with tempfile.TemporaryDirectory() as tmp:
        folded = Path(tmp) / Path(source).name
        quant_pre_process(source, folded, skip_symbolic_shape=True)
        model = onnx.load(str(folded))
    _RowQuantizer(model, per_channel).rewrite()
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def _constants_to_initializers(graph: onnx.GraphProto) -> None:
    """The folding leaves some weights (the tied output projection, fused biases) as Constant nodes."""
    for node in [n for n in graph.node if n.op_type == "Constant" and n.attribute[0].name == "value"]:
        graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(node.attribute[0].t), node.output[0]))
        graph.node.remove(node)


class _RowQuantizer:
    """Rewrites `y = MatMul(x, W)` (and `Gemm(x, W, b)`) by a constant 2-D float W as

        s = ReduceMax(|x|, last axis)                                   # (..., 1): each row's own scale
        q = QuantizeLinear(x / s, 1/levels, zero)                        # uint8
        y = Cast(MatMulInteger(q, W8, zero)) * (s * w_scale / levels)

    which ONNX Runtime fuses into `MatMulIntegerToFloat` with a per-row A scale. A ReLU's output is never
    negative: 255 levels from 0; other rows 127 levels each side of 128. An x feeding several MatMuls is
    quantized once. A row of zeros divides 0 by 0, but whatever integers its NaNs quantize to, its product is
    multiplied by its scale, 0: exact zeros, as in float, without a node per input to keep the scale above 0.

    A constant bias is subtracted negated, `Sub(y, -b)` (exact): ONNX Runtime's fusion takes a constant bias `Add`
    into `MatMulIntegerToFloat`, whose kernel then multiplies the bias by the per-row A scale too (ORT 1.32: the
    shipped decoder's logits off by up to 2.0). tests/test_export.py checks the fused graph against the graph
    run node by node.
    """

    def __init__(self, model: onnx.ModelProto, per_channel: bool):
        self.graph = model.graph
        self.per_channel = per_channel
        self.opset = next(o.version for o in model.opset_import if o.domain in ("", "ai.onnx"))
        _constants_to_initializers(self.graph)
        self.weights = {w.name: w for w in self.graph.initializer}
        self.producers = {name: node for node in self.graph.node for name in node.output}
        self.rows: dict[str, tuple[str, str, str, int]] = {}  # x → its quantized name, scale, zero point, levels
        self.integer_weights: dict[tuple[str, bool], tuple[str, np.ndarray]] = {}  # (W, transposed) → int8, scale
        self.integer_outputs: set[str] = set()

    def rewrite(self) -> None:
        nodes = []
        for node in self.graph.node:
            matmul = self._matmul_by_weight(node)
            nodes += self._integer_matmul(*matmul) if matmul else [node]
        for node in nodes:
            self._subtract_negated_bias(node)
        del self.graph.node[:]
        self.graph.node.extend(nodes)
        self._drop_unused_weights()

    def _matmul_by_weight(self, node: onnx.NodeProto) -> tuple[str, str, bool, str, str | None] | None:
        """(x, W, W stored transposed, y, bias) of a MatMul or plain Gemm by a constant 2-D float W, else None."""
        weight = self.weights.get(node.input[1]) if node.op_type in ("MatMul", "Gemm") else None
        if weight is None or len(weight.dims) != 2 or weight.data_type != TensorProto.FLOAT:
            return None
        if node.op_type == "MatMul":
            return node.input[0], node.input[1], False, node.output[0], None
        gemm = {"alpha": 1.0, "beta": 1.0, "transA": 0, "transB": 0}
        gemm.update({a.name: helper.get_attribute_value(a) for a in node.attribute})
        if gemm["alpha"] != 1.0 or gemm["beta"] != 1.0 or gemm["transA"]:
            return None
        bias = node.input[2] if len(node.input) > 2 and node.input[2] else None
        return node.input[0], node.input[1], bool(gemm["transB"]), node.output[0], bias

    def _integer_matmul(self, x: str, weight: str, transposed: bool, y: str, bias: str | None) -> list[onnx.NodeProto]:
        nodes = [] if x in self.rows else self._quantize_rows(x)
        quantized, scale, zero, levels = self.rows[x]
        weight, weight_scale = self._integer_weight(weight, transposed, levels)
        product = f"{y}_unbiased" if bias else y
        self.integer_outputs.add(product)
        nodes += [
            helper.make_node("MatMulInteger", [quantized, weight, zero], [f"{y}_int32"]),
            helper.make_node("Cast", [f"{y}_int32"], [f"{y}_float"], to=TensorProto.FLOAT),
            helper.make_node("Mul", [scale, weight_scale], [f"{y}_scale"]),
            helper.make_node("Mul", [f"{y}_float", f"{y}_scale"], [product]),
        ]
        return nodes + [helper.make_node("Add", [product, bias], [y])] if bias else nodes

    def _quantize_rows(self, x: str) -> list[onnx.NodeProto]:
        producer = self.producers.get(x)
        levels, zero = (255, 0) if producer is not None and producer.op_type == "Relu" else (127, 128)
        self._constant(f"{x}_zero_point", np.array(zero, np.uint8))
        self._constant(f"{x}_step", np.array(1 / levels, np.float32))
        self.rows[x] = (f"{x}_uint8", f"{x}_row_max", f"{x}_zero_point", levels)
        if self.opset >= 18:  # ReduceMax's axes became an input
            self._constant("last_axis", np.array([-1], np.int64))
            reduce = helper.make_node("ReduceMax", [f"{x}_abs", "last_axis"], [f"{x}_row_max"], keepdims=1)
        else:
            reduce = helper.make_node("ReduceMax", [f"{x}_abs"], [f"{x}_row_max"], axes=[-1], keepdims=1)
        return [
            helper.make_node("Abs", [x], [f"{x}_abs"]),
            reduce,
            helper.make_node("Div", [x, f"{x}_row_max"], [f"{x}_unit"]),
            helper.make_node("QuantizeLinear", [f"{x}_unit", f"{x}_step", f"{x}_zero_point"], [f"{x}_uint8"]),
        ]

    def _integer_weight(self, name: str, transposed: bool, levels: int) -> tuple[str, str]:
        """W as int8 (K, N), symmetric, and the name of its scale divided by the activation's levels."""
        key = (name, transposed)
        if key not in self.integer_weights:
            weight = numpy_helper.to_array(self.weights[name]).astype(np.float32)
            weight = weight.T if transposed else weight
            peak = np.abs(weight).max(axis=0) if self.per_channel else np.abs(weight).max()
            scale = np.maximum(peak, np.finfo(np.float32).tiny) / np.float32(127)  # a zero matrix stays 0
            integer = f"{name}_int8" + ("_transposed" if transposed else "")
            self._constant(integer, np.clip(np.rint(weight / scale), -127, 127).astype(np.int8))
            self.integer_weights[key] = (integer, scale)
        integer, scale = self.integer_weights[key]
        per_level = f"{integer}_scale_per_{levels}"
        self._constant(per_level, np.asarray(scale / np.float32(levels), np.float32))
        return integer, per_level

    def _subtract_negated_bias(self, node: onnx.NodeProto) -> None:
        """`Add(y, b)` or `Add(b, y)` after an integer product, b constant → `Sub(y, -b)` (see the class)."""
        if node.op_type != "Add" or not set(node.input) & self.integer_outputs:
            return
        product, bias = node.input if node.input[0] in self.integer_outputs else reversed(node.input)
        if bias in self.weights:
            negated = f"{bias}_negated"
            self._constant(negated, -numpy_helper.to_array(self.weights[bias]))
            node.op_type = "Sub"
            node.input[:] = [product, negated]

    def _drop_unused_weights(self) -> None:
        """The float weights now quantized (and any other constant that no node or graph output reads)."""
        used = {name for node in self.graph.node for name in node.input} | {value.name for value in self.graph.output}
        kept = [w for w in self.graph.initializer if w.name in used]
        del self.graph.initializer[:]
        self.graph.initializer.extend(kept)

    def _constant(self, name: str, value: np.ndarray) -> None:
        if name not in self.weights:
            self.weights[name] = numpy_helper.from_array(value, name)
            self.graph.initializer.append(self.weights[name])


def convert_fp16(model_dir: Path) -> list[Path]:
    """fp16 weights and compute with float32 inputs/outputs, so the runtime's buffers stay the same."""
    from onnxruntime.transformers.float16 import convert_float_to_float16

    written = []
    for source, target in zip(graph_files(model_dir, "fp32"), graph_files(model_dir, "fp16")):
        onnx.save(convert_float_to_float16(onnx.load(str(source)), keep_io_types=True), str(target))
        written.append(target)
    return written
