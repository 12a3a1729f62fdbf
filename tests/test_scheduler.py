"""The scheduler with a fake runtime whose logits are scripted: no model, no gRPC, no threads."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from translator.model_format import Limits
from translator.tokenizer import SpecialIds
from service.decoding import DecodingOptions, FinishReason
from service.runtime import BEAM, EncoderRun, SlotPool
from service.scheduler import (QueueFull, Request, RequestStatus, Scheduler, changed_numbers, closing_mark,
                               misplaced_marks, repeated_runs, uncovered_words, unsaid_number_words)

VOCAB, EOS = 66, 3
OPENING, CLOSING, QUESTION_MARK, THIRTY_TWO, TEN, ZEHN = 60, 61, 62, 63, 64, 65  # above every token the scripts emit
MARKS = {OPENING: "[", CLOSING: "]", QUESTION_MARK: "?", THIRTY_TWO: "\u258132", TEN: "\u2581ten", ZEHN: "\u2581zehn"}


def word(token: int) -> str:
    """How ScriptedTokenizer spells a token, t15 as "tbf": its digits as letters, since a translation's numbers are
    checked against its source's (`changed_numbers`)."""
    return "t" + "".join("abcdefghij"[int(digit)] for digit in str(token))


class ScriptedTokenizer:
    """Token 15 reads "tbf" (`word`), the tokens of MARKS their marks."""

    @staticmethod
    def decode(ids):
        return " ".join(ScriptedTokenizer.pieces_of(ids)).replace("\u2581", "")

    @staticmethod
    def pieces_of(ids):
        return [MARKS.get(i, f"\u2581{word(i)}") for i in ids]


class ScriptedRuntime:
    """Row with source [s, ...] of length n emits s+10, s+11, ... and EOS after n tokens. The script rides in the
    row's cross K/V, so a row that moved to another slot without its state would emit wrong tokens."""

    special = SpecialIds(eos=EOS)
    tokenizer = ScriptedTokenizer()
    limits = Limits(max_source_tokens=64, max_output_tokens=64, segment_tokens=64)

    def __init__(self):
        self.steps = []  # batch size of every step

    def new_pool(self, slots):
        return SlotPool(slots=slots, layers=1, heads=1, head_dim=1, max_output_tokens=64, vocab_size=VOCAB)

    def encode(self, sources):
        """Two runs, the odd-numbered sources first, as length groups reorder them: joining must undo it."""
        runs = []
        for indices in (list(range(1, len(sources), 2)), list(range(0, len(sources), 2))):
            if indices:
                script = np.array([[sources[i][0], len(sources[i])] for i in indices], dtype=np.float32)[:, None, :, None]
                runs.append(EncoderRun(indices, [script.swapaxes(2, 3).copy(), script.copy()],  # (k, 1, 2, 1)
                                       np.ones((len(indices), 2), dtype=bool)))
        return runs

    def step(self, pool):
        """As a runtime's step does: logits into the pool's buffer, then every row's length advances."""
        n = pool.size
        self.steps.append(n)
        logits = pool.logits[:n]
        logits[:] = 0.0
        first, length = pool.cross[1][:n, 0, 0, 0].astype(int), pool.cross[1][:n, 0, 1, 0].astype(int)
        lengths = pool.lengths[:n]
        token = np.where(lengths >= length, EOS, first + 10 + lengths)
        logits[np.arange(n), token] = 1.0
        pool.kernel.advance(n)
        return logits, None


def expected_tokens(source):
    return [source[0] + 10 + t for t in range(len(source))]


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


def make(sources, options=DecodingOptions(max_output_tokens=20), deadline=None, stream=True):
    requests = [Request(f"r{i}", s, options, deadline, stream) for i, s in enumerate(sources)]
    return requests, []


def run(scheduler, events=None, limit=100):
    for _ in range(limit):
        if not scheduler.has_work():
            return
        step = scheduler.execute(scheduler.schedule())
        if events is not None:
            events += [(r.request_id, t) for r, t in step.events]
    raise AssertionError("did not finish")


