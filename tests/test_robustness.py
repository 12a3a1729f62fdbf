"""Hostile and unlucky clients over real loopback gRPC: undecodable bytes, deadlines racing the answer,
cancelled streams, invisible or huge texts, and a batch client that never reads. Every call ends with the
right status, is counted once under it, and the server keeps serving."""

import concurrent.futures
import gc
import os
import signal
import time
import tracemalloc

import grpc
import pytest

from service.client import TranslatorClient
from service.engine import Call
from service.server import StatusInterceptor
from tests.grpc_server import RunningServer, wait_until
from tests.test_server import TEXTS, config_for
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc

METHOD = "/translator.v1.Translator/"
GARBAGE = b"\xde\xad\xbe\xef"
BAD_UTF8_TEXT = b"\x0a\x02id" + b"\x12\x02\xff\xfe"  # BatchItem(id="id", text=<the bytes ff fe>)
BAD_UTF8_REQUEST = b"\x0a\x03\xc3\x28\x21"  # TranslateRequest(texts=[<invalid UTF-8>])


@pytest.fixture(scope="module")
def server(exported_tiny):
    running = RunningServer(config_for(exported_tiny, max_texts_per_request=8))
    yield running
    running.stop()


def raw(channel, method, kind="unary_unary", response=pb.TranslateResponse):
    return getattr(channel, kind)(METHOD + method, request_serializer=lambda data: data,
                                  response_deserializer=response.FromString)


def test_undecodable_batch_items_are_answered_and_the_stream_ends(server, caplog):
    """Reproducer 1: a good item, raw garbage, then a BatchItem whose text is invalid UTF-8, then half-close."""
    good = pb.BatchItem(id="good", text=TEXTS[0]).SerializeToString()
    with grpc.insecure_channel(server.target) as channel:
        call = raw(channel, "TranslateBatch", "stream_stream", pb.BatchResult)
        results = list(call(iter([good, GARBAGE, BAD_UTF8_TEXT]), timeout=20))
    assert len(results) == 3
    by_id = {r.id: r for r in results}
    assert by_id["good"].error_code == 0 and by_id["good"].translation.text
    errors = sorted(r.error_message for r in results if r.error_code)
    assert [r.error_code for r in results if r.error_code] == [grpc.StatusCode.INVALID_ARGUMENT.value[0]] * 2
    assert errors[0].startswith("item #2 of this stream") and errors[1].startswith("item #3 of this stream")
    assert "translator.v1.BatchItem" in errors[0]
    assert not [r for r in caplog.records if r.exc_info]


@pytest.mark.parametrize("payload", [GARBAGE, BAD_UTF8_REQUEST])
def test_undecodable_unary_and_stream_requests_are_invalid_argument_and_counted(server, payload, caplog):
    """Reproducer 2: raw bytes that are no TranslateRequest, or one with invalid UTF-8."""
    before = {m: server.requests_counted(m, "INVALID_ARGUMENT", "unknown") for m in ("Translate", "TranslateStream")}
    with grpc.insecure_channel(server.target) as channel:
        with pytest.raises(grpc.RpcError) as unary:
            raw(channel, "Translate")(payload, timeout=10)
        with pytest.raises(grpc.RpcError) as stream:
            list(raw(channel, "TranslateStream", "unary_stream", pb.TranslateChunk)(payload, timeout=10))
    for error in (unary.value, stream.value):
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert "not a valid translator.v1.TranslateRequest" in error.details() and "UTF-8" in error.details()
    assert wait_until(lambda: all(server.requests_counted(m, "INVALID_ARGUMENT", "unknown") == before[m] + 1 for m in before))
    assert not [r for r in caplog.records if r.exc_info]


def test_a_method_the_service_does_not_have_is_unimplemented_and_counted(server):
    before = server.requests_counted("unknown", "UNIMPLEMENTED", "unknown")
    with grpc.insecure_channel(server.target) as channel:
        with pytest.raises(grpc.RpcError) as error:
            raw(channel, "TranslateEverything")(b"", timeout=10)
    assert error.value.code() == grpc.StatusCode.UNIMPLEMENTED
    assert wait_until(lambda: server.requests_counted("unknown", "UNIMPLEMENTED", "unknown") == before + 1)


