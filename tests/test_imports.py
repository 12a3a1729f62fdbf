"""The serving path stays light: `translator serve` loads a model and serves without importing torch, the
benchmarks or the export pipeline (the runtime image has none of them)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

SERVE_AND_LIST_MODULES = """
import asyncio, sys
import service.server as server
from service import cli

async def serve_once(config):  # what `translator serve` runs, stopped as soon as it serves
    running = server.Server(config)
    await running.start()
    await running.drain_and_stop()

server.serve = serve_once
code = cli.main(["serve", "--repository", sys.argv[1], "--model", sys.argv[2], "--port", "0", "--metrics-port", "0"])
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "bench", "export", "model", "transformers"))
print(code, heavy)
"""


def test_serve_imports_no_torch_no_bench_no_export(exported_tiny):
    result = subprocess.run([sys.executable, "-c", SERVE_AND_LIST_MODULES, str(exported_tiny.parent.parent),
                             exported_tiny.parent.name], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[-2] == "0 []", result.stdout
