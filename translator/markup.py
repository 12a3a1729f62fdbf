"""Placeholder tokens and tags (torch-free): the token form the model reads for a protected item, what a tag
is, and inline elements taken out of a sentence before it is translated and put back around the words that the
translation's alignments say stand for the words they wrapped (used by translator.text and the service).

Left in the sentence as placeholder tokens, an element's two tags cost the model the words between them: the
shipped model turned "The XX0Xhouse XX1X is red." into "Das Gebäude XX0XXX1X ist rot.", while it translates the
sentence without them well ("Das Haus ist rot."). So the tags of each element that opens and closes within a
text, around words, leave the model's input, and the element wraps a span of what remains of each sentence it
covers. After decoding,
the decoder's cross-attention (its alignment layer) maps the span onto target words: the opening token goes
before the first of them, the closing one after the last. Every other item stays in the model's input as a token,
as the model was trained: format placeholders, a void element, a comment, a tag without its partner, and the
`<name>` of a usage message, which is a placeholder in angle brackets, not markup.

    stripped, moved = take_out_tags(segments, protected)    # what the model reads, and where the tags were
    text = put_back_tags(translation, moved[i], ...)        # segment i's translation with their tokens again
"""

from __future__ import annotations

import itertools
import re
import sys
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import numpy as np

# What the model sees instead of a protected item: the same form the training data uses for placeholders.
PLACEHOLDER = "XX{}X"  # closed by X: "%s3" must not read as XX03
PLACEHOLDER_PATTERN = re.compile(r"XX(\d+)X")
TOKEN_LIKE = r"XX\d+X?"  # what looks like a placeholder token, so a text containing one round-trips
SHARED_X = re.compile(r"XX\d+X(?=X\d+X)")  # "XX7XX8X": the model wrote two adjacent tokens with one X between
# A tag's attributes, where a quoted value may hold a ">" ('<a title="Settings > Privacy">' was cut at it, and the rest
# of the tag reached the model as words: '<a title="x >y">'). Possessive, and no part of it crosses a "<": a tag that
# never closes is scanned once, up to the next "<".
ATTRIBUTES = r"""(?>"[^"<]*"|'[^'<]*'|[^<>])*+"""
# A tag's name, or a number: i18next's and react-intl's rich text numbers the elements a message holds ("Click <0>here
# </0>."); read as a number and marks, the model kept the words inside ("Klicken Sie auf <0>here</0>")
TAG_NAME = r"(?:[A-Za-z][\w:.-]*|\d{1,2})"
TAG_PATTERN = rf"</?{TAG_NAME}(?:\s{ATTRIBUTES})?/?>"
# Comments and CDATA sections: never content (text.SECTIONS). Not over another one's opening (a comment holding
# "<!--" is a parse error in HTML, XML has none): each opening that never closes scanned to the text's end, 32,768
# characters of '<!--="' took 0.7 s.
COMMENT_PATTERN = r"<!--(?:(?!<!--).)*?-->|<!\[CDATA\[(?:(?!<!\[CDATA\[).)*?\]\]>"
# A document's declarations and processing instructions ("<!DOCTYPE html>", '<?xml version="1.0"?>' came back as
# '<?xml Version="1.0" Kodierung="UTF-8"?>>'): markup, never text; a document type's with the declarations inside it
# (KDE's manuals' '<!DOCTYPE book PUBLIC "..." [ <!ENTITY % addindex "IGNORE"> ]>' came back as '<!DOCTYP-Buch
# ÖFFENTLICHE ...'); inside it only declarations, comments, processing instructions and parameter entities, each
# character read one way only, so that a "[" after another "<!x" ends the search from the first (no backtracking,
# and no search to the text's end from every "<!x [": quadratic, 6 s for "<!x [a" 5,000 times)
DECLARATION_PATTERN = (r"<\?[A-Za-z][^<>]*>|<![A-Za-z][^<>\[]*(?:\[(?:\s|<![A-Za-z][^<>\"']*(?:(?:\"[^\"]*\"|'[^']*')"
                       r"[^<>\"']*)*>|<!--(?:[^-]|-(?!->))*-->|<\?[^<>]*>|%[\w.:-]+;)*\]\s*)?>")
