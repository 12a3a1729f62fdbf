"""What the files batch jobs read whole (batch.DOCUMENTS) share: one refusal, what a text needs to be sent (a letter)
and what says English, and for the XML ones (XLIFF, Android, Qt Linguist and .NET resources, merged XML, office
packages' parts) one check, one way to read an attribute, its tags and its first element, after which each is read by
pattern, its comments, CDATA sections and declarations blanked so that what they hold is never read as an element."""

from __future__ import annotations

import bisect
import html
import math
import re
import xml.etree.ElementTree as ElementTree
from xml.parsers import expat
from pathlib import Path
from typing import Iterable, Iterator, Sequence

# What holds no elements: comments, CDATA sections, processing instructions and the document type declaration, whose
# quoted literals and internal subset may hold any text ("<string>" in a DOCTYPE's system identifier was read as one).
# Each to its end or, never ended, to the text's end: one that had to end looked for its end from each of its starts,
# and 64 KB of "<?" took 9 s, of "<!--" 4.6 s (a megabyte, hours)
LITERAL = r"\"[^\"]*(?:\"|\Z)|'[^']*(?:'|\Z)"
UNREAD = re.compile(rf"<!--.*?(?:-->|\Z)|<!\[CDATA\[.*?(?:\]\]>|\Z)|<\?.*?(?:\?>|\Z)"
                    rf"|<!DOCTYPE(?:[^>\"'\[]|{LITERAL})*"  # each character read one way only: no backtracking
                    rf"(?:\[(?:[^\]\"'<]|<(?!!--)|<!--(?:[^-]|-(?!->))*(?:-->|\Z)|{LITERAL})*(?:\]|\Z))?\s*(?:>|\Z)",
                    re.DOTALL)
DECLARED_ENCODING = re.compile(r"""\ufeff?\s*<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']*)["']""")
UTF8_NAMES = ("utf-8", "utf8", "us-ascii", "ascii")
REFERENCE = re.compile(r"&[\w.:-]+;|&#\d+;|&#x[0-9A-Fa-f]+;")  # an entity's or a character's
SPACES = re.compile(r"[ \t\r\n]+")
# A translation wrapped over lines fills its source's longest line, at least this many columns (a text's lines
# between blocks are short ones: DocBook's "To install it, type:" before a <screen>)
MIN_WIDTH = 72
LETTER = re.compile(r"[^\W\d_]")  # a text without one (codes, numbers, marks alone) is not sent
ENGLISH = re.compile(r"en(?:[-_][A-Za-z0-9]+)*", re.IGNORECASE)  # a language code saying English: en, en-US, en_GB


# An element's start, end or empty tag, attribute values quoted as XML has them: (closing "/", name, attributes, empty
# "/")
TAG = re.compile(r"<(/?)([\w.-]+:?[\w.-]*)((?:\s+[\w.:-]+\s*=\s*(?:\"[^\"]*\"|'[^']*'))*)\s*(/?)>")
# A document's first element, after its declaration, comments and document type (UNREAD)
FIRST_ELEMENT = re.compile(rb"<([A-Za-z_][\w:.-]*)")
UNREAD_BYTES = re.compile(UNREAD.pattern.encode(), re.DOTALL)


class NotDocument(ValueError):
    """The input is not a document of the format the job reads it as; the message says what to fix."""


def parsed(document: str, refusal: type[NotDocument]) -> ElementTree.Element:
    """The document's root element; `refusal` with what to fix where it declares an encoding other than UTF-8
    (`check_encoding`), declares entities (read by pattern, the document's references to them would not be expanded
    as the parser expands them) or is not well-formed XML."""
    check_encoding(document, refusal)
    if "<!ENTITY" in document:
        raise refusal("an entity declaration: the entities a file declares are not expanded here; write their text "
                      "out")
    try:
        return ElementTree.fromstring(document.encode("utf-8"))
    except ElementTree.ParseError as error:
        line, column = error.position
        raise refusal(f"not well-formed XML: {str(error).split(':')[0]} at line {line} column {column + 1}") from None


