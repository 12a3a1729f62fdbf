"""What batch jobs' office documents share (Word's ``.docx``: service.docx; OpenDocument's ``.odt``: service.odt;
PowerPoint's ``.pptx``: service.pptx; Excel's ``.xlsx``: service.xlsx; and the package `read` and `write` of EPUB
books, service.epub): a ZIP package whose XML parts hold paragraphs, read and written back entry for entry; each
paragraph's content parsed as written, sent as HTML of its text, and made again from its translation.

A paragraph is sent as its text: the text in its most used format as text, text in another format inside ``<span
id="N">`` (N: that format), a hyperlink as ``<a id="N">``, and whatever else it holds (a tab, a picture, a field, a
footnote, code) as ``<x id="N"/>``: the text pipeline keeps the markup and puts it back around the words it held, and
what an ``<x/>`` stands for is written back as it was. Paragraphs are numbered in document order, one that another holds
(a footnote's, a text box's) after it; the deepest are filled in first, so that the paragraph holding them keeps their
translation with what it keeps."""

from __future__ import annotations

import functools
import html
import re
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Protocol
from xml.sax.saxutils import escape

from service import documents

# A paragraph's tags are documents.TAG's; comments, processing instructions and CDATA, which office suites do not write
# inside a paragraph, stay where they are as text between tags
# The most a part may hold unpacked: a ZIP's few kilobytes may unpack to gigabytes (Word's largest body parts are tens
# of megabytes), and a part is read whole, then decoded and parsed
MAX_PART_BYTES = 256 << 20
LINE_BREAK = re.compile(r"(\r?\n)")  # in text that holds characters alone (a cell's, a comment's)
# A document's title, subject and description (Dublin Core's elements in its properties part: OOXML's
# docProps/core.xml, OpenDocument's meta.xml): shown in its properties, in a PDF made of it, in a cover page's fields
# bound to them
PROPERTIES = ("dc:title", "dc:subject", "dc:description")
# A picture's or a shape's alternative text, which a reader who cannot see it hears (Word's, PowerPoint's, Excel's
# drawing properties: descr); one that is a file's name (python-pptx writes the picture's) is not sent
ALT_TEXT = re.compile(r'(<(?:wp:docPr|pic:cNvPr|p:cNvPr|xdr:cNvPr)\b[^>]*?\sdescr=")([^"]*)(")')
# OpenDocument's: a frame's or a shape's title and description, elements of characters alone (LibreOffice's Alt Text)
ODF_ALT_TEXT = re.compile(r"(<svg:(?:title|desc)\b[^>]*(?<!/)>)([^<]*)(</svg:(?:title|desc)\s*>)")
FILE_NAME = re.compile(r"[^\s/\\]+\.\w{2,4}")
ATTRIBUTE_ESCAPES = {'"': "&quot;", "\n": "&#xA;", "\r": "&#xD;", "\t": "&#x9;"}  # what XML would read otherwise
PROPERTIES_LANGUAGE = re.compile(r"(<dc:language>)[^<]*(</dc:language>)")  # the language they name, where they do
OLDER = {"word/": ".doc", "xl/": ".xls", "ppt/": ".ppt"}  # the binary formats before each package's, by its main part
SENT_TAG = re.compile(r'<(/?)(span|a|x)(?: id="(\d+)")?\s*(/?)>')  # the markup a paragraph is sent with, read back
# A style for code, by its name: Word's (HTML Code, HTML Preformatted, Macro Text...), LibreOffice's (Source Text,
# Preformatted Text), pandoc's (SourceCode, VerbatimChar). Sent, the code blocks of 60 Markdown files pandoc made
# Word documents of came back changed ("'deps/brotli/brotli.gyp:brotli'" lost its quotes): a paragraph in one is not
# sent, text in one is kept as it is
CODE_STYLE = re.compile(r"code|verbatim|preformatted|sourcetext|macrotext|listing|htmlkeyboard|htmlsample"
                        r"|htmltypewriter")


