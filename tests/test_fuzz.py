"""Property-based fuzzing of every RPC over real loopback gRPC: structured requests with any text, model and
options, and raw bytes that are no message at all (or carry invalid UTF-8). Every answer is OK or a
documented client-error status — never UNKNOWN or INTERNAL —, the server counts every call under the
code the client saw, and a well-behaved client keeps getting the right translation.

Bounded for `make test` (FUZZ_EXAMPLES per RPC, default 60); `make fuzz` runs a long campaign.
"""

import collections
import os

import grpc
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.client import TranslatorClient
from tests.grpc_server import RunningServer, wait_until
from tests.test_server import TEXTS, config_for
from translator.v1 import translator_pb2 as pb

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
CLIENT_ERRORS = {grpc.StatusCode.OK, grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND,
                 grpc.StatusCode.RESOURCE_EXHAUSTED}
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
METHOD = "/translator.v1.Translator/"

texts = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60),  # protobuf cannot carry surrogates
    st.lists(st.sampled_from(["<b>", "</b>", "<i>", "</i>", '<a href="x">', "</a>", "<br>", "<!-- c -->", "%s", "&amp;",
                              "Where", " is", " the station", ". ", "\n"]), max_size=20).map("".join))  # markup
options = st.builds(pb.DecodingOptions, max_output_tokens=st.integers(0, 300), min_output_tokens=st.integers(0, 40),
                    beam_size=st.integers(0, 3), text_format=st.sampled_from([0, 1, 2]))  # uint32 fields
models = st.sampled_from(["", "tiny", "nope", "TINY", "tiny/1", "\u200b"])
requests = st.builds(pb.TranslateRequest, texts=st.lists(texts, max_size=10), model=models, options=options,
                     request_id=texts)
items = st.builds(pb.BatchItem, id=st.text(max_size=10), text=texts, model=models, options=options)
raw_messages = st.one_of(st.binary(max_size=80),
                         st.binary(max_size=20).map(lambda b: b"\x0a" + bytes([len(b) + 2]) + b"\xc3\x28" + b))


class Ledger:
    """What the client saw, per (method, code), to hold against the server's counters."""

    def __init__(self):
        self.seen = collections.Counter()

    def record(self, method: str, call) -> grpc.StatusCode:
        try:
            result = call()
            code = grpc.StatusCode.OK
        except grpc.RpcError as error:
            code, result = error.code(), error
        self.seen[method, code.name] += 1
        assert code in CLIENT_ERRORS, f"{method}: {code.name}: {getattr(result, 'details', lambda: '')()}"
        return code


@pytest.fixture(scope="module")
def fuzzed(exported_tiny):
    running = RunningServer(config_for(exported_tiny, max_texts_per_request=8, max_queue_size=256))
    reference = TranslatorClient(running.target, timeout=30).translate([TEXTS[0]]).translations[0].text
    channel = grpc.insecure_channel(running.target)
    ledger = Ledger()
    yield running, channel, ledger, reference
    channel.close()
    print("fuzzing: calls by method and status: " + ", ".join(f"{m} {c}: {n}" for (m, c), n in sorted(ledger.seen.items())))
    try:
        # Every call is counted under the code its client saw (OK calls also include the well-behaved client's).
        exact = lambda totals, key, seen: totals[key] >= seen if key[1] == "OK" else totals[key] == seen  # noqa: E731
        for key, seen in ledger.seen.items():
            assert wait_until(lambda: exact(totals_now(running), key, seen)), (key, seen, dict(totals_now(running)))
        assert not any(code in ("UNKNOWN", "INTERNAL") for _, code in totals_now(running))
    finally:
        running.stop()


def totals_now(running) -> collections.Counter:
    totals = collections.Counter()
    for metric in running.server.metrics.registry.collect():
        for sample in metric.samples:
            if sample.name == "translator_requests_total":
                totals[sample.labels["method"], sample.labels["code"]] += sample.value
    return totals


def check_well_behaved(running, reference):
    with TranslatorClient(running.target, timeout=30) as client:
        assert client.translate([TEXTS[0]]).translations[0].text == reference


def rpc(channel, method, kind, response):
    return getattr(channel, kind)(METHOD + method, request_serializer=lambda m: m if isinstance(m, bytes) else m.SerializeToString(),
                                  response_deserializer=response.FromString)


@FUZZ
@given(st.one_of(requests, raw_messages))
def test_translate_answers_with_a_documented_status(fuzzed, request):
    running, channel, ledger, reference = fuzzed
    call = rpc(channel, "Translate", "unary_unary", pb.TranslateResponse)
    ledger.record("Translate", lambda: call(request, timeout=60))
    check_well_behaved(running, reference)


@FUZZ
@given(st.one_of(requests, raw_messages))
def test_translate_stream_answers_with_a_documented_status(fuzzed, request):
    running, channel, ledger, reference = fuzzed
    call = rpc(channel, "TranslateStream", "unary_stream", pb.TranslateChunk)
    ledger.record("TranslateStream", lambda: list(call(request, timeout=60)))


@FUZZ
@given(st.lists(st.one_of(items, raw_messages), max_size=6))
def test_translate_batch_answers_every_item(fuzzed, batch):
    running, channel, ledger, reference = fuzzed
    call = rpc(channel, "TranslateBatch", "stream_stream", pb.BatchResult)
    results = []
    ledger.record("TranslateBatch", lambda: results.extend(call(iter(batch), timeout=60)))
    assert len(results) == len(batch)  # one result per item, decodable or not
    check_well_behaved(running, reference)


@FUZZ
@given(st.one_of(st.just(pb.ListModelsRequest()), raw_messages))
def test_list_models_answers_with_a_documented_status(fuzzed, request):
    running, channel, ledger, reference = fuzzed
    call = rpc(channel, "ListModels", "unary_unary", pb.ListModelsResponse)
    ledger.record("ListModels", lambda: call(request, timeout=30))
