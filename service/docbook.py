"""DocBook XML (KDE's manuals, Debian's installation guide, books and articles written in DocBook 4 or 5) for batch
jobs: which texts to send, and the document written back.

A text is the content of an element that holds words of its own: a paragraph, a title, a term, a table's cell, a
list's member, a keyword, an image's description. Its inline elements (``<emphasis>``, ``<command>``, ``<xref/>``,
``<guilabel>``, ...) are its markup, sent as HTML; each block element inside it (a list or a ``<screen>`` inside a
paragraph, a footnote, an index term) is a placeholder, ``<placeholder-1/>``, so that the sentence around it is read
whole, and the block's own texts are texts of their own. An element that holds blocks and no words of its own (a
book's info, a list, a table's row) is no text, and an inline element directly inside it (a ``<date>``) is one of its
own. An element whose words are all names or code (an author's name, a ``<command>`` alone) is not sent, nor are
code and a program's text (``<screen>``, ``<programlisting>``, ``<literallayout>``, synopses), addresses and names,
nor anything marked ``translate="no"`` (DocBook 5's ``its:translate``). A file whose elements nest deeper than
MAX_DEPTH is refused. Entities (``&kappname;``, ``&debian;``), which a book declares in its document type or in files
of its build, are kept as written: a document that is only part of a book (a chapter of the installation guide) reads
as well as a whole one.

The document is written back character for character but for each translated text, its white space around it kept and
its words wrapped at the spaces between them to the width of the source's lines (a text on one line stays on one),
each block put back where the translation put its placeholder (`_laid_out`); the root
element's language is German (``lang="de"``; KDE's manuals select their language by a parameter entity in their
document type, ``<!ENTITY % English "INCLUDE">``, which becomes ``German``, as their German is written). A
translation that is not well-formed (a tag lost) is not written: its text stays as it was.
"""

from __future__ import annotations

import collections
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterator

from service import documents

# Elements that are part of the text around them (DocBook 4.5's and 5's inline elements)
INLINE = frozenset("""
abbrev accel acronym action alt anchor application author citation citebiblioid citerefentry citetitle classname
code command computeroutput constant coref database date email emphasis envar errorcode errorname errortext errortype
exceptionname filename firstname firstterm footnoteref foreignphrase function glossterm guibutton guiicon guilabel
guimenu guimenuitem guisubmenu hardware honorific initializer inlinegraphic interface interfacename jobtitle keycap
keycode keycombo keysym lineage lineannotation link literal manvolnum markup medialabel menuchoice methodname modifier
mousebutton olink ooclass ooexception oointerface option optional orgname othername package parameter person
personname phrase productname productnumber prompt property quote refentrytitle remark replaceable returnvalue sgmltag
shortcut subscript superscript surname symbol systemitem tag termdef token trademark type ulink uri userinput varname
wordasword xref
""".split())
# Elements whose content is kept as written: code and a program's text, addresses, synopses, an author's name
KEPT = frozenset("""
programlisting screen synopsis literallayout cmdsynopsis funcsynopsis classsynopsis fieldsynopsis constructorsynopsis
destructorsynopsis methodsynopsis address mathphrase author editor copyright
""".split())
# Elements that hold blocks and no words (a book's, its info's, a list's, a table's parts): an inline element directly
# inside one is a text of its own ("<bookinfo><date>July 2016</date>"), where it made all of its container one text
CONTAINERS = frozenset("""
set setinfo book bookinfo info articleinfo chapterinfo sectioninfo prefaceinfo appendixinfo refentryinfo
refsect1info refsynopsisdivinfo sect1info sect2info sect3info glossaryinfo partinfo referenceinfo part partintro chapter
appendix preface article section sect1 sect2 sect3 sect4 sect5 simplesect reference refentry refnamediv
refsynopsisdiv refsection refsect1 refsect2 refsect3 glossary glossdiv glossentry glossdef glosslist bibliography
index itemizedlist orderedlist variablelist varlistentry listitem simplelist segmentedlist seglistitem procedure step
substeps calloutlist callout qandaset qandadiv qandaentry question answer table informaltable tgroup thead tbody
tfoot row figure informalfigure example informalexample mediaobject inlinemediaobject imageobject videoobject
audioobject note tip warning caution important sidebar blockquote abstract legalnotice footnote indexterm authorgroup
othercredit keywordset revhistory revision formalpara equation informalequation
""".split())
# Inline elements whose words are names or code: a text whose only words are theirs is not sent (it would come back as
# it is: an author's name, "<command>ls</command>" alone in a cell)
NAMES_AND_CODE = frozenset("""
authorinitials classname code command computeroutput constant email envar filename firstname function holder
honorific isbn issn lineage literal option orgname othername package parameter personname productname productnumber
prompt revnumber sgmltag surname systemitem tag token type uri userinput varname year
""".split())
# The elements a DocBook document or a file of one starts with (its root; the installation guide's files start with a
# <para>, a <bookinfo>, a <sect3>...): an .xml file with one is read as DocBook. Not the names other XML has too
# (<note>, <table>, <info>)
ROOTS = frozenset("""
book article set part chapter appendix preface reference refentry section sect1 sect2 sect3 sect4 sect5 simplesect
glossary bibliography colophon dedication partintro acknowledgements refsection refsect1 refsect2 refsect3
bookinfo articleinfo legalnotice para simpara formalpara itemizedlist orderedlist variablelist informaltable
glossentry qandaset procedure
""".split())
MAX_DEPTH = 200  # elements inside each other (DocBook's books nest some 20 deep)
PLACEHOLDER = re.compile(r"<placeholder-(\d+)/>")
LANGUAGE = re.compile(r"""(\s(?:xml:)?lang\s*=\s*["'])([^"'&]*)(["'])""")
# KDE's manuals select their language in their document type: <!ENTITY % English "INCLUDE">
KDE_LANGUAGE = re.compile(r"""(<!ENTITY\s+%\s+)English(\s+["']INCLUDE["'])""")
DEFAULT_NAMESPACE = re.compile(r"\sxmlns\s*=")


