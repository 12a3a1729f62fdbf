"""``translator bench load``: closed-loop load over loopback gRPC against real server processes, side by side
in one run: our server (continuous batching), our server serving one sequence at a time, and a CTranslate2
server with static batching on identical weights (``bench/ct2_server.py``), unary and streaming, fp32 and int8.

Every point runs for ``--seconds`` with ``clients`` closed-loop clients spread over several client processes
(the load generator must not be the bottleneck: its CPU share is printed), each request taking the next
sentence of one sequence, so that every server gets the same mix (the table prints tokens per request).
Besides tokens/s and latency percentiles, each point reports the **server's CPU seconds per generated token**
(from /proc/<pid>/stat), which is free of the noise of sharing the cores with the clients; for our server it is
set against the raw engine's CPU per token at the same mean batch size (read from the server's metrics): that
ratio is the service's overhead, and the engine worker processes' CPU per token against the same raw engine is
the part of it spent in the engine (rows joining and leaving, the pipe, cores shared with the rest). The raw
engines, and CTranslate2's server, run in processes started as our workers are (``worker_environment``: glibc's
transparent huge pages for large blocks).
"""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Iterator

from bench.common import RESULTS, SENTENCES, describe, format_table, machine, write_results

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:  # it has exited
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def descendants(pid: int) -> list[int]:
    """Running child processes of pid, and theirs (from /proc/<pid>/task/<tid>/children)."""
    found = []
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            found += [int(child) for child in children.read_text().split()]
        except OSError:
            continue
    return found + [grandchild for child in found for grandchild in descendants(child)]


# -- servers ------------------------------------------------------------------------------------------
class ServerProcess:
    """A server in its own process on a free loopback port; it prints one line naming its address."""

    def __init__(self, label: str, command: list[str], engine: dict | None = None):
        self.label, self.engine = label, engine  # engine: how to measure our raw engine for this server
        self.log = tempfile.TemporaryFile()  # its stderr: why it did not start, if it does not
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=self.log, text=True, cwd=ROOT)
        line = self.process.stdout.readline()
        if " on " not in line:
            self.process.kill()
            self.process.wait()
            with self.log:
                self.log.seek(0)
                said = [text for text in self.log.read().decode(errors="replace").splitlines() if text.strip()]
            raise RuntimeError(f"{label}: server did not start: {said[-1] if said else repr(line)}")
        self.target = line.split(" on ")[1].split(" ")[0]
        self.metrics_url = line.split("metrics ")[1].strip() if "metrics http" in line else None

    def cpu_seconds(self) -> tuple[float, float]:
        """utime + stime of every thread of the server and of its running child processes (engine workers), and of
        the children alone."""
        children = sum(process_cpu_seconds(pid) for pid in descendants(self.process.pid))
        return process_cpu_seconds(self.process.pid) + children, children

    def batch_histogram(self) -> tuple[float, float]:
        """(sum, count) of translator_decoder_batch_size: sequences per decoder step, over all workers."""
        if self.metrics_url is None:
            return 0.0, 0.0
        values = {}
        for line in urllib.request.urlopen(self.metrics_url, timeout=10).read().decode().splitlines():
            if line.startswith(("translator_decoder_batch_size_sum", "translator_decoder_batch_size_count")):
                name, value = line.split("{")[0], float(line.rsplit(" ", 1)[1])
                values[name] = values.get(name, 0.0) + value
        return values.get("translator_decoder_batch_size_sum", 0.0), values.get("translator_decoder_batch_size_count", 0.0)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self.log.close()


def serve_command(repository: Path, model: str, precision: str = "fp32", workers: int = 0, threads: int = 0,
                  max_num_seqs: int = 64, max_queue_size: int = 100_000) -> list[str]:
    """`translator serve` on a free loopback port with metrics on a free port."""
    return [sys.executable, "-m", "service.cli", "serve", "--repository", str(repository), "--model", model,
            "--port", "0", "--metrics-port", "0", "--precision", precision, "--workers", str(workers),
            "--threads", str(threads), "--max-num-seqs", str(max_num_seqs), "--max-queue-size", str(max_queue_size)]


