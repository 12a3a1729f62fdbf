"""JSON resource files (i18next, vue-i18n, ngx-translate, react-intl, Flutter's ARB, WebExtensions' messages.json)
for batch jobs: which strings to send, and the file written back.

Every string *value* is numbered in document order (keys never are); each one with a letter is sent as an item
keyed by that number, with its JSON path (``app.cart.empty``, ``buttons[1]``) as its id. The file is written back
character for character as it was, but for those strings' literals: indentation, key order, duplicate keys, escapes
of the strings left alone and the line endings all stay. Values under a key that starts with ``@`` are metadata
(ARB's ``"@title": {"description": ...}``) and are not sent; ARB's ``"@@locale"`` becomes ``"de"``.
Read as text, line by line, a file's ``true`` came back as ``wahr`` (no longer JSON) and a minified file was one
line's worth of words.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass
from typing import Iterator

from service import config_values, documents
from translator.model_format import TARGET_LANGUAGE

LOCALE_KEY = "@@locale"  # ARB names the file's language by it
TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],]')  # strings and the marks that nest or separate
COLON = re.compile(r"\s*:")  # after an object's key


class NotJSON(documents.NotDocument):
    """The input is not a JSON document."""


@dataclass(frozen=True)
class Value:
    """A string value of the document: its number (1-based, document order), path, text and place in the file."""

    number: int
    path: str
    text: str
    start: int  # of its literal, quotes included
    end: int
    metadata: bool  # under a key starting with "@" (or itself one): not sent
    locale: bool  # ARB's "@@locale"
    key: str  # of the object it is in, or the array's ("" at the top)


def check(document: str) -> None:
    try:
        json.loads(document)
    except json.JSONDecodeError as error:
        raise NotJSON(f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:  # Python's reader recurses per level: a resource file nests a few
        raise NotJSON("arrays or objects nested deeper than a resource file's (Python's JSON reader stops at about "
                      f"{sys.getrecursionlimit()} levels)") from None


def items(document: str, resource: bool = True) -> Iterator[tuple[int, str, str]]:
    """(number, JSON path, text) of each string value to send: of a program's configuration (not a `resource` file:
    package.json, tsconfig.json) only those under keys that say words (`config_values.says_words`: its description,
    not its name, scripts or output directory)."""
    return ((value.number, value.path, value.text) for value in values(document)
            if sent(value) and (resource or config_values.says_words(value.key)))


def count(document: str) -> int:
    """How many string values the document has: the highest number an item can have."""
    return sum(1 for _ in values(document))


def values(document: str) -> Iterator[Value]:
    """The document's string values in order (the document is valid JSON: `check` first)."""
    # per open object the key of the value read (None before one), per array the index
    steps: list[str | int | None] = []
    number = 0
    for token in TOKEN.finditer(document):
        text = token.group()
        if text in "{[":
            steps.append(None if text == "{" else 0)
        elif text in "}]":
            steps.pop()
        elif text == "," and isinstance(steps[-1], int):
            steps[-1] += 1
        elif text.startswith('"'):
            if steps and not isinstance(steps[-1], int) and COLON.match(document, token.end()):
                steps[-1] = json.loads(text)
                continue
            number += 1
            keys = [step for step in steps if isinstance(step, str)]
            yield Value(number, _path(steps), json.loads(text), token.start(), token.end(),
                        metadata=any(key.startswith("@") for key in keys), locale=steps == [LOCALE_KEY],
                        key=keys[-1] if keys else "")


def _path(steps: list[str | int | None]) -> str:
    path = ""
    for step in steps:
        path += f"[{step}]" if isinstance(step, int) else ("." if path else "") + step
    return path


def sent(value: Value) -> bool:
    return not value.metadata and bool(documents.LETTER.search(value.text))


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each value whose number has a translation replaced by it, and ARB's locale set (JSON has
    no mark of a translation to review: `review` changes nothing)."""
    edits = []
    for value in values(document):
        if value.locale:
            replacement = TARGET_LANGUAGE
        elif sent(value) and translated.get(value.number):
            replacement = translated[value.number]
        else:
            continue
        edits.append((value.start, value.end, json.dumps(replacement, ensure_ascii=False)))
    return documents.spliced(document, edits)
