"""PHP translation files (Laravel's lang/en/*.php, ``<?php return ['key' => 'text'];``, and CodeIgniter's
``$lang['key'] = 'text';``) for batch jobs: which strings to send, and the file written back.

The file is read as PHP reads it, but only what such a file holds: ``<?php``, a ``declare(...)``, CodeIgniter's
``defined('BASEPATH') OR exit(...)``, ``return`` of an array (``[...]`` or ``array(...)``, nested), assignments of
strings to a variable's keys, strings (single- or double-quoted, joined by ``.``), numbers, ``true``, ``false``,
``null`` and comments; anything else (code) is refused. Each string value with a letter is sent as an item numbered in
document order, its keys the record's id (Laravel's dotted path: ``auth.throttle`` inside ``'auth' => [...]``); keys are
never sent, nor a double-quoted string that interpolates a variable (``"Hi $name"``: code). Laravel's placeholders
(``:seconds``) and plural choices (``{0} None|[1,*] :count``) are the text pipeline's. The file is written back
character for character as it was but for those strings, each escaped for its quotes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from service import documents

TOKEN = re.compile(r"""
    (?P<space>\s+|//[^\n]*|\#(?!\[)[^\n]*|/\*.*?\*/)  # white space and comments
  | '(?P<single>(?:[^'\\]|\\.)*)'
  | "(?P<double>(?:[^"\\]|\\.)*)"
  | (?P<number>-?\d+(?:\.\d+)?)
  | (?P<word>[A-Za-z_]\w*)
  | (?P<variable>\$[A-Za-z_]\w*)
  | (?P<mark>=>|\?>|\|\||[\[\](),;=.])
""", re.VERBOSE | re.DOTALL)
OPENING = re.compile(r"\ufeff?\s*<\?php\b")
# What a double-quoted string is not sent for: a variable it interpolates ("Hi $name", "{$user->name}": code), or a
# byte it spells ("\303\251", "\xC3": bytes of an encoding, not characters)
NOT_SENT = re.compile(r"(?<!\\)(?:\\\\)*(?:\$(?=[A-Za-z_{])|\\[0-7]|\\x[0-9A-Fa-f])|\{\$")
DOUBLE_ESCAPE = re.compile(r"\\(?:([ntrvef\\$\"])|u\{([0-9A-Fa-f]{1,6})\})")
DOUBLE_ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "v": "\v", "e": "\x1b", "f": "\f", "\\": "\\", "$": "$", '"': '"'}
WRITTEN_DOUBLE = {"\\": "\\\\", '"': '\\"', "$": "\\$", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
CONSTANTS = ("true", "false", "null")
MAX_DEPTH = 64  # arrays nested deeper are refused (a translation file nests two or three)


class NotPhp(documents.NotDocument):
    """The input is not a PHP translation file this job can fill in."""


@dataclass(frozen=True)
class String:
    number: int  # 1-based, in document order, of the string values
    name: str  # its keys, dotted
    text: str  # as PHP reads it
    start: int  # where its content (inside its quotes) starts in the document, and ends
    end: int
    double: bool  # double-quoted
    sent: bool  # with a letter, not interpolating a variable


def check(document: str) -> None:
    """NotPhp where the document is not a PHP file of arrays of strings."""
    for _ in strings(document):
        pass


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, keys, text) of each string to send."""
    return ((string.number, string.name, string.text) for string in strings(document) if string.sent)


def count(document: str) -> int:
    """How many string values the document has: the highest number an item can have."""
    return sum(1 for _ in strings(document))


def strings(document: str) -> Iterator[String]:
    """Its string values, in order, each with its keys, text and place."""
    return iter(_Reader(document).read())


