"""Reduced-precision variants of an exported model: int8 for CPU, fp16 for CUDA."""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from onnxruntime.quantization.shape_inference import quant_pre_process

from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import decode
from translator.model_format import DECODER_FILE, ENCODER_FILE, graph_files


PEAK_OUTPUT = "{}__peak"
# Weights take 63 levels each side of 0, not 127: on an x86 CPU without VNNI (AVX2 alone, as AMD's EPYC Milan; VNNI came
# with Intel's Cascade Lake and AMD's Zen 4) ONNX Runtime's u8×s8 kernel adds two products into a saturating 16-bit sum
# (VPMADDUBSW), and 2 × 255 × 127 = 64,770 passes its 32,767 where 2 × 255 × 63 = 32,130 does not. With 127 levels such
# a CPU's served graph computed other values than the unfused graph (up to 15% of a test tensor's scale, 0.86 of 5.67),
# differently from a VNNI CPU's. The shipped model on 2,000 test pairs, on the EPYC: 63 levels BLEU 12.41 / chrF 40.97,
# 127 levels 12.67 / 40.90, fp32 12.44 / 41.12. ONNX Runtime's own quantizer calls this reduce_range.
WEIGHT_LEVELS = 63


def quantize_int8(model_dir: Path, calibration: list[str], per_channel: bool = False) -> list[Path]:
    """int8 weights and int8 activations, one constant scale per activation tensor, calibrated: each quantized
    input's largest magnitude while the fp32 graphs translate the calibration texts (every encoder run and decoder
    step); a larger value saturates. A token's integers depend on its own values only, so a sentence's int8
    translation does not depend on what it is batched with (ONNX Runtime's dynamic quantization takes one scale per
    batch: 18 of the first 100 test sentences came out different alone than batched), and no node computes a scale
    at run time: the row scales of the previous recipe (Abs, ReduceMax, Div per input) made a step ~1.17x slower.
    Widening the peaks for inputs unlike the calibration text (which reached up to 1.11x them at some tensor) did
    not pay: with 1.1, 1.25 or 1.5 times the peak, fewer test translations matched fp32's and chrF did not rise
    (docs/performance.md, "int8 activations: one calibrated scale per tensor").

    Weights: WEIGHT_LEVELS each side of 0, one scale per matrix by default, the faster kernel; per_channel=True (one
    per output column) is the finer grain for weights with outlier channels, the export's fallback when the
    per-matrix model fails the quality gate. ONNX Runtime's pre-processing (constant folding) runs first: the tied
    output projection is a Transpose of the embedding table in the exported graph, quantizable only once folded
    into a weight.
    """
    with tempfile.TemporaryDirectory() as tmp:
        folded = {}
        for source in graph_files(model_dir, "fp32"):
            folded[source.name] = Path(tmp) / source.name
            quant_pre_process(source, folded[source.name], skip_symbolic_shape=True)
        peaks = activation_peaks(model_dir, folded, calibration)
        written = []
        for source, target in zip(graph_files(model_dir, "fp32"), graph_files(model_dir, "int8")):
            quantize_graph(folded[source.name], target, peaks[source.name], per_channel)
            written.append(target)
    return written


def quantize_graph(source: Path, target: Path, peaks: dict[str, float], per_channel: bool = False) -> None:
    """One (folded) ONNX graph through quantize_int8's recipe, given each quantized input's peak: every product by
    a constant 2-D float weight becomes integer."""
    model = onnx.load(str(source))
    _Quantizer(model, peaks, per_channel).rewrite()
    onnx.checker.check_model(model)
    onnx.save(model, str(target))


def quantized_inputs(model: onnx.ModelProto) -> list[str]:
    """The tensors that quantize_int8 quantizes: the inputs of products by a constant 2-D float weight. (Like the
    rewrite, it first turns the model's Constant nodes into initializers.)"""
    finder = _Quantizer(model, {}, False)
    return list(dict.fromkeys(product.x for node in model.graph.node if (product := finder.product_by_weight(node))))


def activation_peaks(model_dir: Path, graphs: dict[str, Path], texts: list[str]) -> dict[str, dict[str, float]]:
    """Per graph file name, the largest |x| of each quantized input while these fp32 graphs (folded copies of
    model_dir's) translate the texts greedily through the runtime."""
    with tempfile.TemporaryDirectory() as tmp:
        for item in Path(model_dir).iterdir():  # the model's metadata and tokenizer beside the measuring graphs
            if item.is_file() and item.suffix != ".onnx":
                shutil.copy(item, Path(tmp) / item.name)
        inputs = {}
        for name, graph in graphs.items():
            model = onnx.load(str(graph))
            inputs[name] = quantized_inputs(model)
            _output_peaks(model, inputs[name])
            onnx.save(model, str(Path(tmp) / name))
        runtime = _PeakRecorder(Path(tmp), inputs)
        limit = runtime.limits.max_source_tokens
        sources = [ids for ids in runtime.tokenizer.encode_batch(texts) if len(ids) <= limit]
        if not sources:
            raise ValueError("int8 calibration needs texts that fit the model's positions; none did")
        decode(runtime, sources, DecodingOptions(runtime.limits.max_output_tokens, suppress_repeats=False))
    return runtime.peaks


