"""``translator bench compare``: identical weights in this project's ONNX runtime (fp32, int8), CTranslate2
(fp32, int8) and Transformers ``generate``; greedy decoding forced to 64 tokens, one run, one table.

Models: OPUS-MT base dimensions with random weights (built by transformers from a MarianConfig), and
the shipped default model. CTranslate2 gets the weights through a model spec filled from our
checkpoint, and its greedy output is checked token for token against ours first (an outside oracle).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import torch

from bench.common import RESULTS, GraphTimer, batch_of, best_time, format_table, machine, write_results
from model.checkpoint import load_checkpoint
from translator.tokenizer import SPM_FILE, spm_pieces
from model.transformer import Transformer
from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import decode

OPUS_BASE = dict(d_model=512, encoder_layers=6, decoder_layers=6, encoder_attention_heads=8, decoder_attention_heads=8,
                 encoder_ffn_dim=2048, decoder_ffn_dim=2048, activation_function="swish", scale_embedding=True,
                 max_position_embeddings=512)
OPUS_VOCAB = 32000


def build_opus_base(directory: Path, spm_model: Path) -> Path:
    """A Marian directory with OPUS-MT base dimensions and random weights; our spm serves as its tokenizer."""
    import sentencepiece as spm
    import transformers

    directory.mkdir(parents=True, exist_ok=True)
    processor = spm.SentencePieceProcessor(model_file=str(spm_model))
    vocab = {"</s>": 0, "<unk>": 1}
    for i in range(processor.get_piece_size()):
        if not processor.is_control(i):
            vocab.setdefault(processor.id_to_piece(i), len(vocab))
    for i in range(OPUS_VOCAB - 1 - len(vocab)):
        vocab[f"<extra_{i}>"] = len(vocab)
    vocab["<pad>"] = len(vocab)
    (directory / "vocab.json").write_text(json.dumps(vocab, ensure_ascii=False))
    for name in ("source.spm", "target.spm"):
        (directory / name).write_bytes(spm_model.read_bytes())
    config = transformers.MarianConfig(vocab_size=OPUS_VOCAB, decoder_vocab_size=OPUS_VOCAB, pad_token_id=vocab["<pad>"],
                                       eos_token_id=0, decoder_start_token_id=vocab["<pad>"], forced_eos_token_id=None,
                                       **OPUS_BASE)
    torch.manual_seed(0)
    transformers.MarianMTModel(config).save_pretrained(directory)
    return directory


def ct2_spec(model: Transformer, pieces: list[str]):
    """A CTranslate2 TransformerSpec holding exactly our weights."""
    import ctranslate2

    cfg = model.cfg
    activation = {"relu": ctranslate2.specs.Activation.RELU, "gelu": ctranslate2.specs.Activation.GELU,
                  "silu": ctranslate2.specs.Activation.SWISH}[cfg.activation]
    spec = ctranslate2.specs.TransformerSpec.from_config((cfg.encoder_layers, cfg.decoder_layers), cfg.n_heads,
                                                         pre_norm=cfg.norm_position == "pre", activation=activation)
    weights = {k: v.detach().numpy() for k, v in model.state_dict().items()}
    scale = float(model.embed_scale)
    for side, stack, embedding in ((spec.encoder, "encoder", "embed"), (spec.decoder, "decoder", "target_embed")):
        (side.embeddings[0] if isinstance(side.embeddings, list) else side.embeddings).weight = weights[f"{embedding}.weight"]
        side.scale_embeddings = scale
        side.position_encodings.encodings = model.positional.numpy()
        if cfg.norm_position == "pre":
            _norm(side.layer_norm, weights, f"{stack}_norm")
    for i, layer in enumerate(spec.encoder.layer):
        prefix = f"encoder_layers.{i}"
        _attention(layer.self_attention, weights, f"{prefix}.self_attn", fused=("q", "k", "v"))
        _norm(layer.self_attention.layer_norm, weights, f"{prefix}.self_attn_residual.norm")
        _feed_forward(layer.ffn, weights, prefix)
    for i, layer in enumerate(spec.decoder.layer):
        prefix = f"decoder_layers.{i}"
        _attention(layer.self_attention, weights, f"{prefix}.self_attn", fused=("q", "k", "v"))
        _norm(layer.self_attention.layer_norm, weights, f"{prefix}.self_attn_residual.norm")
        _attention(layer.attention, weights, f"{prefix}.cross_attn", fused=("q",), second=("k", "v"))
        _norm(layer.attention.layer_norm, weights, f"{prefix}.cross_attn_residual.norm")
        _feed_forward(layer.ffn, weights, prefix)
    spec.decoder.projection.weight = weights["output_projection.weight"]
    if cfg.final_logits_bias:
        spec.decoder.projection.bias = weights["logits_bias"]
    spec.register_source_vocabulary(pieces)
    spec.register_target_vocabulary(pieces)
    spec.config.decoder_start_token = pieces[cfg.decoder_start_id]
    spec.config.bos_token = pieces[cfg.bos_id]
    spec.config.eos_token = pieces[cfg.eos_id]
    spec.config.unk_token = pieces[cfg.unk_id]
    return spec


def _linear(spec, weights, names):
    spec.weight = np.concatenate([weights[f"{n}.weight"] for n in names])
    spec.bias = np.concatenate([weights[f"{n}.bias"] for n in names])


def _attention(spec, weights, prefix, fused, second=()):
    _linear(spec.linear[0], weights, [f"{prefix}.{p}_proj" for p in fused])
    if second:
        _linear(spec.linear[1], weights, [f"{prefix}.{p}_proj" for p in second])
    _linear(spec.linear[-1], weights, [f"{prefix}.out_proj"])


def _norm(spec, weights, prefix):
    spec.gamma, spec.beta = weights[f"{prefix}.weight"], weights[f"{prefix}.bias"]


def _feed_forward(spec, weights, prefix):
    _norm(spec.layer_norm, weights, f"{prefix}.feed_forward_residual.norm")
    _linear(spec.linear_0, weights, [f"{prefix}.feed_forward.fc1"])
    _linear(spec.linear_1, weights, [f"{prefix}.feed_forward.fc2"])


def prepare(name: str, checkpoint: Path, workdir: Path, data_dir: Path, model_dir: Path | None = None) -> dict:
    """Export (fp32 + int8) unless model_dir already holds both, and build the CTranslate2 models."""
    from export.quantize import quantize_int8
    from export.repository import export_model, is_stale

    if model_dir is None or is_stale(model_dir, checkpoint) or not (model_dir / "decoder.int8.onnx").exists():
        model_dir = workdir / "repository" / name / "1"
    if not (model_dir / "decoder.int8.onnx").exists():
        export_model(checkpoint, model_dir, data_dir, batches=32, sentences=64)
        quantize_int8(model_dir)
    model, tokenizer = load_checkpoint(checkpoint)
    pieces = _pieces(checkpoint, model.cfg.vocab_size)
    ct2_dirs = build_ct2(model, pieces, workdir, name)
    return {"model_dir": model_dir, "ct2": ct2_dirs, "pieces": pieces, "tokenizer": tokenizer, "model": model}


def build_ct2(model: Transformer, pieces: list[str], workdir: Path, name: str) -> dict[str, Path]:
    """CTranslate2 models (float32, int8) of exactly these weights under workdir/ct2 (reused when present)."""
    ct2_dirs = {}
    for precision in ("float32", "int8"):
        ct2_dirs[precision] = workdir / "ct2" / f"{name}-{precision}"
        if not (ct2_dirs[precision] / "model.bin").exists():
            spec = ct2_spec(model, pieces)
            spec.validate()
            spec.optimize(quantization=None if precision == "float32" else "int8")
            ct2_dirs[precision].mkdir(parents=True, exist_ok=True)
            spec.save(str(ct2_dirs[precision]))
    return ct2_dirs


def ct2_models_for(checkpoint: Path, workdir: Path, name: str) -> dict[str, Path]:
    model, _ = load_checkpoint(checkpoint)
    return build_ct2(model, _pieces(checkpoint, model.cfg.vocab_size), workdir, name)


def _pieces(checkpoint: Path, size: int) -> list[str]:
    if (checkpoint / SPM_FILE).exists():
        return spm_pieces(checkpoint / SPM_FILE)[:size]
    pieces = [f"<unused_{i}>" for i in range(size)]  # ids a vocab.json skips still need a token for CTranslate2
    for piece, index in json.loads((checkpoint / "vocab.json").read_text(encoding="utf-8")).items():
        pieces[index] = piece
    return pieces


def timed(function, repeats: int, timer: GraphTimer | None = None) -> tuple[float, float, object]:
    """Best wall time, its time inside the ONNX graphs, and one output (to count the generated tokens)."""
    output = function()
    seconds, in_graph = best_time(function, repeats, timer)
    return seconds, in_graph, output


def run_engines(prepared: dict, hf_dir: Path | None, batch_sizes, tokens: int, thread_counts, repeats: int) -> dict:
    """tokens/s of every engine at every batch size, each at its best of thread_counts (intra-op threads)."""
    import ctranslate2

    tokenizer, pieces = prepared["tokenizer"], prepared["pieces"]
    results: dict[str, dict] = {}
    for precision in ("fp32", "int8"):
        for threads in thread_counts:
            runtime = Runtime(prepared["model_dir"], precision=precision, threads=threads)
            timer = GraphTimer().instrument(runtime)
            for batch in batch_sizes:
                sources = tokenizer.encode_batch(batch_of(batch))
                seconds, in_graph, output = timed(lambda: decode(runtime, sources, DecodingOptions(tokens, tokens)),
                                                  repeats, timer)
                _keep_best(results, f"ours onnx {precision}", batch, seconds, sum(len(r.output_ids) for r in output),
                           {"threads": threads, "loop_overhead_ms_per_step": 1000 * (seconds - in_graph) / tokens})
    for compute_type in ("float32", "int8"):
        for threads in thread_counts:
            translator = ctranslate2.Translator(str(prepared["ct2"][compute_type]), device="cpu", compute_type=compute_type,
                                                inter_threads=1, intra_threads=threads)
            for batch in batch_sizes:
                source_tokens = [[pieces[i] for i in ids] for ids in tokenizer.encode_batch(batch_of(batch))]
                seconds, _, output = timed(lambda: translator.translate_batch(
                    source_tokens, beam_size=1, max_decoding_length=tokens, min_decoding_length=tokens), repeats)
                generated = sum(len(r.hypotheses[0]) for r in output)
                _keep_best(results, f"ctranslate2 {'fp32' if compute_type == 'float32' else 'int8'}", batch, seconds,
                           generated, {"threads": threads})
    if hf_dir is not None:
        import transformers

        marian = transformers.MarianMTModel.from_pretrained(hf_dir).eval()
        for threads in thread_counts:
            torch.set_num_threads(threads)
            for batch in batch_sizes:
                ids = tokenizer.encode_batch(batch_of(batch))
                width = max(map(len, ids))
                input_ids = torch.tensor([s + [marian.config.pad_token_id] * (width - len(s)) for s in ids])
                mask = torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in ids])
                with torch.inference_mode():
                    seconds, _, output = timed(lambda: marian.generate(input_ids=input_ids, attention_mask=mask, num_beams=1,
                                                                    do_sample=False, max_new_tokens=tokens,
                                                                    min_new_tokens=tokens), repeats)
                _keep_best(results, "transformers generate", batch, seconds, batch * (output.shape[1] - 1), {"threads": threads})
    return results


def _keep_best(results: dict, engine: str, batch: int, seconds: float, generated: int, extra: dict) -> None:
    """Record an engine's run at a batch size unless another thread setting was faster there."""
    previous = results.get(engine, {}).get(batch)
    if previous is None or generated / seconds > previous["tokens_per_second"]:
        results.setdefault(engine, {})[batch] = {"tokens_per_second": generated / seconds, "seconds": seconds, **extra}


