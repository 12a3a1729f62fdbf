"""The scheduler with a fake runtime whose logits are scripted: no model, no gRPC, no threads."""

import numpy as np
import pytest

from model.tokenizer import SpecialIds
from service.decoding import DecodingOptions, FinishReason
from service.runtime import DecoderBatch
from service.scheduler import QueueFull, Request, RequestStatus, Scheduler

VOCAB, EOS = 50, 3


class ScriptedRuntime:
    """Row with source [s, ...] of length n emits s+10, s+11, ... and EOS after n tokens."""

    special = SpecialIds(eos=EOS)

    def __init__(self):
        self.steps = []  # batch size of every step

    def encode(self, sources):
        size = len(sources)
        script = np.array([[s[0], len(s)] for s in sources], dtype=np.float32)  # carried in a "cross" tensor
        return DecoderBatch(cross=[script[:, None, :, None]], memory_mask=np.ones((size, 2), dtype=bool),
                            self_kv=[np.zeros((size, 1, 16, 1), dtype=np.float32)],
                            lengths=np.zeros(size, dtype=np.int64), last_tokens=np.zeros(size, dtype=np.int64))

    def step(self, batch):
        self.steps.append(batch.size)
        logits = np.zeros((batch.size, VOCAB), dtype=np.float32)
        first, length = batch.cross[0][:, 0, 0, 0].astype(int), batch.cross[0][:, 0, 1, 0].astype(int)
        token = np.where(batch.lengths >= length, EOS, first + 10 + batch.lengths)
        logits[np.arange(batch.size), token] = 1.0
        batch.lengths += 1
        return logits


def expected_tokens(source):
    return [source[0] + 10 + t for t in range(len(source))]


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def make(sources, options=DecodingOptions(max_output_tokens=20), deadline=None):
    events = []
    requests = [Request(f"r{i}", s, options, lambda r, t: events.append((r.request_id, t)), deadline) for i, s in enumerate(sources)]
    return requests, events


def run(scheduler, limit=100):
    for _ in range(limit):
        if not scheduler.has_work():
            return
        scheduler.execute(scheduler.schedule())
    raise AssertionError("did not finish")


def test_sequences_decode_as_if_alone_and_leave_when_finished():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime)
    requests, events = make([[5, 1, 1], [7], [9, 1, 1, 1, 1]])
    scheduler.add_request(requests)
    run(scheduler)
    assert [r.output_ids for r in requests] == [expected_tokens(r.source_ids) for r in requests]
    assert all(r.finish_reason is FinishReason.EOS and r.status is RequestStatus.FINISHED for r in requests)
    assert runtime.steps == [3, 3, 2, 2, 1, 1]  # rows leave the step after their EOS
    assert events.count(("r1", None)) == 1 and scheduler.batch is None


def test_new_requests_join_the_running_batch_at_the_next_step():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime)
    first, _ = make([[5, 1, 1, 1, 1, 1]])
    scheduler.add_request(first)
    scheduler.execute(scheduler.schedule())
    scheduler.execute(scheduler.schedule())
    late = Request("late", [8, 1], DecodingOptions(max_output_tokens=20), lambda r, t: None)
    scheduler.add_request([late])
    scheduler.execute(scheduler.schedule())
    assert runtime.steps[-1] == 2
    run(scheduler)
    assert first[0].output_ids == expected_tokens([5, 1, 1, 1, 1, 1]) and late.output_ids == expected_tokens([8, 1])


def test_max_num_seqs_bounds_the_batch():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime, max_num_seqs=2)
    requests, _ = make([[5, 1]] * 5)
    scheduler.add_request(requests)
    run(scheduler)
    assert max(runtime.steps) == 2
    assert all(r.output_ids == [15, 16] for r in requests)


def test_max_num_batched_tokens_limits_admission():
    scheduler = Scheduler(ScriptedRuntime(), max_num_batched_tokens=10)
    requests, _ = make([[5] * 6, [6] * 6, [7]])
    scheduler.add_request(requests)
    output = scheduler.schedule()
    assert output.admitted == requests[:1]  # 7 tokens admitted; 7 more would exceed 10


def test_queue_overflow_rejects_all_or_nothing():
    scheduler = Scheduler(ScriptedRuntime(), max_queue_size=3)
    scheduler.add_request(make([[5]] * 2)[0])
    with pytest.raises(QueueFull, match="at most 3 waiting"):
        scheduler.add_request(make([[5]] * 2)[0])
    assert len(scheduler.waiting) == 2


def test_abort_removes_a_running_sequence_at_the_next_step():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime)
    requests, events = make([[5] * 8, [6] * 8])
    scheduler.add_request(requests)
    scheduler.execute(scheduler.schedule())
    scheduler.abort_request("r0")
    scheduler.execute(scheduler.schedule())
    assert requests[0].finish_reason is FinishReason.CANCELLED and ("r0", None) in events
    assert runtime.steps == [2, 1] and len(requests[0].output_ids) == 1
    run(scheduler)
    assert requests[1].output_ids == expected_tokens([6] * 8)


def test_expired_deadline_finishes_waiting_and_running_sequences():
    clock = Clock()
    scheduler = Scheduler(ScriptedRuntime(), max_num_seqs=1, clock=clock)
    requests, _ = make([[5] * 8, [6] * 8], deadline=1.0)
    scheduler.add_request(requests)
    scheduler.execute(scheduler.schedule())
    clock.now = 2.0
    output = scheduler.schedule()
    assert set(output.removed) == set(requests) and not output.admitted
    assert all(r.finish_reason is FinishReason.DEADLINE for r in requests)
    scheduler.execute(output)
    assert not scheduler.has_work() and scheduler.cache_bytes == 0


def test_max_and_min_output_tokens():
    scheduler = Scheduler(ScriptedRuntime())
    short, _ = make([[5] * 8], DecodingOptions(max_output_tokens=3))
    scheduler.add_request(short)
    run(scheduler)
    assert short[0].output_ids == [15, 16, 17] and short[0].finish_reason is FinishReason.LENGTH
    scheduler = Scheduler(ScriptedRuntime())
    longer, _ = make([[5]], DecodingOptions(max_output_tokens=5, min_output_tokens=3))
    scheduler.add_request(longer)
    run(scheduler)
    assert len(longer[0].output_ids) == 3  # EOS suppressed twice; the fake then emits other tokens


def test_failed_step_finishes_running_sequences_with_error():
    scheduler = Scheduler(ScriptedRuntime())
    requests, events = make([[5, 1], [6, 1]])
    scheduler.add_request(requests)
    scheduler.execute(scheduler.schedule())
    failed = scheduler.fail_running()
    assert failed == requests and all(r.finish_reason is FinishReason.ERROR for r in requests)
    assert not scheduler.has_work() and scheduler.batch is None
