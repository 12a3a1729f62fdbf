"""The ONNX runtime's batch operations: rows that join late and leave early decode as if alone."""

import numpy as np
import pytest

from service.decoding import DecodingOptions, FinishReason, Translator, greedy_decode, pick_tokens
from service.runtime import CACHE_CHUNK, DecoderBatch, Runtime

SOURCES = [[5, 9, 12, 3], [7, 3], [20, 21, 22, 23, 24, 25, 26, 3], [11, 40, 3], [30, 31, 32, 33, 3]]


@pytest.fixture(scope="module")
def runtime(exported_tiny):
    return Runtime(exported_tiny, threads=1)


def alone(runtime, source, steps):
    """Greedy ids of one source decoded alone, forced to `steps` tokens."""
    [(ids, _)] = greedy_decode(runtime, [source], DecodingOptions(max_output_tokens=steps, min_output_tokens=steps))
    return ids


def test_rows_joining_and_leaving_decode_as_if_alone(runtime):
    """Row k joins at step 2k and leaves after 6 + k steps: step → select → concat, many times."""
    steps = {k: 6 + k for k in range(len(SOURCES))}
    expected = {k: alone(runtime, SOURCES[k], steps[k]) for k in steps}
    eos = runtime.special.eos
    batch, members, got = None, [], {k: [] for k in steps}
    for clock in range(40):
        joining = [k for k in steps if 2 * k == clock]
        if joining:
            new = runtime.encode([SOURCES[k] for k in joining])
            batch = new if batch is None else DecoderBatch.concat([batch, new])
            members += joining
        if batch is None or not batch.size:
            continue
        logits = runtime.step(batch)
        logits[:, eos] = -np.inf
        tokens = logits.argmax(-1)
        for k, token in zip(members, tokens.tolist()):
            got[k].append(token)
        batch.last_tokens = tokens
        keep = [i for i, k in enumerate(members) if len(got[k]) < steps[k]]
        batch, members = batch.select(keep), [members[i] for i in keep]
    assert got == expected


def test_cache_doubles_when_full_and_select_trims(runtime):
    batch = runtime.encode(SOURCES)
    assert batch.capacity == CACHE_CHUNK
    for _ in range(CACHE_CHUNK + 1):
        batch.last_tokens = runtime.step(batch).argmax(-1)
    assert batch.capacity == 2 * CACHE_CHUNK
    for _ in range(CACHE_CHUNK):
        batch.last_tokens = runtime.step(batch).argmax(-1)
    assert batch.capacity == 4 * CACHE_CHUNK
    trimmed = batch.select([1])
    assert trimmed.size == 1 and trimmed.memory_mask.shape[1] == len(SOURCES[1])
    assert trimmed.nbytes() < batch.nbytes() / 4


def test_batched_greedy_equals_one_by_one(runtime):
    options = DecodingOptions(max_output_tokens=12)
    batched = greedy_decode(runtime, SOURCES, options)
    assert batched == [greedy_decode(runtime, [s], options)[0] for s in SOURCES]
    assert all(reason in (FinishReason.EOS, FinishReason.LENGTH) for _, reason in batched)


def test_min_output_tokens_suppresses_eos():
    logits = np.zeros((2, 5), dtype=np.float32)
    logits[:, 3] = 1.0
    assert pick_tokens(logits.copy(), np.array([0, 4]), np.array([2, 2]), eos_id=3).tolist()[1] == 3
    assert pick_tokens(logits.copy(), np.array([0, 4]), np.array([2, 2]), eos_id=3).tolist()[0] != 3


def test_translator_translates_text(exported_tiny):
    translator = Translator(exported_tiny, threads=1)
    results = translator.translate_batch(["Where is the station?", "I eat an apple."], options=DecodingOptions(max_output_tokens=8))
    assert len(results) == 2
    assert all(r.output_tokens <= 8 and r.input_tokens > 1 and isinstance(r.text, str) for r in results)


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


def test_cuda_without_a_gpu_is_a_clear_error(exported_tiny):
    import onnxruntime

    if "CUDAExecutionProvider" in onnxruntime.get_available_providers():
        pytest.skip("a CUDA provider is present: covered by the GPU tests")
    with pytest.raises(RuntimeError, match="install onnxruntime-gpu"):
        Runtime(exported_tiny, device="cuda")


@pytest.mark.gpu
def test_cuda_runtime_matches_cpu(exported_tiny):
    import onnxruntime

    if "CUDAExecutionProvider" not in onnxruntime.get_available_providers():
        pytest.skip("needs onnxruntime-gpu and a CUDA device")
    options = DecodingOptions(max_output_tokens=12)
    assert greedy_decode(Runtime(exported_tiny, device="cuda"), SOURCES, options) == greedy_decode(
        Runtime(exported_tiny), SOURCES, options)
