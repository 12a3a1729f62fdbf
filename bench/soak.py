"""``translator bench soak``: a real server process under mixed traffic for a while — unary, streaming and
batch calls, cancellations, deadlines and bad input — then a SIGTERM while calls are in flight.

Checks, printed and returned: no call ends with a status its kind does not allow; resident memory after
warm-up is flat (the slope of a least-squares line, MB per minute); queue depth, active sequences and
KV-cache bytes in use are back to 0 once traffic stops; and after SIGTERM every call the server had
accepted completes (new ones, and the items a batch stream had not sent yet, are refused with UNAVAILABLE), and the
process exits 0.
"""

from __future__ import annotations

import asyncio
import collections
import random
import signal
import threading
import time
import urllib.request
from pathlib import Path

import grpc

from bench.common import SENTENCES
from bench.load import ServerProcess
from service.client import status_lost
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc

# What each kind of call may end with. Everything else is unexpected.
EXPECTED = {
    "unary": {"OK"}, "stream": {"OK"}, "batch": {"OK"},
    "cancel": {"CANCELLED"}, "deadline": {"DEADLINE_EXCEEDED", "OK"},
    "bad input": {"INVALID_ARGUMENT"}, "garbage": {"INVALID_ARGUMENT"},
}
DRAINING = "shutting down"


class Traffic:
    """Concurrent clients, each picking a random kind of call, until told to stop."""

    def __init__(self, target: str, clients: int, seed: int = 0):
        self.target, self.clients, self.random = target, clients, random.Random(seed)
        self.outcomes: collections.Counter = collections.Counter()  # (kind, code)
        self.unexpected: list[str] = []
        self.stopping = False
        self.sigterm_at: float | None = None  # calls that begin after it may be refused

    async def run(self) -> None:
        async with grpc.aio.insecure_channel(self.target) as channel:
            stub = pb_grpc.TranslatorStub(channel)
            raw = channel.unary_unary("/translator.v1.Translator/Translate", request_serializer=lambda b: b,
                                      response_deserializer=pb.TranslateResponse.FromString)
            await asyncio.gather(*(self._client(stub, raw) for _ in range(self.clients)))

    async def _client(self, stub, raw) -> None:
        while not self.stopping:
            kind = self.random.choice(list(EXPECTED))
            text = self.random.choice(SENTENCES)
            accepted, began, expected = False, time.monotonic(), EXPECTED[kind]
            code, details = "OK", ""
            try:
                if kind == "unary":
                    await stub.Translate(pb.TranslateRequest(texts=[text, text[::-1]]), timeout=60)
                elif kind == "stream":
                    async for _ in stub.TranslateStream(pb.TranslateRequest(texts=[text]), timeout=60):
                        accepted = True
                elif kind == "batch":
                    items = [pb.BatchItem(id=str(i), text=SENTENCES[i]) for i in range(8)]
                    async for result in stub.TranslateBatch(iter(items), timeout=60):
                        accepted = True
                        if result.error_code and DRAINING not in result.error_message:
                            raise RuntimeError(f"batch item failed: {result.error_message}")
                elif kind == "cancel":
                    call = stub.TranslateStream(pb.TranslateRequest(texts=[text], options=pb.DecodingOptions(
                        max_output_tokens=200, min_output_tokens=200)), timeout=60)
                    await call.read()
                    if not call.cancel():  # the whole stream, status included, arrived before the first read returned
                        expected = {"OK"}
                    code = (await call.code()).name
                elif kind == "deadline":
                    await stub.Translate(pb.TranslateRequest(texts=[text], options=pb.DecodingOptions(
                        max_output_tokens=200, min_output_tokens=200)), timeout=self.random.choice((0.005, 0.05, 0.2)))
                elif kind == "bad input":
                    await stub.Translate(pb.TranslateRequest(texts=[self.random.choice(["", "\u200b", "x" * 40000])]),
                                         timeout=60)
                else:
                    await raw(b"\xde\xad\xbe\xef", timeout=60)
            except asyncio.CancelledError:
                code, details = "CANCELLED", ""
            except grpc.aio.AioRpcError as error:
                code, details = error.code().name, error.details() or ""
                if status_lost(error) and self.sigterm_at is not None:  # in place of the draining server's status
                    code, details = "UNAVAILABLE", DRAINING
            except RuntimeError as error:
                code, details = "FAILED", str(error)
            self.outcomes[kind, code] += 1
            # Refused, not lost: the server said it is draining, or the call began after the SIGTERM and nothing
            # of it was accepted (a shutting-down gRPC server cancels calls that arrive, and afterwards the
            # server is gone and connections are refused). A batch stream may be refused part way: the server
            # answers the items it has read and ends it, saying the rest were not read.
            after_sigterm = self.sigterm_at is not None and began >= self.sigterm_at
            draining = code == "UNAVAILABLE" and DRAINING in details
            refused = (draining and (not accepted or kind == "batch")) or not accepted and after_sigterm and (
                code == "UNAVAILABLE" or (code == "CANCELLED" and kind != "cancel"))
            if code not in expected and not refused:
                began_when = "after" if after_sigterm else "before" if self.sigterm_at is not None else "without"
                self.unexpected.append(f"{kind}: {code} (began {began_when} SIGTERM): {details[:200]}")
            if refused:
                await asyncio.sleep(0.05)


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def slope_per_minute(samples: list[tuple[float, float]]) -> float:
    """Least-squares slope of (seconds, MB) samples, in MB per minute."""
    n = len(samples)
    if n < 2:
        return 0.0
    mean_t = sum(t for t, _ in samples) / n
    mean_m = sum(m for _, m in samples) / n
    covariance = sum((t - mean_t) * (m - mean_m) for t, m in samples)
    variance = sum((t - mean_t) ** 2 for t, _ in samples) or 1.0
    return 60 * covariance / variance


