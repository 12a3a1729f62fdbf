"""Continuous (iteration-level) batching, and the only decoding loop outside PyTorch.

New requests are encoded and join the running rows at the next step; finished, aborted and expired
ones leave at once and free their slot(s): a beam search holds one row per beam. Greedy, beam and sampling
requests share every step. Per-row state lives in the runtime's ``SlotPool``, and each step updates it for
all rows together in one pass of the pool's kernel (C: after a decoder run every numpy operation pays tens
of microseconds of cache misses); Python touches only rows that join, stream a token or finish, and the rows
of requests that sample, search a beam (service.beam), keep scores or keep alignments.

Synchronous and transport-agnostic. The engine thread calls ``schedule()`` (under its lock) and
``execute()``; ``run()`` drives the same loop to completion for callers without a server (the
``Translator``, the export parity check, benchmarks and warm-up). The runtime needs only
``new_pool(slots)``, ``encode(sources)``, ``step(pool) -> (logits, alignments or None)`` and ``special.eos``;
its step writes the logits into ``pool.logits`` (returning a view of them) and advances the rows' lengths.
"""

from __future__ import annotations

import enum
import re
import time
from collections import Counter, deque
from dataclasses import dataclass, field, replace
from typing import Any, Callable, NamedTuple

import numpy as np

from service.beam import BeamSearch, stack_rows
from service.decoding import (MAX_REPEAT_PERIOD, DecodingOptions, FinishReason, Hypothesis, log_softmax,
                              normalized_score, sample_token)
from service.runtime import ALIGNED, BEAM, SAMPLED, SCORED, STREAMING, UNREPEATED
from translator.markup import TOKEN_LIKE

# A greedy translation of fewer tokens than this share of its source's (of SHORT_SOURCE_TOKENS or more) is short: the
# model stopped early ("Java servlet engine and webserver" came back as "Java-Server"), and it is decoded again with
# beams (Scheduler.retry_beams). German takes about as many tokens as English (the held-out test sentences'
# references 1.02 per source token, 74 of 2,142 under half); of their greedy translations 215 were under half, chrF
# 38.71 -> 43.41 on them with 4 beams' best.
SHORT_TRANSLATION = 0.5
SHORT_SOURCE_TOKENS = 4
# A translation that says a run of words twice in a row where its source says none twice lost its place ("... mit
# Empire-Befehlen mit Empire-Befehlen zu verwenden", "Agent-Code-Basis-Code-Basis", "die es einfach einfach macht"),
# and it is decoded again with beams too (suppress_repeats stops a third copy, not a second). A run of at most
# MAX_REPEATED_WORDS words; a lone word of MIN_REPEATED_LETTERS or more, for German says "die die" ("Dateien, die die
# Anwendung liest"). Of two samples of 1,500 held-out package descriptions 148 and 162 paragraphs had one.
# A run of two words or more is said again as well where its words differ by their endings alone ("und Videos von
# Kameras und Videos von Kamera", "eine neue Version von einer neuen Version von", "mit kommerziellen Wiedergabe mit
# kommerzielle Wiedergaben": German inflects a word it repeats; `inflected_alike`): 41 of 11,051 held-out texts had
# such a run and no exact one, each a loop.
MAX_REPEATED_WORDS = 7
MIN_REPEATED_LETTERS = 4
MAX_ENDING_LETTERS = 2  # what German adds to a word's stem: -e, -n, -s, -en, -er, -es, -em
WORD = re.compile(r"\w+")
# So is a full stop said twice ("..", not "..."): the model wrote one after an abbreviation's ("B.A.T.M.A.N..",
# "usw..") or lost its place ("... will use deltas to upgrade the host." came back as "... verwendet d..", with beams
# "... verwendet Deltas, um den Rechner zu aktualisieren."), and so is a full stop after "..." ("Saving the file...
# this may take a while." came back as "Die Datei wird gespeichert.... Das kann ...", "(1st, 2nd, 3rd...)" as "(1.,
# 2....)"): a run of dots other than three.
STRAY_DOTS = re.compile(r"(?<!\.)(?:\.\.|\.{4,})(?!\.)")
# A translation that ends otherwise than its source, where the source ends in a question or exclamation mark, a colon
# or "...", lost its last words ("Wait... what?" came back as "Warten...", with beams "Warten... was?"). So where it
# ends in a full stop after a word of 4 letters or more ("She is an icon of women's soccer." came back as "Sie ist ein
# Symbol von Frauen"; 5 of the 536 held-out test and validation sentences that end so came back ending in a word, and
# each one's reference ends in a full stop); not after a shorter one, which may be an abbreviation's ("jdm. etw.
# geben" for "give sth. to sb."); a translation may end in a short word's ("Es hängt davon ab.").
CLOSING_MARK = re.compile(r"(\.\.\.|[?!:.])[\"'”’“»«)\]]*\s*\Z")
SENTENCE_WORD_LETTERS = 4  # a full stop after a word of this many letters or more ends a sentence
# Brackets a translation says as often as its source: the model closed one less ("Syntax: scdaemon [options] [command
# [args]]" came back as "... [Befehl [Argumente]"; 20 of 1,770 held-out catalog messages with brackets balanced lost
# one, their references 3) or lost a parenthesis's words ("(Remote Procedure Calls using ...)" as "(Remote)
# Prozeduranrufe ...)").
BRACKETS = "()[]{}"
# A number (a run of digits, not a placeholder token's) a translation lacks or says more often than its source is
# lost or garbled as a code is ("32-bit binary loader" came back as "binärer", "GDome2" as "GDome22").
NUMBER = re.compile(rf"{TOKEN_LIKE}|(\d+)")
# So is a number said in words that the translation says neither in German nor in digits ("She has been working here
# for ten years" came back as "Sie arbeitet seit Jahren ...", "provides seven variations" as "bietet sich seven
# Variationen"). Not "one", a pronoun as often. German's words are found inside others too ("zwei" in "zweite", "acht"
# in "beachten"): a translation that may say the number is not retried for it. On 700 paragraphs each of held-out
# package descriptions, catalog messages and AppStream descriptions and the test and validation sets, in process: 10
# of 6,381 translations change, 8 closer to their reference ("A picture is worth a thousand words.": "Ein Bild ist
# schickerlich schick." -> "Ein Bild werttausende Worte."), 2 further by 0.2 and 0.6 chrF.
NUMBER_WORDS = {english: re.compile(german) for english, german in {
    "two": "zwei|2", "three": "drei|3", "four": "vier|4", "five": "fünf|5", "six": "sechs|6", "seven": "sieben|7",
    "eight": "acht|8", "nine": "neun|9", "ten": "zehn|10", "eleven": "elf|11", "twelve": "zwölf|12",
    "twenty": "zwanzig|20", "thirty": "dreißig|30", "hundred": "hundert|100", "hundreds": "hundert",
    "thousand": "tausend|1000|1\\.000", "thousands": "tausend", "million": "million", "millions": "million",
    "dozen": "dutzend|12", "dozens": "dutzend"}.items()}
