"""Android string resources (``res/values/strings.xml`` and the like) for batch jobs: which strings to send, and the
German resource file (``res/values-de/...``) written back.

Each ``<string>``, each ``<item>`` of a ``<string-array>`` and each quantity's ``<item>`` of ``<plurals>`` is numbered
in document order; each with a letter is sent as an item, its resource name the record's id (``app_name``,
``planets[2]``, ``songs:other``). Its content is sent as HTML, read as Android reads it: its escapes undone (``\\'``,
``\\"``, ``\\n`` as a line break, ``\\@``, ``\\uXXXX``), double quotes as delimiters, runs of white space as one
space; its markup (``<b>``, ``<xliff:g>``, whose content is never translated) kept, and a string that is all one
CDATA section sent as the HTML it holds. A translation is written back escaped as Android needs it (an apostrophe
as ``\\'``, a quote as ``\\"``, a line break as ``\\n``, a leading ``@`` or ``?`` as ``\\@``, ``\\?``).

The file is written back character for character as it was, but for the strings translated, the elements marked
``translatable="false"`` (left out: Android's lint warns of them in a translation) and the root's ``tools:locale``
(``de``). A string that failed, references (``@string/app_name``) and strings without a letter stay as written.
Read line by line as text, ``<string name="save">Save</string>`` went to the model markup and all.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from service import documents
from translator.model_format import TARGET_LANGUAGE

log = logging.getLogger(__name__)

ROOT = re.compile(r"<resources\b([^>]*)>")
# A resource with strings, found in well-formed XML (checked first) with its comments blanked.
RESOURCE = re.compile(r"<(string-array|plurals|string)(?=[\s/>])([^>]*?)(?:/>|>(.*?)</\1\s*>)", re.DOTALL)
ITEM = re.compile(r"<item(?=[\s/>])([^>]*?)(?:/>|>(.*?)</item\s*>)", re.DOTALL)
NOT_TRANSLATABLE = re.compile(r"""\btranslatable\s*=\s*["']false["']""")
LOCALE = re.compile(r"""(\btools:locale\s*=\s*["'])([^"']*)(["'])""")
CDATA = re.compile(r"\s*<!\[CDATA\[(.*?)\]\]>\s*", re.DOTALL)
TAG = re.compile(r"<[^>]*>")
# What a "\n" travels as in HTML: <br>, which in well-formed XML is no tag of the source's own (<br/> may be one)
LINE_BREAK = re.compile(r"<br>", re.IGNORECASE)
ESCAPED = {"n": "\n", "t": "\t"}  # any other escaped character stands for itself (\' \" \\ \@ \?)
TO_ESCAPE = {"\\": "\\\\", '"': '\\"', "'": "\\'", "\n": "\\n", "\t": "\\t"}
NEW_LINES = re.compile(r"[\r\n]+")  # in a translation, white space; its line breaks are <br>
RAW_SPACE = "\x00"  # white space as written, which Android reads as one space, or none at a string's ends


class NotResources(documents.NotDocument):
    """The input is not an Android resource file this job can fill in."""


@dataclass(frozen=True)
class String:
    number: int  # 1-based, in document order, of the strings that can be translated
    name: str
    content: str  # as written
    start: int  # where its content starts in the document, and ends
    end: int
    sent: bool  # with a letter, not a reference, not CDATA mixed with other content


def holds_resources(path: Path) -> bool:
    """Whether an XML file's first element is <resources> (or unread: the job says what is wrong with it): a
    directory's job copies other XML files (an app's layouts and manifest beside its strings, a build's files), where it
    failed them as resource files that were none."""
    return documents.first_element(path) in ("", "resources")


def check(document: str) -> None:
    """NotResources where the document is not well-formed XML with a <resources> root, or its tools:locale says
    its strings are not English."""
    root = documents.parsed(document, NotResources)
    if root.tag != "resources":
        raise NotResources(f"its root element is <{root.tag}>, not an Android resource file's <resources>")
    attributes = ROOT.search(documents.blanked(document)).group(1)
    if NOT_TRANSLATABLE.search(attributes):
        raise NotResources('its <resources> is marked translatable="false": Android translates none of its strings')
    locale = LOCALE.search(attributes)
    if locale and not documents.ENGLISH.fullmatch(locale.group(2)):
        raise NotResources(f'its strings are in {locale.group(2)} (tools:locale="{locale.group(2)}"); the models '
                           "translate English: give the resources of res/values")


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, name, content as HTML) of each string to send."""
    for string in strings(document):
        if string.sent:
            yield string.number, string.name, as_html(string.content)
        elif "<![CDATA[" in string.content and not CDATA.fullmatch(string.content):
            log.warning("%s is not sent: it mixes a CDATA section with other content", string.name)


def count(document: str) -> int:
    """How many strings can be translated: the highest number an item can have."""
    return sum(1 for _ in strings(document))


def strings(document: str) -> Iterator[String]:
    """Its translatable strings, in order: each <string>, and each <item> of a <string-array> or <plurals>."""
    number, masked = 0, documents.blanked(document)
    for resource in RESOURCE.finditer(masked):
        kind, attributes = resource.group(1), resource.group(2)
        if NOT_TRANSLATABLE.search(attributes) or resource.group(3) is None:
            continue
        name = documents.attribute(attributes, "name") or ""
        if kind == "string":
            places = [(name, resource.start(3), resource.end(3))]
        else:
            places = [(f"{name}[{i}]" if kind == "string-array" else
                       f"{name}:{documents.attribute(item.group(1), 'quantity') or ''}",
                       item.start(2), item.end(2))
                      for i, item in enumerate(ITEM.finditer(masked, resource.start(3), resource.end(3)))
                      if item.group(2)]  # an empty item is counted in the array's index, not sent
        for string_name, start, end in places:
            number += 1
            content = document[start:end]
            yield String(number, string_name, content, start, end, _sendable(content))


def _sendable(content: str) -> bool:
    """Whether a string is text to translate: not a reference to another resource ("@string/app_name",
    "?attr/title"), with a letter outside its markup, and not CDATA mixed with other content (not read here)."""
    if "<![CDATA[" in content and not CDATA.fullmatch(content):
        return False
    if CDATA.sub(r"\1", content).lstrip().startswith(("@", "?")):
        return False
    return bool(documents.LETTER.search(TAG.sub(" ", CDATA.sub(r"\1", content))))


def as_html(content: str) -> str:
    """A string's content as the HTML sent: its text read as Android reads it, a line break as <br>; a CDATA
    section's content (HTML for Html.fromHtml) as it is but for Android's escapes."""
    section = CDATA.fullmatch(content)
    inner = section.group(1) if section else content
    pieces, quoted = [], False
    for text, tag in _text_and_tags(inner):
        if not section:
            text = html.unescape(text)
        text, quoted = _unescaped(text, quoted)
        text = text if section else html.escape(text, quote=False)
        pieces += [text.replace("\n", "<br>"), tag]
    return "".join(pieces).strip(RAW_SPACE).replace(RAW_SPACE, " ")


def _text_and_tags(content: str) -> Iterator[tuple[str, str]]:
    done = 0
    for tag in TAG.finditer(content):
        yield content[done:tag.start()], tag.group()
        done = tag.end()
    yield content[done:], ""


def _unescaped(text: str, quoted: bool) -> tuple[str, bool]:
    """Text as Android reads it (aapt2's rules): backslash escapes undone, double quotes removed (white space inside
    them kept), other runs of white space one RAW_SPACE (a space, but none at the string's ends); and whether a quote
    is still open at its end."""
    out, i = [], 0
    while i < len(text):
        char = text[i]
        if char == "\\" and i + 1 < len(text):
            following = text[i + 1]
            if following == "u" and re.fullmatch(r"[0-9a-fA-F]{4}", text[i + 2:i + 6]):
                out.append(chr(int(text[i + 2:i + 6], 16)))
                i += 6
                continue
            out.append(ESCAPED.get(following, following))
            i += 2
            continue
        if char == '"':
            quoted = not quoted
        elif not quoted and char in " \t\r\n":
            if not out or out[-1] != RAW_SPACE:
                out.append(RAW_SPACE)
        else:
            out.append(char)
        i += 1
    return "".join(out), quoted


def as_written(translation: str, content: str) -> str:
    """A translation (HTML) as the content of the string it translates: escaped as Android reads it, in the CDATA
    section the source stood in where it did."""
    section = CDATA.fullmatch(content)
    if not (section and LINE_BREAK.search(section.group(1))):  # else the HTML in CDATA has <br>s of its own
        translation = LINE_BREAK.sub("\n", NEW_LINES.sub(" ", translation))
    pieces = []
    for text, tag in _text_and_tags(translation):
        text = text if section else html.unescape(text)
        text = "".join(TO_ESCAPE.get(char, char) for char in text)
        pieces += [text if section else html.escape(text, quote=False), tag]
    written = "".join(pieces)
    if written != written.strip(" ") or "  " in TAG.sub("", written):  # else trimmed and collapsed
        written = f'"{written}"'
    if written.startswith(("@", "?")):  # else read as a reference to another resource
        written = "\\" + written
    if section:
        written = "<![CDATA[" + written.replace("]]>", "]]]]><![CDATA[>") + "]]>"
        return content[:section.start(1) - 9] + written + content[section.end(1) + 3:]
    return written


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The German resource file: each string whose number has a translation holds it, elements marked
    translatable="false" are left out and the root's tools:locale says de (Android has no mark of a translation to
    review: `review` changes nothing)."""
    edits = [(string.start, string.end, as_written(translated[string.number], string.content))
             for string in strings(document) if string.sent and translated.get(string.number)]
    masked = documents.blanked(document)
    edits += [(*_line_of(document, resource.span()), "") for resource in RESOURCE.finditer(masked)
              if NOT_TRANSLATABLE.search(resource.group(2))]
    root = ROOT.search(masked)
    locale = LOCALE.search(document, root.start(1), root.end(1))
    if locale:
        edits.append((locale.start(2), locale.end(2), TARGET_LANGUAGE))
    return documents.spliced(document, sorted(edits))


def _line_of(document: str, span: tuple[int, int]) -> tuple[int, int]:
    """An element's span, widened to its whole line where it stands alone on it."""
    start, end = span
    line_start = document.rfind("\n", 0, start) + 1
    line_end = document.find("\n", end)
    line_end = len(document) if line_end < 0 else line_end
    if document[line_start:start].strip() or document[end:line_end].strip():
        return start, end
    return line_start, min(line_end + 1, len(document))