class NotDocBook(documents.NotDocument):
    """The input is not DocBook this job can read."""


@dataclass(frozen=True)
class Vocabulary:
    """What an XML format's elements are to the reader of its texts (DocBook's; SVG's, service.svg): those that are
    part of the text around them, those kept as written, those that hold blocks and no words, and inline ones whose
    words are names or code. Every other element is a block: a text where it holds words of its own. Names are
    compared without their prefix ("svg:text" is a "text")."""
    inline: frozenset[str]
    kept: frozenset[str]
    containers: frozenset[str]
    names_and_code: frozenset[str] = frozenset()
    wraps: bool = True  # a translation over several lines where its source is (not SVG's: its line ends are spaces)
    # whether a container's child holds a name its container gives it, not words (Graphviz's titles of nodes)
    named: Callable[[Element, Element], bool] = lambda container, child: False


DOCBOOK = Vocabulary(INLINE, KEPT, CONTAINERS, NAMES_AND_CODE)


@dataclass
class Element:
    """An element of the document, read by pattern: where its tags are and what it holds."""
    name: str
    attributes: str
    start: int  # of its start tag
    content_start: int  # after its start tag (an empty element's: its end)
    content_end: int  # at its end tag
    end: int  # after its end tag
    children: list[Element] = field(default_factory=list)

    @property
    def local(self) -> str:
        """Its name without its prefix."""
        return self.name.rsplit(":", 1)[-1]


@dataclass
class Text:
    number: int  # 1-based, in document order, of the document's texts
    path: str  # "book/chapter/sect1/para", the element's
    element: Element
    holes: list[Hole]  # the block elements inside it, in order: <placeholder-1/> is the first
    sent: str  # what is sent: its content, blocks as placeholders, white space as single spaces


@dataclass
class Hole:
    element: Element
    texts: list[Text]  # the texts inside it