# A formula's string literal ("Done" in =COUNTIF(C:C;"Done"), a quotation mark inside doubled): a spreadsheet's value
# that a cell must go on matching, untranslated
FORMULA_LITERAL = re.compile(r'"((?:[^"]|"")*)"')


def formula_literals(formula: str, listed: bool = False) -> set[str]:
    """The string literals of a formula as written in XML (its references read); of a `listed` one (Excel's data
    validation list, "Open,Done"), the values too."""
    found = set()
    for literal in FORMULA_LITERAL.findall(html.unescape(formula)):
        literal = literal.replace('""', '"')
        found.update({literal, *(literal.split(",") if listed else ())})
    return found


def as_compared(value: str) -> str:
    """A cell's value as a spreadsheet compares it with a formula's: without the spaces around it, in any case."""
    return value.strip().casefold()


def code_style(name: str) -> bool:
    """Whether a style's name or id is a code style's ("Source Text", "HTMLCode", "VerbatimChar"; OpenDocument's
    names have the characters an XML name may not hold as hex: "Source_20_Text", and "Source_5f_Text" for pandoc's
    "Source_Text" after LibreOffice saved it)."""
    decoded = re.sub(r"_([0-9A-Fa-f]{2})_", lambda escaped: chr(int(escaped.group(1), 16)), name)
    return CODE_STYLE.search(re.sub(r"[^a-z]", "", decoded.lower())) is not None


class Package:
    """A package's parts that hold paragraphs, and how to read them: `names` of the paragraph elements, `sent_of`
    a paragraph's Inline (None where it is not sent)."""

    def __init__(self, parts: dict[str, str], names: Iterable[str], sent_of: Callable[["Paragraph"], "Inline | None"]):
        self.parts, self.names, self.sent_of = parts, frozenset(names), sent_of

    @functools.cached_property
    def found(self) -> dict[str, list["Paragraph"]]:
        """Each part's paragraphs, found once (`Packages` counts them before another's items, a job counts, lists and
        fills)."""
        return {part: paragraphs(part, xml, self.names) for part, xml in self.parts.items()}

    def paragraphs(self) -> Iterator[tuple[int, "Paragraph"]]:
        """Every paragraph, numbered from 1 across the parts."""
        first = 0
        for found in self.found.values():
            for paragraph in found:
                yield first + paragraph.number, paragraph
            first += len(found)

    def items(self) -> Iterator[tuple[int, str, str]]:
        for number, paragraph in self.paragraphs():
            sent = self.sent_of(paragraph)
            if sent is not None:
                yield number, f"{paragraph.part}#{paragraph.number}", sent.html()

    def count(self) -> int:
        return sum(map(len, self.found.values()))

    def filled(self, translated: dict[int, str], current: dict[str, str] | None = None) -> dict[str, str]:
        """The parts with each translated paragraph made from its translation, the deepest first (found again after
        each depth that filled one: what follows it moved). (`current`: see Numbered.)"""
        filled, first = dict(self.parts), 0
        for part, xml in self.parts.items():
            found = self.found[part]
            for depth in sorted({paragraph.depth for paragraph in found}, reverse=True):
                found = found if found is not None else paragraphs(part, xml, self.names)
                edits = []
                for paragraph in found:
                    number = first + paragraph.number
                    if paragraph.depth == depth and number in translated \
                            and (sent := self.sent_of(paragraph)) is not None:
                        edits.append((paragraph.start, paragraph.end, sent.written(translated[number])))
                if edits:
                    xml, found = documents.spliced(xml, edits), None
            filled[part] = xml
            first += len(self.found[part])
        return filled


class Numbered(Protocol):
    """What a format's package is to batch jobs: its items numbered, how many numbers, its parts filled in (Package,
    Packages, service.epub's Book)."""

    def items(self) -> Iterator[tuple[int, str, str]]: ...

    def count(self) -> int: ...

    def filled(self, translated: dict[int, str], current: dict[str, str] | None = None) -> dict[str, str]:
        """The parts it changes; `current`: the parts as the packages numbered before it filled them (Packages), for
        one that edits what they wrote (AltTexts)."""