TAG = re.compile(f"{TAG_PATTERN}|{COMMENT_PATTERN}|{DECLARATION_PATTERN}", re.DOTALL)  # does an item hold markup
TAGS_ONLY = re.compile(rf"(?:\s*{TAG_PATTERN})+\s*", re.DOTALL)
# The name atomic: its characters are no attribute's, and given back one by one to ATTRIBUTES, which takes them too,
# a "<" before 32,000 letters was scanned 32,000 times (18.9 s for "x <bbb...").
TAG_PARTS = re.compile(rf"<(/?)((?>{TAG_NAME}))({ATTRIBUTES})>")
COMMENT = re.compile(COMMENT_PATTERN, re.DOTALL)
# Elements are taken out of a sentence with at most this many (else theirs stay tokens): placing them costs the
# square of their number, and a sentence with more is markup with a few words, not text with a few tags.
MAX_ELEMENTS = 32
# Elements that have no content and no end tag (HTML's void elements).
VOID = frozenset("area base br col embed hr img input link meta param source track wbr".split())
# HTML's <link> carries rel (or itemprop), which the standard requires of it; an XML vocabulary's link has content
# (Mallard's and DocBook's <link xref="..."> and <link linkend="...">, RSS's <link>): read as void, GNOME's help
# "click the <gui><link href="...">Sign in / Register</link></gui> button" came back with "</gui> </link>", crossed.
HTML_LINK_ATTRIBUTE = re.compile(r"\s(?:rel|itemprop)\s*=", re.IGNORECASE)


@dataclass(frozen=True)
class MovedTags:
    """Placeholder tokens taken out of a segment and the span (start, end) of the stripped segment that their
    element wraps: `before` goes in front of the span's translation, `after` behind it. Where one item opens
    several elements ("<b><i>") and they close in separate items, the item is the `before` of the outermost and
    the inner closing items have no `before`; where one item closes several ("</i></b>") and they opened in
    separate items, the inner opening items have no `after`."""

    before: int | None
    after: int | None
    start: int
    end: int
    spaced: bool = False  # an empty span at the sentence's edge, the token apart from the words: a space keeps it so
    link: bool = field(default=False, compare=False)  # a LINKS element's: none may hold another


# Elements that may not hold one another: HTML's links and buttons, and Markdown's and reStructuredText's links
LINKS = {"a", "button", "[]"}


def take_out_tags(segments: list[str], protected: Sequence[str], emphasis: Mapping[int, tuple[bool, str]] | None = None
                  ) -> tuple[list[str], list[list[MovedTags]]]:
    """A text's segments without the tokens of the items whose elements all open and close in the text around
    words (spaces around a token collapsed as a page shows them), and per segment what each wraps. Other tokens
    stay. An element that opens in one segment and closes in a later one wraps the rest of the first and the start
    of the last (and all of those between, which keep no token of it). `emphasis`: items that open or close an
    element of another markup, (closing, name) by item number (Markdown's "**", which opens and closes alike;
    BBCode's "[b]")."""
    tags = tag_items(protected, emphasis)
    items, taken = _taken(segments, tags)
    if not taken:
        return segments, [[] for _ in segments]
    spans: dict[int, list[tuple[int, tuple[int, int]]]] = {}  # per segment, its tokens to take out
    for index, number, span in items:
        if number in taken:
            spans.setdefault(index, []).append((number, span))
    stripped, offsets, apart = [], [], set()
    for index, segment in enumerate(segments):
        text, positions, done = "", {}, 0
        for number, (start, end) in spans.get(index, []):
            text = _joined(text, segment[done:start])
            positions[number] = len(text)
            if segment[start - 1:start].isspace() or segment[end:end + 1].isspace():
                apart.add(number)
            done = end
        text = _joined(text, segment[done:]).rstrip()
        stripped.append(text)
        offsets.append({number: min(offset, len(text)) for number, offset in positions.items()})
    moved = _spans(stripped, offsets, tags)
    return stripped, [[_trimmed(m, text, apart) for m in segment] for segment, text in zip(moved, stripped)]


