"""Perl's POD (Plain Old Documentation: ``.pod`` files, the documentation in Perl's modules and scripts, the manual
pages dpkg and debhelper write in it) for batch jobs: which texts to send, and the document written back.

A text is an ordinary paragraph (its lines between blank lines), a heading's words (``=head1``, ..., ``=head6``; a
manual page's standard section, ``=head1 NAME``, is written as German manual pages name it, ``BEZEICHNUNG``, and not
sent) and an item's (``=item``; after its bullet or number, ``=item *``). In the NAME section, only what follows the
name's dash ("dpkg-deb - Debian package archive manipulation tool") is sent. Its formatting codes are sent as HTML:
bold, italic and unbreakable words (``B<...>``, ``I<...>``, ``S<...>``) as elements translated inside; code, file
names, links, index entries and the rest (``C<...>``, ``F<...>``, ``L<...>``, ``X<...>``, ``Z<>``) kept as written,
an element marked translate="no"; characters by name (``E<lt>``, ``E<eacute>``) as the characters they are.

Kept as written: verbatim paragraphs (indented: code and examples), every other command (``=over``, ``=back``,
``=encoding``, ``=for``), what lies between ``=begin`` and ``=end``, and a module's code outside its POD (before the
first command, after ``=cut``). A text whose formatting codes are not closed is kept too.

The document is written back character for character but for the translated texts: a paragraph's translation wrapped
to the width of its source's lines (one on one line stays on one), a command's on its line; a ">" inside a formatting
code and a "<" after a capital letter written as ``E<gt>`` and ``E<lt>``; a translation that would start a paragraph
as a command or as verbatim text (a "=" or a space first), or that is not well-formed (a tag lost), is not written.
A document that declares no encoding and gets German characters declares the one it is written in (``=encoding
UTF-8``, or a job's --encoding, before its first command): POD's readers would guess one, and complain.
"""

from __future__ import annotations

import codecs
import html
import itertools
import re
from dataclasses import dataclass
from typing import Iterator

from service import documents, roff

COMMAND = re.compile(r"=([A-Za-z][A-Za-z0-9_]*)[ \t]*")
HEADINGS = frozenset(f"head{level}" for level in range(1, 7))
# Codes around words, sent as elements translated inside (S<>: words that a line must not break)
WORDS = {"B": "b", "I": "i", "S": "nobr"}
CODES = {tag: code for code, tag in WORDS.items()}
ITEM_MARK = re.compile(r"(?:\*|\d+\.?)(?:[ \t\n]+|\Z)")  # "=item *", "=item 2."
NAME_DASH = re.compile(r"[ \t\n]+-+[ \t\n]+")  # "dpkg-deb - Debian package ...": the name before it kept
CODE_MARK = re.compile(r"[A-Z]<+|>")  # a formatting code's opening ("B<", "C<<"), or a ">" that may close one
# Characters by name: POD's own, then HTML's ("E<eacute>"), or by number ("E<0x201E>", "E<181>")
NAMED = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}
ANGLE = re.compile(r"[<>]")
AFTER_CAPITAL = re.compile(r"(?<=[A-Z])<")  # in a translation's words, a "<" that would open a code
UNLINKABLE = re.compile(r'[|/"]')  # a heading's characters a link to it cannot hold
# Bold that is literal text to type, as manual pages write it (an option, a path, a file's name, a setting, a name of
# words joined by hyphens: "B<--build>", "B<debian/control>", "B<DEB_HOST_ARCH=amd64>", "B<bug-implicit-func>"), and
# bold that is a whole text of one word (an item's term: "=item B<Provides>", a field's name): kept as written, where
# the model translated a path's words ("B<debian/source/local-patch-header>" came back as
# "B<Debian/Source/lokalespatch-Kopfzeilen>") and a name's ("B<working-epoch>" as "B<Arbeitsarbeit>")
LITERAL = re.compile(r"(?=-|\S*(?:/|=|_|\.\w|\w-\w))\S+")
ENCODING = re.compile(r"(?m)^=encoding\b")


