"""Word documents (``.docx``, Office Open XML) for batch jobs: which paragraphs to send, and the package written back.

A ``.docx`` file is a ZIP package of XML parts. The parts that hold the document's text are read: its body
(``word/document.xml``), headers, footers, footnotes and endnotes. Each paragraph (``<w:p>``; one inside a text box
too) is numbered in document order, and each with a letter is sent as an item, its id the part and the paragraph's
number in it. Its runs' text goes as HTML, so that the text pipeline keeps the markup and puts it back around the
words it held: the text in the paragraph's most used formatting as text, a run formatted otherwise inside ``<span
id="N">`` (N: its formatting), a hyperlink as ``<a id="N">``, and what a run holds beside text (a tab, a break, a
picture, a footnote's reference, a whole field) and a run in a code style as ``<x id="N"/>``, written back as it was.
Spell-check marks and the last rendering's page breaks are dropped (Word makes them again), and bookmarks, comment
ranges and the like go at the paragraph's start (a heading's bookmark, which a table of contents links to, still marks
its paragraph). Paragraphs with tracked changes and paragraphs in a code style are not sent. The package is written
back entry for entry, each as it was stored, but for the parts read, in which only translated paragraphs change, their
runs made anew from the translation.
"""

from __future__ import annotations

import html
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator
from xml.sax.saxutils import escape

from service import documents

# The parts whose paragraphs are a document's text, in the order they are numbered
PART = re.compile(r"word/(?:document|header\d*|footer\d*|footnotes|endnotes)\.xml")
PART_ORDER = ("word/document.xml", "word/header", "word/footer", "word/footnotes.xml", "word/endnotes.xml")
# An element's start, end or empty tag (attribute values quoted, as XML has them); comments, processing instructions
# and CDATA, which Word does not write inside a paragraph, stay where they are as text between tags
TAG = re.compile(r"<(/?)([\w.-]+:?[\w.-]*)((?:\s+[\w.:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>")
# A style for code, by its id: Word's (HTML Code, HTML Preformatted, Macro Text...), LibreOffice's (Source Text,
# Preformatted Text), pandoc's (SourceCode, VerbatimChar). Sent, the code blocks of 60 Markdown files pandoc made
# Word documents of came back changed ("'deps/brotli/brotli.gyp:brotli'" lost its quotes): a paragraph in one is not
# sent, a run in one is kept as it is
CODE_STYLE = re.compile(r'<w:[pr]Style\b[^>]*?\bw:val\s*=\s*"[^"]*(?i:code|verbatim|preformatted|sourcetext|macrotext'
                        r'|listing|htmlkeyboard|htmlsample|htmltypewriter)[^"]*"')
TRACKED = {"w:ins", "w:del", "w:moveFrom", "w:moveTo"}  # a paragraph with tracked changes is not sent
DROPPED = {"w:proofErr", "w:lastRenderedPageBreak"}  # marks Word makes again as it checks spelling and lays out
# Marks of a place or a range, not text: kept at the paragraph's start
ANCHORS = {"w:bookmarkStart", "w:bookmarkEnd", "w:commentRangeStart", "w:commentRangeEnd", "w:permStart",
           "w:permEnd"}
FIELD_MARK = re.compile(r'w:fldCharType="(begin|end)"')  # where a field's runs start and end
# A run's language for spelling and hyphenation (its Latin script's: w:val), in its properties or the styles' defaults
LANGUAGE = re.compile(r'(<w:lang\b[^>]*?\bw:val\s*=\s*")([^"]*)(")')
WORD_LANGUAGE = "de-DE"  # what Word calls German
STYLES = "word/styles.xml"
DEFAULT_RUN = re.compile(r"<w:rPrDefault\b.*?</w:rPrDefault\s*>", re.DOTALL)
SENT_TAG = re.compile(r'<(/?)(span|a|x)(?: id="(\d+)")?\s*(/?)>')  # the markup a paragraph is sent with, read back


class NotDocx(documents.NotDocument):
    """The input is not a Word document this job can fill in."""


