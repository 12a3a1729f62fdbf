"""Word documents (``.docx``, Office Open XML) for batch jobs: which paragraphs to send, and the package written back.

A ``.docx`` file is a ZIP package of XML parts. The parts that hold the document's text are read: its body
(``word/document.xml``), headers, footers, footnotes, endnotes and comments, then the charts' titles and SmartArt
diagrams' text (DrawingML's paragraphs, read as PowerPoint's are: service.pptx), then the document's title, subject and
description (``docProps/core.xml``: office.PROPERTIES) and the pictures' alternative texts (office.AltTexts). Each
paragraph (``<w:p>``; one inside a text box too) is numbered in document order, and each with a letter is sent as an
item, its id the part and the paragraph's number in it. Its runs' text goes as HTML, so that the text pipeline keeps
the markup and puts it back around the words it held: the text in the paragraph's most used formatting as text, a run
formatted otherwise inside ``<span id="N">`` (N: its formatting), a hyperlink, a content control (a form's field; not
one bound to data, but to the document's properties) and a smart tag as ``<a id="N">``, and what a run holds beside
text (a tab, a break, a picture, a footnote's reference, a whole field) and a run in a code style as ``<x id="N"/>``,
written back as it was. Spell-check marks and the last rendering's page breaks are dropped (Word makes them again), and
bookmarks, comment ranges and the like go at the paragraph's start (a heading's bookmark, which a table of contents
links to, still marks its paragraph). Paragraphs with tracked changes and paragraphs in a code style are not sent. The
package is written back entry for entry, each as it was stored, but for the parts read, in which only translated
paragraphs change, their runs made anew from the translation.
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from service import documents, office, pptx
from service.office import Element, Inline, Paragraph

# The parts whose paragraphs are a document's text, in the order they are numbered
PART = re.compile(r"word/(?:document|header\d*|footer\d*|footnotes|endnotes|comments)\.xml")
PART_ORDER = ("word/document.xml", "word/header", "word/footer", "word/footnotes.xml", "word/endnotes.xml",
              "word/comments.xml", "word/charts/", *(f"word/{kind}" for kind in pptx.DIAGRAM_KINDS))
# A chart's titles, a diagram's text: DrawingML's paragraphs (service.pptx)
DRAWINGML = re.compile(rf"word/(?:charts/chart|{'|'.join(pptx.DIAGRAM_KINDS)})\d+\.xml")
STYLE = re.compile(r'<w:[pr]Style\b[^>]*?\bw:val\s*=\s*"([^"]*)"')  # a paragraph's or a run's style
TRACKED = {"w:ins", "w:del", "w:moveFrom", "w:moveTo"}  # a paragraph with tracked changes is not sent
DROPPED = {"w:proofErr", "w:lastRenderedPageBreak"}  # marks Word makes again as it checks spelling and lays out
# Marks of a place or a range, not text: kept at the paragraph's start
ANCHORS = {"w:bookmarkStart", "w:bookmarkEnd", "w:commentRangeStart", "w:commentRangeEnd", "w:permStart",
           "w:permEnd"}
# Inline elements around runs, whose runs are text to translate: a content control (its properties kept, its content
# read; not one bound to data), a smart tag (a name, an address, a date Word marked), custom XML
WRAPPERS = {"w:sdt", "w:smartTag", "w:customXml"}
# A content control bound to the document's title, subject or description (a cover page's fields), which are translated
# too (office.PROPERTIES): its content is read, as Word would write it again from them
BOUND_TO_PROPERTIES = re.compile(r'w:xpath="[^"]*coreProperties[^"]*/(?:\w+:)?(?:title|subject|description)\[1\]"')
FIELD_MARK = re.compile(r'w:fldCharType="(begin|end)"')  # where a field's runs start and end
# A run's language for spelling and hyphenation (its Latin script's: w:val), in its properties or the styles' defaults
LANGUAGE = re.compile(r'(<w:lang\b[^>]*?\bw:val\s*=\s*")([^"]*)(")')
WORD_LANGUAGE = "de-DE"  # what Word calls German
STYLES = "word/styles.xml"
DEFAULT_RUN = re.compile(r"<w:rPrDefault\b.*?</w:rPrDefault\s*>", re.DOTALL)


class NotDocx(documents.NotDocument):
    """The input is not a Word document this job can fill in."""


class Runs(Inline):
    """A Word paragraph as sent: its formats are its runs' properties (``<w:rPr>``) as written."""

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
                    self.keep("".join(field_runs))
                    field_runs, depth = [], 0
            elif child.name == "w:pPr" or child.name in ANCHORS:
                self.head.append(str(child))
            elif child.name in DROPPED:
                continue
            elif child.name == "w:r":
                self._run(child)
            elif child.name == "w:hyperlink" and not in_link:
                self.link(child, lambda content: self.read(content, in_link=True))
            elif child.name in WRAPPERS and not in_link and (wrapper := wrapped(child)) is not None:
                self.link(wrapper, lambda content: self.read(content, in_link=True))  # its marks kept as a link's
            else:  # a simple field, a content control bound to data, an equation...: as written
                self.keep(str(child))
        if field_runs:  # a field that ends in a later paragraph (a table of contents')
            self.keep("".join(field_runs))

    def _run(self, run: Element) -> None:
        """A run's text in its format, and each other thing it holds kept, in a run of its own; a run in a code
        style kept whole."""
        properties = str(run.child("w:rPr") or "")
        if code_style(properties):
            self.keep(str(run))
            return
        for element in run.elements():
            if element.name == "w:t":
                self.text(properties, office.text_of(element))
            elif element.name not in ("w:rPr", *DROPPED):
                self.keep(f"{run.start}{properties}{element}{run.end}")

    def text_xml(self, format: str, text: str) -> str:
        """A run of translated text, in German: Word checks a run's spelling in the language it names."""
        return f'<w:r>{german(format)}<w:t xml:space="preserve">{escape(text)}</w:t></w:r>'


