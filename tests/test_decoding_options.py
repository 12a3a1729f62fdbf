"""Beam search, n-best with scores, sampling and alignments inside the continuous batch (tiny exported model),
and each option's validation. The 200-sentence comparison with PyTorch runs on the shipped model
(test_default_model.py) and on converted Marian models (test_marian.py)."""

import re

import grpc
import numpy as np
import pytest

from model.beam import beam_search, sequence_logprobs
from model.checkpoint import load_checkpoint, pad_batch
from model.greedy import greedy
from service.client import TranslatorClient
from service.decoding import MAX_REPEAT_PERIOD, DecodingCapabilities, DecodingOptions
from service.runtime import Runtime
from service.scheduler import Request, Scheduler, decode
from service.translator import Translator
from tests.grpc_server import RunningServer
from tests.test_server import config_for
from translator.v1 import translator_pb2 as pb

SENTENCES = ["Where is the station?", "I eat an apple.", "He crossed the street.", "colour", "Greetings from Munich!",
             "The thing 7 is here.", "My brother lives in Berlin.", "Please close the door."]
CAPS = DecodingCapabilities(max_output_tokens=256, vocab_size=8000, max_beam_size=8)


@pytest.fixture(scope="module")
def runtime(exported_tiny):
    return Runtime(exported_tiny, threads=1)


@pytest.fixture(scope="module")
def model(tiny_checkpoint):
    return load_checkpoint(tiny_checkpoint)[0]


def options(**fields) -> DecodingOptions:
    return DecodingOptions(max_output_tokens=fields.pop("max_output_tokens", 10), **fields).validate(CAPS)


def run_alone(runtime, source, opts):
    [request] = decode(runtime, [source], opts)
    return request


def test_beam_size_one_is_greedy_in_both_engines(runtime, model):
    sources = runtime.tokenizer.encode_batch(SENTENCES)
    src, mask = pad_batch(sources, model.cfg.pad_id)
    reference = beam_search(model, src, mask, beam_size=1, max_len=10, repeat_period=MAX_REPEAT_PERIOD)
    assert [h[0].token_ids for h in reference] == greedy(model, src, mask, 10, repeat_period=MAX_REPEAT_PERIOD)
    ours = decode(runtime, sources, options(beam_size=1))
    assert [r.output_ids for r in ours] == [h[0].token_ids for h in reference]


@pytest.mark.parametrize("beam_size, length_penalty, min_tokens", [(2, 1.0, 0), (4, 0.0, 0), (5, 0.6, 0), (3, 1.0, 6)])
def test_beam_search_equals_the_pytorch_reference(runtime, model, beam_size, length_penalty, min_tokens):
    sources = runtime.tokenizer.encode_batch(SENTENCES)
    src, mask = pad_batch(sources, model.cfg.pad_id)
    reference = beam_search(model, src, mask, beam_size, 10, length_penalty=length_penalty, num_hypotheses=beam_size,
                            min_len=min_tokens, repeat_period=MAX_REPEAT_PERIOD)
    ours = decode(runtime, sources, options(beam_size=beam_size, num_hypotheses=beam_size, length_penalty=length_penalty,
                                            min_output_tokens=min_tokens, return_scores=True))
    for mine, theirs in zip(ours, reference):
        assert [h.token_ids for h in mine.hypotheses] == [h.token_ids for h in theirs]
        assert np.allclose([h.score for h in mine.hypotheses], [h.score for h in theirs], atol=1e-4)
        scores = [h.score for h in mine.hypotheses]
        assert scores == sorted(scores, reverse=True) and len(scores) == beam_size
        assert mine.output_ids == mine.hypotheses[0].token_ids


def test_scores_match_a_rescoring_by_pytorch(runtime, model):
    """Where no token was suppressed (as repeats are, before normalising, like EOS below the minimum)."""
    sources = runtime.tokenizer.encode_batch(SENTENCES[:4])
    model_alone = dict(return_scores=True, suppress_repeats=False)
    for opts in (options(**model_alone), options(beam_size=3, num_hypotheses=3, **model_alone),
                 options(sampling_temperature=1.0, seed=3, **model_alone)):
        for request in decode(runtime, sources, opts):
            for hypothesis in request.hypotheses:
                ended = hypothesis.finish_reason.value == "eos"
                rescored = sequence_logprobs(model, request.source_ids, hypothesis.token_ids, ended)
                assert np.allclose(hypothesis.token_logprobs, rescored, atol=1e-4)
                assert hypothesis.score == pytest.approx(sum(rescored) / len(rescored) ** opts.length_penalty, abs=1e-4)


