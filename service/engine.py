"""A loaded model served by one or more engine workers. Each worker is a thread that owns its own ONNX
Runtime sessions, scheduler and slot pool and shares nothing on the hot path with the others (data
parallelism, like CTranslate2's ``inter_threads``). asyncio code only submits requests and awaits
their events: a worker hands each step's events to the event loop with one ``call_soon_threadsafe``.
ONNX Runtime releases the GIL while it computes."""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
from dataclasses import dataclass
from typing import AsyncIterator, Callable

from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import Event, QueueFull, Request, RequestStatus, Scheduler, StepOutput

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SchedulerLimits:
    max_num_seqs: int = 64  # per worker
    max_num_batched_tokens: int = 4096  # per worker and step
    max_queue_size: int = 1024  # waiting sequences of the whole model


class Worker:
    """One engine thread with its own runtime, scheduler and slot pool."""

    def __init__(self, runtime: Runtime, limits: SchedulerLimits, on_step: Callable[[StepOutput], None], name: str):
        self.runtime = runtime
        self.scheduler = Scheduler(runtime, max_num_seqs=limits.max_num_seqs,
                                   max_num_batched_tokens=limits.max_num_batched_tokens,
                                   max_queue_size=limits.max_queue_size)
        self.on_step = on_step
        self._work = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    def load(self) -> int:
        """Sequences waiting or running here (read without the lock: a hint for placement)."""
        return len(self.scheduler.waiting) + self.scheduler.pool.size

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        with self._work:
            self._stopping = True
            self._work.notify()
        self._thread.join()

    def submit(self, requests: list[Request]) -> None:
        with self._work:
            self.scheduler.add_request(requests)
            self._work.notify()

    def abort(self, request_ids: list[str]) -> None:
        with self._work:
            for request_id in request_ids:
                self.scheduler.abort_request(request_id)
            self._work.notify()

    def _loop(self) -> None:
        while True:
            with self._work:
                while not self.scheduler.has_work() and not self._stopping:
                    self._work.wait()
                if self._stopping:
                    return
                output = self.scheduler.schedule()
            try:
                step = self.scheduler.execute(output)
            except Exception:  # a broken step must not kill the thread that serves everyone
                log.exception("decoder step failed; failing the sequences of this batch")
                ended = output.removed + self.scheduler.fail_step(output)
                step = StepOutput(0, 0, 0, ended, [(request, None) for request in ended])
            deliver(step.events)
            self.on_step(step)


