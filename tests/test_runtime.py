"""The ONNX runtime's slot pool and the scheduler's loop over the real (tiny) exported model: rows that join
late, leave early, are aborted or expire decode exactly as if alone, and every slot is free at the end."""

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.decoding import DecodingOptions, FinishReason
from service.runtime import CACHE_CHUNK, Runtime, cache_capacity, length_groups
from translator.model_format import Limits, ModelMeta, position_major
from service.scheduler import Request, RequestStatus, Scheduler, decode
from service.cli import main
from service.translator import Translator

SOURCES = [[5, 9, 12, 3], [7, 3], [20, 21, 22, 23, 24, 25, 26, 3], [11, 40, 3], [30, 31, 32, 33, 3],
           list(range(4, 40)) + [3]]


@pytest.fixture(scope="module")
def runtime(exported_tiny):
    return Runtime(exported_tiny, threads=1)


@pytest.fixture(scope="module")
def alone(runtime):
    """Ids of each source decoded alone, forced to `steps` tokens (memoised)."""
    cache = {}

    def decode_alone(k, steps):
        if (k, steps) not in cache:
            [request] = decode(runtime, [SOURCES[k]], DecodingOptions(max_output_tokens=steps, min_output_tokens=steps))
            cache[k, steps] = request.output_ids
        return cache[k, steps]
    return decode_alone


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(SOURCES) - 1), st.integers(0, 6), st.integers(1, 2 * CACHE_CHUNK + 2),
                          st.none() | st.integers(0, 30), st.none() | st.integers(1, 30)), min_size=1, max_size=9),
       st.integers(1, 4))
def test_any_order_of_joins_and_leaves_decodes_as_if_alone(runtime, alone, workload, slots):
    """(source, arrival step, forced length, abort step, deadline step) per request; a pool of `slots` rows."""
    clock = Clock()
    scheduler = Scheduler(runtime, max_num_seqs=slots, clock=clock)
    requests = [Request(str(i), SOURCES[k], DecodingOptions(steps, steps), deadline) for i, (k, _, steps, _, deadline)
                in enumerate(workload)]
    ended = []
    for step in range(200):
        clock.now = step
        scheduler.add_request([r for r, spec in zip(requests, workload) if spec[1] == step])
        for r, spec in zip(requests, workload):
            if spec[3] == step and r.status is not RequestStatus.FINISHED:
                scheduler.abort_request(r.request_id)
        if step > 6 and not scheduler.has_work():
            break
        ended += [r for r, token in scheduler.execute(scheduler.schedule()).events if token is None]
    assert sorted(r.request_id for r in ended) == sorted(r.request_id for r in requests)  # each ends once
    assert scheduler.pool.size == 0 and all(r is None for r in scheduler.pool.requests)
    for request, (k, _, steps, abort, deadline) in zip(requests, workload):
        if request.finish_reason is FinishReason.LENGTH:
            assert request.output_ids == alone(k, steps)
        else:
            assert request.finish_reason in (FinishReason.CANCELLED, FinishReason.DEADLINE)


def test_free_moves_only_the_last_row_into_the_hole(runtime):
    pool = runtime.new_pool(8)
    pool.join(runtime.encode(SOURCES[:5]), list("abcde"))
    runtime.step(pool)
    before = [buffer.copy() for buffer in pool.self_kv + pool.cross]
    pool.free([1])
    assert pool.size == 4 and pool.requests[:5] == list("aecd") + [None]
    for old, new in zip(before, pool.self_kv + pool.cross):
        assert np.array_equal(new[[0, 2, 3]], old[[0, 2, 3]])  # untouched rows keep their values
        assert np.array_equal(new[1], old[4])  # the last row moved into the hole


def test_cache_grows_geometrically_and_shrinks_when_long_rows_leave(runtime):
    pool = runtime.new_pool(4)
    pool.join(runtime.encode(SOURCES[:1]), ["long"])
    assert pool.capacity == CACHE_CHUNK
    capacities = set()
    for _ in range(100):
        pool.last_tokens[: pool.size] = runtime.step(pool)[0].argmax(-1)
        capacities.add(pool.capacity)
    assert pool.capacity == cache_capacity(100) < 1.3 * 100  # little masked work per step
    assert len(capacities) <= 12  # few regrowths (each copies the running rows once)
    pool.join(runtime.encode(SOURCES[1:2]), ["late"])
    for _ in range(3):
        pool.last_tokens[: pool.size] = runtime.step(pool)[0].argmax(-1)
    pool.free([0])
    assert pool.requests[0] == "late" and pool.capacity == cache_capacity(4)
    pool.free([0])
    assert pool.size == 0 and pool.capacity == cache_capacity(4)  # an empty pool keeps its size for the next rows


