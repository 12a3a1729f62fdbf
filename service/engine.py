"""A loaded model served by one or more engine workers. Each worker owns its own ONNX Runtime sessions,
scheduler and slot pool and shares nothing on the hot path with the others (data parallelism, like
CTranslate2's ``inter_threads``). asyncio code only submits requests and awaits their events: a worker
hands each step's events to the event loop with one ``call_soon_threadsafe``.

A worker is a thread of the server's process (``Worker``) or a process of its own (``ProcessWorker``, which
steps its scheduler on its only thread and reports each step over a pipe that the event loop reads itself).
ONNX Runtime releases the GIL while it computes, but the scheduler's Python between two runs needs it: in one
process, the engine threads and the gRPC event loop take turns, and measured under load the engine thread waited
for the GIL a quarter of its time. A worker process has a GIL of its own."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import dataclasses
import itertools
import logging
import multiprocessing
import multiprocessing.util  # noqa: F401 - registers its exit handler before ours (below)
import os
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncIterator, Callable, Iterator, Sequence

from service.decoding import DecodingOptions, FinishReason
from service.processes import detach_from_server
from service.model import Model, ServedModel
from service.runtime import Runtime
from service.scheduler import (UNCOVERED_ATTENTION, Event, QueueFull, Request, RequestStatus, Scheduler,
                               SchedulerOutput, StepOutput, decode)
from translator.model_format import ModelMeta

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class SchedulerLimits:
    max_num_seqs: int = 64  # per worker
    max_num_batched_tokens: int = 4096  # per worker and step
    max_queue_size: int = 1024  # waiting sequences of the whole model
    join_interval_steps: int = 1  # while rows decode, waiting requests join at every n-th step
    retry_beams: int = 4  # a greedy sequence with a defect (scheduler.Defects) is decoded again with beams
    uncovered_attention: float = UNCOVERED_ATTENTION  # a word given less attention was left out: a defect

    def scheduler(self, runtime: Runtime) -> Scheduler:
        return Scheduler(runtime, max_num_seqs=self.max_num_seqs, max_num_batched_tokens=self.max_num_batched_tokens,
                         max_queue_size=self.max_queue_size, join_interval_steps=self.join_interval_steps,
                         retry_beams=self.retry_beams, uncovered_attention=self.uncovered_attention)


class Worker:
    """One engine thread with its own runtime, scheduler and slot pool."""

    def __init__(self, runtime: Runtime, limits: SchedulerLimits, name: str):
        self.model = runtime
        self.scheduler = limits.scheduler(runtime)
        self.on_step: Callable[[StepOutput], None] = lambda step: None
        self._work = threading.Condition()
        self._stopping = False
        self._thread = threading.Thread(target=self._loop, name=name, daemon=True)

    def load(self) -> int:
        """Sequences waiting or running here (read without the lock: a hint for placement)."""
        return self.waiting() + self.running()

    def waiting(self) -> int:
        return len(self.scheduler.waiting)

    def running(self) -> int:
        return self.scheduler.pool.size

    def cache_bytes(self) -> int:
        return self.scheduler.cache_bytes

    def start(self, on_step: Callable[[StepOutput], None]) -> None:
        self.on_step = on_step
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
            self.scheduler.abort_request(*request_ids)
            self._work.notify()

    def _loop(self) -> None:
        while True:
            with self._work:
                while not self.scheduler.has_work() and not self._stopping:
                    self._work.wait()
                if self._stopping:
                    return
                output = self.scheduler.schedule()
            step = execute(self.scheduler, output)
            deliver(step.events)
            self.on_step(step)


def execute(scheduler: Scheduler, output: SchedulerOutput) -> StepOutput:
    """Run one scheduled step (a worker thread's and a worker process's); a broken step fails the sequences of its
    batch instead of the loop that serves everyone."""
    try:
        return scheduler.execute(output)
    except Exception:  # noqa: BLE001 - see the docstring
        log.exception("decoder step failed; failing the sequences of this batch")
        ended = output.removed + scheduler.fail_step(output)
        return StepOutput(0, 0, 0, ended, [(request, None) for request in ended])


def deliver(events: list[Event]) -> None:
    """Hand one step's events to the asyncio loops of their calls: one thread hop per loop and step, none when
    called on the loop itself (a worker process's pipe is read there)."""
    by_loop: dict[asyncio.AbstractEventLoop, list[Event]] = {}
    for event in events:
        sink = event[0].sink
        if sink is not None:
            by_loop.setdefault(sink.loop, []).append(event)
    here = _running_loop()
    for loop, batch in by_loop.items():
        try:
            if loop is here:
                loop.call_soon(_dispatch, batch)
            else:
                loop.call_soon_threadsafe(_dispatch, batch)
        except RuntimeError:  # the loop has closed: nobody is waiting for these events any more
            pass


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _dispatch(events: list[Event]) -> None:
    for request, token in events:
        if request.sink is not None:  # None once its call has ended (Call.events)
            request.sink.put(request, token)


class Engine:
    """One model: its workers, request placement and the all-or-nothing queue bound."""

    def __init__(self, workers: list["Worker | ProcessWorker"], limits: SchedulerLimits = SchedulerLimits(),
                 on_step: Callable[[StepOutput, "Engine"], None] | None = None):
        if not workers:
            raise ValueError("an engine needs at least one worker")
        self.workers = workers
        self.limits = limits
        self.on_step = on_step
        self._lock = threading.Lock()
        self._ids = itertools.count()

    @classmethod
    def in_threads(cls, runtimes: list[Runtime], limits: SchedulerLimits = SchedulerLimits(),
                   on_step: Callable[[StepOutput, "Engine"], None] | None = None) -> "Engine":
        """One worker thread per runtime."""
        name = runtimes[0].meta.name
        return cls([Worker(r, limits, f"engine-{name}-{i}") for i, r in enumerate(runtimes)], limits, on_step)

    @classmethod
    def in_processes(cls, spec: "WorkerSpec", count: int, limits: SchedulerLimits = SchedulerLimits(),
                     on_step: Callable[[StepOutput, "Engine"], None] | None = None) -> "Engine":
        """`count` worker processes, each building its runtime from spec."""
        name = ModelMeta.read(spec.model_dir).name
        return cls([ProcessWorker(spec, limits, f"engine-{name}-{i}") for i in range(count)], limits, on_step)

    @property
    def model(self) -> Model:
        """Metadata, limits and tokenizer of the model (every worker runs the same one); a process engine's
        is known once its first worker has started."""
        return self.workers[0].model

    @property
    def name(self) -> str:
        return self.model.meta.name

    def start(self) -> "Engine":
        for worker in self.workers:
            worker.start(self._stepped)
        return self

    def stop(self) -> None:
        for worker in self.workers:
            worker.stop()

    def queue_depth(self) -> int:
        return sum(w.waiting() for w in self.workers)

    def active_sequences(self) -> int:
        return sum(w.running() for w in self.workers)

    def cache_bytes(self) -> int:
        return sum(w.cache_bytes() for w in self.workers)

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
                 streams: Sequence[bool] = (), kept: Sequence[tuple[str, ...]] = ()) -> "Call":
        """Requests for one RPC whose events arrive on the running asyncio loop: sequence i's tokens are events
        where streams[i] says so, and kept[i] are the placeholder tokens its translation must hold (Request.kept)."""
        return Call(self, sources, options, deadline, streams, kept, f"r{next(self._ids)}")