class Packages:
    """Packages read one after the other, their paragraphs numbered on from the previous one's (a format's own
    paragraphs first, so that a kind of part added later leaves their numbers as they were)."""

    def __init__(self, *packages: Numbered):
        self.packages = packages

    def _numbered(self) -> Iterator[tuple[int, Numbered]]:
        """Each package with the number before its first paragraph's."""
        first = 0
        for package in self.packages:
            yield first, package
            first += package.count()

    def items(self) -> Iterator[tuple[int, str, str]]:
        for first, package in self._numbered():
            for number, name, text in package.items():
                yield first + number, name, text

    def count(self) -> int:
        return sum(package.count() for package in self.packages)

    def filled(self, translated: dict[int, str], current: dict[str, str] | None = None) -> dict[str, str]:
        filled = dict(current or {})
        for first, package in self._numbered():
            filled.update(package.filled({number - first: text for number, text in translated.items()
                                          if number > first}, filled))  # (numbers past its count fill nothing)
        return filled


@dataclass(frozen=True)
class PackageFormat:
    """An office format as batch jobs read it (batch.DOCUMENTS' calls): its parts `read` from the package, the
    `package` of their paragraphs, `in_german`: the parts that name the document's language, naming German, and
    `tracked`: how many paragraphs with words it keeps as they are for their tracked changes."""
    read: Callable[[Path], dict[str, str]]
    package: Callable[[dict[str, str]], Numbered]
    in_german: Callable[[dict[str, str]], dict[str, str]]
    tracked: Callable[[dict[str, str]], int] = lambda parts: 0

    def check(self, parts: dict[str, str]) -> None:
        """(`read` checks the package.)"""

    def items(self, parts: dict[str, str]) -> Iterator[tuple[int, str, str]]:
        return self.package(parts).items()

    def count(self, parts: dict[str, str]) -> int:
        return self.package(parts).count()

    def filled(self, parts: dict[str, str], translated: dict[int, str], review: bool = True) -> dict[str, str]:
        """The parts with each translated paragraph made from its translation, in German where one was."""
        filled = {**parts, **self.package(parts).filled(translated)}
        return {**filled, **self.in_german(filled)} if translated else filled


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

    def child(self, name: str) -> "Element | None":
        """Its first child element so named (a run's properties, its text)."""
        return next((element for element in self.elements() if element.name == name), None)

    def attribute(self, name: str) -> str | None:
        return documents.attribute(self.start, name)


def parsed(content: str) -> list[Element | str]:
    """A paragraph's content as elements and text."""
    root = Element("", "")
    open_elements = [root]
    done = 0
    for tag in documents.TAG.finditer(content):
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
    """A paragraph of a part: its start tag, where its content is, how many paragraphs hold it."""
    part: str
    number: int  # in its part, in document order of their start tags
    depth: int
    tag: str
    start: int  # of its content, after its start tag
    end: int  # before its end tag
    content: str

    def children(self) -> list[Element | str]:
        return parsed(self.content)


def properties_in_german(parts: dict[str, str], part: str) -> dict[str, str]:
    """The properties `part` with the language it names, where it names one, German."""
    xml = parts.get(part, "")
    return {part: PROPERTIES_LANGUAGE.sub(r"\g<1>de-DE\g<2>", xml)} if PROPERTIES_LANGUAGE.search(xml) else {}


def inside_one_holding(parts: dict[str, str], element: re.Pattern, word: str) -> Callable[[Paragraph], bool]:
    """Whether a paragraph is inside an element (each found whole by `element`) that holds `word` (a comment that
    mentions someone: "mention")."""
    spans = {name: [found.span() for found in element.finditer(xml) if word in found.group()]
             for name, xml in parts.items()}
    return lambda paragraph: documents.inside(spans[paragraph.part], paragraph.start)