def test_sequences_decode_as_if_alone_and_leave_when_finished():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime)
    requests, events = make([[5, 1, 1], [7], [9, 1, 1, 1, 1]])
    scheduler.add_request(requests)
    run(scheduler, events)
    assert [r.output_ids for r in requests] == [expected_tokens(r.source_ids) for r in requests]
    assert all(r.finish_reason is FinishReason.EOS and r.status is RequestStatus.FINISHED for r in requests)
    assert runtime.steps == [3, 3, 2, 2, 1, 1]  # rows leave the step after their EOS
    assert events.count(("r1", None)) == 1 and scheduler.pool.size == 0
    streamed = [t for rid, t in events if rid == "r2" and t is not None]
    assert streamed == expected_tokens([9, 1, 1, 1, 1])  # every token of a streaming request is an event


def test_only_streaming_requests_get_token_events():
    scheduler = Scheduler(ScriptedRuntime())
    requests, events = make([[5, 1, 1]], stream=False)
    scheduler.add_request(requests)
    run(scheduler, events)
    assert events == [("r0", None)] and requests[0].output_ids == [15, 16, 17]


def test_new_requests_join_the_running_batch_at_the_next_step():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime)
    first, _ = make([[5, 1, 1, 1, 1, 1]])
    scheduler.add_request(first)
    scheduler.execute(scheduler.schedule())
    scheduler.execute(scheduler.schedule())
    late = Request("late", [8, 1], DecodingOptions(max_output_tokens=20))
    scheduler.add_request([late])
    scheduler.execute(scheduler.schedule())
    assert runtime.steps[-1] == 2
    run(scheduler)
    assert first[0].output_ids == expected_tokens([5, 1, 1, 1, 1, 1]) and late.output_ids == expected_tokens([8, 1])


def test_join_interval_gathers_arrivals_while_rows_decode_and_an_idle_pool_takes_them_at_once():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime, join_interval_steps=3)
    first = Request("first", [5, 1, 1, 1, 1, 1, 1, 1], DecodingOptions(max_output_tokens=20))
    scheduler.add_request([first])
    scheduler.execute(scheduler.schedule())  # the pool was idle: no waiting
    late = [Request(f"late{i}", [8 + i, 1], DecodingOptions(max_output_tokens=20)) for i in range(2)]
    scheduler.add_request(late[:1])
    scheduler.execute(scheduler.schedule())
    scheduler.add_request(late[1:])
    for _ in range(2):
        scheduler.execute(scheduler.schedule())
    assert runtime.steps == [1, 1, 1, 3]  # both late requests joined together, at the third step after the last join
    run(scheduler)
    assert [r.output_ids for r in [first, *late]] == [expected_tokens(r.source_ids) for r in [first, *late]]
    alone = Request("alone", [7, 1], DecodingOptions(max_output_tokens=20))
    scheduler.add_request([alone])
    scheduler.execute(scheduler.schedule())
    assert runtime.steps[-1] == 1 and alone.status is RequestStatus.RUNNING  # idle again: joins at once


def test_a_greedy_translation_that_lost_a_kept_token_is_decoded_again_with_beams():
    """Only once, only where it ended (not at its length limit), chose its tokens greedily (not sampled), streamed
    nothing and the beams fit the pool; it ends once, with the beam search's translation."""
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime, retry_beams=3)
    options = DecodingOptions(max_output_tokens=20)
    cases = (("kept", (word(15), word(16)), False), ("lost", (word(15), word(99)), False),
             ("streamed", (word(99),), True))
    kept, lost, streamed = (Request(name, [5, 1], options, kept=kept, stream=stream) for name, kept, stream in cases)
    scheduler.add_request([kept, lost, streamed])
    events = []
    run(scheduler, events)
    assert runtime.steps[:3] == [3, 3, 3] and set(runtime.steps[3:]) == {3}  # greedy (2 tokens, EOS), then 3 beams
    assert [request.retried for request in (kept, lost, streamed)] == [False, True, False]
    assert lost.options.beam_size == 3 and lost.finish_reason is FinishReason.EOS and lost.output_ids == [15, 16]
    assert [rid for rid, token in events if token is None] == ["kept", "streamed", "lost"]
    assert scheduler.pool.size == 0 and not scheduler.has_work()
    for refused, limited in ((Scheduler(ScriptedRuntime()), options),  # the default: never (parity, benchmarks)
                             (Scheduler(ScriptedRuntime(), retry_beams=0), options),  # never
                             (Scheduler(ScriptedRuntime(), max_num_seqs=2, retry_beams=4), options),  # 4 do not fit
                             (Scheduler(ScriptedRuntime(), retry_beams=4), DecodingOptions(sampling_temperature=1.0,
                                                                                          seed=1)),
                             (Scheduler(ScriptedRuntime(), retry_beams=4),
                              DecodingOptions(max_output_tokens=1))):  # cut at its limit
        request = Request("lost", [5, 1], limited, kept=(word(99),))
        refused.run([request])
        assert not request.retried and request.options.beam_size == 1
    clock = Clock()  # a step a second: greedy ends at 2 s, having taken 2 s; a deadline at 5 s leaves 3 s, less than
    # twice that, one at 9 s leaves 7
    for deadline, retried in ((5.0, False), (9.0, True)):
        scheduler = Scheduler(ScriptedRuntime(), retry_beams=4, clock=clock)
        request = Request("lost", [5, 1], options, deadline, kept=(word(99),))
        clock.now = 0.0
        scheduler.add_request([request])
        while request.status is not RequestStatus.FINISHED and not request.retried:
            scheduler.execute(scheduler.schedule())
            clock.now += 1.0
        assert request.retried is retried