def taken_out(segments: list[str], tags: Mapping[int, list[tuple[bool, str]]]) -> set[int]:
    """The numbers of the items take_out_tags takes out of these segments. `tags`: `tag_items`'s."""
    return _taken(segments, tags)[1]


def _taken(segments: list[str], tags: Mapping[int, list[tuple[bool, str]]]) -> tuple[list[Item], set[int]]:
    """The tokens of the tag items in the segments (segment, number, span) and the numbers of those taken out."""
    items = [(index, int(t.group(1)), t.span()) for index, segment in enumerate(segments)
             for t in PLACEHOLDER_PATTERN.finditer(segment) if int(t.group(1)) in tags]
    return items, _matched(segments, items, tags)


def tag_items(protected: Sequence[str], emphasis: Mapping[int, tuple[bool, str]] | None = None
              ) -> dict[int, list[tuple[bool, str]]]:
    """The items take_out_tags may take out, by number: (closing, name) of each element they open or close (tags
    alone, and the `emphasis` items of another markup)."""
    emphasis = emphasis or {}
    return {number: [emphasis[number]] if number in emphasis else elements_of(item)
            for number, item in enumerate(protected) if number in emphasis or TAGS_ONLY.fullmatch(item)}


def _trimmed(moved: MovedTags, text: str, apart: set[int]) -> MovedTags:
    """The span without the whitespace at its ends ("The <b>house </b>is": "house"); an empty one `spaced` where
    its token stood apart from the words."""
    start, end = moved.start, moved.end
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return replace(moved, start=start, end=end, spaced=start == end and bool({moved.before, moved.after} & apart))


def _joined(text: str, more: str) -> str:
    return text + (more.lstrip() if not text or text[-1].isspace() else more)


def elements_of(item: str) -> list[tuple[bool, str]]:
    """(closing, name) of each tag of an item that opens or closes an element (`of_content`, not in a comment)."""
    return [(tag.group(1) == "/", tag.group(2).lower()) for tag in TAG_PARTS.finditer(COMMENT.sub("", item))
            if of_content(tag)]


def of_content(tag: re.Match) -> bool:
    """Whether a TAG_PARTS match is a tag of an element that has content: not void, not self-closing."""
    return not _void(tag) and not tag.group(3).rstrip().endswith("/")


def void_only(item: str) -> bool:
    """Whether an item is tags of HTML's void elements alone ("<input type=text>", "<img src=x.png>", "<br/>")."""
    return TAGS_ONLY.fullmatch(item) is not None and all(_void(tag) for tag in TAG_PARTS.finditer(item))


def _void(tag: re.Match) -> bool:
    name = tag.group(2).lower()
    return name in VOID and (name != "link" or HTML_LINK_ATTRIBUTE.search(tag.group(3)) is not None)


Item = tuple[int, int, tuple[int, int]]  # (segment, placeholder number, span of its token in the segment)


def _matched(segments: list[str], items: list[Item], tags: Mapping[int, list[tuple[bool, str]]]) -> set[int]:
    """The items that only open or only close elements (`tags`: each item's, by number), each closed or opened by
    another of them with words between, at most 2 * MAX_ELEMENTS in a segment. An item whose partner stays, stays
    too."""
    partners: dict[int, set[int]] = {number: set() for _, number, _ in items}
    staying: set[int] = set()
    opened: list[tuple[str, Item]] = []  # (element name, opening item)
    for item in items:
        number = item[1]
        elements = tags[number]
        if not elements or len({closing for closing, _ in elements}) > 1:
            staying.add(number)  # nothing to wrap, or "</b> <i>": a token that would go in two places
        for closing, name in elements:
            if not closing:
                opened.append((name, item))
            elif opened and opened[-1][0] == name:
                opener = opened.pop()[1]
                partners[opener[1]].add(number)
                partners[number].add(opener[1])
                if not _words_between(segments, opener, item):
                    staying |= {opener[1], number}  # "<b></b>": no words to follow
            else:
                staying.add(number)  # it closes an element opened before the text, or crosses one
    staying |= {item[1] for _, item in opened}  # never closed: "<name>" in a usage line
    per_segment = Counter(index for index, _, _ in items)
    staying |= {number for index, number, _ in items if per_segment[index] > 2 * MAX_ELEMENTS}
    reached = list(staying)
    while reached:  # a search through the partners, each item once
        grown = partners[reached.pop()] - staying
        staying |= grown
        reached += grown
    return {number for _, number, _ in items if number not in staying}