class NotPod(documents.NotDocument):
    """The input is no POD."""


@dataclass
class Text:
    line: int  # 1-based, of its start
    what: str  # "paragraph", "=head1", "=item"
    start: int  # of its source in the document
    end: int
    sent: str
    number: int = 0  # 1-based, in document order, of the texts sent
    german: str = ""  # written without being sent: a manual page's standard section (roff.SECTION_NAMES)


def check(document: str) -> None:
    """NotPod where the document is binary (a NUL character): a module or script of no POD is fine, nothing sent."""
    if "\0" in document:
        raise NotPod("it holds a NUL character: it is binary, not text")


def items(document: str) -> Iterator[tuple[int, str, str]]:
    """(number, "line:what", text) of each text to send."""
    return ((text.number, f"{text.line}:{text.what}", text.sent) for text in _texts(document) if text.sent)


def count(document: str) -> int:
    """How many texts the document sends: the highest number an item can have."""
    return sum(1 for text in _texts(document) if text.sent)


def filled(document: str, translated: dict[int, str], review: bool = True, encoding: str = "utf-8") -> str:
    """The document with each translated text in place (POD has no mark of a translation to review: `review`
    changes nothing), its links to its own sections naming their translated headings, declaring the `encoding` it
    will be written in (a Python codec's name) where it declares none and a translation holds characters outside
    ASCII."""
    found = _texts(document)
    written = {id(text): written for text in found if (written := text.german or _written(
        document, text, translated.get(text.number, ""))) is not None}
    sections = {heading: german for text in found if text.what.startswith("=head") and id(text) in written
                if (heading := _section(document[text.start:text.end])) != (german := _section(written[id(text)]))}
    result = documents.spliced(document, [(text.start, text.end, _linked(written[id(text)], sections))
                                          for text in found if id(text) in written])
    german = any(not text.isascii() for text in written.values())
    name = codecs.lookup(encoding).name  # as Perl's Encode reads it too (iso8859-1, cp1252, mac-roman)
    if not german or name == "ascii" or ENCODING.search(result) or not (first := _first_command(result)):
        return result
    return f"{result[:first.start()]}=encoding {'UTF-8' if name == 'utf-8' else name}\n\n{result[first.start():]}"


def _section(heading: str) -> str:
    """A section's name as a heading and a link to it write it: its white space one space, no quotation marks."""
    return documents.SPACES.sub(" ", heading).strip().strip('"')


def _linked(written: str, sections: dict[str, str]) -> str:
    """A text with each link to a section of its document (L</"Using includes">, L<text|/section>, L<"section">, and
    the old L<OBJECT SERIALISATION>: a name with a space) naming the section's translated heading, where it has one a
    link can name."""
    edits = []
    for letter, content, content_end, _ in (_codes(written, 0, len(written)) or {}).values():
        label, bar, target = written[content:content_end].rpartition("|")
        section = target[1:] if target.startswith("/") else target if target.startswith('"') or " " in target else None
        german = sections.get(_section(section)) if section is not None else None
        if letter == "L" and german and not UNLINKABLE.search(german):
            edits.append((content, content_end, f'{label}{bar}/"{german}"'))
    return documents.spliced(written, sorted(edits))


def _paragraphs(document: str) -> Iterator[tuple[int, int, int]]:
    """(line, start, end) of each run of lines that are not blank (white space alone is blank)."""
    offset, run = 0, None
    for number, line in enumerate(document.split("\n"), start=1):
        start, offset = offset, offset + len(line) + 1
        if line.strip():
            run = run or (number, start)
            end = start + len(line.rstrip("\r"))
        elif run:
            yield run[0], run[1], end
            run = None
    if run:
        yield run[0], run[1], end


def _first_command(document: str) -> re.Match | None:
    return next((command for _, start, _ in _paragraphs(document) if (command := COMMAND.match(document, start))), None)