NUMBER_WORD = re.compile(rf"\b(?:{'|'.join(NUMBER_WORDS)})\b", re.IGNORECASE)
# A word of the source that the translation's cross-attention (the alignment layer's, summed over its tokens) gave
# less than this (the default of `--uncovered-attention`) was likely left out ("Keep and manage all your chat history"
# came back as "Alle Ihren Chat-Verlauf behalten", now "... behalten und verwalten"; "He forgot his keys at home again."
# as "Er hat ihnen wieder zu Hause vergessen."), and the sentence is decoded again with beams, ranked by such words
# right after lost placeholders. A word of UNCOVERED_WORD_LETTERS letters or more, no FUNCTION_WORDS (which German may
# fold into another word). On 700 paragraphs each of held-out package descriptions, catalog messages and AppStream
# descriptions, in process: at 0.7 chrF 57.18 -> 57.82, 58.37 -> 58.66, 52.45 -> 52.93, in 1.27-1.51x the time; at
# 0.3 +0.10-0.14 in 1.0-1.08x; 4 beams for every sentence gained less on two of the three (+0.55, +0.14, +0.59) in
# 2.8-2.9x. Served, on the whole sets: 0.5 +0.28-0.41 chrF in 1.11-1.19x the batch jobs' time, 0.7 +0.37-0.67 in
# 1.35-1.51x (docs/performance.md, "Words left out").
UNCOVERED_ATTENTION = 0.5
UNCOVERED_WORD_LETTERS = 3
# A source of fewer words is a term more often than a sentence, whose German compound takes each word's attention where
# it reads its part ("gas-fired boilers", "Gaskessel", came back from the beams as "Gasdampferhitzer"): of the held-out
# dictionary pairs (test / validation) at 0.7 chrF 43.29 / 43.09 -> 43.37 / 43.00 with every source, 43.57 / 43.36
# from 4 words, 43.51 / 43.34 from 6
UNCOVERED_MIN_WORDS = 4
FUNCTION_WORDS = frozenset("the a an and or of to in on for with by is are be as at it its this that from can you your "
                           "which will not".split())


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
    options: DecodingOptions  # validated
    deadline: float | None = None  # time.monotonic() by which it must finish
    stream: bool = False  # every generated token is an event (else only the end is)
    sink: Any = None  # where an engine delivers this request's events
    status: RequestStatus = RequestStatus.WAITING
    output_ids: list[int] = field(default_factory=list)  # filled when it finishes: the best hypothesis' ids
    hypotheses: list[Hypothesis] = field(default_factory=list)  # filled when it finishes, best first
    finish_reason: FinishReason | None = None
    arrival_time: float = field(default_factory=time.monotonic)
    scheduled_time: float | None = None
    first_token_time: float | None = None
    finish_time: float | None = None
    search: BeamSearch | None = None  # beam_size > 1, from joining to finishing
    rng: np.random.Generator | None = None  # sampling
    attention: list[np.ndarray] | None = None  # per generated token (return_alignments without beam search)
    # what its translation must hold (Scheduler.retry_beams): placeholder tokens ("XX0X"), codes its source reads
    kept: tuple[str, ...] = ()
    # its greedy translation's defects (`Defects`), where it had one and was decoded again with beams (`_mended`)
    greedy_defects: "Defects | None" = None

    @property
    def retried(self) -> bool:
        return self.greedy_defects is not None

    @property
    def rows(self) -> int:
        """Slot-pool rows it occupies: one per beam."""
        return self.options.beam_size

    def finish(self, reason: FinishReason, now: float) -> None:
        self.status, self.finish_reason, self.finish_time = RequestStatus.FINISHED, reason, now

    def __getstate__(self) -> dict:
        """A copy sent to a worker process leaves its sink (an asyncio-bound object) behind."""
        return self.__dict__ | {"sink": None}