def _words_between(segments: list[str], first: Item, last: Item) -> bool:
    (index, _, (_, start)), (last_index, _, (end, _)) = first, last
    if last_index > index + 1:
        return True  # a whole segment between: segments have words
    between = segments[index][start:end] if last_index == index else segments[index][start:] + segments[last_index][:end]
    return any(c.isalnum() for c in between)


def _spans(stripped: list[str], offsets: list[dict[int, int]], tags: Mapping[int, list[tuple[bool, str]]]
           ) -> list[list[MovedTags]]:
    """What each taken-out item wraps, per segment (its elements all match among these items): a closing item
    closes the innermost open elements and pairs with the item that opened the outermost of them, where that is in
    its segment (else it wraps the segment's start); an item whose elements are still open at the end of its
    segment wraps the rest of it."""
    moved: list[list[MovedTags]] = [[] for _ in stripped]
    opened: list[tuple[str, int, int]] = []  # (element name, opening item, its segment)

    def link(number: int) -> bool:
        return any(name in LINKS for _, name in tags[number])

    for index, here in enumerate(offsets):
        for number, offset in here.items():
            elements = tags[number]
            if not elements[0][0]:
                opened += [(name, number, index) for _, name in elements]
                continue
            closed, opened = opened[len(opened) - len(elements):], opened[:len(opened) - len(elements)]
            still_open = {item for _, item, _ in opened}
            done = [item for item in dict.fromkeys(item for _, item, _ in closed) if item in here and item not in still_open]
            outer = closed[0][1] if closed[0][1] in here else None
            moved[index].append(MovedTags(outer if outer in done else None, number,
                                          here[outer] if outer is not None else 0, offset, link=link(number)))
            moved[index] += [MovedTags(item, None, here[item], offset, link=link(item))
                             for item in done if item != outer]
        moved[index] += [MovedTags(item, None, here[item], len(stripped[index]), link=link(item))
                         for item in dict.fromkeys(item for _, item, where in opened if where == index)]
    return [sorted(segment, key=lambda m: (m.start, -m.end, *_outer_first(m))) for segment in moved]


def _outer_first(moved: MovedTags) -> tuple[int, int]:
    """Orders elements that wrap the same span as they nest in the source, the outermost first (put_back_tags
    opens them in this order and closes them in the reverse): the one that opened earlier (before this segment,
    else the lower token), else the one that closes later (after this segment, else the higher token).
    "<body><p>Save the file.</p></body>" came back as "<p><body>Datei speichern.</body></p>"."""
    return (-1 if moved.before is None else moved.before, -(sys.maxsize if moved.after is None else moved.after))


def put_back_tags(translation: str, moved: Sequence[MovedTags], stripped: str,
                  source_spans: Sequence[tuple[int, int]], target_spans: Sequence[tuple[int, int]],
                  weights: np.ndarray) -> str:
    """The translation with the moved tokens inserted. `source_spans`: (start, end) in `stripped` of each source
    token the model read (end-of-sentence excluded); `target_spans`: (start, end) in `translation` of each
    generated token ((n, n) for one without text); `weights`: their (target, source) cross-attention."""
    translation, target_spans = tokens_apart(translation, target_spans)
    weights = np.asarray(weights, dtype=np.float32)[: len(target_spans), : len(source_spans)]
    visible = [k for k, (start, end) in enumerate(target_spans) if end > start and k < len(weights)]
    if not visible:  # nothing to wrap: the tokens in source order at the end, as repair would put them
        return translation + "".join(PLACEHOLDER.format(n) for n in sorted(
            n for m in moved for n in (m.before, m.after) if n is not None))
    targets = [_target(item, stripped, source_spans, translation, target_spans, visible, weights) for item in moved]
    _untangled(moved, targets, translation)
    # At one position, closing tokens go before opening ones; the innermost element closes first and the outermost
    # opens first, and of two with the same span, the one earlier in the source is outside the other.
    # An empty element (apart from a sibling whose words it shared: `_kept_apart`) goes there whole: `_empty_keys`.
    insertions, empty = [], _empty_keys(moved, targets)
    for rank, (item, (start, end)) in enumerate(zip(moved, targets)):
        for number, order, tie in ((item.after, 0, (-start, -rank)), (item.before, 1, (-end, rank))):
            if number is not None:
                token = PLACEHOLDER.format(number)
                if item.spaced:  # at the end of the translation, or at its start
                    token = " " + token if start == len(translation.rstrip()) else token + " "
                key = (*empty[rank], 1 - order, rank if order else -rank) if rank in empty else (order, *tie, ())
                insertions.append((end if order == 0 else start, *key, token))
    pieces, done = [], 0
    for position, *_, token in sorted(insertions):
        pieces += [translation[done:position], token]
        done = position
    return "".join(pieces) + translation[done:]


