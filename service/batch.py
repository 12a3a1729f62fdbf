"""Batch jobs: a whole file through TranslateBatch — resumable, nothing lost, nothing duplicated, flat memory.

Every input line becomes one item keyed by its **line number** (stable across reruns of the same input,
unique whatever ids the file carries); a paragraph or a subtitle cue by its first line's, a catalog's msgid (and
plural) by its keyword's line, and the strings of a JSON, an Android or a .NET resource file or a String Catalog and
the units of an XLIFF or a Qt Linguist file, read whole, by their number in the document. Results go to a journal,
one JSON record per line, each written whole and flushed as it finishes: for JSONL output the output file is the
journal; for text output the journal is ``OUTPUT.journal.jsonl`` and the text file is assembled in input order at
the end (the journal is kept while a line failed). A rerun with the same output reads the journal, drops a torn last
record (a crash mid-write), and sends only the lines not yet translated: those not recorded, and those recorded as
failed, whose old records are dropped when the rerun finishes.

Items flow through ``streams`` TranslateBatch calls, each with at most ``window`` items in flight, read
lazily from the input: client memory does not grow with the file. A stream that breaks (a replica killed
or draining) is reopened with exponential backoff and jitter, and the items it had in flight are sent
again; items answered UNAVAILABLE or RESOURCE_EXHAUSTED are retried the same way, for up to ``give_up_seconds``
each. Other per-item errors are recorded with their line number and status, and the job goes on.

A line longer than PART_CHARS (or than the server takes, ``ModelInfo.max_text_chars``, if that is less) is sent in
parts cut between sentences (else clauses, words, characters), each part one item under ``LINE.PART``; the line is
recorded once, when every part has its result: the translations joined with the whitespace that stood between them.
"""

from __future__ import annotations

import asyncio
import bisect
import codecs
import collections
import contextlib
import dataclasses
import fnmatch
import functools
import itertools
import json
import os
import random
import re
import shutil
import tempfile
import time
import unicodedata
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Callable, Iterable, Iterator, Sequence, TextIO

import grpc

try:
    import fcntl
except ImportError:  # not POSIX: journals are not locked
    fcntl = None

from service import (android_strings, asciidoc, comments, config_values, csv_table, docbook, documents, docx,
                     epub, fluent, grid_tables, java_properties, json_strings, latex, merged_xml, notebooks, odt,
                     office, php_arrays, po, pod, pptx, qt_ts, resx, roff, rst, stringsdict, svg, texinfo,
                     xcstrings, xliff, xlsx)
from service.client import RETRYABLE, AsyncTranslatorClient, status_name
from translator.text import CODE_INDENT, FENCE, RAW_ELEMENTS, paragraph_runs
from translator.v1 import translator_pb2 as pb

RETRYABLE_CODES = {code.value[0] for code in RETRYABLE}
# A stream that ends with one of these is reopened (its unanswered items sent again: each is recorded once): a replica
# draining or gone, a full queue, and INTERNAL, which the client meets from a proxy that resets the stream when its
# replica dies (nginx: "Received RST_STREAM with error code 2"), from gRPC itself in place of the server's status
# (client.status_lost), or from a fault of the server's (retry, and report it). --give-up-seconds bounds it.
STREAM_BREAKS = (*RETRYABLE, grpc.StatusCode.INTERNAL)
STREAM_WINDOW = 64  # items in flight per stream: the server's default --batch-inflight
# A JSONL record's own decoding options, over the job's --max-output-tokens, --min-output-tokens and --beam; all whole
# numbers
RECORD_OPTIONS = ("max_output_tokens", "min_output_tokens", "beam_size")
DEDUPE_CACHE = 100_000  # translations --dedupe remembers (least recently used dropped beyond)
# A line sent in parts: each part at most this many characters and sentences, so that it is an ordinary request. The
# server translates sentence by sentence anyway, so the cuts between sentences change nothing in the translation, but
# all of one request's sentences must fit its queue at once (1,024 by default, shared with every item in flight): a
# 72,000-character line sent in three parts of 32,768 characters, the server's limit, was refused with "text hold 1129
# sentences; at most 1024 fit the queue". STREAM_WINDOW parts of 16 sentences fill such a queue and no more.
PART_CHARS = 4096
PART_SENTENCES = 16
# An HTML text's elements whose content is no text (a style sheet, a script) or is kept as written (pre, textarea):
# never cut, as a fenced code block is not. Cut between sentences, a page of 25,000 characters
# lost a style sheet's lines (its second half sent alone came back translated: "a { color: red; }" as "eine { Farbe:
# Rot; }") and an image's quotes (a cut after "crates." inside its tag)
HTML_RAW_ELEMENT = re.compile(rf"<({RAW_ELEMENTS})\b[^>]*>.*?</\1\s*>", re.DOTALL | re.IGNORECASE)
# A block's end tag and the whitespace after it: where an HTML text is best cut
HTML_BLOCK_END = re.compile(r"</(?:p|div|li|dt|dd|h[1-6]|tr|table|section|article|header|footer|blockquote|aside|"
                            r"caption|figcaption|figure|nav|main|title|head|ul|ol|dl)\s*>\s*", re.IGNORECASE)
ENDS_A_BLOCK = re.compile(rf"(?:{HTML_BLOCK_END.pattern})\Z", re.IGNORECASE)
# A Markdown page's front matter: YAML between "---" lines (Jekyll, Hugo), TOML between "+++" (Hugo), from the first
# line. Its settings are the site's (sent as one text, kept whole), but its page title and description are the
# reader's: they stayed English above a German page. And a blank line in it cut it into two texts, neither one kept.
FRONT_MATTER_MARKS = ("---", "+++")
FRONT_MATTER_MAX_LINES = 500
# Web pages, read as HTML (--html) where no format is given; and Mallard's pages, GNOME's help (Yelp's), XML whose
# paragraphs, titles and descriptions are read as a web page's (a page's credits and its terminal's text as code)
PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".page")
# The format an input is read in where --format is not given, by its name's suffix (else text). Read line by line as
# text, a configuration file's key alone on its line ("  title: Welcome") was translated with its value, a Markdown
# file's code block was translated ("make install" came back as "installieren") and a wrapped sentence was two.
NAMED_FORMATS = {
    ".jsonl": "jsonl", ".tsv": "tsv",
    # YAML, INI, desktop entries, Apple strings, TOML (Hugo's i18n)
    **dict.fromkeys((".yml", ".yaml", ".ini", ".desktop", ".strings", ".toml"), "config"),
    ".properties": "properties",  # Java's: each value as Java reads it, comments kept
    ".ftl": "fluent",  # Project Fluent's (Firefox's, Thunderbird's)
    ".po": "po", ".pot": "po",  # gettext catalogs and templates
    ".json": "json", ".arb": "json",  # JSON resource files, Flutter's included
    ".xlf": "xliff", ".xliff": "xliff",  # XLIFF 1.2 and 2.x
    ".xml": "android",  # Android's string resources: the XML files a localisation job meets most
    ".docbook": "docbook", ".dbk": "docbook",  # DocBook's (KDE's manuals are index.docbook)
    ".texi": "texinfo", ".texinfo": "texinfo", ".txi": "texinfo",  # Texinfo's (GNU's manuals)
    ".tely": "texinfo", ".itely": "texinfo", ".itexi": "texinfo",  # lilypond-book's Texinfo (LilyPond's manuals)
    ".pod": "pod", ".pm": "pod", ".pl": "pod",  # Perl's documentation, and a module's or script's (its code kept)
    ".svg": "svg",  # drawings: their texts, titles and descriptions (an icon of none is written as it was)
    ".ts": "ts",  # Qt Linguist's (a TypeScript file is refused, as not XML)
    ".resx": "resx", ".resw": "resx",  # .NET's resources, UWP's
    ".xcstrings": "xcstrings",  # Xcode's String Catalogs
    ".stringsdict": "stringsdict",  # and the plural dictionaries they replace
    ".csv": "csv",  # translation tables: Godot's, spreadsheets'
    ".php": "php",  # Laravel's and CodeIgniter's translation files
    ".ipynb": "ipynb",  # Jupyter notebooks: their Markdown cells
    # Word's, OpenDocument's and PowerPoint's documents: their paragraphs; their templates, with macros (kept as they
    # are) and PowerPoint's shows alike
    **dict.fromkeys((".docx", ".docm", ".dotx", ".dotm"), "docx"), ".odt": "odt", ".ott": "odt",
    **dict.fromkeys((".pptx", ".pptm", ".potx", ".potm", ".ppsx", ".ppsm"), "pptx"),
    ".odp": "odp", ".otp": "odp", ".ods": "ods", ".ots": "ods",  # OpenDocument's presentations and spreadsheets
    **dict.fromkeys((".xlsx", ".xlsm", ".xltx", ".xltm"), "xlsx"),  # Excel's workbooks: their cells' strings
    ".epub": "epub",  # e-books: their pages, read as web pages are
    ".rst": "rst", ".rest": "rst",  # reStructuredText: Sphinx's documentation
    ".adoc": "asciidoc", ".asciidoc": "asciidoc", ".asc": "asciidoc",  # AsciiDoc: Asciidoctor's, git's manual pages
    ".tex": "latex", ".ltx": "latex",  # LaTeX documents
    # manual pages in roff: by their section ("ls.1", "printf.3", "openssl.1ssl", "Carp.3pm"; `format_named`)
    ".man": "man",
    ".srt": "subtitles", ".vtt": "subtitles",  # SubRip and WebVTT
    ".ass": "ass", ".ssa": "ass",  # SubStation Alpha's
    **dict.fromkeys((".md", ".markdown", ".mdx", *PAGE_SUFFIXES), "paragraphs"),  # .mdx: Docusaurus'
}
# A manual page's file name ends in its section ("ls.1", "openssl.1ssl", "Carp.3pm"), as a rotated log's ("syslog.1")
# may: read as a manual page where its first line that is not blank is a request or a comment (".TH LS 1", '.\" ...',
# mdoc's ".Dd", a link's ".so man1/b.1": each of the 22,167 pages on this machine opens so)
MANUAL_SECTION_SUFFIX = re.compile(r"\.[1-9][a-z]*")
# A script's first line that runs Perl ("#!/usr/bin/perl -w", "#! /usr/bin/env perl"): debhelper's dh_* commands,
# devscripts', 66 commands in this machine's /usr/bin, each documented in POD, had no format and were copied
PERL_SCRIPT = re.compile(rb"#![^\n]*\bperl[\d.]*(?![\w.-])")
SHEBANG_BYTES = 256
MANUAL_OPENING = re.compile(rb"[.'][ \t]*(?:[A-Za-z]|\\[\"#]|\s*$)|\\\"")


# XML files whose translations are merged into them (service.merged_xml), before Android's ".xml": AppStream's
# metadata by its name, polkit's actions by theirs, and any ".xml" by its root element (a shared MIME database's
# package, /usr/share/mime/packages/*.xml, has no name of its own; nor has DocBook's, read as docbook by its root,
# docbook.ROOTS). Not a source tree's templates (".metainfo.xml.in", ".policy.in"), into which the build merges the
# catalogs' translations: German merged there would be merged twice
MERGED_XML_NAMES = {"metainfo": re.compile(r".+\.(?:metainfo|appdata)\.xml", re.IGNORECASE),
                    "policy": re.compile(r".+\.policy", re.IGNORECASE)}
MERGED_XML_ROOTS = {"component": "metainfo", "policyconfig": "policy", "mime-info": "mime"}