def agreement(prepared: dict, texts: list[str], max_tokens: int = 32) -> float:
    """Share of sentences whose greedy output is token-identical in our runtime and in CTranslate2 fp32."""
    import ctranslate2

    tokenizer, pieces = prepared["tokenizer"], prepared["pieces"]
    sources = tokenizer.encode_batch(texts)
    ours = [r.output_ids for r in decode(Runtime(prepared["model_dir"]), sources, DecodingOptions(max_tokens))]
    translator = ctranslate2.Translator(str(prepared["ct2"]["float32"]), device="cpu", compute_type="float32")
    theirs = translator.translate_batch([[pieces[i] for i in s] for s in sources], beam_size=1, max_decoding_length=max_tokens)
    index = {piece: i for i, piece in enumerate(pieces)}
    same = sum(a == [index[p] for p in r.hypotheses[0]] for a, r in zip(ours, theirs))
    return same / len(texts)


BATCH_SIZES = (1, 2, 4, 8, 16, 32, 64)


def run(default_checkpoint: Path, default_model_dir: Path, data_dir: Path, workdir: Path, batch_sizes=BATCH_SIZES,
        tokens: int = 64, thread_counts=(1, 2), repeats: int = 3, out_dir: Path = RESULTS) -> dict:
    from model.marian import from_marian

    hf_dir = workdir / "opus-base-marian"
    if not (hf_dir / "config.json").exists():
        build_opus_base(hf_dir, default_checkpoint / SPM_FILE)
    if not (workdir / "opus-base" / "model.safetensors").exists():
        from_marian(hf_dir, workdir / "opus-base")
    results = {"machine": machine(), "thread_counts": list(thread_counts), "tokens": tokens, "models": {}}
    for label, name, checkpoint, exported, marian_dir in (
            ("opus-base (random)", "opus", workdir / "opus-base", None, hf_dir),
            ("default", "default", default_checkpoint, default_model_dir, None)):
        prepared = prepare(name, checkpoint, workdir, data_dir, exported)
        results["models"][label] = {
            "ct2_agreement": agreement(prepared, batch_of(16)),
            "engines": run_engines(prepared, marian_dir, batch_sizes, tokens, thread_counts, repeats),
        }
    write_results("compare", results, out_dir)
    plot(results, out_dir / "compare.png")
    return results


