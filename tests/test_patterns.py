"""No regular expression of the text pipeline, its word lists, the markup module, the tokenizer or the batch job's
readers backtracks exponentially. Python's `re` holds the GIL while it matches, so one such match froze the whole
server: a paragraph of Valgrind's HTML manual (a <pre class="screen"> table under a line of 80 dashes) left every
request, a one-sentence one too, at DEADLINE_EXCEEDED while the process burnt CPU. Each pattern meets every unit of two
of 45 characters repeated 40 times after a tag, a quote or nothing, and every character (alone, or with a line break, a
space or a letter) repeated 40 times after what opens a construct, each before a mark, a letter or a line break (where
an exponential match doubles with each unit, 40 of them take minutes; any other takes microseconds): none may take a
second."""

import importlib
import itertools
import pkgutil
import re
from typing import Callable

import pytest

import service
from service.preparing import TooSlow, within
from translator import text

MODULES = ["translator.text", "translator.lexicon", "translator.agreement", "translator.conjugation",
           "translator.markup", "translator.tokenizer", *(f"service.{m.name}" for m in pkgutil.iter_modules(service.__path__) if not m.name.startswith("_"))]
CHARACTERS = list(" \t\n-=:/.@#+*_~`'\"<>[](){}!?%$&|\\^,;aA1xX") + ["é"]
PAIRS = ["".join(pair) for pair in itertools.product(CHARACTERS, repeat=2)]
# What opens a construct that is then scanned for its end: each before every character, alone or with a line break,
# a space or a letter (a Markdown "\[" before lines of text found math's "(?:.|\n)", two ways to read a line break)
OPENERS = ["\\[", "\\(", "$", "$$", "`", "``", "```", "~~~", "[", "![", "](", "{", "{{", "{{<", "{%", "<!--",
           "<![CDATA[", "---\n", "+++", "++", "+", ":", "::", "%", "%{", "&", "(((", "[[", "<<", "http://", "@", "~/",
           "C:\\", "--", '"a": ', ":a:", "<a ", "<", "*", "**", "_", "|", "[!", "[^", "{#", "{:", "import ",
           "export const ", "!!! ", ":::", "linkgit:", "kbd:[", "footnote:[", ".. ", "`a <", ":ref:`", "a.", "#", '"',
           "'a"]
SHORT_UNITS = CHARACTERS + [c + after for c in CHARACTERS for after in ("\n", " ", "a")] + ["a" + c for c in CHARACTERS]
# and a masked text's placeholder token, which reads as a word in capitals too, after a word (a help text's term, "cmd
# XX1X XX2X ...", took each both ways)
TOKENS = [" XX1X", "XX1X"]
PROBES = [*itertools.product(["", '<a x="1">', "'"], PAIRS), *itertools.product(OPENERS, SHORT_UNITS),
          *itertools.product(["", "a"], TOKENS)]
TAILS = ["!", "a", "\n"]
REPEATS, LIMIT_SECONDS = 40, 1.0


def over_limit(match: Callable[[str], object], probe: str) -> bool:
    """Whether match(probe) takes over LIMIT_SECONDS; it is stopped there (as the server stops its preparation)."""
    try:
        within(LIMIT_SECONDS, match, probe)
    except TooSlow:
        return True
    return False


def patterns() -> list[tuple[str, re.Pattern]]:
    """Every compiled pattern of those modules (alone or in a tuple), and those built at run time from them."""
    found = {}
    for name in MODULES:
        for attribute, value in vars(importlib.import_module(name)).items():
            for index, member in enumerate(value if isinstance(value, tuple) else [value]):  # and those of a tuple
                if isinstance(member, re.Pattern) and isinstance(member.pattern, str) and member.pattern:
                    found.setdefault(member, f"{name}.{attribute}" + (f"[{index}]" if member is not value else ""))
    found[text._joined_items(text.EVERYTHING_AND_NUMBERS.pattern, text.EVERYTHING_AND_NUMBERS.flags)] = "_joined_items"
    found[text.symbols_outside_ascii()] = "symbols_outside_ascii()"
    return [(name, pattern) for pattern, name in found.items()]


@pytest.mark.slow
def test_no_pattern_backtracks_exponentially():
    slow = []
    for name, pattern in patterns():
        for (lead, unit), tail in itertools.product(PROBES, TAILS):
            probe = lead + unit * REPEATS + tail
            slow += [f"{name}.{method.__name__}({probe!r})" for method in (pattern.search, pattern.fullmatch)
                     if over_limit(method, probe)]
    assert not slow, f"{len(slow)} probes took over {LIMIT_SECONDS} s: {slow[:10]}"


def test_the_probe_interrupts_an_exponential_pattern():
    """The probe on a pattern that backtracks exponentially (runs of one to three marks under a star, as
    MARKUP_BESIDE_ITEMS was) is interrupted within its second: the scan above can fail."""
    exponential = re.compile(r"(?:\s|[:/.@=#+-]{1,3})*")
    assert over_limit(exponential.fullmatch, "-" * REPEATS + "a")
    assert not over_limit(exponential.fullmatch, "-" * REPEATS)
