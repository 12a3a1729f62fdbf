"""Gettext catalogs (.po, .pot) for batch jobs: which messages to send, and the catalog written back.

A job sends each untranslated message's msgid, and its msgid_plural, as an item keyed by the line that keyword
stands on. The catalog is written back line for line as it was, except for what the translations fill in:
- each message whose items all came back gets its msgstr (msgstr[0] the msgid's translation, msgstr[1] the plural's:
  German has two forms, the English ones), a translation with line breaks written one line per line as gettext's
  tools write it;
- such a message is flagged ``fuzzy`` (unless the job says otherwise): gettext's mark for a suggestion a translator
  has not reviewed, which msgfmt leaves out of the compiled catalog until someone removes the flag;
- a template's header placeholders (``Language:``, ``charset=CHARSET``, ``Plural-Forms: nplurals=INTEGER``) are
  filled for German, as msginit fills them, so that msgfmt takes the result.
Messages already translated (fuzzy ones included: a translator's draft is kept), obsolete ones (``#~``) and the
header are never sent. A catalog in another encoding than UTF-8, one for another language than German and one that is
not a PO file are refused with the line and what to do.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from translator.model_format import TARGET_LANGUAGE

PLURAL_FORMS = "nplurals=2; plural=(n != 1);"  # German's, as gettext's manual gives it

KEYWORD = re.compile(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?[ \t]+(".*)$')
PIECE = r'"((?:[^"\\]|\\.)*)"'
# A line's strings: one quoted piece, or several that msgfmt joins ('msgid "Hello, " "world"')
STRINGS = re.compile(rf'(?:{PIECE}[ \t]*)+$')
ESCAPE = re.compile(r'\\(?:([0-7]{1,3})|x([0-9a-fA-F]+)|(.))')
ESCAPED = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "\\": "\\", '"': '"'}
NEEDS_ESCAPE = re.compile(r'[\\"\x00-\x1f\x7f]')
WRITTEN = {value: "\\" + name for name, value in ESCAPED.items()}
CHARSET = re.compile(r"(Content-Type:[^\n]*charset=)([^\s;\n]*)", re.IGNORECASE)
LINES = re.compile(r"[^\n]*\n|[^\n]+")  # a text's lines, each with its "\n"
HEADER_LANGUAGE = re.compile(r"^Language:[ \t]*([^\n]*)$", re.MULTILINE)
HEADER_PLURALS = re.compile(r"^Plural-Forms:[^\n]*$", re.MULTILINE)
GERMAN = re.compile(r"((deu?|ger)(?![a-z])|german|deutsch)", re.IGNORECASE)  # de, de_DE, de-AT, deu, German
UTF8_NAMES = {"utf-8", "utf8", "charset", "ascii", "us-ascii", ""}  # "CHARSET": a template's placeholder


class CatalogError(ValueError):
    """The input cannot be read as a gettext catalog this job can fill in."""


@dataclass
class Message:
    """One entry of a catalog, with the lines its parts stand on (1-based)."""

    first_keyword: int = 0  # its first #| (previous msgid), msgctxt or msgid line: where a flags line goes
    flags_line: int = 0  # its "#," line, 0 where it has none
    flags: str = ""  # that line
    context: str | None = None
    msgid: str | None = None
    msgid_line: int = 0
    plural: str | None = None
    plural_line: int = 0
    msgstr: dict[int, str] = field(default_factory=dict)  # by plural index (msgstr alone: 0)
    msgstr_lines: tuple[int, int] = (0, 0)  # first and last line of its msgstr strings

    @property
    def is_header(self) -> bool:
        return self.msgid == "" and self.context is None

    @property
    def untranslated(self) -> bool:
        return bool(self.msgid and self.msgid.strip()) and not self.is_header and not any(self.msgstr.values())

    def sources(self) -> list[tuple[int, str]]:
        """(line, text) of what is sent for it: its msgid, and its plural."""
        return [(self.msgid_line, self.msgid)] + ([(self.plural_line, self.plural)] if self.plural is not None else [])


def unquote(literal: str, number: int) -> str:
    """A PO string's text: its C escapes (\\n, \\", octal and hex bytes, as msgfmt reads them) undone."""
    if not STRINGS.match(literal):
        raise CatalogError(f"line {number}: a string must be quoted, its quotes inside written \\\", e.g. "
                           f'"Hello"; this one reads {literal.strip()[:60]!r}')
    string = "".join(re.findall(PIECE, literal))  # validated: the pieces, in order
    if "\\" not in string:
        return string
    raw, done = bytearray(), 0
    for escape in ESCAPE.finditer(string):
        octal, hexadecimal, letter = escape.groups()
        raw += string[done:escape.start()].encode()
        if octal or hexadecimal:
            raw.append(int(octal, 8) & 0xFF if octal else int(hexadecimal, 16) & 0xFF)
        else:
            raw += ESCAPED.get(letter, letter).encode()
        done = escape.end()
    raw += string[done:].encode()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise CatalogError(f"line {number}: its escaped bytes are not UTF-8") from None