def _texts(document: str) -> list[Text]:
    """The document's texts in document order, numbered: its POD's ordinary paragraphs, headings and items."""
    found, in_pod, begun, section = [], False, None, ""
    for line, start, end in _paragraphs(document):
        command = COMMAND.match(document, start, end)
        in_pod = in_pod or command is not None
        if not in_pod:
            continue
        name = command.group(1) if command else ""
        if begun:  # "=begin html" to "=end html": another format's, kept
            begun = None if name == "end" and document[command.end():end].split()[:1] == [begun] else begun
        elif name == "cut":
            in_pod = False
        elif name == "begin":
            begun = (document[command.end():end].split() or [""])[0]
        elif name in HEADINGS or name == "item":
            words = command.end()
            if name == "item" and (mark := ITEM_MARK.match(document, words, end)):
                words = mark.end()
            heading = " ".join(document[words:end].split())
            section = heading.upper() if name == "head1" else section
            if name == "head1" and heading in roff.SECTION_NAMES:  # (as German manual pages name it)
                german = roff.SECTION_NAMES[heading]
                found.append(Text(line, "=head1", *documents.stripped(document, words, end), sent="", german=german))
                continue
            found.append(_text(document, line, f"={name}", words, end))
        elif not command and document[start] not in " \t":  # (an indented paragraph is verbatim: kept)
            if section in ("NAME", "NAMES") and (dash := NAME_DASH.search(document, start, end)):
                start = dash.end()
            found.append(_text(document, line, "paragraph", start, end))
    found = [text for text in found if text.sent or text.german]
    for number, text in zip(itertools.count(1), (text for text in found if text.sent)):
        text.number = number
    return found


def _text(document: str, line: int, what: str, start: int, end: int) -> Text:
    """The text of document[start:end], sent as HTML where its codes are closed and it holds a letter outside kept
    ones."""
    start, end = documents.stripped(document, start, end)
    read = _html(document, start, end)
    sent = read[0] if read and documents.LETTER.search(read[1]) else ""
    return Text(line, what, start, end, sent)


def _codes(document: str, start: int, end: int) -> dict[int, tuple[str, int, int, int]] | None:
    """Each formatting code's start: (letter, content's start, content's end, end), the codes nested (a single "<"
    closes at the next ">" not of a code inside; "B<< ... >>" at white space and as many ">"); None where one is not
    closed."""
    codes, open_codes, at = {}, [], start  # open_codes: (start, letter, brackets, content's start)
    while (mark := CODE_MARK.search(document, at, end)) is not None:
        at = mark.end()
        if mark.group() != ">":
            brackets = len(mark.group()) - 1
            if brackets > 1 and document[at:at + 1] not in (" ", "\t", "\n"):  # "C<<x": one "<" opens, "<x" is text
                brackets, at = 1, mark.start() + 2
            open_codes.append((mark.start(), mark.group()[0], brackets, at + (brackets > 1)))
        elif open_codes:
            code_start, letter, brackets, content = open_codes[-1]
            if brackets == 1:
                codes[code_start] = (letter, content, mark.start(), at)
                open_codes.pop()
            elif document.startswith(">" * brackets, mark.start()) and document[mark.start() - 1] in " \t\n":
                content_end = mark.start()
                while content_end > content and document[content_end - 1] in " \t\n":
                    content_end -= 1
                codes[code_start] = (letter, content, content_end, mark.start() + brackets)
                open_codes.pop()
                at = mark.start() + brackets
    return None if open_codes else codes


def _html(document: str, start: int, end: int) -> tuple[str, str] | None:
    """A text's source as HTML and what of it is words (outside kept codes); None where a code is not closed."""
    codes = _codes(document, start, end)
    if codes is None:
        return None
    out, words, open_words = [], [], []  # open_words: (tag, content's end, end) of each open element
    at = start
    starts = iter(sorted(codes))
    following = next(starts, end)
    while at < end:
        while following < at:
            following = next(starts, end)
        if open_words and at == open_words[-1][1]:
            tag, _, closed = open_words.pop()
            out.append(f"</{tag}>")
            at = closed
            continue
        if at == following and at in codes:
            letter, content, content_end, code_end = codes[at]
            literal = LITERAL.fullmatch(document, content, content_end) or (start, end) == (at, code_end) \
                and not document[content:content_end].count(" ")
            if letter in WORDS and not (letter == "B" and literal):
                out.append(f"<{WORDS[letter]}>")
                open_words.append((WORDS[letter], content_end, code_end))
                at = content
            elif letter == "E" and (character := _character(document[content:content_end])):
                documents.add_words(out, words, character)
                at = code_end
            else:
                out.append(documents.kept_element("code", documents.SPACES.sub(" ", document[at:code_end])))
                at = code_end
            continue
        stop = min(following, open_words[-1][1] if open_words else end)
        documents.add_words(out, words, document[at:stop])
        at = stop
    return "".join(out).strip(), "".join(words)


