"""``translator bench compare``: identical weights in this project's ONNX runtime (fp32, int8), CTranslate2
(fp32, int8) and Transformers ``generate``; greedy decoding forced to 64 tokens, one run, one table.

Models: OPUS-MT base dimensions with random weights (built by transformers from a MarianConfig), and
the shipped default model. CTranslate2 gets the weights through a model spec filled from our
checkpoint, and its greedy output is checked token for token against ours first (an outside oracle).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import torch

from bench.common import RESULTS, GraphTimer, batch_of, describe, format_table, machine, write_results
from model.checkpoint import load_checkpoint
from model.data import read_tsv
from translator.tokenizer import SPM_FILE, spm_pieces
from model.transformer import Transformer
from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import Request, Scheduler, decode

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
    """Export (fp32 + int8) unless model_dir already holds both, current, and build the CTranslate2 models. A
    workdir's export is reused while its checkpoint and int8 recipe are the current ones."""
    from export.quantize import quantize_int8
    from export.repository import INT8_RECIPE, export_model, is_stale

    if model_dir is None or is_stale(model_dir, checkpoint) or not (model_dir / "decoder.int8.onnx").exists():
        model_dir = workdir / "repository" / name / "1"
        if is_stale(model_dir, checkpoint):
            export_model(checkpoint, model_dir, data_dir, batches=32, sentences=64)
        recipe = model_dir / "int8_recipe.txt"  # the export's report records it; this int8 is made here
        if not recipe.exists() or recipe.read_text() != json.dumps(INT8_RECIPE):
            quantize_int8(model_dir, [pair.en for pair in read_tsv(data_dir / "valid.tsv")])  # calibrated as the export
            recipe.write_text(json.dumps(INT8_RECIPE))
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


def run_engines(prepared: dict, hf_dir: Path | None, batch_sizes, tokens: int, thread_counts, repeats: int) -> dict:
    """tokens/s of every engine at every batch size, each at its best of thread_counts (intra-op threads)."""
    runners = _our_runners(prepared, batch_sizes, tokens, thread_counts) + _ct2_runners(prepared, tokens, thread_counts)
    if hf_dir is not None:
        runners += _transformers_runners(prepared, hf_dir, tokens, thread_counts)
    return interleaved(runners, batch_sizes, repeats)


def interleaved(runners: list, batch_sizes, repeats: int) -> dict:
    """{engine: {batch: fastest run at its best threads}} from runners (engine, threads, run(batch) -> measured).

    The machine's speed drifts by tens of percent within minutes, so engines are not timed one after another:
    at each batch size every (engine, threads) setting runs once per round (each run lasts MIN_RUN_SECONDS),
    `repeats` rounds after a warm-up round, and each keeps its fastest run; an engine's best thread setting is
    then the one with most tokens/s.
    """
    if repeats < 1:
        raise ValueError(f"repeats={repeats}: at least one timed round is needed after the warm-up")
    results: dict[str, dict] = {}
    for batch in batch_sizes:
        fastest: dict[tuple, dict] = {}
        for round_ in range(repeats + 1):
            for engine, threads, run in runners:
                measured = run(batch)
                if round_ and measured["tokens_per_second"] > fastest.get((engine, threads), {"tokens_per_second": 0})["tokens_per_second"]:
                    fastest[(engine, threads)] = {"threads": threads, **measured}
        for (engine, _), measured in fastest.items():
            best = results.setdefault(engine, {}).get(batch)
            if best is None or measured["tokens_per_second"] > best["tokens_per_second"]:
                results[engine][batch] = measured
        print(f"  b{batch}: " + ", ".join(f"{engine} {by_batch[batch]['tokens_per_second']:.0f}"
                                          for engine, by_batch in results.items()) + " tok/s", flush=True)
    return results


MIN_RUN_SECONDS = 0.5  # one measured run repeats its decode this long: a batch-1 decode alone lasts ~20 ms


def _timed(function, count, steps: int, timer: GraphTimer | None = None) -> dict:
    """One measured run: function() repeated for at least MIN_RUN_SECONDS; its tokens/s (count(output) tokens per
    call, `steps` decoder steps per call) and, for our engine, the milliseconds per step outside the ONNX graphs."""
    if timer is not None:
        timer.seconds = 0.0
    calls, tokens, started = 0, 0, time.perf_counter()
    while not calls or time.perf_counter() - started < MIN_RUN_SECONDS:
        tokens += count(function())
        calls += 1
    seconds = time.perf_counter() - started
    measured = {"seconds": seconds / calls, "tokens_per_second": tokens / seconds}
    if timer is not None:
        measured["outside_ms_per_step"] = 1000 * (seconds - timer.seconds) / (steps * calls)
    return measured


