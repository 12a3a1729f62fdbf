"""One loaded model served by one thread: the thread owns the ONNX Runtime sessions, the scheduler and
the KV cache; asyncio code only submits requests and awaits their events (fed with
``loop.call_soon_threadsafe``). ONNX Runtime releases the GIL while it computes."""

from __future__ import annotations

import asyncio
import itertools
import logging
import threading
from dataclasses import dataclass
from typing import AsyncIterator, Callable

from service.decoding import DecodingOptions
from service.runtime import Runtime
from service.scheduler import Request, Scheduler, StepStats

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SchedulerLimits:
    max_num_seqs: int = 64
    max_num_batched_tokens: int = 4096
    max_queue_size: int = 1024


class Engine:
    def __init__(self, runtime: Runtime, limits: SchedulerLimits = SchedulerLimits(),
                 on_step: Callable[[StepStats, "Engine"], None] | None = None):
        self.runtime = runtime
        self.scheduler = Scheduler(runtime, max_num_seqs=limits.max_num_seqs,
                                   max_num_batched_tokens=limits.max_num_batched_tokens,
                                   max_queue_size=limits.max_queue_size)
        self.on_step = on_step
        self._lock = threading.Lock()
        self._work = threading.Condition(self._lock)
        self._stopping = False
        self._ids = itertools.count()
        self._thread = threading.Thread(target=self._loop, name=f"engine-{runtime.info.name}", daemon=True)

    @property
    def name(self) -> str:
        return self.runtime.info.name

    def start(self) -> "Engine":
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._work:
            self._stopping = True
            self._work.notify()
        self._thread.join()

    def queue_depth(self) -> int:
        return len(self.scheduler.waiting)

    def active_sequences(self) -> int:
        return len(self.scheduler.running)

    def submit(self, requests: list[Request]) -> None:
        """Queue requests (all or none: raises QueueFull) and wake the engine thread."""
        with self._work:
            self.scheduler.add_request(requests)
            self._work.notify()

    def abort(self, requests: list[Request]) -> None:
        with self._work:
            for request in requests:
                if request.finish_reason is None:
                    self.scheduler.abort_request(request.request_id)
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
                stats = self.scheduler.execute(output)
            except Exception:  # a broken step must not kill the thread that serves everyone
                log.exception("decoder step failed; failing the sequences of this batch")
                stats = StepStats(0, 0, 0, output.removed + self.scheduler.fail_running(), 0)
            if self.on_step is not None:
                self.on_step(stats, self)

    def new_call(self, sources: list[list[int]], options: DecodingOptions, deadline: float | None) -> "Call":
        """Requests for one RPC whose events arrive on the running asyncio loop."""
        return Call(self, sources, options, deadline, f"r{next(self._ids)}")


class Call:
    """The sequences of one RPC and an async stream of their events: (index, token id or None when done)."""

    def __init__(self, engine: Engine, sources, options: DecodingOptions, deadline: float | None, call_id: str):
        loop = asyncio.get_running_loop()
        self._events: asyncio.Queue = asyncio.Queue()
        self.engine = engine
        self.index = {}
        self.requests = []
        for i, ids in enumerate(sources):
            request = Request(f"{call_id}/{i}", ids, options,
                              lambda r, token: loop.call_soon_threadsafe(self._events.put_nowait, (r, token)), deadline)
            self.index[request] = i
            self.requests.append(request)

    def submit(self) -> "Call":
        self.engine.submit(self.requests)
        return self

    async def events(self) -> AsyncIterator[tuple[int, Request, int | None]]:
        """Yields (text index, request, token) and (index, request, None) once per finished request."""
        pending = len(self.requests)
        try:
            while pending:
                request, token = await self._events.get()
                if token is None:
                    pending -= 1
                yield self.index[request], request, token
        finally:
            if pending:  # the RPC went away (cancelled, deadline, error): free the slots
                self.engine.abort(self.requests)
