"""Xcode's String Catalogs (.xcstrings: Localizable.xcstrings, InfoPlist.xcstrings) for batch jobs: which strings to
send, and the catalog written back.

A catalog holds each string under its key, with a localization per language; the source language's (English) is
its text, or, where it has none, the key itself. Each string without a German localization is sent as an item
numbered in document order, its key the record's id; a string with variations (``plural``: ``one``, ``other``;
``device``) sends each variation's text, its id the key and the variation (``%lld files/plural.other``); a string
with substitutions (several plurals in one string: ``%#@files@ in %#@folders@``, each substitution's variations
holding ``%arg files``) sends its format and each substitution's variations (``.../files/plural.one``). Strings
marked ``shouldTranslate: false`` are not sent. The catalog is written back as Xcode writes it (two spaces'
indentation, ``" : "``), every string, comment and localization kept, with a German localization (``de``) for each
string translated, its state ``needs_review`` (Xcode's mark for a translation to review; ``translated`` when the job
gives --no-review); one with substitutions is the English one, each text translated where it was (its argument
numbers and format specifiers as they are). A string of no letter ("%@", "-") gets its text as German, translated.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Iterator

from service import documents
from translator.model_format import TARGET_LANGUAGE

BOM = "\ufeff"  # a byte order mark some editors write: read past, kept
EMPTY_OBJECT = re.compile(r'^( *)("(?:[^"\\]|\\.)*") : \{\}(?=,?$)', re.MULTILINE)  # Xcode writes {} over three lines
# The keys from a localization to a text's "stringUnit": ("variations", "plural", "one"), ("substitutions", "files",
# "variations", "plural", "other"), or () for the localization's own
Path = tuple[str, ...]


class NotCatalog(documents.NotDocument):
    """The input is not a String Catalog this job can fill in."""


@dataclass(frozen=True)
class Unit:
    number: int  # 1-based, in document order, of the texts the catalog's strings have
    key: str
    path: Path
    text: str
    sent: bool  # translatable, without a German text, with a letter
    copied: bool  # translatable, without a German text, of no letter but something ("%@", "–"): German as it is

    @property
    def name(self) -> str:
        """The key and the way to the text: "%lld files/plural.one", "%lld files in %lld folders/files/plural.one"."""
        steps, parts = list(self.path), [self.key]
        while steps:
            nested = steps.pop(0)  # a substitution's name, or a variation's kind and variant
            parts.append(steps.pop(0) if nested == "substitutions" else f"{steps.pop(0)}.{steps.pop(0)}")
        return "/".join(parts)


def check(document: str) -> None:
    """NotCatalog where the document is not JSON with a catalog's "strings", or its source language is not
    English."""
    catalog = _parsed(document)
    language = catalog.get("sourceLanguage", "en")
    if not isinstance(language, str) or not documents.ENGLISH.fullmatch(language):
        raise NotCatalog(f'its sourceLanguage is {language!r}; the models translate English: give a catalog whose '
                         'strings are in English ("sourceLanguage" : "en")')


def _parsed(document: str) -> dict:
    try:
        catalog = json.loads(document.removeprefix(BOM))
    except json.JSONDecodeError as error:
        raise NotCatalog(f"not JSON: {error.msg} at line {error.lineno} column {error.colno}") from None
    except RecursionError:
        raise NotCatalog("nested deeper than a String Catalog's JSON") from None
    if not isinstance(catalog, dict) or not isinstance(catalog.get("strings"), dict):
        raise NotCatalog('no "strings" object: not a String Catalog')
    return catalog


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, key and variation, text) of each text to send."""
    return ((unit.number, unit.name, unit.text) for unit in units(_parsed(document)) if unit.sent)


def count(document: str) -> int:
    """How many texts the catalog's strings have: the highest number an item can have."""
    return sum(1 for _ in units(_parsed(document)))


def units(catalog: dict) -> Iterator[Unit]:
    """The source texts of the catalog's strings, in order."""
    number = 0
    for key, entry in catalog["strings"].items():
        source = _source(catalog, key)
        for path, text in _texts(source) if source else [((), key)]:
            number += 1
            untranslated = (isinstance(entry, dict) and entry.get("shouldTranslate") is not False
                            and _fillable(entry, path) and not _german(entry, path))
            yield Unit(number, key, path, text, *documents.sent_or_copied(untranslated, text))