def test_seeded_sampling_is_reproducible_and_differs_across_seeds(runtime):
    source = runtime.tokenizer.encode(SENTENCES[0])
    first = [run_alone(runtime, source, options(sampling_temperature=1.5, seed=seed)).output_ids for seed in range(6)]
    again = [run_alone(runtime, source, options(sampling_temperature=1.5, seed=seed)).output_ids for seed in range(6)]
    assert first == again
    assert len({tuple(ids) for ids in first}) > 1
    greedy_ids = run_alone(runtime, source, options()).output_ids
    top1 = run_alone(runtime, source, options(sampling_temperature=1.0, sampling_topk=1, seed=1)).output_ids
    assert top1 == greedy_ids  # top-k 1 leaves only the most likely token


def test_a_mixed_batch_gives_each_request_what_it_gets_alone(runtime):
    sources = runtime.tokenizer.encode_batch(SENTENCES)
    kinds = [options(), options(beam_size=3, num_hypotheses=2, return_scores=True),
             options(sampling_temperature=0.8, sampling_topp=0.9, seed=11), options(beam_size=2, return_alignments=True),
             options(return_alignments=True, return_scores=True), options(sampling_temperature=2.0, sampling_topk=5, seed=2)]
    requests = [Request(str(i), sources[i % len(sources)], kinds[i % len(kinds)]) for i in range(18)]
    scheduler = Scheduler(runtime, max_num_seqs=16, max_queue_size=64)
    scheduler.run(requests)
    assert scheduler.pool.size == 0
    for request in requests:
        alone = run_alone(runtime, request.source_ids, request.options)
        assert [h.token_ids for h in request.hypotheses] == [h.token_ids for h in alone.hypotheses]
        assert np.allclose([h.score for h in request.hypotheses], [h.score for h in alone.hypotheses], atol=1e-4)


@pytest.mark.parametrize("opts", [options(return_alignments=True), options(beam_size=3, return_alignments=True)],
                         ids=["greedy", "beam"])
def test_alignments_have_one_row_per_token_and_rows_sum_to_one(runtime, opts):
    assert runtime.has_alignments
    for request in decode(runtime, runtime.tokenizer.encode_batch(SENTENCES), opts):
        alignments = request.hypotheses[0].alignments
        assert alignments.shape == (len(request.output_ids), len(request.source_ids))
        assert np.allclose(alignments.sum(axis=1), 1.0, atol=1e-5) and (alignments >= 0).all()