def _output_peaks(model: onnx.ModelProto, tensors: list[str]) -> None:
    """Add max|x| of each of the tensors to the graph's outputs, after its own outputs."""
    for x in tensors:
        model.graph.node.extend([helper.make_node("Abs", [x], [f"{x}__abs"]),
                                 helper.make_node("ReduceMax", [f"{x}__abs"], [PEAK_OUTPUT.format(x)], keepdims=0)])
        model.graph.output.append(helper.make_tensor_value_info(PEAK_OUTPUT.format(x), TensorProto.FLOAT, []))


class _PeakRecorder(Runtime):
    """A runtime over graphs that also output their quantized inputs' peaks (_output_peaks), recording the largest
    of each over every encoder run and decoder step it makes."""

    def __init__(self, model_dir: Path, inputs: dict[str, list[str]]):
        super().__init__(model_dir, precision="fp32")
        self.inputs = inputs
        self.peaks = {graph: dict.fromkeys(names, 0.0) for graph, names in inputs.items()}
        self._extended: set = set()  # the decoder bindings whose peak outputs are bound
        self._binding = None  # the one the current step runs

    def _encode_run(self, sources, indices):
        run = super()._encode_run(sources, indices)
        count = len(self.inputs[ENCODER_FILE])
        run.cross, peaks = run.cross[:-count], run.cross[-count:]
        self._record(ENCODER_FILE, peaks)
        return run

    def _bound_step(self, pool):
        bound = super()._bound_step(pool)
        if bound[0] not in self._extended:  # a new binding: its peak outputs too, in memory ONNX Runtime allocates
            for x in self.inputs[DECODER_FILE]:
                bound[0].bind_output(PEAK_OUTPUT.format(x), "cpu")
            self._extended.add(bound[0])
        self._binding = bound[0]
        return bound

    def step(self, pool):
        result = super().step(pool)
        outputs = self._binding.get_outputs()  # not Runtime._bindings: bindings are kept there on the CPU only
        self._record(DECODER_FILE, [value.numpy() for value in outputs[-len(self.inputs[DECODER_FILE]):]])
        return result

    def _record(self, graph: str, peaks) -> None:
        recorded = self.peaks[graph]
        for x, peak in zip(self.inputs[graph], peaks):
            recorded[x] = max(recorded[x], float(peak))


def _constants_to_initializers(graph: onnx.GraphProto) -> None:
    """The folding leaves some weights (the tied output projection, fused biases) as Constant nodes."""
    for node in [n for n in graph.node if n.op_type == "Constant" and n.attribute[0].name == "value"]:
        graph.initializer.append(numpy_helper.from_array(numpy_helper.to_array(node.attribute[0].t), node.output[0]))
        graph.node.remove(node)


