"""Texinfo (GNU's manuals: sed's, grep's, Wget's, ...) for batch jobs: which texts to send, and the manual written back.

A text is a paragraph (its lines between blank lines and commands; comment, index entry and anchor lines between them go
on it, as Texinfo reads them, and are written before its translation), a heading's or title's words (``@section``,
``@settitle``, ``@center``), a concept index entry (``@cindex``), a list item's paragraph, a table's term where the
table sets its terms as words (``@table @asis``; not ``@table @code``), a multitable's cell, a line of a block laid out
line by line (``@display``, ``@format``), a quotation's label (``@quotation Note``), a menu entry's description (with
its lines indented under it) and a comment line between entries, a footnote's or a float's caption's words. Its brace
commands are sent as HTML: those around words (``@emph{...}``, ``@strong{...}``, ``@dfn{...}``) as elements of their
names, translated inside; every other one (``@code``, ``@var``, ``@file``, ``@xref``, ``@value``, a manual's own macros)
kept as written, an element marked translate="no"; a footnote (``@footnote{...}``) is a placeholder,
``<placeholder-1/>``, so the sentence around it is read whole, and its words a text of its own. Accents and glyphs are
sent as the characters they are (``@"u`` as "ü", ``@dots{}`` as "…", ````quoted''`` as "“quoted”").

Kept as written: code and examples (``@example``, ``@verbatim``, ``@lisp``), raw output (``@tex``, ``@html``), macro
definitions, the directory entry, a block Texinfo does not know (a preprocessor's: lilypond-book's ``@lilypond``, its
inline form ``@lilypond[quote]{c d}`` a kept element), ``@node`` lines and the entries' names and nodes of menus (node
names are what references and menus name), index entries of names (``@findex``, ``@vindex``, ...), definitions' header
lines (``@deffn``), comments, every other line command, and everything after ``@bye``. A text whose braces do not match,
that holds a comment, or whose commands nest deeper than MAX_DEPTH is kept too.

The manual is written back character for character but for the translated texts: a paragraph's translation wrapped to
the width of its source's lines (one on one line stays on one; no line starting with a command of no braces), a line
command's on its line; German written as the characters it is where the manual declares ``@documentencoding UTF-8`` or
holds such characters already (Texinfo 6 and 7 read them so), else as Texinfo's accent and glyph commands (``@"a``,
``@ss{}``, ``@quotedblbase{}``), which every Texinfo reads, symbols as their commands either way (``@dots{}``,
``@print{}``); the manual's language German (its ``@documentlanguage``, one added after ``@setfilename``, or its first
line, where it has none: its header's, not what an example shows or ``@ignore`` holds), so that ``makeinfo --html``
writes "Siehe" for a reference. A translation that is not well-formed (a tag lost) is
not written: its text stays as it was.
"""

from __future__ import annotations

import collections
import itertools
import re
import sys
import unicodedata
from dataclasses import dataclass, field
from typing import Iterator

from service import documents

