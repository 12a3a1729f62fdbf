"""The export pipeline: checkpoint → model_repository/<name>/<version>/ with proven parity.

The directory is built under a temporary name and moved into place only when every check passes;
a failed export leaves ``<version>.failed/parity_report.json`` and no ONNX files.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from dataclasses import asdict
from pathlib import Path

from model.card import CARD_FILE
from model.checkpoint import load_checkpoint
from model.data import build_corpus, read_tsv
from model.transformer import WEIGHTS_FILE
from translator.tokenizer import copy_tokenizer
from export.onnx import export_onnx
from export.optimize import fusion_report
from export import parity
from export.quantize import WEIGHT_LEVELS, convert_fp16, quantize_int8
from service.config import DeviceUnavailable
from service.runtime import Runtime
from translator.model_format import (CONFIG_FILE, DECODER_FILE, ENCODER_FILE, FORMAT_VERSION, REPORT_FILE,
                                     Limits, ModelMeta, segment_tokens)

MAX_INT8_CHRF_DROP = 1.0
# export.quantize's recipe; int8 graphs of an earlier recipe (activation scales per batch or per row, weights in 127
# levels) are re-exported
INT8_RECIPE = {"activation_scales": "calibrated per tensor", "weight_levels": WEIGHT_LEVELS}
MAX_TOKENS = 256


class ParityError(RuntimeError):
    """The exported graphs do not compute what the checkpoint computes."""


def checkpoint_digest(checkpoint: Path) -> str:
    return hashlib.sha256((checkpoint / WEIGHTS_FILE).read_bytes()).hexdigest()


def ensure_data(data_dir: Path) -> Path:
    """The validation/test splits; built from the Debian package when missing."""
    if not (data_dir / "valid.tsv").exists():
        print(f"{data_dir}/valid.tsv is missing: fetching and splitting the corpus (translator data freedict)")
        build_corpus(data_dir)
    return data_dir


def serving_limits(checkpoint: Path, positions: int) -> Limits:
    """The limits an export of `checkpoint`, a model of `positions` positions, serves with: MAX_TOKENS within the
    positions, segments of the SERVING_FILE's length within that."""
    limit = min(MAX_TOKENS, positions)
    return Limits(limit, limit, min(segment_tokens(checkpoint) or limit, limit))


def write_config(model, checkpoint: Path, staging: Path, out: Path, graphs: dict, limits: Limits) -> None:
    ModelMeta(name=out.parent.name, version=out.name, model=asdict(model.cfg), limits=limits,
              source_checkpoint={"path": str(checkpoint), "sha256": checkpoint_digest(checkpoint)},
              graphs=graphs, format=FORMAT_VERSION).write(staging)


