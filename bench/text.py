"""``translator bench text``: the text pipeline's cost on hostile texts. Each text is one short unit repeated to a
length (a word with no space, many unclosed comments, quotes after every "!", thousands of block tags, ...),
segmented and tokenized as the server does before anything reaches the engine, at a short and a long length. The
ratio of the two times is what matters: about the ratio of the lengths where the work grows linearly, its square
where it grows quadratically (one such text of 32,000 characters held the server's event loop for seconds). Ordinary
prose is the yardstick."""

from __future__ import annotations

import time

from bench.common import describe, format_table, machine
from translator.text import segment_texts

# (name, repeated unit, HTML[, what the text starts with]): beside the yardstick, units that hit a quadratic (or
# worse) path of translator/text.py or of the sentence splitter, and spaced ones that reach the stages a run of 50
# characters without a space skips
HOSTILE = [
    ("prose (yardstick)", "The house is small and the garden is green. ", False),
    ("one enormous word", "a", False),
    ("enormous words between spaces", "a" * 49 + " ", False),
    ("unreadable letters in one word", "漢a", False),
    ("unclosed comments", "<!--", False),
    ("a block tag every 4 characters", "1<p>", True),
    ("a quote after every !", '!"', False),
    ("guillemets and ! between spaces", "« ! ", False),
    ("backticks", "`", False),
    ("unclosed tags", "<a", True),
    ("an element around every word", "<b>a</b> ", False),
    ("an element in every sentence", "<b>a</b>. ", False),
    ("Markdown emphasis around every word", "*a* ", False),
    ("a placeholder every 3 characters", "%sx", False),
    ("line breaks", "Hi.\n", False),
    ("a sentence wrapped every three words", "go on and\n", False),
    ("a non-breaking space between every two words", "a&nbsp;b ", True),
    ("references in a word with no space", "a&nbsp;&amp;", True),
    ("quotation marks that never close", "“a ", False),
    ("a quoted placeholder in every word", "'%s'a ", False),
    ("front matter that never closes", "a: b\n", False, "---\n"),  # backtracked exponentially: 40 lines never ended
    ("front matter of dashed lines", "-a: b\n", False, "---\n"),
    ("code fences that never close", "```a\n", False),
    ("a code block every two lines", "```\nx\n", False),
    ("a currency sign in every word", "a€ 5 € ", False),
    ("name characters between colons", "a:", False),  # a pattern tried after every colon was quadratic
    ("a name outside ASCII in every word", "Zoë ", False),
    ("a list inside a line, every word an item", "a) b) ", False),
    ("one enormous word after a letter outside ASCII", "a", False, "é "),  # names tried from every position: quadratic
    ("a JSON key and string value in every 13 characters", '"a": "b c", ', False),
    ("JSON keys opening values that never close", '"ab": "', False),
    ("strings in one JSON array", '"b", ', False, '"a": ['),
    ("links beside each other, a space between", '<a href="/">a</a> ', True),  # each a text of its own
    # each searched for the token before it from the text's start
    ("character references between commas", "&amp;,", False),
    ("AsciiDoc macro names in one word", "a:!", False),  # each tried to the word's end
    ("words joined by hyphens", "a-", False),  # the same macro pattern, its name
    ("a token-like XX0X beside a letter outside ASCII", "XX0Xä", False),  # each its X's word rescanned
    ("spaces and tabs", " \t", False),  # reStructuredText's link end tried from every space
    ("one line of tildes", "~", False),  # a code fence's marks given back one by one
    ("comments that never close, between attributes", '<!--="', False),  # tags looked for in such an item
    # backtracked exponentially: a run of marks read as runs of one to three, a span read by two alternatives
    ("lines of dashes in elements with attributes", '<code x="1">' + "-" * 24 + " x</code> ", False),
    ("quotations of code spans between marks", "'" + "-`" * 20 + "a' ", False),
    # each looked back over every item before it for the link's start
    ("collapsed reference links' ends without a start", "x][] ", False),
    ("a place after its preposition in every clause", "to Munich, ", False),  # each looked for "Welcome" before it
    # the identifiers' patterns of this machine's package descriptions, each with a word and a start in every unit
    ("dotted names with a capital after every dot", "a.B", False),
    ("names scoped by colons", "a::", False),
    ("options of one dash between spaces", " -a", False),
    ("names with digits joined by dashes", "a1-", False),
    ("a shell comment after options on every line", "a -b # c\n", False),
    ("a usage line's syntax that never ends", " [-a] <b>", False, "cmd"),  # its tokens read two ways by a term
    ("a tag's name that never ends", "b", False, "x <"),  # its letters given back one by one to the attributes
    # LaTeX: each opening looks for its "}", each code environment for its end
    ("LaTeX formatting commands that never close", "\\emph{a ", False),
    ("LaTeX code environments that never end", "\\begin{verbatim}", False),
    ("calls with keyword arguments", "f(a=1, 'b') ", False),
    ("a manual page's bold that never returns to roman", "\\fBa ", False),
    # a relative path, a name in parts and a manual page's name were looked for from every "+", a company's name from
    # every "&", a run of capitals from each
    ("modifiers joined by +", "Ctrl+", False),
    ("capitals joined by &", "A&", False),
    ("single capitals between spaces", "A ", False),
]


def timed(text: str, tokenizer, limits, html: bool, repeats: int) -> float:
    """Best of `repeats` seconds for segmenting and tokenizing one text (inline elements taken out, as served)."""
    best = float("inf")
    for _ in range(repeats):
        started = time.perf_counter()
        segment_texts([text], tokenizer, limits, True, html, take_out_tags=True)
        best = min(best, time.perf_counter() - started)
    return best


def run(model, lengths: tuple[int, int], repeats: int) -> dict:
    short, long = lengths
    rows = []
    for name, unit, html, *lead in HOSTILE:
        start = "".join(lead)
        times = [timed(start + (unit * (n // len(unit) + 1))[:n - len(start)], model.tokenizer, model.limits, html,
                       repeats) for n in (short, long)]
        rows.append({"text": name, "unit": unit, "html": html, "seconds": times, "growth": times[1] / times[0]})
    return {"machine": machine(), "lengths": list(lengths), "repeats": repeats, "rows": rows}


def report(results: dict) -> str:
    short, long = results["lengths"]
    header = ["text", f"ms at {short:,} chars", f"ms at {long:,} chars", "growth"]
    rows = [[r["text"], f"{r['seconds'][0] * 1000:.1f}", f"{r['seconds'][1] * 1000:.1f}", f"{r['growth']:.1f}x"]
            for r in results["rows"]]
    ratio = long / short
    return (f"segmenting and tokenizing one text, best of {results['repeats']}; linear work grows {ratio:.0f}x, "
            f"quadratic {ratio * ratio:.0f}x ({describe(results['machine'])})\n" + format_table(header, rows))