# Blocks kept as written to their "@end": code and examples, raw output, macro definitions, Info's directory entry (and
# every block Texinfo does not know: KNOWN_BLOCKS)
KEPT_BLOCKS = frozenset("""
example smallexample lisp smalllisp verbatim ignore macro rmacro linemacro tex html docbook latex xml direntry
displaymath
""".split())
# Menus: each entry's description a text (its lines indented under it with it), each line of a comment between
# entries a text; the entries' names and nodes kept
MENUS = frozenset({"menu", "detailmenu"})
# Blocks whose lines are laid out as written (not filled): each line a text of its own, written back on its line
LINE_BLOCKS = frozenset("display smalldisplay format smallformat flushleft flushright".split())
# Blocks that hold paragraphs and other blocks, read as the text around them is; their opening line is kept (a
# definition's header: "@deffn Command sed"), but a quotation's label ("@quotation Note")
OPEN_BLOCKS = frozenset("""
quotation smallquotation itemize enumerate table ftable vtable multitable cartouche group raggedright indentedblock
smallindentedblock float copying titlepage documentdescription nodedescriptionblock ifinfo ifnotinfo iftex ifnottex
ifhtml ifnothtml ifplaintext ifnotplaintext ifdocbook ifnotdocbook iflatex ifnotlatex ifxml ifnotxml ifset ifclear
ifcommanddefined ifcommandnotdefined defblock deffn defun defmac defspec defvr defvar defopt deftypefn deftypefun
deftypevr deftypevar defcv defivar deftypeivar defop defmethod deftypeop deftypemethod deftp deftypecv defline
deftypeline
""".split())
CONDITIONALS = frozenset(name for name in OPEN_BLOCKS if name.startswith("if"))  # "@ifhtml", "@ifset", ...
KNOWN_BLOCKS = KEPT_BLOCKS | MENUS | LINE_BLOCKS | OPEN_BLOCKS
LABELED_BLOCKS = frozenset({"quotation", "smallquotation"})
LISTS = frozenset({"itemize", "enumerate"})
TABLES = frozenset({"table", "ftable", "vtable"})
ITEMIZED = LISTS | TABLES | {"multitable"}  # blocks of items
# Line commands whose argument is words: headings, titles, centered and outdented lines, concept index entries
WORDS_LINES = frozenset("""
top chapter section subsection subsubsection unnumbered unnumberedsec unnumberedsubsec unnumberedsubsubsec appendix
appendixsec appendixsection appendixsubsec appendixsubsubsec majorheading chapheading heading subheading subsubheading
centerchap settitle title subtitle shorttitlepage center exdent cindex
""".split())
# Brace commands around words: their content is translated, the command written around its translation
WORDS = frozenset("emph strong dfn i b r w sansserif slanted titlefont asis sub sup headitemfont".split())
# Brace commands whose content is words of their own (a text apart from the sentence around them)
HOLES = frozenset({"footnote", "caption", "shortcaption"})
COMMENTS = frozenset({"c", "comment"})
# Lines that go on a paragraph rather than end it, as Texinfo reads them: comments and index entries between its lines
# (sed's manual has a "@cindex" line in the middle of a sentence), and an anchor alone on its line (ANCHOR_LINE)
WITHIN_PARAGRAPH = COMMENTS | frozenset("cindex findex kindex pindex tindex vindex anchor".split())
# Glyphs and letters sent as the characters they are (and written back as the commands, but in a UTF-8 manual)
GLYPHS = {"dots": "…", "enddots": "…", "copyright": "©", "registeredsymbol": "®", "bullet": "•", "minus": "−",
          "result": "⇒", "expansion": "↦", "print": "⊣", "equiv": "≡", "tie": "\u00a0", "comma": ",", "atchar": "@",
          "lbracechar": "{", "rbracechar": "}", "backslashchar": "\\", "hashchar": "#", "euro": "€", "pounds": "£",
          "textdegree": "°", "geq": "≥", "leq": "≤", "arrow": "→", "exclamdown": "¡", "questiondown": "¿",
          "ordf": "ª", "ordm": "º", "quotedblleft": "“", "quotedblright": "”", "quoteleft": "‘", "quoteright": "’",
          "quotedblbase": "„", "quotesinglbase": "‚", "guillemetleft": "«", "guillemetright": "»",
          "guilsinglleft": "‹", "guilsinglright": "›", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
          "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "aa": "å", "AA": "Å", "th": "þ", "TH": "Þ", "dh": "ð", "DH": "Ð"}
WRITTEN_GLYPHS = {**{character: f"@{name}{{}}" for name, character in GLYPHS.items() if name not in ("enddots",)},
                  ",": ",", "@": "@@", "{": "@{", "}": "@}", "\\": "\\", "#": "#", "–": "--", "—": "---"}
# Written as their commands in a UTF-8 manual too (but letters, quotation marks and dashes, which read as themselves)
WRITTEN_SYMBOLS = {character: WRITTEN_GLYPHS[character] for character in "@{}…©®•−⇒↦⊣≡\u00a0€£°≥≤→¡¿ªº"}
# Accents: on the next letter ('@"u') or on a braced one ('@,{c}', '@v{c}')
ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303", "=": "\u0304", ",": "\u0327",
           "H": "\u030b", "v": "\u030c", "u": "\u0306", "dotaccent": "\u0307", "ringaccent": "\u030a",
           "ogonek": "\u0328", "udotaccent": "\u0323", "ubaraccent": "\u0331", "tieaccent": "\u0361"}
