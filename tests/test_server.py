"""The service over real loopback gRPC, against the exported tiny model."""

import concurrent.futures
import multiprocessing
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import tomllib
import urllib.request
from pathlib import Path

import grpc
import pytest
from google.protobuf import descriptor_pb2
from packaging.requirements import Requirement
from packaging.version import Version
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

import service.engine
from service.client import TranslatorClient
from service.client import request as client_request
from service.config import ServerConfig
from service.decoding import DecodingOptions, FinishReason
from service.model import ServedModel
from service.runtime import Runtime
from service.translator import Translator
from service.server import REFUSING_BEFORE_STOP_SECONDS, SHUTTING_DOWN
from translator.glossary import Glossary
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc
from tests.grpc_server import RunningServer, wait_until

# The last in small letters: capitalized, its words would be names, kept as they are (translator.text), and with the
# tiny test model's vocabulary the whole text one item, with nothing left to translate
TEXTS = ["Where is the station?", "I eat an apple.", "He crossed the street.", "colour", "Greetings from Munich!",
         "The thing 7 is here.", "The grüße from the straße – „äpfel“ öfter"]


def config_for(model_dir: Path, **overrides) -> ServerConfig:
    settings = dict(port=0, metrics_port=0, repository=model_dir.parent.parent, models=(model_dir.parent.name,),
                    threads=1, grace_seconds=10.0)
    return ServerConfig(**(settings | overrides))


@pytest.fixture(scope="module", params=[True, False], ids=["worker-processes", "worker-threads"])
def server(exported_tiny, request):
    running = RunningServer(config_for(exported_tiny, max_texts_per_request=8, worker_processes=request.param))
    yield running
    running.stop()


@pytest.fixture(scope="module")
def client(server):
    with TranslatorClient(server.target, timeout=30) as client:
        yield client


@pytest.fixture(scope="module")
def reference(exported_tiny):
    """What the runtime itself translates in-process (the same text pipeline), text by text."""
    return dict(zip(TEXTS, Translator(exported_tiny, threads=1).translate(TEXTS)))