def test_source_capacity_follows_the_longest_running_source(runtime):
    pool = runtime.new_pool(4)
    pool.join(runtime.encode([SOURCES[1]]), ["short"])
    pool.join(runtime.encode([SOURCES[5]]), ["long"])
    assert pool.source_capacity == cache_capacity(len(SOURCES[5])) >= len(SOURCES[5])
    pool.free([1])
    assert pool.source_capacity == CACHE_CHUNK


def test_batched_decoding_equals_one_by_one(runtime):
    options = DecodingOptions(max_output_tokens=12)
    batched = [(r.output_ids, r.finish_reason) for r in decode(runtime, SOURCES, options)]
    one_by_one = [(r.output_ids, r.finish_reason) for s in SOURCES for r in decode(runtime, [s], options)]
    assert batched == one_by_one
    assert all(reason in (FinishReason.EOS, FinishReason.LENGTH) for _, reason in batched)


def test_translator_translates_text(exported_tiny):
    translator = Translator(exported_tiny, threads=1)
    results = translator.translate_batch(["Where is the station?", "I eat an apple."], options=DecodingOptions(max_output_tokens=8))
    assert len(results) == 2
    assert all(r.output_tokens <= 8 and r.input_tokens > 1 and isinstance(r.text, str) for r in results)


def test_a_sentence_longer_than_the_model_reads_is_refused_with_what_to_do(exported_tiny):
    """translate_batch gives the model each sentence as it is: one past the encoder's positions failed inside ONNX
    Runtime ("invalid index found")."""
    translator = Translator(exported_tiny, threads=1)
    longest = translator.runtime.limits.max_source_tokens
    with pytest.raises(ValueError, match=rf"request 1 is \d+ tokens long and the model reads at most {longest}: "
                                         r"cut it \(Translator.translate cuts long texts\)"):
        translator.translate_batch(["Where is the station?", "station " * longest])
    assert len(translator.translate(["station " * longest])[0]) > 0


@pytest.mark.parametrize("options, message", [
    (DecodingOptions(max_output_tokens=-1), "max_output_tokens=-1 must be between 0"),
    (DecodingOptions(max_output_tokens=10_000), "max_output_tokens=10000 must be between 0 .* and 256"),
    (DecodingOptions(min_output_tokens=-2), "min_output_tokens=-2 must not be negative"),
    (DecodingOptions(max_output_tokens=4, min_output_tokens=5), "min_output_tokens=5 must not exceed max_output_tokens=4"),
])
def test_invalid_options_say_what_to_fix(options, message):
    with pytest.raises(ValueError, match=message):
        options.validate(256)


def test_missing_model_dir_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="config.json is missing"):
        Runtime(tmp_path)
    with pytest.raises(ValueError, match="precision 'int4' must be one of"):
        Runtime(tmp_path, precision="int4")


@pytest.mark.parametrize("layout, message", [
    ({"config.json": '{"d_model": 256}', "model.safetensors": ""},
     r"its config.json has no 'name' key; it is a PyTorch checkpoint: translate with --checkpoint .*, or export it"),
    ({"1/config.json": "{}", "3/config.json": "{}", "notes/config.json": "{}"},
     r"config.json is missing; it holds versions \(1, 3\): pass one, e.g. .*/3$"),
    ({"config.json": "{not json"}, r"its config.json is not an export's: Expecting property name"),
    ({"config.json": '{"name": "x", "version": 1, "model": {}, "limits": {"max_tokens": 9}}'},
     r"its config.json is not an export's: .*unexpected keyword argument 'max_tokens'"),
    ({"config.json": '{"name": "x", "version": 1, "model": {}, '
                     '"limits": {"max_source_tokens": 9, "max_output_tokens": 9, "segment_tokens": 10}}'},
     r"its config.json is not an export's: segment_tokens=10 must be between 1 and max_source_tokens=9"),
])
def test_a_directory_that_is_no_export_says_what_it_is(tmp_path, layout, message):
    """The usual slips (a checkpoint, or a model's folder of versions, given as an export) name the right flag or
    path; a broken config.json is said to be one, not a KeyError."""
    for name, text in layout.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    with pytest.raises(FileNotFoundError, match=f"^{tmp_path} is not an exported model directory: {message}"):
        Runtime(tmp_path)


