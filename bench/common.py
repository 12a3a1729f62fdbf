"""Shared benchmark pieces: the input sentences, timing, decoder-call instrumentation, output files."""

from __future__ import annotations

import json
import os
import platform
import time
from pathlib import Path

from service.config import BENCH_RESULTS as RESULTS

# Mixed lengths, written for the benchmarks (not taken from the corpus).
SENTENCES = [
    "Where is the station?", "The weather is nice today.", "I would like a cup of coffee, please.",
    "Could you tell me how to get to the museum?", "The meeting has been postponed until next week.",
    "She has been working at the hospital for ten years.", "We need more time to finish the project.",
    "The train to Berlin leaves at half past eight.", "He forgot his keys at home again.",
    "Please close the window before you leave.", "The children are playing in the garden.",
    "This book is much more interesting than the film.", "The price includes breakfast and dinner.",
    "Our company was founded in the nineteenth century.", "I did not understand the question.",
    "The results of the study will be published soon.", "Can I pay by credit card?",
    "The river flooded large parts of the old town.", "They moved to a small village in the mountains.",
    "The doctor advised him to stop smoking.", "My sister lives in a flat near the university.",
    "The shop is closed on Sundays and public holidays.", "We are looking forward to your reply.",
    "The government announced new measures against inflation.", "It has been raining all night.",
    "He explained the problem in simple words.", "The software update fixes several security issues.",
    "Tickets can be booked online or at the box office.", "The bridge was built more than a hundred years ago.",
    "I am afraid the flight has been cancelled.", "Thank you very much for your help.",
    "The committee will decide on the proposal tomorrow morning.",
]


def batch_of(size: int) -> list[str]:
    return [SENTENCES[i % len(SENTENCES)] for i in range(size)]


def best_time(function, repeats: int, timer: "GraphTimer | None" = None) -> tuple[float, float]:
    """Wall time of the fastest of `repeats` runs after a warm-up (the machine is noisy; the minimum is the
    signal), and the time that run spent inside the timer's ONNX graphs."""
    function()
    best = (float("inf"), 0.0)
    for _ in range(repeats):
        if timer is not None:
            timer.seconds = 0.0
        started = time.perf_counter()
        function()
        best = min(best, (time.perf_counter() - started, timer.seconds if timer is not None else 0.0))
    return best


class GraphTimer:
    """Adds up the time spent inside run() and run_with_iobinding() of the ONNX Runtime sessions it wraps (encoder
    and decoder), so that what remains of a decode is the Python loop's own cost."""

    def __init__(self):
        self.seconds = 0.0

    def instrument(self, runtime) -> "GraphTimer":
        runtime.encoder, runtime.decoder = _Timed(runtime.encoder, self), _Timed(runtime.decoder, self)
        return self


class _Timed:
    def __init__(self, session, timer: GraphTimer):
        self.session, self.timer = session, timer

    def run(self, *args, **kwargs):
        return self._timed(self.session.run, args, kwargs)

    def run_with_iobinding(self, *args, **kwargs):
        return self._timed(self.session.run_with_iobinding, args, kwargs)

    def _timed(self, run, args, kwargs):
        started = time.perf_counter()
        try:
            return run(*args, **kwargs)
        finally:
            self.timer.seconds += time.perf_counter() - started

    def __getattr__(self, name):
        return getattr(self.session, name)


# The vector extensions that decide which GEMM kernels ONNX Runtime (MLAS) and CTranslate2 run: the same
# benchmarks moved by tens of percent between this project's machines (an AMD EPYC with AVX2, an Intel Xeon with
# AVX-512 VNNI), CTranslate2's fp32 most of all, so every result says which it ran on.
VECTOR_EXTENSIONS = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_int8", "amx_bf16", "asimd", "sve")


def machine() -> dict:
    """What a benchmark ran on: cores, the CPU's model name, its data caches and vector extensions (Linux's /proc and
    /sys; elsewhere only what `platform` knows)."""
    cpu = _cpuinfo()
    flags = set(cpu.get("flags", cpu.get("Features", "")).split())
    return {"cpu": cpu.get("model name") or platform.processor() or platform.machine(), "cores": os.cpu_count(),
            "caches": _caches(), "vector": [name for name in VECTOR_EXTENSIONS if name in flags],
            "python": platform.python_version(), "platform": platform.platform()}


def _cpuinfo() -> dict[str, str]:
    """The first processor's fields of /proc/cpuinfo (empty where there is none)."""
    fields: dict[str, str] = {}
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
    except OSError:
        return fields
    for line in lines:
        if not line.strip() and fields:
            break
        key, _, value = line.partition(":")
        fields.setdefault(key.strip(), value.strip())
    return fields


def _caches() -> dict[str, str]:
    """Data and unified caches seen by CPU 0, by level (L2 is per core on the machines seen here, L3 shared)."""
    caches = {}
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            kind, level, size = ((index / name).read_text().strip() for name in ("type", "level", "size"))
        except OSError:
            continue
        if kind != "Instruction":
            caches[f"L{level}" + ("d" if kind == "Data" else "")] = size
    return caches


def describe(machine: dict) -> str:
    """One line for a report's header: "2 cores, Intel(R) Xeon(R) Processor (L2 2048K, L3 266240K; avx2 avx512f)"."""
    parts = [", ".join(f"{level} {size}" for level, size in machine.get("caches", {}).items() if level != "L1d"),
             " ".join(machine.get("vector", []))]
    details = "; ".join(part for part in parts if part)
    cpu = f", {machine['cpu']}" if machine.get("cpu") else ""
    return f"{machine['cores']} cores{cpu}" + (f" ({details})" if details else "")


def share(flags) -> float:
    """The share of true flags, rounded to 4 places (0.0 for none)."""
    flags = list(flags)
    return round(sum(flags) / len(flags), 4) if flags else 0.0


def write_results(name: str, results: dict, out_dir: Path = RESULTS) -> Path:
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"{name}.json"
    path.write_text(json.dumps(results, indent=2) + "\n")
    return path


def format_table(header: list[str], rows: list[list]) -> str:
    cells = [[str(c) for c in row] for row in [header, *rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    lines = ["  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)