@dataclass
class Element:
    """An element of a part, as written: its start tag, its content (elements and the text between them), its end
    tag ("" for an empty one)."""
    name: str
    start: str
    children: list["Element | str"] = field(default_factory=list)
    end: str = ""

    def __str__(self) -> str:
        return self.start + "".join(map(str, self.children)) + self.end

    def elements(self) -> Iterator["Element"]:
        return (child for child in self.children if isinstance(child, Element))

    def descendants(self) -> Iterator["Element"]:
        for child in self.elements():
            yield child
            yield from child.descendants()


def parsed(content: str) -> list[Element | str]:
    """A paragraph's content as elements and text."""
    root = Element("", "")
    open_elements = [root]
    done = 0
    for tag in TAG.finditer(content):
        if tag.start() > done:
            open_elements[-1].children.append(content[done:tag.start()])
        done = tag.end()
        closing, name, _, empty = tag.groups()
        if closing:
            if len(open_elements) > 1 and open_elements[-1].name == name:
                open_elements.pop().end = tag.group()
            continue
        element = Element(name, tag.group())
        open_elements[-1].children.append(element)
        if not empty:
            open_elements.append(element)
    if done < len(content):
        open_elements[-1].children.append(content[done:])
    return root.children


@dataclass
class Paragraph:
    """A paragraph (``<w:p>``) of a part: where its content is, and what of it is sent."""
    part: str
    number: int  # in its part
    start: int  # of its content, after its start tag
    end: int  # before its end tag
    content: str

    def sent(self) -> "Sent | None":
        """What is sent for it, or None where nothing is: no letter, tracked changes, a code style."""
        children = parsed(self.content)
        if any(element.name in TRACKED for element in Element("", "", children).descendants()):
            return None
        sent = Sent()
        sent.read(children)
        if any(CODE_STYLE.search(head) for head in sent.head):
            return None
        return sent if documents.LETTER.search(sent.text_only()) else None


