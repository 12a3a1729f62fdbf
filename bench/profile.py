"""``translator bench profile``: where a decoder step's time goes. ONNX Runtime's profiler gives each node's
kernel time; they are summed by op type and divided by the number of steps, beside the step's wall time in
the decoder's run() and the loop's time outside the graphs (greedy decoding forced to a fixed length)."""

from __future__ import annotations

import json
import tempfile
from collections import defaultdict
from pathlib import Path

import onnxruntime as ort

from bench.common import GraphTimer, batch_of, best_time, format_table
from service.decoding import DecodingOptions
from service.runtime import Runtime, session_options
from service.scheduler import Request, Scheduler
from translator.model_format import graph_files


def timed_steps(runtime: Runtime, batch: int, tokens: int = 64, repeats: int = 5):
    """(ms per decoder step, of which outside ONNX Runtime, a decode() that runs the same loop once): the fastest
    of `repeats` greedy decodes of `batch` sentences forced to `tokens` tokens, the encoder amortised."""
    sources = runtime.tokenizer.encode_batch(batch_of(batch))
    options = DecodingOptions.forced(tokens)
    timer = GraphTimer().instrument(runtime)
    # One scheduler kept across runs, as a server keeps its slot pool (a fresh pool would time its growth).
    scheduler = Scheduler(runtime, max_num_seqs=batch, max_queue_size=batch)
    decode = lambda: scheduler.run([Request(str(i), ids, options) for i, ids in enumerate(sources)])  # noqa: E731
    seconds, in_graph = best_time(decode, repeats, timer)
    return 1000 * seconds / tokens, 1000 * (seconds - in_graph) / tokens, decode


def profile_steps(model_dir: Path, precision: str, batch: int, tokens: int = 64, threads: int = 1, repeats: int = 5) -> dict:
    """Milliseconds per decoder step: unprofiled, the fastest of `repeats` decodes (its whole step, and the part
    outside ONNX Runtime: the loop); profiled, each op type's kernel time (the profiler adds a little per node)."""
    runtime = Runtime(model_dir, precision=precision, threads=threads)
    step_ms, outside_ms, decode = timed_steps(runtime, batch, tokens, repeats)
    with tempfile.TemporaryDirectory() as tmp:
        profiled = session_options(threads, spinning=False)
        profiled.enable_profiling = True
        profiled.profile_file_prefix = str(Path(tmp) / "decoder")
        session = ort.InferenceSession(str(graph_files(model_dir, precision)[1]), profiled,
                                       providers=runtime.decoder.get_providers())
        runtime.decoder = session
        decode()
        events = json.loads(Path(session.end_profiling()).read_text())
    kernel_us: dict[str, float] = defaultdict(float)
    for event in events:
        if event.get("cat") == "Node" and event["name"].endswith("_kernel_time"):
            kernel_us[event["args"]["op_name"]] += event["dur"]
    return {"precision": precision, "batch": batch, "threads": threads, "tokens": tokens,
            "step_ms": step_ms, "outside_ms": outside_ms,
            "ops_ms": {op: us / 1000 / tokens for op, us in sorted(kernel_us.items(), key=lambda kv: -kv[1])}}


def report(profiles: list[dict], top: int = 8) -> str:
    ops = defaultdict(float)
    for p in profiles:
        for op, ms in p["ops_ms"].items():
            ops[op] += ms
    shown = [op for op, _ in sorted(ops.items(), key=lambda kv: -kv[1])[:top]]
    header = ["precision", "batch", "step", "outside ORT"] + shown + ["other ops"]
    rows = [[p["precision"], p["batch"], f"{p['step_ms']:.3f}", f"{p['outside_ms']:.3f}",
             *[f"{p['ops_ms'].get(op, 0):.3f}" for op in shown],
             f"{sum(v for k, v in p['ops_ms'].items() if k not in shown):.3f}"] for p in profiles]
    return ("ms per decoder step, greedy forced to the length: step and outside ORT unprofiled (fastest run); "
            "op types: kernel time under ORT's profiler\n" + format_table(header, rows))
