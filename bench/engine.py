"""``translator bench engine``: greedy decoding forced to a fixed length, PyTorch (with and without the
KV cache) against ONNX Runtime (fp32, int8), measured side by side in one run."""

from __future__ import annotations

from pathlib import Path

import torch

from bench.common import RESULTS, SENTENCES, GraphTimer, batch_of, best_time, describe, format_table, machine, write_results
from model.checkpoint import load_checkpoint, pad_batch
from model.greedy import greedy
from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import Request, Scheduler
from translator.model_format import graph_files


def engines(checkpoint: Path, model_dir: Path, threads: int, batch_sizes) -> dict:
    """name → (decode(texts, tokens), GraphTimer or None). Every engine decodes exactly `tokens` tokens."""
    torch.set_num_threads(threads)
    model, tokenizer = load_checkpoint(checkpoint)

    def pytorch(use_cache: bool):
        def decode(texts, tokens):
            src, mask = pad_batch(tokenizer.encode_batch(texts), model.cfg.pad_id)
            return greedy(model, src, mask, tokens, use_cache=use_cache, min_len=tokens)
        return decode, None

    def onnx(precision: str):
        runtime = Runtime(model_dir, precision=precision, threads=threads)
        timer = GraphTimer().instrument(runtime)
        scheduler = Scheduler(runtime, max_num_seqs=max(batch_sizes))  # kept, as the server keeps its pool

        def decode(texts, tokens):
            options = DecodingOptions.forced(tokens)
            return scheduler.run([Request(str(i), ids, options) for i, ids in enumerate(runtime.tokenizer.encode_batch(texts))])
        return decode, timer

    found = {"pytorch (no cache)": pytorch(False), "pytorch (cache)": pytorch(True), "onnx fp32 (cache)": onnx("fp32")}
    if graph_files(model_dir, "int8")[0].exists():
        found["onnx int8 (cache)"] = onnx("int8")
    return found


def measure(decode, timer, batch: int, tokens: int, repeats: int) -> dict:
    """The fastest of `repeats` runs after a warm-up; for ONNX also the time spent outside the graphs."""
    texts = batch_of(batch)
    seconds, in_graph = best_time(lambda: decode(texts, tokens), repeats, timer)
    result = {"seconds": seconds, "tokens_per_second": batch * tokens / seconds, "ms_per_step": 1000 * seconds / tokens}
    if timer is not None:  # the Python loop's own cost per step: tokenizing, cache writes, masks, argmax, bookkeeping
        result["loop_overhead_ms_per_step"] = 1000 * (seconds - in_graph) / tokens
    return result


def run(checkpoint: Path, model_dir: Path, batch_sizes=(1, 8, 32), tokens: int = 64, lengths=(16, 64, 256),
        repeats: int = 3, threads: int = 2, out_dir: Path = RESULTS) -> dict:
    found = engines(checkpoint, model_dir, threads, batch_sizes)
    throughput = {name: {b: measure(decode, timer, b, tokens, repeats) for b in batch_sizes}
                  for name, (decode, timer) in found.items()}
    scaling = {name: {n: measure(decode, timer, 1, n, repeats) for n in lengths}
               for name, (decode, timer) in found.items() if name != "onnx int8 (cache)"}
    results = {"machine": machine(), "threads": threads, "tokens": tokens, "checkpoint": str(checkpoint),
               "model_dir": str(model_dir), "throughput": throughput, "scaling": scaling,
               "join_leave": join_leave_cost(Runtime(model_dir, threads=threads)),
               "alignments": alignment_cost(model_dir, threads)}
    write_results("engine", results, out_dir)
    plot(results, out_dir / "engine.png")
    return results