def tokens_apart(translation: str, spans: Sequence[tuple[int, int]] = ()) -> tuple[str, list[tuple[int, int]]]:
    """The translation with the X that two adjacent tokens share ("XX7XX8X", chains too) written twice, and the
    spans moved with it. Before tags go back: an element's edge at the second token's start fell inside the first,
    and the tags' tokens put there split it ("XX0" + "XX6X" + "X"), which left an "X" in the page
    ("Einstellungen</span></span>X<span hidden ...>"); and in `text.repair`."""
    cuts, at = [], 0
    while shared := SHARED_X.search(translation, at):
        cuts.append(shared.end())
        at = shared.end() - 1  # chains: "XX1XX2XX3X"
    if not cuts:
        return translation, list(spans)
    pieces = [translation[start:end] for start, end in zip([0, *cuts], [*cuts, len(translation)])]

    def moved(position: int) -> int:  # the X written at a cut goes with what follows it
        return position + bisect_left(cuts, position)
    return "X".join(pieces), [(moved(start), moved(end)) for start, end in spans]


def _empty_keys(moved: Sequence[MovedTags], targets: list[tuple[int, int]]) -> dict[int, tuple]:
    """For each element with both tags and an empty target span, where its tokens sort among those at its position:
    all together (its opening ones outermost first, then its closing ones innermost first), inside the elements
    that hold it in the source, so right before the closing token of the innermost of those that closes there, else
    after every closing token there; a group of such elements, one inside another, each behind the one before."""
    def holds(outer: int, inner: int) -> bool:  # (of two around the same words, the earlier: `_nest`)
        return _wraps(moved[outer], moved[inner]) and (
            (moved[outer].start, moved[outer].end) != (moved[inner].start, moved[inner].end) or outer < inner)
    empty = [k for k, (start, end) in enumerate(targets)
             if start == end and None not in (moved[k].before, moved[k].after)]
    keys = {}
    for k in empty:
        at = targets[k][0]
        top = min((outer for outer in empty if targets[outer][0] == at and holds(outer, k)), default=k)  # its group
        holders = [outer for outer in range(len(moved)) if outer not in empty and holds(outer, top)
                   and targets[outer][1] == at and moved[outer].after is not None]
        if holders:  # the innermost: the one starting last, of those the later in the source
            holder = max(holders, key=lambda outer: (targets[outer][0], outer))
            keys[k] = (0, -targets[holder][0], -holder - 0.5, top)
        else:
            keys[k] = (0.5, 0, 0, top)
    return keys