def check_parity(model, model_dir: Path, data_dir: Path, batches: int = 32, sentences: int = 500,
                 device: str = "cpu") -> dict:
    """Tensor and sequence parity of model_dir, run on `device`, against model; the report says whether it passed."""
    runtime = Runtime(model_dir, device=device)
    tokenizer = runtime.tokenizer
    valid = read_tsv(ensure_data(data_dir) / "valid.tsv")
    limit = runtime.limits.max_source_tokens  # never more than the model's positions (write_config)
    encoded = [(p.en, tokenizer.encode(p.en), tokenizer.encode_target(p.de)) for p in valid]
    # Pairs longer than the model's positions cannot be checked (nor served): skip them, and say so.
    pairs = [(en, src, tgt) for en, src, tgt in encoded if len(src) <= limit and len(tgt) < limit]
    if not pairs:
        raise ParityError(f"no validation pair fits the model's {limit} positions; nothing to check parity on")
    started = time.monotonic()
    exact = parity.float64_copy(model)
    tensors = parity.tensor_parity(model, runtime, pairs, batches=batches, exact=exact)
    logits = tensors["outputs"]["logits"]
    pytorch_error = tensors["outputs"]["pytorch_fp32_logits"]["max_abs"]
    bound = parity.logits_bound(logits["max_reference"], pytorch_error)
    sequences = parity.sequence_parity(model, runtime, [en for en, _, _ in pairs[:sentences]], bound, exact=exact)
    failures = []
    if logits["max_abs"] > bound:
        failures.append(f"fp32 logits differ from the float64 reference by {logits['max_abs']:.3g} > {bound:.3g} "
                        f"({parity.PYTORCH_ERROR_MULTIPLE} x PyTorch's own fp32 error {pytorch_error:.3g}, at least "
                        f"{parity.ROUNDING_MULTIPLE} float32 epsilons x the largest |logit| {logits['max_reference']:.3g})")
    alignments = tensors["outputs"].get("alignments")
    if alignments and alignments["max_abs"] > parity.ALIGNMENT_TOLERANCE:
        failures.append(f"alignments (attention probabilities) differ from the float64 reference by "
                        f"{alignments['max_abs']:.3g} > {parity.ALIGNMENT_TOLERANCE:g}")
    if sequences["mismatches"]:
        failures.append(f"{len(sequences['mismatches'])} of {sequences['sentences']} greedy outputs differ where the "
                        f"float64 margin exceeds {2 * bound:.3g} (not a near-tie)")
    rule = (f"logits: |onnx - float64| <= max({parity.PYTORCH_ERROR_MULTIPLE} x |pytorch fp32 - float64|, "
            f"{parity.ROUNDING_MULTIPLE} x 2^-23 x max(1, max|logit|)); greedy outputs identical, except near-ties: "
            "the float64 margin between the two engines' tokens where they part <= 2 x that bound; "
            f"alignments: |onnx - float64| <= {parity.ALIGNMENT_TOLERANCE:g}")
    return {"passed": not failures, "failures": failures, "logits_bound": bound, "rule": rule,
            "provider": runtime.info.provider, "skipped_longer_than_positions": len(encoded) - len(pairs),
            "tensor": tensors, "sequence": sequences, "seconds": round(time.monotonic() - started, 1)}


def quantize_within_gate(model_dir: Path, data_dir: Path, sentences: int) -> dict:
    """int8 weights one scale per matrix (the faster kernel); if its chrF on the test split, through the runtime,
    drops more than the gate allows against fp32, one scale per output channel. The report of the variant kept:
    BLEU/chrF of both precisions, the drops, and its weight scales. fp32 is translated once; the activations are
    calibrated on the valid split (export.quantize.quantize_int8)."""
    from model.evaluate import scores
    from service.translator import Translator

    fp32 = Translator(model_dir, precision="fp32")
    runtime = fp32.runtime
    fits = lambda text: len(runtime.tokenizer.encode(text)) <= runtime.limits.max_source_tokens  # noqa: E731
    test = [p for p in read_tsv(data_dir / "test.tsv") if fits(p.en)][:sentences]
    sources, references = [p.en for p in test], [p.de for p in test]
    score = lambda translator: scores([t.text for t in translator.translate_batch(sources)], references)  # noqa: E731
    result = {"fp32": score(fp32), "test_pairs": len(test)}
    calibration = [p.en for p in read_tsv(data_dir / "valid.tsv")]
    for per_channel in (False, True):
        quantize_int8(model_dir, calibration, per_channel=per_channel)
        result["int8"] = score(Translator(model_dir, precision="int8"))
        result["weight_scales"] = "per output channel" if per_channel else "per tensor"
        result |= INT8_RECIPE
        result["chrf_drop"] = round(result["fp32"]["chrf"] - result["int8"]["chrf"], 2)
        result["bleu_drop"] = round(result["fp32"]["bleu"] - result["int8"]["bleu"], 2)
        result["passed"] = result["chrf_drop"] <= MAX_INT8_CHRF_DROP
        if result["passed"]:
            break
    return result


