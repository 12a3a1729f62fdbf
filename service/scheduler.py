"""Continuous (iteration-level) batching: new requests are encoded and join the running decoder batch
at the next step; finished, aborted and expired ones leave at once and free their cache.

Synchronous and transport-agnostic: the engine thread calls ``schedule()`` and ``execute()``; the
runtime needs only ``encode(sources) -> batch``, ``step(batch) -> logits`` and ``special.eos``.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from service.decoding import DecodingOptions, FinishReason, pick_tokens
from service.runtime import DecoderBatch


class RequestStatus(enum.Enum):
    WAITING = "waiting"
    RUNNING = "running"
    FINISHED = "finished"


class QueueFull(Exception):
    """The waiting queue cannot take these requests."""


@dataclass(eq=False)
class Request:
    """One sequence to translate, from arrival to its last token."""

    request_id: str
    source_ids: list[int]
    options: DecodingOptions  # validated: max_output_tokens is set
    on_event: Callable[["Request", int | None], None]  # a new token id, or None once finished
    deadline: float | None = None  # time.monotonic() by which it must finish
    status: RequestStatus = RequestStatus.WAITING
    output_ids: list[int] = field(default_factory=list)
    finish_reason: FinishReason | None = None
    arrival_time: float = field(default_factory=time.monotonic)
    scheduled_time: float | None = None
    first_token_time: float | None = None
    finish_time: float | None = None


@dataclass
class SchedulerOutput:
    admitted: list[Request]  # leave waiting, to be encoded and join the batch
    removed: list[Request]  # aborted or past their deadline, already finished


@dataclass
class StepStats:
    batch_size: int  # sequences in this decoder step
    batched_tokens: int  # decoder positions + newly encoded source tokens
    admitted: int
    finished: list[Request]
    cache_bytes: int


class Scheduler:
    def __init__(self, runtime, *, max_num_seqs: int = 64, max_num_batched_tokens: int = 4096,
                 max_queue_size: int = 1024, clock: Callable[[], float] = time.monotonic):
        self.runtime = runtime
        self.max_num_seqs = max_num_seqs
        self.max_num_batched_tokens = max_num_batched_tokens
        self.max_queue_size = max_queue_size
        self.clock = clock
        self.waiting: deque[Request] = deque()
        self.running: list[Request] = []  # row i of self.batch is running[i]
        self.batch: DecoderBatch | None = None
        self._aborted: set[str] = set()

    def add_request(self, requests: list[Request]) -> None:
        """Queue all of requests or none of them."""
        if len(self.waiting) + len(requests) > self.max_queue_size:
            raise QueueFull(f"the queue holds {len(self.waiting)} of at most {self.max_queue_size} waiting sequences; "
                            f"{len(requests)} more do not fit, retry later")
        self.waiting.extend(requests)

    def abort_request(self, request_id: str) -> None:
        """Finish the request (CANCELLED) at the next schedule(), wherever it is."""
        self._aborted.add(request_id)

    def has_work(self) -> bool:
        return bool(self.waiting or self.running)

    @property
    def cache_bytes(self) -> int:
        return self.batch.nbytes() if self.batch is not None else 0

    def schedule(self) -> SchedulerOutput:
        """Drop aborted and expired requests; admit waiting ones within the bounds."""
        now = self.clock()
        removed = []
        for request in [*self.waiting, *self.running]:
            reason = self._removal_reason(request, now)
            if reason:
                self._finish(request, reason, now)
                removed.append(request)
        if removed:
            self.waiting = deque(r for r in self.waiting if r.status is RequestStatus.WAITING)
        self._aborted.clear()
        admitted = []
        budget = self.max_num_batched_tokens - len(self.running)
        while self.waiting and len(self.running) + len(admitted) < self.max_num_seqs:
            cost = len(self.waiting[0].source_ids) + 1
            if admitted and cost > budget:  # an oversized request still runs alone rather than never
                break
            request = self.waiting.popleft()
            request.status, request.scheduled_time = RequestStatus.RUNNING, now
            admitted.append(request)
            budget -= cost
        return SchedulerOutput(admitted, removed)

    def _removal_reason(self, request: Request, now: float) -> FinishReason | None:
        if request.request_id in self._aborted:
            return FinishReason.CANCELLED
        if request.deadline is not None and now >= request.deadline:
            return FinishReason.DEADLINE
        return None

    def execute(self, output: SchedulerOutput) -> StepStats:
        """Apply the schedule, run one decoder step over every running sequence, emit tokens."""
        self._keep_running()
        batched_tokens = 0
        if output.admitted:
            new = self.runtime.encode([r.source_ids for r in output.admitted])
            self.batch = new if self.batch is None or not self.running else DecoderBatch.concat([self.batch, new])
            self.running += output.admitted
            batched_tokens += sum(len(r.source_ids) for r in output.admitted)
        if not self.running:
            return StepStats(0, batched_tokens, len(output.admitted), output.removed, 0)
        batch_size, cache_bytes = len(self.running), self.cache_bytes
        logits = self.runtime.step(self.batch)
        finished = self.update_from_output(logits)
        return StepStats(batch_size, batched_tokens + batch_size, len(output.admitted), output.removed + finished, cache_bytes)

    def update_from_output(self, logits: np.ndarray) -> list[Request]:
        """Append each row's token; finished sequences leave the batch at once."""
        now = self.clock()
        generated = np.array([len(r.output_ids) for r in self.running])
        min_tokens = np.array([r.options.min_output_tokens for r in self.running])
        tokens = pick_tokens(logits, generated, min_tokens, self.runtime.special.eos)
        finished = []
        for request, token in zip(self.running, tokens.tolist()):
            if token == self.runtime.special.eos:
                self._finish(request, FinishReason.EOS, now)
            else:
                request.first_token_time = request.first_token_time or now
                request.output_ids.append(token)
                request.on_event(request, token)
                if len(request.output_ids) >= request.options.max_output_tokens:
                    self._finish(request, FinishReason.LENGTH, now)
            if request.status is RequestStatus.FINISHED:
                finished.append(request)
        self.batch.last_tokens = tokens
        self._keep_running()
        return finished

    def fail_running(self) -> list[Request]:
        """Finish every running sequence with ERROR after a failed step; the batch state is discarded."""
        failed, now = self.running, self.clock()
        for request in failed:
            self._finish(request, FinishReason.ERROR, now)
        self.running, self.batch = [], None
        return failed

    def _keep_running(self) -> None:
        """Drop finished rows from the batch (one select for all of them)."""
        keep = [i for i, r in enumerate(self.running) if r.status is RequestStatus.RUNNING]
        if len(keep) < len(self.running):
            self.running = [self.running[i] for i in keep]
            self.batch = self.batch.select(keep) if keep else None

    @staticmethod
    def _finish(request: Request, reason: FinishReason, now: float) -> None:
        request.status, request.finish_reason, request.finish_time = RequestStatus.FINISHED, reason, now
        request.on_event(request, None)
