"""Another language's client: a Node.js program (@grpc/grpc-js, loading the .proto at run time) against the real
server over loopback gRPC gets the same translations as the Python client, streams that concatenate to the final
text, every batch item back, and the documented status codes. Slow (it installs the two npm packages once, into
~/.cache/translator/node-grpc); skipped where Node.js or npm is missing or the npm registry cannot be reached."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from service.client import TranslatorClient
from tests.grpc_server import RunningServer
from tests.test_server import config_for

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ["@grpc/grpc-js@1.14", "@grpc/proto-loader@0.8"]
TEXTS = ["Where is the station?", "He said \"hello\"; she left 😀.\nSecond line.", "你好"]

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")), reason="needs Node.js and npm")]


@pytest.fixture(scope="module")
def node_modules() -> Path:
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "translator" / "node-grpc"
    if not all((cache / "node_modules" / name.rsplit("@", 1)[0]).exists() for name in PACKAGES):
        cache.mkdir(parents=True, exist_ok=True)
        installed = subprocess.run(["npm", "install", "--no-audit", "--no-fund", "--prefix", str(cache), *PACKAGES],
                                   capture_output=True, text=True, timeout=300)
        if installed.returncode:  # no registry reachable: the client cannot be built here, the server is not at fault
            pytest.skip(f"npm install {' '.join(PACKAGES)} failed: {installed.stderr.strip()[-300:]}")
    return cache / "node_modules"


@pytest.fixture(scope="module")
def server(exported_tiny):
    running = RunningServer(config_for(exported_tiny))
    yield running
    running.stop()


def test_a_node_client_gets_what_the_python_client_gets(server, node_modules):
    result = subprocess.run(["node", str(ROOT / "tests" / "interop" / "client.js"), server.target, str(ROOT / "protos"),
                             *TEXTS], capture_output=True, text=True, timeout=120, check=True,
                            env=os.environ | {"NODE_PATH": str(node_modules)})
    seen = json.loads(result.stdout)
    with TranslatorClient(server.target) as client:
        expected = [t.text for t in client.translate(TEXTS).translations]
    translate = seen["translate"]
    assert translate["code"] == 0 and translate["response"]["request_id"] == "node-1"
    assert [t["text"] for t in translate["response"]["translations"]] == expected
    assert seen["stream"]["code"] == 0
    for index, text in enumerate(expected):
        chunks = [c for c in seen["stream"]["items"] if c["index"] == index]
        assert "".join(c["text"] for c in chunks) == text and [c["final"] for c in chunks if c["final"]] == [text]
    batch = {item["id"]: item for item in seen["batch"]["items"]}
    assert seen["batch"]["code"] == 0 and set(batch) == {f"item-{i}" for i in range(len(TEXTS))} | {"empty"}
    assert [batch[f"item-{i}"]["text"] for i in range(len(TEXTS))] == expected and batch["empty"]["error_code"] == 3
    assert {name: error["code"] for name, error in seen["errors"].items()} == {
        "empty": 3, "unknown_model": 5, "beam_too_large": 3, "glossary_twice": 3}  # INVALID_ARGUMENT, NOT_FOUND
    assert "beam_size" in seen["errors"]["beam_too_large"]["details"]
    assert "options.glossary[1]: source 'A' is glossary[0]'s too" in seen["errors"]["glossary_twice"]["details"]
    with TranslatorClient(server.target) as client:
        in_german = [t.text for t in client.translate(TEXTS, glossary={"station": "Bahnhof"}).translations]
    assert [t["text"] for t in seen["glossary"]["response"]["translations"]] == in_german
    assert "Bahnhof" in in_german[0]
    assert [m["name"] for m in seen["models"]["response"]["models"]] == ["tiny"]
