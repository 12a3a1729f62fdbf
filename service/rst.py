"""reStructuredText (Sphinx's and docutils' documentation), a paragraph at a time: which paragraphs are words to
translate, and what of each is markup to keep and write back. Read as Markdown paragraphs, a page's markup came back
translated: a target (".. _quickstart:" as ".. _Endestart:", and every :ref: to it broke), a directive (".. module::"
as "... Modul:"), a literal block's code (">>> import requests" as ">>> Einfuhranforderungen"), the "::" that opens
one (as ":", so the code became a paragraph), and a title's underline stayed as long as the English title.

Its `Paragraph` (what is sent, what is kept) and `cut_at_spaces` (a translation over a source's lines) serve the other
readers too: LaTeX's, AsciiDoc's, manual pages' and the Java properties' continued values."""
import bisect
import re
from dataclasses import dataclass
from typing import Callable

# An explicit markup block's start: a directive (".. note::", ".. code-block:: python"), a hyperlink target
# (".. _install:", ".. __: https://..."), a substitution definition (".. |logo| image:: logo.png"), a footnote or
# citation (".. [1] Text"), else a comment
DIRECTIVE = re.compile(r"\.\.[ \t]+([\w:+.-]+)::(?:[ \t]|$)")
TARGET = re.compile(r"\.\.[ \t]+(?:_|__[ \t]*:|\|)")
FOOTNOTE = re.compile(r"\.\.[ \t]+\[(?:\d+|#[\w-]*|\*|[A-Za-z][\w.-]*)\][ \t]+(?=\S)")
EXPLICIT = re.compile(r"\.\.(?:[ \t]|$)")
# Directives whose content is code, data or names, not words (kept with everything indented under them); any other
# directive's first line and options are kept and its content, a paragraph at a time, translated (admonitions, Sphinx's
# object descriptions ".. function:: get(url)", versionadded's text, a figure's caption)
KEPT_DIRECTIVES = {
    "code", "code-block", "sourcecode", "literalinclude", "highlight", "math", "raw", "include", "csv-table",
    "list-table", "parsed-literal", "doctest", "testcode", "testoutput", "testsetup", "testcleanup", "ipython",
    "jupyter-execute", "graphviz", "digraph", "graph", "mermaid", "plantuml", "productionlist", "toctree", "image",
    "automodule", "autosummary", "program-output", "command-output", "tabularcolumns", "meta",
    "highlightlang", "code-cell", "prompt", "runblock",
}
# Directives whose argument is words: a title ("admonition", "topic", "sidebar", "rubric"), or an admonition's first
# line of content (".. warning:: Do not use this in production.")
TITLE_DIRECTIVES = {"admonition", "topic", "sidebar", "rubric"}
ADMONITIONS = {"note", "warning", "tip", "important", "caution", "danger", "attention", "hint", "error", "seealso"}
OPTION = re.compile(r"[ \t]*:[\w-]+(?:[ \t][^:]*)?:(?:[ \t]|$)")  # a directive's option line (":maxdepth: 2")
# A section title's under- or overline: one punctuation character repeated (at least twice, and as long as its title)
ADORNMENT = re.compile(r"([!-/:-@\[-`{-~])\1+[ \t]*")
TABLE = re.compile(r"[ \t]*(?:\+[-=+]+\+|=+(?:[ \t]+=+)+)[ \t]*")  # a grid table's border, a simple table's
DOCTEST = re.compile(r"[ \t]*>>>(?:[ \t]|$)")
LINE_BLOCK = re.compile(r"\|(?:[ \t]|$)")  # "| " (not a substitution, "|project| is ...")
LITERAL_MARKER = re.compile(r"(?<!:)::[ \t]*\Z")  # a paragraph that ends with "::" opens a literal block


@dataclass
class Paragraph:
    """What of a paragraph is sent (`text`, "" for none) and how its translation is written back: `before` and
    `after` kept around it, `written_as` for the text between."""
    text: str
    before: str = ""
    after: str = ""
    written_as: Callable[[str], str] = str


def cut_at_spaces(text: str, spaces: list[int], lines: int) -> list[str]:
    """A text as `lines` pieces, cut at those of its `spaces` (their offsets, ascending) nearest to equal shares of its
    length; a piece is empty where no space is left to cut at."""
    pieces, start = [], 0
    for line in range(1, lines):
        share = len(text) * line // lines
        nearest = bisect.bisect_left(spaces, share)
        cuts = [spaces[k] for k in (nearest - 1, nearest) if 0 <= k < len(spaces) and spaces[k] >= start]
        cut = min(cuts, key=lambda at: abs(at - share), default=None)
        pieces.append(text[start:cut] if cut is not None else "")
        start = cut + 1 if cut is not None else start
    pieces.append(text[start:])
    return pieces


def indentation(line: str) -> int:
    """How many spaces and tabs start the line."""
    return len(line) - len(line.lstrip(" \t"))


