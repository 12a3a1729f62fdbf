"""Manual pages in roff's man macros (man(7)), a piece of whole lines at a time: which lines are words to translate,
and what is markup to keep. Read line by line (a "*.1" file's default before), 1,010 of the 3,843 requests of 40 pages
came back changed (".SH NAME" as ".SH-NAME", '.SH "SEE ALSO"' as '.SH "SIE AUCH"', ".el .ds Aq '" lost its quote),
groff warned 357 times, a sentence was cut wherever it names a command in bold (".B ls" on its own line), and a code
example (".nf" to ".fi") was sent as words.

A paragraph is a run of text lines and of the macros that set a few words in a font (".B", ".IR", ...): the macros
are sent as the font escapes they mean ("\\fBls\\fR(1)"), which the pipeline keeps as items, and the translation is
written back as text lines, as many as the paragraph had. A standard section's heading (".SH NAME", ".SH SEE ALSO") is
written as German manual pages name it; other headings (".SH", ".SS") are sent sentence-cased and written in capitals
where they were; the NAME section's line sends only what follows its "\\-"; a tag after ".TP" is sent
alone; the synopsis, code and tables (".nf", ".EX", ".TS", ".EQ", pod2man's ".Vb"), macro definitions, conditionals,
comments (one within a paragraph written after it), lines set apart by a leading space or a shell's prompt ("$ ls") and
every other request are kept as written. BSD's mdoc(7) pages are read so too: their headings (".Sh", ".Ss"; not NAME and
SYNOPSIS, which mdoc's formatters look for) and description (".Nd") are sent, a literal display (".Bd -literal" to
".Ed") is kept, and a sentence around its in-line macros' lines (".Nm", ".Fl a", ".Xr ssh 1 .") is sent whole, each
such line as an item, and written back as its own line where the translation put it (`InlineMacro`)."""
import heapq
import re
from collections import deque
from dataclasses import dataclass
from typing import Callable

from service.rst import Paragraph, cut_at_spaces
from translator.text import ROFF_FONT_CLOSING, ROFF_FONT_OPENING

CONTROL = re.compile(r"[.'][ \t]*")  # a request's or a macro's line starts so
NAME = re.compile(r"[^ \t\\]+|\\\"|\\#")  # its name: "SH", "B", or a comment's
COMMENT = re.compile(r"[.'][ \t]*\\[\"#]|\\[\"#]")  # ".\" a comment", '\" ...', "\" ..."
# Macros that set their arguments in one font, or alternate two (no space between), within the paragraph around them
FONTS = {"B": "B", "I": "I", "BR": "BR", "BI": "BI", "IB": "IB", "IR": "IR", "RB": "RB", "RI": "RI"}
# Macros whose arguments are a title's words: man(7)'s and mdoc(7)'s sections and subsections, mdoc's description
# in its NAME section (".Nd list directory contents")
HEADINGS = {"SH", "SS", "Sh", "Ss", "Nd"}
SECTIONS = {"SH", "Sh"}
# A manual page's sections as German manual pages name them (this machine's 103 German pages paired with their
# English, heading by heading: NAME is BEZEICHNUNG in 64 of 102, SYNOPSIS ÜBERSICHT in 90 of 92, EXIT STATUS
# EXIT-STATUS in 20 of 20; man-pages(7)'s for the rest). Written so, not sent: the model kept NAME and SYNOPSIS, and
# read EXIT STATUS as "STATUS BEENDEN", SECURITY as "SICHERHEITSKOPIE"
SECTION_NAMES = {
    "NAME": "BEZEICHNUNG", "SYNOPSIS": "ÜBERSICHT", "DESCRIPTION": "BESCHREIBUNG", "OPTIONS": "OPTIONEN",
    "SEE ALSO": "SIEHE AUCH", "FILES": "DATEIEN", "BUGS": "FEHLER", "AUTHOR": "AUTOR", "AUTHORS": "AUTOREN",
    "ENVIRONMENT": "UMGEBUNGSVARIABLEN", "ENVIRONMENT VARIABLES": "UMGEBUNGSVARIABLEN",
    "CONFIGURATION": "KONFIGURATION",
    "EXIT STATUS": "EXIT-STATUS", "NOTES": "ANMERKUNGEN", "EXAMPLES": "BEISPIELE", "CAVEATS": "WARNUNGEN",
    "REPORTING BUGS": "FEHLER MELDEN", "EXIT VALUES": "RÜCKGABEWERTE", "RETURN VALUE": "RÜCKGABEWERT",
    "ERRORS": "FEHLER", "STANDARDS": "STANDARDS", "SECURITY": "SICHERHEIT", "HISTORY": "GESCHICHTE",
    "DIAGNOSTICS": "DIAGNOSE", "COPYRIGHT": "COPYRIGHT", "VERSIONS": "VERSIONEN", "ATTRIBUTES": "ATTRIBUTE"}
