"""``translator bench batch``: one batch job of N lines through a real server process at several
concurrency settings, side by side in one run: lines/s and output tokens/s, and the ratio to concurrency 1."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bench.common import SENTENCES, format_table
from bench.load import ServerProcess
from service import batch
from service.client import AsyncTranslatorClient


def write_input(path: Path, lines: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for i in range(lines):  # every sentence with a line number: no two lines alike (nothing to dedupe)
            out.write(f"{SENTENCES[i % len(SENTENCES)]} ({i})\n")


async def one_job(target: str, source: Path, output: Path, concurrency: int) -> batch.Summary:
    async with AsyncTranslatorClient(target, timeout=None) as client:
        await client.wait_until_ready(60)
        return await batch.run_job(client, source, output, batch.Settings(concurrency=concurrency,
                                                                          output_format="jsonl"), progress=False)


def run(command: list[str], lines: int, concurrencies=(1, 16, 64, 128, 256)) -> dict:
    server = ServerProcess("batch", command)
    results = {"lines": lines, "points": []}
    try:
        with tempfile.TemporaryDirectory() as work:
            source = Path(work) / "in.txt"
            write_input(source, lines)
            for concurrency in concurrencies:
                output = Path(work) / f"out-{concurrency}.jsonl"
                summary = asyncio.run(one_job(server.target, source, output, concurrency))
                results["points"].append({"concurrency": concurrency, "seconds": summary.seconds,
                                          "translated": summary.translated, "failed": summary.failed,
                                          "output_tokens": summary.output_tokens})
                print(f"concurrency {concurrency}: {summary}", flush=True)
    finally:
        server.stop()
    return results


def report(results: dict) -> str:
    base = results["points"][0]
    base_rate = base["translated"] / base["seconds"]
    rows = [[p["concurrency"], f"{p['seconds']:.1f}", f"{p['translated'] / p['seconds']:.1f}",
             f"{p['output_tokens'] / p['seconds']:.0f}", p["failed"],
             f"{p['translated'] / p['seconds'] / base_rate:.2f}x"] for p in results["points"]]
    return (f"batch job of {results['lines']} lines through TranslateBatch\n"
            + format_table(["concurrency", "seconds", "lines/s", "out tok/s", "failed",
                            f"vs concurrency {base['concurrency']}"], rows))
