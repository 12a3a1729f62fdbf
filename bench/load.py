"""``translator bench load``: closed-loop load on a real server over loopback gRPC, with continuous
batching on and off (max 1 active sequence), against the raw runtime at the same batch size."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

import grpc

from bench.common import RESULTS, SENTENCES, format_table, machine, write_results
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc

ROOT = Path(__file__).resolve().parent.parent


def start_server(repository: Path, model: str, max_num_seqs: int, threads: int) -> tuple[subprocess.Popen, str]:
    """A `translator serve` process on a free loopback port (the client must not share its GIL)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--repository", str(repository), "--model", model, "--port", "0",
         "--metrics-port", "-1", "--threads", str(threads), "--max-num-seqs", str(max_num_seqs),
         "--max-queue-size", "100000"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=ROOT)
    line = process.stdout.readline()
    if " on " not in line:
        process.kill()
        raise RuntimeError(f"server did not start: {line!r}")
    return process, line.split(" on ")[1].split(" ")[0]


async def closed_loop(target: str, clients: int, requests: int) -> dict:
    """`clients` clients each send one streamed request after another until `requests` are done."""
    latencies, first_tokens, tokens = [], [], 0
    counter = iter(range(requests))

    async def client(stub):
        nonlocal tokens
        for index in counter:
            started = time.perf_counter()
            first = None
            async for chunk in stub.TranslateStream(pb.TranslateRequest(texts=[SENTENCES[index % len(SENTENCES)]])):
                first = first or time.perf_counter()
                if chunk.HasField("final"):
                    tokens += chunk.final.output_tokens
            latencies.append(time.perf_counter() - started)
            first_tokens.append(first - started)

    async with grpc.aio.insecure_channel(target) as channel:
        stub = pb_grpc.TranslatorStub(channel)
        await stub.Translate(pb.TranslateRequest(texts=["Warm up."]))
        started = time.perf_counter()
        await asyncio.gather(*(client(stub) for _ in range(clients)))
        seconds = time.perf_counter() - started
    quantiles = statistics.quantiles(latencies, n=100)
    ttft = statistics.quantiles(first_tokens, n=100)
    return {"clients": clients, "requests": requests, "seconds": seconds, "sentences_per_second": requests / seconds,
            "tokens_per_second": tokens / seconds, "p50_ms": 1000 * quantiles[49], "p95_ms": 1000 * quantiles[94],
            "p99_ms": 1000 * quantiles[98], "ttft_p50_ms": 1000 * ttft[49], "ttft_p99_ms": 1000 * ttft[98]}


def raw_runtime(model_dir: Path, batch: int, threads: int, repeats: int = 3) -> float:
    """Generated tokens/s of the runtime alone decoding `batch` sentences at once (natural lengths)."""
    from service.decoding import DecodingOptions, greedy_decode
    from service.runtime import Runtime

    runtime = Runtime(model_dir, threads=threads)
    sources = runtime.tokenizer.encode_batch([SENTENCES[i % len(SENTENCES)] for i in range(batch)])
    options = DecodingOptions(max_output_tokens=runtime.limits["max_output_tokens"])
    greedy_decode(runtime, sources, options)
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        tokens = sum(len(ids) for ids, _ in greedy_decode(runtime, sources, options))
        best = min(best, time.perf_counter() - started)
    return tokens / best


def run(repository: Path, model: str, model_dir: Path, concurrency=(1, 4, 16, 64), threads: int = 2,
        out_dir: Path = RESULTS) -> dict:
    results = {"machine": machine(), "threads": threads, "model": model, "points": {}}
    for mode, max_num_seqs in (("batching", 64), ("no batching", 1)):
        process, target = start_server(repository, model, max_num_seqs, threads)
        try:
            results["points"][mode] = {c: asyncio.run(closed_loop(target, c, requests=4 * c + 32)) for c in concurrency}
        finally:
            process.terminate()
            process.wait(30)
    results["raw_runtime_tokens_per_second"] = {c: raw_runtime(model_dir, c, threads) for c in concurrency}
    write_results("load", results, out_dir)
    plot(results, out_dir / "load.png")
    return results


def report(results: dict) -> str:
    points, raw = results["points"], results["raw_runtime_tokens_per_second"]
    rows = []
    for mode, by_clients in points.items():
        for c, p in by_clients.items():
            rows.append([mode, c, p["requests"], f"{p['sentences_per_second']:.1f}", f"{p['tokens_per_second']:.0f}",
                         f"{p['p50_ms']:.0f}", f"{p['p95_ms']:.0f}", f"{p['p99_ms']:.0f}", f"{p['ttft_p50_ms']:.0f}",
                         f"{p['ttft_p99_ms']:.0f}"])
    lines = [f"closed-loop load over loopback gRPC ({results['machine']['cores']} cores, {results['threads']} ORT threads)",
             format_table(["mode", "clients", "requests", "sent/s", "tok/s", "p50 ms", "p95 ms", "p99 ms", "TTFT p50",
                           "TTFT p99"], rows), ""]
    gain = [[c, f"{points['batching'][c]['tokens_per_second'] / points['no batching'][c]['tokens_per_second']:.2f}x",
             f"{raw[c]:.0f}", f"{points['batching'][c]['tokens_per_second'] / raw[c]:.2f}"] for c in points["batching"]]
    lines.append(format_table(["clients", "batching gain (tok/s)", "raw runtime tok/s at batch=clients",
                               "gRPC / raw"], gain))
    return "\n".join(lines)


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for mode, by_clients in results["points"].items():
        clients = list(by_clients)
        left.plot(clients, [by_clients[c]["tokens_per_second"] for c in clients], marker="o", label=mode)
        right.plot(clients, [by_clients[c]["p99_ms"] for c in clients], marker="o", label=f"{mode} p99")
        right.plot(clients, [by_clients[c]["ttft_p50_ms"] for c in clients], marker="x", linestyle="--", label=f"{mode} TTFT p50")
    raw = results["raw_runtime_tokens_per_second"]
    left.plot(list(raw), list(raw.values()), marker="s", linestyle=":", label="raw runtime (batch = clients)")
    for axis in (left, right):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("concurrent clients")
        axis.legend(fontsize=8)
    left.set_ylabel("generated tokens/s")
    right.set_ylabel("ms")
    right.set_yscale("log")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
