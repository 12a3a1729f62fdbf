"""SVG (drawings, diagrams, Inkscape's tutorials) for batch jobs: which texts to send, and the drawing written back.

A text is what a drawing shows or says in words: a ``<text>`` element's content (its ``<tspan>`` lines and runs, a link
inside it, are its markup, sent as HTML, so that a label broken over lines reads as one sentence and its words go back
into the lines by alignment), a flowed text's paragraph (``<flowPara>``), a ``<foreignObject>``'s paragraph of HTML
(diagrams.net's labels: its ``<b>`` and ``<br/>`` markup, its ``<code>`` code), a ``<title>`` or ``<desc>`` (a tool tip,
what a screen reader says; not the name Graphviz titles a node's or an edge's group with). It is read as DocBook's texts
are (`service.docbook`, with SVG's `VOCABULARY`): styles, scripts and metadata are kept as written, a text of no letter
(an axis's numbers) is not sent, nor one in another language a ``<switch>`` chooses (``systemLanguage="de"``). The
drawing is written back character for character but for the texts (a translation on one line: an SVG text's line ends
are spaces), its root's language German (``xml:lang="de"``); a drawing of no text (an icon) as it was.
"""

from __future__ import annotations

from typing import Iterator

from service import docbook, documents

# Graphviz draws each graph, cluster, node and edge as a group of these classes, titled by its name in the graph's
# source (an identifier, "pinned_box"; an edge's "tail->head"): a name, not words
GRAPHVIZ_GROUPS = frozenset({"graph", "cluster", "node", "edge"})


def graphviz_name(container: docbook.Element, child: docbook.Element) -> bool:
    """Whether an element is the <title> of a group Graphviz drew (`GRAPHVIZ_GROUPS`; its class's first word, since
    Graphviz writes a node's own classes after it)."""
    classes = (documents.attribute(container.attributes, "class") or "").split()
    return child.local == "title" and container.local == "g" and next(iter(classes), None) in GRAPHVIZ_GROUPS


# A <foreignObject>'s HTML (diagrams.net's labels: "<div>Start the <b>web</b> server<br/>on port 80</div>"): its
# elements of text, as a web page's (SVG has none of these names), and those holding code
HTML_INLINE = frozenset("b i u s em strong span font br sub sup small big mark abbr cite q del ins strike".split())
HTML_CODE = frozenset("code kbd samp tt var".split())

VOCABULARY = docbook.Vocabulary(
    inline=frozenset({"tspan", "a", "textPath", "tref", "altGlyph", "flowSpan"}) | HTML_INLINE | HTML_CODE,
    kept=frozenset({"style", "script", "metadata"}),
    containers=frozenset({"svg", "g", "defs", "symbol", "switch", "flowRoot", "flowRegion", "clipPath", "mask",
                          "pattern", "marker", "foreignObject"}),
    names_and_code=HTML_CODE,
    wraps=False,  # (a line end in a text is a space: in a preserved one, and its indentation, more)
    named=graphviz_name)


class NotSvg(documents.NotDocument):
    """The input is no SVG."""


def check(document: str) -> None:
    """NotSvg where the document declares an encoding other than UTF-8 or its first element is not <svg> (NotDocBook
    where its elements nest deeper than docbook.MAX_DEPTH)."""
    documents.check_encoding(document, NotSvg)
    root = docbook.root_element(document)
    if root is None or root.local != "svg":
        raise NotSvg(f"its first element is <{root.name}>, not <svg>" if root else "it holds no element")


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, path, text) of each text to send."""
    return docbook.items(document, VOCABULARY)


def count(document: str) -> int:
    """How many texts the drawing has: the highest number an item can have."""
    return docbook.count(document, VOCABULARY)


def filled(document: str, translated: dict[int, str], review: bool = True) -> str:
    """The drawing with each translated text in place (SVG has no mark of a translation to review: `review` changes
    nothing)."""
    return docbook.filled(document, translated, review, VOCABULARY)
