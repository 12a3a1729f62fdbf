"""Tables drawn with characters in plain text (a grid table: "+---+" rules, "|" between cells), for batch jobs.

Read line by line, a drawn table came back broken: each line's pieces of cells translated apart, its "|"s moved and
its numbers changed (the Debian Reference's text, 170 tables in 5,131 lines: "|vim-tiny |I:971 |1660 |" came back as
"|vim-tiny |I:971 1660 | |", "V:55," as "V:5,"). Here a table's cells are its texts: a cell's words over the lines of
its row are one text, and the table is drawn again around their translations. Each row keeps its lines, so the table
keeps its height (and the text's lines their places); a column is widened where a translation needs more room to fit
its row. A cell of one word in small letters below the first row (a package's name, a command, a value) and a cell
with no word are kept as written.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

# (indented by spaces, tabs or no-break spaces, which w3m writes for a web page's: the Debian Reference's text)
RULE = re.compile(r"[ \t\xa0]*[+|](?:[-=]+[+|])+[ \t]*")  # "+----+---+", "|----+---|", "+====+"
ROW = re.compile(r"[ \t\xa0]*\|.*\|[ \t]*")
WORD = re.compile(r"[^\W\d_]{2,}")
IDENTIFIER = re.compile(r"[a-z0-9][\w.+:/-]*")  # one word in small letters: "mc", "vim-tiny", "libc6:amd64"
CELLS_APART = "\n\n"  # how a table's texts travel as one text: paragraphs, each translated alone


@dataclass
class Cell:
    row: int  # index into GridTable.rows
    column: int
    lines: list[str]  # its part of each of its row's lines, as written
    sent: bool  # translated (else kept as written)

    @property
    def text(self) -> str:
        return " ".join(line.strip() for line in self.lines if line.strip())


@dataclass
class GridTable:
    lines: list[str]
    bounds: list[int]  # the column of each "|" (and "+") between and around cells
    rows: list[list[int]]  # each row's line numbers, in order
    cells: list[Cell]

    @property
    def texts(self) -> list[str]:
        """The cells' texts to translate, in reading order."""
        return [cell.text for cell in self.cells if cell.sent]

    def written(self, translation: str) -> str:
        """The table drawn again around the translations of its `texts` (joined as CELLS_APART joins them); as
        written where the translation has another number of texts."""
        translations = translation.split(CELLS_APART)
        if not self.texts or len(translations) != len(self.texts):
            return "\n".join(self.lines)
        texts = iter(" ".join(text.split()) for text in translations)
        columns = len(self.bounds) - 1
        pad = [1 if all(not line.strip() or line.startswith(" ") for cell in self.cells if cell.column == c
                        for line in cell.lines) else 0 for c in range(columns)]
        contents = {(cell.row, cell.column): (next(texts) if cell.sent else None) for cell in self.cells}
        widths = [self.bounds[c + 1] - self.bounds[c] - 1 for c in range(columns)]
        for cell in self.cells:
            if (text := contents[cell.row, cell.column]) is not None:
                height = len(self.rows[cell.row])
                widths[cell.column] = max(widths[cell.column], _fitting(text, height) + 2 * pad[cell.column])
        drawn = {}
        for cell in self.cells:
            text = contents[cell.row, cell.column]
            drawn[cell.row, cell.column] = _placed(cell, text, widths[cell.column], pad[cell.column])
        places = {number: (row, at) for row, numbers in enumerate(self.rows) for at, number in enumerate(numbers)}
        out = []
        for number, line in enumerate(self.lines):
            indent = line[:self.bounds[0]]
            if number not in places:
                out.append(indent + _rule(line, self.bounds, widths))
                continue
            row, at = places[number]
            out.append(indent + "|" + "|".join(drawn[row, c][at] for c in range(columns)) + "|")
        return "\n".join(out)