WRITTEN_ACCENTS = {mark: name for name, mark in ACCENTS.items()}
READ = WORDS | HOLES | frozenset(GLYPHS) | frozenset(ACCENTS) | {"U", "verb"}  # brace commands read, not kept
UNBRACED_ACCENTS = frozenset("\"'`^~=")  # written before their letter ('@"a'); the others around it ('@,{c}')
# Commands of one character that are text: an escaped character, a sentence's end, a space
SYMBOLS = {"@": "@", "{": "{", "}": "}", ".": ".", "?": "?", "!": "!", ":": "", "-": "", "/": "", "&": "&",
           " ": " ", "\t": " ", "\n": " ", "\r": " ", "\\": "\\"}
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
LINE_COMMAND = re.compile(r"[ \t]*@([A-Za-z][A-Za-z0-9_-]*)(?![A-Za-z0-9_-])")
CONTINUED = re.compile(r"(?<!@)(?:@@)*@\r?$")  # a line command's line that goes on on the next ("@deffn ... @")
BARE_COMMAND = re.compile(r"@[A-Za-z][A-Za-z0-9_-]*(?![A-Za-z0-9_{-])")  # "@refill", "@noindent": no braces
# A menu's entry up to its description: "* Node name::" or "* Entry: Node name." (a node's name ends at a full stop, a
# comma or a tab)
MENU_ENTRY = re.compile(r"\*[ \t]+(?:[^:\n]*::|[^:\n]*:[ \t]*[^.,\t\n]*[.,\t])")
END = re.compile(r"[ \t]*@end[ \t]+([A-Za-z][A-Za-z0-9_-]*)")
END_LINE = re.compile(r"(?m:^)[ \t]*@end[ \t]+([A-Za-z][A-Za-z0-9_-]*)")
TAB = re.compile(r"@tab(?![A-Za-z0-9_-])")
UTF8 = re.compile(r"utf-?8", re.IGNORECASE)  # a @documentencoding's
PLACEHOLDER = re.compile(r"placeholder-(\d+)")  # a hole's element, as sent
OPTIONS = re.compile(r"\[[^\]\n{}@]*\](?=\{)")  # a preprocessor's command's, "@lilypond[quote]{c d}": before its braces
HEXADECIMAL = re.compile(r"[0-9A-Fa-f]{1,6}")  # "@U{00FC}", a character by its code point
SPECIAL = re.compile(r"[@{}]")  # where a text's plain words end
ESCAPED = re.compile(r"@.")  # "@{", "@}", "@@": no brace
ANCHOR_LINE = re.compile(r"[ \t]*@anchor\{[^{}\n]*\}[ \t]*\r?")  # kept on its line, outside a paragraph too
COMMAND_LINE = re.compile(r"(?m:^)[ \t]*@[A-Za-z]")
MAX_DEPTH = 50  # brace commands inside each other in one text (a manual's nest three or four deep)


# A text as read: the HTML sent, its words (outside kept commands), its holes' (command, start, end) in the document
Read = tuple[str, str, list[tuple[str, int, int]]]


class NotTexinfo(documents.NotDocument):
    """The input is no Texinfo."""


@dataclass
class Text:
    """A stretch of the manual that holds words: sent where it has some outside kept commands, its footnotes' and
    captions' words texts of their own either way."""
    line: int  # 1-based, of its start
    what: str  # "paragraph", "@section", "cell", ...
    start: int  # of its source in the document
    end: int
    one_line: bool  # written back on one line (a line command's argument, a cell, a line laid out as written)
    sent: str = ""  # the HTML sent ("" where it is kept as written)
    holes: list[Text] = field(default_factory=list)  # its footnotes and captions, <placeholder-1/> the first
    # a paragraph's comment and index entry lines between its lines (WITHIN_PARAGRAPH): the start of each's command
    # and the end of its line (its "\r" too), and the text of an index entry's words; written before the paragraph
    within: list[tuple[int, int, Text | None]] = field(default_factory=list)
    number: int = 0  # 1-based, in document order, of the texts sent

    def inner(self) -> list[Text]:
        """Its footnotes', captions' and index entries' texts, in document order."""
        return sorted([*self.holes, *(text for _, _, text in self.within if text)], key=lambda text: text.start)


def check(document: str) -> None:
    """NotTexinfo where the document has words and no Texinfo command at a line's start (a file named .texi that is
    not one)."""
    opening = document.lstrip("\ufeff \t\r\n")
    if opening and not opening.startswith("\\input") and not COMMAND_LINE.search(document):
        raise NotTexinfo("it has no Texinfo command (\\input texinfo, @node, @chapter, @section, ...)")


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, "line:what", text) of each text to send."""
    return ((text.number, f"{text.line}:{text.what}", text.sent) for text in _sent_texts(_read(document).found))


def count(document: str) -> int:
    """How many texts the document sends: the highest number an item can have."""
    return sum(1 for _ in _sent_texts(_read(document).found))


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each translated text in place, its language German (Texinfo has no mark of a translation to
    review: `review` changes nothing)."""
    read = _read(document)
    # (Texinfo 6 and 7 read UTF-8 undeclared)
    utf8 = UTF8.fullmatch(read.encoding) is not None if read.encoding else not document.isascii()
    edits = [(text.start, text.end, _written(document, text, translated, utf8)) for text in read.found]
    return documents.spliced(document, sorted([*edits, *read.german()]))


