"""The slot pool's per-row kernel (service/_rowkernel.c) against numpy doing the same work."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service._rowkernel import RowKernel

EOS = 2
STREAMING, SAMPLED, BEAM = 1, 2, 16  # any bits: the kernel is told which mean what


def pool_arrays(slots=6, vocab=40, max_output_tokens=8):
    return dict(logits=np.zeros((slots, vocab), dtype=np.float32), lengths=np.zeros(slots, dtype=np.int64),
                min_tokens=np.zeros(slots, dtype=np.int64), max_tokens=np.full(slots, max_output_tokens, dtype=np.int64),
                deadlines=np.full(slots, np.inf), features=np.zeros(slots, dtype=np.uint8),
                last_tokens=np.zeros(slots, dtype=np.int64), output=np.zeros((slots, max_output_tokens), dtype=np.int64))


def greedy_tokens(arrays, n):
    kernel = RowKernel(**arrays)
    kernel.advance(n)
    kernel.choose(n, EOS, 0, 0, 0)
    return arrays["last_tokens"][:n]


@settings(max_examples=300, deadline=None)
@given(vocab=st.sampled_from([3, 7, 511, 512, 513, 1500, 8000]), rows=st.integers(1, 4), seed=st.integers(0, 2**32 - 1),
       values=st.sampled_from(["ties", "floats", "with -inf"]))
def test_argmax_is_numpys_first_maximum(vocab, rows, seed, values):
    """Ties (few distinct values) go to the lowest id, in a block, between blocks and in the tail past the last block."""
    rng = np.random.default_rng(seed)
    arrays = pool_arrays(slots=rows, vocab=vocab)
    logits = arrays["logits"]
    logits[:] = rng.integers(-2, 3, logits.shape) if values == "ties" else rng.standard_normal(logits.shape)
    if values == "with -inf":
        logits[rng.random(logits.shape) < 0.5] = -np.inf
    expected = logits.argmax(-1)
    assert greedy_tokens(arrays, rows).tolist() == expected.tolist()


def test_argmax_passes_over_nan_and_gives_0_when_nothing_is_above_minus_infinity():
    arrays = pool_arrays(slots=3, vocab=1200)
    logits = arrays["logits"]
    logits[0, 700], logits[0, 5] = np.nan, 3.0
    logits[1] = -np.inf
    logits[2] = np.nan
    assert greedy_tokens(arrays, 3).tolist() == [5, 0, 0]


def test_choose_records_streams_and_finishes_rows():
    arrays = pool_arrays()
    kernel = RowKernel(**arrays)
    logits, features = arrays["logits"], arrays["features"]
    best = [5, EOS, 7, 9, 11, 13]
    logits[np.arange(6), best] = 1.0
    features[:] = [STREAMING, STREAMING, 0, SAMPLED | STREAMING, BEAM, 0]
    arrays["last_tokens"][3] = 30  # a sampled row's token, drawn before choose
    arrays["lengths"][:] = [0, 0, 7, 0, 0, 0]
    arrays["max_tokens"][2] = 8
    kernel.advance(5)  # row 5 is not running
    finished, streamed = kernel.choose(5, EOS, BEAM, SAMPLED, STREAMING)
    assert finished == [1, 2]  # EOS, and max_tokens reached
    assert streamed == [(0, 5), (3, 30)]  # not the EOS of row 1, not the non-streaming row 2
    assert arrays["last_tokens"][:5].tolist() == [5, EOS, 7, 30, 0]  # the beam row is its search's to write
    assert arrays["output"][[0, 1, 2, 3], [0, 0, 7, 0]].tolist() == [5, EOS, 7, 30]
    assert arrays["output"][4].tolist() == [0] * 8 and arrays["lengths"].tolist() == [1, 1, 8, 1, 1, 0]


def test_prepare_blocks_eos_below_the_minimum_and_reports_every_feature_present():
    arrays = pool_arrays()
    kernel = RowKernel(**arrays)
    arrays["min_tokens"][:3] = [2, 1, 0]
    arrays["features"][:4] = [0, SAMPLED, 0, BEAM]
    kernel.advance(3)
    assert kernel.prepare(3, EOS) == SAMPLED  # row 3 is not running
    assert np.isneginf(arrays["logits"][:3, EOS]).tolist() == [True, True, False]
    assert not np.isneginf(arrays["logits"][:, :EOS]).any() and not np.isneginf(arrays["logits"][3:]).any()


def repeated_block(tokens: list[int], max_period: int) -> int | None:
    """The shortest period p <= max_period with tokens ending in two copies of a block of p tokens."""
    periods = range(1, min(max_period, len(tokens) // 2) + 1)
    return next((p for p in periods if tokens[-2 * p : -p] == tokens[-p:]), None)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.tuples(st.lists(st.integers(0, 2), max_size=8), st.booleans()), min_size=1, max_size=6),
       max_period=st.integers(1, 8))
def test_repeats_finds_each_flagged_rows_shortest_doubled_block(rows, max_period):
    """Over two or three token values, tokens often end in two copies of a block (and often of several)."""
    arrays = pool_arrays(slots=len(rows))
    kernel = RowKernel(**arrays)
    for row, (tokens, flagged) in enumerate(rows):
        arrays["output"][row, : len(tokens)] = tokens
        arrays["lengths"][row] = len(tokens) + 1  # positions cached: the tokens before this step's, and the start
        arrays["features"][row] = SAMPLED | (BEAM if flagged else 0)
    expected = [(row, repeated_block(tokens, max_period)) for row, (tokens, flagged) in enumerate(rows) if flagged]
    assert kernel.repeats(len(rows), BEAM, max_period) == [(row, p) for row, p in expected if p is not None]
    assert kernel.repeats(len(rows) - 1, STREAMING, max_period) == []  # no row has that bit


def test_longest_advance_and_expired_see_only_the_running_rows():
    arrays = pool_arrays()
    kernel = RowKernel(**arrays)
    arrays["lengths"][:] = [3, 9, 4, 0, 0, 50]
    arrays["deadlines"][:] = [5.0, np.inf, 1.0, 2.0, 9.0, 0.0]
    assert kernel.longest(5) == 9 and kernel.longest(0) == 0
    kernel.advance(2)
    assert arrays["lengths"].tolist() == [4, 10, 4, 0, 0, 50]
    assert kernel.expired(5, 2.0) == [2, 3] and kernel.expired(0, 99.0) == []


@pytest.mark.parametrize("name, wrong, message", [
    ("lengths", np.zeros(6, dtype=np.int32), "lengths: expected 1 dimension"),
    ("features", np.zeros(5, dtype=np.uint8), "features: expected 1 dimension"),
    ("logits", np.zeros((6, 40)), "logits: expected 2 dimension"),
    ("output", np.zeros((6, 8), dtype=np.int64)[:, ::2], "contiguous"),
])
def test_arrays_of_the_wrong_kind_are_refused_by_name(name, wrong, message):
    with pytest.raises((TypeError, ValueError), match=message):
        RowKernel(**pool_arrays() | {name: wrong})


def test_rows_out_of_range_are_refused_not_written():
    arrays = pool_arrays()
    kernel = RowKernel(**arrays)
    with pytest.raises(ValueError, match="n=7 must be between 0 and 6"):
        kernel.advance(7)
    with pytest.raises(ValueError, match="eos=40 must be between 0 and 39"):
        kernel.prepare(1, 40)
    with pytest.raises(ValueError, match="max_period=9 must be between 1 and 8"):
        kernel.repeats(1, BEAM, 9)
    with pytest.raises(IndexError, match="row 0 has generated 0 tokens"):  # choose before advance: no position
        kernel.choose(1, EOS, 0, 0, 0)
    arrays["lengths"][0] = 9
    with pytest.raises(IndexError, match="row 0 has generated 9 tokens; its output holds 1 to 8"):
        kernel.choose(1, EOS, 0, 0, 0)
