"""A configuration file's value (`--format config`, a line at a time) as its format reads it, and a translation
written back as the format needs it.

Read as written, a YAML, TOML or Apple strings value reached the model with its escapes (`Click \\"Save\\"`,
`Don''t`), and a translation went back as the model wrote it: `b: 'Don''t close the window.'` came back as `b: 'Don'
ist nicht geschlossen.`, and the whole file no longer loaded. Now the model gets the text the program shows, and the
translation is quoted and escaped again: in YAML's double quotes `\\"`, `\\\\` and `\\n`, in its single quotes `''`, a
plain value quoted where its translation would not read as plain text (`Hinweis: …`, `'Speichern' drücken`, `%{count}
Dateien`, `ja`); in an Apple strings file `\\"`, `\\\\` and `\\n`; in an assignment's value quoted whole (TOML's
`other = "Home"`) as TOML needs. A Rails locale file's top-level `en:` is written `de:`: kept, the German file
redefined English. Comments are kept as written. A desktop entry's texts (`Name=`) keep their line and get their
German on a line after it (`Name[de]=`); its other keys are no text. A YAML boolean, null, number or date is no text.
A program's configuration (docker-compose.yml, pyproject.toml, an OpenAPI document: a file `is_resource` does not
tell holds a program's words) sends only the values under keys that say words (`says_words`).
"""

from __future__ import annotations

import bisect
import functools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from translator.model_format import TARGET_LANGUAGE
from translator.text import SECTION, STRINGS_ENTRY, YAML_KEY, YAML_QUOTED_VALUE

# YAML's escapes in double quotes (YAML 1.2, 5.7), TOML's in basic strings (1.1) and Apple strings' (old-style
# property lists): by name, or by number (\xHH, \uXXXX, \UXXXXXXXX; Apple's \UXXXX and octal)
YAML_NAMED = {"0": "\0", "a": "\a", "b": "\b", "t": "\t", "\t": "\t", "n": "\n", "v": "\v", "f": "\f", "r": "\r",
              "e": "\x1b", " ": " ", '"': '"', "/": "/", "\\": "\\", "N": "\x85", "_": "\xa0", "L": "\u2028",
              "P": "\u2029"}