def format_named(path: Path) -> str:
    """The input format a file's name says (MERGED_XML_NAMES, NAMED_FORMATS, a manual page's section, an XML file's
    root element, a Perl script's first line where it has no suffix), else text."""
    if named := next((format for format, name in MERGED_XML_NAMES.items() if name.fullmatch(path.name)), None):
        return named
    suffix = path.suffix.lower()
    if suffix == ".xml":  # (its root's name without a prefix)
        root = documents.first_element(path).rsplit(":", 1)[-1]
        return "docbook" if root in docbook.ROOTS else MERGED_XML_ROOTS.get(root, "android")
    if suffix in NAMED_FORMATS or suffix and not MANUAL_SECTION_SUFFIX.fullmatch(suffix):
        return NAMED_FORMATS.get(suffix, "text")
    try:
        with path.open("rb") as page:
            if not suffix:  # a script by its first line (a program's binary by its first bytes alone)
                return "pod" if PERL_SCRIPT.match(page.read(SHEBANG_BYTES)) else "text"
            opening = next((line for line in page if line.strip()), b"")
    except OSError:  # (the job says what is wrong with it)
        return "text"
    return "man" if MANUAL_OPENING.match(opening) else "text"


# Formats read whole, their items numbered in the document: each module checks a document, lists (number, id, text)
# of its items, counts what is numbered and fills translations in
DOCUMENTS = {"json": json_strings, "xliff": xliff, "android": android_strings, "metainfo": merged_xml.METAINFO,
             "policy": merged_xml.POLICY, "mime": merged_xml.MIME, "ts": qt_ts, "resx": resx,
             "xcstrings": xcstrings, "stringsdict": stringsdict, "csv": csv_table,
             "php": php_arrays, "ipynb": notebooks, "docx": docx.FORMAT, "pptx": pptx.FORMAT, "xlsx": xlsx.FORMAT,
             **dict.fromkeys(("odt", "odp", "ods"), odt.FORMAT), "epub": epub.FORMAT, "docbook": docbook,
             "texinfo": texinfo, "pod": pod, "svg": svg}
# Documents that are ZIP packages of XML parts, read and written back by service.office
PACKAGES = tuple(name for name, read in DOCUMENTS.items() if isinstance(read, office.PackageFormat))
# Formats read a run of lines between blank lines at a time
PARAGRAPH_FORMATS = ("paragraphs", "subtitles", "rst", "asciidoc", "latex", "man")
# Formats whose encoding the format fixes or the file names (JSON's and XML's, a catalog's charset): no --encoding
# XML files whose translations are merged into them, read by service.merged_xml
MERGED_XML = tuple(name for name, read in DOCUMENTS.items() if isinstance(read, merged_xml.MergedXml))
OWN_ENCODING = ("po", "json", "xliff", "android", *MERGED_XML, "ts", "resx", "xcstrings", "stringsdict", "ipynb",
                *PACKAGES, "docbook", "svg")
# items holding markup: inline codes, <b>, <xliff:g>, a description's <em> and <code>, runs' formats
SENT_AS_HTML = ("xliff", "android", *MERGED_XML, *PACKAGES, "docbook", "texinfo", "pod", "svg")
# What a progress bar counts, by format (else lines)
ITEM_NOUNS = {**dict.fromkeys(PARAGRAPH_FORMATS, "item"), "po": "message", "json": "string", "xliff": "unit",
              "android": "string", **dict.fromkeys(MERGED_XML, "text"), "ts": "message", "resx": "string",
              "xcstrings": "string", "stringsdict": "string",
              "csv": "row", "php": "string", "ipynb": "cell", **dict.fromkeys(PACKAGES, "paragraph"),
              "xlsx": "string", "ods": "string", "epub": "item", "docbook": "text", "texinfo": "text",
              "pod": "text", "svg": "text"}
SUBTITLE_KEPT_BLOCK = re.compile(r"(?:WEBVTT|NOTE|STYLE|REGION)(?:[ \t\n]|$)")  # WebVTT's blocks that are not cues
# A SubStation Alpha event shown on screen: "Dialogue: " and nine fields (layer or marked, start, end, style, name,
# three margins, effect: the Format line of ASS and of SSA v4 alike), then its text, the last field, commas and all
DIALOGUE = re.compile(r"Dialogue:[ \t]*(?:[^,\n]*,){9}")
ASS_LINE_BREAK = "\\N"  # (a soft one, "\\n", shows as a space but where WrapStyle is 2: left as written)
ASS_HARD_SPACE = "\\h"


@dataclass
class Item:
    line: int  # 1-based line of the input: the key of the item's record
    id: str  # the user's id (text input: the line number)
    text: str
    model: str = ""
    options: pb.DecodingOptions = field(default_factory=pb.DecodingOptions)
    error: str = ""  # why the line is malformed (then it is recorded, never sent)
    attempts: int = 0  # answers that said "busy" or "shutting down": the backoff before the next grows with them
    refused_since: float = 0.0  # monotonic time of the first such answer
    part: int | None = None  # of a line sent in parts (SplitLine)
    lines: int = 1  # of the input it spans (a paragraph's)
    written_as: Callable[[str], str] = str  # a translation as the input writes it (SubStation Alpha's: `ass_written`)
    before: str = ""  # of a configuration file's line: kept as written before its text (its key), and after it
    after: str = ""
    as_read: str | None = None  # the input's text, where the item's parts written back differ from it (a locale key)
    added_lines: int = 0  # lines its translation adds after its own (a desktop entry's "Name[de]=")

    @property
    def source(self) -> str:
        """The input's text of the item, as recorded: a configuration line's key and value."""
        return self.before + self.written_as(self.text) + self.after if self.as_read is None else self.as_read

    @property
    def key(self) -> str:
        """The BatchItem id it is sent under: its line number (and part)."""
        return str(self.line) if self.part is None else f"{self.line}.{self.part}"

    @property
    def dedupe_key(self) -> tuple:
        return self.text, self.model, self.options.SerializeToString(deterministic=True)


@dataclass(frozen=True)
class Settings:
    # of the input: text, tsv, jsonl, paragraphs (runs of lines between blank lines), config (a configuration or
    # resource file: each line's value translated, its key kept), properties (a Java properties file: its values,
    # comments kept), po (a gettext catalog: its untranslated messages), json (a JSON resource file: its string values),
    # xliff (its untranslated units' sources), android (an Android string resource file: its strings), metainfo,
    # policy, mime (AppStream's metadata, polkit's actions, the MIME database's types: texts without German), ts (a Qt
    # Linguist file: its untranslated messages), resx (a .NET resource file: its strings), xcstrings (an Xcode String
    # Catalog: its strings without German), subtitles (SubRip or WebVTT: each cue's text) or ass (SubStation Alpha:
    # each Dialogue line's text)
    format: str = "text"
    output_format: str = "text"  # text (aligned line by line) | jsonl
    concurrency: int = 64  # items in flight, spread over ceil(concurrency / STREAM_WINDOW) streams
    model: str = ""
    options: pb.DecodingOptions = field(default_factory=pb.DecodingOptions)
    dedupe: bool = False
    # Without a single result for this long, the job stops (resumable) instead of waiting forever; an item the server
    # keeps refusing as busy or shutting down is recorded as failed after this long.
    give_up_seconds: float = 300.0
    # Translations filled into a catalog, an XLIFF, a Qt Linguist file or a String Catalog are flagged for review, as
    # each format marks a suggestion (po's fuzzy, XLIFF 1.2's needs-review-translation, Qt's unfinished, Xcode's
    # needs_review)
    review: bool = True
    # The input's encoding where it is not UTF-8 and has no byte order mark (a legacy one: "cp1252"), and the text
    # output's; "" reads UTF-8, or UTF-16 or UTF-32 by a byte order mark
    encoding: str = ""
    # The input as named, where what is read is a copy of it (UTF-8's, in a temporary directory): its name, directory
    # and the files beside it tell whether it holds a program's words (`holds_words`)
    named: Path | None = None

    @property
    def html(self) -> bool:
        """Whether the texts are read as HTML (--html, a web page's)."""
        return self.options.text_format == pb.TEXT_FORMAT_HTML


def read_items(path: Path, settings: Settings) -> Iterator[Item]:
    """The input's items, lazily; malformed lines (invalid UTF-8 included) come as items with `error` set.
    Lines end at "\n" only (a "\r" before it is dropped), so line numbers match `wc -l` and editors."""
    if settings.format in PARAGRAPH_FORMATS:
        yield from read_paragraphs(path, settings)
        return
    if settings.format == "properties":
        yield from read_properties(path, settings)
        return
    if settings.format == "comments":
        yield from read_comments(path, settings)
        return
    if settings.format == "po":
        yield from read_catalog(path, settings)
        return
    if settings.format in DOCUMENTS:
        options = settings.options
        if settings.format in SENT_AS_HTML:
            options = pb.DecodingOptions()
            options.CopyFrom(settings.options)
            options.text_format = pb.TEXT_FORMAT_HTML
        read = document(path, settings)
        # (a program's JSON configuration, package.json, sends only its words: config_values.is_resource)
        listed = json_strings.items(read, holds_words(path, settings)) if settings.format == "json" else \
            DOCUMENTS[settings.format].items(read)
        for number, name, text in listed:
            yield Item(number, name, text, settings.model, options)
        return
    if settings.format == "fluent":
        yield from read_fluent(path, settings)
        return
    if settings.format == "config":
        yield from read_config(path, settings)
        return
    for number, line in decoded_lines(path):
        yield line if isinstance(line, Item) else parse_line(number, line, settings)


def holds_words(path: Path, settings: Settings, lines: Iterable[str] = ()) -> bool:
    """Whether an input read as configuration, JSON or Java properties holds a program's words, every value one, as
    its name, directory, neighbours (those of the input it is a copy of: `Settings.named`) and `lines` say
    (`config_values.is_resource`)."""
    return config_values.is_resource(settings.named or path, lines)


def read_config(path: Path, settings: Settings) -> Iterator[Item]:
    """A configuration or resource file's lines, each its value (`config_values`) as one item, its key kept; a
    program's configuration (not a resource file: `config_values.is_resource`) sends only its values under keys that
    say words."""
    decoded = list(decoded_lines(path))  # read once: a desktop entry's German lines and a locale's key are looked for
    lines = [line for _, line in decoded if isinstance(line, str)]
    read = config_values.ConfigLines(config_values.desktop_localized(lines), holds_words(path, settings, lines)).value
    for number, line in decoded:
        yield line if isinstance(line, Item) else value_item(number, read(line), settings)


def read_fluent(path: Path, settings: Settings) -> Iterator[Item]:
    """A Fluent file's lines, each its value (`fluent`) as one item, its identifier kept; but a value that goes on
    over lines is one item of them all (`fluent.joined`): a line at a time, "See … to learn more about" and "the
    feature and this page." were translated apart."""
    reader = fluent.FluentLines()
    run: list[tuple[int, str, config_values.ConfigValue]] = []  # a value's lines read so far

    def value_of_run() -> Item:
        number, lines, values = run[0][0], [line for _, line, _ in run], [value for _, _, value in run]
        item = value_item(number, values[0] if len(run) == 1 else fluent.joined(lines, values), settings)
        item.lines = len(run)
        return item

    for number, line in decoded_lines(path):
        value = reader.value(line) if isinstance(line, str) else None
        # (a line after one that opened a placeable is read as kept: it has no text, and goes on from nothing)
        if run and run[-1][2].text and value is not None and fluent.goes_on(line, value):
            run.append((number, line, value))
            continue
        if run:
            yield value_of_run()
        run = [(number, line, value)] if value is not None else []
        if value is None:
            yield line  # not UTF-8
    if run:
        yield value_of_run()


def value_item(number: int, value: config_values.ConfigValue, settings: Settings) -> Item:
    """A configuration line's value (or a value's lines') as an item, what is kept around it kept."""
    return Item(number, str(number), value.text, settings.model, settings.options, before=value.before,
                after=value.after, written_as=value.written_as, as_read=value.as_read, added_lines=value.added_lines)


def decode_into(wide: BinaryIO, narrow: TextIO, encoding: str, chunk: int = 1 << 20) -> None:
    """The text of a file in `encoding`, written on; a UnicodeDecodeError's start is the file's byte (a text file's
    reader counts from the start of the chunk it was decoding)."""
    decoder = codecs.getincrementaldecoder(encoding)()
    done = 0
    for piece in iter(lambda: wide.read(chunk), b""):
        held = len(decoder.getstate()[0])  # the bytes of a character the last piece ended inside
        try:
            narrow.write(decoder.decode(piece))
        except UnicodeDecodeError as error:
            error.start += done - held
            raise
        done += len(piece)
    narrow.write(decoder.decode(b"", final=True))