@dataclass
class Sent:
    """A paragraph as sent: HTML of its text, its formats, links and kept pieces by number, what goes before its
    runs (its properties, its anchors)."""
    head: list[str] = field(default_factory=list)
    pieces: list[tuple[str, object]] = field(default_factory=list)  # ("text", (format, text)), ("open", link), ...
    formats: list[str] = field(default_factory=list)  # a run's properties (``<w:rPr>``) as written, by number
    links: list[Element] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def read(self, children: list[Element | str], in_link: bool = False) -> None:
        """The pieces of a paragraph's (or a link's) content. A field's runs from its start to its end (``<w:fldChar
        w:fldCharType="begin"/>`` to "end": its code, then its result) are one kept piece: their marks must stay in
        order, and Word writes the result again where the field is updated."""
        field_runs, depth = [], 0
        for child in children:
            if not isinstance(child, Element):
                continue  # white space between elements
            marks = FIELD_MARK.findall(str(child)) if child.name == "w:r" else []
            if depth or "begin" in marks:
                field_runs.append(str(child))
                depth += marks.count("begin") - marks.count("end")
                if depth <= 0:
                    self._keep("".join(field_runs))
                    field_runs, depth = [], 0
            elif child.name == "w:pPr" or child.name in ANCHORS:
                self.head.append(str(child))
            elif child.name in DROPPED:
                continue
            elif child.name == "w:r":
                self._run(child)
            elif child.name == "w:hyperlink" and not in_link:
                self.links.append(child)
                self.pieces.append(("open", len(self.links) - 1))
                self.read(child.children, in_link=True)
                self.pieces.append(("close", len(self.links) - 1))
            else:  # a simple field, a content control, an equation...: as written
                self._keep(str(child))
        if field_runs:  # a field that ends in a later paragraph (a table of contents')
            self._keep("".join(field_runs))

    def _run(self, run: Element) -> None:
        """A run's text in its format, and each other thing it holds kept, in a run of its own."""
        properties = next((str(element) for element in run.elements() if element.name == "w:rPr"), "")
        if CODE_STYLE.search(properties):
            self._keep(str(run))
            return
        for element in run.elements():
            if element.name == "w:t":
                text = html.unescape("".join(child for child in element.children if isinstance(child, str)))
                self.pieces.append(("text", (self._format(properties), text)))
            elif element.name not in ("w:rPr", *DROPPED):
                self._keep(f"{run.start}{properties}{element}{run.end}")

    def _format(self, properties: str) -> int:
        if properties not in self.formats:
            self.formats.append(properties)
        return self.formats.index(properties)

    def _keep(self, written: str) -> None:
        self.kept.append(written)
        self.pieces.append(("kept", len(self.kept) - 1))

    def base(self) -> int:
        """The format most of the text is in: its text goes without markup."""
        counts = Counter()
        for kind, piece in self.pieces:
            if kind == "text":
                counts[piece[0]] += len(piece[1])
        return counts.most_common(1)[0][0] if counts else 0

    def text_only(self) -> str:
        return "".join(piece[1] for kind, piece in self.pieces if kind == "text")

    def html(self) -> str:
        """The paragraph as sent: its text escaped, runs in another format in spans, links, kept pieces empty."""
        base, out, open_format = self.base(), [], None
        for kind, piece in self.pieces:
            if kind == "text" and piece[0] != base and piece[0] == open_format:
                out.append(escape(piece[1]))
                continue
            if open_format is not None:
                out.append("</span>")
                open_format = None
            if kind == "text" and piece[0] == base:
                out.append(escape(piece[1]))
            elif kind == "text":
                out.append(f'<span id="{piece[0]}">{escape(piece[1])}')
                open_format = piece[0]
            elif kind == "open":
                out.append(f'<a id="{piece}">')
            elif kind == "close":
                out.append("</a>")
            else:
                out.append(f'<x id="{piece}"/>')
        return "".join(out) + ("</span>" if open_format is not None else "")

    def written(self, translation: str) -> str:
        """The paragraph's content from its translation (HTML as sent): its head, then runs in the formats the
        spans name, links and kept pieces where the translation put them; a kept piece the translation lost at the
        end (a picture is never dropped)."""
        base, out = self.base(), list(self.head)
        formats, links, used = [base], [], set()
        done = 0
        for tag in SENT_TAG.finditer(translation):
            self._text(out, translation[done:tag.start()], formats[-1])
            done = tag.end()
            closing, name, number, empty = tag.groups()
            number = int(number) if number is not None else -1
            if name == "span" and not closing and 0 <= number < len(self.formats):
                formats.append(number)
            elif name == "span" and closing and len(formats) > 1:
                formats.pop()
            elif name == "a" and not closing and 0 <= number < len(self.links) and not links:
                links.append(number)
                out.append(self.links[number].start)
            elif name == "a" and closing and links:
                out.append(self.links[links.pop()].end)
            elif name == "x" and 0 <= number < len(self.kept) and number not in used:
                used.add(number)
                out.append(self.kept[number])
        self._text(out, translation[done:], formats[-1])
        out += [self.links[number].end for number in links]
        out += [kept for number, kept in enumerate(self.kept) if number not in used]
        return "".join(out)

    def _text(self, out: list[str], text: str, format: int) -> None:
        """A run of translated text, in German: Word checked the spelling of German text marked English."""
        text = html.unescape(text)
        if text:
            properties = german(self.formats[format]) if self.formats else ""
            out.append(f'<w:r>{properties}<w:t xml:space="preserve">{escape(text)}</w:t></w:r>')


def german(xml: str) -> str:
    """Properties or styles with each language of Latin script German."""
    return LANGUAGE.sub(lambda found: found.group(1) + WORD_LANGUAGE + found.group(3), xml)