class AttendingRuntime(ScriptedRuntime):
    """As ScriptedRuntime, with the alignment layer's attention: a greedy row attends to its source's first piece
    alone (it leaves the rest out), a beam's rows to each of the first four alike."""

    def step(self, pool):
        logits, _ = super().step(pool)
        n = pool.size
        attention = np.zeros((n, pool.source_capacity), dtype=np.float32)
        attention[:, 0] = 1.0
        beams = np.flatnonzero(pool.features[:n] & BEAM)
        attention[beams, 0] = 0.0
        attention[beams, :4] += 0.25
        return logits, attention


def test_a_greedy_translation_whose_attention_left_out_a_word_is_decoded_again_with_beams():
    """"Keep and manage all your chat history" came back as "Alle Ihren Chat-Verlauf behalten": the cross-attention
    that word got over the whole translation tells. The beams' hypothesis that leaves none out is the answer, without
    the alignments it was ranked by (not asked for). A source of fewer than four words is not counted: a term."""
    scheduler = Scheduler(AttendingRuntime(), retry_beams=3)
    options = DecodingOptions(max_output_tokens=20)
    left_out, term = Request("left out", [15, 16, 17, 18], options), Request("term", [15, 16, 17], options)
    scheduler.run([left_out, term])
    assert left_out.retried and left_out.greedy_defects.uncovered == 3 and not term.retried
    [answer] = left_out.hypotheses
    assert answer.token_ids == [25, 26, 27, 28] and answer.token_logprobs  # scored: the beams' hypothesis
    assert answer.alignments is None and scheduler.pool.size == 0


def test_the_words_a_translations_attention_left_out_are_counted():
    """Words of three letters or more the attention gave less than the least (by default 0.5), no function words
    nor placeholder tokens, in a source of four words or more."""
    pieces = ["\u2581Keep", "\u2581and", "\u2581man", "age", "\u2581all", "\u2581your", "\u2581chat", "\u2581history",
              "\u2581XX", "0", "X", "."]
    coverage = np.array([0.6, 0.0, 0.3, 0.1, 0.9, 0.0, 1.0, 0.8, 0.0, 0.0, 0.0, 0.5, 0.9])  # (EOS's too)
    assert uncovered_words(pieces, coverage) == 1  # "manage": 0.4
    assert uncovered_words(pieces, coverage, 0.7) == 2 and uncovered_words(pieces, coverage, 0.0) == 0  # and "Keep"
    assert uncovered_words(["\u2581in", "\u2581it", "\u2581to", "\u258142"], np.zeros(4)) == 0
    assert uncovered_words(["\u2581gas", "-", "fired", "\u2581boil", "ers"], np.zeros(5)) == 0  # a term: 2 words


BEAMS_BEST = [40, 41, 42, 43]


class BranchingRuntime(ScriptedRuntime):
    """Greedy decoding takes the first token of `greedy` (logit 2.0 against the first of `beams`' 1.9), then the
    others (each a weak 0.3) and ends; a beam search finds `beams` (each token certain after the ones before) the more
    probable translation. No other beam ends before the length limit."""

    def __init__(self, greedy=(15, 16), beams=tuple(BEAMS_BEST)):
        super().__init__()
        self.greedy, self.beams = list(greedy), list(beams)

    def step(self, pool):
        n = pool.size
        self.steps.append(n)
        logits, lengths = pool.logits[:n], pool.lengths[:n]
        logits[:] = 0.0
        logits[:, EOS] = -np.inf
        for row, length in enumerate(lengths.tolist()):
            if length == 0:
                logits[row, self.greedy[0]], logits[row, self.beams[0]] = 2.0, 1.9
                continue
            for path, weight in ((self.greedy, 0.3), (self.beams, 10.0)):
                if pool.output[row, :length].tolist() == path[:length]:
                    token, logit = (path[length], weight) if length < len(path) else (EOS, 10.0)
                    logits[row, token] = logit
        pool.kernel.advance(n)
        return logits, None


