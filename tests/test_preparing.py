"""The bound on preparing a request's texts (service.preparing): work on the main thread stopped by SIGALRM, the
preparer process killed and replaced, and over real loopback gRPC a request past its bound answered
INVALID_ARGUMENT while the server goes on serving."""

import asyncio
import concurrent.futures
import re
import time
from typing import Callable

import grpc
import pytest

from service import preparing
from service.client import TranslatorClient
from service.preparing import LARGE_REQUEST_CHARS, Preparer, TooSlow, segment_in_process, within
from service.model import ServedModel
from tests.grpc_server import RunningServer, wait_until
from tests.test_server import config_for
from translator.text import segment_texts

EXPONENTIAL = re.compile(r"(?:a|a)*b")  # two ways to read each "a": doubles with each one


def never_finishes(*args):
    """A stand-in for the preparer process's job: a pattern that backtracks without end."""
    return EXPONENTIAL.fullmatch("a" * 60)


def test_within_stops_an_exponential_match_on_the_main_thread_at_its_bound():
    started = time.monotonic()
    with pytest.raises(TooSlow, match="stopped after 0.3 s"):
        within(0.3, EXPONENTIAL.fullmatch, "a" * 60)
    assert time.monotonic() - started < 3
    assert within(0.3, EXPONENTIAL.fullmatch, "a" * 10 + "b")  # fast work returns its result
    time.sleep(0.4)  # and leaves no alarm behind


def large_texts() -> list[str]:
    return ["The file was saved. Open %s to see it, or press Ctrl+C to stop. " * 40] * 3


def test_the_preparer_process_prepares_as_the_event_loop_does(exported_tiny):
    model = ServedModel(exported_tiny, None, True)
    texts = large_texts()
    assert sum(map(len, texts)) > LARGE_REQUEST_CHARS
    preparer = Preparer()
    try:
        prepared, sources = asyncio.run(preparer.prepare(model, texts, True, False))
    finally:
        preparer.stop()
    expected, expected_sources = segment_texts(texts, model.tokenizer, model.limits, True, False, True)
    assert (prepared, sources) == (expected, expected_sources)


def short_bound(monkeypatch, seconds: float = 0.5) -> None:
    """A short bound whatever the length, for jobs that never finish (a real one, in a process just started, reads
    its tokenizer first: under load that took longer than 0.5 s)."""
    monkeypatch.setattr(preparing, "BOUND_SECONDS", seconds)
    monkeypatch.setattr(preparing, "BOUND_SECONDS_PER_CHAR", 0.0)


def test_a_large_request_past_its_bound_kills_the_preparer_process_and_the_next_one_is_prepared(exported_tiny,
                                                                                                   monkeypatch):
    short_bound(monkeypatch)
    model = ServedModel(exported_tiny, None, True)
    preparer = Preparer(never_finishes)

    async def both():
        with pytest.raises(TooSlow):
            await preparer.prepare(model, large_texts(), True, False)
        assert preparer._process is None  # killed
        monkeypatch.undo()
        preparer.job = segment_in_process
        return await preparer.prepare(model, large_texts(), True, False)

    try:
        prepared, sources = asyncio.run(both())
    finally:
        preparer.stop()
    assert len(prepared) == 3 and sources


@pytest.fixture
def server(exported_tiny):
    running = RunningServer(config_for(exported_tiny))
    yield running
    running.stop()


def large_request_refused(server, timeout: float, while_prepared: Callable[[], None] = lambda: None) -> grpc.RpcError:
    """A large request whose texts go to a job that never finishes: the error its call ends with. `while_prepared`
    runs meanwhile."""
    server.server.servicer.preparer.job = never_finishes
    with concurrent.futures.ThreadPoolExecutor(1) as pool, TranslatorClient(server.target, timeout=timeout) as client:
        call = pool.submit(client.translate, large_texts())
        while_prepared()
        with pytest.raises(grpc.RpcError) as refused:
            call.result()
    return refused.value


def test_a_request_past_its_bound_is_invalid_argument_counted_and_the_server_serves_on(server, caplog, monkeypatch):
    short_bound(monkeypatch, 2.0)  # longer than the small request below takes, even on a loaded machine

    def small_request_answered_meanwhile():
        time.sleep(0.1)
        with TranslatorClient(server.target) as client:
            assert client.translate(["Hello."]).translations[0].text
        assert server.server.servicer.preparer._process.is_alive()  # still on the large one

    refused = large_request_refused(server, 30, small_request_answered_meanwhile)
    assert refused.code() == grpc.StatusCode.INVALID_ARGUMENT
    chars = sum(map(len, large_texts()))
    assert refused.details() == (f"texts took over 2.0 s to split into sentences (the bound for {chars:,} "
                                 "characters): send smaller parts")
    assert wait_until(lambda: server.requests_counted("Translate", "INVALID_ARGUMENT") == 1)
    assert server.server.metrics.registry.get_sample_value(  # what TranslatorTextPreparationStopped alerts on
        "translator_text_preparations_stopped_total", {"model": "tiny"}) == 1
    assert "took over 2.0 s and was stopped" in caplog.text
    monkeypatch.undo()
    server.server.servicer.preparer.job = segment_in_process
    with TranslatorClient(server.target) as client:
        assert all(t.text for t in client.translate(large_texts()).translations)


def test_a_large_request_whose_deadline_passes_while_it_is_prepared_frees_the_preparer(server, monkeypatch):
    monkeypatch.setattr(preparing, "BOUND_SECONDS", 60.0)
    assert large_request_refused(server, 0.3).code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert wait_until(lambda: server.requests_counted("Translate", "DEADLINE_EXCEEDED") == 1)
    assert wait_until(lambda: server.server.servicer.preparer._process is None, timeout=5)  # killed at the deadline


def test_a_call_that_ends_while_the_preparer_process_starts_leaves_none_half_started(server):
    """A started process's "ready", left unread, once answered the next request's job."""
    with TranslatorClient(server.target, timeout=0.1) as client, pytest.raises(grpc.RpcError) as expired:
        client.translate(large_texts())
    assert expired.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    with TranslatorClient(server.target, timeout=30) as client:
        assert all(t.text for t in client.translate(large_texts()).translations)


def test_a_preparer_process_that_died_while_idle_is_replaced_before_the_next_request(server):
    with TranslatorClient(server.target, timeout=30) as client:
        assert all(t.text for t in client.translate(large_texts()).translations)
        ended = server.server.servicer.preparer._process
        ended.kill()  # as the OOM killer would
        ended.join(5)
        assert all(t.text for t in client.translate(large_texts()).translations)
    assert server.server.servicer.preparer._process is not ended