def wait_idle(server, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.engine.active_sequences() == 0 and server.engine.queue_depth() == 0:
            return True
        time.sleep(0.02)
    return False


def test_translate_matches_the_runtime(client, reference):
    response = client.translate(TEXTS, request_id="req-1")
    assert [t.text for t in response.translations] == [reference[t] for t in TEXTS]
    assert (response.model, response.model_version, response.request_id) == ("tiny", "1", "req-1")
    assert all(t.input_tokens > 0 and t.finish_reason in (pb.FINISH_REASON_EOS, pb.FINISH_REASON_LENGTH)
               for t in response.translations)


def test_stream_pieces_concatenate_to_the_final_text(client, reference):
    pieces, finals = {}, {}
    for chunk in client.stream(TEXTS[:3], request_id="s-1"):
        assert chunk.request_id == "s-1"
        pieces.setdefault(chunk.index, []).append(chunk.text)
        if chunk.HasField("final"):
            finals[chunk.index] = chunk.final
    for i, text in enumerate(TEXTS[:3]):
        assert "".join(pieces[i]) == finals[i].text == reference[text]


def test_streamed_wrapped_sentences_concatenate_to_the_final_text(client):
    """A line break that wraps a sentence goes back into its translation, where one with no space for it takes the
    blanks beside it (`Prepared.glue_between`); streamed, the glue had kept them, and the pieces were not the final
    text."""
    texts = ["I eat an apple and he crossed the\nstreet. Where is the station?",
             "He crossed the street and he ate an apple at the\nstation.  "]
    for max_output_tokens in (0, 1):  # (one token each: a word, no space for the break)
        pieces, finals = {}, {}
        for chunk in client.stream(texts, max_output_tokens=max_output_tokens):
            pieces.setdefault(chunk.index, []).append(chunk.text)
            if chunk.HasField("final"):
                finals[chunk.index] = chunk.final
        assert ["".join(pieces[i]) for i in range(len(texts))] == [finals[i].text for i in range(len(texts))]
        assert [text.count("\n") for text in texts] == [finals[i].text.count("\n") for i in range(len(texts))]


def test_batch_returns_every_id_with_its_result(client, reference):
    items = [pb.BatchItem(id=f"id-{i}", text=text) for i, text in enumerate(TEXTS)]
    items.append(pb.BatchItem(id="bad", text=""))
    results = {r.id: r for r in client.batch(items)}
    assert set(results) == {item.id for item in items}
    for i, text in enumerate(TEXTS):
        assert results[f"id-{i}"].translation.text == reference[text] and results[f"id-{i}"].error_code == 0
    assert results["bad"].error_code == grpc.StatusCode.INVALID_ARGUMENT.value[0]
    assert "empty" in results["bad"].error_message


def test_list_models(client):
    [model] = client.list_models().models
    assert (model.name, model.version, model.precision, model.default) == ("tiny", "1", "fp32", True)
    assert model.max_source_tokens == 256 and model.provider == "CPUExecutionProvider"
    assert model.max_glossary_entries == 1000


def test_concurrent_requests_equal_sequential_results(server, client):
    texts = [" ".join(TEXTS[: 1 + i % len(TEXTS)]) for i in range(64)]
    sequential = [client.translate([t]).translations[0].text for t in texts]
    with concurrent.futures.ThreadPoolExecutor(64) as pool:
        concurrent_results = list(pool.map(lambda t: client.translate([t]).translations[0].text, texts))
    assert concurrent_results == sequential


@pytest.mark.parametrize("request_kwargs, code, message", [
    (dict(texts=[]), grpc.StatusCode.INVALID_ARGUMENT, "texts is empty"),
    (dict(texts=["ok", "  "]), grpc.StatusCode.INVALID_ARGUMENT, r"texts\[1\] is empty"),
    (dict(texts=["a"] * 9), grpc.StatusCode.INVALID_ARGUMENT, "9 texts exceed the limit of 8"),
    (dict(texts=["a"], max_output_tokens=1000), grpc.StatusCode.INVALID_ARGUMENT, "max_output_tokens=1000 must be between"),
    (dict(texts=["a"], max_output_tokens=2, min_output_tokens=3), grpc.StatusCode.INVALID_ARGUMENT, "must not exceed"),
    (dict(texts=["a"], model="fr-en"), grpc.StatusCode.NOT_FOUND, "unknown model 'fr-en'; loaded models: tiny"),
    # the name is cut in the message: the whole of it would exceed the client's 16 KiB limit on trailers
    (dict(texts=["a"], model="m" * 100_000), grpc.StatusCode.NOT_FOUND, r"unknown model 'm{64}'\.\.\. \(100000 characters\)"),
    (dict(texts=["a"], request_id="r" * 257), grpc.StatusCode.INVALID_ARGUMENT, "request_id has 257 characters; the limit is 256"),
    (dict(texts=["a"], glossary={"cloud": "Wolke", "Cloud": "Wolken"}), grpc.StatusCode.INVALID_ARGUMENT,
     r"options\.glossary\[1\]: source 'Cloud' is glossary\[0\]'s too \(case aside\): give each term once"),
    (dict(texts=["a"], glossary=[("->", "")]), grpc.StatusCode.INVALID_ARGUMENT,
     r"options\.glossary\[0\]: source '->' has no letter or digit"),
])
def test_bad_input_gets_a_clear_error_and_the_server_keeps_serving(client, request_kwargs, code, message, reference):
    options = dict(request_kwargs)  # the parameters serve both worker kinds
    texts = options.pop("texts")
    with pytest.raises(grpc.RpcError) as error:
        client.translate(texts, **options)
    assert error.value.code() == code
    assert re.search(message, error.value.details())
    assert client.translate([TEXTS[0]]).translations[0].text == reference[TEXTS[0]]


def test_a_glossarys_terms_are_written_as_it_says_as_the_runtime_writes_them(client, exported_tiny):
    """Through the server as in-process: each term's target where the model put the term's placeholder ("" keeps a
    term as written), in every text of the request."""
    glossary = {"apple": "Apfelkuchen", "station": ""}
    texts = ["Where is the station?", "I eat an apple.", "An apple, the station and an apple."]
    served = [translation.text for translation in client.translate(texts, glossary=glossary).translations]
    assert served == Translator(exported_tiny, threads=1).translate(texts, glossary=Glossary.of(glossary.items()))
    assert "station" in served[0] and "Apfelkuchen" in served[1] and served[2].count("Apfelkuchen") == 2


def test_bad_request_does_not_disturb_others(server, client, reference):
    def good(text):
        return client.translate([text]).translations[0].text

    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        futures = [pool.submit(good, t) for t in TEXTS]
        bad = pool.submit(client.translate, ["x" * 40_000])  # over --max-text-chars
        assert [f.result() for f in futures] == [reference[t] for t in TEXTS]
        with pytest.raises(grpc.RpcError):
            bad.result()


def test_deadline_exceeded_frees_the_sequences(exported_tiny):
    """One sequence at a time, 16 texts of 256 forced tokens (~0.4 s here): far more work than the 0.1 s deadline allows."""
    running = RunningServer(config_for(exported_tiny, max_num_seqs=1, workers=1, worker_processes=False))  # reads the pool
    try:
        with TranslatorClient(running.target, timeout=0.1) as client:
            with pytest.raises(grpc.RpcError) as error:
                client.translate(TEXTS * 2 + TEXTS[:2], max_output_tokens=256, min_output_tokens=256)
        assert error.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
        assert wait_idle(running)
        assert all(r is None for worker in running.engine.workers for r in worker.scheduler.pool.requests)
    finally:
        running.stop()


def test_cancelled_stream_frees_its_slot(server):
    with TranslatorClient(server.target) as client:
        stream = client.stream(TEXTS, max_output_tokens=256, min_output_tokens=256)
        next(stream)
        assert server.engine.active_sequences() > 0
        assert server.server.servicer.streamed_texts == len(TEXTS)  # what the stream update budget is shared among
        stream.cancel()
    assert wait_idle(server)
    assert wait_until(lambda: server.server.servicer.streamed_texts == 0)


def test_queue_overflow_is_resource_exhausted(exported_tiny):
    running = RunningServer(config_for(exported_tiny, max_queue_size=2, max_num_seqs=1, workers=1,
                                       worker_processes=False))  # holds the worker's decoder step
    try:
        with TranslatorClient(running.target) as client:
            with pytest.raises(grpc.RpcError) as never_fits:
                client.translate(TEXTS[:3])
            assert never_fits.value.code() == grpc.StatusCode.INVALID_ARGUMENT  # retrying could never help
            assert "3 sentences; at most 2 fit the queue" in never_fits.value.details()
            # Hold the decoder step once the busy call's first sequence has joined, so that the queue stays as
            # the busy call left it (no race with decoding).
            runtime, gate = running.engine.workers[0].scheduler.runtime, threading.Event()
            step = runtime.step

            def held_step(pool):
                gate.wait(30)
                return step(pool)
            runtime.step = held_step
            busy = client.stub.Translate.future(client_request(TEXTS[:2], min_output_tokens=256, max_output_tokens=256),
                                                timeout=60)
            assert wait_until(lambda: running.engine.active_sequences() == 1 and running.engine.queue_depth() == 1)
            with grpc.insecure_channel(running.target) as plain:  # no retry policy: see the first answer
                with pytest.raises(grpc.RpcError) as full:
                    pb_grpc.TranslatorStub(plain).Translate(client_request(TEXTS[2:4]), timeout=60)
            gate.set()
            assert full.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
            assert "at most 2 waiting" in full.value.details()
            assert len(busy.result().translations) == 2
            assert len(client.translate(TEXTS[:2]).translations) == 2
    finally:
        running.stop()


def test_a_dead_or_hung_worker_process_fails_its_sequences_and_is_replaced(exported_tiny, monkeypatch):
    """A worker process that dies (OOM killer, a crash in native code), or stops answering while it holds sequences
    (here SIGSTOP; a deadlock alike) and is killed after STALL_SECONDS, fails the calls it held with INTERNAL instead
    of leaving them hanging; a new process takes its place and the server keeps serving."""
    monkeypatch.setattr(service.engine, "STALL_SECONDS", 1.0)
    running = RunningServer(config_for(exported_tiny, workers=1, worker_processes=True))
    worker = running.engine.workers[0]
    try:
        with TranslatorClient(running.target, timeout=60) as client:
            for end in (lambda process: worker.kill(), lambda process: os.kill(process.pid, signal.SIGSTOP)):
                stream = client.stream(TEXTS[:2], max_output_tokens=256, min_output_tokens=256)
                next(stream)
                ended = worker._process
                end(ended)
                with pytest.raises(grpc.RpcError) as failed:
                    list(stream)
                assert failed.value.code() == grpc.StatusCode.INTERNAL
                assert client.translate(TEXTS[:3]).translations[2].text
                assert worker._process is not ended and worker._process.is_alive() and not ended.is_alive()
        assert wait_until(lambda: running.requests_counted("TranslateStream", "INTERNAL") == 2)
        restarts = {reason: running.server.metrics.registry.get_sample_value(
            "translator_engine_worker_restarts_total", {"model": "tiny", "reason": reason}) for reason in ("exited", "stalled")}
        assert restarts == {"exited": 1.0, "stalled": 1.0}  # what TranslatorEngineWorkerRestarting alerts on
        assert wait_idle(running)
    finally:
        running.stop()


def test_a_worker_process_fails_a_sequence_it_refuses_alone_and_keeps_serving(exported_tiny):
    """The server refuses what a worker's scheduler would (a source longer than the model reads) before the engine;
    should one slip past it, the worker process fails that sequence (ERROR) and goes on, instead of ending and
    failing every sequence it held."""
    running = RunningServer(config_for(exported_tiny, workers=1, worker_processes=True))
    worker = running.engine.workers[0]
    process, longest = worker._process, worker.model.limits.max_source_tokens

    async def decode(sources: list[list[int]]) -> list[FinishReason]:
        call = running.engine.new_call(sources, DecodingOptions(max_output_tokens=4), None).submit()
        async for _ in call.events():
            pass
        return [request.finish_reason for request in call.requests]

    try:
        assert running.call(decode([[5] * (longest + 1)])) == [FinishReason.ERROR]
        assert set(running.call(decode([[5] * longest, [6, 7]]))) <= {FinishReason.EOS, FinishReason.LENGTH}
        with TranslatorClient(running.target, timeout=60) as client:
            assert client.translate(TEXTS[:2]).translations[1].text
        assert worker._process is process and process.is_alive()
        assert wait_idle(running)
    finally:
        running.stop()


def test_a_worker_process_starts_with_glibc_asked_for_huge_pages(exported_tiny, monkeypatch):
    """glibc reads GLIBC_TUNABLES only when a process starts: a worker process gets the huge-pages tunable in its
    own environment (read from /proc), and the server's environment is left as it was."""
    monkeypatch.delenv("GLIBC_TUNABLES", raising=False)  # an operator's own hugetlb setting would win
    running = RunningServer(config_for(exported_tiny, workers=1, worker_processes=True))
    try:
        process = running.engine.workers[0]._process
        environment = dict(entry.split("=", 1) for entry in
                           Path(f"/proc/{process.pid}/environ").read_bytes().decode().split("\0") if "=" in entry)
        assert service.engine.HUGE_PAGES_TUNABLE in environment["GLIBC_TUNABLES"].split(":")
        assert "GLIBC_TUNABLES" not in os.environ
    finally:
        running.stop()


@pytest.mark.parametrize("operators, in_workers", [
    (None, "glibc.malloc.hugetlb=1"),
    ("glibc.malloc.arena_max=2", "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1"),
    ("glibc.malloc.hugetlb=0", "glibc.malloc.hugetlb=0"),  # turned off by the operator: stays off
])
def test_worker_environment_adds_huge_pages_to_the_operators_tunables(monkeypatch, operators, in_workers):
    if operators is None:
        monkeypatch.delenv("GLIBC_TUNABLES", raising=False)
    else:
        monkeypatch.setenv("GLIBC_TUNABLES", operators)
    with service.engine.worker_environment():
        child = subprocess.run([sys.executable, "-c", "import os; print(os.environ['GLIBC_TUNABLES'])"],
                               capture_output=True, text=True, check=True)
    assert child.stdout.strip() == in_workers
    assert os.environ.get("GLIBC_TUNABLES") == operators


def test_a_worker_process_starts_only_on_the_event_loop_that_reads_its_pipe(exported_tiny):
    """The loop serving the calls reads a worker process's pipe; started outside one, it says so instead of starting
    a process whose steps nobody would read."""
    worker = service.engine.ProcessWorker(service.engine.WorkerSpec(exported_tiny), service.engine.SchedulerLimits(), "w")
    with pytest.raises(RuntimeError, match="event loop"):
        worker.start(lambda step: None)
    assert worker._process is None


def test_list_models_describes_the_model_whichever_workers_run_it(server, client, exported_tiny):
    """The same description with worker threads or processes; with processes the server's own process holds no
    ONNX Runtime sessions (a copy of the weights): the provider and alignments are what its first worker reported."""
    runtime = Runtime(exported_tiny, threads=1)
    [info] = client.list_models().models
    assert (info.name, info.version, info.precision, info.provider) == tuple(vars(runtime.info).values())
    assert info.alignments == runtime.has_alignments and info.max_source_tokens == runtime.limits.max_source_tokens
    assert info.segment_tokens == runtime.limits.segment_tokens == runtime.limits.max_source_tokens  # no serving.json
    model = server.engine.model
    in_processes = server.server.config.engine_in_processes
    assert isinstance(model, ServedModel) == in_processes and isinstance(model, Runtime) != in_processes


def test_health_and_reflection(server):
    with grpc.insecure_channel(server.target) as channel:
        status = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service="translator.v1.Translator"))
        assert status.status == health_pb2.HealthCheckResponse.SERVING
        reflection = reflection_pb2_grpc.ServerReflectionStub(channel)
        [answer] = reflection.ServerReflectionInfo(iter([reflection_pb2.ServerReflectionRequest(list_services="")]))
        names = {s.name for s in answer.list_services_response.service}
        assert {"translator.v1.Translator", "grpc.health.v1.Health"} <= names