@pytest.mark.parametrize("source, kept, answered", [
    ([5, 1], (word(99),), [15, 16]),  # no beam holds t99: the greedy translation
    ([5, 1], (word(41),), BEAMS_BEST),  # the beams' best holds it
    ([5, 1, 1, 1, 1, 1], (), BEAMS_BEST),  # 2 tokens for 6 is short, 4 is not
    ([5, 1, 1, 1, 1, 1, 1, 1, 1, 1], (), [15, 16])])  # for 10 both are short: nothing mended
def test_a_retried_translation_is_the_beams_only_where_they_mend_it(source, kept, answered):
    """A greedy translation that lost a string of Request.kept or came back short (fewer tokens than half its
    source's, of 4 or more) is decoded again with beams; the beams' best replaces it where it has fewer such
    defects, else it stays: a retry that mends nothing changes nothing."""
    request = Request("r", source, DecodingOptions(max_output_tokens=8), kept=kept)
    Scheduler(BranchingRuntime(), retry_beams=3).run([request])
    assert request.retried and request.output_ids == answered
    assert [h.token_ids for h in request.hypotheses] == [answered] and request.finish_reason is FinishReason.EOS


def test_a_translation_that_says_a_kept_string_twice_is_decoded_again():
    """Greedy says t15, which its source says once, twice ("(XX0X)-Standard (XX0X)"): the beams' translation, which
    says it once, replaces it."""
    request = Request("r", [5, 1], DecodingOptions(max_output_tokens=8), kept=(word(15),))
    Scheduler(BranchingRuntime(greedy=(15, 16, 15), beams=(40, 15, 42, 43)), retry_beams=3).run([request])
    assert request.retried and request.output_ids == [40, 15, 42, 43]


@pytest.mark.parametrize("source, retried", [([5, 1], True), ([5, 1, 5, 1], False)])
def test_a_translation_that_says_a_run_of_words_twice_is_decoded_again_unless_its_source_does(source, retried):
    """Greedy says "t15 t16 t15 t16": the beams' translation, which does not, replaces it; a source that says "t5 t1"
    twice may be translated so."""
    request = Request("r", source, DecodingOptions(max_output_tokens=8))
    Scheduler(BranchingRuntime(greedy=(15, 16, 15, 16)), retry_beams=3).run([request])
    assert request.retried is retried and request.output_ids == (BEAMS_BEST if retried else [15, 16, 15, 16])


@pytest.mark.parametrize("text, runs", [
    ("Es erlaubt, mit Empire-Befehlen mit Empire-Befehlen zu arbeiten.", 1),
    ("Sie macht es einfach einfach.", 1), ("eine Agent-Code-Basis-Code-Basis", 1), ("jede Minute, Woche, Woche", 1),
    ("Dateien, die die Anwendung liest", 0),  # a short word twice is German
    ("die Adresse 1.1.1.1", 0), ("eine Datei", 0), ("", 0),
    ("B.A.T.M.A.N..", 1), ("verwendet d..", 1), ("Laden... Bitte warten.", 0),  # a full stop twice, not "..."
    ("gespeichert.... Das", 1), ("(1., 2....)", 1),  # nor after "..."
    # a run of two words or more said again with other endings, not a lone word ("Spiel, Spielen")
    ("Fotos und Videos von Kameras und Videos von Kamera laden", 1),
    ("eine neue Version von einer neuen Version von Debian", 1),
    ("ein Spiel, Spielen macht Spaß", 0), ("mit Kameras oder mit Kameraden", 0), ("die Datei oder der Dateien", 0)])
def test_repeated_runs_counts_runs_of_words_said_twice_in_a_row(text, runs):
    assert repeated_runs(text) == runs