def check(document: str) -> None:
    """NotDocBook where the document declares an encoding other than UTF-8, its first element does not start a
    DocBook document or a part of one (ROOTS) or its elements nest deeper than MAX_DEPTH (`root_element`)."""
    documents.check_encoding(document, NotDocBook)
    root = root_element(document)
    if root is None:
        raise NotDocBook("it holds no element")
    if root.name.rsplit(":", 1)[-1] not in ROOTS:
        raise NotDocBook(f"its first element is <{root.name}>, not one a DocBook document or a part of one starts "
                         "with (<book>, <article>, <chapter>, <section>, ...)")


def items(document: str, vocabulary: Vocabulary = DOCBOOK) -> Iterator[tuple[int, str, str]]:
    """(number, path, text) of each text to send."""
    return ((text.number, text.path, text.sent) for text in texts(document, vocabulary))


def count(document: str, vocabulary: Vocabulary = DOCBOOK) -> int:
    """How many texts the document has: the highest number an item can have."""
    return sum(1 for _ in texts(document, vocabulary))


def texts(document: str, vocabulary: Vocabulary = DOCBOOK) -> Iterator[Text]:
    """The document's texts in document order (those inside a text's blocks after it)."""
    root = root_element(document)
    return _flattened(_read(document, root, vocabulary)) if root else iter(())


def filled(document: str, translated: dict[int, str], review: bool = True, vocabulary: Vocabulary = DOCBOOK) -> str:
    """The document with each translated text in place, its root's language German (DocBook has no mark of a
    translation to review: `review` changes nothing); a document of no text as it was."""
    root = root_element(document)
    found = _read(document, root, vocabulary) if root else []
    if not found:
        return document
    prolog = KDE_LANGUAGE.sub(r"\1German\2", document[:root.start], count=1)
    return prolog + _german_root(document, root) + _filled(document, root.content_start, len(document), found,
                                                           translated, vocabulary.wraps)


def _read(document: str, root: Element, vocabulary: Vocabulary) -> list[Text]:
    """The texts outside texts' blocks, each with those inside its blocks."""
    return _texts_in(document, documents.blanked(document), root, root.name, itertools.count(1), vocabulary)


def _flattened(found: list[Text]) -> Iterator[Text]:
    for text in found:
        yield text
        for hole in text.holes:
            yield from _flattened(hole.texts)


def root_element(document: str) -> Element | None:
    """The document's first element, its descendants read (a missing end tag closes at its parent's); NotDocBook
    where they nest deeper than MAX_DEPTH."""
    masked = documents.blanked(document)
    top = Element("", "", 0, 0, len(document), len(document))
    stack, open_names = [top], collections.Counter()
    for tag in documents.TAG.finditer(masked):
        closing, name, attributes, empty = tag.groups()
        if closing:
            if not open_names[name]:
                continue  # an end tag of nothing open: text
            at = next(k for k in range(len(stack) - 1, 0, -1) if stack[k].name == name)
            for unclosed in stack[at + 1:]:
                unclosed.content_end = unclosed.end = tag.start()
            stack[at].content_end, stack[at].end = tag.start(), tag.end()
            open_names.subtract(element.name for element in stack[at:])
            del stack[at:]
            continue
        element = Element(name, attributes, tag.start(), tag.end(), tag.end(), tag.end())
        stack[-1].children.append(element)
        if not empty:
            element.content_end = element.end = len(document)
            stack.append(element)
            open_names[name] += 1
            if len(stack) > MAX_DEPTH + 1:
                raise NotDocBook(f"its elements nest more than {MAX_DEPTH} deep, and a job reads no deeper")
    return top.children[0] if top.children else None


