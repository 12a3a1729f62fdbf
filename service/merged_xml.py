"""XML files whose translations are merged into them (what ``msgfmt --xml`` and itstool write from a catalog), for
batch jobs: which texts to send, and the file written back. Three kinds, each with the texts its own translation
rules (its ITS file) mark:

- AppStream's metadata (``*.metainfo.xml``, the older ``*.appdata.xml``: what GNOME Software, KDE Discover and
  Flathub show of an application; ``METAINFO``): the component's ``name``, ``summary``, ``developer_name`` (or
  ``developer``'s ``name``), ``name_variant_suffix``, each ``keyword``, each screenshot's ``caption``, each paragraph
  and list item of its ``description`` and of each release's, and of an agreement's sections; a summary, the
  description and a caption are translated whatever their ``translate`` attribute says.
- polkit's actions (``*.policy``: what an authentication dialog asks; ``POLICY``): each action's ``description`` and
  ``message``.
- the shared MIME database's packages (``<mime-info>``, ``/usr/share/mime/packages/*.xml``: how file managers name
  a file's type; ``MIME``): each type's ``comment``.

Each text is an item in document order, numbered, its element's path the record's id, sent as HTML (a description's
``<em>`` and ``<code>`` are its markup, references are read as characters); none marked ``translate="no"`` (nor inside
one), none that has German already (its element with ``xml:lang="de"`` after it, or one around it), none that is a
translation (any ``xml:lang``). The file is written back character for character as it was, each translation added as
``msgfmt`` adds one: the same element with ``xml:lang="de"`` right after the English one, on a line of its own
indented as it is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator
from xml.sax.saxutils import escape

from service import documents

LANGUAGE = re.compile(r"""\bxml:lang\s*=\s*["']([^"']*)["']""")
GERMAN = re.compile(r"de(?:[-_][A-Za-z0-9]+)*", re.IGNORECASE)


class NotMergedXml(documents.NotDocument):
    """The input is not the kind of XML file this job fills in."""


@dataclass
class Text:
    number: int  # 1-based, in document order, of the English texts
    path: str  # "component/description/p", the element's
    text: str  # its content as written (markup and references)
    start: int  # where the element starts in the document, where its content starts, and where it ends
    content_start: int
    end: int
    indent: str | None  # the white space before it on its line; None where it does not start its line
    sent: bool  # a text to translate: a letter, no German yet, not marked untranslatable


@dataclass(frozen=True)
class MergedXml:
    """A kind of XML file whose translations are merged into it."""
    root: str  # its root element's name (in its namespace or none)
    texts_at: re.Pattern  # the paths of the elements whose content is one text, from the root's name
    kind: str  # what it is, for a refusal: "AppStream's <component> (a metainfo or appdata file's)"
    translated_regardless: tuple[str, ...] = ()  # paths translated whatever their translate attribute says

    def check(self, document: str) -> None:
        """NotMergedXml where the document is not well-formed XML with this kind's root element."""
        root = documents.parsed(document, NotMergedXml)
        name = root.tag.rsplit("}", 1)[-1]
        if name != self.root:
            raise NotMergedXml(f"its root element is <{name}>, not {self.kind}")

    def items(self, document: str) -> Iterator[tuple[int, str, str]]:
        """(number, path, text) of each text to send."""
        return ((text.number, text.path, text.text) for text in self.texts(document) if text.sent)

    def count(self, document: str) -> int:
        """How many English texts the document has: the highest number an item can have."""
        return sum(1 for _ in self.texts(document))

    def texts(self, document: str) -> Iterator[Text]:
        """The document's English texts (`texts_at` without xml:lang, which marks a translation, nor inside an
        element with one), in order; each sent where its element has a letter, is not marked translate="no" (nor
        inside one that is) and has no German after it (its own element's, or a German one of an element around it:
        a <description xml:lang="de">)."""
        masked = documents.blanked(document)
        stack: list[Open] = []
        found: list[Text] = []
        reading: tuple[str, int, int, bool] | None = None  # (path, start, content start, untranslatable) of a text
        nested = 0  # elements of its name open inside the text read (a list item inside one: GNOME Calculator's)
        for tag in documents.TAG.finditer(masked):
            closing, name, attributes, empty = tag.group(1), tag.group(2), tag.group(3), tag.group(4)
            if reading:  # markup inside a text (<em>, <code>), to its end tag
                if name == reading[0].rsplit("/", 1)[-1] and not empty:
                    nested += -1 if closing else 1
                if nested < 0:
                    found.append(_text(document, masked, len(found) + 1, *reading, tag))
                    reading, nested = None, 0
                continue
            if closing:
                if stack and stack[-1].name == name:
                    stack.pop()
                continue
            parent = stack[-1] if stack else Open("", False, False, 0)
            path = "/".join([element.name for element in stack] + [name])
            language = LANGUAGE.search(attributes)
            foreign = parent.foreign or bool(language)  # a translation, British English's too ("en-GB", "en@shaw")
            untranslatable = parent.untranslatable or documents.attribute(attributes, "translate") == "no"
            if language and GERMAN.fullmatch(language.group(1)):
                self._has_german(found, parent.found, path)
            regardless = path in self.translated_regardless
            if not foreign and self.texts_at.fullmatch(path) and not empty:
                reading = (path, tag.start(), tag.end(), untranslatable and not regardless)
            elif not empty:
                stack.append(Open(name, untranslatable and not regardless, foreign, len(found)))
        yield from found

    def _has_german(self, found: list[Text], since: int, path: str) -> None:
        """Marks the English texts a German element at `path` translates, of those found `since` its parent opened,
        as not to send: the last of its own path (msgfmt's <p xml:lang="de"> after its <p>; looked for from the
        last, which it mostly is), or those inside the same element (a <description xml:lang="de"> after the
        English one)."""
        if self.texts_at.fullmatch(path):
            own = next((k for k in range(len(found) - 1, since - 1, -1) if found[k].path == path), None)
            if own is not None:
                found[own].sent = False
            return
        for text in found[since:]:
            if text.path.startswith(path + "/"):
                text.sent = False

    def filled(self, document: str, translated: dict[int, str], review: bool = True) -> str:
        """The document with each sent text's translation added after it as its German (these files have no mark
        of a translation to review: `review` changes nothing)."""
        edits = []
        for text in self.texts(document):
            if not text.sent or not translated.get(text.number):
                continue
            name = text.path.rsplit("/", 1)[-1]
            opening = document[text.start:text.content_start].replace(name, f'{name} xml:lang="de"', 1)
            translation = translated[text.number]  # (as it is where well-formed XML, else escaped)
            content = translation if documents.well_formed(translation) else escape(translation)
            added = opening + content + f"</{name}>"
            lead = "\n" + text.indent if text.indent is not None else " "
            edits.append((text.end, text.end, lead + added))
        return documents.spliced(document, edits)