@pytest.mark.slow
def test_a_client_pinging_every_10_seconds_keeps_its_idle_connection(server):
    """gRPC's default server policy answers keepalive pings more frequent than every 5 minutes on a connection
    without calls with GOAWAY "too_many_pings" (after 2 strikes); grpc-go and others ping every 10 s or more."""
    options = [("grpc.keepalive_time_ms", 10_000), ("grpc.keepalive_permit_without_calls", 1),
               ("grpc.http2.max_pings_without_data", 0)]
    states = []
    with grpc.insecure_channel(server.target, options=options) as channel:
        channel.subscribe(states.append, try_to_connect=True)
        pb_grpc.TranslatorStub(channel).ListModels(pb.ListModelsRequest(), timeout=10)
        time.sleep(45)  # four pings: the third would have been the GOAWAY
        pb_grpc.TranslatorStub(channel).ListModels(pb.ListModelsRequest(), timeout=10)
    assert states.count(grpc.ChannelConnectivity.READY) == 1, states  # one connection throughout


def test_deadlines_racing_the_answer_are_counted_as_deadline_exceeded(exported_tiny, caplog, monkeypatch):
    """Reproducer 3: 1 ms, 5 ms and 100 ms deadlines on work that takes longer (16 texts of 256 forced tokens, one
    row at a time: ~0.45 s alone on 2 cores), then 20-60 ms deadlines on one such text (~30 ms alone: answers come
    just in time or just too late): every call that reached the server is counted, none as INTERNAL. (A client may
    give up before sending anything: no server sees that.)"""
    arrived = []
    intercept = StatusInterceptor.intercept_service

    async def counting(self, continuation, details):
        arrived.append(details.method)
        return await intercept(self, continuation, details)
    monkeypatch.setattr(StatusInterceptor, "intercept_service", counting)
    running = RunningServer(config_for(exported_tiny, max_num_seqs=1, workers=1))
    try:
        def call(timeout, texts):
            with TranslatorClient(running.target, timeout=timeout) as client:
                try:
                    client.translate([TEXTS[0]] * texts, max_output_tokens=256, min_output_tokens=256)
                    return "OK"
                except grpc.RpcError as error:
                    return error.code().name

        with concurrent.futures.ThreadPoolExecutor(16) as pool:
            codes = list(pool.map(call, [0.001, 0.005, 0.1] * 34, [16] * 102))
        assert codes == ["DEADLINE_EXCEEDED"] * 102
        with concurrent.futures.ThreadPoolExecutor(2) as pool:  # a server that is nearly idle: answers race deadlines
            codes = list(pool.map(call, [0.02, 0.03, 0.045, 0.06] * 8, [1] * 32))
        assert set(codes) <= {"DEADLINE_EXCEEDED", "OK"}
        counted = lambda code: running.requests_counted("Translate", code)  # noqa: E731
        # A call whose client gave up before its request arrived never reaches a handler: CANCELLED, model unknown.
        never_started = lambda: running.requests_counted("Translate", "CANCELLED", "unknown")  # noqa: E731
        assert len(arrived) >= 120
        assert wait_until(lambda: counted("DEADLINE_EXCEEDED") + counted("CANCELLED") + counted("OK")
                        + never_started() == len(arrived))
        assert counted("INTERNAL") == 0 and counted("UNKNOWN") == 0
        assert not [r for r in caplog.records if r.exc_info]
    finally:
        running.stop()