def _texts_in(document: str, masked: str, element: Element, path: str, numbered: Iterator[int],
              vocabulary: Vocabulary) -> list[Text]:
    """The texts of a block element: its own, where it holds words outside its blocks, and those of its blocks
    (numbered after it). An element in another language than English (SVG's systemLanguage="de": a translation a
    <switch> chooses) is kept, as one marked translate="no"."""
    name, attributes = element.local, element.attributes
    if name in vocabulary.kept or name in vocabulary.names_and_code or documents.attribute(attributes, "translate") \
            == "no" or not documents.ENGLISH.match(documents.attribute(attributes, "systemLanguage") or "en"):
        return []
    container = name in vocabulary.containers
    if not _has_words(masked, element, vocabulary, inline=not container):  # (a container's inline ones: texts alone)
        return [text for child in (element.children if container else _blocks_in(element, vocabulary))
                if not (container and vocabulary.named(element, child))
                for text in _texts_in(document, masked, child, f"{path}/{child.name}", numbered, vocabulary)]
    blocks = _blocks_in(element, vocabulary)
    inside = [(block, f"{path}/{block.name}") for block in blocks]
    text = Text(next(numbered), path, element, [], _sent(_content(document, element, blocks)))
    text.holes = [Hole(block, _texts_in(document, masked, block, at, numbered, vocabulary)) for block, at in inside]
    return [text]


def _blocks_in(element: Element, vocabulary: Vocabulary) -> list[Element]:
    """The block elements in an element's content, in order, those inside its inline elements too."""
    found = []
    for child in element.children:
        found += _blocks_in(child, vocabulary) if child.local in vocabulary.inline else [child]
    return found


def _content(document: str, element: Element, blocks: list[Element], written: list[str] | None = None) -> str:
    """An element's content as written, each block in it a placeholder (<placeholder-1/> the first), or as
    `written`."""
    pieces, done = [], element.content_start
    for number, block in enumerate(blocks, 1):
        pieces += [document[done:block.start], f"<placeholder-{number}/>" if written is None else written[number - 1]]
        done = block.end
    return "".join(pieces) + document[done:element.content_end]


def _has_words(masked: str, element: Element, vocabulary: Vocabulary, inline: bool = True) -> bool:
    """Whether an element holds a letter of its own: outside its blocks, its names and code, tags and references (and
    outside its `inline` elements too where False)."""
    done = element.content_start
    for child in element.children:
        if _letter(masked[done:child.start]):
            return True
        if inline and child.local in vocabulary.inline and child.local not in vocabulary.names_and_code \
                and _has_words(masked, child, vocabulary):
            return True
        done = child.end
    return _letter(masked[done:element.content_end])


def _letter(text: str) -> bool:
    return bool(documents.LETTER.search(documents.REFERENCE.sub("", text)))


def _sent(content: str) -> str:
    """A text as sent: each run of white space outside its tags one space (XML's paragraphs are wrapped anywhere),
    none around it."""
    pieces, done = [], 0
    for tag in documents.TAG.finditer(content):
        pieces += [documents.SPACES.sub(" ", content[done:tag.start()]), tag.group()]
        done = tag.end()
    return ("".join(pieces) + documents.SPACES.sub(" ", content[done:])).strip()


def _written(document: str, text: Text, translated: dict[int, str], wraps: bool) -> str:
    """A text's content as written back, its blocks' texts filled in: its translation where it has a well-formed one,
    laid out as its source is (`_laid_out`; wrapped to its lines where it `wraps`, Vocabulary.wraps), else as it was."""
    element, holes = text.element, [hole.element for hole in text.holes]
    blocks = [_filled(document, hole.element.start, hole.element.end, hole.texts, translated, wraps)
              for hole in text.holes]
    translation = translated.get(text.number, "")
    if not translation or not documents.well_formed_translation(translation):  # (its entities: its book's)
        return _content(document, element, holes, blocks)
    source = _content(document, element, holes)
    body = source.strip()
    lead, trail = source[:source.index(body)], source[source.index(body) + len(body):]
    column = documents.column(document, element.content_start) if "\n" not in lead else len(lead.rsplit("\n", 1)[1])
    width, line_break = documents.layout(body, column) if "\n" in body and wraps else (None, "\n")
    laid_out = _laid_out(translation, blocks, _spaces_around(document, element, holes), width, column, line_break)
    return lead + laid_out + trail


def _filled(document: str, start: int, end: int, found: list[Text], translated: dict[int, str], wraps: bool) -> str:
    """The document from `start` to `end` with the texts found there written back (`_written`)."""
    pieces, done = [], start
    for text in found:
        pieces += [document[done:text.element.content_start], _written(document, text, translated, wraps)]
        done = text.element.content_end
    return "".join(pieces) + document[done:end]


