"""Qt Linguist translation files (.ts, what lupdate writes and lrelease compiles) for batch jobs: which messages to
send, and the file written back.

Each ``<message>`` whose ``<translation>`` has no text (of a plural message, ``numerus="yes"``: none of its
``<numerusform>``s) is sent as an item numbered in document order, its context's name the record's id; its source is
sent as the text it holds (references undone: Qt's rich text, ``<b>%n</b>``, arrives as markup the text pipeline
keeps, a label's ``&File`` marker as a marker). A plural message whose source marks a word's optional plural ending,
Qt's convention (``%n file(s)``), is sent as two items, its singular and its plural (``%n file``, ``%n files``; the
ids ``Context:one``, ``Context:other``), for German's two numerus forms. The file is written back character for
character as it was, but for each translated message's translation (of a plural message: each numerus form), kept
marked ``type="unfinished"``, Qt Linguist's mark for a translation to review, and the file's ``language`` (``de``)
where it names none or English (a template). Messages marked vanished or obsolete and messages with a translation are
never sent; an untranslated message of no letter (``(%1, %2)``) gets its source as its translation, finished.
"""

from __future__ import annotations

import html
import itertools
import re
from dataclasses import dataclass
from typing import Iterator

from service import documents
from translator.model_format import TARGET_LANGUAGE

ROOT = re.compile(r"<TS\b([^>]*?)(/?)>")
CONTEXT = re.compile(r"<context\b[^>]*>(.*?)</context\s*>", re.DOTALL)
CONTEXT_NAME = re.compile(r"<name\b[^>]*>(.*?)</name\s*>", re.DOTALL)
MESSAGE = re.compile(r"<message\b([^>]*)>(.*?)</message\s*>", re.DOTALL)
SOURCE = re.compile(r"<source\b[^>]*>(.*?)</source\s*>", re.DOTALL)
TRANSLATION = re.compile(r"<translation\b([^>]*?)(?:/>|>(.*?)</translation\s*>)", re.DOTALL)
NUMERUS_FORM = re.compile(r"<numerusform\b([^>]*?)(?:/>|>(.*?)</numerusform\s*>)", re.DOTALL)
NUMERUS = re.compile(r"""\bnumerus\s*=\s*["']yes["']""")
GONE = re.compile(r"""\btype\s*=\s*["'](?:vanished|obsolete)["']""")
UNFINISHED = re.compile(r"""\s*\btype\s*=\s*["']unfinished["']""")
LANGUAGE = re.compile(r"""(\slanguage\s*=\s*["'])([^"']*)(["'])""")
GERMAN_OR_ENGLISH = re.compile(r"(?:de|en)(?:[-_][A-Za-z0-9]+)*", re.IGNORECASE)
TAG = re.compile(r"<[^>]*>")
GERMAN_FORMS = ("one", "other")  # numerus forms: singular, plural
# A word's optional plural ending in a plural message's source ("%n file(s)", "%n box(es)", "%n entry(ies)"). Read as
# it stands, the model wrote one text for both numerus forms ("%n Datei(en)"), where German translators write each
# ("%n Datei", "%n Dateien")
PLURAL_ENDING = re.compile(r"([^\W\d_]+)\((s|es|ies)\)")
ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}  # as lupdate writes them


class NotTs(documents.NotDocument):
    """The input is not a Qt Linguist file this job can fill in."""


@dataclass(frozen=True)
class Message:
    number: int  # 1-based, in document order
    context: str
    source: str  # its text, references undone
    translation: re.Match  # its <translation> element, in the document
    plural: bool
    sent: bool  # untranslated, not vanished or obsolete, with a letter
    copied: bool  # untranslated, not vanished or obsolete, of no letter but something: its translation is its source

    @property
    def forms(self) -> tuple[str, ...]:
        """The texts sent for it, numbered from its number on: its source, or a plural message's singular and plural
        where its source marks a plural ending."""
        if not self.plural or not PLURAL_ENDING.search(self.source):
            return (self.source,)
        return PLURAL_ENDING.sub(r"\1", self.source), PLURAL_ENDING.sub(_plural, self.source)

    def items(self) -> Iterator[tuple[int, str, str]]:
        """(number, id, text) of each of its forms."""
        if len(self.forms) == 1:
            yield self.number, self.context, self.source
            return
        yield from ((self.number + k, f"{self.context}:{form}", text)
                    for k, (form, text) in enumerate(zip(GERMAN_FORMS, self.forms)))