Event = tuple[Request, "int | None"]  # a streamed token id, or None once the request finished


class WaitingQueue:
    """Waiting requests, in one FIFO per submission (an RPC's sentences on this worker), admitted round-robin
    across submissions: a request that arrives behind one of a thousand sentences joins after the first of those,
    not after all of them (as one FIFO, a one-sentence request waited 0.94 s behind 960 sentences). Within a
    submission, sentences join in order."""

    def __init__(self):
        self._groups: deque[deque[Request]] = deque()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def add(self, requests: list[Request]) -> None:
        if requests:
            self._groups.append(deque(requests))
            self._size += len(requests)

    def first(self) -> Request:
        """The request that pop() takes next."""
        return self._groups[0][0]

    def pop(self) -> Request:
        """Take the first request of the first submission, whose turn then passes to the next one."""
        group = self._groups.popleft()
        request = group.popleft()
        self._size -= 1
        if group:
            self._groups.append(group)
        return request

    def remove(self, unwanted: Callable[[Request], bool]) -> list[Request]:
        """Take out every request that `unwanted` picks, in queue order."""
        removed, kept = [], deque()
        for group in self._groups:
            keep = deque()
            for request in group:
                (removed if unwanted(request) else keep).append(request)
            if keep:
                kept.append(keep)
        self._groups, self._size = kept, self._size - len(removed)
        return removed


@dataclass
class SchedulerOutput:
    admitted: list[Request]  # leave waiting, to be encoded and join the pool
    removed: list[Request]  # aborted or past their deadline, already finished
    removed_rows: list[int]  # pool rows of the removed requests that were running


@dataclass
class StepOutput:
    batch_size: int  # sequences in this decoder step
    batched_tokens: int  # decoder positions + newly encoded source tokens
    admitted: int
    finished: list[Request]
    events: list[Event]  # this step's events, in order
    replaced: str | None = None  # not a step: a worker process was replaced ("exited" or "stalled"), failing these