def _sent_texts(found: list[Text]) -> Iterator[Text]:
    for text in found:
        if text.sent:
            yield text
        yield from _sent_texts(text.inner())


def _read(document: str) -> Reader:
    """The manual read, its texts in document order numbered (`Reader`)."""
    reader = Reader(document)
    numbers = itertools.count(1)
    for text in _sent_texts(reader.texts()):
        text.number = next(numbers)
    return reader


class Reader:
    """The manual's lines in order, each read by the blocks open around it."""

    def __init__(self, document: str):
        self.document = document
        self.found: list[Text] = []
        # where the last "@end NAME" of each block Texinfo does not know is: a preprocessor's, which is kept as written
        # (lilypond-book's "@lilypond", whose music was sent as words)
        self.unknown_ends = {ended.group(1): ended.start() for ended in END_LINE.finditer(document)
                             if ended.group(1) not in KNOWN_BLOCKS}
        # the open blocks' names, arguments and the block their lines are read by (a conditional's, "@ifhtml", the
        # block around it: the lines of a menu's "@ifset" are a menu's), innermost last
        self.blocks: list[tuple[str, str, str]] = []
        self.lists: list[tuple[str, str, str]] = []  # those of them whose items "@item" starts (lists, tables)
        self.open = collections.Counter()  # how many blocks of each name are open
        self.paragraph: list[tuple[int, int, int]] = []  # (line, start, end) of the paragraph's lines so far
        # its header's commands (outside kept blocks: FFmpeg's manuals hold a "@setfilename" in an "@ignore"): the
        # ends of its first line ("\input texinfo") and of its "@setfilename" line, its language's span, its encoding
        self.input_end: int | None = None
        self.file_name_end: int | None = None
        self.language: tuple[int, int] | None = None
        self.encoding = ""
        self.paragraph_kind = "paragraph"  # or "menu": a menu entry's description
        self.depth = 0  # of the braces open at the paragraph's last line's end
        self.item_line = False  # whether the paragraph started on an item's line
        # the paragraph's comment and index entry lines so far: (line, command's name, its start, the name's end, the
        # line's end before and after its "\r")
        self.within: list[tuple[int, str, int, int, int, int]] = []

    def texts(self) -> list[Text]:
        kept: tuple[str, int] | None = None  # a kept block's name and how deep the same name is open in it
        offset, continued = 0, False  # continued: the line goes on a command's line that ended in "@"
        for number, line in enumerate(self.document.split("\n"), start=1):
            start, offset = offset, offset + len(line) + 1
            end = start + len(line.rstrip("\r"))
            if continued:
                continued = CONTINUED.search(line) is not None
            elif kept:
                kept = self._kept_block(line, *kept)
            elif number == 1 and line.lstrip("\ufeff").startswith("\\input"):
                self.input_end = end
            elif not line.strip():
                self._end_paragraph()
            elif command := LINE_COMMAND.match(line):
                name = command.group(1)
                if name == "bye":
                    break
                braced = line.startswith("{", command.end())
                anchor = ANCHOR_LINE.fullmatch(line) is not None
                if (anchor or not braced) and self._goes_on_paragraph(name, line):
                    self.within.append((number, name, start + command.start(1) - 1, start + command.end(), end,
                                        start + len(line)))
                elif anchor and not self.paragraph:
                    pass
                elif not braced:
                    self._end_paragraph()
                    kept = self._command(name, number, start + command.end(), end)
                    continued = CONTINUED.search(line) is not None
                else:
                    self._text_line(number, start + command.start(1) - 1, end)
            else:
                self._text_line(number, start + len(line) - len(line.lstrip()), end)
        self._end_paragraph()
        return self.found

    def _goes_on_paragraph(self, name: str, line: str) -> bool:
        """Whether a line command's line is read within the paragraph open (a comment or an index entry between its
        lines, outside braces; not right after an item's line: "@item none", "@vindex none", "Do not use color."
        reads as one paragraph, but its author meant a label and its description)."""
        return (name in WITHIN_PARAGRAPH and bool(self.paragraph) and self.paragraph_kind == "paragraph"
                and self.depth == 0 and CONTINUED.search(line) is None
                and not (self.item_line and len(self.paragraph) == 1))

    def _kept_block(self, line: str, name: str, depth: int) -> tuple[str, int] | None:
        if (ended := END.match(line)) and ended.group(1) == name:
            return (name, depth - 1) if depth > 1 else None
        command = LINE_COMMAND.match(line)
        return (name, depth + 1) if command and command.group(1) == name else (name, depth)

    def _command(self, name: str, number: int, start: int, end: int) -> tuple[str, int] | None:
        """A line command's line, from after its name: what it opens or closes, its argument's text where it has
        one; a kept block it opens (its name, depth 1)."""
        argument = documents.stripped(self.document, start, end)
        self._header(name, end, argument)
        if name in KEPT_BLOCKS or (self.unknown_ends.get(name, -1) > end and "{" not in self.document[start:end]):
            return name, 1  # (an unknown one's line of braces, "@lilypond[quote]{c d e}", is its inline form)
        if name == "end":
            closed = self.document[argument[0]:argument[1]].split()
            while closed and self.open[closed[0]]:  # (an "@end" of no open block closes none)
                popped = self.blocks.pop()
                self.open[popped[0]] -= 1
                if popped[0] in ITEMIZED:
                    self.lists.pop()
                if popped[0] == closed[0]:
                    break
        elif name in OPEN_BLOCKS or name in LINE_BLOCKS or name in MENUS:
            around = self.blocks[-1][2] if self.blocks else ""
            self.blocks.append((name, self.document[argument[0]:argument[1]], around if name in CONDITIONALS else name))
            self.open[name] += 1
            if name in ITEMIZED:
                self.lists.append(self.blocks[-1])
            if name in LABELED_BLOCKS:
                self._add(number, f"@{name}", *argument, one_line=True)
        elif name in WORDS_LINES:
            self._add(number, f"@{name}", *argument, one_line=True)
        elif name in ("item", "itemx", "headitem", "tab"):
            self._item(name, number, *argument)
        return None

    def _header(self, name: str, end: int, argument: tuple[int, int]) -> None:
        if name == "setfilename" and self.file_name_end is None:
            self.file_name_end = end
        elif name == "documentlanguage" and self.language is None and argument[0] < argument[1]:
            self.language = argument
        elif name == "documentencoding" and not self.encoding:
            self.encoding = self.document[argument[0]:argument[1]]

    def german(self) -> list[tuple[int, int, str]]:
        """The edit that makes the manual German: its @documentlanguage's argument "de", else a @documentlanguage
        added after its @setfilename line (or its first line, "\\input texinfo"); none where it has neither (a
        chapter its manual includes)."""
        if self.language:
            return [(*self.language, "de")]
        header_end = self.file_name_end if self.file_name_end is not None else self.input_end
        if header_end is None:
            return []
        ending = "\r\n" if self.document.startswith("\r", header_end) else "\n"
        line_end = self.document.find("\n", header_end)
        if line_end < 0:
            return [(len(self.document), len(self.document), f"{ending}@documentlanguage de")]
        return [(line_end + 1, line_end + 1, f"@documentlanguage de{ending}")]

    def _item(self, name: str, number: int, start: int, end: int) -> None:
        """An item's line: a list item's paragraph starts after it, a table's term is a text where the table sets
        its terms as words, each cell of a multitable's row a text."""
        block, argument, _ = self.lists[-1] if self.lists else ("", "", "")
        if block in LISTS:
            if start < end:
                self._paragraph_line(number, start, end)
                self.item_line = True
        elif block in TABLES:
            style = argument.strip().lstrip("@")
            if style in WORDS or style == "":
                self._add(number, f"@{name}", start, end, one_line=True)
        elif block == "multitable":
            cells, done = [], start
            for tab in TAB.finditer(self.document, start, end):
                cells.append((done, tab.start()))
                done = tab.end()
            for cell_start, cell_end in [*cells, (done, end)]:
                self._add(number, "cell", *documents.stripped(self.document, cell_start, cell_end), one_line=True)

    def _text_line(self, number: int, start: int, end: int) -> None:
        block = self.blocks[-1][2] if self.blocks else ""
        if block in MENUS:
            self._menu_line(number, start, end)
        elif block in LINE_BLOCKS:
            self._add(number, "line", start, end, one_line=True)
        else:
            self._paragraph_line(number, start, end)

    def _paragraph_line(self, number: int, start: int, end: int) -> None:
        self.paragraph.append((number, start, end))
        words = ESCAPED.sub("", self.document[start:end])
        self.depth += words.count("{") - words.count("}")

    def _menu_line(self, number: int, start: int, end: int) -> None:
        """A menu's line: an entry, whose description starts a text; a line indented under it, which goes on with
        that text; a comment between entries, a text of its own. A line starting with "*" that is no entry is
        kept."""
        indented = self.document[start - 1:start] in (" ", "\t")
        if self.document.startswith("*", start):
            self._end_paragraph()
            if entry := MENU_ENTRY.match(self.document, start, end):
                description = documents.stripped(self.document, entry.end(), end)
                if description[0] < description[1]:
                    self.paragraph, self.paragraph_kind = [(number, *description)], "menu"
        elif indented and self.paragraph:
            self.paragraph.append((number, start, end))
        else:
            self._end_paragraph()
            self._add(number, "line", start, end, one_line=True)

    def _end_paragraph(self) -> None:
        """The paragraph open as a text, the comment and index entry lines between its lines in it; those after its
        last line read as they would be alone."""
        if self.paragraph:
            first, start, _ = self.paragraph[0]
            last, _, end = self.paragraph[-1]
            within = [line for line in self.within if line[0] < last]
            if within:
                self.found.append(self._paragraph_within(first, start, end, within))
            else:
                self._add(first, self.paragraph_kind, start, end, one_line=len(self.paragraph) == 1)
            for number, name, _, name_end, end, _ in self.within[len(within):]:
                self._command(name, number, name_end, end)
        self.paragraph, self.paragraph_kind, self.depth, self.within, self.item_line = [], "paragraph", 0, [], False

    def _paragraph_within(self, line: int, start: int, end: int, within: list[tuple[int, str, int, int, int, int]]) \
            -> Text:
        """A paragraph whose lines hold comment and index entry lines: its words read as if those were blank, and
        an index entry's words a text of its own."""
        pieces, at = [], start
        for _, _, command_start, _, _, line_end in within:
            pieces += [self.document[at:command_start], " " * (line_end - command_start)]
            at = line_end
        blanked = "".join([*pieces, self.document[at:end]])
        text = _moved(_text(blanked, line, "paragraph", 0, end - start, one_line=False), start)
        for number, name, command_start, name_end, end, line_end in within:
            words = documents.stripped(self.document, name_end, end)
            entry = _text(self.document, number, f"@{name}", *words, one_line=True) \
                if name in WORDS_LINES and words[0] < words[1] else None
            text.within.append((command_start, line_end, entry))
        return text

    def _add(self, line: int, what: str, start: int, end: int, one_line: bool) -> None:
        if start < end:
            self.found.append(_text(self.document, line, what, start, end, one_line))