# mdoc's sections that its formatters find by name (groff's doc.tmac, mandoc: the NAME line, the synopsis' layout):
# kept as written
MDOC_NAMED_SECTIONS = {"NAME", "SYNOPSIS"}
LITERAL_DISPLAY = {"-literal", "-unfilled"}  # mdoc's ".Bd -literal" to ".Ed": code
TAGGED = {"TP", "TQ"}  # the next line is the item's tag
# Blocks kept to their end: no-fill text (code, examples), man(7)'s examples, tables, equations, pictures, pod2man's
# verbatim (a macro each page defines)
KEPT_BLOCKS = {"nf": "fi", "EX": "EE", "TS": "TE", "EQ": "EN", "PS": "PE", "Vb": "Ve"}
DEFINITIONS = {"de", "de1", "am", "am1", "ig"}  # kept to ".." (or the end macro they name)
KEPT_SECTIONS = {"SYNOPSIS"}  # a command's syntax: names and placeholders
CONTINUED = re.compile(r"(?<!\\)(?:\\\\)*\\$")  # a line that goes on on the next (an odd number of "\" at its end)
ARGUMENT = re.compile(r'"((?:[^"]|"")*)"?|((?:\\.|[^ \t\\])+\\?)')  # a macro's argument, quoted or not
TRAILING_COMMENT = re.compile(r'(?<!\\)(?:\\\\)*\\".*')
INDENTED = re.compile(r"(?:\\&)?[ \t]")  # a text line set apart: an example laid out by hand
# A command after a shell's prompt, an example (gcloud's pages put 6,173 in 2,000 pages, between ".RS" and ".RE", no
# ".nf"): sent, "$ gcloud alpha monitoring channels config export \-\-all" came back as "$ gcloud
# Alpha-Kanal-Konfigurationskanäle \-all"
PROMPT = re.compile(r"\$ [a-z](?:\\-|[\w.+-])*(?![^ \t\\])")
CONTINUATION = "\\c"  # at a text line's end: the next line's text goes on without a space
# Characters by name that the model read as letters ("\(lqquotes\(rq" came back as "\(lq Anführungszeichen\(rq",
# "file\(aqs" as "Datei\(aqs"): sent as the characters they are, and written back so (man-db reads UTF-8)
NAMED = {"lq": "\u201c", "rq": "\u201d", "oq": "\u2018", "cq": "\u2019", "aq": "'", "dq": '"', "em": "\u2014",
         "en": "\u2013", "hy": "-",
         "L\"": "\u201c", "R\"": "\u201d", "Aq": "'",  # pod2man's and DocBook's strings
         # Thomas Dickey's pages' quotes (mawk's, ncurses': ".ds `` \(lq"; 105 pages here): sent as escapes, the model
         # halved them ("\*(``\-W usage\*('')" came back as "\*(`\-W usage\*(')", which groff read as other strings)
         "``": "\u201c", "''": "\u201d"}