def with_tracked_changes(parts: dict[str, str], names: Iterable[str], tracked: set[str]) -> int:
    """How many paragraphs (elements named `names`) hold a change element (`tracked`) and a letter: those a format
    does not send (one around a text box with a change too)."""
    return sum(1 for part, xml in parts.items() for paragraph in paragraphs(part, xml, frozenset(names))
               if holds_any(paragraph.children(), tracked)
               and documents.LETTER.search(re.sub(r"<[^>]*>", "", paragraph.content)))


def holds_any(children: list["Element | str"], names: set[str]) -> bool:
    """Whether a paragraph's content holds an element named one of `names` at any depth (a tracked change)."""
    return any(element.name in names for element in Element("", "", children).descendants())


def text_of(element: Element) -> str:
    """The text an element holds directly (a Word run's ``<w:t>``), its references read."""
    return html.unescape("".join(child for child in element.children if isinstance(child, str)))


def paragraphs(part: str, xml: str, names: frozenset[str]) -> list[Paragraph]:
    """The part's paragraphs (elements named `names`, not empty ones), in document order."""
    open_paragraphs: list[tuple[str, str, int, int]] = []  # (name, start tag, content start, number)
    found: list[Paragraph] = []
    count = 0
    for tag in documents.TAG.finditer(documents.blanked(xml)):  # (a comment's "<w:p>" is none)
        closing, name, _, empty = tag.groups()
        if name not in names or empty:
            continue
        if not closing:
            count += 1
            open_paragraphs.append((name, xml[tag.start():tag.end()], tag.end(), count))
        elif open_paragraphs and open_paragraphs[-1][0] == name:
            _, start_tag, start, number = open_paragraphs.pop()
            found.append(Paragraph(part, number, len(open_paragraphs), start_tag, start, tag.start(),
                                   xml[start:tag.start()]))
    return sorted(found, key=lambda paragraph: paragraph.number)


@dataclass
class Inline:
    """A paragraph as sent: its text by format, its links and what it keeps, by number, and what is written before
    them (`head`: its properties, its bookmarks) and after. Each format says how its text is written (`text_xml`)."""
    head: list[str] = field(default_factory=list)
    tail: list[str] = field(default_factory=list)  # what is written after them (DrawingML's end-of-paragraph marks)
    pieces: list[tuple[str, object]] = field(default_factory=list)  # ("text", (format, text)), ("open", link), ...
    formats: list[str] = field(default_factory=list)  # as the format's markup spells it, by number
    numbered: dict[str, int] = field(default_factory=dict)  # and their numbers
    links: list[tuple[str, str]] = field(default_factory=list)  # a link's start and end tags
    kept: list[str] = field(default_factory=list)

    def text(self, format: str, text: str) -> None:
        number = self.numbered.setdefault(format, len(self.formats))
        if number == len(self.formats):
            self.formats.append(format)
        self.pieces.append(("text", (number, text)))

    def text_lines(self, format: str, text: str) -> None:
        """Text whose line breaks are kept as written (HTML would read one as a space)."""
        for number, piece in enumerate(LINE_BREAK.split(text)):
            if number % 2:
                self.keep(self.text_xml(format, piece))
            else:
                self.text(format, piece)

    def keep(self, written: str) -> None:
        self.kept.append(written)
        self.pieces.append(("kept", len(self.kept) - 1))

    def link(self, element: Element, read: Callable[[list[Element | str]], None]) -> None:
        """A link, its content as `read` reads it."""
        self.links.append((element.start, element.end))
        number = len(self.links) - 1
        self.pieces.append(("open", number))
        read(element.children)
        self.pieces.append(("close", number))

    def base(self) -> int:
        """The format most of the text is in: its text goes without markup."""
        counts = Counter()
        for kind, piece in self.pieces:
            if kind == "text":
                counts[piece[0]] += len(piece[1])
        return counts.most_common(1)[0][0] if counts else 0

    def text_only(self) -> str:
        return "".join(piece[1] for kind, piece in self.pieces if kind == "text")

    def sendable(self) -> "Inline | None":
        """The paragraph where it has a letter to translate."""
        return self if documents.LETTER.search(self.text_only()) else None

    def html(self) -> str:
        """The paragraph as sent: its text escaped, text in another format in spans, links, kept pieces empty."""
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
        """The paragraph's content from its translation (HTML as sent): its head, then its text in the formats the
        spans name, links and kept pieces where the translation put them; a kept piece the translation lost at the
        end (a picture, a footnote is never dropped)."""
        out = list(self.head)
        formats, links, used = [self.base()], [], set()
        done = 0
        for tag in SENT_TAG.finditer(translation):
            self._text(out, translation[done:tag.start()], formats[-1])
            done = tag.end()
            closing, name, number, _ = tag.groups()
            number = int(number) if number is not None else -1
            if name == "span" and not closing and 0 <= number < len(self.formats):
                formats.append(number)
            elif name == "span" and closing and len(formats) > 1:
                formats.pop()
            elif name == "a" and not closing and 0 <= number < len(self.links) and not links:
                links.append(number)
                out.append(self.links[number][0])
            elif name == "a" and closing and links:
                out.append(self.links[links.pop()][1])
            elif name == "x" and 0 <= number < len(self.kept) and number not in used:
                used.add(number)
                out.append(self.kept[number])
        self._text(out, translation[done:], formats[-1])
        out += [self.links[number][1] for number in links]
        out += [kept for number, kept in enumerate(self.kept) if number not in used]
        return "".join(out + self.tail)

    def _text(self, out: list[str], text: str, format: int) -> None:
        text = html.unescape(text)
        if text:
            out.append(self.text_xml(self.formats[format] if self.formats else "", text))

    def text_xml(self, format: str, text: str) -> str:
        """Translated text in a format, as the document writes it."""
        raise NotImplementedError