def test_a_config_written_before_segment_tokens_segments_at_the_source_limit(tmp_path):
    config = {"name": "x", "version": "1", "model": {}, "limits": {"max_source_tokens": 9, "max_output_tokens": 7}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    assert ModelMeta.read(tmp_path).limits == Limits(max_source_tokens=9, max_output_tokens=7, segment_tokens=9)


def test_cuda_without_a_gpu_is_a_clear_error(exported_tiny, capsys):
    import onnxruntime

    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("a CUDA provider is present: covered by the GPU tests")
    with pytest.raises(RuntimeError, match="install onnxruntime-gpu"):
        Runtime(exported_tiny, device="cuda")
    assert main(["translate", "--model-dir", str(exported_tiny), "--device", "cuda", "Hello."]) == 1  # no traceback
    assert "error: device 'cuda' asked for" in capsys.readouterr().err


def test_cuda_that_onnx_runtime_cannot_start_is_an_error_not_the_cpu(exported_tiny, monkeypatch):
    """ONNX Runtime answers a CUDA provider it cannot start (missing CUDA or cuDNN libraries) with an error in its
    log and a session on the CPU; here the CPU build is asked for CUDA as if it offered it, and falls back the same way."""
    import onnxruntime

    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("a CUDA provider is present: covered by the GPU tests")
    monkeypatch.setattr(onnxruntime, "get_available_providers", lambda: ["CUDAExecutionProvider", "CPUExecutionProvider"])
    with pytest.raises(RuntimeError, match="CUDAExecutionProvider asked for, but ONNX Runtime could not start it"):
        Runtime(exported_tiny, device="cuda")


@pytest.mark.gpu
@pytest.mark.parametrize("options", [DecodingOptions(max_output_tokens=12),
                                     DecodingOptions(max_output_tokens=12, beam_size=4, num_hypotheses=2),
                                     DecodingOptions(max_output_tokens=12, sampling_temperature=0.8, seed=5)],
                         ids=["greedy", "beam", "sampling"])
def test_cuda_runtime_matches_cpu(exported_tiny, options):
    """Token for token. On the lent H200 a step whose IO binding was kept fed the GPU the inputs of the step that
    made it (bind_input copies there and then): every token repeated until the cache grew."""
    import onnxruntime

    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        pytest.skip("needs onnxruntime-gpu and a CUDA device")
    on_gpu = decode(Runtime(exported_tiny, device="cuda"), SOURCES, options)
    on_cpu = decode(Runtime(exported_tiny), SOURCES, options)
    assert [[h.token_ids for h in r.hypotheses] for r in on_gpu] == [[h.token_ids for h in r.hypotheses] for r in on_cpu]


def test_length_groups_bound_the_padding_of_each_run():
    lengths = [30, 5, 6, 31, 5, 29, 7]
    groups = length_groups(lengths, padding_per_run=6)
    assert sorted(i for group in groups for i in group) == list(range(len(lengths)))
    assert [[lengths[i] for i in group] for group in groups] == [[5, 5, 6, 7], [29, 30, 31]]
    assert length_groups(lengths, padding_per_run=0) == [[1, 4], [2], [6], [5], [0], [3]]
    assert length_groups(lengths, padding_per_run=float("inf")) == [[1, 4, 2, 6, 5, 0, 3]]


def test_joining_length_groups_equals_joining_one_padded_run(runtime):
    """Sources of very different lengths run in separate groups; the rows they join hold what one padded run
    gives, in the order given, beams (several rows of one request) included."""
    sources = [SOURCES[5], SOURCES[1], SOURCES[3], SOURCES[5][:30]]
    copies = [1, 3, 1, 2]
    grouped = runtime.encode(sources)
    assert len(grouped) > 1
    runtime.padding_per_run, one_run = float("inf"), runtime.padding_per_run
    try:
        padded = runtime.encode(sources)
    finally:
        runtime.padding_per_run = one_run
    assert len(padded) == 1
    pools = [runtime.new_pool(sum(copies) + 1) for _ in range(2)]
    for pool, runs in zip(pools, (grouped, padded)):
        pool.join(runtime.encode([SOURCES[0]]), ["first"])  # the new rows do not start at row 0
        assert pool.join(runs, list("abcd"), copies).tolist() == list(range(1, 1 + sum(copies)))
    mine, theirs = pools
    assert mine.requests == theirs.requests == ["first"] + ["a"] + ["b"] * 3 + ["c"] + ["d"] * 2
    assert np.array_equal(mine.beam_index, theirs.beam_index) and mine.beam_index[1:8].tolist() == [0, 0, 1, 2, 0, 0, 1]
    assert np.array_equal(mine.memory_mask, theirs.memory_mask)
    real = theirs.memory_mask[:, None, :, None]
    for a, b in zip(position_major(mine.cross), position_major(theirs.cross)):
        np.testing.assert_allclose(np.where(real, a, 0), np.where(real, b, 0), atol=1e-5)