class Call:
    """The sequences of one RPC and an async stream of their events."""

    def __init__(self, engine: Engine, sources, options: DecodingOptions, deadline: float | None,
                 streams: Sequence[bool], kept: Sequence[tuple[str, ...]], call_id: str):
        self.loop = asyncio.get_running_loop()
        self._events: asyncio.Queue = asyncio.Queue()
        self._wake: asyncio.Future | None = None  # set while a stream holds its pieces back (events(interval))
        self.engine = engine
        self.requests = [Request(f"{call_id}/{i}", ids, options, deadline, bool(streams) and streams[i], sink=self,
                                 kept=kept[i] if kept else ()) for i, ids in enumerate(sources)]
        self.index = {request: i for i, request in enumerate(self.requests)}
        self._closed = False

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

    async def events(self, interval: Callable[[], float] = lambda: 0.0) -> AsyncIterator[list[tuple[int, Request, int | None]]]:
        """Yields the events that have arrived, in order, as lists: (sequence index, request, token) per streamed
        token and (index, request, None) once per finished request. A reader that falls behind the engine gets
        several steps' events at once; token events are also held until interval() seconds (asked anew each
        time: it may follow the load) after the previous list (the first list and any list with a finished
        request go at once), so that a stream sends a few larger messages instead of one per token."""
        pending, last = len(self.requests), -float("inf")
        try:
            while pending:
                batch = self._drain([await self._events.get()])
                remaining = last + interval() - self.loop.time()
                if remaining > 0 and all(token is not None for _, token in batch):
                    await self._until_finished_or(remaining)
                    batch = self._drain(batch)
                pending -= sum(token is None for _, token in batch)
                last = self.loop.time()
                yield [(self.index[request], request, token) for request, token in batch]
        finally:
            self.close()

    def close(self) -> None:
        """End the call: requests that have not finished are aborted (the RPC went away: cancelled, deadline,
        error), freeing their slots, and no event reaches it any more. Idempotent; events() calls it, and so must an
        RPC that can end before it iterates them (a stream cancelled while sending its opening pieces)."""
        if self._closed:
            return
        self._closed = True
        self.engine.abort(self.requests)  # only those not finished
        for request in self.requests:  # each request's sink is this call: a cycle that only the GC would free
            request.sink = None