def _text(document: str, line: int, what: str, start: int, end: int, one_line: bool) -> Text:
    """The text of document[start:end], sent where it reads (`_html`) and holds a letter outside kept commands; its
    footnotes' and captions' texts (a footnote's own footnote, which Texinfo does not have, kept in it)."""
    text = Text(line, what, start, end, one_line)
    read = _html(document, start, end, holes_kept=what in HOLES)
    if read is None:
        return text
    sent, words, holes = read
    text.sent = sent if documents.LETTER.search(words) else ""
    text.holes = [_text(document, line, name, hole_start, hole_end, one_line=False)
                  for name, hole_start, hole_end in holes]
    return text


def _moved(text: Text, offset: int) -> Text:
    """A text read from a piece of the document that starts at `offset`, its positions (and its holes') in the
    document."""
    text.start, text.end = text.start + offset, text.end + offset
    text.holes = [_moved(hole, offset) for hole in text.holes]
    return text


def _html(document: str, start: int, end: int, holes_kept: bool = False) -> Read | None:
    """A text's source as HTML, what of it is words (outside kept commands), and its holes' (name, start, end);
    None where it cannot be read whole (braces that do not match, a comment, commands nested too deep)."""
    closing = _closing_braces(document, start, end)
    if closing is None:
        return None
    out, words, holes, open_words = [], [], [], []  # open_words: (name, position of its "}") of each open element
    at = start
    while at < end:
        limit = open_words[-1][1] if open_words else end
        if at == limit:
            out.append(f"</{open_words.pop()[0]}>")
            at += 1
            continue
        if document[at] == "{":  # braces of no command (TeX's grouping): kept
            out.append(_kept("code", document[at:closing[at] + 1]))
            at = closing[at] + 1
            continue
        if document[at] != "@":
            found = SPECIAL.search(document, at, limit)
            stop = found.start() if found else limit
            documents.add_words(out, words, document[at:stop].replace("``", "“").replace("''", "”"))
            at = stop
            continue
        name_found = NAME.match(document, at + 1, end)
        name = name_found.group() if name_found else document[at + 1:min(at + 2, end)]
        after = at + 1 + len(name)
        if name not in READ and (options := OPTIONS.match(document, after, end)):
            after = options.end()  # (the whole command kept)
        braced = after < end and document[after] == "{"
        if not name or name in COMMENTS:
            return None
        if name in ACCENTS and (accented := _accented(document, name, after, end, closing)):
            letter, at = accented
            documents.add_words(out, words, letter)
        elif not braced:  # "@@", "@." and the like are text; "@*" a line break; a macro's name kept
            if (symbol := SYMBOLS.get(name)) is not None:
                documents.add_words(out, words, symbol)
            else:
                out.append("<br/>" if name == "*" else _kept(name, document[at:after]))
            at = after
        elif (close := _verb_end(document, after, end) if name == "verb" else closing[after]) is None:
            return None
        elif name in WORDS:
            if len(open_words) >= MAX_DEPTH:
                return None
            out.append(f"<{name}>")
            open_words.append((name, close))
            at = after + 1
        else:
            inner = document[after + 1:close]
            if name in HOLES and not holes_kept:
                holes.append((name, after + 1, close))
                out.append(f"<placeholder-{len(holes)}/>")
            elif name in GLYPHS and not inner:
                documents.add_words(out, words, GLYPHS[name])
            elif name == "U" and (character := _code_point(inner)):
                documents.add_words(out, words, character)
            else:
                out.append(_kept(name, document[at:close + 1]))
            at = close + 1
    return "".join(out).strip(), "".join(words), holes