def test_the_health_command_says_which_services_there_are(server, capsys):
    from service.cli import main

    assert main(["health", "--server", server.target]) == 0
    assert capsys.readouterr().out == f"{server.target}: SERVING\n"
    assert main(["health", "--server", server.target, "--service", "translator.v1.Translater"]) == 1
    assert capsys.readouterr().err == (f"{server.target}: NOT_FOUND: the server reports no service "
                                       "'translator.v1.Translater'; ask '' (the whole server, the default) or "
                                       "'translator.v1.Translator'\n")


@pytest.mark.parametrize("version", ["v1alpha", "v1"])
def test_reflection_answers_both_protocol_versions(server, version):
    """v1 (what grpc-go, grpc-java and newer clients ask first) and v1alpha carry the same messages on the wire: a
    client of either lists the services and gets the files that define them, the v1 reflection service's included."""
    method = f"/grpc.reflection.{version}.ServerReflection/ServerReflectionInfo"
    with grpc.insecure_channel(server.target) as channel:
        call = channel.stream_stream(method, request_serializer=reflection_pb2.ServerReflectionRequest.SerializeToString,
                                     response_deserializer=reflection_pb2.ServerReflectionResponse.FromString)
        asks = [reflection_pb2.ServerReflectionRequest(list_services=""),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="translator.v1.Translator"),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="grpc.reflection.v1.ServerReflection"),
                reflection_pb2.ServerReflectionRequest(file_containing_symbol="no.such.Service")]
        listed, translator, v1, missing = call(iter(asks), timeout=30)
    assert {"translator.v1.Translator", "grpc.health.v1.Health", "grpc.reflection.v1.ServerReflection",
            "grpc.reflection.v1alpha.ServerReflection"} <= {s.name for s in listed.list_services_response.service}
    files = {}
    for answer in (translator, v1):
        for data in answer.file_descriptor_response.file_descriptor_proto:
            proto = descriptor_pb2.FileDescriptorProto.FromString(data)
            files[proto.name] = proto
    assert "Translate" in {m.name for m in files["translator/v1/translator.proto"].service[0].method}
    reflection_v1 = files["grpc/reflection/v1/reflection.proto"]
    assert reflection_v1.package == "grpc.reflection.v1" and not reflection_v1.options.deprecated
    assert reflection_v1.service[0].method[0].input_type == ".grpc.reflection.v1.ServerReflectionRequest"
    assert missing.error_response.error_code == grpc.StatusCode.NOT_FOUND.value[0]


