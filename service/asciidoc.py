"""AsciiDoc (Asciidoctor's documentation pages, git's manual pages) a block at a time: which lines are words to
translate, and what of each is markup to keep and write back. Read line by line (the default for a .adoc file before)
or as Markdown paragraphs, a page's markup came back translated or broken: of git's manual pages, a synopsis ("git stash
list" as "git Stash-Liste"), a listing's code, a list's or a description list's marks, and section titles whose
underline no longer matched their length, so that Asciidoctor read them as paragraphs (of 73 pages of git's and
Asciidoctor's documentation, 16 kept their block structure, 46 of 519 listings and literal blocks their text).

The reader follows Asciidoctor's grammar (its parser's rules, lib/asciidoctor/rx.rb) as far as telling blocks apart
needs: a page is read as runs of lines between blank lines (`paragraph_runs`), and each run cut into pieces of whole
lines, each one item of the batch job: kept as written, or its words sent with the marks before and after it kept."""

import re
from dataclasses import dataclass, field

from service.rst import Paragraph, indentation

# Delimited blocks whose lines are kept, code or markup (closed by the same line): a listing, a literal block, a
# passthrough, a comment, a fenced code block; and tables (but the cells of a "|===" one, read line by line)
VERBATIM_DELIMITER = re.compile(r"(-{4,}|\.{4,}|\+{4,}|/{4,}|[|,:!]={3,})[ \t]*|(```)[\w+#.-]*[ \t]*")
# A table's cells ("|===", Asciidoctor's PSV): a cell's mark, its style after its span and alignment ("2+|", "h|",
# "a|"), and an unescaped "|" that starts another cell on the same line; the styles whose cells are code or blocks
TABLE = "|==="
CELL = re.compile(r"(?:\d+\*)?(?:\d+(?:\.\d+)?\+)?[<^>]?(?:\.[<^>])?([adehlmsv])?\|[ \t]*")
CELL_SEPARATOR = re.compile(r"(?<!\\)\|")
KEPT_CELLS = {"a", "l", "m"}
# Delimited blocks whose content is blocks like any other (an example, a sidebar, a quotation, an open block)
COMPOUND_DELIMITER = re.compile(r"(={4,}|\*{4,}|_{4,}|~{4,}|--)[ \t]*")
# A block's attribute list ("[source,java]", "[NOTE]", "[#id.role]", "[verse, Author]"), an anchor ("[[install]]")
BLOCK_ATTRIBUTES = re.compile(r"\[(?:|[\w.#%{,\"'].*)\]|\[\[[\w:.-]+(?:,.*)?\]\][ \t]*")
# Styles that make the next block verbatim (its paragraph, or an open block "--"): code, markup, math, a comment, and
# git's synopsis (a command's syntax)
VERBATIM_STYLES = {"source", "listing", "literal", "pass", "stem", "latexmath", "asciimath", "comment", "synopsis"}
# A manual page's synopsis before git 2.45 named it `synopsis`: a verse (174 of the 174 in git 2.39's manual pages;
# sent, "'git push' [--all | --tags]" came back as "'Größe' [--all | --tags]"). Elsewhere a verse is a poem's or a
# quotation's lines, and a synopsis section's paragraph may be words ("Used by linkgit:...").
SYNOPSIS_TITLE = re.compile(r"(?i:synopsis)(?:\[\[[\w:.-]+\]\])?")
ATTRIBUTE_ENTRY = re.compile(r":!?\w[^:]*:(?:[ \t].*)?")  # ":toc: left", ":experimental:", ":!sectnums:"
CONTINUED = re.compile(r"[ \t](?:\+|\\)$")  # an attribute entry's value goes on on the next line
COMMENT_LINE = re.compile(r"//(?!//)")  # "// a comment" ("////" opens a comment block)
# A block macro ("include::a.adoc[]", "image::b.png[B]", "endif::[]")
BLOCK_MACRO = re.compile(r"\w[\w-]*::(?:\S|\S.*?\S)?\[.*\][ \t]*")
BREAK = re.compile(r"(?:'{3,}|<{3,}|---|\*\*\*|- - -|\* \* \*)[ \t]*")  # a thematic or page break
LIST_CONTINUATION = re.compile(r"\+[ \t]*")
TITLE = re.compile(r"(={1,6}|#{1,6})([ \t]+)(.*?\S)(?:[ \t]+\1)?[ \t]*")  # "== Install", "= Guide ="
TWO_LINE_TITLE_LINE = re.compile(r"(?!\.)[^\n]*[^\W_][^\n]*")
UNDERLINE = re.compile(r"([=\-~^+])\1*[ \t]*")
BLOCK_TITLE = re.compile(r"\.(?=\.?[^ \t.])")  # ".Example" (not "..", an ordered list's mark, nor "....")
ADMONITION = re.compile(r"(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]+(?=\S)")
# A list item's marks: unordered ("*", "**", "-", "•", a checkbox after them), ordered (".", "..", "1.", "a.", "iv)"),
# a callout's ("<1>")
LIST_ITEM = re.compile(r"[ \t]*(?:(?:-|\*{1,5}|•)[ \t]+(?:\[[ x*]\][ \t]+)?|(?:\.{1,5}|\d+\.|[a-zA-Z]\.|[IVXivx]+\))"
                       r"[ \t]+|<(?:\d+|\.)>[ \t]+)(?=\S)")