def _code_point(inner: str) -> str:
    """The character "@U{...}" names, where it is a printable one ("" else: kept as written)."""
    value = int(inner, 16) if HEXADECIMAL.fullmatch(inner) else -1
    return chr(value) if 0 <= value <= sys.maxunicode and chr(value).isprintable() else ""


def _closing_braces(document: str, start: int, end: int) -> dict[int, int] | None:
    """The position of the "}" that closes each "{" between start and end (escaped braces, "@{", skipped); None where
    they do not match."""
    closing, open_at, at = {}, [], start
    while at < end:
        character = document[at]
        if character == "@":
            if document.startswith("verb{", at + 1):
                if (verb_end := _verb_end(document, at + 5, end)) is None:
                    return None  # (looked for again from each later one, unended ones took quadratic time)
                closing[at + 5] = verb_end
                at = verb_end + 1
                continue
            at += 2
            continue
        if character == "{":
            open_at.append(at)
        elif character == "}":
            if not open_at:
                return None
            closing[open_at.pop()] = at
        at += 1
    return None if open_at else closing


def _verb_end(document: str, brace: int, end: int) -> int | None:
    """The "}" that ends "@verb{<d>...<d>}", whose delimiter <d> follows its brace."""
    if brace + 1 >= end:
        return None
    delimiter = document[brace + 1]
    found = document.find(delimiter + "}", brace + 2, end)
    return found + 1 if found >= 0 else None