class PlainText(Inline):
    """Text of characters alone (a document property, a classic PowerPoint comment), its line breaks kept."""

    def read(self, children: list[Element | str]) -> None:
        self.text_lines("", text_of(Element("", "", children)))

    def text_xml(self, format: str, text: str) -> str:
        return escape(text)


def plain_text(paragraph: Paragraph) -> PlainText | None:
    """What is sent for an element of characters alone, or None where it has no letter."""
    sent = PlainText()
    sent.read(paragraph.children())
    return sent.sendable()


class AttributeText(PlainText):
    """An attribute's value as sent (alternative text): written with its quotes and line breaks escaped."""

    def text_xml(self, format: str, text: str) -> str:
        return escape(text, ATTRIBUTE_ESCAPES)


class AltTexts:
    """The parts' alternative texts (`pattern`'s second group: ALT_TEXT, an attribute's value, or ODF_ALT_TEXT, an
    element's characters; `written_as` such), numbered in order, each one item of plain text (its line breaks kept:
    Office's own descriptions end "...\n\nDescription automatically generated"). Filled last, into the parts as the
    paragraphs left them (a picture is a paragraph's kept piece, which a translation may move): each value is
    written where the same value was."""

    def __init__(self, parts: dict[str, str], pattern: re.Pattern = ALT_TEXT,
                 written_as: type[PlainText] = AttributeText):
        self.parts, self.pattern, self.written_as = parts, pattern, written_as
        self.found = [(part, found.group(2)) for part, xml in parts.items() for found in pattern.finditer(xml)]

    def _sent(self, value: str) -> PlainText | None:
        text = html.unescape(value)
        if FILE_NAME.fullmatch(text):
            return None
        sent = self.written_as()
        sent.text_lines("", text)
        return sent.sendable()

    def items(self) -> Iterator[tuple[int, str, str]]:
        for number, (part, value) in enumerate(self.found, 1):
            if sent := self._sent(value):
                yield number, f"{part}#descr{number}", sent.html()

    def count(self) -> int:
        return len(self.found)

    def filled(self, translated: dict[int, str], current: dict[str, str] | None = None) -> dict[str, str]:
        written: dict[str, dict[str, str]] = {}  # by part, each value's translation
        for number, (part, value) in enumerate(self.found, 1):
            if number in translated and (sent := self._sent(value)):
                written.setdefault(part, {})[value] = sent.written(translated[number])
        parts = {**self.parts, **(current or {})}
        return {part: self.pattern.sub(lambda found: found.group(1) + values.get(found.group(2), found.group(2))
                                   + found.group(3), parts[part]) for part, values in written.items()}