def join_leave_cost(runtime, rows=(8, 64), positions=100, repeats=300) -> dict:
    """Microseconds for one sequence to join a pool of `rows` running rows (writing its slot; the encoder run is
    not counted) and one to leave it (the last row moves into the hole), every row at `positions` cached
    positions; beside it, what copying the whole batch's cache once costs (what select/concat used to do)."""
    import time

    source = runtime.tokenizer.encode(SENTENCES[2])
    one = runtime.encode([source])
    results = {}
    for size in rows:
        pool = runtime.new_pool(size + 1)
        pool.join(runtime.encode([source] * size), list(range(size)))
        pool.reserve(positions + 1)
        pool.lengths[:size] = positions
        started = time.perf_counter()
        for _ in range(repeats):
            pool.join(one, ["new"])
            pool.free([0])
        join_leave = (time.perf_counter() - started) / repeats
        started = time.perf_counter()
        for _ in range(repeats // 10):
            [buffer[:size].copy() for buffer in pool.self_kv + pool.cross]
        copy_all = (time.perf_counter() - started) / (repeats // 10)
        results[size] = {"join_and_leave_us": 1e6 * join_leave, "copy_whole_batch_us": 1e6 * copy_all}
    return results


def alignment_cost(model_dir: Path, threads: int, batch_sizes=(1, 32), tokens: int = 48, repeats: int = 5) -> dict:
    """What alignments cost per decoder step (ms): the decoder graph as exported (with its alignments output)
    against the same graph cut before that output, run on identical inputs in interleaved rounds (medians; what
    every step pays); and greedy
    decoding with return_alignments on every row against off (what asking for them adds in the loop)."""
    import tempfile
    import time

    import numpy as np
    import onnx.utils
    import onnxruntime as ort

    from service.runtime import session_options
    from translator.model_format import DECODER_INPUTS, DECODER_LOGITS

    runtime = Runtime(model_dir, threads=threads)
    if not runtime.has_alignments:
        return {}
    decoder_path = graph_files(model_dir, "fp32")[1]
    cfg = runtime.meta.model
    inputs = [*DECODER_INPUTS, *runtime.past_names, *runtime.cross_names]
    with tempfile.TemporaryDirectory() as tmp:
        cut = Path(tmp) / "decoder.no-alignments.onnx"
        onnx.utils.extract_model(str(decoder_path), str(cut), inputs, [DECODER_LOGITS, *runtime.present_names])
        sessions = {"with": ort.InferenceSession(str(decoder_path), session_options(threads, False)),
                    "without": ort.InferenceSession(str(cut), session_options(threads, False))}
    results = {}
    rng = np.random.default_rng(0)
    for batch in batch_sizes:
        past, source, heads, head_dim = 24, 16, cfg["n_heads"], cfg["d_model"] // cfg["n_heads"]
        feed = dict(zip(DECODER_INPUTS, (rng.integers(4, 100, batch), np.full(batch, past), np.ones((batch, source), bool))))
        feed |= {name: rng.standard_normal((batch, heads, past + 8, head_dim), dtype=np.float32) for name in runtime.past_names}
        feed |= {name: rng.standard_normal((batch, heads, source, head_dim), dtype=np.float32).swapaxes(2, 3).copy()
                 if "_key_" in name else rng.standard_normal((batch, heads, source, head_dim), dtype=np.float32)
                 for name in runtime.cross_names}  # cross keys transposed
        graph = {name: [] for name in sessions}
        for _ in range(4 * repeats):  # interleaved rounds: the machine's drift hits both graphs alike
            for name, session in sessions.items():
                started = time.perf_counter()
                for _ in range(20):
                    session.run(None, feed)
                graph[name].append(1000 * (time.perf_counter() - started) / 20)
        graph = {name: float(np.median(times)) for name, times in graph.items()}
        scheduler = Scheduler(runtime, max_num_seqs=batch)
        sources = runtime.tokenizer.encode_batch(batch_of(batch))
        loop = {}
        for asked in (False, True):
            options = DecodingOptions.forced(tokens, return_alignments=asked)
            loop[asked] = 1000 * best_time(lambda: scheduler.run([Request(str(i), ids, options) for i, ids in enumerate(sources)]),
                                           repeats)[0] / tokens
        results[batch] = {"graph_ms_with": graph["with"], "graph_ms_without": graph["without"],
                          "step_ms_not_asked": loop[False], "step_ms_asked": loop[True]}
    return results


def report(results: dict) -> str:
    throughput, tokens = results["throughput"], results["tokens"]
    names = list(throughput)
    batches = list(next(iter(throughput.values())))
    base = "onnx fp32 (cache)"
    rows = []
    for name in names:
        row = [name] + [f"{throughput[name][b]['tokens_per_second']:.0f}" for b in batches]
        row += [f"{throughput[name][b]['tokens_per_second'] / throughput[base][b]['tokens_per_second']:.2f}x" for b in batches]
        overhead = [throughput[name][b].get("loop_overhead_ms_per_step") for b in batches]
        row.append(" / ".join("-" if o is None else f"{o:.2f}" for o in overhead))  # PyTorch has no graph to subtract
        rows.append(row)
    header = ["engine"] + [f"tok/s b{b}" for b in batches] + [f"vs onnx fp32 b{b}" for b in batches] + ["loop ms/step"]
    lines = [f"greedy decoding forced to {tokens} tokens, {results['threads']} threads, best of runs "
             f"({describe(results['machine'])})", format_table(header, rows), ""]
    scaling = results["scaling"]
    lengths = list(next(iter(scaling.values())))
    rows = [[name] + [f"{scaling[name][n]['ms_per_step']:.2f}" for n in lengths] +
            [f"{scaling[name][lengths[-1]]['ms_per_step'] / scaling[name][lengths[0]]['ms_per_step']:.1f}x"]
            for name in scaling]
    lines.append("time per generated token (ms) at batch 1 by output length")
    lines.append(format_table(["engine"] + [f"{n} tokens" for n in lengths] + [f"growth {lengths[0]}→{lengths[-1]}"], rows))
    speedup = {b: throughput[base][b]["tokens_per_second"] / throughput["pytorch (no cache)"][b]["tokens_per_second"] for b in batches}
    lines.append("onnx fp32 with cache vs pytorch without cache: " + ", ".join(f"b{b} {s:.1f}x" for b, s in speedup.items()))
    join_leave = results["join_leave"]
    lines += ["", "one sequence joining and one leaving the slot pool (every row at 100 cached positions)",
              format_table(["running rows", "join + leave (us)", "copying the whole batch's cache once (us)"],
                           [[rows, f"{v['join_and_leave_us']:.0f}", f"{v['copy_whole_batch_us']:.0f}"]
                            for rows, v in join_leave.items()])]
    if results.get("alignments"):
        lines += ["", "alignments: decoder graph ms with its alignments output vs cut before it (every step pays it), "
                      "and greedy ms/step with return_alignments on every row vs off",
                  format_table(["batch", "graph with", "graph without", "extra", "step asked", "step not asked", "extra"],
                               [[b, f"{v['graph_ms_with']:.3f}", f"{v['graph_ms_without']:.3f}",
                                 f"{v['graph_ms_with'] / v['graph_ms_without'] - 1:+.1%}", f"{v['step_ms_asked']:.3f}",
                                 f"{v['step_ms_not_asked']:.3f}", f"{v['step_ms_asked'] / v['step_ms_not_asked'] - 1:+.1%}"]
                                for b, v in results["alignments"].items()])]
    return "\n".join(lines)


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    throughput = results["throughput"]
    batches = list(next(iter(throughput.values())))
    width = 0.8 / len(throughput)
    for i, (name, by_batch) in enumerate(throughput.items()):
        left.bar([j + i * width for j in range(len(batches))], [by_batch[b]["tokens_per_second"] for b in batches], width, label=name)
    left.set_xticks([j + 0.4 - width / 2 for j in range(len(batches))], [f"batch {b}" for b in batches])
    left.set_ylabel("generated tokens/s")
    left.set_title(f"greedy, {results['tokens']} tokens, {results['threads']} threads")
    left.legend(fontsize=8)
    for name, by_length in results["scaling"].items():
        lengths = list(by_length)
        right.plot(lengths, [by_length[n]["ms_per_step"] for n in lengths], marker="o", label=name)
    right.set_xscale("log", base=2)
    right.set_xlabel("output length (tokens)")
    right.set_ylabel("ms per generated token (batch 1)")
    right.set_title("cost growth with length")
    right.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