def wrapped(element: Element) -> Element | None:
    """A wrapper's runs (WRAPPERS) as the content of an element whose start is everything before them and whose end
    everything after; None for a content control bound to data (Word writes its content again from the data) but to
    the document's properties (BOUND_TO_PROPERTIES)."""
    children = list(element.children)
    if element.name == "w:sdt":
        content = element.child("w:sdtContent")
        properties = element.child("w:sdtPr")
        bound = properties is not None and "w:dataBinding" in str(properties)
        if content is None or bound and not BOUND_TO_PROPERTIES.search(str(properties)):
            return None
        at = children.index(content)
        return Element(element.name, element.start + "".join(map(str, children[:at])) + content.start,
                       content.children, content.end + "".join(map(str, children[at + 1:])) + element.end)
    first = next((k for k, child in enumerate(children) if isinstance(child, Element)), len(children))
    if first < len(children) and children[first].name.endswith("Pr"):  # its properties (w:smartTagPr) go before
        first += 1
    else:
        first = 0
    return Element(element.name, element.start + "".join(map(str, children[:first])), children[first:], element.end)


def code_style(xml: str) -> bool:
    return any(map(office.code_style, STYLE.findall(xml)))


def german(xml: str) -> str:
    """Properties or styles with each language of Latin script German."""
    return LANGUAGE.sub(lambda found: found.group(1) + WORD_LANGUAGE + found.group(3), xml)


def sent_of(paragraph: Paragraph) -> Runs | None:
    """What is sent for a paragraph, or None where nothing is: no letter, tracked changes, a code style."""
    children = paragraph.children()
    if office.holds_any(children, TRACKED):
        return None
    sent = Runs()
    sent.read(children)
    if any(code_style(head) for head in sent.head):
        return None
    return sent.sendable()


def read(path: Path) -> dict[str, str]:
    """The package's text parts (PART), charts and diagrams, by name in numbering order, its properties, and its
    styles (STYLES: their default language becomes German); NotDocx with what to fix where it is no Word document."""
    parts = office.read(path, lambda name: PART.fullmatch(name) or DRAWINGML.fullmatch(name)
                        or name in (STYLES, pptx.CORE),
                        "word/document.xml", NotDocx, "a Word document (.docx)")
    return {name: parts[name] for name in sorted(parts, key=_part_order)}


def _part_order(name: str) -> tuple[int, str]:
    return next((k for k, start in enumerate(PART_ORDER) if name.startswith(start)), len(PART_ORDER)), name


def package(parts: dict[str, str]) -> office.Packages:
    """The text parts' paragraphs, then the charts' and diagrams', the document's properties and its pictures'
    alternative texts."""
    text = {name: xml for name, xml in parts.items() if PART.fullmatch(name)}
    return office.Packages(office.Package(text, {"w:p"}, sent_of),
                           pptx.drawingml({name: xml for name, xml in parts.items() if DRAWINGML.fullmatch(name)}),
                           office.properties(parts, pptx.CORE), office.AltTexts(text))


def in_german(parts: dict[str, str]) -> dict[str, str]:
    """The styles' defaults for runs that name no language of their own, and the properties' language, German."""
    styles = {STYLES: DEFAULT_RUN.sub(lambda found: german(found.group()), parts[STYLES])} if STYLES in parts else {}
    return styles | office.properties_in_german(parts, pptx.CORE)


def tracked(parts: dict[str, str]) -> int:
    """How many paragraphs with words are kept as they are for their tracked changes."""
    return office.with_tracked_changes({name: xml for name, xml in parts.items() if PART.fullmatch(name)}, {"w:p"},
                                       TRACKED)


FORMAT = office.PackageFormat(read, package, in_german, tracked)