@pytest.mark.parametrize("source, retried", [([5, 1, QUESTION_MARK], True), ([5, 1], False)])
def test_a_translation_that_ends_otherwise_than_its_source_is_decoded_again(source, retried):
    """The source ends in "?", greedy in "t16": the beams' translation, which ends in "?", replaces it; a source
    that ends in a word may be translated so."""
    request = Request("r", source, DecodingOptions(max_output_tokens=8))
    Scheduler(BranchingRuntime(beams=(40, 41, QUESTION_MARK)), retry_beams=3).run([request])
    assert request.retried is retried and request.output_ids == ([40, 41, QUESTION_MARK] if retried else [15, 16])


def test_a_translation_that_closes_a_bracket_less_than_its_source_is_decoded_again():
    """The source says "t5 [ t1 ]", greedy "t15 [ t16": the beams' translation, which closes it, replaces it."""
    request = Request("r", [5, OPENING, 1, CLOSING], DecodingOptions(max_output_tokens=8))
    runtime = BranchingRuntime(greedy=(15, OPENING, 16), beams=(40, OPENING, 41, CLOSING))
    Scheduler(runtime, retry_beams=3).run([request])
    assert request.retried and request.output_ids == [40, OPENING, 41, CLOSING]


def test_a_translation_that_lacks_a_number_of_its_source_is_decoded_again():
    """The source says "t5 32", greedy "t15 t16": the beams' translation, which says 32, replaces it."""
    request = Request("r", [5, THIRTY_TWO], DecodingOptions(max_output_tokens=8))
    Scheduler(BranchingRuntime(beams=(40, THIRTY_TWO)), retry_beams=3).run([request])
    assert request.retried and request.output_ids == [40, THIRTY_TWO]


def test_a_translation_that_lacks_a_number_word_of_its_source_is_decoded_again():
    """The source says "t5 ten", greedy "t15 t16": the beams' translation, which says "zehn", replaces it."""
    request = Request("r", [5, TEN], DecodingOptions(max_output_tokens=8))
    Scheduler(BranchingRuntime(beams=(40, ZEHN)), retry_beams=3).run([request])
    assert request.retried and request.output_ids == [40, ZEHN]


@pytest.mark.parametrize("translation, source, unsaid", [
    ("Sie arbeitet seit Jahren hier.", "She has been working here for ten years.", 1),  # as it came back
    ("seit zehn Jahren", "for Ten years", 0), ("seit 10 Jahren", "for ten years", 0),
    ("bietet sieben Varianten", "provides seven variations", 0), ("Tausende Dateien", "thousands of files", 0),
    ("1.000 Dateien", "a thousand files", 0), ("zwei oder drei", "two, three or four", 1),
    ("einer von ihnen", "one of them", 0), ("Zehntel", "tenth", 0)])  # not "one", nor an ordinal
def test_unsaid_number_words_counts_number_words_said_neither_in_german_nor_in_digits(translation, source, unsaid):
    assert unsaid_number_words(translation, source) == unsaid


@pytest.mark.parametrize("translation, source, changed", [
    ("Windows-API - vorverknüpft binärer", "Windows API - prelinked 32-bit binary loader", 1),
    ("SQL:1999999-Unterstützung", "SQL:1999 support", 2), ("Python33-Bindungen", "Python3 bindings", 2),
    ("ISO-8859-1 (32 Bit), 2.", "ISO-8859-1 (32-bit), 2nd", 0),
    ("XX0X Dateien", "XX1X files", 0)])  # a placeholder token's number is none
def test_changed_numbers_counts_numbers_lacking_or_said_more_often_than_in_the_source(translation, source, changed):
    assert changed_numbers(translation, source) == changed


@pytest.mark.parametrize("translation, source, marks", [
    ("Syntax: scdaemon [Optionen] [Befehl [Argumente]", "Syntax: scdaemon [options] [command [args]]", 1),
    ("Syntax: scdaemon [Optionen] [Befehle]", "Syntax: scdaemon [options] [command [args]]", 1 + 1),
    ("(Entfernte) Prozeduraufrufe)", "(Remote Procedure Calls)", 1), ("Datei(en) löschen?", "Delete file(s)?", 0),
    ("Warten...", "Wait... what?", 1), ("Warten... (was)?", "Wait... (what)?", 0), ("Hallo", "Hello.", 1),
    ("Hallo.", "Hello.", 0), ("Es hängt davon ab.", "It depends.", 0), ("jdm. etw. geben", "give sth. to sb.", 0),
    ("Version 2", "version 2.", 0), ("Hallo", "Hello", 0)])