def test_cancelled_and_expired_streams_are_counted_as_such(server):
    """Reproducer 4: streams cancelled by the client or ended by their deadline are not counted as OK."""
    before = {code: server.requests_counted("TranslateStream", code) for code in ("CANCELLED", "DEADLINE_EXCEEDED", "OK")}
    never_started = lambda: server.requests_counted("TranslateStream", "CANCELLED", "unknown")  # noqa: E731
    before["never started"] = never_started()
    with TranslatorClient(server.target) as client:
        for _ in range(5):
            stream = client.stream([TEXTS[0]], max_output_tokens=256, min_output_tokens=256)
            next(stream)
            stream.cancel()
    paragraph = " ".join(TEXTS[:2] * 8)  # 16 sentences: 128 sequences of 256 tokens, 0.4-0.8 s here
    with TranslatorClient(server.target, timeout=0.1) as client:
        for _ in range(5):
            with pytest.raises(grpc.RpcError) as error:
                list(client.stream([paragraph] * 8, max_output_tokens=256, min_output_tokens=256))
            assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert wait_until(lambda: server.requests_counted("TranslateStream", "CANCELLED") == before["CANCELLED"] + 5)
    # Under load a deadline can pass before the request reaches a handler: gRPC then skips the handler, and the
    # server, which never learns why the call ended, counts it CANCELLED for model "unknown" (see the interceptor).
    expired = lambda: (server.requests_counted("TranslateStream", "DEADLINE_EXCEEDED") - before["DEADLINE_EXCEEDED"]  # noqa: E731
                       + never_started() - before["never started"])
    counts = lambda: {(code, model): server.requests_counted("TranslateStream", code, model)  # noqa: E731
                      for code in ("CANCELLED", "DEADLINE_EXCEEDED", "OK", "INTERNAL") for model in ("tiny", "unknown")}
    assert wait_until(lambda: expired() == 5), (before, counts())
    assert server.requests_counted("TranslateStream", "OK") == before["OK"]


def test_a_stream_cancelled_while_sending_its_opening_pieces_frees_its_sequences(exported_tiny):
    """Reproducer: texts with nothing to translate go out first, before the call reads any engine event; a client
    that cancelled while the server was blocked sending them (its receive window full) left the call's other
    sequences decoding to their last token."""
    running = RunningServer(config_for(exported_tiny, max_texts_per_request=64, worker_processes=True, workers=1))
    finished = lambda reason: running.server.metrics.registry.get_sample_value(  # noqa: E731
        "translator_sequences_finished_total", {"model": "tiny", "reason": reason}) or 0.0
    worker = running.engine.workers[0]._process
    placeholders = " ".join(["%s"] * 3000)  # nothing to translate: each is an opening piece of ~9 KB
    request = pb.TranslateRequest(texts=[placeholders] * 40 + [TEXTS[0]],
                                  options=pb.DecodingOptions(max_output_tokens=128, min_output_tokens=128))
    try:
        os.kill(worker.pid, signal.SIGSTOP)  # the sequence waits in the engine while the opening pieces go out
        try:
            # Without BDP probing the client's receive window stays at 64 KiB: the server blocks on the
            # opening pieces (~360 KB) while the client reads nothing.
            with grpc.insecure_channel(running.target, options=[("grpc.http2.bdp_probe", 0)]) as channel:
                call = pb_grpc.TranslatorStub(channel).TranslateStream(request, timeout=60)
                assert wait_until(lambda: running.engine.queue_depth() == 1)  # submitted: the server is sending
                call.cancel()
            # The call has ended on the server while the engine still holds the sequence.
            assert wait_until(lambda: running.requests_counted("TranslateStream", "CANCELLED") == 1)
        finally:
            os.kill(worker.pid, signal.SIGCONT)
        assert wait_until(lambda: finished("cancelled") + finished("length") == 1)
        assert (finished("cancelled"), finished("length")) == (1, 0)
    finally:
        running.stop()


class EndedCall:
    """What _ended_early reads of a call's context: the server's time left and whether the client cancelled."""

    def __init__(self, remaining: float | None, cancelled: bool):
        self.remaining, self.was_cancelled = remaining, cancelled

    def time_remaining(self):
        return self.remaining

    def cancelled(self):
        return self.was_cancelled


@pytest.mark.parametrize("remaining, cancelled, only_if_over, code", [
    (-0.01, True, False, "DEADLINE_EXCEEDED"),  # the server's deadline passed
    (0.0009, True, False, "DEADLINE_EXCEEDED"),  # the client's deadline: its cancel arrived 0.9 ms before the server's
    (5.0, True, False, "CANCELLED"),  # the client gave up long before its deadline
    (None, True, False, "CANCELLED"),  # no deadline at all
    (0.0009, False, True, None),  # still open: an error there is not the deadline's
    (0.0009, True, True, "DEADLINE_EXCEEDED"),
])
def test_a_cancel_at_the_clients_deadline_counts_as_the_deadline(remaining, cancelled, only_if_over, code):
    """Reproducer: under CPU contention a client's deadline cancelled its stream with 0.2-0.9 ms left on the
    server's copy of the deadline, and the call was counted CANCELLED."""
    assert StatusInterceptor._ended_early(EndedCall(remaining, cancelled), only_if_over) == code


