"""The text pipeline around the model (torch-free), used by every RPC and the in-process CLI: a text becomes
sentence segments to translate, with the whitespace between them kept exactly, and with placeholders, tags,
URLs, e-mail addresses, code spans and characters outside the model's vocabulary swapped for placeholder tokens
that are restored afterwards. Each segment numbers its tokens from XX0X, as the training data numbers a message's.

    prepared = prepare(text)                  # segments (what the model sees) and how to put them back
    translations = [translate(s) for s in prepared.segments]
    result = prepared.restore(translations)   # whitespace, line breaks and every protected item kept

Segmentation uses sentencex (maintained, 38x faster than pysbd here and as accurate on real paragraphs: see
docs/text-pipeline.md). A segment with no letters (a list number, a bullet, a bare placeholder) or of one letter (a
table's variable) is not translated. Numbers are placeholders too when served; character references reach the model as
their characters and come back spelled as the text spelled them; a sentence in capitals is read sentence-cased and
written in capitals.
Every protected item appears in the result exactly as often as in the text: the model's output is repaired
deterministically when it lost or repeated a placeholder token (missing ones appended in source order,
extra ones dropped), and tags stay well-formed: in the model's order where it nests the elements as the source
does, else in source order. With take_out_tags (the service's way where the model has alignments), the tags of
an element that opens and closes within the text leave the model's input and come back by alignment
(translator.markup).
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from html import unescape
from itertools import accumulate
from typing import Callable, Container, Iterable, Iterator, Sequence, TypeVar
from urllib.parse import unquote

import sentencex

from translator import lexicon, markup
from translator.agreement import agreeing, held_back_from
from translator.conjugation import ENGLISH_NOUN_SUBJECT, NOUN, SUBJECT_CHARS, conjugated, verb_held_back_from
from translator.glossary import Glossary
from translator.markup import (ATTRIBUTES, DECLARATION_PATTERN, PLACEHOLDER, PLACEHOLDER_PATTERN, TAG, TAG_NAME,
                               TAG_PARTS, TAG_PATTERN, TOKEN_LIKE, token_ending_at, MovedTags, reduced)
from translator.model_format import TARGET_LANGUAGE, Limits

T = TypeVar("T")
Spans = list[tuple[int, int]]  # (start, end) in a text

UNCLOSED_PLACEHOLDER = re.compile(r"XX\d+(?![\dX])")
# A token, else a run of X that no digit follows (what is left of a broken token; a run before a token may be
# the end of a word: "TeX%s" is masked as "TeXXX0X"), else a token that lost its first X (BROKEN_TOKEN), else an X
# the model wrote after a digit, as it ends a token (DIGIT_X: "template1" came back as "template1X", "zero" as "0X")
# (a whole token may follow it: a tag put back by alignment after the word the broken token ends, "ronagX0XXX4X")
NOT_PART_OF_A_TOKEN = r"(?![\d]|X(?!X\d+X))"
BROKEN_TOKEN = rf"(?<![X\d])X\d+X{NOT_PART_OF_A_TOKEN}"
DIGIT_X = r"(?<=\d)X(?!\w)"
STRAY_X = re.compile(rf"(XX\d+X)|X{{2,}}(?!X*\d)|{BROKEN_TOKEN}|{DIGIT_X}")
# A source with such text of its own ("X1X", "4X") is not repaired by STRAY_X
OWN_TOKEN_DEBRIS = re.compile(f"{BROKEN_TOKEN}|{DIGIT_X}")
LEADING_TOKEN = re.compile(r"\s*XX(\d+)X")  # a translation's first token (`Prepared._capital_kept`)
# A token with the spaces before it: a repeated token dropped before a mark takes them along ("Ein neues Absatz mit
# XX0X innerhalb von XX0X." was "... innerhalb von .")
SPACED_TOKEN = re.compile(r"(?<![ \t])([ \t]*)XX(\d+)X")  # from a run's first space: linear in a run without one
MARK_AFTER_A_WORD = frozenset(".,;:!?)]")

# Tags and character references. Comments are markup too: `protected_spans` finds them beside these patterns. A
# reference's name as XML's (digits, ".", "-", "_", ":" after the first): HTML's "&frac12;" and "&sup2;", and a
# DocBook's entities, KDE's manuals' "&Ragnar.Thomsen;", which the model read as "&XX0X;" and wrote "&Ragnar.Thomsen
# aktualisiert;", no longer XML.
REFERENCE = r"&(?:[A-Za-z_:][\w.:-]*|#\d+|#x[0-9A-Fa-f]+);"
MARKUP = (TAG_PATTERN, DECLARATION_PATTERN, REFERENCE)
# In HTML, a start tag whose attributes run into the next tag, never closed (13 of 69 installed pages, KOMA-Script's:
# '<meta name="keywords" content="KOMA-Script, scrtime' before the next line's '<meta ...'): a browser reads it as
# markup, and so it is kept as written; read as words, it came back as '<meta-Name="keywords" Inhalt="KOMA-Skript, ...'.
UNCLOSED_TAG = re.compile(rf"<{TAG_NAME}\s+[\w:.-]+\s*=[^<>]*(?=<)")
# A file or directory name in a path (".config", "zypp.conf"), placeholders in it too, a shell's, printf's or Python's:
# a debconf template's "/usr/share/doc/${pkg}/README.Debian" reached the model as "XX0X/README." and "Debian.", two
# sentences, and "/etc/firebird/${FB_VER}/SYSDBA.password" came back as ".../SYSDBA": the path ended at the
# placeholder, and a name from a capital starts none (see File paths in PLACEHOLDERS)
PATH_CHARACTER = (r"[\w+~$-]|%(?![A-Za-z_]\w*%)(?:\(\w+\))?[A-Za-z]"  # not Windows' "%USERNAME%", an item of its own
                  r"|\{\w*\}")  # (one way to read "${pkg}": "$", then "{pkg}")
PATH_NAME = rf"\.{{0,2}}(?:{PATH_CHARACTER})+(?:\.(?:{PATH_CHARACTER})+)*"
QUERY_VALUE = r"(?:[\w.~%+-]*[\w~%+-])?"  # (no full stop at its end: a sentence's)
QUERY = rf"\?[\w.~%-]+={QUERY_VALUE}(?:&[\w.~%-]+={QUERY_VALUE})*"  # a URL path's query: "?id=42&sort=desc"
# File and host names with an extension ("cc_config.xml", "climateprediction.net" came back as "Klimapredig.net"): a
# name from a letter, an extension of small letters and digits, not digits alone ("e.g.", "i.e." and "X.509" stay
# text; "v2.0" is a version, "ASP.NET" a dotted name). Extensions of up to 24 (5 until a later session): host names
# under newer domains and settings' keys ("mastodon.social" came back as "mastodon.sozial", git's "core.worktree" as
# "Kern.worktree"; the 38 held-out and catalog messages this changed, chrF 64.54 -> 67.38 in the catalogs', 71.12 ->
# 73.48 in the held-out). A C program's files and libraries too ("zlib.h", "main.c", "fd.o", "libc.a": read, "read
# zlib.h" came back as "zlib gelesen haben.h"), from a name of two characters or more, not a possessive ("sb.'s"),
# and a configuration's directory ("policy-rc.d" came back as "Politikerc.", "rc.d" split a sentence); not a manual
# page's name, which its section follows ("update-rc.d(8)", "sources.list(5)": one item with it). From a number, as
# udev's, sysctl's and APT's files are ordered ("70-persistent-net.rules", "50unattended-upgrades.conf"): read,
# "an error in '66-bilibop.rules'" came back as "6-bilibop.rules"
MANUAL_SECTION = r"\([1-9](?:[a-z]{1,4}|SSL)?\)"  # a manual page's section after its name: "(3)", "(3p)", "(1ssl)"
MANUAL_PAGE_IN_CAPITALS = rf"[A-Z][A-Z0-9_.+-]*{MANUAL_SECTION}"  # as its header and footer name it: "BZIP2(1)"
FILE_NAME = (r"(?<![\w./\\-])(?:\d+-?)?[A-Za-z_][\w-]*(?:\.[\w-]+)*\."
             rf"(?:(?=[0-9]*[a-z])[a-z0-9]{{2,24}}|(?<=[\w-]{{2}}\.)[chosayld](?!['’]))(?!\w|\.\w|{MANUAL_SECTION})")
# Words with a capital inside ("FreeBSD" came back as "FreieBSD", "VirtualBox" as "VirtuelleBox"): names of products
# and identifiers, which catalogs keep; after an acronym too ("DHCPPrefixDelegation=" came back as "DHCPrefix...",
# "IPv4LL" as "IPv4L": on 421 catalog messages with one chrF 61.36 -> 61.72, 112 closer to the reference, 113 further)
CAMEL_CASE = r"(?<![\w.])(?:(?:[a-z]+|[A-Z][a-z]+)[A-Z]\w*|[A-Z]{2,}[a-z]+\d*[A-Z][A-Za-z]*(?!\w))"  # (no base64)
# A name of words joined by "'n'" ("D'n'D", "Drag'n'Drop", "Rock'n'Roll"), which German writes alike: read, the model
# broke it ("How far should the mouse move before D'n'D is triggered?" came back as "... bevor D ausgelöst wird?",
# "Configure &Drag'n'Drop" as "&Drag'Drop einrichten"). Not one in small letters, often a verb ("You can drag'n'drop
# files" as an item came back as "Sie können drag'n'drop-Dateien ...", read as "... Dateien oder Text ziehen ..."):
# its last word has a capital too, which "Drag'n'drop" at a sentence's start has not.
N_JOINED = r"(?<![\w'’])[A-Z][A-Za-z]*['’]n['’][A-Z][A-Za-z]*(?![\w'’])"
# Codes: a run of eight letters and digits or more with both in it (no word has digits), with the parts joined to it
# by dashes, colons, dots, slashes or pluses and base64's padding (hashes, UUIDs, IBANs, tracking numbers), and hex
# colors. Read, the model miscopied them ("123e4567-e89b-12d3-a456-426614174000" came back as
# "123e4567-e89b-12d3-a456174000", "DE89370400440532013000" as "DE89370440532013000", "#ff0000" as "#ff00"; in 20
# sentences with a code, 10 were changed, now 2, with IPV6). Shorter ones ("OAuth2", "x86_64") it copies, and reads in
# German compounds; it garbles some ("C11" came back as "C1", "CFF2" lost), but as items letters then digits cost more
# than they kept (1,636 catalog messages with one: every one kept in 1,484, then all; chrF 57.60 -> 57.23 held-out,
# 63.99 -> 60.87 training pairs).
# And an OpenPGP fingerprint written in groups of four ("8657 ABB2 60F0 56B1 E519  0839 D9C4 D26D 0E60 4491"): read,
# 4 of the 6 in the catalogs and documentation here came back changed ("ABB2" as "AB2", "8AA3" as "8A3", a group lost).
CODE_WORD = (r"(?<![\w.:+/=-])(?=[\w.:+/-]*\d)(?:[A-Za-z0-9]+[-:.+/]{1,2})*(?=[A-Za-z]*\d)(?=\d*[A-Za-z])"
             r"[A-Za-z0-9]{8,}(?:[-:.+/]{1,2}[A-Za-z0-9]+)*=*(?!\w)"
             r"|(?<!\w)#(?=[A-Fa-f]*\d)(?:[0-9A-Fa-f]{3}){1,2}(?![\w-])"
             r"|(?<![\w-])(?=(?:[0-9A-Fa-f]{4} {1,2}){0,9}[0-9A-Fa-f]{0,3}\d)"
             r"[0-9A-Fa-f]{4}(?: {1,2}[0-9A-Fa-f]{4}){3,9}(?![\w-])")
# IPv6 addresses, with a digit: hex groups around "::", or all eight ("2001:db8::1" came back as "2001:db8:1")
IPV6 = (r"(?<![\w:])(?=[\w:]*\d)(?:(?:(?:[0-9A-Fa-f]{1,4}:)*[0-9A-Fa-f]{1,4})?"
        r"::(?:[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4})*)?|[0-9A-Fa-f]{1,4}(?::[0-9A-Fa-f]{1,4}){7})(?![\w:])")
# IPv4 addresses, with a network's prefix length or a port: as numbers, those in a list ("Example:
# 192.168.100.20,192.168.100.252,12h", dnsmasq's range in a debconf template) were none, a comma and a digit following
# each, and came back changed ("192.168.100.2", "10.16.0,0,10,31.255,12h")
IPV4_BYTE = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"
IPV4 = rf"(?<![\w.])(?:{IPV4_BYTE}\.){{3}}{IPV4_BYTE}(?:/(?:3[0-2]|[12]?\d)|:\d{{1,5}})?(?!\w|[.:/]\d)"
# German joins a name to the noun it qualifies with a hyphen ("PipeWire-Filter", "pg_hba.conf-Eintrag"). Reading the
# name as a token, the model wrote a space ("PipeWire Filter"), so a name followed by a word in small letters in the
# source ("PipeWire filters") and by a capitalized one in the translation is joined to it: on the texts with words with
# a capital inside (the model's outputs, joined or not) chrF test 53.086 -> 53.521, validation 57.252 -> 57.886,
# catalogs 57.228 -> 58.266. So is one followed by a capitalized word the translation does not keep ("HandBrake
# Presets": "HandBrake-Voreinstellungen", not "FreeBSD Foundation"): of the 342 validation and test texts with a name,
# 75 changed, chrF 55.63 -> 55.79, BLEU 9.51 -> 9.53. Not the polite pronoun, which German writes with a capital too
# ("In Drascula you play" came back as "In Drascula-Sie spielen", "Shotwell can upload your photos" as "Shotwell-Ihre
# Fotos").
NAME = re.compile(f"{FILE_NAME}|{CAMEL_CASE}|{N_JOINED}|{CODE_WORD}")
NOUN_AFTER = re.compile(r" (?=[A-ZÄÖÜ][a-zäöüß])(?!(?:Sie|Ihnen|Ihre?[mnrs]?)\b)")
# The model glued a token to the word after it where the source has a space ("2 lbs" came back as "2lbs", "%d lags"
# as "%dlags", "--english Force" as "--englishVerwendung": 6 of the 2,025 held-out catalog items ending in a letter or
# digit and followed by a word; none glued in their references). German's "2.4er Kernel" (948 numbers followed by a
# word in the corpora's English, 5 glued in their German, 3 of them by "er") stays glued, and so does a token after it.
GLUED_WORD = re.compile(rf"(?=[^\W\d_])(?!er\b|{PLACEHOLDER_PATTERN.pattern})")
# A placeholder that stands for a number: printf's numeric conversions ("%d", "%'lu", "%1$.1f", Python's "%(total)d"),
# Qt's plural "%n", and one whose name says it counts ("%(count)s", "{num_items}", "%(max)s", "{{ total }}", Fluent's
# "{ $count }"). German writes a count apart from its noun; the model joined them as a name's compound ("Imported
# %(total)d redirects" came back as "%(total)d-Weiterleitungen importiert", "Delete %(count)s documents" as
# "%(count)s-Dokumente löschen"): in 20 of the held-out WordPress, Django and catalog messages, against a space in each
# reference, as in 1,558 of the 1,567 installed catalog messages with a number's placeholder before a word (the rest
# "%u-Bit" and "%d-fachen").
COUNT_ITEM = re.compile(
    r"%(?:\d+\$)?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|q|j|z|t)?[diufFeEgG]|%L?n"
    r"|%\(\w+\)[-+#0 ]*\d*(?:\.\d+)?(?:hh|h|ll|l|L)?[diufFeEgG]"
    r"|(?:%\(|%?\{\{? ?\$?|\$\{)(?:\w+_)?(?:count|counter|num|number|total|max|min|limit|n)(?:_\w+)?"
    r"(?: ?\}\}?|\)[-+#0 ]*\d*[sdiu])")
# A noun the model joined to a count's token by a hyphen, not one of a compound's chain ("%u-Bit-Schlüssel")
NOUN_JOINED_TO_COUNT = re.compile(r"-(?=[A-ZÄÖÜ][a-zäöüß]+(?![\w-]))")
# A command line's option, which the model joined to its argument by a hyphen as to a compound's noun ("-e STRING"
# came back as "-e-ZEICHENKETTE", "--label LABEL" as "--label-ETIKETTEN", in 20 of 1,770 held-out catalog messages):
# of the 1,257 options before an argument or another word in the installed catalogs' English, their German writes 1,133
# apart and joins 4 ("--bytes-Wert"). Not before a word that names what it is ("the -M switch": "den -M-Schalter")
OPTION_ITEM = re.compile(r"--?[A-Za-z][\w-]*")
OPTION_NOUNS = frozenset("option options switch switches flag flags parameter parameters argument arguments".split())
WORD_JOINED = re.compile(r"-(?=[^\W\d_])")
# A Markdown code block fenced by ``` or ~~~ lines, its fences included, to its closing fence or the text's end. Read,
# its lines were translated one by one ("if (x > 0) {" came back as "wenn (x > 0) {", "print('hello world')" as
# "print('hello Welt')", the info string "python" as "Python").
# Indented as deep as a list item's text is (Docsy's steps: "    ```sh" under "1. Clone the repository:"; read, 103 of
# the code lines of 21 of its pages came back translated, "cd userguide" as "CD-Benutzerguid"), by tabs too (AKS
# labs' "\t```bash" under "1. Fetch the script": "wget https://..." came back as "... winden"), or not at all.
# A fence of four marks or more shows Markdown with fences inside ("````markdown"): only as many or more close it; read
# as "```" and a backtick in its info string, it was no fence, and came back as "``''".
# (Each length its own alternative: the pattern is part of others, where a group's name or number would repeat.)
# Six marks or more possessive: given back one by one, a line of 32,768 "~" had its rest scanned as an info string
# 32,768 times (0.7 s).
# Inside a quotation too ("> ```" under GitHub's "> [!NOTE]": "> pip install 'numpy<2'" came back as "> Pip-Installation
# 'Numpy<2'"), its lines each behind the quotation's marks.
FENCE_LEAD = r"[ \t]*+(?:>[ \t]*+)*+"
FENCED_CODE = (rf"(?m:^){FENCE_LEAD}(?:"
               + "|".join(rf"{mark}{{{n}}}(?!{mark}){info}\n(?:.*?\n)?{FENCE_LEAD}{mark}{{{n},}}" if n < 6 else
                          rf"{mark}{{6,}}+{info}\n(?:.*?\n)?{FENCE_LEAD}{mark}{{6,}}"
                          for mark, info in (("`", r"[^`\n]*"), ("~", r"[^\n]*")) for n in range(3, 7))
               # lines may end in \r\n
               + rf")[ \t]*(?=\r?\n|$)|(?m:^){FENCE_LEAD}(?:`{{3,}}[^`\n]*|~{{3,}}[^\n]*)(?:\n.*)?$")
# A JSON object's key: a quoted identifier before a colon ('{"title": "Open file"}' came back as '{"Titel": ...').
JSON_KEY_NAME = re.compile(r'"[A-Za-z_][\w.-]*"')
JSON_KEY = rf"{JSON_KEY_NAME.pattern}(?=[ \t]*:)"
# A JSON object's string value after its key, or its array of strings. Read with the key's token, the colon and the
# quotes, values came back worse than alone ('{"save": "Save", "open": "Open file"}' came back as '{"save":
# "Speicher", "open": "Open Datei"}', '"days": ["Monday", "Tuesday"]' as '["Monday", "Tuestag"]'; alone
# "Speichern", "Datei öffnen", "Montag"): each value is a segment of its own, what is around it glue.
JSON_STRING = r'"((?:[^"\\\n]|\\.)*)"'
JSON_STRING_VALUE = re.compile(rf"{JSON_KEY_NAME.pattern}[ \t]*:[ \t]*(?:{JSON_STRING}|\[)")
JSON_ARRAY_STRING = re.compile(rf"\s*{JSON_STRING}\s*(?:,|(\]))")  # an array's string and what follows it
# A line of a pretty-printed array, its string alone ('    "Tuesday",' came back as '"Tuestag",')
JSON_STRING_LINE = re.compile(rf"[ \t]*{JSON_STRING}[ \t]*,?[ \t]*")
# YAML front matter at a Markdown document's start (Jekyll, Hugo): "---" lines around "key: value" lines. Read, its keys
# and values were translated ("title:" came back as "Titel:", "layout: page" as "Layout: Seite"), which a site's
# build then cannot read.
# Each line matches one way only, and "." is never used (EVERYTHING is DOTALL): with ".*" a front matter never closed
# backtracked exponentially (20 "a: b" lines took 0.05 s, 40 would not end).
FRONT_MATTER = r"^---[ \t]*\r?\n(?:\w[\w-]*:[^\n]*\n|[ \t#-][^\n]*\n)*?---[ \t]*(?=\r?\n|$)"
FENCED_BLOCK = re.compile(FENCED_CODE, re.DOTALL)
FRONT_MATTER_BLOCK = re.compile(FRONT_MATTER)
FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})(.*)")  # a line that opens such a block, or closes it: its marks alone
# An HTML <pre>, <script>, <style> or <textarea> not closed on its line: its blank lines are its own, not a
# paragraph's end (cut there, a script's halves went as two texts, neither a whole element, and were translated: of
# the 5 pages of the Rust book's HTML this session read, every one had mdBook's scripts come back as "Versuch {
# lassen das Thema = ..."). One that opens a line or follows a tag (not a mention in prose, "the <script> tag").
# Elements whose text is code or no text, never cut into pieces: HTML's, and the terminal's text and code blocks of
# Mallard's pages (GNOME's help) and DocBook's, which a page's blank lines cut into paragraphs of code sent as text
# (16 of 191 in 292 pages of GNOME's applications' help came back changed: "# Disable fingerprint reader" translated)
RAW_ELEMENTS = "pre|script|style|textarea|screen|code|programlisting|synopsis"
RAW_BLOCK_OPENS = re.compile(rf"(?:^|>)[ \t]*<({RAW_ELEMENTS})\b(?![^\n]*</\1\s*>)", re.IGNORECASE)
# A fenced block holds its blank lines up to this many lines (a stray fence: not the whole file). LoveIt's documentation
# shows its whole sample configuration in one block of 530 lines: cut at 500, its last lines were translated.
FENCE_MAX_LINES = 2000
# BBCode's tags (Godot's rich text, forums', Steam's: "Find the [b]key[/b].", "[url=https://example.org]site[/url]"):
# read, the model got their brackets and words ("[color=red]" whole, "[/b]" as a path), and a URL ran on through "]"
# into the link's text ("https://example.org]Visit"). In small letters (a catalog's "[I]nstall" marks a key), an
# opening tag not right after a letter ("file[s]"). Those of elements leave the sentence as HTML's tags do, where
# the model has alignments (`bracketed_elements`): of 200 held-out sentences with a tag around words, 181 kept their
# tags whole and in order before, 200 after, their words chrF 46.53 against the references before
BBCODE_ELEMENTS = ("b|i|u|s|code|color|url|img|center|right|left|fill|indent|font|font_size|size|quote|list|ul|ol|table"
                   "|cell|p|hint|lang|wave|shake|tornado|rainbow|pulse|fade|bgcolor|fgcolor|outline_size|outline_color"
                   "|spoiler|noparse|strike|h[1-6]|email")
# a value, or attributes ("[img width=32]"; a word after a space is no attribute: "[table above](#table)" is a link)
BBCODE_TAG = (rf"(?<![^\W\d_])\[(?:{BBCODE_ELEMENTS}|\*|hr)(?:=[^\[\]\n]*|[ \t][^\[\]\n=]*=[^\[\]\n]*)?\]"
              rf"|\[/(?:{BBCODE_ELEMENTS})\]")
BBCODE_ELEMENT = re.compile(rf"\[(/?)({BBCODE_ELEMENTS})\b[^\]]*\]")
# Override blocks of SubStation Alpha subtitles ("{\i1}", "{\pos(400,570)\fad(200,0)}"): codes, never words. One
# that turns italics, bold, underline or strike-out on or off alone is an element's tag, as BBCode's are: of the 200
# sentences above with "{\i1}...{\i0}" or "{\b1}...{\b0}" around words, their words chrF 48.05 as items, 54.72 so (plain: 54.59)
ASS_OVERRIDE = r"\{\\[^{}\n]*\}"
# A Markdown link's or image's end: its target (an URL, a path, an anchor, "<...>") and title in parentheses, or a
# reference link's label ("][install]", "][]"; never a definition's, "[install]: ./INSTALL.md"); and its start, where
# such an end follows its text, which may hold an image (a badge: "[![build](badge.svg)](https://ci.example)") and a
# footnote's reference
MARKDOWN_LINK_TARGET = r"\((?:<[^<>\n]*>|[^\s()<>]*)(?:[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\)))?\)"
MARKDOWN_LINK_CLOSE = rf"\]{MARKDOWN_LINK_TARGET}|\]\[[^\[\]\n]{{0,999}}\](?!\()"
# A footnote's reference ("[^1]", "[^explain-report-format]"): a label, kept as written where its sentence moves it
MARKDOWN_FOOTNOTE = r"\[\^[\w.*-]{1,99}\]"
MARKDOWN_LINK_OPEN = (rf"(?<![\w\\])!?\[(?=(?:[^\[\]]|!\[[^\[\]\n]{{0,999}}\]{MARKDOWN_LINK_TARGET}|{MARKDOWN_FOOTNOTE})"
                      rf"{{1,999}}(?:{MARKDOWN_LINK_CLOSE}))")
# Markdown's attribute lists: a heading's id and an element's classes ("## Install {#install}", "{.table-dark}",
# kramdown's "{: .note}", Pandoc's and Hugo's "{#id .class key=value}"); and the type of a GitHub alert or an Obsidian
# callout at a quotation's start ("> [!NOTE]", "> [!tip]-"). Read, the model translated them ("{#install}" came back as
# "{#installation}", breaking every link to the heading; "[!NOTE]" as "[!NEIT]", which GitHub shows as text): of the
# 101 Hugo pages above, 103 of 251 attribute lists and 88 of 117 alert types came back as written, now all
MARKDOWN_ATTRIBUTE = r"(?:#[\w.:-]+|\.[\w-]+|[\w-]+=(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s{}\"']+))"
MARKDOWN_ATTRIBUTES = rf"\{{(?::[ \t]*{MARKDOWN_ATTRIBUTE}|#[\w.:-]+|\.[\w-]+)(?:[ \t]+{MARKDOWN_ATTRIBUTE})*[ \t]*\}}"
MARKDOWN_ALERT = r"(?<![^\s>])\[![A-Za-z][\w-]*\][+-]?"
# An admonition's mark and type, its title is words: MkDocs' ("!!! note", "??? tip", "???+ warning inline end") and
# Docusaurus' (":::warning", ":::tip[Title]"). Read, "!!! note" came back as "!!! Notiz", ":::warning" as "::: Warnung"
# and "??? tip" lost its type: the site no longer sees an admonition.
MARKDOWN_ADMONITION = (r"(?m:^)[ \t]*(?:(?:!!!|\?\?\?\+?)[ \t]+[A-Za-z][\w-]*(?:[ \t]+inline(?:[ \t]+end)?)?"
                       r"|:::+[ \t]*[A-Za-z][\w-]*)")
# An MDX page's (Docusaurus') import and export statements, a line each: code ("import Tabs from '@theme/Tabs';" came
# back as "Reiter von '@theme/Tabs';", "export const" as "Exportiere Konstruktor")
MDX_STATEMENT = (r"(?m:^)(?:import[ \t]+(?:[\w*{}, \t]+[ \t]from[ \t]+)?(?:'[^'\n]*'|\"[^\"\n]*\");?"
                 r"|export[ \t]+(?:const|let|var|function|class|default)\b[^\n]*[;{}()])(?=[ \t]*(?:\r?\n|$))")
# TeX math in Markdown (KaTeX, MathJax; Jupyter's, Docsy's): "$$...$$" and "\[...\]" displayed, "$...$" and "\(...\)"
# inline. Read, "$$\sum_{i=1}^n x_i$$" came back as "$\sum_{i=1}^n x_i$$" (no longer math). An inline "$" opens before
# a character that is no space and closes after one, with no word or "$" outside and no tag inside: "$5 or $10",
# "$HOME/$USER", a shell's "$x" and "<b>$var</b> or <b>${var}</b>" are none, nor is text between a shell's or a
# debconf template's "${pkg}"s ("package ${pkg} bootstrapped ... /usr/share/doc/${pkg}/README.Debian" was one item).
MATH = (r"\$\$(?:[^$]|\$(?!\$)){1,1000}?\$\$"
        r"|(?<![\\$\w])\$(?=[^\s$])(?!\{\w+\})(?:(?!</?[A-Za-z][^<>\n]*>)[^$\n]){1,500}?(?<=[^\s$\\])\$(?![\w${])"
        # one glued to words, of a command, a script, a number or an operator alone: "coverage$\times$accuracy",
        # "m$^{2}$", "CO$_2$", "Fellowship$^\ddagger$", "sub-$30$B", "man$-$woman" (a paper's "$\times$" came back
        # without its "$"s, and LaTeX read the rest of the caption as text)
        r"|(?<![\\$])\$(?:\\[A-Za-z]+(?:\{[^{}$\n]{0,100}\})*|[\^_](?:\{[^{}$\n]{0,100}\}|\\[A-Za-z]+|\w)"
        r"|\d(?:[\d.,{}]{0,20}\d)?|[-+=<>|/])\$(?!\$)"
        # bounded: a "\[" never closed is scanned so far; any character one way ("(?:.|\n)" read a line break as
        # either, under DOTALL: 20 lines after a Markdown "\[" took 63 ms, each 2 more 4x, as Node.js's changelog has)
        r"|\\\([^\n]{1,500}?\\\)|\\\[(?s:.{1,1000}?)\\\]")
# An emoji's or icon's shortcode (GitHub's ":tada:", ":+1:"; MkDocs Material's ":material-link:",
# ":fontawesome-brands-windows:"): a name, which the model translated or lost (of MkDocs Material's 60 pages, 219 of
# 298 came back as written)
EMOJI_SHORTCODE = r"(?<![\w:]):(?:[a-z][a-z0-9_+]*(?:-[a-z0-9_+]+)*|[+-]1):(?![\w:])"
# reStructuredText's (Sphinx's) inline markup: a literal ("``r``": read, it came back as "`r`", which reST reads as
# another thing; two on a line lost their marks between them), a role (":class:`Response <requests.Response>`",
# ":ref:`installed <install>`"), a reference to a target, footnote or substitution by its name ("`Flask`_", "[1]_",
# "|version|", "requests-oauthlib_"): kept as written, the name must stay the target's. A hyperlink's text is words:
# its "`" and " <target>`_" are a link's tags, as a Markdown link's are, and may be wrapped over two lines; so may a
# literal ("``git commit\n--no-verify``": read, its marks were lost and "git commit" came back as "git Commit").
RST_LITERAL = r"``(?=\S)(?:[^`\n]|`(?!`)|\n(?![ \t]*(?:\n|$))){1,500}?(?<=\S)``(?!`)"
# and literals glued by escaped spaces to variables of one letter or number in emphasis, one word as reST renders it
# ("``+deb``\ *X*\ ``u``\ *Y*", "*123*\ ``@bugs.debian.org``", Debian's Developer's Reference): read, the model put
# an emphasis around a literal ("*``u``*", which reST renders as the marks themselves)
RST_VARIABLE = r"\*(?:[A-Za-z]|\d+)\*"
RST_GLUED = rf"(?:\\ (?:{RST_LITERAL}|{RST_VARIABLE}))"
RST_GLUED_LITERALS = rf"{RST_VARIABLE}\\ {RST_LITERAL}{RST_GLUED}*|{RST_LITERAL}{RST_GLUED}+"
RST_ROLE = r"(?<![\w`:]):(?:[A-Za-z][\w+.-]*:)?[A-Za-z][\w+.-]*:`[^`\n]{1,500}`(?!`)"
# A cross reference's own text, which Sphinx shows in the target's place (":doc:`request context </appcontext>`",
# ":ref:`installed <install>`"): words, translated as a link's text is (`shown_values`); a reference without one
# shows the target's title, and another role's text is code (":class:`Response <requests.Response>`")
RST_ROLE_TEXT = re.compile(r"(?::std)?:(?:ref|doc|term):`([^`<>\n]*[^\s`<>])\s+<[^<>`\n]+>`")
RST_REFERENCE = (r"(?<![\w`])`[^`<>\n]{1,200}`__?(?!\w)|(?<![\w\]])\[(?:\d+|#[\w-]*|\*|[A-Za-z][\w.-]*)\]_(?!\w)"
                 # a substitution's ("|fetch|_"), a name's ("requests-oauthlib_")
                 r"|(?<=[ \t(])\|[A-Za-z0-9](?:[^|\n]{0,58}[^\s|])?\|(?:__?)?(?![\w|])"
                 r"|(?<![\w`|.+-])[A-Za-z0-9](?:[\w.+-]{0,98}[A-Za-z0-9])?__?(?![\w+-])")
RST_FIELD = (r"(?m:^)[ \t]*(?::(?:rtype|(?:kw|var)?type[ \t]+[^:\n`]{1,100}):[^\n]*"
             r"|:[a-z][\w.-]*(?:[ \t]+[^:\n`\s][^:\n`]{0,99})?:(?=[ \t]|\n|$))")
# A reStructuredText directive's marker and name (".. note::", ".. versionadded::", ".. |logo| image::"), with the
# rest of its line where that is no text (".. code-block:: bash", ".. image:: https://..."), and a hyperlink target's
# line (".. _Jansson: http://..."): read, the model wrote them as words (".. Bild:", "..C-block: Bash": of 67 such lines
# in 40 texts of installed documentation and docstrings, 39). An admonition's or a version note's text is translated.
RST_TEXT_DIRECTIVES = ("note|warning|tip|hint|important|caution|danger|attention|error|admonition|seealso|deprecated|"
                       "versionadded|versionchanged|versionremoved|topic|rubric|sidebar")
RST_DIRECTIVE = (rf"(?m:^)[ \t]*\.\.[ \t]+(?:\|[^|\n]+\|[ \t]+)?(?:(?:{RST_TEXT_DIRECTIVES})::"
                 r"|[A-Za-z][\w:+-]*::[^\n]*|_[^:\n]+:[^\n]*)")
# A Python traceback as Python prints it: its heading, each frame's file and line ("  File "app.py", line 12, in
# <module>") with up to four lines of its code, and the exception's line ('ValueError: invalid literal for int() with
# base 10: 'abc''); a doctest's ("  ..." for its frames). A program's output, which a bug report quotes: read, the
# model translated it ("Rückruf (jüngstes Aufruf zuletzt):", "Datei "app.py", Zeile 12", the code line "return
# _run_code(code, main_globals, None," as "Rückgabe _run_code(code, main_globals, Keine,"). One item, as written; the
# corpus has none.
TRACEBACK = (r"(?m:^)Traceback \(most recent call last\):"
             r"(?:\n  (?:File \"[^\"\n]{1,1000}\", line \d+[^\n]*|\.\.\.[ \t]*)(?:\n {4}[^\n]*){0,4})*"
             r"(?:\n[A-Za-z_][\w.]{0,200}(?=:|\n|$)[^\n]*)?")
# And a stack trace of Java, .NET or JavaScript: the exception's line ('Exception in thread "main"
# java.lang.NullPointerException', "Unhandled exception. System.IO.IOException: ...", "TypeError: x is undefined")
# and its frames ("\tat com.example.App.main(App.java:42)", "   at App.Run() in C:\src\App.cs:line 7", "    at
# /app/index.js:3:7"), causes and elisions ("Caused by: ...", "... 5 more"). Read, a support e-mail's came back as
# "Ausnahme im Thread "main" ...", "bei com.example.App.main(App.java:42)".
STACK_TRACE = (r"(?m:^)[ \t]*(?:Exception in thread \"[^\"\n]{0,200}\" |Unhandled [Ee]xception\. )?"
               r"(?:(?:[A-Za-z_][\w$]*\.)+[A-Z][\w$]*|[A-Z][\w$]*(?:Exception|Error))(?::[^\n]*)?"
               r"(?:\n[ \t]+at (?:(?:new |async )?[^\s()]+ \([^()\n]*(?::\d|<anonymous>|native)[^()\n]*\)"
               r"|[^\s()]+\([^()\n]*\)|[^\s()]+:\d+:\d+)[^\n]{0,300}"
               r"|\n[ \t]*(?:Caused by|Suppressed): [^\n]*|\n[ \t]*\.\.\. \d+ (?:more|common frames omitted))+")
# A program's log line: from a timestamp at a line's start (ISO 8601's date and time, "[" around it or not) with a
# level in capitals ("2024-05-01 12:00:03,114 ERROR [main] Connection refused"), or syslog's ("Dec  3 14:02:11 host
# sshd[1234]: Failed password ..."), to the line's end. A bug report quotes it as the program wrote it; read, its level
# and fields were translated ("ERROR [main]" came back as "FEHLER [Min]", "[worker-2]" as "[Zertifikat:2]", "host" as
# "Host"). Not a line that starts with a date alone ("2024-05-01 12:00 Meeting"), which is text. The corpus has none.
LOG_LINE = (r"(?m:^)[ \t]*(?:\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?"
            r"(?=[^\n]{0,100}?\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|CRITICAL|FATAL|SEVERE)\b)"
            r"|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d{2}:\d{2}:\d{2} [\w.-]{1,100} "
            r"[\w./-]{1,100}(?:\[\d{1,10}\])?:)[^\n]*")
# What a docstring's parameter's type starts with: a code span, a type's name ("int", "str, optional", "Tensor or
# sequence of Tensor", "List[Node]", a tuple's "(float, float)"), a dotted or camel-cased name ("torch.Tensor",
# "CoordSys3D"), a bracket
DOCSTRING_TYPE = (r"(?=`|\[|[^()\n]*\boptional\b|[A-Za-z_]\w*\.[A-Za-z_]|[A-Z][a-z]+[A-Z]|[A-Z]\w*\["
                  r"|\(?(?:int|float|str|bool|bytes|dict|list|tuple|set|callable|function|object|Any|iterable|sequence"
                  r"|array(?:_like)?|ndarray|tensor|number|string|integer|boolean)\b"
                  r"|(?:[A-Z][a-z]+|complex|double)(?=\)|,| or |\n))")
DOCSTRING_NAME = r"(?:\*{1,2}|(?=[a-z_]))\w{1,100}"  # "q", "max_iter", "**kwargs"; not "Traceback (most recent ...):"
# A docstring's parameter with its type at a line's start, Google's style ("    q (`torch.Tensor`): The query
# tensor.", "func (function): A Python function.") and numpy's ("max_iter : int, optional", a line of its own before
# its indented description): code that Sphinx matches to the signature. Read, the model translated the name or the
# type ("func (function)" came back as "lustig (Funktion)", "q (torch.Tensor)" as "q (Fackel)", "shape : tuple" as
# "Form : Tupel"): in 1,500 docstrings of this machine's Python packages, 341 of 1,620 such names in Google's style
# and 100 of 245 in numpy's. No text of the corpus, the documentation paragraphs or the Markdown pages has one; one
# item, as written, the description after it translated.
DOCSTRING_PARAMETER = (rf"(?m:^)[ \t]*{DOCSTRING_NAME}"
                       rf"(?:[ \t]?\({DOCSTRING_TYPE}(?:[^()\n]|\([^()\n]{{0,100}}\)){{1,200}}\):(?=[ \t]|\n|$)"
                       r"|(?:[ \t]*,[ \t]*\*{0,2}[a-z_]\w{0,100}){0,10}"
                       rf"[ \t]+:[ \t]+{DOCSTRING_TYPE}[^\n]{{1,200}}(?=\n[ \t]+\S))")
# From a run of spaces' start only: tried at each of its spaces, a search scanned the run to its end every time
# (32,768 characters of " \t" took 1.8 s)
RST_LINK_CLOSE = r"(?<![ \t\n])[ \t\n]+<[^<>`\n]{1,999}>`__?(?!\w)"
RST_LINK_OPEN = rf"(?<![\w`])`(?=[^`<>]{{1,999}}?{RST_LINK_CLOSE})"
# A macro's name is at most 40 characters and its target 1,000 (the longest of git's and Asciidoctor's docs have 11
# and 104): unbounded, a search tried at every start in a long word scanned to its end ("a:!" * 11,000 took 2.2 s,
# "a-" * 16,384 2.9 s).
ASCIIDOC_NAME, ASCIIDOC_TARGET_LENGTH = r"[a-z][\w-]{0,39}", "{1,1000}"
# AsciiDoc's (Asciidoctor's) inline markup. Read, the model changed or dropped it: of 45 of git's manual pages and 28
# of Asciidoctor's, a manual page's reference ("linkgit:git-log[1]") came back whole in 181 of 308, a cross reference
# ("<<reviewing,Responding to Reviews>>") in 13 of 24, its ">>" lost. A link, a cross reference, a footnote and a
# button are an item each, their text translated (`shown_values`); any other macro ("kbd:[Ctrl+T]",
# "image:logo.png[Logo]", "pass:[<u>]"; with no target, only Asciidoctor's: "dependencies:[^2]" is Markdown's footnote),
# an anchor ("[[install]]", "[[[bib]]]"), an index term ("(((Git, stash)))") and a passthrough ("+{not-an-attribute}+",
# "++<b>++") are kept as written.
ASCIIDOC_LINK = (rf"(?:(?<![\w:\\])(?:(?:link|xref|mailto):[^\s\[\]]{ASCIIDOC_TARGET_LENGTH}|(?:footnote|btn):[\w-]*)"
                 rf"|(?:https?|ftp|irc)://[^\s\[\]<>\"'`]{ASCIIDOC_TARGET_LENGTH})\[(?:[^\[\]\n\\]|\\.){{0,500}}\]"
                 r"|<<[\w:#./-]+(?:,[^<>\n]{1,200})?>>")
ASCIIDOC_LINK_TEXT = re.compile(r"[^\[]*\[(.*?)\^?\]|<<[^,]*,(.*)>>", re.DOTALL)
ASCIIDOC_MARKUP = (rf"(?<![\w:\\])(?:{ASCIIDOC_NAME}:(?!//)[^\s\[\]]{ASCIIDOC_TARGET_LENGTH}"
                   r"|(?:kbd|pass|stem|latexmath|asciimath|indexterm2?):)\[(?:[^\[\]\n\\]|\\.){0,500}\]"
                   r"|\[\[\[?[\w:.-]+(?:,[^\[\]\n]{0,200})?\]\]\]?|\({3}[^()\n]{1,200}\){3}"
                   r"|\+\+\+[^\n]{1,500}?\+\+\+|(?<![\w+\\])\+\+(?=\S)[^\n]{1,500}?(?<=\S)\+\+(?![\w+])"
                   r"|(?<![\w+\\])\+(?=[^\s+])[^+\n]{1,200}?(?<=[^\s+\\])\+(?![\w+])")
# An item alone that is a link's tag (a lone "`" is one only where take_out_tags pairs it with an end: GNU's `quotes'
# stay one item with what they quote)
MARKDOWN_LINK_TAG = re.compile(rf"(!?\[|`)|{MARKDOWN_LINK_CLOSE}|{RST_LINK_CLOSE}")
LINK_TAG_APART = rf"!?\[|{MARKDOWN_LINK_CLOSE}|{RST_LINK_CLOSE}"
LINK_TITLE = re.compile(r"[ \t]+(?:\"([^\"\n]*)\"|'([^'\n]*)')\)\Z")
ASS_TOGGLE = re.compile(r"\{\\([ibus])([01])\}")
MARKS_IN_ANGLE_BRACKETS = r"(?:<|&lt;)[^\w\s<>&;]{1,3}(?:>|&gt;)"  # a placeholder: LibreOffice Math's "<?>"
# (not words alone, "A", "I"; and from a run's first letter only: from each, "A A A ..." was searched to its end)
LETTER_RUN = r"(?<![\w.'’-])(?<!(?<![\w.'’-])[A-Z] )(?=(?:[AI] )*[B-HJ-Z]\b)[A-Z](?: [A-Z])+(?![\w'’-])"
# A key combination ("Ctrl+Shift+P", "Alt+F4", "Ctrl-C", "Shift+Ctrl+Space"): modifiers joined by "+" or "-" to a key.
# Read, the model lost and repeated keys: of the 58 held-out software messages with one, "Ctrl+Shift+Alt+M" came back
# as "Strg+Alt+M", "Ctrl+Shift+N" as "Strg+N", "Ctrl+Alt+?" as "Strg+Alt+Alt+?", "Ctrl+Shift+S" as "Statistik+Shift+S".
# A key of one mark is not a tag's "<" (LibreOffice's help writes 'Shift+<span class="switchinline">...', whose tag,
# its "<" taken for the key, reached the model as words: '<spann-ID="..." Klasse="switchinline">'), and it may be a
# character reference ("Ctrl+&lt;" came back as "Strg+&lt drücken;")
MODIFIER_KEY = r"(?:Ctrl|Control|Strg|Shift|Alt|AltGr|Cmd|Command|Meta|Super|Win|Option|Opt|Fn|Hyper)"
NAMED_KEY = (r"(?:F\d{1,2}|Enter|Return|Space|Tab|Esc|Escape|Delete|Del|Backspace|Insert|Ins|Home|End|PgUp|PgDn|PageUp"
             r"|PageDown|Up|Down|Left|Right|Plus|Minus|Print|Pause|Menu|CapsLock|NumLock|ScrollLock|PrtSc|PrintScreen"
             r"|SysRq|Caps Lock|Num Lock|Scroll Lock)")
# And modifiers alone joined by "+", as a keyboard's options name a layout's switch ("Control+Shift" came back as
# "Kontroll+Verschieben", "Alt+Caps Lock" as "Alt+Caps-Lock"; keyboard-configuration's German: "Strg+Umschalttaste")
KEY_COMBINATION = (rf"(?<![\w+-])(?i:(?:{MODIFIER_KEY} ?[+-] ?)+(?:{NAMED_KEY}|[a-z0-9])(?!\w)"
                   rf"|(?:{MODIFIER_KEY} ?\+ ?)+(?:{MODIFIER_KEY}(?![\w+-])|(?!{TAG_PATTERN})(?:{REFERENCE}|[^\w\s])))")
# Keys in Python Markdown's (MkDocs Material's) syntax, "++ctrl+alt+del++", which the extension names and draws: kept
# as written (read, "Press ++ctrl+alt+del++ to restart." came back as "Drücken Sie +ctrl+alt+del++Abschalten ...")
MARKDOWN_KEYS = r"(?<!\+)\+\+[\w-]{1,40}(?:\+[\w-]{1,40}){0,9}\+\+(?!\+)"
KEY_COMBINATION_ITEM = re.compile(KEY_COMBINATION)
# Elements of one key: HTML's <kbd>, Mallard's <key> (GNOME's help) and DocBook's <keycap>
KEY_ELEMENTS = ("kbd", "key", "keycap")
KEY_ELEMENT = "|".join(rf"<{name}\b[^<>]*>(?:[^\s<>]|(?i:{NAMED_KEY}|{MODIFIER_KEY}))</{name}>"
                       for name in KEY_ELEMENTS)
KEY_ELEMENT_NAMED = re.compile(rf"<({'|'.join(KEY_ELEMENTS)})\b[^<>]*>([A-Za-z]+)</\1>")
# A key's name on German keyboards, as German manuals write a key alone: GNOME's help, of its <key> elements, "Shift"
# as "Umschalttaste" 23 of 23 times, "Enter" as "Eingabetaste" 21 of 21, "Tab" as "Tabulator" 6 of 10, "Delete" as
# "Entf", "Space" as "Leertaste", "Print" as "Druck"; LibreOffice's help "Enter" as "Eingabetaste" 204 times, "Tab"
# as "Tabulator" 99 and "Tab" 14. A key in a combination, "Shift+F10", catalogs keep, but "Ctrl" (`german_key_names`).
GERMAN_KEYS = {"ctrl": "Strg", "control": "Strg", "shift": "Umschalttaste", "enter": "Eingabetaste",
               "return": "Eingabetaste", "tab": "Tabulator", "delete": "Entf", "del": "Entf", "space": "Leertaste",
               "insert": "Einfg", "ins": "Einfg", "home": "Pos1", "end": "Ende", "pageup": "Bild↑", "pgup": "Bild↑",
               "pagedown": "Bild↓", "pgdn": "Bild↓", "print": "Druck"}
# A key of one mark after the verb that presses it, before what it does or the sentence's end ("Press ? to see all
# shortcuts.", "Press / to search."), or "A" or "I", which are words too: read, the model lost it or wrote it as a word
# ("Drücken Sie alle Tastenkombinationen.", "Drücken Sie/Abrufen.", "Press A to attack." as "Drücken Sie eine eine
# Angriffe."); kept as written. Not "press a key", an article's; not another capital, which the model kept (as items,
# "Press B to break path" lost words: the 5 held-out and training texts with one, chrF 44.42 -> 38.24), nor "%"
# ("increase the cache hit %").
PRESSED_KEY = (r"(?:(?<=\b[Pp]ress )|(?<=\b[Hh]it ))(?:[^\w\s\"'“‘(\[{<%]|[AI])"
               r"(?=[ \xa0](?:to|or|and|for|then|again|twice|once|key|button|on|in|at)\b|[.,;!]?$|[.,;!]\s)")
# The keys a combination names as German keyboards and catalogs do (`german_key_names`): "Ctrl", and "Caps Lock", which
# the installed catalogs and debconf templates write "Feststelltaste" in 6 of 6 ("Alt+Caps Lock": "Alt+Feststelltaste")
GERMAN_COMBINATION_KEYS = {"ctrl": "Strg", "control": "Strg", "capslock": "Feststelltaste"}
COMBINATION_KEY = re.compile(r"(?<!\w)(?i:ctrl|control|caps ?lock)(?!\w)")  # (any of a combination's, the last too)
CODE_SPAN_CHARACTER = r"[^`'\n]|(?<!\w)'[^`'\n]*'(?!\w)|'(?![\s,.;:!?)])"
# Code spans, not GNU-style `quotes': an apostrophe inside only where no space or punctuation follows it ("`@import
# 'td/code-dark'`" lost its backticks, "`foo' and `bar'" are two quotations), or around a quoted string after a
# space or mark ("`@import 'td/main';`" and "`grep -rn 'BS mirror:' theme/`" lost theirs); not reStructuredText's
# references, "`Flask`_". One that a paragraph wraps ("`git\nbisect start`", in 29 of git's manual pages), where
# it opens and closes beside no word or backtick: read, its words were the model's ("`git\nbisect`" came back as
# "`git\nHalbierung`"); a stray backtick pairs with none on a later line ("_`DIR`_ is\n`themes/docsy`").
CODE_SPAN = (rf"`(?>{CODE_SPAN_CHARACTER})++`(?!_)"
             rf"|(?<![\w`])`(?=[^\s`])(?>{CODE_SPAN_CHARACTER}|\n(?![ \t]*(?:\n|$)))++(?<=\S)`(?![\w`])")
TYPE_NAME = r"[A-Za-z_$][\w.$]*(?:<[^{}<>\n]{1,200}>)?(?:\\?\[\\?\])*"  # "string", "Array<string>", "string\[]"
# A date's format: two or three fields of a year, a month or a day, a mark between them, and a time's after a space
# or ISO 8601's "T"; or a time's alone. Not a field of one letter ("M/D/YYYY"): "M.D." is a doctor.
DATE_FIELD = r"(?:Y{4}|Y{2}|M{2}|D{2})"
DATE_FIELDS = re.compile(rf"(?i:{DATE_FIELD}(?:[/.-]{DATE_FIELD}){{1,2}})")
TIME_FIELDS = r"H{1,2}:M{2}(?::S{2})?"
DATE_FORMAT = (rf"(?<![\w/.:%-])(?i:{DATE_FIELDS.pattern}(?:[ T]{TIME_FIELDS})?|{TIME_FIELDS})"
               r"(?![\w/]|[.:-]\w)")
DATE_FORMAT_ITEM = re.compile(DATE_FORMAT)
ZONED_TIME = r"\d{2}:\d{2}(?::\d{2})? (?:[+-]\d{4}|GMT|UTC?|[ECMP][SD]T|Z)(?![\w:])"  # RFC 5322's, "10:00:00 GMT"
CHANGELOG_ENTRY = "|".join(rf"(?<=(?m:^){' ' * indent}[-*+] )" for indent in (0, 2, 4))  # a list item's start
# Words that open a sentence: after a full stop with no space ("the file.Please try again") they tell a missing space
# from a dotted name's capitalized part ("io.Writer"). Of the corpus's 371 such dots, 34 join two sentences, and these
# words open 27 of them ("device.This", "saved.Please", "time.Otherwise"; not "jobs.Idle", "failed.Deleting")
SENTENCE_OPENER = (r"(?:A|An|The|This|That|These|Those|There|Then|It|Its|I|We|You|Your|He|She|They|If|In|On|At|As|To"
                   r"|For|From|By|With|When|While|Where|What|Which|Who|Why|How|After|Before|Also|And|But|Or|So"
                   r"|Otherwise|However|Therefore|Thus|Hence|Furthermore|Moreover|Instead|Finally|Perhaps|Please"
                   r"|Do|Does|Is|Are|Was|Were|Can|Could|Would|Should|Will|Must|May|No|Not|Now|Only|Note|See|Try|Use"
                   r"|Check|Click|Select|Choose|Specify|Enter|Press|Make|Each|Every|All|Some)(?![\w-])")
DOI_PREFIX = r"10\.\d{4,9}/"  # a DOI's start: the directory's "10." and its registrant's number
DOI_LABEL = r"(?i:doi):[ \t]?"  # "doi:" or "DOI: " before one
# A call's argument (`PLACEHOLDERS`): a name, dotted or not, a number or a string without spaces, by keyword or not;
# not a placeholder's token
CALL_VALUE = r"[A-Za-z_]\w*+(?:\.[A-Za-z_]\w*+)*+|\d++(?:\.\d+)?|'[^'\s]*+'|\"[^\"\s]*+\""
CALL_ARGUMENT = rf"(?!XX\d+X\b)(?:[A-Za-z_]\w*+=)?(?:{CALL_VALUE})"
# and a lone one opens with a small letter, a digit or a quote, is by keyword, a constant or a name in CamelCase
CALL_ONE_ARGUMENT = rf"(?=[a-z_\d'\"]|\w+=|(?:None|True|False)\)|[A-Z][A-Z\d_]*+[a-z][a-z\d_]*+[A-Z]){CALL_ARGUMENT}"
# A number in small Roman numerals ("iv"; `LIST_MARKER`, `ENUMERATOR_ITEM`)
ROMAN = r"(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})"
# roff's escapes that open a font but roman ("\fB", "\fI", "\f(CW", "\f[CB]") and that return to roman ("\fR",
# "\fP", "\f[]"): what the items below and the batch jobs' manual pages (service.roff) take for a font span
ROFF_FONT_OPENING = r"\\f(?:[BI2-9]|\(\w\w|\[\w+\])"
ROFF_FONT_CLOSING = r"\\f(?:[RP1]|\[R?\])"
# A Windows path from a drive or from an environment variable ("%APPDATA%\My App\logs"). A directory's name may
# hold spaces, up to three, and a word in parentheses, where a backslash follows it: "C:\Program Files\App" came back
# as "C:\Program\Anwendungen", "C:\Program Files (x86)\Steam" as "C:\Program Dateien installiert (x86)\Steam",
# "%APPDATA%\My Company\logs" as "%APPDATA%\My Kompany\logs"
WINDOWS_PATH = (rf"(?<![\w\\%])(?:[A-Za-z]:|%[A-Za-z_]\w*%)\\"
                rf"(?:{PATH_NAME}(?: (?:{PATH_NAME}|\({PATH_NAME}\))){{0,3}}\\)*(?:{PATH_NAME})?")
# Microsoft's system: "Windows" after "Microsoft", "MS" or "X" (the X Window System's old name), or with a capital
# after a word ending in a small letter or a digit, a comma or a parenthesis and before no capitalized word (in a title
# "Resize Windows Quickly" it may be windows). Read, the model wrote a window ("for 32-bit Windows applications" came
# back as "für 32-Bit-Fenster-Anwendungen", "the Microsoft Windows platform" as "der Microsoft-Fenster", "an X Windows
# interface" as "eine X-Fenster-Schnittstelle": 16 of the 35 in two samples of 1,500 package descriptions and 1,770
# catalog messages; 14 of them are such). Not where it opens a sentence. A name (`is_name`): "Windows-Anwendungen".
WINDOWS_NAME = (r"(?:(?<=Microsoft\s)|(?<=\bMS\s)|(?<=\bX\s))Windows(?![\w'’])"
                r"|(?<=[a-z0-9,;(]\s)Windows(?![\w'’])(?!\s+[A-Z])")
# A name with two underscores on either side (Python's "__doc__", "__init_subclass__", C's "__VA_ARGS__"): read, the
# model changed it ("__path__" came back as "__paths__", "__doc__" as "__Dokument__"; 53 of the 143 in 4,015
# paragraphs of this machine's Python docstrings). Not a capitalized word nor a word of emphasis, which Markdown's
# strong emphasis spells so ("__Zstandard__ is fast", "it is __not__ a good idea", which the model wrote "__nicht__")
DUNDER_NAME = (r"(?<![\w.])__(?!(?:not|never|always|only|very|must|no|cannot|important|required|optional|before|after"
               r"|exactly)__)(?:[a-z][a-z0-9]*|[A-Z][A-Z0-9]*)(?:_[A-Za-z0-9]+)*__")
DUNDER = re.compile(DUNDER_NAME)
PLACEHOLDERS = (
    FRONT_MATTER,
    FENCED_CODE,
    RST_GLUED_LITERALS,
    RST_LITERAL,
    RST_ROLE,
    CODE_SPAN,
    # A key of one character in an HTML <kbd> ("Press <kbd>S</kbd> or <kbd>/</kbd> to search"): its tags, put back by
    # alignment, came around another word and the key was lost ("Drücken Sie drücken <kbd>oder</kbd> <kbd>/</kbd>",
    # on each of the 5 pages of the Rust book's HTML read); one item, as written, and so is a named key, which
    # catalogs keep and the model broke ("<kbd>Enter</kbd>" came back as "<kbd>Entter</kbd>", "<kbd>Shift</kbd>" put
    # around another word), in its German name ("Strg", "Eingabetaste": `german_key_names`). So in GNOME's help,
    # whose "<keyseq><key>Ctrl</key><key>H</key></keyseq>" came back with "<key>Hals</key>"
    KEY_ELEMENT,
    # And a command as DocBook's web pages show it, in small letters ('<span class="command"><strong>debuild</strong>
    # </span>'): the Debian New Maintainers' Guide's, the Debian FAQ's and the Ubuntu packaging guide's German keeps
    # 335 of 345, and read, 145 came back changed ("Debuild", "ld" as "LD", "aptitude" as "einen", "cowbuilder" as
    # "Kuhbuilder"). Not one from a capital, a menu's command in GIMP's help ("Save"), which German translates
    r'<span\b[^<>]*\bclass="command"[^<>]*>(?:<strong>[a-z][^<>]*</strong>|[a-z][^<>]*)</span\s*>',
    # An empty anchor or icon ('<a id="1.95-Rustdoc"></a>', '<i class="fa fa-star"></i>', 659 of the former and 41 of
    # the others in this session's Markdown pages): its tags, put back by alignment around no word, went into a link
    # beside it ("...`<a id="1.95-Rustdoc">](https://...)</a>", in Rust's release notes); one item, as written
    r"<(a|span|i)\b[^<>]*></\1\s*>",
    TRACEBACK,
    STACK_TRACE,
    LOG_LINE,
    # Marks in angle brackets, a placeholder, with the word glued to it (LibreOffice Math's "<?>": "<?>csub<?>",
    # "neg<?>", "<?>lsup{<?>}", "exp(<?>)", in its help "&lt;?&gt;", tried before references): read as characters,
    # "You can also type <?>csub<?> in the Commands window." came back as "Sie können auch eingeben?>KSub<?> ...",
    # "prod <?>" as "eingeben?>"
    rf"(?<![\w{{}}^])(?:\w+\({MARKS_IN_ANGLE_BRACKETS}\)"
    rf"|[\w{{}}^]*(?:{MARKS_IN_ANGLE_BRACKETS}[\w{{}}^]*)+)",
    # A tag or a usage line's placeholder written as text, in references ("press &lt;q&gt; to leave the pager", "the
    # HTML tag &lt;OPTION&gt;"): what a plain text's "<q>" is, an item. Read as characters, the model dropped it
    # (Debian Edu's manual: "<return> drücken, ... um den Seitenr zu lassen")
    r"&lt;/?[A-Za-z][\w.:-]*(?:\s(?:(?!&[lg]t;)[^<>\n]){0,200})?&gt;",
    MATH,
    # Single capital letters, two or more between spaces: a list of letters (axes and parameters, LinuxCNC's G-code
    # reference: "I J K or R P" came back as "Ich J K oder R", "P L" as "PL"), kept as written
    LETTER_RUN,
    MARKDOWN_KEYS,
    KEY_COMBINATION,
    PRESSED_KEY,
    BBCODE_TAG,
    ASS_OVERRIDE,
    ASCIIDOC_LINK,
    ASCIIDOC_MARKUP,
    # A wiki's link to a page by its name ("[[Main Page]]", "[[Help:Contents]]"): read, the model translated the name,
    # which then links to no page, and lost a bracket ("[[Main Page]] was edited." came back as "[[Main Seite] wurde
    # bearbeitet."); one item, as written. Not one with a link's text after "|", whose words are read, nor a shell's
    # test ("[[ -f file ]]"), nor a Markdown link whose text is in brackets ("[[^1]](#notes)": its target was read)
    r"\[\[(?=[^\s\[\]^])[^\[\]|\n]{1,200}(?<=\S)\]\](?![\]\(])",
    # A URL or a DOI in angle brackets, the brackets included ("<https://example.org/a>", RFC 1738's "<URL:http://...>",
    # "<doi:10.1002/sim.6016>"): around the URL's item alone, the model dropped them ("models <doi:10.1002/sim.6016>,
    # and" came back as "... und doi:10.1002/sim.6016 ..."; 2 of 97 package descriptions with one)
    rf"<(?:URL:)?(?:(?:https?|ftp|file)://|{DOI_LABEL}{DOI_PREFIX})[^\s<>]*>",
    # URLs of any scheme ("git://", "svn+ssh://", "smb://", Godot's resource paths "res://icon.png"; before, only
    # http(s), ftp and file: "git://github.com/x.git" came back as "git://git.com/x.git"), without trailing
    # punctuation, brackets only around an IPv6 host ("http://[::1]:8080/")
    r"(?<![\w+.-])[A-Za-z][\w+.-]{0,20}://(?:\[[0-9A-Fa-f:.]+\])?(?:[^\s<>\"'`\[\]]*[^\s<>\"'`.,;:!?)\[\]])?(?<!//)",
    # and one without its scheme, a host's name with a path: from "www." ("www.example.org/files" came back as
    # "www.example.org/Dateien"), a Go module's, a container image's ("ghcr.io/owner/app:latest" reached the model
    # as "XX0X/owner/app:latest"), a link as people write it ("docs.rs/serde")
    r"(?<![\w.@/:-])(?:www\.[\w-]+(?:\.[\w-]+)+|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*"
    r"\.[a-z]{2,24}(?::\d{1,5})?)/(?:[^\s<>\"'`\[\]]*[^\s<>\"'`.,;:!?)\[\]])?",
    # A URN or an Amazon resource name ("urn:ietf:params:oauth:grant-type:jwt-bearer" came back as "Urn:ietf:...",
    # "arn:aws:iam::123456789012:user/alice" lost a colon)
    r"(?<![\w:.-])(?:urn|arn):[a-z0-9][\w.-]*:[^\s<>\"'`]*[^\s<>\"'`.,;:!?)\]]",
    # A media type ("application/x-www-form-urlencoded" came back as "Anwendung/x-www-form-urlencoded",
    # "application/json" as "Anwendung/json") and an HTTP header's name of several words ("Content-Type" came back as
    # "Inhalts-Type"): names a program reads. Not a type's words alone ("audio/video")
    r"(?<![\w/.-])(?:application|text|image|audio|video|multipart|font)/(?:\*|[a-z0-9]+[.+-][\w.+-]*[\w+]|json|xml"
    r"|html|plain|css|javascript|csv|pdf|zip|gzip|png|jpeg|gif|webp|mpeg|mp4|ogg|webm|wav|calendar|markdown|rtf|tiff"
    r"|avif|bmp|woff2?|ttf|otf|mixed|alternative|related)(?:; ?[a-z-]+=[\w.-]*[\w-])*(?![\w/-]|\.\w)"
    r"|(?<![\w-])(?:Content-(?:Type|Length|Encoding|Disposition|Language|Security-Policy|Range)"
    r"|Accept-(?:Language|Encoding|Ranges|Charset)|Cache-Control|User-Agent|Set-Cookie|Last-Modified"
    r"|If-(?:None-Match|Match|Modified-Since|Unmodified-Since)|Transfer-Encoding"
    r"|Access-Control-[A-Z][a-z]+(?:-[A-Z][a-z]+)*"
    r"|Strict-Transport-Security|WWW-Authenticate|Retry-After|Referrer-Policy|X-[A-Z][A-Za-z]*(?:-[A-Z][A-Za-z]*)+)"
    # with a value that is not a word ("Cache-Control: no-cache"; "Content-Type: application/json" came back as
    # "Content-Type festlegen: application/json")
    r"(?:: (?=[\w.]*[-/=*+\d])[\w*/+=-]+(?:(?:[.;]|; )[\w*/+=-]+)*)?(?![\w-])"
    # and an HTTP status with its reason, which programs and manuals print in English ("404 Not Found" came back as
    # "404 nicht")
    r"|(?<![\w.-])[1-5]\d\d (?:OK|Created|Accepted|No Content|Moved Permanently|Found|Not Modified|Bad Request"
    r"|Unauthorized|Forbidden|Not Found|Method Not Allowed|Conflict|Gone|Too Many Requests|Internal Server Error"
    r"|Bad Gateway|Service Unavailable|Gateway Timeout)(?![\w-])",
    # A DOI or an arXiv identifier, which R packages' and papers' references cite ("<doi:10.1080/01621459.1975.1048>",
    # "10.1000/182", "arXiv:1805.01407v2"): read, its numbers were written as German decimals ("<doi:10.18637/jss.v005>"
    # came back as "<doi:10,18637/jss.v005>") or the identifier cut ("arXiv:1805.01407" reached the model as "XX0X:"
    # and a number). In the 85 paragraphs of Debian's package descriptions with one, 35 of 138 were kept, now all
    rf"(?<![\w./-])(?:{DOI_LABEL})?{DOI_PREFIX}[^\s<>\"]*[\w/]"
    r"|(?<![\w.-])(?i:arxiv):\d{4}\.\d{4,5}(?:v\d+)?(?!\w|\.\d)",
    # The local host's name, with a port or not: read, the model lost it or made it German ("The server runs on
    # localhost." came back as "... auf dem lokalenhost.", "Open localhost:8080" as "Lokalhost:8080 öffnen", "Connect
    # to localhost on port 22." as "Mit dem Port 22 verbinden."); catalogs keep it.
    r"(?<![\w.-])(?i:localhost)(?::\d{1,5})?(?![\w-]|\.\w)",
    # A Markdown link's or image's brackets: the "[" ("![") that opens its text, and what closes it, "](target)" or a
    # reference link's "][label]" (`MARKDOWN_LINK_CLOSE`). Read, the model translated an anchor ("[Configuration]
    # (#configuration)" came back as "[Konfiguration](#Konfiguration)") and a label ("[installation guide][install]"
    # as "[Installationsführer][installation][installation]"), and lost brackets: of 1,064 links of 101 Hugo pages
    # (Docsy's site and LoveIt's examples), 31 came back broken ("[Navigation und U#navigation-and-ux)", "überspringen
    # /docs/."). As items they are an element's tags where tags may leave the sentence (`link_elements`), put back
    # around the words the alignments say, as an HTML link's are; a title's words are translated (`shown_values`).
    MARKDOWN_ALERT,
    MARKDOWN_LINK_OPEN,
    MARKDOWN_LINK_CLOSE,
    RST_REFERENCE,
    # A reStructuredText field's name in small letters at a line's start, with its argument (a docstring's ":param
    # url:", ":raises ValueError:", ":returns:"), and a type field's whole line (":rtype: requests.Response", ":type
    # url: str"): Sphinx matches the names to the signature and reads the types. Read, ":param data:" came back as
    # ":param Daten:", ":param out:" as ":param:", ":rtype: requests.Response" as ":rtype: Anfragen.Antwort" (of 253
    # such names in 12 of this machine's reST pages, 9 changed, and 9 of 9 type fields). A capitalized one is a
    # document's own field, its name words (":Issue tracker:")
    RST_FIELD,
    RST_DIRECTIVE,
    DOCSTRING_PARAMETER,
    RST_LINK_OPEN,
    RST_LINK_CLOSE,
    MARKDOWN_FOOTNOTE,
    MARKDOWN_ATTRIBUTES,
    MARKDOWN_ADMONITION,
    MDX_STATEMENT,
    EMOJI_SHORTCODE,
    r"(?m:^)[ ]{0,3}\[[^\[\]\n]{1,999}\]:[ \t]*(?:<[^<>\n]*>|[^\s<>]+)"
    r"(?=[ \t]*(?:\r?\n|$)|[ \t]+(?:\"[^\"\n]*\"|'[^'\n]*'|\([^()\n]*\))[ \t]*(?:\r?\n|$))",
    JSON_KEY,
    # e-mail addresses (before file names and words with capitals, which their parts look like); a local part has at
    # most 64 characters (RFC 5321), and unbounded, every position of a long word scanned to its end for an "@"
    # (quadratic: 32,000 letters took 4 s)
    r"[\w.+-]{1,64}@[\w-]+(?:\.[\w-]+)*\.[A-Za-z]{2,}\b",
    # A hashtag, a chat channel or a preprocessor's directive ("#SummerSale", "#general", "#pragma"): read, the model
    # translated or broke the name ("#general" came back as "#Gegeneral", "#photography" as "#photografie"; of the
    # corpus's 107 texts with one, 26 lost or changed it). After a space: a text's or a usage's first ("#Open",
    # "<#chan>") is a label catalogs translate. Not a number ("#1"), a colour ("#fff") or a heading's mark.
    r"(?<=\s)#[A-Za-z][A-Za-z0-9_]*[a-z][A-Za-z0-9_]*(?![\w#-]|;)",
    # A user's handle ("@maria", "@vl-nix", "@JaneDoe"; a decorator's or doc tag's name, "@property", "@param"), a name
    # the model changed: "Thanks @maria for the fix!" came back as "Danke @Maria ...". Not a capitalized word, which
    # a program's marker may precede (GnuPG's help headings, "@Commands:", translated "@Befehle:")
    r"(?<![\w@.+-])@(?:[a-z_]|[A-Z]\w*?[A-Z\d_])\w*(?:[.-]\w+)*(?:/[a-z\d](?:[\w.-]*[a-z\d])?)?",
    # File paths. Read, the model changed a path in 30 of the 66 held-out test messages that have one ("/etc/crypttab"
    # came back as "/etc/cryptab", "/usr/local/bin/gs" as "/usr/local/bin/Glät"). Unix ones from the root with a
    # first directory in small letters (a capital starts a menu path, which catalogs translate: "/Image/Mode"), from
    # the home directory or relative ("~/.config", "../lib"); Windows ones from a drive. Dots only inside a name, so
    # a sentence's full stop is not taken along. Windows ones: `WINDOWS_PATH`.
    # (after a terminal's control sequence too: "\x1b[4m/usr/share/man\x1b[0m" came back as "/usr/Share/Meute")
    rf"(?:(?<![\w/.~\\-])|(?<=\x1b\[\dm)|(?<=\x1b\[\d\dm))(?:(?:~/|(?:\.\.?/)+)(?:{PATH_NAME}(?:/{PATH_NAME})*/?)?"
    rf"|/(?=[a-z0-9_.]){PATH_NAME}(?:/{PATH_NAME})*/?(?:{QUERY})?)",
    WINDOWS_PATH,
    # And a relative one to a file with an extension ("docs/index.md" came back as "dadizierte d.md",
    # "config/settings.yaml" as "Konfiguration/settings.yaml"; 16 of the corpus's 35 texts with one lost or changed
    # it). Not words between slashes ("and/or", "cut/copy/paste/"), nor a name ending in a dot ("sb./sth.").
    r"(?<![\w/.~\\:@%+$-])(?:[\w+~$-](?:[\w.+~$-]*[\w+~$-])?/)+[\w+~$-]+(?:\.[\w+~$-]+)*\.[a-z][a-z0-9]{0,23}"
    r"(?![\w/]|\.\w)",
    # Long command-line options, their name alone (catalogs translate a value's: "--new-file=FILE", "--new-file=DATEI").
    # Read, the model changed one in 11 of the 50 held-out test messages that have one ("--ignore-errors" came back as
    # "--ignore-errore-Fehler-Fehler", "--root" was lost). With a value in small letters, what a user types
    # ("--color=never", "--check=quiet": read, "--color=nie", "--check=Ende"; the installed catalogs' German keeps 76
    # of 80), but not at a usage's brackets, where it names what goes there ("[-d path | --database=path]": "Pfad").
    r"(?<![\w\[-])--[A-Za-z](?:[\w-]*\w)?=[a-z][a-z0-9-]*(?![\w=\[\]<-]|\.\w)|(?<![\w-])--[A-Za-z](?:[\w-]*\w)?",
    # Options of one dash too, a letter or a word ("-m", "-hR", "-shared", find's "-empty"), after a blank, "[", "("
    # or "|". Read, the model changed them ("-shared" came back as "-shart", "-empty" as "-fety", "chown -hR root" as
    # "chown -hR-Wurzel"): 33 programs' --help texts lost 15 options, now 2; of 1,200 sampled corpus texts that
    # prepare otherwise, 620 translate otherwise, chrF 56.12 -> 56.85, BLEU 39.00 -> 39.87. Not a word a dash joins
    # ("e-mail", "3'-dichloro") nor a suffix alone ("-based")
    rf"(?<=[ \t\[(|])-(?!{TOKEN_LIKE})[A-Za-z](?:[\w-]*\w)?(?![\w'’-])",
    # Function calls with no arguments ("isnull()" came back as "istnull()", "exists()" as "existen()"), tried only
    # where a run of name characters starts: tried after each colon too, "a:" * 16,000 took 1.9 s
    r"(?<![\w.:])[A-Za-z_][\w.:]*\(\)",
    # A name with two underscores on either side (DUNDER_NAME), not the start of a file's name or of a call
    rf"{DUNDER_NAME}(?!\w|\.\w|\((?!\())",
    # Function calls with arguments that are names or numbers: read, the model changed 167 of the 378 in those
    # docstrings ("splitdrive(p)" came back as "Teildrive(p)", "type(obj)" as "Typ(obj)", "process_request(request,
    # client_address)" as "process_request(erfragen, client_address)"). A function's name in small letters or in
    # CamelCase; not a capitalized word's, a label's ("Length(m)", "Remove(%s)": catalogs translate them), nor one in
    # capitals, a spreadsheet's function, whose arguments catalogs translate ("HOUR(time)" as "HOUR(Zeit)"); not a
    # plural's ending ("file(s)") nor a word's letter marked as its key ("do(n)'t", "ne(w)"). A lone argument in small
    # letters or CamelCase: "log(Size)", "p(LR)" are labels too. Arguments by keyword and strings without spaces too
    # ("str(object='')" came back as "str(object=')", "field(init=False)" as "Feld(init=False)"; of the corpus's texts
    # 46 more change, gcc's "%<target("arch=")%>" and "closedir('%s')": chrF 72.90 -> 75.54 on their references)
    rf"(?<![\w.:])(?![a-z]{{1,2}}\([a-z]\))(?:[a-z_]\w*+|[A-Z][a-z\d]++[A-Z]\w*+)(?:\.[A-Za-z_]\w*+)*+\((?!e?s\))"
    rf"(?:{CALL_ONE_ARGUMENT}|{CALL_ARGUMENT}(?:, ?{CALL_ARGUMENT})+)\)(?![\w'’(])",
    # A string's escape sequences ("\n", "\r\n", "\t", "\0", "\\", "\x1b", "\u2192"), not a word's backslash nor a
    # UNC path's ("\\server"): read, the model kept the characters but dropped the quotes around them ("change
    # newline '\n' into" came back as "... Neues \n, in"): of 92 quoted ones in the catalogs and docstrings here 26
    # lost their quotes, now none
    r"(?<![\\\w])(?:\\(?:[nrt0](?![A-Za-z0-9])|\\(?![\\\w])|x[0-9A-Fa-f]{2}|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}))++",
    # A manual page's source: a span in roff's bold, italic or another font but roman ("\fB\-\-sort\fR",
    # "\fIfile\fP", gcloud's "\f5gcloud beta ...\fR"), which marks what is typed as written or a placeholder for it:
    # read, 899 of the 3,348 in 1,000 paragraphs of 600 of this machine's manual pages came back changed (606 of 1,012
    # options: "\fB\-\-sort\fR" as "\fB\-sort\fR"; 83 of 254 words in small letters: "\fIfile\fP"), now 6; one
    # item each, as a code span is
    rf"{ROFF_FONT_OPENING}(?:(?!\\f)[^\n]){{1,200}}?{ROFF_FONT_CLOSING}",
    # A manual page's string by its name of two characters or in brackets ("\*(ex", "\*[version]", "\*(C`"), which
    # the page defines: read, the model changed mawk's ("\*(ex" came back as "\*(er", an undefined string). Not one
    # named by a letter ("\*n"), which Markdown's escaped asterisk looks like: service.roff sends those bracketed
    r"\\\*(?:\([^\s\\]{2}|\[[^\]\s\\]+\])",
    # A keyword argument set to a constant of Python's ("verbose=False" came back as "verbose=Falsch"): of 91 in those
    # docstrings 51 came back changed, now 3 (most inside calls)
    r"(?<![\w.-])[A-Za-z_]\w*+=(?:True|False|None)(?!\w)",
    # A date's or a time's format as a form asks for it ("DD/MM/YYYY", "YYYY-MM-DD HH:MM:SS", "hh:mm"), before dotted
    # names, which "dd.mm.yyyy" looks like: read, the model broke its letters ("Use the format MM/DD/YYYY." came back as
    # "... MM/DD/YYYYYYY ...", "Date (YYYY-MM-DD)" as "Datum (JYY-MM-DD)", "yyyy/mm/dd hh:mm:ss" as "Yyy/mm/d ...").
    # German names a date's fields otherwise (`german_date_format`)
    DATE_FORMAT,
    # An ISO 8601 timestamp ("2025-12-25T10:00:00Z", "2025-12-25T10:00:00.123+02:00"): no item held it, and the model
    # lost its seconds ("Timestamp: 2025-12-25T10:00:00Z" came back as "Zeitstempel: 2025-12-25T10:00Z"); as written
    r"(?<![\w.:-])\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:[.,]\d{1,9})?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?(?![\w:])",
    # An e-mail's or HTTP's date and time (RFC 5322: "Sat, 12 Apr 2025 10:00:00 GMT", "14 Aug 2006 02:34:56 -0600"):
    # read, its day and month were written in German ("Sat, 12. April 2025 10:00:00 GMT"); as written
    r"(?<![\w.:-])(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
    r" \d{4} " + ZONED_TIME,
    # Dotted names of three parts or more from a small letter: a reverse domain name, a setting's key, a D-Bus
    # interface ("org.gnome.OnlineAccounts" was cut into two sentences after "org.gnome." and came back as
    # "oderg.gnome gefunden werden.OnlineAccounts-Dienst"); "e.g." and "i.e." have two. Later parts may be numbers: a
    # key ("msg.0.5" came back as "msg.0,5", "error.code.404" as "Fehler. Kodierung,404"), a package's version
    # ("git-1.5.6", "libreadline.so.7": the 5 training messages this changed keep theirs as written)
    r"(?<![\w./\\-])[a-z][\w-]*(?:\.[A-Za-z_\d][\w-]*){2,}(?![\w-]|\.\w)",
    # Dotted names of two parts or more whose second has a capital or an underscore: a package's type or function, a
    # namespace ("io.Writer", "time.Time", "Mono.Cecil", "System.Xml.Linq", "README.Debian", "pytz.common_timezones").
    # The splitter ended a sentence at a dot before a capital, and the model translated the halves ("implements the
    # io.Writer interface." came back as "implementiert denio.Arbeitsoberfläche.", "time.Time" as "Zeit.Zeit"). Not two
    # sentences a missing space joins, a SENTENCE_OPENER after the dot ("the file.Please try again"), nor initials or
    # an abbreviation ("T.W. Lam", "X.Org", "Ph.D."), nor a VDR message's context ("Setup.OSD$Language": "Sprache").
    # Of the 3,094 corpus texts with a dot between letters 242 changed (chrF 59.51 -> 61.65, BLEU 45.96 -> 48.69),
    # with a few labels whose abbreviation lacks its space ("Mnt.Point", "Einhängepunkt"), which are now kept; of 300
    # changed paragraphs of Debian's package descriptions, 227 lost or changed such a name, now 3
    rf"(?<![\w./\\-])(?!{TOKEN_LIKE})[A-Za-z_][\w-]+\.(?!{SENTENCE_OPENER}|{TOKEN_LIKE})"
    r"(?=[A-Z]|[a-z\d]*[_A-Z])[A-Za-z_][\w-]+(?:\.[A-Za-z_][\w-]*)*(?![\w$-]|\.\w)",
    # Names scoped by "::": a Perl module, a C++ or Rust path ("XML::Parser", "Module::Build::Tiny", "std::io::Write").
    # Read, the model lost colons and translated parts ("use Module::Build::Tiny" came back as
    # "Modul:Build::Zeit::Tiny"): of 464 in 300 paragraphs of Debian's package descriptions 207 were kept, now 463;
    # the 203 corpus texts that change, chrF 65.44 -> 67.60, BLEU 54.14 -> 58.02
    r"(?<![\w:])[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+(?!\w|::)",
    # A version after a "v" ("v0.1.25", "v16.x", "v1.0.1t", "v1.3.0-beta.1"), which no training pair has. Read, the
    # model changed it in 29 of 114 lines of Node.js' changelogs and manuals with one ("v11.0.0" came back as
    # "v11.0,0", "v16.17.1" as "v16.17.17.17", "v0.11" as "v0.111"); bare ones ("2.3.1") are numbers
    r"(?<![\w.-])[vV]\d+(?:\.(?:\d+|x))+[a-z]?(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w-]|\.\w)",
    # A bare version with a pre-release's mark ("1.5.5beta06", "2.0.1rc2", "1.6.0-rc2", "3.13.0a1") or a letter after
    # three numbers ("1.0.1t"), and a CVE's identifier ("CVE-2014-3470"): no item held them, and in 1,500 paragraphs of
    # the NEWS files and changelogs installed here the model changed 4 of 22 ("1.5.5beta06" came back as "1,5.5beta06",
    # "([CVE-2014-3470])" as "([Abschnitt 2014-3470)"). And a series, "2.x", "0.11.x" ("h11 0.11.x" came back as "h11
    # 0.1.x", "Node.js 18.x" as "18.x.x"): of the 39 corpus texts that prepare otherwise, chrF 58.22 -> 59.44, BLEU
    # 35.01 -> 39.71; in the doc texts 31 of 31 kept, 29 before
    r"(?<![\w.-])\d+(?:\.\d+)*(?:\.x|(?<=\.\d)(?:(?:a|b|rc)\d+|(?:alpha|beta|pre|dev|post)\d*"
    r"|-(?:alpha|beta|rc|pre|dev)[0-9A-Za-z]*(?:\.[0-9A-Za-z]+)*))(?![\w-]|\.\w)"
    r"|(?<![\w.-])\d+\.\d+\.\d+[a-z](?![\w-]|\.\w)|(?<![\w-])CVE-\d{4}-\d{4,}(?![\w-])",
    # A bug's number under its component, GCC's and binutils' ChangeLogs' "PR target/44862": read, the model changed
    # 15 of the 15 in those paragraphs ("PR-Ziel/4862", "PR-Bootstrap/182222")
    r"(?<![\w./+-])(?:PR[ \xa0])?[a-z][\w+-]*/\d{4,}(?![\w/.-])",
    # A changelog entry's component in brackets ("- [subset] Fixed ...", "* [COLRv1] Update ..."): read, the model
    # changed or lost 34 of the 247 in the installed packages' NEWS files and descriptions ("[COLRv1] Update" came back
    # as "[Adresse in", "[Docs] Better" as "[Dokument"); a list item's, its marker at the line's start or indented
    rf"(?:{CHANGELOG_ENTRY})\[(?=[^\[\]\s]*[A-Za-z])[^\[\]\s]{{2,40}}\](?=[ \t]+\S)",
    # An identifier whose underscores Markdown escapes ("total\_heap\_size", "node\_modules"): read, the model
    # translated its words (of 64 on 16 of Node.js' API pages, 40 came back changed, "total\_heap\_size" as
    # "Gesamt\_heap\_size"); written plainly ("total_heap_size") it copies one
    r"(?<![\w\\])[A-Za-z0-9]+(?:\\_[A-Za-z0-9]+)+(?!\w)",
    FILE_NAME,
    # A code of two or three capitals and its number ("LH 454", "EUR 800", "GTK 4", "ISO 9660"): read, the model
    # dropped or changed the code ("Flight LH 454 departs" came back as "HIN 454 trennt", "reduced to EUR 800" as "auf
    # 800 reduziert", "FX 1" as "F1"); of the 685 held-out and training texts with one, 14 lost one, now none; chrF
    # 59.13 -> 59.21, BLEU 40.17 -> 40.29 (273 changed, 153 closer, 111 further)
    r"(?<![\w.-])[A-Z]{2,3}[ \xa0]\d{1,5}(?![\w-]|[.,]\d)",
    # A company's name with its legal form ("Acme Inc.", "Cisco Systems Inc.", "Collabora Ltd"): read, the model
    # translated the name or lost it ("Acme Inc. was founded" came back as "Der Akkriminanz.", "Example Inc." as
    # "Beispiel-Inc.", "Cisco Systems Inc." was lost); up to four capitalized words before it (not "The"), and its dot
    # where the sentence goes on. Of the 11 held-out and training texts with one, 8 lost or changed it, now 2. A comma
    # may go before the legal form ("Free Software Foundation, Inc.", every GNU program's copyright: "Freie Software
    # Foundation, Inc." in 3 of 1,837 wrapped catalog messages, each reference as written)
    r"(?<![\w.&'’-])(?!The )(?:[A-Z][\w&'’-]*[ \xa0]){0,3}[A-Z][\w&'’-]*,?[ \xa0](?:Inc|Ltd|LLC|Corp|GmbH|PLC)"
    r"(?:\.(?=[ \xa0]+[a-z]|,))?(?![\w-])",
    # A product's name with its line's word ("iPhone 15 Pro", "MacBook Air", "Galaxy S24 Ultra", "Windows 11 Pro"):
    # read, the model dropped the word or translated it ("The iPhone 15 Pro costs" came back as "Die iPhone 15 kosten",
    # "MacBook Air" as "MacBook-Luft", "Pixel 8 Pro reviews" as "Pixel 8 Prozeduren"). A name with a capital inside
    # or a model number before it; the corpus has none
    r"(?<![\w.-])(?:[A-Za-z][a-z]*(?<=[a-z])[A-Z][A-Za-z]*|[A-Z][a-z]+(?= [A-Z]?\d))(?: [A-Z]?\d+[a-z]?)?"
    r" (?:Pro|Max|Plus|Ultra|Mini|Air|Lite|SE)(?: (?:Max|Plus|Ultra))?(?![\w-])",
    WINDOWS_NAME,  # after a product's line: "Windows 11 Pro" whole
    # A commit's hash, hex digits and letters ("a1b2c3d", "9fceb02"): read, "Commit a1b2c3d fixed the bug." came back
    # as "Einen1b2c3d den Fehler beheben."; the corpus has none
    r"(?<![\w-])(?=[0-9a-f]{0,39}\d)(?=[0-9a-f]{0,39}[a-f])[0-9a-f]{7,40}(?![\w-])",
    # A program's, format's or type's name of small letters and digits ("pip3", "base64", "uint32", "magic8") in a text
    # of more; alone, a label's name ("window1", "ivory4"), which catalogs translate. Read, "The script pip3 is ..."
    # came back as "Das Skript-Pipe ...", "magic8 corrupted" as "magisch8 beschädigt": of the 1,103 held-out and
    # training texts with one, 279 lost or changed one (not counting one alone), now none; chrF 60.28 -> 60.77, BLEU
    # 38.24 -> 38.32 (626 changed, 320 closer, 296 further: references that write "Datei1" for "file1" or "MD5" for
    # "md5"); not an IPv6 address's first group ("fe80::1"). With a version ("plink1.9" was lost) and before a
    # sentence's full stop ("not valid utf8."): the 17 of 23 corpus texts this changed that translate otherwise, chrF
    # 63.28 -> 65.75, BLEU 36.01 -> 40.94; in the 268 package descriptions it changes, 335 of 411 such names were
    # kept, now all
    r"(?<![\w.-])(?:(?<=[\s\S])|(?=[a-z]{2,}\d+[a-z\d]*[\s\S]))[a-z]{2,}\d+[a-z\d]*(?:\.\d+)*(?![\w-]|\.\w|::)",
    # And such a name in parts a dash joins, a package's or a target's ("python3-dev", "libcolord-gtk4", "x86-64",
    # "gir1.2-gtk-3.0"): read, "the libcolord-gtk4 library." came back as "libcolord-gtk4-Bibliothek4-Bibliothek4-..."
    # and "python3-unbound" as "Python3-un Grenze"; of 369 in 300 package descriptions with one 266 were kept, now all;
    # the 77 of 113 corpus texts it changes that translate otherwise, chrF 58.27 -> 61.91, BLEU 30.94 -> 36.34. Not a
    # compound whose number stands alone ("tier-1", "mid-1980s", "base-10", "utf-8")
    r"(?<![\w.+-])(?=[a-z0-9.+]*-)(?=[a-z0-9.+-]*[a-z]\d)[a-z][a-z0-9+]*(?:[-.][a-z0-9+]+)+(?![\w-]|\.\w)",
    # A manual page's name and section ("crypt(3)", "git-rev-list(1)", "write(2)"): read, the model translated the name
    # ("Crypt(3)", "Öffnen(2)") or lost it; the references keep it as written in 92 of the 102 corpus texts with one
    rf"(?<![\w.+-])[a-z_][\w.+-]*{MANUAL_SECTION}(?![\w(])",
    # and in capitals at either end of its header's or footer's line ("OPENSSL-CMDS(1SSL)" came back as "ÖFFNE
    # SL-CMDSL"); not in a sentence, where the model keeps a type's "REAL(4)", "LR(1)" (as items, 10 of 13 such
    # catalog messages came back further from their references)
    rf"(?m:^){MANUAL_PAGE_IN_CAPITALS}(?=[ \t]{{2}})|(?<=[ \t]{{2}}){MANUAL_PAGE_IN_CAPITALS}(?=[ \t]*(?![^\n]))",
    # A number in small Roman numerals in parentheses, a clause's or a list item's ("clause (ii) above", "(iv)"): read,
    # "as described in clause (ii) above" came back as "wie beschrieben (i).", "(iii)" alone as "(Iiii)"
    rf"(?<![\w(])\((?=[ivx]{{2}}){ROMAN}\)(?![\w)])",
    # A number in capital Roman numerals ("Title II", "World War II", "Henry VIII", "Part IV", "II. Background"): read,
    # the model changed it (of the 340 in an FCC order's Word document, 118 came back lost or changed, "Title II" as
    # "Titel III")
    r"(?<![\w.-])(?:X{2,3}(?:IX|IV|VI{0,3}|I{1,3})?|X(?:IX|IV|VI{0,3}|I{1,3})|IX|IV|VI{1,3}|I{2,3})(?![\w-])",
    # A hexadecimal number ("0x1c", "0xA001", "0x00007f4d7c1d3e30"; the X protocol's "#x0200"): the model dropped
    # digits ("tid=0x007f4d7c1d30"; sent alone, "#x0400" came back as "#x0Xx00")
    r"(?<![\w.-])0[xX][0-9A-Fa-f]+(?![\w-])|(?<![\w.&#-])#x[0-9A-Fa-f]+(?![\w;-])",
    # A Unicode code point or a range of them ("U+00E9", "U+0222-U+0223", "U+03E2-03EF"): the model dropped or
    # changed digits ("U+0222-U+0223" came back as "U+022-U+0223", a font's README), and "U+0220" reached it as
    # "u+XX0X"
    r"(?<![\w+.-])U\+[0-9A-Fa-f]{4,6}(?:-(?:U\+)?[0-9A-Fa-f]{4,6})?(?![\w+-])",
    CAMEL_CASE,
    N_JOINED,
    CODE_WORD,
    IPV6,
    IPV4,
    # Operators, two marks or more standing alone ("&&", "==", "->", "<="): the model wrote "==" as "=" in the 7
    # catalog messages with one and "&&" as "&" in 16 of 21; German catalogs keep them. Not dashes between clauses
    # ("--", "---"), which the model mostly keeps and, as tokens, lost words around (catalog chrF 54.36 → 53.92)
    r"(?<!\S)(?!-+(?!\S))[<>=!&|+*/\\^~#:-]{2,}(?!\S)",
    # Environment variables in capitals, Windows' and a shell's ("%APPDATA%" came back as "%APDATA%"), before printf's
    # conversions, which "%A" is; Windows' in small letters too, as its documentation often writes them ("%c", a
    # conversion, took "%computername%" apart, which came back as "%cAngabe"); a shell's, Perl's or PHP's variable in
    # small letters ("Hi $name," came back as "Hinname,"; of 202 held-out and training texts with one or a
    # salutation's placeholder, 15 came back with one lost or changed, "$compress" as "$compressor", now none); with
    # the path that goes on from it ("$srcdir/Makefile").
    # And LibreOffice's placeholders, "%PRODUCTNAME", "$(ARG1)" (a Makefile's variable too, "$(srcdir)"): read,
    # "$(ERR) loading the template $(ARG1)" came back as "$(ER) beim Laden ...", "Column %COLUMNNUMBER" as "Spalte
    # %COLUMNUMBER" (11 of 4,931 of its UI messages lost one)
    r"%[A-Z_][A-Z0-9_]+%|(?<![\w%])%[A-Za-z_]\w{2,}%(?!\w)|(?<![\w%])%[A-Z][A-Z0-9_]{2,}(?![\w%])"
    r"|(?:\$\{[A-Za-z_]\w*\}|\$\([A-Za-z_]\w*\)|\$[A-Z_][A-Z0-9_]+\b|(?<![\w$\\])\$[A-Za-z_]\w*\b)(?:/[\w.-]*[\w-])*",
    r"%\([A-Za-z_]\w*\)[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|L)?[diouxXeEfFgGcrsa]",  # Python %(name)s, C's "%(n)li"
    # git's format atoms ("%(refname)", "%(upstream:remotename)", "%(if)"): read, "%(upstream)" came back as
    # "%(Upstream)", "%(then)" as "%(den)"
    r"%\([a-z][\w-]*(?::[^()\s]{1,100})?\)(?![A-Za-z])",
    r"%%",  # an escaped percent sign, before it can pass for a printf conversion
    # Apple's plural variables (.stringsdict, String Catalogs' substitutions), "%#@files@", "%1$#@files@", before
    # printf's "%#@" takes their "%#@" alone: "You have %#@messages@" came back as "Sie haben %#@Nachrichten@",
    # a name the string's variables do not have; and a substitution's number, "%arg files", not printf's "%a"
    r"%(?:\d+\$)?#@[^\W\d]\w*@|%arg(?![\w$])",
    # printf's conversions, and gettext's ISO C 99 <inttypes.h> ones ("%<PRIu32>": its "%" was lost, a git message's
    # "hash id %<PRIu32>" came back as "nicht unterstützt <PRIu32>", which msgfmt --check-format refuses); Python's
    # repr, "%r", not a word's start ("html_static_path entry %r does not exist" came back without it: 3 of Sphinx
    # 9's messages, and strftime's 12-hour time in coreutils' "date --help")
    r"%(?:\d+\$)?[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:(?:hh|h|ll|l|L|q|j|z|t)?[diouxXeEfFgGcsaAp@]|<PRI\w{1,12}>"
    r"|r(?![A-Za-z]))",
    # Qt's and KDE's: %1, %2, a localized %L1, and the count of a plural message, %n (the tiny test model lost one, "I
    # eat <b>%n</b> apples." came back as "<b>111</b> %")
    r"%L?(?:\d{1,2}(?![\d$])|n(?![A-Za-z]))",
    # A template's expression or tag (Mustache's, Handlebars', Angular's, i18next's, Jinja's: "Hello {{name}}", "{{
    # user.name }}", "{% if user %}"). Read, the model got its braces and words ("{{ user.name }}" reached it as "{{
    # XX0X }}", "{% if user %}Welcome back!{% endif %}" whole); a template's code stays as written. Hugo's shortcodes
    # ("{{< figure src=... >}}", "{{% notice %}}") may hold braces: '{{< style "img { height: 1.25rem; }" >}}' came back
    # as '{{< Stil "img { Höhe: 1,25rem; }" >}}'.
    r"\{\{[<%][^\n]{1,1000}?[>%]\}\}|\{\{\{?[^{}\n]{1,200}?\}\}\}?|\{%-?[^\n]{1,500}?-?%\}",
    # A set of values in braces, a help text's choices ("METHOD={separate(default),prepend,append,both}",
    # "{heads,tags}"): read, "prepend" came back as "Programm"; the installed catalogs keep 8 of the 9
    r"\{[^{}\s,]{1,40}(?:,[^{}\s,]{1,40}){1,20}\}",
    # {}, {0}, {name}, {count:d}; AsciiDoc's attribute references, "{product-name}"
    r"\{[A-Za-z_0-9]*(?:-\w+)*(?:[.\[][\w.\[\]]*)?(?:![rsa])?(?::[^{}\n]*)?\}",
    # A type in braces, JSDoc's and Node.js' documentation's: types joined by "|", an array's (Markdown escapes its
    # "[": "{string\[]}"), a generic's ("{Array<string>}"). Read, its names were translated: of 1,174 on 14 of Node.js'
    # API pages, 98 came back changed ("{string|Buffer}" as "{Zeichenfolge|Buffer}"), now 27 (words: "{zlib options}")
    rf"\{{{TYPE_NAME}(?:[ \t]*\|[ \t]*{TYPE_NAME})*\}}",
    # Rails' "%{count}", Fluent's placeables ("{ $name }", "{ -brand }", "{ PLATFORM() }", "{ NUMBER($n, style:
    # "percent") }", "{ message.attr }", '{ "literal" }'), Laravel's ":attribute" after a space ("The :attribute field
    # is required."; not "q:quit", "?:help", which catalogs translate): read, "%{count}" reached the model as "%XX0X"
    # and the others as words
    r"%\{[A-Za-z_]\w*\}|(?<!\S):[a-z_][a-z0-9_]*(?![\w:/])"
    r"|\{ *(?:[$-][A-Za-z_][\w.-]*(?:\([^{}\n]{0,300}\))?|[A-Z][A-Z0-9_-]*\([^{}\n]{0,300}\)) *\}"
    r"|\{ +(?:[a-z][\w.-]*|\"[^\"\n]{0,50}\"|\d+) +\}",
    # Swift's interpolation, "\(name)", "\(items.count)", "\(f(x))": read, "Hello \(name)" came back as "Hello \(Name)"
    r"\\\((?:[^()\\\n]|\([^()\n]{0,100}\)){1,100}\)",
    # A terminal's control sequence (a manual page or a log rendered with colours: "\x1b[1mkill \x1b[22mis"): the
    # model read "[22m" and dropped a digit ("\x1b[2m", which stops nothing)
    r"\x1b\[[0-?]{0,32}[ -/]{0,8}[@-~]",
    TOKEN_LIKE,
)
CODE = PLACEHOLDERS.index(MATH)  # front matter, code blocks and spans, a key, an empty anchor, a traceback, a log
# line: the items before MATH, tried first, as their tags are no element's
ITEMS = PLACEHOLDERS[:CODE] + MARKUP + PLACEHOLDERS[CODE:]  # EVERYTHING's alternatives, in the order they are tried
EVERYTHING = re.compile("|".join(f"(?:{p})" for p in ITEMS), re.DOTALL)
# Numbers, with . , : / - between digits (8,000, 2.0.1, 10:30, 12/05/2024, 1-64), not inside a word or an identifier
# (x86, 8.2p1, 2nd); a slash and a word may follow ("$19.99/month" came back as "$19.9/month"). Served, they are
# placeholders: the model changed the numbers of 160 of 874 catalog messages that have one ("umask 077" came back as
# "0777777", "0 to 240" as "240 auf 240"), as tokens 11. They stay out of EVERYTHING, the items whose count the model
# never changes: it may write numbers of its own ("two" as "2"), and the training data keeps them as text.
# And a range ("1..12", "0...4294967295"), and an exponent ("1e23", "6.02E-23": as a quotation mark and its "1", with
# "e23" text after it, the model wrote a token's fragment, '"1e23X1:').
NUMBER = r"(?<![\w.,:/])(?<!\d-)\d+(?:(?:[.,:/-]|\.\.\.?)\d+)*(?:[eE][+-]?\d+)?(?!\w|[.,:-]\w)"
EVERYTHING_AND_NUMBERS = re.compile(f"{EVERYTHING.pattern}|(?:{NUMBER})", re.DOTALL)
# Quotation marks the model dropped. It wrote no opening “ (German closes with it): 'Enable “Slow Keys”' came back as
# 'Slow-Schlüssel” aktivieren', in 80 of 298 catalog messages with “…” (after this: 0, chrF 47.75 → 47.86). Around a
# placeholder it dropped ASCII ones too ("could not open directory '%s'": "Konnte Verzeichnis %s nicht öffnen"; of 600
# catalog messages with quoted text 349 kept their marks, 547 now, chrF 49.65 → 50.71). So curly marks are items
# wherever they pair, ASCII single and double quotes around an item or a term (QUOTED_TERM); around a sentence these
# stay text, which the model localizes. An apostrophe ("don't", "users' files") opens no quotation. GNU's `quotes' (no
# code span) hold what a user types or a program names ("`exit'", "`%s --help'"): the model dropped both marks and
# translated the words ("`exit'" came back as "exit", "`movprfx'" as "`Max'"), so such a quotation is one item, kept as
# written. ASCII double quotes
# around marks alone or an item ('Type "?" for help.' came back as '" eingeben?" für Hilfe.') pair as single ones do.
QUOTATION_MARKS = frozenset("'\"“”„‘’«»‹›`")
QUOTES = "".join(sorted(QUOTATION_MARKS))
MODEL_QUOTES = "\"„“”»«‚‘"  # the marks the model writes around a quotation (not apostrophes)
QUOTED = re.compile(r"(?<![\w'’\"])(?:“[^“”\n]{1,200}?”|‘[^‘’\n]{1,200}?’(?!\w)|'[^'\n]{1,200}?'(?!\w)"
                    r"|\"[^\"\n]{1,200}?\"(?!\w)|„[^„“\n]{1,200}?“"
                    r"|«[^«»\n]{1,200}?»|‹[^‹›\n]{1,200}?›"
                    r"|``[^`'\n]{1,200}?''(?!\w)|`[^`'\n]{1,200}?'(?!\w))")
# Without placeholders: markup in HTML; always what looks like a token (as text, "XX3X" read as the token of item 3)
MARKUP_AND_TOKEN_LIKE = re.compile("|".join(f"(?:{p})" for p in MARKUP + (TOKEN_LIKE,)), re.DOTALL)
ONLY_TOKEN_LIKE = re.compile(TOKEN_LIKE)
# What every item of these patterns and every section (SECTIONS) holds: a character other than an ASCII letter, a space
# or , . ? ! ' " (a digit, a mark, a line break, a letter outside ASCII), else, in a text of only those, a capital after
# a small letter (CAMEL_CASE), a letter after a dot (FILE_NAME, dotted names), "!!" or "???" (operators, admonitions),
# "'n'" (N_JOINED) or "import" (an MDX statement), "localhost", a company's legal form ("Inc"), "Windows" after a space,
# a capital or mark alone after "press" or "hit" (PRESSED_KEY), two capitals alone (LETTER_RUN). Most sentences are
# prose with none of it, and searching them for the alternatives (52 then) at every position was 40% of preparing one
# (44 of 112 µs for the load's sentences).
ITEM_HINT = re.compile(r"[^A-Za-z ,.?!'\"]|[a-z][A-Z]|\.[A-Za-z]|[!?]{2}|'n'|import|(?i:localhost)"
                       r"| (?:Inc|Ltd|LLC|Corp|GmbH|PLC)\b|(?<=\s)Windows\b|(?<![\w.-])[IVX]{2}|\b[A-Z] [A-Z]\b"
                       r"|(?<=ss |it )[AI.,?!](?![^ .,;!])")  # "Press A", "Press ?": a key (PRESSED_KEY)
# (a tuple: `in` finds a pattern by identity, where a set hashed the whole pattern, 8 µs for EVERYTHING's)
HINTED = (EVERYTHING_AND_NUMBERS, EVERYTHING, MARKUP_AND_TOKEN_LIKE, ONLY_TOKEN_LIKE)
SPACES = re.compile(" *")
ONE_REFERENCE = re.compile(REFERENCE)


def as_character(item: str) -> str:
    """What an item reads as: a character reference's character ("&mdash;": "—"), any other item itself."""
    return unescape(item) if ONE_REFERENCE.fullmatch(item) else item


# Tags that end a sentence: block-level elements, and those a page shows as texts of their own (a figure's caption
# and its image, a form's legend, a select's options, a page's title, sections)
BLOCK_TAG = re.compile(r"</?(?:p|div|br|li|ul|ol|dl|dt|dd|h[1-6]|tr|td|th|table|section|article|header|footer|"
                       r"blockquote|pre|hr|address|aside|body|caption|details|dialog|fieldset|figcaption|figure|form|"
                       r"head|html|legend|main|nav|optgroup|option|select|summary|tbody|tfoot|thead|title)"
                       rf"\b{ATTRIBUTES}>", re.IGNORECASE)
# Marks between clauses. One the vocabulary lacks is a placeholder token, which cost the model the words beside it
# ("He's here; she's not." came back as "Er ist hier;."): the clauses on either side are translated apart instead.
CLAUSE_SEPARATORS = {";", "—", "|", "·", "•", "¦"}
# Items that never share a token with their neighbours (`runs_merged`): a character reference (alone, the model
# reads the character it stands for: `characters_read`), a mark between clauses (`clauses`), and every tag where tags
# may leave the sentence, else block-level ones in HTML
ALWAYS_APART = f"{REFERENCE}|[{''.join(sorted(CLAUSE_SEPARATORS))}]"
REFERENCES_AND_SEPARATORS_APART = re.compile(ALWAYS_APART)
TAGS_APART = re.compile(f"{ALWAYS_APART}|{TAG_PATTERN}|{BBCODE_TAG}|{ASS_OVERRIDE}|{LINK_TAG_APART}")
BLOCK_TAGS_APART = re.compile(f"{ALWAYS_APART}|{BLOCK_TAG.pattern}", re.IGNORECASE)
# A list item's bullet or number, or an e-mail's quotation marks ("> I think we should" came back as "> ich glaube");
# plain text's "o" bullet too (of 178 in Debian's package descriptions the model lost or translated 63: "o Integrated
# level editor" came back as "Editor für o-Geräte"), and an em dash, as gcloud's manual pages mark their choices ("—
# provide the argument ..."); a number in small Roman numerals too, a license's "ii." or "(iv)": read, "ii." came back
# as "Ii.", "iii." as "Iiii.", "iv." as "eiv."; and a list's marker inside a quotation ("> * nushell: add ..." came
# back as "> *-Nushell: ...")
LIST_MARKER = re.compile(rf"(?:[-*•‣◦–—]|o(?=[ \t])|>(?:[ \t]*>)*(?:[ \t]+(?:[-*+•]|\d{{1,3}}[.)]))?|\(?\d{{1,3}}[.)]"
                         rf"|\(?(?:[a-z]|{ROMAN})[.)])\s+")
# A list item's number is an item (NUMBER) before the line is read: "1) Open the file." reached the model as "XX0X) Open
# the file." (a number before "." ends a sentence of its own, and was kept), and so are a bullet outside the model's
# vocabulary ("* caption is optional" reached it as "XX0X caption is optional" and came back as "*-Kontakt ist
# optional") and a Markdown heading's marks ("###" is an operator's, "#" outside the vocabulary: "### Emotion" came back
# as "###-Ausrichtung", no heading any more). Where the token stands for such a number or marks, it is the line's
# marker.
MASKED_MARKER = r"(?P<item>\(?XX(?P<token>\d+)X(?P<end>[.)]?)\s+)"
# so after a quotation's marks ("> * nushell: add ..." reached the model as "XX0X nushell: add ..." and came back
# as "> *-Nushell: ...")
ITEM_MARKER = re.compile(rf"(?:>(?:[ \t]*>)*[ \t]+)?{MASKED_MARKER}")
LIST_NUMBER = re.compile(r"\d{1,3}")
MARKER_ITEM = re.compile(r"#{1,6}|[*•‣◦]")


def list_marker(masked: str, protected: Sequence[str], position: int = 0) -> re.Match | None:
    """The LIST_MARKER at `position` of a masked text, its number or heading marks written or as the token of its
    item (ITEM_MARKER), after a quotation's marks too."""
    marker = LIST_MARKER.match(masked, position)
    if marker is not None and not marker.group().startswith(">"):
        return marker
    if (item_marker := ITEM_MARKER.match(masked, position)) is None or int(item_marker["token"]) >= len(protected):
        return marker
    item = protected[int(item_marker["token"])]
    numbered = item_marker["end"] or item_marker["item"].startswith("(")
    return item_marker if (LIST_NUMBER if numbered else MARKER_ITEM).fullmatch(item) else marker


LETTER = re.compile(r"[^\W\d_]")
# A letter alone, a table's cell or a variable ("p", "n"): read, the model wrote another ("p" came back as "m", "b" as
# "s", "g" as "Glättchen"); kept as written. Not "I", which it translates ("ich"). And an appendix's section number,
# cut from its heading as a sentence of its own (the Debian installation guide's "C.3. Recommended Partitioning Scheme"
# came back as "K.3. Empfohlene ...", "A.2.4." as "A,2.4.", "B.5.3." as "Sympri"), which a chapter's is as a number.
LONE_LETTER = re.compile(r"(?!I\Z)[^\W\d_]|[A-Z](?:\.\d+)+\.?")
# A code in capitals alone (an airport's "YYC", a currency's "USD": a spreadsheet's cell, a list's line), no word the
# training data's English side writes (`lexicon.Lexicon.knows`: "OK", "FAQ", "WARNING" are): read, the model spelled it
# anew ("YYC" came back as "JJJC", "USD" as "USAD", "AAL" as "ALL", "CEO" as "KEIN"); German writes it as English does
CODE_IN_CAPITALS = re.compile(r"[A-Z][A-Z0-9]{1,7}")
CASED_WORD = re.compile(r"[^\W\d_]{2,}")


# Function words that tell a sentence in another language (German, French, Spanish, Italian, Dutch, Portuguese) from
# English: read, the model made German of German ("Dies ist ein Test." came back as "Dies ist ungültig.") and garbled
# the others ("Ceci est une phrase en français." as "Ceci sten une Phrase, französische Frankreich."). A segment of
# three words or more with two of one language's, more than twice as many as English's and a quarter of its words is
# kept as written. Of 88,692 English texts prepared (two samples of package descriptions, this machine's catalogs'
# messages, the held-out ones, AppStream's summaries and descriptions, the test and validation sentences), 17 segments
# are, each a name in the other language that German keeps ("Pays-de-la-Loire", "Isla de la Juventud"), or a French
# summary; of the catalogs' messages of three words or more in those languages 12,880 of 37,984, 17,377 of 48,927,
# 12,726 of 42,592, 4,025 of 35,654, 2,787 of 15,590 and 2,186 of 19,769 would be (most others are labels too short
# to tell). Words English writes too are not among them: "die", "in", "was", "mit" ("MIT"), "per" and "non" ("glyphs
# per non-SC font" was kept), "e" and "et" ("e.g.", "et al."), "no", "en", "van".
ENGLISH_FUNCTION_WORDS = frozenset((
    "the a an of to is are was were and or for with this that these those it its be been not on by from as at you your "
    "can will has have which into if when all no do does use used there their they we our").split())
FUNCTION_WORDS = {language: frozenset(words.split()) for language, words in {
    "de": "der das und ist nicht ein eine einen einem einer dem für auf sich von zu wird werden kann können oder "
          "auch wenn sie ich wir diese dieser dieses nur noch bei aus nach über wie haben sind zum zur keine kein "
          "wurde durch dass daß ihre ihr beim vom",
    "fr": "de le la les des une est pour dans avec sur qui que du au aux cette sont être par vous nous elle votre "
          "leur été peut",
    "es": "de el los las una es del que por para se su lo como más este esta puede sus pero está",
    "it": "de il lo gli una è del della di che sono questo questa nel alla può",
    "nl": "het een van niet met voor zijn dat deze kan wordt bij naar ook",
    "pt": "de os uma é dos das que para com não por este esta pode"}.items()}
FUNCTION_WORDS_TO_TELL = 2
WORD_OF_LETTERS = re.compile(r"[^\W\d_]+")


def in_another_language(words: list[str]) -> bool:
    """Whether `words` (a segment's runs of letters, outside its items) are a sentence in one of FUNCTION_WORDS'
    languages."""
    if len(words) < 3:
        return False
    found = [word.lower() for word in words]
    english = sum(word in ENGLISH_FUNCTION_WORDS for word in found)
    for function_words in FUNCTION_WORDS.values():
        hits = [word for word in found if word in function_words]
        if len(set(hits)) >= FUNCTION_WORDS_TO_TELL and len(hits) > 2 * english and 4 * len(hits) >= len(found):
            return True
    return False


def _not_english(segment: str, words: str) -> bool:
    """Whether a segment (its items in place) is no English the model can read, kept as written: a sentence in another
    language (`in_another_language`), most of its letters outside the Latin script (a Chinese cell: read, its
    full-width commas became ASCII ones, "xx 月" lost an "x" and the English words inside were made German,
    "Microsoft Office" as "Microsoft-Objekt-Objekt"), or its `words` (outside its items) two or more of which the
    training data's English side writes none (a Lithuanian label, "Naujas projektas" came back as "Naujas-Programme";
    a name the names list lacks, "Debasish Sahoo" as "Debasisch"), or one such word alone, no item beside it: a
    program's or a package's name ("kdeedu" came back as "Kdeedu", "kbruch" as "KW", "tzsetup" as "Zentrier").
    German keeps such a word alone as written in 102 of 128 of KDE's manuals' and Debian's installation guide's
    titles, terms and cells, and in 13,521 of 13,737 of this machine's catalogs' messages (the others mostly places'
    German names: "Genève", "Genf")."""
    if not segment.isascii():
        letters = LETTER.findall(segment)
        latin = sum(1 for letter in letters if letter.isascii() or "LATIN" in unicodedata.name(letter, ""))
        if latin * 2 < len(letters):
            return True
    runs = WORD_OF_LETTERS.findall(words)  # (one scan for both tests)
    found = [run for run in runs if len(run) >= 2]  # CASED_WORD's
    alone = len(found) == 1 and words == segment and not any(character.isspace() for character in words)  # no item
    return (len(found) >= 2 or alone) and not any(map(lexicon.load().knows, found)) or in_another_language(runs)


WHITESPACE = re.compile(r"\s*")
# Guillemets apart from the words at a segment's edge, as they are or as references ("&laquo; Back", "Log out &raquo;",
# "Next ›"): a link's arrow, or the marks of a quotation the segment holds whole. Read, the model moved them ("Log out
# »" came back as "» abmelden", "Search Spam »" as "Spam » durchsuchen", 2 of WordPress's 39 texts with a mark at an
# edge) or wrote the word after them in small letters ("« zurück"). They stay where they are.
GUILLEMETS = frozenset("«»‹›")
LEADING_GUILLEMETS = re.compile(r"[«»‹›]+[ \t]+(?=\S)")
TRAILING_GUILLEMETS = re.compile(r"(?<=\S)[ \t]+[«»‹›]+$")
# The model's normalization (NFKC) reads "…" as "...", and its vocabulary has no "…" to write. German catalogs keep
# the source's "…" (9 of the 9 installed messages with one; "Loading…": "Laden …"), so a segment with "…" and no
# "..." of its own gets its translation's "..." written as "…".
ELLIPSIS = "…"
# In HTML the model's "<" and "&" are text, written as references: its "%<%>" (read, "will be <a>percent-encoded</a>")
# made a page no XML parser reads. Not where the text itself writes one bare ("Tom & Jerry"): as it was written
HTML_TEXT_ESCAPES = {"<": "&lt;", "&": "&amp;"}
THREE_DOTS = re.compile(r"(?<!\.)\.\.\.(?!\.)")
# The model ends a sentence that ends in "..." with two dots in 10 of the 263 installed catalog messages that end so
# ("Save forecast..." came back as "Vorhersage speichern.."), never with one or none; no reference ends in two. Inside
# a sentence too ("Wait... what happened?" came back as "Warten.. was passiert?", "[file...]" as "[Datei..]"): where
# the source has "..." or "…" and no two dots of its own, two dots in the translation are three.
TWO_DOTS = re.compile(r"(?<!\.)\.\.(?!\.)")
DOUBLED_PERCENT = re.compile("%{2,}")  # `_percent_signs_alone`
# The model ends some translations of single words with a dictionary annotation cut open ("pull" came back as "ziehen
# <v", "harvestman" as "Ernte <masc"; 231 of 20,000 of the dictionary's training sources, 1.2%): learnt from pairs its
# data once cut inside "<v, intr>" (model/data.py `first_german`). Where the segment it read has no "<", such an end is
# no text of the source's: it goes (`Prepared.without_cut_annotation`), and a stream holds back what could start one.
CUT_ANNOTATION = re.compile(r"<[a-z]+")
CUT_ANNOTATION_START = re.compile(r"<[a-z]*")
# The model writes words in parentheses that the segment it read has none of ("Skript (Skript)", "Koordinaten
# (Punkt)", "Beschriftung (Anzeige).", "möglicherweise (z.B." cut open at the end, "(GSettings) erforderlich)." with
# one more to close): learnt from catalogs whose translators add the English term or a hint ("Mitschnitte (Logs)";
# 3,459 of the 972,422 training pairs whose source has no parenthesis). No reference of the 43 held-out texts it did
# that for has one; without them BLEU 13.37 -> 18.04 and chrF 40.80 -> 40.99 on the 41 that change (24 closer, 17
# further), and documents keep the brackets their source has. A group that holds a token (an item the model put in
# parentheses) stays.
MODEL_GROUP = re.compile(r"\s*\(([^()]*)(?:\)|$)|\s*\)")
BRACKETED = re.compile(r"[()]")


def _before_end(text: str, ending: re.Pattern) -> int:
    """Where the text's end (from its last "<", if `ending` matches there to the end) and the whitespace before it
    start; len(text) if it has no such end."""
    at = text.rfind("<")
    if at < 0 or not ending.fullmatch(text, at):
        return len(text)
    return len(text[:at].rstrip())


# An option's value named in capitals ("--old-file=FILE", "-o FILE", "--color[=WHEN]"), a metavariable, which German
# catalogs translate ("--old-file=DATEI") as often as the text says it: of 1,770 held-out wrapped catalog messages' 352
# metavariables the references translate 268 everywhere, keep 84. Read a sentence at a time, the model translated one
# in some places and kept it in others in 78 ("-o DATEI, --old-file=FILE ... FILE als sehr alt"). The metavariable is
# said alike everywhere as the word in capitals, one the source lacks, that the translation gives an option as its
# value where the source gives it the metavariable and says as often as it misses the metavariable
# (`Metavariables.said_alike`): 68 of the 1,770 messages change, chrF 59.15 -> 60.87 (48 closer, 14 further: where
# the model's word was wrong, "--ignore=BEFEHL" for "PATTERN", it is said everywhere), all 59.69 -> 59.77.
CAPITALS = r"[A-ZÄÖÜ][A-ZÄÖÜẞ_]{2,}(?![\w-])"  # a metavariable's shape, the source's or the translation's word
OPTION_VALUE = re.compile(rf"(?<![\w-])(--[\w-]+\[?=|-[A-Za-z] ?)\[?({CAPITALS})")
WORD_IN_CAPITALS = re.compile(rf"(?<![\w-]){CAPITALS}")
# A placeholder of a name before a metavariable in a command's usage (NAME_PLACEHOLDER: "Usage: %s FILE\n  or:  %s
# OPTION"), which the model joined to it as to a name's compound ("%s-OPTION": 13 of 1,837 wrapped catalog messages);
# the installed catalogs' German writes all 51 such pairs apart. Not another item, a name ("Qt API": "Qt-API",
# "FreeType 2 API": "FreeType 2-API").
METAVARIABLE_JOINED = re.compile(rf"-(?={CAPITALS})")
WORD_RUN = re.compile(r"\w+")  # a metavariable said: a run that is it ("FILE", not "FILE_NAME"), one pass


def _words_written_as(text: str, written_as: dict[str, str], words: re.Pattern = WORD_RUN) -> str:
    """The text with each of its `words` that `written_as` holds written as it says, in one pass."""
    return words.sub(lambda word: written_as.get(word[0], word[0]), text) if written_as else text


@dataclass(frozen=True)
class Metavariables:
    """A text's metavariables (OPTION_VALUE), each with the options it is the value of and how often the text says it,
    and the text's words in capitals."""

    options: dict[str, frozenset[str]]
    counts: dict[str, int]
    capitals: frozenset[str]

    @classmethod
    def of(cls, text: str) -> "Metavariables | None":
        options = defaultdict(set)
        for option, name in OPTION_VALUE.findall(text) if "-" in text else ():
            options[name].add(option)
        if not options:
            return None
        said = Counter(WORD_RUN.findall(text))
        return cls({name: frozenset(given) for name, given in options.items()}, {name: said[name] for name in options},
                   frozenset(WORD_IN_CAPITALS.findall(text)))

    def said_alike(self, translation: str) -> str:
        """The translation with each metavariable it says in fewer places than the source, one at least, said as the
        one word in capitals the source lacks that the translation gives one of its options as its value and says
        in as many places as the metavariable is missing (none such, or several: as it is); first, an option's
        value the model misspelt written as the metavariable (`_misspellings_mended`)."""
        translation = self._misspellings_mended(translation)
        said = Counter(WORD_RUN.findall(translation))
        given = defaultdict(set)  # (option, times said): the new words it is given, two at most (two: not one)
        for option, word in OPTION_VALUE.findall(translation):
            if word not in self.capitals and len(words := given[option, said[word]]) < 2:
                words.add(word)
        german = {}
        for name, count in self.counts.items():
            if 0 < (missing := count - said[name]) < count:
                words = set().union(*(given.get((option, missing), ()) for option in self.options[name]))
                if len(words) == 1:
                    german[name] = words.pop()
        return _words_written_as(translation, german)

    def _misspellings_mended(self, translation: str) -> str:
        """The translation with each word it gives an option as its value a letter off that option's metavariable
        (`_misspells`: "--width=WIDTE" for "--width=WIDTH", "--tablespace-mapping=OLDIR" for "OLDDIR", which would
        have been said everywhere) written as the metavariable, everywhere. A word German writes stays
        ("--type=TYP")."""
        metavariable_of = {option: name for name, options in self.options.items() for option in options}
        misspelt = {word: metavariable_of[option] for option, word in OPTION_VALUE.findall(translation)
                    if option in metavariable_of and word not in self.capitals
                    and _misspells(word, metavariable_of[option])}
        return _words_written_as(translation, misspelt)


# An item written as one German noun (a glossary's term "Akte", "Cloud-Speicher"), which `Prepared._agreeing` reads
ONE_NOUN = re.compile(NOUN)
# A text's words and the whitespace between them, by `split`: one list per version of the same words
SPACES_APART = re.compile(r"(\s+)")


@dataclass
class Prepared:
    """One text, ready for the model: `segments` to translate and everything needed to rebuild the text."""

    segments: list[str]  # with placeholder tokens, stripped of surrounding whitespace
    glue: list[str]  # text = glue[0] + segment 0 + glue[1] + ... + glue[n] (whitespace and untranslated parts)
    protected: list[str] = field(default_factory=list)  # placeholder token i stands for protected[i]
    # Per segment, the item of each of its tokens: XXkX in segment i stands for protected[numbers[i][k]]. Each segment
    # numbers its tokens from XX0X, as the training data numbers a message's (`_numbered_per_segment`; until then, `add`
    # lists the items in the source's order). Items are numbered in reading order, so sorted they are in the source's.
    numbers: list[list[int]] = field(default_factory=list)
    repairs: int = 0  # placeholder tokens restore() had to add, drop or reorder
    moved: list[list[MovedTags]] = field(default_factory=list)  # per segment, the tags taken out of it
    # The characters the model reads for character references, and the reference each was: the same across the text
    # (a text that escapes "&" as "&amp;" once does so in every sentence)
    characters: dict[str, str] = field(default_factory=dict)
    quoting_references: set[int] = field(default_factory=set)  # items read as tokens though in `characters`
    escaped: dict[int, str] = field(default_factory=dict)  # HTML_TEXT_ESCAPES the text does not write bare
    latex: bool = False  # a LaTeX text without quotation marks outside ASCII: German ones are written in TeX's
    spaces: list[list[SpaceReference]] = field(default_factory=list)  # per segment, references read as spaces
    shouted: list[bool] = field(default_factory=list)  # per segment: all capitals (read sentence-cased, `_shouted`)
    emphasized: list[list[str]] = field(default_factory=list)  # per segment: its words in capitals (`_emphasis_read`)
    tapped: list[bool] = field(default_factory=list)  # per segment: "tap" read as "click" (`_tapping_read`)
    ordinals: list[str] = field(default_factory=list)  # per segment: an ordinal's German stem, read as "second"
    # per segment: the run of "!" and "?" that ends its sentence ("???", "?!"), read as its first mark (`_marks_read`)
    end_marks: list[str] = field(default_factory=list)
    # per segment: the German adverb of a step's order, read without it (`_step_read`: "First, open ...": "zuerst")
    steps: list[str] = field(default_factory=list)
    # per segment: a label's mnemonic marker and the word it was in (`_accelerator`)
    accelerators: list["Accelerator | None"] = field(default_factory=list)
    ellipses: list[bool] = field(default_factory=list)  # per segment: "…" to write for the model's "..." (ELLIPSIS)
    broken_dots: list[bool] = field(default_factory=list)  # per segment: ".." to write as "..." (TWO_DOTS)
    # per segment: the line breaks that wrap its sentence (`_wrap_end`), with their indentation, each with its share of
    # the segment before it, to go back at the same share of the translation (`rewrapped`)
    wraps: list[list[tuple[float, str]]] = field(default_factory=list)
    html: bool = False  # the text is HTML
    # ICU choices read as whole sentences (`icu_sentences`): the translation is contracted, so it streams whole
    icu_expanded: bool = False
    # Attribute values a reader sees (`shown_values`), each a text of its own whose segments follow the text's own
    shown: list["ShownValue"] = field(default_factory=list)
    # The options' metavariables, said alike across the translation (`Metavariables`), so it streams whole
    metavariables: Metavariables | None = None
    # Direct speech's segments (`speech_segments`): those that open a quotation from a capital, written from one, and
    # its tags of a pronoun and a verb, written verb first; each streams whole
    speech_starts: set[int] = field(default_factory=set)
    speech_tags: set[int] = field(default_factory=set)
    # Items that are menu paths or quoted labels (`ui_labels`): "klicken" takes "auf" before them (`_clicked_on`)
    labelled: set[int] = field(default_factory=set)
    _items: list[str] | None = field(default=None, repr=False)  # while restoring: the items, values translated
    _relabelled: list[str] | None = field(default=None, repr=False)  # `_with_known_values`, set once prepared
    _tags: set | None = field(default=None, repr=False)  # while preparing: (closing, name) of every item's tags
    _leaving: frozenset[int] = field(default=frozenset(), repr=False)  # while preparing: items take_out_tags may take

    def restore(self, translations: list[str]) -> str:
        """The translated text: segments' translations with their placeholders restored, glued as the source.
        Sets `repairs`: the placeholder tokens that had to be added, dropped or reordered."""
        if len(translations) != len(self.segments):
            raise ValueError(f"{len(translations)} translations for {len(self.segments)} segments")
        self._items, self.repairs = self._with_values_translated(translations[self.own_segments:]), 0
        try:
            written = []
            for index, translation in enumerate(translations[:self.own_segments]):
                repaired = self._repaired(index, translation)
                self.repairs += repaired.count
                written.append(self._written(index, repaired.text))
            around = ["", *written, ""]  # (glue holds items too: written with the translated values)
            pieces = [self.glue_between(index, around[index], around[index + 1]) + text
                      for index, text in enumerate([*written, ""])]
        finally:
            self._items = None
        self.repairs += sum(shown.value.repairs for shown in self.shown)
        text = icu_contracted("".join(pieces)) if self.icu_expanded else "".join(pieces)
        return self.metavariables.said_alike(text) if self.metavariables else text

    def glue_between(self, index: int, before: str, after: str) -> str:
        """The glue before segment `index` (or after the last) as written between the translations `before` and
        `after`: a wrap `rewrapped` put before a translation's words takes the blanks before it, one it ended them
        with the blanks after it (restored whole or streamed, the text is the same)."""
        glue = self.written_glue(index)
        if after[:1] in LINE_BREAKS:
            glue = glue.rstrip(" \t")
        if before[-1:] in LINE_BREAKS:
            glue = glue.lstrip(" \t")
        return glue

    @property
    def own_segments(self) -> int:
        """How many segments are the text's own: the shown values' follow them."""
        return len(self.glue) - 1

    def _with_values_translated(self, translations: list[str]) -> list[str] | None:
        """The protected items with each shown value's translation in its place (None where there are none)."""
        values, done = [], 0
        for shown in self.shown:  # each value's segments follow the previous value's
            count = len(shown.value.segments)
            values.append((shown, shown.value.restore(translations[done:done + count])))
            done += count
        return self._with_values(values)

    def _with_known_values(self) -> list[str] | None:
        """The protected items with each value known before translating (a language's, "de") in its place: what a
        streamed piece and the glue are written with where no shown value waits for its translation."""
        return self._with_values([(shown, shown.value.restore([])) for shown in self.shown if not shown.value.segments])

    def _with_values(self, values: list[tuple["ShownValue", str]]) -> list[str] | None:
        """The protected items with each value in its place, attribute-safe (None where there are none)."""
        if not values:
            return None
        items = list(self.protected)
        for shown, value in reversed(values):  # from the end: an item's earlier spans stay where they are
            item = items[shown.item]
            items[shown.item] = item[:shown.start] + _attribute_safe(value, shown.quote) + item[shown.end:]
        return items

    def add_shown(self, shown: "ShownValue") -> None:
        """Append an attribute value's segments after the text's own (restored into its item, not the text)."""
        value = shown.value
        self.shown.append(shown)
        for name in ("segments", "numbers", "moved", "spaces", "shouted", "emphasized", "tapped", "ordinals",
                     "end_marks", "steps", "accelerators", "ellipses", "broken_dots", "wraps"):
            getattr(self, name).extend(getattr(value, name))

    @property
    def whole(self) -> bool:
        """Whether the translation streams whole: ICU choices read as sentences are contracted from it, a shown
        value's translation goes into a tag before it, and metavariables are said alike across it."""
        return self.icu_expanded or any(shown.value.segments for shown in self.shown) or self.metavariables is not None

    def restore_segment(self, index: int, translation: str) -> str:
        """One segment's translation with its protected items back (repaired if the model lost some)."""
        return self._written(index, self._repaired(index, translation).text)

    def streams(self, index: int) -> bool:
        """Whether a segment's translation may be sent as it is decoded, each piece `written`: nothing in it waits
        for the whole translation (placeholder tokens, references read as spaces, "..." that may become "…" and
        ".." that becomes "...": a piece can end between the dots; line breaks that wrap the source, placed by the
        translation's length; a name in small letters the model may write with a capital; a code the model may
        misspell, `codes_as_read`)."""
        return not (self.whole or self.numbers[index] or self.spaces[index] or self.ellipses[index]
                    or self.broken_dots[index] or self.wraps[index] or self.accelerators[index]
                    or self._percent_signs_alone(index) or index in self.speech_starts or index in self.speech_tags
                    or self._introduces_speech(index)
                    or self.emphasized[index] or self.tapped[index] or self.ordinals[index] or self.end_marks[index]
                    or self.steps[index]
                    or self._goes_on_after_a_clause(index) or self._names_in_small_letters(index)
                    or read_codes(self.segments[index]))

    def _names_in_small_letters(self, index: int) -> list[str]:
        """A segment's names in small letters of words joined by hyphens (`names_in_small_letters`), which the model
        may write with a capital: the segment streams whole."""
        segment = self.segments[index]
        return names_in_small_letters(segment) if "-" in segment else []

    def _introduces_speech(self, index: int) -> bool:
        """Whether a segment ends in a comma before direct speech ('She said, "I will come."'): German closes it with a
        colon ("Sie sagte: „Ich komme.“"), where the model kept the comma or dropped it ("Er bat „Wo ist ...?“"). Not
        a tag inside an interrupted quotation, in small letters after its first part ("'Stop,' he said, 'I can hear
        something.'": "„Halt“, sagte er, „ich höre etwas“")."""
        segment = self.segments[index]
        return (index + 1 in self.speech_starts and segment.rstrip().endswith(",")
                and not self.unmask(self.glue[index + 1]).strip(" " + QUOTES)
                and not (segment[:1].islower() and set(self.unmask(self.glue[index])) & QUOTATION_MARKS))

    def _goes_on_after_a_clause(self, index: int) -> bool:
        """Whether a segment goes on with a sentence after a mark between clauses (CLAUSES_GO_ON_AFTER) or after a
        comma where a long sentence was cut (`split_to_fit`), from a small letter. Translated alone, the second part
        started as a sentence does: GNOME's help "When one or more Bluetooth devices are connected, the Bluetooth
        icon appears ..." (33 tokens) came back as "..., Das Bluetooth-Symbol erscheint ..."."""
        if not (0 < index < self.own_segments and self.segments[index][:1].islower()):
            return False
        glue = self.unmask(self.glue[index])
        cut_at_a_comma = not glue.strip() and self.segments[index - 1].endswith(",")
        return glue.rstrip().endswith(CLAUSES_GO_ON_AFTER) or cut_at_a_comma

    def without_cut_annotation(self, index: int, text: str) -> str:
        """The model's text for segment `index` without a cut dictionary annotation at its end (CUT_ANNOTATION) and
        the whitespace before it."""
        return text if "<" in self.segments[index] else text[:_before_end(text, CUT_ANNOTATION)]

    def settled(self, index: int, text: str, sent: str = "") -> int:
        """How much of a streamed segment's text after the pieces `sent` is sure to stay: all but its trailing
        whitespace and what could start a cut annotation or a group the model opened (MODEL_GROUP) or end in a comma
        with a word after it (OPENER_AFTER_COMMA), a word that may become a copy of the one before it (`copy_at_end`),
        the verb after its subject while it (or after a noun the word after it) may go on (`verb_held_back_from`) or a
        noun phrase whose noun has not ended (`held_back_from`), which wait for the next piece or the end."""
        segment = self.segments[index]
        if not BRACKETED.search(segment) and (opened := text.rfind("(")) > text.rfind(")"):
            text = text[:opened].rstrip()  # the group goes whole, with the space before it
        if "," in text and (comma := COMMA_AT_END.search(text)):
            text = text[:comma.start()]
        if (copy := copy_at_end(text)) is not None:
            text = text[:copy]
        # both read the same text: a phrase whose noun has ended goes before a verb held after it ("Das Wetter i")
        verb, held = verb_held_back_from(segment, sent, text), held_back_from(text)
        if held is not None and (verb is None or held <= verb):  # with a comma before it, which waits for its opener
            text = text[:held].rstrip().removesuffix(",")
        elif verb is not None:
            text = text[:verb]
        if "<" in segment:
            return len(text)
        return len(text[:_before_end(text, CUT_ANNOTATION_START)].rstrip())

    def _without_model_groups(self, index: int, text: str) -> str:
        """The model's text without the groups in parentheses it wrote where segment `index` has no parenthesis
        (MODEL_GROUP), each with the whitespace before it."""
        if BRACKETED.search(self.segments[index]) or not BRACKETED.search(text):
            return text
        return MODEL_GROUP.sub(lambda group: group[0] if group[1] and PLACEHOLDER_PATTERN.search(group[1]) else "",
                               text)

    def _percent_signs_alone(self, index: int) -> bool:
        """Whether the segment has a percent sign but no two together: then "%%" in its translation is the model's
        printf escape, learned from catalogs ("grew by 2.5% last year" came back as "grau von 2.5%%"), and is "%"."""
        segment = self.segments[index]
        return "%" in segment and "%%" not in segment

    def written(self, index: int, text: str, before: str = "") -> str:
        """The model's text for segment `index`, whole or any piece a stream sends after `before` (`settled` keeps a
        group the model opened and a comma with the word after it in one piece): without the groups it made up,
        `_worded`."""
        return self._worded(index, self._without_model_groups(index, text), before)

    def _worded(self, index: int, text: str, before: str = "") -> str:
        """The model's words for segment `index` as German writes them: each word and compound's part once, each
        article in its noun's gender (`agreeing`), the verb after a subject pronoun or singular noun at its start in
        the subject's person (`conjugated`), a clause's opener after a comma in small letters, `_spelled`. `before`:
        the pieces a stream sent of the segment before this one, which both read."""
        segment, agreed = self.segments[index], self._agreeing(index, self._said_once(index, text), before)
        if before and len(before) <= SUBJECT_CHARS and ENGLISH_NOUN_SUBJECT.match(segment):  # the noun subject sent
            before = agreeing(before)  # as the whole reads it, in its noun's gender ("Die alte Papiertuch": "Das")
        return self._spelled(index, self._after_commas(index, conjugated(segment, agreed, before)))

    def _agreeing(self, index: int, text: str, before: str = "") -> str:
        """`agreeing`, each token of an item written as one noun read as that noun (a glossary's term, "Akte"): the
        model saw the token alone and guessed its article ("Öffnen Sie das XX0X": "die"). Where a word with such a
        noun would change (a genitive's ending) or words would join, the tokens are read as before."""
        nouns = self._written_nouns(index) if self._relabelled else {}
        read = PLACEHOLDER_PATTERN.sub(lambda token: nouns.get(token[0], token[0]), text) if nouns else text
        if read == text:
            return agreeing(text, before)
        agreed = agreeing(read, before)
        words, read_words, agreed_words = (SPACES_APART.split(version) for version in (text, read, agreed))
        if len(agreed_words) != len(words) or any(word != as_read and as_agreed != as_read
                                                  for word, as_read, as_agreed in zip(words, read_words, agreed_words)):
            return agreeing(text, before)
        return "".join(word if word != as_read else as_agreed
                       for word, as_read, as_agreed in zip(words, read_words, agreed_words))

    def _written_nouns(self, index: int) -> dict[str, str]:
        """The tokens of segment `index` whose items are written as one noun the lexicon knows the gender of."""
        nouns = {}
        for token, item in enumerate(self.numbers[index]):
            written = self._relabelled[item]
            if written != self.protected[item] and ONE_NOUN.fullmatch(written) and (
                    lexicon.load().gender(written) or "p")[0] in "mfn":
                nouns[PLACEHOLDER.format(token)] = written
        return nouns

    def _said_once(self, index: int, text: str) -> str:
        """The German with each word and compound's part said once where the model said it twice (SAID_TWICE) and
        segment `index` says no word twice ("Baden-Baden", "very, very")."""
        if not SAID_TWICE.search(text) or WORD_TWICE.search(self.segments[index]):
            return text
        return SAID_TWICE.sub("", text)

    def _after_commas(self, index: int, text: str) -> str:
        """The German with the words that open a clause in small letters after a comma (OPENER_AFTER_COMMA)."""
        if ", " not in text or CAPITAL_AFTER_COMMA.search(self.segments[index]):
            return text
        return OPENER_AFTER_COMMA.sub(lambda word: word.group().lower(), text)

    def _spelled(self, index: int, text: str) -> str:
        """The model's text for segment `index`: in capitals where the source was, each character the model read for
        a reference spelled as that reference again."""
        if self.shouted[index]:
            text = text.upper()
        if not self.characters and not self.escaped:
            return text
        return text.translate({**self.escaped, **{ord(character): reference for character, reference
                                                  in self.characters.items()}})

    def _written(self, index: int, text: str) -> str:
        text = codes_as_read(self._without_model_groups(index, text), self.segments[index])
        text = self._spaced_from_glue(index, text)  # first: the model's marks, not the references they are written as
        if names := self._names_in_small_letters(index):
            text = in_small_letters_again(text, names)
        if self.emphasized[index]:
            text = _emphasis_restored(text, self.emphasized[index])
        if self.tapped[index]:
            text = CLICKING.sub(lambda verb: "Tipp" if verb[0][0] == "K" else "tipp", text)
        if self.ordinals[index]:
            text = _ordinal_written(text, self.ordinals[index])
        if self.end_marks[index]:
            text = _marks_restored(text, self.end_marks[index])
        if self.steps[index]:
            text = _step_placed(text, self.steps[index])
        if index in self.speech_tags:  # "sie sagte.": "sagte sie."
            text = GERMAN_SPEECH_TAG.sub(lambda tag: f"{tag['verb'].lower()} {tag['pronoun'].lower()}{tag['end']}",
                                         text)
        elif index in self.speech_starts and text[:1].islower():  # the model wrote "„ich werde zurückkommen“"
            text = text[0].upper() + text[1:]
        if self._introduces_speech(index):  # "She said," before the speech: "Sie sagte:"
            text = text.rstrip().rstrip(",:") + ":"  # the model's own colon once
        if self._percent_signs_alone(index):
            text = DOUBLED_PERCENT.sub("%", text)
        if self.wraps[index]:  # first: the shares are of the text as the model reads it and writes it
            text = rewrapped(text, self.wraps[index], before=self.glue[index][-1:] in (" ", "\t"))
        if self.broken_dots[index]:
            text = TWO_DOTS.sub("...", text)
        if self.ellipses[index]:  # before `written`, which spells a "…" read from "&hellip;" as the reference again
            text = THREE_DOTS.sub(ELLIPSIS, text)
        # Before `written`, which spells a marker read from "&amp;" as the reference
        if (accelerator := self.accelerators[index]) and not _marks_a_letter(text, accelerator[0]):
            text = accelerated(_stray_marker_dropped(text, accelerator[0]), *accelerator)
        elif accelerator:
            text = _first_marker_only(text, accelerator[0])
        if self._goes_on_after_a_clause(index):
            text = _opener_in_small_letters(text)
        text = self._worded(index, text)
        if self.spaces[index]:
            text = spaces_put_back(text, self.spaces[index], lambda word: self._spelled(index, word))
        # A segment that owns no placeholder keeps any token the model made up as text (as it streamed), never
        # another segment's item.
        if not self.numbers[index]:
            return self._in_tex_quotes(text)
        if self.labelled:
            text = self._clicked_on(index, text)
        masked = self._compared(index, self._joined_as_in_source(index, self._quoted_as_in_source(index, text)))
        masked = self._verb_second(index, masked)
        masked = _nested_emphasis_apart(masked, self.protected, self.numbers[index])
        return self._in_tex_quotes(self._capital_kept(index, masked, self.unmask(masked, index)))

    def written_glue(self, index: int) -> str:
        """The glue before segment `index` (-1: after the last) as the translation writes it: its items back."""
        return self._in_tex_quotes(self.unmask(self.glue[index]))

    def _in_tex_quotes(self, text: str) -> str:
        return text.translate(TEX_QUOTES) if self.latex else text

    def _capital_kept(self, index: int, masked: str, text: str) -> str:
        """The translation with a capital where the model moved an item written in German to its start and the source
        starts with a capital ("Updated 2 days ago." came back as "vor 2 Tagen aktualisiert.", "Configure e.g. an
        Editor" as "z.B. ein Editor einrichten", "I live in Berlin." as "in Berlin wohne ich."): German starts a
        sentence with one. Not an item kept as written ("npm.install jetzt ausführen")."""
        source = self.segments[index].lstrip()
        token, lead = LEADING_TOKEN.match(masked), len(text) - len(text.lstrip())
        if not (token and text[lead:lead + 1].islower() and source[:1].isupper()
                and not PLACEHOLDER_PATTERN.match(source)):
            return text
        if (number := int(token.group(1))) >= len(self.numbers[index]):
            return text
        item = self.numbers[index][number]
        if not any(shown.item == item and not shown.value.segments for shown in self.shown):
            return text  # kept as written
        return text[:lead] + text[lead].upper() + text[lead + 1:]

    def _clicked_on(self, index: int, text: str) -> str:
        """The translation with "auf" before a label where "klicken" or "tippen" takes it and the model left it out:
        read as a token, a quoted label lost it ('Click "Cancel" to stop.' came back as 'Klicken Sie "Abbrechen", um
        ...' in 13 of the held-out catalogs' 26 such messages, against 4 as words)."""
        labels = {k for k, number in enumerate(self.numbers[index]) if number in self.labelled}
        if not labels:
            return text

        def holds_a_label(tokens: str) -> bool:  # a label's token, or one with its tags
            return any(int(token[1]) in labels for token in PLACEHOLDER_PATTERN.finditer(tokens))

        text = CLICKED_TOKEN.sub(lambda m: m[0] + "auf " if holds_a_label(m[1]) else m[0], text)  # "Klicken Sie XX0X"
        return TOKEN_CLICKED.sub(lambda m: "auf " if holds_a_label(m[1]) else "", text)  # "XX0X klicken"

    def _spaced_from_glue(self, index: int, text: str) -> str:
        """The translation with a space after the kept token before it where the source has marks and a space there
        and the model dropped the marks: "&nbsp;, && house" came back as "&nbsp;&& house", the operator glued to the
        reference (and no longer read as an operator), "(reinstall), downgraded" as "(reinstall)downgraded". Not after
        an opening mark: "(& Ctrl-key" is "(Strg-Taste" without its "&"."""
        glue, source = self.glue[index] if index < self.own_segments else "", self.segments[index]
        marks = re.match(r"[^\w\s]+(?=\s)", source)
        if not glue or glue[-1].isspace() or unicodedata.category(glue[-1]) in ("Ps", "Pi") or not marks:
            return text
        return text if text[:1].isspace() or text.startswith(marks.group(0)) else " " + text

    def _quoted_as_in_source(self, index: int, text: str) -> str:
        """The translation without the spaces the model put inside a quotation: after an opening mark that a word
        follows in the source, before a closing one that follows a word ("The word 'cat'" came back as "Das Wort
        'Kontakt '"; 11 of the 408 catalog messages with quoted terms had one); and without the marks it put around
        such marks ('around "untracked cache" feature' came back as 'Fehler „"untracked Cache"“')."""
        source = self.segments[index]
        for k, number in enumerate(self.numbers[index]):
            if self.protected[number] not in QUOTATION_MARKS:
                continue
            token = PLACEHOLDER.format(k)
            if re.search(f"(?<!\\S){token}\\S", source):
                text = re.sub(f"(\\s*){token}(\\s+)(?=\\S)", lambda gap: _outside_quotes(gap[1], gap[2]) + token, text)
                outside = f"[{MODEL_QUOTES}]{token}"
            elif re.search(f"\\S{token}(?!\\w)", source):
                text = re.sub(f"(?<=\\S)(\\s+){token}(\\s*)", lambda gap: token + _outside_quotes(gap[2], gap[1]), text)
                outside = f"{token}[{MODEL_QUOTES}]"
            else:
                continue
            if not re.search(outside, source):  # the model's, not the source's own ('«{0}»“' kept its "“")
                text = re.sub(outside, token, text)
        return text

    def _joined_as_in_source(self, index: int, text: str) -> str:
        """The translation with each token and the word after it as the source has them: a space between a token and
        the word the model glued to it (GLUED_WORD), where the source has one there and the item ends in a letter or
        digit; a count's token apart from the noun the model joined to it (COUNT_ITEM: "%d-Dateien" is "%d Dateien"; a
        comparison's, COMPARISON_ITEM: "so wenig-Code" is "so wenig Code", "wie-Eis" is "wie Eis"),
        an option's from its argument (OPTION_ITEM: "-e-ZEICHENKETTE" is "-e ZEICHENKETTE") or an abbreviation's from
        the word after it (ABBREVIATIONS: "d.h.-Kennungen" is "d.h. Kennungen": 10 of 148 in held-out package
        descriptions, catalog messages and AppStream texts), and a name's placeholder from a metavariable
        (METAVARIABLE_JOINED: "%s-OPTION" is "%s OPTION"); then a name token that qualifies a noun joined to it by a
        hyphen (`is_name`): where the source has a word in small letters after the name, or a capitalized one that
        the translation does not keep ("HandBrake Presets": "HandBrake-Voreinstellungen"; "FreeBSD Foundation", kept,
        stays apart)."""
        source = self.segments[index]
        for k, number in enumerate(self.numbers[index]):
            token = PLACEHOLDER.format(k)
            if not (after := re.search(f"{token} ([^\\W\\d_]\\w*)", source)):
                continue
            item = self.protected[number]
            if item[-1:].isalnum() and not re.search(f"{token}[^\\W\\d_]", source):
                text = re.sub(token + GLUED_WORD.pattern, f"{token} ", text)
            if COUNT_ITEM.fullmatch(item) or COMPARISON_ITEM.fullmatch(item):
                text = re.sub(token + NOUN_JOINED_TO_COUNT.pattern, f"{token} ", text)
            elif OPTION_ITEM.fullmatch(item) and after.group(1).lower() not in OPTION_NOUNS \
                    or item.rstrip(",").lower() in ABBREVIATIONS:
                text = re.sub(token + WORD_JOINED.pattern, f"{token} ", text)
            # (a line in capitals is read sentence-cased: its metavariable is the word after the token, in capitals)
            elif re.fullmatch(CAPITALS, after.group(1).upper() if self.shouted[index] else after.group(1)) \
                    and re.fullmatch(NAME_PLACEHOLDER, item):
                text = re.sub(token + METAVARIABLE_JOINED.pattern, f"{token} ", text)
            if is_name(item):
                word = after.group(1)
                kept = "" if word[0].islower() else rf"(?!{word}\b)"
                text = re.sub(token + NOUN_AFTER.pattern + kept, f"{token}-", text)
        return text

    def _compared(self, index: int, text: str) -> str:
        """The translation with each comparison's words as German writes them (EQUATIVE: two tokens in a row): the
        word compared without the ending the model gave it, where its stem is a word German writes ("so kaltes wie":
        "so kalt wie", "so leichtes wie": "so leicht wie"; "so leise wie" stays), and without the comma the model
        wrote after "wie" ("zehnmal so schnell wie, das eine"), which German never writes there."""
        items = [self.protected[number] for number in self.numbers[index]]
        for k in range(len(items) - 1):
            if not (COMPARISON_ITEM.fullmatch(items[k]) and COMPARISON_ITEM.fullmatch(items[k + 1])):
                continue
            opener, closer = PLACEHOLDER.format(k), PLACEHOLDER.format(k + 1)
            if items[k][-2:].lower() == "as":  # no quantity ("so viele Threads wie")
                text = re.sub(f"(?<={opener} )[a-zäöüß]+(?= {closer})", lambda word: _uninflected(word[0]), text)
            text = text.replace(f"{closer},", closer)
        return text

    def _verb_second(self, index: int, text: str) -> str:
        """The translation with the finite verb before its subject after an adverbial that opens the sentence
        (ADVERBIALS, or a form of time or place written in German, FRONTED: "Last year,", "On Monday,", "Two years
        ago,"; OPENED_CLAUSE), and without the comma after it, as German writes it: "Allerdings, die
        Aktualisierung ist fehlgeschlagen." is "Allerdings ist die Aktualisierung fehlgeschlagen.", "Deshalb, Sie
        müssen ..." is "Deshalb müssen Sie ...", "Übrigens, habe ich ..." is "Übrigens habe ich ...". Not where the
        word after the subject is no finite verb (`_finite`: "die Aktualisierung fehlgeschlagen", the model lost the
        verb) or the clause ends with its verb (VERB_LAST)."""
        first = self.numbers[index][0]
        opener = self.protected[first]
        if not (self.segments[index].startswith("XX0X,") and (opener in ADVERBIALS or FRONTED.match(opener) and (
                opener not in SET_PHRASES and any(shown.item == first for shown in self.shown)))):
            return text  # ("In other words," keeps its comma)
        if (inverted := INVERTED_CLAUSE.match(text)) and _finite(inverted["verb"]):
            return f"{inverted['adverbial']}{text[inverted.end('adverbial') + 1:]}"
        if not (opened := OPENED_CLAUSE.match(text)):
            return text
        verb, subject = opened["verb"], opened["subject"]
        if not _finite(verb) or VERB_LAST.match(text, opened.end()):
            return text
        if re.match(rf"(?:{SUBJECT_PRONOUN}|{DETERMINER})\b", subject) and subject[:3] != "Sie":
            subject = subject[0].lower() + subject[1:]  # "Es ist": "ist es"
        return f"{opened['adverbial']}{opened['gap']}{verb}{opened['space']}{subject}{text[opened.end():]}"

    def _repaired(self, index: int, translation: str) -> "Repaired":
        if not translation:  # the model wrote nothing ("a" came back as ""): the segment as the source has it
            translation = self.segments[index]
        items = self.numbers[index]
        if not items:  # nothing protected here: the translation as the model wrote it (and as it streamed)
            return Repaired(translation, 0)
        owned = sorted(range(len(items)), key=items.__getitem__)  # the segment's tokens in the source's order
        # An item that holds a tag keeps its place in the tags' order, whatever else a merged run holds with it
        # ("%s </b>" after "<b>"): a tags-only test let the model swap such an item before its opening tag. Tags in
        # another order that nests them as well stay as they are (words that swapped places take their tags along).
        is_tag = [TAG.search(self.protected[items[k]]) is not None for k in owned]
        if self._nested_as_in_source(index, translation, [k for k, tag in zip(owned, is_tag) if tag]):
            is_tag = [False] * len(owned)
        source = self.unmask(self.segments[index], index)
        stray_x = "xx" not in source.lower() and not OWN_TOKEN_DEBRIS.search(source)
        return repair(translation, owned, is_tag, stray_x=stray_x,
                      before_a_mark=lambda k: _reads_as_itself_before_a_mark(self.protected[items[k]]))

    def _nested_as_in_source(self, index: int, translation: str, tags: list[int]) -> bool:
        """Whether the translation holds each of these tag tokens of the segment once, in an order that opens and
        closes the elements as the source's order does."""
        found = [int(m.group(1)) for m in PLACEHOLDER_PATTERN.finditer(translation) if int(m.group(1)) in tags]
        if sorted(found) != sorted(tags) or found == tags:
            return False  # a token lost or repeated (repair's work), or nothing to keep
        items = self.numbers[index]
        in_source = reduced([self.protected[items[k]] for k in tags])
        return in_source is not None and reduced([self.protected[items[k]] for k in found]) == in_source

    def unmask(self, text: str, segment: int | None = None) -> str:
        """Glue (numbered across the text: token k is protected[k]) or, given `segment`, that segment's text (its own
        numbering) with the items back; a token beyond them stays as it is."""
        protected = self._items or self._relabelled or self.protected
        items = protected if segment is None else [protected[item] for item in self.numbers[segment]]
        if not items:
            return text
        return PLACEHOLDER_PATTERN.sub(lambda m: items[int(m.group(1))] if int(m.group(1)) < len(items) else m.group(0),
                                       text)

    def _numbered_per_segment(self) -> None:
        """Each segment's tokens renumbered from XX0X in reading order, those taken out with their tags numbered
        after the ones the model reads. Numbered across the text, a sentence's tokens depended on the items before
        it, and the model never learnt them: catalog messages with their tokens shifted by 10 came back repaired
        in 336 of 600 (27 unshifted), chrF 52.56 against 54.71."""
        for index, segment in enumerate(self.segments):
            if not self.numbers[index]:
                continue
            read = [int(token.group(1)) for token in PLACEHOLDER_PATTERN.finditer(segment)]
            is_read = set(read)
            self.numbers[index] = read + [item for item in self.numbers[index] if item not in is_read]
            number = {item: k for k, item in enumerate(self.numbers[index])}
            self.segments[index], moved_to = renumbered(segment, number)
            self.moved[index] = [replace(m, before=number.get(m.before), after=number.get(m.after),
                                         start=moved_to(m.start), end=moved_to(m.end)) for m in self.moved[index]]
            # the words beside a reference read as a space are found by their tokens too ("10&nbsp;km": "XX1X km")
            self.spaces[index] = [replace(space, before=renumbered(space.before, number)[0],
                                          after=renumbered(space.after, number)[0]) for space in self.spaces[index]]

    def _words(self, core: str) -> str:
        """A masked segment's words: its text outside its items, and its items that are names `package_names` finds
        ("Naujas projektas" is two words the lexicon lacks, not one beside an item)."""
        def word_or_nothing(token: re.Match) -> str:
            item = self.unmask(token[0])
            return item if is_package_name(item) else ""
        return PLACEHOLDER_PATTERN.sub(word_or_nothing, core)

    def add(self, piece: str) -> None:
        """Append a piece of the masked text: a segment to translate, or glue when it has nothing to translate."""
        core = piece.strip()
        letters = self._words(core) if self.protected else core
        if not LETTER.search(letters) or LONE_LETTER.fullmatch(core) \
                or CODE_IN_CAPITALS.fullmatch(letters) and letters == core and not lexicon.load().knows(core) \
                or _not_english(core if letters == core else self.unmask(core), letters):
            self.glue[-1] += piece  # a list number, a bullet, a bare placeholder, a table's variable, a code, a
            return  # sentence in another language: kept as it is
        lead, core, trail, spaces, shouted = self._read(piece)
        core, emphasized = _emphasis_read(core) if not shouted else (core, [])
        core, step = _step_read(core)
        core = _signing_read(core) if "ign" in core else core
        core, tapped = _tapping_read(core) if "ap" in core else (core, False)
        core, ordinal = _ordinal_read(core) if ORDINAL_HINT.search(core) else (core, "")
        core, end_marks = _marks_read(core) if "!!" in core or "?" in core or core.endswith("::") else (core, "")
        core, accelerator = _accelerator(core) if not self.html else (core, None)
        self.glue[-1] += lead
        self.numbers.append([int(m.group(1)) for m in PLACEHOLDER_PATTERN.finditer(core)] if self.protected else [])
        self.segments.append(core)
        self.moved.append([])
        self.spaces.append(spaces)
        self.shouted.append(shouted)
        self.emphasized.append(emphasized)
        self.tapped.append(tapped)
        self.ordinals.append(ordinal)
        self.end_marks.append(end_marks)
        self.steps.append(step)
        self.accelerators.append(accelerator)
        self.ellipses.append(ELLIPSIS in core and "..." not in core)
        self.broken_dots.append(bool(THREE_DOTS.search(core) or ELLIPSIS in core) and not TWO_DOTS.search(core))
        self.glue.append(trail)

    def _read(self, piece: str) -> tuple[str, str, str, list[SpaceReference], bool]:
        """A piece of the masked text as (what stays before it, the segment the model reads, sentence-cased where
        the piece is in capitals, what stays after it, its references read as spaces, whether it is in capitals)."""
        core = piece.strip()
        lead, trail = piece[:len(piece) - len(piece.lstrip())], piece[len(piece.rstrip()):]
        core = ACUTE_APOSTROPHE.sub("'", core) if "´" in core else core
        if bullet := list_marker(core, self.protected):  # kept, not translated
            lead, core = lead + bullet.group(0), core[bullet.end():]
        if arrow := LEADING_GUILLEMETS.match(core):
            lead, core = lead + arrow.group(), core[arrow.end():]
        if arrow := TRAILING_GUILLEMETS.search(core):
            core, trail = core[:arrow.start()], arrow.group() + trail
        spaces: list[SpaceReference] = []
        if self.protected:
            edges = self._kept_at_edges(core)  # "&nbsp;&nbsp;Text", "🔥 Deals": indentation, decoration: kept
            lead, core, trail = lead + core[:edges[0]], core[edges[0]:edges[1]], core[edges[1]:] + trail
            core, spaces = read_as_characters(core, self.protected, self.characters, self.quoting_references)
        shouted = _shouted(core)
        return lead, _sentence_cased(core) if shouted else core, trail, spaces, shouted

    def read(self, piece: str) -> str:
        """The segment a piece of the masked text would be, its tokens numbered as in the text."""
        return self._read(piece)[1]

    def as_read(self, piece: str, leaving: Container[int] = ()) -> str:
        """The segment a piece of the masked text would be, its tokens numbered from XX0X: what the model reads of
        it, whichever items come before it in the text. Whether a piece fits is judged on it, so a sentence is cut
        the same alone, as the 40th line of a text or escaped in a web page. Without the tokens of the items
        `leaving` (tags that take_out_tags may take out), spaces around them collapsed."""
        core = self.read(piece)
        if leaving:
            core = " ".join(PLACEHOLDER_PATTERN.sub(
                lambda token: " " if int(token.group(1)) in leaving else token.group(0), core).split())
        read = [int(token.group(1)) for token in PLACEHOLDER_PATTERN.finditer(core)]
        return renumbered(core, {item: k for k, item in enumerate(read)})[0]

    def _kept_at_edges(self, core: str) -> tuple[int, int]:
        """Where the core starts and ends without the tokens at its edges that stay where they are (and the
        whitespace beside them): characters the model cannot read that are no letter, digit or punctuation
        (`only_symbols`: emoji, invisible marks, whitespace), as they are or as references ("&nbsp;", "&#128512;"),
        and in HTML, void elements (`markup.void_only`). Read, a token glued to the first word cost the model the
        word: "😀Open the file." came back as "😀Einstellungen der Datei.", and so did a text whose byte order mark
        (U+FEFF) it kept; now "😀Datei öffnen.". A form's field after its label's words went where the model put it,
        inside the label: '<label>Datei<input type="text"> öffnen</label>'. (In plain text a tag at the edge is mostly
        a thing the sentence names, "undefined reference to <schema id='%s'/>", and stays with its words.)"""
        start, end = 0, len(core)
        while (token := PLACEHOLDER_PATTERN.match(core, start)) and self._stays_at_edge(token, opening=True):
            start = WHITESPACE.match(core, token.end()).end()
        tokens = list(PLACEHOLDER_PATTERN.finditer(core, start))
        while tokens and tokens[-1].end() == end and self._stays_at_edge(tokens[-1], opening=False):
            end = tokens.pop().start()
            while end > start and core[end - 1].isspace():
                end -= 1
        return start, end

    def _stays_at_edge(self, token: re.Match, opening: bool) -> bool:
        number = int(token.group(1))
        item = self.protected[number]
        # (not a mark that leaves the segment with its pair: kept at the edge of a sentence cut before it, the "`" of
        # "`Draft 7 <url>`_" went to the glue, and its end, now unpaired, to the model)
        character = as_character(item)
        beside = token.string[token.end():token.end() + 1] if opening else token.string[token.start() - 1:token.start()]
        return (only_symbols(character) and number not in self._leaving
                or self.html and markup.void_only(item) or self._lone_tag(number, opening)
                or character in GUILLEMETS and beside in (" ", "\t"))

    def _lone_tag(self, number: int, opening: bool) -> bool:
        """Whether an item is WebVTT cue spans (CUE_SPANS) that only open (at a segment's start; only close, at its
        end) and that no other tag of the text closes (opens): it covers the words after (before) it, whatever the
        translation makes of them, so it stays at its edge. Read, it cost the model words: 398 held-out sentences
        after "<v Roger>" came back at chrF 51.34 against 58.07 alone. (Not a catalog's lone "<p>" at a line's start:
        the model learnt those as tokens, and 13 held-out lines came back at chrF 53.62 without it against 58.16.)"""
        item = self.protected[number]
        tags = [_cue_span(tag) for tag in TAG_PARTS.finditer(item)] if markup.TAGS_ONLY.fullmatch(item) else []
        if not tags or any(closing == opening or name not in CUE_SPANS for closing, name in tags):
            return False
        if self._tags is None:  # any item's, "%s</v>" too (TAG_PARTS alone: linear, comments and all)
            self._tags = {_cue_span(tag) for item in self.protected if "<" in item
                          for tag in TAG_PARTS.finditer(item)}
        return all((opening, name) not in self._tags for _, name in tags)


# A UI label's mnemonic marker, Qt's "&File", "E&xit" and GTK's "Save _As" (a keyboard accelerator). The training data
# drops them (model/catalogs.py, `strip_accelerators`); the model kept one at a word's start in 122 of 137 held-out
# labels with one, but lost some ("&File" came back as "Datei", "Skip &All" as "Alle überspringen") and garbled one
# inside a word ("E&xit" as "E&xt"). A label of up to ACCELERATOR_MAX_WORDS words on one line with one marker before a
# letter (inside a word, "&" before a small letter: "Drag&Drop", "AT&T" are names) is read with a marker at a word's
# start and without one inside a word; where the translation has none, it goes back (`accelerated`): 133 of 137 with
# one, 13 changed (11 got theirs back: "&Alle überspringen"), chrF of the 137 without markers 67.23 -> 67.15. GTK's
# "_", which the vocabulary lacks, is read without its marker at a word's start too: served as a token glued to the
# word ("XX0XAdd to Bookmarks"), it came back apart in 8 of 165 installed catalog labels ("_ Zu Lesezeichen
# hinzufügen"), now 2, and on the 86 of them with a German reference chrF without markers went 57.07 -> 71.41 (the
# marker on the reference's word 31 -> 36, on its letter 40 -> 38). Read with tokens blanked. LibreOffice's "~" (its
# catalogs' X-Accelerator-Marker: "S~pacing to left margin:", "E~xtension", "~Print"), outside the vocabulary too, is
# read as GTK's is: as a token inside a word, the model copied the word ("S~pacing nach linkser Rand:"). Of 4,931
# sampled LibreOffice UI messages, the 71 with one: chrF without markers 50.43 -> 57.16, the marker on the reference's
# word 31 -> 36 (kept a token at a word's start: 55.90, 34). Not strftime's "%_H", nor a home directory's "~alice/".
ACCELERATOR = re.compile(r"(?:(?<![\w&%~])(?:[&_]|~(?![\w.-]*/))|(?<=[^\W\d_])(?:&(?=[a-z])|~))(?=[^\W\d_])")
ACCELERATOR_MAX_WORDS = 8
# A label with GTK's marker is no sentence: of the 226 installed catalog messages with one, none ends with a full stop
# but "Use *_tz() function for time zone support.", and none has a comma between words (their contexts aside:
# "Stock label, media"). A sentence's "_" starts an identifier ("Call _exit to quit the program." and "Use _exit, not
# exit, in the child" read as labels came back as "B_eenden Sie das Programm ...", "B_eenden, nicht im Kind":
# UNDERSCORED_NAME)
SENTENCE_SHAPED = re.compile(r"\S+(?:\s+\S+){2,}(?<=[^\W_])\.\s*|.*\w, \w.*")  # 3 words and a full stop; a comma
Accelerator = tuple[str, str, int]  # the marker, its word with it ("E&xit"), which of the segment's such words


def _accelerator(segment: str) -> tuple[str, Accelerator | None]:
    """The segment as the model reads it, without its label's mnemonic marker (ACCELERATOR) where that stands inside
    a word or is GTK's "_" (outside the vocabulary), and the marker with its word; or the segment as it is and
    None."""
    if (marker := _label_marker(segment)) is None:
        return segment, None
    words, at = marker.string, marker.start()
    start = at
    while start and words[start - 1].isalnum():
        start -= 1
    end = WORD_CHARACTERS.match(words, at + 1).end()
    read = segment if start == at and segment[at] == "&" else segment[:at] + segment[at + 1:]
    occurrence = len(_whole(segment[start:end].replace(segment[at], "", 1)).findall(read, 0, start))
    return read, (segment[at], segment[start:end], occurrence)


WORD_CHARACTERS = re.compile(r"[^\W_]*")


def _label_marker(label: str) -> re.Match | None:
    """A label's one mnemonic marker (ACCELERATOR, or GTK's "_" inside a word: `_marks_inside`; in the label with its
    tokens blanked: a token parts words too): on one line, of up to ACCELERATOR_MAX_WORDS words (with a "_", no
    sentence: SENTENCE_SHAPED), with no other "&" or "_" (a "~": no other "~"); else None."""
    if (sum(map(label.count, "&_")) != 1 and label.count("~") != 1  # (first: a text of many is read once)
            or "\n" in label.strip() or len(label.split()) > ACCELERATOR_MAX_WORDS
            or "_" in label and SENTENCE_SHAPED.fullmatch(label)):
        return None
    blanked = tokens_blanked(label)
    markers = [*ACCELERATOR.finditer(blanked), *filter(_marks_inside, UNDERSCORE_INSIDE.finditer(blanked))]
    if len(markers) != 1:
        return None
    alike = "~" if markers[0].group() == "~" else "&_"  # "Find & Rep~lace": its "&" is a word
    return markers[0] if sum(map(label.count, alike)) == 1 else None


UNDERSCORE_INSIDE = re.compile(r"(?<=[^\W\d_])_(?=[^\W\d_])")


def _letter(character: str) -> bool:
    """Whether a character is one UNDERSCORE_INSIDE's "[^\\W\\d_]" reads as a letter (a word's character but a digit or
    "_": "½" and "Ⅳ" too, which isalpha denies, and a word scanned by isalpha was empty beside them: IndexError)."""
    return character.isalnum() and not character.isdecimal()


def _marks_inside(underscore: re.Match) -> bool:
    """Whether a "_" inside a word is GTK's marker, not an identifier's: the word without it is one the model learned
    ("E_xport", "languag_e", "Ad_just": LibreOffice's labels, which came back as they were, 156 of 4,931 sampled UI
    messages), and it does not join two words in small letters ("file_name", "user_id"; "http_proxy" is no word)."""
    text, at = underscore.string, underscore.start()
    start, end = at, at + 1
    while start and _letter(text[start - 1]):
        start -= 1
    while end < len(text) and _letter(text[end]):
        end += 1
    before, after = text[start:at], text[at + 1:end]
    knows = lexicon.load().knows
    if not knows(before + after):
        return False
    return before[0].isupper() or not (len(before) > 1 and len(after) > 1 and knows(before) and knows(after))


def _unknown_marker(text: str) -> tuple[int, int] | None:
    """The span of a one-line label's GTK or LibreOffice marker ("_Add to Bookmarks", "Color _name:", "S~pacing"),
    which `_accelerator` takes out, so that it is no unknown character's token: glued to its word it came back apart
    ("_ Zu Lesezeichen hinzufügen", "Farbname: _:": 8 of 165 installed catalog labels with one, served, now 2)."""
    marker = _label_marker(text)
    return marker.span() if marker is not None and marker.group() in ("_", "~") else None


def _marks_a_letter(translation: str, marker: str) -> bool:
    return re.search(rf"{re.escape(marker)}[^\W\d_]", translation) is not None


def _first_marker_only(translation: str, marker: str) -> str:
    """The translation with one marker before a letter, its first, where the model wrote more ("Open/Refresh Form
    &Preview" came back as "Form &Presh-Format &Preview öffnen": Qt Linguist flags the label)."""
    marked = re.compile(rf"(?<!{re.escape(marker)}){re.escape(marker)}(?=[^\W\d_])")
    first = marked.search(translation)
    return translation[:first.end()] + marked.sub("", translation[first.end():])


def _stray_marker_dropped(translation: str, marker: str) -> str:
    """The translation without a marker the model wrote before a space or at the end, where it marks no letter
    ("Copy &Username" came back as "& Benutzername kopieren")."""
    return re.sub(rf"{re.escape(marker)}(?:\s+|$)", "", translation, count=1)


def tokens_blanked(text: str) -> str:
    """The text with each placeholder token as as many NULs: offsets kept, no letter or space of a token found."""
    return PLACEHOLDER_PATTERN.sub(lambda token: "\0" * len(token.group()), text)


def _whole(word: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(word)}(?!\w)")


def accelerated(translation: str, marker: str, word: str, occurrence: int) -> str:
    """The translation with a mnemonic marker back: where it was in its word if the translation keeps the word (as
    often as the segment: that occurrence), else before the marked letter at a word's start, else before that letter
    anywhere, else before the first letter ("&File": "&Datei", "E&xit": "&Beenden", "Mount a DVD-&RAM": "DVD-&RAM
    einhängen"), first where it has no letter. Never inside a token."""
    offset = word.index(marker)
    plain, letter = word.replace(marker, "", 1), word[offset + 1]
    searchable = tokens_blanked(translation)
    if kept := list(_whole(plain).finditer(searchable)):
        at = kept[occurrence if occurrence < len(kept) else 0].start() + offset
    else:
        found = (re.search(rf"(?<!\w){re.escape(letter)}", searchable, re.IGNORECASE)
                 or re.search(re.escape(letter), searchable, re.IGNORECASE) or LETTER.search(searchable))
        at = found.start() if found else 0
    return translation[:at] + marker + translation[at:]


def _shouted(segment: str) -> bool:
    """Whether a segment is in capitals, in two words or more, or one English word of three letters or more. The
    model read "DELETE ALL FILES?" as letters ("DELETEE ALLESEITEIS?"): of 600 test sentences in capitals, none came
    back as their translation in capitals (chrF 14.63 against the capitalized references; read sentence-cased,
    32.26). So it read a spreadsheet's header or a label alone ("NOTE" came back as "NICHT", "DONE" as "DATEN",
    "CANCEL" as "ANTERZEICHNIS", "PRICE" as "PRICE"; sentence-cased, "NOTIZ", "ABGESCHLOSSEN", "ABBRECHEN",
    "PREIS"). A shorter word in capitals is mostly an acronym, which sentence-cased is another word ("USA" read as
    "Usa" came back as "Verwendung", "TV" as "TW"), and a code no English text writes in small letters is kept
    (CODE_IN_CAPITALS). A file's extension is read in small letters: in capitals it is no shouting ("CLI (.NET)":
    ".NET" alone came back as ".NETZ"), and in small letters a list of acronyms with it is none."""
    text = EXTENSION_ALONE.sub(lambda extension: extension.group().lower(), PLACEHOLDER_PATTERN.sub(" ", segment))
    if not text.isupper():
        return False
    words = CASED_WORD.findall(text)
    return len(words) >= 2 or len(words) == 1 and len(words[0]) >= 3 and lexicon.load().knows(words[0])


# A code the model reads (no item), which German writes as English does: an acronym ("XMPP", "FAT32"), a word of
# letters and digits ("A4", "Qt5", "v244"). Greedy decoding lost or changed 111 of 3,126 acronyms in 1,500 held-out
# package descriptions ("Qt Quick PDF QML module" came back as "Qt Quick-PDF-QModul", "an RGB colour mixer" as "ein
# Farbmischer", "since udev v244" as "seit udev v24"); as an item a code loses its German compounds
# (CODE_IN_CAPITALS: "FAT32-Dateisystem"), so a translation must hold the codes its segment reads
# (service.texts.Texts.kept): one that lost one is decoded again with beams (--placeholder-retry-beams). Which words
# are codes is told after the match: a pattern saying so would backtrack over a long word. And a file's extension
# alone (".sh", ".tar.gz", ".Z"): the model lost or changed 16 of the 127 in two samples of 1,500 package descriptions
# ("Shell script (.sh)", "convert .eot to .ttf"); as an item, the catalogs' ".deb-Dateien" came back as ".deb Dateien".
READ_CODE = re.compile(r"(?<!\w)[A-Za-z][A-Za-z0-9]+(?!\w)")
EXTENSION_ALONE = re.compile(r"(?<![\w./\\~-])\.(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{1,10}"
                             r"(?:\.[A-Za-z0-9]{1,10})*(?![\w/-]|\.\w)")


@functools.lru_cache(maxsize=1024)  # asked of a segment as it is sent, streamed and restored
def read_codes(segment: str) -> tuple[str, ...]:
    """The codes a segment sends the model (READ_CODE: in capitals, or with a digit; EXTENSION_ALONE), each once;
    none where more of its words are in capitals than not, whose words in capitals are words ("WARNING: DO NOT
    unplug")."""
    text = PLACEHOLDER_PATTERN.sub(" ", segment)
    words = CASED_WORD.findall(text)
    if 2 * sum(map(str.isupper, words)) > len(words):
        return ()
    codes = [word for word in READ_CODE.findall(text) if word.isupper() or not word.isalpha()]
    return tuple(dict.fromkeys(EXTENSION_ALONE.findall(text) + codes))


# A code the model read and wrote a letter off, where the retry's beams did not mend it: a letter added, lost or
# changed ("IEEE" came back as "IEEEE", "XUL" as "XULL", "STDERR" as "STDER", "HP2XX" as "HP2X", "--group=GROUP" as
# "--group=GROUPP") or its capitals changed ("cb2Bib": "Cb2Bib", "ASCII": "Ascii"). German writes codes as English
# does, so such a word in the code's place is the code: of two samples of 1,500 package descriptions 40 paragraphs
# changed, 33 closer to their German. Not a word German writes in place of an English word: the model translated a
# word in capitals ("LIST": "LISTE", "TYPE": "TYP", "NUMBER": "NUMMER"), as the catalogs translate metavariables; but
# a German word a letter off a code no English text writes is a misspelling too ("ANN" came back as "ANNE"), or the
# German for what package descriptions write in English ("DNA" as "DNS": their German keeps "DNA" in each of the 9;
# the dictionary's one example writes "DNS").
WORD_OF_A_CODE = re.compile(r"(?<!\w)[^\W_]+(?!\w)")  # letters and digits, as codes and the words near them are


def codes_as_read(translation: str, segment: str) -> str:
    """The translation with each code its segment reads (`read_codes`) that it says less often than the segment
    written in place of the word it says instead, one the segment lacks: the code in other capitals, or a word in
    capitals or of letters and digits a letter off it (`_misspells`)."""
    if not (codes := read_codes(segment)):
        return translation
    read = Counter(WORD_OF_A_CODE.findall(segment))
    said = Counter(WORD_OF_A_CODE.findall(translation))
    if not (missing := [code for code in codes if said[code] < read[code]]):
        return translation
    new = [word for word in said if word not in read]
    in_other_capitals = {word.lower(): word for word in new}
    # (a bound: each is checked against each missing code, and a sentence says a few; hostile text says thousands)
    spelled_as_codes = [word for word in new if len(word) >= 2 and CODE_SHAPE.fullmatch(word)
                        and not PLACEHOLDER_PATTERN.fullmatch(word)][:MISSPELLINGS_CHECKED]  # (a tag put back: "XX3X")
    misspelt = {}
    for code in missing:
        found = in_other_capitals.get(code.lower())
        if found is None or found in misspelt:
            found = next((word for word in spelled_as_codes if word not in misspelt and _misspells(word, code)), None)
        if found is not None:
            misspelt[found] = code
    return _words_written_as(translation, misspelt, WORD_OF_A_CODE)


CODE_SHAPE = re.compile(r"[^\W\d_a-zäöüß]+|(?=.*\d)(?=.*[^\W\d_])\w+")  # in capitals, or of letters and digits
MISSPELLINGS_CHECKED = 32


def _misspells(word: str, code: str) -> bool:
    """Whether a word spelled as a code is that code misspelt: a letter off it, but not a German word where the code
    is an English word (translator.lexicon)."""
    if not _a_letter_off(word, code):
        return False
    known = lexicon.load()
    return not (word.isalpha() and known.knows(code) and known.is_german(word))


def _a_letter_off(one: str, other: str) -> bool:
    """Whether two different words differ by one letter added, lost or changed."""
    if len(one) > len(other):
        one, other = other, one
    if len(other) - len(one) > 1 or one == other:
        return False
    at = next((k for k, (a, b) in enumerate(zip(one, other)) if a != b), len(one))
    return one[at + (len(one) == len(other)):] == other[at + 1:]


# A word in capitals for emphasis inside a sentence in small letters ("Do NOT turn off your computer.", "NEVER share
# your password."): the model read it as letters and lost the word's meaning ("Keine KEINENT ausschalten.", "NEVER Ihres
# Passwort teilen."). It is read in small letters, and its German in the translation written in capitals again, as the
# catalogs' references do ("will NOT be installed": "wird NICHT installiert", "NO WARRANTY": "KEINE GARANTIE"); where
# the model wrote none of its German words, the emphasis goes, the meaning stays. Only words that are no acronym's and
# no value's ("NONE", "ANY", "NOW" are options and keys as often), not joined to another ("NOT-relay"), not an
# operator's ("logical NOT", "NOT(x)", "the NOT operator"), in a segment with a word in small letters.
EMPHASIS_WORDS = {"NOT": ("nicht", "kein", "keine", "keinen", "keinem", "keiner", "keines"),
                  "NEVER": ("nie", "niemals"), "ALWAYS": ("immer",), "ONLY": ("nur",), "VERY": ("sehr",),
                  "ALL": ("alle", "alles", "allen", "aller", "allem"), "MUST": ("muss", "müssen", "musst", "müsst"),
                  "NO": ("kein", "keine", "keinen", "keinem", "keiner", "keines", "nein"), "CANNOT": ("nicht",),
                  "CAN'T": ("nicht",), "WON'T": ("nicht",), "DON'T": ("nicht",), "DO NOT": ("nicht",)}
# So is a note's label in capitals before its colon, where it opens a segment ("NOTE: If COMMAND adjusts ..."): read,
# the model wrote "KEINE:" (4 of the 6 "NOTE:" in 1,837 wrapped catalog messages and two samples of package
# descriptions), kept "CAUTION:", "NOTICE:", "HINT:" in English; sentence-cased it wrote "Hinweis:", "Warnung:". Not
# inside a sentence ("the NOTICE file" is a name there).
NOTE_LABELS = {"NOTE": ("hinweis", "anmerkung", "bemerkung", "notiz"), "NOTICE": ("hinweis",),
               "HINT": ("hinweis", "tipp"), "TIP": ("tipp", "hinweis"), "IMPORTANT": ("wichtig",),
               "CAUTION": ("vorsicht", "achtung", "warnung")}
EMPHASIZED = re.compile(rf"^(?:{'|'.join(NOTE_LABELS)})(?=:)|(?<![\w'’-])(?<!(?i:logical|bitwise|boolean) )"
                        rf"(?:{'|'.join(sorted(EMPHASIS_WORDS, key=len, reverse=True))})(?![\w'’(-])"
                        r"(?! (?i:operator|gate|expression)s?\b)")  # an operator's name: "logical NOT", "NOT(x)"
EMPHASIS_IN_GERMAN = {english: re.compile(rf"\b(?:{'|'.join(german)})\b", re.IGNORECASE)
                      for english, german in (EMPHASIS_WORDS | NOTE_LABELS).items()}
SMALL_LETTER_WORD = re.compile(r"\b[a-z]{2,}\b")


def _emphasis_read(segment: str) -> tuple[str, list[str]]:
    """The segment with its words in capitals for emphasis (EMPHASIS_WORDS) in small letters (a capital where the
    segment starts with one), and those words."""
    if not SMALL_LETTER_WORD.search(segment) or not (found := list(EMPHASIZED.finditer(segment))):
        return segment, []
    opens = not segment[:found[0].start()].strip(" \t\"'“‘(¡¿")  # the first word starts the segment
    pieces, done = [], 0
    for word in found:
        small = word.group().lower()
        pieces += [segment[done:word.start()], small[0].upper() + small[1:] if opens and word is found[0] else small]
        done = word.end()
    return "".join(pieces) + segment[done:], [word.group() for word in found]


# "Sign in", "sign up" and "sign out" are read as the words the model learned for them: it wrote "Sign in" as "Signieren
# ein", "Sign up" as "Signieren", "Stay signed in" as "Vorzeichen festgelegt in", "Please sign in to continue." as
# "Bitte signieren Sie fortzufahren.", where it wrote "Log in" as "Anmelden", "Register" as "Registrieren", "Log in with
# Google" as "Mit Google anmelden". Only a verb's: "sign" where an instruction or a verb's subject, modal or "to" goes
# before it ("the sign in the window", "the charge sign in pixels" keep their noun), "signed" and "signing" before a
# mark, the text's end or a word that goes on the verb ("signed in as", not "signed in Paris"); not a text that starts
# with one in small letters, a dictionary's headword the model learned ("sign up": "sich anmelden").
# Of the 66 held-out and training texts with "sign", "signed" or "signing" before "in", "up" or "out", 25 translations
# change: chrF 48.15 -> 49.28, BLEU 19.82 -> 19.84 (11 closer to the reference, 14 further, by a little: "log in" in a
# sentence came back as "Protokoll" as often; with headwords too, 48.28 and 25 further).
SIGNING = re.compile(r"\b(?P<verb>[Ss]ign(?P<ending>ed|ing)?) (?P<particle>in|up|out)\b"
                     r"(?P<after>(?=\s*$|[.,;:!?)]| (?:as|to|with|using|via|again|for|automatically|first)\b))?")
# Hyphenated, a noun or what describes one ("We noticed a sign-in from a new device." came back as "... ein Vorzeichen
# ...", "Go to the sign-in page." as "Zum Signieren der Seite gehen."); not "sign-on", single sign-on's, which the
# catalogs write as it is ("Single Sign-On") or as "Einmalanmeldung"
SIGNING_NOUN = re.compile(r"(?<![\w-])([Ss])ign-((?i:in|up|out))(?![\w-])")
SIGNING_NOUNS = {"in": "login", "up": "registration", "out": "logout"}
BEFORE_A_VERB = re.compile(r"(?:^|[.!?:]\s+|\n|(?<![\w'’])(?:to|please|can|can't|cannot|must|will|won't|should|"
                           r"could|may|might|you|we|they|I|and|or|then|now|first|not|never|also|just)[ \xa0])$",
                           re.IGNORECASE)


def _after_a_verbs_opener(segment: str, start: int) -> bool:
    """Whether what goes before `start` opens a verb (BEFORE_A_VERB): looked for in the 12 characters before it, not
    from the segment's start ("please sign in " * 10,000 took 4.81 s that way)."""
    return BEFORE_A_VERB.search(segment, max(0, start - 12), start) is not None


def _signing_read(segment: str) -> str:
    """The segment with "sign in", "sign up" and "sign out" as a verb read as "log in", "register", "log out", and as
    a noun, "sign-in", "sign-up", "sign-out", as "login", "registration", "logout"."""
    segment = SIGNING_NOUN.sub(lambda noun: _capitalized(SIGNING_NOUNS[noun[2].lower()], noun[1] == "S"), segment)
    pieces, done, lead = [], 0, len(segment) - len(segment.lstrip())
    for found in SIGNING.finditer(segment):
        verb, ending, particle = found["verb"], found["ending"] or "", found["particle"]
        if verb[0] == "s" and found.start() == lead or not (
                found["after"] is not None if ending
                else _after_a_verbs_opener(segment, found.start())):
            continue  # in small letters alone, a dictionary's headword ("sign up": "sich anmelden"); a noun's
        if particle == "up":
            read = "register" + ending
        else:
            read = ("logg" + ending if ending else "log") + " " + particle
        pieces += [segment[done:found.start()], _capitalized(read, verb[0] == "S")]
        done = found.end("particle")
    return "".join(pieces) + segment[done:] if pieces else segment


# "Tap" as a touch screen's verb is read as "click", which the catalogs taught the model 12 times as often (824 texts
# start with "Click", 71 have "tap", most a tool's or a faucet's): it wrote "Tap Settings, then tap Privacy." as "Tap
# Einstellungen, danntipp Privatsphäre.", "Tap anywhere to continue." as "Bitte schließen Sie es weiter."; read as
# "click", "Klicken Sie irgendwo, um fortzufahren.", which takes "Tippen" for "Klicken" (CLICKING). Only an
# instruction's "tap": where a segment starts with "Tap", or a comma or an instruction's word, subject or modal goes
# before it (BEFORE_A_VERB), before what is tapped or how ("the", "here", "twice", a label), in a segment with another
# word in small letters or before a label's token (not a menu entry, "Tap Time", "Tap BPM") and no "click" of its own;
# not "Tap water", a small-letter headword ("tap the wire").
TAPPING = re.compile(r"(?<![\w-])(?:[Dd]ouble-)?[Tt]ap(?=[ \xa0](?:on|the|a|an|and|or|to|here|there|anywhere|twice|once"
                     r"|it|them|this|that|your|any|again)\b|[ \xa0](?:XX\d+X|[A-Z+\"'“‘„«])|[.!,]?\s*$)")
CLICKING = re.compile(r"[Kk]lick")


def _tapping_read(segment: str) -> tuple[str, bool]:
    """The segment with an instruction's "tap" (TAPPING) read as "click", and whether it had one."""
    taps = list(TAPPING.finditer(segment)) if "lick" not in segment else []
    if not taps:  # most segments with "ap" ("application", "map"): no word search
        return segment, False
    worded = any(word != "tap" for word in SMALL_LETTER_WORD.findall(segment))
    pieces, done, lead = [], 0, len(segment) - len(segment.lstrip())
    for found in taps:
        tap = found.group()
        if not worded and not PLACEHOLDER_PATTERN.match(segment, found.end() + 1):
            continue  # a menu's entry ("Tap Time"), not an instruction to tap a label ("Tap XX0X.")
        if found.start() == lead and tap[0].islower() or found.start() > lead and not (
                segment.endswith(", ", 0, found.start())
                or _after_a_verbs_opener(segment, found.start())):
            continue  # a headword in small letters; a noun ("the tap", "a tap on the shoulder")
        pieces += [segment[done:found.start()], tap[:-3] + _capitalized("click", tap[-3] == "T")]
        done = found.end()
    return ("".join(pieces) + segment[done:], True) if pieces else (segment, False)


# A run of "!" and "?" ending a sentence, before its closing quotes and brackets. The model learnt one mark ("How are
# you???" came back as "Wie sind Sie?", "Great job!!" as "Große Job!"); it reads the run's first and the run goes back.
# So does reStructuredText's "::" that ends a paragraph before a literal block ("Released under the BSD license::" came
# back with one ":", and the block after it was no longer one).
MARK_RUN = re.compile(r"(?<![!?])[!?]{2,}(?=[\"'”’“»)\]]*$)|(?<!:)::$")
TRANSLATION_END = re.compile(r"(?:(?<![!?])[!?]+|(?<!\.)\.|(?<!:):)(?=[\"'”’“»)\]]*$)|(?<=\w)(?=[\"'”’“»)\]]*$)")


def _marks_read(segment: str) -> tuple[str, str]:
    """The segment with its sentence's closing run of marks (MARK_RUN) read as the run's first, and the run ("")."""
    if not (run := MARK_RUN.search(segment)):
        return segment, ""
    return segment[:run.start()] + run.group()[0] + segment[run.end():], run.group()


def _marks_restored(translation: str, run: str) -> str:
    """The translation with its closing mark, or a missing one after its last word, written as the source's run."""
    end = TRANSLATION_END.search(translation)
    return translation[:end.start()] + run + translation[end.end():] if end else translation


# Adverbs that order the steps of instructions ("First, open the settings menu. Then, select ..."). Read with them,
# the model lost words or the whole step ("After that, enter your password." came back as "Nach dem", "First, close
# all windows." as "Erste Fenster.", "Then, select ..." as "Dann, wählen Sie ..."), and alone it writes the
# instruction well: the step is read without its adverb, which German puts after the polite imperative ("Öffnen Sie
# zuerst das Einstellungsmenü.", "Versuchen Sie es dann erneut."), else before the instruction ("Zuerst das Kabel
# verbinden.", "Zuerst öffne den ..."). Only with its comma and before a verb ("First, we ...", "Now, exiting ..." stay
# the model's): without one, "Then click Save." came back well ("Dann klicken Sie auf Speichern."), "Next step" is none.
STEP_ADVERBS = {"First": "zuerst", "Then": "dann", "Next": "als Nächstes", "Finally": "schließlich",
                "Lastly": "zuletzt", "Now": "jetzt", "After that": "danach", "Afterwards": "danach"}
NOT_A_VERB = frozenset({"the", "a", "an", "this", "that", "these", "those", "it", "its", "we", "you", "they", "he",
                        "she", "i", "there", "here", "our", "your", "their", "my", "his", "her", "all", "some", "any",
                        "no", "each", "every", "if", "when", "while", "in", "on", "at", "for", "to", "with", "by",
                        "after", "before", "once", "as", "because", "since", "although", "so", "not", "only", "one",
                        "is", "are", "was", "were", "will", "can", "may", "and", "or", "but", "of", "from", "what",
                        "which", "who", "how", "why", "where", "let's", "both", "either", "neither", "more", "most",
                        "also", "everyone", "everything", "someone", "something", "nobody", "nothing", "two", "three",
                        "four", "five", "six", "seven", "eight", "nine", "ten", "many", "few", "several"})
STEP = re.compile(rf"(?P<adverb>{'|'.join(STEP_ADVERBS)}), (?P<verb>[a-z]+(?<!ing)(?:['’]s)?)(?= )")
POLITE_IMPERATIVE = re.compile(r"[A-ZÄÖÜ][a-zäöüß]+ Sie(?: (?:es|sich|uns|mich|ihn|sie|ihm|ihr|ihnen))?(?= )")


def _step(text: str, start: int = 0) -> re.Match | None:
    """The adverb of a step's order and the verb after it (STEP) at `start`, if there are."""
    return step if (step := STEP.match(text, start)) and step["verb"].lower() not in NOT_A_VERB else None


def _step_read(segment: str) -> tuple[str, str]:
    """The segment without the adverb that opens it before a verb (`_step`), the verb capitalized, and the adverb's
    German (""); not a question's."""
    if not (step := _step(segment)) or segment.rstrip().endswith("?"):
        return segment, ""
    return _capitalized(segment[step.start("verb"):], True), STEP_ADVERBS[step["adverb"]]


def _step_placed(translation: str, adverb: str) -> str:
    """The translation of a step with its adverb: after a polite imperative and its pronoun, else before it all."""
    if polite := POLITE_IMPERATIVE.match(translation):
        return f"{translation[:polite.end()]} {adverb}{translation[polite.end():]}"
    return f"{_capitalized(adverb, True)} {_opener_in_small_letters(translation)}"


# German goes on in small letters after a semicolon or a dash but for nouns and the polite "Sie". Marks between
# clauses are items, so the model reads each clause as a segment and starts it with a capital ("It failed; please try
# again." came back as "Es ist fehlgeschlagen; Bitte versuchen Sie es erneut.", "...; the file is missing." as "...;
# Die Datei fehlt."): a first word that is never a noun goes back to small letters where the source's is in them.
CLAUSES_GO_ON_AFTER = (";", "—")
NEVER_NOUNS = (r"Bitte|Es|Er|Ich|Wir|Man|Der|Die|Das|Dies|Diese[mnrs]?|Ein|Eine[mnrs]?|Kein|Keine[mnrs]?|Dann|Aber"
               r"|Und|Oder|Nicht|Nichts|Alle|Auch|Nur|Sonst|Daher|Deshalb|Jedoch|Also|An|Auf|Aus|Bei|Durch|Für|Im|In"
               r"|Mit|Nach|Über|Unter|Von|Vom|Zu|Zum|Zur")  # words that open a clause and are never a noun
CLAUSE_OPENER = re.compile(rf"^(?:{NEVER_NOUNS})\b"
                           # after an adverb, a verb's second person ("Öffne den ...")
                           r"|^[A-ZÄÖÜ][a-zäöüß]+e(?= (?:den|die|das|dem|ein|eine|einen|einem|alle) )")
# The same words in capitals after a comma inside a sentence, the model's: it learnt clauses as segments that start
# sentences, and wrote a main clause after a subordinate one so ("Wenn tmux gestartet wird, Es erzeugt ...", "In
# tmux, Eine Sitzung ...": 33 in tmux's rendered manual page, 52 in 140 Markdown pages; of 3,624 installed catalog
# messages with a comma 20 had one, chrF 51.58 -> 51.93 on them, no reference keeping the capital; Ding's held-out 1
# of 4,281). Not where the source has a capital after a comma itself (a name, a title: `CAPITAL_AFTER_COMMA`)
OPENER_AFTER_COMMA = re.compile(rf"(?<=, )(?:{NEVER_NOUNS})(?![\w-])")
CAPITAL_AFTER_COMMA = re.compile(r", (?!I\b|I['’]|XX\d+X)[A-Z]")
COMMA_AT_END = re.compile(r",[ \t]*[^\W\d_]*$")  # a stream's comma and the word after it so far: held back
# A compound's part said twice, the second time with its ending or another ("Widget-Widget, das die CPU-Benutzung
# zeigt" for "System monitor Widget that shows the CPU usage", "Installations-Installation", "Bild-Bilder"), or a word
# of 4 letters or more said twice in a row ("aber kompliziert kompliziert zu schreiben", "auch auch"): the model lost
# its place, and beams said it too (61 and 37 of 11,051 held-out texts' served translations, each a stutter; chrF,
# which counts the characters a copy shares with the reference, calls some of them further). German says the part
# once, with the second's ending, and the word once. A stream mends it where one piece holds both copies: its earlier
# pieces went out (holding each piece's last word back kept a text in a script without spaces from streaming at all).
# Not English tens and ones the model copied ("seventy-seventh" was left "seventh").
SAID_TWICE = re.compile(r"(?<!\w)([^\W\d_]{4,})(?:[^\W\d_]{0,2}(?<!ty)-(?=\1[^\W\d_]{0,2}(?!\w))| (?=\1(?!\w)))")
# A stream's last word so far, where it may become a second copy of the word or compound's part before it, which the
# stream still holds ("sein einzig einz", "Das Widget-Wid"): the two go in one piece, which says it once where the
# whole does (`copy_at_end`)
COPY_AT_END = re.compile(r"(?<![\w-])(?P<first>[^\W\d_]{4,})(?:[^\W\d_]{0,2}-| )(?P<copy>[^\W\d_]+)$")
WORD_TWICE = re.compile(r"(?<!\w)(\w+)\W{1,3}\1(?!\w)", re.IGNORECASE)  # a source's, marks between ("very, very")


def copy_at_end(text: str) -> int | None:
    """Where a stream's text so far ends in a word that may become a second copy of the one before it (COPY_AT_END):
    the start of the first copy; else None."""
    if not (words := COPY_AT_END.search(text)):
        return None
    first, copy = words["first"], words["copy"]
    return words.start() if first.startswith(copy) or copy.startswith(first) and len(copy) <= len(first) + 2 else None


def _opener_in_small_letters(german: str) -> str:
    """The German with its first word in small letters where that word is never a noun (CLAUSE_OPENER)."""
    return CLAUSE_OPENER.sub(lambda word: word.group().lower(), german)


# German quotation marks as TeX spells them, which every font encoding sets: a real paper (no "\usepackage[T1]{fontenc}",
# so OT1) translated with "„" failed pdflatex ("Command \quotedblbase unavailable in encoding OT1"). ",," is "„" where
# the fonts are T1's (a ligature), and "``" is "“" in both. Not in a text that writes such marks itself (its document
# sets them)
TEX_QUOTED = {"„": ",,", "“": "``", "”": "''", "‚": ",", "‘": "`", "»": "``", "«": "''"}
TEX_QUOTES = str.maketrans(TEX_QUOTED)


# Two tokens of Markdown's emphasis one after the other: an element that the alignments put directly inside another of
# the same mark, where the model dropped the words it wrapped ("*axes* with an *e*" came back as "**Achsen** mit
# einer *i*", which Markdown reads as strong emphasis; 2 of 277 cells of a book's notebooks)
ADJACENT_TOKENS = re.compile(r"XX(\d+)XXX(\d+)X")
EMPHASIS_MARK_SWAP = {"*": "_", "_": "*"}
OPENS_EMPHASIS = " \t\n([{\"'„“‚‘«‹"  # what an opening mark follows


def _nested_emphasis_apart(masked: str, protected: Sequence[str], numbers: Sequence[int]) -> str:
    """A segment's translation (its token k standing for protected[numbers[k]]) with the inner of two elements of one
    emphasis mark that nest directly written in the other mark ("*_Achsen_*", which Markdown reads as emphasis inside
    emphasis): an opening pair's second token, a closing pair's first."""
    def apart(pair: re.Match) -> str:
        tokens = [int(token) for token in pair.groups()]
        if max(tokens) >= len(numbers):
            return pair.group()
        first, second = (protected[numbers[token]] for token in tokens)
        if first != second or first not in EMPHASIS_MARK_SWAP:
            return pair.group()
        opening = pair.start() == 0 or masked[pair.start() - 1] in OPENS_EMPHASIS  # else after what it closes
        return (f"XX{pair.group(1)}X{EMPHASIS_MARK_SWAP[first]}" if opening
                else f"{EMPHASIS_MARK_SWAP[first]}XX{pair.group(2)}X")

    return ADJACENT_TOKENS.sub(apart, masked)


def _emphasis_restored(translation: str, emphasized: list[str]) -> str:
    """The translation with the German of each emphasized word (EMPHASIS_IN_GERMAN) in capitals: the first of its
    words not yet in capitals."""
    for english in emphasized:
        for word in EMPHASIS_IN_GERMAN[english].finditer(translation):
            if not word.group().isupper():
                translation = translation[:word.start()] + word.group().upper() + translation[word.end():]
                break
    return translation


def _sentence_cased(segment: str) -> str:
    """The segment in small letters but its first, placeholder tokens as they are."""
    pieces, done, first = [], 0, True
    for token in [*PLACEHOLDER_PATTERN.finditer(segment), None]:
        piece = segment[done:token.start() if token else len(segment)].lower()
        if first and (letter := LETTER.search(piece)):
            piece, first = piece[:letter.start()] + piece[letter.start()].upper() + piece[letter.end():], False
        pieces += [piece, token.group(0) if token else ""]
        done = token.end() if token else done
    return "".join(pieces)


@dataclass(frozen=True)
class Repaired:
    text: str
    count: int


@dataclass(frozen=True)
class SpaceReference:
    """A reference to whitespace (a non-breaking space) between two words, which the model read as a space (its
    vocabulary normalizes it): nothing says where it went but the words beside it."""

    before: str  # the word before it, as the model read it
    reference: str
    after: str
    occurrence: int = 0  # which of the read segment's spaces between these two words it was
    occurrences: int = 1  # how many spaces between these two words the read segment has

    def position(self, text: str, pairs: dict[tuple[str, str], list[int]], written: Callable[[str], str]) -> int | None:
        """Where in the written translation (its `word_pairs`) the reference goes: the space between its two words
        where the translation has them side by side (the same one of several where it has them as often as the
        source); else after the word before, or before the word after, where the translation has that word once
        ("10&nbsp;euros": "10 Euro", "Mr.&nbsp;Smith": "Herr Smith"); else nowhere (it stays a space)."""
        before, after = written(self.before), written(self.after)
        if between := pairs.get((before, after)):
            return between[self.occurrence] if len(between) == self.occurrences else between[0]
        for space in (rf"(?<!\S){re.escape(before)}( )(?=\S)", rf"(?<=\S)( ){re.escape(after)}(?!\S)"):
            found = [m.start(1) for m in re.finditer(space, text)]
            if len(found) == 1:
                return found[0]
        return None


def word_pairs(text: str) -> dict[tuple[str, str], list[int]]:
    """Every two words (runs of non-whitespace) with one space between them, and where those spaces are, in order."""
    pairs: dict[tuple[str, str], list[int]] = {}
    words = list(WORD.finditer(text))
    for first, second in zip(words, words[1:]):
        if second.start() == first.end() + 1 and text[first.end()] == " ":
            pairs.setdefault((first.group(), second.group()), []).append(first.end())
    return pairs


def spaces_put_back(text: str, spaces: list[SpaceReference], written: Callable[[str], str]) -> str:
    """The written translation with each reference to whitespace in the space `SpaceReference.position` finds for
    it, all found in the translation as the model wrote it; a space takes one reference at most. Each was put back
    in turn, so the second of "house&nbsp;house&nbsp;house" found only the first's pair of words and went there."""
    pairs = word_pairs(text)
    placed: dict[int, str] = {}
    for space in spaces:
        if (at := space.position(text, pairs, written)) is not None:
            placed.setdefault(at, space.reference)
    for at in sorted(placed, reverse=True):
        text = text[:at] + placed[at] + text[at + 1:]
    return text


def only_symbols(item: str) -> bool:
    """Whether an item (or the character a reference stands for) has no letter, digit or punctuation: one of
    characters the model cannot read (emoji, invisible format characters such as U+FEFF, U+FFFD) and whitespace.
    Every placeholder and markup pattern matches punctuation or letters."""
    return all(unicodedata.category(character)[0] in "SCZM" for character in item)


def renumbered(segment: str, number: dict[int, int]) -> tuple[str, Callable[[int], int]]:
    """The segment with each token XXiX as XX{number[i]}X, and where a position outside the tokens moved to."""
    pieces, ends, shifts, done, shift = [], [], [], 0, 0
    for token in PLACEHOLDER_PATTERN.finditer(segment):
        new = PLACEHOLDER.format(number[int(token.group(1))])
        pieces += [segment[done:token.start()], new]
        shift += len(new) - len(token.group(0))
        ends.append(token.end())
        shifts.append(shift)
        done = token.end()
    return "".join(pieces) + segment[done:], lambda at: at + (shifts[i - 1] if (i := bisect_right(ends, at)) else 0)


def characters_read(masked: str, protected: list[str], readable: Callable[[str], bool]) -> dict[str, str]:
    """The characters the model is to read for the text's character references, each with its reference: not where
    the text has the character outside references too, or two references to it (which spelling would the
    translation's take?), nor an ASCII letter or digit (placeholder tokens are made of them), whitespace (read as a
    space: `read_as_characters`), an invisible or combining character, or one the vocabulary lacks."""
    outside = set(PLACEHOLDER_PATTERN.sub("", masked))
    spellings: dict[str, set[str]] = {}
    for item in protected:
        if ONE_REFERENCE.fullmatch(item) and len(character := unescape(item)) == 1:
            spellings.setdefault(character, set()).add(item)
    return {character: references.pop() for character, references in spellings.items()
            if len(references) == 1 and character not in outside and not (character.isascii() and character.isalnum())
            and character.isprintable() and not character.isspace() and not unicodedata.combining(character)
            and readable(character)}


def read_as_characters(segment: str, protected: list[str], characters: dict[str, str], kept: Container[int] = ()
                       ) -> tuple[str, list[SpaceReference]]:
    """The segment with the tokens of the references in `characters` swapped for their characters (but the items in
    `kept`), and those of references to whitespace between two words (neither a space nor another token beside it)
    for spaces."""
    tokens = list(PLACEHOLDER_PATTERN.finditer(segment))
    references = [protected[int(token.group(1))] for token in tokens]
    read_as = [unescape(reference) if ONE_REFERENCE.fullmatch(reference) else "" for reference in references]
    is_space = [character.isspace() for character in read_as]
    pieces, spaces, done, length = [], [], 0, 0
    for index, (token, reference, character) in enumerate(zip(tokens, references, read_as)):
        if characters.get(character) == reference and int(token.group(1)) not in kept:
            read = character
        elif is_space[index] and _between_words(segment, tokens, is_space, index):
            read = " "
            spaces.append((length + token.start() - done, reference))
        else:
            continue
        pieces += [segment[done:token.start()], read]
        length += token.start() - done + 1
        done = token.end()
    read = "".join(pieces) + segment[done:]
    if not spaces:
        return read, []
    # Each space between two words, numbered among the spaces between the same two words, in one pass (a search per
    # space was quadratic in a text of thousands of "&nbsp;")
    pairs = word_pairs(read)
    between = {at: (pair, occurrence) for pair, ats in pairs.items() for occurrence, at in enumerate(ats)}
    return read, [SpaceReference(pair[0], reference, pair[1], occurrence, len(pairs[pair]))
                  for at, reference in spaces if at in between for pair, occurrence in [between[at]]]


WORD = re.compile(r"\S+")


def _between_words(segment: str, tokens: list[re.Match], spaces: list[bool], index: int) -> bool:
    """Whether token `index` has something right before and after it that is neither whitespace nor a token that
    `spaces` marks as whitespace ("10&nbsp;km": a number's token, then "km")."""
    start, end = tokens[index].span()
    return (0 < start and end < len(segment) and not segment[start - 1].isspace() and not segment[end].isspace()
            and not (index > 0 and tokens[index - 1].end() == start and spaces[index - 1])
            and not (index + 1 < len(tokens) and tokens[index + 1].start() == end and spaces[index + 1]))


def repair(text: str, owned: list[int], is_tag: list[bool], stray_x: bool = False,
           before_a_mark: Callable[[int], bool] | None = None) -> Repaired:
    """Each placeholder of `owned` exactly once: foreign or repeated tokens dropped, missing ones appended in
    source order (before the marks that end the sentence where `before_a_mark` says each of their items reads as
    itself there; None: all), and the tokens `is_tag` marks put back into source order at the positions the model
    chose. With stray_x (the source has no "XX", "X0X" or "0X" of its own), runs of "XX" outside the tokens, tokens
    that lost their first X and an X right after a digit are dropped too: what is left of tokens the model broke
    ("startenX1X", "|KieferX0XAbgleich|" in 9 of 54,642 catalog messages, "template1X" in 5 of 72,372); a broken
    form of a token that is missing ("X0X", "XX0") stands for it where it is."""
    wanted = set(owned)
    seen: set[int] = set()
    apart = markup.tokens_apart(text)[0]
    count, text = len(apart) - len(text), apart  # an X written for each pair of tokens that shared one
    if stray_x:
        text, mended = _mended_in_place(text, owned)
        count += mended
    text, unclosed = UNCLOSED_PLACEHOLDER.subn("", text)  # "XX0" without its closing X: the model's slip
    count += unclosed

    def keep_first(match: re.Match) -> str:
        nonlocal count
        number = int(match.group(2))
        if number in wanted and number not in seen:
            seen.add(number)
            return match.group(0)
        count += 1
        return "" if match.string[match.end():match.end() + 1] in MARK_AFTER_A_WORD else match.group(1)

    text = SPACED_TOKEN.sub(keep_first, text)
    missing = [number for number in owned if number not in seen]
    if missing:
        count += len(missing)
        before_end = before_a_mark is None or all(before_a_mark(number) for number in missing)
        text = _appended(text, "".join(" " + PLACEHOLDER.format(number) for number in missing), before_end)
    tags = [number for number, tag in zip(owned, is_tag) if tag]
    is_a_tag = set(tags)
    in_output = [int(m.group(1)) for m in PLACEHOLDER_PATTERN.finditer(text) if int(m.group(1)) in is_a_tag]
    if in_output != tags:
        count += 1
        order = iter(tags)
        text = PLACEHOLDER_PATTERN.sub(lambda m: PLACEHOLDER.format(next(order, int(m.group(1))))
                                       if int(m.group(1)) in is_a_tag else m.group(0), text)
    found = [int(m.group(1)) for m in PLACEHOLDER_PATTERN.finditer(text)]
    if sorted(found) != sorted(owned) or [n for n in found if n in is_a_tag] != tags:
        # Dropping a token glued the model's stray "XX"/digits into a new one ("XX1" + "2X"): keep the words,
        # put every placeholder at the end in source order.
        count += 1
        text = without_placeholder_fragments(text) + "".join(" " + PLACEHOLDER.format(number) for number in owned)
    if stray_x:
        text, matches = STRAY_X.subn(lambda m: m.group(1) or "", text)
        count += matches - len(owned)  # each owned token is one match, kept as it is
    # A token dropped or appended leaves its spaces: one between words, none at the ends ("%s: cannot create: %s"
    # came back as "%s: %s kann nicht erstellt werden: ", with a trailing space, in 83 of 17,526 catalog messages
    # with an item; keeping the repeated token nearest its place in the source instead of the first: chrF 53.65
    # against 53.66)
    return Repaired(re.sub(r"[ \t]{2,}", " ", text).strip(" \t") if count else text, count)


# The marks that end a sentence, and the quotes and brackets that may close it after them
SENTENCE_END = re.compile(r"[.!?…]+[\"'”’»)\]]*$")


def _appended(text: str, tokens: str, before_end: bool = True) -> str:
    """The text with tokens appended, before the marks that end its sentence: a token the model lost went after
    them ("Rejecting impossible rule prerequisite '%s'." came back as "Ablehnbare Regel wird abgewiesen. '%s'").
    Only marks right after a word: after a token or a symbol they may be its own ("%s...", "&&.")."""
    text = text.rstrip()
    end = SENTENCE_END.search(text)
    if not before_end or end is None or not text[end.start() - 1:end.start()].isalnum() \
            or token_ending_at(text, end.start()):
        return text + tokens
    return text[:end.start()].rstrip() + tokens + text[end.start():]


def _reads_as_itself_before_a_mark(item: str) -> bool:
    """Whether an item is found as it is with a full stop right after it ("%s.", "'%s'.", "/etc/fstab."), unlike an
    operator, which stands alone ("&&." is none)."""
    return protected_spans(item, EVERYTHING_AND_NUMBERS) == protected_spans(item + ".", EVERYTHING_AND_NUMBERS)


def _mended_in_place(text: str, owned: list[int]) -> tuple[str, int]:
    """The text with the first broken form of each owned token that is not there intact ("X0X", "XX0") made whole
    again, and how many: "application_name" came back as "AnwendungX0Xname", its "_" appended at the end."""
    mended = 0
    for number in owned:
        if PLACEHOLDER.format(number) in text:
            continue
        if broken := re.search(rf"(?<![X\d])(?:X{number}X|XX{number}){NOT_PART_OF_A_TOKEN}", text):
            text = text[:broken.start()] + PLACEHOLDER.format(number) + text[broken.end():]
            mended += 1
    return text, mended


def without_placeholder_fragments(text: str) -> str:
    """Text with every placeholder token and "XX<digits>" fragment removed, until none can form again."""
    while re.search(r"XX\d", text):
        text = re.sub(r"XX\d+X?", "", text)
    return text.rstrip()


def protect(text: str, protected: list[str], pattern: re.Pattern | None = EVERYTHING,
            spans: Sequence[tuple[int, int]] = (), apart: Apart | None = None, exact: Spans = (),
            no_item_ends: Container[int] = ()) -> str:
    """The text with every protected item swapped for a placeholder token, numbered in reading order: with a
    pattern, each element whose content is not to be translated (`untranslatable_elements`) whole, the (start, end)
    `exact` spans outside them as they are, and what `pattern` matches between those (the syntax of ICU's "{g,
    select, female {She}}" bounds its messages: "{She}" is none of its placeholders); and the parts of the `spans`
    that no item covers, each widened to its word; no match of `pattern` that ends at one of `no_item_ends`. Items
    with only spaces or joining marks between them are one (`runs_merged`), except those `apart` matches.
    `protected` collects the items."""
    items: list[tuple[int, int]] = []
    if pattern:
        # not one inside code, which shows it ("```html\n<script>...</script>\n```" was cut at the element, and the
        # block's rest and the text after it, read as a block never closed, were kept untranslated; "`<style>...
        # </style>`" lost its backticks). Code inside one is the element's: a <pre> holding "`pwd`" (a shell's
        # command) was dropped for it, and its commands came back translated ("pip wheel" as "Pip-Raumrad")
        # A fence or a backtick inside one is its content, though: paired with one in the next <pre>, two <pre>s
        # holding "```" made a code block of the text between them, and the second's code was translated
        if elements := untranslatable_elements(text):
            blocks = starting_outside(code_blocks(text), elements)
            in_code = starting_outside([found.span() for found in IN_CODE.finditer(text)], elements) \
                if "`" in text else []
            elements = starting_outside(elements, sorted(blocks + apart_from(in_code, blocks)) if in_code else blocks)
        start = 0
        for bound in [*sorted(elements + apart_from(exact, elements)), (len(text), len(text))]:
            items += [item for item in protected_spans(text, pattern, start, bound[0]) if item[1] not in no_item_ends]
            items.append(bound)
            start = bound[1]
        items.pop()  # the end of the text
    # A span is widened to its word once what the items cover is out of it (the ">" of "<b>station" is no span of
    # symbols inside a word), and never into an item.
    items += uncovered(whole_words(text, uncovered(spans, items)), items)
    items = sorted(items)
    items = sorted(items + uncovered(x_words(text, items), items))
    runs = runs_merged(text, digits_joined(text, items, apart), apart)
    first = len(protected)
    protected += [text[start:end] for start, end in runs]
    return with_tokens(text, runs, range(first, len(protected)))


def spanning_whole(items: Sequence[tuple], spans: Sequence[tuple[int, int]]) -> list[tuple]:
    """The items, (start, end, ...) sorted and apart, that hold each of the sorted `spans` they overlap whole: none
    inside a span or across one's edge ("Windows 10" holds its number; "count" lies inside "{count}")."""
    kept, k = [], 0
    for item in items:
        start, end = item[0], item[1]
        while k < len(spans) and spans[k][1] <= start:  # a span ending here ends before every later item too
            k += 1
        j = k
        while j < len(spans) and spans[j][0] < end and start <= spans[j][0] and spans[j][1] <= end:
            j += 1
        if j == len(spans) or spans[j][0] >= end:  # every span it overlaps lies inside it
            kept.append(item)
    return kept


def starting_outside(items: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (start, end) items that start inside none of the spans; both sorted, each apart."""
    kept, k = [], 0
    for start, end in items:
        while k < len(spans) and spans[k][1] <= start:
            k += 1
        if k == len(spans) or start < spans[k][0]:
            kept.append((start, end))
    return kept


def apart_from(items: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (start, end) items that overlap none of the spans; both sorted, each apart."""
    kept, k = [], 0
    for start, end in items:
        while k < len(spans) and spans[k][1] <= start:
            k += 1
        if k == len(spans) or end <= spans[k][0]:
            kept.append((start, end))
    return kept


def uncovered(spans: Sequence[tuple[int, int]], items: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of the (start, end) spans that none of the items covers; both sorted, the items apart."""
    parts: list[tuple[int, int]] = []
    covered = iter([*items, (math.inf, math.inf)])
    cover = next(covered)
    for start, end in spans:
        while start < end:
            while cover[1] <= start:
                cover = next(covered)
            if end <= cover[0]:  # nothing covers this span from start on
                parts.append((start, end))
                break
            if start < cover[0]:
                parts.append((start, cover[0]))
            start = cover[1]
    return parts


DIGITS = re.compile(r"\d+")


def digits_joined(text: str, items: list[tuple[int, int]], apart: Apart | None = None) -> list[tuple[int, int]]:
    """The (start, end) items in order, each but a tag or a character reference with the digits right after it. A
    token followed by a digit ("XX0X1" for "_1", "%%0A", '"1.0K"') reads to the model as another token: it wrote
    "XX0XX1", and what the repair kept of it showed ("Checkbook _1:" came back as "Prüfbuch XX0: _", '-> "1.0K"' as
    "-> XX0.0K"). A tag keeps its own token (it may leave the sentence or separate segments), and so does a reference,
    which the model may read as its character ("Page&nbsp;1": "Page 1"), and any item `apart` keeps alone (a Markdown
    link's "[" before "[5.2](#x)", an emphasis mark before "**5**": joined to the digits, the link lost its start)."""
    joined: list[tuple[int, int]] = []
    for start, end in items:
        if (not _tag_or_reference(text, start, end) and not (apart and apart(text, start, end))
                and (digits := DIGITS.match(text, end))):
            end = digits.end()
        if joined and start < joined[-1][1]:  # the digits joined to the item before reach into this one
            joined[-1] = (joined[-1][0], max(end, joined[-1][1]))
            continue
        joined.append((start, end))
    return joined


def x_words(text: str, items: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The words (runs of letters, digits and "_") that meet one of the sorted (start, end) items with a capital X on
    its side, and those that end in X before one with only spaces between. Beside a token the X reads as the token's
    own ("Type "X" to quit." was masked as "Type XX0XXXX1X to quit."), and the model dropped it: the X came back lost,
    "Xbox" as "box", "XL" as "L", "X-Files" as "-Dateien"; a space before the token did not keep them apart ("ONNX
    1.5" read as "ONNX XX0X" came back lost, "AIX 3.2" as "AI 3.2", "JIS X 0212" as "JIS 0212", "the X ClearArea
    request" without its "X"), one after it did ("Visio XML File Format": read, "XML-Dateiformat"; with the item, its
    hyphen was lost). As items they are kept as written, mostly names and keys, and the spaces join them to the item
    (`runs_merged`)."""
    words: set[tuple[int, int]] = set()
    floor = 0
    run = (0, 0)  # the last run of word characters scanned forward: a run from inside it ends where it ends
    for start, end in items:
        left = start
        while left > floor and text[left - 1] == " ":  # (a tab separates a table's cells)
            left -= 1
        if left > floor and text[left - 1] == "X":
            before = left - 1
            while before > floor and _word_character(text[before - 1]):
                before -= 1
            words.add((before, left))
        if end < len(text) and text[end] == "X":
            if not run[0] <= end + 1 <= run[1]:  # scanned again, 16,384 characters of "XX0Xä" took 2 s
                after = end + 1
                while after < len(text) and _word_character(text[after]):
                    after += 1
                run = (end + 1, after)
            words.add((end, run[1]))
        floor = max(floor, end)
    return sorted(words)


def _word_character(character: str) -> bool:
    return character.isalnum() or character == "_"


def _tag_or_reference(text: str, start: int, end: int) -> bool:
    """Whether the item text[start:end] ends as a tag (or a run ending in one) or is a character reference."""
    return text[end - 1] == ">" or ONE_REFERENCE.fullmatch(text, start, end) is not None


# Markup that runs from its opening to the first closing after it, whatever lies between: comments, and the CDATA
# sections of XHTML and SVG ("<![CDATA[ Open ]]> the file." came back as "<![CDATA[Ordner ]> die Datei.")
SECTIONS = (("<!--", "-->"), ("<![CDATA[", "]]>"))


def protected_spans(text: str, pattern: re.Pattern = EVERYTHING, start: int = 0, end: int | None = None
                    ) -> list[tuple[int, int]]:
    """(start, end) of what pattern matches in text[start:end] and of each section there (SECTIONS: "<!--" to the
    first "-->" after it), as if the sections were the pattern's first alternatives: from left to right, whichever
    begins first is taken and the scan goes on after it. As an alternative inside the pattern, a "<!--" that never
    closes made each later one scan to the end again (quadratic: 16,000 characters of "<!--" took 0.4 s); here each
    search result is kept until the scan passes it, so no part of the text is searched twice for the same thing."""
    end = len(text) if end is None else end
    unsearched, exhausted = (-1, -1), (end + 1, end + 1)  # exhausted: nothing (more) of that kind up to the end
    items: list[tuple[int, int]] = []
    hinted = ITEM_HINT if pattern in HINTED else None  # no item ahead where no hint is
    position, match = start, unsearched
    sections = [(unsearched, -1) for _ in SECTIONS]  # per kind: the first from the scan's position on, and its close
    while position < end:
        if match[0] < position:  # the first match from an earlier position is the first from here when it lies ahead
            hint = hinted is None or hinted.search(text, position, end)
            found = pattern.search(text, position, end) if hint else None
            match = found.span() if found else exhausted
        for kind, (opens, closes) in enumerate(SECTIONS):
            section, close = sections[kind]
            if section[0] < position:
                opening = text.find(opens, position, end)
                if opening >= 0 and close < opening + len(opens):  # close: the first after the last opening looked at
                    close = text.find(closes, opening + len(opens), end)
                # one that never closes: no later one does either
                sections[kind] = ((opening, close + len(closes)) if opening >= 0 and close >= 0 else exhausted), close
        nearest = min(section for section, _ in sections)
        item = nearest if nearest[0] <= match[0] else match  # a section over what starts as it does ("<!--")
        if item is exhausted:
            break
        items.append(item)
        position = item[1]
    return items


def with_tokens(text: str, spans: Sequence[tuple[int, int]], numbers: Sequence[int]) -> str:
    """The text with each (start, end) span, in order, swapped for the placeholder token of its number."""
    return swapped(text, spans, [PLACEHOLDER.format(number) for number in numbers])


def swapped(text: str, spans: Sequence[tuple[int, int]], replacements: Sequence[str]) -> str:
    """The text with each (start, end) span, in order, swapped for its replacement."""
    pieces, done = [], 0
    for (start, end), replacement in zip(spans, replacements):
        pieces += [text[done:start], replacement]
        done = end
    return "".join(pieces) + text[done:]


# Marks that join two items into one thing with no space around them: "%s:%d" (host and port), "%d/%d", "%s@%s",
# "%d.%d", "{key}={value}". As two tokens the model moved one alone ("Could not connect to %s:%d" came back as
# "Verbindung mit %s konnte nicht hergestellt werden:%d").
JOINING_MARK = r"[:/.@=#+-]"
JOINING_MARKS = re.compile(rf"{JOINING_MARK}{{1,3}}")


Apart = Callable[[str, int, int], object]  # whether the item text[start:end] stays alone (a pattern's fullmatch)


def _also_apart(apart: Apart, spans: set[tuple[int, int]]) -> Apart:
    """`apart`, and these (start, end) spans too (Markdown's marks: "**Warning:** %s" made "** %s" one item, and
    an operator "*" beside a word stays merged as before)."""
    return lambda text, start, end: (start, end) in spans or apart(text, start, end)


def runs_merged(text: str, items: list[tuple[int, int]], apart: Apart | None = None) -> list[tuple[int, int]]:
    """The (start, end) items in order, those with nothing but spaces between them joined into one: the model carries
    one token for a run, where among several it lost the words ("%s %s %s Delete the files?" came back as its
    placeholders alone, "<b><b><b>Hello</b></b></b>" as its tags). So are items other than markup that JOINING_MARKS
    join. An item `apart` says is one (text, start, end) stays alone (in HTML a block-level tag, which separates
    segments)."""
    merged: list[tuple[int, int]] = []
    for start, end in items:
        if (merged and (SPACES.fullmatch(text, merged[-1][1], start) or _joined_by_marks(text, merged[-1], (start, end)))
                and not (apart and (apart(text, start, end) or apart(text, *merged[-1])))):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return merged


def _joined_by_marks(text: str, before: tuple[int, int], after: tuple[int, int]) -> bool:
    """Whether only JOINING_MARKS stand between two items, neither of them markup (a tag may leave the sentence,
    a reference is read as its character)."""
    return (bool(JOINING_MARKS.fullmatch(text, before[1], after[0]))
            and not any(text[start] == "<" or _tag_or_reference(text, start, end) for start, end in (before, after)))


# Elements whose content is not text to translate: scripts, style sheets, code, and any element marked
# translate="no" (HTML's own attribute, and XLIFF's and ITS's), translatable="false" (an Android resource's: "<string
# name="api_key" translatable="false">abc123</string>" came back as "Abc123") or class="notranslate" (the convention
# of web translators); and Android's <xliff:g>, its resources' mark for text to keep (<xliff:g>Gmail</xliff:g>). And
# <pre>, a page's commands and code: every <pre> of Jenkins' 105 English help pages holds code, and "<pre>sudo apt-get
# --yes install openjdk-6-jdk</pre>" came back as "...openjdk-6-jdk-6-jdk". And <tt> and <samp>, code and a
# program's output as DocBook's and older pages mark them: of 69 HTML pages installed here, libxslt's "<tt>ctxt</tt>"
# came back as "<tt>Strg</tt>", zlib's "<tt>Z_BUF_ERROR</tt>" as "<tt>ZBUFERRORREICHEN</tt>", KOMA-Script's
# "<tt>scrbook</tt>" as "<tt>Skript</tt>". And Mallard's <cmd> and <sys> (GNOME's help: a command, a system's name),
# which its German keeps in 111 of 116 (the others "Postscript", "Dbus"): "<cmd>lshw -C network</cmd>" came back as
# "<cmd>lshw -C Netzwerk</cmd>", "<sys>gnome-shell-extensions</sys>" as "<sys>Gnome-Shell-Erweiterungen</sys>". And
# Mallard's and DocBook's <screen>, a terminal's text, and Mallard's <credit>, an author's name, e-mail address and
# years, which its German keeps in 1,792 of 1,894 (the others "GNOME-Dokumentationsprojekt"): read, "<name>Phil
# Bull</name>" came back as "Phil-Bild", and a name took another's e-mail address. And <acronym> (DocBook's web
# pages), which GIMP's German help keeps in 113 of 114: "the <acronym>GIMP</acronym> Developers web site" came back
# with "<acronym>Sie</acronym>". And DocBook's code, a program's input and output (KDE's manuals, whose German keeps
# 98 of 126: "<command>unrar</command>", "<literal>zip</literal>", "<userinput>zsh -l</userinput>" came back
# translated or lost).
UNTRANSLATABLE = ("script", "style", "code", "pre", "tt", "samp", "xliff:g", "cmd", "sys", "screen", "credit",
                  "acronym", "command", "literal", "userinput", "computeroutput", "programlisting", "envar", "prompt")
RAW_TEXT = ("script", "style")  # their content is not markup: it ends at their own end tag
# Elements kept as written by what they hold (KEPT_FOR_CONTENT), each element's content read from its start to its
# first tag or slash only (read to its end tag, nested elements' contents were read once for each: 20,000 in 14.6 s):
# - a file's name (Mallard's <file>, DocBook's <filename>) holding a path or a file's name, not a folder's name shown
#   as a word ("<file>Trash</file>", which German writes "Papierkorb"): in GNOME's help pages, read,
#   "<file>/etc/dconf/profile/</file>" came back as "<file>angeben</file>, /etc/dconf/profile/", ".local" as
#   ".lokale", "<var>kiosk-user</var>" in a path as "<var>Kosk-user</var>";
# - a program's name (Mallard's <app>, DocBook's <application>) of one word in small letters ("<app>gedit</app>",
#   which GNOME's German keeps in 87 of 88 such; read, it came back as "<app>geditieren</app>" or was lost, its tags
#   around "das"), or of words one of which is no English the training data writes ("LibreOffice Writer", which came
#   back as "LibreOffice-Schreiber"; German keeps all 28 such in GNOME's help); not one of English words ("document
#   viewer"), nor a name from a capital, which German may translate ("Files": "Dateien");
# - a quoted value (DocBook's <quote>) of no letter, a path, or one word that is no English the training data writes:
#   the installation guide's kernel parameters' separator "<quote>---</quote>" came back as "--", "<quote>netinst
#   </quote>" as "den <quote>Namen</quote> des Namens", "preseed/url" as "vorseed/url"
A_PATH = re.compile(r"[^<]*?[/\\]|\s*(?:\.[\w-]+|[\w-]+(?:\.[\w-]+)+)\s*\Z")
NO_MARKUP = re.compile(r"[^<]*\Z")
SMALL_NAME = re.compile(r"[a-z][\w.+-]*")  # a program's name of one word in small letters ("gedit", "dconf-editor")


def _a_path(text: str, start: int, end: int) -> bool:
    return bool(A_PATH.match(text, start, end))


def _a_program(text: str, start: int, end: int) -> bool:
    found = NO_MARKUP.match(text, start, end)
    if not found:
        return False
    name = found.group().strip()
    return bool(SMALL_NAME.fullmatch(name)) or not all(map(lexicon.load().knows, CASED_WORD.findall(name)))


def _a_value(text: str, start: int, end: int) -> bool:
    found = NO_MARKUP.match(text, start, end)
    value = found.group().strip() if found else ""
    if not value or any(character.isspace() for character in value):
        return False
    return not CASED_WORD.search(value) or "/" in value or _not_english(value, value)  # (a word alone: no English)


KEPT_FOR_CONTENT = {"file": _a_path, "filename": _a_path, "app": _a_program, "application": _a_program,
                    "quote": _a_value}
TRANSLATE_NO = re.compile(r"(?<![\w-])(?:translate\s*=\s*[\"']?no|translatable\s*=\s*[\"']?false)(?![\w-])",
                          re.IGNORECASE)
CLASS_VALUE = re.compile(r"(?<![\w-])class\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'>]+)", re.IGNORECASE)


def untranslatable_elements(text: str) -> list[tuple[int, int]]:
    """(start, end) of each outermost untranslatable element, from its opening tag to its matching end tag
    (self-closing: the tag alone). One pass over the tags, a stack per element name; an element never closed is
    left to the tag pattern."""
    if "<" not in text:
        return []
    found, open_tags, raw = [], {}, None  # open_tags: name -> (start, untranslatable, content's start) of each open
    for tag in TAG_PARTS.finditer(text):
        closing, name, attributes = tag.group(1), tag.group(2).lower(), tag.group(3)
        if raw is not None and not (closing and name == raw):
            continue
        if closing:
            raw = None
            if open_tags.get(name):
                start, untranslatable, content = open_tags[name].pop()
                if untranslatable or name in KEPT_FOR_CONTENT and KEPT_FOR_CONTENT[name](text, content, tag.start()):
                    found.append((start, tag.end()))
        elif attributes.rstrip().endswith("/"):
            if _untranslatable(name, attributes):
                found.append(tag.span())
        else:
            open_tags.setdefault(name, []).append((tag.start(), _untranslatable(name, attributes), tag.end()))
            raw = name if name in RAW_TEXT else None
    outermost: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if not outermost or start >= outermost[-1][1]:
            outermost.append((start, end))
    return outermost


def _untranslatable(name: str, attributes: str) -> bool:
    if name in UNTRANSLATABLE:
        return True
    if "translat" not in attributes.lower():
        return False
    return bool(TRANSLATE_NO.search(attributes)) or any(
        "notranslate" in value.strip("\"'").split() for value in CLASS_VALUE.findall(attributes))


def whole_words(text: str, spans: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (start, end) spans, each one holding a letter or digit or lying inside a word widened to the whole word
    around it. The model reads "Việt" masked as "ViXX0Xt" as a fragment and mangles it ("ViX0Xt Name ist ..."), and
    "Open\u200bOffice" (a zero-width space) as "OpenXX0XOffice" ("Open\u200bOffizienten"); the whole word, mostly
    a name or an identifier ("cc_config", "Einstein@Home"), passes through intact. A span of symbols between words or
    at a word's edge ("hello" between quotes the vocabulary lacks, an emoji) stays as it is, and so does a mark
    between clauses ("end—finally": two words), and the words around it are translated."""
    widened: list[tuple[int, int]] = []
    for start, end in spans:
        if widened and end <= widened[-1][1]:
            continue  # inside a word already widened: scanning it again for each span was quadratic ("漢a" * 16000)
        if any(character.isalnum() for character in text[start:end]) or _inside_word(text, start, end):
            # a span that starts or ends with a mark between clauses stops there (";µ" of "microseconds;µs", the
            # vocabulary lacking both: the word before the ";" is another word, and was kept untranslated with "µs")
            floor = widened[-1][1] if widened else 0  # what lies before is covered: the span joins it below
            while start > floor and text[start] not in CLAUSE_SEPARATORS and _in_word(text[start - 1]):
                start -= 1
            while end < len(text) and text[end - 1] not in CLAUSE_SEPARATORS and _in_word(text[end]):
                end += 1
        if widened and start <= widened[-1][1] and not _a_quotation_mark_beside(text, widened[-1], (start, end)):
            widened[-1] = (widened[-1][0], max(end, widened[-1][1]))
        else:
            widened.append((start, end))
    return widened


def _a_quotation_mark_beside(text: str, before: tuple[int, int], after: tuple[int, int]) -> bool:
    """Whether of two spans that touch one is a quotation mark alone: it stays an item of its own, which German's
    marks replace ('"Hello," she said.': the mark and the greeting's German form were one item, '"Hallo')."""
    return before[1] == after[0] and (text[before[0]:before[1]] in QUOTATION_MARKS
                                      or text[after[0]:after[1]] in QUOTATION_MARKS)


def _inside_word(text: str, start: int, end: int) -> bool:
    return (0 < start and end < len(text) and _in_word(text[start - 1]) and _in_word(text[end])
            and CLAUSE_SEPARATORS.isdisjoint(text[start:end]))


def _in_word(character: str) -> bool:
    return character.isalnum() or unicodedata.combining(character) > 0


# Characters the sentence splitter reads at once. Its time grows with the square of its input on some inputs
# ('!"' * 8,000, 16,000 characters: 0.11-0.42 s; "`" * 32,000: 0.3 s), and it holds the GIL meanwhile; a window
# grows up to SPLITTER_MAX_WINDOW while it holds fewer than three sentences.
SPLITTER_WINDOW = 2000
SPLITTER_MAX_WINDOW = 8000


# Markdown's emphasis, "**bold**" and "*italic*", "__bold__" and "_italic_", on one line: a mark before a word (no
# space after it, no word or backslash before it) and the same mark after one. Read with their sentence the marks cost
# the model the words they wrap ("This is **very important**" came back as "Dies ist **Beimer**", "Click **Save** and
# then **Close**" as "... **Speicher** und dann **Anheben**", "You must __always__ check" as "Sie müssen __Wählen__
# überprüfen", "__very important__" as "__Wert important__"); where tags may leave the sentence, a pair is an
# element's tags, taken out and put back around the words the alignments say. "2*3*4", "*.txt and *.bak", "**kwargs",
# "a ** b", "snake_case_name" and a name between double underscores ("__init__", "__FILE__": DUNDER) are none.
EMPHASIS = re.compile(r"(?<![\w*\\])(?:(\*\*?)(?=[^\s*])[^*\n]{0,200}?(?<=[^\s*\\])\1"
                      r"|(?<![^\s(\[\"'])(__?)(?=[^\W_])(?:[^_\n]|(?<=[^\W_])_(?=[^\W_])){0,200}?(?<=[^\W_]|[.!?])\2)"
                      r"(?![\w*])")
EMPHASIS_MARK = frozenset(("*", "**", "_", "__"))


def emphasis_marks(text: str) -> list[tuple[int, int]]:
    """(start, end) of both marks of each EMPHASIS around words (a letter inside)."""
    marks = []
    for found in EMPHASIS.finditer(text):
        mark = found.group(found.lastindex)
        if any(character.isalpha() for character in found.group()) and not DUNDER.fullmatch(found.group()):
            marks += [found.span(found.lastindex), (found.end() - len(mark), found.end())]
    return marks


# LaTeX's commands of no argument that a document's paragraphs hold or are (a real paper's "\printbibliography" came
# back as "\printbibliografie", "\centering The house" as "\zent das Haus"; none in the corpus)
LATEX_ALONE = (r"noindent|centering|ragged(?:right|left)|newpage|clearpage|cleardoublepage|maketitle|tableofcontents"
               r"|listof(?:figures|tables)|printbibliography|appendix|(?:big|med|small)skip|[hv]fill|l?dots|today"
               r"|FloatBarrier|hline|(?:top|mid|bottom)rule")
# LaTeX's markup, in a text that has a command with an argument, one of those, "\LaTeX", "\TeX", "\item", "\verb|...|"
# or a table's row (`LATEX_HINT`; not a pattern's "\d{3}": LaTeX reads a "%" as a comment's start, other text as a
# percentage). Read, the model kept a formatted word English ("\textbf{faster}" and "\emph{very}" came back as
# written, the braces a placeholder's), translated half a footnote ("\footnote{The Fußnote-Text ist hier.}") and a
# section's title ran into the sentence after it. A command that formats words (`LATEX_TEXT`) opens an element its
# matching "}" closes: both tags leave the sentence and go back around the words (`latex_elements`). A sectioning
# command, a caption or a footnote (`LATEX_HEADING`) separates its title from what is around it, which is translated
# alone. Every other command, with its options and arguments, is kept as written ("\cite{smith2020}", "\pkg{hyperref}",
# "\cs{par}", "\verb|\foo|"), and so are a comment and an environment whose body is code or mathematics. Mathematics
# between "$" is MATH's.
LATEX_HINT = re.compile(r"\\(?:[A-Za-z]{2,}\*?(?:\[[^\[\]\n]{0,200}\])?\{|(?:La)?TeX(?:e|2e)?(?![A-Za-z])"
                        rf"|(?:item|{LATEX_ALONE})(?![A-Za-z])|verb\*?([^\sA-Za-z*])[^\n]{{0,500}}?\1)"
                        # a table's row: a cell's end before the row's, tried from each line's start (from each
                        # "&", a long line's "A&A&..." was read to its end once per "&": 60,000 took 7.5 s)
                        r"|(?m:^(?:[^&\n]|(?<=\\)&)*+&[^\n]*\\\\[ \t]*$)")
# What may spell a LaTeX command and is none: Markdown's code, a span or a fenced block ("`\section{Intro}`", a
# regular expression's "`\pL{1000}`"), and a Windows path whose directory spells one ("C:\hline")
NOT_LATEX = re.compile(f"{FENCED_CODE}|{CODE_SPAN}|{WINDOWS_PATH}", re.DOTALL)


def latex_hinted(text: str) -> bool:
    """Whether the text shows LaTeX's markup (`LATEX_HINT`) outside what only spells it (`NOT_LATEX`). Read as LaTeX,
    "50% of C:\\hline\\x" kept its "% of ..." English as a comment, "`\\pL{1000}` may look small, but `\\pL`"
    became one item, its words and backticks lost, and a fenced block's output of ripgrep was translated."""
    return bool(LATEX_HINT.search(text)) and bool(LATEX_HINT.search(NOT_LATEX.sub(" ", text)))


# Commands whose argument is words, and a link's text after its target ("\textsf{hyperref}", "\mbox{}" hold names)
LATEX_TEXT = r"emph|text(?:bf|it|sl)|underline|enquote|href\{[^{}]{0,2000}\}"
LATEX_TEXT_OPENING = re.compile(rf"\\(?:{LATEX_TEXT})\{{")
LATEX_HEADING = r"part|chapter|(?:sub){0,2}section|(?:sub)?paragraph|caption|footnote|title"
LATEX_VERBATIM = r"verbatim|lstlisting|minted|comment|equation|align|eqnarray|displaymath|gather|multline|math"
LATEX_ENVIRONMENT = re.compile(rf"\\(begin|end)\{{({LATEX_VERBATIM})\*?\}}")
LATEX_MARKUP = re.compile(
    rf"\\(?P<text>{LATEX_TEXT})\{{|\\(?P<heading>{LATEX_HEADING})\*?(?:\[[^\[\]\n]{{0,200}}\])?\{{"
    r"|\\(?:verb\*?(?P<delimiter>[^\sA-Za-z*])[^\n]{0,500}?(?P=delimiter)|[A-Za-z]++\*?(?:\[[^\[\]\n]{0,200}\])*+"
    r"(?:\{(?:[^{}\n]|\{[^{}\n]{0,200}\}){0,200}\})*+|[^A-Za-z\n])|(?<!\\)%[^\n]*")
LATEX_BRACE = re.compile(r"\\.|[{}]", re.DOTALL)
# A table's cells end at "&" (LaTeX's alignment tab; "\&" is the character): each is a segment, as a row's end ("\\")
# makes the next row's. Read as one, a row's "\textbf{Threat} & \textbf{Issue} & \textbf{Outcome}" came back as
# "\textbf{Threat} & Ausgabe \textbf{&} \textbf{Outcome}", which broke the table
LATEX_CELL_END = re.compile(r"(?<!\\)&")


@dataclass
class LatexMarkup:
    """A LaTeX text's markup (`latex_markup`): (start, end) of the items kept as written, of the tags of elements
    that format words, and of what separates segments: the tags around a title, a table's "&" and a row's "\\\\"."""

    items: Spans
    tags: Spans
    separators: Spans


def latex_markup(text: str) -> LatexMarkup:
    """LaTeX's code environments (LATEX_ENVIRONMENT, each to its end) and, outside them and mathematics (MATH), its
    commands and comments (LATEX_MARKUP), each formatting command's and title's opening with the "}" that closes it
    (`matching_braces`); in time linear in the text's length."""
    markup = LatexMarkup(latex_environments(text), [], [])
    hidden = sorted(markup.items + apart_from([found.span() for found in re.finditer(MATH, text)], markup.items))
    scanned = swapped(text, hidden, [" " * (end - start) for start, end in hidden])
    closing = matching_braces(scanned)
    for found in LATEX_MARKUP.finditer(scanned):
        kind = markup.tags if found.group("text") else markup.separators if found.group("heading") else None
        if found.group() == "\\\\":  # a line's or a table row's end
            markup.separators.append(found.span())
        elif kind is None or found.end() - 1 not in closing:
            markup.items.append(found.span())
        else:
            end = closing[found.end() - 1]
            kind += [found.span(), (end, end + 1)]
    markup.separators += [found.span() for found in LATEX_CELL_END.finditer(scanned)]
    for spans in (markup.items, markup.tags, markup.separators):
        spans.sort()
    return markup


def latex_environments(text: str) -> Spans:
    """(start, end) of each environment whose body is code or mathematics (LATEX_ENVIRONMENT), from its "\\begin" to
    its "\\end", and of none inside another; one never ended is none."""
    spans: list[tuple[int, int]] = []
    opened: dict[str, int] = {}
    for found in LATEX_ENVIRONMENT.finditer(text):
        name = found.group(2)
        if found.group(1) == "begin":
            opened.setdefault(name, found.start())
        elif name in opened:  # it takes what began inside it ("\begin{equation}" shown in a verbatim block)
            start = opened.pop(name)
            opened = {inner: at for inner, at in opened.items() if at < start}
            while spans and spans[-1][0] >= start:
                spans.pop()
            if not spans or spans[-1][1] <= start:
                spans.append((start, found.end()))
    return spans


def matching_braces(text: str) -> dict[int, int]:
    """Where each "{" of the text is closed, by where it opens (escaped braces are none)."""
    opened, closing = [], {}
    for found in LATEX_BRACE.finditer(text):
        if found.group() == "{":
            opened.append(found.start())
        elif found.group() == "}" and opened:
            closing[opened.pop()] = found.start()
    return closing


def latex_elements(protected: Sequence[str]) -> dict[int, tuple[bool, str]]:
    """(closing, "\\{}") of the items that are a LaTeX formatting command's opening or its "}" alone, by number
    (take_out_tags pairs them)."""
    return {number: (item == "}", "\\{}") for number, item in enumerate(protected)
            if item == "}" or LATEX_TEXT_OPENING.fullmatch(item)}


def bracketed_elements(protected: Sequence[str]) -> dict[int, tuple[bool, str]]:
    """(closing, name) of the items that are a BBCode element's tag alone or a SubStation Alpha toggle alone, by
    number (take_out_tags pairs them, as it pairs HTML's; "[b]" and "{\\b1}" are named apart from "<b>")."""
    elements = {}
    for number, item in enumerate(protected):
        if tag := BBCODE_ELEMENT.fullmatch(item):
            elements[number] = (tag.group(1) == "/", f"[{tag.group(2)}]")
        elif toggle := ASS_TOGGLE.fullmatch(item):
            elements[number] = (toggle.group(2) == "0", f"{{\\{toggle.group(1)}}}")
    return elements


def _link_tag(token: re.Match, protected: Sequence[str]) -> bool:
    """Whether a placeholder token (PLACEHOLDER_PATTERN's match) stands for a Markdown link's start or end."""
    number = int(token.group(1))
    return number < len(protected) and MARKDOWN_LINK_TAG.fullmatch(protected[number]) is not None


def link_elements(protected: Sequence[str]) -> dict[int, tuple[bool, str]]:
    """(closing, "[]") of the items that are a Markdown link's start or end alone (MARKDOWN_LINK_TAG), by number
    (take_out_tags pairs them)."""
    return {number: (tag.group(1) is None, "[]") for number, item in enumerate(protected)
            if (tag := MARKDOWN_LINK_TAG.fullmatch(item))}


def emphasis_elements(masked: str, protected: Sequence[str]) -> dict[int, tuple[bool, str]]:
    """(closing, mark) of the items that are an emphasis mark alone, by number: one with a word after it opens, one
    with a word before it closes (take_out_tags pairs them, as it pairs tags)."""
    elements = {}
    for token in PLACEHOLDER_PATTERN.finditer(masked):
        number = int(token.group(1))
        if number < len(protected) and protected[number] in EMPHASIS_MARK:
            before, after = masked[token.start() - 1:token.start()], masked[token.end():token.end() + 1]
            # a link's bracket beside the mark is a mark ("[**Bootstrap 5.2**](url)")
            if (link := token_ending_at(masked, token.start())) and _link_tag(link, protected):
                before = "["
            if (link := PLACEHOLDER_PATTERN.match(masked, token.end())) and _link_tag(link, protected):
                after = "]"
            if after and not after.isspace() and not before.isalnum():
                elements[number] = (False, protected[number])
            elif before and not before.isspace() and not after.isalnum():
                elements[number] = (True, protected[number])
    return elements


def paragraph_runs(lines: Iterable[T], text: Callable[[T], str | None], fences: bool = True,
                   indented: bool = False) -> Iterator[list[T]]:
    """Lines grouped as paragraphs: each run of lines between blank lines one group, each blank line and each line
    with no `text` (unreadable) a group of its own. With `fences` (Markdown's, HTML's; not reStructuredText's, where
    "~~~" underlines a title), a code block fenced by ``` or ~~~, or an HTML <pre> or <script> (RAW_BLOCK_OPENS),
    keeps its blank lines (up to FENCE_MAX_LINES), so that it reaches the pipeline whole, as FENCED_CODE or an
    untranslatable element, and not cut into paragraphs of code. With `indented` (Markdown's), so does an indented
    code block (lines indented by CODE_INDENT columns or more after a blank line, where the last line with text
    before is neither indented nor a list item, as `indented_code` reads them): cut at its blank lines, the part of
    a terminal session after one went alone and was translated (ripgrep's "    Features:" as "    Funktionen:")."""
    run: list[T] = []
    fence = None  # what closes the open block: a fence's marks (``` or ~~~, or more), or an end tag ("</pre>")
    opened = 0  # the run's lines before the block's first: a block is counted from there, not from the run's start
    in_code, held, may_open = False, [], True  # an indented code block: its blank lines held until a line goes on
    for line in lines:
        content = text(line)
        if content is not None and (fence or content.strip()):
            if indented and fence is None:
                depth = _indent_width(content)
                if held and depth < CODE_INDENT:  # the block ended at its blank lines
                    yield run
                    yield from ([blank] for blank in held)
                    run, in_code = [], False
                elif held:
                    run += held
                held = []
                if not run:
                    in_code = depth >= CODE_INDENT and may_open
                if not in_code:
                    may_open = _code_may_open_after(content, depth, may_open)
            run.append(line)
            if not fences:
                continue
            marks = FENCE.match(content)
            if fence is None:
                raw = None if marks else RAW_BLOCK_OPENS.search(content)
                fence = marks.group(1) if marks else f"</{raw.group(1).lower()}>" if raw else None
                opened = len(run) - 1
            elif fence.startswith("</"):
                fence = None if fence in content.lower() else fence
            elif marks and marks.group(1).startswith(fence) and not marks.group(2).strip():
                fence = None
            if fence and len(run) - opened >= FENCE_MAX_LINES:  # (counted from the run's start, a page's run of
                fence = None  # 3,439 lines cut every <pre> after its 2,000th line at its blank lines)
            continue
        if in_code and content is not None and len(held) < FENCE_MAX_LINES:
            held.append(line)
            continue
        if run:
            yield run
            yield from ([blank] for blank in held)
            run, fence, in_code, held = [], None, False, []
        yield [line]
    if run:
        yield run
    yield from ([blank] for blank in held)


def sentences(line: str, protected: Sequence[str] = ()) -> list[str]:
    """A line's sentences; concatenated they give the line back exactly. The splitter reads the tokens of items that
    are one mark as that mark (`_as_marks`), quotation marks and character references: it keeps a quotation's end
    with its sentence ('She said “Really?” and laughed.' is one), but not a token's, so 'She said XX0XReally?XX1X
    and laughed.' reached the model as two sentences, 'Type &lt;?&gt; here' (LibreOffice Math's placeholder) as
    "Type <?" and "here", its "&gt;" between them."""
    read = _as_marks(line, protected) if protected else None
    if read is None:
        return _sentences(line)
    view, starts = read
    ends = [starts[end] for end in accumulate(map(len, _sentences(view)))]
    return [line[start:end] for start, end in zip([0, *ends], ends)]


def _as_marks(line: str, protected: Sequence[str]) -> tuple[str, list[int]] | None:
    """The line with each token whose item is one mark, or a reference to one, as that mark, and where each of its
    characters starts in the line (and the line's end); None where no token is such, or where another item holds
    such a quotation mark too: the splitter, shown a quotation's opening and not its end ('"$1"' of LibreOffice's
    help is the items '"' and '1"'), read all up to the next quotation mark as quoted and ended no sentence there."""
    pieces, starts, done, shown, hidden = [], [], 0, set(), ""
    for token in PLACEHOLDER_PATTERN.finditer(line):
        item = protected[int(token.group(1))] if int(token.group(1)) < len(protected) else ""
        mark = as_character(item)
        if len(mark) != 1 or mark.isalnum() or mark.isspace() or not mark.isprintable():
            hidden += item
            continue
        shown.add(mark)
        pieces += [line[done:token.start()], mark]
        starts += [*range(done, token.start()), token.start()]
        done = token.end()
    if not pieces or any(mark in hidden for mark in shown & QUOTATION_MARKS):
        return None
    pieces.append(line[done:])
    return "".join(pieces), [*starts, *range(done, len(line) + 1)]


def _sentences(line: str) -> list[str]:
    """`sentences` of a line as the splitter reads it. A long line is read a window at a time:
    the window's sentences but its last two are kept (the window may cut the last, and the splitter may hand the
    start of a cut one to the sentence before it: "Jones. «" of "Jones. «Oui!»"), and the next window starts where
    they do. A window of SPLITTER_MAX_WINDOW characters with fewer sentences keeps all but its last, or all of
    itself: a sentence that long is cut to the model's limit anyway (`split_to_fit`)."""
    if not line.strip():
        return [line]
    found: list[str] = []
    start, size = 0, SPLITTER_WINDOW
    while True:
        end = start + size
        if token := _token_across(line, end):  # "<b>" * 5000, each tag apart, was cut inside a token ("XX301X")
            end = token.end()
        window = line[start:end]
        parts = _split(window)
        if start + len(window) >= len(line):
            return found + parts
        if len(parts) < 3 and size < SPLITTER_MAX_WINDOW:
            size *= 2
            continue
        kept = parts[:-2] if len(parts) >= 3 else parts[:-1] or parts
        found += kept
        start += sum(map(len, kept))
        size = SPLITTER_WINDOW


def _split(window: str) -> list[str]:
    """The splitter's sentences of a window, reading "…" as the "..." it stands for: the splitter ends a sentence
    after "..." before a capital ("Loading... Please wait.": two) but never after "…", so "Loading… Please wait."
    reached the model as one sentence and came back as "Laden.. Bitte warten Sie …"."""
    if ELLIPSIS not in window:
        return _rejoined([part for part in sentencex.segment("en", window) if part]) or [window]
    read = window.replace(ELLIPSIS, "...")
    ends_read = list(accumulate(3 if character == ELLIPSIS else 1 for character in window))  # each character's end
    ends = [bisect_left(ends_read, end) + 1 for end in accumulate(map(len, sentencex.segment("en", read)))]
    return _rejoined([window[start:end] for start, end in zip([0, *ends], ends) if end > start]) or [window]


# Abbreviations the splitter does not know, which it ended sentences after ("It is approx. 5 km long." reached the
# model as "It is approx." and "5 km long."): those that qualify what follows, before anything ("Misc. Options" came
# back as "Verschieden. Optionen", whole "Verschiedene Optionen"; "Orig. Artist" as "Ausrichtung. Künstler"), those
# that may end a sentence ("5 hrs. Next we rest.") before what starts none: a small letter, a number, an item
QUALIFYING_ABBREVIATION = re.compile(r"(?<!\w)(?:approx|incl|excl|max|avg|misc|resp|orig|tel|vol|ch|sect|para|std|rel"
                                     r"|dep|depend)\.$", re.IGNORECASE)
# The dictionary's "sb." and "sth." ("say sth. in chorus" came back as "etw. sagen im Chor") are of these
ENDING_ABBREVIATION = re.compile(r"(?<!\w)(?:sb|sth|hrs|mins|yrs|wk|eds?|refs|contd|abbr|dev|var|cum|coeff)\.$",
                                 re.IGNORECASE)
AFTER_AN_ABBREVIATION = re.compile(r"[a-z\d]|XX\d")
# A time zone after "a.m."/"p.m." goes with the time: the splitter ended the sentence before it ("Reply by 5 p.m. CET."
# came back as "Antworten bis 17 Uhr. CET.")
CLOCK_SUFFIX = re.compile(r"(?<!\w)[AaPp]\.[Mm]\.$")
TIME_ZONE = re.compile(r"(?:UTC|GMT|[ECMP][SD]?T|[CEW]ES?T|BST|IST|MSK|AK[SD]T|HST|[JK]ST|A[CEW][SD]T|NZ[SD]T)"
                       r"(?:[+-]\d{1,2}(?::?\d{2})?)?(?![\w:+-])")
ROMAN_MARKER = re.compile(rf"[ \t]*\(?{ROMAN}[.)]\s+")
ACRONYM = re.compile(rf"(?!{TOKEN_LIKE})[A-Z]{{2,}}(?![a-z])")  # not a placeholder token


def _rejoined(parts: list[str]) -> list[str]:
    """The splitter's sentences joined again where it cut inside one:
    - with no whitespace between two, where the second begins with no letter, a small letter or an acronym: after a
      full stop that an item follows ("Saved as file.%s now", "Version 1.%d", "ends with '.%s' here" cut inside its
      quotes), inside names ("Use ASP.NET for it" came back as "ASP verwenden.NET für diesen", "en_US.UTF-8" as
      "en_US festlegen.UTF-8") and words ("sb.'s advice"); and before a capital after a dot that no word precedes,
      which starts a name (NAME_DOT: ".gz, .tar.gz, .Z" was cut after ".", ".Z" came back as "..Z"). Before a
      capital it may be right: a missing space ("the window.Specify 0"), a tag's token between sentences
      ("Save.XX1XQuit."), and after marks alone ("...but this definition");
    - after an abbreviation the splitter does not know (QUALIFYING_ABBREVIATION, ENDING_ABBREVIATION): "std.
      deviation", "rel. cum.", "sth. in chorus"; and before a time zone after a clock's "p.m." ("5 p.m. CET");
    - after a list item's number in small Roman numerals that starts the line ("ii. moral rights": `LIST_MARKER`);
    - before a label that closes a parenthesis the sentence opened ("degree(f, x) - degree(g, x)" was cut before
      each "x)", read as a list's "a) ... b)", and the "x)" lost).
    Not after any word's full stop before a small letter: in text written in small letters that is a sentence's end
    ("i went home. then i slept." came back, as one segment, as "i ging nach Hause.")."""
    runs: list[list[str]] = []
    for part in parts:
        if len(runs) == 1 and len(runs[0]) == 1 and ROMAN_MARKER.fullmatch(runs[0][0]):  # "ii. " starts an item
            runs[-1].append(part)
            continue
        if runs:
            before = runs[-1][-1]
            end = before.rstrip()[-12:]  # the longest abbreviation and what precedes it
            if ((not before[-1].isspace() and not part[0].isspace()
                 and (not part[0].isalpha() or part[0].islower() and not SYMBOLS_ONLY.fullmatch(before)
                      or ACRONYM.match(part) or NAME_DOT.search(before)))
                    or QUALIFYING_ABBREVIATION.search(end)
                    or ENDING_ABBREVIATION.search(end) and AFTER_AN_ABBREVIATION.match(part)
                    or CLOCK_SUFFIX.search(end) and TIME_ZONE.match(part)
                    or CLOSING_LABEL.match(part) and _opens_more_than_it_closes(runs[-1])):
                runs[-1].append(part)
                continue
        runs.append([part])
    return ["".join(run) for run in runs]


CLOSING_LABEL = re.compile(r"\w{1,3}\)")  # what the splitter reads as a list's label ("b)"), but "(b)"
NAME_DOT = re.compile(r"(?:^|[\s(\[])\.$")  # a dot no word precedes starts a name: an extension, ".Z", ".NET"


def _opens_more_than_it_closes(run: list[str]) -> bool:
    return sum(part.count("(") for part in run) > sum(part.count(")") for part in run)


def _token_across(text: str, position: int) -> re.Match | None:
    """The placeholder token that a cut at `position` would split, if any (a token is short: "XX", an item's
    number, "X")."""
    for token in PLACEHOLDER_PATTERN.finditer(text, max(0, position - 24), position + 24):
        if token.start() < position < token.end():
            return token
    return None


# No word of the source language is this long (the dictionary's longest has 45 characters): such a run is a hash, an
# encoded blob, a path or an identifier, which the model would garble (32,000 "a"s decoded for 16 s into 128 runs of
# "Aaaa..."), so it is kept as it is. Tried only where a run starts: scanned once.
LONG_RUN = re.compile(r"(?<!\S)\S{50,}")
MARKDOWN_LINK_ENDS = re.compile(f"{MARKDOWN_LINK_CLOSE}|{MARKDOWN_FOOTNOTE}")
RST_LINK_END = re.compile(RST_LINK_CLOSE)
ANY_MARKUP = re.compile(f"{TAG_PATTERN}|{DECLARATION_PATTERN}")


# Symbols outside ASCII: currency signs, ®, ©, arrows, mathematical signs. The model could not read most (they reach
# it as <unk>, and `unknown` protects them), and of those its vocabulary has it dropped or replaced all it saw
# rarely: "It costs 17,50 € per month" came back as "Es trat 17,50 pro Monat", "Windows®" as "Windows Polyse", "1⁄2"
# as "1 glücklich2" (in 8 sentences each €, £, ®, ´ and ⁄ were kept 0 times). So they are items. Not the degree sign,
# which the model kept in 8 of 8 and reads with its unit, while a token glued to the unit cost it ("-5 °C overnight"
# came back as "-5 °Die Übernachtung"); nor ASCII's ($ + < = >), which the model carries and which join words it must
# still read ("Ctrl+C": "Strg+C"). A trademark sign keeps the name it follows: "Windows®" came back as "Fenster®". Nor
# an acute accent typed as an English contraction's apostrophe (ACUTE_APOSTROPHE, read as one).
@functools.cache
def symbols_outside_ascii() -> re.Pattern:
    """Runs of characters of Unicode's symbol categories (S*) outside ASCII, but the degree sign (all of them lie in
    planes 0 and 1) and a contraction's acute accent, and a trademark sign with the name before it. Built on first
    use (~10 ms, and only a text with characters outside ASCII needs it), not at import."""
    symbol = [unicodedata.category(c)[0] == "S" and c not in "°´" for c in map(chr, range(0x80, 0x20000))]
    starts = [i for i, s in enumerate(symbol) if s and not (i and symbol[i - 1])]
    ends = [i for i, s in enumerate(symbol) if s and not (i + 1 < len(symbol) and symbol[i + 1])]
    runs = "".join(f"{chr(0x80 + a)}-{chr(0x80 + b)}" for a, b in zip(starts, ends))
    return re.compile(rf"(?<!\w)\w+[®™℠]|(?:[{runs}]|(?!{ACUTE_APOSTROPHE.pattern})´)+")


# An acute accent between the letters of an English contraction, where a German keyboard put it ("don´t", "it´s"):
# as a symbol it took its word along as an item, and "I don´t know where the file is." came back as "Ich weiß, wo die
# Datei ist don´t." (the negation lost). The model reads it as the apostrophe it stands for.
ACUTE_APOSTROPHE = re.compile(r"(?<=[A-Za-z])´(?=(?:t|s|m|d|ll|re|ve)\b)")


# Names spelled with letters outside ASCII ("Zoë", "François", "São Paulo", "Kraków"): the training data has few (593
# words with such a letter in 511,093 pairs), and the model changed or dropped them ("Zoë and François are fine." came
# back as "Zora und Franzois sind fein.", "Ask Renée about the meeting." as "Vor dem Treffen nachfragen."), so a word
# with one that starts with a capital is an item. Words in small letters ("café", "façade") stay text: German
# spells them its own way ("Café", "Fassade"). Tried only where a word starts: from every position, a long word with no
# such letter was scanned to its end each time (16,000 letters took 1.6 s).
WORD_OUTSIDE_ASCII = re.compile(r"(?<!\w)\w*?[^\W\d_\x00-\x7f]\w*")


# Names spelled in ASCII ("Kubernetes", "Ansible", "Hannah", "Romy Schneider", "Hewlett-Packard Omnibook"): read as
# words, the model changed or dropped those it had not learned ("The update for Kubernetes is ready." came back as
# "... für Kubernet ...", "I sent the report to Redis yesterday." as "... gestern zu redissgestern.", "Ansible" as
# "ehrbaren"). A run of capitalized words is an item where the training data's English side knows none of its words
# (translator.lexicon: not in small letters, not as a capitalized word German translates: "Monday", "German", "New
# York", "Click Save" stay text) and where it follows a word, a number or a comma; at a sentence's start, where every
# word is a name the German side keeps ("Anna", "Chicago") or a word list's proper noun the training data lacks
# ("Linda", "Redis"), since any English word starts a sentence with a capital; the rest of a run an English word
# starts ("Install Kubernetes", "Use Ansible") follows a word (software test 25 texts chrF 61.81 -> 62.12, BLEU 37.36
# -> 40.52; validation 17, 58.38 -> 61.52, 32.86 -> 36.07).
# Measured old against new code on the texts it changes (fp32; chrF, BLEU): held-out software test 77 texts 53.78 ->
# 60.10, 29.17 -> 32.60; validation 63, 59.56 -> 61.20, 32.09 -> 33.27; dictionary test and validation 15, 35.36 ->
# 40.86, 9.25 -> 7.13; the catalogs installed here 2,074, 79.56 -> 82.28, 56.34 -> 59.75; 462 sentences naming one of
# 77 people, places and products, the name came back in 152 of the 216 it changes, now in 216.
# A name's word may start with an Irish or French "O'" or "D'" ("O'Reilly", "D'Angelo"; not "O'Clock"), which makes it a
# name at a sentence's start too: read, the model broke them ("The O'Reilly book is open." came back as "Das Osso ist
# widerlich geöffnet."). With N_JOINED: 14 of the 1,006,103 held-out and training texts changed, chrF 53.77 -> 53.69,
# BLEU 21.17 -> 29.11 (fp32; "D'n'D" came back in 4 of 4, before 2; "D'Agostino's test" as "D'Agostinos Test", before
# "D'Agostino-Test"); of 28 sentences naming one, the name came back in 19, now 28.
APOSTROPHE_NAME = re.compile(r"(?!O['’]Clock)[OD]['’](?=[A-Z])")
NAME_WORD = rf"(?:{APOSTROPHE_NAME.pattern})?{lexicon.CAPITALIZED}"
ASCII_NAME_RUN = re.compile(lexicon.STARTS_A_WORD + rf"{NAME_WORD}(?:[- ]{NAME_WORD})*" + lexicon.ENDS_A_WORD)
NAME_RUN_WORDS = re.compile("[- ]")
# Common English given names (among the US Social Security Administration's most frequent) that are seldom words
# ("Mark", "Frank", "Grace", "Bill" are left out): before a capitalized word, the two are a first name and a surname,
# whatever the surname's word. Read, the model translated surnames that are English words ("Kevin White joined the
# team." came back as "Kevin Weiß hat ...", "Anna Black" as "Anna Schwarz") or dropped them ("Call Robert King
# tomorrow." as "Aufruf morgen."). Not the word lists' names: those hold products, which take a noun ("Gantt Chart":
# "Gantt-Diagramm"; as names, 1,366 texts changed, chrF 61.99 -> 56.30). Of the 1,006,103 held-out and training texts
# 101 changed, chrF 58.00 -> 59.29, BLEU 36.27 -> 38.41 (fp32; their 115 such names came back in 69, now 112); of 12
# sentences naming a person, the whole name came back in 6, now 12.
GIVEN_NAMES = frozenset(
    "James John Robert Michael William David Richard Joseph Thomas Charles Christopher Daniel Matthew Anthony Donald "
    "Steven Paul Andrew Joshua Kenneth Kevin Brian George Timothy Ronald Edward Jason Jeffrey Ryan Jacob Gary "
    "Nicholas Eric Jonathan Stephen Larry Justin Scott Brandon Benjamin Samuel Gregory Raymond Alexander Patrick "
    "Dennis Jerry Tyler Aaron Henry Peter Tom Tim Jim Joe Mike Dave Steve Chris Sam Ben Dan Alex Liam Noah Oliver "
    "Ethan Lucas Owen Luke Isaac Nathan Adam Sean Emma Olivia Sophia Sophie Isabella Mia Charlotte Amelia Mary "
    "Patricia Jennifer Linda Elizabeth Barbara Susan Jessica Sarah Sara Karen Lisa Nancy Betty Margaret Sandra Ashley "
    "Kimberly Emily Donna Michelle Amanda Dorothy Melissa Deborah Stephanie Rebecca Sharon Laura Cynthia Kathleen Amy "
    "Angela Shirley Anna Ann Brenda Pamela Nicole Helen Samantha Katherine Christine Rachel Carolyn Janet Catherine "
    "Maria Diane Julie Joyce Kelly Lauren Christina Joan Evelyn Judith Megan Andrea Cheryl Hannah Jacqueline Martha "
    "Gloria Teresa Frances Kathryn Janice Jean Alice Judy Natalie Diana Julia Lucy Priya Fiona".split())
# A street's name, whatever its words ("Main Street", "Park Lane", "Oak Road"): read, the model translated them ("Our
# office is located at 123 Main Street." came back as "... auf 123 Hauptstadt gefunden.", "We live at 10 Park Lane."
# as "... in 10 Parkplatzplatz.", "Turn left onto Oak Road." as "Zur links aufrufen."); German keeps them. Only after a
# house number or a preposition of place, or of names alone ("Dundas Street"): a label or a description of English
# words is German's ("Add Street": "Straße hinzufügen", "Winding Road": "Kurvige Straße"). Not "Drive" or "Way", a
# product's or a phrase's as often ("Google Drive", "No Way").
STREET_WORDS = frozenset({"Street", "Avenue", "Road", "Boulevard", "Lane"})
STREET_BEFORE = re.compile(r"(?:\d[\dA-Za-z-]*|\b(?:at|on|in|onto|into|along|down|up|off|from|to|via|near|of|and))"
                           r"[ \xa0]$", re.IGNORECASE)
# The words that start a sentence by addressing a person, before a first name and a surname ("Contact Mary Brown")
TO_A_PERSON = frozenset("Ask Call Contact Email Invite Meet Message Tell Thank Thanks Welcome Remind Notify Add Remove "
                        "Block Follow Mention Assign Congratulate Hi Hello Dear Text Ping".split())
INSIDE_A_SENTENCE = re.compile(r"[a-z0-9,] ")  # before a word that is not a sentence's first
# A sentence's first word, one the lexicon does not know, is a name where an English word in small letters follows it:
# the sentence's subject, not a title's word. Read, the model translated or garbled it ("Conky is a system monitor" came
# back as "Konky ist ...", "Inkscape is" as "Die Tintencape ist", "Mypy is" as "Meinpy ist", "Noto is" as "Hinweis
# ist"). Of the 284 in two samples of package descriptions, the German keeps 264 and the model kept 216 of them, now
# all (and 283 of the 284; of the 20 German writes otherwise most are names it spells otherwise, "Freetds",
# "Busybox", 2 English words the training data lacks, "Combinators", "Multiplatform"). Not one the lexicon knows once
# an English prefix or suffix is off ("Activatable", "Multiprecision").
SUBJECT_GOES_ON = re.compile(r" ([a-z]+)\b")
# English prefixes, glued to a word ("Multiprecision") or before a hyphen ("re-initdb", `package_names`)
ENGLISH_PREFIXES = frozenset(("meta", "multi", "inter", "over", "under", "auto", "re", "pre", "un", "non", "sub", "co",
                              "de", "dis", "mis", "anti", "semi", "self", "super", "hyper", "micro", "post", "mid",
                              "ex", "pro", "bi", "tri"))
DERIVING_SUFFIXES = ("able", "ible", "ation", "ations", "ment", "ments", "ness", "ing", "ings", "ed", "ly", "er", "ers",
                     "ors", "s", "es", "ity", "ive", "al", "ize", "ized", "ise", "ised")


# A sentence's first word, even one the lexicon knows, is a name where the sentence says what software it is: "is a"
# or "is the" and a kind of software ("Bacula is a set of programs", "Phonon is the KF5 multimedia API", "Expect is a
# tool for ..."); so is a run of capitalized words there ("Back In Time is a frontend"). Read, the model translated a
# package's name that is also a word, or one the training data wrote in small letters ("Bacula" came back as
# "Bakula", "Phonon" as "Telefon", "Transmission" as "Übertragung", "Expect is a tool" as "Erwartet ein Werkzeug",
# "Back In Time" as "Rück in Zeit", "Tokyo Cabinet" as "Tokyo-Collet"). In five held-out sets German keeps 565 of 576
# such subjects, and 397 of the 405 the lexicon knows, of which the model had lost 80. Not a pronoun or a determiner
# ("He is a clever player", "This is a tool"), nor a description of words that ends in a kind ("Image Viewer is",
# "Text Editor is": GNOME's, which German translates; it names some one-word applications in German too, "Calendar",
# "Chess", 7 of the training data's 76 such pairs). The kinds are software's alone; a game, a tool, a system or a
# service, which any subject may be, only with a word that says which or where the sentence goes on ("a puzzle
# game", "a game in which ..."; not "Life is a game.", "Democracy is a system of government"), and no kind that
# qualifies a noun ("Paul is a software engineer"). Served, with the subjects in small letters (`package_names`) and
# the names said again (`_named_again`), 394 of the held-out texts change, 267 closer, 125 further: a name the model
# kept changes the words around it once it is a token.
SOFTWARE_KINDS = (r"(?:librar(?:y|ies)|program|app(?:lication)?|utilit(?:y|ies)|daemon|framework|client|server"
                  r"|editor|player|viewer|manager|plug-?in|module|implementation|API|front-?end|back-?end|wrapper"
                  r"|toolkit|suite|package|extension|compiler|interpreter|parser|generator|browser|widget|applet"
                  r"|software|binding|emulator|simulator|converter|tracker|scanner|checker|calculator|database"
                  r"|filesystem|file ?system|bot|script|GUI|IDE|SDK|launcher|recorder|sequencer|synthesizer|notifier"
                  r"|archiver|assembler|debugger|profiler|input method)s?")
# Not a kind that qualifies a person's or a trade's noun ("Paul is a software engineer", "a game developer")
QUALIFIED_NOUN = (r"(?![ -](?:engineer|developer|designer|programmer|architect|tester|vendor|company|industry|maker"
                  r"|seller|expert|consultant|user|fan|lover|card|deal|room|shop|store|market)(?:s|ing)?\b)")
# A game, a tool, a system and a service, words of any subject, with a word before it that says which ("a puzzle
# game", "a D-Bus service"), or where the sentence goes on in words, but "of" ("Typespeed is a game in which ..."),
# not "Life is a game.", "Democracy is a system of government".
GENERIC_KINDS = r"(?:game|tool|system|service)s?"
GOES_ON = (r"[ \t\n]+(?:for|that|which|where|to|and|with|in|on|by|from|designed|written|based|built|developed|made"
           r"|meant|intended|aimed|targeted|suitable|useful|capable|similar|like|providing|offering|implementing"
           r"|supporting|allowing|using|used|running|played|inspired|created|available)\b")
KIND_WORD = (r"(?:(?!(?:of|for|to|in|on|with|by|from|that|which|what|who|whose|the|your|its|their|this|as|at)\b)"
             r"[\w'+/.-]+,? )")  # a word of what the sentence says it is, before the kind
SAYS_WHAT_SOFTWARE = re.compile(
    r" is (?:an?|the) (?:(?:[\w'+/.-]+ ){0,3}(?:set|collection|suite|family|bundle|group|pair|kind) of )?"
    rf"(?:{KIND_WORD}{{0,5}}?{SOFTWARE_KINDS}|{KIND_WORD}{{1,5}}?{GENERIC_KINDS}|{GENERIC_KINDS}(?={GOES_ON}))"
    rf"\b{QUALIFIED_NOUN}")
# The kinds a description of words ends in (`_names_software`), GNOME's "Network Tools", "System Monitor" too
SOFTWARE_KIND = re.compile(rf"{SOFTWARE_KINDS}|{GENERIC_KINDS}|(?:monitor|terminal|map)s?", re.IGNORECASE)
NOT_A_NAME = frozenset("The A An My Your Our Their His Her Its "
                       "He She It We You They This That These Those There Here What Which Who Each Every One Mine "
                       "Yours Ours Theirs Everyone Someone Anyone Nobody Everybody Somebody "
                       "Everything Something Nothing Anything None Neither Either Another Such Below Above Attached "
                       "Included Enclosed Following Shown Used Required Provided".split())


def _names_software(text: str, end: int, words: list[str]) -> bool:
    """Whether a sentence's first `words` (capitalized, or one subject in small letters), ending at `end`, are the
    subject of "is a" and a kind of software (SAYS_WHAT_SOFTWARE): a name; not a pronoun or a determiner (NOT_A_NAME:
    "There is", "there is"), nor a description of words that ends in a kind ("Image Viewer", "Text Editor", which
    GNOME names its applications by and German translates)."""
    return words[0].capitalize() not in NOT_A_NAME and (len(words) == 1 or not SOFTWARE_KIND.fullmatch(words[-1])) \
        and bool(SAYS_WHAT_SOFTWARE.match(text, end))


def _subject_of_english(text: str, end: int, word: str) -> bool:
    """Whether a sentence's first `word`, ending at `end`, is its subject: an English word the lexicon knows follows
    it in small letters (not "Naujas projektas", "Este programa no ...": another language's), and it is no English
    word's derivative (`_english_derivative`)."""
    goes_on = SUBJECT_GOES_ON.match(text, end)
    return bool(goes_on) and lexicon.load().knows(goes_on[1]) and not _english_derivative(word)


def _english_derivative(word: str) -> bool:
    """Whether the lexicon knows a capitalized word once an English prefix or suffix is taken off it ("Activatable":
    "activate", "Multiprecision": "precision")."""
    known, lower = lexicon.load().knows, word.lower()
    return any(lower.startswith(prefix) and known(lower[len(prefix):])
               for prefix in ENGLISH_PREFIXES if len(lower) > len(prefix) + 2) or any(
        lower.endswith(suffix) and (known(lower[:-len(suffix)]) or known(lower[:-len(suffix)] + "e"))
        for suffix in DERIVING_SUFFIXES if len(lower) > len(suffix) + 2)
# A name after a title is one item with it, whatever its words: the training data has 15 pairs with one, and the
# model dropped the title and mangled the name ("Ask Mr. Brown about the invoice." came back as "Nachfragen Sie über
# die Rechnung.", "Mr. Johnson and Mrs. Lee arrived late." as "Johnson und Mrs. Ich kam spät zu spät.", "Prof. Young
# teaches physics." as "Prof. Sie haben Physik."); now "Mr. Brown über die Rechnung fragen.", "Mr. Johnson und Mrs.
# Lee kam spät.": of 10 such sentences the name came back in 4, now in 10. "Mrs." and "Ms." come back as German's
# "Frau", the same in every case (the dictionary's "Please ask Ms. X to come up.": "Bitten Sie Frau X herauf."); "Mr."
# as "Herr" where the name is the sentence's subject, is addressed or follows "is" ("Mr. Fischer, you will remember":
# "Herr Fischer hat, wie Sie wissen"), else as "Herrn", the object's ("May I introduce Mr. Brown to you?": "Darf ich
# Ihnen Herrn Brown vorstellen?"), as the dictionary's 8 such pairs write them.
# A letter's salutation is German's own: "Dear Mr. Miller," as "Sehr geehrter Herr Miller," (the model wrote "Klein
# Herr Miller,").
GERMAN_TITLES = {"Mrs": "Frau", "Ms": "Frau", "Mr": "Herr"}
SPOKEN_TITLES = "|".join(GERMAN_TITLES)  # the titles German says otherwise, one list for the patterns below
TITLED_NAME = re.compile(rf"(?<![\w.])(?:Dear (?=Mr?s?\. ))?(?:{SPOKEN_TITLES}|Mx|Dr|Prof)\. "
                         rf"(?:and (?:{SPOKEN_TITLES})\. )?{ASCII_NAME_RUN.pattern}")  # a couple's too: "Mr. and Mrs."
SPOKEN_TITLE = re.compile(rf"(Dear )?({SPOKEN_TITLES})\.(?= )")
COUPLES_TITLE = re.compile(rf" and ({SPOKEN_TITLES})\.(?= )")  # read alone, "Mr." came back "Herr Herr und Frau Smith"
# The words after which a name is the subject or addressed: "Dear Mr. Brown", "Is Mr. Brown here?", "This is Mr. Brown."
BEFORE_A_SUBJECT = frozenset("dear is was are were am be been being do does did will would can could shall should may "
                             "might must has have had".split())
# A name's possessive goes into its item, to be written as German writes it ("Spearman's rho": "Spearmans Rho", as the
# references do; "Jenkins's job": "Jenkins' Job"): the model read "XX0X's report" as words ("We read Linda's report
# yesterday." came back as "Wir lesen Linda des Berichts."). Its apostrophe as a web page escapes it too, so that a
# page translates as its plain text does. Not where the "'s" is "is" or "has" (the word after it one that follows
# those: "Hannah's not here", "Linda's been there").
APOSTROPHE = r"(?:['’]|&#x27;|&#39;|&apos;|&rsquo;|&#8217;)"
POSSESSIVE = re.compile(rf"{APOSTROPHE}s(?![\w'’])")
# (and the capitalized words a name's item took after it: "Mendelssohn&rsquo;s Elijah", "Chopin's Première Ballade",
# two names side by side, came back with the English "'s")
NAME_AND_POSSESSIVE = re.compile(rf"(.+?)({APOSTROPHE})s(?: [^\W\d_][^\s]*)*")
WORD_AFTER = re.compile(r" ([A-Za-z]+)")
AFTER_IS_OR_HAS = frozenset(
    "a an the no not all just still always never already also only even ever been got gotten going gone coming done "
    "here there now then in on at up out over off back about into to from with by for of as so too very quite really "
    "more most less my your his her its our their this that these those what who it he she we they you i nothing "
    "something everything anything".split())


# A menu path ("Settings > General > Language", "File → Save As..."): read as words, the model repeated its labels
# without end ("You can change the language in Settings > General > Language." came back as "... in Einstellungen >
# General > Allgemein > Allgemein > Allgemein >") or lost them ("Open File > Save As." as "Datei öffnen unter.");
# alone, a label comes back as the catalogs write it ("Einstellungen", "Speichern unter"). A path is an item, its labels
# translated each alone (`ui_labels`). A label is up to four capitalized words ("Privacy & Security"); an
# instruction's verb before it is not one ("Open Settings > Privacy"). LibreOffice's help separates labels by a dash
# ("Choose Tools - Options - Security"): read, "Choose Slide Show - Slide Show" came back as "Dia-Anzeige - Anzeige",
# "Go to Letter Wizard - Footer" as "Gehe zu - Footer".
MENU_VERBS = "Open|Click|Go|Select|Choose|Tap|Navigate|Press|Use|See|Visit|Under|In|From|Check|Then|Now|Find"
# A label has a small letter (not "A > B", "ARG1 > ARG2", a token); the longest one is taken, and a path whose last
# label a word in small letters follows is none: that label goes on in small letters ("Tools > Import IMAP settings",
# "See Help > Debug messages for more details"), or the path is a comparison.
MENU_LABEL = (rf"(?!(?:{MENU_VERBS})[ \xa0])(?=[A-Z][\w'’&+-]*[a-z])[A-Z][\w'’&+-]+"
              r"(?:[ \xa0](?:(?:and|of|for|as|with|&)[ \xa0])?[A-Z][\w'’&+-]*){0,3}+(?:\.\.\.|…)?+")
# (in HTML, and so in plain text, the arrows as references too: KiCad's manuals write "<strong>View</strong> &#8594;
# <strong>Grid Properties…</strong>", which came back as "<strong>&#8594;</strong> <strong>Gittereigenschaften werden
# verwendet …</strong>")
MENU_SEPARATOR = re.compile(r"[ \xa0](?:>|->|→|»|›|-|–|(?:-)?&gt;|&rarr;|&#8594;|&#x2192;|&raquo;|&#187;|&rsaquo;"
                            r"|&#8250;|&ndash;|&#8211;)[ \xa0]", re.IGNORECASE)
AFTER_A_PATH = "and|or|to|then|for|in|on|at|from|with|under|menu|tab|option|dialog|window|page|button|section|item"
# A label may be an element's, tags and all (DocBook's '<span class="guimenu">Layer</span> → <span
# class="guisubmenu">Transform</span>', GIMP's help): read, the model lost labels and put their tags around the arrows
# ('<span class="guimenu">→</span> <span class="guimenuitem">geöffnet</span>', 13 of 182 sampled GIMP paragraphs with
# such a path lost a label). The path is one item with its tags where each of its elements lies inside it
# (`_tags_balanced`); a tag whose partner lies outside stays outside ("<b>File > Save</b>").
OPENING_TAGS = r"(?:<[A-Za-z][\w:.-]*(?:\s[^<>]*)?>)*+"
CLOSING_TAGS = r"(?:\s*</[A-Za-z][\w:.-]*\s*>)*+"


def _tagged_label(name: str) -> str:
    """A label, or an element's whole text from a capital (its other words in any case: "Paste as", "Rotate 90°
    counter-clockwise"), with the tags around it; `name` names the element's group."""
    return (rf"(?:<(?P<{name}>[A-Za-z][\w:.-]*)(?:\s[^<>]*)?>\s*[A-Z][^<>\n]{{0,80}}?</(?P={name})\s*>"
            rf"|{OPENING_TAGS}{MENU_LABEL}{CLOSING_TAGS})")


PATH_START = r"(?:(?<![\w>-])|(?<=[\w\"'/]>))"  # after a tag too, not after a separator
PATH_END = rf"(?![\w'’&+-])(?![ \xa0](?!(?:{AFTER_A_PATH})\b)[a-z])"
MENU_PATH = re.compile(rf"{PATH_START}{MENU_LABEL}(?:{MENU_SEPARATOR.pattern}{MENU_LABEL})++{PATH_END}")
TAGGED_MENU_PATH = re.compile(rf"{PATH_START}{_tagged_label('first')}"
                              rf"(?:{MENU_SEPARATOR.pattern}{_tagged_label('next')})++(?:(?<=>)|{PATH_END})")
MENU_LABEL_IN_TAGS = re.compile(r"(?:\s*</?[A-Za-z][^<>]*>)*\s*(.*?)(?:\s*</?[A-Za-z][^<>]*>)*\s*\Z", re.DOTALL)


# German's verbs and nouns that take "auf" a label ("Klicken Sie auf", "Doppelklick auf", "Rechtsklick auf")
CLICK = r"\b(?:[Dd]oppel|[Rr]echts)?(?:[Kk]lick|[Tt]ipp)(?:en(?: Sie)?|e|t|st)?\b"
# One pass over a translation for all its labels' tokens, with the tags around one ("Klicken Sie XX1XXX0XXX2X")
CLICKED_TOKEN = re.compile(rf"{CLICK} (?=((?:XX\d+X)+))")
TOKEN_CLICKED = re.compile(rf"(?<!\bauf )(?<!X)(?=((?:XX\d+X)+) {CLICK})")
# A quoted label after the verb that works it or before the control's name ('Click "Save"', 'Select "Delete" from the
# menu', 'the "Cancel" button'): read inside the sentence, the model wrote it as a word of the sentence ('"Speicher"',
# '"Auswahl"', '"Signieren in"'); alone, as the catalogs write a label ("Speichern", "Löschen", "Anmelden"). The
# quotation is an item, its label translated alone, like a menu path's.
LABEL_QUOTATION = r"“[^“”\n]{1,40}”|\"[^\"\n]{1,40}\"|‘[^‘’\n]{1,40}’|'[^'\n]{1,40}'(?!\w)"
# The verb in any form: 'By clicking "Accept", you agree.' came back as 'Durch Klicken von "Aktktuell", ...'; of the 100
# held-out and training texts with a form not the imperative's, 38 change: chrF 47.46 -> 48.10, BLEU 16.99 -> 17.14 (24
# closer, 14 further)
UI_VERB = (r"(?i:(?:click|press|select|pick|check|uncheck)(?:s|ed|ing)?|tap(?:s|ped|ping)?|hit(?:s|ting)?"
           r"|choos(?:e|es|ing)|chose|(?:enabl|disabl|toggl)(?:e|es|ed|ing))(?:[ \xa0]on)?")
UI_CONTROL = r"(?:button|menu|tab|link|option|field|check ?box|dialog|icon|item|page|section|window|box|setting)s?"
# And one of words each from a capital, a place or a name ('save changes to "Untitled Document"?' came back as '...
# in "Dokument" ...', the label alone as "Unbenanntes Dokument"; 'Can be overridden from "Window Rules".')
TITLED_QUOTATION = r"\"[A-Z][a-z]+(?: [A-Z][a-z]+){0,3}\"|“[A-Z][a-z]+(?: [A-Z][a-z]+){0,3}”"
QUOTED_LABEL = re.compile(rf"(?<![\w-]){UI_VERB}[ \xa0](?:the[ \xa0])?(?P<quoted>{LABEL_QUOTATION})"
                          rf"|(?P<named>{LABEL_QUOTATION})(?=[ \xa0]{UI_CONTROL}(?!\w))"
                          r"|(?:(?<=\bto[ \xa0])|(?<=\binto[ \xa0])|(?<=\bin[ \xa0])|(?<=\bfrom[ \xa0])"
                          r"|(?<=\bas[ \xa0])|(?<=\bnamed[ \xa0])|(?<=\bcalled[ \xa0]))"
                          rf"(?P<titled>{TITLED_QUOTATION})")
LABEL_MARK = re.compile("[\"“‘']")  # in each quoted label; 1,655 of 17,140 held-out texts (the search: 2.3 µs)
# A label starts with a capital ("Save", "Open With..."); not a command's or a key's name ("the 'find' dialog", "Press
# 'space'", "press “Enter”", which came back "'Fundament'", "'Raum'", "»Eingeben«"), nor a sentence ("Done!")
KEY_NAME = rf"(?:Enter|Return|Esc|Escape|Tab|Space|Backspace|F\d{{1,2}}|{MODIFIER_KEY})"
KEY_LABEL = rf"{KEY_NAME}$"
LABEL_WORDS = re.compile(rf"(?!{KEY_LABEL})(?:[A-Z][^.!?:;]{{0,39}}|[A-Z][^.!?:;]*(?:\.\.\.|…))")


# A label without quotation marks after the verb that clicks it, in a sentence ("Click Save to keep your changes.",
# "Press the Stop button"): read, the model wrote it as a word of the sentence ("Klicken Sie auf den Speichern", "Click
# Cancel to go back." came back as "Klicken Sie ab, um zurückzugehen."). Words from a capital and a small letter, up to
# three, or "OK", before a word that goes on the sentence, "button" or a mark; not a key's name, not after "select" or
# "choose", whose object is a list's entry or a title's words as often ("Select Contacts to merge" came back as "Wählen
# Sie Kontakte zum Zusammenführen"), nor in a text with no other word in small letters (a menu's entry, "Press Start")
# unless the label ends a sentence ("Click Next." came back as "Nächste Klicken.", now "Klicken Sie auf Nächstes."; 1 of
# the corpus's texts, "Then press Record."). Of the 975 held-out and training texts with one, 127 translations change:
# chrF 59.79 -> 61.19, BLEU 21.92 -> 23.66 (93 closer to the reference, 32 further; with "select" and "choose", 61.07
# and 23.90, 52 further).
BARE_UI_VERB = r"(?<![\w-])(?:(?:[Rr]ight|[Dd]ouble)-)?(?:[Cc]lick|[Tt]ap|[Pp]ress)(?:[ \xa0]on)?"
LABEL_TEXT = rf"(?!{KEY_NAME}\b)(?:OK|[A-Z][a-z][\w'’&+-]*(?:[ \xa0][A-Z][\w'’&+-]*){{0,2}})"
# A label emphasized ("**Save**", "_Save_", "<b>Save</b>"): Markdown's marks or HTML's tags before it and after it
# (and LibreOffice's help's '<span class="emph">Open</span>')
EMPHASIS_OPENS = r"\*\*?|__?|<(?:b|strong|em|i)>|<span\b[^<>]*>"
EMPHASIS_CLOSES = r"\*\*?|__?|</(?:b|strong|em|i|span)>"
BARE_LABEL = re.compile(rf"{BARE_UI_VERB}[ \xa0](?:the[ \xa0])?"
                        rf"(?P<emphasis>{EMPHASIS_OPENS})?(?P<bare>{LABEL_TEXT})(?<!_)"  # (its "_" is a mark's)
                        rf"(?(emphasis)(?:{EMPHASIS_CLOSES}))"
                        # and another ("Click Save and Close.", which came back as "Klicken und Schließen schließen.")
                        rf"(?:[ \xa0](?:and|or)[ \xa0](?P<other_emphasis>{EMPHASIS_OPENS})?(?P<other>{LABEL_TEXT})"
                        rf"(?<!_)(?(other_emphasis)(?:{EMPHASIS_CLOSES})))?"
                        r"(?=[ \xa0](?:to|and|or|if|when|then|again|below|above)[ \xa0][a-z]|[ \xa0]button\b"
                        r"|[.,;!)](?!\.)|$)")
# A label in an element that says it is one: Mallard's <gui> (GNOME's help) and DocBook's <guilabel>, <guibutton>,
# <guimenu>, <guimenuitem> and <guisubmenu>, as elements or as the spans of its web pages (GIMP's help). Its tags
# taken out, the model read "Click <gui>Accessibility</gui> in the sidebar" as a word of the sentence and dropped it,
# its tags put around another ("Klicken Sie auf <gui>die</gui> Seitenleiste"): 67 of GNOME's 2,797 help paragraphs
# had an element around "die", "Sie" or another such word.
GUI_KIND = r"gui(?:label|button|menu|menuitem|submenu)"
GUI_ELEMENT = re.compile(rf"<(?P<name>gui|{GUI_KIND})\b[^<>]*>(?P<label>[^<>]{{1,60}})</(?P=name)\s*>"
                         rf"|<span\b[^<>]*?\bclass=[\"']{GUI_KIND}[\"'][^<>]*>(?P<spanned>[^<>]{{1,60}})</span\s*>")
# And a label in bold or a span after a verb that selects it, which the element bounds, so that "select" and "choose"
# may take it as they may not take a bare one (BARE_LABEL): LibreOffice's help's 'Select <span class="emph">Append
# space</span>' came back as 'Wählen Sie den <span class="emph">Platz</span>'; not an italic term ("activate the
# <em>File Browser</em> mode")
SELECTING_VERB = r"(?i:select|choose|enable|disable|check|uncheck|mark|unmark|activate|deactivate)"
SELECTED_ELEMENT = re.compile(rf"(?<![\w-]){SELECTING_VERB}[ \xa0](?:the[ \xa0])?"
                              r"<(?P<name>b|strong|span)\b[^<>]*>(?P<label>[^<>]{1,60})</(?P=name)\s*>")
SENTENCE_WORD = re.compile(r"\b[a-z]{3,}\b")
LABEL_ENDS_A_SENTENCE = re.compile(r"\.(?:\s|$)")  # "Click Next.": an instruction, not a menu's entry ("Click Mode")


def ui_labels(text: str, taken: Sequence[tuple[int, int]] = ()) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, end) of each menu path (MENU_PATH), quoted label (QUOTED_LABEL) and label after its verb (BARE_LABEL)
    of the text apart from the `taken` spans (sorted, apart), sorted, and of each of their labels."""
    quoted = [quotation for found in (QUOTED_LABEL.finditer(text) if LABEL_MARK.search(text) else ())
              if LABEL_WORDS.fullmatch(text, (quotation := found.span(found.lastgroup))[0] + 1, quotation[1] - 1)]
    paths = [path for found in TAGGED_MENU_PATH.finditer(text) for path in _tags_balanced(text, *found.span())] \
        if MENU_SEPARATOR.search(text) else []
    verbs = "lick" in text or "ress" in text or "ap " in text or "ap\xa0" in text  # a part of each verb, before it
    found = list(BARE_LABEL.finditer(text)) if verbs else []
    words = [word.span() for word in SENTENCE_WORD.finditer(text)] if found else []  # once: per label, quadratic
    bare = [span for label in found  # a word in small letters after the label or before its verb
            if words and (words[-1][0] >= label.end() or words[0][1] <= label.start())
            or LABEL_ENDS_A_SENTENCE.match(text, label.end())
            for span in (label.span("bare"), label.span("other")) if span[0] >= 0]
    quoted, paths = apart_from(quoted, taken), apart_from(apart_from(paths, quoted), taken)
    bare = apart_from(apart_from(bare, sorted(quoted + paths)), taken) if bare else []
    if "<" in text:  # (apart_from needs its spans sorted: unsorted, a label inside a menu path was kept twice)
        bare = sorted(bare + apart_from(_labels_in_elements(text), sorted([*quoted, *paths, *bare, *taken])))
    labels = [(start + 1, end - 1) for start, end in quoted] + bare
    for start, end in paths:
        for separator in MENU_SEPARATOR.finditer(text, start, end):
            labels.append(MENU_LABEL_IN_TAGS.match(text, start, separator.start()).span(1))
            start = separator.end()
        labels.append(MENU_LABEL_IN_TAGS.match(text, start, end).span(1))
    return sorted(quoted + paths + bare), sorted(labels)


def _labels_in_elements(text: str) -> list[tuple[int, int]]:
    """(start, end) of the label of each GUI_ELEMENT and SELECTED_ELEMENT that holds one: words from a capital
    (LABEL_WORDS; references read as their characters, "Date &amp; Time"; a field's colon after them, "Look in:"),
    not an acronym alone ("FAT", translated alone, came back as "UNERWARTETES"), sorted."""
    # (a set: a label's span after such a verb is found by both patterns)
    labels = {label.span(label.lastgroup) for pattern in (GUI_ELEMENT, SELECTED_ELEMENT)
              for label in pattern.finditer(text)}
    return [(start, end) for start, end in sorted(labels)
            if LABEL_WORDS.fullmatch((words := unescape(text[start:end])).removesuffix(":")) and not words.isupper()]


def _tags_balanced(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A menu path's span without the tags at its edges whose partners lie outside it ("File > Save</b>"); where one
    inside it has its partner outside, the paths of words alone there (MENU_PATH: "Tools - Options" of LibreOffice's
    nested spans)."""
    tags = list(TAG_PARTS.finditer(text, start, end))
    opened, unmatched = [], set()
    for tag in tags:
        if not markup.of_content(tag):
            continue  # a void or self-closing element: one of its own
        if not tag.group(1):
            opened.append(tag)
        elif opened and opened[-1].group(2) == tag.group(2):
            opened.pop()
        else:
            unmatched.add(tag.span())
    unmatched |= {tag.span() for tag in opened}
    for tag in tags:
        if tag.span() not in unmatched or text[start:tag.start()].strip():
            break
        start = tag.end()
        unmatched.discard(tag.span())
    for tag in reversed(tags):
        if tag.span() not in unmatched or text[tag.end():end].strip():
            break
        end = tag.start()
        unmatched.discard(tag.span())
    if unmatched:
        return [path.span() for path in MENU_PATH.finditer(text, start, end)]
    return [(start + len(text[start:end]) - len(text[start:end].lstrip()), len(text[:end].rstrip()))]


def ascii_names(text: str) -> list[tuple[int, int]]:
    """(start, end) of each run of capitalized ASCII words that is a name the model has not learned to translate, and
    of each name after a title (TITLED_NAME) with its title; each with its possessive "'s" (POSSESSIVE)."""
    known = lexicon.load()
    names = []
    for run in ASCII_NAME_RUN.finditer(text):
        start, words = run.start(), NAME_RUN_WORDS.split(run.group())
        inside = INSIDE_A_SENTENCE.match(text, max(0, start - 2))
        if _first_and_last_name(text[start:run.end()], words):
            names.append((start, run.end()))  # "Kevin White joined": a surname may be an English word
            continue
        if len(words) > 1 and words[-1] in STREET_WORDS:  # at a sentence's start after its verb ("Visit ...")
            if not inside and len(words) > 2 and known.knows(words[0]):
                start, words = start + len(words[0]) + 1, words[1:]
            if STREET_BEFORE.search(text, max(0, start - 8), start) or not any(map(known.knows, words[:-1])):
                names.append((start, run.end()))
            continue
        if not inside and _names_software(text, run.end(), words):
            names.append((start, run.end()))  # "Back In Time is a frontend", not "Image Viewer is the viewer"
            continue
        if not inside and len(words) > 1 and known.knows(words[0]) and run.group()[len(words[0])] == " ":
            # an English word that starts the sentence ("Open Inkscape", "Ask Jenkins"): the name follows a word
            verb, start, words, inside = words[0], start + len(words[0]) + 1, words[1:], True
            if verb in TO_A_PERSON and _first_and_last_name(text[start:run.end()], words):
                names.append((start, run.end()))  # "Contact Mary Brown", not "Prince Edward Island"
                continue
        if any(known.knows(word) for word in words):
            continue
        if inside or all(word in known.names or APOSTROPHE_NAME.match(word) for word in words) \
                or len(words) == 1 and _subject_of_english(text, run.end(), words[0]):
            names.append((start, run.end()))
    names = _named_again(text, names)
    titled = [name.span() for name in TITLED_NAME.finditer(text)]
    return [_with_possessive(text, *span) for span in (sorted(titled + apart_from(names, titled)) if titled else names)]


def _named_again(text: str, names: list[tuple[int, int]], word: re.Pattern = lexicon.CAPITALIZED_WORD
                 ) -> list[tuple[int, int]]:
    """The (start, end) names, sorted, with each other place the text writes a one-`word` name as a name too: a text
    means one thing by a word ("Expect is a tool ... The script tells Expect what to wait for")."""
    words = {text[start:end] for start, end in names if word.fullmatch(text, start, end)}
    if not words:
        return names
    again = [found.span() for found in word.finditer(text) if found.group() in words]
    return sorted(names + apart_from(again, names))


# A package's or a library's name in small letters that the model has not learned: words joined by hyphens, one of
# which the training data's English side never writes ("fonts-dejavu-core" came back as "Schriftarten-dejavu-core",
# "voms-proxy-init" as "dems-proxy-init", "bandwidthd-pgsql" as "Bandbreitenpgsql"), or one word of "lib" and
# such letters ("libprocesscore" came back as "Bibliotheksprozesse", "libdbusmenu" as "libdbusmenü"): of 518 in two
# samples of 4,560 and 4,672 package descriptions, 354 came back as written, now 515. Or one word the training data
# lacks, spelled as English words are not (`Lexicon.spelled_like_english`; "This package provides dictfmt." came back
# as "Dieses Paket stellt Diktfmt an.", "jserver" as "Pulserver", "imvirt" as "imvirtualisierungen", "dvdbackup" as
# "DVD-Backup"): German keeps 616 of the 660 in the two samples (not English compounds, "halfspace", misspelt words,
# "individiual", or a few names it writes otherwise); 197 and 195 paragraphs change, chrF 55.69 -> 56.70 and 54.65 ->
# 55.62. Not such a word after a prefix ("re-initdb") or before a head that makes it an adjective ("nft-based",
# "debhelper-like"), which German translates, nor "libre". Names with a digit are PLACEHOLDERS' already
# ("python3-dev"); not part of another item's syntax ("%lu-byte", "${name-default}").
LIBRARY_NAME = re.compile(r"lib(?!re\b)[a-z+]{2,}")
PACKAGE_NAME = re.compile(rf"(?<![\w./+%$@:=\\~&#{{-])(?:[a-z][a-z+]*(?:-[a-z][a-z+]*)+|{LIBRARY_NAME.pattern}"
                          r"|[a-z]{3,})(?![\w-]|\.\w)")
# A name of two capitals or more and small letters ("AAlib", "FIGlet", "NUnit", "QBrew"), no acronym's plural ("CDs",
# "OSes"): read, "AAlib" came back as "ASCII-Abhängigkeit", "QBrew" as "QBräisch", "NUnit" and "RSpec" changed or
# lost. Those the lexicon knows in small letters the model keeps ("GObject", "SQLite": 273 of 283 in two samples of
# package descriptions, and as items it lost their context: "GObject introspection" came back as "GObject-Einstellung");
# of those it does not know the model lost 17 of 297, German keeps 279. 81 and 73 paragraphs change, chrF 55.37 ->
# 56.00 and 53.55 -> 53.71 (89 closer, 61 further); 4 of 1,770 catalog messages, 3 closer.
ACRONYM_NAME = re.compile(r"(?<![\w./+%$@:=\\~&#{-])[A-Z]{2,}(?!e?s\b)[a-z]{2,}(?![\w-]|\.\w)")
ADJECTIVE_HEADS = frozenset(("based", "like", "compatible", "aware", "enabled", "specific", "related", "friendly",
                             "powered", "driven", "oriented", "capable", "dependent", "independent", "style", "only",
                             "ready", "safe", "free", "ish"))


# A name in small letters of words joined by hyphens ("evolution-data-server", "update-grub", "git-rebase"): the model
# copied it but wrote a letter in capitals, as German starts a noun ("Evolution-data-server", "Dieses Paket stellt
# Update-grub bereit", "git-Rebase"), and a command's or a package's name is spelled as it is typed: of the 82 such
# copies in two samples of 3,142 and 3,092 package-description paragraphs and 1,837 wrapped catalog messages, the
# German writes 62 as the source does and 1 as the model did (the others it translates). Not where each of its words
# starts with a capital, as German writes a compound noun ("ftp-client": "FTP-Client"; a name, "Kwallet-Framework",
# too: German writes 8 of the 15 such copies in small letters, translates the others). Not an English compound German
# writes as a noun: one after a prefix or a particle ("multi-platform", "anti-aliased", "in-memory"), of one letter
# ("e-book"), before an adjective's head ("thread-safe") or a particle ("plug-in", "pop-up", "add-ons"); nor where the
# source writes it in capitals too ("the Desktop-Entry specification ... the new desktop-entry").
HYPHENATED_IN_SMALL_LETTERS = re.compile(r"(?<![\w./+%$@:=\\~&#{-])[a-z][a-z0-9+]+(?:-[a-z0-9+]+)+(?![\w-]|\.\w)")
PARTICLES = frozenset(("in", "ins", "up", "ups", "on", "ons", "out", "outs", "off", "offs", "down", "over", "back",
                       "by"))


def names_in_small_letters(segment: str) -> list[str]:
    """Each HYPHENATED_IN_SMALL_LETTERS of a segment that is no English compound and that the segment writes in no
    other letters."""
    return [name for name in sorted(set(HYPHENATED_IN_SMALL_LETTERS.findall(segment))) if not _an_english_compound(name)
            and all(written == name for written in re.findall(_written_in_any_case(name), segment))]


def _an_english_compound(name: str) -> bool:
    words = name.split("-")
    return words[0] in ENGLISH_PREFIXES or words[0] in PARTICLES or words[-1] in ADJECTIVE_HEADS \
        or words[-1] in PARTICLES


def _written_in_any_case(name: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?!\w)", re.IGNORECASE)


def in_small_letters_again(text: str, names: Iterable[str]) -> str:
    """The translation with each name written as the source does where the model wrote letters of it in capitals, but
    not each of its words from one: a compound German writes as a noun ("ftp-client": "FTP-Client")."""
    def as_written(copy: re.Match) -> str:
        return copy.group() if all(word[:1].isupper() for word in copy.group().split("-")) else name
    for name in names:
        text = _written_in_any_case(name).sub(as_written, text)
    return text


# An identifier from an underscore ("_exit", "_Bool", "__atomic", "_GNU_SOURCE"): C's reserved names, a class's
# private ones. The vocabulary lacks "_", so the model read a token glued to a word and translated the word ("The
# _start symbol" came back as "Das _Startsymbol", "Call _exit to quit" as "_Ausrufen, um ...", "library providing
# __atomic built-in functions" as "__atomische ..."); kept as written. Not an emphasis's word, whose closing mark
# follows on its line ("_not_", "__very important__"), nor a label's mnemonic marker ("_Open", `_unknown_marker`)
UNDERSCORED_NAME = re.compile(r"(?<![\w$.\\/@&-])_{1,2}[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?![\w-])"
                              r"(?![^\n]{0,200}?[^\s_]__?(?!\w))")


def underscored_names(text: str, marker: tuple[int, int] | None) -> list[tuple[int, int]]:
    """(start, end) of each UNDERSCORED_NAME but the one a label's mnemonic `marker` (its span) starts."""
    return [name.span() for name in UNDERSCORED_NAME.finditer(text) if not marker or name.start() != marker[0]]


# A sentence's subject in small letters, before its verb, is a program's name whatever it is spelled like: English
# starts a sentence with a capital ("flashrom is a tool ...", "node-debug provides ...", "midish is": read, "Blitzrom
# ist ...", "Knoten-Debug bietet ...", "Mitte ist ..."). One word the training data's English side never writes, or
# words joined by hyphens that are no English compound (`_an_english_compound`); or any that the sentence says is a
# kind of software (SAYS_WHAT_SOFTWARE: "prison is a barcode API" came back as "Gefängnis ist ...", "colord is" as
# "Farbe ist", "keybinder is" as "Tastenbinder ist"; an error message's "archive is compressed" says a word's
# meaning): German keeps 104 of the 105 such held-out subjects the lexicon knows, of which the model had lost 11.
SUBJECT_IN_SMALL_LETTERS = re.compile(r"(?:^|[.!?]\s\s?)[ \t]*([a-z][a-z+]*(?:-[a-z][a-z+]*)*)"
                                      r"(?= (?:is|was|provides|implements|offers|contains|supports|allows|lets|can"
                                      r"|will|has|uses|includes|enables|makes|does|displays|creates|works)\b)")


def package_names(text: str) -> list[tuple[int, int]]:
    """(start, end) of each PACKAGE_NAME and ACRONYM_NAME that is a name (`is_package_name`), and of each
    SUBJECT_IN_SMALL_LETTERS that is."""
    names = [name.span() for shape in (PACKAGE_NAME, ACRONYM_NAME) for name in shape.finditer(text)
             if is_package_name(name.group())]
    subjects = [subject.span(1) for subject in SUBJECT_IN_SMALL_LETTERS.finditer(text)
                if _a_subjects_name(subject[1]) or _names_software(text, subject.end(1), [subject[1]])]
    # each subject also where the text says it again (`_named_again`)
    return sorted(set(names + _named_again(text, subjects, PACKAGE_NAME))) if subjects else names


def _a_subjects_name(word: str) -> bool:
    """Whether a SUBJECT_IN_SMALL_LETTERS is a name: no English compound, or one word the lexicon does not know."""
    return not _an_english_compound(word) if "-" in word else not lexicon.load().knows(word)


def is_package_name(item: str) -> bool:
    """Whether an item is a package's or a library's name: a PACKAGE_NAME `_a_package` takes for one, or an
    ACRONYM_NAME the lexicon does not know."""
    if PACKAGE_NAME.fullmatch(item):
        return _a_package(item)
    return bool(ACRONYM_NAME.fullmatch(item)) and not lexicon.load().knows(item)


def _a_package(name: str) -> bool:
    """Whether a PACKAGE_NAME's match is a name: one of its words unknown to the lexicon, the first none of the
    ENGLISH_PREFIXES and the last none of the ADJECTIVE_HEADS; a word alone but a LIBRARY_NAME also spelled unlike
    English and no English word's derivative."""
    words = name.split("-")
    if len(words) == 1 and not LIBRARY_NAME.fullmatch(name):
        english = lexicon.load()
        return not english.knows(name) and not english.spelled_like_english(name) and not _english_derivative(name)
    return (words[0] not in ENGLISH_PREFIXES and words[-1] not in ADJECTIVE_HEADS
            and not all(map(lexicon.load().knows, (word.rstrip("+") for word in words))))


# A list of three or more codes in capitals ("It supports DES, MD5, NTHASH, SUNMD5, SHA-2-256 ...", "Audio: OGG, MP3,
# WAV, RA, AC3, AU"): read, the model spelled them anew, dropped them or translated the words among them ("SUNMD5"
# came back as "SONNENMD5", "TWOFISH" as "ZWEIFISH", "CAST-128" as "TYPUMWANDLUNG-128", "FAR" as "WEIT"; "CP850" and
# "AU" were lost). Each code of such a list is an item (the commas and the words around stay text), but in words
# shouted: a list with "OR" or "AND" among them ("Do not REMOVE, MOVE, OR RENAME it"), or in a text whose letters
# outside such lists are mostly capitals, which is read sentence-cased (`_shouted`); and a list alone is read as
# before. Whether a code is an English word the model learned says nothing here: the training text writes most formats
# and protocols in small letters too ("https").
LISTED_CODE = re.compile(r"[A-Z](?:[A-Z0-9]|-(?=[A-Z0-9])){1,15}(?![\w-])")
CODE_LIST = re.compile(rf"(?<![\w-]){LISTED_CODE.pattern}(?:(?:,[ \t]*(?:\r?\n[ \t]*)?(?:(?:and|or)[ \t]+)?"
                       rf"|[ \t]+(?:and|or)[ \t]+){LISTED_CODE.pattern}){{2,}}")
SHOUTED_JOINS = frozenset(("AND", "OR", "NOR", "NOT", "BUT"))


def listed_codes(text: str) -> list[tuple[int, int]]:
    """(start, end) of each code of each CODE_LIST that is not shouted words, in a text whose letters outside its lists
    are mostly small ones."""
    lists = list(CODE_LIST.finditer(text))
    if not lists:
        return []
    listed = "".join(found.group() for found in lists)
    if sum(map(str.isupper, text)) - sum(map(str.isupper, listed)) >= \
            sum(map(str.islower, text)) - sum(map(str.islower, listed)):
        return []
    codes = ([code.span() for code in LISTED_CODE.finditer(text, *found.span())] for found in lists)
    return [span for spans in codes if not any(text[start:end] in SHOUTED_JOINS for start, end in spans)
            for span in spans]


# An abbreviation in capitals between parentheses after what it abbreviates ("Internet Message Access Protocol
# (IMAP)", "uninterruptible power supply (UPS)", "Encapsulated PostScript (EPS)"): alone between them it was read as a
# word where the training text writes it in small letters ("(IMAP)" came back as "(EINRASTEN)", "(NUT)" as
# "(ANZAHL)", "(SOAP)" as "(EINGEBETTET)"), so it is an item, kept as written. Its letters (digits aside) are, in
# order, the first letters or capitals of the words before it, the last of them among the last word's.
EXPANDED_ABBREVIATION = re.compile(r"(?<=[\w.] \()[A-Z][A-Z0-9]{1,7}(?=\))")
EXPANSION_WORD = re.compile(r"[A-Za-z][A-Za-z0-9'’]*")
EXPANSION_WORDS = 10  # words before it that may spell it
# What it abbreviates, where each of its words starts with a capital (a protocol's, a format's, a standard's name:
# "Internet Message Access Protocol", "Unified Modeling Language", "Portable Document Format"), is a name too: German
# keeps 92 of the 110 such in two samples of 3,142 and 3,092 package-description paragraphs (543 of 632 in all of
# DDTP's German descriptions; it translates common nouns' phrases, "Geographic Information System"), and read, the
# model translated 105 of them ("Einheitliche Modellierungssprache"). Only words joined by spaces, two or more,
# between the word its first letter starts and the parenthesis.
TITLED_WORDS = r"[A-Z][A-Za-z0-9'’]*(?: [A-Z][A-Za-z0-9'’]*)+"  # two or more, each from a capital
TITLED_EXPANSION = re.compile(rf"{TITLED_WORDS} ")
# So are such words between parentheses after the abbreviation ("CLR (Common Language Runtime)", "GNOME (GNU Network
# Object Model Environment)"): all of them, their first letter its first
ABBREVIATION_EXPANDED = re.compile(rf"(?<![\w-])([A-Z][A-Z0-9]{{1,7}}) \(({TITLED_WORDS})\)")


def expanded_abbreviations(text: str) -> list[tuple[int, int]]:
    """(start, end) of each EXPANDED_ABBREVIATION whose letters the words before it spell, and of those words where
    they are a name (TITLED_EXPANSION), and of each expansion after its abbreviation (ABBREVIATION_EXPANDED)."""
    spans = []
    for found in EXPANDED_ABBREVIATION.finditer(text):
        words = list(EXPANSION_WORD.finditer(text, max(0, found.start() - 160), found.start()))[-EXPANSION_WORDS:]
        first = _abbreviates([letter for letter in found.group() if letter.isalpha()],
                             [word.group() for word in words]) if words else None
        if first is None:
            continue
        start, end = words[first].start(), found.start() - 2  # the expansion ends before " ("
        if TITLED_EXPANSION.fullmatch(text, start, end + 1):
            spans.append((start, end))
        spans.append(found.span())
    for found in ABBREVIATION_EXPANDED.finditer(text):
        if _abbreviates([letter for letter in found[1] if letter.isalpha()], found[2].split(" ")) == 0:
            spans.append(found.span(2))
    return sorted(spans)


def _abbreviates(letters: list[str], words: list[str]) -> int | None:
    """The index of the word whose first letter is the first of `letters`, where they are, in order and read backwards
    from the last of `words`, each a word's first letter or a capital inside it (the last letter among the last
    word's); else None."""
    pending = len(letters) - 1
    for index, word in enumerate(reversed(words)):
        candidates = [word[0].upper()] + [character for character in word[1:] if character.isupper()]
        for position in range(len(candidates) - 1, -1, -1):
            if candidates[position] != letters[pending]:
                continue
            if pending == 0:
                if position == 0:
                    return len(words) - 1 - index
                continue  # (the first letter a word's first: "SSH File Transfer Protocol (SFTP)")
            pending -= 1
        if index == 0 and pending == len(letters) - 1:
            return None  # the last word spells none of it
    return None


def _first_and_last_name(run: str, words: list[str]) -> bool:
    """Whether a run of two capitalized words is a given name and a surname (GIVEN_NAMES; not "Thomas Sunday")."""
    return (len(words) == 2 and words[0] in GIVEN_NAMES and run[len(words[0])] == " " and words[1] not in WEEKDAYS
            and words[1] not in MONTHS)


def _with_possessive(text: str, start: int, end: int) -> tuple[int, int]:
    """A name's span, with the possessive after it where there is one."""
    if (possessive := POSSESSIVE.match(text, end)) and _owns(text, possessive.end()):
        return start, possessive.end()
    return start, end


def _owns(text: str, end: int) -> bool:
    """Whether an "'s" ending at end is a possessive: a word follows that does not follow "is" or "has", and a word
    in -ing or -ed only where one such follows it too ("Oliver's meeting starts", "Anna's shared folder"; "Linda's
    working on it", "Oliver's finished the report" are "is" and "has")."""
    after = WORD_AFTER.match(text, end)
    if not after or after.group(1).lower() in AFTER_IS_OR_HAS:
        return False
    if not after.group(1).endswith(("ing", "ed")):
        return True
    following = WORD_AFTER.match(text, after.end())
    return bool(following) and following.group(1).lower() not in AFTER_IS_OR_HAS


def german_title(item: str, before: str) -> list[tuple[int, int, str]]:
    """(start, end, German title) of the title that starts an item of a titled name, what precedes the item in its
    text given (masked): "Frau" for "Mrs." or "Ms.", "Herr" or "Herrn" for "Mr." (`_named_as_subject`; "Herrn" with a
    possessive, the genitive's); after "Dear" "Sehr geehrte Frau" and "Sehr geehrter Herr"; a couple's "Herr und Frau
    Smith", addressed each with the name ("Sehr geehrter Herr Smith, sehr geehrte Frau Smith")."""
    if not (title := SPOKEN_TITLE.match(item)) or not TITLED_NAME.match(item):
        return []
    german = GERMAN_TITLES[title.group(2)]
    second = COUPLES_TITLE.match(item, title.end())
    if title.group(1) and second:
        name = item[second.end() + 1:]
        return [(0, len(item), f"{_dear(german)} {name}, s{_dear(GERMAN_TITLES[second.group(1)])[1:]} {name}")]
    if title.group(1):
        german = _dear(german)
    elif german == "Herr" and (not _named_as_subject(before) or POSSESSIVE.search(item)):
        german = "Herrn"  # the object's, and a possessive's, the genitive's: "Herrn Browns Notizen"
    if second:
        return [(0, title.end(), german), (second.start(), second.end(), f" und {GERMAN_TITLES[second.group(1)]}")]
    return [(0, title.end(), german)]


def _dear(title: str) -> str:
    """A letter's salutation of "Herr" or "Frau"."""
    return f"Sehr geehrter {title}" if title == "Herr" else f"Sehr geehrte {title}"


def _title_contexts(masked: str, items: list[str]) -> dict[int, str]:
    """By item number, the masked text's 80 characters before each item that starts with "Mr." (`german_title`): one
    pass over the tokens (sliced from the start for each, 60,000 such items took minutes)."""
    numbers = {number for number, item in enumerate(items) if item.startswith("Mr. ")}
    return {int(token.group(1)): masked[max(0, token.start() - 80):token.start()]
            for token in PLACEHOLDER_PATTERN.finditer(masked) if int(token.group(1)) in numbers} if numbers else {}


def _named_as_subject(before: str) -> bool:
    """Whether a name after this masked text starts a sentence or a clause after a comma, is addressed or follows a
    word in BEFORE_A_SUBJECT; after "and" or "or" whether the item before it is ("Mr. Lee and Mr. Brown came")."""
    words = before.split()
    if not words or words[-1][-1] in ",.!?:;(" or words[-1].lower() in BEFORE_A_SUBJECT:
        return True
    if words[-1].lower() in ("and", "or") and len(words) > 1 and PLACEHOLDER_PATTERN.fullmatch(words[-2]):
        return _named_as_subject(before[:before.rindex(words[-2])])
    return False


def german_possessive(item: str) -> list[tuple[int, int, str]]:
    """(start, end, German ending) of a name's possessive in an item of a name and one: "s" ("Spearmans"), after s, x
    or z the apostrophe as written ("Jenkins'", "Jenkins&#x27;" in a page)."""
    if not (whole := NAME_AND_POSSESSIVE.fullmatch(item)):
        return []
    name, apostrophe = whole.groups()
    after = item[whole.end(2) + 1:]  # the words the name's item took after it, if any: capitalized ones only
    if after and not after.istitle() or not (ASCII_NAME_RUN.fullmatch(name) or TITLED_NAME.fullmatch(name)):
        return []
    return [(len(name), whole.end(2) + 1, apostrophe if name[-1] in "sxz" else "s")]


# So is a letter alone ("ñ", "ß", "α"; "Characters: ñ, ç, ø, å." came back as "Zeichen: „Quoten“, Scheck, ø, Scheck.")
# and a word in a script other than Latin ("привет", "λόγος", "ありがとう"; "The angles α and β" came back as "Die
# Winkeln-Poly-Poo und β", "Use µ for micro." as "Benutze μ für Mikro.", Greek's mu for the micro sign).
LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")


def names_outside_ascii(text: str) -> list[tuple[int, int]]:
    """(start, end) of each word with a letter outside ASCII that starts with a capital, has no Latin letter, or is
    one alone."""
    return [word.span() for word in WORD_OUTSIDE_ASCII.finditer(text)
            if word.group()[0].isupper() or not LATIN_LETTER.search(word.group()) or _latin_letter_alone(word)]


def _latin_letter_alone(word: re.Match) -> bool:
    """Whether a word is a Latin letter alone: not French's "à" ("à la carte", "vis-à-vis"), nor one a hyphen joins to
    a word ("tête-à-tête"), which the dictionary translates."""
    text, start, end = word.string, word.start(), word.end()
    return (end - start == 1 and word.group() != "à" and text[start - 1:start] != "-" and text[end:end + 1] != "-")


# The markers of a list written inside a line ("a) open the file b) save it c) close it"). Read whole, the model lost
# items and translated markers ("a) Datei b) öffnen"; "You can either a) restart ..." came back as "Sie können entweder
# ein) Neustarten ..."); cut at its markers, each item is translated on its own and every marker is kept ("a) Öffnen der
# Datei b) es speichern c) nahe es"; 8 sentences with such lists: every item and marker kept in 8, before in 4). Two
# markers or more in sequence (a, b; 1, 2), as a marker alone ("plan b) works") is text. No held-out text has such a
# list; of the 979,945 training pairs 9 (7 lists, 2 values: "details (1) and column (2) views"), chrF 53.08 -> 52.71,
# BLEU 38.12 -> 38.24 ("(0) Linear (1) Smooth": "(0) Zeile (1) Smodus", now "(0) Linear (1) Weich").
ENUMERATOR_ITEM = re.compile(rf"\(?([A-Za-z]|\d{{1,2}}|{ROMAN})\)")  # one as an item: a label in parentheses, or
# before one; small Roman numerals too ("(i) keep the notice, (ii) state the changes": "(ii)" came back as "(Iiii)")
ROMAN_NUMBER = re.compile(ROMAN)
ROMAN_VALUES = {"i": 1, "v": 5, "x": 10}
ENUMERATOR = re.compile(rf"(?<!\S){ENUMERATOR_ITEM.pattern}(?=\s)")
LINE_START = re.compile(r"^[^\S\n]*(?=\S)", re.MULTILINE)
PARENTHESIS_OR_LINE_BREAK = re.compile(r"[()\n]")


def _closing_parentheses(text: str, markers: list[re.Match]) -> set[int]:
    """The indices of the markers without an opening parenthesis that close one opened before them on their line."""
    closing, depth, marks = set(), 0, PARENTHESIS_OR_LINE_BREAK.finditer(text)
    mark = next(marks, None)
    for index, marker in enumerate(markers):
        while mark is not None and mark.start() < marker.start():  # one pass over the text for all markers
            depth = depth + 1 if mark.group() == "(" else 0 if mark.group() == "\n" else max(0, depth - 1)
            mark = next(marks, None)
        if depth and not marker.group().startswith("("):
            closing.add(index)
    return closing


def _follows(label: str, previous: str) -> bool:
    if ROMAN_NUMBER.fullmatch(label) and ROMAN_NUMBER.fullmatch(previous):  # "(iv) (v)"; not "(h) (i)"
        return _roman(label) == _roman(previous) + 1
    if label.isdigit() or previous.isdigit():
        return label.isdigit() and previous.isdigit() and int(label) == int(previous) + 1
    # letters; a Roman numeral of several beside a letter follows none ("(a) ... (ii)": ord() of "ii" raised, and
    # the Apache License's text failed with INTERNAL)
    return len(label) == len(previous) == 1 and ord(label) == ord(previous) + 1


def _roman(numeral: str) -> int:
    """A small Roman numeral's value ("iv": 4)."""
    values = [ROMAN_VALUES[digit] for digit in numeral]
    return sum(-value if value < after else value for value, after in zip(values, values[1:] + [0]))


def inline_enumerators(text: str) -> list[tuple[int, int]]:
    """(start, end) of each ENUMERATOR in a sequence of two or more, but one that starts its line: that is the line's
    list marker (LIST_MARKER), which stays out of the segments anyway. A marker without its opening parenthesis that
    closes one ("(mode = 1) or (mode = 2)", "n * (n - 1)") is no marker."""
    found = list(ENUMERATOR.finditer(text))
    if not found:
        return []
    closing = _closing_parentheses(text, found)
    found = [marker for index, marker in enumerate(found) if index not in closing]
    in_sequence = {i for i in range(1, len(found)) if _follows(found[i].group(1), found[i - 1].group(1))}
    in_sequence |= {i - 1 for i in in_sequence}
    line_starts = {start.end() for start in LINE_START.finditer(text)} if in_sequence else set()
    return [found[i].span() for i in sorted(in_sequence) if found[i].start() not in line_starts]


# A link whose text names its target: a project, a package, a commit, a person, a site ("[virtualenv](https://pypi.org/
# project/virtualenv/)", "[Keybase](https://keybase.io)", "[Clive Li](https://github.com/cliveli)"), in Markdown,
# reStructuredText ("`requests <https://pypi.org/project/requests/>`_") and HTML. Read, the model translated the name
# ("[chardet]" came back as "[Zeichensatz]", "[black]" as "[schwarz]", "[Clive Li]" as "[Liste trennen]"): of 103 such
# links in 195 Markdown pages (packages' READMEs, Node.js' and npm's manuals), 54 came back changed. Such a link is one
# item, kept as written: its text is, case and separators aside, a label of the target's host (but its TLD and a
# generic one, GENERIC_HOST_LABELS) or its path's last segment (an extension aside); words only where the target runs
# them together (a handle, "sindresorhus", or a host), as a slug that keeps them apart is a title ("[Common Build
# Problems](.../wiki/Common-build-problems)"); a wiki's page is titled in words ("[escalade](https://en.wikipedia.org/
# wiki/Escalade)"). A Markdown link with a title is left to the tags' way, which translates the title.
NAMED_LINK = re.compile(
    r"(?<![\w\\!])\[(?P<markdown>[^\[\]\n]{1,100})\]\((?P<markdown_target>https?://[^\s()<>]{1,2000})\)"
    r"|(?<![\w`])`(?P<rst>[^`<>\n]{1,100}?)[ \t]+<(?P<rst_target>https?://[^\s<>`]{1,2000})>`__?(?!\w)"
    r"|<[aA]\s[^<>]{0,1000}?\b[hH][rR][eE][fF]=[\"'](?P<html_target>https?://[^\"'\s<>]{1,2000})[\"'][^<>]{0,1000}>"
    r"(?P<html>[^<>\n]{1,100})</[aA]>")
GENERIC_HOST_LABELS = frozenset("www m docs doc api blog wiki help support dev developer developers en de app get "
                                "download downloads forum news git code mail web static cdn store shop my co com org "
                                "net".split())
NAME_SEPARATORS = re.compile(r"[\s._-]+")
EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}\Z")


# A Markdown link whose text is a code span ("[`vm.Script`][]", "[`path.sep`](#pathsep)") is kept whole too: its tags
# put back around the code by alignment, 4 of 238 on 4 of Node.js' API pages came back around another word
# ("[zu][] zu finden, die `async_hooks`").
IN_CODE = re.compile(f"{RST_LITERAL}|{CODE_SPAN}")
CODE_LINK = re.compile(r"(?<![\w\\!])\[`[^`\n]{1,500}`\](?:\((?:<[^<>\n]*>|[^\s()<>]*)\)|\[[^\[\]\n]{0,999}\](?![(:]))")


def whole_links(text: str, blocks: Spans) -> list[tuple[int, int]]:
    """(start, end) of each link kept whole: one whose text names its absolute target (NAMED_LINK), one whose text is
    code (CODE_LINK); none inside code (the text's `code_blocks`, a code span, a literal), which stays whole."""
    links = [link.span() for link in CODE_LINK.finditer(text)] if "[`" in text else []
    if "://" in text:
        links += [link.span() for link in NAMED_LINK.finditer(text)
                  if _names(*next((link.group(kind), link.group(f"{kind}_target"))
                                  for kind in ("markdown", "rst", "html") if link.group(kind) is not None))]
    if not links:
        return []
    links.sort()
    starts = [start for start, _ in links]
    code = [span for span in sorted(blocks + [found.span() for found in IN_CODE.finditer(text)])
            if (link := bisect_right(starts, span[0]) - 1) < 0 or links[link][1] < span[1]]  # not a link's own
    return apart_from(links, code)


def _names(name: str, target: str) -> bool:
    """Whether a link's text names its target (NAMED_LINK)."""
    key = NAME_SEPARATORS.sub("", name).casefold()
    if len(key) < 2 or not any(character.isalpha() for character in key):
        return False
    host, _, path = target.split("://", 1)[1].partition("/")
    segments = [unquote(segment) for segment in path.split("?", 1)[0].split("#", 1)[0].split("/") if segment]
    if "wiki" in (segment.casefold() for segment in segments):
        return False
    labels = [label for label in host.split(":", 1)[0].split(".")[:-1] if label.casefold() not in GENERIC_HOST_LABELS]
    candidates = labels + ([segments[-1], EXTENSION.sub("", segments[-1])] if segments else [])
    words = len(name.split()) > 1
    return any(NAME_SEPARATORS.sub("", candidate).casefold() == key
               and not (words and NAME_SEPARATORS.search(candidate)) for candidate in candidates)


# A collapsed reference link's end ("[encoding][]"): its text is its label, which a definition elsewhere in the
# document matches ("[encoding]: url"). Translated, the link broke ("[Kodierung][]" is shown as written): Node.js' API
# pages hold 897 of them with words. Its end is written with the source's label ("[Kodierung][encoding]", a full
# reference to the same definition), where the text has words.
COLLAPSED_REFERENCE = "][]"
LABEL_BREAKER = re.compile(r"[\[\]\n]")  # what a label on one line (MARKDOWN_LINK_CLOSE's) cannot hold


def _collapsed_references_labelled(masked: str, prepared: Prepared) -> None:
    """Each collapsed reference's end item (COLLAPSED_REFERENCE) in the masked text given its label: the link's text
    as the source writes it, where that has words and fits a label on one line. One pass: each link's end closes the
    latest start still open (an image's inside the text closes first)."""
    starts: list[re.Match] = []
    for token in PLACEHOLDER_PATTERN.finditer(masked):
        item = prepared.protected[int(token.group(1))]
        if item in ("[", "!["):
            starts.append(token)
        if not (item.startswith("]") and starts and MARKDOWN_LINK_TAG.fullmatch(item)):
            continue
        start = starts.pop()
        text = masked[start.end():token.start()]
        if item == COLLAPSED_REFERENCE and any(c.isalpha() for c in PLACEHOLDER_PATTERN.sub("", text)):
            if not LABEL_BREAKER.search(label := prepared.unmask(text)):
                prepared.protected[int(token.group(1))] = f"][{label}]"


# A text is Markdown where it has a heading, a code fence or a link ("[text](target)", "[text][label]"); there a block
# of lines indented by four columns after a blank line is code, as CommonMark reads it. Read, "Run:\n\n    pip install
# translator" came back as "...\n\n    Rohrisolator", "    cd build\n    make" as "    CD-Bildbau\n    treffen <v".
# Elsewhere such lines are as often a help text's options, which catalogs translate, and after a list item they
# continue the item.
MARKDOWN = re.compile(r"(?:^|\n)(?:#{1,6}[ \t]+\S|[ ]{0,3}(?:```|~~~))|\]\(|\]\[")
CODE_INDENT = 4


# A command line where one is expected, at a line's start or after a colon ("Install it with: pip install requests",
# "Then run: docker compose up -d"): read as words, the model translated and broke it ("Rohr installieren",
# "Docker-Kompose -d", "npm installieren: npm installieren"). A package manager's or a tool's name, one of its
# subcommands, its arguments to the line's end; kept as written, as code. Not a tool's name alone or before words of a
# sentence ("git svn clone failed": no subcommand after "git"; "go down one line", "make up the bed": not tools here).
COMMAND_TOOLS = ("npm|npx|yarn|pnpm|pip|pip3|pipx|apt|apt-get|brew|docker|podman|kubectl|git|cargo|gem|conda|poetry"
                 "|helm|dnf|yum|snap|flatpak|uv")
SUBCOMMANDS = ("install|i|add|remove|uninstall|update|upgrade|run|build|start|clone|pull|push|init|test|exec|apply|get"
               "|create|compose|ci|publish|checkout|fetch|login|logs|ps|check|clean|sync")
COMMAND_LINE = re.compile(rf"(?:(?<![^\n])|(?<=: ))[ \t]*(?:\$ )?(?:sudo )?(?:{COMMAND_TOOLS}) (?:{SUBCOMMANDS})"
                          r"(?: (?!\S*\.\s)\S*[^\s.])*(?=\.?[ \t]*(?:\n|$))")  # a sentence's last dot stays out
# And any program's line with an option before a shell comment, the comment being the line's text (a help text's
# examples: "  tar -cf archive.tar foo bar  # Create archive.tar from files foo and bar." came back as "Tar -cf
# archive.tar-Schrift-Schrift  # ..."); at most 20 words on either side of the option, which bounds the search
COMMENTED_COMMAND = re.compile(r"(?m:^)[ \t]*(?:\$ )?[a-z][\w.+-]*(?: +[^\s#]\S*){0,20}? +-[^\s#]\S*"
                               r"(?: +[^\s#]\S*){0,20}(?=[ \t]+#[ \t])")
# And a command line between quotation marks, with an option ('run "git rebase --continue"', "try 'apt --fix-broken
# install'", "`popd -1'"): read, the model translated its words ("git Rebase --continue", "git wiederherstellen --staged
# :/", "git Notizen zusammenführen --commit": 41 of the 71 in 1,837 wrapped catalog messages), where German keeps 118 of
# the 131 in the installed catalogs (the others translate a placeholder's word: "<Datei>"). A program's name in small
# letters, at most two more words before its first option (subcommands), its arguments to the closing mark, on one
# line, its marks with it (the model lost them around the token: "führen Sie git config ... aus"); the marks not
# inside a word ("Don't use -h, it's"), and no word of a sentence among its words ('"use the -f flag"').
QUOTED_COMMAND = re.compile(r"(?<!\w)[\"'`»„“‘][a-z][\w.+-]*(?: [a-z][\w.+-]*){0,2} --?[A-Za-z][^\s\"'`«“”’]*"
                            r"(?: [^\s\"'`«“”’]+)*[\"'`«“”’](?!\w)")
SENTENCE_WORDS = frozenset("the a an to of for with and or is are be this that these your you it its".split())
# A command's usage line, its name and subcommands in small letters before nothing but its syntax: options, brackets
# and metavariables ("pushd [-n] [+N | -N | dir]", "Usage: id [-a]", "git bundle verify [-q | --quiet] <file>"). Read,
# its name was translated or lost ("pushd" came back as "primiert", "id" as "ID", "suspend [-f]" as "[-f]": 22 of the
# 60 installed catalogs' usage lines); the catalogs' German keeps the name in 307 of 323 such lines, and translates
# the words inside the brackets, which the model does too. So the name is kept as written, the rest read. A line of
# such syntax only, with a bracket holding a letter that is no list of values ("[on, off, auto]"), printf's ("error
# [%s]"), a changelog's credit ("[Steven M. Schweda]") or a number ("[1]", a commit's "[f05d1772c4]"); not one whose
# words could be a sentence's ("use notes from <notes-ref>").
USAGE_SYNTAX = (r"(?:\[(?:[^\[\]\n]|\[[^\[\]\n]*\])*\]|<[^<>\n]+>|\([^()\n]*\)|\{[^{}\n]*\}"
                r"|[-+]{1,2}(?:[\w-]+(?:\[?=\S*)?)?|[A-Z][A-Z0-9_-]*|\||\.\.\.|…)(?:[*+]|\.\.\.|…)?")
USAGE_WORD = r"[a-z][\w+-]*(?:\.[\w+-]+)*"  # a program's name or a subcommand, no sentence's last word
USAGE_LINE = re.compile(rf"(?<![^\n])[ \t]*(?:(?:[Uu]sage|or):[ \t]+)?(?P<name>{USAGE_WORD}(?: {USAGE_WORD}){{0,2}})"
                        rf"(?=(?P<syntax>(?:[ \t]+{USAGE_SYNTAX})+)[ \t]*(?:\n|$))")
OPTION_BRACKET = re.compile(r"(?<![^\s|])\[(?![^\]\n]*(?:, |%|\d|[A-Z][a-z]|[a-z]+ [a-z]+ [a-z]))[^\]\n]*[A-Za-z]")

# Any command after a shell's prompt, with the lines a backslash at a line's end continues ("$ gcloud alpha compute
# instances add-iam-policy-binding \\"): read, it was translated ("$ gcloud Alpha-Instanzen add-iam-policy-binding",
# "my-instance" as "mein-Instanz"; 207 of 1,342 paragraphs of 80 rendered manual pages have such a line). A command's
# name in small letters, or a path to one ("$ ./benchsuite \\"), an environment variable's assignment before it ("$
# LANG=C ls -l"), a test, a subshell or a redirection ("$ [ 1 = 1 ]", "$ (cd src && make)", "$ </etc/motd pager"), after
# "$ " at a line's start, in a text of lines or indented; not "$ 5", nor a text of one line that a catalog's key or
# format starts ("$ last page", "$ matches the end", "$ descriptor at %L": 8 catalog messages). Indented, after root's
# "# " too ("    # apt-get update"; a comment of a script's, which the Debian Reference's German keeps, "    # enable
# bash-completion"). An indentation may be of no-break spaces, as a web page's text rendering writes a screen's lines
# (w3m, the Debian Reference's text: "\xa0\xa0\xa0 $ man 1 bash" came back as "$ Man 1 Bash", 144 of its 178 such lines
# changed).
PROMPT_LINE = re.compile(r"(?<![^\n])(?:[ \t\xa0]*\$|[ \t\xa0]+#(?! of\b)) (?:\.{1,2}/|~/|/)?"
                         r"(?:[a-z][\w.+/-]*(?![^\s\\])|[A-Za-z_]\w*=|[\[(<])[^\n]*(?:(?<=\\)\n[^\n]*)*")
# A doctest's session, as a docstring's examples show it: an interpreter's lines (">>> ", Python: not an e-mail's
# quotation at three levels), their continuations ("... ") and what it printed, to the next blank line.
# Read, only its ">>>" lines were kept: the printed values came back as words ("Product(i*j**2, (i, a, b))" as
# "Produkt(...", a ")" lost; "[False,  True]]" as "[False,  Wahr]"), and where a printed value had "key=value" lines
# ("data=[[0, 1],") the text was a configuration file's, ">>> import numpy.ma as ma" came back as ">>> numpy.ma als
# Maus importieren".
DOCTEST = re.compile(r"(?<![^\n])[ \t]*>>>(?![^ \t\n])[^\n]*(?:\n(?![ \t]*(?:\n|$))[^\n]*)*")
INTERPRETER_LINE = re.compile(r"(?<![^\n])[ \t]*>>>[ \t]*([^\n#]*?)[ \t]*(?:#[^\n]*)?(?![^\n])")  # code, no comment
PYTHON_EXPRESSION = re.compile(r"[A-Za-z_][\w.]*(?:[(\[][^\n]*)?")  # a name, or a call or subscript of one
CONTINUATION_LINE = re.compile(r"\n[ \t]*\.\.\.(?:[ \t]|$)", re.MULTILINE)  # the interpreter's "... "
# A statement of a program on a line of its own outside a code block (a README's example left unfenced, a changelog's, a
# plain-text manual's): read, its keywords and names were translated and its brackets lost ("const crypto =
# require('node:crypto');" came back as "konstrukt-Krypto = erforderlich;", "console.log(buf.readUInt32LE(0)
# .toString(16));" lost a ")"). One that ends in ";" or opens a block with "{" (a comment may follow) and has a call, a
# block's keyword, an assignment or a comparison, or a name's path ("::") among its first three words or opening a
# block ("use Net::Daemon;", "class MyObject : public node::ObjectWrap {"; not a package description's line "good
# properties from Net::Daemon, NetServer::Generic, and Net::FTPServer;", which was kept in English) (an interpreter's
# lines are a doctest's: DOCTEST). Not a sentence that
# ends in ";": five words in a row outside its string literals are prose ("and strlen() was a way to measure the width
# of a string;"), and "(s)" is a plural's ("run command(s) after startup;"). Of 3,000 paragraphs of installed
# documentation, 200 such lines; of the corpus's 1,033,617 texts, one ("W_mech:rhs(%);").
STATEMENT_LINE = re.compile(r"(?<![^\n])[ \t]*(?=return\b|\}?[ \t]*else\b"
                            r"|(?:\S+[ \t]+){0,2}\S*::|[^\n]*::[^\n]*\{[ \t]*(?://[^\n]*)?(?![^\n])"
                            r"|[^\n]*(?:\w\((?!e?s\))|\b(?:if|for|while|switch|catch)[ \t]\(|[=!<>]=|=>|\w \+?= |\+\+))"
                            r"[^\n]*[;{][ \t]*(?://[^\n]*)?(?![^\n])")
STRING_LITERAL = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"|`[^`\n]*`")
PROSE = re.compile(r"(?:[A-Za-z]+ ){4}[A-Za-z]+")
# A line of Python that imports or decorates, and what may follow any line of Python: a comment
PYTHON_IMPORT_OR_DECORATOR = r"from [\w.]+ import [\w, *()]+|import [\w.]+(?: as \w+)?(?:, [\w.]+)*|@[\w.]+(?:\(.*\))?"
PYTHON_LINE_END = r"[ \t]*(?:#.*)?"
# A line of Python: an import, a definition, a decorator, a block's opening, an assignment or a call
PYTHON_LINE = re.compile(rf"(?:{PYTHON_IMPORT_OR_DECORATOR}"
                         r"|(?:async )?def \w+\(.*|class \w+(?:\(.*\))?:"
                         r"|for \w+(?:, \w+)* in .+:|(?:if|elif|while) .*[=<>()\[\].].*:|with .+ as \w+:"
                         r"|(?:else|try|finally):|except\b.*:"
                         r"|[A-Za-z_][\w.]*(?:\[[^\]\n]*\])?(?:, ?[A-Za-z_]\w*)* ?[-+*/%|&]?=(?!=) ?\S.*"
                         rf"|[A-Za-z_][\w.]*\(.*\)){PYTHON_LINE_END}")
# A line that opens a Python program: an import, a decorator, or a definition's or a block's head ("for root, dirs,
# files in os.walk(top):")
PYTHON_OPENER = re.compile(rf"(?:{PYTHON_IMPORT_OR_DECORATOR}"
                           rf"|(?:(?:async )?def|class|for|while|if|with|try|match)\b.*:){PYTHON_LINE_END}")
PYTHON_LINE_LIMIT = 200  # characters: code's lines are shorter, and a longer one would cost PYTHON_LINE's backtracking
# A help text's option line, an option (and its value) before a gap and its description, which no program has: with
# its value's syntax on the next line ("--group[=METHOD]  show all items, ...\n  METHOD={separate(default),...}") the
# text was read as a program of two lines, one of them a statement, and kept untranslated.
OPTION_HELP_LINE = re.compile(r"[ \t]*--?[A-Za-z][\w-]*(?:\[?=\S+)?(?:, --?[A-Za-z][\w-]*(?:\[?=\S+)?)*(?: {2,}|\t)"
                              r"[^\W\d_]")
# A line of a language with braces (C, S-Lang, Java, JavaScript) that STATEMENT_LINE, ending in ";" or "{", does not
# take: braces alone ("{", "});"), a block's head ("if (x == 1)", "} else", "do {"), a call's first line and its last
# ("png_set_background(png_ptr, bg,", "0, 1);"), a declaration of a C type or of one whose name has "_" ("struct
# jpeg_error_mgr jerr;", "FILE *fp;", "int main(int argc, char *argv[])"; not "the system type;", a list's item).
C_TYPE = (r"(?:(?:const|static|unsigned|signed|extern|inline|public|private) )*"
          r"(?:(?:struct|enum|union) \w+|int|char|long|short|float|double|void|bool|boolean|size_t|FILE|\w*_\w*)")
C_DECLARATION = rf"{C_TYPE}(?: ?\*+ ?| )\w+(?:\[\w*\])*(?: ?\([^()]*\)?[,;{{]?| ?=.*;| ?\)?[;,{{])?(?: *(?://|/\*).*)?"
C_FAMILY_LINE = re.compile(r"[{}()\[\];, ]*[{}][{}()\[\];, ]*|\}? ?(?:else )?(?:if|while|for|switch|foreach) ?\(.*\)"
                           rf"|\}}? ?else|do ?\{{|[A-Za-z_][\w.>-]* ?\(.*,|.*\);|{C_DECLARATION}")
CODE_COMMENT = re.compile(r"#|//|/?\*")  # a line that opens so is a comment of Python, C or the shell


def _prose(line: str) -> bool:
    """Whether a line that looks like a statement is a sentence: five words in a row outside its string literals."""
    return bool(PROSE.search(STRING_LITERAL.sub("", line)))


def code_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of the text's code that is kept as written: indented code blocks (`indented_code`, else
    `indented_program`), command lines (COMMAND_LINE, COMMENTED_COMMAND, QUOTED_COMMAND), a usage line's command
    (USAGE_LINE) and statements (STATEMENT_LINE), sorted and apart."""
    blocks = indented_code(text) or indented_program(text)
    lines = [line.span() for line in COMMAND_LINE.finditer(text)]
    if "#" in text:
        lines += [line.span() for line in COMMENTED_COMMAND.finditer(text)]
    if " -" in text:
        commands = [command.span() for command in QUOTED_COMMAND.finditer(text)
                    if SENTENCE_WORDS.isdisjoint(command.group()[1:-1].split())]
        lines += apart_from(commands, sorted(lines))
    if "[" in text:
        names = [usage.span("name") for usage in USAGE_LINE.finditer(text)
                 if OPTION_BRACKET.search(usage["syntax"]) and SENTENCE_WORDS.isdisjoint(usage["name"].split())]
        lines += apart_from(names, sorted(lines))
    if ";" in text or "{" in text:
        lines += [line.span() for line in STATEMENT_LINE.finditer(text) if not _prose(line.group())]
    if ("$ " in text or "# " in text) and ("\n" in text or text[:1] in " \t\xa0"):  # a prompt's command takes its lines
        prompts = [line.span() for line in PROMPT_LINE.finditer(text)]
        lines = prompts + apart_from(sorted(lines), prompts)
    if ">>>" in text:
        sessions = doctests(text)
        lines = sessions + apart_from(sorted(lines), sessions)
    return sorted(blocks + apart_from(sorted(lines), blocks)) if lines else blocks


def doctests(text: str) -> Spans:
    """(start, end) of each doctest's session (DOCTEST) whose first interpreter's line with code is Python
    (PYTHON_LINE, PYTHON_EXPRESSION) or goes on in a line of the interpreter's own (CONTINUATION_LINE: "for line in
    unified_diff(a," was read, "für Zeile in unified_diff("), not an e-mail's words quoted at three levels."""
    return [found.span() for found in DOCTEST.finditer(text)
            if (code := next(filter(None, INTERPRETER_LINE.findall(found.group())), None)) is None
            or len(code) <= PYTHON_LINE_LIMIT and PYTHON_LINE.fullmatch(code) or PYTHON_EXPRESSION.fullmatch(code)
            or CONTINUATION_LINE.search(found.group())]


def _indent_width(line: str) -> int:
    """The columns a line's leading whitespace takes, a tab to the next multiple of CODE_INDENT."""
    expanded = line.expandtabs(CODE_INDENT)
    return len(expanded) - len(expanded.lstrip())


def _code_may_open_after(content: str, indent: int, may_open: bool) -> bool:
    """Whether an indented code block may open after a blank line that follows this line with text (indented by
    `indent`; `may_open`: whether one could after the line before): after one neither indented nor a list item."""
    return indent == 0 and not LIST_MARKER.match(content) or indent >= CODE_INDENT and may_open


def indented_code(text: str) -> list[tuple[int, int]]:
    """(start, end) of each indented code block of a Markdown text (MARKDOWN), from its first line's start to its last
    line's end: lines indented by CODE_INDENT columns or more (blank ones between them included) after a blank line
    or the text's start, where the last line before them with text is neither indented nor a list item."""
    if not MARKDOWN.search(text):
        return []
    blocks: list[tuple[int, int]] = []
    start, end, blank_before, may_open = None, 0, True, True
    position = 0
    for line in text.splitlines(keepends=True):
        content = line.rstrip("\r\n")
        indent = _indent_width(content)
        if not content.strip():
            blank_before = True
        elif indent >= CODE_INDENT and (start is not None or blank_before and may_open):
            start = position if start is None else start
            end = position + len(content)
            blank_before = False
        else:
            if start is not None:
                blocks.append((start, end))
                start = None
            may_open = _code_may_open_after(content, indent, may_open)
            blank_before = False
        position += len(line)
    if start is not None:
        blocks.append((start, end))
    return blocks


def indented_program(text: str) -> list[tuple[int, int]]:
    """The whole text, where it is a program indented by CODE_INDENT columns or more: a reStructuredText literal block
    after its "::", a plain-text manual's example, which a batch job's paragraphs (and Markdown's indented code
    without Markdown around it) send alone, and a terminal's session that a command after a prompt opens
    (PROMPT_LINE). Read, it was translated ("if __name__ == '__main__':" came back as "wenn
    __Name__ == '__Min__':", "print(...)" as "Druck(...", S-Lang's "if (-1 == f ())" as "wenn (-1 == f ()", a ")"
    lost). At least half of its lines, comments aside, are Python (PYTHON_LINE) or of a language with braces
    (C_FAMILY_LINE, STATEMENT_LINE outside prose). A program of two statements or more that opens a Python block or
    imports (PYTHON_OPENER) may start at any column: a client that strips a paragraph sends a docstring's example so
    ("import os" came back as "Einfuhrstutzen", "def run(self):" as "def-Roll(self):"). Not a help text with an
    option's line (OPTION_HELP_LINE)."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or any(len(line) > PYTHON_LINE_LIMIT for line in lines):
        return []
    whole = [(len(text) - len(text.lstrip()), len(text.rstrip()))]
    indented = all(_indent_width(line) >= CODE_INDENT for line in lines)  # no-break spaces too (PROMPT_LINE)
    if indented and PROMPT_LINE.match(lines[0]):  # a terminal's session: what its command printed is the program's
        return whole  # ("ripgrep 12.1.1 (rev def993bad1)" under "$ rg --version" came back as "rrgrep 12.1.1 (Rev ...")
    statements = [line.strip() for line in lines if not CODE_COMMENT.match(line.strip())]
    opens = len(statements) > 1 and PYTHON_OPENER.fullmatch(lines[0].strip())
    if not opens and not indented or any(OPTION_HELP_LINE.match(line) for line in lines):
        return []
    code = sum(bool(PYTHON_LINE.fullmatch(line) or (C_FAMILY_LINE.fullmatch(line) or STATEMENT_LINE.fullmatch(line))
                    and not _prose(line)) for line in statements)
    return whole if code and 2 * code >= len(statements) else []


# A configuration or resource file sent whole (a batch job's file): an INI file's or a desktop entry's "key=value" lines
# and "[section]" headers, a properties file's "a.key = value", a YAML document's "key: value" lines, an Apple strings
# file's '"key" = "value";' lines. Read, the keys were translated ("Comment=Edit text files" came back as
# "Kommentar=Bearbeiten bearbeiten", "title: Welcome" under "en:" as "Titel: Willkommen", "button.cancel = Cancel" as
# "Knopf.cancel = Abbrechen"), and the program that reads the file finds none of them. A key is kept and separates
# segments, so each value is translated alone. Only where the text is such a file: two assignments or more (or one under
# a section header), "=" unspaced or a key spelled as code ("Tolerance = %g", "n = %d" are a message's labels, which
# catalogs translate); YAML where a key opens a mapping (nothing after its colon, in small letters or quoted, as "en:"
# does) and a deeper key line follows ("Usage:" or "Options:" above a help text's lines opens none).
# "Comment", "a.key", "Name[de]", a Java property's escapes ("key\ with\ spaces" was translated, the key lost)
CONFIG_KEY_NAME = r"(?:[A-Za-z_]|\\.)(?:[\w.-]|\\.)*(?:\[[\w@.-]+\])?"
ASSIGNMENT = re.compile(rf"^[ \t]*({CONFIG_KEY_NAME})(=|[ \t]+=[ \t]+)(?=[^\s=])", re.MULTILINE)
SPELLED_AS_CODE = re.compile(r".*[._]|.*[a-z][A-Z]|.*\d")
SECTION = re.compile(r"^[ \t]*\[[\w .@/:-]+\][ \t]*$", re.MULTILINE)
# An Apple strings file's entries ('"save_title" = "Save changes";'): a key, its value, each entry a line
STRINGS_ENTRY = re.compile(r'^[ \t]*("(?:[^"\\\n]|\\.)*"[ \t]*=[ \t]*")(?:[^"\\\n]|\\.)*("[ \t]*;)', re.MULTILINE)
YAML_KEY = re.compile(r"^([ \t]*)(?:- )?([A-Za-z_][\w.-]*|\"[^\"\n]*\"|'[^'\n]*'):(?=[ \t]|$)", re.MULTILINE)
YAML_OPENER = re.compile(r"[a-z_\"']")
# A YAML value quoted whole: its opening quote, its text (escapes in double quotes, '' in single) and its closing quote;
# a comment may follow (`one: "1 file"  # singular`)
YAML_QUOTED_VALUE = re.compile(r"""[ \t]+(["'])((?<=")(?:[^"\\\n]|\\.)*|(?<=')(?:[^'\n]|'')*)(\1)"""
                               r"(?:[ \t]+#.*|[ \t]*)$", re.MULTILINE)


def config_keys(text: str) -> Spans:
    """(start, end) of each key of a configuration file's text (with its "=" or ":"), each "[section]" header, and
    the quotation marks around a YAML value quoted whole or a strings file's value: the syntax such a file's reader
    needs as written."""
    if entries := [span for entry in STRINGS_ENTRY.finditer(text) for span in (entry.span(1), entry.span(2))]:
        return entries
    if text[:1] in " \t" and indented_program(text):  # its assignments are code ("a = np.arange(4)" came back as
        return []  # "ein = np.arange(4)", "for method in lines:" as "für Methode in Zeilen:")
    assignments = [found for found in ASSIGNMENT.finditer(text)
                   if found.group(2) == "=" or SPELLED_AS_CODE.match(found.group(1))]
    if assignments and "<" in text:  # not a tag's attributes, one to a line ('<BODY\nCLASS="BOOK"\nTEXT="#000"\n>')
        tags = [tag.span() for tag in TAG_PARTS.finditer(text)]  # in order, apart
        starts = [start for start, _ in tags]
        assignments = [found for found in assignments
                       if not (k := bisect_left(starts, found.start(1))) or tags[k - 1][1] <= found.start(1)]
    sections = [found.span() for found in SECTION.finditer(text)]
    if len(assignments) >= 2 or assignments and sections:
        return sorted([(found.start(1), found.end(2)) for found in assignments] + sections)
    keys = list(YAML_KEY.finditer(text))
    if not any(_opens_a_mapping(text, key, after) for key, after in zip(keys, keys[1:])):
        return []
    spans = []
    for key in keys:
        spans.append((key.start(2), key.end()))
        if quoted := YAML_QUOTED_VALUE.match(text, key.end()):
            spans += [quoted.span(1), quoted.span(3)]
    return spans


def code_blocks(text: str) -> Spans:
    """(start, end) of a Markdown text's front matter and fenced code blocks, and of each comment or CDATA section
    (SECTIONS): the keys written there are kept whole with them. Read as a configuration file's, a README's TOML
    example ("```toml", 'defaultContentLanguage = "en"') had its values translated ("ennen"), its comments too; and so
    had the YAML in the comments before each of Node.js' API sections ("<!-- YAML\nadded: v0.1.25" came back as
    "added: v0,1,25", a change's description translated)."""
    blocks = sections_in(text) if "<!" in text else []
    if "```" in text or "~~~" in text or text.startswith("---"):
        blocks += [found.span() for pattern in (FRONT_MATTER_BLOCK, FENCED_BLOCK) for found in pattern.finditer(text)]
    if ">>>" in text:  # and a doctest's session, whose printed values may hold "key=value" lines
        blocks = sorted(blocks)
        blocks += apart_from(doctests(text), blocks)
    return sorted(blocks)


def sections_in(text: str) -> Spans:
    """(start, end) of each section (SECTIONS: "<!--" to the first "-->" after it), in order; none from one that
    never closes on."""
    found = []
    for opens, closes in SECTIONS:
        start = text.find(opens)
        while start >= 0 and (end := text.find(closes, start + len(opens))) >= 0:
            found.append((start, end + len(closes)))
            start = text.find(opens, end + len(closes))
    return sorted(found)


def _opens_a_mapping(text: str, key: re.Match, after: re.Match) -> bool:
    """Whether YAML key line `key` opens a mapping that the key line `after` is in."""
    return (YAML_OPENER.match(key.group(2)) is not None and not text[key.end():after.start()].strip()
            and len(after.group(1).expandtabs()) > len(key.group(1).expandtabs()))


# ICU MessageFormat's arguments with a type (web and mobile apps' catalogs): "{count, plural, one {# file} other {#
# files}}", "{gender, select, ...}", "{n, number}". Read, their syntax was translated and the message broke: "{count,
# plural, one {# file} other {# files}}" came back as "{Konto, Plural, eine {# Datei} andere {# Dateien}}". The
# syntax is kept and separates segments: each choice's message is translated alone, its "#" (the number) kept.
ICU_ARGUMENT = re.compile(r"\{\s*(?:[A-Za-z_]\w*|\d+)\s*,\s*"
                          r"(plural|selectordinal|select|number|date|time|spellout|ordinal|duration|choice)\s*(?=[,}])")
ICU_CHOICES = frozenset(("plural", "selectordinal", "select"))
ICU_SELECTOR = re.compile(r"\s*(?:offset:\s*\d+\s+)?(?:=\d+|[A-Za-z_][\w-]*)\s*(?=\{)")
# Java's MessageFormat has choices of its own (Jenkins' messages): "{0,choice,0#no files|1#one file|1<{0} files}", each
# message after a limit and "#", "<" or "≤", up to a "|". Read, "choice" came back as "Koice" or "Kopf", and Java
# refused the message at run time ("unknown format type"). Its syntax is kept as a plural's is.
JAVA_CHOICE_LIMIT = re.compile(r"\s*(?:[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|-?\u221e)\s*[#<\u2264]")
ICU_MAX_DEPTH = 8  # arguments nested deeper stay text (a message nests two or three; recursion has a limit)


def icu_syntax(text: str) -> tuple[Spans, Spans, list[Spans]]:
    """(syntax, items, choices): the spans of each plural's or select's syntax (from its "{" to its first message's
    "{", between its messages, after its last; a Java choice's likewise), which separates segments; each "#" in its
    messages and each number's or date's argument whole, items of their sentences; and the syntax of each plural or
    select outside any other argument with none inside. Braces are paired once (a stack), so each argument is read in
    one pass however they nest."""
    if "{" not in text:
        return [], [], []
    pairs: dict[int, int] = {}
    opened: list[int] = []
    for index, character in enumerate(text):
        if character == "{":
            opened.append(index)
        elif character == "}" and opened:
            pairs[opened.pop()] = index

    def argument(start: int, syntax: Spans, numbers: Spans, depth: int = 0) -> bool:
        """Whether an argument with a type starts at `start`; if so, its spans are added."""
        header, end = ICU_ARGUMENT.match(text, start), pairs.get(start)
        if not header or end is None or depth > ICU_MAX_DEPTH:
            return False
        if header.group(1) == "choice":
            return java_choice(start, end, header.end(), syntax, numbers, depth)
        if header.group(1) not in ICU_CHOICES:  # a number's or date's: an item in its sentence, as "{count}" is
            numbers.append((start, end + 1))
            return True
        if text[header.end()] != ",":
            return False
        own: Spans = []
        own_numbers: Spans = []
        opening, position = start, header.end() + 1
        while (selector := ICU_SELECTOR.match(text, position, end)) and selector.end() in pairs:
            message_end = pairs[selector.end()]
            own.append((opening, selector.end() + 1))
            messages(selector.end() + 1, message_end, own, own_numbers, depth)
            opening, position = message_end, message_end + 1
        if opening == start or text[position:end].strip():
            return False
        syntax += own + [(opening, end + 1)]
        numbers += own_numbers
        return True

    def java_choice(start: int, end: int, position: int, syntax: Spans, numbers: Spans, depth: int) -> bool:
        """Java's "{0,choice,0#none|1<{0} more}": its syntax (up to the first message, each "|" with the next limit,
        the closing brace) and its messages' arguments added; False where it is no such choice."""
        if text[position] != ",":
            return False
        own: Spans = []
        own_numbers: Spans = []
        opening, position = start, position + 1
        while limit := JAVA_CHOICE_LIMIT.match(text, position, end):
            own.append((opening, limit.end()))
            position = limit.end()
            while position < end and text[position] != "|":
                if text[position] == "{" and position in pairs:
                    argument(position, own, own_numbers, depth + 1)
                    position = pairs[position] + 1
                else:
                    position += 1
            if position == end:
                syntax += own + [(end, end + 1)]
                numbers += own_numbers
                return True
            opening, position = position, position + 1
        return False

    def messages(start: int, end: int, syntax: Spans, numbers: Spans, depth: int) -> None:
        position = start
        while position < end:
            if text[position] == "{" and position in pairs:
                argument(position, syntax, numbers, depth + 1)
                position = pairs[position] + 1
            else:
                if text[position] == "#":
                    numbers.append((position, position + 1))
                position += 1

    syntax: Spans = []
    numbers: Spans = []
    choices: list[Spans] = []
    position = 0
    while (found := text.find("{", position)) >= 0:
        before, items_before = len(syntax), len(numbers)
        if argument(found, syntax, numbers):  # past it, else inside the braces too (a JSON object's values)
            own = syntax[before:]
            inside = own[1:] + numbers[items_before:]
            if len(own) > 1 and not any(ICU_ARGUMENT.match(text, start) for start, _ in inside):
                choices.append(own)
            position = pairs[found] + 1
        else:
            position = found + 1
    return sorted(syntax), sorted(numbers), choices


# A choice's message alone is a fragment, which the model translated poorly: "You have {count, plural, =0 {no
# messages} one {one message} other {# messages}}." came back as "Du hast du {count, plural, =0 {keine Nachrichten}
# ...}.", where "You have no messages." whole came back as "Sie haben keine Nachrichten.", and German orders words
# otherwise ("{name} hat Ihnen # Fotos gesendet."). So the words of a choice's sentence are read in each message
# (`icu_sentences`), and the words every message's translation starts and ends with go back out (`icu_contracted`).
ICU_SENTENCE_END = re.compile(r"[.!?](?=\s|$)")
ICU_SENTENCE_MAX = 300  # characters looked at on each side of a choice: a longer "sentence" is none to read whole


def icu_sentences(text: str, choices: list[Spans]) -> str | None:
    """The text with the words of each plural's or select's sentence (on its line, in its JSON string, to the
    sentence's end; no markup) inside each of its two or more messages; None where no sentence holds words beside
    one such choice alone. `choices`: icu_syntax's."""
    pieces, done = [], 0
    for index, own in enumerate(choices):
        start, end = own[0][0], own[-1][1]
        first, last = _sentence_around(text, start, end)
        prefix, suffix = text[first:start], text[end:last]
        words = prefix + suffix  # "#" would be the number inside a plural; another argument, one of its words
        if (len(own) < 3 or not LETTER.search(words) or "#" in words or ICU_ARGUMENT.search(words)
                or not (_braces_paired(prefix) and _braces_paired(suffix))
                or "<" in words or ">" in words  # markup stays outside
                or first < max(done, choices[index - 1][-1][1] if index else 0)
                or index + 1 < len(choices) and choices[index + 1][0][0] < last):
            continue
        parts = [text[a:b] for a, b in own]
        messages = [text[a[1]:b[0]] for a, b in zip(own, own[1:])]
        if not all(message.strip() for message in messages) or prefix[-1:].strip() or _outer_words_start(suffix):
            continue  # an ending ("file{n, plural, one {} other {s}}"), or marks glued to it that would not go back
        pieces += [text[done:first], parts[0]] + [prefix + message + suffix + part
                                                  for message, part in zip(messages, parts[1:])]
        done = last
    return "".join(pieces) + text[done:] if pieces else None


def _braces_paired(words: str) -> bool:
    """Whether every brace in the words closes one opened before it ("{name} sent", not "} other {%s")."""
    depth = 0
    for brace in re.findall("[{}]", words):
        depth += 1 if brace == "{" else -1
        if depth < 0:
            return False
    return depth == 0


def _sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """Where the sentence around text[start:end] starts and ends: on its line (within ICU_SENTENCE_MAX characters,
    at a space), inside the JSON string that holds it, after the last sentence's end before it and up to the first
    after it, whitespace at its edges left out."""
    window = max(0, start - ICU_SENTENCE_MAX), min(len(text), end + ICU_SENTENCE_MAX)
    first = text.rfind("\n", window[0], start) + 1 or (text.find(" ", window[0], start) + 1 if window[0] else 0)
    last = text.find("\n", end, window[1])
    if last < 0:
        last = text.rfind(" ", end, window[1]) if window[1] < len(text) else len(text)
    opening = max((m.end() for m in UNESCAPED_QUOTE.finditer(text, first, start)), default=None)
    closing = UNESCAPED_QUOTE.search(text, end, last)
    if opening is not None and closing:
        first, last = opening, closing.start()
    first = max((m.end() for m in ICU_SENTENCE_END.finditer(text, first, start)), default=first)
    if sentence_end := ICU_SENTENCE_END.search(text, end, last):
        last = sentence_end.end()
    while first < start and text[first].isspace():
        first += 1
    while last > end and text[last - 1].isspace():
        last -= 1
    return first, last


UNESCAPED_QUOTE = re.compile(r'(?<!\\)"')


def icu_contracted(text: str) -> str:
    """The translation with the words that every message of a plural or select starts with (up to a space) and ends
    with (from a mark or space) before and after it again, as the source had them (`icu_sentences`): "{count, plural,
    one {Sie haben eine Nachricht.} other {Sie haben # Nachrichten.}}" is "Sie haben {count, plural, one {eine
    Nachricht} other {# Nachrichten}}.". A choice whose messages share nothing, or would be left empty, stays whole."""
    _, _, choices = icu_syntax(text)
    pieces, done = [], 0
    for own in choices:
        messages = [text[a[1]:b[0]] for a, b in zip(own, own[1:])]
        shared = os.path.commonprefix(messages).split("#")[0]  # the number stays in the messages
        prefix = shared[:shared.rfind(" ") + 1]
        rests = [message[len(prefix):] for message in messages]
        shared = os.path.commonprefix([rest[::-1] for rest in rests])[::-1].split("#")[-1]
        suffix = shared[_outer_words_start(shared):]
        inner = [rest[:len(rest) - len(suffix)] for rest in rests]
        outer = prefix + suffix
        if not outer or not all(part.strip() for part in inner) or outer.count("{") != outer.count("}"):
            continue
        parts = [text[a:b] for a, b in own]
        pieces += [text[done:own[0][0]], prefix, parts[0]] + [message + part for message, part in zip(inner, parts[1:])]
        pieces.append(suffix)
        done = own[-1][1]
    return "".join(pieces) + text[done:]


ENDING_MARKS = frozenset(".!?…,;:\"'’”»)]")


def _outer_words_start(tail: str) -> int:
    """Where the words the sentence ends with start in a tail its messages share: at a space or a mark that ends a
    clause, never inside a word or a tag ("<button>" and "<b>" share ">")."""
    return next((k for k, character in enumerate(tail) if character.isspace() or character in ENDING_MARKS), len(tail))


def is_name(item: str) -> bool:
    """Whether a protected item is a name (NAME, one `names_outside_ascii` finds, one word or a titled name
    `ascii_names` finds, or a PACKAGE_NAME: "libglew-dev package" is "libglew-dev-Paket")."""
    return bool(NAME.fullmatch(item) or item[:1].isupper() and WORD_OUTSIDE_ASCII.fullmatch(item)
                or lexicon.CAPITALIZED_WORD.fullmatch(item) and not lexicon.load().knows(item)
                or APOSTROPHE_NAME.match(item) and ASCII_NAME_RUN.fullmatch(item)
                or TITLED_NAME.fullmatch(item) or item == "Windows"  # (WINDOWS_NAME)
                or is_package_name(item))


def long_runs(text: str) -> list[tuple[int, int]]:
    """(start, end) of each LONG_RUN, markup ending a run as a space does: minified HTML ("<ul><li>Home</li><li>About
    us</li>...", no space in 50 characters) is words between tags, which kept as one run were never translated; and
    a Markdown link's end and a footnote's reference ("[breaking changes](#breaking-changes).[^explain-format]" kept
    "changes" English), and a reStructuredText link's end (its comma after a long target, a run's rest, was an item:
    ', `' with the next link's start, which no longer went back by alignment)."""
    for markup, pattern in (("<", ANY_MARKUP), ("]", MARKDOWN_LINK_ENDS), ("`_", RST_LINK_END)):
        if markup in text:
            markup_spans = protected_spans(text, pattern)  # comments and CDATA sections too
            text = swapped(text, markup_spans, [" " * (end - start) for start, end in markup_spans])
    return [run.span() for run in LONG_RUN.finditer(text)]


def json_data(text: str) -> bool:
    """Whether a text is JSON data a program wrote (an API's answer in a spreadsheet's cell, a log's record): an
    object or array that holds a truth value or null, or records (an array of objects). Kept whole: read, the model
    translated keys and values and lost the structure (of an Excel workbook's 834 cells with one, 541 came back no
    longer JSON, "Kelowna International Airport" as "Kelowna Internationales Airport"). A catalog's snippet, strings
    under keys ('{"save": "Save"}'), is not data: its strings are translated each alone (`json_values`)."""
    start = WHITESPACE.match(text).end()
    if text[start:start + 1] not in ("{", "["):  # (most texts: no copy of them made)
        return False
    stripped = text.strip()
    if stripped[-1:] not in ("}", "]"):
        return False
    try:
        values = [json.loads(stripped)]
    except (ValueError, RecursionError):  # (nested deeper than Python's stack: read as text, as before)
        return False
    while values:
        value = values.pop()
        if value is None or isinstance(value, bool) or isinstance(value, list) and any(
                isinstance(item, dict) for item in value):
            return True
        values += value if isinstance(value, list) else value.values() if isinstance(value, dict) else []
    return False


def prepare(text: str, preserve_placeholders: bool = True, html: bool = False,
            fits: Callable[[str], bool] = lambda s: True,
            unknown: Callable[[str], list[tuple[int, int]]] = lambda s: [], take_out_tags: bool = False,
            short: Callable[[str], bool] | None = None, glossary: Glossary | None = None) -> Prepared:
    """Split text into segments to translate. Protected items are masked first (markup always in HTML, with
    preserve_placeholders everything PLACEHOLDERS, MARKUP and NUMBER match, names spelled with letters outside ASCII
    (`names_outside_ascii`), names the model has not learned (`ascii_names`), listed codes (`listed_codes`) and
    abbreviations after what they abbreviate (`expanded_abbreviations`), the markers of lists inside a line
    (`inline_enumerators`, which separate segments as marks between clauses do), a Markdown text's indented code and
    command lines (`code_lines`), links whose text names their target or is code (`whole_links`) and ICU MessageFormat's
    syntax (`icu_syntax`, which separates segments), and always what the model cannot translate: the spans
    `unknown(text)` names, characters the model's vocabulary lacks, which it could only turn into "⁇" but copies as
    placeholders, LONG_RUN characters without a space, and quotation marks, which it dropped: `quotation_marks`), so no
    sentence or line break falls inside one. Line breaks (but those that wrap a sentence, `_wrap_end`), in HTML
    block-level tags, marks between clauses the model cannot read (`clauses`) and parentheses around words
    (`parentheticals`) separate segments. `fits(segment)` says whether a segment is within the model's source limit;
    longer ones are split at the clause or word boundary nearest their middle, as are those that fit but are not
    `short(segment)` (longer than the model translates well), where they have one. A segment reads the character
    references it can as their characters (`characters_read`), in capitals, sentence-cased (`_shouted`), and a label
    without a mnemonic marker inside a word (`_accelerator`). With take_out_tags, items of tags alone leave the segments
    (translator.markup), to be put back by alignment. A collapsed reference link's end takes its label
    (`_collapsed_references_labelled`). A manual page's justified spacing and nroff's hyphens at line ends are read
    as plain text's (`unjustified`, NROFF_HYPHEN). Each segment numbers its tokens from XX0X (`Prepared.numbers`). A
    `glossary`'s terms are forms too, written as its entries say (translator.glossary), whatever preserve_placeholders
    says, but none inside what is kept as written (`spanning_whole`)."""
    if preserve_placeholders and json_data(text):  # (a protected item, as a code block is: off, it is text)
        return Prepared([], [text], html=html)
    if not html and "\u2010" in text:  # first: every span below is of the text as read
        text = NROFF_HYPHEN.sub("-", text)  # dehyphenated as an ASCII one (`dehyphenated`)
    if not html and "  " in text and "\n" in text:
        text = unjustified(text)
    icu, icu_numbers, choices = icu_syntax(text) if preserve_placeholders else ([], [], [])  # exact: the syntax
    whole_sentences = icu_sentences(text, choices) if choices else None
    prepared = Prepared([], [""], html=html, icu_expanded=whole_sentences is not None,
                        metavariables=Metavariables.of(text) if not html else None)
    if whole_sentences:
        text = whole_sentences
        icu, icu_numbers, _ = icu_syntax(text)
    pattern = EVERYTHING_AND_NUMBERS if preserve_placeholders else MARKUP_AND_TOKEN_LIKE if html else ONLY_TOKEN_LIKE
    emphasis = take_out_tags and preserve_placeholders and not html  # Markdown's, read as tags where they may leave
    marks = emphasis_marks(text) if emphasis else []
    # A long run is a word of its own (whitespace bounds it); protect widens the unknown spans inside it to it.
    # list markers, names and code, as placeholders are
    blocks = code_blocks(text) if preserve_placeholders else []
    keys = apart_from(config_keys(text), blocks) if preserve_placeholders else []
    syntax = sorted(icu + apart_from(keys, icu))  # kept as written; separates segments
    latex = latex_markup(text) if preserve_placeholders and not html and latex_hinted(text) else None
    prepared.latex = latex is not None and not any(mark in text for mark in TEX_QUOTED)
    if latex:
        syntax = sorted(syntax + apart_from(latex.separators, syntax))
    written = sorted(syntax + icu_numbers)  # kept as written
    links = apart_from(whole_links(text, blocks), written) if preserve_placeholders else []  # so are they
    code = code_lines(text) if preserve_placeholders and not keys else []
    terms = glossary.terms(text) if glossary else []
    if terms:  # none inside what is kept as written: a term "count" made "{count}" "{Anzahl}", "--count" "--Anzahl"
        terms = spanning_whole(terms, sorted(protected_spans(text, pattern) + untranslatable_elements(text) + written
                                             + links + blocks + code))
    forms = german_forms(text) if preserve_placeholders else []
    if terms:  # a term wins over a form it overlaps
        clear = set(apart_from([form[:2] for form in forms], [term[:2] for term in terms]))
        forms = sorted(terms + [form for form in forms if form[:2] in clear])
    form_spans = [(start, end) for start, end, _ in forms]
    labelled, labels = ui_labels(text, form_spans) if preserve_placeholders else ([], [])  # paths, quoted labels
    tagged = [path for path in labelled  # one item, tags and references and all (TAGGED_LABEL, MENU_SEPARATOR)
              if "<" in text[path[0]:path[1]] or ONE_REFERENCE.search(text, *path)]
    localized = sorted(form_spans + labelled) if labelled else form_spans
    names = apart_from(ascii_names(text), localized) if preserve_placeholders else []
    marker = _unknown_marker(text) if ("_" in text or "~" in text) and not html else None  # read as one, no token
    codes = listed_codes(text) + expanded_abbreviations(text) + package_names(text) if preserve_placeholders else []
    if preserve_placeholders and "_" in text:
        codes = sorted(codes + underscored_names(text, marker))
    if codes:
        names = sorted(names + apart_from(sorted(codes), sorted(localized + names)))
    # "Linda&#x27;s", "five o&#x27;clock": one item, as in plain text (a form in pieces was read in English)
    escaped = sorted(span for span in names + form_spans if "&" in text[span[0]:span[1]])
    items = inline_enumerators(text) + code + (apart_from(localized, escaped) if escaped else localized) + (
        apart_from(names, escaped) if escaped else names)
    if html and "=" in text:
        items += [tag.span() for tag in UNCLOSED_TAG.finditer(text)]
    if not text.isascii():
        items += [run.span() for run in symbols_outside_ascii().finditer(text)]
        items += names_outside_ascii(text) if preserve_placeholders else []
    quoting, speeches = quotation_marks(text, pattern, literals=preserve_placeholders, speech=not keys)
    speech = [mark for start, end in apart_from(speeches, blocks) for mark in ((start, start + 1), (end - 1, end))]
    unknown_spans = unknown(text)
    if marker:
        unknown_spans = [span for span in unknown_spans if span != marker]
    untranslatable = sorted(unknown_spans + items + long_runs(text) + quoting + marks)
    # Tags (and Markdown's marks) stay apart from what is beside them when they may leave the sentence ("</a> %s" as
    # one token kept the element's words from the model); in HTML, block-level tags always do (they separate
    # segments); references and marks between clauses do.
    apart = (TAGS_APART if take_out_tags else BLOCK_TAGS_APART if html else REFERENCES_AND_SEPARATORS_APART).fullmatch
    # An ICU argument's or a file's syntax and direct speech's marks separate segments: a placeholder beside them
    # stays with its words. An abbreviation stays alone too: as one item with what is beside it, it would stay English
    # ('(e.g. "math")' is kept as written).
    abbreviations = [(start, end) for start, end, _ in forms if text[start:end].rstrip(",").lower() in ABBREVIATIONS]
    abbreviations += [(start, end) for start, end, _ in terms]  # a term, too: one item with a tag beside it was
    # neither written as the glossary says nor read for the tag's alternative text
    latex_tags = latex.tags if latex else []
    if marks or syntax or speech or abbreviations or latex_tags:
        apart = _also_apart(apart, set(marks + syntax + speech + abbreviations + latex_tags))
    exact = sorted(written + links)
    if latex:
        exact = sorted(exact + apart_from(sorted(latex.items + latex_tags), exact))
    exact = sorted(exact + apart_from(escaped, exact)) if escaped else exact
    exact = sorted(exact + apart_from(tagged, exact)) if tagged else exact
    # an emphasis's closing "_" or "__" ends no reST reference ("__very important__": no item "important__")
    closing = {end for start, end in marks[1::2] if text[start] == "_"}
    masked = protect(text, prepared.protected, pattern, untranslatable, apart, exact, closing)
    # With its items in place this is the text, so the text's spans find their items in it (`items_over`); the text
    # as read, dehyphenated, is shorter after each joined word ("about 8.05" after "hun-\ndred" lost its "etwa")
    as_in_text, joined_breaks = masked, set()
    if not html and ("-\n" in masked or "-\r\n" in masked):
        masked, joined_breaks = dehyphenated(masked)
    if preserve_placeholders and COLLAPSED_REFERENCE in prepared.protected:
        _collapsed_references_labelled(masked, prepared)
    if html:
        bare = PLACEHOLDER_PATTERN.sub("", masked)
        prepared.escaped = {ord(mark): reference for mark, reference in HTML_TEXT_ESCAPES.items() if mark not in bare}
    prepared.characters = characters_read(masked, prepared.protected, lambda character: not (
        unknown(character) or symbols_outside_ascii().match(character)))
    if preserve_placeholders:
        prepared.quoting_references = quoting_references(masked, prepared.protected)
    separators = {number for number, item in enumerate(prepared.protected)  # (and "&mdash;": "—")
                  if as_character(item) in CLAUSE_SEPARATORS or ENUMERATOR_ITEM.fullmatch(item)}
    as_read = functools.cache(prepared.as_read)  # a piece too long to be short is asked whether it fits
    # Tags that leave the segments to go back by alignment cost the model no tokens: a sentence with three links (six
    # tokens of ~4 pieces each) is not cut for its length into pieces that each lose the others' words
    elements = {}
    if take_out_tags and prepared.protected:
        elements = bracketed_elements(prepared.protected) | (
            emphasis_elements(masked, prepared.protected) | link_elements(prepared.protected) if emphasis else {}) | (
            latex_elements(prepared.protected) if latex_tags else {})
    tags = markup.tag_items(prepared.protected, elements) if take_out_tags else {}
    prepared._leaving = frozenset(tags)
    read_without_tags = (functools.cache(lambda piece: prepared.as_read(piece, prepared._leaving))
                         if prepared._leaving else as_read)

    def short_enough(piece: str) -> bool:
        """Whether a piece is short without the tags that may leave it and fits the model with those that stay were
        it a segment of its own (no more than stay in its text): a hundred "<b>" around a word (more than leave a
        sentence, markup.MAX_ELEMENTS) were one segment of 1,091 tokens, more than the model reads."""
        if not short(read_without_tags(piece)):
            return False
        if not prepared._leaving or fits(as_read(piece)):
            return True
        return fits(prepared.as_read(piece, markup.taken_out([prepared.read(piece)], tags)))
    json = preserve_placeholders and any(JSON_KEY_NAME.search(item) for item in prepared.protected)  # keys are items
    spoken_marks = speech_marks(as_in_text, prepared.protected, speech) if speech else {}
    layout = _Layout(masked, prepared.protected, as_in_text, joined_breaks)
    end = 0  # of the block before, in `masked`
    for block in _blocks(layout, html, items_over(as_in_text, prepared.protected, syntax)):
        separator = not isinstance(block, str)
        block_text = block.text if separator else block
        start, end = end, end + len(block_text)
        if separator or not html and table_term(masked, start, end, prepared.protected):  # glue, or a table's term
            prepared.glue[-1] += block_text
            continue
        parts = json_values(block, prepared.protected) if json else [block]
        # cut around parentheses before cutting a long sentence into lines: across a line break, each line held
        # one of the marks, which the model dropped
        for portion in (inner for part in parts for whole in closing_tokens_kept(sentences(part, prepared.protected))
                        for inner in parentheticals(whole)):
            for clause in (spoken for whole in clauses(portion, separators)
                           for spoken in quotations(whole, spoken_marks)):
                for piece in split_to_fit(clause, lambda candidate: fits(as_read(candidate)),
                                          short_enough if short else None):
                    prepared.add(piece)
    if spoken_marks:
        prepared.speech_starts, prepared.speech_tags = speech_segments(prepared, spoken_marks)
    if take_out_tags and prepared.protected:
        prepared.segments, prepared.moved = markup.take_out_tags(prepared.segments, prepared.protected, elements)
    prepared._numbered_per_segment()
    if not html:
        prepared.wraps = [wraps_of(segment) for segment in prepared.segments]
        prepared.segments = [_blanked(segment) for segment in prepared.segments]
    else:
        prepared.wraps = [[] for _ in prepared.segments]
    in_code = items_over(as_in_text, prepared.protected, code) if code else set()  # a Markdown text's indented code's
    if html:  # and a page's code elements ("<code>control-d</code>" came back as "<code>Strg-d</code>")
        in_code |= {number for number, item in enumerate(prepared.protected)
                    if item.startswith("<") and untranslatable_elements(item) == [(0, len(item))]}
    quotation_marks_written = german_quotation_marks(
        ["" if number in in_code else item for number, item in enumerate(prepared.protected)]
    ) if preserve_placeholders else {}
    title_contexts = _title_contexts(masked, prepared.protected) if preserve_placeholders else {}
    forms_of_items, labels_of_items = _forms_and_labels_by_item(as_in_text, prepared.protected, forms, labels, in_code)
    prepared.labelled = set(labels_of_items)
    decimals = preserve_placeholders and any(DECIMALS.fullmatch(item) and "." in item or number in forms_of_items
                                             and DECIMAL_NUMBER.search(item)
                                             for number, item in enumerate(prepared.protected))
    quantities = items_over(as_in_text, prepared.protected, decimal_quantities(text)) if decimals else set()  # (a scan
    # of the whole text, 5 µs of a prose sentence's 141: only where an item is a decimal number it could change)
    # every item's values and forms; otherwise only a glossary's terms are written
    for number in range(len(prepared.protected)) if preserve_placeholders or html else sorted(forms_of_items):
        item = prepared.protected[number]
        if number in in_code:
            continue  # kept as written
        values = shown_values(item) or [(start, end, "", False) for start, end in labels_of_items.get(number, [])]
        german = (german_key_names(item) + german_date_format(item) + quotation_marks_written.get(number, [])
                  + (german_speech_mark(item, spoken_marks[number]) if number in spoken_marks else [])
                  + german_title(item, title_contexts.get(number, ""))
                  + german_possessive(item) + german_number(item, number in quantities)
                  + _forms_and_their_numbers(item, forms_of_items.get(number, []), number in quantities)
                  if preserve_placeholders else forms_of_items.get(number, []))
        shown = [ShownValue(number, start, end, "", Prepared([], [name])) for start, end, name in german
                 if not any(start < value_end and value_start < end for value_start, value_end, _, _ in values)]
        for start, end, quote, language in values:
            if language:  # the language an element's text is in: now the translation's (in HTML, where it is markup)
                if html:
                    shown.append(ShownValue(number, start, end, quote, Prepared([], [TARGET_LANGUAGE])))
                continue
            value = prepare(item[start:end], preserve_placeholders, html, fits, unknown, short=short,
                            glossary=glossary)
            if value.segments:
                shown.append(ShownValue(number, start, end, quote, value))
        for value in sorted(shown, key=lambda value: value.start):  # in order: each is put in its item from the end
            prepared.add_shown(value)
    prepared._relabelled = prepared._with_known_values()
    return prepared


# Attribute values a page shows its reader: an image's alternative text, a tooltip, a field's hint, an option's label,
# a name read aloud, a button's caption (a submit, button or reset input's value), and what search engines and link
# previews show of the page (a description, keywords, Open Graph's and Twitter's title and description: `META_SHOWN`).
# Inside their tag's item they stayed English: '<img src="cat.png" alt="A cat sleeping on the sofa">', '<input
# placeholder="Enter your name">', '<meta name="description" content="Learn how to install ...">'. Each is prepared as a
# text of its own; its translation goes into the tag, its quotation mark spelled as a reference.
SHOWN_ATTRIBUTE = re.compile(r"(?<=\s)(?:alt|title|placeholder|label|aria-(?:label|description|placeholder|"
                             r"roledescription|valuetext)|(value)|(content))\s*=\s*(?:\"([^\"<]*)\"|'([^'<]*)')",
                             re.IGNORECASE)
META_SHOWN = re.compile(r"(?<=\s)(?:name|property|itemprop)\s*=\s*[\"']?(?:description|keywords"
                        r"|(?:og|twitter):(?:title|description|image:alt))[\"'\s/>]", re.IGNORECASE)
# A translated page's root, and any element said to be in English, still said so: '<html lang="en">' (screen readers
# pronounce the text by it, search engines index it by it). In HTML its value becomes the translation's language.
ENGLISH_LANG = re.compile(r"(?<=\s)(?:xml:)?lang\s*=\s*[\"']?(en(?:[-_][A-Za-z0-9]{1,8})*)(?=[\"'\s/>]|$)",
                          re.IGNORECASE)
ASCIIDOC_LINK_FULL = re.compile(ASCIIDOC_LINK)
TEMPLATE_CODE = re.compile(r"\{[{%#]")  # a template's expression or tag ("{{ _('Save') }}", "{% trans %}"): code
# What is left of it without its items: spaces and marks, one at a time (as runs of marks, "{1,3}" under "*", a line of
# 28 dashes in a <pre> with attributes, as Valgrind's manual has, took 2.6 s to find not to be such, 80 would not end)
MARKUP_BESIDE_ITEMS = re.compile(rf"(?:\s|{JOINING_MARK})*")
BUTTON_TYPE = re.compile(r"(?<=\s)type\s*=\s*[\"']?(?:submit|button|reset)\b", re.IGNORECASE)


@dataclass
class ShownValue:
    item: int  # the protected item that holds the value
    start: int  # where the value is in the item
    end: int
    quote: str  # the quotation mark around it
    value: Prepared  # the value, prepared as a text


def shown_values(item: str) -> list[tuple[int, int, str, bool]]:
    """(start, end, quotation mark, whether it names a language) in a protected item of each attribute value with
    letters that its start tags show a reader (SHOWN_ATTRIBUTE) and of each that says their text is English
    (ENGLISH_LANG), where the item is markup beside placeholders and numbers ("0 <img alt=...>": no code, whose words
    are in it too) and neither the tag nor an element around it is not to be translated (`untranslatable_elements`);
    not in a comment or CDATA section, nor a value with a template's code in it; a Markdown link's title; and a
    reStructuredText cross reference's text (RST_ROLE_TEXT)."""
    if ASCIIDOC_LINK_FULL.fullmatch(item):  # a link's text, a cross reference's ("<<install>>" has none)
        if not (text := ASCIIDOC_LINK_TEXT.fullmatch(item)):
            return []
        group = 1 if text.group(1) is not None else 2
        words = text.group(group)
        return [(*text.span(group), "]" if group == 1 else "", False)] if LETTER.search(words) and "=" not in words \
            else []
    if (role := RST_ROLE_TEXT.fullmatch(item)) and LETTER.search(role.group(1)):
        return [(*role.span(1), "`", False)]
    if MARKDOWN_LINK_TAG.fullmatch(item) and (title := LINK_TITLE.search(item)):
        group = 1 if title.group(1) is not None else 2
        return [(*title.span(group), '"' if group == 1 else "'", False)] if LETTER.search(title.group(group)) else []
    if "=" not in item or "<" not in item or not MARKUP_BESIDE_ITEMS.fullmatch(
            EVERYTHING_AND_NUMBERS.sub("", TAG.sub("", item))):
        return []
    kept = untranslatable_elements(item) + [comment.span() for comment in markup.COMMENT.finditer(item)]
    found = []
    for tag in TAG_PARTS.finditer(item):
        if tag.group(1) or TRANSLATE_NO.search(tag.group(3)) or any(a <= tag.start() < b for a, b in kept):
            continue
        for value in SHOWN_ATTRIBUTE.finditer(item, tag.start(3), tag.end(3)):
            group = 3 if value.group(3) is not None else 4
            if (_shown(value, tag.group(2).lower(), tag.group(3)) and LETTER.search(value.group(group))
                    and not TEMPLATE_CODE.search(value.group(group))):
                found.append((*value.span(group), '"' if group == 3 else "'", False))
        found += [(*language.span(1), '"', True)
                  for language in ENGLISH_LANG.finditer(item, tag.start(3), tag.end(3))]
    return sorted(found)


def _shown(value: re.Match, name: str, attributes: str) -> bool:
    """Whether a SHOWN_ATTRIBUTE match in a start tag of this name and attributes is shown to a reader: a value only
    on a button's input, a content only on a META_SHOWN meta tag (not "refresh", "viewport", a charset)."""
    if value.group(1):
        return name == "input" and BUTTON_TYPE.search(attributes) is not None
    if value.group(2):
        return name == "meta" and META_SHOWN.search(attributes) is not None
    return True


# German's letters for a date's fields: "TT.MM.JJJJ" (Tag, Jahr). Of the 104 training and held-out texts with a
# format (DATE_FORMAT), the references write German's letters in most, as the source's case has them ("dd/mm/yyyy":
# "tt/mm/jjjj") or in capitals; a time's they keep ("HH:MM", "hh:mm:ss"), and so does a format in both cases
# ("yyyy-MM-dd", a program's pattern, where the case is the meaning).
GERMAN_DATE_LETTERS = str.maketrans("YyDd", "JjTt")


def german_key_names(item: str) -> list[tuple[int, int, str]]:
    """(start, end, German name) of each key in the key combinations of an item of them (with placeholders and marks
    between: "Ctrl+C/Ctrl+V", "%s Ctrl+O"; not in code, "`Ctrl+C`") that German keyboards and catalogs name
    otherwise: "Ctrl" and "Control" are "Strg" ("STRG" in capitals), "Caps Lock" "Feststelltaste". Of the software
    catalogs' 303 training messages with a "Ctrl+" combination, 175 write "Strg"; "Shift", "Enter" and the rest they
    mostly keep ("Shift" in 63 of 101 with "Shift+"), and so does the item. A key's element ("<kbd>Enter</kbd>",
    each of "<keyseq><key>Ctrl</key><key>H</key></keyseq>") has its German name (GERMAN_KEYS), as manuals write it."""
    if "</" in item and (keys := _parts_of_items(item, KEY_ELEMENT_NAMED)):
        keys = [KEY_ELEMENT_NAMED.match(item, key.start()) for key in keys]
        return [(*key.span(2), _as_cased(GERMAN_KEYS[key[2].lower()], key[2])) for key in keys
                if key[2].lower() in GERMAN_KEYS]
    if not COMBINATION_KEY.search(item):
        return []
    keys = [key for combination in _parts_of_items(item, KEY_COMBINATION_ITEM)
            for key in COMBINATION_KEY.finditer(item, *combination.span())]
    return [(*key.span(), _as_cased(GERMAN_COMBINATION_KEYS[key.group().lower().replace(" ", "")], key.group()))
            for key in keys]


def _as_cased(german: str, english: str) -> str:
    """German in capitals where the English is ("CTRL": "STRG")."""
    return german.upper() if english.isupper() and len(english) > 1 else german


def german_date_format(item: str) -> list[tuple[int, int, str]]:
    """(start, end, German) of the date's fields of each date's format in an item of them, in one case ("DD/MM/YYYY":
    "TT/MM/JJJJ", "'yyyy-mm-dd hh:mm'": "'jjjj-mm-tt hh:mm'"); none of a time's format alone or one in both cases."""
    if not DATE_FORMAT_ITEM.search(item):
        return []
    dates = (DATE_FIELDS.match(item, part.start()) for part in _parts_of_items(item, DATE_FORMAT_ITEM))
    return [(*date.span(), date.group().translate(GERMAN_DATE_LETTERS)) for date in dates
            if date and (date.group().isupper() or date.group().islower())]


def _parts_of_items(item: str, kind: re.Pattern) -> list[re.Match]:
    """The items of a kind in an item of items and marks between them ("Ctrl+C/Ctrl+V"), quoted or not ("'YYYY-MM-DD
    HH:MM'"); none in an item of another kind, which holds one as code does ("`Ctrl+C`")."""
    if not MARKUP_BESIDE_ITEMS.fullmatch(EVERYTHING_AND_NUMBERS.sub("", item).strip(QUOTES)):
        return []
    return [part for part in EVERYTHING_AND_NUMBERS.finditer(item) if kind.fullmatch(part.group())]


# German groups a number's thousands with "." and writes its decimals after ",": in the dictionary and the held-out
# catalog messages, of 73 numbers grouped with "," ("8,000 points") the German writes 60 so ("8.000 Punkte"), 2 as
# the English does. A number is an item (NUMBER), so it came back as written. A decimal number without a group is a
# version as often as a quantity (68 of 91 such numbers are kept as written: "OAuth 2.0", "mtPaint 3.40"): only one
# before a unit or after a currency is a quantity ("7.5 km", "1.5%", "$19.99": of the dictionary's 12 such, the German
# writes 10 with a decimal comma, "7,5 km", and 2 otherwise, "eineinviertel Millionen"; the held-out splits have none),
# and so is a rating ("Rated 4.5 out of 5" came back as "4.5 von 5", "3.7 stars" as "3.7 Sterne"; the corpus has none).
GROUPED_NUMBER = re.compile(r"[1-9]\d{0,2}(?:,\d{3})+(?:\.\d+)?")  # not "[001,366]", a range
DECIMAL_NUMBER = re.compile(r"\d+\.\d+")
UNITS = (r"%(?![\w(])|°|(?:percent|km|m|cm|mm|kg|g|mg|l|ml|litres?|liters?|[KMGTP]i?B|kB|[kMG]?Hz|kW|billion|"
         "million|thousand|bn|miles?|metres?|meters?|kilometres?|kilometers?|kilos?|kilograms?|grams?|tons?|tonnes?|"
         "points?|euros?|dollars?|pounds?|cents?|hours?|h|minutes?|min|seconds?|s|ms|days?|weeks?|months?|years?|"
         r"inch(?:es)?|feet|ft|degrees?|times|x|stars?|out of \d+)\b")
# The first of two numbers before their unit is a quantity too ("1.5 and 2.5 times" came back as "1.5 und 2,5 Mal",
# "1.26–1.54x" as "1.26–1,54x")
BEFORE_A_SECOND_NUMBER = r"(?:[ \xa0]?[-–][ \xa0]?|[ \xa0](?:to|and|or)[ \xa0])\d+(?:\.\d+)?"
UNIT_AFTER = re.compile(rf"[ \xa0]?(?:{UNITS})")
DECIMALS = re.compile(r"\d+(?:\.\d+)?(?:[-–]\d+(?:\.\d+)?)?")  # "2.5", a range "1.5-2.5" (`german_number`)
# and the last factor of dimensions ("600.0 x 450.0 x 18.0 mm" came back as "600,0 x 450,0 x 18.0")
DECIMAL_QUANTITY = re.compile(rf"(?<![\w.,%])({DECIMAL_NUMBER.pattern})"
                              rf"(?=(?:{BEFORE_A_SECOND_NUMBER})?{UNIT_AFTER.pattern})"
                              rf"|(?:[$€£]|\b(?:EUR|USD|GBP|CHF) ?)({DECIMAL_NUMBER.pattern})(?![\d.])"
                              rf"|(?<=\d[ \xa0]x[ \xa0])({DECIMAL_NUMBER.pattern})(?!\d|\.\d)")
GERMAN_SEPARATORS = str.maketrans(",.", ".,")


def german_number(item: str, quantity: bool = False) -> list[tuple[int, int, str]]:
    """(start, end, German number) of an item that is a number grouped in thousands ("1,234.5" as "1.234,5") or, where
    it is a quantity (`decimal_quantities`), a decimal one or a range of them ("2.5" as "2,5", "1.5-2.5" as
    "1,5-2,5")."""
    if GROUPED_NUMBER.fullmatch(item) or quantity and DECIMALS.fullmatch(item):
        return [(0, len(item), item.translate(GERMAN_SEPARATORS))]
    return []


def in_german(number: str, quantity: bool = False) -> str:
    """A number as German writes it (`german_number`), else as written."""
    return german[0][2] if (german := german_number(number, quantity)) else number


def _forms_and_their_numbers(item: str, forms: list[tuple[int, int, str]], quantity: bool
                             ) -> list[tuple[int, int, str]]:
    """An item's forms (`german_forms`) and the numbers beside them in German (`german_number`): "nearly 90,000" is
    "fast 90.000", "about 7.5" before a unit "etwa 7,5"."""
    if not forms:
        return []
    numbers, k = [], 0
    for number in re.finditer(NUMBER, item):  # the forms are in order, so each is passed once
        while k < len(forms) and forms[k][1] <= number.start():
            k += 1
        if k == len(forms) or number.end() <= forms[k][0]:  # none of a form's
            numbers += [(number.start() + start, number.start() + end, german)
                        for start, end, german in german_number(number.group(), quantity)]
    return sorted(forms + numbers)


def decimal_quantities(text: str) -> list[tuple[int, int]]:
    """(start, end) of each decimal number before a unit, after a currency or last of dimensions ("2.5 GB", "1.5%",
    "$19.99", "2.5 x 3.5")."""
    return [quantity.span(quantity.lastindex) for quantity in DECIMAL_QUANTITY.finditer(text)]  # (each one group)


def numbers_in_german(english: str) -> list[str]:
    """The numbers (NUMBER) of an English text as its translation writes them (`german_forms`, `german_number`):
    "at 5 p.m." has 17, "8,000" is 8.000."""
    for start, end, german in reversed(german_forms(english)):
        english = english[:start] + german + english[end:]
    quantities = set(decimal_quantities(english))
    return [in_german(number.group(), number.span() in quantities) for number in re.finditer(NUMBER, english)]


# Clock times, dates, days, amounts of money and greetings German writes its own way, each an item written as German
# writes it: the dictionary's references turn every time with "a.m."/"p.m." into a 24-hour "Uhr" (13 of 13: "by 5
# p.m.": "bis 17 Uhr", "at 6:00 p.m.": "um 18 Uhr"), every date in words into day, dot and month ("May 5th, 2000": "5.
# Mai 2000", 18 of 18) and put the currency after the amount ("$30": "30 $", 11 of 14; 2 write the word). As items of
# numbers and words the model wrote them in English order or broke them ("The meeting starts at 5 p.m. on Monday."
# came back as "Die Sitzung beginnt am 5 p.m.", "9:30 a.m." as "9:30.m.", "December 24, 2025" as "Dezember 24, 2025").
# A "$" before a single digit stays as it was: "$1" is as often a shell's or a pattern's argument as a price.
# A preposition before one goes into its item too, as German chooses its own by what follows ("at XX0X" came back as
# "am 17 Uhr", "on XX0X" as "auf 24. Dezember"); "to" only after a time or a date ("8 a.m. to 5 p.m."): "bis".
PREPOSITIONS = (r"(?P<preposition>[Aa]t|[Oo]n|[Bb]y|[Uu]ntil|[Tt]ill|[Bb]efore|[Aa]fter|[Ss]ince|[Ff]rom|[Bb]etween|to"
                r"|of)")
# "of" before a date after a letter's or a record's name: "your inquiry of March 3" came back as "Ihre Anfrage von 3.
# März", German's "vom 3. März"; not after a time's ("the evening of May 5": "am Abend des 5. Mai")
DATED_BY_OF = re.compile(r"\b(?:letter|e-?mail|message|inquiry|enquiry|request|order|invoice|application|offer|"
                         r"statement|decision|meeting|call|report|notice|contract|agreement|minutes|note|reply|"
                         r"answer|update|version|release|edition|law|act|decree|regulation)s? $", re.IGNORECASE)
PREPOSITION = rf"(?:{PREPOSITIONS}[ \xa0])?"
PREPOSITION_AND_ARTICLE = rf"(?:{PREPOSITIONS}[ \xa0](?:the[ \xa0])?)?"  # "on the 5th of May": German's "am" holds it
CLOCK_TIME = re.compile(
    rf"(?<![\w.,:/$€£]){PREPOSITION}(?P<hour>1[0-2]|0?[1-9])(?::(?P<minutes>[0-5]\d))?"
    r"(?:(?P<range>[-–]|[ \xa0](?:to|until|till|and)[ \xa0])"  # a range: "9-11 a.m.", "1 to 3 p.m."
    r"(?P<to_hour>1[0-2]|0?[1-9])(?::(?P<to_minutes>[0-5]\d))?)?"
    r"(?:[ \xa0]?(?:(?P<half>[AaPp])\.[Mm]\.|(?P<half_undotted>[AaPp])[Mm](?!\w))"
    rf"|(?P<oclock> o{APOSTROPHE}clock)(?!\w))"
    rf"(?:[ \xa0](?P<zone>{TIME_ZONE.pattern}))?")  # "5 p.m. CET": "17 Uhr CET"
# A time on the 24-hour clock after a preposition ("at 10:30", "from 9:00 to 17:00"): the model wrote "an 10:30", "auf
# 8:15"; the dictionary's references write "um 10:30 Uhr". Hours and minutes, not before seconds, "a.m."/"p.m."
# (CLOCK_TIME's) or a unit ("at 1:30 hours"); without a preposition a number as any other.
HOUR_OF_DAY = r"[01]?\d|2[0-4]"  # "24:00", a day's end
DIGITAL_TIME = re.compile(
    r"(?<![\w.,:/$€£])(?P<preposition>[Aa]t|[Bb]y|[Uu]ntil|[Tt]ill|[Bb]efore|[Aa]fter|[Ss]ince|[Ff]rom|[Bb]etween)"
    rf"[ \xa0](?P<hour>{HOUR_OF_DAY}):(?P<minutes>[0-5]\d)"
    rf"(?:(?P<range>[-–]|[ \xa0](?:to|until|till|and)[ \xa0])(?P<to_hour>{HOUR_OF_DAY}):(?P<to_minutes>[0-5]\d))?"
    r"(?![\w:]|[.,]\d|[ \xa0]?(?:[AaPp]\.?[Mm](?!\w)|o['’]clock|[Hh](?:ours?|rs?)?(?!\w)|min|sec|Uhr))")
MONTHS = {"January": "Januar", "February": "Februar", "March": "März", "April": "April", "May": "Mai",
          "June": "Juni", "July": "Juli", "August": "August", "September": "September", "October": "Oktober",
          "November": "November", "December": "Dezember"}
MONTH_NAMES = tuple(MONTHS)  # in full: "by Jan" names a person
MONTHS |= {english[:3]: german for english, german in MONTHS.items()} | {"Sept": "September"}  # "Dec. 31"
MONTH = (rf"(?P<month>{'|'.join(sorted(MONTHS, key=len, reverse=True))})"
         r"(?:(?<=\b(?!May)[A-Z][a-z]{2})\.|(?<=Sept)\.)?")  # an abbreviation's dot, "Dec."
# A day of a month in words too ("on the fourth of July": "am 4. Juli", which came back as "am Viertel Juli"; "on the
# twenty-first of March" as "am zwanzigsten March"): of 12 sentences written for the check 6 came back with the date
# as German writes it, now 12
FIRST_ORDINALS = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"]
DAY_ORDINALS = {word: day for day, word in enumerate(
    FIRST_ORDINALS + ["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                      "seventeenth", "eighteenth", "nineteenth", "twentieth"]
    + [f"twenty-{word}" for word in FIRST_ORDINALS] + ["thirtieth", "thirty-first"], 1)}
DAY = (rf"(?:(?P<day>[12]\d|3[01]|0?[1-9])(?:st|nd|rd|th)?"
       rf"|(?P<day_word>{'|'.join(sorted(DAY_ORDINALS, key=len, reverse=True))}))")
YEAR = r"(?:,?[ \xa0](?P<year>\d{4}))?(?![\w,.]?\d)"
# Days abbreviated, which the model kept or read as a word ("Due: Fri, Jan 3" came back as "Fälligkeit: Frei, 3.
# Januar", "Open Mon-Fri" as "Mon-Fri öffnen"): German's "Fr., 3. Januar", "Mo.–Fr.". Only before a date (DATES) or
# in a range (WEEKDAY_RANGE): alone, "Sun", "Sat" and "Mon" name a company, a satellite, a people.
WEEKDAY_ABBREVIATIONS = {"Mon": "Mo.", "Tue": "Di.", "Tues": "Di.", "Wed": "Mi.", "Thu": "Do.", "Thur": "Do.",
                         "Thurs": "Do.", "Fri": "Fr.", "Sat": "Sa.", "Sun": "So."}
ABBREVIATED_DAY = rf"(?:{'|'.join(sorted(WEEKDAY_ABBREVIATIONS, key=len, reverse=True))})"
# A day's or a month's abbreviation that is the whole text, a calendar's label: the model wrote "Tue" as
# "Zurückstellen", "Aug" as "Auge", "Sep" as "Abgleich" (Roundcube's labels); German's as the catalogs installed here
# write them (glib's, Roundcube's: "Di", "Dez", "Okt"). Not "Mon", "Sat", "Sun", "Jan", "Jun", "May" alone: a people
# and a region ("Mon" in the ISO catalogs), a name, a verb.
LABEL_ABBREVIATIONS = {"Tue": "Di", "Wed": "Mi", "Thu": "Do", "Fri": "Fr", "Feb": "Feb", "Mar": "Mär", "Apr": "Apr",
                       "Jul": "Jul", "Aug": "Aug", "Sep": "Sep", "Oct": "Okt", "Nov": "Nov", "Dec": "Dez"}
LONE_ABBREVIATION = re.compile(rf"[ \t]*(?P<abbreviation>{'|'.join(LABEL_ABBREVIATIONS)})\.?[ \t]*")
DAY_BEFORE_A_DATE = rf"(?:(?P<day_name>{ABBREVIATED_DAY})\.?,[ \xa0])?"  # "Tue, Dec 8", "Sat., 12 April"
DATES = (re.compile(rf"(?<![\w.,$€£]){PREPOSITION}{DAY_BEFORE_A_DATE}{MONTH}[ \xa0]{DAY}{YEAR}(?!\w)"),  # "December 24"
         # "24 December 2025", "on the 28th of August"
         re.compile(rf"(?<![\w.,:/$€£]){PREPOSITION_AND_ARTICLE}{DAY_BEFORE_A_DATE}{DAY}[ \xa0](?:of[ \xa0])?{MONTH}"
                    rf"(?!\w){YEAR}(?!\w|(?: \d{{4}})? {ZONED_TIME})"))  # not an e-mail's date and time: an item
# "12/24/2025" and "24/12/2025" as "24.12.2025"; not "03/04/2025", which is March or April as the writer's country
# has it.
SLASH_DATE = re.compile(rf"(?<![\w.,:/$€£-]){PREPOSITION}(?P<first>[12]\d|3[01]|0?[1-9])"
                        r"/(?P<second>[12]\d|3[01]|0?[1-9])/(?P<slash_year>\d{4})(?![\w/]|[.,-]\d)")
# A date as ISO 8601 writes it after a preposition ("Released on 2024-05-01.", "created before 2004-08-13"): the model
# wrote "auf 2024-05-01"; the references write German's "am 01.05.2024", "vor dem 13.08.2004" (3 of 3). Without a
# preposition it is a value as often (a field's, a file name's) and stays as written.
ISO_DATE = re.compile(rf"(?<![\w.,:/$€£-]){PREPOSITIONS}[ \xa0](?P<iso_year>\d{{4}})-(?P<iso_month>0[1-9]|1[0-2])"
                      r"-(?P<iso_day>0[1-9]|[12]\d|3[01])(?![\w/-]|[.:]\d)")
# A day of the week after a preposition ("on Friday": "am Freitag", "on Fridays": "freitags"; the model wrote "auf
# Freitag", "im Freitag" or dropped it, "Sonnntag"); not before a time of day, which German joins to it ("on Monday
# afternoon": "am Montagnachmittag").
WEEKDAYS = {"Monday": "Montag", "Tuesday": "Dienstag", "Wednesday": "Mittwoch", "Thursday": "Donnerstag",
            "Friday": "Freitag", "Saturday": "Samstag", "Sunday": "Sonntag"}
WEEKDAY = re.compile(rf"(?<![\w.]){PREPOSITIONS}[ \xa0](?P<weekday>{'|'.join(WEEKDAYS)})(?P<plural>s)?"
                     r"(?![\w'’-])(?![ \xa0](?:morning|afternoon|evening|night)s?\b)")
# Days from one to another without a preposition ("Open Tuesday to Sunday", "Monday through Saturday",
# "Monday-Friday"): the model wrote "heute heute", "Montag über Sättung", "Montag-Friday"; German: "Dienstag bis
# Sonntag".
# An abbreviation's dot is kept with it: every day's name in full ends in "y".
RANGED_DAY = rf"(?:{'|'.join(WEEKDAYS)}|{ABBREVIATED_DAY})(?:(?<!y)\.)?"
WEEKDAY_RANGE = re.compile(rf"(?<![\w.-])(?P<weekday>{RANGED_DAY})"
                           r"(?P<range>[ \xa0](?:to|through|thru|till|until)[ \xa0]|[ \xa0]?[-–][ \xa0]?)"
                           rf"(?P<to_weekday>{RANGED_DAY})(?![\w'’-])")
# A day after a time ("at 3 p.m. tomorrow", "until 6:00 tonight"): the model dropped it ("The meeting is at 3 p.m.
# tomorrow." came back as "Die Sitzung ist um 15 Uhr.") or broke it ("zu heute"); German writes it first, as the
# references do ("heute bis 18 Uhr", "morgen um 03:00 Uhr"): one item with the time.
RELATIVE_DAYS = {"today": "heute", "tonight": "heute", "tomorrow": "morgen", "yesterday": "gestern"}
RELATIVE_DAY = re.compile(rf"[ \xa0](?P<day>{'|'.join(RELATIVE_DAYS)})(?![\w'’-])"
                          r"(?![ \xa0](?:morning|afternoon|evening|night)\b)")  # "morgen früh": the model's
# Noon and midnight after a preposition: the model wrote "at noon" as "auf Noon" and dropped "at midnight"; the
# dictionary's references write "mittags", "um Mitternacht", "bis Mittag".
NOON_WORDS = {"noon": "Mittag", "midday": "Mittag", "midnight": "Mitternacht"}
# A FAQ's and a review's line labels ("Q: How do I ...?", "Pros:\n- Fast"): the model kept "Q" and wrote "Cons:" as
# "Konsum:"; German's "F:" (Frage), "Vorteile:", "Nachteile:". Only at a line's start before a sentence or a line.
LINE_LABELS = {"Q": "F", "Pros": "Vorteile", "Cons": "Nachteile"}
LINE_LABEL = re.compile(r"(?<![^\n])(?P<label>Q|Pros|Cons)(?=:(?:[ \t]+[A-Z\"'“„]|[ \t]*\n))")
NOON_OR_MIDNIGHT = re.compile(rf"(?<![\w.]){PREPOSITIONS}[ \xa0](?P<noon>{'|'.join(NOON_WORDS)})(?![\w'’-])")
# A time of day in words ("at half past eight": "um halb neun", "at a quarter to eight": "um Viertel vor acht", "at
# ten o'clock sharp": "um Punkt zehn Uhr", "about six o'clock": "gegen sechs Uhr"), German's half hour that of the
# next ("half past ten": "halb elf"). Read, the model lost the hour or garbled the rest ("The train to Berlin leaves
# at half past eight." came back as "Der Zug nach Berlin schlägt nach acht vorbei.", "at a quarter past four" as "nach
# vier lange vorbei", "a quarter to 10" as "Viertel nach 10", "It is half past ten." as "Es ist halb zehn.", an hour
# early): of 16 sentences written for the check 3 came back with the time German says, now 16; the dictionary's 17
# pairs with one (training and held-out, mostly learnt by heart) chrF 69.06 -> 64.09 (14 change, 6 closer, 8 further,
# by the wording the model had learnt: "wait until three o'clock" "bis drei Uhr warten", now "warte bis drei Uhr");
# the held-out dictionary test sentence with one ("by five o'clock": "durch fünf Uhr", now "bis fünf Uhr") closer,
# the other held-out texts unchanged. Minutes "to" an hour only after a preposition or "is" ("from one to three" is a
# range), an hour "o'clock" not before a noun it describes ("a five o'clock shadow").
SPOKEN_HOURS = {"one": "eins", "two": "zwei", "three": "drei", "four": "vier", "five": "fünf", "six": "sechs",
                "seven": "sieben", "eight": "acht", "nine": "neun", "ten": "zehn", "eleven": "elf", "twelve": "zwölf"}
SPOKEN_MINUTES = {"five": "fünf", "ten": "zehn", "twenty": "zwanzig", "twenty-five": "fünfundzwanzig"}
HOUR_NUMBERS = {word: number for number, word in enumerate(SPOKEN_HOURS, 1)}
GERMAN_HOURS = list(SPOKEN_HOURS.values())
SIDES = {"past": "nach", "to": "vor"}  # minutes past or to an hour
SPOKEN_HOUR_WORD = rf"(?i:{'|'.join(SPOKEN_HOURS)})"
SPOKEN_HOUR = rf"(?:{SPOKEN_HOUR_WORD}|1[0-2]|[1-9])"
SPOKEN_TIME = re.compile(
    rf"(?<![\w.,:/-]){PREPOSITION}(?:(?P<oclock_hour>{SPOKEN_HOUR_WORD})[ \xa0]o{APOSTROPHE}clock"
    rf"|(?P<half>[Hh]alf)[ \xa0]past[ \xa0](?P<half_hour>{SPOKEN_HOUR})"
    rf"|(?P<quarter>(?:[Aa][ \xa0])?[Qq]uarter)[ \xa0](?P<quarter_side>past|to)[ \xa0](?P<quarter_hour>{SPOKEN_HOUR})"
    rf"|(?P<minutes>(?i:{'|'.join(sorted(SPOKEN_MINUTES, key=len)[::-1])}))[ \xa0](?P<minutes_side>past|to)"
    rf"[ \xa0](?P<minutes_hour>{SPOKEN_HOUR})|(?P<bare_hour>{SPOKEN_HOUR})(?=[ \xa0](?:in[ \xa0]the|at[ \xa0]night)\b)"
    rf"|(?<=\bat[ \xa0])(?P<lone_hour>{SPOKEN_HOUR_WORD})(?=[ \xa0](?:tonight|today|tomorrow|this|sharp)\b"
    r"|[ \xa0]*(?:[.!?;]|,[ \xa0])|[ \xa0]*$))"
    rf"(?P<sharp>[ \xa0]sharp)?(?![\w'’-]|{APOSTROPHE}|[.,:]\d)")
# An hour alone after "at" where what comes before says a time ("The shop opens at nine.": "um neun Uhr", "Dinner is at
# six.", "Call me at four tomorrow."), or what comes after ("at seven tonight"): read, the model wrote "auf" or lost it
# ("The shop opens at nine." came back as "Das Geschäft öffnet auf neun.", "I usually go to bed at eleven." as "Ich
# lasse mich auch auf Elfen."): of 16 sentences written for the check 2 came back with the time as German says it, now
# 16. Not an age ("He learned to read at five.", "She started school at six.", "At eleven, he moved.")
LONE_HOUR_BEFORE = re.compile(r"\b(?:opens?|closes?|starts?|begins?|leaves?|arrives?|departs?|ends?|finish(?:es)?"
                              r"|meets?|calls?|rings?|is|are|be|will be|get up|gets up|go to bed|goes to bed|wake up"
                              r"|wakes up|home|back|dinner|lunch|breakfast|(?:call|meet|see|pick up|wake|ring)"
                              r"[ \xa0](?:me|you|him|her|us|them)|(?:tonight|today|tomorrow))[ \xa0]at[ \xa0]$")
AT_AN_HOUR = re.compile(rf"\bat[ \xa0]{SPOKEN_HOUR_WORD}\b")
TIME_AFTER_AN_HOUR = re.compile(r"[ \xa0](?:tonight|today|tomorrow|this)\b")
# The part of the day after a time ("at seven in the morning": "um sieben Uhr morgens", "at 10:30 at night": "um 10:30
# Uhr nachts"), German's adverb after it, one item with the time; a bare hour is a time before one. Read, the model
# lost the hour or garbled the part ("We get up at seven in the morning." came back as "Wir kommen am Morgen auf den
# gesehenen Morgen.", "The shop closes at 10 in the evening." as "... auf 10 am Abend."): of 20 sentences written for
# the check none came back with the time as German says it, now 20; no held-out text changes
TIME_DAY_PARTS = {"morning": "morgens", "afternoon": "nachmittags", "evening": "abends", "night": "nachts"}
TIME_DAY_PART = re.compile(r"[ \xa0](?:in[ \xa0]the[ \xa0](?P<part>morning|afternoon|evening)"
                           r"|at[ \xa0](?P<night>night))(?![\w'’-])")
# "It's ten to nine": a time, where "one to three" is a range
IS_BEFORE = re.compile(rf"(?:\bis|{APOSTROPHE}s)[ \xa0]$")
NOUN_AFTER_A_TIME = re.compile(r"[ \xa0][a-z]")  # "the five o'clock shadow", "the nine o'clock news": no time
# A template's placeholder named for a date or a time after a preposition ("arrives on {date}", "starts at
# {start_time}", "until %(expiry_date)s"): the model chose the preposition as for any word ("auf {date}", "am {time}",
# "an %(time)s", "bis {expiry_date}") or dropped it ("Please pay by {due_date}." came back as "Bitte zahlen Sie
# {due_date}."); German's "am {date}", "um {time}", "bis zum {expiry_date}", as for a date or a time written out. Only a
# name that says so (its last word "date", "day" or "time", snake_case or camelCase); "%s" may be anything. And PHP's
# and a shell's "$date" (Roundcube's "On $date" came back as "Auf $date").
PLACEHOLDER_NAMED = (r"\{\{ ?[A-Za-z_]\w* ?\}\}|\{[A-Za-z_]\w*\}|%\([A-Za-z_]\w*\)[sd]|[%$]\{[A-Za-z_]\w*\}"
                     r"|\$[A-Za-z_]\w*")
PLACEHOLDERS_NAME = re.compile(r"[A-Za-z_]\w*")  # the first word in one of those is its name
DATE_NAME = re.compile(r"(?:\w*_)?(?:date|day|weekday|deadline)|[a-z]+(?:Date|Day|Deadline)")
TIME_NAME = re.compile(r"(?:\w*_)?time|[a-z]+Time")
NAMED_PLACEHOLDER = re.compile(rf"(?<![\w.]){PREPOSITIONS}[ \xa0](?P<placeholder>{PLACEHOLDER_NAMED})")
# Set phrases that open a sentence and a mark ends, each an item as German writes it (SET_PHRASES). A greeting, a
# thanks or an apology: the model left "Hello" English ("Hello, how are you?": "Hello, wie kennst du?"), made "Hi
# there!" "Da bisher!", "Oops!" "Hör!" and dropped "Sorry," before a sentence (with "Oops", "Whoops" and "Oh no", 49
# held-out and training texts changed, chrF 49.60 -> 54.77, BLEU 26.32 -> 31.01).
SET_PHRASES = {"Hello": "Hallo", "Hello there": "Hallo", "Hi": "Hallo", "Hi there": "Hallo", "Hey": "Hallo",
               "Hey there": "Hallo", "Good morning": "Guten Morgen", "Good afternoon": "Guten Tag",
               "Good evening": "Guten Abend", "Good night": "Gute Nacht", "Goodbye": "Auf Wiedersehen",
               "Bye": "Tschüss",
               "Thanks": "Danke", "Thank you": "Danke", "Many thanks": "Vielen Dank", "Thanks a lot": "Vielen Dank",
               "Thank you very much": "Vielen Dank", "Welcome": "Willkommen", "Welcome back": "Willkommen zurück",
               "Sorry": "Entschuldigung", "Congratulations": "Herzlichen Glückwunsch", "Oops": "Hoppla",
               "Whoops": "Hoppla", "Oh no": "Oh nein"}
# A chat's greetings and thanks in small letters too: "hello" came back as "Hölle", "hi" as "mieten", "bye" as
# "Vorzeichen", "goodbye" as "gut". Not other set phrases in small letters, a dictionary's headwords as often ("great":
# "groß").
SET_PHRASES |= {"hello": "Hallo", "hi": "Hallo", "hey": "Hallo", "thanks": "Danke", "thank you": "Danke",
                "bye": "Tschüss", "goodbye": "Auf Wiedersehen"}
# A letter's or an e-mail's salutation and closing, which the model broke ("Dear colleagues," came back as "Kleine
# Kollegen,", "Dear Sir or Madam," as "Dear Sir oder Madam,", "Hi everyone," as "Hinweise alle,", "Kind regards," as
# "Vorlieben,", "Sincerely," as "Seitrmal,"); a greeting before a name is SALUTED_NAME's.
SET_PHRASES |= {"Dear Sir or Madam": "Sehr geehrte Damen und Herren", "Dear Sirs": "Sehr geehrte Damen und Herren",
                "Dear all": "Hallo zusammen", "Hi all": "Hallo zusammen", "Hello all": "Hallo zusammen",
                "Hi everyone": "Hallo zusammen", "Hello everyone": "Hallo zusammen", "Hi everybody": "Hallo zusammen",
                "Dear colleagues": "Liebe Kolleginnen und Kollegen", "Dear team": "Liebes Team",
                "Hi team": "Hallo Team", "Hey team": "Hallo Team", "Hey everyone": "Hallo zusammen",
                "Hey all": "Hallo zusammen", "Hey guys": "Hallo zusammen", "Hello everybody": "Hallo zusammen",
                "Hello team": "Hallo Team", "Best regards": "Viele Grüße", "Kind regards": "Freundliche Grüße",
                "Warm regards": "Herzliche Grüße", "Regards": "Grüße", "Best wishes": "Alles Gute",
                "With best regards": "Mit freundlichen Grüßen", "With kind regards": "Mit freundlichen Grüßen",
                "Sincerely": "Mit freundlichen Grüßen", "Yours sincerely": "Mit freundlichen Grüßen",
                "Sincerely yours": "Mit freundlichen Grüßen", "Yours faithfully": "Mit freundlichen Grüßen",
                # not "Best" alone, a label's as often ("Am besten")
                "Dear Sir": "Sehr geehrter Herr", "Dear Madam": "Sehr geehrte Frau",
                "Dear Customer": "Liebe Kundin, lieber Kunde", "Dear customer": "Liebe Kundin, lieber Kunde",
                "Dear customers": "Liebe Kundinnen und Kunden", "Dear Customers": "Liebe Kundinnen und Kunden",
                "Dear friends": "Liebe Freunde", "Hi guys": "Hallo zusammen",
                "Good morning everyone": "Guten Morgen zusammen", "Good morning all": "Guten Morgen zusammen",
                "Thanks again": "Nochmals danke",
                "Thanks in advance": "Danke im Voraus", "Thank you in advance": "Vielen Dank im Voraus",
                "Have a nice day": "Einen schönen Tag noch", "Have a nice weekend": "Schönes Wochenende",
                "Have a great weekend": "Schönes Wochenende",
                "I look forward to hearing from you": "Ich freue mich darauf, von Ihnen zu hören",
                "Looking forward to hearing from you": "Ich freue mich darauf, von Ihnen zu hören",
                "I look forward to your reply": "Ich freue mich auf Ihre Antwort",
                "Looking forward to your reply": "Ich freue mich auf Ihre Antwort",
                "All the best": "Alles Gute"}  # "All the best,\nMaria" came back as "Alles am besten,"
# And the set phrases of leave-taking, wishes and courtesy, which the model broke even where it had learned them ("See
# you soon!" came back as "Sie haben bald!", "Get well soon!" as "Gute so gut!", "Enjoy your meal!" as "Lass deines
# Essen!", "You're welcome." as "Du willst ebenkommen."); German as the dictionary's references write them. Not "Take
# care", a warning as often ("Take care, the floor is wet"), nor "Excuse me", which the model wrote well ("Entschuldigen
# Sie, ...") and which a rule took from the sentence that goes on after it.
SET_PHRASES |= {"See you": "Bis dann", "See you soon": "Bis bald", "See you later": "Bis später",
                "See you tomorrow": "Bis morgen", "Happy birthday": "Alles Gute zum Geburtstag",
                "Merry Christmas": "Frohe Weihnachten", "Happy New Year": "Frohes neues Jahr",
                "Happy holidays": "Frohe Feiertage", "You're welcome": "Gern geschehen",
                "No problem": "Kein Problem", "Get well soon": "Gute Besserung", "Well done": "Gut gemacht",
                "Good job": "Gut gemacht", "Nice to meet you": "Freut mich", "Enjoy your meal": "Guten Appetit",
                "Good luck": "Viel Glück", "Have a good trip": "Gute Reise", "Have a nice trip": "Gute Reise"}
# And an app's exclamations of praise and assent, which the model broke ("Great!" came back as "Alles!", "Awesome!" as
# "Zufällig!", "Got it!" as "Hol es Gott!", "Almost there!" as "Ach auch!", "Never mind." as "Niemals verstanden.");
# not "Cheers", a toast, a thanks or a goodbye, nor "Done", whose "Fertig." the model writes.
SET_PHRASES |= {"Great": "Super", "Awesome": "Super", "Excellent": "Hervorragend", "Perfect": "Perfekt",
                "Got it": "Verstanden", "All set": "Alles bereit", "Almost there": "Fast geschafft",
                "Never mind": "Schon gut", "Welcome aboard": "Willkommen an Bord", "Yay": "Juhu",
                "Be right back": "Bin gleich zurück"}
# And an e-mail's set sentences, which the model broke ("I hope you are doing well." came back as "Ich hoffe, du bist
# gut.", "Let me know if you have any questions." as "Ich weiß, wenn du irgendein Fragen haben.", "Feel free to contact
# me." as "Freier Speicherplatz, mich zu kontaktieren."), addressed formally as the closings above are.
SET_PHRASES |= {"I hope this email finds you well": "Ich hoffe, es geht Ihnen gut",
                "I hope you are well": "Ich hoffe, es geht Ihnen gut",
                "I hope you're well": "Ich hoffe, es geht Ihnen gut",
                "I hope you are doing well": "Ich hoffe, es geht Ihnen gut",
                "I hope you're doing well": "Ich hoffe, es geht Ihnen gut",
                # "Hope you are well." came back as "Hoffen Sie gut.", "I hope this helps." as "Ich hoffe, diese Hilfe."
                "Hope you are well": "Ich hoffe, es geht Ihnen gut", "Hope you're well": "Ich hoffe, es geht Ihnen gut",
                "I hope this helps": "Ich hoffe, das hilft", "Hope this helps": "Ich hoffe, das hilft",
                "Please let me know if you have any questions": "Bitte melden Sie sich bei Fragen",
                "Let me know if you have any questions": "Melden Sie sich bei Fragen",
                "If you have any questions, please let me know": "Bei Fragen melden Sie sich bitte",
                "If you have any questions, please contact us": "Bei Fragen wenden Sie sich bitte an uns",
                "Please do not hesitate to contact me": "Bitte zögern Sie nicht, mich zu kontaktieren",
                "Please do not hesitate to contact us": "Bitte zögern Sie nicht, uns zu kontaktieren",
                "Feel free to contact me": "Sie können mich gerne kontaktieren",
                "Feel free to contact us": "Sie können uns gerne kontaktieren",
                "I look forward to working with you": "Ich freue mich auf die Zusammenarbeit",
                "Sorry for the late reply": "Entschuldigen Sie die späte Antwort",
                "Sorry for the inconvenience": "Entschuldigen Sie die Unannehmlichkeiten",
                "We apologize for the inconvenience": "Wir entschuldigen uns für die Unannehmlichkeiten",
                "Please see below": "Siehe unten"}
# And the adverbials that open a sentence before a comma which the model dropped or broke ("However, the update
# failed." came back as "Die Aktualisierung ist fehlgeschlagen.", "Of course, you can change it later." as "Ohne Katze
# kann man später ändern.", "By the way, ..." as "Nach dem Weg ..."). Of the 1,006,103 held-out and training texts,
# those opening with "However," (41) chrF 41.08 -> 44.37, "For example," (22) 54.96 -> 55.75, "Finally," (7) 33.06 ->
# 35.28, "Therefore," (5) 47.75 -> 49.59 (78 texts changed, chrF 42.28 -> 45.28, 53 closer, 25 further); not
# "Alternatively," (19, 54.21 -> 51.29) nor "First," (a step's adverb), which the model wrote in German's order.
# After each of ADVERBIALS German puts the finite verb before its subject (`Prepared._verb_second`). With that,
# "Unfortunately," (which had gone 40.87 -> 39.54 as an item in English's order), "Otherwise," and 17 more the model
# dropped or wrote word by word ("For instance," as "Für Instanz", "On the other hand," as "Auf der andere Hand", "In
# fact," as "In Umstand"; "Unfortunately, the file could not be saved." came back as "Die Datei konnte nicht
# gespeichert werden."): of 38 sentences written for the check 5 came back opening with the adverbial's German and the
# verb after it, now 34, of 20 written after it 4, now 18 (docs/text-pipeline.md). And "Most of the time," (IDIOM).
ADVERBIALS = {"By the way": "Übrigens", "However": "Allerdings", "Of course": "Natürlich",
              "For example": "Zum Beispiel", "In addition": "Außerdem", "Therefore": "Deshalb",
              "Finally": "Schließlich", "Meanwhile": "Inzwischen",
              "Unfortunately": "Leider", "Fortunately": "Glücklicherweise", "Otherwise": "Andernfalls",
              "For instance": "Zum Beispiel", "In particular": "Insbesondere", "On the other hand": "Andererseits",
              "At the same time": "Gleichzeitig", "In general": "Im Allgemeinen", "In fact": "Tatsächlich",
              "Furthermore": "Außerdem", "Moreover": "Außerdem", "Additionally": "Zusätzlich",
              "Nevertheless": "Trotzdem", "As a result": "Dadurch", "Instead": "Stattdessen", "So far": "Bisher",
              "At first": "Zunächst", "Currently": "Derzeit", "Usually": "Normalerweise",
              "Most of the time": "Meistens"}
SET_PHRASES |= {"As discussed": "Wie besprochen", "In other words": "Mit anderen Worten"} | ADVERBIALS
# The subject and the finite verb that open the German after such an adverbial's token and comma, in English's order
# ("XX0X, die Aktualisierung ist fehlgeschlagen", "XX0X, Sie können ..."; a line may break between them, in text
# wrapped as its source): a pronoun, a noun with its article and adjectives (not "Ihren"), a name (not English's "I",
# left untranslated) or a token, or two joined by "und", then a word in small letters that is no adverb,
# conjunction, preposition, article or relative pronoun (NOT_FINITE) nor a participle
SUBJECT_PRONOUN = (r"[Ss]ie|[Ee]s|[Ee]r|[Ww]ir|[Ii]ch|[Mm]an|[Dd]u|[Dd]as|[Dd]ies|[Nn]iemand|[Jj]emand|[Nn]ichts"
                   r"|[Aa]lles")
DETERMINER = (r"[Dd](?:er|ie|as)|[Ee]ine?|[Dd]iese[rs]?|[Kk]eine?|[MmSsDd]eine?|[Ii]hre?|[Uu]nsere?|[Jj]ede[rs]?"
              r"|[Aa]lle|[Vv]iele|[Ee]inige")
NOUN_PHRASE = rf"(?:(?:{DETERMINER})(?:\s+[a-zäöüß]+)*\s+)?(?!Ihr|Sie\b|I\b)(?:[A-ZÄÖÜ][\w-]*|XX\d+X)"
OPENED_CLAUSE = re.compile(rf"(?P<adverbial>\s*XX0X),?(?P<gap>\s+)(?P<subject>(?:{SUBJECT_PRONOUN})(?=\s+[a-zäöüß])"
                           rf"|{NOUN_PHRASE}(?:\s+und\s+{NOUN_PHRASE})?)(?P<space>\s+)(?P<verb>[a-zäöüß]+)"
                           r"(?=[\s,.!?]|$)")
NOT_FINITE = frozenset({"nicht", "auch", "nur", "noch", "schon", "bereits", "jetzt", "immer", "oft", "selten", "gern",
                        "gerne", "bitte", "dann", "hier", "dort", "sehr", "so", "heute", "morgen", "gestern", "bald",
                        "zuerst", "eben", "oben", "unten", "zu", "und", "oder", "aber", "als", "wie", "wenn", "dass",
                        "ob", "weil", "da", "falls", "bevor", "nachdem", "obwohl", "während", "sobald", "damit",
                        "für", "mit", "von", "vom", "in", "im", "auf", "an", "am", "bei", "beim", "aus", "nach", "zum",
                        "zur", "über", "unter", "vor", "durch", "gegen", "ohne", "um", "bis", "seit", "ab", "der",
                        "die", "das", "den", "dem", "des", "ein", "eine", "einen", "einem", "sich", "welche", "welcher",
                        "welches", "was", "wer", "wo", "deren", "dessen", "denen", "nie", "gut", "fast", "meist",
                        "erst", "selbst", "sonst", "weit", "lange", "gerade", "direkt", "sofort", "vielleicht", "nun",
                        "zunächst", "zuletzt"})
# A form of time or place as its English opens a sentence, an adverbial ("Last year,", "On Monday,", "In 2020,", "Two
# years ago,"): German's verb comes next after it too ("Letztes Jahr stellte die Firma ...", "Am Montag ist das Büro
# geschlossen."), where the model wrote "Letztes Jahr, die Firma ...", "Am Montag, das Büro ist ..."
FRONTED = re.compile(r"(?i:at|on|in|since|during|by|until|till|before|after|for|from|last|next|this|every|over|within"
                     r"|around)\b|.*\bago$")
# Or the verb and the subject in German's order already, after the comma German does not write ("XX0X, habe ich")
INVERTED_CLAUSE = re.compile(rf"(?P<adverbial>\s*XX0X),\s+(?P<verb>[a-zäöüß]+)\s+(?:{SUBJECT_PRONOUN})\b")
# A clause the model ended with its finite verb, whose word after the subject is none ("Im Juni, das Wetter warm
# ist.", "Ohne eine Lizenz, das Programm im Demomodus ausgeführt wird."): a form that is no infinitive ("... kann
# geöffnet werden." is German's order)
VERB_LAST = re.compile(r"[^,;:.!?]*\s(?:ist|sind|war|waren|wird|wurde|wurden|hat|hatte|hatten|kann|muss|soll|will)"
                       r"(?=\s*(?:[,;:.!?]|$))")
# A finite verb: a present's or a weak past's ending, an irregular present ("wird", "kann") or a strong past
# ("wuchs", "kam"); not an adverb the model put after the subject ("die meisten Benutzer niemals ... ändern")
FINITE = re.compile(r"[a-zäöüß]+(?:t|e|en|n|st)|wird|sind|war|kann|muss|soll|will|darf|mag|weiß|[a-zäöüß]*?(?:wuchs"
                    r"|kam|ging|fand|nahm|gab|sah|lief|blieb|schrieb|fiel|las|lag|saß|sprach|traf|trug|zog|bot|bat"
                    r"|rief|schien|stieg|schlug|verlor|begann|gewann|stand|fuhr|flog|hielt|ließ|fing|hing|wies|bog"
                    r"|schloss|schoss|floss|goss|riss|schnitt|stritt|litt|griff|pfiff|stieß|trieb|mied|rieb|schrie"
                    r"|stahl|brach|warf|half|starb|vergaß|aß|maß|trat|lud|grub|schuf|wusch|wog|log|sog|kroch|roch"
                    r"|sprang|sang|trank|sank|zwang|rang|schwamm|band|schwand|wand)")
# A participle ("gelöscht", "fehlgeschlagen", "hochgeladen"), the "ge" after a separable prefix too; not a finite
# verb that starts with "ge" ("gibt", "gehört")
PARTICIPLE = re.compile(r"(?:ab|an|auf|aus|bei|ein|fehl|fest|frei|her|hin|hoch|los|mit|nach|vor|weg|zu|zurück|zusammen"
                        r"|um|durch|wieder|statt|teil|dar)?ge[a-zäöüß]{2,}(?:t|en)")
FINITE_FROM_GE = frozenset({"gibt", "geht", "gilt", "gehört", "gefällt", "gelingt", "genügt", "gehen", "geben",
                            "gelten", "gehören", "gewinnt", "genießt"})
# Closings that are one only where the name's line follows ("Cheers,\nTom" came back as "Cheere,\nTom", "Take
# care,\nJohn" as "Sorgfalt ,"); elsewhere a toast, a label, a warning ("Cheers!", "Best", "Take care, the floor is
# wet"): the e-mail's German
LINE_CLOSINGS = {"Cheers": "Viele Grüße", "Best": "Beste Grüße", "Take care": "Alles Gute", "Warmly": "Herzliche Grüße"}
SET_PHRASES |= LINE_CLOSINGS
# Where a set phrase is one: a line's, a sentence's or an element's start ("<h1>Hello, {name}!</h1>" kept "Hello"),
# and a quotation's there ('"Hello," she said.' came back as '„Hello“, sagte sie.')
OPENING = r"(?:(?<![^\n])|(?<=[.!?] )|(?<=>)|(?<=[\"“„«])(?<![^\n][\"“„«])|(?<=[.!?] [\"“„«]))"
SET_PHRASE_WORDS = (rf"(?:{'|'.join(sorted(SET_PHRASES, key=len, reverse=True))})"  # an element's too, "<li>Hi</li>"
                    r"(?=[,!.?]|\s*$|[ \t]*\n|</(?:p|li|h[1-6]|td|th|div|button|label|option|title)>)")
# A letter's closing takes no comma in German before the line of the name ("Mit freundlichen Grüßen\nAnna") or at the
# text's end ("Kind regards," came back as "Freundliche Grüße,"; the corpus's "Yours sincerely," has none); that
# line, or a name after the comma, is the signature, kept as written (the model translated it: "Tom Baker" as
# "Tom-Befehl", "Mark" as "Markieren"). Written without the comma, the closing alone on its line is one too ("Best
# regards\nAnna Weber" came back as "höchste Grüße"), and so is a line's closing on the text's last line ("...\nCheers"
# came back as "Cheere"); another set phrase alone on its line is none (a list's, a menu's word).
CLOSINGS = frozenset({"Best regards", "Kind regards", "Warm regards", "Regards", "Best wishes", "With best regards",
                      "With kind regards", "Sincerely", "Yours sincerely", "Sincerely yours", "Yours faithfully",
                      "All the best", *LINE_CLOSINGS})
SIGNATURE = r"[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}(?=[ \t]*(?:\n|$))"
SET_PHRASE = re.compile(rf"{OPENING}(?P<phrase>{SET_PHRASE_WORDS})"
                        rf"(?:,(?P<signed>(?:[ \t]*\n\s*|[ \t]+){SIGNATURE})|(?P<before_a_line>,)(?=[ \t]*(?:\n|$))"
                        rf"|(?P<line_signed>[ \t]*\n\s*{SIGNATURE})|(?P<alone_on_a_line>(?=[ \t]*\n\s*\S)))?")
LAST_LINE_END = re.compile(r"[,!]?\s*$")
# A greeting before a name and a comma ("Hi John,", "Dear Anna and Tom,", "Dear Dr. Smith,"): the model dropped or
# changed the name ("Hi John," came back as "Hins,", "Dear John," as "Kleiner John,", "Dear Dr. Smith," as "Erde Dr.
# Smith,"). Not "Hello World!" (no comma), not a word for the people addressed ("Dear User,", "Hi Folks,"). A given
# name and a surname too ("Hi Kevin White," came back as "Hinweis Kevin White,"), not any two words ("Dear Valued
# Customer,").
ADDRESSEES = ("User", "Users", "Member", "Members", "Friend", "Friends", "Folks", "Guest", "Guests", "Reader",
              "Readers", "Client", "Clients", "Partner", "Partners", "Colleague", "Team", "All", "Everyone", "World",
              "There")
SALUTATIONS = "Dear|Hi|Hello|Hey|Good morning|Good afternoon|Good evening"
# Or a template's placeholder for the name ("Hello {name},", "Dear %s,", "Hi %1,", "Hello %{name},", "Hi $name,": the
# model kept "Hello" and lost "Hi").
NAME_PLACEHOLDER = (r"\{[A-Za-z_0-9]\w*\}|\{\{ ?\.?[A-Za-z_][\w.]* ?\}\}|[$#]\{[A-Za-z_][\w.]*\}|%(?:\d+\$)?[s@]"
                    r"|%\d{1,2}|%\([A-Za-z_]\w*\)s|%\{[A-Za-z_]\w*\}|\$[A-Za-z_]\w*|:[a-z_]\w*|\\\([A-Za-z_][\w.]*\)"
                    r"|<%= ?[A-Za-z_][\w.]* ?%>")
SALUTED_NAME = re.compile(rf"{OPENING}(?P<salutation>{SALUTATIONS})"
                          rf" (?P<title>(?:Dr|Prof)\. |Professor )?(?!(?:{'|'.join(ADDRESSEES)}),)"
                          rf"(?P<name>(?:{'|'.join(sorted(GIVEN_NAMES))}) [A-Z][a-z]+(?:-[A-Z][a-z]+)?(?=,)"
                          r"|[A-Z][a-z]+(?:-[A-Z][a-z]+)?(?: and [A-Z][a-z]+)?(?=,)"
                          rf"|(?:{NAME_PLACEHOLDER})(?=[,!]))")
OPENS_A_LINE = re.compile(rf"{OPENING}(?:{SET_PHRASE_WORDS}|(?:{SALUTATIONS}) [A-Z{{%$:#\\<])")  # one pass for both
# A month with a year or after a preposition ("in March 2024", "since June"): the model kept it English ("The law was
# passed in March 2024." came back as "Das Gesetz wurde in March 2024 übergeben.", "We will move in June." as "...
# in June bewegen.", "the invoice for March" as "die Rechnung für March"); the dictionary's references write "im März"
# (12 of 14). Not a month before a day, a date's, or before a capitalized word, a name's ("by August Strindberg").
BEFORE_MONTH_WORDS = (r"(?P<preposition>[Ii]n|[Dd]uring|[Ss]ince|[Uu]ntil|[Tt]ill|[Bb]y|[Bb]efore|[Aa]fter|[Ff]rom|to"
                      r"|[Ff]or)")
MONTH_PERIOD = re.compile(rf"(?<![\w.,$€£])(?:{BEFORE_MONTH_WORDS}[ \xa0])?(?P<month>{'|'.join(MONTH_NAMES)})"
                          r"(?:,?[ \xa0](?P<year>1\d{3}|20\d\d))?(?![\w'’-]|[.,]?\d|[ \xa0]\d|[ \xa0][A-Z][a-z])")
MONTH_NAME = re.compile("|".join(MONTH_NAMES))
# A part of a month, a year or the year, month or week ("at the end of June": "Ende Juni", "in mid-August": "Mitte
# August", "in early 2024": "Anfang 2024", "by the end of the year": "bis Ende des Jahres", "since the beginning of
# the week": "seit Anfang der Woche"): German names the part without a preposition or an article, after "bis", "seit",
# "ab", "vor", "nach" where English bounds it. Read, the model wrote them word by word ("The festival takes place at
# the end of June." came back as "... am Ende Juni.", "The course starts at the beginning of September." as "... am
# Anfang des Septembers.", "We will move in mid-August." as "Wir werden mit Mitte des Augusts bewegen."): of 30
# sentences written for the check 7 came back with the part as German names it, now 30; no held-out text has one. Not
# the end of a day ("at the end of the day": in the end), nor a part an article makes an adjective of ("an early March
# release").
MONTH_PARTS = {"end": "Ende", "late": "Ende", "beginning": "Anfang", "start": "Anfang", "early": "Anfang",
               "middle": "Mitte", "mid": "Mitte"}
PART_BOUNDS = {"at": "", "in": "", "by": "bis", "until": "bis", "till": "bis", "since": "seit", "from": "ab",
               "before": "vor", "after": "nach"}
PART_PERIODS = {"year": "des Jahres", "month": "des Monats", "week": "der Woche"}
ARTICLE_BEFORE = re.compile(r"\b(?i:an?|the)[ \xa0]$")
# The day after tomorrow and the one before yesterday, German's one word ("übermorgen", "vorgestern"), after "bis",
# "seit", "ab" where English bounds it. Read, the model wrote them word by word ("We will meet the day after
# tomorrow." came back as "Wir werden morgen den Tag nach morgen treffen.", "I saw him the day before yesterday." as
# "Ich habe ihn gestern vor dem gestern."): of 12 sentences written for the check none came back with them, now 12
DAYS_AROUND = {"after tomorrow": "übermorgen", "before yesterday": "vorgestern"}
DAY_AROUND = re.compile(rf"(?<![\w-])(?:(?P<bound>(?i:on|{'|'.join(PART_BOUNDS)}))[ \xa0])?[Tt]he[ \xa0]day[ \xa0]"
                        r"(?P<which>after[ \xa0]tomorrow|before[ \xa0]yesterday)(?![\w'’-])")
MONTH_PART = re.compile(  # (the letters it starts with first: the search skips other positions at once)
    rf"(?=[aAiIbBuUtTsSfFeElLmM])(?<![\w.,$€£-])(?:(?P<bound>(?i:{'|'.join(PART_BOUNDS)}))[ \xa0])?"
    r"(?:[Tt]he[ \xa0](?P<part>end|beginning|start|middle)[ \xa0]of[ \xa0]|(?P<edge>[Ee]arly|[Ll]ate|[Mm]id)[ \xa0]"
    r"|(?P<mid>[Mm]id)-)"
    rf"(?:(?P<month>{'|'.join(MONTH_NAMES)})(?:,?[ \xa0](?P<year>1\d{{3}}|20\d\d))?|(?P<year_alone>1\d{{3}}|20\d\d)"
    rf"|(?<=of[ \xa0])the[ \xa0](?P<period>{'|'.join(PART_PERIODS)}))"
    r"(?![\w'’-]|[.,]?\d|[ \xa0]\d|[ \xa0][A-Z][a-z])")
# A year after a preposition: German writes "in 1998" as the year alone (the dictionary's references 50 of 50: "The
# company was founded in 1954.", "Das Unternehmen wurde 1954 gegründet."; the catalogs' 10 of 14), "between 1990 and
# 1995" as "zwischen 1990 und 1995"; the model wrote "in 1998" and dropped a range's words ("1990 1995"). Only where a
# year is what the number can be: a mark, the end or a word no count goes with follows it ("in 1024 MB", "in 2048
# files" stay); a capital only after "In", a sentence's start ("In 1920 Poland and Russia were still at war.").
YEAR_NUMBER = r"1\d{3}|20\d\d"
YEAR_PERIOD = re.compile(
    rf"(?<![\w.])(?P<preposition>[Ii]n|[Ss]ince|[Uu]ntil|[Bb]y|[Bb]efore|[Aa]fter|[Ff]rom|[Bb]etween)[ \xa0]"
    rf"(?P<period_year>{YEAR_NUMBER})(?:(?P<range>[-–]|[ \xa0](?:to|until|and)[ \xa0])(?P<to_year>{YEAR_NUMBER}))?"
    r"(?![\w%])(?=[ \xa0]*(?:[.,;:!?)\]]|$)|[ \xa0](?:the|a|an|he|she|it|we|they|I|you|and|or|but|when|while|after"
    r"|before|until|to|by|at|on|in|for|with|was|were|is|are|had|has|have|this|that|there|as|its|his|her|their|our|my"
    r"|so|then|because|if)\b|(?<=In[ \xa0]\d{4})[ \xa0][A-Z])")
# Countries, regions and cities, with the preposition before one: German names many otherwise, and the model chose the
# preposition badly ("The train to Munich was late." came back as "Der Zug zum Munich war später.", "We spent a week
# in Vienna" as "... im Wiesen ...", "She comes from France." as "Sie kommt von Frankreich.", "We are flying to
# Canada." as "Wir fliegen auf Kanada.", "Welcome to Berlin!" as "Willkommen zu Berlin!"). Each is an item written as
# German writes it: "nach München", "aus Frankreich", "in der Schweiz"; German's names as the dictionary's entries
# give them, where it has them (150 of 170).
# A place German names alike, or only with an article, is one only after a preposition: alone there is nothing to
# change, or the sentence around it is the model's ("Switzerland is"); so is a first name ("Florence").
PLACES = {
    "Germany": "Deutschland", "Austria": "Österreich", "Switzerland": "Schweiz", "France": "Frankreich",
    "Italy": "Italien", "Spain": "Spanien", "Portugal": "Portugal", "Poland": "Polen", "Belgium": "Belgien",
    "Netherlands": "Niederlande", "Luxembourg": "Luxemburg", "Denmark": "Dänemark", "Sweden": "Schweden",
    "Norway": "Norwegen", "Finland": "Finnland", "Iceland": "Island", "Ireland": "Irland", "Scotland": "Schottland",
    "England": "England", "Wales": "Wales", "Britain": "Großbritannien", "Great Britain": "Großbritannien",
    "Greece": "Griechenland", "Turkey": "Türkei", "Russia": "Russland", "Ukraine": "Ukraine", "Hungary": "Ungarn",
    "Czech Republic": "Tschechien", "Czechia": "Tschechien", "Slovakia": "Slowakei", "Slovenia": "Slowenien",
    "Croatia": "Kroatien", "Serbia": "Serbien", "Romania": "Rumänien", "Bulgaria": "Bulgarien", "Estonia": "Estland",
    "Latvia": "Lettland", "Lithuania": "Litauen", "Cyprus": "Zypern", "Malta": "Malta", "United States": "USA",
    "Canada": "Kanada", "Mexico": "Mexiko", "Brazil": "Brasilien", "Argentina": "Argentinien", "Chile": "Chile",
    "Colombia": "Kolumbien", "Peru": "Peru", "Cuba": "Kuba", "China": "China", "Japan": "Japan", "India": "Indien",
    "Korea": "Korea", "South Korea": "Südkorea", "Vietnam": "Vietnam", "Thailand": "Thailand",
    "Indonesia": "Indonesien", "Singapore": "Singapur", "Australia": "Australien", "New Zealand": "Neuseeland",
    "Egypt": "Ägypten", "Morocco": "Marokko", "Tunisia": "Tunesien", "Kenya": "Kenia", "South Africa": "Südafrika",
    "Nigeria": "Nigeria", "Ethiopia": "Äthiopien", "Israel": "Israel", "Syria": "Syrien", "Iran": "Iran",
    "Iraq": "Irak", "Saudi Arabia": "Saudi-Arabien", "Europe": "Europa", "Africa": "Afrika", "Asia": "Asien",
    "America": "Amerika", "North America": "Nordamerika", "South America": "Südamerika",
    "Latin America": "Lateinamerika", "Bavaria": "Bayern", "Saxony": "Sachsen", "Lower Saxony": "Niedersachsen",
    "Thuringia": "Thüringen", "Hesse": "Hessen", "Swabia": "Schwaben", "Franconia": "Franken",
    "Westphalia": "Westfalen", "Prussia": "Preußen", "Bohemia": "Böhmen", "Silesia": "Schlesien", "Tyrol": "Tirol",
    "Sicily": "Sizilien", "Sardinia": "Sardinien", "Corsica": "Korsika", "Crete": "Kreta", "Tuscany": "Toskana",
    "Catalonia": "Katalonien", "Andalusia": "Andalusien", "Scandinavia": "Skandinavien", "Siberia": "Sibirien",
    "Munich": "München", "Vienna": "Wien", "Cologne": "Köln", "Nuremberg": "Nürnberg", "Hanover": "Hannover",
    "Zurich": "Zürich", "Geneva": "Genf", "Lucerne": "Luzern", "Rome": "Rom", "Milan": "Mailand", "Venice": "Venedig",
    "Florence": "Florenz", "Naples": "Neapel", "Genoa": "Genua", "Turin": "Turin", "Warsaw": "Warschau",
    "Prague": "Prag", "Moscow": "Moskau", "Brussels": "Brüssel", "Antwerp": "Antwerpen", "Bruges": "Brügge",
    "Lisbon": "Lissabon", "Copenhagen": "Kopenhagen", "Athens": "Athen", "Belgrade": "Belgrad",
    "Bucharest": "Bukarest", "Strasbourg": "Straßburg", "Seville": "Sevilla", "Gothenburg": "Göteborg",
    "Beijing": "Peking", "Tokyo": "Tokio", "Cairo": "Kairo", "Damascus": "Damaskus", "Tehran": "Teheran",
    "Mexico City": "Mexiko-Stadt", "Berlin": "Berlin", "Hamburg": "Hamburg", "Frankfurt": "Frankfurt",
    "Stuttgart": "Stuttgart", "Dresden": "Dresden", "Leipzig": "Leipzig", "Bonn": "Bonn", "Bremen": "Bremen",
    "Salzburg": "Salzburg", "Basel": "Basel", "Bern": "Bern", "London": "London", "Paris": "Paris",
    "Madrid": "Madrid", "Barcelona": "Barcelona", "Amsterdam": "Amsterdam", "Stockholm": "Stockholm",
    "Oslo": "Oslo", "Helsinki": "Helsinki", "Dublin": "Dublin", "Edinburgh": "Edinburgh", "Budapest": "Budapest",
    "Istanbul": "Istanbul", "New York": "New York", "Washington": "Washington", "Chicago": "Chicago",
    "Boston": "Boston", "San Francisco": "San Francisco", "Los Angeles": "Los Angeles", "Toronto": "Toronto",
    "Sydney": "Sydney", "Hong Kong": "Hongkong", "Shanghai": "Schanghai", "Delhi": "Delhi", "New Delhi": "Neu-Delhi",
    "U.S.": "USA", "U.S.A.": "USA", "US": "USA", "USA": "USA", "United Kingdom": "Großbritannien",
    "UK": "Großbritannien", "U.K.": "Großbritannien",
}
PLACE_ARTICLES = {"Schweiz": "f", "Niederlande": "pl", "Türkei": "f", "Ukraine": "f", "Slowakei": "f", "USA": "pl",
                  "Iran": "m", "Irak": "m", "Toskana": "f"}
PLACE_NEEDS_PREPOSITION = frozenset({"Florence", "Turkey", "Washington", "Sydney", "Chile"})
# Names English writes with "the" ("in the Netherlands", "in the U.S."): without a preposition "the" is the model's.
PLACES_AFTER_THE = frozenset({"Netherlands", "United States", "Czech Republic", "United Kingdom", "U.S.", "U.S.A.",
                              "US", "USA", "UK", "U.K."})
BEFORE_PLACE = {"in": "in", "to": "nach", "from": "aus", "near": "bei", "via": "über"}
ARTICLED = {"in": {"f": "in der", "m": "im", "pl": "in den"}, "nach": {"f": "in die", "m": "in den", "pl": "in die"},
            "aus": {"f": "aus der", "m": "aus dem", "pl": "aus den"},
            "bei": {"f": "bei der", "m": "beim", "pl": "bei den"},
            "über": {"f": "über die", "m": "über den", "pl": "über die"},
            "von": {"f": "von der", "m": "vom", "pl": "von den"}}
# A capitalized word, or a name of PLACES in several; not part of a longer name ("Munich Airport", "Paris Hilton", "New
# Mexico", "East Germany": PLACE_AFTER_NAME), nor of a file or an address ("Berlin.txt", "@Paris").
ABBREVIATED_PLACES = sorted((name for name in PLACES if name.isupper()), key=len, reverse=True)  # "U.S.A." first
PLACE = re.compile(r"(?<![\w.'’&/@-])"
                   r"(?:(?P<preposition>[Ii]n|[Tt]o|[Ff]rom|[Nn]ear|[Vv]ia)[ \xa0](?P<the>the[ \xa0])?)?"
                   rf"(?P<place>{'|'.join(sorted((name for name in PLACES if ' ' in name), key=len, reverse=True))}"
                   rf"|{'|'.join(map(re.escape, ABBREVIATED_PLACES))}|[A-Z][a-z]+)"
                   r"(?![\w'’&/@-]|[ \xa0-]?[A-Z]|\.\w)")
PLACE_AFTER_NAME = re.compile(r"(?P<word>[A-Z][a-z]*|[Ss]t\.)[ \xa0]$")
NAME_BEFORE_PLACE = re.compile(r"New|North|South|East|West|Northern|Southern|Eastern|Western|Central|Upper|Lower"
                               r"|Greater|Old|Little|Saint|St\.|San|Santa|Los|Las|Fort|Port|Mount|Lake|Cape|Bad")
# Where a sentence starts: the text's start, a line's (indented or not) or its list item's ("- ", "2) "), or
# after a sentence's mark and a space
SENTENCE_START = re.compile(r"(?:(?:^|\n)[ \xa0]*(?:[-*+•][ \xa0]|\d{1,3}[.)][ \xa0])?|[.!?:][ \xa0\n])[ \xa0]*\Z")
# What may follow a place without a preposition: a mark, the end, or a word a place's name goes with as a noun; not a
# noun it describes, which German joins to it ("the Warsaw ghetto": "das Warschauer Ghetto", "the Cairo surface").
PLACE_ENDS = re.compile(r"[ \xa0]*(?:[^\w \xa0]|$)|[ \xa0](?:is|was|are|were|has|had|have|will|would|can|could|may"
                        r"|might|must|should|and|or|but|nor|in|on|at|for|with|by|from|to|of|as|than|where|which|that"
                        r"|who|when|while|since|because|after|before|during|until|remains|became|becomes|lies|won|lost"
                        r"|beat|offers|hosts|announced|said|says|does|did|last|next|this|yesterday|today|tomorrow"
                        r"|now|again|soon|recently|already)\b")
PLACE_WORDS = frozenset(name.split()[0].rstrip(".") for name in PLACES)
CAPITALIZED_WORD = re.compile(  # an abbreviation without its last dot, after which no word boundary lies
    rf"\b(?:[A-Z][a-z]+|{'|'.join(re.escape(name.rstrip('.')) for name in ABBREVIATED_PLACES)})\b")
# Where the word before it makes "to" or "from" no place's: the preposition stays the model's ("next to Munich",
# "far from Rome", "This applies to Germany"); "Welcome to Berlin!" and "I have been to Rome." are "in".
NOT_OF_PLACE = re.compile(r"(?:\b(?:next|close|according|compared|thanks|due|similar|far|away|apart|different|prior"
                          r"|relative|contrary|opposite|belongs?|talk|talked|speak|spoke|write|wrote"
                          r"|appl(?:y|ies|ied)|refer(?:s|red)?|relat(?:e|es|ed)|point(?:s|ed)?|repl(?:y|ies|ied)"
                          r"|respond(?:s|ed)?|limited|restricted|specific|unique|native)[ \xa0]\w+"
                          # a setting's value ("Set the region to France"): "auf"
                          r"|\b(?:set|change[sd]?|switch(?:e[sd])?)\b[^.!?;:]{0,30}[ \xa0]to)"
                          r"[ \xa0](?:the[ \xa0])?$", re.I)
WELCOMED = re.compile(r"\b(?:[Ww]elcome|been)[ \xa0]$")
MONEY = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.\d\d(?!\d)|\d+"
# A price's period after a slash is German's too ("$19.99/month" came back as "19,99 $/month"): "19,99 $/Monat"
PER_PERIOD = {"month": "Monat", "mo": "Monat", "year": "Jahr", "yr": "Jahr", "week": "Woche", "day": "Tag",
              "hour": "Stunde", "hr": "Stunde", "person": "Person", "user": "Nutzer"}
# Not a number in TeX's mathematics ("$54$": "54 $$", an empty display that broke a paper's every page after it)
AMOUNT = re.compile(rf"(?<![\w$€£¥])(?P<currency>\$(?=\d[\d,.]*\d)|[€£¥])[ \xa0]?(?P<amount>{MONEY})(?![\w.,]\d|[\d$])"
                    r"(?![ \xa0]?(?:[mb]illion|trillion|bn|mn|[mMkKbB])(?!\w))"  # "$5 million": SCALED_AMOUNT
                    rf"(?:/(?P<per>{'|'.join(PER_PERIOD)})(?![\w/]))?")
# An amount of money for each period or person ("3,000 euros a month": "3.000 Euro pro Monat", "$80 a night": "80 $ pro
# Nacht"): read, the model lost the period or wrote its article ("He earns 3,000 euros a month." came back as "Er
# verdient 3.000 Euro.", "She makes 50,000 dollars a year." as "Sie macht 50.000 einen Jahr."): of 6 sentences written
# for the check 1 came back with it as German writes it, now 6, and of 6 more 1, now 6. Not "$" before a space, a
# shell's prompt ("$ 5 a month" stays)
RATE_PERIODS = PER_PERIOD | {"night": "Nacht"}
AMOUNT_RATE = re.compile(
    rf"(?<![\w$€£¥.,])(?:(?P<currency>\$|[€£¥][ \xa0]?)(?P<amount>{MONEY})|(?P<counted>{MONEY})[ \xa0]"
    r"(?P<currency_word>euros?|dollars?|pounds?))"
    rf"[ \xa0](?:an?|per)[ \xa0](?P<period>night|{'|'.join(word for word in PER_PERIOD if len(word) > 2)})(?![\w'’-])")
# A number of millions, billions or trillions, with its currency sign or word: the model broke them ("2 billion
# dollars" came back as "2 Dokumente", "1.5 billion euros" as "1,5 Anwendungsergebnisse", "$2.5 billion" as "$2,5",
# "$5 million" as "$5 Millionen"); German writes "Millionen", "Milliarden" (a billion is a thousand millions),
# "Billionen", singular after 1, the currency after them ("2 Millionen Pfund", "1,5 Milliarden", the dictionary's).
SCALES = {"million": ("Million", "Millionen"), "billion": ("Milliarde", "Milliarden"),
          "trillion": ("Billion", "Billionen"), "bn": ("Mrd.", "Mrd.")}  # not "mn", minutes as often ("15mn")
CURRENCY_WORDS = {"dollars": "Dollar", "euros": "Euro", "pounds": "Pfund"}
SCALED_AMOUNT = re.compile(
    r"(?<![\w$€£¥.,])(?:(?P<currency>[$€£¥])[ \xa0]?)?(?P<amount>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    rf"(?:[ \xa0](?=[mbt]r?illion)|(?=bn\b))(?P<scale>{'|'.join(SCALES)})s?(?!\w)"
    rf"(?:[ \xa0](?P<currency_word>{'|'.join(CURRENCY_WORDS)})(?!\w))?")
# German prepositions before a time and before a date; "from" is "von"/"vom" where a range's end follows in the
# item ("from 9 a.m. to 5 p.m.", "from 1 to 3 p.m."), else "ab".
BEFORE_TIME = {"at": "um", "by": "bis", "until": "bis", "till": "bis", "to": "bis", "before": "vor", "after": "nach",
               "since": "seit", "from": "ab", "between": "zwischen"}
BEFORE_DATE = {"of": "vom", "on": "am", "by": "bis zum", "until": "bis zum", "till": "bis zum", "to": "bis zum",
               "before": "vor dem", "after": "nach dem", "since": "seit dem", "from": "ab dem",
               "between": "zwischen dem"}
BEFORE_WEEKDAY = {"on": "am"} | {word: german for word, german in BEFORE_TIME.items() if word != "at"}  # a time's
BEFORE_MONTH = {"in": "im", "during": "im", "since": "seit", "until": "bis", "till": "bis", "by": "bis",
                "before": "vor", "after": "nach", "from": "ab", "to": "bis", "for": "für"}
BEFORE_YEAR = {"in": "", "since": "seit", "until": "bis", "by": "bis", "before": "vor", "after": "nach", "from": "von",
               "between": "zwischen"}  # "in 1998": "1998"; "a painting from 1521": "von 1521"
RANGE_WORDS = {"-": "–", "–": "–", "to": " bis ", "until": " bis ", "till": " bis ", "through": " bis ",
               "thru": " bis ", "and": " und "}
RANGE_FROM = {"ab": "von", "ab dem": "vom", "aus": "von"}  # "from Rome to Warsaw": "von Rom nach Warschau"
RANGE_TO = frozenset({"to", "until", "till"})
# A thing moved from one time to another ("The meeting has been moved from Tuesday to Thursday."): German's "von ...
# auf" (the model's range "von Dienstag bis Donnerstag" says it lasts)
MOVED = re.compile(r"\b(?:moved|postponed|changed|rescheduled|shifted|delayed|pushed(?: back)?|brought forward|put off"
                   r"|rearranged|switched)(?: [a-z]+){0,3} $", re.IGNORECASE)  # "moved the event from"
MOVED_TO = {"bis": "auf", "bis zum": "auf den"}
# Abbreviations German writes otherwise. Latin ones ("E.g. this works." came back as "E.g. dieser Arbeit.", "Enter
# your email address, i.e. the one you used to register." as "Geben Sie Ihre E-Mail-Adresse ein, .. Sie haben ...",
# "Approx. 3 hours remaining." as "Approx. 3 Stunden verbleibend.", "Price incl. VAT" as "Preis incl. VAT", "excl.
# VAT" as "setzt. VAT"), as the catalogs' references write them ("z.B." 396 times, "z. B." 147; "inkl." 2 of 4), the
# comma after one gone, as German writes none; only inside a sentence (a space follows).
# And a number's ("Invoice No. 12345" came back as "Rechnungsart 12345", "Room No. 5 is free." as "Room No. 5 ist
# frei.", "See p. 12." as "Siehe p. 12."), only before its number; not "Vol.", "Ch." or "Sec.", in software as often a
# volume, a channel or seconds.
ABBREVIATIONS = {"e.g.": "z.B.", "i.e.": "d.h.", "approx.": "ca.", "incl.": "inkl.", "excl.": "exkl.",
                 "no.": "Nr.", "fig.": "Abb.", "p.": "S.", "pp.": "S."}
ABBREVIATION = re.compile(r"(?<![\w.'’&/@-])(?:(?P<latin>[Ee]\.g\.|[Ii]\.e\.|[Aa]pprox\.|[Ii]ncl\.|[Ee]xcl\.),?"
                          r"(?=[ \xa0])|(?P<numbered>[Nn]o\.|[Ff]ig\.|pp?\.)(?=[ \xa0]?\d))")
# A time ago: German's "vor" goes before it, the count and the unit in the dative ("5 minutes ago": "vor 5 Minuten", "%d
# days ago": "vor %d Tagen", "an hour ago": "vor einer Stunde", "%s ago": "vor %s"), and "since" is "seit" without it
# ("Since %d days ago": "Seit %d Tagen", as the catalogs write it). Read in a sentence, the model dropped the "vor" or
# moved it ("Last updated: 2 hours ago" came back as "Zuletzt aktualisiert: 2 Stunden", "Since %d days ago" as "Vor
# %d Tage", "We got divorced 2 years ago." as "Vor dem 2 Jahr wurden ..."). Of the 1,006,103 held-out and training
# texts 192 changed, chrF 65.27 -> 72.20, BLEU 39.62 -> 51.39 (fp32; 86 translations changed, 66 closer to the
# reference, 20 further: "It expired three weeks ago." came back as "Es ist abgelaufen vor drei Wochen.", the item
# where English has it, before as "Es ist vor drei Wochen abgelaufen.").
# German's units of time, each its gender, singular and plural (the nominative's and the accusative's; the dative's
# plural ends in "n": `german_unit`), for every form that counts time; and the abbreviations a time ago takes
TIME_UNITS = {"second": ("f", "Sekunde", "Sekunden"), "minute": ("f", "Minute", "Minuten"),
              "hour": ("f", "Stunde", "Stunden"), "day": ("m", "Tag", "Tage"), "night": ("f", "Nacht", "Nächte"),
              "week": ("f", "Woche", "Wochen"), "month": ("m", "Monat", "Monate"), "year": ("n", "Jahr", "Jahre"),
              "decade": ("n", "Jahrzehnt", "Jahrzehnte"), "century": ("n", "Jahrhundert", "Jahrhunderte")}
UNIT_ABBREVIATIONS = {"sec": "second", "min": "minute", "hr": "hour"}
ONE = {"accusative": {"f": "eine", "m": "einen", "n": "ein"}, "dative": {"f": "einer", "m": "einem", "n": "einem"}}
# (a count in words is a number's: COUNT_IN_WORDS)
AGO_COUNTS = {"a few": "einigen", "a couple of": "ein paar", "several": "mehreren", "many": "vielen", "some": "einigen",
              "dozens of": "Dutzenden von", "hundreds of": "Hunderten von", "tens of thousands of": "Zehntausenden von",
              "thousands of": "Tausenden von", "millions of": "Millionen von"}
# A time without a count ("a long time ago": "vor langer Zeit", "for a while": "seit einer Weile")
AGO_PHRASES = {"a long time": "langer Zeit", "quite a while": "einer ganzen Weile", "a while": "einer Weile",
               "a short while": "kurzem", "a little while": "kurzem", "some time": "einiger Zeit"}
# Words that round a count or bound it from below, German's the same in a time ago and before any number
ROUNDING_WORDS = {"about": "etwa", "around": "etwa", "approximately": "etwa", "roughly": "etwa", "almost": "fast",
                  "nearly": "fast", "less than": "weniger als"}
# A count's qualifier, after "vor" ("about 2 hours ago": "vor etwa 2 Stunden"), and "only" before it ("erst vor")
AGO_QUALIFIERS = ROUNDING_WORDS | {"over": "über", "more than": "mehr als"}
# A placeholder for a number or a duration ("%d", "%1", "{count}", "%{n}", "{{ n }}"): in AGO, QUANTIFIER and
# FREQUENCY
NUMBER_PLACEHOLDER = r"%(?:\d+\$)?[ds]|%L?\d|%\{[A-Za-z_]\w*\}|\{[A-Za-z_]?\w*\}|\{\{ ?[A-Za-z_]\w* ?\}\}|" + TOKEN_LIKE
AGO_FROM_A_NUMBER = re.compile(rf"\d|{NUMBER_PLACEHOLDER}")  # (its case is no sentence's)
WORD_GOES_ON = re.compile(r"[ \xa0]*,?[ \xa0]*[^\W\d_]")
# A number of tens and ones in words ("twenty-five": "fünfundzwanzig"), which German writes as one word, the ones
# first. Read, the model kept the tens alone ("He is twenty-five years old." came back as "Er ist zwanzig Jahre alt.")
# and a time ago took the ones alone ("twenty-five years ago": "twenty-vor fünf Jahren"); of 10 sentences written for
# the check 1 came back with the number, now 10; served, no held-out text changes (4 test entries are a number alone,
# which the model learnt). Not an ordinal ("twenty-first") nor part of a compound ("twenty-five-year-old", which German
# writes as one word the model makes).
TENS = {"twenty": "zwanzig", "thirty": "dreißig", "forty": "vierzig", "fifty": "fünfzig", "sixty": "sechzig",
        "seventy": "siebzig", "eighty": "achtzig", "ninety": "neunzig"}
ONES = {"one": "ein", "two": "zwei", "three": "drei", "four": "vier", "five": "fünf", "six": "sechs", "seven": "sieben",
        "eight": "acht", "nine": "neun"}
COMPOUND_NUMBER = rf"(?i:{'|'.join(TENS)})-(?i:{'|'.join(ONES)})"
# A count in words up to the thousands, which German writes as one word ("fifteen": "fünfzehn", "two hundred and
# fifty": "zweihundertfünfzig", "ten thousand": "zehntausend"); as AGO's and ONGOING_FOR's count the model made
# another number of it ("fifty years ago": "vor fünf Jahren fünfzig", "for fourteen months": "für vier Jahre"). With
# the units alone and AGO_PHRASES below: of 40 sentences written for the check with a time ago 13 came back with it as
# German writes it, now 39, of 20 with how long a thing has gone on 4, now 17 (docs/text-pipeline.md)
TEENS = {"ten": "zehn", "eleven": "elf", "twelve": "zwölf", "thirteen": "dreizehn", "fourteen": "vierzehn",
         "fifteen": "fünfzehn", "sixteen": "sechzehn", "seventeen": "siebzehn", "eighteen": "achtzehn",
         "nineteen": "neunzehn"}
SMALL_COUNTS = {word: german for word, german in (ONES | TEENS | TENS).items() if word != "one"}  # ("one": an article)
BELOW_A_HUNDRED = rf"{COMPOUND_NUMBER}|(?i:{'|'.join(SMALL_COUNTS)})"
HUNDREDS_AND_THOUSANDS = (rf"(?i:(?:an?|{'|'.join(ONES)})[ \xa0]hundred(?:[ \xa0](?:and[ \xa0])?(?:{BELOW_A_HUNDRED}))?"
                          rf"|(?:an?|one|{BELOW_A_HUNDRED})[ \xa0]thousand)")
COUNT_IN_WORDS = rf"{HUNDREDS_AND_THOUSANDS}|{BELOW_A_HUNDRED}"
# Such a number alone too, from thirteen on: read, the model made another number of it ("He has eighteen cousins."
# came back as "Er hat acht Cousins.", "She is seventy years old." as "Sie ist sieben Jahre alt.", "The school has two
# hundred students." as "... zwei hundert Studenten."), where it wrote two to twelve as German does: of 40 sentences
# written for the check 8 came back with the number, now 40; served, 7 held-out texts change, 6 closer. Not inside a
# longer number it cannot write ("one hundred and twenty five", "fifty million", "twenty five" are left as they are),
# nor an ordinal ("twenty-first") or part of a compound ("twenty-five-year-old", which German writes as one word the
# model makes)
FROM_THIRTEEN = [word for word in TEENS | TENS if word not in ("ten", "eleven", "twelve")]
# A decade in words, its German before "Jahre" ("the sixties": "die sechziger Jahre"; "the nineteen eighties")
DECADE_WORDS = {f"{tens[:-1]}ies": f"{german}er" for tens, german in TENS.items()}
DECADES = f"(?:{'|'.join(DECADE_WORDS)})"
NUMBER_WORDS = rf"(?i:{'|'.join(ONES | TEENS | TENS)}|hundred|thousand|[mbr]illion|{DECADES})\b"
NUMBER_IN_WORDS = re.compile(  # (the letters a number starts with first: the search skips other positions at once)
    rf"(?=[aAoOtTfFsSeEnN])(?<![\w-])"
    rf"(?P<number>{HUNDREDS_AND_THOUSANDS}|{COMPOUND_NUMBER}|(?i:{'|'.join(FROM_THIRTEEN)}))"
    rf"(?![\w'’-]|{APOSTROPHE}|[ \xa0]{NUMBER_WORDS}|(?<=hundred)[ \xa0]and\b|(?<=thousand)[ \xa0]and\b)")
NUMBER_HINT = re.compile(r"(?:t(?:y|een)|dred|sand)(?![a-z])")  # (not "nineteenth", "teenager", "been")
# A number word before another ("nineteen eighty-four", "one hundred and twenty-five", "the nineteen eighties"), or an
# article before one: a noun ("a fifty": a banknote, "Fünfziger")
NUMBER_WORD_BEFORE = re.compile(rf"\b(?:{NUMBER_WORDS}|(?i:hundred|thousand)[ \xa0]and|(?i:an?))[ \xa0]$")
CAPITALIZED_WORD_AFTER = re.compile(r"[ \xa0]+[A-Z]")
# What qualifies a time ("over", "about"), and the time: its count and unit, or words without one (AGO_PHRASES); what
# "vor" and "seit" take. A unit without a count only in the plural ("years ago": "vor Jahren", "for hours": "seit
# Stunden")
QUALIFIED = rf"(?:(?P<qualifier>(?i:{'|'.join(AGO_QUALIFIERS)}))[ \xa0])?"
TIME_SPAN = (rf"(?:(?P<count>\d+|{NUMBER_PLACEHOLDER}|{COUNT_IN_WORDS}|(?i:an?|one|{'|'.join(AGO_COUNTS)}))[ \xa0])?"
             rf"(?:(?P<unit>(?i:{'|'.join([*TIME_UNITS, *UNIT_ABBREVIATIONS])}))(?P<plural>s)?"
             rf"|(?P<centuries>(?i:centuries)))"
             rf"|(?P<phrase>(?i:{'|'.join(AGO_PHRASES)}))")
AGO = re.compile(
    rf"(?<![\w.,%{{}}~-])(?<![Hh]alf[ \xa0])(?:(?P<since>[Ss]ince)[ \xa0]|(?P<only>[Oo]nly|[Jj]ust)[ \xa0])?"
    rf"{QUALIFIED}(?:{TIME_SPAN}|(?P<duration>{NUMBER_PLACEHOLDER}))[ \xa0]ago(?![\w'’-])")
# What no unit without a count comes after ("a million years ago", "umpteen days ago" are no "vor Jahren")
COUNTS_BEFORE = re.compile(rf"(?:\d|\b(?i:{'|'.join(ONES | TEENS | TENS)}|hundreds?|thousands?|millions?|billions?"
                           r"|dozens?|few|many|several|some|couple|of|umpteen|an?|the|these|those))[ \xa0]$")
# A period named from now, as when a thing happens ("last year": "letztes Jahr", "last Sunday": "letzten Sonntag",
# "next weekend": "nächstes Wochenende", "this month": "diesen Monat", "this morning": "heute Morgen"): German's
# accusative of time. Read, the model dropped or garbled it ("It happened last year." came back as "Es passiert
# zuletzt vor.", "We moved here last month." as "Wir haben hier Monat bewegt.", "last Sunday" as "letzte Sonntag"): in
# 135 sentences written for the check (5 each of 27 periods) 61 came back with the period as German writes it; of the
# 110 with one formed now, 38, now 110. The 4 held-out dictionary sentences with one chrF 40.07 -> 51.49 (each closer;
# served, 1 catalog message too); the 47 training pairs, which the model learnt by heart, 51.59 -> 47.97 (as a token
# the period goes where English puts it: "Ich habe es heute morgen am Radio gehört." came back as "... am Radio heute
# Morgen gehört."). Not after a preposition or an article, whose case it would take ("since last year", "in the last
# year": the past twelve months), nor a subject ("Last month was busy."), nor a possessive ("last year's").
RELATIVE_GENDERS = {"week": "f", "month": "m", "year": "n", "weekend": "n", "spring": "m", "summer": "m",
                    "autumn": "m", "fall": "m", "winter": "m", "day": "m", "morning": "m", "afternoon": "m",
                    "evening": "m", "night": "f"} | dict.fromkeys(WEEKDAYS, "m")
RELATIVE_NOUNS = {"week": "Woche", "month": "Monat", "year": "Jahr", "weekend": "Wochenende", "spring": "Frühling",
                  "summer": "Sommer", "autumn": "Herbst", "fall": "Herbst", "winter": "Winter"} | WEEKDAYS
# And "every" ("every Sunday": "jeden Sonntag", "every weekend": "jedes Wochenende"; "jedes Sonntag", "jede Wochenende"
# came back): in 24 sentences written for the check 11 came back with it as German writes it, now 24; the dictionary's
# 13 training pairs with one chrF 48.78 -> 54.89 (5 closer, 7 further: "every Sunday" is "sonntags" there too, which
# the model had learnt). Its parts of a day too ("every morning": "jeden Morgen"; "jedes Morgen" came back); not a day
# before its part, which German joins to it ("every Monday afternoon": "jeden Montagnachmittag")
DAY_PARTS = {"day": "Tag", "morning": "Morgen", "afternoon": "Nachmittag", "evening": "Abend", "night": "Nacht"}
RELATIVE_WORDS = {"last": "letzt", "next": "nächst", "this": "dies", "every": "jed"}
RELATIVE_ENDINGS = {"f": "e", "m": "en", "n": "es"}  # the accusative's
TODAYS = {"morning": "heute Morgen", "afternoon": "heute Nachmittag", "evening": "heute Abend"}  # "this morning"
# What the model writes as German does (in 4 or 5 of 5 sentences written for the check, "every" day, week, month or
# year in 3 or 4 of 4, where the others came back right in 0 to 3), which as a token it would place where English
# does ("Das neue Gesetz kommt nächstes Jahr in Kraft." came back as "... kommt in Kraft.nächstes Jahr.")
WRITTEN_WELL = {("next", "week"), ("next", "month"), ("next", "year"), ("this", "week"), ("this", "year"),
                ("every", "day"), ("every", "week"), ("every", "month"), ("every", "year")}
RELATIVE_PERIOD = re.compile(
    rf"(?<![\w-])(?P<relative>(?i:last|next|this|every))[ \xa0](?:(?P<period>{'|'.join(RELATIVE_NOUNS)})"
    rf"|(?<=[Tt]his[ \xa0])(?P<today>{'|'.join(TODAYS)})|(?<=[Ee]very[ \xa0])(?P<part>{'|'.join(DAY_PARTS)}))"
    rf"(?![\w'’-]|{APOSTROPHE})"
    r"(?![ \xa0]+(?:was|is|has|had|will|were|seemed|of|in|at|for|before|after|morning|afternoon|evening|night)\b)")
# Every so many units of time ("every 20 minutes": "alle 20 Minuten", "every two years": "alle zwei Jahre", "every few
# days": "alle paar Tage"), German's "alle" and the plural, and every other one ("every other day": "jeden zweiten
# Tag"). Read, the model wrote "jede" before a number as often ("The bus comes every 20 minutes." came back as "Der Bus
# kommt jede 20 Minuten.", "every fifteen minutes" as "jede fünfzehn Minuten"): of 18 sentences written for the check
# 9 came back with "alle" and the number, now 18; served, 2 held-out texts change, each closer. Every other or every
# second weekday too ("every other Tuesday": "jeden zweiten Dienstag", which came back as "jeden anderen Dienstag"): of
# 5 sentences written for the check none came back with it, now 5.
EVERY_OTHER = {"day": "jeden zweiten Tag", "week": "jede zweite Woche", "month": "jeden zweiten Monat",
               "year": "jedes zweite Jahr"} | {day: f"jeden zweiten {german}" for day, german in WEEKDAYS.items()}
EVERY_N = re.compile(
    rf"(?<![\w-])[Ee]very[ \xa0](?:(?P<count>\d+|{NUMBER_PLACEHOLDER}|{COUNT_IN_WORDS}|few|couple[ \xa0]of)[ \xa0]"
    rf"(?P<unit>{'|'.join(TIME_UNITS)})s|(?:other|second)[ \xa0](?P<other>{'|'.join(EVERY_OTHER)}))"
    rf"(?![\w'’-]|{APOSTROPHE})")
# An amount of time in the accusative ("two weeks": "zwei Wochen", "a week": "eine Woche", "one day": "einen Tag"), as
# a rate or a change counts it
TIME_AMOUNT = (rf"(?:(?:an?|one)[ \xa0](?P<one_unit>{'|'.join(TIME_UNITS)})"
               rf"|(?P<count>\d+|{NUMBER_PLACEHOLDER}|{COUNT_IN_WORDS})[ \xa0](?P<unit>{'|'.join(TIME_UNITS)})s)")
# So much time per day, week, month or year ("eight hours a day": "acht Stunden am Tag", "three days a week": "drei
# Tage pro Woche", as FREQUENCY writes a period). Read, the model wrote the article as a number or dropped the period
# ("The store is open twenty-four hours a day." came back as "... vierundzwanzig Stunden ein Tag geöffnet."): of 10
# sentences written for the check none came back with the rate as German writes it, now 10
TIME_RATE = re.compile(rf"(?<![\w.,-]){TIME_AMOUNT}[ \xa0](?:an?|per)[ \xa0](?P<period>day|week|month|year)"
                       rf"(?![\w'’-]|{APOSTROPHE})")
# A change by an amount of time after what delays, advances, lengthens or shortens a thing ("postponed by two weeks":
# "um zwei Wochen verschoben"): German's "um", where the model wrote "von" ("The train was delayed by twenty minutes."
# came back as "Der Zug wurde von zwanzig Minuten verzögert."): of 10 sentences written for the check none said "um",
# now 10
CHANGED_BY = re.compile(rf"(?<![\w-])[Bb]y[ \xa0]{TIME_AMOUNT}(?![\w'’-]|{APOSTROPHE}|[ \xa0]ago\b)")
CHANGE_BEFORE = re.compile(r"\b(?:postpone|delay|extend|shorten|prolong|reduce|increase|cut|move|push(?:ed)? back"
                           r"|bring forward|brought forward|advance|lengthen|put back|put off|set back)(?:s|d|ed|ing)?"
                           r"\b[^.;:!?\n]{0,30}$", re.IGNORECASE)
# A time and a half, and a quarter of an hour, German's one word ("an hour and a half": "eineinhalb Stunden", "two and
# a half years": "zweieinhalb Jahre", "a quarter of an hour": "eine Viertelstunde"), the plural's dative after a
# preposition that asks it ("in zweieinhalb Jahren"). Read, the model wrote them word by word or lost the half ("The
# film lasted an hour and a half." came back as "... eine Stunde und eine Hälfte.", "It takes two and a half hours." as
# "Es dauert zwei Stunden.", "Wait a quarter of an hour." as "Warte eine Viertel einer Stunde."): of 10 sentences
# written for the check 2 came back with the time as German writes it, now 10. Half a unit too ("half an hour": "eine
# halbe Stunde", "half a day": "einen halben Tag", "half an hour ago": "vor einer halben Stunde"), which the model lost
# or wrote "halb Tag": of 15 sentences written for the check 5 came back with it, now 14; not after "the"
HALF_COUNTS = {"a": "ein", "an": "ein"} | ONES | {word: TEENS[word] for word in ("ten", "eleven", "twelve")}
HALVES = re.compile(
    rf"(?<![\w-])(?:(?P<whole>(?i:an?|one))[ \xa0](?P<unit>{'|'.join(TIME_UNITS)})[ \xa0]and[ \xa0]a[ \xa0]half"
    rf"|(?P<count>(?i:{'|'.join(HALF_COUNTS)}))[ \xa0]and[ \xa0]a[ \xa0]half[ \xa0](?P<units>{'|'.join(TIME_UNITS)})s"
    r"|(?P<quarters>[Aa]|[Tt]hree)[ \xa0]quarters?[ \xa0]of[ \xa0]an[ \xa0]hour"
    rf"|(?<![Tt]he[ \xa0])(?P<half>[Hh]alf)[ \xa0]an?[ \xa0](?P<half_unit>{'|'.join(TIME_UNITS)})(?P<ago>[ \xa0]ago)?)"
    rf"(?![\w'’-]|{APOSTROPHE}|[ \xa0]ago\b)")
HALF = {"accusative": {"f": "halbe", "m": "halben", "n": "halbes"},
        "dative": {"f": "halben", "m": "halben", "n": "halben"}}
DATIVE_BEFORE = re.compile(r"\b(?i:in|after|within|since|before|with|from|of|to)[ \xa0]$")
# An amount in a unit of measure the model wrote wrong, German's unit after the number ("26 miles": "26 Meilen", "10
# feet": "10 Fuß", "2.5 inches": "2,5 Zoll", "twenty gallons": "zwanzig Gallonen") and without the "of" before what is
# measured ("200 grams of flour": "200 Gramm", the model's "Mehl" after it). Read, the model changed the unit or lost
# it ("The town is 10 miles from here." came back with "10 Kilometer", "The wall is 10 feet high." as "Die Wand ist 10
# hoch.", "The screen is 15 inches wide." as "... 15 in Schach breit.", "200 grams of flour" as "200 Gramms von
# Flammen", "3 tons of sand" as "3 Tannsen von Sand"): of 15 sentences written for the check 6 came back with it as
# German writes it, now 15. Not the units it writes well, whose plural's dative German marks ("von 3000 Metern":
# meters, liters, kilometers, centimeters, pounds, degrees); feet only after digits ("on his two feet"); not "of"
# before an article or a possessive ("within 5 miles of the city")
MEASURES = {"mile": ("Meile", "Meilen"), "foot": ("Fuß", "Fuß"), "inch": ("Zoll", "Zoll"), "yard": ("Yard", "Yards"),
            "ounce": ("Unze", "Unzen"), "gallon": ("Gallone", "Gallonen"), "kilogram": ("Kilogramm", "Kilogramm"),
            "gram": ("Gramm", "Gramm"), "ton": ("Tonne", "Tonnen")}
MEASURE_HINT = re.compile(r"\b(?:mile|feet|foot|inch|yard|ounce|gallon|(?:kilo)?gram(?:me)?|tonn?e?)(?:e?s)?\b")
MEASURE = re.compile(
    rf"(?<![\w.,$€£¥%-])(?P<count>{GROUPED_NUMBER.pattern}|\d+(?:\.\d+)?|{COUNT_IN_WORDS})[ \xa0]"
    r"(?P<unit>miles?|feet|foot|inch(?:es)?|yards?|ounces?|gallons?|(?:kilo)?gram(?:me)?s?|tonnes?|tons?)(?![\w'’-])"
    r"(?P<of>[ \xa0]of(?=[ \xa0](?!(?:the|an?|my|your|his|her|its|our|their|this|that|these|those|it|them)\b)[a-z]))?")
# How far a place is in minutes on foot or by car ("a 10-minute walk": "10 Gehminuten", "a five-minute drive": "fünf
# Autominuten"), German's one word. Read, the model wrote the English compound ("The hotel is a 10-minute walk from the
# station." came back as "Das Hotel ist ein 10-Minute-Seiten."): of 5 sentences written for the check none came back
# with it, now 5
WALKS = {"walk": "Gehminuten", "drive": "Autominuten", "ride": "Fahrminuten"}
WALK = re.compile(rf"(?<![\w-])(?:[Aa]n?[ \xa0])?(?P<count>\d+|{COUNT_IN_WORDS}|one)-minute[ \xa0]"
                  r"(?P<way>walk|drive|ride)(?![\w'’-])")
# A share of a whole, German's noun ("a third of the population": "ein Drittel", "two thirds of": "zwei Drittel", "half
# of the students": "die Hälfte"), before "of" and what it is a share of, which the model writes in the genitive ("der
# Bevölkerung"), in the dative after a preposition that asks it ("in a third of the cases": "in einem Drittel"). Read,
# the model wrote an ordinal or an adjective ("A third of the population lives in cities." came back as "Ein Dritter
# der Bevölkerung ...", "Half of the students passed." as "Halbe der Prüflinge ...", "One fifth of the budget" as
# "Eine fünftes Budget"): of 17 sentences written for the check 5 came back with it as German writes it, now 17. Only
# in a sentence (a text whose first letter is a capital): a headword's share is German's compound ("half of the
# brain": "Hirnhälfte", "one tenth of a second": "eine Zehntelsekunde"), which the model learnt; not a half after an
# article or a word that says which ("the first half of the year"), nor a share of a pronoun ("half of it": "davon")
FRACTION_NOUNS = {"third": "Drittel", "quarter": "Viertel", "fifth": "Fünftel", "sixth": "Sechstel",
                  "seventh": "Siebtel", "eighth": "Achtel", "ninth": "Neuntel", "tenth": "Zehntel",
                  "hundredth": "Hundertstel"}
FRACTION_HINT = re.compile(r"(?:ird|rter|fth|xth|nth|hth|dth|[Hh]alf)s? of ")  # a share's word before "of"
FRACTION = re.compile(
    rf"(?<![\w-])(?:(?P<count>(?i:an?|{'|'.join(ONES)}|ten))[ \xa0](?P<part>{'|'.join(FRACTION_NOUNS)})s?"
    r"|(?<!\b[Tt]he[ \xa0])(?<!\b[Ff]irst[ \xa0])(?<!\b[Ss]econd[ \xa0])(?<!\b[Ll]ast[ \xa0])(?<!\b[Oo]ther[ \xa0])"
    r"(?<!\b[Aa][ \xa0])(?<!\b[Oo]ne[ \xa0])(?P<half>[Hh]alf))"
    r"(?=[ \xa0]of[ \xa0](?:the|all|an?|its|his|her|their|our|my|your|this|that|these|those|[A-Z0-9])\b)")
# A stretch of time next to now, after "over" or "during", or "in" before one unit ("over the past five years": "in den
# vergangenen fünf Jahren", "during the last three months": "in den letzten drei Monaten", "in the last decade": "im
# letzten Jahrzehnt", "in the past year": "im vergangenen Jahr"): German's "in" and the dative. Read, the model wrote
# the accusative, another preposition or the article's gender ("Prices have risen over the past five years." came back
# as "... die letzten fünf Jahre ...", "Sales increased during the last three months." as "... bei den letzten drei
# Monaten ...", "The company has grown in the last decade." as "... in der letzten Jahren ..."): of 8 sentences written
# for the check 3 came back with it as German writes it, now 8. Not "in" before a count ("in the next two weeks"), which
# the model wrote well in 7 of 9 sentences written for the check and, as a token, where English puts it ("Die
# Bevölkerung hat verdoppelt in den letzten zehn Jahren.")
LAST_N_WORDS = {"last": "letzt", "past": "vergangen", "previous": "vorherig", "next": "nächst", "coming": "kommend",
                "following": "folgend"}
LAST_N = re.compile(
    rf"(?<![\w-])(?P<in>[Ii]n|[Oo]ver|[Dd]uring)[ \xa0]the[ \xa0](?P<which>{'|'.join(LAST_N_WORDS)})[ \xa0]"
    rf"(?:(?P<count>\d+|{COUNT_IN_WORDS}|few|couple[ \xa0]of)[ \xa0](?P<units>{'|'.join(TIME_UNITS)})s"
    rf"|(?P<units_alone>{'|'.join(TIME_UNITS)})s|(?P<unit>{'|'.join(TIME_UNITS)}))(?![\w'’-]|{APOSTROPHE})")
# A decade ("in the 1980s": "in den 1980er Jahren", "since the 90s": "seit den 90er Jahren", "in the sixties": "in den
# sechziger Jahren", "in the early 2000s": "Anfang der 2000er Jahre", "the 1920s": "die 1920er Jahre"), with the
# preposition before it that says its case. Read, the model lost it or wrote another number ("The band was popular in
# the 1980s." came back as "Die Band war 1980er Beliebt.", "In the early 2000s, the internet changed everything." as
# "In den frühen Morgen 2000 ...", "The song was a hit in the sixties." as "... in den sechsten Jahren ..."): of 8
# sentences written for the check none came back with it as German writes it, now 8, and of 10 more 2, now 10. Not a
# temperature's or a score's tens ("Top temperatures will be in the mid-20s.")
DECADE_RELATIONS = {"": "die", "in": "in den", "during": "in den", "from": "aus den", "since": "seit den",
                    "until": "bis in die", "till": "bis in die", "of": "der"}
DECADE_PART_BOUNDS = {"": "", "during": ""} | PART_BOUNDS  # a part of a decade's, as a month's ("seit Anfang der")
DECADE_HINT = re.compile(rf"\d0s\b|{DECADES}\b")  # (not "properties")
MEASURED_BEFORE = re.compile(r"(?i:temperature|degree|°|score|percent|%)[^.!?;]*$")
DECADE = re.compile(
    rf"(?<![\w-])(?:(?P<relation>(?i:{'|'.join(relation for relation in DECADE_RELATIONS if relation)}))[ \xa0])?"
    r"(?P<the>[Tt]he)[ \xa0](?:(?P<part>early|late|mid(?:dle)?)(?:[ \xa0]|(?<=mid)-))?"
    rf"(?P<decade>(?:1[89]|20)?\d0s|['’]\d0s|{'|'.join(DECADE_WORDS)})(?![\w'’-])")
# An age after "the age of" ("at the age of five": "im Alter von fünf Jahren", "under the age of 12": "unter 12 Jahren",
# "from the age of ten": "ab zehn Jahren"), as German says it with the preposition before it. Read, the model wrote
# "am" or "bei der" and dropped "Jahren" ("She retired at the age of 65." came back as "Sie reagierte am Alter von
# 65.", "At the age of 18, he moved to London." as "Bei der Alter von 18 ..."): of 13 sentences written for the check
# 3 came back with it as German says it, now 13
AGE_RELATIONS = {"at": "im Alter von", "under": "unter", "below": "unter", "over": "über", "above": "über",
                 "from": "ab", "by": "mit", "until": "bis zum Alter von", "till": "bis zum Alter von"}
AGE = re.compile(
    rf"(?<![\w-])(?P<relation>(?i:{'|'.join(AGE_RELATIONS)}))[ \xa0]the[ \xa0]age[ \xa0]of[ \xa0]"
    rf"(?P<count>\d{{1,3}}|{COUNT_IN_WORDS}|one)(?:[ \xa0]years(?:[ \xa0]old)?)?(?![\w'’-]|[.,]\d)")
# What leaves a RELATIVE_PERIOD to the model: a preposition or an article before it
CASE_BEFORE = re.compile(r"\b(?i:the|a|an|its|his|her|their|our|my|your|since|until|till|from|of|in|by|during|before"
                         r"|after|to|at|with|for|on|over|around|about|through|throughout|between|under|within|than|as"
                         r"|per|via|upon|into|except|like)[ \xa0]$")
# How long a thing has gone on, "for" a time after a perfect's continuous form ("has been working for ten years",
# "have been waiting for two hours") or one of a state ("have lived", "has known", "has worked"): German's "seit" and
# the dative ("seit zehn Jahren"). Read, the model wrote "für" and the accusative or dropped it ("She has been working
# at the hospital for ten years." came back as "Sie arbeitete im Krankenhaus für zehn Jahre.", "We have been driving
# for six hours." as "Wir fahren sechs Stunden."): of 10 sentences written for the check 2 said "seit", now 10; the
# dictionary's 7 pairs with one chrF 46.91 -> 51.39, BLEU 22.66 -> 27.79 (5 change, 3 closer, 2 further). Not where
# nothing goes on ("booked a room for two nights", "postponed for two weeks").
ONGOING_FOR = re.compile(rf"(?<![\w-])for[ \xa0]{QUALIFIED}(?:{TIME_SPAN})(?![\w'’-]|{APOSTROPHE}"
                         r"|[ \xa0]and[ \xa0]a[ \xa0]half)")  # (HALVES')
# What comes before an ONGOING_FOR in its clause. A state after "been" goes on too ("have been married for twenty
# years": "seit zwanzig Jahren", which came back as "für zwanzig Jahre", "has been a member for five years", "has been
# closed for two weeks"; not "been to Paris", a visit, nor a passive's "been postponed for two weeks"), and so does
# what one has had, owned, used, studied, taught or played ("has had this car for ten years"): of 12 sentences written
# for the check 6 came back with "seit", now 12
ONGOING_STATES = ("married", "together", "friends", "here", "there", "away", "open", "closed", "empty", "ill", "sick",
                  "dead", "missing", "single", "unemployed", "retired", "engaged", "divorced", "abroad", "alone",
                  "online", "offline", "available", "vegetarian", "vegan", "an?", "the", "in", "at", "with", "on",
                  "out", "under", "part", "members?")
ONGOING = re.compile(rf"(?:\b(?:has|have|had)|{APOSTROPHE}(?:s|ve|d))(?:[ \xa0]not)?[ \xa0]"
                     rf"(?:been[ \xa0](?:[a-z]+ing|{'|'.join(ONGOING_STATES)})|lived|known|worked|had|owned|used"
                     r"|studied|taught|played)\b[^.;:!?\n]{0,40}$")
# A change by a share ("rose by 50 percent": "um 50 Prozent", "reduced by 15%": "um 15%"): German's "um". Read, the
# model wrote "von" or "durch" ("Prices rose by 50 percent." came back as "Die Preiserose von 50 Prozent.", "The
# price was lowered by 25%." as "Der Preis wurde von 25% abgeschieden."): of 10 sentences written for the check none
# said "um", now 10; the dictionary's 12 pairs with one chrF 44.20 -> 49.60, BLEU 10.85 -> 25.93 (10 closer, 2
# further); no held-out text has one. Not a share of a whole ("used by 60% of users": "von").
PERCENT_CHANGE = re.compile(r"(?<![\w-])(?P<by>[Bb]y)[ \xa0](?P<share>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)"
                            r"(?P<space>[ \xa0]?)"
                            r"(?P<unit>percent|per[ \xa0]cent|%)(?![\w%])(?![ \xa0]+of\b)")
# A century ("in the 19th century": "im 19. Jahrhundert", "of the 16th century": "des 16. Jahrhunderts", "in the
# late 19th century": "im späten 19. Jahrhundert", "the 5th century BC": "das 5. Jahrhundert vor Christus"), with the
# preposition before it that says its case; without one, only where no other preposition comes before it ("dates back
# to the 12th century" is the model's). Read, the model lost or changed the number ("nineteenth" came back as
# "neunten", "thirteenth" as "dreiten") or the case ("in der 20. Jahrhundert", "seit der 14. Jahrhundert", "im Früh
# 19."): of 20 sentences written for the check 5 came back with their century as German writes it, now 20; the
# dictionary's 25 pairs with one chrF 57.33 -> 59.50, BLEU 32.11 -> 34.96 (8 change, 5 closer, 3 further: the model
# moved or lost a word beside the token, "first mentioned in records in the 13th century": "zuerst im Datensätze im 13.
# Jahrhundert erwähnt"); none of the 13,193 served held-out texts has one. Not "the 19th-century novel" (an adjective
# German writes otherwise).
# German's ordinal stems, before the ending the article asks ("fifteenth": "fünfzehnt", "twenty-first":
# "einundzwanzigst"), first to ninety-ninth in order, then "hundredth" and "thousandth"
ORDINAL_STEMS = dict(zip(FIRST_ORDINALS,
                         ["erst", "zweit", "dritt", "viert", "fünft", "sechst", "siebt", "acht", "neunt"]))
ORDINAL_STEMS |= {"tenth": "zehnt", "eleventh": "elft", "twelfth": "zwölft"} | {
    f"{teen}th": f"{german}t" for teen, german in TEENS.items() if teen not in ("ten", "eleven", "twelve")}
for tens, german in TENS.items():
    ORDINAL_STEMS[f"{tens[:-1]}ieth"] = f"{german}st"
    ORDINAL_STEMS |= {f"{tens}-{ordinal}": f"{ones}und{german}st"
                      for ordinal, ones in zip(FIRST_ORDINALS, ONES.values())}
ORDINAL_STEMS |= {"hundredth": "hundertst", "thousandth": "tausendst"}
# A century's ordinal in words stays one in German's words ("the twentieth century": "das zwanzigste Jahrhundert", as
# the dictionary's references write it): first to twenty-second
CENTURY_ORDINALS = dict(list(ORDINAL_STEMS.items())[:22])
# The German before a century after each preposition: its article (and whether it takes the genitive), and before
# "Mitte" ("in the mid-16th century": "Mitte des 16. Jahrhunderts")
CENTURY_RELATIONS = {"": ("das", False, "die Mitte"), "in": ("im", False, "Mitte"),
                     "from": ("aus dem", False, "aus der Mitte"), "since": ("seit dem", False, "seit Mitte"),
                     "until": ("bis zum", False, "bis Mitte"), "till": ("bis zum", False, "bis Mitte"),
                     "by": ("bis zum", False, "bis Mitte"),
                     "of": ("des", True, "der Mitte"), "during": ("während des", True, "während der Mitte"),
                     "into": ("ins", False, "bis in die Mitte"), "before": ("vor dem", False, "vor Mitte"),
                     "after": ("nach dem", False, "nach Mitte")}
# An era in words: its abbreviation's full stop, a sentence's last, came back doubled ("v. Chr..")
CENTURY_ERAS = {"BC": "vor Christus", "B.C.": "vor Christus", "BCE": "vor Christus", "AD": "nach Christus",
                "A.D.": "nach Christus", "CE": "nach Christus"}
CENTURY = re.compile(
    rf"(?<![\w-])(?:(?P<relation>(?i:{'|'.join(relation for relation in CENTURY_RELATIONS if relation)}))[ \xa0])?"
    rf"(?P<the>[Tt]he)[ \xa0](?:(?P<part>early|late|mid|middle)(?:[ \xa0]|-(?=\d|(?i:[a-z]+th\b))))?"
    rf"(?P<ordinal>(?:[1-9]|1\d|2[0-2])(?:st|nd|rd|th)|(?i:{'|'.join(sorted(CENTURY_ORDINALS, key=len)[::-1])}))"
    rf"[ \xa0]century(?![\w'’-]|{APOSTROPHE})(?:[ \xa0](?P<era>BC|B\.C\.|BCE|AD|A\.D\.|CE)(?!\w))?")
# A preposition before "the" that leaves a century's case to the model ("to", "at", "with")
PREPOSITION_BEFORE = re.compile(r"\b(?i:to|at|with|for|on|over|around|about|through|throughout|between|under|across|"
                                r"within|without|beyond|towards?|against|like|than|as|per|via|upon)[ \xa0]$")

# An ordinal before a noun, in words from "fourth" on or in digits ("on the fifteenth floor", "her thirtieth birthday",
# "every fifth person", "the 4th floor"), is read as "second", whose German ending the model writes after the article
# and case ("im zweiten Stock", "ihr zweiter Geburtstag", "jede zweite Person"), and its stem goes back ("im
# fünfzehnten Stock"), or its digits and a dot ("im 4. Stock"). Read as it is, the model lost or changed the number
# ("auf dem Elfenboden", "Der Achtelkapitel", "am fünften Boden" for the fifteenth, "seine Neunnetietag") or the noun
# after digits ("She lives on the 15th floor." came back as "Sie lebt am 15."); it writes "first" to "third" itself
# ("mein erster Besuch", "im zweiten Stock"). Of 35 sentences written for the check with one in words 14 came back with
# its number, now 35. Only after an article, a possessive or "in" and before a word in small letters ("the fifth
# largest city": "die fünftgrößte Stadt"); not a fraction ("a fifth of"), a list ("the fourth and fifth"), a century
# (CENTURY's, or an adjective's: "a 18th century mansion"), an idiom the model learnt ("the eleventh hour": "in
# allerletzter Minute"), a name in capitals ("Fifth Avenue"), nor a segment that says "second" itself.
ORDINAL_BEFORE_NOUN = re.compile(
    r"(?<![\w-])(?i:the|an?|my|your|his|her|its|our|their|this|that|every|each|in)[ \xa0]"
    rf"(?P<ordinal>{'|'.join(sorted(list(ORDINAL_STEMS)[3:], key=len, reverse=True))}|[1-9]\d{{0,3}}(?:st|nd|rd|th))"
    r"(?=[ \xa0](?!(?:of|and|or|to|through|from|in|on|at|by|for|with|than|as|century)\b)[a-z])")
ORDINAL_HINT = re.compile(r"(?:[rfxnhde]th|\d(?:st|nd|rd|th)|y-(?:first|second|third)) ")  # (not "with", "both")
ORDINAL_IDIOMS = {"eleventh hour", "seventh heaven", "sixth sense", "fifth wheel", "fifth column", "fourth estate"}
STAND_IN_ORDINAL = re.compile(r"\bsecond\b", re.I)
# The stand-in's German: "zweiten", "Zweiter", "zweitgrößte"; not "zweitens"
GERMAN_STAND_IN_ORDINAL = re.compile(r"\b([Zz])weit(?!ens\b)(?P<ending>e[mnrs]?\b)?")


def _ordinal_read(segment: str) -> tuple[str, str]:
    """The segment with its one ordinal before a noun (ORDINAL_BEFORE_NOUN) read as "second", and the ordinal's
    German stem ("")."""
    found = [ordinal for ordinal in ORDINAL_BEFORE_NOUN.finditer(segment)
             if not any(segment.startswith(idiom, ordinal.start("ordinal")) for idiom in ORDINAL_IDIOMS)]
    if len(found) != 1 or STAND_IN_ORDINAL.search(segment):
        return segment, ""
    ordinal = found[0]
    english = ordinal["ordinal"]
    stem = f"{english[:-2]}." if english[0].isdigit() else ORDINAL_STEMS[english]
    return segment[:ordinal.start("ordinal")] + "second" + segment[ordinal.end():], stem


def _ordinal_written(translation: str, stem: str) -> str:
    """The translation with the ordinal's German stem in place of the stand-in's ("im zweiten Stock": "im fünfzehnten
    Stock")."""
    if stem.endswith("."):  # in digits: no ending ("im 15. Stock"), a hyphen before a word ("die 15.-größte")
        return GERMAN_STAND_IN_ORDINAL.sub(lambda zweit: stem if zweit["ending"] else stem + "-", translation)
    return GERMAN_STAND_IN_ORDINAL.sub(lambda zweit: _capitalized(stem, zweit[1] == "Z") + (zweit["ending"] or ""),
                                       translation)


# A word that bounds or rounds a number ("Up to 5 users can join.", "at most %d", "about 10 minutes", "Less than 1
# minute"): German's "bis zu", "höchstens", "etwa", "weniger als", which the model wrote word by word or broke ("Auf 5
# Benutzer können betreten.", "am meisten XX1X Zeiten", "über 10 Minuten", "Lädt als 1 Minute"): of the 1,006,103
# held-out and training texts with one, its translation had the reference's word for "about" in 3 of 29,
# "approximately" 1 of 15, "at most" 31 of 49. Not "at least" and "more than", which it wrote well (179 of 180, 123 of
# 127; as an item "more than" came out worse, chrF 55.00 -> 54.44 on the 46 texts it changed); "less than" only before
# a count of something ("less than 5 minutes"), which German's "weniger als" is, not before a bare value ("less than
# 0": "kleiner als"). The number after it goes into its item in German too ("nearly 90,000": "fast 90.000"). Of the
# held-out and training texts 178 changed, chrF 55.19 -> 57.37, BLEU 29.65 -> 32.99 (fp32; 137 translations changed,
# 73 closer to the reference, 62 further: "This hiking trail is well signposted" came back as "... gut signiert").
QUANTIFIERS = {"up to": "bis zu", "at most": "höchstens", "no more than": "höchstens", "fewer than": "weniger als"
               } | ROUNDING_WORDS
QUANTIFIER_WORDS = "|".join(word.replace(" ", "[ \xa0]") for word in QUANTIFIERS)
NUMBER_AFTER = rf"[ \xa0](?:[$€£¥]?\d|{NUMBER_PLACEHOLDER}|(?:{COUNT_IN_WORDS})(?![\w'’-]))"  # "about fifty"
QUANTIFIER = re.compile(rf"(?=[uUaAnNfFrRlL])(?<![\w.'’-])(?P<quantifier>(?i:{QUANTIFIER_WORDS}))"
                        rf"(?={NUMBER_AFTER}|[ \xa0](?:{SPOKEN_HOUR_WORD}|[Hh]alf|(?:[Aa] )?[Qq]uarter"
                        rf"|(?:an?|one|two|three)[ \xa0](?:{'|'.join(FRACTION_NOUNS)})s?\b))")
A_NUMBER_AFTER = re.compile(NUMBER_AFTER)
# "Around" and "about" name a topic or a place as often, "less than" compares a value: each only before a number and
# a word ("about 20 minutes", not "About 2048", a game's name) or a placeholder and a unit ("About %d minutes", not
# "Information about %s"), not after a word a topic follows ("Learn about 3 new features") or one that says what a
# thing is around ("built around four modules"); before a time of day "gegen" ("around 11 a.m.": "gegen 11 Uhr"). A
# number in words too ("About fifty people attended." came back as "Über fünften Leute ...", "Around twenty houses
# were damaged." as "Die Reihenhäuser ..."): of 20 sentences written for the check 3 came back with the word and the
# number as German writes them, now 19
ROUNDED_NUMBER = re.compile(rf"[ \xa0](?:[$€£¥]\d|(?:\d+(?:[.,]\d+)*|{COUNT_IN_WORDS})(?:[ \xa0][^\W\d_]|{UNITS})"
                            rf"|(?:{NUMBER_PLACEHOLDER})[ \xa0]?(?:{UNITS}|left\b|remaining\b))")
TOPIC_BEFORE = re.compile(r"\b(?:info(?:rmation)?|details?|more|news|questions?|books?|articles?|stor(?:y|ies)"
                          r"|(?:learn|know|talk|think|read|ask|hear|care|worr(?:y|ie)|forget|complain|warn|say|tell"
                          r"|speak|joke|dream|writ(?:e|ten)|wrote)(?:s|ed|ing)?|what|how|all|something|anything"
                          r"|nothing|everything|parenthes[ie]s|brackets?|quotes?|rotat(?:e|es|ed|ing)"
                          # what "around" a thing is ("built around four modules")
                          r"|build(?:s|ing)?|built|cent(?:er|re)d?|based|designed|organi[sz]ed|wrapped"
                          r"|revolv(?:e|es|ed|ing)|structured|arranged|grouped)"
                          r"(?:[ \xa0](?:me|us|him|her|them|you))?[ \xa0]$", re.IGNORECASE)  # "Tell me about"
# And "up to" not after a verb "up" goes with ("add up to 100", "round up to 2 decimals", "scroll up to line 5")
VERB_BEFORE_UP = re.compile(r"\b(?:(?:add|sum|count|round|scroll|speed|zoom|jump|level|step|total|ramp|climb"
                            r"|catch|match|stack|sign|fill|warm|heat|back|look|bump|end|turn|roll|build|cool)"
                            r"(?:s|es|ed|ing|med|ped|led)?|(?:mov|scal|edg|ris|pil|com)(?:e|es|ed|ing)|go|goes|going"
                            r"|went|gone|came|rose|caught|built)(?:[ \xa0](?:it|them|this|that|these|all))?[ \xa0]$",
                            re.IGNORECASE)  # "round it up to 2 digits"
# How often ("once a day", "twice a week", "3 times per month"): German's "einmal am Tag", "zweimal pro Woche", "3-mal
# im Monat", which the model wrote word by word ("Check once a week" as "... einmal eine Woche", "twice a day" as
# "zweimal ein Tag", "The club assembles once a month." as "Der Club sammelt einmal einen Monat."). Of the 1,006,103
# held-out and training texts 42 changed, chrF 45.23 -> 46.98, BLEU 16.65 -> 21.60 (fp32; 34 translations changed, 19
# closer to the reference, 15 further, most of them its wording: "once a week" as "einmal pro Woche", the reference's
# "einmal in der Woche"). A count of times alone too ("Retry 3 times before giving up." came back as "3 Zeiten vor dem
# Abbruch."), as "3 Mal", "dreimal"; not "once" (a conjunction as often), a multiple ("10 times the dose": "10-fache"),
# a product ("2 times 3") nor "times over": of the held-out and training texts with one, 77, 58 translations changed,
# chrF 46.22 -> 48.11, BLEU 20.10 -> 22.83 (43 closer to the reference, 15 further; as "3-mal", 48.06 and 20.47).
FREQUENCY_UNITS = {"second": "pro Sekunde", "minute": "pro Minute", "hour": "pro Stunde", "day": "am Tag",
                   "week": "pro Woche", "month": "im Monat", "year": "im Jahr"}
FREQUENCY_COUNTS = {"once": "einmal", "twice": "zweimal", "three times": "dreimal", "four times": "viermal",
                    "five times": "fünfmal", "ten times": "zehnmal"}
FREQUENCY = re.compile(rf"(?<![\w.,'’-])(?P<count>(?i:{'|'.join(FREQUENCY_COUNTS)})"
                       rf"|(?P<number>{GROUPED_NUMBER.pattern}|\d+|{NUMBER_PLACEHOLDER})"
                       rf"[ \xa0]times)(?:[ \xa0](?P<per>an?|per)[ \xa0](?P<unit>{'|'.join(FREQUENCY_UNITS)})"
                       r"(?![\w'’-])"
                       rf"|(?<=times)(?![\w'’-]|[ \xa0](?:(?:the|an?|per|over)\b|\d|{NUMBER_PLACEHOLDER})))")
# The how-manieth time ("for the fourth time": "zum vierten Mal", "for the last time": "zum letzten Mal", "for the
# 3rd time": "zum 3. Mal", "the fourth time": "das vierte Mal"): read, the model wrote it word by word ("He tried for
# the fifth time." came back as "Er versuchte für die fünfte Zeit.", "I saw the ocean for the first time." as "... den
# ersten Zeitpunkt des Meers ...", "This is the fourth time I have called." as "Das ist das Vierteltakt, ..."): of 7
# sentences written for the check with "for" 1 came back with it as German writes it, now 7, and of 10 more 0, now 10.
# Not after another preposition ("since the first time", whose case the model chooses)
ORDINAL_TIME = re.compile(
    rf"(?<![\w-])(?:(?P<for>[Ff]or)[ \xa0])?[Tt]he[ \xa0]"
    rf"(?P<ordinal>{'|'.join(sorted(ORDINAL_STEMS, key=len, reverse=True))}|last|final|next|[1-9]\d*(?:st|nd|rd|th))"
    r"[ \xa0]time(?![\w'’-])")
ORDINAL_TIME_WORDS = {"last": "letzt", "final": "letzt", "next": "nächst"}
# A comparison of equals ("as old as", "twice as big as", "as many threads as", "as short as possible"): German's "so
# alt wie", "doppelt so groß wie", "so viele Threads wie", "so kurz wie möglich". Read, the model wrote "as" as "als"
# or dropped it ("He is not as tall as his father." came back as "Er ist nicht so groß als sein Vater.", "Keep the
# text as short as possible." as "Den Text als kurzes möglich.", "twice as old as" as "zweimal alt wie"); two forms
# stand for its words, the one before the word compared and the one after it, and the model writes the word between
# them ("as fierce as ever": "so ... wie immer"). Only a word that describes (an adjective or an adverb the dictionary
# has: not "Log in as root as described"), not an idiom's ("as well as": "sowie", "as soon as": "sobald", "as far as",
# "as long as") but before "possible" or after a multiple ("as far as possible", "twice as long as"), nor a
# participle's ("regarded as"), nor before a number, where "as many as" bounds it ("as many as 100 people": "bis zu
# 100")
EQUATIVE_MULTIPLES = {"twice": "doppelt", "half": "halb"}
EQUATIVE_QUANTITIES = {"many": "viele", "much": "viel", "few": "wenige", "little": "wenig"}
EQUATIVE_ENDS = {"possible": "wie möglich", "ever": "wie immer", "always": "wie immer"}
EQUATIVE = re.compile(
    rf"(?<![\w'’-])(?:(?P<multiple>(?i:{'|'.join(EQUATIVE_MULTIPLES)}))[ \xa0]"
    rf"|(?P<times>[1-9]\d*|{COUNT_IN_WORDS})[ \xa0]times[ \xa0]|(?P<just>(?i:just))[ \xa0])?(?P<as>(?i:as))[ \xa0]"
    rf"(?:(?P<quantity>{'|'.join(EQUATIVE_QUANTITIES)})[ \xa0](?:(?P<noun>[a-z]+)[ \xa0])?|(?P<word>[a-z]+)[ \xa0])"
    rf"(?P<closer>as(?:[ \xa0](?P<end>{'|'.join(EQUATIVE_ENDS)}))?)(?![\w'’-])")
# A comparison's item as the source writes it (its English): the words before the word compared ("twice as", "as
# many") and after it ("as", "as possible")
COMPARISON_ITEM = re.compile(rf"(?:.+[ \xa0])?(?i:as)(?:[ \xa0](?:{'|'.join(EQUATIVE_QUANTITIES | EQUATIVE_ENDS)}))?")
# A word compared that keeps its "e" ("doppelt so lange wie": of time; "lang" is a word too)
ENDS_IN_E = {"lange"}
# An idiom's word ("as soon as": "sobald"), compared only after a multiple or before "possible"; before "possible",
# "soon" and "long" are one form with it, which the model wrote otherwise ("as soon as possible": "so, bald wie
# möglich", "so früher wie möglich"; "as long as possible": "so lang wie möglich")
EQUATIVE_IDIOMS = {"well", "soon", "far", "long"}
AS_POSSIBLE = {"soon": "so bald wie möglich", "long": "so lange wie möglich"}
NOT_COMPARED = {"a", "an", "the", "it", "is", "to", "of", "in", "on", "for", "if", "and", "or", "such", "yet", "usual",
                "follows", "ever", "per"}
WELL_AFTER = re.compile(r"[ \xa0]well\b")
PREPOSITION_BEFORE_THE = re.compile(r"\b(?i:since|after|before|from|until|till|at|on|in|by|during|like|than|of|to|with"
                                    r"|about|into|over|under|between)[ \xa0]$")
# Idioms German says in other words, anywhere in a sentence ("written from scratch": "von Grund auf", "in real time":
# "in Echtzeit", "available free of charge": "kostenlos"): read, the model wrote them word by word or lost them ("The
# game was written from scratch." came back as "Das Spiel wurde von der Kratz abgestopft.", "Some formats (for instance
# PNG)" as "(für Instanz PNG)", "The configuration is as follows." as "Die Konfiguration kommt."). Not before a word
# it describes ("in particular subjects": "in bestimmten Fächern", "free of charge delivery", "for instance
# variables"), but as an aside (after a bracket, a comma, a dash or "as") or before a mark, a function word or a name
# ("in particular for beginners", "in particular German"); not before a verb, after the noun it singles out
# ("nftables in particular are used", where a name before it would keep it English, one item with it)
IDIOMS = {"from scratch": "von Grund auf", "in real time": "in Echtzeit", "in particular": "insbesondere",
          "for instance": "zum Beispiel", "most of the time": "meistens", "free of charge": "kostenlos",
          "until further notice": "bis auf Weiteres", "as follows": "wie folgt"}
IDIOM = re.compile(rf"(?<![\w'’-])(?P<idiom>(?i:{'|'.join(IDIOMS)}))(?![\w'’-])".replace(" ", "[ \xa0]"))
IDIOM_HINT = re.compile("scratch|real time|articular|instance|of the time|of charge|further notice|follows")
ASIDE_BEFORE = re.compile(r"(?:[(,–—-]|\bas)[ \xa0]*$")
IDIOM_ENDS = re.compile(r"[ \xa0]*(?:[^\w \xa0]|$)|[ \xa0]+(?:[A-Z]|(?:for|to|if|when|the|a|an|in|on|at|with|by|as"
                        r"|because|since|from|of|that|this|these|those|where|and|or|but|its|their|his|her|our|your"
                        r"|my)\b)")
# A range of numbers ("8 to 64 characters", "from 1 to 100", "-5°C to +3°C"): the model wrote its "to" as "an",
# "auf", "nach" ("Enter a value from 1 to 100." came back as "... von 1 an 100 ein.", "It takes 2 to 3 weeks." as "Es
# nimmt 2 auf 3 Wochen."); the references write "bis" (199 of 269 held-out and training texts with a number, "to" and
# a number; "und" 27, "auf" 8). A quantity that changes from one to the other ("Reduce the size from 10 MB to 5 MB",
# "rose from 5 to 7") goes "von ... auf" (CHANGED). Not a score, a ratio or a sum ("won 3 to 1", "a ratio of 16 to
# 9", "add 2 to 3", "1 to 1"), nor days before a month's name ("from 6 to 7 May": DATES).
# Of the 255 held-out and training texts with one, 109 translations change: chrF 56.16 -> 57.30, BLEU 34.67 -> 37.71
# (68 closer to the reference, 40 further, mostly by another word of the sentence: "Addition: 0 to 5" came back as
# "Erweiterung: 0 bis 5").
RANGE_UNIT = r"%|°[CF]?|[KMGTP]i?B|kB|[kcm]?m|kg|g|px|pt|ms|s|h|min"
NUMBER_RANGE = re.compile(rf"(?<![\w.,:/$€£¥%-])(?:(?P<from_word>[Ff]rom)[ \xa0])?(?P<low>[-+−]?\d+(?:[.,]\d+)*)"
                          rf"(?:[ \xa0]?(?:{RANGE_UNIT}))?[ \xa0]to[ \xa0](?P<high>[-+−]?\d+(?:[.,]\d+)*)"
                          rf"(?![\w:/]|[.,]\d|[ \xa0](?:{'|'.join(MONTHS)})\b)")  # days of a month: DATES
NOT_A_RANGE = re.compile(r"\b(?:ratio|odds|scores?|scored|won|wins?|lost|loses?|beat|beats|led|leads?|adds?|added|"
                         r"adding|multipl\w*|divid\w*|maps?|mapped|mapping|convert\w*|compar\w*)\b[^.!?]{0,30}$",
                         re.IGNORECASE)
CHANGED = re.compile(r"\b(?:(?:increas|decreas|reduc|rais|chang|upgrad|updat|mov|resiz)(?:e[ds]?|ing)|rose|risen|"
                     r"rising|fell|fallen|falling|dropped|grew|grown|growing|shr[au]nk|extended|expanded|lowered|"
                     r"boosted|jumped|went)(?: [a-z]+){0,3} $", re.IGNORECASE)
# A duration's number glued to its unit after a word that takes one ("Retrying in 5s...", "every 2h", "within 10min";
# not "the 1980s", "in the 30s", "for 1000s", "in 24h format"): read, the model lost the unit ("Retrying in 5s..."
# came back as "Erneut in 5...", "Show add confirmation text for 5s" as "Hinzufügen-Text für 5"); German writes it in
# words ("für 5 Sekunden anzeigen"). Of the 154 held-out and training texts with a number glued to a unit, 5 change:
# chrF 58.14 -> 58.67, BLEU 38.04 -> 38.35 (4 closer). Other units stay the model's: catalogs keep "32MB", "2.5mm" as
# written, and the model did in 146 of those 147 texts (as items, "200ml" lost its compound: chrF 58.76, BLEU 37.96).
GLUED_TIMES = {"s": ("Sekunde", "Sekunden"), "h": ("Stunde", "Stunden"), "min": ("Minute", "Minuten")}
GLUED_DURATION = re.compile(r"(?:(?<=\bin )|(?<=\bfor )|(?<=\bafter )|(?<=\bevery )|(?<=\bwithin )|(?<=\beach ))"
                            r"(?P<count>\d{1,3})(?P<unit>s|h|min)(?![\w'’-]|[ \xa0](?:format|clock|mode)\b)")
# After a time's "p.m.", whose dot is else the sentence's: a word in small letters, a mark, a closing bracket ("(8 a.m.
# to 6 p.m.)." came back as "(8 Uhr bis 18 Uhr.).")
SENTENCE_GOES_ON = re.compile(r"[ \xa0]*[a-z0-9,;:–—-]|[)\]]")
# What each form but a day holds besides a digit: a digit before "am"/"pm" or "o'clock", hours and minutes, a month,
# a slash between digits, a currency sign, a year after a space (a month without a year: MONTH_NAME), millions, a
# number's abbreviation (ABBREVIATION).
FORM_HINT = re.compile(rf"\d[ \xa0]?(?:[AaPp]\.?[Mm]|o{APOSTROPHE}c)"
                       rf"|\b(?:{'|'.join(sorted({name[:3] for name in MONTHS}))})"
                       r"|\d:[0-5]\d|\d/\d|[$€£¥][ \xa0]?\d|[ \xa0](?:1\d|20)\d\d(?!\d)"
                       r"|\d[ \xa0]?(?:[mbt]r?illion|bn\b)|[ogp]\.[ \xa0]?\d"
                       r"|\d(?:s|h|min)\b")
# What else an item of forms or labels may hold: marks but a code span's, numbers and tags ("'12 May 1690'", "3rd
# April 33 A.D." with its year an item of its own, "**on Friday** at 5 p.m.", "_on Friday_", "<b>on Friday</b>", a
# path's " > " and " &#8594; ", a reference); no word in small letters, which may be code's.
BESIDE_FORMS = re.compile(rf"(?:[^\w`\\<]|_|{NUMBER}|{TAG_PATTERN}|{REFERENCE})*")
# And the items a form's item was merged with (`runs_merged`): a name before it ("visited Berlin on Tuesday", "founded
# Microsoft in 1975", "Call Anna on Friday", "Reply to O'Brien on Friday") or a placeholder ("Meeting with %s on
# Friday", "{event} at 5 p.m."), which the model read as one token with it, and which left the form English ("besuchte
# Berlin on Tuesday"). Each is kept as written; they stand for a space in what BESIDE_FORMS checks. Not code (a code
# span, a code element).
MERGED_WITH_FORMS = re.compile("|".join(f"(?:{p})" for p in (
    rf"(?<![\w'’.+-])(?:{APOSTROPHE_NAME.pattern})?[A-Z][^\W_]*(?:{APOSTROPHE}s)?(?![\w+-]|['’]n['’])",
    *PLACEHOLDERS[CODE:])), re.DOTALL)


# German forms' patterns, in the order they are tried (the first of overlapping forms wins), each with what every one
# of its matches holds (None: not worth a hint). A text with a hint for one of them was searched for all: "She has been
# working at the hospital for ten years." took 81 µs, now 39; the load's 32 sentences 26 µs each, now 17 (the same
# forms in 13,083 held-out texts)
HAS_DIGIT = re.compile(r"\d")
FORM_PATTERNS: tuple[tuple[re.Pattern, re.Pattern | None], ...] = (
    (CLOCK_TIME, HAS_DIGIT), (DIGITAL_TIME, re.compile(":")), (NOON_OR_MIDNIGHT, re.compile("noon|mid(?:day|night)")),
    (SPOKEN_TIME, re.compile(r"clock|past|[Qq]uarter|(?i:five|ten|twenty)[ \xa0]to[ \xa0]|the (?:mor|aft|eve)"
                             rf"|at night|{AT_AN_HOUR.pattern}")),
    *((date, re.compile("|".join(sorted({name[:3] for name in MONTHS})))) for date in DATES),
    (SLASH_DATE, re.compile("/")), (ISO_DATE, re.compile("-")), (NAMED_PLACEHOLDER, re.compile(r"[{%$]")),
    (AMOUNT_RATE, re.compile(" (?:an?|per) ")), (AMOUNT, re.compile("[$€£¥]")),
    (SCALED_AMOUNT, re.compile("illion|bn")), (WEEKDAY, re.compile("day")),
    (WEEKDAY_RANGE, re.compile("Mon|Tu|We|Th|Fr|Sa|Su")), (SET_PHRASE, None), (SALUTED_NAME, None),
    (MONTH_PERIOD, MONTH_NAME),
    (MONTH_PART, re.compile("[Ee]nd|[Bb]eginning|[Ss]tart|[Mm]iddle|[Ee]arly|[Ll]ate|[Mm]id")),
    (DAY_AROUND, re.compile("day (?:after|before)")), (EVERY_N, re.compile("[Ee]very")),
    (TIME_RATE, re.compile(" (?:an?|per) (?:day|week|month|year)")), (CHANGED_BY, re.compile("[Bb]y ")),
    (HALVES, re.compile("and a half|quarters? of an hour|[Hh]alf an? ")), (FRACTION, FRACTION_HINT),
    (MEASURE, MEASURE_HINT), (LAST_N, re.compile("(?:ast|ext|oming|ious|owing) ")),
    (DECADE, DECADE_HINT), (AGE, re.compile("the age of")), (WALK, re.compile("-minute")),
    (YEAR_PERIOD, HAS_DIGIT), (PLACE, None), (ABBREVIATION, re.compile(r"\.")),
    (AGO, re.compile("ago")), (CENTURY, re.compile("century")), (ONGOING_FOR, re.compile("for")),
    (PERCENT_CHANGE, re.compile("%|cent")),
    (RELATIVE_PERIOD, re.compile("(?i:last|next|this|every)")), (NUMBER_IN_WORDS, NUMBER_HINT), (QUANTIFIER, None),
    (EQUATIVE, re.compile(r"(?i:\bas)[ \xa0]")), (IDIOM, IDIOM_HINT), (FREQUENCY, re.compile("(?i:once|twice|times)")),
    (ORDINAL_TIME, re.compile(" time")), (NUMBER_RANGE, HAS_DIGIT),
    (GLUED_DURATION, HAS_DIGIT), (LINE_LABEL, re.compile(":")))


def german_forms(text: str) -> list[tuple[int, int, str]]:
    """(start, end, German form) of each of the text's clock times ("at 5 p.m.": "um 17 Uhr", "at 10:30": "um 10:30
    Uhr", "at midnight": "um Mitternacht", "at half past eight": "um halb neun", "at seven in the morning": "um
    sieben Uhr morgens"), dates ("on December 24, 2025": "am 24. Dezember 2025", "on 2024-05-01": "am 01.05.2024", a
    placeholder named for one: "on {date}": "am {date}"), days ("on Friday": "am Freitag", "Monday-Friday":
    "Montag–Freitag"), months and years ("in March 2024": "im März 2024", "in 1998": "1998") and their parts ("at the
    end of June": "Ende Juni"), amounts of money ("$1,234.50": "1.234,50 $"), millions and billions ("$2.5 billion":
    "2,5 Milliarden $"), greetings ("Hello": "Hallo"), a letter's salutations and closings ("Hi John": "Hallo John",
    "Kind regards": "Freundliche Grüße"), abbreviations ("e.g.": "z.B.", "No. 5": "Nr. 5"), places ("to Munich":
    "nach München"), times ago ("2 hours ago": "vor 2 Stunden"), centuries ("in the 19th century": "im 19.
    Jahrhundert"), numbers in words from thirteen on ("twenty-five": "fünfundzwanzig", "two hundred": "zweihundert"),
    periods named from now ("last year": "letztes Jahr"), how long a thing has gone on ("has been working for ten
    years": "seit zehn Jahren"), a change by a share ("by 50 percent": "um 50 Prozent"), a word bounding or rounding
    a number ("up to": "bis zu", "about": "etwa"), how often ("once a week": "einmal pro Woche"), every so many units
    ("every 20 minutes": "alle 20 Minuten"), the days around today ("the day after tomorrow": "übermorgen"), a rate
    ("eight hours a day": "acht Stunden am Tag"), a change by an amount of time ("postponed by two weeks": "um zwei
    Wochen"), a time and a half ("an hour and a half": "eineinhalb Stunden"), the how-manieth time ("for the fourth
    time": "zum vierten Mal"), a share of a whole ("a third of": "ein Drittel"), an amount in a unit of measure ("10
    feet": "10 Fuß"), a stretch of time next to now ("over the past five years": "in den vergangenen fünf Jahren"), a
    decade ("in the 1980s": "in den 1980er Jahren"), an age ("at the age of five": "im Alter von fünf Jahren"), how far
    a place is ("a 10-minute walk": "10 Gehminuten"), an amount of money for each period ("3,000 euros a month": "3.000
    Euro pro Monat"), a FAQ's line labels ("Q:": "F:") and a day's or a month's abbreviation that is the whole text
    ("Tue": "Di", LONE_ABBREVIATION), with the preposition before it, the first of overlapping ones; in a sentence (a
    text whose first letter is a capital) a time's or a place's last dot stays out where it ends the sentence too ("We
    close at 6 p.m.", "in the U.S."), as the German does not take it; a preposition German would not write stays out
    ("on 5 p.m."; "to" but after a time, a date or a month, or before a place; "next to Munich")."""
    if len(text) < 9 and (lone := LONE_ABBREVIATION.fullmatch(text)):
        return [(*lone.span("abbreviation"), LABEL_ABBREVIATIONS[lone["abbreviation"]])]
    if not ((digit := DIGITS.search(text)) and FORM_HINT.search(text) or "day" in text  # the hints first
            or OPENS_A_LINE.search(text) or MONTH_NAME.search(text) or "noon" in text or "midnight" in text
            or _names_a_place(text) or " ago" in text or " century" in text or _may_count_in_words(text)
            or "day after tomorrow" in text or "day before yesterday" in text
            or ("end of " in text or "ing of " in text or "art of " in text or "dle of " in text or "arly " in text
                or "ate " in text or "id-" in text or "id " in text) and MONTH_PART.search(text)
            or "for " in text and ONGOING_FOR.search(text)
            or digit and "y " in text and PERCENT_CHANGE.search(text)
            or ("last " in text or "next " in text or "this " in text or "Last " in text or "Next " in text
                or "This " in text or "very " in text) and RELATIVE_PERIOD.search(text)
            or "very " in text and EVERY_N.search(text)
            or (" a day" in text or " a week" in text or " a month" in text or " a year" in text or " per " in text)
            and TIME_RATE.search(text)
            or "by " in text and CHANGED_BY.search(text)
            or ("and a half" in text or " of an hour" in text or "alf a" in text) and HALVES.search(text)
            or " of " in text and FRACTION_HINT.search(text) and FRACTION.search(text)
            or MEASURE_HINT.search(text) and MEASURE.search(text)
            or ("0s" in text or "ties" in text) and DECADE_HINT.search(text) and DECADE.search(text)
            or "the age of " in text and AGE.search(text)
            or "-minute " in text and WALK.search(text)
            or digit and (" a " in text or " an " in text or " per " in text) and (
                "$" in text or "€" in text or "£" in text or "¥" in text or "euro" in text or "dollar" in text
                or "pound" in text) and AMOUNT_RATE.search(text)
            or "the " in text and (" last " in text or " past " in text or " next " in text or " coming " in text
                                   or " previous " in text or " following " in text) and LAST_N.search(text)
            or ("past " in text or "clock" in text or "quarter" in text or " to " in text or "the morning" in text
                or "the afternoon" in text or "the evening" in text or "at night" in text
                or "at " in text and AT_AN_HOUR.search(text)) and SPOKEN_TIME.search(text)
            or (".g." in text or ".e." in text or "prox." in text or "cl." in text) and ABBREVIATION.search(text)
            or _may_quantify(text)
            or ("nce " in text or "wice " in text or "times" in text) and FREQUENCY.search(text)
            or (" as " in text or "As " in text) and EQUATIVE.search(text)
            or IDIOM_HINT.search(text) and IDIOM.search(text)
            or " time" in text and ORDINAL_TIME.search(text)
            or digit and " to " in text and NUMBER_RANGE.search(text)
            or ("{" in text or "%(" in text or "$" in text) and NAMED_PLACEHOLDER.search(text)
            or ("Q:" in text or "ros:" in text or "ons:" in text) and LINE_LABEL.search(text)
            or ("Mon" in text or "Tu" in text or "We" in text or "Th" in text or "Fr" in text or "Sat" in text
                or "Sun" in text) and WEEKDAY_RANGE.search(text)):
        return []  # patterns take 22 µs of a catalog message with a digit, these 1.7
    hinted: dict[re.Pattern, bool] = {}  # each hint searched once
    found = sorted((form for pattern, hint in FORM_PATTERNS
                    if hint is None or hinted.setdefault(hint, hint.search(text) is not None)
                    for form in pattern.finditer(text) if _complete(form)),
                   key=lambda form: (form.start(), -form.end()))
    forms: list[tuple[int, int, re.Match]] = []
    sentence = _a_sentence(text)
    for form in found:
        start, end = form.span()
        if forms and start < forms[-1][1]:
            continue
        if preposition := form.groupdict().get("preposition"):
            if preposition.lower() not in _prepositions(form) or preposition == "to" and form.re is not PLACE and not (
                    forms and _kind(forms[-1][2]) == _kind(form) and SPACES.fullmatch(text, forms[-1][1], start)
            ) or preposition == "of" and not DATED_BY_OF.search(text, max(0, start - 30), form.start("preposition")
            ) or form.re is PLACE and NOT_OF_PLACE.search(text, max(0, start - 40), form.start("place")):
                start = form.start("preposition") + len(preposition) + 1
                start += 4 if text.startswith("the", start) else 0
        if form.re is WEEKDAY and (start != form.start() or form["plural"] and preposition.lower() != "on"):
            continue  # a day alone is a word the model knows; only "on" goes with every Monday
        if (sentence and text[end - 1] == "." and form.re in (CLOCK_TIME, PLACE, WEEKDAY_RANGE, CENTURY)
                and not SENTENCE_GOES_ON.match(text, end)):
            end -= 1
        if form.re in (CLOCK_TIME, DIGITAL_TIME, SPOKEN_TIME) and (day := RELATIVE_DAY.match(text, end)):
            end = day.end()  # German writes the day first (`_day_first`)
        elif form.re in (DIGITAL_TIME, SPOKEN_TIME) or form.re is CLOCK_TIME and form["oclock"]:  # not after "p.m."
            if part := TIME_DAY_PART.match(text, end):
                end = part.end()  # and the part of the day after it: "um 7 Uhr morgens"
        forms.append((start, end, form))
    german = []
    for k, (start, end, form) in enumerate(forms):
        if form.re is EQUATIVE:  # two forms, around the word the model writes
            german += _german_equative(form)
            continue
        before = forms[k - 1] if k and SPACES.fullmatch(text, forms[k - 1][1], start) else None
        after = forms[k + 1][2] if k + 1 < len(forms) and SPACES.fullmatch(text, end, forms[k + 1][0]) else None
        moved = bool(before and (before[2].groupdict().get("preposition") or "").lower() == "from"
                     and MOVED.search(text, max(0, before[0] - 40), before[0]))
        written = _german(text[start:end], form, after, moved)
        if end > form.end():  # only a day or a part of it after a time takes the form past its match (above)
            tail = TIME_DAY_PART.match(text, form.end())
            written = (f"{written} {TIME_DAY_PARTS[tail['part'] or tail['night']]}" if tail
                       else _day_first(written, text[form.end():end].strip()))
        german.append((start, end, written))
    return german


def _compares(form: re.Match) -> bool:
    """Whether an EQUATIVE compares: in a sentence, a word that describes (`lexicon.Lexicon.describes`: "cold", not
    "root" in "Log in as root as described"), not an idiom's but before "possible" or after a multiple, nor a
    participle's or a function word, nor before a number (but after a multiple) or "well"."""
    if not _a_sentence(form.string):
        return False  # a headword's: mostly a simile German says its own way ("as cool as a cucumber")
    multiplied = bool(form["multiple"] or form["times"])
    if word := form["word"]:
        idiom = word in EQUATIVE_IDIOMS or word.endswith("ed")  # compared after a multiple or before "possible" only
        if word in NOT_COMPARED or not lexicon.load().describes(word) or idiom and not (
                multiplied or form["end"] == "possible"):
            return False
    return (multiplied or not A_NUMBER_AFTER.match(form.string, form.end())) and not WELL_AFTER.match(
        form.string, form.end())


def _complete(form: re.Match) -> bool:
    """Whether a match is a form: a slash date whose day is clear, a month with a preposition or a year, a year or a
    time after "between" with its range's end."""
    if form.re is SLASH_DATE:
        return bool(_slash_date_day(form))
    if form.re is NAMED_PLACEHOLDER and _kind(form) is NAMED_PLACEHOLDER:
        return False  # a name that says no date or time ("on {name}")
    if form.re is ISO_DATE or form.re is NAMED_PLACEHOLDER:  # only after a preposition German has a word for
        return form["preposition"].lower() in _prepositions(form)
    if form.re is MONTH_PERIOD:
        return bool(form["preposition"] or form["year"])
    if form.re is PLACE:
        english = form["place"]
        if english not in PLACES or form["the"] and english not in PLACES_AFTER_THE:
            return False
        german, ends = PLACES[english], PLACE_ENDS.match(form.string, form.end())
        if form["preposition"]:  # an abbreviation describes a noun as often ("to US customers")
            return bool(ends) or not english.isupper()
        return not (german == english or german in PLACE_ARTICLES or english in PLACE_NEEDS_PREPOSITION
                    or english in PLACES_AFTER_THE or not ends or _after_a_name(form.string, form.start()))
    if form.re is QUANTIFIER:
        return _bounds_a_number(form)
    if form.re is MEASURE:  # feet only after digits
        return form["count"][0].isdigit() or _measure(form["unit"]) != "foot"
    if form.re is DECADE:  # a temperature's or a score's tens ("temperatures in the 80s"); "of the early 1990s"
        return not MEASURED_BEFORE.search(form.string, 0, form.start()) and (  # is the model's
            not form["part"] or (form["relation"] or "").lower() in DECADE_PART_BOUNDS)
    if form.re is LAST_N:  # "in" before a count the model writes well, as a token where English puts it
        return form["in"].lower() != "in" or bool(form["unit"])
    if form.re is SPOKEN_TIME and form["lone_hour"]:  # a time's, not an age's
        return bool(form["sharp"] or TIME_AFTER_AN_HOUR.match(form.string, form.end())
                    or LONE_HOUR_BEFORE.search(form.string, 0, form.start("lone_hour")))
    if form.re is FRACTION:  # a sentence's: a headword's is mostly one word ("half of the brain": "Hirnhälfte")
        return _a_sentence(form.string)
    if form.re is EQUATIVE:
        return _compares(form)
    if form.re is IDIOM:  # an aside, or before what it describes no word ("in particular subjects")
        aside = ASIDE_BEFORE.search(form.string, max(0, form.start() - 4), form.start())
        return bool(form["idiom"][0].isupper() or aside or IDIOM_ENDS.match(form.string, form.end()))
    if form.re is ORDINAL_TIME and not form["for"]:
        return not PREPOSITION_BEFORE_THE.search(form.string, 0, form.start())
    if form.re is SET_PHRASE:  # alone on its line, only a closing; a line's closing only before or on a line's end
        if form["phrase"] in STEP_ADVERBS and _step(form.string, form.start()):
            return False  # a step's order, read apart from the step (`_step_read`)
        if form["phrase"] not in CLOSINGS:
            return form["line_signed"] is None and form["alone_on_a_line"] is None
        return form["phrase"] not in LINE_CLOSINGS or (
            form["before_a_line"] is not None or "\n" in (form["signed"] or form["line_signed"] or "")
            or form.start() > 0 and form.string[form.start() - 1] == "\n"
            and LAST_LINE_END.match(form.string, form.end()) is not None)
    if form.re is NUMBER_RANGE:  # "1 to 1" maps or compares
        return form["low"] != form["high"] and not NOT_A_RANGE.search(form.string, max(0, form.start() - 40),
                                                                       form.start())
    if (form.re is AGO or form.re is ONGOING_FOR) and (form["unit"] or form["centuries"]) and not form["count"]:
        # a unit alone only in the plural, and in a time ago not after a count of another kind ("a million years ago")
        if not (form["plural"] or form["centuries"]) or form.re is AGO and COUNTS_BEFORE.search(
                form.string, max(0, form.start() - 20), form.start()):
            return False
    if form.re is ONGOING_FOR:
        return bool(ONGOING.search(form.string, max(0, form.start() - 80), form.start()))
    if form.re is CHANGED_BY:
        return bool(CHANGE_BEFORE.search(form.string, max(0, form.start() - 60), form.start()))
    if form.re is MONTH_PART and form["edge"]:  # not after an article, an adjective's ("an early March release")
        return not ARTICLE_BEFORE.search(form.string, max(0, form.start() - 5), form.start())
    if form.re is NUMBER_IN_WORDS:  # a capital only where a sentence starts, and not a name's ("the Twenty Questions
        # game", "Fifteen Puzzle")
        return not NUMBER_WORD_BEFORE.search(form.string, max(0, form.start() - 16), form.start()) and (
            form.group()[0].islower() or _starts_a_sentence(form.string, form.start())
            and not CAPITALIZED_WORD_AFTER.match(form.string, form.end()))
    if form.re is RELATIVE_PERIOD:  # a capital only where a sentence starts ("Click Next week view": a label's)
        return not CASE_BEFORE.search(form.string, max(0, form.start() - 12), form.start()) and (
            form["relative"].islower() or _starts_a_sentence(form.string, form.start())) and (
            form["relative"].lower(), form["period"] or form["part"]) not in WRITTEN_WELL
    if form.re is SPOKEN_TIME and not form["preposition"]:  # a time where "is" says so, or nothing says otherwise
        if IS_BEFORE.search(form.string, max(0, form.start() - 12), form.start()):
            return True
        return form["minutes_side"] != "to" and not (form["oclock_hour"] and NOUN_AFTER_A_TIME.match(form.string,
                                                                                                       form.end()))
    if form.re is CENTURY and not form["relation"]:  # a preposition before it asks a case the form cannot tell
        return not PREPOSITION_BEFORE.search(form.string, max(0, form.start() - 12), form.start())
    if form.re is YEAR_PERIOD or form.re is DIGITAL_TIME:  # "between" only with its range's end
        range_end = form["to_year"] if form.re is YEAR_PERIOD else form["to_hour"]
        return form["preposition"].lower() != "between" or bool(range_end)
    return True


def _may_count_in_words(text: str) -> bool:
    """Whether the text holds a NUMBER_IN_WORDS: a part of each of its words first ("enty": "twenty", "seventy"), then
    a word's end (NUMBER_HINT)."""
    return ("enty" in text or "irty" in text or "orty" in text or "fty" in text or "xty" in text or "ghty" in text
            or "nety" in text or "teen" in text or "undred" in text or "housand" in text) and bool(
        NUMBER_HINT.search(text) and NUMBER_IN_WORDS.search(text))


def _may_quantify(text: str) -> bool:
    """Whether the text holds a QUANTIFIER: a part of each of its words first, as it is written in a sentence and in
    a title ("ly": "nearly", "Roughly", "approximately"; "han": "than", "Than"), which costs a third of the search
    where most texts have a digit or a placeholder."""
    return (("han" in text or "ost" in text or "bout" in text or "round" in text or "ly" in text or "p to" in text
             or "p To" in text or "p\xa0to" in text) and QUANTIFIER.search(text) is not None)


def _before_a_clock_time(form: re.Match) -> bool:
    """Whether a QUANTIFIER stands before a time of day ("around 11 a.m.", CLOCK_TIME's, "about six o'clock",
    SPOKEN_TIME's; after it a space)."""
    spoken = SPOKEN_TIME.match(form.string, form.end() + 1)
    return bool(CLOCK_TIME.match(form.string, form.end() + 1) or spoken and _complete(spoken))


def _quantifier(form: re.Match) -> str:
    """A QUANTIFIER match's key in QUANTIFIERS."""
    return _key(form["quantifier"])


def _bounds_a_number(form: re.Match) -> bool:
    """Whether a QUANTIFIER bounds or rounds the number after it: "up to" not after a verb "up" goes with, "about",
    "around" and "less than" only before what ROUNDED_NUMBER allows and not after a topic's word (TOPIC_BEFORE); before
    words, only a time of day ("about six o'clock"), a share or a half ("about half of", "nearly half an hour")."""
    if not A_NUMBER_AFTER.match(form.string, form.end()):
        share = FRACTION.match(form.string, form.end() + 1) or HALVES.match(form.string, form.end() + 1)
        return _before_a_clock_time(form) or bool(share) and not TOPIC_BEFORE.search(form.string, 0, form.start())
    before = form.string[max(0, form.start() - 24):form.start()]
    word = _quantifier(form)
    if word == "up to":
        return not VERB_BEFORE_UP.search(before)
    if word in ("about", "around") or word.endswith("than"):
        return bool(ROUNDED_NUMBER.match(form.string, form.end()) or _before_a_clock_time(form)
                    ) and not TOPIC_BEFORE.search(before)
    return True


def spans_by_item(masked: str, protected: Sequence[str], spans: Sequence[tuple[int, int]], skipped: set[int]
                  ) -> dict[int, list[tuple[int, int, int]]]:
    """By item number, (index, start, end) in the item of each of the text's (start, end) spans (sorted, apart) it
    holds, for the items made of such spans, what BESIDE_FORMS allows ("from 9 a.m. to 5 p.m.", "'12 May 1690'",
    "Settings > General") and the items merged with them (MERGED_WITH_FORMS: "Berlin on Tuesday"); none for the
    `skipped` items (code), an item that holds other words beside them (a code span's "`at 5pm`"), a code element or
    a span's part ("£2" of "£2.5bn")."""
    _, tokens, starts = as_written(masked, protected)
    span_starts = [start for start, _ in spans]
    by_item: dict[int, list[tuple[int, int, int]]] = {}
    for token, item_start in zip(tokens, starts):
        number = int(token.group(1))
        item = protected[number]
        item_end, k = item_start + len(item), bisect_left(span_starts, item_start)
        inside = []
        while k < len(spans) and spans[k][0] < item_end:  # those that start in it (each span looked at once)
            start, end = spans[k]
            inside += [(k, start - item_start, end - item_start)] if end <= item_end else []
            k += 1
        if inside and number not in skipped and all(
                _beside_spans(item[end:start]) for (_, _, end), (_, start, _)
                in zip([(0, 0, 0)] + inside, inside + [(0, len(item), 0)])) and not (
                "<" in item and untranslatable_elements(item)):
            by_item[number] = inside
    return by_item


def _forms_and_labels_by_item(masked: str, protected: Sequence[str], forms: list[tuple[int, int, str]],
                              labels: list[tuple[int, int]], code: set[int]
                              ) -> tuple[dict[int, list[tuple[int, int, str]]], dict[int, list[tuple[int, int]]]]:
    """By item number, (start, end, German) in the item of each of the text's forms (`german_forms`), and (start,
    end) of each of its labels (`ui_labels`), where `spans_by_item` says they stand alone in it. One pass for both:
    an item may hold both ('"Save" on Friday')."""
    spans = sorted(forms + [(start, end, None) for start, end in labels], key=lambda span: span[0])  # apart
    forms_of_items, labels_of_items = {}, {}
    for number, inside in spans_by_item(masked, protected, [(start, end) for start, end, _ in spans], code).items():
        if found := [(start, end, spans[k][2]) for k, start, end in inside if spans[k][2] is not None]:
            forms_of_items[number] = found
        if found := [(start, end) for k, start, end in inside if spans[k][2] is None]:
            labels_of_items[number] = found
    return forms_of_items, labels_of_items


def _beside_spans(part: str) -> bool:
    """Whether this part of an item beside its forms or labels may stand there (BESIDE_FORMS, MERGED_WITH_FORMS)."""
    return bool(BESIDE_FORMS.fullmatch(part) or BESIDE_FORMS.fullmatch(MERGED_WITH_FORMS.sub(" ", part)))


def _german(english: str, form: re.Match, next_form: re.Match | None, moved: bool = False) -> str:
    """A form as German writes it, its preposition too where the English has one; next_form: the form after it,
    where only spaces lie between; moved: the form is where a thing moved to ("moved from Tuesday to Thursday": "auf
    Donnerstag", not a range's "bis")."""
    if form.re is SCALED_AMOUNT:
        singular, plural = SCALES[form["scale"]]
        german = f"{form['amount'].translate(GERMAN_SEPARATORS)} {singular if form['amount'] == '1' else plural}"
        currency = form["currency"] or CURRENCY_WORDS.get(form["currency_word"] or "")
        return f"{german} {currency}" if currency else german
    if form.re is AMOUNT_RATE:
        if form["currency"]:
            amount = f"{form['amount'].translate(GERMAN_SEPARATORS)} {form['currency'].strip()}"
        else:
            currency = CURRENCY_WORDS[form["currency_word"].rstrip("s") + "s"]  # "Euro" after "1 euro" too
            amount = f"{form['counted'].translate(GERMAN_SEPARATORS)} {currency}"
        return f"{amount} pro {RATE_PERIODS[form['period']]}"
    if form.re is AMOUNT:
        per = f"/{PER_PERIOD[form['per']]}" if form["per"] else ""
        return f"{form['amount'].translate(GERMAN_SEPARATORS)} {form['currency']}{per}"
    if form.re is ABBREVIATION:  # a noun's is a capital; a Latin one where a sentence starts ("(E.g. PNG)": "(z.B.")
        if form["numbered"]:  # and a space before its number ("no.1": "Nr. 1", as the references write it)
            glued = form.string[form.end():form.end() + 1].isdigit()
            return ABBREVIATIONS[form["numbered"].lower()] + (" " if glued else "")
        german = ABBREVIATIONS[form["latin"].lower()]
        return _capitalized(german, form["latin"][0].isupper() and _starts_a_sentence(form.string, form.start()))
    if form.re is AGO:
        return _german_ago(form)
    if form.re is MONTH_PART:
        return _german_month_part(form)
    if form.re is HALVES:
        return _german_halves(form)
    if form.re is FRACTION:
        return _capitalized(_german_fraction(form), english[0].isupper())
    if form.re is LAST_N:
        return _capitalized(_german_last_n(form), english[0].isupper())
    if form.re is DECADE:
        return _capitalized(_german_decade(form), english[0].isupper())
    if form.re is WALK:  # "a one-minute walk": "eine Gehminute"
        count = form["count"].lower()
        if count in ("one", "1"):
            return _capitalized(f"eine {WALKS[form['way']][:-1]}", english[0].isupper())
        return _capitalized(f"{_german_count(count)} {WALKS[form['way']]}", english[0].isupper())
    if form.re is IDIOM:
        return _capitalized(IDIOMS[_key(form["idiom"])], english[0].isupper())
    if form.re is AGE:  # "one": "einem Jahr"
        count = form["count"].lower()
        years = "einem Jahr" if count in ("one", "1") else f"{_german_count(count)} Jahren"
        return _capitalized(f"{AGE_RELATIONS[form['relation'].lower()]} {years}", english[0].isupper())
    if form.re is MEASURE:
        singular, plural = MEASURES[_measure(form["unit"])]
        german = f"{_german_count(form['count'])} {singular if form['count'] == '1' else plural}"
        return _capitalized(german, english[0].isupper())
    if form.re is TIME_RATE:
        return f"{_accusative_amount(form)} {FREQUENCY_UNITS[form['period']]}"
    if form.re is CHANGED_BY:
        return _capitalized(f"um {_accusative_amount(form)}", english[0].isupper())
    if form.re is EVERY_N:
        if form["other"]:
            return _capitalized(EVERY_OTHER[form["other"]], english[0].isupper())
        count = _key(form["count"])
        number = "paar" if count in ("few", "couple of") else _german_count(form["count"])
        return _capitalized(f"alle {number} {german_unit(form['unit'])}", english[0].isupper())
    if form.re is DAY_AROUND:  # "on" the day: no word of its own
        bound = PART_BOUNDS.get((form["bound"] or "").lower(), "")
        day = DAYS_AROUND[_key(form["which"])]
        return _capitalized(f"{bound} {day}".lstrip(), english[0].isupper())
    if form.re is CENTURY:
        return _german_century(form)
    if form.re is ONGOING_FOR:
        return f"seit {_qualified_time(form)}"
    if form.re is PERCENT_CHANGE:
        unit = form["space"] + "%" if form["unit"] == "%" else " Prozent"
        return _capitalized(f"um {form['share'].translate(GERMAN_SEPARATORS)}{unit}", form["by"][0] == "B")
    if form.re is RELATIVE_PERIOD:
        return _capitalized(_german_relative_period(form), english[0].isupper())
    if form.re is NUMBER_IN_WORDS:
        return _capitalized(german_number_in_words(english), english[0].isupper())
    if form.re is QUANTIFIER:
        word = _quantifier(form)
        rounded = word in ("about", "around") and _before_a_clock_time(form)
        return _capitalized("gegen" if rounded else QUANTIFIERS[word], form["quantifier"][0].isupper())
    if form.re is FREQUENCY:
        number = in_german(form["number"] or "")
        if not form["unit"]:  # "tried 3 times": "3 Mal", as the references write it most (18 of 65; "mal" 17)
            count = f"{number} Mal" if number else FREQUENCY_COUNTS[form["count"].lower()]
            return _capitalized(count, form["count"][0].isupper())
        count = f"{number}-mal" if number else FREQUENCY_COUNTS[form["count"].lower()]
        per = FREQUENCY_UNITS[form["unit"]]
        per = "pro " + per.split()[-1] if form["per"] == "per" else per  # "once per month": "einmal pro Monat"
        return _capitalized(f"{count} {per}", form["count"][0].isupper())
    if form.re is ORDINAL_TIME:  # "for": the dative's ending, else the nominative's or accusative's
        ordinal = form["ordinal"]
        ending = "en" if form["for"] else "e"
        number = f"{ordinal[:-2]}." if ordinal[0].isdigit() else (ORDINAL_STEMS | ORDINAL_TIME_WORDS)[ordinal] + ending
        return _capitalized(f"{'zum' if form['for'] else 'das'} {number} Mal", english[0].isupper())
    if form.re is NUMBER_RANGE:
        return _german_range(form)
    if form.re is GLUED_DURATION:  # "in 5s": "in 5 Sekunden"
        return f"{form['count']} {GLUED_TIMES[form['unit']][form['count'] != '1']}"
    if form.re is SET_PHRASE:
        signed = form["signed"] or form["line_signed"] or ""
        line_ends = bool(form["before_a_line"]) or "\n" in signed  # a closing's comma goes
        comma = "" if form["phrase"] in CLOSINGS and line_ends else "," if signed or form["before_a_line"] else ""
        return SET_PHRASES[form["phrase"]] + comma + signed
    if form.re is LINE_LABEL:
        return LINE_LABELS[form["label"]]
    if form.re is SALUTED_NAME:  # "Dear John": "Hallo John", whose "Lieber" or "Liebe" the name alone cannot tell;
        # "Dear Dr. Smith": "Guten Tag Dr. Smith", whose "Sehr geehrte" or "Sehr geehrter" neither can
        greeting = SET_PHRASES.get(form["salutation"], "Guten Tag" if form["title"] else "Hallo")
        return f"{greeting} {form['title'] or ''}{form['name'].replace(' and ', ' und ')}"
    if form.re is NOON_OR_MIDNIGHT and form["noon"] != "midnight" and english[:3].lower() == "at ":
        return "Mittags" if english[0] == "A" else "mittags"  # "at noon", as the dictionary's references write it
    if form.re is WEEKDAY_RANGE:
        german = _german_day(form["weekday"]) + RANGE_WORDS[form["range"].strip()] + _german_day(form["to_weekday"])
        return german[:-1] if form.group().endswith(".") and not english.endswith(".") else german  # the sentence's
    if form.re is WEEKDAY:
        day = WEEKDAYS[form["weekday"]]
        if form["plural"]:  # "on Mondays": "montags"
            return f"{day}s" if form["preposition"][0].isupper() else f"{day.lower()}s"
        german = day
    elif form.re is CLOCK_TIME or form.re is DIGITAL_TIME:
        german = _german_time(form)
    elif form.re is NOON_OR_MIDNIGHT:
        german = NOON_WORDS[form["noon"]]
    elif form.re is SPOKEN_TIME:
        german = _capitalized(_german_spoken_time(form), not form["preposition"] and english[0].isupper())
    elif form.re is MONTH_PERIOD:
        german = MONTHS[form["month"]] + (f" {form['year']}" if form["year"] else "")
    elif form.re is PLACE:
        german = PLACES[form["place"]]
    elif form.re is YEAR_PERIOD:
        german = form["period_year"] + (RANGE_WORDS[form["range"].strip()] + form["to_year"] if form["to_year"] else "")
    elif form.re is NAMED_PLACEHOLDER:
        german = form["placeholder"]
    elif form.re is ISO_DATE:
        german = _numeric_date(form["iso_day"], form["iso_month"], form["iso_year"])
    elif form.re is SLASH_DATE:
        day, month = (form["first"], form["second"]) if _slash_date_day(form) == 1 else (form["second"], form["first"])
        german = _numeric_date(day, month, form["slash_year"])
    else:
        day = int(form["day"]) if form["day"] else DAY_ORDINALS[form["day_word"]]
        german = f"{day}. {MONTHS[form['month']]}" + (f" {form['year']}" if form["year"] else "")
        german = f"{WEEKDAY_ABBREVIATIONS[form['day_name']]}, {german}" if form["day_name"] else german
    if not (preposition := form["preposition"]) or not english.startswith(preposition):  # none, or it stayed out
        return german
    word = _prepositions(form)[preposition.lower()]
    ranged = form.groupdict().get("to_hour") or form.groupdict().get("to_year")
    if ranged or next_form and (next_form.groupdict().get("preposition") or "") in RANGE_TO:
        word = RANGE_FROM.get(word, word)
    word = MOVED_TO.get(word, word) if moved else word
    if form.re is PLACE:
        word = "in" if word == "nach" and WELCOMED.search(form.string, max(0, form.start() - 9), form.start()) else word
        if gender := PLACE_ARTICLES.get(german):
            german += "n" if gender == "pl" and word not in ("nach", "über") and german.endswith("e") else ""  # dative
            word = ARTICLED[word][gender]
    return f"{word[0].upper() + word[1:] if preposition[0].isupper() else word} {german}" if word else german


def _german_range(form: re.Match) -> str:
    """A range of numbers as German writes it (NUMBER_RANGE): "bis" between them, "von" for "from"; "von ... auf"
    where the quantity changes from one to the other (CHANGED)."""
    quantity = bool(UNIT_AFTER.match(form.string, form.end()))  # "1.5 to 2.5 GB": "1,5 bis 2,5 GB"
    low, high = in_german(form["low"], quantity), in_german(form["high"], quantity)
    low += form.string[form.end("low"):form.start("high") - len(" to ")]  # its unit
    if not form["from_word"]:
        return f"{low} bis {high}"
    changed = CHANGED.search(form.string, max(0, form.start() - 40), form.start())
    return f"{'V' if form['from_word'][0] == 'F' else 'v'}on {low} {'auf' if changed else 'bis'} {high}"


def _day_first(german: str, day: str) -> str:
    """A time's German with the day it is on before it ("um 15 Uhr", "tomorrow": "morgen um 15 Uhr"), the capital
    where the time had one."""
    capital = german[:1].isupper()  # "Um 9 Uhr" opened the sentence: "Heute um 9 Uhr"
    return f"{_capitalized(RELATIVE_DAYS[day], capital)} {german[0].lower() + german[1:] if capital else german}"


def _german_day(name: str) -> str:
    """A day's German name: in full for a name in full ("Montag"), abbreviated for an abbreviation ("Mo.")."""
    return WEEKDAYS.get(name) or WEEKDAY_ABBREVIATIONS[name.rstrip(".")]


def _german_ago(form: re.Match) -> str:
    """A time ago as German writes it (AGO): "vor" and the dative, or "seit" and the dative; a capital where the
    English has one ("An hour ago"), or, from a number, where it starts a sentence that goes on ("2 days ago we met";
    alone, as a label, "vor 2 Tagen", as most catalogs write it)."""
    time = _qualified_time(form)
    german = f"seit {time}" if form["since"] else f"erst vor {time}" if form["only"] else f"vor {time}"
    if not AGO_FROM_A_NUMBER.match(form.group()):
        capital = form.group()[0].isupper()
    else:
        capital = _starts_a_sentence(form.string, form.start()) and bool(WORD_GOES_ON.match(form.string, form.end()))
    return _capitalized(german, capital)


def german_unit(unit: str, dative: bool = False) -> str:
    """A unit of time's German plural (TIME_UNITS), the dative's with its "n": "Tage", "Tagen", "Minuten"."""
    plural = TIME_UNITS[unit][2]
    return plural + "n" if dative and not plural.endswith("n") else plural


def _after_a_dative_preposition(form: re.Match) -> bool:
    """Whether a preposition that asks the dative comes right before a form (DATIVE_BEFORE: "in", "after", "with")."""
    return bool(DATIVE_BEFORE.search(form.string, max(0, form.start() - 8), form.start()))


def _german_halves(form: re.Match) -> str:
    """A HALVES as German writes it: "eineinhalb Stunden", "zweieinhalb Jahre" ("Jahren" after a preposition that asks
    the dative), "eine Viertelstunde"."""
    dative = _after_a_dative_preposition(form)
    if form["quarters"]:
        quarter = "Viertelstunde" if form["quarters"] in "Aa" else "Dreiviertelstunde"
        german = f"{ONE['dative' if dative else 'accusative']['f']} {quarter}"
    elif form["half"]:  # "half an hour ago": "vor einer halben Stunde"
        gender, singular, _ = TIME_UNITS[form["half_unit"]]
        case = "dative" if dative or form["ago"] else "accusative"
        german = f"{'vor ' if form['ago'] else ''}{ONE[case][gender]} {HALF[case][gender]} {singular}"
    else:
        unit = form["unit"] or form["units"]
        german = f"{HALF_COUNTS[(form['whole'] or form['count']).lower()]}einhalb {german_unit(unit, dative)}"
    return _capitalized(german, form.group()[0].isupper())


def _german_decade(form: re.Match) -> str:
    """A DECADE as German writes it: "in den 1980er Jahren", "seit den sechziger Jahren", "Anfang der 2000er Jahre",
    "die 90er Jahre"."""
    decade = form["decade"].lstrip("'’")
    named = f"{DECADE_WORDS[decade.lower()]} Jahre" if decade[0].isalpha() else f"{decade[:-1]}er Jahre"
    relation = (form["relation"] or "").lower()
    if form["part"]:
        return " ".join(filter(None, (DECADE_PART_BOUNDS[relation], MONTH_PARTS[form["part"]], "der", named)))
    dative = DECADE_RELATIONS[relation].endswith("den")
    return f"{DECADE_RELATIONS[relation]} {named}{'n' if dative else ''}"


def _german_last_n(form: re.Match) -> str:
    """A LAST_N as German writes it, "in" and the dative: "in den vergangenen fünf Jahren", "in den nächsten Tagen" ("in
    the next few days"), "im letzten Jahrzehnt", "in der letzten Woche"."""
    which = LAST_N_WORDS[form["which"]]
    if form["unit"]:
        gender, singular, _ = TIME_UNITS[form["unit"]]
        return f"in der {which}en {singular}" if gender == "f" else f"im {which}en {singular}"
    count = form["count"] and _key(form["count"])
    number = "" if count in (None, "few") else "paar" if count == "couple of" else _german_count(count)
    unit = german_unit(form["units"] or form["units_alone"], dative=True)
    return " ".join(filter(None, ("in den", f"{which}en", number, unit)))


def _measure(unit: str) -> str:
    """A MEASURE's unit as MEASURES names it: "feet": "foot", "inches": "inch", "kilogrammes": "kilogram", "tonnes":
    "ton"."""
    unit = unit.lower().replace("feet", "foot").replace("gramme", "gram").replace("tonne", "ton")
    return unit[:-2] if unit.endswith("hes") else unit.rstrip("s")


def _german_fraction(form: re.Match) -> str:
    """A FRACTION as German writes it, in the dative after a preposition that asks it: "ein Drittel", "zwei Dritteln",
    "die Hälfte", "der Hälfte"."""
    dative = _after_a_dative_preposition(form)
    if form["half"]:
        return "der Hälfte" if dative else "die Hälfte"
    noun, count = FRACTION_NOUNS[form["part"]], form["count"].lower()
    if count in ("a", "an", "one"):
        return f"{ONE['dative']['n'] if dative else 'ein'} {noun}"
    return f"{german_number_in_words(count)} {noun}{'n' if dative else ''}"


def _accusative_amount(form: re.Match) -> str:
    """A TIME_AMOUNT in the accusative: "eine Woche", "einen Tag", "zwei Wochen", "24 Stunden"."""
    if form["one_unit"]:
        gender, singular, _ = TIME_UNITS[form["one_unit"]]
        return f"{ONE['accusative'][gender]} {singular}"
    return f"{_german_count(form['count'])} {german_unit(form['unit'])}"


def _german_month_part(form: re.Match) -> str:
    """A MONTH_PART as German names it: "Ende Juni", "bis Anfang des Jahres"; a capital where the English has one."""
    part = MONTH_PARTS[(form["part"] or form["edge"] or form["mid"]).lower()]
    if form["month"]:
        named = f"{MONTHS[form['month']]}{' ' + form['year'] if form['year'] else ''}"
    else:
        named = form["year_alone"] or PART_PERIODS[form["period"]]
    bound = PART_BOUNDS[form["bound"].lower()] if form["bound"] else ""
    return _capitalized(f"{bound} {part} {named}".lstrip(), form.group()[0].isupper())


def _german_relative_period(form: re.Match) -> str:
    """A RELATIVE_PERIOD in German's accusative of time: "letztes Jahr", "nächsten Monat", "diese Woche", "heute
    Morgen"."""
    if form["today"]:
        return TODAYS[form["today"]]
    period = form["period"] or form["part"]
    ending = RELATIVE_ENDINGS[RELATIVE_GENDERS[period]]
    return f"{RELATIVE_WORDS[form['relative'].lower()]}{ending} {RELATIVE_NOUNS.get(period) or DAY_PARTS[period]}"


def _qualified_time(form: re.Match) -> str:
    """An AGO's or an ONGOING_FOR's time in the dative German's "vor" and "seit" ask, after its qualifier: "einer
    Stunde", "etwa zwei Stunden", "5 Minuten" ("5 min"), "Jahren" ("years"), "langer Zeit" ("a long time")."""
    qualifier = f"{AGO_QUALIFIERS[form['qualifier'].lower()]} " if form["qualifier"] else ""
    if form["phrase"]:
        return qualifier + AGO_PHRASES[_key(form["phrase"])]
    if form.re is AGO and form["duration"]:  # "%s ago"
        return qualifier + form["duration"]
    written = "century" if form["centuries"] else form["unit"].lower()
    unit = UNIT_ABBREVIATIONS.get(written, written)
    gender, singular, _ = TIME_UNITS[unit]
    count = _key(form["count"] or "")
    if count in ("a", "an", "one"):
        return f"{qualifier}{ONE['dative'][gender]} {singular}"
    many = form["plural"] or form["centuries"] or written in UNIT_ABBREVIATIONS and count != "1"  # "5 min": "5 Minuten"
    plural = german_unit(unit, dative=True)
    number = AGO_COUNTS.get(count) or _german_count(form["count"] or "")
    return f"{qualifier}{number} {plural if many else singular}" if number else qualifier + plural


def _german_century(form: re.Match) -> str:
    """A century as German writes it (CENTURY): its number with a full stop, or its ordinal in words, after the article
    its preposition asks, "Mitte des" for the middle of it, its era; a capital where the English has one."""
    relation = (form["relation"] or "").lower()
    article, genitive, middle = CENTURY_RELATIONS[relation]
    ordinal, part = form["ordinal"].lower(), form["part"]
    era = f" {CENTURY_ERAS[form['era']]}" if form["era"] else ""
    if part in ("mid", "middle"):
        article, genitive = f"{middle} des", True
    ending = "e" if article in ("das", "ins") else "en"  # the nominative's or the accusative's: "das frühe"
    number = CENTURY_ORDINALS[ordinal] + ending if ordinal in CENTURY_ORDINALS else f"{int(ordinal[:-2])}."
    adjective = {"early": "früh", "late": "spät"}.get(part or "")
    before = f"{article} {adjective}{ending}" if adjective else article
    german = f"{before} {number} Jahrhundert{'s' if genitive else ''}{era}"
    return _capitalized(german, (form["relation"] or form["the"])[0].isupper())


def german_number_in_words(english: str) -> str | None:
    """A COUNT_IN_WORDS as German writes it, one word in small letters ("twenty-five": "fünfundzwanzig", "two hundred
    and fifty": "zweihundertfünfzig", "a thousand": "tausend"); None for another."""
    words = [word for word in english.lower().split() if word != "and"]
    for scale, german in (("thousand", "tausend"), ("hundred", "hundert")):
        if scale in words:
            at = words.index(scale)
            times = {"a": "", "an": "", "one": "ein"}.get(" ".join(words[:at])) if at == 1 else None
            times = german_number_in_words(words[0]) if times is None and at == 1 else times
            rest = german_number_in_words(" ".join(words[at + 1:])) if words[at + 1:] else ""
            return None if times is None or rest is None else f"{times}{german}{rest}"
    if len(words) != 1:
        return None
    tens, _, ones = words[0].partition("-")
    return f"{ONES[ones]}und{TENS[tens]}" if tens in TENS and ones in ONES else SMALL_COUNTS.get(words[0])


def _german_equative(form: re.Match) -> list[tuple[int, int, str]]:
    """An EQUATIVE's two forms, (start, end, German) of its words before the word compared and after it: "so" with
    its multiple ("doppelt so", "dreimal so", "3-mal so", "genauso") and quantity ("so viele", "in so vielen"), and
    "wie" ("wie möglich", "wie immer"); "so bald wie möglich" as one (AS_POSSIBLE)."""
    capital = form[0][0].isupper()
    if form["word"] in AS_POSSIBLE and form["end"] == "possible":
        return [(form.start(), form.end(), _capitalized(AS_POSSIBLE[form["word"]], capital))]
    if form["multiple"]:
        so = f"{EQUATIVE_MULTIPLES[form['multiple'].lower()]} so"
    elif times := form["times"]:
        so = f"{times}-mal so" if times[0].isdigit() else f"{german_number_in_words(times)}mal so"
    else:
        so = "genauso" if form["just"] else "so"
    if quantity := form["quantity"]:  # "in so wenigen Zügen": the dative's plural after a preposition that asks it
        dative = quantity in ("many", "few") and _after_a_dative_preposition(form)
        so += f" {EQUATIVE_QUANTITIES[quantity]}{'n' if dative else ''}"
    return [(form.start(), form.end("quantity") if quantity else form.end("as"), _capitalized(so, capital)),
            (form.start("closer"), form.end(), EQUATIVE_ENDS.get(form["end"], "wie"))]


def _finite(word: str) -> bool:
    """Whether a word the model wrote after a subject is its finite verb (FINITE): not an adverb, a conjunction, a
    preposition or an article (NOT_FINITE), nor a participle (PARTICIPLE) but "gibt", "gehört" (FINITE_FROM_GE)."""
    return word not in NOT_FINITE and bool(FINITE.fullmatch(word)) and (
        not PARTICIPLE.fullmatch(word) or word in FINITE_FROM_GE)


def _uninflected(adjective: str) -> str:
    """An adjective without the ending German gives it before a noun ("kaltes": "kalt", "einfachen": "einfach", "gute":
    "gut"), where German writes its stem and the stem with "e" (an adjective's: not "golden", "gold" a noun's); else
    as it is ("leise", "lange": ENDS_IN_E)."""
    german = lexicon.load().is_german
    for ending in ("es", "en", "em", "e"):
        if adjective.endswith(ending) and adjective not in ENDS_IN_E:
            stem = adjective[:-len(ending)]
            return stem if len(stem) >= 3 and german(stem) and german(stem + "e") else adjective
    return adjective


def _german_count(count: str) -> str:
    """A form's count as German writes it: digits with German's separators ("1,500": "1.500", "2.5": "2,5"), words as
    one word ("twenty-five": "fünfundzwanzig"), anything else as written ("%d")."""
    return in_german(count, quantity=True) if count[:1].isdigit() else german_number_in_words(count) or count


def _numeric_date(day: str, month: str, year: str) -> str:
    """A date in digits as German writes it: "24.12.2025", "01.05.2024"."""
    return f"{int(day):02}.{int(month):02}.{year}"


def _key(words: str) -> str:
    """Words a form matched as a table's key: in small letters, one space between them ("a\xa0few": "a few")."""
    return " ".join(words.lower().split())


def _capitalized(german: str, capital: bool) -> str:
    """A form's German with a capital first letter where `capital` says so (where the English has one or a sentence
    starts with it)."""
    return german[0].upper() + german[1:] if capital else german


def _prepositions(form: re.Match) -> dict[str, str]:
    """The German of the prepositions a form may have."""
    if form.re is NAMED_PLACEHOLDER:
        return BEFORE_TIME if _kind(form) is CLOCK_TIME else BEFORE_DATE
    return {CLOCK_TIME: BEFORE_TIME, DIGITAL_TIME: BEFORE_TIME, NOON_OR_MIDNIGHT: BEFORE_TIME, SPOKEN_TIME: BEFORE_TIME,
            WEEKDAY: BEFORE_WEEKDAY,
            MONTH_PERIOD: BEFORE_MONTH, YEAR_PERIOD: BEFORE_YEAR, PLACE: BEFORE_PLACE}.get(form.re, BEFORE_DATE)


def _after_a_name(text: str, start: int) -> bool:
    """Whether a capitalized word stands right before `start` that is not a sentence's first ("Visit Munich." counts
    not), or that starts a name ("New Mexico", "East Germany")."""
    name = PLACE_AFTER_NAME.search(text, max(0, start - 20), start)
    if not name:
        return False
    return bool(NAME_BEFORE_PLACE.fullmatch(name["word"])) or not _starts_a_sentence(text, name.start())


def _a_sentence(text: str) -> bool:
    """Whether a text is a sentence, not a headword: its first letter is a capital."""
    return bool(letter := LETTER.search(text)) and letter.group().isupper()


def _starts_a_sentence(text: str, start: int) -> bool:
    """Whether a sentence starts at `start` (SENTENCE_START, searched in the few characters before it)."""
    return bool(SENTENCE_START.search(text, max(0, start - 16), start))


def _names_a_place(text: str) -> bool:
    """Whether a capitalized word of the text starts one of PLACES (before looking for them)."""
    return not PLACE_WORDS.isdisjoint(CAPITALIZED_WORD.findall(text))


def _kind(form: re.Match) -> re.Pattern:
    """A form's kind: after a time, a date or a day "to" goes on a range of its kind."""
    if form.re is NAMED_PLACEHOLDER:  # by its name: a date's, a time's or neither
        name = PLACEHOLDERS_NAME.search(form["placeholder"]).group()
        return DATES[0] if DATE_NAME.fullmatch(name) else CLOCK_TIME if TIME_NAME.fullmatch(name) else form.re
    if form.re in DATES or form.re is SLASH_DATE or form.re is ISO_DATE:
        return DATES[0]
    return CLOCK_TIME if form.re in (DIGITAL_TIME, NOON_OR_MIDNIGHT, SPOKEN_TIME) else form.re


def _slash_date_day(date: re.Match) -> int:
    """Which of a SLASH_DATE's numbers is the day, 1 or 2, or 0 where either could be (or neither: "13/13/2025")."""
    first, second = int(date["first"]), int(date["second"])
    return 1 if first > 12 >= second else 2 if second > 12 >= first else 0


def _german_time(time: re.Match) -> str:
    """A CLOCK_TIME or DIGITAL_TIME match on the 24-hour clock: "5 p.m." as "17 Uhr", "9:30 a.m." as "9:30 Uhr", "12
    a.m." as "0 Uhr", "17:00" as "17:00 Uhr"; in a range the first hour before noon where it is later than the second
    ("11-1 p.m.": "11–13 Uhr")."""
    if time.re is DIGITAL_TIME:  # its digits as written ("0:00 and 24:00" may be a value's bounds)
        clock = f"{time['hour']}:{time['minutes']}"
        if time["to_hour"]:
            clock += f"{RANGE_WORDS[time['range'].strip()]}{time['to_hour']}:{time['to_minutes']}"
        return f"{clock} Uhr"
    half = (time["half"] or time["half_undotted"] or "a").lower()
    hour, to_hour = int(time["hour"]) % 12, time["to_hour"] and int(time["to_hour"]) % 12
    after_noon = 12 if half == "p" else 0
    first = hour + (after_noon if to_hour is None or hour <= to_hour else 12 - after_noon)
    clock = _hour_minutes(first, time["minutes"])
    if to_hour is not None:
        clock += RANGE_WORDS[time["range"].strip()] + _hour_minutes(to_hour + after_noon, time["to_minutes"])
    return f"{clock} Uhr {time['zone']}" if time["zone"] else f"{clock} Uhr"


def _german_spoken_time(time: re.Match) -> str:
    """A SPOKEN_TIME as German says it: "zehn Uhr", "halb neun" (the half hour of the next), "Viertel nach vier",
    "zehn vor neun"; an hour in digits stays in digits ("half past 8": "halb 9")."""
    def hour(english: str, later: int = 0) -> str:
        number = (int(english) if english.isdigit() else HOUR_NUMBERS[english.lower()]) % 12 + later or 12
        return str(number) if english.isdigit() else GERMAN_HOURS[number - 1]
    sharp = "Punkt " if time["sharp"] else ""  # "at ten o'clock sharp": "um Punkt zehn Uhr"
    if time["oclock_hour"] or time["bare_hour"] or time["lone_hour"]:  # "one o'clock": "ein Uhr"; "seven in the
        german = hour(time["oclock_hour"] or time["bare_hour"] or time["lone_hour"])  # morning": "sieben Uhr"
        return f"{sharp}{'ein' if german == 'eins' else german} Uhr"
    if time["half"]:
        return f"{sharp}halb {hour(time['half_hour'], 1)}"
    if time["quarter"]:
        return f"{sharp}Viertel {SIDES[time['quarter_side']]} {hour(time['quarter_hour'])}"
    minutes = SPOKEN_MINUTES[time["minutes"].lower()]
    return f"{sharp}{minutes} {SIDES[time['minutes_side']]} {hour(time['minutes_hour'])}"


def _hour_minutes(hour: int, minutes: str | None) -> str:
    return f"{hour}:{minutes}" if minutes and minutes != "00" else str(hour)


# German quotes “…” and ‘…’ its own way: of the 2,555 training catalog messages with “…”, 2,355 write »…« (122 „…“,
# 15 keep “…”, whose “ closes a German quotation), of the 327 with ‘…’ 317 do. The marks are items (`quotation_marks`),
# so the translation had them as the English wrote them.
OPENING_QUOTATION_MARKS = ("“", "‘")


def german_quotation_marks(items: Sequence[str]) -> dict[int, list[tuple[int, int, str]]]:
    """By item number, (start, end, German mark) of the curly quotation marks that open or close an item ("“", "“%s”",
    "“Angela", a name beside its mark): "»" and "«"; a closing "’" only alone or after an opening "‘" in its item (an
    apostrophe ends "James’"). None where as many marks would not open as close (an item "Ctrl+“" holds one)."""
    marks: dict[int, list[tuple[int, int, str]]] = {}
    for number, item in enumerate(items):
        found = [(0, 1, "»")] if item.startswith(OPENING_QUOTATION_MARKS) else []
        if item[-1:] == "”" or item[-1:] == "’" and (item == "’" or item[0] == "‘"):
            found.append((len(item) - 1, len(item), "«"))
        if found:
            marks[number] = found
    opened = sum(mark == "»" for found in marks.values() for _, _, mark in found)
    return marks if 2 * opened == sum(map(len, marks.values())) else {}


def _attribute_safe(value: str, quote: str) -> str:
    """A translated attribute value that cannot end its attribute or open a tag: its quotation mark and "<" written
    as references (the model writes „…“ mostly, but may write the ASCII mark it read elsewhere); a key's name, which
    no quotation mark encloses (`german_key_names`), as it is."""
    if not quote:
        return value
    if quote == "]":  # an AsciiDoc link's text, which "]" would end
        return value.replace("]", "\\]")
    if quote == "`":  # a reStructuredText role's, which "`" would end and " <" give a target
        return value.replace("`", "\\`").replace("<", "\\<")
    return value.replace(quote, "&quot;" if quote == '"' else "&#39;").replace("<", "&lt;")


# A quotation of marks alone ("','", "'://'", "“\\”"): the syntax a message names, which the model dropped or
# changed with its quotation marks ("invalid number after '.'" came back as "Ungültige Zahl nach .."); one item, as a
# quotation in GNU's `quotes' is
SYMBOLS_ONLY = re.compile(r"[^\w\s]+")


# ASCII quotes around a term: a label, a value, a word named (up to four words, no punctuation: "Click 'Save'", "the
# option 'Show hidden files'"). As text, the model dropped them ("Click 'Save' to continue." came back as "Klicken Sie
# Speichern, um fortzufahren."): of 408 held-out catalog messages with quoted words, 217 came back with their marks,
# 375 with them as items. Translations changed: software test 216, chrF 47.75 -> 50.19, BLEU 18.46 -> 26.66 (the
# split: 56.35 -> 56.43, 33.77 -> 34.05), validation 32, 56.38 -> 57.30; dictionary test and validation 5 and 6,
# 33.99 -> 28.40 and 36.24 -> 35.97 (their references write „…“ where the items keep '…'). A quoted sentence stays
# text, which the model localizes ("'What have you done?'": "„Was hast du getan?“").
# One word in small letters in ASCII quotes: a name (a command's, a value's, a setting's: "Run the 'locate' dialog"
# came back as "Den Dialog 'Siele ausführen'", "'joe'" as "'Vertreten'", "'sudo'" as "'Sudo'"), kept whole. The
# held-out catalogs' references keep 139 of 174 such words as written (they translate "'tooltip'", "'files'"): of
# their 149 messages with one, chrF 55.51 -> 57.36, BLEU 34.70 -> 35.77, such words kept 107 -> 139 of the 139 that
# their references keep.
NAME_QUOTED = re.compile(r"[a-z][\w.+-]*")
JSON_KEY_ITEM = re.compile(JSON_KEY)
QUOTED_TERM = re.compile(r"[^.!?,;:\s\\]+(?: [^.!?,;:\s\\]+){0,3}")  # no backslash: '\"hi\"' in a string is escaped
# What a quotation of direct speech holds: words from a capital to a sentence's mark ("We will be there tomorrow.",
# "I will come," he said). Read inside its sentence, the model (which met quotations only as the labels and values
# of software messages) kept the first word English: 'He said: "We will be there tomorrow."' came back 'Er sagte: "We
# wird morgen da sein."', '"I am tired."' as '"I gültig."'. Its marks separate segments (`quotations`). Not a label
# that ends in an ellipsis, a menu's ("the 'Open With...' dialog").
DIRECT_SPEECH = re.compile(r"[A-ZÀ-ÖØ-Þ]\S*(?: \S+)*(?<![.…])[.!?,]")
# Where direct speech starts: the text's start, or after a mark ('the "How does this work?" link' names a link)
SPEECH_FOLLOWS = ("", ":", ",", ".", "!", "?", "\n")


def quotation_marks(text: str, pattern: re.Pattern, literals: bool = True,
                    speech: bool = True) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(start, end) of the two marks of each quotation in text (`QUOTED`): in curly marks, TeX's ``quotes'' or GNU's
    `quotes', or in ASCII single or double quotes around what is one item to the model, items `pattern` matches with
    nothing but spaces or JOINING_MARKS between them (`runs_merged`: "'%s:%d'", "'%s %s'"). With `literals` (served
    with placeholders, as measured), a quotation in GNU's `quotes' or of marks alone (SYMBOLS_ONLY) is kept whole, as
    placeholders are, and ASCII quotes around a QUOTED_TERM or, with `speech` (not in a configuration file, whose
    quotes are syntax), DIRECT_SPEECH are items too. Second, (start, end) of each quotation of DIRECT_SPEECH."""
    one_item = _joined_items(pattern.pattern, pattern.flags)  # keyed by the source, whose hash a str keeps
    names = "'" if JSON_KEY_ITEM.search(text) else "'\""  # a JSON object's strings in double quotes are values
    marks: list[tuple[int, int]] = []
    speeches: list[tuple[int, int]] = []
    for quoted in QUOTED.finditer(text):
        start, end = quoted.span()
        if text.startswith("``", start):  # TeX's double quotes: words, as in curly marks (of two characters each)
            marks += [(start, start + 2), (end - 2, end)]
            continue
        if literals and (text[start] == "`" or SYMBOLS_ONLY.fullmatch(text, start + 1, end - 1)
                         or text[start] in names and NAME_QUOTED.fullmatch(text, start + 1, end - 1)):
            marks.append((start, end))
            continue
        spoken = literals and speech and _spoken(text, start, end, names)
        if (spoken or text[start] not in "'\"" or one_item.fullmatch(text, start + 1, end - 1)
                or literals and QUOTED_TERM.fullmatch(text, start + 1, end - 1)):
            marks += [(start, start + 1), (end - 1, end)]
            speeches += [(start, end)] if spoken else []
    return marks, speeches


def _spoken(text: str, start: int, end: int, names: str) -> bool:
    """Whether the quotation text[start:end] is DIRECT_SPEECH at the text's start or after a mark (SPEECH_FOLLOWS),
    in marks that quote (`names`: in JSON, ASCII double quotes enclose values)."""
    return ((text[start] in names or text[start] not in "'\"") and _mark_before(text, start) in SPEECH_FOLLOWS
            and bool(DIRECT_SPEECH.fullmatch(text, start + 1, end - 1)))


def _mark_before(text: str, position: int) -> str:
    """The character before position and the spaces and Markdown emphasis before it ("" at the text's start)."""
    while position and text[position - 1] in " *_":
        position -= 1
    return text[position - 1:position]


ASCII_QUOTES = frozenset("'\"")


def quoting_references(masked: str, protected: Sequence[str]) -> set[int]:
    """Items of quotation marks written as character references, paired as QUOTED pairs marks: ASCII ones ("&quot;",
    "&#39;") around a QUOTED_TERM, curly ones ("&ldquo;", "&bdquo;", "&laquo;") around anything on one line. Read as
    tokens, as such marks written as characters are items (`quotation_marks`), so that a web page's escaped text is
    translated as its plain text is: read as characters, "&ldquo;Plain text&rdquo; is the default" lost its
    "&ldquo;"."""
    marks = [(token, unescape(protected[int(token.group(1))])) for token in PLACEHOLDER_PATTERN.finditer(masked)
             if ONE_REFERENCE.fullmatch(protected[int(token.group(1))])]
    found: set[int] = set()
    opened: dict[str, re.Match] = {}  # by the mark that closes it
    for token, mark in marks:
        before, after = masked[token.start() - 1:token.start()], masked[token.end():token.end() + 1]
        if mark not in ASCII_QUOTES:  # a letter or digit beside a curly mark, not a token's ("<p>&ldquo;")
            before = "" if token_ending_at(masked, token.start()) else before
            after = "" if PLACEHOLDER_PATTERN.match(masked, token.end()) else after
        if mark in ASCII_QUOTES:  # the same mark opens and closes: the next one closes, or fails to
            if (opening := opened.pop(mark, None)) is None:
                if not before.isalnum():
                    opened[mark] = token
            elif _quotes_pair(masked, opening, token, mark, after):
                found |= {int(opening.group(1)), int(token.group(1))}
        elif (opening := opened.get(mark)) is not None and _quotes_pair(masked, opening, token, mark, after):
            found |= {int(opening.group(1)), int(token.group(1))}
            del opened[mark]
        elif mark in CURLY_CLOSING and not before.isalnum():  # "“" closes "„" (above) or opens
            opened[CURLY_CLOSING[mark]] = token
    return found


CURLY_CLOSING = {"“": "”", "‘": "’", "„": "“", "«": "»", "‹": "›"}  # each opening mark's closing one (QUOTED's)


def _quotes_pair(masked: str, opening: re.Match, closing: re.Match, mark: str, after: str) -> bool:
    """Whether a reference to `mark` closes the quotation a reference `opening` opened (not an apostrophe:
    "don’t")."""
    inside = masked[opening.end():closing.start()]
    if mark in ASCII_QUOTES:
        return QUOTED_TERM.fullmatch(inside) is not None and not after.isalnum()
    return 0 < len(inside) <= 200 and "\n" not in inside and not (mark == "’" and after.isalnum())


@functools.cache
def _joined_items(pattern: str, flags: int) -> re.Pattern:
    """Items `pattern` matches, one or several with spaces or JOINING_MARKS between them, and JOINING_MARKS before
    or after them: an option, an extension, a key ("'--%s'", "'-%c'", "'.%s'", "'%s='"), whose quotes the model
    dropped in 27 of 98 held-out and catalog messages ("Invalid option '--%s'" came back as "Ungültige Option
    --%s"); unquoted, a sentence split inside one ("expected '.%s' here": "expected '.%s" and "' here"). Each item is
    read as the masking scan reads it (atomic: the first alternative that matches, its first match) and each item
    with the marks before it is kept once found (possessive), never read two ways: where two alternatives matched one
    span (a code span's two), or marks and items cut a run of "+" many ways (AsciiDoc's "+++x+++"), each further item
    multiplied the work of a failed match (quoted, "-`" * 40 + "a" took 4.5 s; "+" * 60 + "!" 47 ms, each 10 more 5x).
    Of 160,063 quotations in real texts 2 read otherwise now, and their texts are masked as before."""
    item, marks = f"(?>{pattern})", f"(?:{JOINING_MARKS.pattern})?"
    return re.compile(rf"{marks}{item}(?:(?: *|{JOINING_MARKS.pattern}){item})*+{marks}", flags)


def items_over(masked: str, protected: Sequence[str], spans: Spans) -> set[int]:
    """The items of the masked text that hold part of one of these spans of its text."""
    if not spans:
        return set()
    _, tokens, starts = as_written(masked, protected)
    over = set()
    for token, start in zip(tokens, starts):
        end = start + len(protected[int(token.group(1))])
        k = bisect_right(spans, (start, math.inf)) - 1  # the last span starting at or before the item
        if k >= 0 and spans[k][1] > start or k + 1 < len(spans) and spans[k + 1][0] < end:
            over.add(int(token.group(1)))
    return over


def as_written(masked: str, protected: Sequence[str]) -> tuple[str, list[re.Match], list[int]]:
    """The masked text with each token's item in its place, its tokens, and where each token's item starts there."""
    tokens = [token for token in PLACEHOLDER_PATTERN.finditer(masked) if int(token.group(1)) < len(protected)]
    pieces, starts, length, position = [], [], 0, 0
    for token in tokens:
        pieces += [masked[position:token.start()], protected[int(token.group(1))]]
        starts.append(length + len(pieces[-2]))
        length = starts[-1] + len(pieces[-1])
        position = token.end()
    return "".join(pieces) + masked[position:], tokens, starts


def json_values(masked: str, protected: list[str]) -> list[str]:
    """The masked text cut around each JSON object's string value or string in an array after a key
    (JSON_STRING_VALUE, JSON_ARRAY_STRING, found in the text as written) or on a line of its own (JSON_STRING_LINE):
    the text before, the value, the rest. A token that holds a quotation mark and an item of the value ('"%s') is
    the value's."""
    written, tokens, starts = as_written(masked, protected)
    ends = [start + len(protected[int(token.group(1))]) for start, token in zip(starts, tokens)]
    line = JSON_STRING_LINE.fullmatch(written)  # the caller saw a key in the text
    if not line and not any(JSON_KEY_NAME.search(written, start, end) for start, end in zip(starts, ends)):
        return [masked]  # keys are items

    def cut(mark: int, value_after: bool) -> int:
        """The masked offset of a cut beside the quotation mark at `mark` of the written text, on the value's side."""
        k = bisect_right(starts, mark) - 1
        if k < 0 or ends[k] <= mark:  # the mark is no token's: as far from the last token's end as in the masked text
            return mark + value_after + (tokens[k].end() - ends[k] if k >= 0 else 0)
        holds_value = ends[k] > mark + 1 if value_after else starts[k] < mark
        return tokens[k].start() if holds_value == value_after else tokens[k].end()

    values = [line.span(1)] if line else []
    for value in JSON_STRING_VALUE.finditer(written):
        if value.group(1) is not None:
            values.append(value.span(1))
            continue
        position = value.end()  # an array: its strings, while nothing else comes
        while element := JSON_ARRAY_STRING.match(written, position):
            values.append(element.span(1))
            position = element.end()
            if element.group(2):
                break
    def inside_an_item(start: int, end: int) -> bool:  # a value in a code block's item, say: no text
        k = bisect_right(starts, start) - 1
        return k >= 0 and ends[k] >= end

    cuts = [(cut(start - 1, True), cut(end, False)) for start, end in values if not inside_an_item(start - 1, end + 1)]
    return cut_around(masked, [(start, end) for start, end in cuts if start < end])


def clauses(sentence: str, separators: set[int]) -> list[str]:
    """The sentence cut around each placeholder token of `separators` that whitespace or the end follows: the clauses
    and, between them, the tokens with their whitespace (no letters: glue, not translated)."""
    return cut_around(sentence, [token.span() for token in PLACEHOLDER_PATTERN.finditer(sentence)
                                 if int(token.group(1)) in separators
                                 and (token.end() == len(sentence) or sentence[token.end()].isspace())])


# A speech's tag after its quotation, a pronoun and a verb ("she said."), and its German as the model writes it ("sie
# sagte."), which German writes verb first ("„Ich komme“, sagte sie.").
SPEECH_TAG = re.compile(r"(?:he|she|it|I|we|they) [a-z]+[.!?]?")
GERMAN_SPEECH_TAG = re.compile(r"^(?P<pronoun>er|sie|es|ich|wir)[ \xa0](?P<verb>[a-zäöüß]+)(?P<end>[.!?]?)$",
                               re.IGNORECASE)
LAST_TOKEN = re.compile(rf"{PLACEHOLDER_PATTERN.pattern}[,!?]?\s*$")  # a glue's last mark, and a comma after it


def speech_segments(prepared: Prepared, marks: dict[int, bool]) -> tuple[set[int], set[int]]:
    """The segments that direct speech's opening marks (`speech_marks`) precede and that start from a capital, and
    those after its closing marks that are a tag (SPEECH_TAG)."""
    starts, tags = set(), set()
    for index, segment in enumerate(prepared.segments):
        if (mark := LAST_TOKEN.search(prepared.glue[index])) and (number := int(mark.group(1))) in marks:
            if not marks[number] and segment[:1].isupper():
                starts.add(index)
            elif marks[number] and SPEECH_TAG.fullmatch(segment):
                tags.add(index)
    return starts, tags


def speech_marks(masked: str, protected: Sequence[str], speech: list[tuple[int, int]]) -> dict[int, bool]:
    """By item number, whether each of direct speech's quotation marks (`speech`: in pairs, opening and closing)
    closes its quotation."""
    opening = items_over(masked, protected, speech[0::2])
    return {number: number not in opening for number in opening | items_over(masked, protected, speech[1::2])}


def german_speech_mark(item: str, closes: bool) -> list[tuple[int, int, str]]:
    """(start, end, German mark) of an ASCII quotation mark of direct speech: „ and “, as the dictionary's references
    write 87 of 103 quotations of speech (the model wrote them; it no longer reads the marks). A curly one is as
    `german_quotation_marks` writes it."""
    return [(0, 1, "“" if closes else "„")] if item in ASCII_QUOTES else []


def quotations(clause: str, marks: dict[int, bool]) -> list[str]:
    """The clause cut around each placeholder token of `marks` (direct speech's quotation marks, `speech_marks`): the
    words before, the opening mark, the speech, the closing mark, the rest (marks alone are glue, not translated). A
    comma that ends the speech follows its closing mark, where German writes it ('"Ich komme morgen", sagte er'):
    read at the segment's end, the model repeated words before it ("I will be there tomorrow," came back "Ich werde
    morgen sein, morgen")."""
    if not marks:
        return [clause]
    parts = cut_around(clause, [token.span() for token in PLACEHOLDER_PATTERN.finditer(clause)
                                if int(token.group(1)) in marks])
    for k in range(1, len(parts)):
        token = PLACEHOLDER_PATTERN.fullmatch(parts[k])
        if token and marks.get(int(token.group(1))) and parts[k - 1].endswith(","):  # a closing mark
            parts[k - 1], parts[k] = parts[k - 1][:-1], parts[k] + ","
    return [part for part in parts if part]


def cut_around(text: str, spans: list[tuple[int, int]]) -> list[str]:
    """The text cut before and after each of the (start, end) spans, in order: the parts between them and the spans
    themselves, none empty."""
    parts, done = [], 0
    for start, end in spans:
        parts += [text[done:start], text[start:end]]
        done = end
    return [part for part in parts + [text[done:]] if part]


# A parenthesis after whitespace (or at the start) around words: "Dereference symbolic links (ie look at what is linked
# to, not the link itself)". Read with its sentence, the model dropped a parenthesis and the words beside it ("How
# (else) to create new names:" came back as "Wie (eine neue Namen:"; 41 of 15,175 held-out software messages with
# balanced ones came back unbalanced, 15 now): the sentence and the words inside are translated apart, the marks
# kept between them. A word's own parenthesis ("file(s)") and one around placeholders or numbers ("(%s)") stay read.
PARENTHETICAL = re.compile(r"(?:(?<=\s)|^)\(([^()]*)\)")


def parentheticals(clause: str) -> list[str]:
    """The clause cut around each PARENTHETICAL with a word inside: the text before it, "(", the words, ")", the
    rest (marks alone are glue, not translated)."""
    return cut_around(clause, [mark for found in PARENTHETICAL.finditer(clause)
                               if CASED_WORD.search(PLACEHOLDER_PATTERN.sub(" ", found.group(1)))
                               for mark in ((found.start(), found.start() + 1), (found.end() - 1, found.end()))])


LEADING_PLACEHOLDERS = re.compile(rf"(?:{PLACEHOLDER_PATTERN.pattern})+\s*")


def closing_tokens_kept(parts: list[str]) -> list[str]:
    """Sentences with the placeholder tokens that follow a sentence's end without a space moved back onto it (with
    the whitespace after them). A masked closing quote or bracket reads to the segmenter as the next sentence's
    start: 'He said: "I will come." Delete %s files?' with the model's unknown '"' masked split into
    'He said: XX0XI will come.' and 'XX1X Delete XX2X files?', and the space after the quote was lost with it."""
    kept: list[str] = []
    for part in parts:
        if kept and kept[-1] and not kept[-1][-1].isspace() and (tokens := LEADING_PLACEHOLDERS.match(part)):
            kept[-1] += tokens.group(0)
            part = part[tokens.end():]
            if not part:
                continue
        kept.append(part)
    return kept


def segment_texts(texts: list[str], tokenizer, limits: Limits, preserve_placeholders: bool = True,
                  html: bool = False, take_out_tags: bool = False, glossary: Glossary | None = None
                  ) -> tuple[list[Prepared], list[list[int]]]:
    """Every text prepared with sentences that fit the limits' max_source_tokens, cut between words down to their
    segment_tokens, and the token ids of all their segments in order (the model's inputs). Each string is tokenized
    once: the ids found while looking for unknown characters in a text and while checking a sentence's fit are the
    ones returned (a one-sentence text is all three)."""
    ids: dict[str, list[int]] = {}

    def encoded(text: str) -> list[int]:
        if text not in ids:
            ids[text] = tokenizer.encode(text)
        return ids[text]

    prepared = [prepare(text, preserve_placeholders, html,
                        lambda segment: len(encoded(segment)) <= limits.max_source_tokens,
                        lambda whole: tokenizer.unknown_spans(whole, encoded(whole)), take_out_tags,
                        lambda segment: len(encoded(segment)) <= limits.segment_tokens, glossary) for text in texts]
    return prepared, [encoded(s) for p in prepared for s in p.segments]


@dataclass(frozen=True)
class Separator:
    text: str


# Every line boundary that str.splitlines knows (U+2028 comes from word processors and JavaScript strings, form
# feeds from plain-text documents, not only \n), tabs, which separate a table's cells, and runs of two spaces or more,
# which separate columns ("  -W, --pwprompt   prompt for a password": a help text's option and what it does; 2,012 of
# 54,638 catalog messages have such runs, and the German keeps them in 1,930; the model wrote one space and dropped
# words: "-W, --pwprompt anzeigen"): kept exactly, never translated, and a boundary between segments.
BREAKS = r"\r\n|[\t\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]| {2,}"
# A help text's table of commands, keywords or values: its first column on an indented line, a word in small letters
# (with the arguments it takes in capitals or brackets), before a gap and what it does ("   clone      Clone a
# repository", "   erase CHAR    CHAR will erase the last character typed"). It is what a user types, and the German
# keeps it (of such terms in the 86 catalogs installed here, the first word stays in 201 of 233 and in most of the
# others, which translate the argument: "eof ZEICHEN"); read, the model translated it (of 136 in 1,770 held-out catalog
# messages it changed 97: "Klone", "Lösche CHAR", "ascii" as "Aszii", "sane" as "südlich"). Kept as written. Also
# words that say the same value ("  none, off       never make backups", "  c, u   create a character special file":
# "nicht, aus", "C, u") and a setting that "[-]" turns off (stty's "   [-]ignpar     ignore characters with parity
# errors": "[-]parodd" came back as "[-]parod"). And an example's command line, the program's placeholder and its
# arguments ("  %s -hR root /u    Change the owner of /u ...", "  %s start     start the server"): "root" came back
# as "Wurzel", "staff" as "Personal"; the installed catalogs' German keeps 17 of 17. Not an option's token and its
# value, which catalogs translate ("  -a FILENUM   ...": "-a DATEINUM"). A term's argument may be glued to it in
# brackets (od's "  d[SIZE]    signed decimal", which came back as "d[SIZEICH]"; coreutils' German writes "d[ANZAHL]").
# Its arguments are possessive: a token ("XX12X") is also a word in capitals, so a line that was no term tried every
# way of reading its tokens before failing (exponential: "cmd [-a] <b> [-a] <b> ..." of 1,600 characters never ended).
TERM_WORD = r"[a-z][a-z0-9_-]*"  # what a user types, in small letters
TABLE_TERM = re.compile(rf"(?:\[-\])?{TERM_WORD}(?:\[[^\]\s]+\])?(?:, {TERM_WORD})*"
                        r"(?: (?:[A-Z][A-Z0-9_-]*|XX\d+X|\[[^\]\s]+\]|\.\.\.))*+")
EXAMPLE_TERM = re.compile(rf"{PLACEHOLDER_PATTERN.pattern}(?: \S+)+")  # the program's placeholder's token, arguments
PROGRAM_PLACEHOLDER = re.compile(r"%(?:\d+\$)?s(?!\S)")  # (its item may hold the options after it: "%s -hR")
# What a term precedes: a gap of three spaces or more or a tab, and text on the same line, with no gap nearly as wide
# (one space less): a paragraph justified to both margins spreads its lines evenly ("       vice   account  must
# hold", "   document           containing          a")
TABLE_TERM_GAP = re.compile(r"(?: {3,}|\t)[ \t]*(?=\S)")
# Or a term alone on its indented line, what it does on the lines after it, indented deeper (psql's variables,
# "  AUTOCOMMIT\n    if set, successful SQL commands are automatically committed"; objdump's "  intel-mnemonic\n
# Display instruction in Intel mnemonic"): a word in small letters or in capitals. The installed catalogs' German keeps
# 66 of the 67; read, the model translated 8 of the 46 in the held-out catalog messages ("AUTOMATISCH EINSPIELEN",
# "SPALTEN", "RECHNER").
TERM_ALONE = re.compile(rf"{TERM_WORD}|[A-Z][A-Z0-9_]+")
# A term may follow a list's bullet: stty's help marks the settings POSIX lacks so (" * cols N        tell the kernel
# that the terminal has N columns" came back as " * Spalten N ..."; coreutils' German keeps 33 of its 40 such terms and
# translates the others' argument, "dsusp ZEICHEN")
BULLETS = ("*", "•", "-")
TERM_BULLET = re.compile(rf"(?:[{re.escape(''.join(BULLETS))}]|XX(\d+)X)[ \t]+")
DESCRIPTION_BELOW = re.compile(r"[ \t]*\r?\n([ \t]*)(?=\S)")


PRE_TAG = re.compile(rf"</?pre\b{ATTRIBUTES}>", re.IGNORECASE)
BREAK_OR_TOKEN = re.compile(rf"{BREAKS}|{PLACEHOLDER_PATTERN.pattern}(?!\d)")
INDENTATION = re.compile(r"[ \t]*")
LINE_LEAD = re.compile(r"[ \t]*(?:>[ \t]*)*")  # indentation, and an e-mail's quotation marks
# In plain text, a line break left inside a part wraps its sentence (`_wrap_end`): with the space before it and the
# next line's lead. The model reads it as the one space the tokenizer makes of any whitespace (quotation marks are
# blanked: `_blanked`).
LINE_BREAK = re.compile(rf" ?(?:\r\n|\n){LINE_LEAD.pattern}")


def table_term(masked: str, start: int, end: int, protected: Sequence[str]) -> bool:
    """Whether masked[start:end], a part between separators, is a help text's table's term (TABLE_TERM or an
    EXAMPLE_TERM before a gap, or TERM_ALONE on its line; after a list's bullet, TERM_BULLET, or not); `protected`:
    the items of the text's tokens."""
    start = INDENTATION.match(masked, start, end).end()  # an indentation of one space is no separator
    bullet = TERM_BULLET.match(masked, start, end)  # (a mark the vocabulary lacks is an item's token)
    term = bullet.end() if bullet and (bullet[1] is None or protected[int(bullet[1])] in BULLETS) else start
    below = TERM_ALONE.fullmatch(masked, term, end) and DESCRIPTION_BELOW.match(masked, end)
    gap = not below and _a_terms_shape(masked, term, end, protected) and TABLE_TERM_GAP.match(masked, end)
    if not (below or gap):  # first: a term's shape, not the whitespace before it (a text of spaces and tabs)
        return False
    lead = start  # the line's start, read back over its indentation alone (not the whole line: a text of one line)
    while lead and masked[lead - 1] in " \t":
        lead -= 1
    if lead == start or lead and masked[lead - 1] not in "\n\r":
        return False
    if below:
        return len(below.group(1).expandtabs()) > len(masked[lead:start].expandtabs())
    line_end = masked.find("\n", gap.end())  # (once a line: its first part alone follows indentation alone)
    rest = masked[gap.end():line_end if line_end >= 0 else None]
    return "\t" in gap.group() or " " * (len(gap.group()) - 1) not in rest


def _a_terms_shape(masked: str, start: int, end: int, protected: Sequence[str]) -> bool:
    """Whether masked[start:end] is a TABLE_TERM, or an EXAMPLE_TERM whose token is the program's placeholder."""
    if TABLE_TERM.fullmatch(masked, start, end):
        return True
    example = EXAMPLE_TERM.fullmatch(masked, start, end)
    return example is not None and PROGRAM_PLACEHOLDER.match(protected[int(example[1])]) is not None


def _blocks(layout: "_Layout", html: bool, breaks: set[int]) -> list[str | Separator]:
    """The layout's masked text cut at BREAKS and at the placeholders of block-level tags (one pattern for every
    token, not an alternative per block tag: thousands of "<p>" made the split quadratic). In HTML a line break, tab
    or run of spaces is a space except inside <pre>: a page's source wraps its lines anywhere, and "<p>We offer\n
    great products.</p>" reached the model as "We offer" and "great products."."""
    masked, protected = layout.masked, layout.protected
    blocks = _block_tags(protected, html) | _siblings_apart(masked, protected) | breaks
    pre = {i: -1 if item[1] == "/" else 1 for i, item in enumerate(protected) if html and PRE_TAG.fullmatch(item)}
    parts: list[str | Separator] = []
    done, in_pre, wrapped = 0, 0, 0  # wrapped: where the lead of the line after the last line break that wraps ends
    for found in BREAK_OR_TOKEN.finditer(masked):
        if found.start() < wrapped:
            continue
        if found.group(1) is None:
            if not html and (wrapped := _wrap_end(masked, found, done, wrapped > done, layout)):
                continue
            separates = not html or in_pre > 0
        else:
            in_pre = max(0, in_pre + pre.get(int(found.group(1)), 0))
            separates = int(found.group(1)) in blocks
        if separates:
            parts += [masked[done:found.start()], Separator(found.group())]
            done = found.end()
    return parts + [masked[done:]]


# A line break inside a sentence that was wrapped to a width: a README's or an e-mail's paragraph, a subtitle's second
# line, a help text's description continued under it ("print C-style escapes for nongraphic\n   characters"). Read as a
# boundary, it sent the model pieces of a sentence ("Print CP0 register and HWR names according to specified" and
# "architecture." came back as "CP0-Register und HWR-Namen entsprechend ausgeben" and "Architektur."); read as a space,
# the sentence is translated whole where it is short enough to be one segment, else cut as a sentence on one line is, at
# the clause mark or space nearest its middle (`split_to_fit`; before a line break there, `_before_line_break`), not at
# every line break, which cut it wherever the width fell ("Wput is a tiny ftp-client, that uploads files or directories
# to a" and "remote ftp-server." lost "uploads"); each break goes back at the same share of its piece's translation
# (`rewrapped`). A break wraps where the line has three words or more and ends in a word, a number, a comma or a closing
# quotation mark, the next line goes on at the same left edge (a list item's text's) and behind as many of an e-mail's
# quotation marks with a word in lower case, no label ("  or: %s [OPTION]..." of a usage text), and that word would not
# have fit on the line within its paragraph's longest line (a paragraph ends at a blank line and where a list item
# starts): lines of a list of messages ("Lag order %*d" before "as the default command for files of type %s?") are
# apart. Never after a sentence's end, a colon, a bracket or a semicolon: code, a list's heading, a label.
WRAPPING_END = frozenset(",\"'’”»")
CONTINUATION = re.compile(r"(?:[^\W\d_]{2,}|a(?= [^\W\d_]))(?![\w:])")


def _wrap_end(masked: str, found: re.Match, part_start: int, wrapping: bool, layout: "_Layout") -> int:
    """Where the lead of the line after the line break `found` ends if the break wraps a sentence (0 if not). The
    part runs from `part_start`, `wrapping` if a line break in it wraps already."""
    if found.group() not in ("\n", "\r\n"):
        return 0
    if found.start() in layout.joined:
        return LINE_LEAD.match(masked, found.end()).end()
    end = found.start() - (masked[found.start() - 1:found.start()] == " ")  # one space may end the line
    last = masked[end - 1:end]
    if end <= part_start or not (last.isalnum() or last in WRAPPING_END):
        return 0
    start = LINE_LEAD.match(masked, found.end()).end()
    words = start  # where the next line's words start: after a number that opens it ("over\n20 years of")
    if ((token := PLACEHOLDER_PATTERN.match(masked, start)) and masked[token.end():token.end() + 1] == " "
            and layout.item(token)[:1].isdecimal()):
        words = token.end() + 1
    if not masked[words:words + 1].islower() or not CONTINUATION.match(masked, words):
        return 0
    if not wrapping and len(masked[part_start:end].split(maxsplit=3)) < 3:
        return 0
    next_lead = masked[found.end():start]
    if (len(next_lead), next_lead.count(">")) != layout.lead(part_start):
        return 0
    word = WORD.match(masked, start)
    width, longest = layout.widths_at(found.start())
    fits = width + 1 + layout.written_width(word.start(), word.end()) <= longest
    return 0 if fits else start


BLANK = re.compile(r"[ \t\r]*")


class _Layout:
    """The masked text's lines as written (each token as wide as its item), read once, where a line break might
    wrap: each line's width, its paragraph's longest line (a paragraph ends at a blank line and where a list item
    starts), and a part's lead. Widths are of `written`, the masked text before words hyphenated at a line's end
    were joined (`dehyphenated`), where its lines are the same: the width they were wrapped to (a joined word widened
    its line and narrowed the next); `joined`: where the line breaks it moved start."""

    def __init__(self, masked: str, protected: list[str], written: str = "", joined: Container[int] = frozenset()):
        self.masked, self.protected, self.written, self.joined = masked, protected, written or masked, joined
        self.leads: dict[int, tuple[int, int]] = {}  # a part's start -> `lead` (it reads back to its line's start)
        self.starts: list[int] = []  # each line's start
        self.widths: list[int] = []  # each line's width
        self.longest: list[int] = []  # each line's paragraph's longest line

    def item(self, token: re.Match) -> str:
        number = int(token.group(1))
        return self.protected[number] if number < len(self.protected) else ""

    def written_width(self, start: int, end: int, masked: str = "") -> int:
        return end - start + sum(len(self.protected[number]) - len(token.group())
                                 for token in PLACEHOLDER_PATTERN.finditer(masked or self.masked, start, end)
                                 if (number := int(token.group(1))) < len(self.protected))

    def lead(self, part_start: int) -> tuple[int, int]:
        """The column where a part's text starts on its line, after its indentation and any list item's marker, and
        how many quotation marks of an e-mail lead the line."""
        if part_start not in self.leads:
            text = _text_start(self.masked, part_start, self.protected)
            line_start = self.masked.rfind("\n", 0, part_start) + 1
            self.leads[part_start] = (self.written_width(line_start, text),
                                      LINE_LEAD.match(self.masked, line_start).group().count(">"))
        return self.leads[part_start]

    def widths_at(self, position: int) -> tuple[int, int]:
        """The width of the line `position` is on, and of its paragraph's longest line."""
        if not self.starts:
            self._read()
        line = bisect_right(self.starts, position) - 1
        return self.widths[line], self.longest[line]

    def _starts_an_item(self, masked: str, line_start: int) -> bool:
        """Whether a line of a masked text starts a list item (an e-mail's quotation marks start none)."""
        marker = list_marker(masked, self.protected, INDENTATION.match(masked, line_start).end())
        return marker is not None and not marker.group().startswith(">")

    def _read(self) -> None:
        self.starts = _line_starts(self.masked)
        # as written, where joining a word moved a line's words (its lines are the same unless a break went with it)
        written = self.written if self.written.count("\n") == len(self.starts) - 1 else self.masked
        self.widths, paragraphs = self._lines(written)
        self.longest = [0] * len(self.starts)
        for first, end, longest in paragraphs:
            self.longest[first:end] = [longest] * (end - first)

    def _lines(self, masked: str) -> tuple[list[int], list[tuple[int, int, int]]]:
        """Each line's width in a masked text, and each paragraph's first line, the line after its last and its
        longest line's width."""
        starts = _line_starts(masked)
        ends = [start - 1 for start in starts[1:]] + [len(masked)]
        widths = [self.written_width(start, end - (masked[end - 1:end] == "\r"), masked)
                  for start, end in zip(starts, ends)]
        # Lines without a letter set no width: a subtitle's number and times ("00:00:01,000 --> 00:00:04,000") are
        # wider than its two lines of text
        worded = [width if LETTER.search(PLACEHOLDER_PATTERN.sub("", masked[start:end])) else 0
                  for width, start, end in zip(widths, starts, ends)]
        paragraphs, first = [], 0  # first: the paragraph's first line
        for line, (start, end) in enumerate(zip([*starts, len(masked)], [*ends, len(masked)])):
            blank = line == len(starts) or BLANK.match(masked, start).end() == end
            if blank or self._starts_an_item(masked, start):
                paragraphs.append((first, line, max(worded[first:line], default=0)))
                first = line + blank
        return widths, paragraphs


def _line_starts(text: str) -> list[int]:
    return [0, *(found.end() for found in re.finditer("\n", text))]


# A paragraph justified to both margins, as nroff sets a manual page: the runs of spaces it spreads between words
# ("Michael  Burrows  and  David Wheeler") separated segments, as a help text's columns do, and the model translated
# words alone ("structured", "coding"). In a paragraph of three lines or more all as long as its longest but the
# last (or of two, the first as wide as a page's text, the last spread nowhere and under the first's text: 180 of
# the 1,342 paragraphs of 80 rendered manual pages), runs of two or three spaces between words are one space; a help
# text's columns (lines of many lengths, wider gaps), a table's (gaps that end at one column on three lines and half
# or more) and one drawn with rules ("│") stay.
JUSTIFIED_GAP = re.compile(r"(?<=[\w,.;:!?)\]\"'’]) {2,3}(?=[\w(\[\"'‘])")
# Inside a sentence: where two spaces end one (typewriter's spacing) or follow a label ("Debian:   http://...") or a
# list item's marker ("o  References"), nothing says the line is justified
SPREAD_GAP = re.compile(r"(?<=[\w,;)\]\"'’]) {2,3}(?=[\w(\[\"'‘])")
COLUMN_GAP = re.compile(r"(?<=\S) {2,}(?=\S)")
JUSTIFIED_WIDTH = 60  # a justified paragraph's lines of two: the first as wide as a page's text (nroff's: 78 on 80)


def unjustified(text: str) -> str:
    """The text with the runs of spaces that justify its paragraphs' lines (JUSTIFIED_GAP) one space; not in a code
    block, which is kept as written (a fence never closed made the rest of a text code, whose "house  house" came
    back with one space)."""
    paragraphs = re.split(r"(\n[ \t]*\n)", text)
    starts = list(accumulate(map(len, paragraphs), initial=0))
    blocks = code_blocks(text) if "```" in text or "~~~" in text else []
    for index in range(0, len(paragraphs), 2):
        if any(start < starts[index + 1] and starts[index] < end for start, end in blocks):
            continue
        lines = paragraphs[index].split("\n")
        width = max(len(line.rstrip()) for line in lines)
        if len(lines) < 2 or any(len(line.rstrip()) != width for line in lines[:-1]):
            continue  # lines of many lengths (trailing spaces, a table's padding, aside): not justified
        if len(lines) == 2 and not _justified_above_its_last(*lines):
            continue
        columns = Counter(gap.end() for line in lines for gap in COLUMN_GAP.finditer(line))
        if columns and (aligned := columns.most_common(1)[0][1]) >= 3 and 2 * aligned >= len(lines):
            continue  # a table: its columns start where half its lines' gaps end (three or more)
        for k, line in enumerate(lines):
            if "│" not in line and "|" not in line:
                start = _text_start(line)  # a list item's marker keeps its spaces ("(1)   Create")
                lines[k] = line[:start] + JUSTIFIED_GAP.sub(" ", line[start:])
        paragraphs[index] = "\n".join(lines)
    return "".join(paragraphs)


def _text_start(masked: str, position: int = 0, protected: Sequence[str] = ()) -> int:
    """Where the text of the line from `position` starts: after its indentation and a list item's marker."""
    text = INDENTATION.match(masked, position).end()
    return marker.end() if (marker := list_marker(masked, protected, text)) else text


def _justified_above_its_last(line: str, last: str) -> bool:
    """Whether one line, of two, is justified: as wide as a page's text (JUSTIFIED_WIDTH) and spread, above a last
    line of words spread nowhere that starts where its text does, as nroff sets a paragraph's last line (a help
    text's description goes on under its column, its options have columns on both lines; a heading's rule has no
    words)."""
    text = _text_start(line)
    return (len(line.rstrip()) >= JUSTIFIED_WIDTH and bool(SPREAD_GAP.search(line, text)) and bool(LETTER.search(last))
            and INDENTATION.match(last).end() == text and not COLUMN_GAP.search(last.strip()))


# A word hyphenated at a line's end ("configu-\nration", text taken from a PDF or a manual page that nroff set): read
# as two pieces, it came back as two ("The program reads the configu-\nration file" as "Das Programm liest die
# Konfigurationsdatei\nDie Datei ..."). The word is written whole, without its hyphen where the lexicon knows it so
# ("configuration") and with it otherwise ("self-contained"), and the line break moved after it (or before it, where
# the line goes on with no space after it), where it wraps the sentence as any other; with neither, it goes. Not a
# hyphen a conjunction follows ("pre-\nand post-processing"). nroff's UTF-8 output hyphenates with U+2010, which the
# model cannot read ("speci‐\nfied", "transforma‐\ntion": 268 of 1,342 paragraphs of 80 rendered manual pages have
# one; "transforma‐\ntion" came back as "Transformationen‐"): read as an ASCII one (NROFF_HYPHEN).
NROFF_HYPHEN = re.compile(r"(?<=[a-z])\u2010(?=\r?\n[ \t]*[a-z])")
HYPHENATED_AT_A_BREAK = re.compile(r"(?P<before>[ \t]?)(?<![\w-])(?P<head>[a-z]{1,40})-(?P<line_break>\r?\n[ \t]*)"
                                   r"(?!(?:and|or|nor|to)\b)(?P<tail>[a-z]{1,40})(?![\w-])"
                                   r"(?P<after>[ \t]{1,100}(?=\S))?")


def dehyphenated(masked: str) -> tuple[str, set[int]]:
    """The masked text with each word hyphenated at a line's end (HYPHENATED_AT_A_BREAK) whole, and where each line
    break it moved starts now (each wraps a sentence: it was inside a word)."""
    words = lexicon.load().words
    pieces, moved, length, done = [], set(), 0, 0
    for found in HYPHENATED_AT_A_BREAK.finditer(masked):
        joined = found["head"] + found["tail"]
        word = joined if joined in words else f"{found['head']}-{found['tail']}"
        before, after = (found["before"] + word, "") if found["after"] else ("", word)
        line_break = found["line_break"] if found["after"] or found["before"] else ""  # with neither, it goes
        pieces += [masked[done:found.start()], before, line_break, after]
        length += len(pieces[-4]) + len(before)
        if line_break:
            moved.add(length)
        length += len(line_break) + len(after)
        done = found.end()
    return "".join(pieces) + masked[done:], moved


def _blanked(segment: str) -> str:
    """The segment with the quotation marks of its line breaks' leads (LINE_BREAK) as spaces: whitespace to the
    model, and where they were the same length (the tags taken out of it keep their places)."""
    return LINE_BREAK.sub(lambda found: found.group().replace(">", " "), segment) if ">" in segment else segment


def wraps_of(segment: str) -> list[tuple[float, str]]:
    """Each line break in a segment (LINE_BREAK) with its share of the segment before it, as the model reads it: each
    line break and its lead one space."""
    breaks = list(LINE_BREAK.finditer(segment))
    if not breaks:
        return []
    widths = list(accumulate(len(found.group()) - 1 for found in breaks))  # what reading each as a space takes away
    read = len(segment) - widths[-1]
    return [((found.start() - (widths[k - 1] if k else 0)) / read, found.group()) for k, found in enumerate(breaks)]


# Where a wrapped line may start: not with what would open a block there (Markdown's bullet, heading marks, a
# quotation's mark, an ordered item's number: "... action - aktivieren" wrapped before "-" made a list item of
# HTTPie's sentence; "am 1. Januar" would start a numbered list)
WRAP_POINT = re.compile(r"(?<=\S)\s+(?=\S)(?!(?:[-*+>]|#{1,6}|\d{1,9}[.)])(?:\s|$))")
LINE_BREAKS = ("\n", "\r")  # the characters a line break starts with


def rewrapped(translation: str, wraps: Sequence[tuple[float, str]], before: bool = False) -> str:
    """The translation with each line break that wraps its source sentence in place of the whitespace between words
    nearest the same share of its length (but before what would open a block: WRAP_POINT), in order, one to a
    space; those a translation has no space left for go before it where `before` (the text before it ends in a
    blank, which `Prepared.restore` lets the break take), else end it: its line breaks are as many as the source's."""
    spaces = list(WRAP_POINT.finditer(translation))
    ahead = max(0, len(wraps) - len(spaces)) if before else 0
    leading, wraps = "".join(line_break for _, line_break in wraps[:ahead]), wraps[ahead:]  # a line follows: its lead
    taken = [0, *accumulate(len(space.group()) - 1 for space in spaces)]  # as `wraps_of` reads: each run one space
    starts = [space.start() - taken[k] for k, space in enumerate(spaces)]
    placed, first = [], 0
    for k, (share, line_break) in enumerate(wraps[:len(spaces)]):
        last = len(spaces) - min(len(wraps), len(spaces)) + k  # a space left for each break after this one
        at = share * (len(translation) - taken[-1])
        nearest = bisect_left(starts, at, first, last + 1)
        if nearest > last or (nearest > first and at - starts[nearest - 1] < starts[nearest] - at):
            nearest -= 1
        placed.append((spaces[nearest], line_break))
        first = nearest + 1
    pieces, done = [leading], 0
    for space, line_break in placed:
        pieces += [translation[done:space.start()], line_break]
        done = space.end()
    left = "".join(line_break.strip(" \t>") for _, line_break in wraps[len(spaces):])  # no lead: no line follows
    return "".join(pieces) + translation[done:] + left


def _block_tags(protected: list[str], html: bool) -> set[int]:
    """The items that are block-level tags: in HTML every one; in plain text those evidently markup, an element that
    opens and closes in the text or a <br> or <hr> ("<h1>Settings</h1><p>Change your password.</p>" read as one
    sentence came back as "<p><h1>Einstellungen</h1> ändern.</p>"), never a lone "<address>" or "<table>", a usage
    line's placeholder. A pair whose tag is merged with a neighbour into one item ("%1</p>", without alignments)
    does not separate."""
    tags = {i for i, item in enumerate(protected) if BLOCK_TAG.fullmatch(item)}
    if html:
        return tags
    blocks = {i for i in tags if markup.void_only(protected[i])}
    return blocks | {i for (i, _), partner in _partner_tags(protected).items() if {i, partner} <= tags}


def _siblings_apart(masked: str, protected: list[str]) -> set[int]:
    """The tokens between sibling elements glued to words on both sides: a menu's links, a form's buttons ("<a
    href="/">Home</a><a href="/about">About us</a>", "<button>Save</button><button>Cancel</button>") are texts of
    their own, which read as one sentence came back merged and nested ('<button><button>Speichern</button></button>',
    "Cancel" lost). Such a run of tags separates segments as a block-level tag does, whether it is one token or each
    tag its own, where an element ends and another of the same name starts right after it. Elements of other names
    are a sentence's styling ("<a>documentation</a><sup>1</sup> first"), and so are those with a space beside them
    ("<span>Open</span><span> the file</span>"); but links, buttons and labels beside each other, with only
    whitespace or fields between them, are each a text of their own, tags and all (CONTROLS)."""
    apart: set[int] = set()
    partners: dict[tuple[int, str], int] | None = None  # read once, where controls first meet
    for run in TOKEN_RUN.finditer(masked):
        if run.start() == 0 or run.end() == len(masked) or masked[run.start() - 1].isspace() \
                or masked[run.end()].isspace():
            continue
        written, tokens, starts = as_written(run.group(), protected)
        numbers = [int(token.group(1)) for token in tokens]
        for ended, begun in _siblings_meeting(written):
            closing, opening = numbers[bisect_right(starts, ended) - 1], numbers[bisect_right(starts, begun) - 1]
            apart |= {closing, opening}
            names = TAG_PARTS.match(written, ended).group(2).lower(), TAG_PARTS.match(written, begun).group(2).lower()
            if set(names) <= CONTROLS:  # each control a text of its own: from its opening tag to its closing one
                partners = _partner_tags(protected) if partners is None else partners
                apart |= {partners.get((closing, names[0]), closing), partners.get((opening, names[1]), opening)}
    return apart


def _partner_tags(protected: list[str]) -> dict[tuple[int, str], int]:
    """(item, element name) -> the item of that element's other tag, for the tags of items of tags alone."""
    partners: dict[tuple[int, str], int] = {}
    opened: dict[str, list[int]] = {}  # element name -> the items that opened it, innermost last
    # Only items of tags alone are read: one holding a comment that never closes ("<!--" * 8,000) was searched to its
    # end from every "<!--" (0.7 s at 32,000 characters); an item of tags and other things never separates anyway.
    for i, item in enumerate(protected):
        for closing, name in markup.elements_of(item) if markup.TAGS_ONLY.fullmatch(item) else ():
            if not closing:
                opened.setdefault(name, []).append(i)
            elif opened.get(name):
                opener = opened[name].pop()
                partners[(i, name)], partners[(opener, name)] = opener, i
    return partners


TOKEN_RUN = re.compile(r"XX\d+X(?:\s*XX\d+X)*")

# WebVTT's cue spans that name a voice, a language or a class ("<v Roger>", "<lang en>", "<c.yellow>"): a voice's
# span covers the cue's text to its end, "</v>" mostly left out.
CUE_SPANS = frozenset({"v", "lang", "c"})


def _cue_span(tag: re.Match) -> tuple[bool, str]:
    """(closing, name) of a TAG_PARTS match, the name without WebVTT's classes ("<c.yellow>": "c")."""
    return tag.group(1) == "/", tag.group(2).lower().split(".")[0]


# Elements a reader acts on: beside each other, with only whitespace or a form's fields between them, they are a
# menu's links or a form's labels and buttons, each a text of its own. Read as one sentence, "<button>Sign
# in</button> <a>Forgot your password?</a>" came back as "<button>In <a>Fortget-Passwort</a> signieren</button>";
# 300 pairs of such elements or of styling ones around held-out catalog messages: 72 came back with their tags in
# another order or nesting, 23 with elements kept apart by alignment (markup._kept_apart), 5 with these read apart
# too (3 styling elements around the same words, 2 in the translation's order).
CONTROLS = frozenset({"a", "button", "label"})


def _siblings_meeting(markup_run: str) -> list[tuple[int, int]]:
    """Where an end tag is followed right away by the start tag of another element of its name with content, or by
    whitespace, void elements (a form's field) and another control's (CONTROLS): the two tags' starts."""
    tags = [tag for tag in TAG_PARTS.finditer(markup_run) if markup.of_content(tag)]
    return [(ended.start(), begun.start()) for ended, begun in zip(tags, tags[1:])
            if ended.group(1) and not begun.group(1)
            and (ended.end() == begun.start() and ended.group(2).lower() == begun.group(2).lower()
                 or not TAG_PARTS.sub("", markup_run[ended.end():begun.start()]).strip()
                 and {ended.group(2).lower(), begun.group(2).lower()} <= CONTROLS)]


CLAUSE_BREAK = re.compile(r"[,;:]\s+|\s+[-–—]\s+")
SPACES_RUN = re.compile(r"\s+")


def split_to_fit(sentence: str, fits: Callable[[str], bool], short: Callable[[str], bool] | None = None) -> list[str]:
    """The sentence, or pieces of it that each fit, cut after the clause mark (else the space) nearest the middle;
    pieces that fit but are not `short` are cut too, though never inside a word (a word is better whole than cut)."""
    if (short or fits)(sentence.strip()):
        return [sentence]
    cut = _cut_nearest_middle(sentence, inside_words=not fits(sentence.strip()))
    if cut is None:
        return [sentence]
    return split_to_fit(sentence[:cut], fits, short) + split_to_fit(sentence[cut:], fits, short)


def _outside_quotes(outside: str, inside: str) -> str:
    """The white space beside a quotation mark once the space inside the quotation is gone: the line breaks of both
    (one `rewrapped` put inside goes outside), else the space outside as it was."""
    breaks = "".join(space for space in (outside, inside) if any(mark in space for mark in LINE_BREAKS))
    return breaks or outside


def _before_line_break(gap: re.Match) -> int:
    """Where a cut after a clause mark or a run of spaces goes: before a line break in it (one that wraps the
    sentence), so that the next line's lead stays its own, as a marker ("> " of a quoted e-mail's line: cut after
    it, the ">" ended the line before, and "> stack." came back as ">Import Stapel."), else after it."""
    breaks = [at for at in map(gap.group().find, LINE_BREAKS) if at >= 0]
    return gap.start() + min(breaks) if breaks else gap.end()


def _cut_nearest_middle(sentence: str, inside_words: bool = True) -> int | None:
    """After the clause mark nearest the middle, else after the space; in one enormous word (if `inside_words`), the
    middle, or the nearer end of the placeholder token around it (never inside one); None where no cut leaves two
    parts. Between words the middle is the words': a placeholder token measures as "XX0X" whatever its number, as
    `as_read` reads it, and whitespace at the ends not at all. A line's tokens are numbered across its text until it
    is cut, and the line break before it is its own in a text: either moved the middle of a line past another space
    than alone ("...the throne XX3X | in order to" alone; a line break, "XX19X...the throne | XX22X in order to" in a
    text)."""
    cuts = [_before_line_break(m) for m in CLAUSE_BREAK.finditer(sentence)] or \
        [_before_line_break(m) for m in SPACES_RUN.finditer(sentence)]
    cuts = [cut for cut in cuts if 0 < cut < len(sentence)]
    if cuts:
        tokens = list(PLACEHOLDER_PATTERN.finditer(sentence))
        ends, extra = [token.end() for token in tokens], [0, *accumulate(len(token[1]) - 1 for token in tokens)]

        def measured(position: int) -> int:  # the position with each token before it as long as "XX0X"
            return position - extra[bisect_right(ends, position)]

        middle = (measured(len(sentence) - len(sentence.lstrip())) + measured(len(sentence.rstrip()))) / 2
        return min(cuts, key=lambda cut: abs(measured(cut) - middle))
    if not inside_words:
        return None
    middle = len(sentence) // 2
    if token := _token_across(sentence, middle):
        ends = [cut for cut in token.span() if 0 < cut < len(sentence)]
        return min(ends, key=lambda cut: abs(cut - middle)) if ends else None
    return middle if middle > 0 else None