def _target(item: MovedTags, stripped: str, source_spans: Sequence[tuple[int, int]], translation: str,
            target_spans: Sequence[tuple[int, int]], visible: list[int], weights: np.ndarray) -> tuple[int, int]:
    """The span of target words that stand for the words an element wraps: for each source word it wraps, the
    word of the target token that attends most to it (those with letters or digits, where there are some), and all
    of the translation where it wraps all of the sentence's words; trimmed of punctuation at an edge where the
    wrapped text has none. A word's pieces count together: alone, a piece such as the "e" of "▁her e" often draws
    nothing, and its strongest target token is noise."""
    wrapped = stripped[item.start:item.end].strip()
    if not wrapped:  # a tag at the end of its sentence ("<b>" before a line break) or, closing, at its start
        at = len(translation.rstrip()) if item.start >= len(stripped) else 0
        return at, at
    if copied := _in_copied_word(item, stripped, translation):
        return copied
    tokens = []
    if any(c.isalnum() for c in stripped[:item.start] + stripped[item.end:]):
        sources = [j for j, (start, end) in enumerate(source_spans)
                   if start < item.end and end > item.start and stripped[max(start, item.start):min(end, item.end)].strip()]
        tokens = [max(visible, key=lambda k: float(weights[k, word].sum()))
                  for word in _words(sources, stripped, source_spans)]
        tokens = [k for k in tokens if any(c.isalnum() for c in translation[slice(*target_spans[k])])] or tokens
    if not tokens:  # it wraps all of the sentence's words (or, with spans that do not fit the text, none known)
        tokens = visible
    inside = set(PLACEHOLDER_PATTERN.findall(wrapped))
    start, end = _widened(translation, target_spans[min(tokens)][0], target_spans[max(tokens)][1], inside)
    if wrapped[0].isalnum():
        start = _edge_trimmed(translation, start, end, inside, at_start=True)
    elif start > 0 and translation[start - 1] == wrapped[0]:  # "(" or a quote the tags wrapped too
        start -= 1
    if wrapped[-1].isalnum():
        end = _edge_trimmed(translation, start, end, inside, at_start=False)
    elif translation[end:end + 1] == wrapped[-1]:  # "<b>Warning:</b>": "<b>Warnung:</b>"
        end += 1
    return _with_a_word(translation, start, end) if any(c.isalnum() for c in wrapped) else (start, end)


def _with_a_word(text: str, start: int, end: int) -> tuple[int, int]:
    """For a span of no letter or digit (a hyphen the words' token attends to most: "Hello <b>world</b>, you" came
    back as "Hallo<b>-</b>Entscheidung, Sie"), the word right after it, else the one right before."""
    if any(c.isalnum() for c in text[start:end]):
        return start, end
    if after := re.match(r"[^\W_]+", text[end:]):
        return end, end + after.end()
    if before := re.search(r"[^\W_]+$", text[:start]):
        return before.start(), start
    return start, end


def token_ending_at(text: str, end: int, start: int = 0) -> re.Match | None:
    """The placeholder token that ends at `end` and starts at `start` or after, read back from its end: a search
    from the text's start for each of a text's tokens was quadratic (32,768 characters of "&amp;," took 3 s)."""
    digits = end - 1  # where the token's number starts: before its closing X, back over its digits
    while digits > start and text[digits - 1].isdecimal():
        digits -= 1
    return PLACEHOLDER_PATTERN.fullmatch(text, digits - 2, end) if digits - 2 >= start else None


def _edge_trimmed(text: str, start: int, end: int, inside: set[str], at_start: bool) -> int:
    """The span's start (`at_start`) or end, moved past the punctuation and the placeholder tokens (but those it
    wraps, `inside`) at that edge while a character stays: "[changes](#x).[^1]" came back as
    "[changes.[^1]](#x)"."""
    while end - start > 1:
        token = PLACEHOLDER_PATTERN.match(text, start, end) if at_start else token_ending_at(text, end, start)
        if token and token.group(1) not in inside and token.span() != (start, end):
            start, end = (token.end(), end) if at_start else (start, token.start())
        elif not text[start if at_start else end - 1].isalnum():
            start, end = (start + 1, end) if at_start else (start, end - 1)
        else:
            break
    return start if at_start else end


def _in_copied_word(item: MovedTags, stripped: str, translation: str) -> tuple[int, int] | None:
    """Where an element wraps part of a word ("H<sub>2</sub>O", "mc<sup>2</sup>") that the translation has once as it
    is, the same part of it there: widened to the whole word, the element took it all ("<sub>H2O</sub>")."""
    start, end = item.start, item.end
    if not ((start > 0 and stripped[start - 1].isalnum()) or (end < len(stripped) and stripped[end].isalnum())):
        return None
    word_start, word_end = start, end
    while word_start > 0 and stripped[word_start - 1].isalnum():
        word_start -= 1
    while word_end < len(stripped) and stripped[word_end].isalnum():
        word_end += 1
    found = list(re.finditer(rf"(?<!\w){re.escape(stripped[word_start:word_end])}(?!\w)", translation))
    if len(found) != 1:
        return None
    shift = found[0].start() - word_start
    return start + shift, end + shift