def test_misplaced_marks_counts_brackets_said_otherwise_than_the_source_and_a_changed_end(translation, source, marks):
    assert misplaced_marks(translation, source) == marks


@pytest.mark.parametrize("text, mark", [
    ("Warten... was?", "?"), ("Warten...", "..."), ("Fertig!", "!"), ("Optionen:", ":"), ('„Wirklich?“', "?"),
    ("(etwa 3...)", "..."), ("Hallo.", "."), ('(„Hallo.“)', "."), ("usw.", "."), ("Hallo..", "."),
    ("was? nein", ""), ("", "")])
def test_closing_mark_reads_the_mark_a_text_ends_in_quotes_and_brackets_aside(text, mark):
    assert closing_mark(text) == mark


def test_a_translation_neither_short_nor_lacking_is_not_decoded_again():
    request = Request("r", [5, 1, 1, 1], DecodingOptions(max_output_tokens=8), kept=(word(16),))
    Scheduler(BranchingRuntime(), retry_beams=3).run([request])
    assert not request.retried and request.output_ids == [15, 16]


def test_max_num_seqs_bounds_the_batch():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime, max_num_seqs=2)
    requests, _ = make([[5, 1]] * 5)
    scheduler.add_request(requests)
    run(scheduler)
    assert max(runtime.steps) == 2
    assert all(r.output_ids == [15, 16] for r in requests)


def test_submissions_take_turns_so_a_short_one_does_not_wait_behind_a_long_one():
    """Waiting requests join round-robin across submissions (an RPC's sentences), in order within each: a
    one-sentence request that arrives behind one of many sentences joins with the first free rows."""
    scheduler = Scheduler(ScriptedRuntime(), max_num_seqs=2)
    long = [Request(f"long/{i}", [5, 1], DecodingOptions(max_output_tokens=20)) for i in range(6)]
    short = [Request("short/0", [7, 1], DecodingOptions(max_output_tokens=20))]
    scheduler.add_request(long)
    scheduler.add_request(short)
    admissions = []
    for _ in range(20):
        if not scheduler.has_work():
            break
        output = scheduler.schedule()
        admissions += [r.request_id for r in output.admitted]
        scheduler.execute(output)
    assert admissions == ["long/0", "short/0", "long/1", "long/2", "long/3", "long/4", "long/5"]
    assert all(r.output_ids == [15, 16] for r in long) and short[0].output_ids == [17, 18]
    assert len(scheduler.waiting) == 0 and scheduler.pool.size == 0


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
    step = scheduler.execute(scheduler.schedule())
    assert requests[0].finish_reason is FinishReason.CANCELLED and (requests[0], None) in step.events
    assert runtime.steps == [2, 1]
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
    assert not scheduler.has_work() and scheduler.pool.size == 0


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


class LoopingRuntime(ScriptedRuntime):
    """Every row's most likely token is always 20; the next best is 30 + the tokens it has generated."""

    def step(self, pool):
        n = pool.size
        logits = pool.logits[:n]
        logits[:] = 0.0
        logits[:, 20] = 2.0
        logits[np.arange(n), 30 + pool.lengths[:n]] = 1.0
        pool.kernel.advance(n)
        return logits, None


def test_a_third_copy_in_a_row_is_suppressed_unless_the_source_has_that_run():
    scheduler = Scheduler(LoopingRuntime())
    sources = [[7, 8], [5, 20, 20, 20, 6], [7, 8]]
    options = [DecodingOptions(max_output_tokens=9), DecodingOptions(max_output_tokens=9),
               DecodingOptions(max_output_tokens=9, suppress_repeats=False)]
    requests = [Request(f"r{i}", source, option) for i, (source, option) in enumerate(zip(sources, options))]
    scheduler.add_request(requests)
    run(scheduler)
    assert requests[0].output_ids == [20, 20, 32, 20, 20, 35, 20, 20, 38]  # its next best token at each third copy
    assert requests[1].output_ids == requests[2].output_ids == [20] * 9