NAMED_CHARACTER = re.compile(r"\\\*?(?:\((..)|\[(\w+)\])")
# roff's character of no width, which DocBook's pages put before each sentence's full stop ("password\&.") and
# pod2man's before a line's font escape: the model moved it ("changed\&. The date" came back as "geändert wurde\&&
# Das Datum"); dropped (`written` escapes a line's start where it must), but after a full stop, where it says the
# sentence goes on ("e.g.\& the")
NO_WIDTH = re.compile(r"(?<![.?!])\\&")
# A full stop escaped within a line ("files\.", as ronn writes every one: lz4's, zstd's pages), which prints as one,
# and roff's acute accent between letters, which ronn and 22 pages here write for an apostrophe ("user\'s"): sent, the
# model wrote "\n." and "\s" for them, which groff read as a number register and a size. Sent as a full stop and an
# apostrophe (`written` escapes a line that starts with one)
ESCAPED_MARK = re.compile(r"(?<!\\)\\\.|(?<=[^\W\d_])\\'(?=[^\W\d_])")
# A word of letters hyphenated ("non\-zero", "read\-only"): a hyphen to the model; not an option's "\-", nor one in a
# name, a path or an address ("start\-stop\-restart\-instance#policy"), where "-" would let roff break the line
HYPHENATED_WORD = re.compile(r"(?<![\w\\/.@:=~#-])[^\W\d_]+(?:\\-[^\W\d_]+)+(?![\w\\/@:=~#-]|\.\w)")
# roff's "\e" (or "\\"), a backslash as printed, before a string's escape ("'\en'", "L'\e0'"): sent so, the model
# dropped it with its quotes ("not to consider '\en' to be space" came back without it); sent as the escape it
# shows, which the pipeline keeps with its quotes, and written back as roff's
PRINTED_ESCAPE = re.compile(r"\\[e\\]((?:[nrt0]|x[0-9A-Fa-f]{2})(?![A-Za-z0-9]))")
# A string named by one character ("\*n", mawk's name for itself): sent bracketed ("\*[n]", the same string to
# groff), as the pipeline keeps strings (a letter's form is Markdown's escaped asterisk's)
ONE_CHARACTER_STRING = re.compile(r"\\\*([^(\[\s\\])")
# pod2man's small capitals ("\s-1API\s0", "\s-1PEM, DER,\s0"; in 37 of 300 pages here): sent, the model broke the
# escapes around the words in 28 of 1,298 ("\s-1POSIX\s Systeme", "\s-Engine"), and groff then read the words as
# sizes. Sent as their words, each of which is written back in them wherever the translation has it
SMALL_CAPITALS = re.compile(r"\\s-1((?:[^\\\n]|\\-){1,60}?)\\s0")  # "\s-1UTF\-8\s0" too
SMALL_CAPITALS_WORD = re.compile(r"\w[\w/+.-]*(?<![.-])")
# A ".TP" tag that starts with an option ("\-W help", "\-spe", "\fB\-o\fR, \fB\-\-old\fR"): what a reader types,
# its values too. Sent, 11 of 403 tags in 300 pages here came back changed ("\-spe" as "-spekt", "\-q [errorfile]" as
# "\-q [Formatdatei]", mawk's "\-\fBW \fRrandom" as "\-\fBW \fRzufällig"); kept as written, all but a description
# after it (LLVM's "\fB\-\-gpsize=\fR<uint>   \- Global Pointer Addressing Size.")
OPTION_TAG = re.compile(r"(?:\\f(?:[BI]|\(\w\w|\[\w*\]))?\\-")
# An option written with roff's dashes ("\-\-zone=us\-central1\-a", "\-v"), not in a font: read so, its dashes came
# back halved ("\-\-auto\-create\-routes" as "\-auto\-create\-routes"; of 162 in 125 paragraphs of gcloud's pages,
# 29 came back changed where the prompts' lines were kept, now 6); its last full stop or comma is the sentence's
OPTION = re.compile(r"(?<![\w\\-])(?:\\-){1,2}[A-Za-z0-9](?:\\-|[\w.=/:,+@%\[\]])*(?<![.,:])")
FONT_SPAN = re.compile(rf"{ROFF_FONT_OPENING}(?:(?!\\f).)*?{ROFF_FONT_CLOSING}")
REQUEST_STARTS = (".", "'", "\\.")  # a text line that starts so is read as a request ("\\." as "." too)
SPACES = re.compile(r"[ \t\n]+")
WORD_BREAK = re.compile(r"(?<!\\) ")  # where a written line may end: a space that is not escaped
# The space after a sentence's end: a full stop, "!" or "?" after a word of two letters or more (not "z. B."), its
# closing marks, and no small letter after it
SENTENCE_END = re.compile(r"(?:(?<=[^\W\d_]{2}[.!?])|(?<=[.!?][)\]\"'”“«»])) (?![a-zäöüß])")
SENTENCE_MARK = re.compile(r"[.!?][)\]\"'”“«»]*$")  # what roff reads as a sentence's end at a line's end
PARAGRAPH_MACROS = {"SH", "SS", "PP", "LP", "P", "IP", "HP"}  # each ends a ".TP" that had no tag
# mdoc's in-line macros (mdoc(7), "MACRO OVERVIEW": semantic, physical and spacing markup, one-line enclosures), whose
# lines sit inside a sentence ("Forces", ".Nm", "to use IPv4 addresses only."). Read as its end, they cut the sentence
# ("Forces" was sent alone): this machine's 82 mdoc pages sent 11,012 texts, 9,375 of them starting in small letters
# or ending without a sentence's mark (headings and list tags among them); now 4,780 and 1,023. Not blocks, lists,
# references, the multi-line enclosures (".Ao" to ".Ac"), nor ".Ex" and ".Rv", which write sentences of their own
MDOC_INLINE = {"Ad", "An", "Ap", "Ar", "At", "Bsx", "Bx", "Cd", "Cm", "Dv", "Dx", "Em", "Er", "Ev", "Fa", "Fl", "Fn",
               "Ft", "Fx", "Ic", "In", "Li", "Lk", "Ms", "Mt", "Nm", "No", "Ns", "Nx", "Ox", "Pa", "Pf", "St", "Sx",
               "Sy", "Tn", "Ux", "Va", "Vt", "Xr", "Aq", "Bq", "Brq", "Dq", "Op", "Pq", "Ql", "Qq", "Sq"}
MDOC_STARTS = {"Dd", "Dt"}  # an mdoc page's first macros
# A macro line's closing delimiters at its end (".Xr ssh 1 ) ."), which mdoc sets after its words without a space
CLOSING_ARGUMENTS = re.compile(r"(?<!\\)(?:[ \t]+[.,:;)\]?!])+[ \t]*$")
CLOSING_END = re.compile(r"(.*?)([.,:;)\]?!]*)$")  # a text's closing delimiters at its end, apart from the rest
ESCAPES = re.compile(r"\\(?:[(*].{0,2}|\[[^\]]*\]|.)?")  # left out of an in-line macro's item
ATTACHED_BEFORE = re.compile(r"\S+$")  # what the translation wrote against an item's start, no space between
ATTACHED_AFTER = re.compile(r"(?:(?!\\f)\S)+")  # and against its end, up to the next font escape