def _words(sources: list[int], stripped: str, source_spans: Sequence[tuple[int, int]]) -> list[list[int]]:
    """The source tokens grouped into words (runs of letters and digits; "▁Warn ing" is one, its ":" another);
    the groups without a letter or digit only where no other group has one."""
    words: list[list[int]] = []
    for j in sources:
        start = source_spans[j][0]
        if words and words[-1][-1] == j - 1 and source_spans[j - 1][1] == start and stripped[start].isalnum() \
                and stripped[start - 1].isalnum():
            words[-1].append(j)
        else:
            words.append([j])
    wordy = [word for word in words if any(c.isalnum() for j in word for c in stripped[slice(*source_spans[j])])]
    return wordy or words


def _widened(text: str, start: int, end: int, inside: set[str]) -> tuple[int, int]:
    """text[start:end] widened to whole words: a token inside a word ("haus" of "Rothaus") takes the word along,
    and so does a letter that a hyphen joins to one ('<span>Email address</span> and more' came back as
    '<span>E</span>-Mail-Adresse und mehr'). A word here is a run of letters and digits, or one such character and a
    run joined by a hyphen ("E-Mail", "T-Shirt"), so other punctuation between tokens ("Strg+S") stays outside, and
    so do a compound's words ("<b>PDF</b>-Datei"). The edge of a token the element does not wrap (`inside`: the
    numbers of those it does) is a word's: "[Keep a Changelog](url)[^1]" came back with the footnote's token inside
    the link ("[Changelog[^1]](url)"), the model writing it glued to the word as the source had it; "<b>%ims</b>"
    keeps its "ms"."""
    edges = {edge for token in PLACEHOLDER_PATTERN.finditer(text) if token.group(1) not in inside
             for edge in token.span()}
    while 0 < start < len(text) and start not in edges and _in_one_word(text, start):
        start -= 1
    while 0 < end < len(text) and end not in edges and _in_one_word(text, end):
        end += 1
    return start, end


def _in_one_word(text: str, position: int) -> bool:
    """Whether the characters on either side of a position (0 < position < len(text)) are of one word."""
    before, after = text[position - 1], text[position]
    if before == "-":  # "E-|Mail"
        return after.isalnum() and _one_character_at(text, position - 2)
    if after == "-":  # "E|-Mail"
        return position + 1 < len(text) and text[position + 1].isalnum() and _one_character_at(text, position - 1)
    return before.isalnum() and after.isalnum()


def _one_character_at(text: str, position: int) -> bool:
    """Whether text[position] is a letter or digit with none before it."""
    return position >= 0 and text[position].isalnum() and (position == 0 or not text[position - 1].isalnum())


def _untangled(moved: Sequence[MovedTags], targets: list[tuple[int, int]], translation: str) -> None:
    """Target spans that keep the elements well-formed and as the source has them: each element's holds those of the
    elements inside it in the source, and elements apart in the source stay apart (`_kept_apart`: "<button>Sign
    in</button> <a>Forgot your password?</a>" came back as "<button>In <a>Fortget-Passwort</a> signieren</button>",
    a link inside a button); of two that hold a link and wrap the same words, the later is empty after the other
    (nested, "<a>x</a> <a>y</a>" came back as a link inside a link: HTTPie's README, 3 of 69 HTML pages installed
    here; "<i><a>x</a></i>" beside another too); other siblings nest, showing both styles. Two spans that still
    cross (alignments that do not keep the source's order) are made to nest: the one starting later grows to hold
    the other. Spans only grow then, so this ends."""
    holds_link = [any(inner.link and _wraps(item, inner) for inner in moved) for item in moved]
    for _ in range(2 * len(moved) ** 2):
        _nest(moved, targets)
        if not _kept_apart(moved, targets, translation, holds_link):
            break
    while True:
        _nest(moved, targets)
        crossing = next(((a, b) for a in range(len(targets)) for b in range(len(targets))
                         if targets[a][0] < targets[b][0] < targets[a][1] < targets[b][1]), None)
        if crossing is None:
            return
        a, b = crossing
        targets[b] = (targets[a][0], targets[b][1])