def quote(text: str) -> str:
    return '"' + NEEDS_ESCAPE.sub(lambda c: WRITTEN.get(c.group(), f"\\{ord(c.group()):03o}"), text) + '"'


def messages(lines: Iterator[tuple[int, str]]) -> Iterator[Message]:
    """A catalog's messages, in order, from its (line number, text) pairs; CatalogError at the first line that
    breaks PO syntax."""
    message, current = Message(), ""  # current: the keyword the last string line belongs to

    def finished() -> Message:
        if message.msgid is None:
            raise CatalogError(f"line {message.first_keyword}: a msgctxt without its msgid and msgstr")
        if not message.msgstr:
            raise CatalogError(f"line {message.msgid_line}: a msgid without its msgstr; write msgstr \"\" after it "
                               "(a template's empty translation)")
        return message

    for number, line in lines:
        text = line.strip()  # (a byte order mark some editors write is no line's: batch.decoded_lines)
        if message.msgstr and (not text or text.startswith("#") or text.startswith(("msgid", "msgctxt"))):
            yield finished()
            message, current = Message(), ""
        if not text:  # between messages; comments before it belong to none
            if message.msgid is not None or message.context is not None:
                finished()
            message, current = Message(), ""
            continue
        if text.startswith("#"):
            if message.msgid is not None or message.context is not None:
                raise CatalogError(f"line {number}: a comment inside a message; comments go before its msgctxt/msgid")
            if text.startswith("#,"):
                message.flags_line, message.flags = number, line
            elif text.startswith("#|") and not message.first_keyword:
                message.first_keyword = number
            continue
        if text.startswith('"'):
            if not current:
                raise CatalogError(f"line {number}: a string continues no msgid or msgstr")
            _append(message, current, unquote(text, number), number)
            continue
        keyword = KEYWORD.match(text)
        if not keyword:
            raise CatalogError(f"line {number}: not a line of a PO file ({text[:40]!r}); expected a comment (#), "
                               "msgctxt, msgid, msgid_plural, msgstr or a quoted string continuing one")
        name, index, literal = keyword.groups()
        current = _start(message, name, index, number)
        _append(message, current, unquote(literal, number), number)
    if message.msgid is not None or message.context is not None:
        yield finished()


def _start(message: Message, name: str, index: str | None, number: int) -> str:
    """Check that `name` may come here, and note where it stands; the key its strings are appended under."""
    order = {"msgctxt": message.msgid is None and message.context is None,
             "msgid": message.msgid is None,
             "msgid_plural": message.msgid is not None and message.plural is None and not message.msgstr,
             "msgstr": message.msgid is not None}
    if not order[name] or (index is not None) != (name == "msgstr" and message.plural is not None):
        raise CatalogError(f"line {number}: {name}{f'[{index}]' if index is not None else ''} out of place; a message "
                           "is [msgctxt] msgid [msgid_plural] then msgstr, or msgstr[0], msgstr[1]... after a plural")
    message.first_keyword = message.first_keyword or number
    if name == "msgstr":
        slot = int(index or 0)
        if slot in message.msgstr:
            raise CatalogError(f"line {number}: a second msgstr{f'[{slot}]' if index else ''} in one message")
        message.msgstr[slot] = ""
        message.msgstr_lines = (message.msgstr_lines[0] or number, number)
        return f"msgstr{slot}"
    if name == "msgid":
        message.msgid, message.msgid_line = "", number
    elif name == "msgid_plural":
        message.plural, message.plural_line = "", number
    else:
        message.context = ""
    return name


def _append(message: Message, key: str, text: str, number: int) -> None:
    if key.startswith("msgstr"):
        slot = int(key.removeprefix("msgstr"))
        message.msgstr[slot] += text
        message.msgstr_lines = (message.msgstr_lines[0], number)
    elif key == "msgid":
        message.msgid += text
    elif key == "msgid_plural":
        message.plural += text
    else:
        message.context += text


def read(lines: Iterator[tuple[int, str]]) -> Iterator[Message]:
    """The catalog's messages, its header checked: UTF-8 (or a template's placeholder) and German or no language."""
    for message in messages(lines):
        if message.is_header:
            check_header(message.msgstr.get(0, ""), message.msgid_line)
        yield message