@pytest.mark.parametrize("to_group", [False, True], ids=["the server", "its whole process group"])
def test_sigterm_finishes_in_flight_requests_and_refuses_new_ones(exported_tiny, tmp_path, to_group):
    """Also when the signal reaches the engine worker processes as well (timeout(1), kill -- -PGID, a supervisor
    stopping a group): they leave the server's group, so shutdown stays the server's. New calls are refused
    UNAVAILABLE as long as calls are in flight, not only for REFUSING_BEFORE_STOP_SECONDS: once gRPC stopped, a new
    call was CANCELLED (not retried), and one sent 0.3 s after the signal met that on a loaded machine. The signal
    goes once the server has taken all four calls (0.3 s after sending them was too short on a loaded machine: one
    of them came back refused as new)."""
    log = (tmp_path / "serve.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "serve", "--repository", str(exported_tiny.parent.parent), "--model", "tiny",
         "--port", "0", "--metrics-port", "0", "--threads", "1", "--grace-seconds", "30", "--max-num-seqs", "1"],
        stdout=subprocess.PIPE, stderr=log, text=True, cwd=Path(__file__).parent.parent, start_new_session=to_group)
    try:
        line = process.stdout.readline()
        target, metrics = line.split(" on ")[1].split(" ")[0], line.split("metrics ")[1].split()[0]

        def sequences_taken() -> float:  # waiting, decoding or done
            scraped = urllib.request.urlopen(metrics, timeout=10).read().decode()
            return sum(float(row.split()[-1]) for row in scraped.splitlines() if row.startswith(
                ("translator_queue_depth{", "translator_active_sequences{", "translator_sequences_finished_total{")))

        with TranslatorClient(target, timeout=60) as client:
            in_flight = concurrent.futures.ThreadPoolExecutor(4)
            texts = TEXTS * 8  # 4 x 56 sequences of 200 tokens, one at a time on each of 2 workers: ~3.4 s
            each = sum(t.segments for t in client.translate(texts, max_output_tokens=1).translations)
            before = sequences_taken()
            futures = [in_flight.submit(client.translate, texts, max_output_tokens=200, min_output_tokens=200) for _ in range(4)]
            assert wait_until(lambda: sequences_taken() - before >= 4 * each, timeout=30)
            assert not any(future.done() for future in futures), "the calls ended before the signal: make them longer"
            if to_group:
                os.killpg(process.pid, signal.SIGTERM)
            else:
                process.send_signal(signal.SIGTERM)
            time.sleep(REFUSING_BEFORE_STOP_SECONDS + 0.5)
            assert not any(future.done() for future in futures), "the calls ended before the new one: make them longer"
            with pytest.raises(grpc.RpcError) as refused, grpc.insecure_channel(target) as plain:  # no retries
                pb_grpc.TranslatorStub(plain).Translate(client_request([TEXTS[0]]), timeout=10)
            # the servicer's refusal, not a connection refused by a server whose gRPC has stopped
            assert (refused.value.code(), refused.value.details()) == (grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
            for future in futures:
                assert all(t.output_tokens == 200 for t in future.result().translations)
        assert process.wait(30) == 0
    finally:
        process.kill()


def test_a_draining_server_answers_the_batch_items_it_read_and_ends_the_stream_unavailable(exported_tiny):
    """Answering every further item UNAVAILABLE instead kept a job's stream on the stopping server and used up its
    attempts at 1,900 of 3,000 lines within the grace period. gRPC itself does not retry TranslateBatch (the job sends
    the unanswered items again; gRPC's replay of a stream's items left jobs waiting forever)."""
    running = RunningServer(config_for(exported_tiny))
    try:
        with TranslatorClient(running.target, timeout=30) as client:
            drained = threading.Event()

            def items():
                yield from (pb.BatchItem(id=str(i), text=text) for i, text in enumerate(TEXTS[:3]))
                drained.wait(30)
                yield pb.BatchItem(id="late", text=TEXTS[3])  # the server has stopped reading

            results = []
            with pytest.raises(grpc.RpcError) as ended:
                for result in client.batch(items()):
                    results.append(result)
                    if len(results) == 3:
                        running.start_draining()
                        drained.set()
            assert ended.value.code() == grpc.StatusCode.UNAVAILABLE
            assert "send them again" in ended.value.details()
            assert sorted(r.id for r in results) == ["0", "1", "2"] and not any(r.error_code for r in results)
            with pytest.raises(grpc.RpcError) as refused:
                list(client.batch([pb.BatchItem(id="new", text=TEXTS[0])]))
            assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
            assert wait_until(lambda: running.requests_counted("TranslateBatch", "UNAVAILABLE", model="*") == 2)
    finally:
        running.stop()


def test_a_batch_item_that_meets_a_fault_fails_internal_and_the_stream_goes_on(exported_tiny):
    """Before, the item's result never came and the stream waited for it forever."""
    running = RunningServer(config_for(exported_tiny))
    servicer = running.server.servicer
    translate_whole = servicer.translate_whole

    async def faulty(admitted, context):
        if TEXTS[1] in admitted.texts.prepared[0].segments:
            raise RuntimeError("a fault")
        return await translate_whole(admitted, context)

    servicer.translate_whole = faulty
    try:
        with grpc.insecure_channel(running.target) as channel:
            items = [pb.BatchItem(id=str(i), text=text) for i, text in enumerate(TEXTS[:3])]
            results = {r.id: r for r in pb_grpc.TranslatorStub(channel).TranslateBatch(iter(items), timeout=30)}
        assert results["1"].error_code == grpc.StatusCode.INTERNAL.value[0]
        assert results["1"].error_message == "item '1': internal error (in the server's log)"
        assert not results["0"].error_code and not results["2"].error_code and results["2"].translation.text
    finally:
        running.stop()


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.skipif(not ipv6_loopback(), reason="this machine has no IPv6 loopback")
def test_an_ipv6_listen_address_is_served(exported_tiny):
    """Before, --host :: (or ::1) reached gRPC as ":::50051" and the server said it cannot listen there."""
    running = RunningServer(config_for(exported_tiny, host="::1", metrics_host="::1"))
    try:
        with TranslatorClient(f"[::1]:{running.server.port}", timeout=30) as client:
            assert client.translate([TEXTS[0]]).translations[0].text
        with urllib.request.urlopen(f"http://[::1]:{running.server.metrics_port}/metrics", timeout=10) as response:
            assert b"translator_requests_total" in response.read()
    finally:
        running.stop()


ROOT = Path(__file__).parent.parent
STUBS = ROOT / "translator" / "v1"
# The versions the generators stamp into the stubs: the oldest grpcio and protobuf runtimes the stubs import under.
GRPC_STAMP = re.compile(r"GRPC_GENERATED_VERSION = '([^']+)'")
PROTOBUF_STAMP = re.compile(r"# Protobuf Python Version: (\S+)")
STAMPED_VERSIONS = re.compile(r"(?<=GRPC_GENERATED_VERSION = ')[^']+|(?<=# Protobuf Python Version: )\S+|"
                              r"(?<=_runtime_version\.Domain\.PUBLIC,)\s+\d+,\s+\d+,\s+\d+,")


def without_stamps(stub):
    """A stub with its generators' versions blanked: a patch release of grpcio-tools changes only those."""
    return STAMPED_VERSIONS.sub("VERSION", stub)


def test_stubs_are_not_stale(tmp_path):
    subprocess.run([sys.executable, "-m", "grpc_tools.protoc", f"-I{ROOT / 'protos'}", f"--python_out={tmp_path}",
                    f"--pyi_out={tmp_path}", f"--grpc_python_out={tmp_path}", "translator/v1/translator.proto"],
                   check=True, cwd=ROOT)
    for name in ("translator_pb2.py", "translator_pb2.pyi", "translator_pb2_grpc.py"):
        generated = without_stamps((tmp_path / "translator" / "v1" / name).read_text())
        assert generated == without_stamps((STUBS / name).read_text()), f"{name} is stale: run `make proto`"


@pytest.mark.parametrize("extra", ["serve", "gpu"])
def test_the_declared_grpcio_and_protobuf_are_ones_the_stubs_import_under(extra):
    stamps = {"grpcio": GRPC_STAMP.search((STUBS / "translator_pb2_grpc.py").read_text()).group(1),
              "protobuf": PROTOBUF_STAMP.search((STUBS / "translator_pb2.py").read_text()).group(1)}
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"][extra]
    requirements = {requirement.name: requirement for requirement in map(Requirement, declared)}
    for name, stamp in stamps.items():
        floors = [Version(spec.version) for spec in requirements[name].specifier if spec.operator in (">=", "~=")]
        assert floors and max(floors) >= Version(stamp), \
            f"the stubs need {name}>={stamp}, [{extra}] allows {requirements[name].specifier}"


@pytest.mark.parametrize("raw, expected", [("1", True), ("0", False), ("off", False), ("yes", True)])
def test_worker_processes_setting_reads_a_switch(monkeypatch, raw, expected):
    monkeypatch.setenv("TRANSLATOR_WORKER_PROCESSES", raw)
    assert ServerConfig.env_default("worker_processes") is expected
    assert ServerConfig(worker_processes=expected, device="cuda").engine_in_processes is expected


def test_worker_processes_default_to_processes_on_cpu_and_a_thread_on_cuda(monkeypatch):
    monkeypatch.delenv("TRANSLATOR_WORKER_PROCESSES", raising=False)
    assert ServerConfig.env_default("worker_processes") is None
    assert ServerConfig().engine_in_processes and not ServerConfig(device="cuda").engine_in_processes
    monkeypatch.setenv("TRANSLATOR_WORKER_PROCESSES", "maybe")
    with pytest.raises(ValueError, match="TRANSLATOR_WORKER_PROCESSES='maybe' must be 1 or 0"):
        ServerConfig.env_default("worker_processes")


def test_engines_asking_for_more_threads_than_cores_are_named(monkeypatch):
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert ServerConfig().oversubscribed is None  # one worker of one thread per core
    assert ServerConfig(workers=1, threads=2).oversubscribed is None
    assert ServerConfig(device="cuda", workers=4).oversubscribed is None  # a GPU's threads are not the cores'
    warning = ServerConfig(workers=2, threads=2, models=("en-de", "opus")).oversubscribed
    assert warning.startswith("2 model(s) x 2 engine workers x 2 ONNX Runtime threads = 8 threads on 2 cores")


def test_a_server_that_cannot_start_says_why_and_which_flag(exported_tiny, capsys):
    """The worker process's own error, not only that it exited; a port in use, with the flag to change."""
    from service.cli import main

    serve = ["serve", "--repository", str(exported_tiny.parent.parent), "--model", "tiny", "--metrics-port", "-1",
             "--threads", "1", "--workers", "1"]
    assert main(serve + ["--port", "0", "--alignment-layer", "9"]) == 1
    assert ("error: cannot start serving: engine worker process engine-tiny-0 could not start: alignment_layer=9 must "
            "index one of the") in capsys.readouterr().err
    running = set(multiprocessing.active_children())  # other tests' servers may hold workers of their own
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(serve + ["--port", str(port)]) == 1
    assert (f"error: cannot start serving: cannot listen on 127.0.0.1:{port} (in use, or not an address of this "
            "machine); change --host or --port") in capsys.readouterr().err
    assert set(multiprocessing.active_children()) <= running  # the worker it had started ended with it


@pytest.mark.parametrize("setting, message", [
    ({"port": 70000}, "port=70000 must be between 0 (any free port) and 65535"),  # gRPC served it on port 4464
    ({"metrics_port": -2}, "metrics_port=-2 must be between -1 (off) and 65535"),
    ({"grace_seconds": -1.0}, "grace_seconds=-1.0 must be a finite number of seconds, 0 or more"),
    ({"stream_updates_per_second": float("nan")}, "stream_updates_per_second=nan must be 0 (no bound) or more"),
    ({"uncovered_attention": -0.5}, "uncovered_attention=-0.5 must be 0 (no word left out) or more"),
    ({"models": ("en-de", "en-de/1")}, "models name 'en-de' more than once: serve one version of each"),  # 2 engines, 1 served
])
def test_a_setting_out_of_range_is_named(setting, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        ServerConfig(**setting)


def test_the_servers_default_for_words_left_out_is_the_schedulers():
    from service.scheduler import UNCOVERED_ATTENTION

    assert ServerConfig().uncovered_attention == UNCOVERED_ATTENTION


@pytest.mark.parametrize("variable, raw, message", [("TRANSLATOR_STREAM_INTERVAL_MS", "abc", "must be a number"),
                                                    ("TRANSLATOR_MAX_NUM_SEQS", "2.5", "must be a whole number")])
def test_a_malformed_setting_variable_is_named_not_a_traceback(monkeypatch, capsys, variable, raw, message):
    from service.cli import main

    monkeypatch.setenv(variable, raw)
    assert main(["serve", "--help"]) == 2
    assert capsys.readouterr().err.strip() == f"error: {variable}={raw!r} {message}"
