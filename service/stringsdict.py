"""Apple's plural dictionaries (Localizable.stringsdict, what String Catalogs replace) for batch jobs: which strings
to send, and the file written back.

A .stringsdict is a property list: a dictionary keyed by the app's strings, each a dictionary holding the string's
format (``NSStringLocalizedFormatKey``: ``You have %#@messages@``) and, for each ``%#@variable@`` in it, a dictionary
of the variable's rule (``NSStringFormatSpecTypeKey``: plural, width or device), its number's type
(``NSStringFormatValueTypeKey``) and its variants' texts (``zero``, ``one``, ``other``, ...). Each variant's text and
each format (with a letter) is sent as an item numbered in document order, its keys the record's id
(``files_selected/files/one``); keys, variable names, rules and types never are: the text pipeline keeps a
``%#@variable@`` as written. The file is written
back character for character as it was but for those texts, each escaped as Xcode writes it: German's rules select
``one`` and ``other`` (and ``zero`` for 0, as every language's do on Apple's systems); ``two``, ``few`` and ``many``
are kept, translated too, and never selected. A property list has no mark of a translation to review.
"""

from __future__ import annotations

import plistlib
import re
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass
from typing import Iterator
from xml.sax.saxutils import escape  # &, <, >: as Visual Studio and Xcode write element content

from service import documents

STRING = re.compile(r"<string\b[^>]*?(?:/>|>(.*?)</string\s*>)", re.DOTALL)  # in a plist, nothing nests in one
FORMAT = "NSStringLocalizedFormatKey"
RULE = "NSStringFormatSpecTypeKey"  # a variable's dictionary holds it
NOT_TEXT = (RULE, "NSStringFormatValueTypeKey")  # the variable's dictionary's values that are not its variants


class NotStringsdict(documents.NotDocument):
    """The input is not a .stringsdict this job can fill in."""


@dataclass(frozen=True)
class String:
    number: int  # 1-based, in document order, of the property list's <string> elements
    name: str  # its keys from the top dictionary, "/"-joined ("" where it is not a text to send: a rule, a type)
    text: str
    start: int  # where its content starts in the document, and ends
    end: int
    sent: bool  # a format or a variant, with a letter


def check(document: str) -> None:
    """NotStringsdict where the document is not well-formed XML, not a property list, or its top object is not a
    dictionary (or its strings cannot be placed: `strings`)."""
    count(document)


def _root(document: str) -> ElementTree.Element:
    root = documents.parsed(document, NotStringsdict)
    if root.tag != "plist":
        raise NotStringsdict(f"its root element is <{root.tag}>, not a property list's <plist>")
    try:
        top = plistlib.loads(document.encode("utf-8"), fmt=plistlib.FMT_XML)
    except Exception as error:  # plistlib raises ValueError, TypeError, KeyError, ... for a malformed plist
        raise NotStringsdict(f"not a well-formed property list ({type(error).__name__}: {error})") from None
    if not isinstance(top, dict):
        raise NotStringsdict(f"its top object is a {type(top).__name__}, not the dictionary of a .stringsdict")
    return root


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, keys, text) of each text to send."""
    return ((string.number, string.name, string.text) for string in strings(document) if string.sent)


def count(document: str) -> int:
    """How many <string> elements the document has: the highest number an item can have."""
    return sum(1 for _ in strings(document))


def strings(document: str) -> Iterator[String]:
    """Its <string> elements, in order, each with its text, its place and whether it is sent."""
    root = _root(document)
    names = dict(_texts(root.find("dict")))
    elements = list(root.iter("string"))
    found = list(STRING.finditer(documents.blanked(document)))
    if len(found) != len(elements):  # a pattern and a parser disagreeing; one more check of what is written back
        raise NotStringsdict(f"{len(elements)} <string> elements, and {len(found)} read by pattern: write the file as "
                             "Xcode does")
    for number, (element, written) in enumerate(zip(elements, found), start=1):
        name, text = names.get(element, ""), element.text or ""
        sent = bool(name) and bool(documents.LETTER.search(text))
        yield String(number, name, text, written.start(1), written.end(1), sent)


def _texts(top: ElementTree.Element) -> Iterator[tuple[ElementTree.Element, str]]:
    """(<string> element, its keys) of each text a translator would translate: a top-level string, a string's
    format and its variables' variants."""
    for key, value in _entries(top):
        if value.tag == "string":
            yield value, key
        for inner_key, inner in _entries(value) if value.tag == "dict" else ():
            if inner.tag == "string" and inner_key == FORMAT:
                yield inner, f"{key}/{inner_key}"
            variable = dict(_entries(inner)) if inner.tag == "dict" else {}
            for variant, text in variable.items() if RULE in variable else ():
                if text.tag == "string" and variant not in NOT_TEXT:
                    yield text, f"{key}/{inner_key}/{variant}"


def _entries(dictionary: ElementTree.Element) -> Iterator[tuple[str, ElementTree.Element]]:
    """A <dict>'s (key, value element) pairs: its children alternate <key> and value."""
    children = list(dictionary)
    for key, value in zip(children[::2], children[1::2]):
        yield key.text or "", value


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each sent string whose number has a translation holding it (a property list has no mark
    of a translation to review: `review` changes nothing)."""
    edits = [(string.start, string.end, escape(translated[string.number]))
             for string in strings(document) if string.sent and translated.get(string.number)]
    return documents.spliced(document, edits)