def paragraphs(part: str, xml: str) -> Iterator[Paragraph]:
    """The part's paragraphs that hold no paragraph (a text box's are read on their own), in document order."""
    open_starts: list[tuple[int, bool]] = []  # (content start, holds a paragraph) of each paragraph open
    number = 0
    for tag in TAG.finditer(documents.blanked(xml)):  # (a comment's "<w:p>" is none)
        closing, name, _, empty = tag.groups()
        if name != "w:p" or empty:
            continue
        if not closing:
            if open_starts:
                open_starts[-1] = (open_starts[-1][0], True)
            open_starts.append((tag.end(), False))
        elif open_starts:
            start, holds = open_starts.pop()
            if not holds:
                number += 1
                yield Paragraph(part, number, start, tag.start(), xml[start:tag.start()])


def read(path: Path) -> dict[str, str]:
    """The package's text parts (PART), by name in numbering order, and its styles (STYLES: their default language
    becomes German); NotDocx with what to fix where it is no Word document."""
    try:
        with zipfile.ZipFile(path) as package:
            names = [name for name in package.namelist() if PART.fullmatch(name) or name == STYLES]
            if "word/document.xml" not in names:
                raise NotDocx("no word/document.xml: not a Word document (.docx); an older .doc must be saved as "
                              ".docx first")
            parts = {name: package.read(name) for name in sorted(names, key=_part_order)}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as error:
        raise NotDocx(f"not a ZIP package ({error}): a .docx file is one; an older .doc must be saved as .docx "
                      "first") from None
    try:
        decoded = {name: xml.decode("utf-8") for name, xml in parts.items()}
    except UnicodeDecodeError as error:
        raise NotDocx(f"a part that is not UTF-8 ({error.reason}): save the document again from Word") from None
    for name, xml in decoded.items():
        try:
            documents.parsed(xml.removeprefix("\ufeff"), NotDocx)
        except NotDocx as error:
            raise NotDocx(f"{name}: {error}: save the document again from Word") from None
    return decoded


def _part_order(name: str) -> tuple[int, str]:
    return next((k for k, start in enumerate(PART_ORDER) if name.startswith(start)), len(PART_ORDER)), name


def all_paragraphs(parts: dict[str, str]) -> Iterator[tuple[int, Paragraph]]:
    """Every paragraph of the parts, numbered from 1 across them."""
    number = 0
    for part, xml in parts.items():
        for paragraph in paragraphs(part, xml) if part != STYLES else ():
            number += 1
            yield number, paragraph


def check(parts: dict[str, str]) -> None:
    """(`read` checks the package.)"""


def items(parts: dict[str, str]) -> Iterator[tuple[int, str, str]]:
    for number, paragraph in all_paragraphs(parts):
        sent = paragraph.sent()
        if sent is not None:
            yield number, f"{paragraph.part}#{paragraph.number}", sent.html()


def count(parts: dict[str, str]) -> int:
    return sum(1 for _ in all_paragraphs(parts))


def filled(parts: dict[str, str], translated: dict[int, str], review: bool = True) -> dict[str, str]:
    """The parts with each translated paragraph's content made from its translation."""
    edits: dict[str, list[tuple[int, int, str]]] = {}
    for number, paragraph in all_paragraphs(parts):
        sent = paragraph.sent() if number in translated else None
        if sent is not None:
            edits.setdefault(paragraph.part, []).append(
                (paragraph.start, paragraph.end, sent.written(translated[number])))
    filled_parts = {part: documents.spliced(xml, edits.get(part, ())) for part, xml in parts.items()}
    if STYLES in parts and edits:  # the defaults of the runs that name no language of their own
        filled_parts[STYLES] = DEFAULT_RUN.sub(lambda found: german(found.group()), parts[STYLES])
    return filled_parts


def write(source: Path, parts: dict[str, str], target: Path) -> None:
    """The package at `source` written to `target` entry for entry, each compressed as it was, the parts replaced."""
    with zipfile.ZipFile(source) as package, zipfile.ZipFile(target, "w") as written:
        for entry in package.infolist():
            data = parts[entry.filename].encode("utf-8") if entry.filename in parts else package.read(entry)
            written.writestr(entry, data, compress_type=entry.compress_type)