class Reader:
    """Paragraphs in document order (runs of non-blank lines), each told apart by what came before: the lines
    indented under a literal block's "::", a kept directive or a comment are kept."""

    def __init__(self):
        self.kept_under: int | None = None  # the indentation that lines must exceed to stay in a kept block

    def paragraph(self, lines: list[str]) -> Paragraph:
        indent = indentation(lines[0])
        if self.kept_under is not None:
            if indent > self.kept_under:
                return Paragraph("", "\n".join(lines))
            self.kept_under = None
        first = lines[0].lstrip(" \t")
        if EXPLICIT.match(first):
            return self._explicit(lines, indent)
        if title := _title(lines):
            return title
        if ADORNMENT.fullmatch(first) and len(lines) == 1 and len(first.strip()) >= 4:  # a transition
            return Paragraph("", lines[0])
        if TABLE.fullmatch(lines[0]) or DOCTEST.match(lines[0]) or LINE_BLOCK.match(first):
            return Paragraph("", "\n".join(lines))  # a table, a doctest, a line block (its lines are verse)
        return self._text(lines)

    def _explicit(self, lines: list[str], indent: int) -> Paragraph:
        first = lines[0].lstrip(" \t")
        directive = DIRECTIVE.match(first)
        name = directive.group(1).split(":")[-1].lower() if directive else ""
        if directive and name not in KEPT_DIRECTIVES and all(indentation(line) > indent for line in lines[1:]):
            # (else a run of explicit blocks)
            head, argument = lines[0][:indent + directive.end()], lines[0][indent + directive.end():]
            if argument.strip() and name in ADMONITIONS:
                return self._text([argument, *lines[1:]], head)
            if argument.strip() and name in TITLE_DIRECTIVES and all(OPTION.match(line) for line in lines[1:]):
                return Paragraph(argument.strip(), head + argument[:indentation(argument)],
                                 "".join("\n" + line for line in lines[1:]))
            kept = 1
            while kept < len(lines) and OPTION.match(lines[kept]):
                kept += 1
            if kept == len(lines):
                return Paragraph("", "\n".join(lines))
            return self._text(lines[kept:], "\n".join(lines[:kept]) + "\n")
        if footnote := FOOTNOTE.match(first):
            head = lines[0][:indent + footnote.end()]
            return self._text([lines[0][len(head):], *lines[1:]], head)
        if not TARGET.match(first):  # a kept directive or a comment: its content too
            self.kept_under = indent
        return Paragraph("", "\n".join(lines))

    def _text(self, lines: list[str], before: str = "") -> Paragraph:
        """Words, from the first line's text on; a last "::" opens a literal block, written back after the
        translation ("timeline::" is sent as "timeline:", "Example ::" as "Example")."""
        indent = indentation(lines[0])
        before += lines[0][:indent]
        text = "\n".join([lines[0][indent:], *lines[1:]])
        if not LITERAL_MARKER.search(text):
            return Paragraph(text, before)
        self.kept_under = indent
        body = text.rstrip()[:-2]
        if not body.strip():
            return Paragraph("", before + text)
        gap = body[len(body.rstrip()):]  # " " of "Example ::", or the line break before a "::" alone on its line
        return Paragraph(body.rstrip() if gap else body + ":", before,
                         written_as=lambda translation: _literal_opened(translation, gap))


def _literal_opened(translation: str, gap: str) -> str:
    """A translation ended with "::" again: after the space or line break the source had before it, else after its
    colon."""
    translation = translation.rstrip()
    if gap:  # "Example ::", "Title\n::": the "::" stands apart
        return translation + gap + "::"
    return translation + (":" if translation.endswith(":") else "::")


def _title(lines: list[str]) -> Paragraph | None:
    """A section title (a line under- or over- and underlined), its words sent, its lines written as long as the
    translation needs: shorter than its title, a line is a docutils warning ("Title underline too short")."""
    if len(lines) == 2 and lines[0][:1] not in " \t" and ADORNMENT.fullmatch(lines[1]) \
            and not ADORNMENT.fullmatch(lines[0]) and len(lines[1].rstrip()) >= min(len(lines[0].rstrip()), 4):
        under = lines[1].rstrip()
        return Paragraph(lines[0].strip(), written_as=lambda title: f"{title}\n{_adornment(under, title)}")
    if len(lines) == 3 and ADORNMENT.fullmatch(lines[0]) and lines[0].rstrip() == lines[2].rstrip() \
            and not ADORNMENT.fullmatch(lines[1]):
        line, inset = lines[0].rstrip(), lines[1][:indentation(lines[1])]
        return Paragraph(lines[1].strip(), written_as=lambda title: (
            f"{_adornment(line, inset + title)}\n{inset}{title}\n{_adornment(line, inset + title)}"))
    return None


def _adornment(line: str, title: str) -> str:
    """An under- or overline at least as long as the title (longer ones stay as long as they were)."""
    return line[0] * max(len(line), len(title.rstrip()))