def valid_in(path: Path, encoding: str = "utf-8") -> bool:
    """Whether a file is in the encoding throughout, UTF-8 by default (read a chunk at a time)."""
    try:
        with path.open("rb") as wide, open(os.devnull, "w", encoding="utf-8") as nowhere:
            decode_into(wide, nowhere, encoding)
    except UnicodeDecodeError:
        return False
    return True


NOT_UTF8 = "not valid UTF-8"  # a line's error
# What a sentence, a clause or a quotation ends with, at a line's end
ENDED = re.compile(r"[.!?:;…\"'»“”)\]][ \t]*$")


def wrapped(line: str, following: str) -> bool:
    """Whether a line seems to be one of a paragraph wrapped over lines, its sentence going on on the next: it is
    long (a wrapped text's lines are near its width; a list of phrases' are short) and ends without a mark, and the
    next starts in a small letter. A text to translate line by line rarely has them (the held-out catalog messages,
    one a line: 2%, the dictionary's examples: 1%); READMEs, licenses and e-mails do (16% to 66% of their lines)."""
    return len(line.strip()) >= 50 and not ENDED.search(line) and following.lstrip()[:1].islower()


def not_valid(error: UnicodeError, encoding: str, said_by: str, format: str) -> str:
    """Why a file is refused as not in the encoding `said_by` names ("" for UTF-8, the default), and what to do."""
    where = f"{error.reason} at byte {error.start}" if isinstance(error, UnicodeDecodeError) else str(error)
    if not said_by and format not in OWN_ENCODING:
        return f"not valid UTF-8 ({where}); give its encoding with --encoding (cp1252, latin-1), or convert it to UTF-8"
    return f"not valid {encoding.upper()}{said_by} ({where}); fix it, or convert it to UTF-8 first"


def decoded_lines(path: Path) -> Iterator[tuple[int, str | Item]]:
    """(line number, its text), or an Item with `error` set for a line that is not valid UTF-8. A byte order mark is
    no line's text (the job writes it back): before the first line's key, it made that key text to translate."""
    with path.open("rb") as lines:
        for number, raw in enumerate(lines, start=1):
            try:
                yield number, raw.rstrip(b"\n").removesuffix(b"\r").removeprefix(
                    codecs.BOM_UTF8 if number == 1 else b"").decode("utf-8")
            except UnicodeDecodeError as error:
                yield number, Item(number, str(number), "", error=f"{NOT_UTF8} ({error.reason} at byte {error.start})")


# A Markdown reference link's definition ("[uv's AI policy]: https://..."), and a shortcut reference to one, its
# label alone in brackets ("adapted from [uv's AI policy]."), outside code spans; not a full or collapsed reference's
# part, an inline link's text or a definition
DEFINITION = re.compile(r" {0,3}\[([^\[\]\n]{1,999})\]:[ \t]*\S")
SHORTCUT_REFERENCE = re.compile(r"(`+)[^`]*?\1|(?<![\]\\])\[([^\[\]\n]{1,999})\](?![\[(:])")


def readable(numbered: tuple[int, str | Item]) -> str | None:
    """A decoded line's text; None for one that is not valid UTF-8."""
    return None if isinstance(numbered[1], Item) else numbered[1]


def reference_labels(path: Path) -> set[str]:
    """The labels a Markdown document defines links for (DEFINITION), outside fenced code, as CommonMark matches
    them: case and runs of whitespace aside."""
    return {" ".join(definition[1].split()).casefold() for run in paragraph_runs(decoded_lines(path), readable)
            if not FENCE.match(run[0][1] if isinstance(run[0][1], str) else "")
            for _, line in run if isinstance(line, str) and (definition := DEFINITION.match(line))}


def collapsed_references(text: str, labels: set[str]) -> str:
    """The text with each shortcut reference to a defined link written as a collapsed one ("[uv's AI policy]" as
    "[uv's AI policy][]"), which the translation writes as a full reference to the same definition ("[KI-Richtlinie
    von uv][uv's AI policy]"): read as words in brackets, its label was translated or its brackets lost, a link to
    no definition."""
    if "[" not in text:
        return text
    return SHORTCUT_REFERENCE.sub(lambda found: found[0] + "[]" if found[2] is not None
                                  and " ".join(found[2].split()).casefold() in labels else found[0], text)


def read_paragraphs(path: Path, settings: Settings) -> Iterator[Item]:
    """The input's paragraphs (`paragraph_runs`): each run of lines between blank lines one item, its lines joined by
    "\n" and keyed by its first line (a sentence wrapped over lines is translated whole, a fenced code block kept
    whole); a blank line, and one that is not valid UTF-8, is an item of its own. A Markdown document's shortcut
    references to its links are sent as collapsed ones (`collapsed_references`). Plain text (a ".txt" file) is not
    read as Markdown: the Debian Reference's text, indented by four columns throughout, was read as Markdown's indented
    code, a section's paragraphs, shell sessions and files one item, and its sessions' commands were translated."""
    markdown = settings.format == "paragraphs" and not settings.html and path.suffix.lower() not in TEXT_SUFFIXES
    labels = reference_labels(path) if markdown else set()
    lines = decoded_lines(path)
    if settings.format == "paragraphs":
        head = list(itertools.islice(lines, FRONT_MATTER_MAX_LINES))
        matter = front_matter_lines([readable(numbered) for numbered in head])
        yield from (front_matter_item(number, line, settings) for number, line in head[:matter])
        lines = itertools.chain(head[matter:], lines)
    readers = {"rst": rst.Reader(), "latex": latex.Reader()}  # a paragraph's words and what is kept around them
    # a run holds several blocks (a manual page's: all of it, between its few blank lines): each piece of whole lines
    # one item
    block_readers = {"asciidoc": asciidoc.Reader(), "man": roff.Reader()}
    for run in paragraph_runs(lines, readable, fences=settings.format not in ("rst", "asciidoc", "latex", "man"),
                              indented=markdown):
        first, line = run[0]
        if isinstance(line, Item):
            yield line
            continue
        texts = [text for _, text in run]
        if settings.format in block_readers:
            # the lines read counted, not cut off the run's list after each block: quadratic, 65,536 lines of "- \\"
            # in one run took 4.8 s
            done = 0
            for spanned, paragraph in block_readers[settings.format].read(texts):
                yield paragraph_item(run[done:done + spanned], paragraph, settings)
                done += spanned
            continue
        if settings.format == "paragraphs" and not settings.html and (table := grid_tables.read(texts)):
            # a table drawn with characters: its cells' texts; kept as written where its bars do not line up, or
            # where a Markdown page indents it as code
            code = markdown and texts[0].expandtabs(CODE_INDENT)[:CODE_INDENT].isspace()
            yield paragraph_item(run, rst.Paragraph(grid_tables.CELLS_APART.join(table.texts), written_as=table.written)
                                 if table.texts and not code else rst.Paragraph("", "\n".join(texts)), settings)
            continue
        text = "\n".join(texts)
        if labels and not FENCE.match(text):
            text = collapsed_references(text, labels)
        item = Item(first, str(first), text, settings.model, settings.options, lines=len(run))
        if settings.format == "subtitles":
            item.before, item.text = subtitle_block(item.text)
        elif settings.format in readers and item.text.strip():
            item = paragraph_item(run, readers[settings.format].paragraph(texts), settings)
        yield item


def paragraph_item(run: list[tuple[int, str]], paragraph: rst.Paragraph, settings: Settings) -> Item:
    """The item of a run of lines read as a paragraph: its words sent, the rest kept as `paragraph` says."""
    first = run[0][0]
    return Item(first, str(first), paragraph.text, settings.model, settings.options, lines=len(run),
                written_as=paragraph.written_as, before=paragraph.before, after=paragraph.after,
                as_read="\n".join(text for _, text in run))


def front_matter_lines(head: list[str | None]) -> int:
    """How many of a file's first lines are its front matter, closing mark included (0: none)."""
    if not head or head[0] is None or head[0].rstrip() not in FRONT_MATTER_MARKS:
        return 0
    mark = head[0].rstrip()
    for index, line in enumerate(head[1:], start=1):
        if line is None:
            return 0
        if line.rstrip() == mark:
            return index + 1
    return 0


def front_matter_item(number: int, line: str, settings: Settings) -> Item:
    """A front matter's line: a page title's or description's value to translate (`title: Welcome`, `title =
    "Welcome"`, read and written as YAML and TOML need them), every other line kept as written."""
    if (key := config_values.line_key(line)) is None or not config_values.says_words(key[1]):
        return Item(number, str(number), "", before=line)
    value = config_values.config_value(line)
    return Item(number, str(number), value.text, settings.model, settings.options, before=value.before,
                after=value.after, written_as=value.written_as)


def read_properties(path: Path, settings: Settings) -> Iterator[Item]:
    """A Java properties file's values, each as Java reads it (`java_properties`), its key and comments kept as
    written: a value continued over lines (each but its last ending in a backslash) is one item, its lines joined as
    Java joins them (the backslash, the line break and the next line's leading white space dropped): line by line,
    "This is a long text \\" and "that continues here." were translated apart. Its translation is written back over
    as many lines, each but the last ending in " \\". A program's configuration (application.properties, not a
    resource bundle: `config_values.is_resource`) sends only the values under keys that say words: Spring's
    "logging.level.root=INFO" came back as "INFORMATIONEN", a "jdbc:" address as "Rausch:"."""
    style = java_properties.file_style(path, settings.encoding or "utf-8")
    resource = holds_words(path, settings)
    lines = iter(decoded_lines(path))
    for number, line in lines:
        run = [line]
        while (isinstance(run[-1], str) and not java_properties.COMMENT.match(run[0])
               and java_properties.CONTINUED.search(run[-1])):
            following = next(lines, None)
            if following is None:
                break
            run.append(following[1])
        words = resource or not isinstance(run[0], str) or config_values.says_words(
            java_properties.property_line(run[0])[0].strip(" \t\f=:"))
        if not words:
            yield from (part if isinstance(part, Item) else Item(number + k, str(number + k), "", before=part)
                        for k, part in enumerate(run))
            continue
        if len(run) == 1 or not all(isinstance(part, str) for part in run):
            yield from (part if isinstance(part, Item) else property_item(number + k, part, settings, style)
                        for k, part in enumerate(run))
            continue
        joined = run[0][:-1] + "".join(part.lstrip(" \t\f")[:-1] for part in run[1:-1]) + run[-1].lstrip(" \t\f")
        item = property_item(number, joined, settings, style)
        indent = run[1][:len(run[1]) - len(run[1].lstrip(" \t\f"))]
        item.lines = len(run)
        item.written_as = functools.partial(continued_lines, item.written_as, lines=len(run), indent=indent)
        yield item


def read_comments(path: Path, settings: Settings) -> Iterator[Item]:
    """A file of code or settings (`service.comments`): each run of its comment lines one item, written back over as
    many lines; every other line an item of no text, kept as written."""
    numbered = list(decoded_lines(path))
    lines = [line if isinstance(line, str) else "" for _, line in numbered]
    runs = {comment.first: comment for comment in comments.comments(lines)}
    k = 0
    while k < len(numbered):
        number, line = numbered[k]
        if isinstance(line, Item):  # not valid in its encoding: recorded as failed
            yield line
        elif comment := runs.get(k):
            yield Item(number, str(number), comment.text, settings.model, settings.options, lines=comment.lines,
                       written_as=comment.written, as_read="\n".join(lines[k:k + comment.lines]))
            k += comment.lines
            continue
        else:
            yield Item(number, str(number), "", settings.model, settings.options, before=line)
        k += 1


