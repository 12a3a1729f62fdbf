"""Jupyter notebooks (``.ipynb``, nbformat 4) for batch jobs: which texts to send, and the notebook written back.

Each cell is numbered in document order; each Markdown cell with a letter is sent whole as an item keyed by that
number, its cell ``id`` (or ``cells[i]``) the record's id: the text pipeline keeps its code, links and math. Code
cells, their outputs, raw cells and all metadata are never sent. The notebook is written back as nbformat writes it
(indented as the input was, ``ensure_ascii`` off), each translated cell's source in the form it had (a list of lines
or one string). Read as text, line by line, a notebook's JSON and its code were translated, and it no longer opened.
"""

from __future__ import annotations

import json
import re
from typing import Iterator

from service import documents

INDENT = re.compile(r"\{\r?\n([ \t]+)")  # the indentation of the first key: nbformat writes one space


class NotNotebook(documents.NotDocument):
    """The input is not a Jupyter notebook."""


def notebook(document: str) -> dict:
    """The document read as a notebook; NotNotebook with what to fix where it is none."""
    try:
        read = json.loads(document.removeprefix("\ufeff"))  # a byte order mark an editor wrote: kept (`filled`)
    except json.JSONDecodeError as error:
        raise NotNotebook(f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise NotNotebook("arrays or objects nested deeper than a notebook's") from None
    if not isinstance(read, dict) or not isinstance(read.get("cells"), list):
        raise NotNotebook('not a Jupyter notebook: no "cells" list (nbformat 4; convert an older one with '
                          "jupyter nbconvert --to notebook)")
    return read


def check(document: str) -> None:
    notebook(document)


def _markdown(cell: object) -> str | None:
    """A Markdown cell's text with a letter (None for any other cell)."""
    if not isinstance(cell, dict) or cell.get("cell_type") != "markdown":
        return None
    source = cell.get("source", "")
    if isinstance(source, list) and all(isinstance(line, str) for line in source):
        source = "".join(source)
    return source if isinstance(source, str) and documents.LETTER.search(source) else None  # else not nbformat's


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, cell id, text) of each Markdown cell to send."""
    for number, cell in enumerate(notebook(document)["cells"], start=1):
        if (text := _markdown(cell)) is not None:
            yield number, str(cell.get("id") or f"cells[{number - 1}]"), text


def count(document: str) -> int:
    """How many cells the notebook has: the highest number an item can have."""
    return len(notebook(document)["cells"])


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The notebook with each Markdown cell whose number has a translation holding it (a notebook has no mark of a
    translation to review: `review` changes nothing)."""
    read = notebook(document)
    for number, cell in enumerate(read["cells"], start=1):
        if _markdown(cell) is not None and translated.get(number):
            text = translated[number]
            cell["source"] = text.splitlines(keepends=True) if isinstance(cell["source"], list) else text
    mark = "\ufeff" if document.startswith("\ufeff") else ""
    indent = INDENT.match(document, len(mark))
    written = json.dumps(read, indent=indent.group(1) if indent else None, ensure_ascii=False)
    return mark + written + ("\n" if document.endswith("\n") else "")