class Scheduler:
    def __init__(self, runtime, *, max_num_seqs: int = 64, max_num_batched_tokens: int = 4096,
                 max_queue_size: int = 1024, join_interval_steps: int = 1, retry_beams: int = 0,
                 uncovered_attention: float = UNCOVERED_ATTENTION, clock: Callable[[], float] = time.monotonic):
        self.runtime = runtime
        self.eos = runtime.special.eos
        self.pool = runtime.new_pool(max_num_seqs)
        self.max_num_seqs = max_num_seqs
        self.max_num_batched_tokens = max_num_batched_tokens
        self.max_queue_size = max_queue_size
        # While rows are decoding, waiting requests join at every join_interval_steps-th step, so that more of them
        # share an encoder run (on CPU a run costs ~7 source positions beyond its sentences); an idle pool takes
        # them at once.
        self.join_interval_steps = join_interval_steps
        self._steps_since_join = 0
        # A greedy translation with a defect (`Defects`: it lost a placeholder token of its segment, which the text
        # pipeline puts back at the end, "... manuell installieren: WordPress %2$s", a code or a number, or says one
        # twice; it says a run of words or a full stop twice; it says a bracket more or less often than its source or
        # ends otherwise; or it is short) is decoded again with this many beams (0 or 1: never, the default: the
        # export's parity check and the benchmarks decode greedily; the server and the Translator ask for 4). Of
        # 16,267 held-out texts (WordPress, Django, catalogs, Ding) 100 needed a token repaired, 69 with 4 beams, and
        # each corpus's texts that changed came closer to their references (docs/text-pipeline.md). Not a streaming
        # request: its tokens went out.
        self.retry_beams = retry_beams
        self.uncovered_attention = uncovered_attention  # 0: no word counts as left out
        # whether a step sums its rows' attention (SlotPool.coverage): only where a word left out can be retried
        self.counts_coverage = uncovered_attention > 0 and 1 < retry_beams <= max_num_seqs
        self.clock = clock
        self.waiting = WaitingQueue()
        self._aborted: set[str] = set()

    @property
    def running(self) -> list[Request]:
        return self.pool.requests[: self.pool.size]

    @property
    def cache_bytes(self) -> int:
        """K/V bytes held by running sequences."""
        return self.pool.bytes_in_use()

    def add_request(self, requests: list[Request]) -> None:
        """Queue all of requests or none of them."""
        if any(r.rows > self.max_num_seqs for r in requests):  # it could never join: refuse rather than block the queue
            raise ValueError(f"beam_size must not exceed the {self.max_num_seqs} rows of a decoder step")
        longest = self.runtime.limits.max_source_tokens
        for request in requests:  # the encoder's positions end there: it failed with "invalid index", and with it
            if len(request.source_ids) > longest:  # every sequence of its batch
                raise ValueError(f"request {request.request_id} is {len(request.source_ids)} tokens long and the model "
                                 f"reads at most {longest}: cut it (Translator.translate cuts long texts)")
        if len(self.waiting) + len(requests) > self.max_queue_size:
            raise QueueFull(f"the queue holds {len(self.waiting)} of at most {self.max_queue_size} waiting sequences; "
                            f"{len(requests)} more do not fit, retry later")
        self.waiting.add(requests)

    def abort_request(self, *request_ids: str) -> None:
        """Finish these requests (CANCELLED) at the next schedule(), wherever they are."""
        self._aborted.update(request_ids)

    def has_work(self) -> bool:
        return bool(self.waiting or self.pool.size)

    def run(self, requests: list[Request]) -> list[Request]:
        """Decode requests to the end in this thread; the same loop the engine thread runs."""
        self.add_request(requests)
        while self.has_work():
            self.execute(self.schedule())
        return requests

    # -- one iteration ------------------------------------------------------------------------------
    def schedule(self) -> SchedulerOutput:
        """Drop aborted and expired requests; admit waiting ones within the bounds."""
        now = self.clock()
        removed, removed_rows = [], []
        for row in self._rows_to_remove(now):
            request = self.pool.requests[row]
            if request.status is not RequestStatus.FINISHED:  # a beam request holds several rows
                request.finish(self._removal_reason(request, now), now)
                removed.append(request)
            removed_rows.append(row)
        if self._aborted:
            for request in self.waiting.remove(lambda r: r.request_id in self._aborted):
                request.finish(FinishReason.CANCELLED, now)
                removed.append(request)
            self._aborted.clear()
        rows = self.pool.size - len(removed_rows)
        self._steps_since_join += 1
        if rows and self._steps_since_join < self.join_interval_steps:
            return SchedulerOutput([], removed, removed_rows)
        self._steps_since_join = 0
        admitted, budget = [], self.max_num_batched_tokens - rows
        while self.waiting and rows + self.waiting.first().rows <= self.max_num_seqs:
            request = self.waiting.first()
            if request.deadline is not None and now >= request.deadline:
                self.waiting.pop().finish(FinishReason.DEADLINE, now)
                removed.append(request)
                continue
            cost = len(request.source_ids) + 1
            if admitted and cost > budget:  # an oversized request still runs alone rather than never
                break
            self.waiting.pop()
            request.status, request.scheduled_time = RequestStatus.RUNNING, now
            admitted.append(request)
            rows += request.rows
            budget -= cost
        return SchedulerOutput(admitted, removed, removed_rows)

    def _rows_to_remove(self, now: float) -> list[int]:
        rows = self.pool.kernel.expired(self.pool.size, now)
        if self._aborted:
            rows = sorted({*rows, *(i for i, r in enumerate(self.running) if r.request_id in self._aborted)})
        return rows

    def _removal_reason(self, request: Request, now: float) -> FinishReason:
        if request.request_id in self._aborted:
            return FinishReason.CANCELLED
        return FinishReason.DEADLINE

    def execute(self, output: SchedulerOutput) -> StepOutput:
        """Apply the schedule, run one decoder step over every running row, finish the rows that ended."""
        events: list[Event] = [(request, None) for request in output.removed]
        pool = self.pool
        if output.removed_rows:
            pool.free(output.removed_rows)
        batched_tokens = 0
        if output.admitted:
            self._join(output.admitted)
            batched_tokens += sum(len(r.source_ids) for r in output.admitted)
        if not pool.size:
            return StepOutput(0, batched_tokens, len(output.admitted), output.removed, events)
        batch_size = pool.size
        logits, attention = self.runtime.step(pool)
        now = self.clock()
        for request in output.admitted:  # every row emits a token at each step, so its first one is now
            request.first_token_time = now
        finished = self.update_from_output(logits, attention, events, now)
        return StepOutput(batch_size, batched_tokens + batch_size, len(output.admitted), output.removed + finished, events)

    def _join(self, requests: list[Request]) -> None:
        pool = self.pool
        copies = [r.rows for r in requests]
        rows = pool.join(self.runtime.encode([r.source_ids for r in requests]), requests, copies)
        for request in requests:
            options = request.options
            if options.beam_size > 1:
                request.search = BeamSearch(options, self.eos, aligned=request.retried)  # a retry ranks coverage
            elif options.return_alignments:
                request.attention = []
            if options.sampling:
                request.rng = np.random.default_rng(options.seed)
        per_row = lambda values: np.repeat(values, copies)  # noqa: E731
        limit = pool.output.shape[1]  # the model's limit: the tokens a row of the pool holds
        pool.max_tokens[rows] = per_row([r.options.max_tokens(len(r.source_ids), limit) for r in requests])
        pool.min_tokens[rows] = per_row([r.options.min_output_tokens for r in requests])
        pool.deadlines[rows] = per_row([np.inf if r.deadline is None else r.deadline for r in requests])
        pool.features[rows] = per_row([row_features(r) for r in requests])

    def update_from_output(self, logits: np.ndarray, attention: np.ndarray | None, events: list[Event],
                           now: float) -> list[Request]:
        """Choose every row's token (the kernel takes the greedy rows' argmax and records every single sequence's
        token; sampling rows draw theirs first, beam rows are their search's); stream tokens where asked; finished
        requests leave the pool."""
        pool, n, kernel = self.pool, self.pool.size, self.pool.kernel
        present = kernel.prepare(n, self.eos)  # what any row asks for beyond a greedy token; EOS blocked below minimum
        if present & UNREPEATED:
            self._suppress_repeats(n)
        if present & SAMPLED:
            for row in rows_with(pool.features[:n], SAMPLED).tolist():
                request = pool.requests[row]
                pool.last_tokens[row] = sample_token(logits[row], request.options, request.rng)
        done_rows, streamed = kernel.choose(n, self.eos, BEAM, SAMPLED, STREAMING)
        if present & SCORED:
            scored = rows_with(pool.features[:n], SCORED)  # a beam's search scores its own rows
            tokens, generated = pool.last_tokens[scored], pool.lengths[scored]
            pool.logprobs[scored, generated - 1] = log_softmax(logits[scored])[np.arange(scored.size), tokens]
        covered = attention is not None and self.counts_coverage
        if covered:
            pool.coverage[:n] += attention
        if present & ALIGNED and attention is not None:
            for row in rows_with(pool.features[:n], ALIGNED).tolist():
                request = pool.requests[row]
                request.attention.append(attention[row, : len(request.source_ids)].copy())
        events.extend((pool.requests[row], token) for row, token in streamed)
        finished = []
        for row in done_rows:
            request = pool.requests[row]
            self._finish_single(request, row, now)
            if defects := self._defects_to_mend(request, now, pool.coverage[row] if covered else None):
                self._decode_again_with_beams(request, defects)
                continue
            events.append((request, None))
            finished.append(request)
        if present & BEAM:
            beam_rows = np.flatnonzero(pool.features[:n] & BEAM)
            logprobs = np.empty_like(logits)  # rows of beams only: one log-softmax for all of them
            logprobs[beam_rows] = log_softmax(logits[beam_rows])
            for request, rows in self._beam_groups(beam_rows).items():
                if self._beam_step(request, rows, logprobs, attention, events, now):
                    events.append((request, None))
                    finished.append(request)
                    done_rows.extend(rows.tolist())
        if done_rows:
            pool.free(done_rows)
        return finished

    def _suppress_repeats(self, n: int) -> None:
        """A row whose tokens end in two copies of one block may not start a third, unless its source has that run
        (tokens copied, not translated: "VIII", "!!!"): a small model stuck in a loop ("ganz ganz ganz ganz ...") takes
        its next best token instead. Measured in the README ("Repeats"): it mends stutters inside words ("Akkkord")
        and cuts loops short."""
        pool = self.pool
        for row, period in pool.kernel.repeats(n, UNREPEATED, MAX_REPEAT_PERIOD):
            before = int(pool.lengths[row]) - 1  # tokens generated before this step's
            run = pool.output[row, before - 2 * period : before].tolist()
            run.append(run[0])
            if not occurs_in(run, pool.requests[row].source_ids):
                pool.logits[row, run[0]] = -np.inf

    def _finish_single(self, request: Request, row: int, now: float) -> None:
        """A greedy or sampled row's one hypothesis."""
        pool = self.pool
        generated, ended = int(pool.lengths[row]), int(pool.last_tokens[row]) == self.eos
        ids = pool.output[row, : generated - ended].tolist()
        logprobs = pool.logprobs[row, :generated].tolist() if pool.features[row] & SCORED else []
        score = normalized_score(sum(logprobs), len(logprobs), request.options.length_penalty) if logprobs else 0.0
        alignments = None if request.attention is None else stack_rows(request.attention[: len(ids)])
        reason = FinishReason.EOS if ended else FinishReason.LENGTH
        request.hypotheses = [Hypothesis(ids, reason, logprobs, score, alignments)]
        request.output_ids = ids
        request.finish(reason, now)

    def _defects_to_mend(self, request: Request, now: float, coverage: np.ndarray | None) -> "Defects | None":
        """A greedy translation's defects (`_defects`; coverage: its row's, `SlotPool.coverage`), where it ended with
        one and may be decoded again (not one cut at its length limit: a loop, whose beams would run as long; nor one
        whose deadline leaves less than twice the time its greedy decoding took, where the answer it has would likely
        be lost); else None."""
        if (request.retried or request.stream or request.options.sampling
                or request.finish_reason is not FinishReason.EOS or not 1 < self.retry_beams <= self.max_num_seqs
                or request.deadline is not None and request.deadline - now < 2 * (now - request.scheduled_time)):
            return None
        defects = self._defects(request, request.hypotheses[0], self._source_pieces(request), coverage)
        return defects if any(defects) else None

    def _defects(self, request: Request, hypothesis: Hypothesis, pieces: list[str], coverage: np.ndarray | None
                 ) -> "Defects":
        """What a translation of `request` gets wrong that a search can mend; `pieces`: its `_source_pieces`,
        `coverage`: the attention each received (none where the model has no alignments)."""
        ids, sources = hypothesis.token_ids, len(request.source_ids)
        source = "".join(pieces).replace("\u2581", " ")
        text = self.runtime.tokenizer.decode(ids)
        repeats = repeated_runs(text)
        if repeats and repeated_runs(source):
            repeats = 0  # "very, very" may come back as "sehr, sehr"
        # (a kept string counts once in a source whose pieces spell it otherwise)
        unkept = sum(not 0 < text.count(kept) <= max(1, source.count(kept)) for kept in request.kept)
        unkept += changed_numbers(text, source) + unsaid_number_words(text, source)
        uncovered = uncovered_words(pieces, coverage, self.uncovered_attention) if coverage is not None else 0
        return Defects(unkept, uncovered, repeats, misplaced_marks(text, source),
                       short=sources >= SHORT_SOURCE_TOKENS and len(ids) < SHORT_TRANSLATION * sources)

    def _source_pieces(self, request: Request) -> list[str]:
        """A request's source as the model reads it (placeholders as their tokens), piece by piece."""
        return self.runtime.tokenizer.pieces_of([i for i in request.source_ids if i != self.eos])

    def _decode_again_with_beams(self, request: Request, defects: "Defects") -> None:
        """Queue a finished greedy request again, as a beam search of `retry_beams` (it was accepted: no bound). Its
        greedy translation stays its `hypotheses` until the search ends (`_mended`), its `defects` the bar to mend."""
        request.greedy_defects, request.options = defects, replace(request.options, beam_size=self.retry_beams)
        request.status, request.finish_reason, request.finish_time = RequestStatus.WAITING, None, None
        request.attention = None  # a beam search keeps its alignments in its hypotheses
        self.waiting.add([request])

    def _mended(self, request: Request, search: BeamSearch) -> list[Hypothesis]:
        """A retried request's translation: the beams' best of the finished hypotheses that lack or double fewest
        strings of `Request.kept`, and of those, that leave out fewest words (`uncovered_words`), repeat least
        (`repeated_runs`), then misplace fewest marks (`misplaced_marks`), where it has fewer defects than the greedy
        one (`Defects`), else the greedy one: a retry that mends nothing changes nothing. Not ranked by shortness: a
        long hypothesis the beams scored low is no cure (so ranked, of 2,142 held-out test sentences 172 changed, 91
        closer to their German, 81 further; as here 61, 42 and 19). Against answering the beams' best: of the acronyms
        in 3,000 held-out package descriptions 138 lost, now 95; the 125 paragraphs that differ as close to their
        German (chrF 57.54 -> 57.75 and 54.39 -> 54.09). Against ranking by lost strings alone: the paragraphs of
        those descriptions left with a run of words said twice 58 and 52, now 30 and 28."""
        [greedy], pieces = request.hypotheses, self._source_pieces(request)
        found = ((self._defects(request, hypothesis, pieces, _coverage(hypothesis)), hypothesis)
                 for hypothesis in search.finished)
        defects, best = min(found, key=lambda pair: (*pair[0][:4], -pair[1].score))
        if defects >= request.greedy_defects:
            return [greedy]
        return [best if request.options.return_alignments else replace(best, alignments=None)]

    def _beam_groups(self, beam_rows: np.ndarray) -> dict[Request, np.ndarray]:
        """Each beam request's rows, in beam order."""
        groups: dict[Request, list[int]] = {}
        for row in beam_rows.tolist():
            groups.setdefault(self.pool.requests[row], []).append(row)
        return {request: np.array(sorted(rows, key=self.pool.beam_index.__getitem__)) for request, rows in groups.items()}

    def _beam_step(self, request: Request, rows: np.ndarray, logprobs: np.ndarray, attention: np.ndarray | None,
                   events: list[Event], now: float) -> bool:
        """Advance one beam request: its rows take the chosen parents' cache (only its own rows are copied) and
        their new tokens. True when it finished."""
        pool, search = self.pool, request.search
        generated = int(pool.lengths[rows[0]])
        keeps = attention is not None and search.attention is not None  # its hypotheses' alignments
        source = attention[rows, : len(request.source_ids)] if keeps else None
        step = search.step(logprobs[rows], pool.scores[rows], pool.output[rows, : generated - 1],
                           pool.logprobs[rows, : generated - 1], source, int(pool.max_tokens[rows[0]]))
        if step.done:
            request.hypotheses = self._mended(request, search) if request.retried else search.best()
            request.output_ids = request.hypotheses[0].token_ids
            request.finish(request.hypotheses[0].finish_reason, now)
            return True
        parents = rows[step.parents]
        moved = parents != rows  # a beam continuing itself keeps its row as it is
        if moved.any():
            targets, sources = rows[moved], parents[moved]
            for buffer in pool.self_kv:
                buffer[targets, :, :generated] = buffer[sources, :, :generated]
            pool.output[targets, : generated - 1] = pool.output[sources, : generated - 1]
            pool.logprobs[targets, : generated - 1] = pool.logprobs[sources, : generated - 1]
        pool.output[rows, generated - 1] = step.tokens
        pool.logprobs[rows, generated - 1] = step.token_logprobs
        pool.last_tokens[rows] = step.tokens
        pool.scores[rows] = step.scores
        if request.stream:
            events.extend((request, token) for token in search.agreed_prefix(pool.output[rows, :generated]))
        return False

    def fail_step(self, output: SchedulerOutput) -> list[Request]:
        """After execute(output) raised: finish every running or just admitted sequence with ERROR and free
        the pool, so that the next step starts clean. Returns those sequences."""
        now = self.clock()
        failed = [r for r in [*self.running, *output.admitted] if r.status is not RequestStatus.FINISHED]
        failed = list(dict.fromkeys(failed))  # an admitted request may already have joined
        for request in failed:
            request.finish(FinishReason.ERROR, now)
        self.pool.clear()
        return failed