def check_encoding(document: str, refusal: type[NotDocument]) -> None:
    """`refusal` with what to fix where an XML document declares an encoding other than UTF-8 (it was read as
    UTF-8)."""
    declared = DECLARED_ENCODING.match(document)
    if declared and declared.group(1).lower() not in UTF8_NAMES:
        raise refusal(f'its XML declaration says encoding="{declared.group(1)}", and it reads as UTF-8: convert it '
                      'to UTF-8 (iconv) and declare encoding="utf-8"')


def first_element(path: Path) -> str:
    """The name of an XML file's first element, its root (with its prefix), as its first 64 KB say, comments,
    declarations and the document type taken out (KDE's manuals declare entities of markup there: "<application>");
    "" where they name none or the file cannot be read (the job says what is wrong with it)."""
    try:
        with path.open("rb") as file:
            found = FIRST_ELEMENT.search(UNREAD_BYTES.sub(b"", file.read(65536)))
    except OSError:
        return ""
    return found.group(1).decode("utf-8", "replace") if found else ""


def holds_no_element(path: Path) -> bool:
    """Whether an XML file holds nothing but comments, declarations and white space (a book's chapter commented out
    whole, kept for its translators): a directory's job copies it."""
    if first_element(path):  # (its first 64 KB: read whole only where they hold no element)
        return False
    try:
        return not UNREAD_BYTES.sub(b"", path.read_bytes()).strip()
    except OSError:
        return False  # (the job says what is wrong with it)


def well_formed(content: str) -> bool:
    """Whether a text is well-formed XML element content (a translation to write into a document: a tag the model
    lost or broke makes it none). Its prefixes are names, as in the document that declares them (an SVG text's
    sodipodi:role="line", DocBook 5's xlink:href: a namespace-aware parser refused each as unbound)."""
    try:
        expat.ParserCreate().Parse(f"<x>{content}</x>", True)
    except expat.ExpatError:
        return False
    return True


def sent_or_copied(untranslated: bool, text: str, words: str | None = None) -> tuple[bool, bool]:
    """(sent, copied) for a unit of a file to fill in: an untranslated one whose words (its text, or what of it a
    reader sees) hold a letter is sent; one of no letter but something ("%@", "(%1, %2)") gets its text as it is, as
    String Catalogs, XLIFF and Qt Linguist files want it (left empty, their tools count it untranslated)."""
    sent = untranslated and bool(LETTER.search(text if words is None else words))
    return sent, untranslated and not sent and bool(text.strip())


def attribute(attributes: str, name: str) -> str | None:
    """The value of an XML element's attribute, as written between its quotes; None where it has no such one."""
    found = re.search(rf"""\b{re.escape(name)}\s*=\s*(?:"([^"]*)"|'([^']*)')""", attributes)
    if found is None:
        return None
    return found.group(1) if found.group(1) is not None else found.group(2)