def deliver(events: list[Event]) -> None:
    """Hand one step's events to the asyncio loops of their calls: one thread hop per loop and step."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Event]] = {}
    for event in events:
        sink = event[0].sink
        if sink is not None:
            by_loop.setdefault(sink.loop, []).append(event)
    for loop, batch in by_loop.items():
        try:
            loop.call_soon_threadsafe(_dispatch, batch)
        except RuntimeError:  # the loop has closed: nobody is waiting for these events any more
            pass


def _dispatch(events: list[Event]) -> None:
    for request, token in events:
        request.sink.put(request, token)


class Engine:
    """One model: its workers, request placement and the all-or-nothing queue bound."""

    def __init__(self, runtimes: list[Runtime], limits: SchedulerLimits = SchedulerLimits(),
                 on_step: Callable[[StepOutput, "Engine"], None] | None = None):
        if not runtimes:
            raise ValueError("an engine needs at least one runtime")
        self.limits = limits
        self.on_step = on_step
        name = runtimes[0].meta.name
        self.workers = [Worker(runtime, limits, self._stepped, f"engine-{name}-{i}") for i, runtime in enumerate(runtimes)]
        self._lock = threading.Lock()
        self._ids = itertools.count()

    @property
    def runtime(self) -> Runtime:
        """The first worker's runtime: model metadata and tokenizer (identical across workers)."""
        return self.workers[0].runtime

    @property
    def name(self) -> str:
        return self.runtime.meta.name

    def start(self) -> "Engine":
        for worker in self.workers:
            worker.start()
        return self

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()

    def queue_depth(self) -> int:
        return sum(len(w.scheduler.waiting) for w in self.workers)

    def active_sequences(self) -> int:
        return sum(w.scheduler.pool.size for w in self.workers)

    def cache_bytes(self) -> int:
        return sum(w.scheduler.cache_bytes for w in self.workers)

    def _stepped(self, step: StepOutput) -> None:
        if self.on_step is not None:
            self.on_step(step, self)

    def submit(self, requests: list[Request]) -> None:
        """Queue requests on the least loaded workers, all or none (raises QueueFull)."""
        with self._lock:
            waiting = self.queue_depth()
            if waiting + len(requests) > self.limits.max_queue_size:
                raise QueueFull(f"the queue holds {waiting} of at most {self.limits.max_queue_size} waiting sequences; "
                                f"{len(requests)} more do not fit, retry later")
            loads = [w.load() for w in self.workers]
            groups: list[list[Request]] = [[] for _ in self.workers]
            for request in requests:
                target = min(range(len(loads)), key=loads.__getitem__)
                groups[target].append(request)
                loads[target] += 1
            for worker, group in zip(self.workers, groups):
                if group:
                    worker.submit(group)

    def abort(self, requests: list[Request]) -> None:
        """Cancel the requests that have not finished, wherever they are."""
        open_ids = [r.request_id for r in requests if r.status is not RequestStatus.FINISHED]
        if open_ids:
            for worker in self.workers:
                worker.abort(open_ids)

    def new_call(self, sources: list[list[int]], options: DecodingOptions, deadline: float | None,
                 stream: bool = False) -> "Call":
        """Requests for one RPC whose events arrive on the running asyncio loop."""
        return Call(self, sources, options, deadline, stream, f"r{next(self._ids)}")


class Call:
    """The sequences of one RPC and an async stream of their events."""

    def __init__(self, engine: Engine, sources, options: DecodingOptions, deadline: float | None, stream: bool,
                 call_id: str):
        self.loop = asyncio.get_running_loop()
        self._events: asyncio.Queue = asyncio.Queue()
        self._wake: asyncio.Future | None = None  # set while a stream holds its pieces back (events(interval))
        self.engine = engine
        self.requests = [Request(f"{call_id}/{i}", ids, options, deadline, stream, sink=self) for i, ids in enumerate(sources)]
        self.index = {request: i for i, request in enumerate(self.requests)}

    def put(self, request: Request, token: int | None) -> None:
        self._events.put_nowait((request, token))
        if token is None and self._wake is not None and not self._wake.done():
            self._wake.set_result(None)

    async def _until_finished_or(self, seconds: float) -> None:
        """Sleep, waking early when a request finishes (one future and one timer, not a task per event)."""
        self._wake = self.loop.create_future()
        timer = self.loop.call_later(seconds, lambda wake=self._wake: wake.done() or wake.set_result(None))
        try:
            await self._wake
        finally:
            timer.cancel()
            self._wake = None

    def submit(self) -> "Call":
        self.engine.submit(self.requests)
        return self

    def _drain(self, batch: list) -> list:
        while not self._events.empty():
            batch.append(self._events.get_nowait())
        return batch

    async def events(self, interval: float = 0.0) -> AsyncIterator[list[tuple[int, Request, int | None]]]:
        """Yields the events that have arrived, in order, as lists: (sequence index, request, token) per streamed
        token and (index, request, None) once per finished request. A reader that falls behind the engine gets
        several steps' events at once; with `interval` (seconds), token events are also held until that long
        after the previous list (the first list and any list with a finished request go at once), so that a
        stream sends a few larger messages instead of one per token."""
        pending, last = len(self.requests), -float("inf")
        try:
            while pending:
                batch = self._drain([await self._events.get()])
                remaining = last + interval - self.loop.time()
                if remaining > 0 and all(token is not None for _, token in batch):
                    await self._until_finished_or(remaining)
                    batch = self._drain(batch)
                pending -= sum(token is None for _, token in batch)
                last = self.loop.time()
                yield [(self.index[request], request, token) for request, token in batch]
        finally:
            if pending:  # the RPC went away (cancelled, deadline, error): free the slots
                self.engine.abort(self.requests)
