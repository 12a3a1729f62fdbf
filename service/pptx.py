"""PowerPoint presentations (``.pptx``, Office Open XML) for batch jobs: which paragraphs to send, and the package
written back.

The slides (``ppt/slides/slideN.xml``), their speaker notes (``ppt/notesSlides/notesSlideN.xml``), the charts' titles
(``ppt/charts/chartN.xml``) and SmartArt diagrams' text are read, in the order of their numbers, then comments
(COMMENTS), then the document's title, subject and description (CORE) and the pictures' alternative texts
(office.AltTexts); layouts and masters (their prompts, "Click to edit Master title style") are not. A diagram's text is
in two parts, read alike: its data (``ppt/diagrams/dataN.xml``, what PowerPoint lays the diagram out from) and its
drawing (``drawingN.xml``, the shapes as last laid out, which LibreOffice shows). Each paragraph of their text
(DrawingML's ``<a:p>``: a shape's, a table cell's) with a letter is sent as an item, its id the part and the
paragraph's number in it, as HTML (service.office): text in another run format (bold, a link's: DrawingML writes a link
into its run's properties) in ``<span id="N">``, a line break, a field (a slide's number, a date) and a run in a
typewriter's font (code) as ``<x id="N"/>``, written back as it was. A paragraph's properties stay its first element
and its end-of-paragraph properties its last. The translated runs' language is German (``lang="de-DE"``: PowerPoint
checks a run's spelling in it).
"""

from __future__ import annotations

import re
from pathlib import Path
from xml.sax.saxutils import escape

from service import documents, office
from service.office import Element, Inline, Paragraph

DIAGRAM_KINDS = ("diagrams/data", "diagrams/drawing")  # a SmartArt diagram's two parts, in any package's diagrams/

# The parts read, in the order they are numbered (a kind added later goes last: earlier numbers, and so resumed jobs,
# stay as they were)
KINDS = ("slides/slide", "notesSlides/notesSlide", "charts/chart", *DIAGRAM_KINDS)
PART = re.compile(rf"ppt/({'|'.join(KINDS)})(\d+)\.xml")
# Comments on slides, read after the rest: PowerPoint's classic ones (commentN.xml: a comment's text in <p:text>) and
# its modern ones (modernComment_<slide>_<hash>.xml: DrawingML's paragraphs). A thread that mentions someone is not
# sent (where a mention sits in its text is not read here, and a translation would move it)
COMMENTS = re.compile(r"ppt/comments/(?:comment\d+|modernComment[^/]*)\.xml")
THREAD = re.compile(r"<((?:\w+:)?)cm\b.*?</\1cm\s*>", re.DOTALL)
CLASSIC_COMMENT = "p:text"
CORE = "docProps/core.xml"  # the document's properties (office.PROPERTIES), read by Word and Excel too
LANGUAGE = re.compile(r'(<a:rPr\b[^>]*?\blang\s*=\s*")([^"]*)(")')
POWERPOINT_LANGUAGE = "de-DE"
# A run in a typewriter's font: code (pandoc sets code spans and blocks in Courier), kept as it is
MONOSPACED = re.compile(r'\btypeface\s*=\s*"[^"]*(?i:courier|consolas|mono|menlo|monaco|lucida console|source code)')


class NotPptx(documents.NotDocument):
    """The input is not a PowerPoint presentation this job can fill in."""


class TextRuns(Inline):
    """A DrawingML paragraph as sent: its formats are its runs' properties (``<a:rPr>``) as written."""

    def read(self, children: list[Element | str]) -> None:
        for child in children:
            if not isinstance(child, Element):
                continue  # white space between elements
            if child.name == "a:pPr":
                self.head.append(str(child))
            elif child.name == "a:endParaRPr":
                self.tail.append(str(child))
            elif child.name == "a:r" and not MONOSPACED.search(str(child)):
                text = child.child("a:t")
                self.text(str(child.child("a:rPr") or ""), office.text_of(text) if text is not None else "")
            else:  # a line break, a field, code: as written
                self.keep(str(child))

    def text_xml(self, format: str, text: str) -> str:
        """A run of translated text, in German."""
        german = LANGUAGE.sub(lambda found: found.group(1) + POWERPOINT_LANGUAGE + found.group(3), format)
        return f"<a:r>{german}<a:t>{escape(text)}</a:t></a:r>"


def sent_of(paragraph: Paragraph) -> TextRuns | None:
    """What is sent for a paragraph, or None where it has no letter."""
    sent = TextRuns()
    sent.read(paragraph.children())
    return sent.sendable()


def read(path: Path) -> dict[str, str]:
    """The slides, then their notes, the charts' (their titles), the diagrams', each kind by number, then the comments;
    NotPptx with what to fix where it is no presentation."""
    parts = office.read(path, lambda name: PART.fullmatch(name) or COMMENTS.fullmatch(name) or name == CORE,
                        "ppt/presentation.xml", NotPptx, "a PowerPoint presentation (.pptx)")
    return {name: parts[name] for name in sorted(parts, key=_part_order)}


def _part_order(name: str) -> tuple[int, int, str]:
    """A part's kind and number; the comments' after them, by name."""
    if found := PART.fullmatch(name):
        return KINDS.index(found.group(1)), int(found.group(2)), ""
    return len(KINDS), 0, name


def package(parts: dict[str, str]) -> office.Packages:
    """The slides', notes', charts' and diagrams' paragraphs, then the comments', the document's properties and the
    pictures' alternative texts (a kind added later goes last: earlier numbers, and so resumed jobs, stay as they
    were)."""
    slides = {name: xml for name, xml in parts.items() if PART.fullmatch(name)}
    return office.Packages(drawingml(slides),
                           comments_package({name: xml for name, xml in parts.items() if COMMENTS.fullmatch(name)}),
                           office.properties(parts, CORE), office.AltTexts(slides))


def drawingml(parts: dict[str, str]) -> office.Package:
    """DrawingML's paragraphs (``<a:p>``) of these parts: a slide's, a chart's, a diagram's, in any package."""
    return office.Package(parts, {"a:p"}, sent_of)


def comments_package(comments: dict[str, str]) -> office.Package:
    """The comments' paragraphs: a classic comment's text, a modern one's DrawingML paragraphs; none of a thread
    that mentions someone."""
    mentioning = office.inside_one_holding(comments, THREAD, "mention")

    def comment_sent_of(paragraph: Paragraph) -> Inline | None:
        if mentioning(paragraph):
            return None
        return office.plain_text(paragraph) if paragraph.tag.startswith(f"<{CLASSIC_COMMENT}") else sent_of(paragraph)

    return office.Package(comments, {"a:p", CLASSIC_COMMENT}, comment_sent_of)


FORMAT = office.PackageFormat(read, package, lambda parts: office.properties_in_german(parts, CORE))
