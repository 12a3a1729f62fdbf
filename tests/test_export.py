"""The export pipeline proves parity, and the proof can fail."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import onnx
import onnxruntime as ort
import pytest
import torch
from onnx import TensorProto, helper, numpy_helper

from export import parity, repository
from export.onnx import DecoderGraph, sample_inputs
from export.quantize import quantize_graph, quantize_int8
from export.repository import ParityError, check_parity, export_model
from model.checkpoint import load_checkpoint
from service.cli import main
from service.runtime import Runtime, choose_providers
from translator.model_format import DECODER_INPUTS, SERVING_FILE, ModelMeta, cache_names


def test_export_writes_a_complete_model_directory(exported_tiny):
    for name in ("encoder.onnx", "decoder.onnx", "spm.model", "config.json", "parity_report.json"):
        assert (exported_tiny / name).exists(), name
    meta = json.loads((exported_tiny / "config.json").read_text())
    assert (meta["name"], meta["version"]) == ("tiny", "1")
    assert meta["graphs"]["decoder.onnx"]["opset"] >= 18
    report = json.loads((exported_tiny / "parity_report.json").read_text())
    assert report["passed"]
    assert report["tensor"]["batches"] >= 32 and max(report["tensor"]["batch_sizes"]) == 32
    assert report["tensor"]["outputs"]["logits"]["max_abs"] <= report["logits_bound"] <= 1e-3
    assert report["tensor"]["reference"] == "float64" and report["sequence"]["share"] == 1.0


def test_decoder_axes_are_dynamic(exported_tiny):
    graph = onnx.load(str(exported_tiny / "decoder.onnx")).graph
    dims = {i.name: [d.dim_param or d.dim_value for d in i.type.tensor_type.shape.dim] for i in graph.input}
    assert dims["past_key_0"][0] == dims["tokens"][0] == "batch"
    # past K and V (B, H, positions, Dh); cross keys transposed (B, H, Dh, positions), cross values (B, H, positions, Dh)
    assert isinstance(dims["past_key_0"][2], str) and isinstance(dims["cross_key_0"][3], str)
    assert isinstance(dims["past_value_0"][2], str) and isinstance(dims["cross_value_0"][2], str)
    assert "past_mask" not in dims  # a row's past is its first `positions` positions


def test_decoder_self_attention_is_group_query_attention_writing_the_present_in_place(exported_tiny):
    """The present K/V are whole buffers shaped like the past: bound to the same memory, the step appends in place."""
    graph = onnx.load(str(exported_tiny / "decoder.onnx")).graph
    layers = json.loads((exported_tiny / "config.json").read_text())["model"]["decoder_layers"]
    assert [n.domain for n in graph.node if n.op_type == "GroupQueryAttention"] == ["com.microsoft"] * layers
    shape = lambda value: [d.dim_param or d.dim_value for d in value.type.tensor_type.shape.dim]  # noqa: E731
    inputs, outputs = ({v.name: shape(v) for v in values} for values in (graph.input, graph.output))
    assert all(outputs[f"present_{kind}_{i}"] == inputs[f"past_{kind}_{i}"] for i in range(layers) for kind in ("key", "value"))


def test_the_self_attention_ops_pytorch_meaning_is_what_onnx_runtime_computes(exported_tiny, tiny_checkpoint):
    """The decoder graph run eagerly (cached_self_attention's PyTorch meaning) against ONNX Runtime's
    GroupQueryAttention in the exported graph, rows at different positions over buffers of noise."""
    model, _ = load_checkpoint(tiny_checkpoint)
    layers = model.cfg.decoder_layers
    _, args = sample_inputs(model.eval(), batch=4, src_len=5, past_len=9)
    args = (args[0], torch.tensor([0, 3, 8, 5]), *args[2:])  # a first step, and one row at the buffers' last slot
    with torch.no_grad():
        expected = [t.numpy() for t in DecoderGraph(model)(*args)]
    session = ort.InferenceSession(str(exported_tiny / "decoder.onnx"), providers=["CPUExecutionProvider"])
    names = [*DECODER_INPUTS, *cache_names("past", layers), *cache_names("cross", layers)]
    actual = session.run(None, {name: t.numpy() for name, t in zip(names, args)})
    rows, positions = np.arange(4), args[1].numpy()
    np.testing.assert_allclose(actual[0], expected[0], atol=1e-4)  # logits
    for ours, theirs in zip(actual[1:-1], expected[1:-1]):  # present K/V: the past and this step's K/V where written
        np.testing.assert_allclose(ours[rows, :, positions], theirs[rows, :, positions], atol=1e-5)
        for row, position in zip(rows, positions):
            np.testing.assert_array_equal(ours[row, :, :position], theirs[row, :, :position])
    np.testing.assert_allclose(actual[-1], expected[-1], atol=1e-5)  # alignments


def test_validate_passes_on_a_good_export(exported_tiny, tiny_checkpoint, corpus_dir, capsys):
    import torch

    threads = torch.get_num_threads()
    try:  # --threads sets PyTorch's (a check beside a busy core runs on one: see its help)
        torch.set_num_threads(2)
        assert main(["validate", str(exported_tiny), "--data", str(corpus_dir), "--batches", "32",
                     "--threads", "1"]) == 0
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(threads)
    assert "PASSED" in capsys.readouterr().out


@pytest.mark.parametrize("corruption", [0.05, 0.0003])
def test_a_corrupted_weight_fails_validation(exported_tiny, tmp_path, corpus_dir, capsys, corruption):
    """One output column of one 32x32 decoder projection shifted by `corruption` (its weights are ~0.2). A column,
    not a row: a row shifts every output feature alike, which the next LayerNorm removes exactly (its mean)."""
    corrupted = tmp_path / "tiny" / "1"
    shutil.copytree(exported_tiny, corrupted)
    proto = onnx.load(str(corrupted / "decoder.onnx"))
    weight = next(t for t in proto.graph.initializer if len(t.dims) == 2 and t.dims[0] == t.dims[1] == 32)
    values = numpy_helper.to_array(weight).copy()
    values[:, 0] += corruption
    weight.CopyFrom(numpy_helper.from_array(values, weight.name))
    onnx.save(proto, str(corrupted / "decoder.onnx"))
    assert main(["validate", str(corrupted), "--data", str(corpus_dir)]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "logits differ from the float64 reference by" in out


def test_failed_export_leaves_no_model(tiny_checkpoint, corpus_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(parity, "ROUNDING_MULTIPLE", 0)  # no float computation is exact: the check must fail
    monkeypatch.setattr(parity, "PYTORCH_ERROR_MULTIPLE", 0)
    out = tmp_path / "tiny" / "1"
    with pytest.raises(ParityError, match="logits differ"):
        export_model(tiny_checkpoint, out, corpus_dir, batches=4, sentences=10)
    assert not out.exists()
    failed = out.with_name("1.failed")
    assert (failed / "parity_report.json").exists() and not list(failed.glob("*.onnx"))


def test_int8_is_judged_by_quality(tiny_checkpoint, corpus_dir, tmp_path, monkeypatch):
    monkeypatch.setattr(repository, "MAX_INT8_CHRF_DROP", 100.0)
    out = tmp_path / "tiny" / "1"
    report = export_model(tiny_checkpoint, out, corpus_dir, int8=True, batches=4, sentences=10)
    assert (out / "encoder.int8.onnx").exists() and (out / "decoder.int8.onnx").exists()
    assert {"bleu", "chrf"} <= set(report["int8"]["int8"]) and "chrf_drop" in report["int8"]
    assert report["int8"]["weight_scales"] == "per tensor"  # the faster kernel, kept when it passes
    granularity = []
    real_quantize = repository.quantize_int8
    monkeypatch.setattr(repository, "quantize_int8",
                        lambda model_dir, calibration, per_channel: granularity.append(per_channel)
                        or real_quantize(model_dir, calibration, per_channel))
    monkeypatch.setattr(repository, "MAX_INT8_CHRF_DROP", -1000.0)
    with pytest.raises(ParityError, match="int8 chrF drops"):
        export_model(tiny_checkpoint, tmp_path / "tiny" / "2", corpus_dir, int8=True, batches=4, sentences=10)
    assert granularity == [False, True]  # per tensor failed the gate, so per output channel was tried too
    report = json.loads((tmp_path / "tiny" / "2.failed" / "parity_report.json").read_text())
    assert report["int8"]["weight_scales"] == "per output channel"


def _has_cuda() -> bool:
    try:
        choose_providers("cuda")
        return True
    except RuntimeError:
        return False


@pytest.mark.gpu
@pytest.mark.skipif(not _has_cuda(), reason="needs onnxruntime-gpu and a CUDA device")
def test_fp16_on_cuda_matches_pytorch(tiny_checkpoint, corpus_dir, tmp_path):
    """Greedy outputs differ only at near-ties on fp16's scale."""
    report = export_model(tiny_checkpoint, tmp_path / "tiny" / "1", corpus_dir, fp16=True, batches=4, sentences=50)
    assert report["fp16"]["checked"] and not report["fp16"]["mismatches"], report["fp16"]["mismatches"]


@pytest.mark.skipif(_has_cuda(), reason="a CUDA provider is present: covered by the GPU tests")
@pytest.mark.parametrize("claims_cuda", [False, True], ids=["cpu build", "cuda that cannot start"])
def test_fp16_without_a_usable_gpu_is_exported_and_recorded_unchecked(tiny_checkpoint, corpus_dir, tmp_path,
                                                                        monkeypatch, claims_cuda):
    """As the GPU image's build stage exports it, on a CPU. A CUDA provider that cannot start once checked fp16 on
    the CPU instead (ONNX Runtime's fallback) and recorded it as checked."""
    if claims_cuda:
        monkeypatch.setattr(ort, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"])
    out = tmp_path / "tiny" / "1"
    report = export_model(tiny_checkpoint, out, corpus_dir, fp16=True, batches=4, sentences=10)
    assert (out / "encoder.fp16.onnx").exists() and (out / "decoder.fp16.onnx").exists()
    assert report["fp16"]["checked"] is False
    assert ("could not start it" if claims_cuda else "install onnxruntime-gpu") in report["fp16"]["reason"]


@pytest.mark.gpu
@pytest.mark.skipif(not _has_cuda(), reason="needs onnxruntime-gpu and a CUDA device")
def test_the_parity_gate_passes_on_cuda(exported_tiny, tiny_checkpoint, corpus_dir):
    """The fp32 graphs on CUDA by the export's own rule (`translator validate --device cuda`)."""
    model, _ = load_checkpoint(tiny_checkpoint)
    report = check_parity(model, exported_tiny, corpus_dir, batches=8, sentences=50, device="cuda")
    assert report["provider"] == "CUDAExecutionProvider" and report["passed"], report["failures"]


def test_serving_modules_import_no_torch():
    code = ("import sys, service.runtime, service.decoding, service.cli, service.server, service.client, service.engine; "
            "assert 'torch' not in sys.modules, 'torch imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_parity_check_proves_the_loop_the_server_runs(exported_tiny, tiny_checkpoint, monkeypatch):
    """Change the served loop's token choice (second best instead of best): the parity check must notice, so it
    cannot be proving some other loop."""
    import numpy as np

    from export.parity import sequence_parity
    from model.checkpoint import load_checkpoint
    from service import runtime as runtime_module
    from service.runtime import Runtime

    model, _ = load_checkpoint(tiny_checkpoint)
    runtime = Runtime(exported_tiny, threads=1)
    texts = ["Where is the station?", "I eat an apple.", "He crossed the street."]
    assert sequence_parity(model, runtime, texts, bound=1e-3)["share"] == 1.0

    class SecondBest(runtime_module.RowKernel):
        def __init__(self, logits, *arrays):
            super().__init__(logits, *arrays)
            self.logits = logits

        def choose(self, n, *args):
            rows = self.logits[:n]
            rows[np.arange(n), rows.argmax(-1)] = -np.inf
            return super().choose(n, *args)

    monkeypatch.setattr(runtime_module, "RowKernel", SecondBest)
    changed = sequence_parity(model, runtime, texts, bound=1e-3)
    assert changed["share"] == 0.0 and len(changed["mismatches"]) == 3  # second best is no near-tie on these
    assert all(m["float64_margin"] > 2e-3 and m["first_differing_token"] == 0 for m in changed["mismatches"])
    # The same differences, judged with a bound wider than their margins, are near-ties: reported, not failures.
    lenient = sequence_parity(model, runtime, texts, bound=1e3)
    assert lenient["share"] == 0.0 and not lenient["mismatches"] and len(lenient["near_ties"]) == 3


def test_sentences_longer_than_the_positions_are_skipped_not_a_crash(tiny_checkpoint, corpus_dir, tmp_path):
    """A model with few positions: validation pairs that do not fit are skipped (and counted), the export
    passes, the serving limits stay within the positions, and no .partial directory is left."""
    import shutil

    import torch

    from export.repository import export_model
    from model.checkpoint import save_checkpoint
    from model.transformer import Transformer, TransformerConfig
    from tests.conftest import TINY
    from translator.model_format import ModelMeta

    from model.data import read_tsv
    from translator.tokenizer import Tokenizer

    tokenizer = Tokenizer.from_dir(tiny_checkpoint)
    needed = sorted(max(len(tokenizer.encode(p.en)), len(tokenizer.encode_target(p.de)) + 1)
                    for p in read_tsv(corpus_dir / "valid.tsv"))
    positions = needed[len(needed) // 2]  # about half of the pairs fit
    assert needed[0] <= positions < needed[-1]
    checkpoint = tmp_path / "short"
    shutil.copytree(tiny_checkpoint, checkpoint)
    torch.manual_seed(0)
    save_checkpoint(Transformer(TransformerConfig(**TINY, max_positions=positions)).eval(), checkpoint)
    out = tmp_path / "repository" / "short" / "1"
    report = export_model(checkpoint, out, corpus_dir, batches=4, sentences=20)
    assert report["passed"] and report["skipped_longer_than_positions"] > 0
    limits = ModelMeta.read(out).limits
    assert limits.max_source_tokens <= positions and limits.max_output_tokens <= positions
    assert not list(out.parent.glob(".*partial"))


def test_the_logits_gate_scales_with_the_logits(tiny_checkpoint, corpus_dir, tmp_path):
    """Trained models have logits of 30-50; float32 rounding grows with them, so the bound does too."""
    import shutil

    import torch

    from export.repository import export_model
    from model.checkpoint import save_checkpoint
    from model.transformer import Transformer, TransformerConfig
    from tests.conftest import TINY

    checkpoint = tmp_path / "loud"
    shutil.copytree(tiny_checkpoint, checkpoint)
    torch.manual_seed(0)
    model = Transformer(TransformerConfig(**TINY, tie_output=False)).eval()
    with torch.no_grad():
        model.output_projection.weight.mul_(60.0)
    save_checkpoint(model, checkpoint)
    report = export_model(checkpoint, tmp_path / "repository" / "loud" / "1", corpus_dir, batches=4, sentences=20)
    logits = report["tensor"]["outputs"]["logits"]
    own_error = report["tensor"]["outputs"]["pytorch_fp32_logits"]["max_abs"]
    assert logits["max_reference"] > 20 and own_error > 20 * 2**-23  # fp32 error grows with the logits...
    assert report["logits_bound"] == pytest.approx(max(8 * own_error, 64 * 2**-23 * logits["max_reference"]))  # ...so does the bound
    assert report["passed"]


def test_commands_use_the_projects_data_wherever_they_run(tmp_path):
    """Run from another directory, export/validate/train/evaluate default to the project's data/, not ./data."""
    import subprocess
    import sys

    from service.config import DEFAULT_DATA, ROOT

    for command in ("export", "validate", "train", "evaluate"):
        shown = subprocess.run([sys.executable, "-m", "service.cli", command, "--help"], cwd=tmp_path, capture_output=True,
                               text=True, timeout=60, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "COLUMNS": "400"})
        assert shown.returncode == 0 and f"(default: {DEFAULT_DATA})" in shown.stdout, command


def _int8_sessions(model_dir: Path, name: str) -> tuple[ort.InferenceSession, ort.InferenceSession]:
    """The int8 graph as served (ONNX Runtime's fusions) and node by node (no graph optimization)."""
    sessions = []
    for level in (ort.GraphOptimizationLevel.ORT_ENABLE_ALL, ort.GraphOptimizationLevel.ORT_DISABLE_ALL):
        options = ort.SessionOptions()
        options.graph_optimization_level = level
        sessions.append(ort.InferenceSession(str(model_dir / name), options, providers=["CPUExecutionProvider"]))
    return sessions[0], sessions[1]


CALIBRATION = ["the house is big", "a small dog", "where is the station?", "I would like a coffee, please.",
               "Save the file before you close the window."]


def test_int8_quantizes_each_activation_row_alone(exported_tiny, tmp_path):
    """A row's int8 outputs do not depend on the rows batched with it (ONNX Runtime's dynamic quantization takes
    one activation scale per batch: a long or unusual row changed the others' rounding), and the graph as served
    (ONNX Runtime's fusions) computes what its nodes compute. (The tiny model's biases are zeros: the bias check is
    the next test's.)"""
    model_dir = tmp_path / "1"
    shutil.copytree(exported_tiny, model_dir)
    quantize_int8(model_dir, CALIBRATION)
    ops = {node.op_type for name in ("encoder.int8.onnx", "decoder.int8.onnx")
           for node in onnx.load(str(model_dir / name)).graph.node}
    assert "MatMulIntegerToFloat" in ops and not ops & {"ReduceMax", "Div", "DynamicQuantizeLinear"}  # no scale computed
    rng = np.random.default_rng(0)
    ids = rng.integers(4, 80, (4, 7))
    ids[1] = rng.integers(4, 8, 7)  # rows unlike each other
    mask = np.arange(7) < np.array([[7], [3], [5], [6]])
    encoder_feed = {"src_ids": ids, "src_mask": mask}
    fp32 = ort.InferenceSession(str(model_dir / "encoder.onnx"), providers=["CPUExecutionProvider"])
    fused, plain = _int8_sessions(model_dir, "encoder.int8.onnx")
    batched = fused.run(None, encoder_feed)
    np.testing.assert_allclose(batched[0], plain.run(None, encoder_feed)[0], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(batched[0], fp32.run(None, encoder_feed)[0], atol=0.2)
    for row in range(4):
        alone = fused.run(None, {name: feed[row:row + 1] for name, feed in encoder_feed.items()})
        for theirs, ours in zip(batched, alone):
            np.testing.assert_allclose(ours[0], theirs[row], rtol=1e-6, atol=1e-6)

    fused, plain = _int8_sessions(model_dir, "decoder.int8.onnx")
    layers = json.loads((model_dir / "config.json").read_text())["model"]["decoder_layers"]
    _, heads, _, head_dim = batched[2].shape  # cross values (B, H, S, Dh)
    past = [rng.normal(size=(4, heads, 9, head_dim)).astype(np.float32) for _ in range(2 * layers)]
    decoder_feed = dict(zip([*DECODER_INPUTS, *cache_names("past", layers), *cache_names("cross", layers)],
                            [rng.integers(4, 80, 4), np.array([0, 3, 8, 5]), mask, *past, *batched[1:]]))
    logits = fused.run(None, decoder_feed)[0]
    np.testing.assert_allclose(logits, plain.run(None, decoder_feed)[0], rtol=1e-5, atol=1e-5)
    for row in range(4):
        alone = fused.run(None, {name: feed[row:row + 1] for name, feed in decoder_feed.items()})[0]
        np.testing.assert_allclose(alone[0], logits[row], rtol=1e-6, atol=1e-6)


def test_int8_calibration_measures_every_quantized_input(exported_tiny):
    """Each quantized input's peak is the largest |x| the fp32 graphs reached translating the calibration texts:
    more texts never lower one, every input of a product is measured, and the encoder's output (the memory the
    cross K/V are projected from) peaks where the encoder's output does."""
    from export.quantize import activation_peaks, quantized_inputs

    graphs = {name: exported_tiny / name for name in ("encoder.onnx", "decoder.onnx")}
    few = activation_peaks(exported_tiny, graphs, CALIBRATION[:1])
    more = activation_peaks(exported_tiny, graphs, CALIBRATION)
    for name, graph in graphs.items():
        assert set(more[name]) == set(quantized_inputs(onnx.load(str(graph)))) and more[name]
        assert all(0 < few[name][x] <= more[name][x] for x in more[name])
    runtime = Runtime(exported_tiny)
    ids = runtime.tokenizer.encode(CALIBRATION[0])
    memory = runtime.encoder.run(None, {"src_ids": np.array([ids]), "src_mask": np.ones((1, len(ids)), bool)})[0]
    assert few["encoder.onnx"]["memory"] == pytest.approx(float(np.abs(memory).max()), rel=1e-5)
    with pytest.raises(ValueError, match="fit the model's positions"):
        activation_peaks(exported_tiny, graphs, ["word " * 10_000])


@pytest.mark.parametrize("per_channel", [False, True])
def test_int8_rewrites_every_matmul_and_gemm_by_a_constant_weight(tmp_path, per_channel):
    rng = np.random.default_rng(1)
    weights = {"w1": rng.normal(0, 0.3, (16, 32)), "b1": rng.normal(0, 0.3, 32), "w2": rng.normal(0, 0.3, (8, 32)),
               "b2": rng.normal(0, 0.3, 8)}
    nodes = [helper.make_node("MatMul", ["x", "w1"], ["h"]), helper.make_node("Add", ["b1", "h"], ["hb"]),
             helper.make_node("Relu", ["hb"], ["r"]),
             helper.make_node("Gemm", ["r", "w2", "b2"], ["y"], transB=1),  # the tied output projection's form
             helper.make_node("Transpose", ["x"], ["xt"]), helper.make_node("MatMul", ["x", "xt"], ["gram"])]
    graph = helper.make_graph(nodes, "block", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["rows", 16])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["rows", 8]),
                               helper.make_tensor_value_info("gram", TensorProto.FLOAT, ["rows", "rows"])],
                              [numpy_helper.from_array(w.astype(np.float32), name) for name, w in weights.items()])
    source, target = tmp_path / "block.onnx", tmp_path / "block.int8.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(source))
    x = rng.normal(size=(5, 16)).astype(np.float32) * np.array([[1], [2], [0.5], [0], [3]], np.float32)
    reference = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"])
    relu = np.maximum(x @ weights["w1"].astype(np.float32) + weights["b1"].astype(np.float32), 0)
    quantize_graph(source, target, {"x": float(np.abs(x).max()), "r": float(relu.max())}, per_channel)

    ops = [node.op_type for node in onnx.load(str(target)).graph.node]
    assert ops.count("MatMulIntegerToFloat") == 2 and not {"Gemm", "Add"} & set(ops) and ops.count("MatMul") == 1

    # A product that is also a graph output keeps its Add; a bias that is no vector of the output width stays an Add.
    shapes = {"y": ["rows", 8], "gram": ["rows", "rows"], "h": ["rows", 32]}
    for outputs, bias in ((["y", "gram", "h"], weights["b1"]), (["y", "gram"], weights["b1"][None, :])):
        graph.ClearField("output")
        graph.output.extend(helper.make_tensor_value_info(name, TensorProto.FLOAT, shapes[name]) for name in outputs)
        graph.initializer[1].CopyFrom(numpy_helper.from_array(bias.astype(np.float32), "b1"))
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), str(tmp_path / "other.onnx"))
        quantize_graph(tmp_path / "other.onnx", tmp_path / "other.int8.onnx", {"x": 1.0, "r": 1.0}, per_channel)
        assert [node.op_type for node in onnx.load(str(tmp_path / "other.int8.onnx")).graph.node].count("Add") == 1
    expected = reference.run(["y"], {"x": x})[0]  # x @ xᵀ stays float; the biases go into the integer products
    fused, plain = _int8_sessions(tmp_path, "block.int8.onnx")
    actual = fused.run(["y"], {"x": x})[0]
    np.testing.assert_allclose(actual, plain.run(["y"], {"x": x})[0], rtol=1e-5, atol=1e-6)
    assert np.abs(actual - expected).max() <= 0.03 * np.abs(expected).max()  # within 3% of the tensor's scale
    for row in range(5):  # a row's integers are its own: alone it comes out exactly as batched
        np.testing.assert_array_equal(fused.run(["y"], {"x": x[row:row + 1]})[0][0], actual[row])
    # Past its calibrated peak a value saturates (never wraps around): 10x the input is the input clipped to it.
    w1, b1, w2, b2 = (weights[name].astype(np.float32) for name in ("w1", "b1", "w2", "b2"))
    far = 10 * x[:1]
    clipped = np.clip(far, -np.abs(x).max(), np.abs(x).max())
    saturated = np.minimum(np.maximum(clipped @ w1 + b1, 0), relu.max()) @ w2.T + b2
    assert np.abs(fused.run(["y"], {"x": far})[0] - saturated).max() <= 0.03 * np.abs(saturated).max()