class Reader:
    """A page's lines in order, run by run (`paragraph_runs`), each cut into pieces of whole lines: kept as written,
    or words sent and written back (`Paragraph`). What a run leaves open (a kept block, a conditional's braces, the
    section, a ".TP" before its tag) carries into the next."""

    def __init__(self):
        self.kept_to: re.Pattern | None = None  # the line that ends the kept block the reader is in
        self.braces = 0  # a conditional's "\{" not yet closed
        self.section = ""  # the title of the section the reader is in, in capitals
        self.tag_next = False  # a ".TP" waits for its tag line
        self.name_line = False  # the NAME section's first paragraph: "ls \- list directory contents"
        self.mdoc = False  # the page is mdoc(7)'s (".Dd" first): its in-line macros go on a paragraph

    def read(self, lines: list[str]) -> list[tuple[int, Paragraph]]:
        """The run's pieces: (lines it spans, what of them is sent and kept), covering the run in order; kept lines
        next to each other are one piece."""
        pieces: list[tuple[int, Paragraph]] = []
        kept: list[str] = []
        start = 0
        while start < len(lines):
            end = self._kept_end(lines, start)
            if end == start:
                if kept:
                    pieces.append((len(kept), Paragraph("", "\n".join(kept))))
                    kept = []
                end, paragraph = self._words(lines, start)
                pieces.append((end - start, paragraph))
            else:
                kept += lines[start:end]
            start = end
        if kept:
            pieces.append((len(kept), Paragraph("", "\n".join(kept))))
        return pieces

    def _kept_end(self, lines: list[str], start: int) -> int:
        """Where the lines kept from `start` on end: `start` itself where its line begins words."""
        line = lines[start]
        if self.kept_to is not None:
            if self.kept_to.match(line):
                self.kept_to = None
            return start + 1
        if self.braces:
            self.braces = max(0, self.braces + line.count("\\{") - line.count("\\}"))
            return start + 1
        macro = macro_name(line)
        if macro in HEADINGS and arguments(line) or self.section not in KEPT_SECTIONS \
                and self._in_paragraph(lines, start) \
                and not (self.tag_next and _font_alone(lines, start)):  # a tag's font: kept, the tag sent alone
            return start
        if macro is None:  # a text line that is no words: blank, a comment, set apart, a prompt's
            return start + 1
        end = _continued_end(lines, start)
        self._follow(macro, "\n".join(lines[start:end]))
        return end

    def _follow(self, macro: str, request: str) -> None:
        """What a kept request opens or changes."""
        self.braces = max(0, request.count("\\{") - request.count("\\}"))
        self.mdoc = self.mdoc or macro in MDOC_STARTS
        if macro in KEPT_BLOCKS:
            self.kept_to = re.compile(rf"[.'][ \t]*{KEPT_BLOCKS[macro]}(?![^ \t])")
        elif macro in DEFINITIONS:  # to "..", or to the macro named as its end (".de XX YY", ".ig YY")
            named = arguments(request)[0 if macro == "ig" else 1:]
            self.kept_to = re.compile(rf"[.'][ \t]*{re.escape(named[0]) if named else '.'}(?![^ \t])")
        elif macro == "Bd" and LITERAL_DISPLAY.intersection(arguments(request)):
            self.kept_to = re.compile(r"[.'][ \t]*Ed(?![^ \t])")
        elif macro in TAGGED:
            self.tag_next = True
        elif macro in PARAGRAPH_MACROS:
            self.tag_next = False

    def _words(self, lines: list[str], start: int) -> tuple[int, Paragraph]:
        """The piece of words from `start` on: a heading, a tag, or a paragraph of text and font lines."""
        macro = macro_name(lines[start])
        if macro in HEADINGS:
            return start + 1, self._heading(lines[start], macro)
        end = _line_end(lines, start)
        tag, self.tag_next = self.tag_next, False
        if not tag:
            while end < len(lines) and (self._in_paragraph(lines, end) or self._comments_within(lines, end)):
                end = _line_end(lines, end)
        words, comments, own_comments = _comments_apart(_lines_whole(lines[start:end]))
        rows = end - start - len(comments)  # continued lines too
        inline = [InlineMacro.of(line) for line in words if macro_name(line) in MDOC_INLINE]
        text, kept = joined(words), ""
        if self.name_line:  # "ls \- list directory contents": the name is kept, for whatis(1) and apropos(1)
            self.name_line = False
            name, dash, description = text.partition(" \\- " if " \\- " in text else " - ")  # (72 pages' "-")
            if dash:
                kept, text = name + dash, description
        elif tag and OPTION_TAG.match(text):  # an option's tag: kept, but a description after it (LLVM's)
            option, dash, description = text.partition(" \\- ")
            kept, text = option + dash, description
        if not text.strip() or len(inline) == len(words):  # no words, or only items (".Xr a 1 ,", ".Xr b 1")
            return end, Paragraph("", "\n".join(lines[start:end]))
        sent, originals = decoded(text)

        def lines_of(translation: str) -> str:
            if inline:
                return InlineMacro.laid_out(translation, rows - len(inline), inline)
            return written(translation, rows)

        return end, Paragraph(sent, written_as=lambda translation: "\n".join(
            [lines_of(kept + encoded(translation, originals)) + own_comments, *comments]))

    def _in_paragraph(self, lines: list[str], at: int) -> bool:
        """Whether a line goes on the paragraph before it: a text line of words, a font macro's (one alone too, which
        sets the next line in its font), or in an mdoc page an in-line macro's (not in NAME and SYNOPSIS, which
        mdoc's formatters read by their macros; nor with a comment after it, nor ".An -split", which sets a mode)."""
        line = lines[at]
        macro = macro_name(line)
        if macro is None:
            return _words_line(line)
        if macro in MDOC_INLINE:
            return self.mdoc and self.section not in MDOC_NAMED_SECTIONS and not TRAILING_COMMENT.search(line) \
                and arguments(line)[:1] not in (["-split"], ["-nosplit"])
        return macro in FONTS and (bool(arguments(line)) or _font_alone(lines, at))

    def _comments_within(self, lines: list[str], at: int) -> bool:
        """Whether a comment line is within a paragraph: comment lines from `at` on, then a line that goes on it. roff
        fills on over them; read as the paragraph's end, they cut 835 sentences in 382 of this machine's pages (the
        Linux man-pages project notes a commit inside a sentence: "Before Linux 3.1,", '.\\" commit 1117f72e...',
        "this field incorrectly displayed ..."). The paragraph is sent whole and its comments written after it."""
        end = at
        while end < len(lines) and COMMENT.match(lines[end]):
            end += 1
        return end > at and end < len(lines) and self._in_paragraph(lines, end)

    def _heading(self, line: str, macro: str) -> Paragraph:
        """A heading's words (a section's, a subsection's title; mdoc's description): a standard section's German
        (SECTION_NAMES) written, not sent; others sent sentence-cased where they are in capitals (the model read
        "DESCRIPTION" as letters and kept it; "Description" it translates), and written in capitals again, quoted
        where they were, a comment after them kept."""
        title = " ".join(arguments(line))
        head = line[:CONTROL.match(line).end() + len(macro)] + " "
        found = TRAILING_COMMENT.search(line, len(head))
        words_end = len(line[:found.start()].rstrip(" \t")) if found else len(line)
        comment = line[max(words_end, len(head)):]  # with the blanks before it
        quoted = '"' in line[len(head):words_end]
        self.tag_next = False
        if macro in SECTIONS:
            self.section = title.upper()
            self.name_line = self.section == "NAME"
        if macro == "Sh" and title in MDOC_NAMED_SECTIONS:
            return Paragraph("", line)
        # (man(7)'s ".SH" alone: mdoc's formatters lay a page out by its ".Sh" names)
        if macro == "SH" and (german := SECTION_NAMES.get(" ".join(title.split()))):
            return Paragraph("", head + (f'"{german}"' if quoted else german) + comment)
        shouted = title.isupper() and "\\" not in title
        sent, originals = (title[0] + title[1:].lower(), {}) if shouted else decoded(title)

        def heading(translation: str) -> str:
            translation = translation.upper() if shouted else encoded(translation, originals)
            return head + ('"' + translation.replace('"', '""') + '"' if quoted else translation) + comment

        return Paragraph(sent, written_as=heading)


