"""Translation tables in CSV (Godot's translation files, spreadsheets exported for translators: a header row naming each
column's language, ``keys,en,de``) for batch jobs: which cells to send, and the table written back.

The header names the English column (``en``, ``en_US``, Unity's ``English(en)``, ``English`` or ``source``) and, where
the table has one, the German column (``de``, ``de_DE``, ``German(de)``, ``German``, ``Deutsch``); a table without a
German column gets one, ``de``, at its end. Each row whose English cell has a letter and whose German cell is empty is
sent as an item numbered by its row (the header is row 0), its first cell the record's id where that is not the English
one (Godot's key), else its row number. The table is written back with the same delimiter (comma, semicolon or tab, as
the header uses), quoting only the cells that need it (or every cell, where the header's are all quoted), each row's
German cell filled where it was translated, a byte order mark and line endings as the input has them. CSV has no mark of
a translation to review.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import Iterator

from service import documents
from translator.model_format import TARGET_LANGUAGE

BOM = "\ufeff"  # Excel writes one before a UTF-8 table: read past, kept
DELIMITERS = ",;\t"
# A column's language in its header: a code (en, en_US, de-AT), a name with the code in brackets (Unity's
# "English(en)"), or the language's name
CODE = re.compile(r"(?:[^()]*\(\s*)?([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]+)*\s*\)?")
ENGLISH_NAMES = ("english", "source")
GERMAN_NAMES = ("german", "deutsch")


class NotTable(documents.NotDocument):
    """The input is not a translation table this job can fill in."""


@dataclass
class Table:
    rows: list[list[str]]  # the header first
    source: int  # the English column
    target: int  # the German column (the header's length where the table has none yet)
    dialect: type[csv.Dialect]


def check(document: str) -> None:
    """NotTable where the document is not CSV with a header row naming an English column."""
    _table(document)


def _table(document: str) -> Table:
    text = document.removeprefix(BOM)
    if not text.strip():
        raise NotTable("empty: a translation table has a header row naming its columns' languages (keys,en,de)")
    header_line = text.splitlines()[0]
    delimiter = max(DELIMITERS, key=header_line.count)  # the header's cells are words: no quoted delimiter there

    class Dialect(csv.excel):
        pass
    Dialect.delimiter = delimiter
    Dialect.lineterminator = "\r\n" if "\r\n" in text[:len(header_line) + 2] else "\n"
    if re.fullmatch(rf'"[^"]*"(?:{re.escape(delimiter)}"[^"]*")*', header_line):  # a table quoting every cell
        Dialect.quoting = csv.QUOTE_ALL
    try:
        rows = list(csv.reader(io.StringIO(text, newline=""), Dialect, strict=True))
    except csv.Error as error:
        raise NotTable(f"not CSV: {error}") from None
    header = [cell.strip() for cell in rows[0]]
    source = _column(header, "en", ENGLISH_NAMES)
    if source is None:
        raise NotTable(f"its header row ({delimiter.join(rows[0])[:200]!r}) names no English column: name the column "
                       "to translate en (or en_US, English(en), English, source)")
    target = _column(header, TARGET_LANGUAGE, GERMAN_NAMES)
    return Table(rows, source, len(header) if target is None else target, Dialect)


def _column(header: list[str], code: str, names: tuple[str, ...]) -> int | None:
    """The first column whose header names the language (its code or its name)."""
    for index, cell in enumerate(header):
        found = CODE.fullmatch(cell)
        if found and found.group(1).lower() == code or cell.lower() in names:
            return index
    return None


@dataclass(frozen=True)
class Row:
    number: int  # the row's, the header being row 0
    id: str
    text: str
    sent: bool  # an English text with a letter, its German cell empty


def rows(table: Table) -> Iterator[Row]:
    """Its rows below the header, each with its key, English text and whether it is sent."""
    for number, row in enumerate(table.rows[1:], start=1):
        text = row[table.source] if table.source < len(row) else ""
        german = row[table.target] if table.target < len(row) else ""
        key = row[0] if table.source != 0 and row else f"row {number}"
        yield Row(number, key, text, bool(documents.LETTER.search(text)) and not german.strip())


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(row number, key, English text) of each row to send."""
    return ((row.number, row.id, row.text) for row in rows(_table(document)) if row.sent)


def count(document: str) -> int:
    """How many rows below the header the table has: the highest number an item can have."""
    return len(_table(document).rows) - 1


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The table with each sent row's German cell holding its translation, where it has one (CSV has no mark of a
    translation to review: `review` changes nothing)."""
    table = _table(document)
    if table.target == len(table.rows[0]):
        table.rows[0].append(TARGET_LANGUAGE)
    for row in [row for row in rows(table) if row.sent and translated.get(row.number)]:
        cells = table.rows[row.number]
        cells += [""] * (table.target + 1 - len(cells))
        cells[table.target] = translated[row.number]
    written = io.StringIO(newline="")
    csv.writer(written, table.dialect).writerows(table.rows)
    text = written.getvalue()
    if not document.endswith(("\n", "\r")):
        text = text.removesuffix(table.dialect.lineterminator)
    return (BOM if document.startswith(BOM) else "") + text