def _plural(word: re.Match) -> str:
    """A word with its plural ending: "file(s)" files, "box(es)" boxes, "entry(ies)" and "entry(s)" entries."""
    stem, ending = word.groups()
    if stem[-1:] in "yY" and (ending == "ies" or ending == "s" and stem[-2:-1].lower() not in "aeiou"):
        return stem[:-1] + ("IES" if stem.isupper() else "ies")
    return stem + (ending.upper() if stem.isupper() else ending)


def check(document: str) -> None:
    """NotTs where the document is not well-formed XML with a <TS> root, or is for a language other than German
    (or English: a template)."""
    if not document.lstrip().startswith("<"):
        raise NotTs("not XML: a Qt Linguist file is (a TypeScript file, named *.ts too, is not one: give --format "
                    "text)")
    root = documents.parsed(document, NotTs)
    if root.tag != "TS":
        raise NotTs(f"its root element is <{root.tag}>, not a Qt Linguist file's <TS>")
    language = root.get("language", "")
    if language and not GERMAN_OR_ENGLISH.fullmatch(language):
        raise NotTs(f'the file is for {language} (language="{language}"); the models translate English into German '
                    f"({TARGET_LANGUAGE}): give the German file or a template (lupdate -target-language de)")


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, context name, source text) of each message to send (of each form of a plural one)."""
    return (item for message in messages(document) if message.sent for item in message.items())


def count(document: str) -> int:
    """How many texts the document's messages have: the highest number an item can have."""
    return sum(len(message.forms) for message in messages(document))


def messages(document: str) -> Iterator[Message]:
    """Its messages with a source and a translation element, in order, each with its context's name."""
    masked = documents.blanked(document)  # a comment's "<message>" is none
    number = 0
    for context in CONTEXT.finditer(masked):
        name = CONTEXT_NAME.search(context.group(1))
        context_name = html.unescape(name.group(1)).strip() if name else ""
        for message in MESSAGE.finditer(masked, context.start(1), context.end(1)):
            source = SOURCE.search(message.group(2))
            translation = TRANSLATION.search(masked, message.start(2), message.end(2))
            if not source or not translation:
                continue
            text = html.unescape(source.group(1))
            written = translation.group(2) or ""
            untranslated = (not GONE.search(translation.group(1)) and not TAG.sub("", written).strip()
                            and "<byte" not in source.group(1))
            found = Message(number + 1, context_name, text, translation, bool(NUMERUS.search(message.group(1))),
                            *documents.sent_or_copied(untranslated, text))
            number += len(found.forms)
            yield found


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The document with each sent message whose number has a translation given it, marked unfinished (with
    `review`; else finished), each copied message its source as its translation, finished (left empty, lrelease and
    Qt Linguist count it untranslated: "(%1, %2)", 48 of 3,711 messages of Qt 5's own files), and the file's language
    German where it named none or English."""
    edits = []
    for message in messages(document):
        texts = [translated.get(number) for number, _, _ in message.items()]
        if message.copied:
            texts, to_review = [message.source], False
        elif message.sent and all(texts):  # a plural message's forms go in together
            to_review = review
        else:
            continue
        element = message.translation
        edits.append((*element.span(), _translation(element, [escaped(text) for text in texts], message.plural,
                                                    to_review)))
    return _german(documents.spliced(document, edits))


def escaped(text: str) -> str:
    return "".join(ESCAPES.get(char, char) for char in text)


def _translation(element: re.Match, texts: list[str], plural: bool, review: bool) -> str:
    """A <translation> element holding the text (of a plural message, each numerus form its own, or the one text),
    marked unfinished where it is for review, else finished (no type)."""
    attributes = UNFINISHED.sub("", element.group(1)).rstrip()
    if review:
        attributes += ' type="unfinished"'
    content = element.group(2) or ""
    if not plural:
        return f"<translation{attributes}>{texts[0]}</translation>"
    form = itertools.count()  # each numerus form its text, in order (the last text for any beyond)
    if NUMERUS_FORM.search(content):  # the forms lupdate wrote
        content = NUMERUS_FORM.sub(lambda written: f"<numerusform{written.group(1)}>"
                                                   f"{texts[min(next(form), len(texts) - 1)]}</numerusform>", content)
    else:
        content = "".join(f"<numerusform>{texts[min(next(form), len(texts) - 1)]}</numerusform>" for _ in GERMAN_FORMS)
    return f"<translation{attributes}>{content}</translation>"


def _german(document: str) -> str:
    root = ROOT.search(document)
    language = LANGUAGE.search(root.group(1))
    if language is None:
        return document[:root.end(1)] + f' language="{TARGET_LANGUAGE}"' + document[root.end(1):]
    if language.group(2).lower().startswith("de"):
        return document
    start, end = root.start(1) + language.start(2), root.start(1) + language.end(2)
    return document[:start] + TARGET_LANGUAGE + document[end:]