def macro_name(line: str) -> str | None:
    """The name of a line's request or macro ("B", "SH", "\\"" for a comment); None for a text line."""
    control = CONTROL.match(line)
    if control is None:
        return None
    name = NAME.match(line, control.end())
    return name.group() if name else ""


def arguments(line: str) -> list[str]:
    """A macro line's arguments as roff reads them: apart by spaces, a quoted one whole ("" inside for a quote)."""
    rest = TRAILING_COMMENT.sub("", line[CONTROL.match(line).end():])
    name = NAME.match(rest)
    rest = rest[name.end():] if name else rest
    return [found.group(2) if found.group(1) is None else found.group(1).replace('""', '"')
            for found in ARGUMENT.finditer(rest)]


def _line_end(lines: list[str], at: int) -> int:
    """Where the text or font macro's line at `at` ends: after the lines it goes on on with a "\\" at its end. Read
    apart, a font macro's next line's arguments (646 such lines in 384 of this machine's pages: ".BR ELF32_ST_INFO(
    \\fIbind\\fP \", \" \\fItype\\fP ) \", \" \\", then its next arguments) were sent as text and came back with
    their quotes, and a text line's (113 in 46 pages) came back after a space ("<language> [_<territory>")."""
    return _continued_end(lines, at) if macro_name(lines[at]) in (None, *FONTS) else at + 1