def warm_up(runtime: Runtime) -> None:
    """Run the graphs once at a few shapes so the first request does not pay for initialisation."""
    for batch in (1, 8):
        decode(runtime, [runtime.tokenizer.encode("Where is the station?")] * batch, DecodingOptions(8, 8))


# -- worker processes ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class WorkerSpec:
    """What a worker process needs to build its runtime (it crosses to a spawned process)."""

    model_dir: Path
    precision: str = "fp32"
    device: str = "cpu"
    threads: int = 1
    alignment_layer: int = -1
    warmup: bool = True

    def runtime(self) -> Runtime:
        """The worker's runtime, warmed up unless the spec says not to (a worker thread's and a process's alike)."""
        runtime = Runtime(self.model_dir, precision=self.precision, device=self.device, threads=self.threads,
                          alignment_layer=self.alignment_layer)
        if self.warmup:
            warm_up(runtime)
        return runtime


# Set when the interpreter exits: worker processes end with it and are not replaced. Registered after
# multiprocessing's own exit handler (multiprocessing.util registers it on import), so it runs first: atexit runs
# handlers last in, first out, and multiprocessing's terminates the worker processes.
_EXITING = threading.Event()
atexit.register(_EXITING.set)


# A worker process holding sequences sends a message every step (milliseconds; the longest, encoding a full
# token budget in fp32, well under a second here). One silent this long while it holds sequences is presumed hung
# (a deadlock, a stopped process): it is killed and replaced like one that died, and its calls fail with INTERNAL
# instead of waiting for their deadlines, or forever.
STALL_SECONDS = 60.0
RESULT_FIELDS = ("status", "finish_reason", "output_ids", "hypotheses", "scheduled_time", "first_token_time",
                 "finish_time", "greedy_defects")
