"""Where the server prepares a request's texts (translator.text: sentences, placeholders, token ids), and the bound
on how long that may take. Python's `re` holds the GIL while it matches, so a pattern that backtracks without end on
some text froze the whole server once (every RPC, health checks and metrics; tests/test_patterns.py holds every
pattern to a scan since): here no text can again hold the server for longer than its bound.

A small request is prepared on the event loop, where handing it to another process would cost more than the work,
and SIGALRM interrupts it at its bound (`re` checks for signals while it matches). A large one is prepared in a
process of its own: its tens of milliseconds per text no longer hold the GIL every other RPC needs, and at its bound
that process is killed (a thread cannot be interrupted) and another started for the next request."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import signal
import threading
import traceback
from pathlib import Path
from typing import Callable, TypeVar

from service.model import Model
from service.processes import detach_from_server
from translator import lexicon
from translator.glossary import Glossary
from translator.text import Prepared, segment_texts

T = TypeVar("T")

# Requests with more characters are prepared in the preparer process: 4,096 characters of prose take ~2 ms, the
# slowest text ~0.1 s, and the round trip to the process adds ~0.5 ms.
LARGE_REQUEST_CHARS = 4096
# The bound: 2 s, and 100 µs more per character: ~4x the slowest text per character measured (Markdown emphasis
# around every word, 24.7 µs per character at 32,000 characters on a 2-core build machine, `translator bench text`;
# prose 0.5 µs). A request at the limits (64 texts of 32,768 characters) may take 3.5 minutes; one prepared on the
# event loop holds it for at most 2.4 s (the slowest such text takes ~0.1 s).
BOUND_SECONDS, BOUND_SECONDS_PER_CHAR = 2.0, 100e-6


def bound_seconds(chars: int) -> float:
    return BOUND_SECONDS + chars * BOUND_SECONDS_PER_CHAR


class TooSlow(Exception):
    """The work took longer than its bound and was stopped."""

    def __init__(self, seconds: float):
        super().__init__(f"stopped after {seconds:.1f} s")
        self.seconds = seconds


_bound: float | None = None  # while the main thread's work is bounded (`within`): its bound, which SIGALRM ends
_handling_alarms = False  # whether `within` has installed its SIGALRM handler (asking signal.getsignal costs ~2 µs)


def _on_alarm(signum, frame) -> None:
    if _bound is not None:
        raise TooSlow(_bound)


def within(seconds: float, work: Callable[..., T], *args) -> T:
    """work(*args), stopped by TooSlow once it has run `seconds` (wall clock). Only the main thread can be
    interrupted (Python runs signal handlers there); elsewhere the work runs unbounded. The process's SIGALRM is
    this function's: its handler stays installed once set, since put back between calls, an alarm already on its way
    would meet the default action, which ends the process."""
    global _bound, _handling_alarms
    if threading.current_thread() is not threading.main_thread():
        return work(*args)
    if not _handling_alarms:
        signal.signal(signal.SIGALRM, _on_alarm)
        _handling_alarms = True
    _bound = seconds
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        return work(*args)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        _bound = None


@functools.cache
def _model(model_dir: Path) -> Model:
    """In the preparer process: a served model's tokenizer and limits, read once."""
    return Model(model_dir)


def segment_in_process(model_dir: Path, texts: list[str], preserve_placeholders: bool, html: bool,
                       take_out_tags: bool, glossary: Glossary | None) -> tuple[list[Prepared], list[list[int]]]:
    """segment_texts for a model of the server's, as the preparer process runs it."""
    model = _model(model_dir)
    return segment_texts(texts, model.tokenizer, model.limits, preserve_placeholders, html, take_out_tags, glossary)


def _serve(conn) -> None:
    """The preparer process: runs each job it receives and sends back its result, or the traceback of its failure."""
    detach_from_server()
    lexicon.load()  # the word lists the text pipeline reads (0.4 s): before the first job, whose bound they would spend
    conn.send("ready")
    try:
        while True:
            job, args = conn.recv()
            try:
                outcome = ("done", job(*args))
            except Exception:  # noqa: BLE001 - the server answers INTERNAL and logs it; the next job still runs
                outcome = ("failed", traceback.format_exc())
            conn.send(outcome)
    except (EOFError, BrokenPipeError):  # the server went away
        pass


class Preparer:
    """Prepares the texts of a server's requests within their bound (see the module's docstring). The preparer
    process takes one request at a time; it starts with the first large request, and again after a kill."""

    def __init__(self, job: Callable = segment_in_process):
        self.job = job  # what the process runs: segment_in_process, or a test's stand-in
        self._turn = asyncio.Lock()
        self._process = self._conn = None

    async def prepare(self, model: Model, texts: list[str], preserve_placeholders: bool, html: bool,
                      glossary: Glossary | None = None) -> tuple[list[Prepared], list[list[int]]]:
        """segment_texts(texts) for a served model (its tokenizer, limits and whether it has alignments, which take
        inline elements' tags out of the sentences); TooSlow past their bound."""
        chars = sum(map(len, texts))
        seconds = bound_seconds(chars)
        if chars <= LARGE_REQUEST_CHARS:
            return within(seconds, segment_texts, texts, model.tokenizer, model.limits, preserve_placeholders, html,
                          model.has_alignments, glossary)
        async with self._turn:
            return await self._in_process((model.model_dir, texts, preserve_placeholders, html, model.has_alignments,
                                           glossary), seconds)

    async def _in_process(self, args: tuple, seconds: float):
        conn = await self._started()
        try:
            outcome, value = await asyncio.wait_for(asyncio.to_thread(_exchange, conn, (self.job, args)), seconds)
        except TimeoutError:
            self.stop()
            raise TooSlow(seconds) from None
        except asyncio.CancelledError:  # the call ended (its deadline, or the client): nobody waits for the work
            self.stop()
            raise
        except (EOFError, OSError):
            self.stop()
            raise RuntimeError("the text preparer process exited while preparing a request") from None
        if outcome == "failed":
            raise RuntimeError(f"preparing the texts failed in the preparer process:\n{value}")
        return value

    async def _started(self):
        """The preparer process's end of the pipe, after starting the process if none runs (or it died while idle:
        the OOM killer may pick it)."""
        if self._process is not None and not self._process.is_alive():
            self.stop()
        if self._process is None:
            context = multiprocessing.get_context("spawn")  # no gRPC or event-loop state crosses
            self._conn, child = context.Pipe()
            self._process = context.Process(target=_serve, args=(child,), name="text-preparer", daemon=True)
            self._process.start()
            child.close()
            try:
                await asyncio.to_thread(self._conn.recv)  # "ready"
            except EOFError:
                self.stop()
                raise RuntimeError("the text preparer process could not start; the server's log has why") from None
            except asyncio.CancelledError:  # the call ended first: left running, its "ready" would answer the next job
                self.stop()
                raise
        return self._conn

    def stop(self) -> None:
        """End the process (it holds nothing but the work under way); the next large request starts another. The
        pipe closes with its last reference: a thread still reading it sees it end, never a later pipe that took
        its file descriptor."""
        if self._process is not None:
            self._process.kill()
            self._process.join(5)
            self._process = self._conn = None


def _exchange(conn, message):
    """On a thread: send a job to the preparer process and wait for its outcome."""
    conn.send(message)
    return conn.recv()
