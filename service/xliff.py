"""XLIFF files (1.2 and 2.x: Angular's messages.xlf, Xcode's and Symfony's exports, what CAT tools exchange) for
batch jobs: which sources to send, and the file written back.

Each translation unit (1.2's ``<trans-unit>``, 2.x's ``<segment>``) with a ``<source>`` and no target text is sent as
an item numbered in document order, its ``id`` the record's id; its source's content goes as HTML, so inline codes
(``<x id="PH"/>``, ``<g>``, ``<ph/>``, ``<pc>``) and references (``&lt;``) stay as written. The file is written back
character for character as it was, but for each translated unit's ``<target>`` (put right after its source, indented
like it, or filled in where it stood empty), flagged for review as each version spells it (1.2:
``state="needs-review-translation"``; 2.x: the segment's ``state="translated"``, a step short of ``reviewed``), and
the target language where the file names none (1.2's ``target-language``, 2.x's ``trgLang``). Units marked
``translate="no"`` and units with a target text are never sent; an untranslated unit of no letter (``(<x id="A"/>,
<x id="B"/>)``, ``%1 %``) gets its source as its target, translated (left without one, Angular's build counts it
missing, as Qt Linguist and lrelease count such a message untranslated: 48 of 3,711 in Qt 5's own files).
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Iterator

from service import documents
from translator.model_format import TARGET_LANGUAGE

log = logging.getLogger(__name__)

# A unit and its parts, found in well-formed XML (checked first): no unit nests another, a source holds no source.
TRANS_UNIT = re.compile(r"<trans-unit\b([^>]*)>(.*?)</trans-unit\s*>", re.DOTALL)  # 1.2
UNIT_2 = re.compile(r"<unit\b([^>]*)>(.*?)</unit\s*>", re.DOTALL)  # 2.x: a unit of segments
SEGMENT = re.compile(r"<segment\b([^>]*)>(.*?)</segment\s*>", re.DOTALL)
SOURCE = re.compile(r"<source\b[^>]*>(.*?)</source\s*>", re.DOTALL)
TARGET = re.compile(r"<target\b([^>]*?)(?:/>|>(.*?)</target\s*>)", re.DOTALL)
NOT_TRANSLATED = re.compile(r"""\btranslate\s*=\s*["']no["']""")
STATE = re.compile(r"""\sstate\s*=\s*(?:"[^"]*"|'[^']*')""")
ROOT = re.compile(r"<xliff\b([^>]*)>")
VERSION = re.compile(r"""\bversion\s*=\s*["'](\d)""")
FILE = re.compile(r"<file\b([^>]*?)(/?)>")
REVIEW_1 = ' state="needs-review-translation"'  # 1.2's target state for a translation to review
MARKUP = re.compile(r"<[^>]*>|&[^;\s]*;")


class NotXliff(documents.NotDocument):
    """The input is not an XLIFF document this job can fill in."""


@dataclass(frozen=True)
class Unit:
    number: int  # 1-based, in document order, of the units with a source
    id: str
    source: str  # its source's content, markup and references as written
    start: int  # where its content starts in the document, and ends
    end: int
    sent: bool  # untranslated, not marked translate="no", with a letter
    copied: bool  # untranslated, not marked translate="no", of no letter but something: its target is its source


def check(document: str) -> None:
    """NotXliff where the document is not well-formed XLIFF (parsed once, here: the rest reads it by pattern)."""
    documents.parsed(document, NotXliff)
    if not ROOT.search(document):
        raise NotXliff("no <xliff> element: give an XLIFF file, or --format text")


def version(document: str) -> int:
    """The major version of a checked document."""
    given = VERSION.search(ROOT.search(document).group(1))
    return int(given.group(1)) if given else 1


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, id, source) of each unit to send."""
    return ((unit.number, unit.id, unit.source) for unit in units(document) if unit.sent)


def count(document: str) -> int:
    """How many units with a source the document has: the highest number an item can have."""
    return sum(1 for _ in units(document))


def units(document: str) -> Iterator[Unit]:
    """Its translation units with a source, in order: 1.2's trans-units, 2.x's segments (each named by its unit's
    id, and its own where its unit has several)."""
    masked = documents.blanked(document)  # a comment's "<trans-unit>" is none
    if version(document) == 1:
        places = ((unit.group(1), "", unit.start(2), unit.end(2)) for unit in TRANS_UNIT.finditer(masked))
    else:
        places = ((unit.group(1), segment.group(1), unit.start(2) + segment.start(2), unit.start(2) + segment.end(2))
                  for unit in UNIT_2.finditer(masked) for segment in SEGMENT.finditer(unit.group(2)))
    number = 0
    for unit_attributes, attributes, start, end in places:
        content = masked[start:end]
        source = SOURCE.search(content)
        if not source:
            continue
        number += 1
        target = _target(content, source.end())
        text = document[start + source.start(1):start + source.end(1)]  # a comment inside a source is its own
        untranslated = not NOT_TRANSLATED.search(unit_attributes) and not (target and (target.group(2) or "").strip())
        yield Unit(number, _id(unit_attributes, attributes), text, start, end,
                   *documents.sent_or_copied(untranslated, text, MARKUP.sub(" ", text)))


def _id(unit_attributes: str, attributes: str) -> str:
    name, own = documents.attribute(unit_attributes, "id") or "", documents.attribute(attributes, "id")
    return f"{name}/{own}" if own is not None else name


def _target(content: str, after: int) -> re.Match | None:
    """A unit's own target after its source (not one of 1.2's alternatives, <alt-trans>)."""
    alternatives = content.find("<alt-trans", after)
    return TARGET.search(content, after, alternatives if alternatives >= 0 else len(content))


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each sent unit whose number has a translation given its target, flagged for review (else
    1.2's target state="translated"; 2.x's segment is "translated" either way), each copied unit its source as its
    target, translated, and the target language named where it is not."""
    major, edits, broken = version(document), [], []
    for unit in units(document):
        if unit.copied:
            target, to_review = unit.source, False
        elif unit.sent and translated.get(unit.number):
            target, to_review = translated[unit.number], review
        else:
            continue
        if documents.well_formed(unit.source) and not documents.well_formed(target):
            broken.append(unit.id or str(unit.number))
            continue
        start = unit.start if major == 1 else document.rfind("<segment", 0, unit.start)  # its state goes on the tag
        edits.append((start, unit.end, _with_target(document[start:unit.end], target, major, to_review)))
    if broken:
        log.warning("%d translations left out, their inline codes not well-formed XML (units %s): a rerun with "
                    "the journal removed translates them again", len(broken), ", ".join(broken[:10]))
    if not edits:
        return document
    return _target_language(documents.spliced(document, edits), major)