# Worker processes ask glibc to back its large blocks (ONNX Runtime's weights and buffers: ~90 MB of each worker of
# the shipped model) with transparent huge pages where the kernel's THP mode is `madvise` (a common default;
# `always` needs nothing, `never` ignores it, and so does a glibc older than 2.35): a decoder step then misses the
# TLB less. On 2 Intel Xeon cores: the engine alone 2-4% less CPU per token in fp32, 0-3% in int8; served at 64
# clients (median of five same-round pairs) fp32 +4.0% tokens/s streaming and +6.8% unary, int8 +0.2% / +1.2%;
# 6 MB more memory per worker. glibc reads its tunables only when a process starts, hence the environment.
HUGE_PAGES_TUNABLE = "glibc.malloc.hugetlb=1"
_environment_lock = threading.Lock()


@contextlib.contextmanager
def worker_environment() -> Iterator[None]:
    """Processes started inside this block get HUGE_PAGES_TUNABLE in their GLIBC_TUNABLES, unless that already
    says what glibc.malloc.hugetlb should be (the operator's choice wins); this process's environment is as before
    afterwards."""
    with _environment_lock:
        previous = os.environ.get("GLIBC_TUNABLES")
        if previous is None or "glibc.malloc.hugetlb=" not in previous:
            os.environ["GLIBC_TUNABLES"] = f"{previous}:{HUGE_PAGES_TUNABLE}" if previous else HUGE_PAGES_TUNABLE
        try:
            yield
        finally:
            if previous is None:
                os.environ.pop("GLIBC_TUNABLES", None)
            else:
                os.environ["GLIBC_TUNABLES"] = previous


def _process_main(conn, spec: WorkerSpec, limits: SchedulerLimits) -> None:
    """A worker process: a scheduler over its own runtime, stepped on this process's only thread. Commands
    arrive on conn and are read between steps (blocking only while there is nothing to decode), so a submission
    to a busy process finds no sleeping reader to wake: on this VM a pipe write that wakes a reader costs the
    server's event loop ~50 µs more than one that does not. Each step goes back as one message (`_report`)."""
    detach_from_server()  # if the server dies, the pipe closes and the loop below ends
    try:
        runtime = spec.runtime()
    except Exception as error:
        # The server then says why it cannot start (a precision not exported, an alignment layer out of range), not
        # only that this process exited; the traceback still goes to the log.
        conn.send(str(error) or type(error).__name__)
        raise
    # The server bounds the queue over all workers before it sends anything; here every request it sent is taken.
    scheduler = dataclasses.replace(limits, max_queue_size=sys.maxsize).scheduler(runtime)
    received = 0  # sequences taken so far: tells the server which of its submissions a report's queue includes
    conn.send((runtime.info, runtime.has_alignments))  # ready: what the server's ServedModel reports
    try:
        while True:
            while conn.poll(0 if scheduler.has_work() else None):
                command, argument = conn.recv()
                if command == "submit":
                    received += len(argument)
                    refused = _submit(scheduler, argument)
                    if refused:
                        _report(conn, refused, scheduler, received)
                elif command == "abort":
                    scheduler.abort_request(*argument)
                else:
                    return
            _report(conn, execute(scheduler, scheduler.schedule()), scheduler, received)
    except (EOFError, BrokenPipeError):  # the server went away
        pass


def _submit(scheduler: Scheduler, requests: list[Request]) -> StepOutput | None:
    """Queue requests in a worker process; where the scheduler refuses them (the server checks the same bounds
    first, so only a defect gets here), fail them alone, as a thread worker's caller would, not the process and
    every sequence it holds. Returns the refusal as a step to report, or None."""
    try:
        scheduler.add_request(requests)
        return None
    except ValueError:
        log.exception("a worker process refused %d sequences the server sent; failing them", len(requests))
        now = scheduler.clock()
        for request in requests:
            request.finish(FinishReason.ERROR, now)
        return StepOutput(0, 0, 0, requests, [(request, None) for request in requests])