def spliced(document: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """The document with each (start, end) span, given in document order and apart, replaced by its text: every
    format read whole is written back so, character for character but for what it fills in."""
    pieces, done = [], 0
    for start, end, text in edits:
        pieces += [document[done:start], text]
        done = end
    return "".join(pieces) + document[done:]


def inside(spans: Sequence[tuple[int, int]], position: int) -> bool:
    """Whether the position lies in one of the (start, end) spans (sorted, apart)."""
    found = bisect.bisect_right(spans, (position, math.inf)) - 1
    return found >= 0 and spans[found][0] <= position < spans[found][1]


def blanked(document: str) -> str:
    """The document with the characters of each of its parts that hold no elements (comments, CDATA sections, ...)
    but their line breaks as spaces: every position stays, and nothing they hold ("<string>", "</data>") is read as
    an element."""
    return UNREAD.sub(lambda unread: re.sub(r"[^\n]", " ", unread.group()), document)


def wrapped(words: str, spaces: Sequence[int], width: int, column: int, line_break: str) -> str:
    """Words wrapped at the given spaces (positions, in order) to `width` from `column`, each further line after
    `line_break` (a line's end and the indentation of the next); a word longer than a line stays whole."""
    lines, start, line_start = [], 0, 0
    for space in spaces:
        if column + space - line_start > width and start > line_start:
            lines.append(words[line_start:start])
            line_start, column = start + 1, len(line_break.lstrip("\r\n"))
        start = space
    if column + len(words) - line_start > width and start > line_start:
        lines.append(words[line_start:start])
        line_start = start + 1
    lines.append(words[line_start:])
    return line_break.join(lines)


def add_words(out: list[str], words: list[str], piece: str) -> None:
    """Words appended to a text being sent as HTML (`out`) and to its words alone: each run of white space one space,
    none after a space already there (a source's lines, its escaped spaces, are spaces)."""
    piece = SPACES.sub(" ", piece)
    if piece.startswith(" ") and out and out[-1].endswith(" "):
        piece = piece[1:]
    if piece:  # (an empty one would hide the space before it from the next)
        out.append(html.escape(piece, quote=False))
        words.append(piece)


def kept_element(tag: str, source: str) -> str:
    """Markup sent to be kept as written (a command, a formatting code): an element marked translate="no", which the
    pipeline keeps whole, its source as its content (`markup_pieces` reads it back)."""
    return f'<{tag} translate="no">{html.escape(source, quote=False)}</{tag}>'


def markup_pieces(translation: str) -> Iterator[tuple[str, str | re.Match]]:
    """A translation sent as HTML, piece by piece in order, for a format to write back in its own markup: ("text",
    words with their references read), ("kept", the source a kept element holds: `kept_element`) and ("tag", any
    other tag's match); a text piece before each other piece and one after the last, empty or not."""
    at = 0
    while (tag := TAG.search(translation, at)) is not None:
        yield "text", html.unescape(translation[at:tag.start()])
        closing, name, attributes, empty = tag.groups()
        ended = -1 if closing or empty or attribute(attributes, "translate") != "no" else \
            translation.find(f"</{name}>", tag.end())
        if ended >= 0:
            yield "kept", html.unescape(translation[tag.end():ended])
            at = ended + len(name) + 3
        else:
            yield "tag", tag
            at = tag.end()
    yield "text", html.unescape(translation[at:])


def well_formed_translation(translation: str) -> bool:
    """Whether a translation sent as HTML is well-formed element content to write into its document, its references
    (HTML's "&nbsp;", the entities a DocBook book declares, "&kappname;") taken as declared."""
    return well_formed(REFERENCE.sub("", translation))


def stripped(document: str, start: int, end: int) -> tuple[int, int]:
    """The span document[start:end] without the white space around it."""
    text = document[start:end]
    return start + len(text) - len(text.lstrip()), start + len(text.rstrip())


def column(document: str, position: int) -> int:
    """The position's column on its line."""
    return position - (document.rfind("\n", 0, position) + 1)


def layout(source: str, column: int) -> tuple[int, str]:
    """How a translation of a source of several lines, its first starting at `column`, is wrapped (`wrapped`): the
    width of the source's lines (at least MIN_WIDTH), and its line break: the source's line end (a Windows editor's
    "\r\n" kept) and its second line's indentation."""
    lines = [line.rstrip("\r") for line in source.split("\n")]
    width = max(MIN_WIDTH, column + len(lines[0]), *(len(line) for line in lines[1:]))
    indent = next((line[:len(line) - len(line.lstrip())] for line in lines[1:] if line.strip()), "")
    return width, ("\r\n" if "\r\n" in source else "\n") + indent


def laid_out(document: str, start: int, end: int, written: str, spaces: Sequence[int]) -> str:
    """A translation written over a text of several lines, document[start:end]: wrapped at the given spaces as the
    source's lines are laid out (`layout`)."""
    width, line_break = layout(document[start:end], column(document, start))
    return wrapped(written, spaces, width, column(document, start), line_break)
