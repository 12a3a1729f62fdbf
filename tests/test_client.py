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

        running.start_draining()  # every call now answers UNAVAILABLE
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
    swapped = subprocess.run([sys.executable, "-m", "service.cli", "translate", "--checkpoint", str(exported_tiny), "Hi."],
                             capture_output=True, text=True, timeout=120)
    assert swapped.returncode == 1
    assert swapped.stderr == (f"error: {exported_tiny} is not a checkpoint: model.safetensors is missing; it is an "
                              f"exported model: translate with --model-dir {exported_tiny}\n")


def test_the_translate_command_reads_stdin_a_paragraph_at_a_time(running, exported_tiny):
    """With --paragraphs the lines between blank lines are one text (a sentence wrapped over them is translated
    whole), and blank lines are printed back: the output's paragraphs line up with the input's."""
    import subprocess
    import sys

    paragraphs = ["I went to the market\nyesterday morning with my\nsister.", "", "", "Where is the station?"]
    with TranslatorClient(running.target, timeout=30) as client:
        expected = [client.translate([text]).translations[0].text if text else text for text in paragraphs]
    assert expected[0].count("\n") == 2
    for extra in ([], ["--stream"], ["--model-dir", str(exported_tiny)]):
        result = subprocess.run([sys.executable, "-m", "service.cli", "translate", "--paragraphs", "--server",
                                 running.target, *extra], input="\r\n".join(paragraphs) + "\r\n",
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr
        assert result.stdout == "\n".join(expected) + "\n"
    for ending in ("\r\n", "\n"):  # a Windows file's line ends come back as they went in
        lines = subprocess.run([sys.executable, "-m", "service.cli", "translate", "--server", running.target],
                               input=f"Where is the station?{ending}{ending}Good night.{ending}".encode(),
                               capture_output=True, timeout=300)
        assert lines.returncode == 0 and lines.stdout.count(ending.encode()) == 3, lines
        assert ending == "\r\n" or b"\r" not in lines.stdout
    refused = subprocess.run([sys.executable, "-m", "service.cli", "translate", "--paragraphs", "Hi."],
                             capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--paragraphs reads stdin" in refused.stderr


def test_the_translate_commands_paragraphs_keep_a_fenced_code_block_whole():
    from service.cli import stdin_texts

    lines = [b"Run:\r\n", b"\n", b"~~~\n", b"x = 1\n", b"\n", b"y = 2\n", b"~~~\n", b"\n", b"Done.\n"]
    assert stdin_texts(lines, paragraphs=True) == ["Run:", "", "~~~\nx = 1\n\ny = 2\n~~~", "", "Done."]
    assert stdin_texts(lines, paragraphs=False) == ["Run:", "", "~~~", "x = 1", "", "y = 2", "~~~", "", "Done."]


def test_the_translate_command_names_the_stdin_line_or_argument_that_is_not_utf8():
    """Before, a traceback (UnicodeEncodeError building the request) after the whole input was read."""
    import os
    import subprocess
    import sys

    command = [sys.executable, "-m", "service.cli", "translate", "--server", "127.0.0.1:1"]
    for env in ({}, {"PYTHONIOENCODING": "utf-8:strict"}):  # C locale's surrogateescape stdin, and a strict one
        result = subprocess.run(command, input=b"Fine.\n\nCaf\xe9 ouvert.\n", capture_output=True, timeout=60,
                                env={**os.environ, **env})
        assert result.returncode == 2 and result.stderr.decode() == (
            "error: stdin line 3 is not valid UTF-8 (invalid continuation byte at byte 3): convert it first, e.g. "
            "with iconv -f latin1 -t utf-8\n")
    argument = subprocess.run([*command, "Fine.", os.fsdecode(b"Caf\xe9")], capture_output=True, timeout=60)
    assert argument.returncode == 2
    assert argument.stderr.decode().startswith("error: text argument 2 is not valid UTF-8 (at character 3)")


def test_the_translate_command_stops_quietly_when_its_reader_goes(running):
    """`translator translate < file | head -1`: before, a BrokenPipeError traceback; now the exit code of a tool
    killed by SIGPIPE (141) and nothing on stderr."""
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "service.cli", "translate", "--server", running.target,
                                "--stream"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdin.write(f"{TEXTS[0]}\n".encode() * 8000)  # more output than a pipe holds (64 KiB)
    process.stdin.close()
    assert process.stdout.readline()  # the first translation, then the reader goes
    process.stdout.close()
    assert process.wait(timeout=120) == 141  # (main() answers a broken pipe so for every command)
    assert process.stderr.read() == b""


class SilencingProxy:
    """A TCP proxy in front of a server that can go silent: after silence() it forwards nothing more and answers
    no new connection, but keeps the open ones open, as a vanished host behind a dead route does."""

    def __init__(self, target: str):
        import socket
        import threading

        self.upstream = target.rsplit(":", 1)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.target = f"127.0.0.1:{self.listener.getsockname()[1]}"
        self.silent = threading.Event()
        self.sockets = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import socket
        import threading

        while not self.silent.is_set():
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection((self.upstream[0], int(self.upstream[1])))
            self.sockets += [client, server]
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source, sink) -> None:
        while (data := source.recv(65536)) and not self.silent.is_set():
            sink.sendall(data)

    def silence(self) -> None:
        import socket

        self.silent.set()
        self.listener.shutdown(socket.SHUT_RDWR)  # wakes accept(): new connections are refused from now on
        self.listener.close()

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


@pytest.mark.slow
def test_a_server_gone_silent_fails_the_call_instead_of_hanging(running):
    """The client's keepalive (KEEPALIVE_OPTIONS: a ping after 30 s of silence, 10 s to answer) ends a call whose
    connection went silent without closing, within about a minute here (63 s); without it the call was still
    waiting after 200 s (TCP gives up after ~15 minutes)."""
    import threading
    import time

    proxy = SilencingProxy(running.target)
    outcome = {}
    try:
        with TranslatorClient(proxy.target, timeout=None) as client:
            client.translate([TEXTS[0]])
            proxy.silence()

            def call():
                started = time.monotonic()
                try:
                    client.translate([" ".join(TEXTS)])
                except grpc.RpcError as error:
                    outcome["code"] = error.code()
                outcome["seconds"] = time.monotonic() - started

            waiter = threading.Thread(target=call, daemon=True)
            waiter.start()
            waiter.join(150)
    finally:
        proxy.close()
    assert outcome.get("code") == grpc.StatusCode.UNAVAILABLE, outcome
    assert 30 <= outcome["seconds"] < 150, outcome