class _Quantizer:
    """Rewrites `y = MatMul(x, W) [+ b]` (and `Gemm(x, W, b)`) by a constant 2-D float W and 1-D b as

        q = QuantizeLinear(x, peak / levels, zero)                      # uint8, peak calibrated per tensor
        y = MatMulIntegerToFloat(q, W8, peak / levels, w_scale, zero, bias=b)

    A ReLU's output is never negative: 255 levels from 0 (ONNX Runtime then drops the ReLU: the quantization clamps
    at 0); other tensors 127 levels each side of 128. An x feeding several products is quantized once. Values
    beyond the peak saturate. The bias is added inside the product: with a constant A scale ONNX Runtime adds it
    after scaling (with a scale per row, ORT 1.32 multiplied it by the row's scale: the earlier recipe's fault).
    """

    def __init__(self, model: onnx.ModelProto, peaks: dict[str, float], per_channel: bool):
        self.graph = model.graph
        self.peaks = peaks
        self.per_channel = per_channel
        _constants_to_initializers(self.graph)
        if not any(o.domain == "com.microsoft" for o in model.opset_import):
            model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
        self.weights = {w.name: w for w in self.graph.initializer}
        self.producers = {name: node for node in self.graph.node for name in node.output}
        self.graph_outputs = {value.name for value in self.graph.output}
        self.consumers: dict[str, list[onnx.NodeProto]] = {}
        for node in self.graph.node:
            for name in node.input:
                self.consumers.setdefault(name, []).append(node)
        self.quantized: dict[str, tuple[str, str, str, int]] = {}  # x → its uint8 name, step, zero point, levels
        self.integer_weights: dict[tuple[str, bool], tuple[str, str]] = {}  # (W, transposed) → its int8, its scale

    def rewrite(self) -> None:
        nodes, folded_adds = [], set()
        for node in self.graph.node:
            if id(node) in folded_adds:
                continue
            product = self.product_by_weight(node)
            if product and product.add is not None:
                folded_adds.add(id(product.add))
            nodes += self._integer_product(product) if product else [node]
        del self.graph.node[:]
        self.graph.node.extend(nodes)
        self._drop_unused_weights()

    def product_by_weight(self, node: onnx.NodeProto) -> "_Product | None":
        """A MatMul (with the Add of a bias that alone reads it) or a plain Gemm by a constant 2-D float W, else
        None. A bias is a constant float vector of W's output width (what MatMulIntegerToFloat adds); a MatMul whose
        product is also read elsewhere, or a Gemm with another bias, stays float."""
        weight = self.weights.get(node.input[1]) if node.op_type in ("MatMul", "Gemm") else None
        if weight is None or len(weight.dims) != 2 or weight.data_type != TensorProto.FLOAT:
            return None
        if node.op_type == "MatMul":
            after = self.consumers.get(node.output[0], [])
            if len(after) == 1 and after[0].op_type == "Add" and node.output[0] not in self.graph_outputs:
                bias = [name for name in after[0].input if name != node.output[0]]
                if len(bias) == 1 and self._is_bias(bias[0], weight.dims[1]):
                    return _Product(node.input[0], node.input[1], False, after[0].output[0], bias[0], after[0])
            return _Product(node.input[0], node.input[1], False, node.output[0], None, None)
        gemm = {"alpha": 1.0, "beta": 1.0, "transA": 0, "transB": 0}
        gemm.update({a.name: helper.get_attribute_value(a) for a in node.attribute})
        bias = node.input[2] if len(node.input) > 2 and node.input[2] else None
        width = weight.dims[0] if gemm["transB"] else weight.dims[1]
        if gemm["alpha"] != 1.0 or gemm["beta"] != 1.0 or gemm["transA"] or (bias and not self._is_bias(bias, width)):
            return None
        return _Product(node.input[0], node.input[1], bool(gemm["transB"]), node.output[0], bias, None)

    def _is_bias(self, name: str, width: int) -> bool:
        bias = self.weights.get(name)
        return bias is not None and list(bias.dims) == [width] and bias.data_type == TensorProto.FLOAT

    def _integer_product(self, product: "_Product") -> list[onnx.NodeProto]:
        nodes = [] if product.x in self.quantized else self._quantize(product.x)
        quantized, step, zero, levels = self.quantized[product.x]
        weight, weight_scale = self._integer_weight(product.weight, product.transposed)
        inputs = [quantized, weight, step, weight_scale, zero] + (["", product.bias] if product.bias else [])
        return nodes + [helper.make_node("MatMulIntegerToFloat", inputs, [product.y], domain="com.microsoft")]

    def _quantize(self, x: str) -> list[onnx.NodeProto]:
        producer = self.producers.get(x)
        levels, zero = (255, 0) if producer is not None and producer.op_type == "Relu" else (127, 128)
        peak = max(self.peaks[x], np.finfo(np.float32).tiny)  # a tensor that was always 0 stays 0
        self._constant(f"{x}_zero_point", np.array(zero, np.uint8))
        self._constant(f"{x}_step", np.array(peak / levels, np.float32))
        self.quantized[x] = (f"{x}_uint8", f"{x}_step", f"{x}_zero_point", levels)
        return [helper.make_node("QuantizeLinear", [x, f"{x}_step", f"{x}_zero_point"], [f"{x}_uint8"])]

    def _integer_weight(self, name: str, transposed: bool) -> tuple[str, str]:
        """W as int8 (K, N), symmetric in WEIGHT_LEVELS, and the name of its scale (one, or one per column)."""
        key = (name, transposed)
        if key not in self.integer_weights:
            weight = numpy_helper.to_array(self.weights[name]).astype(np.float32)
            weight = weight.T if transposed else weight
            peak = np.abs(weight).max(axis=0) if self.per_channel else np.abs(weight).max()
            scale = np.maximum(peak, np.finfo(np.float32).tiny) / np.float32(WEIGHT_LEVELS)  # a zero matrix stays 0
            integer = f"{name}_int8" + ("_transposed" if transposed else "")
            self._constant(integer, np.clip(np.rint(weight / scale), -WEIGHT_LEVELS, WEIGHT_LEVELS).astype(np.int8))
            self._constant(f"{integer}_scale", np.asarray(scale, np.float32))
            self.integer_weights[key] = (integer, f"{integer}_scale")
        return self.integer_weights[key]

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


@dataclass(frozen=True)
class _Product:
    """y = x @ W (W stored transposed for a Gemm with transB) + bias; add: the Add node the bias came from."""

    x: str
    weight: str
    transposed: bool
    y: str
    bias: str | None
    add: onnx.NodeProto | None


def convert_fp16(model_dir: Path) -> list[Path]:
    """fp16 weights and compute with float32 inputs/outputs, so the runtime's buffers stay the same."""
    from onnxruntime.transformers.float16 import convert_float_to_float16

    written = []
    for source, target in zip(graph_files(model_dir, "fp32"), graph_files(model_dir, "fp16")):
        onnx.save(convert_float_to_float16(onnx.load(str(source)), keep_io_types=True), str(target))
        written.append(target)
    return written