def _source(catalog: dict, key: str) -> dict:
    """A string's localization in the catalog's source language ({} where it has none, or none of the right shape)."""
    entry = catalog["strings"][key]
    localizations = entry.get("localizations") if isinstance(entry, dict) else None
    source = localizations.get(catalog.get("sourceLanguage", "en")) if isinstance(localizations, dict) else None
    return source if isinstance(source, dict) else {}


def _texts(localization: dict, path: Path = ()) -> Iterator[tuple[Path, str]]:
    """(path, text) of each string unit in a localization: its own, its variations', its substitutions', in order."""
    unit = localization.get("stringUnit")
    if isinstance(unit, dict) and isinstance(unit.get("value"), str):
        yield path, unit["value"]
    for nested, depth in (("variations", 2), ("substitutions", 1)):
        yield from (found for inner, steps in _nested(localization.get(nested), depth)
                    for found in _texts(inner, path + (nested, *steps)))


def _nested(node: object, depth: int, steps: Path = ()) -> Iterator[tuple[dict, Path]]:
    """The objects `depth` keys below an object (variations: kind, variant; substitutions: name), with their keys."""
    if depth == 0:
        yield from [(node, steps)] if isinstance(node, dict) else ()
        return
    for key, inner in node.items() if isinstance(node, dict) else ():
        yield from _nested(inner, depth - 1, steps + (key,))


def _german_steps(path: Path) -> list[str]:
    """The keys from a string's entry to where its German text at a path goes (its "stringUnit"'s object)."""
    return ["localizations", TARGET_LANGUAGE, *path]


def _fillable(entry: dict, path: Path) -> bool:
    """Whether a German text can go in without replacing anything that is not an object (a malformed catalog's)."""
    node: object = entry
    for step in _german_steps(path):
        if not isinstance(node, dict):
            return False
        node = node.get(step, {})
    return isinstance(node, dict)


def _german(entry: dict, path: Path) -> object:
    """The German text a string holds at a variation path (empty where it holds none)."""
    node: object = entry
    for step in [*_german_steps(path), "stringUnit"]:
        node = node.get(step) if isinstance(node, dict) else None
    return node.get("value") if isinstance(node, dict) else None


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The catalog, as Xcode writes it, with a German localization for each sent text whose number has a
    translation: state needs_review (with `review`; else translated); and one for each text of no letter, the same
    text, translated (Xcode counted a catalog's "%@" and "-" untranslated: 10 of CubeTime's 289 strings)."""
    catalog = _parsed(document)
    state = "needs_review" if review else "translated"
    for unit in list(units(catalog)):  # as read: a German localization filled in changes what later units find
        if unit.sent and translated.get(unit.number):
            german, unit_state = translated[unit.number], state
        elif unit.copied:
            german, unit_state = unit.text, "translated"
        else:
            continue
        node = entry = catalog["strings"][unit.key]
        if "substitutions" in (english := _source(catalog, unit.key)):
            # (English texts copied in are to review, whichever unit copies them)
            _completed(entry["localizations"].setdefault(TARGET_LANGUAGE, {}), _to_review(english, state))
        for step in _german_steps(unit.path):
            node = node.setdefault(step, {})
        node["stringUnit"] = {"state": unit_state, "value": german}
        entry["localizations"] = dict(sorted(entry["localizations"].items()))  # Xcode keeps them by language code
    written = json.dumps(catalog, indent=2, ensure_ascii=False, separators=(",", " : "))
    written = EMPTY_OBJECT.sub(lambda empty: f"{empty.group(1)}{empty.group(2)} : {{\n\n{empty.group(1)}}}", written)
    return (BOM if document.startswith(BOM) else "") + written + ("\n" if document.endswith("\n") else "")


def _completed(german: dict, english: dict) -> None:
    """German given all English has and it lacks, at every depth: a string with substitutions needs its format, its
    argument numbers and specifiers as English has them, and a text left untranslated is there, in English, to
    review."""
    for key, value in english.items():
        if key not in german:
            german[key] = value
        elif isinstance(german[key], dict) and isinstance(value, dict):
            _completed(german[key], value)


def _to_review(localization: dict, state: str) -> dict:
    """A copy of a localization with every text in the state given."""
    copied = json.loads(json.dumps(localization))
    for path, _ in _texts(copied):
        node = copied
        for step in path:
            node = node[step]
        node["stringUnit"]["state"] = state
    return copied