@pytest.mark.parametrize("fields, message", [
    (dict(beam_size=9), "beam_size=9 must be between 1 (greedy) and 8"),
    (dict(beam_size=2, num_hypotheses=3), "num_hypotheses=3 must be between 1 and beam_size=2"),
    (dict(length_penalty=-0.5), "length_penalty=-0.5 must be between 0 and 10"),
    (dict(length_penalty=float("nan")), "length_penalty=nan must be between 0 and 10"),
    (dict(sampling_temperature=-1.0), "sampling_temperature=-1.0 must be between 0 (0: no sampling) and 100"),
    (dict(sampling_temperature=1.0, beam_size=2), "needs beam_size 1, not 2"),
    (dict(sampling_topk=9000), "sampling_topk=9000 must be between 0 (all tokens) and 8000"),
    (dict(sampling_topp=1.5), "sampling_topp=1.5 must be in (0, 1]"),
    (dict(sampling_topp=-0.1), "sampling_topp=-0.1 must be in (0, 1]"),
    (dict(seed=-1), "seed=-1 must be between 0 and 2^64-1"),
])
def test_every_invalid_option_is_refused_with_its_range(fields, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        DecodingOptions(**fields).validate(CAPS)


def test_alignments_are_refused_for_a_model_exported_without_them():
    caps = DecodingCapabilities(max_output_tokens=256, vocab_size=8000, alignments=False)
    with pytest.raises(ValueError, match="return_alignments: this model was exported without alignments"):
        DecodingOptions(return_alignments=True).validate(caps)


@pytest.fixture(scope="module")
def client(exported_tiny):
    server = RunningServer(config_for(exported_tiny, max_beam_size=4))
    with TranslatorClient(server.target, timeout=30) as client:
        yield client
    server.stop()


def test_the_server_returns_n_best_scores_and_alignments(client, runtime):
    texts = ["Where is the station? I eat an apple.", "colour"]
    response = client.translate(texts, beam_size=4, num_hypotheses=3, return_scores=True, return_alignments=True,
                                max_output_tokens=8)
    for text, translation in zip(texts, response.translations):
        assert len(translation.hypotheses) == 3 and translation.hypotheses[0].text == translation.text
        scores = [h.score for h in translation.hypotheses]
        assert scores == sorted(scores, reverse=True) and translation.score == pytest.approx(scores[0])
        assert len(translation.alignments) == translation.segments
        for alignment in translation.alignments:
            weights = np.array(alignment.weights).reshape(len(alignment.target_tokens), len(alignment.source_tokens))
            assert np.allclose(weights.sum(axis=1), 1.0, atol=1e-5)
            assert list(alignment.source_index) == weights.argmax(axis=1).tolist()
            assert alignment.source_tokens[-1] == "</s>"
    info = client.list_models().models[0]
    assert info.max_beam_size == 4 and info.alignments


def test_the_server_suppresses_repeats_unless_a_request_turns_it_off(client, exported_tiny):
    """suppress_repeats unset means true: the server answers as Translator does with the same options, and the tiny
    model, which repeats itself, comes back otherwise with it off."""
    local = Translator(exported_tiny, threads=1)
    suppressed = local.translate(SENTENCES)
    as_ranked = local.translate(SENTENCES, options=DecodingOptions(suppress_repeats=False))
    assert any(a != b for a, b in zip(suppressed, as_ranked))
    assert [t.text for t in client.translate(SENTENCES).translations] == suppressed
    assert [t.text for t in client.translate(SENTENCES, suppress_repeats=True).translations] == suppressed
    assert [t.text for t in client.translate(SENTENCES, suppress_repeats=False).translations] == as_ranked


def test_a_text_with_nothing_to_translate_is_its_own_one_hypothesis(client):
    """hypotheses[0] is the translation, also for a text that is returned as it is (no sentence in it)."""
    for response in (client.translate(["😀 2.", "Where is the station?"], beam_size=3, num_hypotheses=2),
                     *(c.final for c in client.stream(["😀 2."], beam_size=3, num_hypotheses=2) if c.HasField("final"))):
        translations = response.translations if hasattr(response, "translations") else [response]
        assert translations[0].segments == 0 and [h.text for h in translations[0].hypotheses] == ["😀 2."]
    assert not client.translate(["😀 2."]).translations[0].hypotheses  # only n-best asks for them


def test_streamed_beam_pieces_concatenate_to_the_final_text(client):
    texts = ["Where is the station? He crossed the street.", "Greetings from Munich!"]
    whole = client.translate(texts, beam_size=3, max_output_tokens=8).translations
    pieces = {0: "", 1: ""}
    for chunk in client.stream(texts, beam_size=3, max_output_tokens=8):
        pieces[chunk.index] += chunk.text
        if chunk.HasField("final"):
            assert pieces[chunk.index] == chunk.final.text == whole[chunk.index].text


def test_without_max_output_tokens_a_sentence_is_bounded_by_its_source_length():
    """Twice the source tokens plus 20, within the model's limit: a model stuck repeating itself ("Scream Tracker 3
    audio", 11 source tokens, came back as 117 tokens of "S S S") stops there. A max_output_tokens the request sets is its own, and
    min_output_tokens raises the bound."""
    assert DecodingOptions().max_tokens(5, 256) == 30 and DecodingOptions().max_tokens(200, 256) == 256
    assert DecodingOptions(max_output_tokens=100).max_tokens(5, 256) == 100
    assert DecodingOptions(min_output_tokens=50).max_tokens(5, 256) == 50
    assert DecodingOptions().validate(CAPS).max_output_tokens == 0  # still "unset" for the engine


def test_the_server_bounds_each_sentence_by_its_own_source(client):
    """The tiny model repeats a token to whatever limit it gets: each sentence of a text stops at its own bound,
    greedy and beam alike; an explicit max_output_tokens goes past it."""
    texts = ["colour", "Where is the station? My brother lives in Berlin and he likes it very much."]
    for beam_size in (1, 3):
        for translation in client.translate(texts, beam_size=beam_size).translations:
            bound = 2 * translation.input_tokens + 20 * translation.segments  # summed over its sentences
            assert translation.output_tokens == bound and translation.finish_reason == pb.FINISH_REASON_LENGTH
    explicit = client.translate(texts[:1], max_output_tokens=100).translations[0]
    assert explicit.output_tokens == 100


@pytest.mark.parametrize("fields, field", [(dict(beam_size=5), "beam_size"), (dict(num_hypotheses=2), "num_hypotheses"),
                                           (dict(sampling_topp=2.0), "sampling_topp"),
                                           (dict(sampling_temperature=1.0, beam_size=2), "sampling_temperature")])
def test_the_server_refuses_bad_options_naming_the_field(client, fields, field):
    with pytest.raises(grpc.RpcError) as caught:
        client.translate(["Where is the station?"], **fields)
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert caught.value.details().startswith(f"options.{field}=")
    assert client.translate(["Where is the station?"]).translations[0].text  # and it keeps serving


@pytest.mark.parametrize("settings", [dict(stream_interval_ms=1000.0, stream_updates_per_second=0),
                                      dict(stream_interval_ms=0.0, stream_updates_per_second=0.001)],
                         ids=["interval", "update-budget"])
def test_a_stream_interval_gathers_pieces_into_fewer_messages(exported_tiny, settings):
    """The first piece of each text goes at once, the rest gathers for --stream-interval-ms, or for as long as
    --stream-updates-per-second shares among the streaming texts, whatever the number of texts (their tokens
    interleave step by step); the texts are those of one message per token. (How many messages that sends depends on
    how far the reader lags the engine, so only the bound is tested.) One engine worker: texts split over two finish
    in different steps, and a finished text sends the others' gathered pieces with it."""
    sources = ["Where is the station?", "I eat an apple.", "He crossed the street.", "Greetings from Munich!"]
    counts, texts = {}, {}
    for name, setting in (("per token", dict(stream_interval_ms=0.0, stream_updates_per_second=0)), ("gathered", settings)):
        server = RunningServer(config_for(exported_tiny, workers=1, **setting))
        try:
            with TranslatorClient(server.target, timeout=30) as client:
                chunks = list(client.stream(sources, max_output_tokens=12, min_output_tokens=12))
        finally:
            server.stop()
        counts[name] = len(chunks)
        texts[name] = ["".join(c.text for c in chunks if c.index == i) for i in range(len(sources))]
        finals = {c.index: c.final for c in chunks if c.HasField("final")}
        assert [finals[i].text for i in range(len(sources))] == texts[name]
        assert all(final.output_tokens == 12 for final in finals.values())
    assert texts["per token"] == texts["gathered"]
    assert counts["gathered"] <= 2 * len(sources)  # per text: the first piece, then the rest with its final translation


def test_the_update_budget_lengthens_the_interval_with_the_streaming_texts():
    """--stream-updates-per-second shared among the texts streaming now: never below --stream-interval-ms, never
    above MAX_STREAM_INTERVAL_MS, and 0 leaves the interval as set."""
    from service.config import MAX_STREAM_INTERVAL_MS, ServerConfig
    from service.server import TranslatorServicer

    def interval(streaming: int, **settings) -> float:
        servicer = TranslatorServicer({"m": None}, ServerConfig(**settings), metrics=None)
        servicer.streamed_texts = streaming
        return servicer.stream_interval()

    budget = dict(stream_interval_ms=50.0, stream_updates_per_second=250.0)
    assert interval(0, **budget) == interval(12, **budget) == 0.05
    assert interval(64, **budget) == pytest.approx(64 / 250)
    assert interval(10_000, **budget) == MAX_STREAM_INTERVAL_MS / 1000 == 1.0
    assert interval(10_000, stream_interval_ms=50.0, stream_updates_per_second=0) == 0.05