def test_an_int8_export_of_an_earlier_recipe_is_stale(exported_tiny, tiny_checkpoint, tmp_path):
    """`make export` (--if-stale) re-exports int8 graphs of an earlier recipe: one activation scale per batch
    (batch-dependent output) or per row (computed at run time), weights in 127 levels (saturated on CPUs without
    VNNI)."""
    model_dir = tmp_path / "1"
    shutil.copytree(exported_tiny, model_dir)
    report_file = model_dir / "parity_report.json"
    report = json.loads(report_file.read_text())
    assert not repository.is_stale(model_dir, tiny_checkpoint)  # no int8: nothing to re-quantize
    current = repository.INT8_RECIPE
    for int8, stale in (({"weight_scales": "per tensor"}, True), (current | {"activation_scales": "per row"}, True),
                        (current | {"weight_levels": 127}, True), (current, False)):
        report_file.write_text(json.dumps(report | {"int8": int8}))
        assert repository.is_stale(model_dir, tiny_checkpoint) is stale


def test_a_checkpoints_serving_file_sets_the_segment_length_the_service_cuts_sentences_to(tiny_checkpoint, corpus_dir,
                                                                                         tmp_path, capsys):
    """serving.json's segment_tokens reaches config.json; a change to it makes the export stale; the service cuts
    sentences between words to it; a malformed file stops the export with what to fix."""
    from service.translator import Translator

    checkpoint = tmp_path / "checkpoint"
    shutil.copytree(tiny_checkpoint, checkpoint)
    (checkpoint / SERVING_FILE).write_text('{"segment_tokens": 6}')
    model_dir = tmp_path / "tiny" / "1"
    repository.export_model(checkpoint, model_dir, corpus_dir, batches=8, sentences=50)
    limits = ModelMeta.read(model_dir).limits
    assert (limits.segment_tokens, limits.max_source_tokens) == (6, 256)
    assert not repository.is_stale(model_dir, checkpoint)
    (checkpoint / SERVING_FILE).write_text('{"segment_tokens": 8}')
    assert repository.is_stale(model_dir, checkpoint)
    (checkpoint / SERVING_FILE).unlink()
    assert repository.is_stale(model_dir, checkpoint)

    translator = Translator(model_dir)
    sentence = "the dog was hungry and the cat slept on the warm sofa all night long"
    segmented = translator.segment([sentence])
    pieces = segmented.prepared[0].segments
    assert len(pieces) >= 2 and all(len(ids) <= 6 or " " not in piece for piece, ids in zip(pieces, segmented.sources))
    assert translator.translate_texts([sentence])[0].segments == len(segmented.sources)

    for text, message in (("{", "is not JSON"), ('{"segment_tokens": 0}', "must be a positive integer, not 0"),
                          ('{"segment": 6}', "whose only key is segment_tokens")):
        (checkpoint / SERVING_FILE).write_text(text)
        assert main(["export", "--checkpoint", str(checkpoint), "--out", str(tmp_path / "2"), "--data", str(corpus_dir),
                     "--if-stale"]) == 1
        assert message in capsys.readouterr().err
    assert not (tmp_path / "2").exists()