class _Reader:
    """A reader of the little PHP a translation file holds, collecting its string values."""

    def __init__(self, document: str):
        opening = OPENING.match(document)
        if opening is None:
            raise NotPhp("it does not start with <?php: not a PHP translation file")
        self.document = document
        self.tokens = self._tokens(opening.end())
        self.at = 0
        self.found: list[String] = []

    def _tokens(self, position: int) -> list[re.Match]:
        tokens = []
        while position < len(self.document):
            token = TOKEN.match(self.document, position)
            if token is None:
                raise self._unexpected(position, self.document[position:position + 20])
            if token.lastgroup != "space":
                tokens.append(token)
            if token.group("mark") == "?>":  # the end of PHP: what follows is output, not read here
                break
            position = token.end()
        return tokens

    def read(self) -> list[String]:
        while self.at < len(self.tokens) and self._peek() != "?>":
            self._statement()
        return self.found

    def _statement(self) -> None:
        token = self._next()
        if token.group("word") == "declare":  # declare(strict_types=1);
            for expected in ("(", None, "=", None, ")", ";"):
                found = self._next()
                if expected is not None and found.group() != expected:
                    raise self._unexpected(found.start(), found.group())
        elif token.group("word") == "defined":  # CodeIgniter's guard: defined('BASEPATH') OR exit('No direct ...');
            self._expect("(")
            self._key(self._next())
            self._expect(")")
            if self._next().group().lower() not in ("or", "||") or self._next().group().lower() not in ("exit", "die"):
                raise self._unexpected(token.start(), "defined(...)")
            self._expect("(")
            if self._peek() != ")":
                self._key(self._next())
            self._expect(")")
            self._expect(";")
        elif token.group("word") == "return":
            self._array(self._next(), [], 0)
            self._expect(";")
        elif token.group("variable"):  # $lang['key'] = 'text';
            keys = []
            while self._peek() == "[":
                self._next()
                keys.append(self._key(self._next()))
                self._expect("]")
            self._expect("=")
            self._value(self._next(), keys, 0)
            self._expect(";")
        else:
            raise self._unexpected(token.start(), token.group())

    def _array(self, token: re.Match, keys: list[str], depth: int) -> None:
        if depth > MAX_DEPTH:
            raise NotPhp(f"arrays nested deeper than {MAX_DEPTH}: not a translation file")
        if token.group("word") == "array":
            self._expect("(")
            closing = ")"
        elif token.group() == "[":
            closing = "]"
        else:
            raise self._unexpected(token.start(), token.group())
        index = 0
        while self._peek() != closing:
            first = self._next()
            if self._peek() == "=>":
                self._next()
                key = self._key(first)
                self._value(self._next(), keys + [key], depth + 1)
            else:
                self._value(first, keys + [str(index)], depth + 1)
                index += 1
            if self._peek() != closing:
                self._expect(",")
        self._next()

    def _key(self, token: re.Match) -> str:
        if token.group("number") is not None:
            return token.group()
        if token.lastgroup in ("single", "double"):
            return _read(token)
        raise self._unexpected(token.start(), token.group())

    def _value(self, token: re.Match, keys: list[str], depth: int) -> None:
        if token.group() == "[" or token.group("word") == "array":
            self._array(token, keys, depth)
            return
        if token.group("number") is not None or token.group("word") in CONSTANTS:
            return
        while True:  # a string, or strings joined by "."
            if token.lastgroup not in ("single", "double"):
                raise self._unexpected(token.start(), token.group())
            self._string(token, ".".join(keys))
            if self._peek() != ".":
                return
            self._next()
            token = self._next()

    def _string(self, token: re.Match, name: str) -> None:
        double = token.lastgroup == "double"
        text = _read(token)
        sent = bool(documents.LETTER.search(text)) and not (double and NOT_SENT.search(token.group("double")))
        self.found.append(String(len(self.found) + 1, name, text, token.start(token.lastgroup),
                                 token.end(token.lastgroup), double, sent))

    def _peek(self) -> str | None:
        return self.tokens[self.at].group() if self.at < len(self.tokens) else None

    def _next(self) -> re.Match:
        if self.at == len(self.tokens):
            raise NotPhp("it ends inside an array or statement: not a complete PHP translation file")
        self.at += 1
        return self.tokens[self.at - 1]

    def _expect(self, mark: str) -> None:
        token = self._next()
        if token.group() != mark:
            raise self._unexpected(token.start(), token.group())

    def _unexpected(self, position: int, found: str) -> NotPhp:
        line = self.document.count("\n", 0, position) + 1
        return NotPhp(f"line {line}: {found[:20]!r} where a PHP translation file has only arrays of strings "
                      "(<?php return ['key' => 'text'];)")


def _read(token: re.Match) -> str:
    """A string literal's text, as PHP reads it."""
    if token.lastgroup == "single":
        return re.sub(r"\\([\\'])", r"\1", token.group("single"))
    return DOUBLE_ESCAPE.sub(_unescaped, token.group("double"))


def _unescaped(escape: re.Match) -> str:
    simple, code_point = escape.groups()
    if simple:
        return DOUBLE_ESCAPED[simple]
    number = int(code_point, 16)
    return chr(number) if number <= 0x10FFFF and not 0xD800 <= number <= 0xDFFF else escape.group()


def _written(text: str, double: bool) -> str:
    """A text as the content of a literal in its quotes."""
    if double:
        return "".join(WRITTEN_DOUBLE.get(character, character) for character in text)
    return text.replace("\\", "\\\\").replace("'", "\\'")


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each sent string whose number has a translation holding it (PHP has no mark of a
    translation to review: `review` changes nothing)."""
    edits = [(string.start, string.end, _written(translated[string.number], string.double))
             for string in strings(document) if string.sent and translated.get(string.number)]
    return documents.spliced(document, edits)