def property_item(number: int, line: str, settings: Settings, style: java_properties.FileStyle) -> Item:
    """A property's line (continuation lines joined) as an item: its value as Java reads it, written back as the
    file writes values; a value Java would not read goes as written."""
    before, raw = java_properties.property_line(line)
    item = Item(number, str(number), raw, settings.model, settings.options, before=before)
    if (value := java_properties.value(raw, style)) is not None:
        item.text, item.written_as = value.text, value.written
    return item


def continued_lines(written_as: Callable[[str], str], text: str, lines: int, indent: str) -> str:
    """A property's value, as `written_as` writes it, over `lines` lines (`cut_at_spaces`: none inside a word, none
    escaped, none before white space, which Java drops at a line's start), each but the last ending in " \\" and each
    but the first indented."""
    text = written_as(text)
    spaces = [at for at, character in enumerate(text)
              if character == " " and text[at - 1:at] != "\\" and not text[at + 1:at + 2].isspace()]
    pieces = rst.cut_at_spaces(text, spaces, lines)
    return "\n".join((indent if k else "") + piece + ("" if k == len(pieces) - 1 else " \\" if piece and any(
        pieces[k + 1:]) else "\\") for k, piece in enumerate(pieces))  # a space only where words follow


def subtitle_block(block: str) -> tuple[str, str]:
    """A subtitle file's block as (what stays as written, the text to translate): a cue's number or identifier and
    its timing line (with WebVTT's settings, "align:start") stay, its text goes; WebVTT's header and its NOTE,
    STYLE and REGION blocks stay whole; a block with no timing line is text."""
    if SUBTITLE_KEPT_BLOCK.match(block):
        return block, ""
    lines = block.split("\n")
    timing = next((i for i, line in enumerate(lines[:2]) if "-->" in line), None)
    if timing is None:
        return "", block
    return "\n".join(lines[:timing + 1]) + ("\n" if timing + 1 < len(lines) else ""), "\n".join(lines[timing + 1:])


def ass_written(translation: str) -> str:
    """A translation as a SubStation Alpha event's text: a line break as "\\N", a no-break space as "\\h"."""
    return translation.replace("\n", ASS_LINE_BREAK).replace("\u00a0", ASS_HARD_SPACE)


def catalog_lines(path: Path) -> Iterator[tuple[int, str]]:
    for number, line in decoded_lines(path):
        if isinstance(line, Item):
            raise po.CatalogError(f"line {number}: {line.error}; a catalog in another encoding: convert it to UTF-8 "
                                  "first: msgconv --to-code=UTF-8 INPUT -o INPUT.utf8.po")
        yield number, line


def read_catalog(path: Path, settings: Settings) -> Iterator[Item]:
    """A gettext catalog's untranslated messages: each msgid, and msgid_plural, one item keyed by its keyword's line.
    A file that is not such a catalog is refused (JobRefused) with the line and what to do."""
    try:
        for message in po.read(catalog_lines(path)):
            for line, text in message.sources() if message.untranslated else ():
                yield Item(line, str(line), text, settings.model, settings.options)
    except po.CatalogError as error:
        raise JobRefused(f"--input {path}: {error}") from None


def document(path: Path, settings: Settings) -> str | dict[str, str]:
    """The text of an input read whole (DOCUMENTS), checked (an office document's: its parts by name, PACKAGES);
    JobRefused where it is not valid UTF-8 or not what its format says."""
    if settings.format == "android" and path.name == "donottranslate.xml":
        raise JobRefused(f"--input {path}: Android translates no string of a file named donottranslate.xml")
    try:
        if settings.format in PACKAGES:
            return DOCUMENTS[settings.format].read(path)
        text = path.read_bytes().decode(settings.encoding or "utf-8")
        DOCUMENTS[settings.format].check(text.removeprefix("\ufeff"))  # a byte order mark some editors write: kept
    except UnicodeError as error:
        said_by = " as --encoding says" if settings.encoding else ""
        raise JobRefused(f"--input {path}: {not_valid(error, settings.encoding or 'utf-8', said_by, settings.format)}")\
            from None
    except documents.NotDocument as error:
        # the command names the file: a directory's job refuses --format, so its file must be given alone
        raise JobRefused(f"--input {path}: {error}; fix it, or translate it line by line as text: --input {path} "
                         "--format text") from None
    return text


# A web page's declared encoding: a <meta charset> or http-equiv Content-Type, or an XHTML page's XML declaration,
# within its first 1,024 bytes (where the HTML standard's prescan looks)
DECLARED_CHARSET = re.compile(rb"<meta\b[^>]*?\bcharset\s*=\s*[\"']?([\w.:-]+)"
                              rb"|<\?xml\b[^>]*?\bencoding\s*=\s*[\"']([\w.:-]+)", re.IGNORECASE)


def declared_charset(path: Path) -> str:
    """The encoding a web page declares (DECLARED_CHARSET), as Python names it; "" where it declares none Python
    knows. A page read byte by byte that says UTF-16 or UTF-32 is UTF-8, as the HTML standard's prescan reads it."""
    with path.open("rb") as start:
        declared = DECLARED_CHARSET.search(start.read(1024))
    if declared is None:
        return ""
    try:
        name = codecs.lookup((declared.group(1) or declared.group(2)).decode("ascii")).name
    except LookupError:
        return ""
    return "utf-8" if name.startswith(("utf-16", "utf-32")) else name


def marked_encoding(start: bytes) -> str:
    """A file's encoding by the byte order mark its first bytes hold: UTF-8, or UTF-16 or UTF-32 (little or big
    endian); "" where they hold none. UTF-32's marks are looked for first: its little-endian one starts as UTF-16's."""
    marks = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF16_LE, "utf-16-le"),
             (codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF8, "utf-8"))
    return next((encoding for mark, encoding in marks if start.startswith(mark)), "")


# Characters a legacy encoding may lack, as iconv's //TRANSLIT writes them: the German quotes and dashes the model
# writes are not in Latin-1 ("„Datei“"), nor the euro sign
NEAREST = str.maketrans({"„": '"', "“": '"', "”": '"', "«": '"', "»": '"', "‚": "'", "‘": "'", "’": "'", "‹": "'",
                         "›": "'", "–": "-", "—": "-", "…": "...", "€": "EUR", "⁄": "/"})


def nearest_characters(error: UnicodeError) -> tuple[str, int]:
    """The "nearest" codec error handler: characters an encoding has none for written as the nearest it has (NEAREST,
    else the letter without its accents: "ń" as "n"), else "?"."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    stand_ins = []
    for character in error.object[error.start:error.end]:
        stand_in = character.translate(NEAREST)
        if stand_in == character:
            stand_in = "".join(c for c in unicodedata.normalize("NFKD", character) if not unicodedata.combining(c))
        stand_ins.append(stand_in if lacking(stand_in, error.encoding) == 0 else "?")
    return "".join(stand_ins), error.end


codecs.register_error("nearest", nearest_characters)


def lacking(text: str, encoding: str) -> int:
    """How many of the text's characters the encoding has none for."""
    try:
        text.encode(encoding)
        return 0
    except UnicodeEncodeError:
        return sum(1 for character in text if not character.encode(encoding, "ignore"))


def line_endings(path: Path) -> tuple[str, str]:
    """How a file's lines end: "\r\n" where its first line ends so, else "\n"; and its last line: the same, or ""
    where the file does not end with a line break."""
    with path.open("rb") as lines:
        ending = "\r\n" if lines.readline().endswith(b"\r\n") else "\n"
        if lines.seek(0, os.SEEK_END):
            lines.seek(-1, os.SEEK_END)
            return ending, ending if lines.read(1) == b"\n" else ""
        return ending, ending


def parse_line(number: int, line: str, settings: Settings) -> Item:
    item = Item(number, str(number), "", settings.model, settings.options)
    if settings.format == "text":
        item.text = line
    elif settings.format == "ass":
        dialogue = DIALOGUE.match(line)
        text = line[dialogue.end():] if dialogue else ""
        item.before, item.written_as = line[:len(line) - len(text)], ass_written
        item.text = text.replace(ASS_LINE_BREAK, "\n").replace(ASS_HARD_SPACE, "\u00a0")  # read as a break, a space
    elif settings.format == "tsv":
        if "\t" not in line:
            item.error = "a TSV line needs an id, a tab, then the text"
        else:
            item.id, item.text = line.split("\t", 1)
    else:
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            record, item.error = None, (f"not valid JSON: {error}" if line.strip() else
                                        'an empty line; a JSONL line needs an object with a string "text"')
        if record is not None:
            if not isinstance(record, dict) or not isinstance(record.get("text"), str):
                item.error = 'a JSONL line needs an object with a string "text"'
            else:
                given = record.get("id", number)
                item.id = given if isinstance(given, str) else json.dumps(given)  # 5 as "5", {"k": 1} as JSON
                item.text = record["text"]
                item.model = str(record.get("model", item.model))
                overrides = {k: record[k] for k in RECORD_OPTIONS if k in record}
                if overrides:
                    item.options = pb.DecodingOptions()
                    item.options.CopyFrom(settings.options)
                    try:
                        for name, value in overrides.items():
                            setattr(item.options, name, value)
                    except (TypeError, ValueError):
                        item.error = (f"{', '.join(RECORD_OPTIONS[:-1])} and {RECORD_OPTIONS[-1]} must be whole "
                                      f"numbers from 0 to {2 ** 32 - 1}, not {json.dumps(overrides)}")
    return item


def count_lines(path: Path) -> int:
    """Lines as read_items sees them (a last line without a newline counts), reading 1 MiB at a time."""
    lines, last = 0, b"\n"
    with path.open("rb") as data:
        for chunk in iter(lambda: data.read(1 << 20), b""):
            lines, last = lines + chunk.count(b"\n"), chunk[-1:]
    return lines + (last != b"\n")


def split_line(text: str, limit: int, max_sentences: int = PART_SENTENCES, keep_code: bool = False,
               html: bool = False) -> tuple[str, list[tuple[str, str]]]:
    """A long text as its leading whitespace and (part, whitespace after it) pairs: each part at most `limit`
    characters and `max_sentences` sentences, without whitespace at either end, cut between sentences (a sentence
    longer than `limit` at a clause mark, else a space, else anywhere). With `keep_code` (placeholders kept), a fenced
    code block is a part of its own, uncut, however long: the server keeps it as written only whole, and sends none of
    it to the model, so it costs no sentences (one longer than the server takes the job keeps as written:
    `Job._parts`); so is a text that is JSON data (translator.text.json_data). HTML (`html`) is cut after blocks'
    ends where it can, never inside a tag or a comment, and its raw elements (HTML_RAW_ELEMENT) are never cut, as
    fenced code is not. Lead, parts and whitespace concatenate to the text."""
    from translator.text import FENCED_BLOCK, json_data, sentences, split_to_fit

    def fits(piece: str) -> bool:
        return len(piece) <= limit

    def cut(span: str) -> list[str]:
        if not html:
            return [piece for sentence in sentences(span) for piece in split_to_fit(sentence, fits)]
        return [piece for sentence in html_sentences(span) for piece in cut_as_masked(sentence, split_to_fit, fits)]

    body = text.lstrip()
    if keep_code and json_data(body):
        data = body.rstrip()
        return text[: len(text) - len(body)], [(data, body[len(data):])]
    pieces: list[str] = []
    done = 0
    for block in (HTML_RAW_ELEMENT if html else FENCED_BLOCK).finditer(body):
        code = block.group()
        pieces += (cut(body[done:block.start()]) if block.start() > done else []) + (
            [code] if keep_code else cut(code))
        done = block.end()
    pieces += cut(body[done:]) if done < len(body) else []
    parts = []
    for chunk in grouped(pieces, limit, max_sentences, ENDS_A_BLOCK.search if html else lambda piece: None):
        # whitespace opening a chunk goes after the part before it
        if parts and (opening := chunk[: len(chunk) - len(chunk.lstrip())]):
            parts[-1] = (parts[-1][0], parts[-1][1] + opening)
        stripped = chunk.strip()
        parts.append((stripped, chunk[len(chunk.rstrip()):] if stripped else ""))
    return text[: len(text) - len(body)], parts