TOML_NAMED = {"b": "\b", "t": "\t", "n": "\n", "f": "\f", "r": "\r", "e": "\x1b", '"': '"', "\\": "\\"}
STRINGS_NAMED = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'"}
YAML_ESCAPE = TOML_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)")
STRINGS_ESCAPE = re.compile(r"\\([Uu][0-9a-fA-F]{4}|[0-7]{1,3}|.)")
WRITTEN = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\t": "\\t", "\r": "\\r"}  # as the three write them
# What YAML cannot hold as written (outside its printable set) or reads as a line break, escaped in double quotes
UNPRINTABLE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")
# A plain YAML value that would not read back as the same text: it starts with an indicator or white space, holds
# ": " or " #", ends in ":" or white space, or holds what only double quotes can
NOT_PLAIN = re.compile(r"""[-?:,\[\]{}#&*!|>'"%@`\s]|.*(?::\s|\s#|:$|\s$|[\n\t\r])""", re.DOTALL)
# A plain YAML value read as another type in YAML 1.1 (Ruby's Psych, PyYAML): a boolean, null, a number (in any
# base, with "_" or ":"), a date, the merge key; or nothing (null)
TYPED = re.compile(r"(?i:y|yes|n|no|true|false|on|off|null|~|[-+]?\.inf|\.nan)|<<|=|[-+]?[\d.][\w.:+-]*|")
# A comment's line (YAML's and INI's "#", INI's ";", an Apple strings file's "/*" and "//"): a note to developers, kept
# as written. The German files of Greenlight, Jenkins and JMeter keep their English files' comments word for word
# (license headers, "# view: /artist"); read as text, they came back translated.
COMMENT = re.compile(r"[ \t]*(?:#|;|//|/\*)")
# A comment after a plain YAML value: "#" after white space ends the value (YAML 1.2, 6.6); `title: Welcome  # page top`
# sent "Welcome  # page top" and came back with the note translated, or its "#" gone and the note part of the value
PLAIN_COMMENT = re.compile(r"[ \t]+#.*")
NOT_TEXT = re.compile(r"[|>*&!]")  # a YAML value that is no text: a block scalar's header, an alias, an anchor, a tag
BLOCK_INDICATOR = re.compile(r"[|>][-+1-9]*[ \t]*(?:#.*)?")  # "|", ">-", "|2", a comment after it
YAML_LIST_ITEM = re.compile(r"[ \t]*-(?=[ \t])")  # "  - Monday": a list's item
LINE_LEAD = re.compile(r"[ \t]*(?:- )?")  # a line's indentation and a YAML list's dash: kept before its text
# "key=", "a.key = ", "Name[de]=": an assignment's key (its escapes and marks too)
CONFIG_KEY = re.compile(r"[ \t]*(?:[A-Za-z_]|\\.)(?:[^\s=\\]|\\.)*[ \t]*=[ \t]*")
# An assignment's value quoted whole ('other = "Home"': TOML's basic or literal string, as Hugo's i18n files write them;
# an INI file's quoted value), a comment after it
ASSIGNED_QUOTED = re.compile(r"""("(?:[^"\\\n]|\\.)*"|'[^'\n]*')([ \t]*(?:#.*)?)""")
# An assignment's unquoted value that is no text: a boolean, null, a number, a date or time, a TOML array or table
# ("Terminal=false" came back as "Terminal=falsch", "debug = true" as "debug = wahr")
ASSIGNED_NOT_TEXT = re.compile(r"(?i:true|false|null|none|nil)|[-+]?(?:\d[\w.:+-]*|inf|nan)|[\[{].*")
# A Rails locale file's top-level key naming English, "en:" or "en-US:", with nothing after it
ENGLISH_LOCALE = re.compile(r"""(["']?)en(?:[-_][A-Za-z]{2})?\1:(?=[ \t]*(?:#.*)?$)""")
# A program's words in English, by a directory's name (i18next's locales/en/translation.json; a region's, en-GB, not a
# language pair's, en-de)
ENGLISH_NAME = re.compile(r"en(?:[-_]([A-Za-z]{2}|\d{3}))?")
# by a directory it is in (Rails' config/locales/, Hugo's i18n/, Symfony's translations/, WebExtensions' _locales/)
LANGUAGE_DIRECTORIES = frozenset("locale locales _locales i18n l10n lang langs language languages translations".split())
# by its name (en.yml, messages.en.yaml, Joomla's en-GB.com_tea.ini, Symfony's messages.yaml, Home Assistant's
# strings.json, VS Code's package.nls.json, a Java resource bundle's Messages.properties, LocalStrings.properties,
# Bundle.properties, messages_en.properties)
RESOURCE_WORDS = frozenset("en message messages bundle strings translation translations i18n l10n nls".split())
RESOURCE_SUFFIXES = (".strings", ".arb")  # Apple's strings files, Flutter's resource bundles: words alone
# or by a translation beside it, as a resource bundle has (Jenkins' views: index.properties beside index_de.properties;
# messages.yml beside messages.fr.yml): the language a sibling's name adds to the file's, an ISO 639-1 code and a
# region (not a profile's name: Spring's application-dev.properties, config.qa.yml)
LANGUAGE_CODES = frozenset("""
aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es
et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj
kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv
ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti
tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
""".split())
TRANSLATION_SIBLING = re.compile(r"[._-]([a-z]{2})(?:[-_][A-Za-z]{2,4})?")
# The last word of a configuration's key whose value is words for people (an OpenAPI document's "description" and
# "summary", a package's "description", a site's "title", a page's front matter "linkTitle"); a configuration's
# other values are settings: a directory's job translated docker-compose.yml's "restart: always" as "immer",
# pyproject.toml's package name "translator" as "Übersetzer" and an OpenAPI parameter's "in: query" as "Abfrage". Not
# "label": Prometheus' and Kubernetes' labels are names ("target_label: pod" came back as "senken")
WORDS_KEYS = frozenset("""
description desc summary title subtitle text message msg help caption tooltip hint placeholder comment note notes
prompt question answer body content excerpt tagline abstract heading headline
""".split())
KEY_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")  # "linkTitle": "link", "Title"; "site_name": "site", "name"