# A term that is one word marked as a whole: a command's or option's name ("'dcommit'::", git's manual pages; "`-q`::"),
# kept (sent, "'fetch'" came back as "'Abheben'")
NAME = re.compile(r"(['_*`+#])[^\s'_*`+#]+\1")
# A description list's term and its marks ("--quiet::", "Working tree:: The files...", "CPU;;"), the description after
TERM = re.compile(r"(?!//[^/])([ \t]*)([^ \t].*?)(:{2,4}|;;)(?:$|([ \t]+)(?=\S))")
TERM_APART = "\n\n"  # between a term and its description sent as one text (`Reader._described`)
# A term of words before its description on its line: a capitalized word or several words, apart by spaces ("CPU::
# The brain ...", "Hard drive:: Permanent storage ..."). Of git's manual pages' 31 terms with a description on their
# line, 30 are values or code, kept as written ("true;;", "none;;", "checkout;;", "H;;", "<value>;;", "`+`;;");
# "custom command;;" is words. A name in small letters joined by hyphens ("export-ignore") is code.
WORDS_TERM = re.compile(r"[A-Z][A-Za-z-]*[A-Za-z](?: [A-Za-z-]+)*|[A-Za-z-]+(?: [A-Za-z-]+)+")
# A term on a line of its own is sent when it is words (`is_words`): a term of words, or a heading or question from a
# capital ("Why do I have a file that's always modified?", "Set to string value "lf""), an anchor before it and
# emphasis around it aside ("[[def_blob_object]]blob object"). Otherwise it is a value, a command or code, kept as
# written: of the 1,285 distinct terms on lines of their own in git's manual pages, 151 are one word in small letters
# (values and subcommands: "none::", "upstream::", "start::"; sent, "upstream" came back as "Aufwärtsstrom") and most
# of the others code ("pull <repository> <remote-ref>::" came back as "<repository> <remote-ref> ziehen::",
# "incremental-repack::" as "Inkremental-Repack::"); 56 are terms of words.
SENTENCE_TERM = re.compile(r"[A-Z]\S* \S.*")
TERM_WRAPPING = re.compile(r"(?:\[\[[\w:.-]+(?:,[^\]]*)?\]\])?([*_]{0,2})(.*?)\1")