def _kept_apart(moved: Sequence[MovedTags], targets: list[tuple[int, int]], translation: str,
                holds_link: Sequence[bool]) -> bool:
    """Trim one pair of elements that are apart in the source and whose target spans overlap: the one before in the
    source to the part of its span before the other's (else after it), else the other likewise, else, of two that
    hold a link (`holds_link`), the later made empty at the earlier's end with all it holds; False when no pair can
    be trimmed. An element that opens or closes in another segment reaches this one's edge on that side, which
    stays."""
    spans = [(0 if item.before is None else start, len(translation) if item.after is None else end)
             for item, (start, end) in zip(moved, targets)]

    def part(k: int, other: tuple[int, int], before: bool) -> tuple[int, int] | None:
        """Element k's span cut short before the other span begins (`before`) or begun after it ends, None where
        that leaves nothing or moves an edge another segment holds."""
        item, (start, end) = moved[k], spans[k]
        if item.after is None if before else item.before is None:
            return None
        if before:
            end = min(end, other[0])
            while end > start and translation[end - 1].isspace():
                end -= 1
        else:
            start = max(start, other[1])
            while start < end and translation[start].isspace():
                start += 1
        return (start, end) if start < end or None in (item.before, item.after) else None

    for a, b in itertools.combinations(range(len(moved)), 2):
        (start_a, end_a), (start_b, end_b) = spans[a], spans[b]
        apart = moved[a].end <= moved[b].start or moved[b].end <= moved[a].start
        if not apart or start_a == end_a or start_b == end_b or end_a <= start_b or end_b <= start_a:
            continue
        first, second = (a, b) if moved[a].start <= moved[b].start else (b, a)
        for trimmed, other, before in ((first, second, True), (first, second, False), (second, first, False),
                                       (second, first, True)):
            if (span := part(trimmed, spans[other], before)) is not None:
                targets[trimmed] = span
                return True
        if holds_link[first] and holds_link[second] and None not in (moved[second].before, moved[second].after):
            at, later = spans[first][1], moved[second]  # links that wrap the same words (the model merged theirs): the
            for k, item in enumerate(moved):  # later stays apart, empty, after the other, with all it holds
                if _wraps(later, item) and None not in (item.before, item.after):
                    targets[k] = (at, at)
            return True
    return False


def _wraps(outer: MovedTags, inner: MovedTags) -> bool:
    """Whether one element's source span holds the other's (an element holds itself)."""
    return outer.start <= inner.start and inner.end <= outer.end


def _nest(moved: Sequence[MovedTags], targets: list[tuple[int, int]]) -> None:
    """Each element's target span widened to cover those of the elements inside it in the source, so elements
    nested in the source stay nested (smallest first: a span grows with everything inside it; of two around the
    same words, the later in the source is inside, as `put_back_tags` places them, though trimmed apart from a
    third element they may have come to differ)."""
    pairs = sorted(range(len(moved)), key=lambda i: (moved[i].end - moved[i].start, -i))
    for position, inner in enumerate(pairs):
        for outer in pairs[position + 1:]:
            if _wraps(moved[outer], moved[inner]):
                (start, end), (inner_start, inner_end) = targets[outer], targets[inner]
                targets[outer] = (min(start, inner_start), max(end, inner_end))


def reduced(tags: Sequence[str]) -> list[tuple[bool, str]] | None:
    """What a sequence of items holding tags leaves open or closes once matched pairs cancel: the unmatched closing
    tags, then the unmatched opening ones, as (closing, name); None when a closing tag meets another element's
    opening one (they cross)."""
    closing: list[tuple[bool, str]] = []
    opened: list[str] = []
    for item in tags:
        for closes, name in elements_of(item):
            if not closes:
                opened.append(name)
            elif not opened:
                closing.append((True, name))
            elif opened[-1] == name:
                opened.pop()
            else:
                return None
    return closing + [(False, name) for name in opened]