def grouped(pieces: list[str], limit: int, max_sentences: int, ends_a_block: Callable[[str], object]) -> list[str]:
    """The pieces joined in order into chunks of at most `limit` characters (but for a piece longer alone) and
    `max_sentences` pieces; a chunk that must close closes after its last piece that `ends_a_block`, where it has one
    before its last, the pieces after it going on into the next."""
    chunks: list[list[str]] = [[]]

    def fits(chunk: list[str]) -> bool:
        return len("".join(chunk).strip()) <= limit and len(chunk) <= max_sentences

    for piece in pieces:
        while "".join(chunks[-1]).strip() and not fits(chunks[-1] + [piece]):
            chunk = chunks[-1]
            cut = max((k + 1 for k, done in enumerate(chunk[:-1]) if ends_a_block(done)), default=len(chunk))
            chunks[-1:] = [chunk[:cut], chunk[cut:]]
        chunks[-1].append(piece)
    return ["".join(chunk) for chunk in chunks]


def html_sentences(text: str) -> list[str]:
    """HTML's sentences and blocks (cut after a block's end tag and the whitespace after it), none cut inside a tag, a
    comment or a declaration; they concatenate to the text."""
    from translator.text import sentences

    ends = set(itertools.accumulate(map(len, sentences(text))))
    ends |= {block.end() for block in HTML_BLOCK_END.finditer(text)}
    return cut_outside_markup(text, ends)


def cut_as_masked(text: str, split: Callable, fits: Callable[[str], bool]) -> list[str]:
    """`split(text, fits)`'s pieces of an HTML text, cut where it would cut the text with its markup masked (no space,
    no clause mark inside a tag); a cut it makes inside a tag anyway (a run without a space) goes before the tag."""
    from translator.markup import TAG

    masked = TAG.sub(lambda found: "\ue000" * len(found.group()), text)
    return cut_outside_markup(text, itertools.accumulate(map(len, split(masked, fits))))


def cut_outside_markup(text: str, cuts: Iterable[int]) -> list[str]:
    """The text cut at each of `cuts`, a cut inside a tag, a comment or a declaration moved to its start (to its end
    where that would leave nothing before it); the pieces concatenate to the text."""
    from translator.markup import TAG

    markup = [found.span() for found in TAG.finditer(text)]
    starts = [start for start, _ in markup]
    done = [0]
    for cut in sorted(cuts):
        found = bisect.bisect_right(starts, cut) - 1
        if found >= 0 and markup[found][0] < cut < markup[found][1]:
            cut = markup[found][0] if markup[found][0] > done[-1] else markup[found][1]
        if done[-1] < cut < len(text):
            done.append(cut)
    return [text[start:end] for start, end in zip(done, [*done[1:], len(text)]) if end > start]


@dataclass
class SplitLine:
    """A line sent in parts; recorded when every part has its result."""

    item: Item  # the whole line
    lead: str  # its leading whitespace
    separators: list[str]  # the whitespace after each part
    results: dict[int, pb.BatchResult] = field(default_factory=dict)

    def add(self, part: int, result: pb.BatchResult) -> pb.BatchResult | None:
        """Take a part's result; the whole line's once every part has one."""
        self.results[part] = result
        return self._merged() if len(self.results) == len(self.separators) else None

    def _merged(self) -> pb.BatchResult:
        ordered = [self.results[i] for i in range(len(self.separators))]
        for number, result in enumerate(ordered, start=1):
            if result.error_code:
                return pb.BatchResult(error_code=result.error_code, error_message=f"part {number} of {len(ordered)} of "
                                      f"a long line sent in parts: {server_message(result)}")
        translations = [result.translation for result in ordered]
        unfinished = [t.finish_reason for t in translations if t.finish_reason != pb.FINISH_REASON_EOS]
        sent = next((result for result in ordered if result.model), ordered[0])  # (not a part kept as written)
        return pb.BatchResult(model=sent.model, model_version=sent.model_version, translation=pb.Translation(
            text=self.lead + "".join(t.text + after for t, after in zip(translations, self.separators)),
            input_tokens=sum(t.input_tokens for t in translations), output_tokens=sum(t.output_tokens for t in translations),
            finish_reason=unfinished[0] if unfinished else pb.FINISH_REASON_EOS))


class JobRefused(Exception):
    """A batch job that cannot run as asked: its files, or another job on the same output."""


def check_paths(source: Path, output: Path, journal: Path) -> None:
    """Refuse, before anything is read or written, an input that is no regular file (a pipe would be read up by
    count_lines, and a rerun resumes by line number in the same file), an output that is the input, an output in
    a directory that does not exist, and an output that is a directory."""
    if not source.is_file():
        raise JobRefused(f"--input {source}: " + ("no such file" if not source.exists() else
                         "not a regular file; a job reads its input twice (to count its lines, then to translate "
                         "them) and a rerun resumes by line number: save it to a file first"))
    if any(path.exists() and path.samefile(source) for path in (output, journal)):
        raise JobRefused(f"--output {output} is the input file: choose another name (the input stays as it is)")
    if not output.parent.is_dir():
        raise JobRefused(f"--output {output}: the directory {output.parent} does not exist")
    if output.is_dir():
        raise JobRefused(f"--output {output} is a directory: name a file in it")


def check_job(source: Path, output: Path, settings: Settings, replace: bool = False) -> None:
    """Refuse a job whose paths are wrong (`check_paths`), or whose text output is finished (but to `replace` it),
    before anything is read, written or asked of a server."""
    check_paths(source, output, journal_path(output, settings))
    if finished(output, settings) and not replace:
        raise FileExistsError(f"{output} is a finished text output; remove it to translate again")


def finished(output: Path, settings: Settings) -> bool:
    """Whether a text output is a job's finished one: written, and its journal gone (a JSONL output is its journal)."""
    return settings.output_format == "text" and output.exists() and not journal_path(output, settings).exists()


def journal_path(output: Path, settings: Settings) -> Path:
    """Where a job records its results: a JSONL output is its own journal; a text output's is OUTPUT.journal.jsonl."""
    return output if settings.output_format == "jsonl" else output.with_name(output.name + ".journal.jsonl")


def partial_path(output: Path) -> Path:
    """Where a text output is written before it replaces OUTPUT whole."""
    return output.with_name(output.name + ".partial")


class TranslatedLines:
    """The lines a journal records as translated, each with a hash of its text (a rerun checks the input is the
    same): 8 bytes a line, in an array indexed by line number up to the highest recorded, where a dict of them took
    ~115 (a rerun's client on a 1,000,000-line journal: +115 MB of memory)."""

    def __init__(self, lines: int):
        self.lines = lines  # of the input
        self.hashes = array("Q")  # by line number; 0: not translated
        self.count = 0
        self.outside: set[int] = set()  # recorded lines the input does not have (then a rerun is refused)

    @staticmethod
    def _hash(text: str) -> int:
        return hash(text) & 0xFFFF_FFFF_FFFF_FFFF | 1  # never 0

    def add(self, line: int, text: str) -> None:
        if not 1 <= line <= self.lines:
            self.outside.add(line)
            return
        if line >= len(self.hashes):  # grown in steps that double, so that appending stays cheap
            size = min(max(line + 1, 2 * len(self.hashes)), self.lines + 1)
            self.hashes.frombytes(bytes(8 * (size - len(self.hashes))))
        self.count += not self.hashes[line]
        self.hashes[line] = self._hash(text)

    def __contains__(self, line: int) -> bool:
        return line < len(self.hashes) and self.hashes[line] != 0

    def __len__(self) -> int:
        return self.count + len(self.outside)

    def same_text(self, line: int, text: str) -> bool | None:
        """Whether the line was recorded with this text; None where it was not recorded."""
        return self.hashes[line] == self._hash(text) if line in self else None


class Journal:
    """One JSON record per finished line, appended whole and flushed; a rerun trusts only complete records, and sends
    again the lines whose record is an error (a busy server given up on, a line fixed since). A job holds its journal
    locked until it ends (the lock dies with the process): a second job on the same output, which would record every
    line twice and delete the journal under the first, is refused."""

    def __init__(self, path: Path, lines: int):
        self.path = path
        self.file = path.open("a", encoding="utf-8")
        self._lock()
        self.done, self.failed_before = self._recover(lines)
        self.last_sync = time.monotonic()

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(self.file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self.file.close()
            raise JobRefused(f"another batch job is writing {self.path}: let it finish (or stop it; a rerun resumes "
                             "it) before starting this one, or choose another --output") from None

    def _recover(self, lines: int) -> tuple[TranslatedLines, int]:
        """The lines of an input of `lines` translated already, and how many records are errors (their lines are sent
        again); a torn last record (no newline, or not JSON) is cut off."""
        done = TranslatedLines(lines)
        failed, good = 0, 0
        with self.path.open("rb") as data:
            for raw in data:
                if not raw.endswith(b"\n"):
                    break
                try:
                    record = json.loads(raw)
                    line = int(record["line"])
                except (ValueError, KeyError, TypeError):
                    break
                if "error" in record:
                    failed += 1
                else:
                    done.add(line, str(record.get("source")))
                good += len(raw)
        if good < self.path.stat().st_size:
            os.truncate(self.path, good)
        return done, failed

    def write(self, record: dict) -> None:
        with writing(self.path):
            self.file.write(json.dumps(record, ensure_ascii=False) + "\n")
            self.file.flush()  # a killed client leaves whole records in the OS
            if time.monotonic() - self.last_sync > 2.0:  # and a crashed machine at most 2 s of them
                os.fsync(self.file.fileno())
                self.last_sync = time.monotonic()

    def close(self) -> None:
        if self.file.closed:  # discarded
            return
        with writing(self.path):
            try:
                self.file.flush()
                os.fsync(self.file.fileno())
            finally:
                with contextlib.suppress(OSError):  # what a full disk did not take: a torn record, cut off on a rerun
                    self.file.close()

    def discard(self) -> None:
        """The journal deleted, unsynced, once its output is written: a directory of 1,200 small files synced each
        journal just after deleting it (profiled: 1,200 fsync calls, 1.3 s of 16.8, in the event loop)."""
        self.path.unlink()
        self.file.close()

    def keep_last_records(self, lines: int) -> None:
        """Rewrite the journal with only the last record of each of the input's `lines` (in their order): after a
        rerun, the errors of the lines it sent again are gone. Called on a finished job, under its lock; the rewrite
        replaces the file whole, so a crash leaves the old journal."""
        last = array("Q", bytes(8 * (lines + 1)))  # by line number: 1 + the index of its last record (8 bytes a line)
        records = 0
        with self.path.open("rb") as data:
            for records, raw in enumerate(data, start=1):
                if 1 <= (line := int(json.loads(raw)["line"])) <= lines:  # as _recover reads it
                    last[line] = records
        kept = bytearray(records + 1)
        for index in last:
            kept[index] = 1
        rewritten = self.path.with_name(self.path.name + ".rewrite")
        with writing(rewritten):
            with self.path.open("rb") as data, rewritten.open("wb") as out:
                out.writelines(raw for index, raw in enumerate(data, start=1) if kept[index])
                out.flush()
                os.fsync(out.fileno())
            os.replace(rewritten, self.path)


@contextlib.contextmanager
def writing(path: Path) -> Iterator[None]:
    """A write that fails (a full disk, a file size limit) says which file and that a rerun resumes, not a traceback."""
    try:
        yield
    except OSError as error:
        raise OSError(error.errno, f"cannot write {path} ({error.strerror}): the results so far are kept; make room and "
                                   "rerun the same command to resume") from None


# The server names a failed item by the id it was sent under, this job's line key ("item '7': ..."): beside the
# record's own line and id (say "c"), that name only confused.
SENT_UNDER = re.compile(r"^item '[0-9.]+': ")


def server_message(result: pb.BatchResult) -> str:
    return SENT_UNDER.sub("", result.error_message, count=1)


def result_record(item: Item, result: pb.BatchResult) -> dict:
    record = {"line": item.line, "id": item.id, "source": item.source}
    if item.lines > 1:
        record["lines"] = item.lines
    if result.error_code:
        record["error"] = {"code": status_name(result.error_code), "message": server_message(result)}
    else:
        t = result.translation
        record |= {"translation": item.before + item.written_as(t.text) + item.after, "input_tokens": t.input_tokens,
                   "output_tokens": t.output_tokens,
                   "finish_reason": pb.FinishReason.Name(t.finish_reason).removeprefix("FINISH_REASON_").lower(),
                   "model": result.model, "model_version": result.model_version}
        if item.added_lines:
            record["added_lines"] = item.added_lines
    return record


@dataclass
class Summary:
    # lines of the input (paragraphs, subtitles: paragraphs and blank lines; po: msgids and plurals to fill; json,
    # xliff, android, ts, resx, xcstrings: the strings, units or messages to fill)
    items: int = 0
    resumed: int = 0  # recorded by an earlier run
    translated: int = 0
    failed: int = 0
    empty: int = 0  # blank lines, kept blank without a request
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)  # "line N: CODE: message", the first 100
    not_utf8: int = 0  # lines failed as not valid UTF-8
    wrapped: int = 0  # of a text input, lines whose sentence seems to go on on the next (`wrapped`)
    approximated: int = 0  # characters of the text output its encoding has none for, written as the nearest it has
    tracked: int = 0  # an office document's paragraphs kept as they are for their tracked changes

    def __str__(self) -> str:
        rate = self.translated / self.seconds if self.seconds else 0.0
        tokens = self.output_tokens / self.seconds if self.seconds else 0.0
        return (f"{self.items} items: {self.translated} translated, {self.failed} failed, {self.resumed} done before, "
                f"{self.empty} empty; "
                f"{self.input_tokens} input / {self.output_tokens} output tokens in {self.seconds:.1f} s "
                f"({rate:.1f} items/s, {tokens:.0f} output tokens/s)")