def properties(parts: dict[str, str], part: str) -> Package:
    """The document's title, subject and description (PROPERTIES) in its properties `part`, each one item."""
    return Package({part: parts[part]} if part in parts else {}, PROPERTIES, plain_text)


def _in_a_folder(names: list[str], required: str) -> str:
    """What to fix where the package's parts lie in a folder inside it (Debian Edu's manual as an EPUB holds
    "epub/META-INF/container.xml"), which readers do not open either; else nothing."""
    folders = [name.removesuffix(required) for name in names if name.endswith("/" + required)]
    return f" (its parts lie in the folder {folders[0]}: zip them from inside it)" if folders else ""


def read(path: Path, wanted: Callable[[str], bool], required: str, refusal: type[documents.NotDocument],
         kind: str, parsed: Callable[[str], bool] = lambda name: True) -> dict[str, str]:
    """The package's parts that `wanted` names, in the package's order, decoded and checked (well-formed XML, those
    that are `parsed`); `refusal` with what to fix where it is no such package (`kind`: "a Word document (.docx)"),
    one without its `required` entry."""
    older = next((f"; an older {suffix} must be saved as {suffix}x first" for start, suffix in OLDER.items()
                  if required.startswith(start)), "")
    try:
        with zipfile.ZipFile(path) as package:
            if required not in package.namelist():
                raise refusal(f"no {required}: not {kind}{older}{_in_a_folder(package.namelist(), required)}")
            entries = [entry for entry in package.infolist() if wanted(entry.filename)]
            if oversized := [entry for entry in entries if entry.file_size > MAX_PART_BYTES]:
                raise refusal(f"{oversized[0].filename} holds {oversized[0].file_size:,} bytes unpacked, more than "
                              f"the {MAX_PART_BYTES:,} this job reads into memory: split the document")
            parts = {entry.filename: package.read(entry) for entry in entries}
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError) as error:
        raise refusal(f"not a ZIP package ({error}): {kind} is one, but not one saved with a password (save it "
                      f"without){older}") from None
    try:
        decoded = {name: xml.decode("utf-8") for name, xml in parts.items()}
    except UnicodeDecodeError as error:
        raise refusal(f"a part that is not UTF-8 ({error.reason}): save the document again") from None
    for name, xml in decoded.items():
        if not parsed(name):
            continue
        try:
            documents.parsed(xml.removeprefix("\ufeff"), refusal)
        except documents.NotDocument as error:
            raise refusal(f"{name}: {error}: save the document again") from None
    return decoded


def write(source: Path, parts: dict[str, str], target: Path) -> None:
    """The package at `source` written to `target` entry for entry, each compressed as it was, the parts replaced.
    An EPUB's or OpenDocument's mimetype goes first and stored, as their standards require and readers check, where
    the source had it elsewhere too (Sphinx's EPUB books, Debian's Developer's Reference: 15th)."""
    with zipfile.ZipFile(source) as package, zipfile.ZipFile(target, "w") as written:
        for entry in sorted(package.infolist(), key=lambda entry: entry.filename != "mimetype"):
            data = parts[entry.filename].encode("utf-8") if entry.filename in parts else package.read(entry)
            stored = entry.filename == "mimetype"
            written.writestr(entry, data, compress_type=zipfile.ZIP_STORED if stored else entry.compress_type)