class Defects(NamedTuple):
    """A translation's defects (`Scheduler._defects`), worst first: compared as a tuple, fewer is better."""

    unkept: int  # strings of `Request.kept`, numbers (NUMBER, NUMBER_WORDS) it lacks or says more often than its source
    uncovered: int  # words of its source its attention left out (`uncovered_words`)
    repeats: int  # runs of words or full stops said twice in a row (`repeated_runs`) where its source says none
    marks: int  # brackets said more or less often than in its source, an end unlike the source's (`misplaced_marks`)
    short: bool  # fewer tokens than SHORT_TRANSLATION of its source's


def uncovered_words(pieces: list[str], coverage: np.ndarray, least: float = UNCOVERED_ATTENTION) -> int:
    """How many words of a source's `pieces` (SentencePiece's: "\u2581" starts a word) got less than `least` of a
    translation's attention, `coverage` (per piece): words of UNCOVERED_WORD_LETTERS letters or more, no
    FUNCTION_WORDS, in a source of UNCOVERED_MIN_WORDS words or more."""
    count, word, attention, words = 0, "", 0.0, 0
    for piece, received in zip(pieces, coverage.tolist()):
        if piece.startswith("\u2581"):
            count += attention < least and _counted(word)
            word, attention, words = piece[1:], received, words + (len(piece) > 1)
        else:
            word, attention = word + piece, attention + received
    count += attention < least and _counted(word)
    return count if words >= UNCOVERED_MIN_WORDS else 0