def _continued_end(lines: list[str], at: int) -> int:
    """Where the line at `at` ends with the lines a "\\" at the end of each goes on on."""
    end = at + 1
    while end < len(lines) and CONTINUED.search(lines[end - 1]):
        end += 1
    return end


def _lines_whole(lines: list[str]) -> list[str]:
    """The lines, each text or font macro's line with the lines it goes on on joined to it (`_line_end`)."""
    whole, at = [], 0
    while at < len(lines):
        end = _line_end(lines, at)
        whole.append("".join(line[:-1] for line in lines[at:end - 1]) + lines[end - 1])
        at = end
    return whole


def _comments_apart(lines: list[str]) -> tuple[list[str], list[str], str]:
    """A paragraph's lines without its comments; its comment lines, to be written after it; and its text lines' own
    comments, to end its last line: sent as words, such a comment swallowed the words written after it on its line
    ('... the word "quiet",\\" since Linux 2.4', then "10 if the kernel ...": the 10 was gone)."""
    words, comments, own_comments = [], [], ""
    for line in lines:
        own = TRAILING_COMMENT.search(line) if macro_name(line) is None else None
        if COMMENT.match(line):
            comments.append(line)
        elif own:
            words.append(line[:own.start()].rstrip())
            own_comments += own.group()
        else:
            words.append(line)
    return words, comments, own_comments


def _font_alone(lines: list[str], at: int) -> bool:
    """Whether a line is a one-font macro alone (".B"), before a text line of words that it sets in its font: read
    apart, it cut the sentence before the words ("Use the", ".B", "--force", "option to ..." went as "Use the" and
    "--force option to ..."). Rare: of this machine's 23,612 pages, 8 sentences were so cut; most of the 328 such
    lines start a paragraph, and 251 set a ".TP" tag, which is read apart and stays so."""
    return bool(_lone_font(lines[at])) and at + 1 < len(lines) and macro_name(lines[at + 1]) is None \
        and _words_line(lines[at + 1])


def _lone_font(line: str) -> str:
    """The font a one-font macro without arguments (".B") sets the next line in ("B"); "" for any other line."""
    macro = macro_name(line)
    return FONTS[macro] if len(FONTS.get(macro, "")) == 1 and not arguments(line) else ""


def _words_line(line: str) -> bool:
    """Whether a text line is words: not blank, not a comment, not set apart by leading space (an example laid out by
    hand), not a shell's command (PROMPT)."""
    return bool(line.strip()) and not COMMENT.match(line) and not INDENTED.match(line) and not PROMPT.match(line)


def joined(lines: list[str]) -> str:
    """A paragraph's lines as one text: a font macro's arguments as the escapes it means, an mdoc in-line macro's line
    as its item (`InlineMacro`), lines apart by a space (none
    after a line that ends in "\\c")."""
    parts: list[str] = []
    font = ""  # a one-font macro alone's, for the next line
    for line in lines:
        macro = macro_name(line)
        if macro is None:
            piece = trimmed(line)
            if font and piece:
                text = piece.removesuffix(CONTINUATION)
                piece = in_fonts(font, [text]) + piece[len(text):]
            font = ""
        elif alone := _lone_font(line):
            font, piece = alone, ""
        elif macro in MDOC_INLINE:
            piece = InlineMacro.of(line).sent
        else:
            piece = in_fonts(macro, arguments(line))
        if not piece:  # a font macro of empty arguments
            continue
        if parts and parts[-1].endswith(CONTINUATION):
            parts[-1] = parts[-1].removesuffix(CONTINUATION)
        elif parts:
            parts.append(" ")
        parts.append(piece)
    return "".join(parts)


def trimmed(text: str) -> str:
    """A text without white space at its start and end, but an escaped space at its end: a line that ends in "\\"
    goes on on the next."""
    text = text.lstrip(" \t")
    core = text.rstrip(" \t")
    escaped = (len(core) - len(core.rstrip("\\"))) % 2 == 1
    return core + " " if escaped and len(core) < len(text) else core


def in_fonts(macro: str, words: list[str]) -> str:
    """A font macro's arguments as inline escapes: ".B a b" as "\\fBa b\\fR", ".BR ls (1)," as "\\fBls\\fR(1),"."""
    fonts = FONTS[macro]
    if len(fonts) == 1:
        return f"\\f{fonts}{' '.join(words)}\\fR" if any(words) else ""
    return "".join(word if fonts[k % 2] == "R" or not word else f"\\f{fonts[k % 2]}{word}\\fR"
                   for k, word in enumerate(words))


