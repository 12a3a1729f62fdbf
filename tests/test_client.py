"""service/client.py against the real server: retries on UNAVAILABLE (and RESOURCE_EXHAUSTED) only, never on
client errors — counted by the server itself — and the asyncio client's calls."""

import asyncio

import grpc
import pytest

from service.client import SERVICE_CONFIG, AsyncTranslatorClient, TranslatorClient
from tests.grpc_server import RunningServer, wait_until
from tests.test_server import TEXTS, config_for
from translator.v1 import translator_pb2 as pb

ATTEMPTS = SERVICE_CONFIG["methodConfig"][0]["retryPolicy"]["maxAttempts"]


@pytest.fixture()
def running(exported_tiny):
    server = RunningServer(config_for(exported_tiny))
    yield server
    server.stop()


def test_unavailable_is_retried_with_backoff_and_client_errors_are_not(running):
    with TranslatorClient(running.target, timeout=30) as client:
        client.translate([TEXTS[0]])
        with pytest.raises(grpc.RpcError) as refused:
            client.translate([""])
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert wait_until(lambda: running.requests_counted("Translate", "INVALID_ARGUMENT") == 1)

        running.server.servicer.draining = True  # every call now answers UNAVAILABLE, as while shutting down
        with pytest.raises(grpc.RpcError) as unavailable:
            client.translate([TEXTS[0]])
        assert unavailable.value.code() == grpc.StatusCode.UNAVAILABLE
        assert wait_until(lambda: running.requests_counted("Translate", "UNAVAILABLE") == ATTEMPTS)
        assert running.requests_counted("Translate", "INVALID_ARGUMENT") == 1


def test_the_asyncio_client_speaks_every_rpc(running):
    async def session():
        async with AsyncTranslatorClient(running.target, timeout=30) as client:
            await client.wait_until_ready(10)
            unary = (await client.translate([TEXTS[0]])).translations[0].text
            streamed = [chunk async for chunk in client.stream([TEXTS[0]])]
            call = client.batch()
            await call.write(pb.BatchItem(id="x", text=TEXTS[0]))
            await call.done_writing()
            results = [result async for result in call]
            models = await client.list_models()
            return unary, streamed, results, models

    unary, streamed, results, models = asyncio.run(session())
    assert "".join(chunk.text for chunk in streamed) == unary == streamed[-1].final.text
    assert [(r.id, r.translation.text) for r in results] == [("x", unary)]
    assert [m.name for m in models.models] == ["tiny"]


def test_the_translate_command_keeps_stdin_lines_aligned_and_sends_any_number(running, exported_tiny):
    """Every stdin line gets one output line: a blank one stays blank (the server refuses blank texts, so they are
    not sent), and more lines than a request may carry go in several requests."""
    import subprocess
    import sys

    lines = ["", TEXTS[0], "   ", *[TEXTS[i % len(TEXTS)] for i in range(70)], ""]
    with TranslatorClient(running.target, timeout=30) as client:
        expected = {text: client.translate([text]).translations[0].text for text in set(lines) if text.strip()}
    for extra in ([], ["--stream"], ["--model-dir", str(exported_tiny)]):
        result = subprocess.run([sys.executable, "-m", "service.cli", "translate", "--server", running.target, *extra],
                                input="\n".join(lines) + "\n", capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert result.stdout.split("\n")[:-1] == [expected[line] if line.strip() else line for line in lines]
    missing = subprocess.run([sys.executable, "-m", "service.cli", "translate", "--model-dir", "/nonexistent", "Hi."],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode == 1 and missing.stderr.startswith("error: /nonexistent is not an exported model directory")
