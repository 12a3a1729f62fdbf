"""Files of code or settings read for their comments (``--format comments``): a shell script, a configuration file
(``sshd_config``, Debian's preseed example), a program; their comments are the texts, everything else is kept.

Read as paragraphs, the Debian installation guide's example preseed file came back with 132 of its 136 settings and
commented-out settings changed (``d-i debian-installer/locale string en_US`` as ``d-i debian-installer/lokale
Zeichenkette en_US``): nothing tells a setting from a sentence there but the comment marks. Here each run of comment
lines (``#``, ``//`` or ``;`` after the same indentation, as many marks alike, ``###`` heading a section, and as many
spaces after them) is one text, its lines joined as a paragraph, and its translation is written back over as many
lines, each with its indentation and marks; a comment line with no words (``#``) ends a run, a list item (``1.``,
``-``) starts one. Commented-out code is kept, as the rest of the file: a comment whose text follows its marks with
no space (``#d-i netcfg/enable boolean false``, ``#Port 22``, ``#!/bin/sh``) or more than one (``#   Port 22``,
ssh_config's; but a list item), an assignment (``# DHOME=/home``), a key in CamelCase with a value or a few (``#
GSSAPIKeyExchange no``), or a comment whose first word starts one of the file's lines that are not comments (``# d-i
keyboard-configuration/toggle select No toggling``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from service.rst import cut_at_spaces  # (the one way a paragraph's translation is spread over its lines)

COMMENT = re.compile(r"([ \t]*)(#+|//+|;+)([ \t]*)(.*)")  # indentation, marks, the spaces after them, the text
WORD = re.compile(r"[^\W\d_]{2,}")
# A setting commented out: an assignment ("# DHOME=/home", "# net.ipv4.ip_forward = 1"), or a key in CamelCase with a
# value or a few ("#   ForwardAgent no", "#   GSSAPIKeyExchange no": ssh_config's) and no sentence's end
ASSIGNMENT = re.compile(r"[A-Za-z_][\w.-]*[ \t]*=(?!=)")
CAMEL_CASE_SETTING = re.compile(r"(?=\w*(?:[a-z][A-Z]|[A-Z]{2}[a-z]))\w+(?:[ \t]+\S+){0,3}(?<![.!?:])")
LIST_ITEM = re.compile(r"(?:\d+[.)]|[-*•])[ \t]")  # an item starts a run of its own ("#  1. command line options")


@dataclass(frozen=True)
class Comment:
    """A run of comment lines: its first line's number (0-based), how many, the text and how its lines start."""
    first: int
    lines: int
    text: str
    lead: str  # indentation and marks, as each of its lines starts
    space: str  # after the marks

    def written(self, translation: str) -> str:
        """The translation over as many comment lines, cut at spaces nearest to equal shares of its length."""
        text = " ".join(translation.split())
        pieces = [piece for piece in cut_at_spaces(text, [at for at, character in enumerate(text) if character == " "],
                                                   self.lines) if piece]
        pieces += [""] * (self.lines - len(pieces))  # fewer words than lines: the marks alone after them
        return "\n".join(self.lead + (self.space + piece if piece else "") for piece in pieces)


def comments(lines: list[str]) -> Iterator[Comment]:
    """Each run of comment lines with words (not commented-out code) of a file's lines, in order: lines of the same
    indentation, marks and spaces after them; a list item starts one."""
    starts = {line.split()[0] for line in lines if line.strip() and not COMMENT.fullmatch(line)}
    run: list[tuple[int, re.Match]] = []
    for number, line in enumerate([*lines, ""]):
        found = COMMENT.fullmatch(line)
        prose = found is not None and _prose(found.group(3), found.group(4).strip(), starts)
        if run and (not prose or found.group(1, 2, 3) != run[0][1].group(1, 2, 3) or LIST_ITEM.match(found.group(4))):
            yield _comment(run)
            run = []
        if prose:
            run.append((number, found))


def _prose(space: str, text: str, starts: set[str]) -> bool:
    """Whether a comment's text is words, not code commented out: one space after the marks (more indent an example
    or a setting, "#   Port 22", but a list item's), a word, not a setting (ASSIGNMENT, CAMEL_CASE_SETTING), and a
    first word that starts none of the file's lines that are not comments."""
    return (space == " " or bool(space) and bool(LIST_ITEM.match(text))) and bool(WORD.search(text)) \
        and text.split()[0] not in starts and not ASSIGNMENT.match(text) and not CAMEL_CASE_SETTING.fullmatch(text)


def _comment(run: list[tuple[int, re.Match]]) -> Comment:
    first, found = run[0]
    return Comment(first, len(run), " ".join(line.group(4).strip() for _, line in run), found.group(1) + found.group(2),
                   found.group(3))

