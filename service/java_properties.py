"""A Java properties value as Java reads it (`java.util.Properties.load`), and a translation written back the way the
file writes its values.

Read as written, `Connection timeout\\: {0}` reached the model with its backslash, `Don\\u2019t` as six letters of
escape, and `The plugin ''{0}''` (MessageFormat's doubled apostrophe) lost its quotes; a translation's backslash
went out single (`C\\:\\\\Program Files` came back with five backslashes in a row, the path broken) and an
apostrophe went out alone where MessageFormat swallows it and the `{0}` after it. Now the model gets the text a
Java program shows, and the translation is escaped again: backslashes doubled, line breaks and tabs as `\\n`, `\\t`,
a leading space as `\\ `, the marks the value escaped (`\\:`, `\\=`, `\\#`, `\\!`) escaped again, apostrophes
doubled where the value is a MessageFormat pattern, and characters beyond ASCII as `\\uXXXX`, which every Java
reader reads (`Properties.load(InputStream)` and Java 8's ResourceBundle read ISO-8859-1: UTF-8's "ü" came out
"Ã¼"), unless the file holds such characters as UTF-8 itself (as Jenkins' and JMeter's German files do).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# Java's escapes: \uXXXX, the four named ones, and a backslash before any other character (that character)
ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
NAMED = {"t": "\t", "n": "\n", "r": "\r", "f": "\f"}
WRITTEN_NAMED = {value: "\\" + name for name, value in NAMED.items()}
MARKS = "=:#!"  # what Properties.store escapes in a value beyond the backslash; a file may escape them or not
# A MessageFormat argument, "{0}", "{1,number}": a value with one is formatted, so its apostrophes are quotes
ARGUMENT = re.compile(r"\{\d+[,}]")
# A property's line up to its value, as Java reads it: the key ends at the first "=", ":" or white space not
# escaped; then white space, one "=" or ":" and white space. A comment line, or a blank one, has no value.
KEY = re.compile(r"[ \t\f]*(?:[^\\=: \t\f]|\\.)*(?:[ \t\f]*[=:]|[ \t\f])?[ \t\f]*")
COMMENT = re.compile(r"[ \t\f]*(?:[#!]|$)")
# A value that goes on on the next line: it ends in an odd number of backslashes
CONTINUED = re.compile(r"(?<!\\)(?:\\\\)*\\$")
# A \uXXXX escape of a character beyond ASCII (not an escaped backslash before "u"): its hex's case is the file's
NON_ASCII_ESCAPE = re.compile(
    rb"(?<!\\)(?:\\\\)*\\u(?:00[89a-fA-F][0-9a-fA-F]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})")


@dataclass(frozen=True)
class Value:
    """How one property's value is written: what it escaped, so that its translation is written alike."""
    raw: str  # as in the file
    text: str  # as Java reads it (MessageFormat's doubled apostrophes single): what the model gets
    marks: str = ""  # of MARKS, those the value escaped
    doubled_quotes: bool = False  # a MessageFormat pattern: an apostrophe is written twice
    unicode_escapes: bool = False  # characters beyond ASCII are written as \uXXXX (lowercase hex if the file does)
    lowercase_hex: bool = False
    encoding: str = "utf-8"  # of the file (`FileStyle.encoding`)

    def written(self, translation: str) -> str:
        """A translation as this value would write it (the value itself, as written, for its own text)."""
        if translation == self.text:
            return self.raw
        if self.doubled_quotes:
            translation = translation.replace("'", "''")
        return "".join(self._escaped(character, at) for at, character in enumerate(translation))

    def _escaped(self, character: str, at: int) -> str:
        if character == "\\" or character in self.marks or (character == " " and at == 0):
            return "\\" + character  # a leading space: Java skips the white space before a value
        if character in WRITTEN_NAMED:
            return WRITTEN_NAMED[character]
        if character < " " or character > "~" and (self.unicode_escapes or not character.encode(self.encoding,
                                                                                                "ignore")):
            units = character.encode("utf-16-be")  # beyond the BMP: two escapes, as Java's UTF-16 strings hold it
            return "".join(f"\\u{int.from_bytes(units[k:k + 2]):04{'x' if self.lowercase_hex else 'X'}}"
                           for k in range(0, len(units), 2))
        return character


@dataclass(frozen=True)
class FileStyle:
    """How a file writes characters beyond ASCII (`file_style`)."""
    unicode_escapes: bool = False
    lowercase_hex: bool = False
    encoding: str = "utf-8"  # of the file: a character it lacks is written as \uXXXX whatever the style


def file_style(path: Path, encoding: str = "utf-8") -> FileStyle:
    """Whether a properties file's characters beyond ASCII are written as \\uXXXX: unless it holds such characters
    itself (then it is UTF-8 or ISO-8859-1, and so is its translation, but for a character ISO-8859-1 lacks); in
    lowercase hex if its first escape with a letter has it so (else as Properties.store writes them). Read a line at
    a time."""
    raw, lowercase = False, None
    with path.open("rb") as lines:
        for line in lines:
            raw = raw or not line.isascii()
            for escape in NON_ASCII_ESCAPE.finditer(line):
                digits = escape.group()[-4:]
                if lowercase is None and digits.lower() != digits.upper():
                    lowercase = digits == digits.lower()
    return FileStyle(not raw, not raw and bool(lowercase), encoding)


def property_line(line: str) -> tuple[str, str]:
    """A property's line (its continuation lines joined) as its key with the separator, kept as written, and its
    value as written; a comment or a blank line all kept."""
    if COMMENT.match(line):
        return line, ""
    key = KEY.match(line).end()
    return line[:key], line[key:]


def value(raw: str, style: FileStyle) -> Value | None:
    """A value as written (after its key and separator, its lines joined) read as Java reads it; None where Java
    would not read it (a malformed \\uXXXX, a lone surrogate): it is then sent as written."""
    marks = set()

    def unescaped(escape: re.Match) -> str:
        code = escape.group(1)
        if len(code) == 5:
            return chr(int(code[1:], 16))
        if code in MARKS:
            marks.add(code)
        return NAMED.get(code, code)

    if re.search(r"\\u(?![0-9a-fA-F]{4})", raw.replace("\\\\", "")) or CONTINUED.search(raw):
        return None  # a backslash at the end of the file's last line is dropped by Java: such a value goes as written
    text = ESCAPE.sub(unescaped, raw)
    try:  # surrogate pairs, as Java's UTF-16 strings hold characters beyond the BMP, into one character each
        text = text.encode("utf-16", "surrogatepass").decode("utf-16")
    except UnicodeDecodeError:
        return None
    lone_quotes = "'" in text.replace("''", "")
    doubled = not lone_quotes and ("''" in text or ARGUMENT.search(text) is not None)
    return Value(raw, text.replace("''", "'") if doubled else text, "".join(sorted(marks)), doubled,
                 style.unicode_escapes, style.lowercase_hex, style.encoding)