def _accented(document: str, name: str, after: int, end: int, closing: dict[int, int]) -> tuple[str, int] | None:
    """An accented letter ('@"u', '@,{c}', '@v{c}') and the position after it; None where it is not one."""
    if after < end and document[after] == "{":
        close = closing[after]
        letter = document[after + 1:close]
        done = close + 1
    elif len(name) == 1 and not name.isalpha() and after < end:
        letter, done = document[after], after + 1
    else:
        return None
    if len(letter) != 1 or not letter.isalpha():
        return None
    return unicodedata.normalize("NFC", letter + ACCENTS[name]), done


def _kept(name: str, source: str) -> str:
    """A command kept as written, its white space one space (as Texinfo reads it: a paragraph's lines may end inside a
    command), but in "@verb{...}"."""
    source = source if "@verb{" in source else documents.SPACES.sub(" ", source)
    return documents.kept_element(name if NAME.fullmatch(name) else "code", source)


def _written(document: str, text: Text, translated: dict[int, str], utf8: bool) -> str:
    """A text as written back: its translation where it has a well-formed one, laid out as its source is, else its
    source; its holes and the lines read within it written either way."""
    inner = {id(part): _written(document, part, translated, utf8) for part in text.inner()}
    source = documents.spliced(document[text.start:text.end], [
        (part.start - text.start, part.end - text.start, inner[id(part)]) for part in text.inner()])
    translation = translated.get(text.number, "") if text.sent else ""
    writable = translation and documents.well_formed_translation(translation)
    holes = [(hole.what, inner[id(hole)]) for hole in text.holes]
    written = _texinfo(translation, holes, utf8) if writable else None
    if written is None or BARE_COMMAND.match(written):  # (a line that starts so is that command's line)
        return source
    if text.one_line or "\n" not in document[text.start:text.end]:
        return written
    written = documents.laid_out(document, text.start, text.end, written, _breaks(written))
    if not text.within:
        return written
    # the lines read within it each on its line, indented as its first, before it (after it where its first line
    # starts with a command: "@item ...")
    lines = [documents.spliced(document[command:line_end], [] if entry is None else [
        (entry.start - command, entry.end - command, inner[id(entry)])]) for command, line_end, entry in text.within]
    indent = document[text.start - documents.column(document, text.start):text.start]
    if indent.strip():
        return written + "".join(("\r\n" if line.endswith("\r") else "\n") + line.rstrip("\r") for line in lines)
    return "".join(f"{line}\n{indent}" for line in lines) + written


