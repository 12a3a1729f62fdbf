"""Excel workbooks (``.xlsx``, ``.xlsm``; Office Open XML) for batch jobs: which strings to send, and the package
written back.

A cell's text is in the workbook's shared strings (``xl/sharedStrings.xml``: each ``<si>`` one string, however many
cells show it) or, where the writer put it in the cell, a sheet's inline string (``<is>``); a note's in
``xl/commentsN.xml`` (``<text>``), and a threaded comment's (Excel 365's) in ``xl/threadedComments/``. Each with a
letter is sent once, its id the part and its number there, as HTML (service.office): text formatted otherwise (a bold
word: a run's ``<rPr>``) in ``<span id="N">``, a line break in the cell as ``<x id="N"/>`` (HTML would read it as a
space), phonetic guides kept after the text. Excel's escapes of characters XML cannot hold (``_x000D_``) are read as
the characters and written so again.

Not sent: a string that a formula, a data validation's list, a filter or a table's column names as a value. Translated,
``=COUNTIF(C:C;"Done")`` would count nothing, a list would refuse its cells' own values, a filter would hide every row,
and a table's header cell would no longer name its column (Excel repairs such a file). Nor a threaded comment that
mentions someone (THREADED_COMMENTS). Charts' titles and the text of drawings (text boxes, shapes), then SmartArt
diagrams' text (as PowerPoint's paragraphs are: service.pptx), then threaded comments, then the workbook's title,
subject and description (``docProps/core.xml``), then its pictures' alternative texts (office.AltTexts) are sent after
the strings. Numbers, dates, formulas and their results, sheet and table names are not read. The package is written
back entry for entry (macros too, in ``.xlsm``), only translated strings changed.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from xml.sax.saxutils import escape

from service import documents, office, pptx
from service.office import Element, Inline, Paragraph

WORKBOOK = "xl/workbook.xml"
SHARED_STRINGS = "xl/sharedStrings.xml"
SHEET = re.compile(r"xl/worksheets/[^/]+\.xml")
# Notes: Excel's xl/commentsN.xml (its threaded comments keep a copy of theirs there), openpyxl's
# xl/comments/commentN.xml
COMMENTS = re.compile(r"xl/(?:comments/)?comments?\d*\.xml")
# Excel 365's comment threads, and a comment of one that mentions someone (@Ann) or links a word: their places in its
# text are counted in characters (startIndex), which a translation would move
THREADED_COMMENTS = re.compile(r"xl/threadedComments/[^/]+\.xml")
THREADED_COMMENT = re.compile(r"<(?:\w+:)?threadedComment\b.*?</(?:\w+:)?threadedComment\s*>", re.DOTALL)
TABLE = re.compile(r"xl/tables/[^/]+\.xml")
DRAWING = re.compile(r"xl/(?:charts/chart|drawings/drawing)\d+\.xml")  # charts' titles, text boxes: DrawingML's
DIAGRAM = re.compile(rf"xl/(?:{'|'.join(pptx.DIAGRAM_KINDS)})\d+\.xml")  # SmartArt's text: DrawingML's too
STRING_ELEMENTS = ("si", "is", "text")  # a shared string, an inline string, a note's or a comment's: each a paragraph
# Their namespace's prefix, where one is written
PREFIX = re.compile(r"<(?:(\w+):)?(?:sst|worksheet|comments|ThreadedComments)\b")
ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")  # a character as Excel escapes it: _x000D_ a carriage return
UNWRITABLE = re.compile(r"[\x00-\x08\x0b-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")  # escaped as it is written
# Where a workbook names a string as a value: a formula's literal (office.formula_literals: "Done" in
# =COUNTIF(C:C;"Done"), a data validation's list "Open,Done"), a filter's value, a table's column
FORMULA = re.compile(r"<((?:\w+:)?(?:f|formula|formula1|formula2|definedName))\b[^>]*?(?<!/)>(.*?)</\1\s*>", re.DOTALL)
VALUE = re.compile(r"<(?:\w+:)?(?:filter|customFilter|tableColumn)\b[^>]*?\b(?:val|name)\s*=\s*\"([^\"]*)\"")


class NotXlsx(documents.NotDocument):
    """The input is not an Excel workbook this job can fill in."""


def local(name: str) -> str:
    return name.rpartition(":")[2]


def unescaped(text: str) -> str:
    """A string's characters, Excel's escapes read."""
    return ESCAPED.sub(lambda found: chr(int(found.group(1), 16)), text)


def escaped(text: str) -> str:
    """Text as Excel writes it in a string: XML's escapes, and its own for characters XML cannot hold and for an
    underscore that would read as one."""
    return escape(UNWRITABLE.sub(lambda found: f"_x{ord(found.group()):04X}_", text))


class RichText(Inline):
    """A string as sent (SpreadsheetML's ``<si>``, ``<is>``, a note's ``<text>``): plain (one ``<t>``) or runs, each
    with its properties (``<rPr>``) as written."""

    def __init__(self, prefix: str, plain: bool):
        super().__init__()
        self.prefix, self.plain = prefix, plain
        self.whole = ""  # its text, line breaks included

    def read(self, children: list[Element | str]) -> None:
        for child in children:
            if not isinstance(child, Element):
                continue  # white space between elements
            name = local(child.name)
            if name == "t":
                self._read_text("", child)
            elif name == "r":
                text = next((element for element in child.elements() if local(element.name) == "t"), None)
                properties = next((element for element in child.elements() if local(element.name) == "rPr"), "")
                if text is not None:  # (a run without text shows nothing: dropped)
                    self._read_text(str(properties), text)
            elif name in ("rPh", "phoneticPr"):  # phonetic guides come after the text
                self.tail.append(str(child))
            else:
                self.keep(str(child))

    def _read_text(self, format: str, element: Element) -> None:
        """A run's text, each line break in it kept as written (HTML would make it a space)."""
        text = unescaped(office.text_of(element))
        self.whole += text
        self.text_lines(format, text)

    def text_xml(self, format: str, text: str) -> str:
        t = f'<{self.prefix}t xml:space="preserve">{escaped(text)}</{self.prefix}t>'
        return t if self.plain else f"<{self.prefix}r>{format}{t}</{self.prefix}r>"

    def written(self, translation: str) -> str:
        """A plain string stays one ``<t>``: what was written as several (its line breaks') joined."""
        written = super().written(translation)
        return written.replace(f'</{self.prefix}t><{self.prefix}t xml:space="preserve">', "") if self.plain else written