@dataclass
class Reader:
    """Pieces of each run of lines in document order, told apart by what came before: a delimited block that a
    blank line does not end, the style an attribute list gave the next block, a description list's term whose
    description follows, the document's header."""
    closing: str | None = None  # the line that ends the open verbatim block
    style: str | None = None  # of the next block, from its attribute list
    after_term: bool = False  # a term without its description: an indented paragraph is its description, not literal
    started: bool = False  # a block was read: a "= Title" now is a section's, not the document's
    attributes: str = ""  # the last attribute list, as written
    cells: bool = False  # in a table whose cells are read
    cell_kept: bool = False  # in a table: the open cell is code or blocks ("a|", "l|", "m|"), kept
    synopsis: bool = False  # in a section titled SYNOPSIS, where a verse is a command's syntax
    pieces: list[tuple[int, Paragraph]] = field(default_factory=list)

    def read(self, lines: list[str]) -> list[tuple[int, Paragraph]]:
        """The run's pieces: (lines it spans, what of them is sent and kept), covering the run in order."""
        self.pieces = []
        if not any(line.strip() for line in lines):  # blank lines: no block, nothing changes
            self._kept(lines, 0, len(lines))
            return self.pieces
        start = 0
        while start < len(lines):
            start = self._block(lines, start)
        return self.pieces

    def _kept(self, lines: list[str], start: int, end: int) -> int:
        self.pieces.append((end - start, Paragraph("", "\n".join(lines[start:end]))))
        return end

    def _block(self, lines: list[str], start: int) -> int:
        """Reads the block (or the kept line) starting at `start`; returns where the next one starts."""
        line = lines[start]
        if self.closing == TABLE and self.cells:
            return self._table_line(lines, start)
        if self.closing is not None:  # inside a verbatim block: kept to its closing line
            end = start
            while end < len(lines) and lines[end].rstrip() != self.closing:
                end += 1
            if end < len(lines):
                self.closing, end = None, end + 1
            return self._kept(lines, start, end)
        if delimiter := VERBATIM_DELIMITER.fullmatch(line):
            self.closing = delimiter.group(2) or delimiter.group(1)
            self.cells = self.closing == TABLE and "format=" not in self.attributes  # not CSV's or DSV's: kept
            self.style, self.attributes, self.cell_kept = None, "", False
            return self._kept(lines, start, start + 1)
        if delimiter := COMPOUND_DELIMITER.fullmatch(line):
            if self._verbatim(self.style) and delimiter.group(1) == "--":
                self.closing = "--"
            self.style = None
            return self._kept(lines, start, start + 1)
        if BLOCK_ATTRIBUTES.fullmatch(line):
            self.attributes = line
            if not line.startswith("[["):
                self.style = re.split(r"[,#.%]", line[1:-1].strip(), maxsplit=1)[0].strip().lower() or self.style
            return self._kept(lines, start, start + 1)
        if ATTRIBUTE_ENTRY.fullmatch(line):  # with the lines its value goes on over (after " +" or " \\")
            end = start + 1
            while end < len(lines) and CONTINUED.search(lines[end - 1]):
                end += 1
            return self._kept(lines, start, end)
        if LIST_CONTINUATION.fullmatch(line):  # attaches a block: one offset by a space is literal, as anywhere
            self.after_term = False
            return self._kept(lines, start, start + 1)
        if COMMENT_LINE.match(line) or BLOCK_MACRO.fullmatch(line) or BREAK.fullmatch(line):
            return self._kept(lines, start, start + 1)
        if (title := self._two_line_title(lines, start)) is not None:
            return title
        style, self.style = self.style, None
        if self._verbatim(style):
            return self._kept(lines, start, len(lines))
        if title := TITLE.fullmatch(line):
            return self._title(lines, start, title)
        if BLOCK_TITLE.match(line) and not LIST_ITEM.match(line):
            self.style = style  # a block's title keeps the style for its block
            return self._text(lines, start, start + 1, ".")
        after_term, self.after_term = self.after_term, False
        self.started = True
        if item := LIST_ITEM.match(line):
            return self._text(lines, start, self._paragraph_end(lines, start + 1), item.group(0))
        if term := TERM.match(line):
            return self._term(lines, start, term)
        if line[:1] in " \t" and not after_term:  # a literal paragraph: offset by a space
            return self._kept(lines, start, len(lines))
        if admonition := ADMONITION.match(line):
            return self._text(lines, start, self._paragraph_end(lines, start + 1), admonition.group(0))
        return self._text(lines, start, self._paragraph_end(lines, start + 1))

    def _verbatim(self, style: str | None) -> bool:
        """Whether a block of this style is kept as written (VERBATIM_STYLES, and SYNOPSIS_TITLE's verse)."""
        return style in VERBATIM_STYLES or (style == "verse" and self.synopsis)

    def _table_line(self, lines: list[str], start: int) -> int:
        """A line of a table ("|==="): a cell alone on its line ("|Sets the document type.", "h|Name") sent with
        the lines it goes on over, its mark kept; a line of several cells, a cell of code or blocks ("a|", "l|",
        "m|") and what goes on from it, a comment and the closing line kept. (A line of several cells is one item,
        and one item is one text.)"""
        line = lines[start]
        if line.rstrip() == TABLE:
            self.closing, self.cells = None, False
            return self._kept(lines, start, start + 1)
        cell = CELL.match(line)
        if COMMENT_LINE.match(line) or (cell is None and self.cell_kept) or CELL_SEPARATOR.search(
                line, cell.end() if cell else 0):
            return self._kept(lines, start, start + 1)
        if cell is not None:
            self.cell_kept = cell.group(1) in KEPT_CELLS
            if self.cell_kept:
                return self._kept(lines, start, start + 1)
        end = start + 1
        while end < len(lines) and not (CELL.match(lines[end]) or lines[end].rstrip() == TABLE
                                        or COMMENT_LINE.match(lines[end]) or CELL_SEPARATOR.search(lines[end])):
            end += 1
        return self._text(lines, start, end, cell.group(0) if cell else "")

    def _two_line_title(self, lines: list[str], start: int) -> int | None:
        """A section title underlined ("NAME" over "----"): its words sent, its underline written as long as the
        translation (Asciidoctor reads a line longer or shorter by two or more as no title)."""
        if start + 1 >= len(lines):
            return None
        title, underline = lines[start], lines[start + 1].rstrip()
        if not (UNDERLINE.fullmatch(underline) and TWO_LINE_TITLE_LINE.fullmatch(title)
                and abs(len(title) - len(underline)) < 2 and not LIST_ITEM.match(title) and title[:1] not in " \t"):
            return None
        self.started, self.style, self.synopsis = True, None, bool(SYNOPSIS_TITLE.fullmatch(title.strip(" \t")))
        mark = underline[0]
        self.pieces.append((2, Paragraph(title.strip(" \t"), written_as=lambda text: f"{text}\n{mark * len(text)}")))
        return start + 2

    def _title(self, lines: list[str], start: int, title: re.Match) -> int:
        """A section title ("== Install"); the document's ("= Guide") is followed by its header: an author's line, a
        revision's, attribute entries, all kept."""
        line = lines[start]
        self.synopsis = bool(SYNOPSIS_TITLE.fullmatch(title.group(3)))
        self.pieces.append((1, Paragraph(title.group(3), line[:title.start(3)], line[title.end(3):])))
        header = not self.started and title.group(1) == "=" and start + 1 < len(lines)
        self.started = True
        return self._kept(lines, start + 1, len(lines)) if header else start + 1

    def _term(self, lines: list[str], start: int, term: re.Match) -> int:
        """A description list's term: sent alone if it is words (`is_words`; a name, a value or code kept), its
        description the next block; or, where the description follows on its line, sent with it if it is a term of
        words (`_described`), else kept with its marks."""
        line = lines[start]
        if term.group(4) is not None:
            if WORDS_TERM.fullmatch(term.group(2)):
                return self._described(lines, start, term)
            return self._text(lines, start, self._paragraph_end(lines, start + 1), line[:term.end()])
        self.after_term = True
        if NAME.fullmatch(term.group(2)) or not is_words(term.group(2)):
            return self._kept(lines, start, start + 1)
        self.pieces.append((1, Paragraph(term.group(2), term.group(1), line[term.end(2):])))
        return start + 1

    def _described(self, lines: list[str], start: int, term: re.Match) -> int:
        """A term and its description on one line ("Hard drive:: Permanent storage ..."), the description going on
        over the paragraph's lines: one text, the term a paragraph of its own before the description (a blank line
        between, which the text pipeline keeps as written), written back with the marks between. Kept with its
        marks, the term stayed English."""
        end = self._paragraph_end(lines, start + 1)
        description = "\n".join([lines[start][term.end():], *lines[start + 1:end]])
        words = description.rstrip(" \t")
        marks = term.group(3) + term.group(4)

        def written(translation: str) -> str:
            name, _, described = translation.partition(TERM_APART)
            return f"{name}{marks}{described}"

        self.pieces.append((end - start, Paragraph(f"{term.group(2)}{TERM_APART}{words}", term.group(1),
                                                   description[len(words):], written)))
        return end

    def _text(self, lines: list[str], start: int, end: int, before: str = "") -> int:
        """Words from `before` on to `end`: the first line's indentation kept with its marks."""
        first = lines[start][len(before):]
        indent = indentation(first)
        text = "\n".join([first[indent:], *lines[start + 1:end]])
        self.pieces.append((end - start, Paragraph(text.rstrip(" \t"), before + first[:indent],
                                                   text[len(text.rstrip(" \t")):])))
        return end

    @staticmethod
    def _paragraph_end(lines: list[str], start: int) -> int:
        """Where a paragraph (or a list item's text) that goes on from `start` ends: at the run's end or at a line
        that starts a block of its own (a list item, a term, a delimiter, an attribute list, a comment, a "+")."""
        end = start
        while end < len(lines) and not _starts_block(lines[end]):
            end += 1
        return end


def is_words(term: str) -> bool:
    """Whether a term on a line of its own is words to translate (SENTENCE_TERM's comment)."""
    core = TERM_WRAPPING.fullmatch(term).group(2)
    return bool(WORDS_TERM.fullmatch(core) or SENTENCE_TERM.fullmatch(core))


def _starts_block(line: str) -> bool:
    return bool(LIST_ITEM.match(line) or TERM.match(line) or VERBATIM_DELIMITER.fullmatch(line)
                or COMPOUND_DELIMITER.fullmatch(line) or BLOCK_ATTRIBUTES.fullmatch(line) or COMMENT_LINE.match(line)
                or LIST_CONTINUATION.fullmatch(line) or BLOCK_MACRO.fullmatch(line))
