"""OpenDocument texts (``.odt``, LibreOffice's), presentations (``.odp``, Impress') and spreadsheets (``.ods``, Calc's)
for batch jobs: which paragraphs to send, and the package written back.

The parts that hold the document's text are read: its body (``content.xml``) and its styles (``styles.xml``: the
headers and footers of its page styles). Each paragraph and heading (``<text:p>``, ``<text:h>``; a footnote's, a
frame's, a table cell's too) is numbered in document order and each with a letter is sent as an item, its id the part
and the paragraph's number in it, as HTML (service.office): text in a span of another style in ``<span id="N">``, a
link as ``<a id="N">``, and a tab, a line break, a footnote, a frame (a picture), a field and text in a code style as
``<x id="N"/>``, written back as it was. Page breaks the layout made (``<text:soft-page-break/>``) are dropped,
bookmarks go at the paragraph's start; paragraphs in a code style (Preformatted Text, pandoc's code blocks) and
paragraphs with tracked changes are not sent. The package is written back entry for entry (its ``mimetype`` first and
stored, as readers need), its translated paragraphs made anew, the default language of its styles German. A
presentation is read alike, its slides and speaker notes (``content.xml``), not its masters' prompts (``styles.xml``);
text in a typewriter's font is code there, as LibreOffice writes a code span, and in a text too. A spreadsheet's
string cells and notes are read alike; not a cell whose text shows a value (a number, a date, a formula's result),
nor a string that a formula, a validity condition or a filter names as a value (translated, it would no longer match).
The document's title, subject and description (``meta.xml``: office.PROPERTIES) are items after all of these, then
the alternative texts of its pictures and shapes (their ``<svg:title>`` and ``<svg:desc>``: office.AltTexts).
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from xml.sax.saxutils import escape

from service import documents, office
from service.office import Element, Inline, Paragraph

CONTENT, STYLES, META = "content.xml", "styles.xml", "meta.xml"
TRACKED = {"text:change", "text:change-start", "text:change-end"}  # a paragraph with tracked changes is not sent
DROPPED = {"text:soft-page-break"}  # where the last layout broke the page: made again
ANCHORS = {"text:bookmark", "text:bookmark-start", "text:bookmark-end"}  # kept at the paragraph's start
# A style's name ("Source_20_Text": the "_20_" a space) and what an automatic style is based on
STYLE_NAME = re.compile(r'\btext:style-name\s*=\s*"([^"]*)"')
AUTOMATIC_STYLE = re.compile(r'<style:style\b[^>]*?\bstyle:name\s*=\s*"([^"]*)"[^>]*?'
                             r'\bstyle:parent-style-name\s*=\s*"([^"]*)"')
DEFAULT_STYLE = re.compile(r"<style:default-style\b.*?</style:default-style\s*>", re.DOTALL)
LANGUAGE = re.compile(r'\b(fo:language|fo:country)(\s*=\s*")([^"]*)(")')
GERMAN = {"fo:language": "de", "fo:country": "DE"}
# A style's name and its properties; a font's declaration; the fonts a style's text is in
STYLE = re.compile(r'<style:style\b[^>]*?\bstyle:name\s*=\s*"([^"]*)"[^>]*(?<!/)>(.*?)</style:style\s*>', re.DOTALL)
FONT_FACE = re.compile(r'<style:font-face\b[^>]*?\bstyle:name\s*=\s*"([^"]*)"[^>]*>')
FIXED_PITCH = re.compile(r'\bstyle:font-pitch\s*=\s*"fixed"')
FONT = re.compile(r'\b(?:style:font-name|fo:font-family)\s*=\s*"([^"]*)"')
MONOSPACED = re.compile(r"(?i:courier|consolas|mono|menlo|monaco|lucida console|source code)")
# A spreadsheet's cells (which hold no cells), what their text shows, their notes; where its formulas, validity
# conditions and filters name a value
CELL = re.compile(r"<table:table-cell\b([^>]*)(?<!/)>(.*?)</table:table-cell\s*>", re.DOTALL)
VALUE_TYPE = re.compile(r'\boffice:value-type\s*=\s*"([^"]*)"|$')
FORMULA = re.compile(r"\btable:formula\s*=")
NOTE = re.compile(r"<office:annotation\b.*?</office:annotation\s*>", re.DOTALL)
CONDITION = re.compile(r'\btable:(?:formula|condition)\s*=\s*"([^"]*)"')
FILTER_VALUE = re.compile(r'<table:filter-condition\b[^>]*?\btable:value\s*=\s*"([^"]*)"')
# ODF reads a run of spaces as one (the others go as <text:s text:c="N"/>), and drops a space that starts a paragraph
# or follows a space (one that a span before ended with): LibreOffice writes such a space <text:s/> (a footnote's first)
SPACES = re.compile(r"  +")
LEADING_SPACES = re.compile(r"^ +")


class NotOdt(documents.NotDocument):
    """The input is not an OpenDocument text this job can fill in."""


class Spans(Inline):
    """An OpenDocument paragraph as sent: its formats are the spans its text is in (their start tags, outermost
    first)."""

    def __init__(self, code_styles: set[str]):
        super().__init__()
        self.code_styles = code_styles
        self.after_space = True  # as written so far: at the paragraph's start or after a space

    def read(self, children: list[Element | str], spans: str = "", in_link: bool = False) -> None:
        for child in children:
            if not isinstance(child, Element):
                self.text(spans, html.unescape(child))
            elif child.name in DROPPED:
                continue
            elif child.name in ANCHORS:
                self.head.append(str(child))
            elif child.name == "text:s":
                self.text(spans, " " * int(child.attribute("text:c") or 1))
            elif child.name == "text:span" and not self._code(child):
                self.read(child.children, spans + child.start, in_link)
            elif child.name == "text:a" and not in_link:
                self.link(child, lambda content: self.read(content, spans, in_link=True))
            else:  # a tab, a line break, a note, a frame, a field, a bookmark, code: as written
                self.keep(str(child))

    def _code(self, element: Element) -> bool:
        return any(name in self.code_styles for name in STYLE_NAME.findall(element.start))

    def written(self, translation: str) -> str:
        self.after_space = True
        return super().written(translation)

    def text_xml(self, format: str, text: str) -> str:
        """Text in its spans, its spaces written as ODF keeps them (SPACES)."""
        written = escape(text)
        if self.after_space:
            written = LEADING_SPACES.sub(lambda run: f'<text:s text:c="{len(run.group())}"/>', written)
        written = SPACES.sub(lambda run: f' <text:s text:c="{len(run.group()) - 1}"/>', written)
        self.after_space = text.endswith(" ") if text else self.after_space
        return format + written + "</text:span>" * format.count("<text:span")


def code_styles(parts: dict[str, str]) -> set[str]:
    """The styles for code: those whose name says so (office.CODE_STYLE), those in a typewriter's font (fixed pitch, as
    a font's declaration says, or a monospaced name: LibreOffice writes a presentation's code runs so), and the
    automatic ones based on them."""
    names = set(STYLE_NAME.findall("".join(parts.values())))
    parents = {name: parent for xml in parts.values() for name, parent in AUTOMATIC_STYLE.findall(xml)}
    monospaced = {face.group(1) for xml in parts.values() for face in FONT_FACE.finditer(xml)
                  if FIXED_PITCH.search(face.group()) or MONOSPACED.search(face.group(1))}
    typewritten = {style.group(1) for xml in parts.values() for style in STYLE.finditer(xml)
                   if any(font in monospaced or MONOSPACED.search(font) for font in FONT.findall(style.group(2)))}
    return {name for name in names | set(parents) | typewritten
            if office.code_style(name) or office.code_style(parents.get(name, "")) or name in typewritten
            or parents.get(name) in typewritten}


def package(parts: dict[str, str]) -> office.Packages:
    """The content's and styles' paragraphs, then the document's properties (its title, subject and description),
    then its alternative texts."""
    code = code_styles(parts)
    content = parts.get(CONTENT, "")
    kept, named = (kept_cells(content), named_values(content)) if "<office:spreadsheet" in content else ([], set())

    def sent_of(paragraph: Paragraph) -> Spans | None:
        """What is sent for a paragraph, or None where nothing is: no letter, tracked changes, a code style, a
        spreadsheet's cell that is no string or a value its formulas name."""
        children = paragraph.children()
        if office.holds_any(children, TRACKED) \
                or any(name in code for name in STYLE_NAME.findall(paragraph.tag)) \
                or paragraph.part == CONTENT and documents.inside(kept, paragraph.start):
            return None
        sent = Spans(code)
        sent.read(children)
        return None if named and office.as_compared(sent.text_only()) in named else sent.sendable()

    # A presentation's styles hold its masters, whose text is prompts ("Click to edit Master title style"): not sent
    presentation = "<office:presentation" in content
    texts = {name: parts[name] for name in ((CONTENT,) if presentation else (CONTENT, STYLES)) if name in parts}
    return office.Packages(office.Package(texts, {"text:p", "text:h"}, sent_of), office.properties(parts, META),
                           office.AltTexts(texts, office.ODF_ALT_TEXT, office.PlainText))