def ours(repository: Path, model: str, model_dir: Path, precision: str, workers: int, threads: int,
         max_num_seqs: int = 64, label: str | None = None, extra: tuple[str, ...] = ()) -> ServerProcess:
    from service.config import ServerConfig

    config = ServerConfig(workers=workers, threads=threads)
    command = serve_command(repository, model, precision, config.engine_workers, config.worker_threads, max_num_seqs)
    # greedy alone, as CTranslate2's server decodes and the raw engines measure: the beams that decode a sentence again
    # where a word was left out (scheduler.UNCOVERED_ATTENTION; 5 of SENTENCES) are work they do not do
    command += ["--placeholder-retry-beams", "0", *extra]
    engine = {"model_dir": model_dir, "precision": precision, "threads": config.worker_threads}
    return ServerProcess(label or f"ours {precision}", command, engine)


def ctranslate2_server(ct2_dir: Path, model_dir: Path, precision: str, workers: int, threads: int) -> ServerProcess:
    command = [sys.executable, "-m", "bench.ct2_server", "--ct2-model", str(ct2_dir), "--tokenizer-dir", str(model_dir),
               "--compute-type", "float32" if precision == "fp32" else "int8", "--workers", str(workers),
               "--threads", str(threads)]
    from service.engine import worker_environment

    with worker_environment():  # the huge pages our workers ask for: every engine gets the best setting
        return ServerProcess(f"ct2 static {precision}", command)


# -- load generator -----------------------------------------------------------------------------------
def _client_process(target: str, api: str, clients: int, offset: int, start_at: float, seconds: float, results,
                    beam_size: int = 1) -> None:
    """`clients` closed-loop clients in this process; each sends one request after another until time is up."""
    import grpc

    from translator.v1 import translator_pb2 as pb
    from translator.v1 import translator_pb2_grpc as pb_grpc

    latencies, first_tokens, tokens = [], [], 0
    # One sequence of sentences for all the process's clients, each request taking the next: the mix sent is the
    # same for every server. (A fixed sentence per client would let the clients with short sentences send more
    # often wherever short requests return sooner, so a continuous-batching server would get a lighter mix per
    # request than a static one: 10.9 against 12.5 tokens per request at 64 clients.)
    sentences = itertools.cycle(SENTENCES[offset % len(SENTENCES):] + SENTENCES[:offset % len(SENTENCES)])

    async def client(stub) -> None:
        nonlocal tokens
        while time.time() < start_at + seconds:
            request = pb.TranslateRequest(texts=[next(sentences)], options=pb.DecodingOptions(beam_size=beam_size))
            started = time.perf_counter()
            if api == "unary":
                response = await stub.Translate(request)
                first = time.perf_counter()
                tokens += response.translations[0].output_tokens
            else:
                first = None
                async for chunk in stub.TranslateStream(request):
                    first = first or time.perf_counter()
                    if chunk.HasField("final"):
                        tokens += chunk.final.output_tokens
            latencies.append(time.perf_counter() - started)
            first_tokens.append(first - started)

    async def main() -> float:
        async with grpc.aio.insecure_channel(target) as channel:
            stub = pb_grpc.TranslatorStub(channel)
            await stub.Translate(pb.TranslateRequest(texts=["Warm up."]))
            await asyncio.sleep(max(0.0, start_at - time.time()))
            await asyncio.gather(*(client(stub) for _ in range(clients)))
            return time.time()

    cpu = time.process_time()
    finished = asyncio.run(main())
    results.put({"latencies": latencies, "first_tokens": first_tokens, "tokens": tokens, "finished": finished,
                 "cpu": time.process_time() - cpu})