@dataclass(frozen=True)
class Open:
    """An element open where texts are read."""
    name: str
    untranslatable: bool  # marked translate="no", or inside one that is
    foreign: bool  # in a language other than English (xml:lang), or inside one that is
    found: int  # how many texts were found before it opened


def _text(document: str, masked: str, number: int, path: str, start: int, content_start: int, untranslatable: bool,
          closing: re.Match) -> Text:
    content = document[content_start:closing.start()]
    indent = start
    while indent and masked[indent - 1] in " \t":
        indent -= 1
    words = re.sub(r"<[^>]*>", "", content)
    return Text(number, path, content, start, content_start, closing.end(),
                masked[indent:start] if indent == 0 or masked[indent - 1] == "\n" else None,
                not untranslatable and bool(documents.LETTER.search(words)))


# (AppStream's own rules: its metainfo.its; polkit's: polkit.its; shared-mime-info's: shared-mime-info.its)
METAINFO = MergedXml(
    "component",
    re.compile(r"component/(?:name|summary|developer_name|developer/name|name_variant_suffix|keywords/keyword"
               r"|screenshots/screenshot/caption|(?:releases/release/|agreement/agreement_section/)?description"
               r"/(?:p|[uo]l/li)|agreement/agreement_section/name)"),
    "AppStream's <component> (a metainfo or appdata file's)",
    ("component/summary", "component/description", "component/screenshots/screenshot/caption"))
POLICY = MergedXml("policyconfig", re.compile(r"policyconfig/action/(?:description|message)"),
                   "polkit's <policyconfig> (a .policy file's)")
MIME = MergedXml("mime-info", re.compile(r"mime-info/mime-type/comment"),
                 "the shared MIME database's <mime-info> (a package of /usr/share/mime/packages)")