class CommentText(RichText):
    """A threaded comment's ``<text>``: characters alone, no runs."""

    def read(self, children: list[Element | str]) -> None:
        self._read_text("", Element("text", "", children))

    def text_xml(self, format: str, text: str) -> str:
        return escaped(text)


def named_values(parts: dict[str, str]) -> set[str]:
    """The strings the workbook's formulas, lists, filters and tables name as values, casefolded (as Excel compares)."""
    named = set()
    for name, xml in parts.items():
        for element, formula in FORMULA.findall(xml):
            named |= office.formula_literals(formula, listed=local(element) == "formula1")  # a list's, if any
        named.update(html.unescape(value) for value in VALUE.findall(xml))
    return {office.as_compared(unescaped(value)) for value in named}


def read(path: Path) -> dict[str, str]:
    """The parts that hold strings (shared, a sheet's, notes') and those that name values; NotXlsx with what to fix
    where it is no workbook."""
    return office.read(path, lambda name: name in (WORKBOOK, SHARED_STRINGS) or any(
        pattern.fullmatch(name) for pattern in (SHEET, COMMENTS, TABLE, DRAWING, DIAGRAM, THREADED_COMMENTS))
                       or name == pptx.CORE, WORKBOOK, NotXlsx,
                       "an Excel workbook (.xlsx)")


def holds_strings(name: str, xml: str) -> bool:
    """Whether a part holds strings to send: the shared strings and notes, a sheet only with inline strings."""
    return name == SHARED_STRINGS or COMMENTS.fullmatch(name) is not None or (
        SHEET.fullmatch(name) is not None and "inlineStr" in xml)


def package(parts: dict[str, str]) -> office.Packages:
    """The strings, then the text of charts and drawings, of diagrams (DrawingML's paragraphs: service.pptx), the
    threaded comments, the workbook's properties and its pictures' alternative texts (a kind added later goes last,
    so that earlier numbers, and so resumed jobs, stay as they were)."""
    drawingml = ({name: xml for name, xml in parts.items() if kind.fullmatch(name)} for kind in (DRAWING, DIAGRAM))
    return office.Packages(strings(parts), *map(pptx.drawingml, drawingml), threaded_comments(parts),
                           office.properties(parts, pptx.CORE),
                           office.AltTexts({name: xml for name, xml in parts.items() if DRAWING.fullmatch(name)}))


def strings(parts: dict[str, str]) -> office.Package:
    """The workbook's strings: shared, a sheet's inline ones, notes; none that the workbook names as a value."""
    named = named_values(parts)
    texts = {name: xml for name, xml in parts.items() if holds_strings(name, xml)}

    def sent_of(paragraph: Paragraph) -> RichText | None:
        children = paragraph.children()
        prefix = paragraph.tag[1:].partition(":")[0] + ":" if ":" in paragraph.tag.split()[0] else ""
        sent = RichText(prefix, plain=not any(isinstance(child, Element) and local(child.name) == "r"
                                             for child in children))
        sent.read(children)
        return None if office.as_compared(sent.whole) in named else sent.sendable()

    return office.Package(texts, string_elements(texts), sent_of)


def string_elements(texts: dict[str, str]) -> set[str]:
    """The names of the elements that hold strings (STRING_ELEMENTS), with each prefix the parts' namespace has."""
    prefixes = {found.group(1) for xml in texts.values() if (found := PREFIX.search(xml)) and found.group(1)}
    return {*STRING_ELEMENTS, *(f"{prefix}:{name}" for prefix in prefixes for name in STRING_ELEMENTS)}


def threaded_comments(parts: dict[str, str]) -> office.Package:
    """Each threaded comment's text (a note keeps a copy of its thread for older Excel: sent with the strings), but a
    comment's that mentions someone or links a word (THREADED_COMMENTS)."""
    texts = {name: xml for name, xml in parts.items() if THREADED_COMMENTS.fullmatch(name)}
    positioned = office.inside_one_holding(texts, THREADED_COMMENT, "startIndex")

    def sent_of(paragraph: Paragraph) -> CommentText | None:
        if positioned(paragraph):
            return None
        sent = CommentText("", plain=True)
        sent.read(paragraph.children())
        return sent.sendable()

    return office.Package(texts, string_elements(texts), sent_of)


FORMAT = office.PackageFormat(read, package, lambda parts: office.properties_in_german(parts, pptx.CORE))