def _laid_out(translation: str, blocks: list[str], around: list[tuple[str | None, str | None]], width: int | None,
              column: int, line_break: str) -> str:
    """A translation with each block where it put the block's placeholder (the first time; one it lost after its
    words), its words wrapped to `width` from `column`, each further line after `line_break` (on one line where `width`
    is None). Between a block and words, the white space that was there in the source where the translation has a space
    (a space where the source had none), none where it has none ("<placeholder-1/>, um" for the source's
    "<placeholder-1/> button"); between two blocks, the source's."""
    order, done, pieces = {}, 0, []  # (a dict: the placeholders in their order, each once)
    for placeholder in PLACEHOLDER.finditer(translation):
        number = int(placeholder.group(1))
        if 1 <= number <= len(blocks) and number not in order:
            pieces.append(translation[done:placeholder.start()])
            order[number] = None
            done = placeholder.end()
    pieces.append(translation[done:])
    placed = len(order)
    order = [*order, *(number for number in range(1, len(blocks) + 1) if number not in order)]
    pieces += [""] * (len(order) + 1 - len(pieces))
    words = [PLACEHOLDER.sub("", piece).strip(" ") for piece in pieces]
    written = []
    for k, piece in enumerate(words):
        if piece:
            piece = _wrapped(piece, width, column, line_break)
        if k < len(order):
            before, after = around[order[k] - 1]
            spaced_before = pieces[k].endswith(" ") or k >= placed  # (a lost block goes after the words, apart)
            before = (before or " ") if spaced_before else "" if piece else before or ""
            after = (after or " ") if pieces[k + 1].startswith(" ") else "" if words[k + 1] else after or ""
            piece += before + blocks[order[k] - 1] + after
        written.append(piece)
        column = len(piece.rsplit("\n", 1)[1]) if "\n" in piece else column + len(piece)
    return "".join(written)


def _spaces_around(document: str, element: Element, blocks: list[Element]) -> list[tuple[str | None, str | None]]:
    """The white space before and after each block in an element's content; None where the block starts or ends
    the content (but for white space, which stays the content's), and between two blocks once (after the first)."""
    bounds = [element.content_start, *[edge for block in blocks for edge in (block.start, block.end)],
              element.content_end]
    stretches = [document[bounds[k]:bounds[k + 1]] for k in range(0, len(bounds), 2)]
    around = []
    for k in range(len(blocks)):
        before, after = stretches[k], stretches[k + 1]
        last = k + 1 == len(blocks)
        around.append((None if k == 0 and not before.strip() else "" if not before.strip()
                       else before[len(before.rstrip()):],
                       None if last and not after.strip() else after[:len(after) - len(after.lstrip())]))
    return around


def _wrapped(words: str, width: int | None, column: int, line_break: str) -> str:
    """Words (spaces between them, none inside a tag) wrapped at their spaces outside tags (`documents.wrapped`)."""
    if width is None:
        return words
    tags = [tag.span() for tag in documents.TAG.finditer(words)]
    spaces = [at for at, character in enumerate(words) if character == " " and not documents.inside(tags, at)]
    return documents.wrapped(words, spaces, width, column, line_break)


def _german_root(document: str, root: Element) -> str:
    """The root's start tag saying its language is German: an English lang (xml:lang where it declares a default
    namespace: DocBook 5's, SVG's) made "de", one added where it has none; one set by an entity (KDE's
    lang="&language;") or another language kept."""
    tag = document[root.start:root.content_start]
    language = LANGUAGE.search(tag)
    if language and documents.ENGLISH.fullmatch(language.group(2)):
        tag = tag[:language.start(2)] + "de" + tag[language.end(2):]
    elif not re.search(r"\s(?:xml:)?lang\s*=", tag):
        name = "xml:lang" if DEFAULT_NAMESPACE.search(tag) else "lang"
        tag = re.sub(r"\s*/?>\Z", lambda end: f' {name}="de"{end.group()}', tag)
    return tag