def _report(conn, step: StepOutput, scheduler: Scheduler, received: int) -> None:
    """Send the server one step: its events by request id, its finished requests' results, its counts and the
    queue (received: the sequences taken so far, which tells the server which submissions the queue includes)."""
    conn.send(([(request.request_id, token) for request, token in step.events],
               [(request.request_id, [getattr(request, f) for f in RESULT_FIELDS]) for request in step.finished],
               (step.batch_size, step.batched_tokens, step.admitted),
               (len(scheduler.waiting), received, scheduler.pool.size, scheduler.cache_bytes)))


class ProcessWorker:
    """A worker in a process of its own (spawned: no gRPC or event-loop state crosses). Requests cross as copies;
    the event loop that started it reads the process's pipe (``add_reader``: a step's message wakes the loop
    directly, not a reader thread that would then wake the loop), applies each step's results to the originals,
    hands the events to their calls and the step to on_step. If the process dies, the requests it held fail
    (ERROR) and a new process takes its place; requests submitted meanwhile go to the new one."""

    def __init__(self, spec: WorkerSpec, limits: SchedulerLimits, name: str):
        self.spec, self.limits, self.name = spec, limits, name
        self.on_step: Callable[[StepOutput], None] = lambda step: None
        self._open: dict[str, Request] = {}  # submitted and not finished, by id
        self._send_lock = threading.Lock()  # submit and abort come from the event loop, stop and restarts from elsewhere
        self._waiting = self._running = self._cache_bytes = 0  # as of the last step
        self._submitted = self._received = 0  # sequences sent to this process; of those, taken as of the last step
        self._stopping = False
        self._stalled = False  # the watchdog killed the process: its replacement is counted as "stalled"
        self._conn = self._process = None
        self.model: ServedModel | None = None  # from the first process's report that it is ready
        self._heard = time.monotonic()  # when the process last sent a step, or became busy
        self._loop: asyncio.AbstractEventLoop | None = None  # reads the pipe

    def start(self, on_step: Callable[[StepOutput], None]) -> None:
        self._loop = _running_loop()
        if self._loop is None:
            raise RuntimeError("a worker process is started from the event loop that serves its calls: that loop reads its pipe")
        self.on_step = on_step
        self._spawn()
        threading.Thread(target=self._watch, name=f"{self.name}-watchdog", daemon=True).start()

    def _spawn(self) -> None:
        """Start a process, wait until it is ready, and hand it what is open (nothing, the first time)."""
        context = multiprocessing.get_context("spawn")
        conn, child = context.Pipe()
        process = context.Process(target=_process_main, args=(child, self.spec, self.limits),
                                  name=self.name, daemon=True)
        with worker_environment():
            process.start()
        child.close()
        try:
            ready = conn.recv()  # (info, has_alignments), or why the process could not start
        except EOFError:
            ready = None
        if not isinstance(ready, tuple):
            process.join(5)  # before its exit code is read: it may still be exiting
            why = ready or f"it exited (code {process.exitcode}); its error is in the server's log"
            raise RuntimeError(f"engine worker process {self.name} could not start: {why}")
        info, has_alignments = ready
        if self.model is None:
            self.model = ServedModel(self.spec.model_dir, info, has_alignments)
        with self._send_lock:  # requests submitted while no process ran were sent nowhere: send them now
            if self._stopping:  # stop() came while this replacement started: it would outlive the server
                process.kill()
                conn.close()
                return
            self._conn, self._process, self._heard = conn, process, time.monotonic()
            self._submitted, self._received, self._waiting = len(self._open), 0, 0
            if self._open:
                conn.send(("submit", list(self._open.values())))
        self._loop.call_soon_threadsafe(self._loop.add_reader, conn.fileno(), self._read, conn)  # from a restart's thread too

    def _watch(self) -> None:
        """Kill the process if it holds sequences and has sent nothing for STALL_SECONDS: presumed hung. Its
        reader then sees the pipe close and replaces it, as for a process that died."""
        while not self._stopping:
            time.sleep(STALL_SECONDS / 10)
            silent = time.monotonic() - self._heard
            if self._open and silent > STALL_SECONDS:
                log.error("engine worker process %s sent nothing for %.0f s while holding %d sequences; killing it",
                          self.name, silent, len(self._open))
                self._heard = time.monotonic()  # once per stall
                self._stalled = True
                self.kill()

    def stop(self) -> None:
        self._stopping = True
        self._send(("stop", None))
        self._process.join(timeout=30)
        if self._process.is_alive():
            self._process.kill()

    def kill(self) -> None:
        """End the process at once, as a crash would (the watchdog's remedy; the tests' way to check replacement)."""
        self._process.kill()

    def load(self) -> int:
        return len(self._open)

    def waiting(self) -> int:
        """The queue as of the last step, plus what was sent after it (exact or above: the bound holds)."""
        return self._waiting + self._submitted - self._received

    def running(self) -> int:
        return self._running

    def cache_bytes(self) -> int:
        return self._cache_bytes

    def submit(self, requests: list[Request]) -> None:
        with self._send_lock:
            if not self._open:  # idle until now: the stall clock starts here
                self._heard = time.monotonic()
            for request in requests:
                self._open[request.request_id] = request
            self._submitted += len(requests)
            self._send_locked(("submit", requests))

    def abort(self, request_ids: list[str]) -> None:
        self._send(("abort", request_ids))

    def _send(self, message) -> None:
        with self._send_lock:
            self._send_locked(message)

    def _send_locked(self, message) -> None:
        try:
            self._conn.send(message)
        except OSError:  # the process died: its reader fails what it held and starts another, which gets the rest
            pass

    def _read(self, conn) -> None:
        """On the event loop, when the pipe is readable: apply the next step the process has sent (the loop calls
        again while more are waiting; asking conn.poll() first cost ~5 µs twice per message). When the pipe has
        closed (the process ended), stop reading it and, unless the server is stopping, replace the process in a
        thread (starting one takes seconds)."""
        try:
            message = conn.recv()
            self._heard = time.monotonic()
            self._apply(*message)
        except (EOFError, OSError):
            self._loop.remove_reader(conn.fileno())
            conn.close()
            if not (self._stopping or _EXITING.is_set()):
                threading.Thread(target=self._replace, name=f"{self.name}-restart", daemon=True).start()

    def _apply(self, events, results, counts, gauges) -> None:
        """One step of the process: results onto the original requests, events to their loops, the step to on_step."""
        open_requests = self._open
        step_events = [(open_requests[request_id], token) for request_id, token in events if request_id in open_requests]
        finished = []
        for request_id, values in results:
            request = open_requests.pop(request_id, None)
            if request is not None:
                for field, value in zip(RESULT_FIELDS, values):
                    setattr(request, field, value)
                finished.append(request)
        self._waiting, self._received, self._running, self._cache_bytes = gauges
        deliver(step_events)
        self.on_step(StepOutput(*counts, finished, step_events))

    def _replace(self) -> None:
        """The process died: fail what it held (it may have been the cause), start another."""
        with self._send_lock:
            failed, now = list(self._open.values()), time.monotonic()
            self._open.clear()
            self._waiting = self._running = self._cache_bytes = self._submitted = self._received = 0
        self._process.join(5)
        log.error("engine worker process %s exited (code %s); %d sequences failed; starting a new one", self.name,
                  self._process.exitcode, len(failed))
        for request in failed:
            request.finish(FinishReason.ERROR, now)
        events = [(request, None) for request in failed]
        deliver(events)
        reason, self._stalled = ("stalled" if self._stalled else "exited"), False
        self.on_step(StepOutput(0, 0, 0, failed, events, replaced=reason))
        while not self._stopping:
            try:
                self._spawn()
                return
            except Exception:  # noqa: BLE001 - keep trying: requests wait for a worker rather than fail
                log.exception("engine worker process %s could not start; retrying in 5 s", self.name)
                time.sleep(5)
