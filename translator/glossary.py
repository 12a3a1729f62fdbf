"""A request's glossary: terms to translate a given way, and where a text holds them.

Each entry's source is found in a text as whole words: in any case where it is written in small letters ("log in"
finds "Log in"), else as written ("Cloud Console" finds only that). The text pipeline keeps a found term from the
model, as it keeps a placeholder, and writes the entry's target where the model put it (translator.text.prepare:
the terms are forms, as "at 5 p.m." is "um 17 Uhr"), its first letter a capital where a term in small letters began
with one ("Log in" at a sentence's start); an empty target keeps the term as the text wrote it (a product name not to
translate). Where two terms overlap, the one that starts first wins, and of those starting together the
longest. The text pipeline writes no term inside what it keeps as written ("count" in "{count}"; `text.prepare`).

Terms are looked up by their first word, so finding them costs a dictionary look-up per word of the text, however
many entries there are (a pattern of 1,000 alternatives would try each at every character).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

MAX_ENTRIES = 1000
MAX_SOURCE_CHARS = 100
MAX_TARGET_CHARS = 200
WORD = re.compile(r"\w+")
# Characters a term may not hold: line breaks and tabs separate a text's segments, and control characters are no text
UNWRITABLE = re.compile(r"[\x00-\x1f\x7f\x85\u2028\u2029]")


@dataclass(frozen=True)
class Term:
    source: str
    target: str  # "" keeps the source as written
    offset: int  # where the source's first word starts in it (".NET": 1)
    any_case: bool  # written in small letters: found in any case

    def found_at(self, text: str, start: int) -> bool:
        """Whether the text holds this term at `start`, as whole words."""
        end = start + len(self.source)
        if start < 0 or end > len(text):
            return False
        written = text[start:end]
        if (written.lower() != self.source) if self.any_case else (written != self.source):
            return False
        return not (_word_character(self.source[0]) and start > 0 and _word_character(text[start - 1])
                    or _word_character(self.source[-1]) and end < len(text) and _word_character(text[end]))

    def written(self, found: str) -> str:
        """What to write for the term as the text wrote it: the target, its first letter a capital where a term in
        small letters was found starting with one ("Log in" at a sentence's start); or the text's own words."""
        if not self.target:
            return found
        if self.any_case and found[:1].isupper() and self.target[:1].islower():
            return self.target[0].upper() + self.target[1:]
        return self.target


def _word_character(character: str) -> bool:
    return character.isalnum() or character == "_"


@dataclass(frozen=True)
class Glossary:
    """Entries (source, target), made by `of`, which checks them; `terms(text)` finds them."""
    entries: tuple[tuple[str, str], ...]
    _by_first_word: dict[str, list[Term]] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        by_first_word: dict[str, list[Term]] = {}
        for source, target in self.entries:
            word = WORD.search(source)
            term = Term(source, target, word.start(), any_case=source == source.lower())
            by_first_word.setdefault(word.group().lower(), []).append(term)
        for terms in by_first_word.values():
            terms.sort(key=lambda term: (-len(term.source), term.offset))  # the longest first
        object.__setattr__(self, "_by_first_word", by_first_word)

    @classmethod
    def of(cls, entries: Iterable[tuple[str, str]], names: Sequence[str] | None = None) -> Glossary:
        """The glossary of these entries; ValueError naming the first that is not one by its name in `names`
        (default: "glossary[N]", as a request's field: "glossary[2]: source '' has no letter or digit: ...")."""
        checked, sources = [], {}
        for number, (source, target) in enumerate(entries):
            name = names[number] if names is not None else f"glossary[{number}]"
            if number == MAX_ENTRIES:
                raise ValueError(f"glossary has more than {MAX_ENTRIES} entries: send the terms the texts hold")
            if not WORD.search(source):
                raise ValueError(f"{name}: source {source!r} has no letter or digit: write the term to find")
            for part, value, limit in (("source", source, MAX_SOURCE_CHARS), ("target", target, MAX_TARGET_CHARS)):
                if len(value) > limit:
                    raise ValueError(f"{name}: the {part} has {len(value)} characters; the limit is {limit}")
                if found := UNWRITABLE.search(value):
                    raise ValueError(f"{name}: the {part} holds the control character U+{ord(found.group()):04X}: "
                                     "a term is one line of text")
            if source != source.strip():
                raise ValueError(f"{name}: source {source!r} starts or ends with a space: write the term alone")
            key = source.lower()
            if key in sources:
                first = names[sources[key]] if names is not None else f"glossary[{sources[key]}]"
                raise ValueError(f"{name}: source {source!r} is {first}'s too (case aside): give each term once")
            sources[key] = number
            checked.append((source, target))
        return cls(tuple(checked))

    def terms(self, text: str) -> list[tuple[int, int, str]]:
        """(start, end, what to write) of each term the text holds, in order and apart (see the module's
        docstring and `Term.written`)."""
        found, done = [], 0
        for word in WORD.finditer(text):
            for term in self._by_first_word.get(word.group().lower(), ()):
                start = word.start() - term.offset
                if start >= done and term.found_at(text, start):
                    end = start + len(term.source)
                    found.append((start, end, term.written(text[start:end])))
                    done = end
                    break
        return found


def read_file(path: Path) -> Glossary:
    """A glossary file: UTF-8 text, an entry a line, its source, a tab and its target (a source alone, or before an
    empty target, is kept as written); blank lines and lines that start with "#" are skipped, and spaces around a
    source or a target. ValueError naming the line to fix ("terms.tsv:12: source ...")."""
    try:
        lines = path.read_text(encoding="utf-8-sig").splitlines()
    except UnicodeDecodeError as error:
        raise ValueError(f"{path} is not UTF-8 text ({error.reason} at byte {error.start}): save it as UTF-8") from None
    entries, names = [], []
    for number, line in enumerate(lines, 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        source, _, target = line.partition("\t")
        if "\t" in target:
            raise ValueError(f"{path}:{number}: more than one tab: write a source, a tab and its target")
        entries.append((source.strip(), target.strip()))
        names.append(f"{path}:{number}")
    return Glossary.of(entries, names)