def _texinfo(translation: str, holes: list[tuple[str, str]], utf8: bool) -> str | None:
    """A translation (HTML) as Texinfo: its elements the commands they were sent for, a kept one's source as it was,
    each placeholder its hole (one lost after the words), its words escaped; None where it holds a tag it was not
    sent with."""
    pieces, placed = [], set()
    for kind, piece in documents.markup_pieces(translation):
        if kind == "text":
            pieces.append(_escaped(documents.SPACES.sub(" ", piece), utf8))
            continue
        if kind == "kept":
            pieces.append(piece)
            continue
        closing, name, _, empty = piece.groups()
        if (placeholder := PLACEHOLDER.fullmatch(name)) and empty:
            number = int(placeholder.group(1))
            if 1 <= number <= len(holes) and number not in placed:
                placed.add(number)
                pieces.append(f"@{holes[number - 1][0]}{{{holes[number - 1][1]}}}")
        elif name == "br":
            pieces.append("@*")
        elif name in WORDS and not empty:
            pieces.append("}" if closing else f"@{name}{{")
        else:
            return None
    lost = "".join(f"@{name}{{{hole}}}" for number, (name, hole) in enumerate(holes, start=1) if number not in placed)
    return "".join(pieces).strip() + lost


def _escaped(text: str, utf8: bool) -> str:
    """Text as Texinfo writes it: "@", "{" and "}" escaped, symbols as their glyph commands ("@dots{}", "@print{}",
    "@tie{}", which read as the manual's did); in a manual that is not UTF-8, every other character outside ASCII as
    its glyph or accent command ('@"a', '@quotedblbase{}'), or @U{...}."""
    commands = WRITTEN_GLYPHS if not utf8 else WRITTEN_SYMBOLS
    return "".join(commands[character] if character in commands
                   else character if utf8 or character.isascii() else _accent_command(character)
                   for character in text)


def _accent_command(character: str) -> str:
    decomposed = unicodedata.normalize("NFD", character)
    if len(decomposed) != 2 or not decomposed[0].isascii() or decomposed[1] not in WRITTEN_ACCENTS:
        return f"@U{{{ord(character):04X}}}"
    letter, name = decomposed[0], WRITTEN_ACCENTS[decomposed[1]]
    return f"@{name}{letter}" if name in UNBRACED_ACCENTS else f"@{name}{{{letter}}}"


def _breaks(written: str) -> list[int]:
    """The spaces a line may end at: not an escaped space ("@ "), one inside "@verb{...}" (newlines elsewhere are
    spaces to Texinfo, in a command's braces too) nor one before a command without braces (a line it started would be
    that command's line)."""
    spaces, at = [], 0
    while at < len(written):
        if written.startswith("@verb{", at) and (verb_end := _verb_end(written, at + 5, len(written))) is not None:
            at = verb_end + 1
        elif written[at] == "@":
            at += 2
        else:
            if written[at] == " " and not BARE_COMMAND.match(written, at + 1):
                spaces.append(at)
            at += 1
    return spaces
