"""``translator bench vocab``: which SentencePiece vocabulary size suits the training corpus, as the decoder pays
for it. A larger vocabulary cuts the pieces per sentence (fewer decoder steps, shorter sources) but widens the
output projection, the largest GEMM of a step. For each size: a joint unigram model trained on the train splits,
pieces per sentence on each test split, the output projection's time per step (ONNX Runtime, fp32 and int8,
batch 1 and 32, d_model of the shipped model) and the decoder work per translated sentence relative to the
first size, step cost = the shipped model's measured step with its own projection swapped for this one."""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.common import best_time, format_table
from model.data import read_tsv

TRAIN_SENTENCES = 400_000  # train pairs, spread over the corpora: enough for SentencePiece, minutes on 2 cores


def corpus_sample(data_dirs: list[Path], limit: int, seed: int = 0) -> list[str]:
    """English and German sides of up to `limit` train pairs, drawn evenly from each corpus."""
    rng = random.Random(seed)
    texts = []
    for directory in data_dirs:
        pairs = read_tsv(directory / "train.tsv")
        for pair in rng.sample(pairs, min(len(pairs), limit // len(data_dirs))):
            texts += [pair.en, pair.de]
    rng.shuffle(texts)
    return texts


def pieces_per_sentence(model_file: Path, pairs: list) -> tuple[float, float]:
    """Mean pieces of the English and of the German side of test pairs."""
    import sentencepiece as spm

    processor = spm.SentencePieceProcessor(model_file=str(model_file))
    return (float(np.mean([len(ids) for ids in processor.encode([p.en for p in pairs])])),
            float(np.mean([len(ids) for ids in processor.encode([p.de for p in pairs])])))


def projection_ms(d_model: int, vocab: int, batch: int, precision: str, repeats: int = 200) -> float:
    """Fastest mean time of the output projection (batch × d_model) @ (d_model × vocab), 1 ORT thread."""
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    from export.quantize import quantize_graph

    weight = numpy_helper.from_array(np.random.default_rng(0).normal(0, 0.05, (d_model, vocab)).astype(np.float32), "W")
    graph = helper.make_graph([helper.make_node("MatMul", ["x", "W"], ["y"])], "projection",
                              [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["batch", d_model])],
                              [helper.make_tensor_value_info("y", TensorProto.FLOAT, ["batch", vocab])], [weight])
    feed = {"x": np.random.default_rng(1).normal(size=(batch, d_model)).astype(np.float32)}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "projection.onnx"
        onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]), path)
        if precision == "int8":
            quantize_graph(path, path, {"x": float(np.abs(feed["x"]).max())})  # as the export quantizes, calibrated
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def calls() -> None:
        for _ in range(repeats):
            session.run(None, feed)
    return 1000 * best_time(calls, 5)[0] / repeats


def run(data_dirs: list[Path], sizes: list[int], step_ms: dict[tuple[str, int], float], d_model: int = 256,
        shipped_vocab: int = 8000, sentences: int = TRAIN_SENTENCES) -> dict:
    """step_ms: the shipped model's measured decoder step per (precision, batch), its projection included."""
    from model.tokenizer import train_sentencepiece

    texts = corpus_sample(data_dirs, sentences)
    tests = {d.name: read_tsv(d / "test.tsv") for d in data_dirs}
    shipped = {key: projection_ms(d_model, shipped_vocab, key[1], key[0]) for key in step_ms}
    results = {"sizes": {}, "train_texts": len(texts), "step_ms": {f"{p} b{b}": ms for (p, b), ms in step_ms.items()}}
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            started = time.perf_counter()
            model_file = train_sentencepiece(texts, Path(tmp) / str(size), vocab_size=size)
            entry = {"train_seconds": time.perf_counter() - started,
                     "pieces": {name: pieces_per_sentence(model_file, pairs) for name, pairs in tests.items()},
                     "projection_ms": {}, "step_ms": {}}
            for (precision, batch), measured in step_ms.items():
                projection = projection_ms(d_model, size, batch, precision)
                entry["projection_ms"][f"{precision} b{batch}"] = projection
                entry["step_ms"][f"{precision} b{batch}"] = measured - shipped[(precision, batch)] + projection
            results["sizes"][size] = entry
            print(f"  vocabulary {size}: trained in {entry['train_seconds']:.0f} s", flush=True)
    return results


def report(results: dict) -> str:
    sizes = results["sizes"]
    first = next(iter(sizes.values()))
    rows = []
    for size, entry in sizes.items():
        row = [f"{int(size):,}"]
        for corpus, (en, de) in entry["pieces"].items():
            row += [f"{en:.1f}", f"{de:.1f}"]
        for key, ms in entry["step_ms"].items():
            # decoder work per sentence: target pieces × step time, averaged over the corpora, against the first size
            work = np.mean([de * ms for _, de in entry["pieces"].values()])
            base = np.mean([de * first["step_ms"][key] for _, de in first["pieces"].values()])
            row += [f"{entry['projection_ms'][key]:.3f}", f"{work / base:.2f}x"]
        rows.append(row)
    header = ["vocabulary"]
    for corpus in first["pieces"]:
        header += [f"{corpus} en", f"{corpus} de"]
    for key in first["step_ms"]:
        header += [f"proj ms {key}", f"decode work {key}"]
    return (f"SentencePiece unigram models trained on {results['train_texts']:,} texts (both sides of the train splits); "
            "pieces per test sentence; output projection ms per step (1 thread); decoder work per sentence = target "
            "pieces × step time, relative to the first size\n" + format_table(header, rows))
