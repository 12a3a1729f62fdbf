""".NET resource files (.resx, and UWP's .resw: what Visual Studio's resource editor and WinForms' designer write)
for batch jobs: which strings to send, and the file written back.

Each ``<data>`` that holds a string — no ``type`` (a bitmap, a size, a file reference) and no ``mimetype`` (a
serialized object), its name not a WinForms designer's ``>>`` metadata (``>>button1.Name``) — is sent as an item
numbered in document order, its name the record's id, its ``<value>``'s text as written (references undone, white
space kept: Visual Studio writes ``xml:space="preserve"``). The file is written back character for character as it
was but for those values, each escaped as Visual Studio writes it; a satellite assembly's file is named for its
culture (``Resources.de.resx``), which the output's name gives. Comments for translators (``<comment>``), headers,
schema and other data stay as written.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Iterator
from xml.sax.saxutils import escape  # &, <, >: as Visual Studio and Xcode write element content

from service import documents

DATA = re.compile(r"<data\b([^>]*?)(?:/>|>(.*?)</data\s*>)", re.DOTALL)
VALUE = re.compile(r"<value\b[^>]*?(?:/>|>(.*?)</value\s*>)", re.DOTALL)
NOT_TEXT = re.compile(r"""\b(?:type|mimetype)\s*=""")  # a typed or serialized object, not a string
DESIGNER = ">>"  # a WinForms designer's metadata: ">>button1.Name", ">>$this.Type"


class NotResx(documents.NotDocument):
    """The input is not a .NET resource file this job can fill in."""


@dataclass(frozen=True)
class String:
    number: int  # 1-based, in document order, of the <data> with a <value>
    name: str
    text: str  # its value's text, references undone
    start: int  # where its value's content starts in the document, and ends
    end: int
    sent: bool  # a string, not the designer's metadata, with a letter


def check(document: str) -> None:
    """NotResx where the document is not well-formed XML with a .NET resource file's <root>."""
    root = documents.parsed(document, NotResx)
    if root.tag != "root" or root.find("resheader") is None and root.find("data") is None:
        raise NotResx(f"its root element is <{root.tag}> without <resheader> or <data>, not a .NET resource file's")


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, name, text) of each string to send."""
    return ((string.number, string.name, string.text) for string in strings(document) if string.sent)


def count(document: str) -> int:
    """How many <data> with a value the document has: the highest number an item can have."""
    return sum(1 for _ in strings(document))


def strings(document: str) -> Iterator[String]:
    """Its <data> elements with a <value>, in order, each with its value's text and place."""
    masked = documents.blanked(document)  # the schema's own comment shows <data> examples
    number = 0
    for data in DATA.finditer(masked):
        value = VALUE.search(masked, data.start(2), data.end(2)) if data.group(2) is not None else None
        if value is None or value.group(1) is None:
            continue
        number += 1
        name = html.unescape(documents.attribute(data.group(1), "name") or "")
        text = html.unescape(document[value.start(1):value.end(1)])
        sent = not NOT_TEXT.search(data.group(1)) and not name.startswith(DESIGNER) and bool(documents.LETTER.search(text))
        yield String(number, name, text, value.start(1), value.end(1), sent)


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each sent string whose number has a translation holding it (.NET has no mark of a
    translation to review: `review` changes nothing)."""
    edits = [(string.start, string.end, escape(translated[string.number]))
             for string in strings(document) if string.sent and translated.get(string.number)]
    return documents.spliced(document, edits)