def load_point(server: ServerProcess, api: str, clients: int, seconds: float, processes: int, beam_size: int = 1) -> dict:
    context = multiprocessing.get_context("spawn")  # no gRPC state crosses a fork
    queue = context.Queue()
    shares = [clients // processes + (i < clients % processes) for i in range(min(processes, clients))]
    start_at = time.time() + 3.0  # every process is connected and warmed up before the clock starts
    workers = [context.Process(target=_client_process, args=(server.target, api, share, sum(shares[:i]), start_at,
                                                               seconds, queue, beam_size)) for i, share in enumerate(shares)]
    for worker in workers:
        worker.start()
    while time.time() < start_at - 0.5:
        time.sleep(0.05)
    cpu_before, batch_before = server.cpu_seconds(), server.batch_histogram()
    parts = [queue.get(timeout=seconds + 300) for _ in workers]
    cpu_after, batch_after = server.cpu_seconds(), server.batch_histogram()
    for worker in workers:
        worker.join()
    wall = max(p["finished"] for p in parts) - start_at
    latencies = sorted(x for p in parts for x in p["latencies"])
    if len(latencies) < 2:
        raise RuntimeError(f"{server.label}, {api}, {clients} clients: {len(latencies)} request(s) in {seconds:g} s; "
                           "percentiles need at least 2: give a longer --seconds")
    first_tokens = sorted(x for p in parts for x in p["first_tokens"])
    tokens, requests = sum(p["tokens"] for p in parts), len(latencies)
    quantiles, ttft = statistics.quantiles(latencies, n=100), statistics.quantiles(first_tokens, n=100)
    steps = batch_after[1] - batch_before[1]
    return {"clients": clients, "api": api, "requests": requests, "seconds": wall, "requests_per_second": requests / wall,
            "tokens_per_second": tokens / wall, "tokens": tokens, "p50_ms": 1000 * quantiles[49],
            "p95_ms": 1000 * quantiles[94], "p99_ms": 1000 * quantiles[98], "ttft_p50_ms": 1000 * ttft[49],
            "ttft_p99_ms": 1000 * ttft[98], "server_cpu_ms_per_token": 1000 * (cpu_after[0] - cpu_before[0]) / tokens,
            # the engine worker processes' share (None for a server without any: its engine runs in its threads)
            "workers_cpu_ms_per_token": 1000 * (cpu_after[1] - cpu_before[1]) / tokens if cpu_after[1] else None,
            "client_cpu_share": sum(p["cpu"] for p in parts) / (wall * (os.cpu_count() or 1)),
            "mean_batch": (batch_after[0] - batch_before[0]) / steps if steps else None,
            "mean_output_tokens": tokens / requests}


# -- the raw engine -----------------------------------------------------------------------------------
def raw_cpu_ms_per_token(engine: dict, batch: int, output_tokens: int, min_seconds: float = 2.0) -> float:
    """CPU ms per generated token of the engine alone (our scheduler loop, no gRPC), `batch` rows held for
    `output_tokens` steps: the same mean batch size, length and sentences as the server saw."""
    from service.decoding import DecodingOptions
    from service.runtime import Runtime
    from service.scheduler import Request, Scheduler

    runtime = Runtime(engine["model_dir"], precision=engine["precision"], threads=engine["threads"])
    scheduler = Scheduler(runtime, max_num_seqs=max(batch, 1))
    batches = rotating_batches(runtime.tokenizer.encode_batch(SENTENCES), batch)
    options = DecodingOptions.forced(output_tokens)
    return _cpu_ms_per_token(lambda: scheduler.run([Request(str(i), ids, options) for i, ids in enumerate(next(batches))]),
                             batch * output_tokens, min_seconds)


def ct2_raw_cpu_ms_per_token(ct2_dir: Path, model_dir: Path, precision: str, batch: int, output_tokens: int,
                             min_seconds: float = 2.0) -> float:
    """The same measure for CTranslate2's engine alone (one thread, like each worker of its server) on the same
    sentences, batch size and length: beside raw_cpu_ms_per_token it splits a gap between the two servers into
    engine and service."""
    import ctranslate2

    from bench.ct2_server import tokenizer_and_pieces

    _, tokenizer, pieces = tokenizer_and_pieces(model_dir)
    translator = ctranslate2.Translator(str(ct2_dir), device="cpu", compute_type="float32" if precision == "fp32" else "int8",
                                        inter_threads=1, intra_threads=1)
    batches = rotating_batches([[pieces[i] for i in ids] for ids in tokenizer.encode_batch(SENTENCES)], batch)
    return _cpu_ms_per_token(lambda: translator.translate_batch(next(batches), beam_size=1, max_decoding_length=output_tokens,
                                                                min_decoding_length=output_tokens),
                             batch * output_tokens, min_seconds)


def rotating_batches(sources: list, batch: int) -> Iterator[list]:
    """Batches of `batch` of the sources, taking them in turn as the load's clients do: over the runs of a
    measurement the mix of source lengths is the load's at every batch size. (The first `batch` sentences alone
    were not: at batch 1 an 8-token source against the load's mean of 12.1, half of whose engine work is encoding.)"""
    cycle = itertools.cycle(sources)
    while True:
        yield [next(cycle) for _ in range(batch)]


def _cpu_ms_per_token(decode, tokens_per_run: int, min_seconds: float) -> float:
    """This process's CPU ms (all threads) per generated token over repeated decode() calls after a warm-up."""
    decode()
    runs, cpu = 0, time.process_time()
    while time.process_time() - cpu < min_seconds:
        decode()
        runs += 1
    return 1000 * (time.process_time() - cpu) / (runs * tokens_per_run)


# -- the run ------------------------------------------------------------------------------------------
def run(repository: Path, model: str, model_dir: Path, checkpoint: Path, workdir: Path, clients=(1, 4, 16, 64, 128),
        apis=("stream", "unary"), precisions=("fp32", "int8"), seconds: float = 20.0, processes: int = 2,
        workers: int = 0, threads: int = 0, ct2: bool = True, out_dir: Path = RESULTS, beam_sizes=(),
        variants=(), rounds: int = 1) -> dict:
    """Every server at every point; beam_sizes adds our server answering requests that ask for those beams
    (each beam is a row of the decoder batch; tokens/s counts the returned translation's tokens); variants
    (strings of `translator serve` flags) add our server run with those flags, for A/B comparisons. With several
    rounds every server runs once per round, in turn, so that the machine's drift hits them alike: a point keeps
    its median round, and every round's tokens/s (the report's ratios are medians of same-round ratios)."""
    from service.engine import worker_environment

    ct2_dirs = None
    if ct2:
        from bench.compare import ct2_models_for

        ct2_dirs = ct2_models_for(checkpoint, workdir, model)
    plans = []  # (server factory, beam size of the requests)
    for precision in precisions:
        plans.append((lambda p=precision: ours(repository, model, model_dir, p, workers, threads), 1))
        for flags in variants:
            plans.append((lambda p=precision, flags=flags: ours(repository, model, model_dir, p, workers, threads,
                                                                label=f"ours {p} {flags}", extra=tuple(flags.split())), 1))
        for beam in beam_sizes:
            plans.append((lambda p=precision, k=beam: ours(repository, model, model_dir, p, workers, threads,
                                                           label=f"ours {p} beam {k}"), beam))
        if ct2_dirs is not None:
            plans.append((lambda p=precision: ctranslate2_server(ct2_dirs["float32" if p == "fp32" else "int8"], model_dir,
                                                                 p, workers=2, threads=1), 1))
    plans.append((lambda: ours(repository, model, model_dir, precisions[0], workers=1, threads=os.cpu_count() or 1,
                               max_num_seqs=1, label=f"ours {precisions[0]} one at a time"), 1))
    results = {"machine": machine(), "seconds": seconds, "processes": processes, "rounds": rounds, "model": model,
               "servers": {}}
    measured: dict[tuple, list[dict]] = {}  # (label, api, clients) -> its point in each round
    engines = {}  # label -> (how to measure its raw engine, beam size of its requests)
    for turn in range(rounds):
        for plan, beam in plans:
            server = plan()
            engines[server.label] = (server.engine, beam)
            try:
                for api in apis:
                    for c in clients:
                        point = load_point(server, api, c, seconds, processes, beam)
                        measured.setdefault((server.label, api, c), []).append(point)
                        print(f"  {'' if rounds == 1 else f'round {turn + 1}/{rounds}  '}{server.label:<28} {api:<6} "
                              f"{c:>4} clients: {point['tokens_per_second']:>7.0f} tok/s, p99 {point['p99_ms']:.0f} ms, "
                              f"server {point['server_cpu_ms_per_token']:.3f} CPU ms/token", flush=True)
            finally:
                server.stop()
    with worker_environment():  # the raw engines run in a process started as the server's workers are
        raw = multiprocessing.get_context("spawn").Pool(1)
    with raw:
        for (label, api, c), points in measured.items():
            point = median_round(points)
            results["servers"].setdefault(label, {}).setdefault(api, {})[c] = point
            engine, beam = engines[label]
            if engine is not None and point["mean_batch"] and beam == 1:
                batch, tokens = round(point["mean_batch"]), max(1, round(point["mean_output_tokens"]))
                point["raw_cpu_ms_per_token"] = raw.apply(raw_cpu_ms_per_token, (engine, batch, tokens))
                if ct2_dirs is not None:
                    precision = engine["precision"]
                    point["ct2_raw_cpu_ms_per_token"] = raw.apply(ct2_raw_cpu_ms_per_token, (
                        ct2_dirs["float32" if precision == "fp32" else "int8"], model_dir, precision, batch, tokens))
    write_results("load", results, out_dir)
    plot(results, out_dir / "load.png")
    return results


def median_round(points: list[dict]) -> dict:
    """The round with the median tokens/s (the lower one of an even count), with every round's tokens/s."""
    ranked = sorted(points, key=lambda p: p["tokens_per_second"])
    return ranked[(len(ranked) - 1) // 2] | {"rounds_tokens_per_second": [p["tokens_per_second"] for p in points]}


def throughput_ratio(ours: dict, theirs: dict) -> str:
    """ours' tokens/s over theirs: with several rounds, the median of the same-round ratios, then each round's."""
    a, b = ours.get("rounds_tokens_per_second", []), theirs.get("rounds_tokens_per_second", [])
    if len(a) < 2 or len(a) != len(b):
        return f"{ours['tokens_per_second'] / theirs['tokens_per_second']:.2f}x"
    per_round = [x / y for x, y in zip(a, b)]
    return f"{statistics.median(per_round):.2f}x ({' '.join(f'{r:.2f}' for r in per_round)})"


# Servers measured minutes apart on a shared machine drift apart: one 16-client point read 0.83x CTranslate2 in a
# one-round sweep and 1.26x / 1.19x in a two-round run an hour later.
ONE_ROUND_CAVEAT = ("; one round: a ratio between servers can move by 25% or more from run to run, "
                    "use --rounds 3 to place one server against another")


def report(results: dict) -> str:
    servers = results["servers"]
    rows = []
    for label, by_api in servers.items():
        for api, points in by_api.items():
            for c, p in points.items():
                raw = p.get("raw_cpu_ms_per_token")
                rows.append([label, api, c, p["requests"], f"{p['requests_per_second']:.1f}", f"{p['tokens_per_second']:.0f}",
                             f"{p['p50_ms']:.0f}", f"{p['p95_ms']:.0f}", f"{p['p99_ms']:.0f}", f"{p['ttft_p50_ms']:.0f}",
                             f"{p['ttft_p99_ms']:.0f}", f"{p['server_cpu_ms_per_token']:.3f}",
                             "-" if raw is None else f"{raw:.3f}",
                             "-" if raw is None else f"{p['server_cpu_ms_per_token'] / raw:.2f}",
                             "-" if raw is None or not p.get("workers_cpu_ms_per_token") else f"{p['workers_cpu_ms_per_token'] / raw:.2f}",
                             "-" if p["mean_batch"] is None else f"{p['mean_batch']:.1f}",
                             "-" if p.get("mean_output_tokens") is None else f"{p['mean_output_tokens']:.1f}",
                             f"{100 * p['client_cpu_share']:.0f}%"])
    rounds = results.get("rounds", 1)
    lines = [f"closed-loop load over loopback gRPC, {results['seconds']:.0f} s per point, clients in "
             f"{results['processes']} processes ({describe(results['machine'])})"
             + (ONE_ROUND_CAVEAT if rounds == 1 else f"; {rounds} rounds, servers in turn: each row is its median round, "
                                                     "each ratio the median of same-round ratios (every round's in brackets)"),
             format_table(["server", "api", "clients", "requests", "req/s", "tok/s", "p50 ms", "p95 ms", "p99 ms",
                           "TTFT p50", "TTFT p99", "srv CPU ms/tok", "raw CPU ms/tok", "srv/raw CPU", "workers/raw CPU", "mean batch",
                           "tok/req", "client CPU"], rows), ""]
    ratios = []
    for label in servers:
        if not label.startswith("ours ") or "one at a time" in label:
            continue
        precision = label.split()[1]
        yardstick = servers.get(f"ct2 static {precision}", {})
        single = next((v for k, v in servers.items() if k == f"ours {precision} one at a time"), {})
        for api, points in servers[label].items():
            for c, p in points.items():
                theirs = yardstick.get(api, {}).get(c)
                alone = single.get(api, {}).get(c)
                raw, ct2_raw = p.get("raw_cpu_ms_per_token"), p.get("ct2_raw_cpu_ms_per_token")
                ratios.append([label, api, c, "-" if theirs is None else throughput_ratio(p, theirs),
                               "-" if theirs is None else f"{p['server_cpu_ms_per_token'] / theirs['server_cpu_ms_per_token']:.2f}",
                               "-" if not (raw and ct2_raw) else f"{raw / ct2_raw:.2f}",
                               "-" if not (theirs and ct2_raw) else f"{theirs['server_cpu_ms_per_token'] / ct2_raw:.2f}",
                               "-" if alone is None else throughput_ratio(p, alone)])
    lines.append(format_table(["server", "api", "clients", "tok/s vs CT2 static", "CPU/token vs CT2",
                               "raw engine CPU vs CT2's", "CT2 srv/raw CPU", "vs one at a time"], ratios))
    lines.append("workers/raw CPU: our engine worker processes' CPU per token against the raw engine's, the engine's share "
                 "of srv/raw (rows joining and leaving at every step, the pipe, cores shared with the rest); raw engine CPU "
                 "vs CT2's: CPU per token of our engine alone against CTranslate2's alone (1 thread), same sentences, batch "
                 "size and length as our server's mean; CT2 srv/raw CPU: its server's overhead on the same basis (compare "
                 "with our srv/raw CPU above); vs one at a time: against ours with one worker of every core's threads "
                 "decoding one sequence per step (--workers 1 --threads <cores> --max-num-seqs 1)")
    return "\n".join(lines)


def plot(results: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    for label, by_api in results["servers"].items():
        for api, points in by_api.items():
            clients = list(points)
            left.plot(clients, [points[c]["tokens_per_second"] for c in clients], marker="o", label=f"{label} ({api})")
            right.plot(clients, [points[c]["p99_ms"] for c in clients], marker="o", label=f"{label} ({api})")
    for axis in (left, right):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("concurrent clients")
        axis.legend(fontsize=7)
    left.set_ylabel("generated tokens/s")
    right.set_ylabel("p99 latency (ms)")
    right.set_yscale("log")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