def report(results: dict) -> str:
    """Every engine's tokens/s at its best threads; ours against CTranslate2 at the same precision and overall
    (the best of either precision on each side), batch by batch."""
    lines = [f"greedy forced to {results['tokens']} tokens; each engine at its best of {results['thread_counts']} threads "
             f"per batch size (in brackets); {results['machine']['cores']} cores"]
    for model, entry in results["models"].items():
        engines = entry["engines"]
        batches = list(next(iter(engines.values())))
        rows = [[engine] + [f"{by_batch[b]['tokens_per_second']:.0f} ({by_batch[b]['threads']})" for b in batches]
                for engine, by_batch in engines.items()]
        best = lambda names, b: max(engines[n][b]["tokens_per_second"] for n in names)  # noqa: E731
        for label, ours, theirs in (("fp32", ["ours onnx fp32"], ["ctranslate2 fp32"]),
                                    ("int8", ["ours onnx int8"], ["ctranslate2 int8"]),
                                    ("overall", ["ours onnx fp32", "ours onnx int8"], ["ctranslate2 fp32", "ctranslate2 int8"])):
            rows.append([f"ours / CT2 {label}"] + [f"{best(ours, b) / best(theirs, b):.2f}x" for b in batches])
        lines += [f"\n{model}: tokens/s (threads)", format_table(["engine"] + [f"b{b}" for b in batches], rows)]
        loop = engines["ours onnx fp32"]
        lines.append(f"greedy outputs token-identical with CTranslate2 fp32: {100 * entry['ct2_agreement']:.0f}%; our loop "
                     "outside ONNX Runtime, ms/step (fp32): " + ", ".join(f"b{b} {v['loop_overhead_ms_per_step']:.2f}"
                                                                          for b, v in loop.items()))
    return "\n".join(lines)


def plot(results: dict, path: Path) -> None:
    """tokens/s against batch size, one line per engine, one panel per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(results["models"]), figsize=(6 * len(results["models"]), 4.5))
    for axis, (model, entry) in zip(np.atleast_1d(axes), results["models"].items()):
        for engine, by_batch in entry["engines"].items():
            batches = [int(b) for b in by_batch]
            axis.plot(batches, [v["tokens_per_second"] for v in by_batch.values()], marker="o",
                      linestyle="-" if engine.startswith("ours") else "--", label=engine)
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        axis.set_xticks(batches, [str(b) for b in batches])
        axis.set_xlabel("batch size")
        axis.set_ylabel("generated tokens/s (best threads)")
        axis.set_title(model)
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