def test_a_refused_request_is_freed_when_its_call_ends(server):
    """gRPC keeps a call's AbortError, and its traceback held the request and its texts in a reference cycle until
    the garbage collector's next full pass: 200 refused 4 MB requests left the server's RSS at 330 MB, not 120. With
    the collector off, nothing of six refused calls (unary and streaming) stays alive once they are answered."""
    marker = "freed-when-refused"
    refusals = [dict(texts=["x" * 100_000] * 4), dict(model="no-such-model", texts=["y" * 30_000] * 4),
                dict(texts=["z" * 10_000] * 9)]  # over --max-text-chars, unknown model, over --max-texts-per-request
    sent = [pb.TranslateRequest(request_id=marker, **fields) for fields in refusals]  # the client's own copies

    def survivors() -> int:
        """The server's parsed requests still alive."""
        return sum(isinstance(o, pb.TranslateRequest) and o.request_id == marker and all(o is not r for r in sent)
                   for o in gc.get_objects())

    with TranslatorClient(server.target, timeout=10) as client:
        calls = (client.stub.Translate, lambda request, **kw: list(client.stub.TranslateStream(request, **kw)))
        gc.collect()
        gc.disable()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            for request in sent:
                for call in calls:
                    with pytest.raises(grpc.RpcError) as error:
                        call(request, timeout=10)
                    assert error.value.code() in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND)
            wait_until(lambda: survivors() == 0, timeout=5)
            alive = survivors()
            held = tracemalloc.get_traced_memory()[0] - before  # bytes Python allocated since, and still holds
        finally:
            tracemalloc.stop()
            gc.enable()
    assert alive == 0 and held < 1_000_000, f"{alive} refused requests and {held} bytes still held"


def test_an_answered_call_is_freed_without_the_garbage_collector(server):
    """A call's requests named it as their sink, and it held them: every call was a reference cycle (~31 objects)
    left for the garbage collector. With the collector off, no call of ten (unary and streaming) outlives its answer."""
    with TranslatorClient(server.target) as client:
        client.translate(TEXTS[:2])  # warm: the first call builds what every later one reuses
        gc.collect()
        gc.disable()
        try:
            for _ in range(5):
                client.translate(TEXTS[:2])
                list(client.stream(TEXTS[:2]))
            wait_until(lambda: not any(isinstance(o, Call) for o in gc.get_objects()), timeout=5)
            alive = sum(isinstance(o, Call) for o in gc.get_objects())
        finally:
            gc.enable()
    assert alive == 0, f"{alive} calls outlived their answers"


@pytest.mark.parametrize("text, message", [
    ("\u200b\u200b", r"texts\[0\] is empty or holds only whitespace or invisible characters"),
    ("\ufeff \u2060\u00ad\t", r"texts\[0\] is empty or holds only whitespace or invisible characters"),
    ("x" * 3_900_000, r"texts\[0\] has 3900000 characters; the limit is 32768"),
])
def test_invisible_and_huge_texts_are_refused_before_decoding(server, text, message):
    """Reproducer 5: zero-width spaces only, and a 3.9 MB text (refused before it is tokenized)."""
    import re

    with TranslatorClient(server.target, timeout=10) as client:
        with pytest.raises(grpc.RpcError) as error:
            client.translate([text])
        assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT and re.search(message, error.value.details())
        assert client.translate([TEXTS[0]]).translations[0].text


def test_batch_item_errors_name_the_field_text(server):
    with TranslatorClient(server.target) as client:
        [result] = list(client.batch([pb.BatchItem(id="zw", text="\u200b")]))
    assert result.error_code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert result.error_message.startswith("item 'zw': text is empty") and "texts[" not in result.error_message


def test_an_id_that_would_multiply_every_streamed_chunk_is_refused(server):
    """request_id is echoed in every chunk of a stream, so its length is bounded (MAX_ID_CHARS); so is a batch
    item's id, whose error message quotes only its start."""
    with TranslatorClient(server.target) as client:
        with pytest.raises(grpc.RpcError) as error:
            list(client.stream(["Hello. Goodbye."], request_id="r" * 100_000))
        [result] = list(client.batch([pb.BatchItem(id="b" * 100_000, text="Hello.")]))
        chunks = list(client.stream(["Hello."], request_id="r" * 256))
    assert error.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "request_id has 100000 characters; the limit is 256" in error.value.details()
    assert result.error_code == grpc.StatusCode.INVALID_ARGUMENT.value[0] and result.id == "b" * 100_000
    assert "id has 100000 characters" in result.error_message and len(result.error_message) < 200
    assert chunks and all(c.request_id == "r" * 256 for c in chunks)