class Job:
    def __init__(self, client: AsyncTranslatorClient, source: Path, output: Path, settings: Settings,
                 progress: bool = True, shared: "Shared | None" = None, replace: bool = False):
        self.client, self.source, self.output = client, source, output
        self.settings = dataclasses.replace(settings, named=source)  # (what is read may be a UTF-8 copy of it)
        self.shared = shared or Shared(settings.concurrency)  # a directory's jobs share one
        self.twins = 0  # dedupe: items waiting for the result of the same text in flight (this job's or another's)
        self.handed_back: list[Item] = []  # twins whose text's job ended without its result: this job sends them
        self.twins_changed = asyncio.Event()
        self.replace = replace  # a finished text output is translated again (its source changed), kept until then
        self.journal_path = journal_path(output, settings)
        self.progress = progress
        self.summary = Summary()
        self.lines = 0  # of the input (count_lines), read when the job starts
        self.split: dict[int, SplitLine] = {}  # lines sent in parts, by line number, until every part is back
        self.part_chars = PART_CHARS  # longer lines are sent in parts of at most this many characters
        self.max_chars = PART_CHARS  # the server's limit (ListModels): a fenced code block up to it goes whole
        self.last_progress = time.monotonic()
        self.input = source  # what is read: the input, or its UTF-8 copy (_utf8_input)
        self.encoding = "utf-8"  # of the input, and of a text output

    async def run(self) -> Summary:
        check_job(self.source, self.output, self.settings, self.replace)
        started = time.monotonic()
        with contextlib.ExitStack() as cleanup:
            self.input = self._utf8_input(cleanup)
            if self.settings.format in DOCUMENTS:  # items numbered by the file's strings or units, not by lines
                read = document(self.input, self.settings)
                self.lines = DOCUMENTS[self.settings.format].count(read)
                if self.settings.format in PACKAGES:
                    self.summary.tracked = DOCUMENTS[self.settings.format].tracked(read)
            else:
                self.lines = count_lines(self.input)  # the text output's, whatever the items are
            if self.settings.format == "po":  # a file that is no catalog is refused before anything is written
                collections.deque(read_items(self.input, self.settings), maxlen=0)
            await self._ask_server()
            self.journal = Journal(self.journal_path, self.lines)
            try:
                await self._translate()
            finally:
                self.shared.in_flight.leave(self)
                self.journal.close()
        self.summary.seconds = time.monotonic() - started
        return self.summary

    def _utf8_input(self, cleanup: contextlib.ExitStack) -> Path:
        """The input, or a UTF-8 copy (in a temporary directory `cleanup` removes) of an input in UTF-16 or UTF-32 (by
        its byte order mark: Xcode's older strings files, Windows' "Unicode" text files) or in the encoding --encoding
        names (Windows' cp1252: old subtitles, spreadsheets' CSV), whose text output is written back in that encoding.
        Read as UTF-8, a UTF-16 file's every line came back as characters and NULs, and a cp1252 one's every line with
        an "é" or "ü" failed. (A catalog or a JSON or XML file is refused as not UTF-8, with what to run.)"""
        if self.settings.encoding and self.settings.format in OWN_ENCODING:
            convert = "msgconv --to-code=UTF-8" if self.settings.format == "po" else "iconv -t UTF-8"
            raise JobRefused(f"--encoding does not apply to --format {self.settings.format}, whose files this job "
                             f"reads as UTF-8: convert it first ({convert})")
        with self.source.open("rb") as start:
            marked = marked_encoding(start.read(4))
        # A mark says the encoding (read as cp1252, a UTF-8 file's first line began "ï»¿" and each "é" was "Ã©"):
        # --encoding may name it or its family ("utf-16" reads either byte order)
        if self.settings.encoding and marked and self.settings.encoding not in (marked, marked[:6]):
            raise JobRefused(f"--input {self.source} starts with a {marked.upper()} byte order mark: it is "
                             f"{marked.upper()}, not {self.settings.encoding.upper()}; leave out --encoding, this "
                             "job reads a marked file's encoding from its mark")
        if self.settings.format in (*DOCUMENTS, "po"):  # read whole, as --encoding says (`document`), or UTF-8
            self.encoding = self.settings.encoding or "utf-8"
            return self.source
        encoding = self.settings.encoding or marked or "utf-8"
        said_by = " as --encoding says" if self.settings.encoding else " as its byte order mark says"
        if encoding == "utf-8" and self.settings.format == "properties" and not valid_in(self.source):
            # Java's rule: a properties file that is not UTF-8 is ISO-8859-1 (ResourceBundle reads UTF-8 and falls
            # back to it; Properties.load(InputStream) reads nothing else). Read as UTF-8, its every line with an
            # "é" failed.
            encoding = "iso8859-1"
            self.settings = dataclasses.replace(self.settings, encoding=encoding)
        if encoding == "utf-8" and self.settings.html and (declared := declared_charset(self.source)) \
                and (valid_in(self.source, "ascii") or not valid_in(self.source)):
            # A web page says its encoding where it is not UTF-8, as browsers read it; read as UTF-8, the ISO-8859-1
            # pages of libxslt's manual installed here failed line by line. So does one in ASCII, which either reads,
            # and its translation is written in it: in UTF-8, GOsa²'s help pages (ASCII, declaring ISO-8859-15) showed
            # "Ã¼" for each "ü"
            encoding, said_by = declared, " as the page declares"
            self.settings = dataclasses.replace(self.settings, encoding=encoding)
        if encoding == "utf-8":
            return self.source
        # Made only for such an input: a job killed (SIGKILL) leaves its temporary directory behind.
        scratch = Path(cleanup.enter_context(tempfile.TemporaryDirectory(prefix="translator-batch-")))
        copy = scratch / self.source.name
        try:
            with self.source.open("rb") as wide, copy.open("w", encoding="utf-8", newline="") as narrow:
                decode_into(wide, narrow, encoding)
        except UnicodeError as error:  # a UnicodeDecodeError, or UTF-16's "stream does not start with BOM"
            raise JobRefused(f"--input {self.source}: {not_valid(error, encoding, said_by, self.settings.format)}")\
                from None
        self.encoding = encoding
        return copy

    def _byte_order_mark(self) -> str:
        """What a text output starts with: the byte order mark its input starts with (read line by line, it is no
        line's; a file read whole keeps its own)."""
        if self.settings.format in DOCUMENTS:
            return ""
        with self.input.open("rb") as start:
            return "\ufeff" if start.read(3) == codecs.BOM_UTF8 else ""

    async def _translate(self) -> None:
        from tqdm import tqdm

        self.summary.resumed = len(self.journal.done)
        not_by_line = self.settings.format in (*PARAGRAPH_FORMATS, "properties", "fluent", "po", *DOCUMENTS)
        self.summary.items = self._read_through() if self.journal.done or not_by_line else self.lines
        unit = ITEM_NOUNS.get(self.settings.format, "line")
        self.bar = tqdm(total=self.summary.items, initial=self.summary.resumed, unit=unit, disable=not self.progress,
                        desc=self.source.name, dynamic_ncols=True, mininterval=0.5)
        try:
            self.pending = self._todo()
            await self._send_pending()
            while self.twins or self.handed_back:  # the results of texts other jobs of the directory sent
                if self.handed_back:
                    self.pending = (part for item in self.handed_back for part in self._sendable(item))
                    self.handed_back = []
                    await self._send_pending()
                else:
                    self.twins_changed.clear()
                    await self.twins_changed.wait()
            if self.journal.failed_before:  # lines this run sent again: their old error records go
                self.journal.keep_last_records(self.lines)
            if self.settings.output_format == "text":
                self._assemble_text()  # while the journal is locked: no other job reads it half deleted
        finally:
            self.bar.close()

    async def _send_pending(self) -> None:
        streams = max(1, -(-self.settings.concurrency // STREAM_WINDOW))
        window = max(1, self.settings.concurrency // streams)
        await asyncio.gather(*(self._stream(window) for _ in range(streams)))

    def _read_through(self) -> int:
        """The input's items, counted, each checked against what the journal recorded for its line, if anything: a
        rerun on an input edited since (a line changed, inserted or removed) would keep the old text's translations,
        or put every later line's on the wrong line."""
        def changed(what: str) -> JobRefused:
            encoding = ("" if self.settings.encoding or valid_in(self.input) else " (or it is not UTF-8 and was read "
                        "with --encoding: give it again)")
            return JobRefused(f"{what}: the input changed since{encoding}. Restore it, or remove "
                              f"{self.journal_path} to translate it all again")

        items, recorded = 0, 0
        for item in read_items(self.input, self.settings):
            items += 1
            if (same := self.journal.done.same_text(item.line, item.source)) is None:
                continue
            recorded += 1
            if not same:
                raise changed(f"line {item.line} of {self.source} is not the text {self.journal_path} recorded for it")
        if recorded < len(self.journal.done):
            raise changed(f"{self.journal_path} records lines that {self.source} does not have")
        return items

    async def _ask_server(self) -> None:
        """What ListModels says: the job's model must be one of the server's (before, every line failed NOT_FOUND and
        the text output was written, empty), and a line longer than the server's max_text_chars (0 from a server
        older than that field) goes in parts. A refusal (a token missing) ends the job here: a stream may not tell
        why it ended. A server not up yet: the job's streams wait for it."""
        async with self.shared.asking:  # the files at once wait for the first one's answer
            if self.shared.models is None:
                try:
                    self.shared.models = (await self.client.list_models()).models
                except grpc.aio.AioRpcError as error:
                    if error.code() not in RETRYABLE:
                        raise
                    return
        models = self.shared.models
        names = [model.name for model in models]
        if self.settings.model and self.settings.model not in names:
            raise JobRefused(f"the server has no model {self.settings.model!r}, only {', '.join(names)}: choose one "
                             "with --model")
        wanted = self.settings.model
        model = next((m for m in models if m.name == wanted or not wanted and m.default), None)
        if model and 0 < model.max_beam_size < self.settings.options.beam_size:  # else every line: INVALID_ARGUMENT
            raise JobRefused(f"model {model.name!r} searches with at most {model.max_beam_size} beams: choose "
                             f"--beam {model.max_beam_size} or fewer")
        self.max_chars = min((m.max_text_chars for m in models), default=0) or PART_CHARS
        self.part_chars = min(PART_CHARS, self.max_chars)

    def _todo(self) -> Iterator[Item]:
        """Items still to send; empty, malformed and (with dedupe) already translated lines are recorded here."""
        previous = ""
        for item in read_items(self.input, self.settings):
            if self.settings.format == "text":
                self.summary.wrapped += wrapped(previous, item.text)
                previous = item.text
            if item.line in self.journal.done:
                continue
            if item.error:
                self.summary.not_utf8 += item.error.startswith(NOT_UTF8)
                self._record(item, pb.BatchResult(error_code=grpc.StatusCode.INVALID_ARGUMENT.value[0],
                                                  error_message=item.error))
            elif not item.text.strip():
                self._record(item, pb.BatchResult(translation=pb.Translation()))  # empty lines stay empty
            elif self.settings.dedupe and item.dedupe_key in self.shared.cache:
                self.shared.cache.move_to_end(item.dedupe_key)
                self._record(item, self.shared.cache[item.dedupe_key])
            elif self.settings.dedupe and self.shared.in_flight.join(item.dedupe_key, self, item):
                self.twins += 1
            else:
                if self.settings.dedupe:
                    self.shared.in_flight.send(item.dedupe_key, self)
                yield from self._sendable(item)

    def _sendable(self, item: Item) -> Iterator[Item]:
        if len(item.text) > self.part_chars:
            yield from self._parts(item)
        else:
            yield item

    def twin_answered(self, twin: Item, result: pb.BatchResult | None) -> None:
        """A twin's text came back (None: its job ended first, and this job sends it)."""
        self.twins -= 1
        if result is None:
            self.handed_back.append(twin)
        else:
            self._record(twin, result)
        self.twins_changed.set()

    def _parts(self, item: Item) -> Iterator[Item]:
        kept = not item.options.HasField("preserve_placeholders") or item.options.preserve_placeholders
        lead, parts = split_line(item.text, self.part_chars, keep_code=kept,
                                 html=item.options.text_format == pb.TEXT_FORMAT_HTML)
        self.split[item.line] = SplitLine(item, lead, [after for _, after in parts])
        for number, (text, _) in enumerate(parts):
            part = dataclasses.replace(item, text=text, part=number)
            if len(text) > self.max_chars:
                # longer than the server takes: code (or one tag, which no cut splits), which it would keep as
                # written (LilyPond's manual's <pre> of 150,000 characters was cut as text and came back translated)
                self._finish(part, pb.BatchResult(translation=pb.Translation(
                    text=text, finish_reason=pb.FINISH_REASON_EOS)))
            else:
                yield part

    def _record(self, item: Item, result: pb.BatchResult) -> None:
        record = result_record(item, result)
        self.journal.write(record)
        if "error" in record:
            self.summary.failed += 1
            if len(self.summary.errors) < 100:
                self.summary.errors.append(f"line {item.line}: {record['error']['code']}: {record['error']['message']}")
        elif not item.text.strip():
            self.summary.empty += 1
        else:
            self.summary.translated += 1
            self.summary.input_tokens += record["input_tokens"]
            self.summary.output_tokens += record["output_tokens"]
        self.bar.update(1)

    def _finish(self, item: Item, result: pb.BatchResult) -> None:
        if item.part is not None:
            whole = self.split[item.line]
            if (result := whole.add(item.part, result)) is None:
                return
            del self.split[item.line]
            item = whole.item
        self._record(item, result)
        if self.settings.dedupe:
            self.shared.in_flight.answered(item.dedupe_key, result)
            if not result.error_code:
                self.shared.cache[item.dedupe_key] = result
                if len(self.shared.cache) > DEDUPE_CACHE:
                    self.shared.cache.popitem(last=False)

    async def _stream(self, window: int) -> None:
        """One TranslateBatch stream at a time, reopened with backoff until this lane's items are done."""
        lane = Lane(window, self.shared.budget)
        failures = 0  # in a row, without a result in between: the backoff grows with them
        while True:
            progress_before = self.last_progress
            try:
                if await self._pump(lane):
                    return
            except grpc.aio.AioRpcError as error:
                if error.code() not in STREAM_BREAKS:
                    raise
            if time.monotonic() - self.last_progress > self.settings.give_up_seconds:
                raise TimeoutError(f"no result for {self.settings.give_up_seconds:.0f} s; rerun the same command to resume")
            failures = failures + 1 if self.last_progress == progress_before else 1
            await asyncio.sleep(backoff(failures))

    async def _pump(self, lane: "Lane") -> bool:
        """Send items while fewer than `lane.window` are unanswered; record results as they come. True when done."""
        call = self.client.batch()

        async def send() -> None:
            while True:
                if await lane.reserve():  # after other jobs' items (a directory's): "no result for" counts from now
                    self.last_progress = time.monotonic()
                item = lane.retry.popleft() if lane.retry else next(self.pending, None)
                if item is None:
                    lane.unreserve()
                    if lane.idle:
                        await call.done_writing()
                        return
                    await lane.wait()
                    continue
                lane.in_flight[item.key] = item  # holding the place reserved
                await call.write(pb.BatchItem(id=item.key, text=item.text, model=item.model, options=item.options))

        sender = asyncio.create_task(send())
        try:
            async for result in call:
                item = lane.answered(result.id)
                if item is None:
                    continue  # not in flight on this stream: never record anything twice
                self.last_progress = time.monotonic()
                if self._send_again(item, result):
                    lane.retry_later(item)
                else:
                    self._finish(item, result)
                lane.changed.set()
            if lane.in_flight:  # the server ended the stream without answering everything: reopen
                return False
            await sender  # re-raises a failed write
            return lane.idle
        finally:
            sender.cancel()
            await asyncio.gather(sender, return_exceptions=True)
            call.cancel()
            lane.requeue_in_flight()  # what a broken stream had in flight goes first on the next

    def _send_again(self, item: Item, result: pb.BatchResult) -> bool:
        """Whether a busy or shutting-down server's answer is tried again (after a backoff): until the item has been
        refused for give_up_seconds. A cap of 8 attempts (~16 s of backoff) failed 19, 16 and 23 of the 600 lines of
        three jobs that shared the default server."""
        if result.error_code not in RETRYABLE_CODES:
            return False
        now = time.monotonic()
        if not item.attempts:
            item.refused_since = now
        return now - item.refused_since < self.settings.give_up_seconds

    def _assemble_text(self) -> None:
        """The text output: line i holds line i's translation (empty when it failed; a paragraph's lines hold its
        translation's lines, which are as many) — or, for a catalog, a JSON or an XLIFF file, the file with its
        translations filled in —, written atomically, its lines ending as the input's first line does (a Windows
        file's "\r\n" came back as "\n"), and without one after the last line where the input has none. The journal
        goes with the last failure: while a line failed, a rerun sends it again."""
        translations: dict[int, str] = {}
        by_line = self.settings.format != "po" and self.settings.format not in DOCUMENTS  # else by item
        line_ending, _ = line_endings(self.input)
        with self.journal_path.open(encoding="utf-8") as records:
            for raw in records:
                record = json.loads(raw)
                if not by_line:
                    if "translation" in record:
                        translations[record["line"]] = record["translation"]
                    continue
                lines = record.get("lines", 1)
                pieces = spread(record.get("translation", ""), lines + record.get("added_lines", 0))
                pieces[lines - 1:] = [line_ending.join(pieces[lines - 1:])]  # added lines go after the item's last
                for offset, text in enumerate(pieces):
                    translations[record["line"] + offset] = text
        if self.settings.format in PACKAGES:
            self._write_package(DOCUMENTS[self.settings.format].filled(document(self.input, self.settings),
                                                                       translations))
        elif self.settings.format in DOCUMENTS:
            # POD declares the encoding it is written in
            written_in = {"encoding": self.encoding} if self.settings.format == "pod" else {}
            self._write_output([DOCUMENTS[self.settings.format].filled(document(self.input, self.settings),
                                                                       translations, self.settings.review,
                                                                       **written_in)])
        elif self.settings.format == "po":
            changes = po.edits(po.read(catalog_lines(self.input)), translations, self.settings.review)
            self._write_output(self._ended(changes.apply(line for _, line in catalog_lines(self.input))))
        else:
            lines = (translations.get(line, "") for line in range(1, self.lines + 1))
            if self.settings.format == "fluent":
                lines = iter(fluent.access_keys_in_labels(lines))
            self._write_output(self._ended(lines))
        if not self.summary.failed:
            self.journal.discard()

    def _ended(self, lines: Iterator[str]) -> Iterator[str]:
        """The lines, each ending as the input's lines end, the last one as the input's last."""
        ending, last_ending = line_endings(self.input)
        previous = None
        for line in lines:
            if previous is not None:
                yield previous + ending
            previous = line
        if previous is not None:
            yield previous + last_ending

    def _write_output(self, pieces: Iterator[str]) -> None:
        partial = partial_path(self.output)
        # a web page's characters its encoding lacks are written as character references, which it reads as them
        html = self.settings.html
        errors = "xmlcharrefreplace" if html else "nearest"
        with writing(partial), partial.open("w", encoding=self.encoding, errors=errors, newline="") as out:
            out.write(self._byte_order_mark())
            holds_all = html or codecs.lookup(self.encoding).name.startswith("utf")  # else some may be approximated
            for piece in pieces:
                self.summary.approximated += 0 if holds_all else lacking(piece, self.encoding)
                out.write(piece)
        os.replace(partial, self.output)

    def _write_package(self, parts: dict[str, str]) -> None:
        """An office document's output: its package with its text parts filled in, written atomically as a text
        output is."""
        partial = partial_path(self.output)
        with writing(partial):
            office.write(self.input, parts, partial)
        os.replace(partial, self.output)


def spread(translation: str, lines: int) -> list[str]:
    """A translation as the text of `lines` lines: its own lines, the last ones joined by spaces where it has more
    (a JSONL item's text of several lines, in one line of the output), empty ones added where it has fewer (a failed
    item)."""
    pieces = translation.split("\n")
    if len(pieces) > lines:
        pieces = pieces[:lines - 1] + [" ".join(pieces[lines - 1:])]
    return pieces + [""] * (lines - len(pieces))


class Lane:
    """The items one worker has taken: in flight on its current stream, or waiting to be sent again. Each item in
    flight holds a place in the lane's window and one of the budget's, given back when its result comes or its stream
    ends."""

    def __init__(self, window: int, budget: asyncio.Semaphore):
        self.window, self.budget = window, budget
        self.in_flight: dict[str, Item] = {}  # by the BatchItem id sent (Item.key)
        self.retry: collections.deque[Item] = collections.deque()
        self.backing_off = 0  # items waiting out a backoff before going back into `retry`
        self.changed = asyncio.Event()

    @property
    def idle(self) -> bool:
        return not self.in_flight and not self.retry and not self.backing_off

    async def wait(self) -> None:
        self.changed.clear()
        await self.changed.wait()

    async def reserve(self) -> bool:
        """A place for one more item in flight: in the window, then in the budget. True when the budget had none."""
        while len(self.in_flight) >= self.window:
            await self.wait()
        waited = self.budget.locked()
        await self.budget.acquire()
        return waited

    def unreserve(self) -> None:
        self.budget.release()

    def answered(self, key: str) -> Item | None:
        """The item in flight that a result answers (None: not in flight on this stream), its places given back."""
        item = self.in_flight.pop(key, None)
        if item is not None:
            self.budget.release()
        return item

    def requeue_in_flight(self) -> None:
        for _ in self.in_flight:
            self.budget.release()
        self.retry.extendleft(reversed(self.in_flight.values()))
        self.in_flight.clear()

    def retry_later(self, item: Item) -> None:
        item.attempts += 1
        self.backing_off += 1
        asyncio.get_running_loop().call_later(backoff(item.attempts), self._back, item)

    def _back(self, item: Item) -> None:
        self.backing_off -= 1
        self.retry.append(item)
        self.changed.set()


def backoff(attempt: int, base: float = 0.2, cap: float = 10.0) -> float:
    """Exponential backoff with full jitter: a random time up to min(cap, base·2^attempt)."""
    return random.uniform(0, min(cap, base * 2 ** attempt))


async def run_job(client: AsyncTranslatorClient, source: Path, output: Path, settings: Settings, progress: bool = True,
                  shared: "Shared | None" = None, replace: bool = False) -> Summary:
    return await Job(client, source, output, settings, progress, shared, replace).run()


# Formats whose suffix files of other kinds have too: TypeScript's ".ts" (not Qt Linguist's), a PHP program (not a
# translation file's array), a table of data (no language's column). A directory's job copies such a file where the
# format's check refuses it (`is_format`): it failed them, and the job with them
SHARED_SUFFIX_FORMATS = ("ts", "php", "csv")


def is_format(path: Path, format: str) -> bool:
    """Whether a file is what a format read whole (DOCUMENTS) takes, as its check says (one not UTF-8: the job says
    what is wrong with it)."""
    try:
        DOCUMENTS[format].check(path.read_bytes().decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError:
        return True
    except documents.NotDocument:
        return False
    return True


# A directory's files that a job reads, by their names: those whose format NAMED_FORMATS (or a manual page's section)
# names, and plain text (".txt"); any other (an image, a stylesheet, a script) is copied as it is, so that the output
# is the whole tree: a documentation site, a package's manual pages
TEXT_SUFFIXES = (".txt",)


@dataclass
class TreeSummary:
    """What a directory's job did, file by file, and its files' items added up."""
    translated: int = 0  # files a job read this run
    changed: int = 0  # of those, finished text outputs translated again: their source was modified since
    finished: int = 0  # text outputs an earlier run finished: left as they are
    copied: int = 0  # files of no format a job reads
    failed: list[str] = field(default_factory=list)  # "path: why", of files refused or with items failed
    unmade: list[Path] = field(default_factory=list)  # files under the output no input file makes (sources gone?)
    items: Summary = field(default_factory=Summary)  # the jobs' items, added up

    def add(self, summary: Summary) -> None:
        for name in ("items", "resumed", "translated", "failed", "empty", "input_tokens", "output_tokens"):
            setattr(self.items, name, getattr(self.items, name) + getattr(summary, name))

    def __str__(self) -> str:
        files = self.translated + self.finished + self.copied + len(self.failed)
        again = f" ({self.changed} again: changed since)" if self.changed else ""
        return (f"{files} files: {self.translated} translated{again}, {self.finished} finished before, {self.copied} "
                f"copied, {len(self.failed)} failed; {self.items}")


def tree_files(source: Path, output: Path, exclude: Sequence[str] = ()) -> list[Path]:
    """The regular files under `source`, as paths relative to it, sorted: not hidden ones nor those in a hidden
    directory (".git"), not symbolic links, nothing under `output` where it lies inside (a rerun would read the
    translations as inputs), nothing `exclude` names (`excluded`)."""
    found, output = [], output.resolve()
    for directory, subdirectories, names in os.walk(source):
        here = Path(directory)
        relative = here.relative_to(source)
        subdirectories[:] = sorted(name for name in subdirectories if not name.startswith(".")
                                   and (here / name).resolve() != output and not excluded(relative / name, exclude))
        found += [relative / name for name in sorted(names) if not name.startswith(".")
                  and not (here / name).is_symlink() and (here / name).is_file()
                  and not excluded(relative / name, exclude)]
    return found


def excluded(relative: Path, patterns: Sequence[str]) -> bool:
    """Whether a path under a directory's input is one of `patterns` names, as rsync's --exclude reads them: a pattern
    with a "/" inside is matched against the whole path from the input, a name at a time ("api/*.md": not
    "api/v1/list.md"), one without against the file's or directory's name ("*.min.js", "vendor"); a directory left
    out leaves out all it holds."""
    for pattern in (pattern.strip("/") for pattern in patterns):
        if "/" in pattern:
            if len(relative.parts) == pattern.count("/") + 1 and relative.match(pattern):
                return True
        elif fnmatch.fnmatchcase(relative.name, pattern):
            return True
    return False


class Shared:
    """What a job's lanes share, and a directory's jobs."""

    def __init__(self, concurrency: int):
        # items in flight, at most (--concurrency): a directory's jobs each had their own (60 manual pages 64 at once:
        # up to 3,840 in flight), and took 14.4-16.1 s (128 at once 15.2-16.7) against 11.2-12.5 with one for all
        self.budget = asyncio.Semaphore(concurrency)
        # --dedupe's translations, by key: a directory's files repeat each other's paragraphs. Of 100 of gcloud's
        # manual pages the server read 65,384 tokens where each file kept its own, 42,758 with one for all
        self.cache: collections.OrderedDict[tuple, pb.BatchResult] = collections.OrderedDict()
        self.in_flight = TextsInFlight()
        # What ListModels answered, asked once for a directory's files: one call each, 1,200 small files 32 at once
        # took 17.2, 17.9, 16.3, 17.3 and 15.3 s, against 16.1, 16.1, 14.3, 14.7 and 16.4 (a server restarted with
        # other models meanwhile: their items fail NOT_FOUND, recorded, sent again by a rerun)
        self.models = None
        self.asking = asyncio.Lock()


class TextsInFlight:
    """--dedupe's texts sent and not yet answered, by key, each with the job that sent it and the items (of any job)
    waiting for its result. Before a directory's jobs shared them, what one file had in flight another sent again:
    of 100 of gcloud's manual pages the server read 33,891 tokens one file at a time, 36,832 32 files at once."""

    def __init__(self):
        self.texts: dict[tuple, tuple[Job, list[tuple[Job, Item]]]] = {}

    def send(self, key: tuple, job: Job) -> None:
        self.texts[key] = (job, [])

    def join(self, key: tuple, job: Job, item: Item) -> bool:
        """Whether `item` waits for a text in flight (its job's `twin_answered` hears of it)."""
        if key not in self.texts:
            return False
        self.texts[key][1].append((job, item))
        return True

    def answered(self, key: tuple, result: pb.BatchResult) -> None:
        for job, twin in self.texts.pop(key, (None, []))[1]:
            job.twin_answered(twin, result)

    def leave(self, job: Job) -> None:
        """A job ended (finished, or failed): its twins are forgotten, and the texts it sent without their results
        go to the jobs waiting for them, to send themselves."""
        for key, (sender, twins) in list(self.texts.items()):
            twins[:] = [(other, twin) for other, twin in twins if other is not job]
            if sender is job:
                del self.texts[key]
                for other, twin in twins:
                    other.twin_answered(twin, None)


async def run_tree(client: AsyncTranslatorClient, source: Path, output: Path,
                   settings_for: Callable[[Path], Settings | None], progress: bool = True,
                   report: Callable[[Path, Summary, Settings], None] = lambda *job: None,
                   files_at_once: int = 1, concurrency: int = Settings.concurrency,
                   exclude: Sequence[str] = ()) -> TreeSummary:
    """Each file under the directory `source` (`tree_files`, but those `exclude` names) translated by a job of its
    own (`settings_for` its path; None: copied as it is) into the same path under `output`, `files_at_once` at a time:
    a text output an earlier run finished is left as it is, so that a rerun resumes where it stopped, unless its
    source was modified since (`changed_since`); a file refused (not what its name says) is recorded and the others go
    on. `report` hears of each job that ran. With several files at once, one bar counts files instead of each job's
    own, and the files' jobs have `concurrency` items in flight together. The files under `output` that no file under
    `source` makes (their sources deleted or renamed since, or left out) are named in the summary, left as they are."""
    from tqdm import tqdm

    check_tree(source, output)
    output.mkdir(exist_ok=True)
    done, started = TreeSummary(), time.monotonic()
    shared = Shared(concurrency)
    files = tree_files(source, output, exclude)
    job_bars = progress and files_at_once == 1  # else one bar for the files
    bar = tqdm(total=len(files), unit="file", disable=not progress or job_bars, dynamic_ncols=True)

    made: set[Path] = set()  # under the output: each file's output, its journal and its partial output

    async def take_files(queue: Iterator[Path]) -> None:
        for relative in queue:  # shared: each taker goes on with the next file not taken
            settings = settings_for(source / relative)
            sides = outputs_of(output / relative, settings)
            made.update(side.relative_to(output) for side in sides)
            await _tree_file(client, source, relative, sides[0], settings, job_bars, shared, done,
                             lambda summary: report(relative, summary, settings))
            bar.update()

    queue = iter(files)
    with bar:
        await asyncio.gather(*(take_files(queue) for _ in range(max(1, min(files_at_once, len(files))))))
    done.failed.sort()
    done.unmade = [path for path in tree_files(output, source) if path not in made]
    done.items.seconds = time.monotonic() - started  # the files' jobs overlap: their own seconds do not add up
    return done


async def _tree_file(client: AsyncTranslatorClient, source: Path, relative: Path, target: Path,
                     settings: Settings | None, progress: bool, shared: "Shared", done: TreeSummary,
                     report: Callable[[Summary], None]) -> None:
    """One file of a directory's job: `source / relative` translated (or copied, settings None) into `target` (its
    `outputs_of`), counted in `done`."""
    target.parent.mkdir(parents=True, exist_ok=True)
    if settings is None:
        try:
            shutil.copy2(source / relative, target)
        except (PermissionError, FileNotFoundError) as error:  # unreadable, or gone since the tree was read
            done.failed.append(f"{relative}: {error.strerror}")
            return
        done.copied += 1
        return
    finished_before = finished(target, settings)
    changed = finished_before and changed_since(source / relative, target)
    if finished_before and not changed:
        done.finished += 1
        return
    try:  # a changed source's old output stays until the new one is written over it, whole
        summary = await run_job(client, source / relative, target, settings, progress, shared, replace=changed)
    except (JobRefused, PermissionError, FileNotFoundError) as error:  # (the others: the server's, the disk's)
        done.failed.append(f"{relative}: {error}")
        return
    report(summary)
    done.add(summary)
    if summary.failed:
        journal = journal_path(target, settings)
        done.failed.append(f"{relative}: {summary.failed} of {summary.items} items failed ({journal} records them)")
    else:
        done.translated += 1
        done.changed += changed


def outputs_of(path: Path, settings: Settings | None) -> list[Path]:
    """What a directory's job writes for the file `path` names in the output: its output (a copy where settings is
    None), first, then the files a job keeps beside it until it is finished."""
    if settings is None:
        return [path]
    target = path.with_name(path.name + ".jsonl") if settings.output_format == "jsonl" else path
    return [target, journal_path(target, settings), partial_path(target)]


def changed_since(source: Path, output: Path) -> bool:
    """Whether the source was modified after its output was written, as make judges a target: a rerun over a tree
    whose sources were edited (a `git pull`) translates those again, and leaves an output edited by hand since."""
    try:
        return source.stat().st_mtime_ns > output.stat().st_mtime_ns
    except FileNotFoundError:  # the source gone since the tree was read: its job reports it
        return False


def check_tree(source: Path, output: Path) -> None:
    """Refuse, before anything is written, an output that is the input directory or a file, or whose directory does
    not exist."""
    if output.exists() and not output.is_dir():
        raise JobRefused(f"--output {output}: --input is a directory, so --output names one (it is made where missing)")
    if output.resolve() == source.resolve():
        raise JobRefused(f"--output {output} is the input directory: choose another (the input stays as it is)")
    if not output.parent.is_dir():
        raise JobRefused(f"--output {output}: the directory {output.parent} does not exist")