def kept_cells(content: str) -> list[tuple[int, int]]:
    """(start, end) of a spreadsheet's cells whose text shows a value, not a string (a number, a date, a truth value,
    a formula's result: written again from the value), and of their notes, which are text (a gap in what is kept)."""
    kept = []
    for cell in CELL.finditer(content):
        if FORMULA.search(cell.group(1)) or (VALUE_TYPE.search(cell.group(1)).group(1) or "string") != "string":
            notes = [note.span() for note in NOTE.finditer(content, cell.start(), cell.end())]
            ends = [cell.start(), *(position for span in notes for position in span), cell.end()]
            kept += list(zip(ends[::2], ends[1::2]))
    return kept


def named_values(content: str) -> set[str]:
    """The strings a spreadsheet's formulas, validity conditions and filters name as values, as compared."""
    named = {literal for formula in CONDITION.findall(content) for literal in office.formula_literals(formula)}
    return {office.as_compared(html.unescape(value)) for value in named | set(FILTER_VALUE.findall(content))}


def read(path: Path) -> dict[str, str]:
    """The package's content, styles and properties; NotOdt with what to fix where it is no OpenDocument text."""
    parts = office.read(path, lambda name: name in (CONTENT, STYLES, META), CONTENT, NotOdt,
                        "an OpenDocument text, presentation or spreadsheet (.odt, .odp, .ods)")
    return {name: parts[name] for name in (CONTENT, STYLES, META) if name in parts}


def in_german(parts: dict[str, str]) -> dict[str, str]:
    """The default styles' language, and the properties', German."""
    properties = office.properties_in_german(parts, META)
    if STYLES not in parts:
        return properties
    return properties | {STYLES: DEFAULT_STYLE.sub(lambda style: LANGUAGE.sub(
        lambda found: found.group(1) + found.group(2) + GERMAN[found.group(1)] + found.group(4), style.group()),
        parts[STYLES])}


def tracked(parts: dict[str, str]) -> int:
    """How many paragraphs and headings with words are kept as they are for their tracked changes."""
    return office.with_tracked_changes(parts, {"text:p", "text:h"}, TRACKED)


FORMAT = office.PackageFormat(read, package, in_german, tracked)