def read(lines: list[str]) -> GridTable | None:
    """The grid table these lines (a paragraph's) draw: a rule first and last, between them rows of cells between
    "|"s, every line as long. Its cells where the "|"s stand at the same columns in every line and nowhere else; where
    not (a cell spans columns, a cell's text has a "|": 32 of the Debian Reference's 170 tables), none: kept as
    written. None where they draw no table."""
    lines = [line.rstrip() for line in lines]
    if len(lines) < 3 or not RULE.fullmatch(lines[0]) or not RULE.fullmatch(lines[-1]) \
            or len({len(line) for line in lines}) != 1:
        return None
    row_lines = [number for number, line in enumerate(lines) if not RULE.fullmatch(line)]
    if not row_lines or not all(ROW.fullmatch(lines[number]) for number in row_lines):
        return None
    bounds = [at for at, character in enumerate(lines[row_lines[0]]) if character == "|"]
    is_row, columns = set(row_lines), set(bounds)
    for number, line in enumerate(lines):
        marks = [at for at, character in enumerate(line) if character in "|+"]
        if number in is_row and marks != bounds or not columns.issuperset(marks):
            return GridTable(lines, bounds, [], [])
    rows: list[list[int]] = []
    for number in row_lines:
        if rows and rows[-1][-1] == number - 1:
            rows[-1].append(number)
        else:
            rows.append([number])
    cells = []
    for r, numbers in enumerate(rows):
        for c in range(len(bounds) - 1):
            parts = [lines[number][bounds[c] + 1:bounds[c + 1]] for number in numbers]
            text = " ".join(part.strip() for part in parts if part.strip())
            sent = bool(WORD.search(text)) and not (r > 0 and IDENTIFIER.fullmatch(text))
            cells.append(Cell(r, c, parts, sent))
    return GridTable(lines, bounds, rows, cells)


def _fitting(text: str, height: int) -> int:
    """The narrowest width at which the text wraps in `height` lines or fewer (its longest word at the least): a
    binary search, as the lines of a wrapping never grow with its width."""
    narrow, wide = max(map(len, text.split()), default=0), max(len(text), 1)
    while narrow < wide:
        middle = (narrow + wide) // 2
        if len(_wrapped(text, middle)) <= height:
            wide = middle
        else:
            narrow = middle + 1
    return narrow


def _wrapped(text: str, width: int) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def _placed(cell: Cell, text: str | None, width: int, pad: int) -> list[str]:
    """A cell's lines at its column's new width: its own where kept, else the translation wrapped, starting on the
    line the source's text started on where it fits there."""
    if text is None:
        return [line.rstrip().ljust(width) for line in cell.lines]
    wrapped = _wrapped(text, width - 2 * pad)
    first = next((k for k, line in enumerate(cell.lines) if line.strip()), 0)
    first = first if first + len(wrapped) <= len(cell.lines) else max(0, len(cell.lines) - len(wrapped))
    placed = [""] * first + wrapped + [""] * (len(cell.lines) - first - len(wrapped))
    if _centered(cell):  # a heading's ("|   description   |"), the odd space on the right
        return [(" " * ((width - len(line)) // 2) + line).ljust(width) for line in placed]
    return [(" " * pad + line).ljust(width) for line in placed]


def _centered(cell: Cell) -> bool:
    """Whether a cell's line has its text in the middle, a space or more on either side (a heading's, centered line by
    line: "|file permissions |" above "|     created     |")."""
    margins = [(len(line) - len(line.lstrip()), len(line) - len(line.rstrip())) for line in cell.lines if line.strip()]
    return any(left and right and abs(left - right) <= 1 for left, right in margins)


def _rule(line: str, bounds: list[int], widths: list[int]) -> str:
    """A rule drawn again at the new widths: its marks where it had them, its fill between."""
    fill = "=" if "=" in line else "-"
    marks = [line[at] if line[at] in "+|" else fill for at in bounds]
    return "".join(marks[c] + fill * widths[c] for c in range(len(widths))) + marks[-1]