def _character(name: str) -> str:
    """The character "E<name>" stands for ("" where it names none)."""
    if name in NAMED:
        return NAMED[name]
    if re.fullmatch(r"0[xX][0-9A-Fa-f]{1,6}|0[0-7]{1,7}|[1-9][0-9]{0,6}", name):
        value = int(name, 16) if name[1:2] in "xX" and len(name) > 1 else int(name, 8 if name.startswith("0") else 10)
        return chr(value) if value <= 0x10FFFF and chr(value).isprintable() else ""
    character = html.unescape(f"&{name};") if re.fullmatch(r"[A-Za-z][A-Za-z0-9]{1,31}", name) else ""
    return character if len(character) == 1 else ""


def _written(document: str, text: Text, translation: str) -> str | None:
    """A text's translation as POD, laid out as its source is; None where it has no translation to write (none, not
    well-formed, a tag it was not sent with, or one that would start a command or a verbatim paragraph)."""
    if not translation or not documents.well_formed_translation(translation):
        return None
    written = _pod(translation)
    if not written or text.what == "paragraph" and written[0] in "= \t":
        return None
    if "\n" not in document[text.start:text.end]:
        return written
    return documents.laid_out(document, text.start, text.end, written,
                              [at for at, character in enumerate(written) if character == " "])


def _pod(translation: str) -> str | None:
    """A translation (HTML) as POD: its elements the codes they were sent for (one inside another of its own kind
    left out: "I<I<x>>" is a nested code POD's checkers warn of), a kept one's source as it was (`_unwrapped`), its
    words escaped where POD would read them as codes; None where it holds a tag it was not sent with."""
    pieces, open_codes = [], []  # open_codes: (tag, whether written) of each open element
    for kind, piece in documents.markup_pieces(translation):
        if kind == "text":
            pieces.append(_escaped(piece, bool(open_codes), pieces))
            continue
        if kind == "kept":
            pieces.append(_unwrapped(piece, CODES[open_codes[-1][0]]) if open_codes else piece)
            continue
        closing, name, _, empty = piece.groups()
        if name in CODES and not empty and not closing:
            written = not open_codes or open_codes[-1][0] != name
            open_codes.append((name, written))
            pieces.append(f"{CODES[name]}<" if written else "")
        elif name in CODES and not empty and open_codes and open_codes[-1][0] == name:
            pieces.append(">" if open_codes.pop()[1] else "")
        else:
            return None
    return "".join(pieces).strip()


def _unwrapped(source: str, letter: str) -> str:
    """A kept code's source inside a code of its own letter (the model put "B<-x>" inside bold): its content alone."""
    whole = (_codes(source, 0, len(source)) or {}).get(0)
    return source[whole[1]:whole[2]] if whole and whole[0] == letter and whole[3] == len(source) else source


def _escaped(words: str, in_code: bool, before: list[str]) -> str:
    """Words as POD writes them: in a code, "<" and ">" as E<lt> and E<gt>; outside, a "<" after a capital letter
    (the words before them too) as E<lt>."""
    text = documents.SPACES.sub(" ", words)
    if in_code:
        return ANGLE.sub(lambda angle: "E<lt>" if angle.group() == "<" else "E<gt>", text)
    if text.startswith("<") and before and before[-1][-1:].isupper() and before[-1][-1:].isascii():
        text = "E<lt>" + text[1:]
    return AFTER_CAPITAL.sub("E<lt>", text)