def _counted(word: str) -> bool:
    return len(word) >= UNCOVERED_WORD_LETTERS and word.isalpha() and word.lower() not in FUNCTION_WORDS


def _coverage(hypothesis: Hypothesis) -> np.ndarray | None:
    """The attention each source piece received over a hypothesis's tokens; None without alignments."""
    return None if hypothesis.alignments is None else hypothesis.alignments.sum(axis=0)


def misplaced_marks(translation: str, source: str) -> int:
    """How many BRACKETS a translation says more or less often than its source, and 1 where it ends otherwise than
    its source, which ends in one of CLOSING_MARK's marks (a full stop: after a word, `sentence_end`)."""
    source_mark = sentence_end(source)
    return (sum(abs(translation.count(bracket) - source.count(bracket)) for bracket in BRACKETS)
            + (bool(source_mark) and closing_mark(translation) != source_mark))


def changed_numbers(translation: str, source: str) -> int:
    """How many numbers (NUMBER) a translation lacks or says more often than its source."""
    said, meant = (sorted(filter(None, NUMBER.findall(text))) for text in (translation, source))
    if said == meant:  # most translations: counted without building Counters (~8 us)
        return 0
    said, meant = Counter(said), Counter(meant)
    return sum(((said - meant) + (meant - said)).values())