def test_a_batch_client_that_stops_reading_stops_the_server_reading(exported_tiny):
    """Reproducer 6: results waiting to be sent count against the in-flight bound, so translating stops."""
    running = RunningServer(config_for(exported_tiny, batch_inflight=4))
    finished = lambda: running.server.metrics.registry.get_sample_value(  # noqa: E731
        "translator_sequences_finished_total", {"model": "tiny", "reason": "length"}) or 0.0
    items = [pb.BatchItem(id=str(i), text=TEXTS[i % len(TEXTS)], options=pb.DecodingOptions(
        max_output_tokens=128, min_output_tokens=128)) for i in range(1200)]
    try:
        # Without BDP probing the client's HTTP/2 receive window stays at its initial 64 KiB, so what the
        # transport buffers is small and the server's own bound shows.
        with grpc.insecure_channel(running.target, options=[("grpc.http2.bdp_probe", 0)]) as channel:
            results = pb_grpc.TranslatorStub(channel).TranslateBatch(iter(items), timeout=120)
            # The client reads nothing meanwhile: translating must come to a halt, bounded by the in-flight
            # window plus what the transport buffers, far below the 1,200 items sent.
            held, deadline = -1.0, time.monotonic() + 60
            while finished() != held and time.monotonic() < deadline:
                held = finished()
                time.sleep(2)
            assert finished() == held < 600
            assert sorted(int(r.id) for r in results) == list(range(1200))  # nothing lost once it reads
    finally:
        running.stop()


def test_a_burst_of_ten_times_the_queue_is_refused_at_once_and_the_rest_is_correct(exported_tiny):
    """Overload: 160 concurrent single-text calls against a queue of 16: excess RESOURCE_EXHAUSTED at once,
    every accepted request translated correctly. The engine's process is stopped (SIGSTOP) during the burst, so
    the queue fills whatever the engine's speed against these in-process callers (a faster engine once drained
    the calls as fast as they came, and nothing was refused)."""
    running = RunningServer(config_for(exported_tiny, max_queue_size=16, max_num_seqs=4, workers=1,
                                       worker_processes=True))
    process = running.engine.workers[0]._process
    try:
        with TranslatorClient(running.target, timeout=60) as client:
            reference = {t: client.translate([t]).translations[0].text for t in TEXTS}

            def call(i):
                text = TEXTS[i % len(TEXTS)]
                started = time.monotonic()
                try:
                    return text, client.translate([text]).translations[0].text, time.monotonic() - started
                except grpc.RpcError as error:
                    return text, error.code(), time.monotonic() - started

            os.kill(process.pid, signal.SIGSTOP)
            try:
                with concurrent.futures.ThreadPoolExecutor(160) as pool:
                    futures = [pool.submit(call, i) for i in range(160)]
                    # all but the queue's 16 are answered while the engine cannot take any
                    wait_until(lambda: sum(f.done() for f in futures) >= 160 - 16, timeout=60)
                    os.kill(process.pid, signal.SIGCONT)
                    outcomes = [f.result() for f in futures]
            finally:
                os.kill(process.pid, signal.SIGCONT)
        accepted = [(t, out, s) for t, out, s in outcomes if isinstance(out, str)]
        refused = [(t, out, s) for t, out, s in outcomes if not isinstance(out, str)]
        assert len(refused) == 160 - 16 and all(out == grpc.StatusCode.RESOURCE_EXHAUSTED for _, out, _ in refused)
        assert len(accepted) == 16 and all(out == reference[t] for t, out, _ in accepted)
        latencies = sorted(s for _, _, s in accepted)
        print(f"overload: {len(accepted)} accepted, {len(refused)} refused; accepted p99 "
              f"{1000 * latencies[int(0.99 * (len(latencies) - 1))]:.0f} ms, refusals answered in at most "
              f"{1000 * max(s for _, _, s in refused):.0f} ms")
    finally:
        running.stop()
