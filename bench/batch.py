"""``translator bench batch``: one batch job of N lines through a real server process at several
concurrency settings, side by side in one run: lines/s and output tokens/s, and the ratio to concurrency 1.
``translator bench tree``: the same lines as one file and as a directory of many small files, at several
--files-at-once, alternated in one run."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path

from bench.common import SENTENCES, format_table
from bench.load import ServerProcess
from service import batch
from service.client import AsyncTranslatorClient


def line_of(i: int) -> str:
    """Input line i: a sentence with its line number, so that no two lines are alike (nothing to dedupe)."""
    return f"{SENTENCES[i % len(SENTENCES)]} ({i})\n"


def write_input(path: Path, lines: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        out.writelines(line_of(i) for i in range(lines))


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


def write_tree(directory: Path, lines: int, files: int) -> None:
    """The same lines as `write_input`, in `files` text files of about equal length (a directory of messages)."""
    directory.mkdir()
    for index in range(files):
        with (directory / f"file{index:05d}.txt").open("w", encoding="utf-8") as out:
            out.writelines(line_of(i) for i in range(index * lines // files, (index + 1) * lines // files))


async def tree_job(target: str, source: Path, output: Path, files_at_once: int, concurrency: int) -> batch.Summary:
    """A directory's job (the summary of its files' items, over its wall time); 0 files at once: `source` is a file."""
    async with AsyncTranslatorClient(target, timeout=None) as client:
        await client.wait_until_ready(60)
        settings = batch.Settings(concurrency=concurrency)
        if not files_at_once:
            return await batch.run_job(client, source, output, settings, progress=False)
        done = await batch.run_tree(client, source, output, lambda path: settings, progress=False,
                                    files_at_once=files_at_once, concurrency=concurrency)
        return done.items


def run_as_tree(command: list[str], lines: int, files: int, files_at_once=(1, 8, 32), concurrency: int = 64,
                rounds: int = 2) -> dict:
    """The same lines as one file and as a directory of `files` files, at each files-at-once, alternated `rounds`
    times through one server: a directory's cost per file, side by side."""
    server = ServerProcess("batch", command)
    results = {"lines": lines, "files": files, "concurrency": concurrency,
               "points": [{"files_at_once": n, "seconds": []} for n in (0, *files_at_once)]}
    try:
        with tempfile.TemporaryDirectory() as work:
            one, tree = Path(work) / "in.txt", Path(work) / "in"
            write_input(one, lines)
            write_tree(tree, lines, files)
            for round_ in range(rounds):
                for point in results["points"]:
                    n = point["files_at_once"]
                    output = Path(work) / f"out-{round_}-{n}{'' if n else '.txt'}"
                    summary = asyncio.run(tree_job(server.target, tree if n else one, output, n, concurrency))
                    point["seconds"].append(summary.seconds)
                    point["failed"] = point.get("failed", 0) + summary.failed
                    print(f"round {round_ + 1}, {tree_job_name(n)}: {summary}", flush=True)
    finally:
        server.stop()
    return results


def tree_job_name(files_at_once: int) -> str:
    return f"{files_at_once} at once" if files_at_once else "one file"


def report_tree(results: dict) -> str:
    def mean(point: dict) -> float:
        return sum(point["seconds"]) / len(point["seconds"])

    base = mean(results["points"][0])
    rows = [[tree_job_name(p["files_at_once"]), " / ".join(f"{s:.1f}" for s in p["seconds"]), p.get("failed", 0),
             f"{mean(p) / base:.2f}x"] for p in results["points"]]
    return (f"{results['lines']} lines as one file and as {results['files']} files, --concurrency "
            f"{results['concurrency']}, rounds alternated\n"
            + format_table(["job", "seconds", "failed", "time vs one file"], rows))
