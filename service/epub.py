"""EPUB books (``.epub``, EPUB 2 and 3) for batch jobs: which texts to send, and the book written back.

An EPUB is a ZIP package of web pages. Its content documents (XHTML: the chapters, EPUB 3's navigation document) are
read as a web page is: each run of lines between blank lines one item of HTML, its id the document and the run's first
line. The text pipeline keeps the markup, the code and the style sheets, and writes the page's language (``<html
xml:lang>``) as German; a run longer than a request may be is sent in parts cut after blocks (service.batch). The
package document's (``.opf``) titles and descriptions are sent too, and its language becomes German; so is each label
of EPUB 2's table of contents (``toc.ncx``). The package is written back entry for entry (its ``mimetype`` first and
stored, as readers need), the pictures, fonts and style sheets as they were.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

from service import documents, office
from translator.text import paragraph_runs

CONTAINER = "META-INF/container.xml"
ENCRYPTION = "META-INF/encryption.xml"  # what is encrypted: a DRM's pages, an obfuscated font
ENCRYPTED = re.compile(r'<(?:\w+:)?CipherReference\b[^>]*?\bURI\s*=\s*"([^"]*)"')
PAGE = re.compile(r"[^/].*\.(?:xhtml|html|htm)", re.IGNORECASE)
PACKAGE_DOCUMENT = re.compile(r"[^/].*\.opf", re.IGNORECASE)
TABLE_OF_CONTENTS = re.compile(r"[^/].*\.ncx", re.IGNORECASE)
# The texts of the package document and of EPUB 2's table of contents that a reader shows: each element's content
SHOWN = {"opf": re.compile(r"(<(dc:title|dc:description)\b[^>]*>)(.*?)(</\2\s*>)", re.DOTALL),
         "ncx": re.compile(r"(<(text)\b[^>]*>)(.*?)(</\2\s*>)", re.DOTALL)}
LANGUAGE = re.compile(r"(<dc:language\b[^>]*>)[^<]*(</dc:language\s*>)")
LINE = re.compile(r"[^\n]*(?:\n|$)")


class NotEpub(documents.NotDocument):
    """The input is not an EPUB book this job can fill in."""


def read(path: Path) -> dict[str, str]:
    """The package's pages, package documents and tables of contents, in the package's order; NotEpub with what to fix
    where it is no book, or one whose pages are encrypted (DRM). A page need not be well-formed XML (5 of 30 books
    pandoc made of Markdown files with HTML in them hold one that is not): it is read as a web page, as tolerant as a
    reader."""
    def package(wanted, parsed=lambda name: True) -> dict[str, str]:
        return office.read(path, wanted, CONTAINER, NotEpub, "an EPUB book (.epub)", parsed)

    # first: an encrypted page is no text to decode (a font's obfuscation, which readers undo, is listed there too)
    encrypted = [uri for uri in ENCRYPTED.findall(package(lambda name: name == ENCRYPTION).get(ENCRYPTION, ""))
                 if PAGE.fullmatch(uri)]
    if encrypted:
        raise NotEpub(f"its pages are encrypted ({encrypted[0]}...: DRM): only a book without DRM can be translated")
    return package(lambda name: any(kind.fullmatch(name) for kind in (PAGE, PACKAGE_DOCUMENT, TABLE_OF_CONTENTS)),
                   parsed=lambda name: kind(name) != "page")


def kind(name: str) -> str:
    return "page" if PAGE.fullmatch(name) else "opf" if PACKAGE_DOCUMENT.fullmatch(name) else "ncx"


class Book:
    """A book's parts as items: a page's paragraphs (runs of lines between blank lines) numbered by their first line,
    the shown texts of the other parts by their order; numbered across the parts, in the package's order."""

    def __init__(self, parts: dict[str, str]):
        self.parts = parts

    def pieces(self) -> Iterator[tuple[int, str, int, int, str]]:
        """(number, part, start, end, text) of each piece to send, and of none: where the part's text to replace is."""
        first = 0
        for name, text in self.parts.items():
            if kind(name) == "page":
                lines = [(line.start(), line.group()) for line in LINE.finditer(text) if line.group()]
                for run in paragraph_runs(enumerate(lines, start=1), lambda numbered: numbered[1][1].rstrip("\r\n")):
                    (number, (start, _)), (_, (last, line)) = run[0], run[-1]
                    end = last + len(line.rstrip("\r\n"))
                    yield first + number, name, start, end, text[start:end].replace("\r\n", "\n")
                first += len(lines)
            else:
                found = list(SHOWN[kind(name)].finditer(text))
                for number, element in enumerate(found, start=1):
                    yield first + number, name, element.start(3), element.end(3), element.group(3)
                first += len(found)

    def items(self) -> Iterator[tuple[int, str, str]]:
        for number, name, start, _, text in self.pieces():
            if documents.LETTER.search(text):
                yield number, f"{name}#{number}", text

    def count(self) -> int:
        return max((number for number, *_ in self.pieces()), default=0)

    def filled(self, translated: dict[int, str]) -> dict[str, str]:
        edits: dict[str, list[tuple[int, int, str]]] = {}
        for number, name, start, end, text in self.pieces():
            if number in translated and documents.LETTER.search(text):
                newline = "\r\n" if "\r\n" in self.parts[name][start:end + 2] else "\n"
                edits.setdefault(name, []).append((start, end, translated[number].replace("\n", newline)))
        return {name: documents.spliced(self.parts[name], changes) for name, changes in edits.items()}


def in_german(parts: dict[str, str]) -> dict[str, str]:
    """The package documents' language German."""
    return {name: LANGUAGE.sub(lambda found: found.group(1) + "de" + found.group(2), text)
            for name, text in parts.items() if kind(name) == "opf"}


FORMAT = office.PackageFormat(read, Book, in_german)