def decoded(text: str) -> tuple[str, dict[str, str]]:
    """A text with its named quotes and dashes ("\\(lq", "\\(em", "\\*(lq") and its words' hyphens ("non\\-zero") as
    the characters they are, its characters of no width dropped (NO_WIDTH); its options' dashes ASCII's ("\\-\\-all"
    as "--all", which the pipeline keeps), a printed escape as the one it shows ("\\en" as "\\n"), a string named by
    a letter bracketed and small capitals as their words; a font span (a name, an option, a placeholder) as written.
    With the pieces sent so, as written, by what was sent for them (`encoded`)."""
    originals: dict[str, str] = {}

    def plain(piece: str) -> str:
        piece = NAMED_CHARACTER.sub(lambda found: NAMED.get(found.group(1) or found.group(2), found.group()), piece)
        piece = NO_WIDTH.sub("", piece)
        piece = ESCAPED_MARK.sub(lambda found: found.group()[1], piece)
        piece = ONE_CHARACTER_STRING.sub(lambda found: _sent_as(f"\\*[{found.group(1)}]", found.group(), originals),
                                         piece)
        piece = SMALL_CAPITALS.sub(lambda found: _in_small_capitals(found.group(1), originals), piece)
        piece = PRINTED_ESCAPE.sub(lambda found: _sent_as("\\" + found.group(1), found.group(), originals), piece)
        piece = HYPHENATED_WORD.sub(lambda found: found.group().replace("\\-", "-"), piece)
        return OPTION.sub(lambda found: _sent_as(found.group().replace("\\-", "-"), found.group(), originals), piece)

    return outside_font_spans(text, plain), originals


def _sent_as(sent: str, written: str, originals: dict[str, str]) -> str:
    """What is sent for a piece of roff (an option in ASCII's dashes, an escape as it prints, a word without its small
    capitals), remembered with the piece as written."""
    originals[sent] = written
    return sent


def _in_small_capitals(words: str, originals: dict[str, str]) -> str:
    """Small capitals' words, each remembered in them ("\\s-1DER\\s0": a translation may part or reorder them)."""
    words = words.replace("\\-", "-")
    for word in SMALL_CAPITALS_WORD.findall(words):
        originals[word] = "\\s-1" + word.replace("-", "\\-") + "\\s0"
    return words


def encoded(translation: str, originals: dict[str, str]) -> str:
    """A translation with what was sent for pieces of roff written as the source wrote them: an option sent in ASCII
    in roff's dashes ("--all" as "\\-\\-all": roff's "-" is a hyphen, which man(1) may show as "‐", and a reader's
    copy no longer runs), one joined to a German word too ("--all-Option"); an escape as roff's ("\\n" as "\\en"); a
    word in its small capitals."""
    if not originals:
        return translation

    def alternatives(names: list[str]) -> str:
        return "|".join(map(re.escape, sorted(names, key=len, reverse=True))) or "(?!)"

    options = alternatives([sent for sent in originals if sent.startswith("-")])
    escapes = alternatives([sent for sent in originals if sent.startswith("\\")])  # next to others ("\\t\\n")
    words = alternatives([sent for sent in originals if not sent.startswith(("-", "\\"))])  # in compounds too
    sent = re.compile(rf"(?<![\w\\-])(?:{options})(?!\w|-(?![A-ZÄÖÜ]))|(?<!\\)(?:{escapes})"
                      rf"|(?<![\w\\])(?:{words})(?!\w)")
    # A font span is an item, as written ("\\fBEVP_PKEY\\-EC\\fR" takes no small capitals)
    return outside_font_spans(translation, lambda piece: sent.sub(lambda found: originals[found.group()], piece))


def outside_font_spans(text: str, change: Callable[[str], str]) -> str:
    """The text with `change` made to each piece of it outside font spans."""
    pieces, done = [], 0
    for span in FONT_SPAN.finditer(text):
        pieces += [change(text[done:span.start()]), span.group()]
        done = span.end()
    return "".join(pieces) + change(text[done:])


def written(translation: str, lines: int) -> str:
    """A translation as `lines` text lines (roff fills them into one paragraph): a sentence to a line where the
    sentences are as many as the lines or more (roff ends a sentence with a wider space only at a line's end, as the
    source did), else each sentence over lines in proportion to its length; cut only at unescaped spaces, about
    equally. A line that would start as a request (REQUEST_STARTS) is escaped with "\\&", as is one that ends in a
    full stop where no sentence ends, and where the words are fewer than the lines the rest are empty requests (".",
    which roff ignores)."""
    text = trimmed(SPACES.sub(" ", translation))
    ends = [found.start() for found in SENTENCE_END.finditer(text)]
    if len(ends) >= lines - 1:
        rows = cut_at_spaces(text, ends, lines)
    else:
        sentences = [text[start + 1:end] for start, end in zip([-1, *ends], [*ends, len(text)])]
        rows = [row for sentence, count in zip(sentences, _shares(sentences, lines))
                for row in cut_at_spaces(sentence, [found.start() for found in WORD_BREAK.finditer(sentence)], count)]
    rows = [row for row in rows if row]
    rows = [("\\&" if row.startswith(REQUEST_STARTS) else "") + row + _ended_within(row, following)
            for row, following in zip(rows, [*rows[1:], ""])]
    return "\n".join(rows + ["."] * (lines - len(rows)))