def _with_target(content: str, translation: str, version: int, review: bool) -> str:
    """A unit's content (2.x: from its segment's tag) with its target: put after its source, indented like it, or
    in place of an empty one."""
    if version > 1:
        tag = re.match(r"<segment\b[^>]*>", content)
        opening = STATE.sub("", tag.group()[:-1]) + ' state="translated">'
        content = opening + content[tag.end():]
    source = SOURCE.search(content)
    state = (REVIEW_1 if review else ' state="translated"') if version == 1 else ""
    element = f"<target{state}>{translation}</target>"
    target = _target(content, source.end())
    if target:
        return content[:target.start()] + element + content[target.end():]
    line_start = content.rfind("\n", 0, source.start()) + 1
    indent = content[line_start:source.start()]
    between = "\n" + indent if line_start and not indent.strip() else ""
    return content[:source.end()] + between + element + content[source.end():]


def _target_language(document: str, version: int) -> str:
    if version == 1:
        return FILE.sub(lambda f: f.group() if "target-language" in f.group(1) else
                        f'<file{f.group(1)} target-language="{TARGET_LANGUAGE}"{f.group(2)}>', document)
    root = ROOT.search(document)
    if "trgLang" in root.group(1):
        return document
    return document[:root.end() - 1] + f' trgLang="{TARGET_LANGUAGE}"' + document[root.end() - 1:]