def check_header(header: str, line: int) -> None:
    charset = CHARSET.search(header)
    if charset and charset.group(2).lower() not in UTF8_NAMES:
        raise CatalogError(f"line {line}: the catalog is in {charset.group(2)} (its header's charset); convert it to "
                           "UTF-8 first: msgconv --to-code=UTF-8 INPUT -o INPUT.utf8.po")
    language = HEADER_LANGUAGE.search(header)
    if language and language.group(1).strip() and not GERMAN.match(language.group(1).strip()):
        raise CatalogError(f"line {line}: the catalog is for {language.group(1).strip()} (its header's Language); the "
                           f"models translate English into German ({TARGET_LANGUAGE}): give the template (.pot) or "
                           "the German catalog")


def german_header(header: str, plurals: bool) -> str:
    """A header's placeholders filled for German, as msginit fills them (and German's Plural-Forms added where
    `plurals` were filled in and it has none); values a translator set are kept."""
    header = CHARSET.sub(lambda m: m.group(1) + ("UTF-8" if m.group(2).lower() in UTF8_NAMES else m.group(2)), header)
    language = HEADER_LANGUAGE.search(header)
    if language and not language.group(1).strip():
        header = header[:language.start(1)] + TARGET_LANGUAGE + header[language.end(1):]
    forms = HEADER_PLURALS.search(header)
    if not forms and plurals:
        header += ("" if header.endswith("\n") or not header else "\n") + f"Plural-Forms: {PLURAL_FORMS}\n"
    elif forms and ("INTEGER" in forms.group() or "EXPRESSION" in forms.group()):
        header = header[:forms.start()] + f"Plural-Forms: {PLURAL_FORMS}" + header[forms.end():]
    return header


def msgstr_lines(message: Message, translations: list[str]) -> list[str]:
    """The msgstr lines of a message filled with its translations (its msgid's, then its plural's)."""
    if message.plural is None:
        return string_lines("msgstr", translations[0])
    return [line for slot, text in enumerate(translations) for line in string_lines(f"msgstr[{slot}]", text)]


def string_lines(keyword: str, text: str) -> list[str]:
    """`keyword "text"`, or, where the text has a line break before its end, `keyword ""` and one line per line."""
    pieces = LINES.findall(text)
    if len(pieces) <= 1:
        return [f"{keyword} {quote(text)}"]
    return [f'{keyword} ""'] + [quote(piece) for piece in pieces]


def flagged_fuzzy(flags: str) -> str:
    """A "#," line with the fuzzy flag added (first, as msgmerge writes it), or as it was where it has one."""
    names = [name.strip() for name in flags.strip()[2:].split(",") if name.strip()]
    return flags if "fuzzy" in names else "#, " + ", ".join(["fuzzy", *names])


@dataclass
class Edits:
    """What filling a catalog changes, by line: lines put before a line, lines standing in for one (the first of
    a replaced range), and lines dropped (the rest of that range)."""

    before: dict[int, list[str]] = field(default_factory=dict)
    instead: dict[int, list[str]] = field(default_factory=dict)
    dropped: set[int] = field(default_factory=set)

    def replace(self, first: int, last: int, lines: list[str]) -> None:
        self.instead[first] = lines
        self.dropped.update(range(first + 1, last + 1))

    def apply(self, lines: Iterator[str]) -> Iterator[str]:
        for number, line in enumerate(lines, start=1):
            yield from self.before.get(number, ())
            if number in self.instead:
                yield from self.instead[number]
            elif number not in self.dropped:
                yield line


def edits(catalog: Iterator[Message], translated: dict[int, str], fuzzy: bool) -> Edits:
    """Every message whose sources all have a translation (`translated`: by the line each source stands on) filled
    in and, with `fuzzy`, flagged so; the header's placeholders filled where any message was."""
    changes, header, filled, plurals = Edits(), None, False, False
    for message in catalog:
        header = message if message.is_header else header
        sources = message.sources() if message.untranslated else []
        if not sources or not all(translated.get(line) for line, _ in sources):
            continue
        changes.replace(*message.msgstr_lines, msgstr_lines(message, [translated[line] for line, _ in sources]))
        if fuzzy and message.flags_line:
            changes.instead[message.flags_line] = [flagged_fuzzy(message.flags)]
        elif fuzzy:
            changes.before[message.first_keyword] = ["#, fuzzy"]
        filled, plurals = True, plurals or message.plural is not None
    written = header.msgstr.get(0, "") if header else ""
    if filled and header and (german := german_header(written, plurals)) != written:
        changes.replace(*header.msgstr_lines, string_lines("msgstr", german))
    return changes
