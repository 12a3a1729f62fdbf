"""LaTeX documents, a paragraph at a time: which paragraphs are words to translate and which are kept as written.
Read as plain paragraphs, a document's preamble was translated ("\\usepackage[english]{babel}" is no words: only
its "\\title{...}" is), and a verbatim block with a blank line inside was cut in two, its halves no longer a block
the pipeline keeps. The words' own markup (commands, comments, mathematics) is
translator.text's (`latex_markup`)."""
import re

from service.rst import Paragraph
from translator.text import LATEX_ENVIRONMENT, matching_braces

DOCUMENT_CLASS = re.compile(r"(?m:^)[ \t]*\\documentclass\b")  # a document's preamble starts with it
# What may come before it: comments and the commands a file opens with ("\NeedsTeXFormat{LaTeX2e}", "\def\mydate")
BEFORE_CLASS = re.compile(r"[ \t]*(?:%.*|\\(?:NeedsTeXFormat|RequirePackage|PassOptionsToPackage|documentclass|def|let|"
                          r"(?:re)?newcommand|providecommand|input|makeatletter|makeatother)\b.*|)")
TITLE = re.compile(r"\\title[ \t]*(?:\[[^\[\]\n]*\])?\{")  # the preamble's one line of words
BEGIN_DOCUMENT = re.compile(r"\\begin\{document\}")
END_DOCUMENT = re.compile(r"\\end\{document\}")


class Reader:
    """Paragraphs in document order (runs of non-blank lines), each told apart by what came before: the lines before
    "\\documentclass" (comments, "\\NeedsTeXFormat": BEFORE_CLASS) and the preamble after it (to "\\begin{document}"),
    a code or mathematics environment's lines to its end (LATEX_ENVIRONMENT: verbatim, lstlisting, equation, ...) and
    what follows "\\end{document}" are kept as written, but the title ("\\title{...}") of a paragraph of the preamble
    without "\\begin{document}". A file without "\\documentclass" is a document's body."""

    def __init__(self):
        self.preamble: bool | None = None  # unknown until the first paragraph
        self.ended = False
        self.open_environment: str | None = None  # a code environment begun in an earlier paragraph, not yet ended

    def paragraph(self, lines: list[str]) -> Paragraph:
        text, before = "\n".join(lines), ""
        if self.preamble is None:  # not known until a paragraph holds more than a file's opening lines
            if all(BEFORE_CLASS.fullmatch(line) for line in lines) and not DOCUMENT_CLASS.search(text):
                return Paragraph("", text)
            self.preamble = DOCUMENT_CLASS.search(text) is not None
        if self.preamble:
            if not (begun := BEGIN_DOCUMENT.search(text)):
                return _title(text)
            self.preamble = False
            body = text[begun.end():].lstrip()  # its blanks after "\\begin{document}" kept with it
            before, text = text[:len(text) - len(body)], body
        was_open = self.open_environment
        self._follow_environments(text)
        if self.ended or was_open or self.open_environment:
            self.ended = self.ended or END_DOCUMENT.search(text) is not None
            return Paragraph("", before + text)
        if ended := END_DOCUMENT.search(text):
            self.ended = True
            words = text[:ended.start()].rstrip()
            return Paragraph(words, before, text[len(words):])
        return Paragraph(text, before)

    def _follow_environments(self, text: str) -> None:
        """Which code environment is left open at the paragraph's end."""
        for found in LATEX_ENVIRONMENT.finditer(text):
            if found.group(1) == "begin" and self.open_environment is None:
                self.open_environment = found.group(2)
            elif found.group(1) == "end" and found.group(2) == self.open_environment:
                self.open_environment = None


def _title(preamble: str) -> Paragraph:
    """A paragraph of the preamble: kept, but the words of its "\\title{...}" (TITLE), where it has one that closes."""
    found = TITLE.search(preamble)
    end = matching_braces(preamble).get(found.end() - 1) if found else None
    if end is None:
        return Paragraph("", preamble)
    return Paragraph(preamble[found.end():end], preamble[:found.end()], preamble[end:])