def export_model(checkpoint: Path, out: Path, data_dir: Path, *, int8: bool = False, fp16: bool = False,
                 batches: int = 32, sentences: int = 500, quality_sentences: int = 2000) -> dict:
    """Export, prove parity, optionally quantize; returns the report. Raises ParityError on failure."""
    model, _ = load_checkpoint(checkpoint)
    limits = serving_limits(checkpoint, model.cfg.max_positions)  # a malformed serving.json stops it here
    staging = out.with_name(f".{out.name}.partial")
    failed = out.with_name(f"{out.name}.failed")
    for stale in (staging, failed):
        shutil.rmtree(stale, ignore_errors=True)
    staging.mkdir(parents=True)
    try:  # an unexpected error leaves no .partial directory behind
        graphs = export_onnx(model, staging)
        for name in (ENCODER_FILE, DECODER_FILE):
            graphs[name]["ort_optimizations"] = fusion_report(staging / name, graphs[name]["ops"])
        copy_tokenizer(checkpoint, staging)
        if (checkpoint / CARD_FILE).exists():
            shutil.copy(checkpoint / CARD_FILE, staging / CARD_FILE)
        write_config(model, checkpoint, staging, out, graphs, limits)
        report = check_parity(model, staging, data_dir, batches, sentences)
        if report["passed"] and int8:
            report["int8"] = quantize_within_gate(staging, data_dir, quality_sentences)
            if not report["int8"]["passed"]:
                report["passed"] = False
                report["failures"].append(f"int8 chrF drops by {report['int8']['chrf_drop']} > {MAX_INT8_CHRF_DROP}")
        if report["passed"] and fp16:
            convert_fp16(staging)
            report["fp16"] = fp16_parity(model, staging, data_dir, report["logits_bound"])
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    (staging / REPORT_FILE).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    if not report["passed"]:
        for graph in staging.glob("*.onnx"):
            graph.unlink()
        staging.rename(failed)
        raise ParityError(f"export failed parity ({'; '.join(report['failures'])}); report in {failed / REPORT_FILE}")
    shutil.rmtree(out, ignore_errors=True)
    staging.rename(out)
    return report


def fp16_parity(model, model_dir: Path, data_dir: Path, fp32_bound: float, sentences: int = 200) -> dict:
    """fp16 runs only on CUDA: greedy agreement with PyTorch where a GPU exists, else recorded as skipped."""
    try:
        runtime = Runtime(model_dir, precision="fp16", device="cuda")
    except DeviceUnavailable as error:  # no GPU here, or one whose CUDA provider ONNX Runtime cannot start
        return {"checked": False, "reason": str(error)}
    texts = [p.en for p in read_tsv(data_dir / "valid.tsv")[:sentences]]
    # fp16's epsilon is 2^13 times float32's: near-ties are judged on that scale; this check reports, never gates.
    result = parity.sequence_parity(model, runtime, texts, bound=fp32_bound * 2**13)
    return {"checked": True, **{k: v for k, v in result.items() if k != "mismatches"}, "mismatches": len(result["mismatches"])}


def validate(model_dir: Path, checkpoint: Path | None, data_dir: Path, batches: int = 32, sentences: int = 500,
             device: str = "cpu") -> dict:
    """Re-run the parity check of an exported directory against its source checkpoint, its graphs on `device`."""
    recorded = ModelMeta.read(model_dir).source_checkpoint
    checkpoint = checkpoint or Path(recorded["path"])
    if checkpoint_digest(checkpoint) != recorded["sha256"]:
        print(f"warning: {checkpoint}/{WEIGHTS_FILE} is not the checkpoint this model was exported from")
    model, _ = load_checkpoint(checkpoint)
    return check_parity(model, model_dir, data_dir, batches, sentences, device)


def is_stale(model_dir: Path, checkpoint: Path) -> bool:
    """True when model_dir lacks ONNX files, was exported from other weights than checkpoint's, in an older format or
    with other limits than it would have now (another segment length in its SERVING_FILE), or holds int8 graphs
    quantized by an earlier recipe (INT8_RECIPE; one activation scale per batch gave batch-dependent output)."""
    if not all((model_dir / f).exists() for f in (ENCODER_FILE, DECODER_FILE, REPORT_FILE, CONFIG_FILE)):
        return True
    meta = ModelMeta.read(model_dir)
    if meta.format != FORMAT_VERSION or meta.source_checkpoint.get("sha256") != checkpoint_digest(checkpoint):
        return True
    if meta.limits != serving_limits(checkpoint, meta.model["max_positions"]):
        return True
    int8 = json.loads((model_dir / REPORT_FILE).read_text()).get("int8")
    return int8 is not None and any(int8.get(key) != value for key, value in INT8_RECIPE.items())