def test_failed_step_finishes_running_and_admitted_sequences_with_error():
    runtime = ScriptedRuntime()
    scheduler = Scheduler(runtime)
    running, _ = make([[5, 1, 1], [6, 1, 1]])
    scheduler.add_request(running)
    scheduler.execute(scheduler.schedule())
    late = Request("late", [8, 1], DecodingOptions(max_output_tokens=20))
    scheduler.add_request([late])
    output = scheduler.schedule()
    runtime.step = lambda pool: 1 / 0
    with pytest.raises(ZeroDivisionError):
        scheduler.execute(output)
    failed = scheduler.fail_step(output)
    assert set(failed) == {*running, late} and len(failed) == 3
    assert all(r.finish_reason is FinishReason.ERROR for r in failed)
    assert not scheduler.has_work() and scheduler.pool.size == 0


@st.composite
def workloads(draw):
    """Requests with random sources, arrival steps, output limits, aborts and deadlines; a pool size and join interval."""
    count = draw(st.integers(1, 12))
    requests = []
    for i in range(count):
        requests.append(dict(
            source=[draw(st.integers(4, 30))] * draw(st.integers(1, 10)),
            arrival=draw(st.integers(0, 8)),
            max_tokens=draw(st.integers(1, 12)),
            abort=draw(st.none() | st.integers(0, 20)),
            deadline=draw(st.none() | st.integers(1, 20)),
            beam=draw(st.sampled_from([1, 1, 2, 3])),
            stream=draw(st.booleans()),
            kept=draw(st.sampled_from([(), (word(99),)])),  # a placeholder token the translation lacks: decoded again
        ))
    return requests, draw(st.integers(max(r["beam"] for r in requests), 5)), draw(st.sampled_from([1, 1, 2, 4]))


@settings(max_examples=300, deadline=None)
@given(workloads())
def test_any_order_of_arrivals_finishes_aborts_and_deadlines_decodes_as_if_alone(workload):
    """Greedy and beam requests (a beam holds several rows) over one slot pool, greedy ones that lost a kept token
    decoded again with beams."""
    specs, slots, join_interval = workload
    clock = Clock()
    scheduler = Scheduler(ScriptedRuntime(), max_num_seqs=slots, join_interval_steps=join_interval, retry_beams=2,
                          clock=clock)
    requests = [Request(f"r{i}", spec["source"], DecodingOptions(max_output_tokens=spec["max_tokens"], beam_size=spec["beam"],
                                                                  num_hypotheses=spec["beam"]),
                        deadline=spec["deadline"], stream=spec["stream"], kept=spec["kept"])
                for i, spec in enumerate(specs)]
    ends, streamed = {r.request_id: 0 for r in requests}, {r.request_id: [] for r in requests}
    for step in range(200):
        clock.now = step
        arriving = [r for r, spec in zip(requests, specs) if spec["arrival"] == step]
        if arriving:
            scheduler.add_request(arriving)
        for r, spec in zip(requests, specs):
            if spec["abort"] == step and r.status is not RequestStatus.FINISHED:
                scheduler.abort_request(r.request_id)
        if step > 8 and not scheduler.has_work():
            break
        for request, token in scheduler.execute(scheduler.schedule()).events:
            if token is None:
                ends[request.request_id] += 1
            else:
                streamed[request.request_id].append(token)
    assert all(count == 1 for count in ends.values()), ends  # every request ends exactly once
    assert scheduler.pool.size == 0 and all(r is None for r in scheduler.pool.requests)  # every slot is free
    for request, spec in zip(requests, specs):
        alone = expected_tokens(spec["source"])[: spec["max_tokens"]]
        assert streamed[request.request_id] == alone[: len(streamed[request.request_id])]
        assert spec["stream"] or not streamed[request.request_id]
        if request.finish_reason in (FinishReason.EOS, FinishReason.LENGTH):
            assert request.output_ids == alone and len(request.hypotheses) == spec["beam"]
            eligible = (spec["beam"] == 1 and bool(spec["kept"]) and not spec["stream"] and slots > 1
                        and request.finish_reason is FinishReason.EOS)
            assert request.retried <= eligible and (request.retried or not eligible or spec["deadline"] is not None)
            if spec["beam"] == 1 and spec["stream"]:  # a beam streams only the prefix its beams agree on
                assert streamed[request.request_id] == alone
            expected = FinishReason.LENGTH if spec["max_tokens"] <= len(spec["source"]) else FinishReason.EOS
            assert request.finish_reason is expected
        elif request.finish_reason is FinishReason.CANCELLED:
            assert spec["abort"] is not None
        else:
            assert request.finish_reason is FinishReason.DEADLINE and spec["deadline"] is not None