def unsaid_number_words(translation: str, source: str) -> int:
    """How many of the NUMBER_WORDS its source says a translation says neither in German nor in digits."""
    said = {word.lower() for word in NUMBER_WORD.findall(source)}
    lowered = translation.lower() if said else ""
    return sum(NUMBER_WORDS[word].search(lowered) is None for word in said)


def sentence_end(source: str) -> str:
    """The mark a source ends in (`closing_mark`) that its translation must end in too: a full stop only after a word
    of SENTENCE_WORD_LETTERS letters or more ("" after an abbreviation's, "sth.")."""
    found = CLOSING_MARK.search(source)
    if not found:
        return ""
    word = source[max(0, found.start() - SENTENCE_WORD_LETTERS):found.start()]
    return found[1] if found[1] != "." or len(word) == SENTENCE_WORD_LETTERS and word.isalpha() else ""


def closing_mark(text: str) -> str:
    """The mark a text ends in, of CLOSING_MARK's, closing quotes and brackets aside; "" for any other end."""
    found = CLOSING_MARK.search(text)
    return found[1] if found else ""


def repeated_runs(text: str) -> int:
    """How many runs of at most MAX_REPEATED_WORDS words `text` says twice in a row, marks between them aside (a
    lone word: of MIN_REPEATED_LETTERS or more, said alike; a longer run: its words `inflected_alike`; a run of numbers
    alone is no repeat: "1.1.1.1"), and full stops (STRAY_DOTS)."""
    words = WORD.findall(text)
    runs = len(STRAY_DOTS.findall(text))
    for period in range(1, min(MAX_REPEATED_WORDS, len(words) // 2) + 1):
        same = 0  # words in a row like the word `period` before them
        for end, (word, later) in enumerate(zip(words, words[period:]), 1):
            same = same + 1 if word == later or period > 1 and inflected_alike(word, later) else 0
            if same == period:
                short_word = period == 1 and len(word) < MIN_REPEATED_LETTERS
                runs += not short_word and not all(w.isdigit() for w in words[end - period : end])
    return runs


def inflected_alike(word: str, other: str) -> bool:
    """Whether two words differ by an ending alone: the shorter, of MIN_REPEATED_LETTERS or more, starts the longer,
    which has at most MAX_ENDING_LETTERS more."""
    shorter, longer = sorted((word, other), key=len)
    return (len(shorter) >= MIN_REPEATED_LETTERS and len(longer) - len(shorter) <= MAX_ENDING_LETTERS
            and longer.startswith(shorter))


def row_features(request: Request) -> int:
    """The SlotPool.features bits of a request's rows."""
    options = request.options
    return (STREAMING * request.stream | SAMPLED * options.sampling | SCORED * options.return_scores
            | ALIGNED * options.return_alignments | BEAM * (options.beam_size > 1)
            | UNREPEATED * options.suppress_repeats)


def occurs_in(run: list[int], ids) -> bool:
    """Whether `run` occurs in `ids`, contiguously."""
    ids, k = list(ids), len(run)
    return any(ids[i : i + k] == run for i in range(len(ids) - k + 1))


def rows_with(features: np.ndarray, feature: int) -> np.ndarray:
    """Rows of single sequences (not beams: their search handles it) with this feature."""
    return np.flatnonzero((features & (feature | BEAM)) == feature)


def decode(runtime, sources: list[list[int]], options: DecodingOptions, *, max_num_seqs: int = 64) -> list[Request]:
    """Decode sources to the end in this thread through the scheduler's loop; requests in input order."""
    scheduler = Scheduler(runtime, max_num_seqs=max_num_seqs, max_queue_size=max(1, len(sources)))
    return scheduler.run([Request(str(i), ids, options) for i, ids in enumerate(sources)])