def _ended_within(row: str, following: str) -> str:
    """"\\&" where a line ends in a full stop that ends no sentence ("z. B." before "Namen"), which roff would end one
    with (a wider space), else ""."""
    if not following or not SENTENCE_MARK.search(row) or SENTENCE_END.match(f"{row} {following}", len(row)):
        return ""
    return "\\&"


def _shares(sentences: list[str], lines: int) -> list[int]:
    """How many lines each sentence gets: one each, the rest one at a time to the longest per line it has."""
    counts = [1] * len(sentences)
    longest = [(-len(sentence), k) for k, sentence in enumerate(sentences)]  # (minus length per line, sentence)
    heapq.heapify(longest)
    for _ in range(lines - len(sentences)):
        _, k = heapq.heappop(longest)
        counts[k] += 1
        heapq.heappush(longest, (-len(sentences[k]) / counts[k], k))
    return counts


@dataclass(frozen=True)
class InlineMacro:
    """An mdoc in-line macro's line within a paragraph, sent as an item (a font span the pipeline keeps as written:
    `marker`) and written back as a line of its own where the translation put the item. Its closing delimiters are
    sent as text after the item, and what the translation writes against it goes on its line: closing delimiters as
    such (".Xr ssh 1 ."), other text after ".Ns" ("-Programm"), text before it with ".Pf" (a quote, "(")."""
    line: str  # the line without its closing delimiters
    marker: str
    closing: str  # its closing delimiters, as sent: ")."

    @classmethod
    def of(cls, line: str) -> "InlineMacro":
        found = CLOSING_ARGUMENTS.search(line)
        core = line[:found.start()] if found else line
        shown = ESCAPES.sub("", " ".join(word for word in arguments(core) if word not in MDOC_INLINE))
        marker = f"\\fB{' '.join(shown.split())[:60] or macro_name(line)}\\fR"
        return cls(core, marker, "".join(found.group().split()) if found else "")

    @property
    def sent(self) -> str:
        return self.marker + self.closing

    def written(self, before: str, after: str) -> str:
        """The line, with what the translation wrote against its item's start (`before`) and end (`after`)."""
        body = self.line[CONTROL.match(self.line).end():]
        if before:
            body = f"Pf {quoted(before)} {body}"
        words, closing = CLOSING_END.match(after).groups()
        if words:
            body += f" Ns {quoted(words)}"
        return "." + body + "".join(f" {mark}" for mark in closing)

    @staticmethod
    def laid_out(translation: str, text_rows: int, macros: list["InlineMacro"]) -> str:
        """A translation as the paragraph's lines: its text between the items on `text_rows` text lines, each item's
        macro line where the item is. Where the texts between items outnumber the text lines (the translation moved
        an item into a sentence), a text goes on the macro line after it (".No" and the text, quoted: never read as
        a macro); a macro whose item the translation lost goes at the end."""
        waiting: dict[str, deque[InlineMacro]] = {}
        for macro in macros:
            waiting.setdefault(macro.marker, deque()).append(macro)
        texts, placed, done = [], [], 0
        for span in FONT_SPAN.finditer(translation):
            if span.start() < done or not waiting.get(span.group()):
                continue
            text = translation[done:span.start()]
            before = ATTACHED_BEFORE.search(text) if text[-1:].strip() else None
            after = ATTACHED_AFTER.match(translation, span.end())
            done = after.end() if after else span.end()
            texts.append(text[:before.start()] if before else text)
            placed.append(waiting[span.group()].popleft().written(before.group() if before else "",
                                                                  after.group() if after else ""))
        texts.append(translation[done:])
        placed += [macro.written("", macro.closing) for queue in waiting.values() for macro in queue]
        texts += [""] * (len(placed) + 1 - len(texts))
        texts = [" ".join(text.split()) for text in texts]
        for k in sorted((k for k in range(len(placed)) if texts[k]), key=lambda k: len(texts[k])):
            if sum(map(bool, texts)) <= text_rows:
                break
            placed[k] = f".No {quoted(texts[k])} {placed[k][1:]}"
            texts[k] = ""
        shown = [text for text in texts if text]
        counts = iter(_shares(shown, text_rows) if shown else [])
        rows = [written(text, next(counts)) if text else "" for text in texts]
        lines = [row for pair in zip(rows, [*placed, ""]) for row in pair if row]
        return "\n".join(lines + ["."] * (0 if shown else text_rows))


def quoted(text: str) -> str:
    """A macro's argument as one, quoted: never read as a macro's name nor a delimiter."""
    return '"' + text.replace('"', '""') + '"'