# A desktop entry file's groups (freedesktop.org's Desktop Entry Specification 1.5): its lines are read by its rules
DESKTOP_GROUP = re.compile(r"\[Desktop (?:Entry|Action [^\]]*)\]")
# The keys shown to users (its localestrings; Icon names a file): their German is added as "Name[de]=" beside them.
# Every other key is no text: read as INI, "Type=Application" came back "Type=Anwendung" and "Exec=firefox %u" as
# "Exec=Firefox %u", and the entry no longer launched; "Name[fr]=" (another language) was sent as English.
DESKTOP_TEXT_KEY = re.compile(r"(Name|GenericName|Comment|Keywords)[ \t]*=[ \t]*")
DESKTOP_LOCALIZED_KEY = re.compile(r"(Name|GenericName|Comment|Keywords)\[([^\]]*)\][ \t]*=")
DESKTOP_ESCAPE = re.compile(r"\\(.)")
DESKTOP_NAMED = {"s": " ", "n": "\n", "t": "\t", "r": "\r", "\\": "\\", ";": ";"}
DESKTOP_WRITTEN = {"\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}
DESKTOP_LIST_ITEM = re.compile(r"(?:[^;\\]|\\.)+")  # one of a list's values (Keywords), up to an unescaped ";"


@dataclass(frozen=True)
class ConfigValue:
    before: str  # kept as written: the key, "=", an opening quote
    text: str  # what the model gets
    after: str = ""  # kept as written: a closing quote, ";"
    written_as: Callable[[str], str] = str  # a translation as the file writes it between `before` and `after`
    as_read: str | None = None  # the input's line, where its parts written back differ from it (a locale key)
    opens_block: bool = False  # a YAML block scalar's "key: |": the lines after it, more indented, are its text
    added_lines: int = 0  # lines written after the input's (a desktop entry's "Name[de]=" after its "Name=")


def is_resource(path: Path, lines: Iterable[str] = ()) -> bool:
    """Whether a file read as configuration (or JSON, or Java properties) holds a program's words, every value one (a
    Rails locale, Hugo's i18n file, an Apple strings file, i18next's JSON, a Java resource bundle): by its name
    (en.yml, messages.en.yaml, strings.json, Messages.properties, app_en.arb), a directory it is in (config/locales/,
    locales/en/), a translation beside it (index_de.properties beside index.properties) or a top-level "en:" among its
    `lines`; else it is a program's configuration (docker-compose.yml, package.json, application.properties), whose
    values are words only under a key that says so (`says_words`)."""
    stem = path.name[:len(path.name) - len(path.suffix)]
    words = {word.lower() for word in [*KEY_WORD.findall(stem), *re.split(r"[._-]", stem)]}  # LocalStrings, i18n
    if path.suffix.lower() in RESOURCE_SUFFIXES or words & RESOURCE_WORDS:
        return True
    if any(part.lower() in LANGUAGE_DIRECTORIES or _english(part) for part in path.parent.parts):
        return True
    if stem and _translated_beside(path, stem):
        return True
    return any(ENGLISH_LOCALE.match(line) for line in lines)


def _english(name: str) -> bool:
    """Whether a directory's name is English's code, with a region's (en, en-GB, en_us; not en-de, a pair)."""
    found = ENGLISH_NAME.fullmatch(name)
    return found is not None and (found.group(1) is None or found.group(1).lower() not in LANGUAGE_CODES)


def _translated_beside(path: Path, stem: str) -> bool:
    """Whether a translation lies beside the file: a file named as it is but for a language (index_de.properties)."""
    try:
        names = _names(path.parent, path.parent.stat().st_mtime_ns)
    except OSError:
        return False
    for name in names[bisect.bisect_left(names, stem):]:
        if not name.startswith(stem):
            return False
        added = TRANSLATION_SIBLING.fullmatch(name[len(stem):len(name) - len(path.suffix)]) \
            if name.endswith(path.suffix) else None
        if added and added.group(1) in LANGUAGE_CODES:
            return True
    return False


@functools.lru_cache(maxsize=16)
def _names(directory: Path, modified: int) -> tuple[str, ...]:
    """A directory's names, sorted, as they were when it was last `modified` (a directory's job asks for each of its
    files; none where it cannot be read)."""
    try:
        return tuple(sorted(entry.name for entry in os.scandir(directory)))
    except OSError:
        return ()


def says_words(key: str) -> bool:
    """Whether a configuration's key names words for people (its last word one of WORDS_KEYS, or their plural)."""
    words = KEY_WORD.findall(key)
    return bool(words) and (words[-1].lower() in WORDS_KEYS or words[-1].lower().removesuffix("s") in WORDS_KEYS)


def line_key(line: str) -> tuple[int, str] | None:
    """A YAML key's or an assignment's line: its key's indentation (a list item's dash counted) and name."""
    if assignment := CONFIG_KEY.match(line):
        return len(line) - len(line.lstrip(" \t")), assignment.group().strip(" \t=")
    if key := YAML_KEY.match(line):
        return key.end(1) + (2 if line.startswith("- ", key.end(1)) else 0), key.group(2).strip("\"'")
    return None


class ConfigLines:
    """A configuration file's lines, in order, each as `config_value` reads it; but a YAML block scalar's lines (after
    "key: |" or "key: >-", more indented than its key, or blank) are text whole: read alone, a block's "Note: …" was
    a key and stayed English, its "# 1" a comment. And a "/* … */" comment over several lines is kept whole (its
    lines after the first were sent), and a desktop entry file's lines are read by its rules from its first group on
    (`desktop_value`). A program's configuration (not a `resource`) has its values kept but under a key that says
    words (`says_words`: a value's own key, a list item's or a block's the key above it)."""

    def __init__(self, localized: frozenset[tuple[str, str]] = frozenset(), resource: bool = True):
        self.block_indent: int | None = None
        self.block_words = True  # whether the block scalar's key says words
        self.in_comment = False
        self.desktop_group: str | None = None  # the group the lines are in, in a desktop entry file
        self.localized = localized  # (group, key) of a desktop entry's texts with German already (`desktop_localized`)
        self.resource = resource
        self.keys: list[tuple[int, str]] = []  # the YAML keys above the line: (indentation, name), innermost last

    def value(self, line: str) -> ConfigValue:
        indent = len(line) - len(line.lstrip(" \t"))
        if self.block_indent is not None and (not line.strip() or indent > self.block_indent):
            return ConfigValue(line[:indent], line[indent:]) if self.block_words else ConfigValue(line, "")
        if self.in_comment or line.lstrip(" \t").startswith("/*"):
            rest = line if self.in_comment else line[line.index("/*") + 2:]
            self.in_comment = "*/" not in rest
            return ConfigValue(line, "")
        if SECTION.fullmatch(line) and (self.desktop_group is not None or DESKTOP_GROUP.fullmatch(line.strip())):
            self.desktop_group = line.strip()  # from the first on, every group of a desktop entry file
        if self.desktop_group is not None:
            return desktop_value(line, self.desktop_group, self.localized)
        value = config_value(line)
        words = self.resource or self._says_words(line, indent)
        self.block_indent, self.block_words = (indent, words) if value.opens_block else (None, True)
        return value if words or not value.text else ConfigValue(line, "")

    def _says_words(self, line: str, indent: int) -> bool:
        """Whether the key a line's value is under says words, the YAML keys above it noted."""
        if COMMENT.match(line) or not line.strip():
            return False
        if (key := line_key(line)) is not None:
            while self.keys and self.keys[-1][0] >= key[0]:
                self.keys.pop()
            self.keys.append(key)
            return says_words(key[1])
        while self.keys and self.keys[-1][0] > indent:  # a list's item: under the key at or above its dash
            self.keys.pop()
        return bool(self.keys) and YAML_LIST_ITEM.match(line) is not None and says_words(self.keys[-1][1])


def config_value(line: str) -> ConfigValue:
    """A configuration file's line as what is kept and what is translated: a strings file's '"key" = "' and '";', an
    assignment's key and "=", a YAML key's "key: " and the quotes of a value quoted whole, a section header and a
    comment whole; else the line's indentation and a list item's dash, the rest to translate. Its value is read as
    its format reads it: an Apple strings entry's, a TOML string's and a YAML value's escapes undone; a value its
    format would not read (a broken escape) goes as written."""
    if COMMENT.match(line) or SECTION.fullmatch(line):
        return ConfigValue(line, "")
    if ENGLISH_LOCALE.match(line):
        return ConfigValue(ENGLISH_LOCALE.sub(rf"\g<1>{TARGET_LANGUAGE}\g<1>:", line, count=1), "", as_read=line)
    if entry := STRINGS_ENTRY.match(line):
        before, written, after = line[:entry.end(1)], line[entry.end(1):entry.start(2)], line[entry.start(2):]
        read = unescaped(written, STRINGS_ESCAPE, strings_escape)
        if read is None:
            return ConfigValue(before, written, after)
        return ConfigValue(before, read, after, strings_scalar(written, read))
    if assignment := CONFIG_KEY.match(line):  # TOML's, INI's
        return assigned_value(line[:assignment.end()], line[assignment.end():])
    lead = LINE_LEAD.match(line).end()
    as_written = ConfigValue(line[:lead], line[lead:])  # a line of text; a list's item YAML would not read as text
    key = YAML_KEY.match(line)
    start = key or YAML_LIST_ITEM.match(line)
    if start is None:
        return as_written
    if quoted := YAML_QUOTED_VALUE.match(line, start.end()):
        written = line[quoted.start(1):quoted.end(3)]
        read = (quoted.group(2).replace("''", "'") if quoted.group(1) == "'" else
                unescaped(quoted.group(2), YAML_ESCAPE, yaml_escape))
        if read is None:
            return ConfigValue(line[:quoted.end(1)], quoted.group(2), line[quoted.start(3):]) if key else as_written
        quote = quoted.group(1)
        return ConfigValue(line[:quoted.start(1)], read, line[quoted.end(3):], yaml_scalar(written, read, quote))
    value_end = comment.start() if (comment := PLAIN_COMMENT.search(line, start.end())) else len(line)
    value_start = value_end - len(line[start.end():value_end].lstrip(" \t"))
    plain, after = line[value_start:value_end], line[value_end:]
    if not plain:  # "key:" opening a mapping, a comment alone after it
        return ConfigValue(line, "")
    if NOT_TEXT.match(plain):  # a block scalar's "|" (its text on the lines after), an anchor, an alias, a tag
        return ConfigValue(line, "", opens_block=BLOCK_INDICATOR.fullmatch(plain + after) is not None)
    if TYPED.fullmatch(plain):  # a boolean, null, a number, a date: no text ("required: false" came back "fehlend")
        return ConfigValue(line, "")
    if NOT_PLAIN.match(plain):  # a flow list: as written
        return ConfigValue(line[:value_start], plain, after) if key else as_written
    return ConfigValue(line[:value_start], plain, after, yaml_scalar(plain, plain, ""))


def assigned_value(before: str, text: str) -> ConfigValue:
    """An assignment's value: one quoted whole (`other = "Home"`) read as TOML reads it and its translation quoted
    again, a double-quoted one escaped, a single-quoted one in double quotes where it would need what single quotes
    cannot hold (TOML's literal strings have no escapes); a boolean, number or array kept, not sent; another as
    written."""
    quoted = ASSIGNED_QUOTED.fullmatch(text)
    if quoted is None:
        typed = ASSIGNED_NOT_TEXT.fullmatch(text.strip())
        return ConfigValue(before + text, "") if typed else ConfigValue(before, text)
    written, rest = quoted.groups()
    read = written[1:-1] if written[0] == "'" else unescaped(written[1:-1], TOML_ESCAPE, toml_escape)
    if read is None:
        return ConfigValue(before, text)

    def write(translation: str) -> str:
        if translation == read:
            return written
        if written[0] == "'" and "'" not in translation and single_quotable(translation):
            return "'" + translation + "'"
        return '"' + double_quoted(translation, "toml") + '"'
    return ConfigValue(before, read, rest, write)


def desktop_localized(lines: Iterable[str]) -> frozenset[tuple[str, str]]:
    """(group, key) of each text of a desktop entry file that has a German line already ("Name[de]="): kept as it
    is, not translated again (a second "Name[de]=" is an error to the entry's readers)."""
    group, found = None, set()
    for line in lines:
        if SECTION.fullmatch(line):
            group = line.strip()
        elif (localized := DESKTOP_LOCALIZED_KEY.match(line)) and localized.group(2) == TARGET_LANGUAGE:
            found.add((group, localized.group(1)))
    return frozenset(found)


def desktop_value(line: str, group: str, localized: frozenset[tuple[str, str]]) -> ConfigValue:
    """A desktop entry's line: a text shown to users ("Name=Web Browser") sent as the entry's readers read it (its
    escapes undone; Keywords' values one per line) and its translation written on a line of its own after it,
    "Name[de]=Webbrowser", escaped as the entry needs; every other line, and a text with German already, as written."""
    entry = DESKTOP_TEXT_KEY.match(line)
    if entry is None or (group, entry.group(1)) in localized or not DESKTOP_GROUP.fullmatch(group):  # an X- group's
        return ConfigValue(line, "")
    key, written = entry.group(1), line[entry.end():]
    is_list = key == "Keywords"
    parts = DESKTOP_LIST_ITEM.findall(written) if is_list else [written]
    read = [unescaped(part, DESKTOP_ESCAPE, DESKTOP_NAMED.get) for part in parts]
    if None in read or not "".join(filter(None, read)).strip():  # an escape the readers refuse, or no text
        return ConfigValue(line, "")

    def write(translation: str) -> str:
        if not is_list:
            return desktop_escaped(translation)
        values = [value.strip() for value in translation.split("\n") if value.strip()]
        return "".join(desktop_escaped(value).replace(";", "\\;") + ";" for value in values)
    return ConfigValue(f"{line}\n{key}[{TARGET_LANGUAGE}]=", "\n".join(read), "", write, as_read=line, added_lines=1)


def desktop_escaped(text: str) -> str:
    """Text as a desktop entry's value: backslashes, line breaks and tabs escaped, and a leading space (readers strip
    the spaces after "=")."""
    escaped = "".join(DESKTOP_WRITTEN.get(character, character) for character in text)
    return "\\s" + escaped[1:] if escaped.startswith(" ") else escaped


def unescaped(written: str, escape: re.Pattern, meaning: Callable[[str], str | None]) -> str | None:
    """The text of a quoted value; None where an escape is unknown (the file's reader would refuse it)."""
    if "\\" in written and not all(meaning(found.group(1)) is not None for found in escape.finditer(written)):
        return None
    text = escape.sub(lambda found: meaning(found.group(1)), written)
    return None if re.search("[\ud800-\udfff]", text) else text  # a lone surrogate: no text to send


def escape_reader(named: dict[str, str]) -> Callable[[str], str | None]:
    """What YAML's or TOML's escape means (its code after the backslash): a character by number, else by name."""
    def meaning(code: str) -> str | None:
        if code[0] in "xuU" and len(code) > 1:
            return chr(int(code[1:], 16)) if int(code[1:], 16) <= 0x10FFFF else None
        return named.get(code)
    return meaning


yaml_escape, toml_escape = escape_reader(YAML_NAMED), escape_reader(TOML_NAMED)


def single_quotable(text: str) -> bool:
    """Whether text fits in YAML's single quotes or TOML's literal string: no line break, tab or control character."""
    return not UNPRINTABLE.search(text) and not re.search(r"[\n\t\r]", text)


def strings_escape(code: str) -> str | None:
    if code[0] in "Uu" and len(code) > 1:
        return chr(int(code[1:], 16))
    return chr(int(code, 8)) if code.isdigit() and "8" not in code and "9" not in code else STRINGS_NAMED.get(code)


def double_quoted(text: str, style: str = "yaml") -> str:
    """Text as a double-quoted value's inside in `style` (yaml, apple, toml): quotes, backslashes and breaks escaped,
    and what cannot stand as written (YAML's \\x85, Apple's \\U0085, TOML's \\u0085)."""
    def code(found: re.Match) -> str:
        number = ord(found.group())
        if style == "yaml" and number < 0x100:
            return f"\\x{number:02x}"
        return f"\\U{number:04x}" if style == "apple" else f"\\u{number:04x}"
    return UNPRINTABLE.sub(code, "".join(WRITTEN.get(character, character) for character in text))


def strings_scalar(written: str, text: str) -> Callable[[str], str]:
    """An Apple strings value's writer: its own text as written, any other escaped."""
    return lambda translation: written if translation == text else double_quoted(translation, "apple")


def yaml_scalar(written: str, text: str, quote: str) -> Callable[[str], str]:
    """A YAML value's writer, quotes included: its own text as written; another in the value's quotes, or plain,
    where that reads back as it (else in double quotes)."""
    def write(translation: str) -> str:
        if translation == text:
            return written
        if quote == "'" and single_quotable(translation):
            return "'" + translation.replace("'", "''") + "'"
        if not quote and not NOT_PLAIN.match(translation) and not UNPRINTABLE.search(translation) and not (
                TYPED.fullmatch(translation)):
            return translation
        return '"' + double_quoted(translation) + '"'
    return write