def _our_runners(prepared: dict, batch_sizes, tokens: int, thread_counts) -> list:
    runners = []
    for precision in ("fp32", "int8"):
        for threads in thread_counts:
            runtime = Runtime(prepared["model_dir"], precision=precision, threads=threads)
            timer = GraphTimer().instrument(runtime)
            # One scheduler kept across runs, as a server keeps its slot pool: the warm-up grows the cache, the
            # timed runs reuse it (a fresh pool would time its growth copies, which a running server has done).
            scheduler = Scheduler(runtime, max_num_seqs=max(batch_sizes), max_queue_size=max(batch_sizes))

            def run(batch, scheduler=scheduler, timer=timer):
                sources = prepared["tokenizer"].encode_batch(batch_of(batch))
                translate = lambda: scheduler.run([Request(str(i), ids, DecodingOptions.forced(tokens))  # noqa: E731
                                                   for i, ids in enumerate(sources)])
                return _timed(translate, lambda out: sum(len(r.output_ids) for r in out), tokens, timer)
            runners.append((f"ours onnx {precision}", threads, run))
    return runners


def _ct2_runners(prepared: dict, tokens: int, thread_counts) -> list:
    import ctranslate2

    runners = []
    for compute_type in ("float32", "int8"):
        for threads in thread_counts:
            translator = ctranslate2.Translator(str(prepared["ct2"][compute_type]), device="cpu", compute_type=compute_type,
                                                inter_threads=1, intra_threads=threads)

            def run(batch, translator=translator):
                pieces = prepared["pieces"]
                source = [[pieces[i] for i in ids] for ids in prepared["tokenizer"].encode_batch(batch_of(batch))]
                return _timed(lambda: translator.translate_batch(source, beam_size=1, max_decoding_length=tokens,
                                                                 min_decoding_length=tokens),
                              lambda out: sum(len(r.hypotheses[0]) for r in out), tokens)
            runners.append((f"ctranslate2 {'fp32' if compute_type == 'float32' else 'int8'}", threads, run))
    return runners


def _transformers_runners(prepared: dict, hf_dir: Path, tokens: int, thread_counts) -> list:
    import transformers

    marian = transformers.MarianMTModel.from_pretrained(hf_dir).eval()
    runners = []
    for threads in thread_counts:
        def run(batch, threads=threads):
            torch.set_num_threads(threads)
            ids = prepared["tokenizer"].encode_batch(batch_of(batch))
            width = max(map(len, ids))
            input_ids = torch.tensor([s + [marian.config.pad_token_id] * (width - len(s)) for s in ids])
            mask = torch.tensor([[1] * len(s) + [0] * (width - len(s)) for s in ids])
            with torch.inference_mode():
                return _timed(lambda: marian.generate(input_ids=input_ids, attention_mask=mask, num_beams=1, do_sample=False,
                                                      max_new_tokens=tokens, min_new_tokens=tokens),
                              lambda out: out.shape[0] * (out.shape[1] - 1), tokens)
        runners.append(("transformers generate", threads, run))
    return runners


def agreement(prepared: dict, texts: list[str], max_tokens: int = 32) -> float:
    """Share of sentences whose greedy output is token-identical in our runtime and in CTranslate2 fp32."""
    import ctranslate2

    tokenizer, pieces = prepared["tokenizer"], prepared["pieces"]
    sources = tokenizer.encode_batch(texts)
    ours = [r.output_ids for r in decode(Runtime(prepared["model_dir"]), sources,
                                       DecodingOptions(max_tokens, suppress_repeats=False))]
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
        print(f"{label}: {repeats} timed rounds after a warm-up, threads {list(thread_counts)}", flush=True)
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
             f"per batch size (in brackets); {describe(results['machine'])}"]
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
        lines.append(f"greedy outputs token-identical with CTranslate2 fp32: {100 * entry['ct2_agreement']:.0f}%; our loop "
                     "outside ONNX Runtime, ms/step: " + "; ".join(
                         f"{engine[-4:]} " + ", ".join(f"b{b} {v['outside_ms_per_step']:.2f}" for b, v in engines[engine].items())
                         for engine in ("ours onnx fp32", "ours onnx int8")))
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