def first_of_each_minute(samples: list[tuple[float, float]]) -> dict[str, float]:
    minutes: dict[str, float] = {}
    for seconds, mb in samples:
        minutes.setdefault(str(int(seconds // 60)), round(mb, 1))
    return minutes


def gauges(metrics_url: str) -> dict[str, float]:
    """The gauges that must be back where they started once traffic stops (summed over their label sets): the
    stream interval grows with the texts streaming, so a stream the server lost count of would hold it up."""
    wanted = ("translator_queue_depth", "translator_active_sequences", "translator_kv_cache_bytes",
              "translator_stream_interval_seconds")
    values = collections.Counter()
    for line in urllib.request.urlopen(metrics_url, timeout=10).read().decode().splitlines():
        name = line.split("{")[0].split(" ")[0]
        if name in wanted:
            values[name] += float(line.rsplit(" ", 1)[1])
    return dict(values)


def run_traffic(target: str, clients: int, seconds: float, seed: int) -> Traffic:
    traffic = Traffic(target, clients, seed)
    timer = threading.Timer(seconds, lambda: setattr(traffic, "stopping", True))
    timer.start()
    asyncio.run(traffic.run())
    timer.cancel()
    return traffic


def soak(command: list[str], minutes: float, clients: int = 16, warmup_share: float = 0.2) -> dict:
    server = ServerProcess("soak", command)
    pid, seconds = server.process.pid, 60 * minutes
    samples: list[tuple[float, float]] = []
    started = time.monotonic()
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(1.0):
            samples.append((time.monotonic() - started, resident_mb(pid)))

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        before = gauges(server.metrics_url)
        traffic = run_traffic(server.target, clients, seconds, seed=1)
        sampling.set()
        time.sleep(1.0)  # the last cancellations reach the server
        idle = gauges(server.metrics_url)
        # SIGTERM while calls are in flight: accepted calls must finish, new ones are refused.
        drain = Traffic(server.target, clients, seed=2)

        def terminate() -> None:
            drain.sigterm_at = time.monotonic()
            server.process.send_signal(signal.SIGTERM)

        threading.Timer(2.0, terminate).start()
        threading.Timer(8.0, lambda: setattr(drain, "stopping", True)).start()
        asyncio.run(drain.run())
        exit_code = server.process.wait(60)
    finally:
        if server.process.poll() is None:
            server.process.kill()
    after_warmup = [s for s in samples if s[0] >= warmup_share * seconds]
    return {
        "minutes": minutes, "clients": clients, "calls": sum(traffic.outcomes.values()),
        "outcomes": {f"{kind} {code}": n for (kind, code), n in sorted(traffic.outcomes.items())},
        "unexpected": traffic.unexpected, "rss_mb_start": after_warmup[0][1] if after_warmup else None,
        "rss_mb_end": after_warmup[-1][1] if after_warmup else None,
        "rss_slope_mb_per_minute": slope_per_minute(after_warmup),
        "rss_slope_second_half_mb_per_minute": slope_per_minute(after_warmup[len(after_warmup) // 2:]),
        "rss_mb_per_minute": first_of_each_minute(samples),
        "gauges_before": before, "idle_gauges": idle,
        "sigterm": {"calls": sum(drain.outcomes.values()),
                    "outcomes": {f"{kind} {code}": n for (kind, code), n in sorted(drain.outcomes.items())},
                    "unexpected": drain.unexpected, "exit_code": exit_code},
    }


def passed(report: dict) -> bool:
    return (not report["unexpected"] and not report["sigterm"]["unexpected"] and report["sigterm"]["exit_code"] == 0
            and report["idle_gauges"] == report["gauges_before"])


def format_report(report: dict) -> str:
    lines = [f"soak: {report['minutes']:g} min, {report['clients']} clients, {report['calls']} calls",
             "  " + ", ".join(f"{k}: {v}" for k, v in report["outcomes"].items()),
             f"  unexpected statuses: {len(report['unexpected'])}" + "".join(f"\n    {u}" for u in report["unexpected"][:10]),
             f"  resident memory after warm-up: {report['rss_mb_start']:.1f} → {report['rss_mb_end']:.1f} MB, "
             f"slope {report['rss_slope_mb_per_minute']:+.2f} MB/min "
             f"(second half {report['rss_slope_second_half_mb_per_minute']:+.2f} MB/min)",
             "  resident MB by minute: " + ", ".join(f"{m}: {mb}" for m, mb in report["rss_mb_per_minute"].items()),
             "  once idle: " + ", ".join(f"{k} {v:g} (before any traffic: {report['gauges_before'][k]:g})"
                                         for k, v in report["idle_gauges"].items()),
             f"  SIGTERM under load: {report['sigterm']['calls']} calls, "
             + ", ".join(f"{k}: {v}" for k, v in report["sigterm"]["outcomes"].items())
             + f"; lost or unexpected: {len(report['sigterm']['unexpected'])}; exit code {report['sigterm']['exit_code']}"
             + "".join(f"\n    {u}" for u in report["sigterm"]["unexpected"][:10]),
             "PASSED" if passed(report) else "FAILED"]
    return "\n".join(lines)
