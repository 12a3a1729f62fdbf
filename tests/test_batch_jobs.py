"""Batch jobs (`translator batch`, service/batch.py) over real loopback gRPC against real server processes:
a job equals translating each line alone; a server killed (SIGKILL) or shut down (SIGTERM) and restarted mid-job,
and a client killed or interrupted mid-job and rerun, all end complete, without duplicates, identical to an
uninterrupted run; a busy server's refusals are sent again; malformed lines are reported by number; a changed input,
an unknown model, no server and a full disk are refused or stopped with a message; client memory stays flat on a long
input (slow test)."""

import argparse
import asyncio
import codecs
import csv
import datetime
import errno
import functools
import gettext
import html
import io
import json
import os
import plistlib
import re
import shutil
import signal
import socket
import string
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from xml.sax.saxutils import escape  # &, <, >: element content as .NET and Xcode write it

import grpc
import pytest
import yaml
from hypothesis import given, settings, strategies as st

from bench.load import ServerProcess, serve_command
from bench.soak import resident_mb
from service import asciidoc, latex, roff, rst
from service.batch import (NAMED_FORMATS, PART_CHARS, PART_SENTENCES, Job, Journal, JobRefused, Settings, Shared,
                           TextsInFlight, check_paths, continued_lines, count_lines, format_named, lacking, parse_line,
                           read_items, read_paragraphs, run_job, run_tree, split_line, spread, subtitle_block,
                           tree_files)
from service.cli import text_encoding
from service.client import TranslatorClient
from service.config_values import config_value, desktop_value, double_quoted
from service.fluent import access_keys_in_labels
from service.java_properties import file_style, value
from tests.test_android_strings import RESOURCES, SENT, aapt2_values, needs_aapt2
from tests.test_server import TEXTS
from translator.text import json_data, paragraph_runs

ROOT = Path(__file__).resolve().parent.parent
SHORT = ("--max-output-tokens", str(16))  # the tiny test model rarely stops by itself: keep the long jobs quick
WORDS = ["the", "house", "is", "small", "a", "dog", "runs", "we", "eat", "bread", "water", "green", "city", "old"]


def sentence(i: int) -> str:
    """A deterministic, varied sentence per line (the 5,000 lines are not all distinct, as in real files)."""
    picked = [WORDS[(i * 7 + k * 3) % len(WORDS)] for k in range(2 + i % 6)]
    return " ".join(picked).capitalize() + "."


@pytest.fixture(scope="module")
def server(exported_tiny):
    process = ServerProcess("batch", serve_command(exported_tiny.parent.parent, exported_tiny.parent.name, workers=1,
                                                   threads=1))
    yield process
    process.stop()


# Jobs hear Ctrl-C: a shell without job control starts its background commands (`make test &`) with SIGINT ignored,
# a job inherited that, and the Ctrl-C test's job went on to the end and exited 0. A handled signal is reset to its
# default in a child, an ignored one stays ignored. (Not with preexec_fn: that forks with the at-fork hooks of this
# process's gRPC, and a job aborted before it started: "epoll_wait error: Bad file descriptor", exit -6.)
signal.signal(signal.SIGINT, signal.default_int_handler)


def batch(target: str, source: Path, output: Path, *extra: str, wait: bool = True):
    command = [sys.executable, "-m", "service.cli", "batch", "--server", target, "--input", str(source),
               "--output", str(output), "--give-up-seconds", "60", "--quiet", *extra]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if not wait:
        return process
    out, err = process.communicate(timeout=600)
    return process.returncode, out, err


def item_ids(source: Path) -> list[str]:
    """The ids of the items a job reads from a file, in its format by its name, as the job's records carry them."""
    return [item.id for item in read_items(source, Settings(format=NAMED_FORMATS[source.suffix]))]


def written_back_in_linear_time(module: str, documents: str) -> None:
    """Each document of `documents` (a Python expression of them) read by service.`module` and written back with its
    own texts as their translations, in a child process: a regression to quadratic time fails the test there instead
    of hanging the suite."""
    script = (f"from service import {module}\nfor document in {documents}:\n"
              f"    {module}.filled(document, {{number: text for number, _, text in {module}.items(document)}})\n")
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60, cwd=ROOT)


def alone(target: str, texts: list[str]) -> list[str]:
    """Each text's translation when sent alone, as a job's items are (short: the tiny model rarely stops)."""
    with TranslatorClient(target) as client:
        return [client.translate([text], max_output_tokens=16).translations[0].text for text in texts]


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def wait_for_records(path: Path, count: int, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= count:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {count} records")


@pytest.fixture(scope="module")
def lines_5000(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("batch") / "in.txt"
    path.write_text("".join(sentence(i) + "\n" for i in range(5000)), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def uninterrupted(server, lines_5000, tmp_path_factory) -> Path:
    output = tmp_path_factory.mktemp("batch") / "out.jsonl"
    code, out, err = batch(server.target, lines_5000, output, "--concurrency", "128", *SHORT)
    assert code == 0, err
    assert "5000 items: 5000 translated, 0 failed" in out
    return output


def by_line(path: Path) -> dict[int, dict]:
    result = {}
    for record in records(path):
        assert record["line"] not in result, f"line {record['line']} recorded twice"
        result[record["line"]] = record
    return result


def translations(path: Path) -> dict[int, str]:
    return {line: record["translation"] for line, record in by_line(path).items()}


def test_a_5000_line_job_equals_translating_each_line_alone(server, lines_5000, uninterrupted):
    done = by_line(uninterrupted)
    assert sorted(done) == list(range(1, 5001))
    lines = lines_5000.read_text(encoding="utf-8").splitlines()
    alone: dict[str, str] = {}
    with TranslatorClient(server.target) as client:
        for text in sorted(set(lines)):
            alone[text] = client.translate([text], max_output_tokens=16).translations[0].text
    assert all(done[i + 1]["translation"] == alone[text] and done[i + 1]["source"] == text for i, text in enumerate(lines))
    assert {r["finish_reason"] for r in done.values()} <= {"eos", "length"}
    assert all(r["input_tokens"] > 0 and r["model"] == "tiny" for r in done.values())


def test_text_output_is_aligned_line_by_line_and_dedupe_translates_once(server, tmp_path):
    source = tmp_path / "in.txt"
    source.write_text(f"{TEXTS[0]}\n\n{TEXTS[1]}\r\n{TEXTS[0]}\n{TEXTS[0]}", encoding="utf-8")  # no final newline
    code, out, err = batch(server.target, source, tmp_path / "out.txt", "--dedupe")
    assert code == 0, err
    with TranslatorClient(server.target) as client:
        first, second = (client.translate([t]).translations[0].text for t in TEXTS[:2])
    # no line break after the last line either, as the input has none
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == f"{first}\n\n{second}\n{first}\n{first}"
    assert not (tmp_path / "out.txt.journal.jsonl").exists()
    assert "5 items: 4 translated, 0 failed, 0 done before, 1 empty;" in out  # every line counted once
    code, _, err = batch(server.target, source, tmp_path / "out.txt")
    assert code == 1 and "finished text output" in err  # never overwritten silently


def test_input_and_output_may_be_given_without_their_flags(server, tmp_path):
    """`translator batch in.txt out.txt`, a user's first try, was "the following arguments are required: --input,
    --output"; a path after a flag counts too (argparse fills positionals from their first run only)."""
    source = tmp_path / "in.txt"
    source.write_text(f"{TEXTS[0]}\n{TEXTS[1]}\n", encoding="utf-8")
    common = [sys.executable, "-m", "service.cli", "batch", "--server", server.target]
    for name, words in [("both", [str(source), str(tmp_path / "both.txt"), "--quiet"]),
                        ("split", [str(source), "--quiet", str(tmp_path / "split.txt")]),
                        ("flagged", ["--input", str(source), str(tmp_path / "flagged.txt"), "--quiet"])]:
        job = subprocess.run(common + words, cwd=ROOT, capture_output=True, text=True, timeout=600)
        assert job.returncode == 0, (name, job.stderr)
    code, _, err = batch(server.target, source, tmp_path / "reference.txt")
    assert code == 0, err
    expected = (tmp_path / "reference.txt").read_text(encoding="utf-8")
    assert [(tmp_path / f"{name}.txt").read_text(encoding="utf-8") for name in ("both", "split", "flagged")] == [
        expected] * 3


def test_a_windows_files_text_output_ends_its_lines_as_the_input_does(server, tmp_path):
    source = tmp_path / "in.txt"
    source.write_bytes(f"{TEXTS[0]}\r\n\r\n{TEXTS[1]}\r\n".encode())
    code, _, err = batch(server.target, source, tmp_path / "out.txt")
    assert code == 0, err
    with TranslatorClient(server.target) as client:
        first, second = (client.translate([t]).translations[0].text for t in TEXTS[:2])
    assert (tmp_path / "out.txt").read_bytes() == f"{first}\r\n\r\n{second}\r\n".encode()


def test_a_paragraphs_job_translates_the_lines_between_blank_lines_together_and_resumes(server, tmp_path):
    """--format paragraphs: each run of lines between blank lines is one item (a sentence wrapped over lines goes
    to the model whole) keyed by its first line; its translation fills the same lines of the text output."""
    source = tmp_path / "in.txt"
    source.write_bytes(b"I went to the market\r\nyesterday morning with my sister.\r\n\r\n"
                       b"Where is the station?\r\n\xff broken\r\nThe apples were cheap.\r\n")
    code, out, err = batch(server.target, source, tmp_path / "out.txt", "--format", "paragraphs", *SHORT)
    assert code == 1, err  # the line that is not UTF-8
    assert "5 items: 3 translated, 1 failed, 0 done before, 1 empty;" in out
    texts = ["I went to the market\nyesterday morning with my sister.", "Where is the station?",
             "The apples were cheap."]
    with TranslatorClient(server.target) as client:
        wrapped, station, apples = (client.translate([t], max_output_tokens=16).translations[0].text for t in texts)
    assert wrapped.count("\n") == 1
    lines = [*wrapped.split("\n"), "", station, "", apples, ""]
    assert (tmp_path / "out.txt").read_bytes().decode() == "\r\n".join(lines)

    output = tmp_path / "out.jsonl"
    code, _, err = batch(server.target, source, output, "--format", "paragraphs", *SHORT)
    assert code == 1, err
    assert [(r["line"], r.get("lines", 1)) for r in sorted(records(output), key=lambda r: r["line"])] == [
        (1, 2), (3, 1), (4, 1), (5, 1), (6, 1)]
    kept = [line for line in output.read_text(encoding="utf-8").splitlines() if json.loads(line)["line"] != 1]
    output.write_text("\n".join(kept) + "\n", encoding="utf-8")  # as if stopped before the first paragraph's result
    code, out, err = batch(server.target, source, output, "--format", "paragraphs", *SHORT)
    assert code == 1, err  # the line that is not UTF-8, sent again
    assert "5 items: 1 translated, 1 failed, 3 done before, 0 empty;" in out
    assert by_line(output)[1]["translation"] == wrapped


def test_a_configuration_files_job_translates_each_value_and_keeps_its_key(server, tmp_path):
    """Read line by line as text, "  title: Welcome" reached the server alone and its key was translated with its
    value. A file named as a configuration or resource file (or --format config) sends each line's value: its key,
    section header, quotes and comments stay as written, a line with no value is kept whole, a YAML or Apple
    strings value is written as its reader needs it (test_config_values) and a Rails locale's "en:" as "de:" (kept,
    the German file redefined English), and a rerun on the same file resumes (the record's source is the whole line)."""
    source = tmp_path / "en.yml"
    lines = ["# The shop's strings", "en:", "  welcome:", "    title: Where is the station?", '    body: "The apples',
             '    body: "The apples were cheap."', "  days:", "    - Where is the station?", "", "[General]",
             "Name[de]=The apples were cheap.", '"save" = "Where is the station?";', "/* Where is the station? */"]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "de.yml", *SHORT)
    assert code == 0, err
    values = ["Where is the station?", '"The apples', "The apples were cheap."]
    with TranslatorClient(server.target) as client:
        station, unclosed, apples = (client.translate([t], max_output_tokens=16).translations[0].text for t in values)

    def written(line: str, translation: str) -> str:  # as YAML and Apple strings need it (test_config_values)
        value = config_value(line)
        return value.before + value.written_as(translation) + value.after

    assert (tmp_path / "de.yml").read_text(encoding="utf-8").split("\n") == [
        lines[0], "de:", "  welcome:", written(lines[3], station), f"    body: {unclosed}",
        written(lines[5], apples), "  days:", written(lines[7], station), "", "[General]", f"Name[de]={apples}",
        written(lines[11], station), lines[12], ""]
    german = [(tmp_path / "de.yml").read_text(encoding="utf-8").split("\n")[k] for k in (1, 2, 3, 6, 7)]  # YAML's
    assert yaml.safe_load("\n".join(german)) == {"de": {"welcome": {"title": station}, "days": [station]}}
    assert "13 items: 6 translated, 0 failed, 0 done before, 7 empty;" in out
    output = tmp_path / "de.jsonl"
    code, _, err = batch(server.target, source, output, "--format", "config", *SHORT)
    assert code == 0, err
    assert by_line(output)[4]["source"] == lines[3] and by_line(output)[4]["translation"] == written(lines[3], station)
    kept = [line for line in output.read_text(encoding="utf-8").splitlines() if json.loads(line)["line"] != 4]
    output.write_text("\n".join(kept) + "\n", encoding="utf-8")  # as if stopped before line 4's result
    code, out, err = batch(server.target, source, output, "--format", "config", *SHORT)
    assert code == 0, err
    assert "13 items: 1 translated, 0 failed, 12 done before, 0 empty;" in out


FLUENT_LINES = ["### The shop's strings", "", "-brand-name = The dog", "menu-save = Where is the station? { $name }",
                "    .title = The apples were cheap.", "    .accesskey = S", "# $count (Number)", "emails =",
                "    { $count ->", "        [one] I eat an apple.", "       *[other] I eat { $count } apples.", "    }",
                "updated =", "    The dog: { DATETIME($date,", '        month: "long") }', "long =",
                "    Where is the station?", "wrapped = The apples were cheap", "    and I eat bread.", "junk line"]


def test_a_fluent_files_job_translates_each_text_and_keeps_its_syntax(server, tmp_path):
    """Read line by line as text, a placeable's arguments came back as words ('{ DATETIME($date, day: "numeric") }'
    as '{ DATETIME($date, Tag: "numeric") }') and a message reference's attribute changed: of Firefox's 228 en-US
    files, 14 junk entries and 116 values with a placeable, selector or variant key changed. A file named *.ftl (or
    --format fluent) sends a line's text: a message's, term's and attribute's value, a variant's text, a line a
    value goes on over; identifiers, attribute names, access keys, variant keys, selectors, comments, a placeable
    that goes on over lines and a line Fluent cannot read are kept. A value's lines are sent as one text (a line at a
    time, a sentence wrapped over them was translated in pieces) and its translation fills them."""
    source = tmp_path / "shop.ftl"
    source.write_text("\n".join(FLUENT_LINES) + "\n", encoding="utf-8")
    sent = [item.text for item in read_items(source, Settings(format=NAMED_FORMATS[".ftl"])) if item.text]
    assert sent == ["The dog", "Where is the station? { $name }", "The apples were cheap.", "I eat an apple.",
                    "I eat { $count } apples.", "The dog:", "Where is the station?",
                    "The apples were cheap\nand I eat bread."]
    output = tmp_path / "shop.de.ftl"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "19 items: 8 translated, 0 failed" in out, err
    dog, station, apples, apple, many, dog_colon, where, wrapped = alone(server.target, sent)
    assert "{ $name }" in station and "{ $count }" in many
    lines = list(FLUENT_LINES)
    lines[2], lines[3], lines[4] = "-brand-name = " + dog, "menu-save = " + station, "    .title = " + apples
    lines[9], lines[10] = "        [one] " + apple, "       *[other] " + many
    lines[13], lines[16] = "    " + dog_colon + " { DATETIME($date,", "    " + where
    first, second = spread(wrapped, 2)
    lines[17], lines[18] = "wrapped = " + first, "    " + second if second else ""
    assert output.read_text(encoding="utf-8") == "\n".join(access_keys_in_labels(lines)) + "\n"


def test_an_access_key_the_translated_label_lacks_becomes_one_of_its_letters():
    """Kept, the English key was no letter of 296 of the 846 German labels of Firefox's messages with one ("O" of
    "Open" in "Öffnen"): Firefox shows such a key in brackets after the label. A key the label has is kept."""
    lines = ["open =", "    .label = Öffnen { -brand }", "    .accesskey = O", "save = Speichern",
             "    .accesskey = s", "help = { -brand } Hilfe", "    .accesskey = X", "brand =",
             "    .label = { -brand }", "    .accesskey = B", "", "# .accesskey = Q", "new = Neu",
             "    .title = Ein neues Fenster", "    .accesskey = w  "]
    fixed = access_keys_in_labels(lines)
    assert [fixed[k].strip() for k in (2, 4, 6, 9, 11, 14)] == [
        ".accesskey = Ö", ".accesskey = s", ".accesskey = H", ".accesskey = B", "# .accesskey = Q", ".accesskey = N"]
    assert fixed[14] == "    .accesskey = N  "
    selector = ["tabs =", "    .label = { $n ->", "       *[other] { $n } Tabs", "    }", "    .accesskey = X"]
    assert access_keys_in_labels(selector) == selector  # its text is a variant's: not read here
    assert [line for k, line in enumerate(fixed) if k not in (2, 6, 14)] == [
        line for k, line in enumerate(lines) if k not in (2, 6, 14)]


def test_a_fluent_value_over_lines_is_one_item_sent_without_its_indentation_and_written_back_with_it(tmp_path):
    """Indented, a wrapped sentence's lines reached the model apart ("See … to learn more about\n    the feature")."""
    source = tmp_path / "about.ftl"
    source.write_text("intro =\n    See the guide\n  to learn more.\n    .title = Tabs that\n      go on\n"
                      "plain = One line\ncount =\n    { $n ->\n       *[other] { $n } tabs that\n           go on\n"
                      "    }\n", encoding="utf-8")
    items = [(item.line, item.lines, item.text, item.source, item.before + item.written_as("Eins\nZwei") + item.after)
             for item in read_items(source, Settings(format="fluent")) if item.text]
    assert items == [(2, 2, "See the guide\nto learn more.", "    See the guide\n  to learn more.", "    Eins\n  Zwei"),
                     (4, 2, "Tabs that\ngo on", "    .title = Tabs that\n      go on", "    .title = Eins\n      Zwei"),
                     (6, 1, "One line", "plain = One line", "plain = Eins\nZwei"),
                     (9, 2, "{ $n } tabs that\ngo on", "       *[other] { $n } tabs that\n           go on",
                      "       *[other] Eins\n           Zwei")]


def test_a_desktop_entrys_texts_get_german_lines_beside_them_and_its_other_keys_stay(server, tmp_path):
    """Read as INI, "Type=Application" came back "Type=Anwendung", "Exec=gnome-calculator" as "Exec=Gnome-Chrator"
    and "Terminal=false" as "Terminal=falsch" (of 59 Debian packages' entries none passed desktop-file-validate), and
    the English was gone. Now a desktop entry's texts (Name, GenericName, Comment, Keywords) keep their line and get
    their German on a line after it, "Name[de]=", as a desktop reads it; every other key stays, and so does a text
    with German already (a second "GenericName[de]=" would be an error) or in another language."""
    source = tmp_path / "app.desktop"
    lines = ["[Desktop Entry]", "Type=Application", "Name=The dog", "GenericName=The cat", "GenericName[de]=Die Katze",
             "Comment=Where is the station?", "Keywords=house;dog;", "Exec=dog --new %U", "Terminal=false", "",
             "[Desktop Action new-window]", "Name=The apples were cheap.", "Name[fr]=Les pommes"]
    source.write_bytes("\r\n".join(lines).encode() + b"\r\n")
    output = tmp_path / "de.desktop"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "13 items: 4 translated, 0 failed, 0 done before, 9 empty;" in out, err
    dog, station, keywords, apples = alone(server.target, ["The dog", "Where is the station?", "house\ndog",
                                                           "The apples were cheap."])
    keywords = desktop_value(lines[6], lines[0], frozenset()).written_as(keywords)
    assert keywords.endswith(";") and keywords.count(";") == 2, keywords  # one German value for each
    assert output.read_bytes().decode().split("\r\n") == [
        *lines[:3], f"Name[de]={dog}", *lines[3:6], f"Comment[de]={station}", lines[6], f"Keywords[de]={keywords}",
        *lines[7:12], f"Name[de]={apples}", lines[12], ""]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-8"])
def test_a_file_with_a_byte_order_mark_comes_back_in_its_encoding_and_its_first_key_stays_a_key(server, tmp_path,
                                                                                                 encoding):
    """Xcode's older strings files and Windows' "Unicode" text are UTF-16 with a byte order mark: read as UTF-8,
    every line came back as characters and NULs. And a byte order mark before the first line's key made that key text
    to translate. Now such a file is read in its encoding, written back in it, mark first, its first key kept."""
    source = tmp_path / "Localizable.strings"
    source.write_bytes(("\ufeff" + '"save" = "Where is the station?";\r\n"cancel" = "The dog";\r\n').encode(encoding))
    station, dog = alone(server.target, ["Where is the station?", "The dog"])
    output = tmp_path / "de.strings"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "2 items: 2 translated, 0 failed" in out, err
    station, dog = (double_quoted(text, "apple") for text in (station, dog))  # escaped as Apple's
    assert output.read_bytes().decode(encoding) == "\ufeff" + f'"save" = "{station}";\r\n"cancel" = "{dog}";\r\n'


def test_a_file_its_byte_order_mark_misnames_is_refused_before_anything_is_written(server, tmp_path):
    source = tmp_path / "in.txt"
    source.write_bytes(codecs.BOM_UTF16_LE + "Hi\n".encode("utf-16-le") + b"\x00\xd8")  # half a surrogate pair
    code, _, err = batch(server.target, source, tmp_path / "out.txt")
    assert code == 1 and "not valid UTF-16-LE as its byte order mark says" in err, err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt"]


def test_a_file_in_a_legacy_encoding_is_read_and_written_in_the_encoding_encoding_names(server, tmp_path):
    """Old subtitles and spreadsheets' CSV are Windows' cp1252: read as UTF-8, every cue with an "é" or a "’" failed
    as not UTF-8, and the same command failed again on every rerun. The job says what to give; with --encoding the
    file is read in it and its output written in it."""
    cues = ["The café is closed – where is the station?", "Don’t eat the apples.", "The dog"]
    subtitles = "".join(f"{n}\r\n00:00:0{n},000 --> 00:00:0{n},500\r\n{cue}\r\n\r\n" for n, cue in enumerate(cues, 1))
    source = tmp_path / "film.srt"
    source.write_bytes(subtitles.encode("cp1252"))
    code, out, err = batch(server.target, source, tmp_path / "utf8.srt", *SHORT)
    assert code == 1 and "3 translated" not in out and "line 3: INVALID_ARGUMENT: not valid UTF-8" in err, err
    assert "2 lines are not UTF-8: a file in another encoding is read in it with --encoding NAME" in err
    output = tmp_path / "film.de.srt"
    code, out, err = batch(server.target, source, output, *SHORT, "--encoding", "cp1252")
    assert code == 0 and "3 translated, 0 failed" in out, err
    translations = alone(server.target, cues)
    assert output.read_bytes() == "".join(f"{n}\r\n00:00:0{n},000 --> 00:00:0{n},500\r\n{text}\r\n\r\n" for n, text in
                                          enumerate(translations, 1)).encode("cp1252", "nearest")
    lacked = sum(lacking(text, "cp1252") for text in translations)
    assert (f"{lacked} characters of the translations are not in cp1252" in err) == (lacked > 0), err
    records = tmp_path / "film.jsonl"  # a rerun that forgets --encoding reads another text: refused, saying why
    assert batch(server.target, source, records, *SHORT, "--encoding", "cp1252")[0] == 0
    code, out, err = batch(server.target, source, records, *SHORT)
    assert code == 1 and "(or it is not UTF-8 and was read with --encoding: give it again)" in err, err

    table = tmp_path / "strings.csv"  # read whole, written back in it
    table.write_bytes("en;de\r\nThe café;\r\n".encode("cp1252"))
    code, out, err = batch(server.target, table, tmp_path / "de.csv", *SHORT)
    assert code == 1 and "not valid UTF-8 (invalid continuation byte at byte 14); give its encoding with --encoding" \
        in err, err
    code, out, err = batch(server.target, table, tmp_path / "de.csv", *SHORT, "--encoding", "windows-1252")
    café, = alone(server.target, ["The café"])
    assert code == 0 and (tmp_path / "de.csv").read_bytes() == f"en;de\r\nThe café;{café}\r\n".encode(
        "cp1252", "nearest"), err


def test_a_web_page_is_read_and_written_in_the_encoding_it_declares(server, tmp_path):
    """A page that is not UTF-8 declares its encoding in a <meta> (or an XHTML page's XML declaration), as browsers
    read it: read as UTF-8, the ISO-8859-1 pages of libxslt's installed manual failed line by line. Without a
    declaration it still fails, saying to give --encoding. A page in ASCII is written in the encoding it declares."""
    body = "<p>The café is closed.</p>\n<p>Where is the station?</p>\n"
    for head in ('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">',
                 '<?xml version="1.0" encoding="iso-8859-1"?>'):
        source = tmp_path / "page.html"
        source.write_bytes(f"{head}\n{body}".encode("latin-1"))
        output = tmp_path / "page.de.html"
        code, out, err = batch(server.target, source, output, *SHORT)
        assert code == 0 and "0 failed" in out, err
        written = output.read_bytes().decode("latin-1")
        assert written.startswith(head) and "\n<p>" in written and "Ã" not in written
        output.unlink()
        (tmp_path / "page.de.html.journal.jsonl").unlink(missing_ok=True)
    source.write_bytes(body.encode("latin-1"))  # none declared
    code, out, err = batch(server.target, source, tmp_path / "bare.de.html", *SHORT)
    assert code == 1 and "not valid UTF-8" in err, err
    source.write_bytes(b'<meta charset="shift_jis">\n<p>The caf\xe9 \x81.</p>\n')  # one its bytes are not in
    code, out, err = batch(server.target, source, tmp_path / "sjis.de.html", *SHORT)
    assert code != 0 and "not valid SHIFT_JIS as the page declares (illegal multibyte sequence at byte 37)" in err, err
    # a page in ASCII, which UTF-8 reads too, is written in the encoding it declares, and a character that encoding
    # lacks as a reference (GOsa²'s help, ASCII declaring ISO-8859-15, came back in UTF-8: "Ã¼" for each "ü")
    head = '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">'
    source.write_text(f"{head}\n<p>Where is the station?</p>\n", encoding="ascii")
    glossary = tmp_path / "terms.tsv"
    glossary.write_text("station\tGroße „Halle“\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "ascii.de.html", "--glossary", str(glossary), *SHORT)
    assert code == 0, err
    written = (tmp_path / "ascii.de.html").read_bytes()
    assert written.startswith(head.encode()) and "Große &#8222;Halle&#8220;".encode("iso-8859-15") in written
    # but one that says UTF-16, which a page read byte by byte cannot be, is UTF-8, as browsers read it
    source.write_text('<meta charset="utf-16">\n<p>Where is the station?</p>\n', encoding="ascii")
    code, out, err = batch(server.target, source, tmp_path / "utf16.de.html", "--glossary", str(glossary), *SHORT)
    assert code == 0 and "Große „Halle“" in (tmp_path / "utf16.de.html").read_text(encoding="utf-8"), err


MALLARD_PAGE = """<page xmlns="http://projectmallard.org/1.0/" xmlns:its="http://www.w3.org/2005/11/its"
      type="topic" id="net-wireless">
  <info>
    <link type="guide" xref="net"/>
    <credit type="author">
      <name>Phil Bull</name>
      <email>philbull@gmail.com</email>
      <years>2013, 2015</years>
    </credit>
    <desc>Get on the internet.</desc>
  </info>

<title>Connect to a network</title>

<steps>
  <item>
    <p>Press <keyseq><key>Ctrl</key><key>Enter</key></keyseq> and see <link xref="net-hidden">hidden
    networks</link>.</p>
  </item>
</steps>

<screen>$ nmcli device wifi list</screen>
<p>Run <cmd>lsusb</cmd> as <sys>root</sys>.</p>
</page>
"""


def test_a_mallard_page_is_read_as_a_web_page_its_credits_and_commands_kept(server, tmp_path):
    """GNOME's help is Mallard (*.page), XML a job copied as it was. Its paragraphs, titles and descriptions are read as
    a web page's; the page written back is well-formed with the source's elements in their order, and its credits
    (names, e-mail addresses, years), its terminal's text and commands as written: read, "<name>Phil Bull</name>" came
    back as "Phil-Bild" and a name took another's e-mail address."""
    source = tmp_path / "net-wireless.page"
    source.write_text(MALLARD_PAGE, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "de.page", *SHORT)
    assert code == 0 and "0 failed" in out, err
    written = (tmp_path / "de.page").read_text(encoding="utf-8")
    ElementTree.fromstring(written)
    element_names = re.compile(r"</?([\w:]+)")
    assert element_names.findall(written) == element_names.findall(MALLARD_PAGE)
    for kept in (MALLARD_PAGE[MALLARD_PAGE.index("<credit"):MALLARD_PAGE.index("</credit>")],
                 "<screen>$ nmcli device wifi list</screen>", "<cmd>lsusb</cmd>", "<sys>root</sys>",
                 "<key>Strg</key><key>Eingabetaste</key>"):
        assert kept in written
    title, = alone(server.target, ["Connect to a network"])
    assert f"<title>{title}</title>" in written


@pytest.mark.parametrize("extra, expected", [
    (("--encoding", "cp1252", "--format", "json"), "--encoding does not apply to --format json"),
    (("--encoding", "utf-16"), "not valid UTF-16 as --encoding says (UTF-16 stream does not start with BOM)"),
    (("--encoding", "ascii"), "not valid ASCII as --encoding says (ordinal not in range(128) at byte 7)"),
])
def test_an_encoding_that_cannot_read_the_input_is_refused_before_anything_is_written(server, tmp_path, extra,
                                                                                       expected):
    source = tmp_path / "in.txt"
    source.write_bytes("The café\n".encode("cp1252"))
    code, _, err = batch(server.target, source, tmp_path / "out.txt", *extra)
    assert code in (1, 2) and expected in err, err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt"]


@pytest.mark.parametrize("name, data, encoding, marked", [
    ("in.txt", "\ufeffThe café\n".encode("utf-8"), "cp1252", "UTF-8"),
    ("in.csv", "\ufeffen;de\nThe café;\n".encode("utf-8"), "cp1252", "UTF-8"),  # a file read whole
    ("in.srt", "\ufeff1\n00:00:01,000 --> 00:00:02,000\nThe café\n".encode("utf-16-le"), "latin-1", "UTF-16-LE"),
    ("in.txt", "\ufeffThe café\n".encode("utf-16-le"), "utf-16-be", "UTF-16-LE"),  # the other byte order
])
def test_a_file_whose_byte_order_mark_says_another_encoding_than_encoding_is_refused(server, tmp_path, name, data,
                                                                                     encoding, marked):
    """Read as --encoding says, a marked file's first line began with the mark's bytes as characters ("ï»¿") and
    every "é" was two characters: the mark says what the file is."""
    source = tmp_path / name
    source.write_bytes(data)
    code, _, err = batch(server.target, source, tmp_path / "out", "--encoding", encoding)
    assert code == 1 and f"starts with a {marked} byte order mark: it is {marked}, not " in err, err
    assert "leave out --encoding" in err
    assert sorted(path.name for path in tmp_path.iterdir()) == [name]
    code, out, err = batch(server.target, source, tmp_path / "out", "--encoding", marked.lower())  # its own: read
    assert code == 0, err


def test_an_encoding_is_named_as_python_names_it_and_one_it_does_not_know_is_refused_where_it_is_typed():
    assert [text_encoding(name) for name in ("CP1252", "windows-1252", "Latin1", "utf8", "UTF-8-SIG", "utf-16")] == [
        "cp1252", "cp1252", "iso8859-1", "", "", "utf-16"]
    for name in ("klingon", "base64", "rot13"):  # the last two are codecs, not text encodings
        with pytest.raises(argparse.ArgumentTypeError, match=f"'{name}' is no text encoding Python knows"):
            text_encoding(name)


def test_a_character_an_encoding_lacks_is_written_as_the_nearest_it_has():
    """German quotes and dashes are not in Latin-1 (cp1252 has them): as iconv's //TRANSLIT writes them; a letter
    without its accent; else "?"."""
    text = "„Datei“ ‚a‘ – ń Ω e\u0301 … 5 €"
    assert text.encode("latin-1", "nearest") == b'"Datei" \'a\' - n ? e ... 5 EUR'
    assert text.encode("cp1252", "nearest") == "„Datei“ ‚a‘ – n ? e … 5 €".encode("cp1252")
    assert (lacking(text, "latin-1"), lacking(text, "cp1252"), lacking(text, "utf-16")) == (10, 3, 0)


def test_a_java_propertys_value_continued_over_lines_is_translated_whole(server, tmp_path):
    """Line by line, "This is a long text \\" and "that continues here." were translated apart, and a continuation
    came back without its backslash ("\\n\\" as "\\n\\n"): 3 of 41 Jenkins files and JMeter's loaded in Java with keys
    that were values ("save?=" translated as a key was not one). A *.properties file sends such a value joined as Java
    joins it and writes its translation over as many lines; keys with escapes and marks stay keys, comments (license
    headers, notes) stay as written, and a value goes as Java reads it (`java_properties`), its translation escaped
    as the value was."""
    source = tmp_path / "messages.properties"
    source.write_text("# Messages\nsave?=Where is the station?\nlong=The apples were cheap \\\n    and I eat bread.\n"
                      "key\\ with\\ spaces = The dog\nplugin=The plugin ''{0}'' is old\\: {1}\n", encoding="utf-8")
    station, apples, dog, plugin = alone(server.target, [
        "Where is the station?", "The apples were cheap and I eat bread.", "The dog", "The plugin '{0}' is old: {1}"])
    code, out, err = batch(server.target, source, tmp_path / "messages_de.properties", *SHORT)
    assert code == 0 and "5 items: 4 translated, 0 failed, 0 done before, 1 empty" in out, err

    def written(raw: str, translation: str) -> str:  # escaped as Java needs (test_java_properties): \\uXXXX here
        return value(raw, file_style(source)).written(translation)

    station, dog = written("Where is the station?", station), written("The dog", dog)
    apples = continued_lines(functools.partial(written, "The apples were cheap and I eat bread."), apples, 2, "    ")
    plugin = written("The plugin ''{0}'' is old\\: {1}", plugin)
    assert (tmp_path / "messages_de.properties").read_text(encoding="utf-8") == (
        f"# Messages\nsave?={station}\nlong={apples}\nkey\\ with\\ spaces = {dog}\nplugin={plugin}\n")
    assert continued_lines(str, "Die Äpfel waren billig", 2, "  ") == "Die Äpfel \\\n  waren billig"
    assert continued_lines(str, "kurz", 3, "  ") == "\\\n  \\\n  kurz"  # no space where no words come before
    assert continued_lines(str, "a\\nb  c d", 2, "") == "a\\nb  \\\nc d"  # Java drops a line's leading spaces


def test_a_java_properties_file_that_is_not_utf8_is_read_and_written_in_iso_8859_1_as_java_reads_it(server, tmp_path):
    """Java reads a properties file as UTF-8 or, where it is not, as ISO-8859-1 (ResourceBundle's fallback,
    Properties.load(InputStream)'s only encoding): read as UTF-8, a license header's "©" and a value's "é" failed as
    not UTF-8. Now such a file is ISO-8859-1 without --encoding, its translations written in it, a character it lacks
    as \\uXXXX."""
    source = tmp_path / "messages.properties"
    source.write_bytes("# Copyright © 2024\ncafe=The café is closed\ndog=The dog\n".encode("iso8859-1"))
    output = tmp_path / "messages_de.properties"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "3 items: 2 translated, 0 failed, 0 done before, 1 empty" in out, err
    style = file_style(source, "iso8859-1")
    cafe, dog = (value(raw, style).written(text) for raw, text in
                 zip(["The café is closed", "The dog"], alone(server.target, ["The café is closed", "The dog"])))
    assert output.read_bytes() == f"# Copyright © 2024\ncafe={cafe}\ndog={dog}\n".encode("iso8859-1")


TEMPLATE = r"""# SOME DESCRIPTIVE TITLE.
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: PACKAGE VERSION\n"
"Language: \n"
"Content-Type: text/plain; charset=CHARSET\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\n"

#: shop.c:5
#, c-format
msgid "Where is the station %s?"
msgstr ""

#, c-format
msgid "I eat %d apple."
msgid_plural "I eat %d apples."
msgstr[0] ""
msgstr[1] ""

msgctxt "menu"
msgid "The \"apples\" were\tcheap."
msgstr ""

#. TRANSLATORS: two lines
msgid ""
"Where is the station?\n"
"The apples were cheap."
msgstr ""

msgid "Reviewed"
msgstr "Geprüft"

#, fuzzy
msgid "A draft"
msgstr "Ein Entwurf"

#~ msgid "Gone"
#~ msgstr ""
"""


@pytest.mark.skipif(not shutil.which("msgfmt"), reason="needs gettext's msgfmt to compile the catalog")
def test_a_gettext_catalogs_untranslated_messages_are_filled_in_and_flagged_for_review(server, tmp_path):
    """A .po or .pot file read line by line sent its keywords, quotes and comments to the model. As a catalog each
    untranslated msgid and msgid_plural is sent, and the catalog comes back as it was but for their msgstr, the
    flag fuzzy on them (msgfmt leaves them out until reviewed) and a template header's placeholders; msgfmt takes it
    and Python's gettext reads back exactly the server's translations. Reviewed, fuzzy and obsolete messages stay."""
    source = tmp_path / "shop.pot"
    source.write_text(TEMPLATE, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "de.po", *SHORT)
    assert code == 0, err
    assert "5 items: 5 translated, 0 failed, 0 done before, 0 empty;" in out
    texts = ["Where is the station %s?", "I eat %d apple.", "I eat %d apples.", 'The "apples" were\tcheap.',
             "Where is the station?\nThe apples were cheap."]
    with TranslatorClient(server.target) as client:
        station, apple, apples, menu, two_lines = (client.translate([t], max_output_tokens=16).translations[0].text
                                                   for t in texts)
    written = (tmp_path / "de.po").read_text(encoding="utf-8")
    # the header's and the draft's kept, two added, and two added to the c-format flag
    assert written.count("#, fuzzy\n") == 4 and written.count("#, fuzzy, c-format\n") == 2
    assert '"Language: de\\n"' in written and "charset=UTF-8" in written and "nplurals=2; plural=(n != 1);" in written
    assert written.endswith('msgid "A draft"\nmsgstr "Ein Entwurf"\n\n#~ msgid "Gone"\n#~ msgstr ""\n')

    def compiled(*flags: str) -> gettext.GNUTranslations:
        subprocess.run(["msgfmt", *flags, "-o", str(tmp_path / "de.mo"), str(tmp_path / "de.po")],
                       check=True)
        with (tmp_path / "de.mo").open("rb") as mo:
            return gettext.GNUTranslations(mo)

    reviewed = compiled()  # fuzzy messages left out: only the translator's own
    assert reviewed.gettext("Reviewed") == "Geprüft" and reviewed.gettext(texts[0]) == texts[0]
    catalog = compiled("--use-fuzzy")
    assert catalog.gettext(texts[0]) == station and catalog.pgettext("menu", texts[3]) == menu
    assert [catalog.ngettext(texts[1], texts[2], n) for n in (1, 5)] == [apple, apples]
    assert catalog.gettext(texts[4]) == two_lines and catalog.gettext("A draft") == "Ein Entwurf"

    output = tmp_path / "de.jsonl"  # records keyed by the line of each msgid, resumed like any job
    code, _, err = batch(server.target, source, output, *SHORT)
    assert code == 0, err
    assert {line: record["source"] for line, record in by_line(output).items()} == {
        12: texts[0], 16: texts[1], 17: texts[2], 22: texts[3], 26: texts[4]}
    output.write_text("".join(line for line in output.read_text().splitlines(keepends=True) if '"line": 17' not in line))
    code, out, err = batch(server.target, source, output, "--format", "po", *SHORT)
    assert "5 items: 1 translated, 0 failed, 4 done before, 0 empty;" in out, err
    code, _, err = batch(server.target, source, tmp_path / "unflagged.po", "--no-fuzzy", *SHORT)
    assert code == 0 and (tmp_path / "unflagged.po").read_text(encoding="utf-8").count("fuzzy") == 2, err


@pytest.mark.parametrize("text, expected", [
    ('msgid ""\nmsgstr "Content-Type: text/plain; charset=ISO-8859-1\\n"\n', "convert it to UTF-8 first: msgconv"),
    ('msgid ""\nmsgstr "Language: fr\\n"\n', "the catalog is for fr (its header's Language)"),
    ('msgid "Save"\n\nmsgid "Open"\nmsgstr ""\n', "line 1: a msgid without its msgstr"),
    ('msgid "Save"\nmsgstr ""\nSave\n', "line 3: not a line of a PO file ('Save')"),
    ('msgid "Save\nmsgstr ""\n', "line 1: a string must be quoted"),
    ('msgid "Save"\nmsgstr[0] ""\n', "line 2: msgstr[0] out of place"),
    (b'msgid "Caf\xe9"\nmsgstr ""\n', "line 1: not valid UTF-8"),
])
def test_a_file_that_is_no_catalog_is_refused_before_anything_is_written(server, tmp_path, text, expected):
    source = tmp_path / "in.po"
    source.write_bytes(text if isinstance(text, bytes) else text.encode())
    code, _, err = batch(server.target, source, tmp_path / "out.po")
    assert code == 1 and expected in err, err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.po"]


def test_a_catalog_is_written_back_line_for_line_but_for_what_was_filled_in(tmp_path):
    """Strings are read as msgfmt reads them (octal escapes are UTF-8 bytes, a line's quoted pieces one string, a byte
    order mark no text) and written as gettext writes them (a translation with line breaks one line per line); every
    other line, its line ending included, stays as it was."""
    source = tmp_path / "de.po"
    source.write_bytes("\ufeff# A catalog\r\nmsgid \"\"\r\nmsgstr \"Language: de_DE\\n\"\r\n\r\n#: a.c:1\r\n"
                       "msgid \"Caf\\303\" \"\\251\\n\"\r\n\"two\"\r\nmsgstr \"\"\r\n\r\n"
                       "msgid \"Done\"\r\nmsgstr \"Fertig\"\r\n"
                       .encode())
    items = list(read_items(source, Settings(format="po")))
    assert [(item.line, item.text) for item in items] == [(6, "Café\ntwo")]
    job = Job(None, source, tmp_path / "out.po", Settings(format="po"), progress=False)
    job.lines = count_lines(source)
    job.journal_path.write_text(json.dumps({"line": 6, "translation": "Kaffee\n\"zwei\""}) + "\n")
    job.journal = Journal(job.journal_path, job.lines)
    job._assemble_text()
    assert (tmp_path / "out.po").read_bytes().decode() == (
        "\ufeff# A catalog\r\nmsgid \"\"\r\nmsgstr \"Language: de_DE\\n\"\r\n\r\n#: a.c:1\r\n#, fuzzy\r\n"
        "msgid \"Caf\\303\" \"\\251\\n\"\r\n\"two\"\r\nmsgstr \"\"\r\n\"Kaffee\\n\"\r\n\"\\\"zwei\\\"\"\r\n\r\n"
        "msgid \"Done\"\r\nmsgstr \"Fertig\"\r\n")


def test_a_json_resource_files_string_values_are_translated_and_all_else_kept_as_written(server, tmp_path):
    """Read line by line as text, a resource file's `true` came back as `wahr`, no longer JSON. As JSON each string
    value with a letter is sent (numbered in document order, its path the record's id); keys, numbers, literals,
    strings without a letter, ARB's metadata, indentation, escapes left alone and line endings stay as written."""
    source = tmp_path / "app_en.arb"
    document = ('{\r\n  "@@locale": "en",\r\n  "title": "Where is the station?",\r\n  "@title": {"description": '
                '"The apples were cheap."},\r\n  "cart": {"empty": "I eat an \\u0061pple.", "count": 3, "on": true, '
                '"off": null, "time": "12:30 / 42"},\r\n  "tabs": ["The apples were cheap.", ["Where is the station?"]],'
                '\r\n  "title": "Two\\nlines"\r\n}')
    source.write_bytes(document.encode())
    code, out, err = batch(server.target, source, tmp_path / "app_de.arb", *SHORT)
    assert code == 0, err
    assert "5 items: 5 translated, 0 failed, 0 done before, 0 empty;" in out
    with TranslatorClient(server.target) as client:
        station, apple, apples, lines = (client.translate([t], max_output_tokens=16).translations[0].text for t in
                                         ["Where is the station?", "I eat an apple.", "The apples were cheap.",
                                          "Two\nlines"])
    written = (tmp_path / "app_de.arb").read_bytes().decode()
    expected = (document.replace('"en"', '"de"').replace('"Where is the station?"', json.dumps(station, ensure_ascii=False))
                .replace('"I eat an \\u0061pple."', json.dumps(apple, ensure_ascii=False))
                .replace('["The apples were cheap."', "[" + json.dumps(apples, ensure_ascii=False))
                .replace('"Two\\nlines"', json.dumps(lines, ensure_ascii=False)))
    assert written == expected
    output = tmp_path / "de.jsonl"
    code, _, err = batch(server.target, source, output, "--format", "json", *SHORT)
    assert code == 0, err
    assert {line: record["id"] for line, record in by_line(output).items()} == {
        2: "title", 4: "cart.empty", 6: "tabs[0]", 7: "tabs[1][0]", 8: "title"}
    output.write_text("".join(line for line in output.read_text().splitlines(keepends=True) if '"line": 6' not in line))
    code, out, err = batch(server.target, source, output, "--format", "json", *SHORT)
    assert "5 items: 1 translated, 0 failed, 4 done before, 0 empty;" in out, err
    (tmp_path / "broken.json").write_text('{"a": "b",\n "c": }\n')
    code, _, err = batch(server.target, tmp_path / "broken.json", tmp_path / "out.json")
    assert code == 1 and "not valid JSON: Expecting value at line 2 column 7" in err, err
    assert not (tmp_path / "out.json").exists() and not (tmp_path / "out.json.journal.jsonl").exists()
    (tmp_path / "deep.json").write_text("[" * 100_000 + "]" * 100_000)  # Python's reader recursed: a traceback
    code, _, err = batch(server.target, tmp_path / "deep.json", tmp_path / "out.json")
    assert code == 1 and "nested deeper than a resource file's" in err and "Traceback" not in err, err


XLIFF_1 = """<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file source-language="en" datatype="plaintext" original="ng2.template">
    <body>
      <trans-unit id="station" datatype="html">
        <source>Where is the <g id="1">station</g>?</source>
        <note from="description">A question</note>
      </trans-unit>
      <trans-unit id="apples"><source>The apples were &lt;cheap&gt;.</source><target/></trans-unit>
      <trans-unit id="done"><source>I eat an apple.</source><target>Ich esse einen Apfel.</target></trans-unit>
      <trans-unit id="key" translate="no"><source>The apples</source></trans-unit>
      <trans-unit id="pair"><source>(<x id="A"/>, <x id="B"/>)</source></trans-unit>
      <!-- <trans-unit id="old"><source>An old unit</source></trans-unit> -->
    </body>
  </file>
</xliff>
"""
XLIFF_2 = """<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en">
 <file id="f"><unit id="count"><segment state="initial"><source>I eat <ph id="0"/> apples.</source></segment>
 <segment id="two"><source>Where is the station?</source><target>  </target></segment></unit></file>
</xliff>
"""


def test_an_xliff_files_untranslated_units_get_their_targets_flagged_for_review(server, tmp_path):
    """Read line by line as text, an XLIFF file's markup went to the model. As XLIFF (1.2 and 2.x) each unit with a
    source and no target text is sent as HTML (its inline codes kept) and given its target, flagged for review; one
    of no letter gets its source as its target, translated (Angular's build counted it missing); translated units,
    units marked translate="no" and everything else stay as written."""
    with TranslatorClient(server.target) as client:
        station, apples, eat, where = (
            client.translate([t], max_output_tokens=16, html=True).translations[0].text for t in
            ['Where is the <g id="1">station</g>?', "The apples were &lt;cheap&gt;.", 'I eat <ph id="0"/> apples.',
             "Where is the station?"])
    for name, document, expected in (
            ("messages.xlf", XLIFF_1, XLIFF_1.replace('original="ng2.template">', 'original="ng2.template" '
                                                      'target-language="de">').replace(
                "station</g>?</source>\n", f'station</g>?</source>\n        <target state="needs-review-translation">'
                                           f"{station}</target>\n").replace(
                "<target/>", f'<target state="needs-review-translation">{apples}</target>').replace(
                '<source>(<x id="A"/>, <x id="B"/>)</source>',
                '<source>(<x id="A"/>, <x id="B"/>)</source><target state="translated">(<x id="A"/>, <x id="B"/>)'
                "</target>")),
            ("app.xliff", XLIFF_2, XLIFF_2.replace('srcLang="en">', 'srcLang="en" trgLang="de">').replace(
                '<segment state="initial"><source>I eat <ph id="0"/> apples.</source>',
                '<segment state="translated"><source>I eat <ph id="0"/> apples.</source>'
                f"<target>{eat}</target>").replace(
                '<segment id="two"><source>Where is the station?</source><target>  </target>',
                '<segment id="two" state="translated"><source>Where is the station?</source>'
                f"<target>{where}</target>"))):
        source = tmp_path / name
        source.write_text(document, encoding="utf-8")
        code, out, err = batch(server.target, source, tmp_path / f"de.{name}", *SHORT)
        assert code == 0 and "2 items: 2 translated, 0 failed" in out, err
        assert (tmp_path / f"de.{name}").read_text(encoding="utf-8") == expected
        ElementTree.fromstring(expected.encode())
    code, _, err = batch(server.target, tmp_path / "app.xliff", tmp_path / "de.jsonl", *SHORT)
    assert code == 0, err
    assert sorted(record["id"] for record in records(tmp_path / "de.jsonl")) == ["count", "count/two"]
    code, _, err = batch(server.target, tmp_path / "messages.xlf", tmp_path / "final.xlf", "--no-review", *SHORT)
    written = (tmp_path / "final.xlf").read_text(encoding="utf-8")
    assert code == 0 and written.count('<target state="translated">') == 3 and "needs-review" not in written, err
    (tmp_path / "broken.xlf").write_text('<xliff version="1.2"><file><body><trans-unit id="a"><source>Hi</source>'
                                         "</body></file></xliff>")
    code, _, err = batch(server.target, tmp_path / "broken.xlf", tmp_path / "out.xlf")
    assert code == 1 and "not well-formed XML: mismatched tag at line 1 column" in err, err
    assert not (tmp_path / "out.xlf").exists()


@needs_aapt2
def test_an_android_resource_files_strings_are_translated_and_compile_to_their_translations(server, tmp_path):
    """Read line by line as text, `<string name="save">Save</string>` went to the model markup and all. A file named
    *.xml is read as Android's string resources: each string, array item and quantity is sent as HTML, and the file
    written back compiles (aapt2) to exactly the translations' text; all else stays as written but the string marked
    translatable="false" (left out) and tools:locale (de)."""
    source = tmp_path / "strings.xml"
    source.write_text(RESOURCES, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "values-de.xml", *SHORT)
    assert code == 0 and "13 items: 13 translated, 0 failed" in out, err
    written = (tmp_path / "values-de.xml").read_text(encoding="utf-8")
    assert 'name="app_name"' not in written and 'tools:locale="de"' in written and "<![CDATA[" in written
    for kept in ("<!-- <string name=\"commented\">Not a string</string> -->", '<item>@string/ref</item>',
                 '<string name="empty"/>', '<integer name="count">3</integer>'):
        assert kept in written
    with TranslatorClient(server.target) as client:
        translated = {name: client.translate([text], max_output_tokens=16, html=True).translations[0].text
                      for name, text in SENT.items() if "[" not in name and ":" not in name and name != "html"}
    compiled = aapt2_values(tmp_path, written)
    for name, translation in translated.items():
        as_read = html.unescape(re.sub(r"<[^>]*>", "", translation.replace("<br>", "\n")))
        value = re.search(r'"(.*)"', compiled[f"string/{name}"]).group(1)
        assert " ".join(value.split()) == " ".join(as_read.split()), name
    assert sorted(item_ids(source)) == sorted(SENT)
    (tmp_path / "donottranslate.xml").write_text(RESOURCES, encoding="utf-8")  # lint's name for untranslatable strings
    with pytest.raises(JobRefused, match="Android translates no string of a file named donottranslate.xml"):
        item_ids(tmp_path / "donottranslate.xml")


QT_TS = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../src/main.cpp" line="14"/>
        <source>Where is the station?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"/>
    </message>
    <message numerus="yes">
        <source>I eat &lt;b&gt;%n&lt;/b&gt; apples.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <!-- <message><source>Not a message</source><translation type="unfinished"></translation></message> -->
    <message>
        <source>The apples were cheap.</source>
        <translation>Die Äpfel waren billig.</translation>
    </message>
    <message>
        <source>A draft</source>
        <translation type="unfinished">Ein Entwurf</translation>
    </message>
    <message>
        <source>Gone</source>
        <translation type="vanished"></translation>
    </message>
    <message>
        <source>(%1, %2)</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>
"""


def test_a_qt_linguist_files_untranslated_messages_are_filled_in_and_left_unfinished(server, tmp_path):
    """Read line by line as text, a Qt Linguist file's XML went to the model. A file named *.ts sends each message
    without a translation (its source's references undone: rich text as markup, "&File" as a label's marker) and
    writes its translation (each numerus form of a plural) escaped as lupdate writes it, still unfinished (Qt
    Linguist's mark for a translation to review), and the file's language German; a message of no letter gets its
    source, finished (lrelease counted it untranslated); all else stays as written."""
    station, file, apples = alone(server.target, ["Where is the station?", "&File", "I eat <b>%n</b> apples."])

    def escaped(text: str) -> str:  # as lupdate writes it
        return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
                .replace("'", "&apos;"))
    source = tmp_path / "app_en.ts"
    source.write_text(QT_TS, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "app_de.ts", *SHORT)
    assert code == 0 and "3 items: 3 translated, 0 failed" in out, err
    assert "&" in file and "%n" in apples and "<b>" in apples
    assert (tmp_path / "app_de.ts").read_text(encoding="utf-8") == QT_TS.replace(
        'language="en_US"', 'language="de"').replace(
        '<translation type="unfinished"></translation>', f'<translation type="unfinished">{escaped(station)}'
                                                          "</translation>", 1).replace(
        "<source>(%1, %2)</source>\n        <translation type=\"unfinished\"></translation>",
        "<source>(%1, %2)</source>\n        <translation>(%1, %2)</translation>").replace(
        '<translation type="unfinished"/>', f'<translation type="unfinished">{escaped(file)}</translation>').replace(
        "<numerusform></numerusform>", f"<numerusform>{escaped(apples)}</numerusform>")
    ElementTree.fromstring((tmp_path / "app_de.ts").read_bytes())
    code, _, err = batch(server.target, source, tmp_path / "final_de.ts", "--no-review", *SHORT)
    written = (tmp_path / "final_de.ts").read_text(encoding="utf-8")
    # the three filled in finished; the draft and the comment's kept unfinished
    assert code == 0 and written.count("<translation>") == 5 and written.count('type="unfinished"') == 2, err
    (tmp_path / "app.ts").write_text("export const answer: number = 42;\n", encoding="utf-8")  # TypeScript
    with pytest.raises(JobRefused, match=re.escape("not XML: a Qt Linguist file is (a TypeScript file")):
        item_ids(tmp_path / "app.ts")
    source.write_text(QT_TS.replace('language="en_US"', 'language="fr_FR"'), encoding="utf-8")
    with pytest.raises(JobRefused, match=re.escape('the file is for fr_FR (language="fr_FR")')):
        item_ids(source)


def test_a_qt_plural_messages_optional_ending_sends_its_singular_and_plural_for_germans_two_forms():
    """Qt's plural messages mark a word's optional plural ending ("%n file(s)"): sent as it stood, the one text filled
    both numerus forms ("%n Datei(en)"; KeePassXC's 45 such messages against its German translators' forms: chrF
    63.91, both forms the same in all 45). Its singular and its plural go as two items (chrF 69.99), each filling
    its form; a message goes in with both."""
    from service import qt_ts
    document = QT_TS.replace("I eat &lt;b&gt;%n&lt;/b&gt; apples.", "Delete %n entry(s) and &lt;b&gt;%n&lt;/b&gt; "
                                                                    "box(es)?")
    assert [item for item in qt_ts.items(document) if ":" in item[1]] == [
        (3, "MainWindow:one", "Delete %n entry and <b>%n</b> box?"),
        (4, "MainWindow:other", "Delete %n entries and <b>%n</b> boxes?")]
    assert qt_ts.count(document) == 8  # seven messages, one of them two texts
    written = qt_ts.filled(document, {3: "%n Eintrag löschen?", 4: "%n Einträge löschen?", 5: "Die Äpfel"})
    assert ("<numerusform>%n Eintrag löschen?</numerusform>\n            <numerusform>%n Einträge löschen?"
            "</numerusform>") in written
    assert qt_ts.filled(document, {4: "%n Einträge löschen?"}).count("<numerusform></numerusform>") == 2
    assert [text for _, _, text in qt_ts.items(QT_TS)][2] == "I eat <b>%n</b> apples."  # no ending marked: one text


RESX = """\ufeff<?xml version="1.0" encoding="utf-8"?>
<root>
  <!--
    <data name="Name1"><value>this is my long string</value><comment>this is a comment</comment></data>
  -->
  <resheader name="resmimetype">
    <value>text/microsoft-resx</value>
  </resheader>
  <data name="Greeting" xml:space="preserve">
    <value>Where is the station, {0}?</value>
    <comment>Shown when the app starts</comment>
  </data>
  <data name="$this.Text" xml:space="preserve">
    <value>The apples &amp; the dog</value>
  </data>
  <data name="button1.Size" type="System.Drawing.Size, System.Drawing">
    <value>75, 23</value>
  </data>
  <data name="&gt;&gt;button1.Name" xml:space="preserve">
    <value>button1</value>
  </data>
  <data name="Empty" xml:space="preserve">
    <value />
  </data>
</root>
"""


def test_a_dotnet_resource_files_strings_are_translated_and_all_else_kept(server, tmp_path):
    """Read line by line as text, a .resx file's XML went to the model. A file named *.resx (or UWP's *.resw) sends
    each <data> that holds a string, its name the id, and writes each translation escaped in its <value>; typed data,
    a WinForms designer's ">>" metadata, comments for translators and the schema's own comment stay as written."""
    greeting, title = alone(server.target, ["Where is the station, {0}?", "The apples & the dog"])
    source = tmp_path / "Resources.resx"
    source.write_text(RESX, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "Resources.de.resx", *SHORT)
    assert code == 0 and "2 items: 2 translated, 0 failed" in out, err
    assert "{0}" in greeting
    written = (tmp_path / "Resources.de.resx").read_text(encoding="utf-8")
    assert written == RESX.replace(
        "<value>Where is the station, {0}?</value>", f"<value>{escape(greeting)}</value>").replace(
        "<value>The apples &amp; the dog</value>", f"<value>{escape(title)}</value>")
    root = ElementTree.fromstring(written.encode())
    values = {data.get("name"): data.findtext("value") for data in root.iter("data")}
    assert values["Greeting"] == greeting and values["$this.Text"] == title and values[">>button1.Name"] == "button1"
    assert item_ids(source) == ["Greeting", "$this.Text"]
    (tmp_path / "page.resx").write_text("<html><body>Hi</body></html>", encoding="utf-8")
    with pytest.raises(JobRefused, match="its root element is <html> without <resheader> or <data>"):
        item_ids(tmp_path / "page.resx")


XCSTRINGS = """{
  "sourceLanguage" : "en",
  "strings" : {
    "%lld apples" : {
      "localizations" : {
        "en" : {
          "variations" : {
            "plural" : {
              "one" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld apple"
                }
              },
              "other" : {
                "stringUnit" : {
                  "state" : "translated",
                  "value" : "%lld apples"
                }
              }
            }
          }
        }
      }
    },
    "%@ – %@" : {

    },
    "API_KEY" : {
      "shouldTranslate" : false
    },
    "Done" : {
      "localizations" : {
        "de" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Fertig"
          }
        }
      }
    },
    "Where is the station?" : {

    },
    "welcome.title" : {
      "comment" : "The first screen's title",
      "localizations" : {
        "en" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "The apples were cheap."
          }
        },
        "fr" : {
          "stringUnit" : {
            "state" : "translated",
            "value" : "Les pommes étaient bon marché."
          }
        }
      }
    }
  },
  "version" : "1.0"
}
"""


def test_a_string_catalogs_strings_get_a_german_localization_to_review(server, tmp_path):
    """Read line by line as text, an Xcode String Catalog's JSON went to the model, keys and states and all. A file
    named *.xcstrings sends each string without German (its English text, or its key where it has none; each plural
    variation alone) and writes the catalog back as Xcode writes it, with a German localization for each, state
    needs_review, and one for a string of no letter, its own text, translated (Xcode counted it untranslated);
    strings not to translate, German ones and all else stay."""
    one, other, station, cheap = alone(server.target, ["%lld apple", "%lld apples", "Where is the station?",
                                                       "The apples were cheap."])
    source = tmp_path / "Localizable.xcstrings"
    source.write_text(XCSTRINGS, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "out.xcstrings", *SHORT)
    assert code == 0 and "4 items: 4 translated, 0 failed" in out, err
    written = (tmp_path / "out.xcstrings").read_text(encoding="utf-8")
    expected = json.loads(XCSTRINGS)
    strings = expected["strings"]

    def german(value: str) -> dict:
        return {"stringUnit": {"state": "needs_review", "value": value}}
    strings["%lld apples"]["localizations"]["de"] = {"variations": {"plural": {"one": german(one),
                                                                               "other": german(other)}}}
    strings["Where is the station?"] = {"localizations": {"de": german(station)}}
    strings["welcome.title"]["localizations"]["de"] = german(cheap)
    strings["%@ – %@"] = {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "%@ – %@"}}}}
    assert json.loads(written) == expected
    assert list(json.loads(written)["strings"]["welcome.title"]["localizations"]) == ["de", "en", "fr"]
    assert written.startswith('{\n  "sourceLanguage" : "en",\n  "strings" : {\n    "%lld apples" : {\n')
    assert '"API_KEY" : {\n      "shouldTranslate" : false\n    },' in written
    assert item_ids(source) == ["%lld apples/plural.one", "%lld apples/plural.other", "Where is the station?",
                                "welcome.title"]
    source.write_text(XCSTRINGS.replace('"sourceLanguage" : "en"', '"sourceLanguage" : "fr"'), encoding="utf-8")
    with pytest.raises(JobRefused, match="its sourceLanguage is 'fr'"):
        item_ids(source)


def test_a_string_catalogs_substitutions_are_sent_and_german_gets_their_argument_numbers():
    """Strings with substitutions (several plurals in one string) were not sent. Their formats and each
    substitution's variations are (their "%#@variables@" and "%arg" kept); German gets the English
    localization whole (what it lacks of it, where it has a German text already), its argument numbers and specifiers
    as they are, each text translated where it was and all to review."""
    from service import xcstrings

    def unit(value: str) -> dict:
        return {"stringUnit": {"state": "translated", "value": value}}

    def plural(one: str, other: str, argument: int) -> dict:
        return {"argNum": argument, "formatSpecifier": "lld", "variations": {"plural": {"one": unit(one),
                                                                                         "other": unit(other)}}}
    english = {**unit("%#@files@%#@folders@"), "substitutions": {
        "files": plural("%arg file in ", "%arg files in ", 1), "folders": plural("one folder", "%arg folders", 2)}}
    catalog = json.dumps({"sourceLanguage": "en", "strings": {
        "%lld files in %lld folders": {"localizations": {"en": english}},
        "%@ ate %lld apples": {"localizations": {"en": {**unit("%@ ate %#@apples@"),
                                                        "substitutions": {"apples": plural("an apple", "%arg apples",
                                                                                           2)}}}},
        "%lld songs": {"localizations": {"en": {**unit("%#@songs@"), "substitutions": {"songs": plural("a song",
                                                                                                  "%arg songs", 1)}},
                                         "de": unit("%#@songs@")}}}})
    assert list(xcstrings.items(catalog)) == [
        (1, "%lld files in %lld folders", "%#@files@%#@folders@"),
        (2, "%lld files in %lld folders/files/plural.one", "%arg file in "),
        (3, "%lld files in %lld folders/files/plural.other", "%arg files in "),
        (4, "%lld files in %lld folders/folders/plural.one", "one folder"),
        (5, "%lld files in %lld folders/folders/plural.other", "%arg folders"),
        (6, "%@ ate %lld apples", "%@ ate %#@apples@"),
        (7, "%@ ate %lld apples/apples/plural.one", "an apple"),
        (8, "%@ ate %lld apples/apples/plural.other", "%arg apples"),
        (10, "%lld songs/songs/plural.one", "a song"), (11, "%lld songs/songs/plural.other", "%arg songs")]
    written = json.loads(xcstrings.filled(catalog, {3: "%arg Dateien in ", 4: "ein Ordner", 6: "%@ aß %#@apples@"}))
    german = written["strings"]["%lld files in %lld folders"]["localizations"]["de"]
    review = json.loads(json.dumps(english).replace('"translated"', '"needs_review"'))
    review["substitutions"]["files"]["variations"]["plural"]["other"]["stringUnit"]["value"] = "%arg Dateien in "
    review["substitutions"]["folders"]["variations"]["plural"]["one"]["stringUnit"]["value"] = "ein Ordner"
    assert german == review
    assert written["strings"]["%@ ate %lld apples"]["localizations"]["de"]["stringUnit"] == {
        "state": "needs_review", "value": "%@ aß %#@apples@"}
    assert written["strings"]["%@ ate %lld apples"]["localizations"]["de"]["substitutions"]["apples"]["argNum"] == 2
    written = json.loads(xcstrings.filled(catalog, {11: "%arg Lieder"}))["strings"]["%lld songs"]["localizations"]
    assert written["de"] == {**unit("%#@songs@"), "substitutions": {"songs": {
        "argNum": 1, "formatSpecifier": "lld", "variations": {"plural": {
            "one": {"stringUnit": {"state": "needs_review", "value": "a song"}},
            "other": {"stringUnit": {"state": "needs_review", "value": "%arg Lieder"}}}}}}}
    # A variation of no letter is German as it is; the English copied in beside it is still to review
    names = {**unit("%#@name@ %#@songs@"), "substitutions": {
        "name": {"argNum": 1, "formatSpecifier": "@", "variations": {"plural": {"one": unit("%@"),
                                                                              "other": unit("%@")}}},
        "songs": plural("a song", "%arg songs", 2)}}
    german = json.loads(xcstrings.filled(json.dumps({"sourceLanguage": "en", "strings": {
        "x": {"localizations": {"en": names}}}}), {}))["strings"]["x"]["localizations"]["de"]
    assert german["substitutions"]["name"]["variations"]["plural"]["one"]["stringUnit"]["state"] == "translated"
    assert german["substitutions"]["songs"]["variations"]["plural"]["one"]["stringUnit"]["state"] == "needs_review"


def test_a_string_catalogs_entries_of_the_wrong_shape_are_not_sent_and_not_a_traceback():
    """Valid JSON, but a string that is no object, localizations that are a list, a German localization or its
    variations that are not objects: such strings are not sent (filling them in would replace what is there);
    before, the job stopped with an AttributeError."""
    from service import xcstrings
    catalog = json.dumps({"sourceLanguage": "en", "strings": {
        "a b": "x", "c d": {"localizations": [1]}, "e f": {"localizations": {"de": [2]}},
        "g h": {"localizations": {"en": {"variations": [3]}}},
        "i j": {"localizations": {"en": {"variations": {"plural": {"one": {"stringUnit": {"value": "one apple"}}}}},
                                  "de": {"variations": {"plural": 5}}}},
        "k l": {}}})
    assert list(xcstrings.items(catalog)) == [(5, "k l", "k l")]
    assert json.loads(xcstrings.filled(catalog, {5: "K L"}))["strings"]["k l"] == {
        "localizations": {"de": {"stringUnit": {"state": "needs_review", "value": "K L"}}}}


STRINGSDICT = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<!-- <key>old</key><string>Not sent</string> -->
<dict>
    <key>%d files</key>
    <dict>
        <key>NSStringLocalizedFormatKey</key>
        <string>%#@files@</string>
        <key>files</key>
        <dict>
            <key>NSStringFormatSpecTypeKey</key>
            <string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key>
            <string>d</string>
            <key>zero</key>
            <string/>
            <key>one</key>
            <string>%d apple &amp; the dog</string>
            <key>other</key>
            <string>%d apples</string>
        </dict>
    </dict>
    <key>station</key>
    <dict>
        <key>NSStringLocalizedFormatKey</key>
        <string>Where is the station, %#@name@?</string>
        <key>name</key>
        <dict>
            <key>NSStringFormatSpecTypeKey</key>
            <string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key>
            <string>lld</string>
            <key>other</key>
            <string>%lld</string>
        </dict>
    </dict>
</dict>
</plist>
"""


def test_a_plural_dictionarys_variants_and_formats_are_translated_and_all_else_kept(server, tmp_path):
    """Read line by line as text, a .stringsdict's keys went to the model ("NSStringLocalizedFormatKey" came back as
    "NSStringLocalisierterFormatKey", a variable "files" as "Dateien", "one" as "ein"): Apple found none of them. A
    file named *.stringsdict sends each variant's text and each format (its %#@variables@ kept), its keys the id, and
    writes each translation escaped in its <string>; keys, rules, types and comments stay as written."""
    one, other, station = alone(server.target, ["%d apple & the dog", "%d apples", "Where is the station, %#@name@?"])
    source = tmp_path / "Localizable.stringsdict"
    source.write_text(STRINGSDICT, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "de.stringsdict", *SHORT)
    assert code == 0 and "5 items: 5 translated, 0 failed" in out, err
    assert "%#@name@" in station
    written = (tmp_path / "de.stringsdict").read_text(encoding="utf-8")  # "%#@files@" and "%lld" come back as sent
    assert written == STRINGSDICT.replace(
        "<string>%d apple &amp; the dog</string>", f"<string>{escape(one)}</string>").replace(
        "<string>%d apples</string>", f"<string>{escape(other)}</string>").replace(
        "<string>Where is the station, %#@name@?</string>", f"<string>{escape(station)}</string>")
    assert plistlib.loads(written.encode())["%d files"]["files"]["one"] == one
    assert item_ids(source) == ["%d files/NSStringLocalizedFormatKey", "%d files/files/one", "%d files/files/other",
                                "station/NSStringLocalizedFormatKey", "station/name/other"]
    (tmp_path / "page.stringsdict").write_text("<html><body>Hi</body></html>", encoding="utf-8")
    with pytest.raises(JobRefused, match="its root element is <html>, not a property list's <plist>"):
        item_ids(tmp_path / "page.stringsdict")
    (tmp_path / "list.stringsdict").write_text('<plist version="1.0"><array/></plist>', encoding="utf-8")
    with pytest.raises(JobRefused, match="its top object is a list, not the dictionary of a .stringsdict"):
        item_ids(tmp_path / "list.stringsdict")
    # "<string>" in the document type's system identifier is no element (the pattern took it for one)
    from service import stringsdict
    tricky = STRINGSDICT.replace('PropertyList-1.0.dtd"', 'PropertyList-1.0.dtd?<string>x</string>"')
    assert list(stringsdict.items(tricky)) == list(stringsdict.items(STRINGSDICT))
    assert plistlib.loads(stringsdict.filled(tricky, {1: "Z"}).encode())["%d files"][stringsdict.FORMAT] == "Z"


GODOT_CSV = 'keys,en,de,fr\nGREET,"Where is the station, [b]%s[/b]?",,\nBYE,Goodbye.,Tschüss.,Au revoir.\n' \
            'MULTI,"The apples were cheap.\nI eat ""bread"".",,\nEMPTY,,,\nNUM,42,,\n'


def test_a_translation_tables_english_column_fills_its_german_one(server, tmp_path):
    """Read line by line as text, a CSV translation table went to the model keys, commas and all. A file named *.csv
    (Godot's translation files, spreadsheets) sends each row's English cell where its German one is empty, its key
    the id, and writes the table back with the German column filled in (added where it has none); other cells,
    quoting and line breaks inside cells stay."""
    station, cheap = alone(server.target, ["Where is the station, [b]%s[/b]?",
                                           'The apples were cheap.\nI eat "bread".'])
    source = tmp_path / "strings.csv"
    source.write_text(GODOT_CSV, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "strings.de.csv", *SHORT)
    assert code == 0 and "2 items: 2 translated, 0 failed" in out, err
    assert "[b]" in station and "[/b]" in station and "%s" in station  # the tiny model moves them, keeps them
    rows = list(csv.reader(io.StringIO((tmp_path / "strings.de.csv").read_text(encoding="utf-8"), newline="")))
    expected = list(csv.reader(io.StringIO(GODOT_CSV, newline="")))
    expected[1][2], expected[3][2] = station, cheap
    assert rows == expected
    assert item_ids(source) == ["GREET", "MULTI"]


def test_a_translation_tables_header_names_its_languages_as_spreadsheets_do():
    """Unity's "English(en)" and "German(de)", a semicolon as delimiter, every cell quoted, a byte order mark and
    Windows line endings are kept; a table without a German column gets "de"; one naming no English column is
    refused with what to name it."""
    from service import csv_table
    unity = '\ufeff"Key";"English(en)";"German(de)"\r\n"menu.start";"Start the game";""\r\n"menu.quit";"Quit";"Beenden"'
    assert list(csv_table.items(unity)) == [(1, "menu.start", "Start the game")]
    assert csv_table.filled(unity, {1: "Spiel starten"}) == unity.replace(
        '"Start the game";""', '"Start the game";"Spiel starten"')
    assert csv_table.filled("en\nHello.\n\nBye.\n", {1: "Hallo."}) == "en,de\nHello.,Hallo.\n\nBye.\n"
    with pytest.raises(csv_table.NotTable, match=r"names no English column: name the column to translate en"):
        csv_table.check("id,text_fr\n1,Bonjour\n")


SUBSTATION = """[Script Info]
Title: The station
ScriptType: v4.00+

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, Bold, Italic, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,20,&H00FFFFFF,0,0,2,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:01.00,0:00:04.00,Default,,0,0,0,,Where is the station?\\NThe apples were cheap.
Comment: 0,0:00:05.00,0:00:08.00,Default,,0,0,0,,A note for the translator
Dialogue: 0,0:00:05.00,0:00:08.00,Default,Roger,0,0,0,,{\\i1}I eat{\\i0} an apple,\\hthe dog eats bread.
"""


def test_a_substation_alpha_files_dialogue_texts_are_translated_and_all_else_kept(server, tmp_path):
    """Read line by line as text, an .ass file's sections, formats and styles went to the model ("[Events]" came back
    as "[Erweiterungen]", "Dialogue:" as "Dialog:", its fields shuffled). A file named *.ass or *.ssa sends each
    Dialogue event's text, its "\\N" a line break and "\\h" a no-break space, its override tags kept; every other
    line and each event's fields stay as written."""
    first, second = alone(server.target, ["Where is the station?\nThe apples were cheap.",
                                          "{\\i1}I eat{\\i0} an apple,\u00a0the dog eats bread."])
    source = tmp_path / "talk.ass"
    source.write_text(SUBSTATION, encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "talk.de.ass", *SHORT)
    assert code == 0 and "2 translated, 0 failed" in out, err
    assert "{\\i1}" in second and "{\\i0}" in second
    lines = SUBSTATION.splitlines()
    lines[10] = lines[10][:lines[10].index(",,W") + 2] + first.replace("\n", "\\N")
    lines[12] = lines[12][:lines[12].index(",,{") + 2] + second.replace("\n", "\\N").replace("\u00a0", "\\h")
    assert (tmp_path / "talk.de.ass").read_text(encoding="utf-8") == "\n".join(lines) + "\n"


LARAVEL_PHP = """<?php

declare(strict_types=1);

return [
    /* The messages of the shop */
    'station' => 'Where is the station, :name?',
    "cheap" => "The apples were \\"cheap\\".\\n",  // a comment
    'nested' => array(
        'quote' => 'I eat the apple\\'s core',
        'count' => '{0} No apples|[1,*] :count apples',
        'number' => 42,
        'hello' => "Hi $name",
    ),
    'list' => ['The dog'],
];
"""


@pytest.mark.skipif(shutil.which("php") is None, reason="php not installed (Debian: php-cli)")
def test_a_php_translation_files_strings_are_translated_as_php_reads_them(server, tmp_path):
    """Read line by line as text, a Laravel translation file came back with "return" as "Rückgabe" and its keys
    translated, and PHP could not parse it (0 of 31 Laravel, BookStack and CodeIgniter files). A file named *.php
    sends each string value (its keys the id, dotted), and PHP reads the file written back with each translation
    exactly, keys and all else as they were; a string interpolating a variable is code, not sent."""
    source = tmp_path / "messages.php"
    source.write_text(LARAVEL_PHP, encoding="utf-8")
    assert item_ids(source) == ["station", "cheap", "nested.quote", "nested.count", "list.0"]
    output = tmp_path / "de.php"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "5 items: 5 translated, 0 failed" in out, err
    records = tmp_path / "de.jsonl"
    batch(server.target, source, records, *SHORT)
    translated = {record["id"]: record["translation"] for record in map(json.loads, records.open(encoding="utf-8"))}

    def read(path: Path) -> dict:  # as PHP reads it
        run = subprocess.run(["php", "-r", "echo json_encode(include $argv[1]);", str(path)], capture_output=True,
                             text=True, check=True)
        return json.loads(run.stdout)
    expected = read(source)
    expected["station"], expected["cheap"], expected["list"][0] = (translated[key] for key in ("station", "cheap",
                                                                                               "list.0"))
    expected["nested"]["quote"], expected["nested"]["count"] = translated["nested.quote"], translated["nested.count"]
    assert read(output) == expected
    (tmp_path / "code.php").write_text("<?php\necho 'Hello';\n", encoding="utf-8")
    with pytest.raises(JobRefused, match=re.escape("line 2: 'echo' where a PHP translation file has only arrays")):
        item_ids(tmp_path / "code.php")


def test_a_notebooks_markdown_cells_are_translated_and_its_code_outputs_and_metadata_kept(server, tmp_path):
    """Read line by line as text, a notebook's JSON and code were translated and it no longer opened. Each Markdown
    cell with a letter is sent whole (its cell id the record's id); code, outputs, raw cells and metadata stay, and the
    notebook is written as nbformat writes it, each source in the form it had."""
    notebook = {"cells": [
        {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["Where is the station?\n", "\n",
                                                                             "The apples were cheap."]},
        {"cell_type": "code", "execution_count": 1, "id": "load", "metadata": {}, "source": ["# The dog\n", "x = 1"],
         "outputs": [{"name": "stdout", "output_type": "stream", "text": ["The apples were cheap.\n"]}]},
        {"cell_type": "markdown", "metadata": {}, "source": "I eat an apple."},
        {"cell_type": "raw", "metadata": {}, "source": ["The dog"]}, {"cell_type": "markdown", "source": ["---"]}],
        "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    source = tmp_path / "lesson.ipynb"
    source.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert item_ids(source) == ["intro", "cells[2]"]
    code, out, err = batch(server.target, source, tmp_path / "lesson.de.ipynb", *SHORT)
    assert code == 0 and "2 items: 2 translated, 0 failed, 0 done before, 0 empty;" in out, err
    intro, apple = alone(server.target, ["Where is the station?\n\nThe apples were cheap.", "I eat an apple."])
    notebook["cells"][0]["source"], notebook["cells"][2]["source"] = intro.splitlines(keepends=True), apple
    assert (tmp_path / "lesson.de.ipynb").read_text(encoding="utf-8") == json.dumps(notebook, indent=1,
                                                                                     ensure_ascii=False) + "\n"
    # cells nbformat would not write (a source of numbers, a cell that is no object) are not sent, and stay
    odd = {"cells": [{"cell_type": "markdown", "source": [1, 2]}, "x", {"cell_type": "markdown", "source": {"a": "b"}},
                     {"cell_type": "markdown", "id": 7, "source": ["The ", "dog"]}], "nbformat": 4}
    (tmp_path / "odd.ipynb").write_text(json.dumps(odd), encoding="utf-8")
    assert item_ids(tmp_path / "odd.ipynb") == ["7"]
    marked = tmp_path / "marked.ipynb"  # a byte order mark stopped the job with a traceback: kept, as read
    marked.write_text("\ufeff" + json.dumps(odd), encoding="utf-8")
    code, _, err = batch(server.target, marked, tmp_path / "marked.de.ipynb", *SHORT)
    assert code == 0 and (tmp_path / "marked.de.ipynb").read_text(encoding="utf-8").startswith('\ufeff{"cells"'), err
    (tmp_path / "list.ipynb").write_text('["not", "a", "notebook"]', encoding="utf-8")
    with pytest.raises(JobRefused, match='not a Jupyter notebook: no "cells" list'):
        item_ids(tmp_path / "list.ipynb")


RST_PAGE = """\
.. _quickstart:

==========
Quickstart
==========

.. module:: requests.models

Begin by importing the module::

    >>> import requests

Make a Request
~~~~~~~~~~~~~~

.. note::
   :class: tip

   The apples were cheap.

.. code-block:: python

    house = "The dog"

    print(house)

I eat an apple. ::

  The dog

.. autofunction:: head
.. autofunction:: get

+-------+-----+
| house | dog |
+-------+-----+

>>> print("The dog")

.. This comment is the house.
   The dog.

.. admonition:: The dog
   :class: tip

.. warning:: I eat an apple.

.. [1] Where is the station?
"""


def test_a_restructuredtext_pages_words_are_translated_and_its_markup_kept(server, tmp_path):
    """Read as Markdown paragraphs, a Sphinx page came back with ".. _quickstart:" as ".. _Endestart:", ".. module::"
    as "... Modul:", its literal blocks' code translated and their "::" as ":". A file named *.rst (or --format rst)
    sends each paragraph's words alone: titles without their lines (written back as long as the translation), a
    directive's content without its first line and options (but an admonition's title and first words there), a
    footnote without its label; targets, comments, code
    directives, literal blocks, tables and doctests are kept as written, a final "::" written back."""
    source = tmp_path / "quickstart.rst"
    source.write_text(RST_PAGE, encoding="utf-8")
    sent = [item.text for item in read_items(source, Settings(format=NAMED_FORMATS[".rst"])) if item.text]
    assert sent == ["Quickstart", "Begin by importing the module:", "Make a Request", "The apples were cheap.",
                    "I eat an apple.", "The dog", "I eat an apple.", "Where is the station?"]
    output = tmp_path / "schnellstart.rst"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "8 translated, 0 failed" in out, err
    title, begin, request, apples, apple, dog, _, station = alone(server.target, sent)
    lines = RST_PAGE.splitlines()
    lines[2:5] = ["=" * max(10, len(title)), title, "=" * max(10, len(title))]
    lines[8] = begin + (":" if begin.endswith(":") else "::")
    lines[12:14] = [request, "~" * max(14, len(request))]
    lines[18] = "   " + apples
    lines[26] = apple + " ::"
    lines[-6], lines[-3] = ".. admonition:: " + dog, ".. warning:: " + apple
    lines[-1] = ".. [1] " + station
    assert output.read_text(encoding="utf-8") == "\n".join(lines) + "\n"
    # a line block's "| " is verse kept as written; a substitution's "|project|" starts words
    assert [rst.Reader().paragraph([line]).text for line in ("| The dog", "|project| is old.")] == ["", "|project| is old."]


LATEX_DOCUMENT = """\\documentclass{article}
\\usepackage[english]{babel}
\\title{He crossed the street!}

\\begin{document}

\\section{The dog} The apples were cheap.

\\begin{verbatim}
Where is the station?

I eat an apple.
\\end{verbatim}

I eat an \\emph{apple} % here
\\end{document}
The dog.
"""


def test_a_latex_documents_words_are_translated_and_its_markup_kept(server, tmp_path):
    """Read as plain paragraphs, a LaTeX document's preamble was sent ("\\usepackage[english]{babel}") and a verbatim
    block with a blank line inside was cut in two, its halves translated. A file named *.tex (or --format latex) sends
    each paragraph of its body (its commands and comments the pipeline's items) and its title; the rest of its
    preamble, its code environments and what follows \\end{document} are kept as written."""
    source = tmp_path / "guide.tex"
    source.write_text(LATEX_DOCUMENT, encoding="utf-8")
    sent = [item.text for item in read_items(source, Settings(format=NAMED_FORMATS[".tex"])) if item.text]
    assert sent == ["He crossed the street!", "\\section{The dog} The apples were cheap.",
                    "I eat an \\emph{apple} % here"]
    output = tmp_path / "anleitung.tex"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "3 translated, 0 failed" in out, err
    title, section, apple = alone(server.target, sent)
    assert output.read_text(encoding="utf-8") == LATEX_DOCUMENT.replace(sent[0], title).replace(
        sent[1], section).replace(sent[2], apple)
    assert section.startswith("\\section{") and "\\emph{" in apple and apple.endswith("% here")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.sampled_from(["\\documentclass{book}", "\\begin{document}", "\\end{document}",
                                          "\\begin{verbatim}", "\\end{verbatim}", "\\begin{equation}", "Words.",
                                          "\\section{A}", " ", "\\end{equation}"]) | st.text(max_size=8),
                         min_size=1, max_size=5), max_size=12))
def test_any_latex_document_is_read_back_as_it_was(paragraphs):
    """Whatever the paragraphs, each comes back as what it kept and what it sends, in order."""
    reader = latex.Reader()
    for lines in paragraphs:
        paragraph = reader.paragraph(lines)
        assert paragraph.before + paragraph.text + paragraph.after == "\n".join(lines)


RST_LINES = ["Title", "=====", "-----", "~~~~~~~~~~~~~~~~~~~~", "Where is the station? The apples were cheap.",
             "a word::", "Example ::", "::", "    >>> import requests", "   code(x)", ".. note::", ".. warning:: The dog.",
             ".. code-block:: python", ".. admonition:: Cheap", "   :class: tip", ".. _target:", ".. |name| image:: a.png",
             ".. [1] A note.", ".. a comment", "..", "* an item", "  continued", "#. step", "+-----+", "| cell |",
             "=====  =====", ">>> 1 + 1", "| verse", "|version| is out", "", "", "\t.. x::", " ", "::::", ".. ::"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(RST_LINES) | st.text(max_size=12), max_size=40))
def test_any_restructuredtext_page_is_written_back_line_for_line(lines):
    """Whatever the page (garbage lines too), each paragraph comes back with as many lines as it had, and with its
    own words for translations, as it was: but an under- or overline shorter than its title, which grows to it, the
    spaces at a line's end, and those before a final "::", which become one."""
    reader = rst.Reader()
    for run in paragraph_runs(lines, lambda line: None if "\n" in line or "\r" in line else line, fences=False):
        if not run[0].strip() or any(line is None or "\n" in line or "\r" in line for line in run):
            continue
        paragraph = reader.paragraph(run)
        written = paragraph.before + paragraph.written_as(paragraph.text) + paragraph.after
        assert written.count("\n") == len(run) - 1, (run, written)
        for before, after in zip(run, written.split("\n")):
            before, after = (re.sub(r"[ \t]+::$", " ::", line.rstrip()) for line in (before, after))
            grown = len(set(before)) == 1 and before[0] in string.punctuation and after.startswith(before) and len(
                set(after)) == 1  # a title's line, as long as the title
            assert after == before or grown, (run, written)


ASCIIDOC_PAGE = """\
= The Dog
Ann Writer <ann@example.org>
:toc: left
:product-name: Dog

The Station
-----------

// a comment: the dog
[[intro]]
Where is the station?
The apples were cheap.

[source,python]
----
print("The dog")

print("The house")
----

.The dog
[NOTE]
====
I eat an apple.
====

* The dog
  is old.
** I eat an apple.
+
 $ run the dog

`--quiet`::
'dcommit'::

\tThe apples were cheap.

The house:: I eat an apple.

WARNING: Where is the station?

[synopsis]
git stash list [<options>]

////
The dog.

The house.
////

include::other.adoc[]

|===
| The dog | The house

|I eat an apple.
a|* The dog
|===

[format=csv]
|===
The dog,The house
|===

== The House

 an indented literal line
"""


def test_an_asciidoc_pages_words_are_translated_and_its_markup_kept(server, tmp_path):
    """Read line by line (a .adoc file's default before), git's manual pages came back with their synopsis, listings
    and list marks translated and titles whose underline no longer matched; as Markdown paragraphs, much the same. A
    file named *.adoc (or --format asciidoc) sends each block's words alone: titles without their marks or underline
    (written back as long as the translation), a list item's and an admonition's words without their marks, a term
    of words alone (but a name, "`--quiet`", "'dcommit'") and a description, a term of words and the description on
    its line as one text with a blank line between (kept with its marks, the term stayed English), a table's cell
    alone on its line; the header, attribute entries and lists, comments, listings and comment blocks (blank lines in
    them too), literal paragraphs and those after "+", synopses, block macros, a table's lines of several cells, its
    cells of blocks ("a|") and CSV tables are kept as written."""
    source = tmp_path / "guide.adoc"
    source.write_text(ASCIIDOC_PAGE, encoding="utf-8")
    sent = [item.text for item in read_items(source, Settings(format=NAMED_FORMATS[".adoc"])) if item.text]
    assert sent == ["The Dog", "The Station", "Where is the station?\nThe apples were cheap.", "The dog",
                    "I eat an apple.", "The dog\n  is old.", "I eat an apple.", "The apples were cheap.",
                    "The house\n\nI eat an apple.", "Where is the station?", "I eat an apple.", "The House"]
    output = tmp_path / "anleitung.adoc"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "12 translated, 0 failed" in out, err
    title, station, two, dog, apple, old, _, apples, described, where, _, house = alone(server.target, sent)
    lines = ASCIIDOC_PAGE.splitlines()
    lines[0], lines[5:7] = "= " + title, [station, "-" * len(station)]
    lines[10:12], lines[20], lines[23] = two.split("\n"), "." + dog, apple
    lines[26:28], lines[28] = ("* " + old).split("\n"), "** " + apple
    term, blank_line, words = described.partition("\n\n")
    assert blank_line and term and words
    lines[35], lines[37] = "\t" + apples, f"{term}:: {words}"
    lines[39], lines[-3] = "WARNING: " + where, "== " + house
    lines[lines.index("|I eat an apple.")] = "|" + apple
    assert output.read_text(encoding="utf-8") == "\n".join(lines) + "\n"


def test_an_asciidoc_term_of_words_goes_with_the_description_on_its_line_and_a_value_stays(tmp_path):
    """Kept with its marks, "Hard drive:: ..." kept its term in English; git's terms before a description on their
    line are values or code ("true;;", "export-ignore::"), which stay as written while their descriptions are sent."""
    source = tmp_path / "terms.adoc"
    source.write_text("Hard drive:: Permanent storage.\ntrue;; Boolean true.\nexport-ignore:: Files not exported.\n"
                      "Main memory::: Temporary storage\nfor programs.\n", encoding="utf-8")
    items = [item for item in read_items(source, Settings(format="asciidoc")) if item.text]
    assert [item.text for item in items] == ["Hard drive\n\nPermanent storage.", "Boolean true.", "Files not exported.",
                                             "Main memory\n\nTemporary storage\nfor programs."]
    assert [item.before + item.written_as(translation) + item.after for item, translation in zip(items, [
        "Festplatte\n\nDauerhafter Speicher.", "Boolescher Wert wahr.", "Nicht exportierte Dateien.",
        "Hauptspeicher\n\nFlüchtiger Speicher\nfür Programme."])] == [
        "Festplatte:: Dauerhafter Speicher.", "true;; Boolescher Wert wahr.",
        "export-ignore:: Nicht exportierte Dateien.", "Hauptspeicher::: Flüchtiger Speicher\nfür Programme."]


def test_an_asciidoc_term_on_its_own_line_is_sent_only_if_it_is_words(tmp_path):
    """Sent alone, git's values and subcommands came back translated ("upstream::" as "Aufwärtsstrom::", "pull
    <repository> <remote-ref>::" as "<repository> <remote-ref> ziehen::"). A term on a line of its own is sent when it
    is words (capitalized, several words, a question), an anchor before it or emphasis around it aside; a value, a
    command or code stays as written, and each description is sent."""
    terms = {"Local directory": True, "Why do I have a file that's always modified?": True, "select by numbers": True,
             "[[def_blob_object]]blob object": True, "*Hard drive*": True, "HEAD": True, "upstream": False,
             "none": False, "pull <repository> <remote-ref>": False, "incremental-repack": False,
             "trailer.ifexists": False, "-v, --verbose": False, "`path`": False, "GIT_DIR": False}
    source = tmp_path / "terms.adoc"
    source.write_text("".join(f"{term}::\n\tThe dog.\n\n" for term in terms), encoding="utf-8")
    sent = [item.text for item in read_items(source, Settings(format="asciidoc")) if item.text]
    assert sent == [text for term, words in terms.items() for text in ([term] if words else []) + ["The dog."]]


def test_an_asciidoc_verse_in_a_synopsis_section_stays_and_one_elsewhere_is_sent(tmp_path):
    """git's manual pages before 2.45 write their synopsis as a verse, which was sent ("'git push' [--all]" came back
    as "'Größe' [--all]"); in a section titled SYNOPSIS (underlined, or "== Synopsis") a verse stays as written, a
    paragraph there and a verse elsewhere (a poem's lines) are sent."""
    source = tmp_path / "git-push.adoc"
    source.write_text("SYNOPSIS\n--------\n[verse]\n'git push' [--all | --tags]\n\t   [<repository>]\n\n"
                      "Used by git.\n\nDESCRIPTION\n-----------\n[verse]\nThe dog.\nThe house.\n\n"
                      "== Synopsis\n\n[verse]\n'git pull'\n", encoding="utf-8")
    sent = [item.text for item in read_items(source, Settings(format="asciidoc")) if item.text]
    assert sent == ["SYNOPSIS", "Used by git.", "DESCRIPTION", "The dog.\nThe house.", "Synopsis"]


ASCIIDOC_LINES = ["= Title", "Title", "=====", "-----", "----", "....", "====", "--", "|===", "////", "```", "```ruby",
                  "[source,ruby]", "[synopsis]", "[[anchor]]", "[NOTE]", ":name: value", ":long: a +", "// comment",
                  "+", "* item", "** item", ". step", "<1> callout", "term::", "term:: text", "'name'::", ";;",
                  "NOTE: The dog.", ".Block title", "include::a.adoc[]", "'''", " literal", "\tindented", "== Section",
                  "Where is the station? The apples were cheap.", "", "", "a:: b:: c", "* [x] done", "|===", "|===",
                  "| cell", "|a |b", "a| blocks", "2+h| head", "[format=csv]", "a,b"]


def pieces_of_runs(reader, lines: list[str]):
    """Each run of a page's lines (`paragraph_runs`; those with a line break inside a line skipped) with a block
    reader's pieces of it, which must cover it in order."""
    for run in paragraph_runs(lines, lambda line: None if "\n" in line or "\r" in line else line, fences=False):
        if any(line is None or "\n" in line or "\r" in line for line in run):
            continue
        pieces = reader.read(run)
        assert sum(count for count, _ in pieces) == len(run) and all(count > 0 for count, _ in pieces)
        yield run, pieces


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ASCIIDOC_LINES) | st.text(max_size=12), max_size=40))
def test_any_asciidoc_page_is_written_back_line_for_line(lines):
    """Whatever the page (garbage lines too), its pieces cover each run of lines in order, and each comes back with
    as many lines as it had, and with its own words for translations, as it was: but a two-line title's underline,
    which is as long as the title, and the spaces at a text's end."""
    for run, pieces in pieces_of_runs(asciidoc.Reader(), lines):
        written = "\n".join(p.before + p.written_as(p.text) + p.after for _, p in pieces)
        assert written.count("\n") == len(run) - 1, (run, written)
        for before, after in zip(run, written.split("\n")):
            underline = len(set(before.rstrip())) == 1 and set(after) == set(before.rstrip())
            assert after.rstrip() == before.rstrip() or underline, (run, written)


MAN_PAGE = """.\\" The dog's manual page
.TH DOG 1 "2024-05-01" "dog 1.0" "User Commands"
.SH NAME
dog \\- where is the station
.SH SYNOPSIS
.B dog
[\\fB\\-\\-old\\fR] \\fIfile\\fR
.SH DESCRIPTION
The apples were cheap.
I eat an
.B apple
every day.
.TP
.BR \\-o ", " \\-\\-old
The house is old.
.SS "The dog"
.nf
dog \\-\\-old house
.fi
.PP
.if n \\{\\
.ds Aq '
.\\}
.de XX
The dog.
..
Where is the station\\(em the \\(lqold\\(rq one?

  laid out by hand
.SH "SEE ALSO"
.BR cat (1)
"""


def test_a_manual_pages_words_are_translated_and_its_markup_kept(server, tmp_path):
    """Read line by line (a *.1 file's default before), a manual page's requests were sent (".SH NAME" came back as
    ".SH-NAME", 1,010 of 3,843 in 40 pages changed) and a sentence was cut wherever it named something in bold (".B
    apple" on its own line). A manual page (a file named by its section, "dog.1", that opens with a request or a
    comment; or --format man) sends each paragraph's text and font macros as one text ("\\fBapple\\fR"), written
    back over as many lines, a standard section's heading as German manual pages name it (NAME: BEZEICHNUNG), each
    other heading sentence-cased and written in capitals again, the NAME line's words after "\\-", a ".TP" tag alone; its synopsis, no-fill text, conditionals, definitions, comments and lines laid out by
    hand are kept as written, and so is an option's tag."""
    source = tmp_path / "dog.1"
    source.write_text(MAN_PAGE, encoding="utf-8")
    assert format_named(source) == "man"
    sent = [item.text for item in read_items(source, Settings(format="man")) if item.text]
    assert sent == ["where is the station", "The apples were cheap. I eat an \\fBapple\\fR every day.",
                    "The house is old.", "The dog", "Where is the station\u2014 the \u201cold\u201d one?",
                    "\\fBcat\\fR(1)"]
    output = tmp_path / "hund.1"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "6 translated, 0 failed" in out, err
    where, apples, house, dog, station, cat = alone(server.target, sent)
    lines, written = MAN_PAGE.splitlines(), output.read_text(encoding="utf-8").splitlines()
    assert len(written) == len(lines)
    assert written[2:4] == [".SH BEZEICHNUNG", f"dog \\- {where}"]
    assert written[4] == ".SH ÜBERSICHT" and written[7] == ".SH BESCHREIBUNG"
    assert written[15] == f'.SS "{dog}"' and written[-2] == '.SH "SIEHE AUCH"'

    def words(rows: list[str]) -> list[str]:
        return " ".join(row for row in rows if row != ".").replace("\\&", "").split()

    for (start, end), translation in {(8, 12): apples, (14, 15): house, (26, 27): station,
                                      (30, 31): cat}.items():
        assert words(written[start:end]) == translation.split(), (written[start:end], translation)
    kept = [0, 1, 5, 6, 12, 13, *range(16, 26), 27, 28]
    assert [written[k] for k in kept] == [lines[k] for k in kept]


def test_a_file_named_by_a_manual_section_is_a_manual_page_only_if_it_opens_as_one(tmp_path):
    """A rotated log ("syslog.1") is named as a manual page is: read as one, its lines were joined into paragraphs."""
    log = tmp_path / "syslog.1"
    log.write_text("Dec  3 14:02:11 host sshd[1]: Accepted key\n.profile was read\n", encoding="utf-8")
    page = tmp_path / "openssl.1ssl"
    page.write_text('.\\" licence\n.TH OPENSSL 1SSL\n', encoding="utf-8")
    assert (format_named(log), format_named(page), format_named(tmp_path / "missing.8")) == ("text", "man", "text")


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff not installed (Debian: groff-base)")
def test_a_manual_page_written_back_with_its_own_words_renders_as_it_did(tmp_path):
    """What the reader sends and keeps, written back with each text for its translation, is the same page to groff
    (but for its standard sections' headings, written in German): a font macro as its escapes, a word's hyphen and a named quote or dash as the character, a character of no width
    dropped (but where a line's "\\." needs it), the lines filled anew."""
    def rendered(page: str) -> str:
        shown = subprocess.run(["groff", "-man", "-Tutf8", "-k", "-rHY=0", "-P-cbu"], input=page.encode(),
                               capture_output=True, check=True).stdout.decode()
        return " ".join(re.sub("[\u2010\u2212-]", "-", shown).split())

    page = MAN_PAGE + ".SH BUGS\nA non\\-zero \\fB\\-\\-size\\fR is read\\-only\n.IR file .\nThe\n.RB [ \\-v ]\n" \
                      "flag.\\c\n.I more\n'\\\" a comment\n.SH EXAMPLE\n.TP\n.B \\-\\-size\nThe\nsize.\n" \
                      ".TP\n\\&\\.\nmatches any character\\&.\n" \
                      ".PP\nUse the\n.B\n\\-\\-force\noption.\n.TP\n.I\n\\-\\-all\nShows all.\n" \
                      ".PP\nSome other systems\n.\\\" on Solaris\nhave it: the word \"quiet\",\\\" since 2.4\n" \
                      "10 if not.\n.TP\n.IR low_latency \" (Boolean; \\\nobsolete since 4.14)\"\nIf enabled.\n" \
                      ".TP\n\\fBcase\\fP [ \\\n... ) \\fBesac\\fP\nA case.\n" \
                      ".PP\nThe <\\fIlanguage\\fR>\\\n[_<t>] form.\n"
    written = "\n".join(piece.before + piece.written_as(piece.text) + piece.after
                        for _, piece in roff.Reader().read(page.splitlines()))
    assert written != page and rendered(written) == rendered(german_sections(page))


def german_sections(page: str) -> str:
    """A page with its standard sections' headings as German manual pages name them (roff.SECTION_NAMES)."""
    return re.sub(r'(?m)^(\.SH )("?)([A-Z ]+)\2$', lambda found: found[1] + found[2]
                  + roff.SECTION_NAMES.get(found[3], found[3]) + found[2], page)


def test_a_translation_is_written_as_text_lines_that_roff_reads_as_text():
    """A line of the translation that starts with a dot, an apostrophe or "\\." would be a request: escaped with
    "\\&"; a translation with fewer words than lines fills the rest with empty requests (which roff ignores); no line
    ends inside an escaped space."""
    assert roff.written(". Profil 'a' wird gelesen", 3).split("\n") == ["\\&. Profil", "\\&'a' wird", "gelesen"]
    assert roff.written("Hund", 3) == "Hund\n.\n."
    assert roff.written("\\. passt", 1) == "\\&\\. passt"
    assert roff.written("10\\ MB oder\nmehr", 2) == "10\\ MB\noder mehr"


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff not installed (Debian: groff-base)")
def test_a_translation_is_written_a_sentence_to_a_line_as_roff_spaces_sentences():
    """roff sets a wider space after a sentence only where it ends a line, as a page's source (a sentence to a line)
    has it: a translation spread over lines by length ended its lines mid-sentence and ran its sentences on with a
    word's space. Each sentence starts a line where the lines allow, and a line that ends in an abbreviation's full
    stop ("z. B.") is marked as ending no sentence."""
    translation = "Die Datei wird gelesen. Sie enthält z. B. Namen und Werte, die das Programm liest. Fertig!"
    assert roff.written(translation, 3).split("\n") == [
        "Die Datei wird gelesen.", "Sie enthält z. B. Namen und Werte, die das Programm liest.", "Fertig!"]
    page = ".TH A 1\n.SH X\n" + roff.written(translation, 7) + "\n"
    shown = subprocess.run(["groff", "-man", "-Tutf8", "-k", "-rLL=200n", "-P-cbu"], input=page.encode(),
                           capture_output=True, check=True).stdout.decode()
    shown = " ".join(shown.split("\n"))
    assert "gelesen.  Sie enthält z. B. Namen und Werte, die das Programm liest.  Fertig!" in shown


def test_a_manual_pages_paragraph_ends_as_roff_reads_it():
    """An escaped space at a paragraph's end stays (without its space, the "\\" left at the line's end joined the
    next line, a request, to the text), and a font macro of empty arguments adds no empty font span."""
    pieces = roff.Reader().read(['.B ""', "Ten\\ ", '.I ""', ".SH X"])
    assert [(count, piece.text) for count, piece in pieces] == [(3, "Ten\\ "), (1, "X")]
    assert roff.written("Zehn\\ ", 2) == "Zehn\\ \n."


def test_a_font_macro_alone_sets_the_next_line_within_its_sentence():
    """A ".B" alone sets the next line in bold: read apart, it cut the sentence before it ("Use the" and "--force
    option to overwrite it." went to the model as two texts). It is read as that line's font, in the paragraph; one
    before a ".TP" tag stays as it was, the tag sent alone."""
    pieces = roff.Reader().read(["Use the", ".B", "\\-\\-force", "option to overwrite it.", ".TP", ".B",
                                 "All files", "Show all."])
    assert [(count, piece.text) for count, piece in pieces] == [
        (4, "Use the \\fB\\-\\-force\\fR option to overwrite it."), (2, ""), (1, "All files"), (1, "Show all.")]
    assert roff.joined([".I", "name\\c", ".B", "x"]) == "\\fIname\\fR\\fBx\\fR"  # "\\c" outside the font: no space


def test_a_manual_pages_comments_within_a_paragraph_go_after_it_and_its_sentences_stay_whole():
    """roff fills a paragraph on over a comment line, which cut the sentence around it in two texts (835 sentences in
    382 of this machine's pages: the Linux man-pages project notes commits so); a text line's own comment was sent as
    words, and written back it swallowed the words after it on its line. The paragraph is sent without them, its
    comment lines written after it, its lines' own comments at its last line's end."""
    pieces = roff.Reader().read(["Before Linux 3.1,", '.\\" commit 1117f72e', "this field was wrong", '.\\" (bug)',
                                 "for the word \"quiet\",\\\" since 2.4", "10 if debug.", '.\\" end', ".PP"])
    assert [(count, piece.text) for count, piece in pieces] == [
        (6, 'Before Linux 3.1, this field was wrong for the word "quiet", 10 if debug.'), (2, "")]
    assert pieces[0][1].written_as("Vor Linux 3.1 war dieses Feld falsch.").split("\n") == [
        "Vor Linux", "3.1 war", "dieses Feld", 'falsch.\\" since 2.4', '.\\" commit 1117f72e', '.\\" (bug)']


def test_a_line_continued_on_the_next_is_read_whole():
    """A font macro's line that goes on on the next with a "\\" at its end (646 in 384 of this machine's pages) was
    read apart: its next line's arguments were sent as text, and came back with their quotes; a text line's (113 in
    46 pages) came back after a space."""
    pieces = roff.Reader().read([".TP", '.BR ELF32_ST_INFO( \\fIbind\\fP ) ", " \\', "ELF64_ST_INFO( \\fIbind\\fP )",
                                 "Convert a binding."])
    assert [(count, piece.text) for count, piece in pieces] == [
        (1, ""), (2, "\\fBELF32_ST_INFO(\\fR\\fIbind\\fP\\fB)\\fR, \\fBELF64_ST_INFO(\\fR\\fIbind\\fP\\fB)\\fR"),
        (1, "Convert a binding.")]
    assert pieces[1][1].written_as(pieces[1][1].text).count("\n") == 1
    pieces = roff.Reader().read(["The <\\fIlanguage\\fR>\\", "[_<territory>] form.", ".TP", "\\fBcase\\fP [ \\",
                                 "... ) \\fBesac\\fP", "A case."])
    assert [(count, piece.text) for count, piece in pieces] == [
        (2, "The <\\fIlanguage\\fR>[_<territory>] form."), (1, ""), (2, "\\fBcase\\fP [ ... ) \\fBesac\\fP"),
        (1, "A case.")]


def test_a_manual_pages_options_and_shell_commands_come_back_as_written():
    """An option in roff's dashes outside a font ("\\-\\-auto\\-create\\-routes") came back with its dashes halved; it
    is sent in ASCII's, which the pipeline keeps, and written back in roff's (a "-" is a hyphen, shown as "‐"), one
    joined to a German word too. A shell's command after a prompt ("$ gcloud ...", gcloud's examples) is kept."""
    pieces = roff.Reader().read(["Use \\-\\-no\\-empty, or \\-v.", "$ gcloud alpha monitoring channels list \\e",
                                 "  \\-\\-all"])
    (count, words), (kept, command) = pieces
    assert (count, words.text, kept, command.text) == (1, "Use --no-empty, or -v.", 2, "")
    assert words.written_as("Die --no-empty-Option oder -v verwenden.") == \
        "Die \\-\\-no\\-empty-Option oder \\-v verwenden."


def test_a_manual_pages_strings_and_printed_escapes_come_back_as_written():
    """mawk's page: its quotes ("\\*(``", ".ds `` \\(lq", as 105 pages here) came back halved ("\\*(`"), which groff
    read as other strings; a printed backslash's escape ("'\\en'") was dropped with its quotes; a string named by a
    letter ("\\*n") is no item as written; pod2man's small capitals ("\\s-1API\\s0") came back broken, and ronn's
    escaped full stops and apostrophes ("\\.", "\\'") as other escapes. The quotes are sent as the characters, a
    printed escape as the one it shows ("\\n", an item), a letter's string bracketed (an item), small capitals as their
    words, a full stop and an apostrophe as themselves; each piece of roff is written back as the page wrote it, one
    against another too, in a heading too."""
    (_, paragraph), = roff.Reader().read([
        "\\*(``magic\\*('' \\*n is not '\\en', nor \\e0, \\*(ex and [\\et\\en] or \\\\r.",
        "The \\s-1API\\s0 of \\s-1PEM, DER,\\s0 files."])
    assert paragraph.text == "\u201cmagic\u201d \\*[n] is not '\\n', nor \\0, \\*(ex and [\\t\\n] or \\r. " \
                             "The API of PEM, DER, files."
    assert paragraph.written_as("\\*[n] ist nicht '\\n', [\\t\\n], \\r, \\0 oder \\*(ex für „Magie“ nicht. "
                                "Die API von PEM- und DER-Dateien.").replace("\n", " ") == \
        "\\*n ist nicht '\\en', [\\et\\en], \\\\r, \\e0 oder \\*(ex für „Magie“ nicht. " \
        "Die \\s-1API\\s0 von \\s-1PEM\\s0- und \\s-1DER\\s0-Dateien."
    (_, heading), = roff.Reader().read(['.SS "\\s-1OCSP\\s0 Client"'])
    assert heading.text == "OCSP Client" and heading.written_as("OCSP-Client") == '.SS "\\s-1OCSP\\s0-Client"'
    (_, ronn), = roff.Reader().read(["The input\\'s name\\. Not its size\\."])  # ronn's full stops and apostrophes
    assert ronn.text == "The input's name. Not its size." and ronn.written_as(".profile zählt.") == "\\&.profile zählt."


def test_an_options_tag_is_kept_as_written_but_a_description_after_it():
    """A ".TP" tag that starts with an option is what a reader types, values in roman too: sent, "\\-spe" came back as
    "-spekt", "\\-\\fBW \\fRrandom=\\fInum\\fR" as "\\-\\fBW \\fRzufällig=\\fInum\\fR". It is kept; a description after
    it (LLVM's) and a tag of words are sent."""
    pieces = roff.Reader().read([".TP", "\\-\\fBW \\fRrandom=\\fInum\\fR", "Seeds the generator.", ".TP", "\\-spe",
                                 "Old.", ".TP", "\\fB\\-\\-gpsize=\\fR<uint>   \\- Global size.", ".TP", "Exit status"])
    assert [piece.text for _, piece in pieces] == ["", "", "Seeds the generator.", "", "", "Old.", "", "Global size.",
                                                   "", "Exit status"]
    assert pieces[7][1].written_as("Globale Größe.") == "\\fB\\-\\-gpsize=\\fR<uint> \\- Globale Größe."


def test_an_mdoc_pages_headings_and_description_are_sent_and_its_literal_displays_kept():
    """BSD's mdoc(7) pages (".Dd" first; 82 on this machine) are read by the same reader: read as man(7), their
    headings and description stayed English and a literal display's code (".Bd -literal") was sent (199 items). The
    NAME and SYNOPSIS headings stay as written: mdoc's formatters find those sections by name."""
    page = [".Dd May 1, 2024", ".Dt DOG 1", ".Sh NAME", ".Nm dog", ".Nd where is the station", ".Sh SYNOPSIS", ".Nm",
            ".Op Fl o", ".Sh DESCRIPTION", "The apples were cheap.", ".Bd -literal -offset indent", "dog -o house",
            ".Ed", ".Ss \"Old dogs\"", "I eat an apple."]
    pieces = roff.Reader().read(page)
    assert [piece.text for _, piece in pieces if piece.text] == [
        "where is the station", "Description", "The apples were cheap.", "Old dogs", "I eat an apple."]
    written = [piece.before + piece.written_as(piece.text) + piece.after for _, piece in pieces]
    assert "\n".join(written) == "\n".join(page)


MDOC_PAGE = [".Dd May 1, 2024", ".Dt DOG 1", ".Os", ".Sh NAME", ".Nm dog", ".Nd where is the station", ".Sh SYNOPSIS",
             ".Nm", ".Op Fl 4", ".Sh DESCRIPTION", ".Bl -tag -width Ds", ".It Fl 4", "Forces", ".Nm",
             "to use IPv4 only.", ".It Fl F Ar file", "Reads", ".Ar file", "instead of", ".Pa ~/.dog ,", "as the",
             ".Cm Bark", "option in", ".Xr dog.conf 5 .", ".El", ".Sh SEE ALSO", ".Xr cat 1 ,", ".Xr cow 1"]


def mdoc_rendered(page: str) -> tuple[str, str]:
    """The page as groff's mdoc shows it, and its warnings."""
    shown = subprocess.run(["groff", "-mdoc", "-k", "-Tutf8", "-ww", "-rHY=0", "-P-cbu"], input=page.encode(),
                           capture_output=True, check=True)
    return " ".join(re.sub("[\u2010\u2212-]", "-", shown.stdout.decode()).split()), shown.stderr.decode()


def test_an_mdoc_sentence_is_sent_whole_around_its_in_line_macros():
    """An mdoc page's in-line macros (".Nm", ".Ar file", ".Xr dog.conf 5 .") sit inside its sentences: each line is
    sent as an item, its closing delimiters after it, and the sentence whole (read as its end, they cut it: "Forces"
    went alone). NAME, SYNOPSIS and a paragraph of items alone (SEE ALSO's) stay as written."""
    pieces = roff.Reader().read(MDOC_PAGE)
    assert [piece.text for _, piece in pieces if piece.text] == [
        "where is the station", "Description", "Forces \\fBNm\\fR to use IPv4 only.",
        "Reads \\fBfile\\fR instead of \\fB~/.dog\\fR, as the \\fBBark\\fR option in \\fBdog.conf 5\\fR.", "See also"]
    written = [piece.before + piece.written_as(piece.text) + piece.after for _, piece in pieces]
    assert "\n".join(written) == "\n".join(MDOC_PAGE)


def test_an_mdoc_translation_puts_each_macro_line_where_its_item_went():
    """Each macro line goes where the translation put its item, as many lines as the paragraph had: closing
    delimiters after the item as its arguments, a word joined to its end after ".Ns", one joined to its start with
    ".Pf"; where the texts between items outnumber the text lines, the shortest goes on the macro line after it
    (".No", quoted: a word such as "Er" or "An" is then no macro); an item the translation lost goes at the end."""
    forces, reads = [piece for _, piece in roff.Reader().read(MDOC_PAGE) if piece.text.startswith(("Forces", "Reads"))]
    assert forces.written_as("Erzwingt, dass \\fBNm\\fR nur IPv4 verwendet.") == \
        "Erzwingt, dass\n.Nm\nnur IPv4 verwendet."
    assert forces.written_as("Er zwingt \\fBNm\\fR-Programm, nur IPv4 zu nutzen.") == \
        'Er zwingt\n.Nm Ns "-Programm" ,\nnur IPv4 zu nutzen.'
    assert forces.written_as("Nur IPv4 für „\\fBNm\\fR“.") == 'Nur IPv4\nfür\n.Pf "„" Nm Ns "“" .'
    assert forces.written_as("Nur IPv4.") == "Nur\nIPv4.\n.Nm"
    translation = "Er liest \\fBfile\\fR statt \\fB~/.dog\\fR, wie \\fBBark\\fR in \\fBdog.conf 5\\fR sagt."
    assert reads.written_as(translation).split("\n") == [
        "Er liest", ".Ar file", "statt", ".Pa ~/.dog ,", "wie", ".Cm Bark", '.No "in" Xr dog.conf 5', "sagt."]


@pytest.mark.skipif(shutil.which("groff") is None, reason="groff not installed (Debian: groff-base)")
def test_an_mdoc_page_translated_renders_its_sentences_whole():
    """The page written back with its own words renders as it did, and with a translation that moves, joins and
    quotes its items, as that translation reads, without a warning of groff's."""
    page = "\n".join(MDOC_PAGE)
    pieces = roff.Reader().read(MDOC_PAGE)
    assert mdoc_rendered("\n".join(piece.before + piece.written_as(piece.text) + piece.after
                                   for _, piece in pieces)) == mdoc_rendered(page)
    german = {"Forces \\fBNm\\fR to use IPv4 only.": "Zwingt das \\fBNm\\fR-Programm zu IPv4.",
              "Reads \\fBfile\\fR instead of \\fB~/.dog\\fR, as the \\fBBark\\fR option in \\fBdog.conf 5\\fR.":
              "Er liest „\\fBfile\\fR“ statt \\fB~/.dog\\fR, wie \\fBBark\\fR in \\fBdog.conf 5\\fR."}
    shown, warnings = mdoc_rendered("\n".join(piece.before + piece.written_as(german.get(piece.text, piece.text))
                                              + piece.after for _, piece in pieces))
    assert "-4 Zwingt das dog-Programm zu IPv4." in shown and warnings == ""
    assert "Er liest „file“ statt ~/.dog, wie Bark in dog.conf(5)." in shown


def test_a_manual_pages_heading_keeps_its_quotes_and_its_comment():
    """A heading is written as it was but for its words: quoted where it was, a comment after it kept with its blanks
    (the comment's quote read as the title's was written back as a quoted title); a standard section's too."""
    (_, quoted), (_, plain), (_, standard) = roff.Reader().read(['.SH "OLD DOGS" \\" kept',
                                                                 ".SS Old dogs\t\\\" kept", '.SH "SEE ALSO" \\" kept'])
    assert (quoted.text, plain.text) == ("Old dogs", "Old dogs")
    assert quoted.written_as("Alte Hunde") == '.SH "ALTE HUNDE" \\" kept'
    assert plain.written_as("Alte Hunde") == '.SS Alte Hunde\t\\" kept'
    # a standard section's heading is written as German manual pages name it, not sent
    assert (standard.text, standard.before) == ("", '.SH "SIEHE AUCH" \\" kept')


def test_a_manual_pages_name_line_sends_only_its_description():
    """whatis(1) and apropos(1) read a page's names from its NAME line: they stay, over lines too ("asn1parse,"), after
    "\\-" or, as 72 pages here write it, "-"; the description after it is sent."""
    for line, names in ((["dog, hound,", "cat \\- where is the station"], "dog, hound, cat \\- "),
                        (["bashbug - where is the station"], "bashbug - ")):
        (_, heading), (count, name) = roff.Reader().read([".SH NAME", *line])
        assert (count, name.text) == (len(line), "where is the station")
        assert name.written_as("wo ist der Bahnhof").replace("\n", " ") == names + "wo ist der Bahnhof"


ROFF_LINES = [".TH A 1", ".SH NAME", ".SH", ".SS \"Sub title\"", "a \\- b", ".SH SYNOPSIS", ".SH DESCRIPTION", ".PP",
              ".TP", ".B bold words", ".BR ls (1),", ".IR", ".I", ".nf", ".fi", ".EX", ".EE", ".if n \\{\\", ".\\}",
              ".de XX", "..", ".ig", ".\\\" comment", "'\\\" comment", "Where is the station?", "The apples\\c",
              "  indented", "\\&.dot", "words\\\" own comment", ".BR a ( \\", ".ds A \\(aq", "a\\-b \\(lqq\\(rq",
              ".Vb 1", ".Ve", ".TS", ".TE", "", ".", "'br", ".RS 4\\", "continued", "\\\" comment", ".Bd -literal",
              ".Ed", ".Sh NAME", ".Nd a dog", "$ ls"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ROFF_LINES) | st.text(max_size=12), max_size=40))
def test_any_manual_page_is_written_back_line_for_line(lines):
    """Whatever the page (garbage lines too), its pieces cover each run of lines in order, each comes back with as
    many lines as it had, and a kept piece as it was (a standard section's heading in German)."""
    for run, pieces in pieces_of_runs(roff.Reader(), lines):
        done = 0
        for count, piece in pieces:
            written = piece.before + piece.written_as(piece.text) + piece.after
            assert written.count("\n") == count - 1, (run, written)
            if not piece.text:  # (a standard section's heading written in German, but in kept lines: .nf)
                assert written in (kept := "\n".join(run[done:done + count]), german_sections(kept))
            done += count


def test_a_directory_is_translated_file_by_file_and_a_rerun_leaves_what_it_finished(server, tmp_path):
    """A documentation tree or a package's manual pages, translated a file at a time with a loop in the shell, left
    the images out and started over on a rerun. An --input directory sends each file the format its name says into
    the same path under --output (here inside the input: not read back), copies every other file as it is (an XML file
    that holds no Android resources too: an app's layout failed as one), skips hidden ones, records a file refused and
    goes on (exit 1); a rerun leaves the files it finished as they are."""
    tree = tmp_path / "docs"
    (tree / "man").mkdir(parents=True)
    (tree / ".git").mkdir()
    (tree / "man" / "dog.1").write_text(MAN_PAGE, encoding="utf-8")
    (tree / "guide.md").write_text("# The Dog\n\nWhere is the station?\n", encoding="utf-8")
    (tree / "notes.txt").write_text("I eat an apple.\n", encoding="utf-8")
    (tree / "logo.png").write_bytes(bytes(range(256)))
    (tree / "README").write_text("The dog.\n", encoding="utf-8")
    (tree / ".git" / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (tree / "broken.json").write_text('{"title": "The dog"', encoding="utf-8")
    layout = '<?xml version="1.0"?>\n<!-- <resources> -->\n<LinearLayout android:text="The dog"/>\n'
    (tree / "main.xml").write_text(layout, encoding="utf-8")
    output = tree / "de"
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 1 and "7 files: 3 translated, 0 finished before, 3 copied, 1 failed" in out, err
    assert "failed: broken.json:" in err and "not valid JSON" in err and "note:" not in err
    assert f"--input {tree / 'broken.json'} --format text" in err  # a command for the file alone, which one can give
    assert sorted(str(path.relative_to(output)) for path in output.rglob("*") if path.is_file()) == [
        "README", "guide.md", "logo.png", "main.xml", "man/dog.1", "notes.txt"]
    assert (output / "main.xml").read_text(encoding="utf-8") == layout
    assert (output / "logo.png").read_bytes() == bytes(range(256)) and (output / "README").read_text() == "The dog.\n"
    title, station, apple = alone(server.target, ["The Dog", "Where is the station?", "I eat an apple."])
    assert (output / "guide.md").read_text(encoding="utf-8") == f"# {title}\n\n{station}\n"
    assert (output / "notes.txt").read_text(encoding="utf-8") == apple + "\n"
    assert (output / "man" / "dog.1").read_text(encoding="utf-8").count("\n") == MAN_PAGE.count("\n")
    (tree / "broken.json").write_text('{"title": "The dog"}', encoding="utf-8")
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 0 and "7 files: 1 translated, 3 finished before, 3 copied, 0 failed" in out, err
    assert json.loads((output / "broken.json").read_text(encoding="utf-8")) == {"title": alone(server.target,
                                                                                                 ["The dog"])[0]}


def test_a_directory_rerun_translates_again_the_files_changed_since_and_keeps_outputs_edited_by_hand(server, tmp_path):
    """A rerun left every finished output as it was, also where its source was edited since (a `git pull` over the
    documentation): the translation went stale. A source modified after its output was written is translated again,
    as make judges a target, its old output kept until the new one is written (a source broken since leaves it); an
    output edited by hand (newer than its source) stays. An output whose source is gone stays, and is named."""
    tree, output = tmp_path / "notes", tmp_path / "notizen"
    tree.mkdir()
    (tree / "a.txt").write_text("Where is the station?\n", encoding="utf-8")
    (tree / "b.txt").write_text("I eat an apple.\n", encoding="utf-8")
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 0 and "2 files: 2 translated, 0 finished before" in out, err
    (output / "b.txt").write_text("Ich esse gern Äpfel.\n", encoding="utf-8")  # a reviewer's edit
    (tree / "a.txt").write_text("The dog.\n", encoding="utf-8")
    earlier = (tree / "a.txt").stat().st_mtime_ns - 10**9  # the output written a second before the edit (a coarse
    os.utime(output / "a.txt", ns=(earlier, earlier))  # file system's clock could put both in one tick)
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 0 and "2 files: 1 translated (1 again: changed since), 1 finished before" in out, err
    assert (output / "a.txt").read_text(encoding="utf-8") == alone(server.target, ["The dog."])[0] + "\n"
    assert (output / "b.txt").read_text(encoding="utf-8") == "Ich esse gern Äpfel.\n"
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 0 and "2 files: 0 translated, 2 finished before" in out, err
    (tree / "c.json").write_text('{"title": "The dog"}', encoding="utf-8")
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 0 and "3 files: 1 translated, 2 finished before" in out, err
    translated = (output / "c.json").read_text(encoding="utf-8")  # kept until a new translation is written whole
    (tree / "c.json").write_text('{"title": "The dog"', encoding="utf-8")
    earlier = (tree / "c.json").stat().st_mtime_ns - 10**9
    os.utime(output / "c.json", ns=(earlier, earlier))
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 1 and "failed: c.json:" in err and (output / "c.json").read_text(encoding="utf-8") == translated
    assert "note:" not in err
    (tree / "c.json").unlink()
    (tree / "b.txt").rename(tree / "b2.txt")
    code, out, err = batch(server.target, tree, output, *SHORT)
    assert code == 0 and "2 files: 1 translated, 1 finished before" in out, err
    assert f"note: 2 files (b.txt, c.json) under {output} no file of {tree} makes" in err
    assert (output / "b.txt").read_text(encoding="utf-8") == "Ich esse gern Äpfel.\n"


def test_a_directorys_messages_go_above_its_progress_bar(server, tmp_path):
    """A file's messages were printed beside the files' bar, so that in a terminal a line began at the bar's end
    ("  0%|   | 0/3 [00:00<?, ?file/s]bad.txt: line 2: ..."): they are written above it."""
    tree = tmp_path / "notes"
    tree.mkdir()
    (tree / "bad.txt").write_bytes(b"The dog.\n\xff\xfe is no text\n")
    for name in ("a.txt", "b.txt"):
        (tree / name).write_text("I eat an apple.\n", encoding="utf-8")
    command = [sys.executable, "-m", "service.cli", "batch", "--server", server.target, "--input", str(tree),
               "--output", str(tmp_path / "de"), "--files-at-once", "3", *SHORT]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)
    said = [line.split("\r")[-1] for line in done.stderr.split("\n") if "not valid UTF-8" in line]
    assert done.returncode == 1 and said and all(line.startswith("bad.txt: line 2: ") for line in said), done.stderr
    assert "|" in done.stderr  # the bar was shown


def test_a_directorys_small_files_go_several_at_once_into_the_same_outputs(server, tmp_path):
    """A directory's files went one at a time, each job waiting on its few items' round trip: 1,200 software messages
    of 1-5 lines took 37.2-40.3 s where the same lines as one file took 10.5-11.5, and 14.8-16.3 s 16 at a time.
    Several files at once (their jobs overlap: the first ones all start before one ends) write the outputs one file
    at a time writes, and the summary adds them up."""
    from service.client import AsyncTranslatorClient
    from translator.v1 import translator_pb2 as pb

    tree = tmp_path / "messages"
    tree.mkdir()
    for i in range(9):
        (tree / f"m{i}.txt").write_text("".join(sentence(i * 3 + k) + "\n" for k in range(1 + i % 3)), encoding="utf-8")
    settings = Settings(options=pb.DecodingOptions(max_output_tokens=16))

    def run(output: Path, files_at_once: int) -> tuple[list[str], object]:
        events: list[str] = []

        def settings_for(path: Path) -> Settings:
            events.append("start")
            return settings

        async def go():
            async with AsyncTranslatorClient(server.target, timeout=60) as client:
                return await run_tree(client, tree, output, settings_for, progress=False, files_at_once=files_at_once,
                                      report=lambda *job: events.append("end"))
        return events, asyncio.run(go())

    events, one = run(tmp_path / "one", 1)
    assert events == ["start", "end"] * 9
    events, four = run(tmp_path / "four", 4)
    assert events[:4] == ["start"] * 4 and events.count("end") == 9
    assert (one.translated, one.items.items) == (four.translated, four.items.items) == (9, 18)
    for path in sorted(tree.iterdir()):
        assert (tmp_path / "four" / path.name).read_text(encoding="utf-8") == \
            (tmp_path / "one" / path.name).read_text(encoding="utf-8")


def test_a_directorys_files_at_once_share_one_concurrency_of_items_in_flight_and_ask_for_models_once(server, tmp_path):
    """Each file's job had its own --concurrency, so many files at once sent many times as much: 60 manual pages took
    15.5 s 64 at once against 10.4 s 8 at once (up to 3,840 items in flight). The files' jobs now share
    one budget of items in flight, and what they write is what one file at a time writes. Each file's job asked
    ListModels; the directory asks once."""
    from service.client import AsyncTranslatorClient
    from translator.v1 import translator_pb2 as pb

    class Counted:
        """A TranslateBatch call that counts, in its client, the items written and not yet answered."""

        def __init__(self, call, client: "CountingClient"):
            self.call, self.client = call, client

        async def write(self, item) -> None:
            self.client.in_flight += 1
            self.client.most = max(self.client.most, self.client.in_flight)
            await self.call.write(item)

        async def done_writing(self) -> None:
            await self.call.done_writing()

        def cancel(self) -> bool:
            return self.call.cancel()

        async def __aiter__(self):
            async for result in self.call:
                self.client.in_flight -= 1
                yield result

    class CountingClient(AsyncTranslatorClient):
        in_flight = most = asked = 0

        def batch(self, items=None):
            return Counted(super().batch(items), self)

        async def list_models(self):
            self.asked += 1
            return await super().list_models()

    tree = tmp_path / "lines"
    tree.mkdir()
    for i in range(8):
        (tree / f"l{i}.txt").write_text("".join(sentence(i * 6 + k) + "\n" for k in range(6)), encoding="utf-8")
    settings = Settings(concurrency=3, options=pb.DecodingOptions(max_output_tokens=16))

    def run(output: Path, files_at_once: int) -> int:
        async def go():
            async with CountingClient(server.target, timeout=60) as client:
                done = await run_tree(client, tree, output, lambda path: settings, progress=False,
                                      files_at_once=files_at_once, concurrency=settings.concurrency)
                assert (done.translated, done.items.items, client.in_flight, client.asked) == (8, 48, 0, 1)
                return client.most
        return asyncio.run(go())

    assert run(tmp_path / "one", 1) <= 3
    assert run(tmp_path / "all", 8) <= 3  # (each file's own 3: up to 24)
    for path in sorted(tree.iterdir()):
        assert (tmp_path / "all" / path.name).read_text(encoding="utf-8") == \
            (tmp_path / "one" / path.name).read_text(encoding="utf-8")


def test_a_directorys_files_share_what_dedupe_translated_and_has_in_flight(server, tmp_path):
    """With --dedupe a file's repeated text was translated once, but every file of a directory translated it again
    (gcloud's pages repeat their flags' paragraphs in each page): the files share the translations, and, files at
    once, the texts in flight (before, of 100 of gcloud's pages the server read 33,891 tokens one file at a time,
    36,832 32 at once)."""
    def sequences() -> float:
        metrics = urllib.request.urlopen(server.metrics_url, timeout=10).read().decode()
        return sum(float(line.split()[-1]) for line in metrics.splitlines()
                   if line.startswith("translator_sequences_finished_total"))

    common = ["Where is the station?", "I eat an apple.", "The house is old."]
    tree = tmp_path / "notes"
    tree.mkdir()
    for i in range(8):
        (tree / f"n{i}.txt").write_text("".join(f"{text}\n" for text in [*common, f"File {i} is here."]),
                                        encoding="utf-8")
    for files_at_once in ("1", "8"):
        before = sequences()
        output = tmp_path / f"notizen{files_at_once}"
        code, out, err = batch(server.target, tree, output, "--dedupe", "--files-at-once", files_at_once, *SHORT)
        assert code == 0 and "8 files: 8 translated" in out, err
        assert sequences() - before == 3 + 8
        first = (output / "n0.txt").read_text(encoding="utf-8").splitlines()
        for i in range(8):
            assert (output / f"n{i}.txt").read_text(encoding="utf-8").splitlines()[:3] == first[:3]


def test_a_job_sends_itself_a_text_whose_sender_ended_without_its_result(server, tmp_path):
    """A file's line that waits for the same text in flight from another file's job, which then fails, is sent by its
    own job, which finishes as it would alone."""
    from service.client import AsyncTranslatorClient
    from translator.v1 import translator_pb2 as pb

    source = tmp_path / "notes.txt"
    source.write_text("Where is the station?\nI eat an apple.\n", encoding="utf-8")
    settings = Settings(dedupe=True, options=pb.DecodingOptions(max_output_tokens=16))
    station = parse_line(1, "Where is the station?", settings).dedupe_key

    class Failing:
        """A job of the directory that sent the station's text and ends without its result."""

    async def go():
        shared, sender = Shared(settings.concurrency), Failing()
        shared.in_flight.send(station, sender)
        async with AsyncTranslatorClient(server.target, timeout=60) as client:
            job = asyncio.create_task(run_job(client, source, tmp_path / "notizen.txt", settings, progress=False,
                                              shared=shared))
            while not shared.in_flight.texts[station][1]:  # the job's line waits for the sender's result
                assert not job.done()
                await asyncio.sleep(0.01)
            shared.in_flight.leave(sender)
            return await asyncio.wait_for(job, 60)

    summary = asyncio.run(go())
    assert (summary.translated, summary.failed) == (2, 0)
    assert (tmp_path / "notizen.txt").read_text(encoding="utf-8").splitlines() == alone(
        server.target, ["Where is the station?", "I eat an apple."])


def test_a_text_in_flight_whose_job_ends_without_its_result_goes_to_the_jobs_waiting_for_it():
    """A directory's job that fails (a file unreadable by its turn, a full disk) leaves the texts it sent: the items
    of other jobs waiting for them are handed back, to be sent by their own jobs, and a job that ended hears of no
    result after."""
    class Waiting:
        def __init__(self):
            self.heard: list = []

        def twin_answered(self, twin, result) -> None:
            self.heard.append((twin, result))

    sender, waiting, gone = Waiting(), Waiting(), Waiting()
    texts = TextsInFlight()
    texts.send(("a",), sender)
    texts.send(("b",), sender)
    assert not texts.join(("c",), waiting, "item c")  # not in flight: the job sends it itself
    assert texts.join(("a",), waiting, "item a") and texts.join(("a",), gone, "gone's a")
    assert texts.join(("b",), waiting, "item b")
    texts.leave(gone)
    texts.answered(("a",), "result a")
    assert (waiting.heard, gone.heard) == ([("item a", "result a")], [])
    texts.leave(sender)
    assert waiting.heard[1:] == [("item b", None)] and texts.texts == {}


def test_a_directorys_file_gone_before_it_is_copied_is_recorded_and_the_others_go_on(tmp_path):
    """A file removed (or made unreadable) while the job runs stopped the whole directory with a traceback."""
    tree = tmp_path / "site"
    tree.mkdir()
    for name in ("a.png", "b.png"):
        (tree / name).write_bytes(b"\x89PNG")

    def settings_for(path: Path) -> None:  # every file copied; the first gone before its turn
        (tree / "a.png").unlink(missing_ok=True)

    done = asyncio.run(run_tree(None, tree, tmp_path / "out", settings_for, progress=False))
    assert (done.copied, done.failed) == (1, ["a.png: No such file or directory"])
    assert (tmp_path / "out" / "b.png").read_bytes() == b"\x89PNG"


def test_a_directory_job_refuses_a_format_and_an_output_that_is_no_directory(tmp_path):
    """A directory's files are read by their names: --format, meant for one file, is refused, as is an --output that
    is a file or the input directory itself, and --exclude with a file; nothing is written."""
    tree = tmp_path / "docs"
    tree.mkdir()
    (tree / "guide.md").write_text("The dog.\n", encoding="utf-8")
    (tmp_path / "out.txt").write_text("", encoding="utf-8")
    for output, extra, said in ((tmp_path / "de", ("--format", "text"), "--input is a directory, whose files"),
                                (tmp_path / "out.txt", (), "--output names one"),
                                (tree, (), "is the input directory")):
        code, out, err = batch("127.0.0.1:1", tree, output, "--connect-timeout", "0.1", *extra)
        assert code == 1 and said in err, err
    code, out, err = batch("127.0.0.1:1", tree / "guide.md", tmp_path / "de", "--exclude", "*.md")
    assert code == 1 and "is a file: drop --exclude" in err, err
    assert not (tmp_path / "de").exists() and sorted(path.name for path in tree.iterdir()) == ["guide.md"]


def test_a_file_jobs_wrong_paths_are_refused_before_a_server_is_waited_for(tmp_path):
    """A mistyped --input, an --output in no directory or a finished output: the job waited --connect-timeout (30 s
    by default) for a server and then said none answers, not what to fix."""
    source, finished = tmp_path / "in.txt", tmp_path / "done.txt"
    source.write_text("The dog.\n", encoding="utf-8")
    finished.write_text("Der Hund.\n", encoding="utf-8")
    for wrong, output, said in ((tmp_path / "typo.txt", tmp_path / "out.txt", "typo.txt: no such file"),
                                (source, tmp_path / "nowhere" / "out.txt", "does not exist"),
                                (source, finished, "is a finished text output")):
        code, out, err = batch("127.0.0.1:1", wrong, output, "--connect-timeout", "20")
        assert code == 1 and said in err and "no translator server" not in err, err


def test_a_directorys_files_and_directories_exclude_names_are_left_out(tmp_path):
    """A tree's generated or vendored parts could not be left out: every file was translated or copied. --exclude
    names them as rsync does: with a "/" by the path from the input, without by the name; a directory left out leaves
    out what it holds."""
    tree = tmp_path / "docs"
    for path in ("guide.md", "api/index.md", "api/v1/list.md", "vendor/lib/README.md", "img/logo.png",
                 "notes/vendor.txt", "notes/todo.txt", "min.js/app.js"):
        (tree / path).parent.mkdir(parents=True, exist_ok=True)
        (tree / path).write_text("The dog.\n", encoding="utf-8")

    def left(*patterns: str) -> list[str]:
        return [path.as_posix() for path in tree_files(tree, tmp_path / "de", patterns)]

    assert len(left()) == 8
    assert left("vendor", "*.png") == ["guide.md", "api/index.md", "api/v1/list.md", "min.js/app.js",
                                       "notes/todo.txt", "notes/vendor.txt"]
    assert left("api/*.md") == ["guide.md", "api/v1/list.md", "img/logo.png", "min.js/app.js", "notes/todo.txt",
                                "notes/vendor.txt", "vendor/lib/README.md"]  # "*" within a name
    assert left("api/", "notes/t?do.txt", "*.js") == ["guide.md", "img/logo.png", "notes/vendor.txt",
                                                      "vendor/lib/README.md"]
    assert left("api/v1", "/vendor/lib/") == ["guide.md", "api/index.md", "img/logo.png", "min.js/app.js",
                                               "notes/todo.txt", "notes/vendor.txt"]


def test_a_subtitle_files_job_translates_each_cues_text_and_keeps_its_timing(server, tmp_path):
    """As paragraphs, a WebVTT file's "WEBVTT" came back as "WEBVT", a cue's settings "align:start" as
    "Ausrichtung:start", its identifier and NOTE translated. A file named *.srt or *.vtt (or --format subtitles) sends
    each cue's text alone, and its translation fills the cue's lines; all else stays as written."""
    source = tmp_path / "talk.vtt"
    source.write_text("WEBVTT\n\nNOTE made by hand\n\nintro\n00:01.000 --> 00:04.000 align:start\nWhere is the station?"
                      "\nThe apples were cheap.\n\n00:05.000 --> 00:07.000\n<v Roger>I eat an apple.\n",
                      encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "talk.de.vtt", *SHORT)
    assert code == 0, err
    with TranslatorClient(server.target) as client:
        two_lines, apple = (client.translate([t], max_output_tokens=16).translations[0].text
                            for t in ["Where is the station?\nThe apples were cheap.", "<v Roger>I eat an apple."])
    assert two_lines.count("\n") == 1 and apple.startswith("<v Roger>")
    assert (tmp_path / "talk.de.vtt").read_text(encoding="utf-8") == (
        f"WEBVTT\n\nNOTE made by hand\n\nintro\n00:01.000 --> 00:04.000 align:start\n{two_lines}\n\n"
        f"00:05.000 --> 00:07.000\n{apple}\n")
    assert "7 items: 2 translated, 0 failed, 0 done before, 5 empty;" in out
    assert subtitle_block("1\n00:00:01,000 --> 00:00:02,000\nHi.\nYou.") == ("1\n00:00:01,000 --> 00:00:02,000\n",
                                                                           "Hi.\nYou.")
    assert subtitle_block("Just words") == ("", "Just words")


def test_markdown_files_and_web_pages_are_read_as_paragraphs(server, tmp_path):
    """Line by line, a Markdown file's code block was translated ("make install" came back as "installieren <v") and
    a sentence wrapped over lines was two. A file named *.md or *.markdown is read as paragraphs; a web page (*.html,
    *.htm, *.xhtml) too, as HTML."""
    source = tmp_path / "README.md"
    source.write_text("Where is the station?\nThe apples were cheap.\n\n```sh\nmake install\n```\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "README.de.md", *SHORT)
    assert code == 0 and "3 items: 2 translated, 0 failed, 0 done before, 1 empty;" in out, err
    assert (tmp_path / "README.de.md").read_text(encoding="utf-8").endswith("\n\n```sh\nmake install\n```\n")
    page = tmp_path / "page.html"
    page.write_text("<p>Where is the station?\nThe apples were cheap.</p>\n", encoding="utf-8")
    code, out, err = batch(server.target, page, tmp_path / "page.de.jsonl", *SHORT)
    with TranslatorClient(server.target) as client:
        as_html = client.translate(["<p>Where is the station?\nThe apples were cheap.</p>"], max_output_tokens=16,
                                   html=True).translations[0].text
    assert code == 0 and records(tmp_path / "page.de.jsonl")[0]["translation"] == as_html, err


def test_a_markdown_pages_front_matter_keeps_its_settings_and_translates_its_title(server, tmp_path):
    """Jekyll's and Hugo's front matter: its settings are the site's, its title and description the reader's, which
    stayed English above a German page. A blank line in it cut it into two texts: "---", "title: …" and "date: …"
    went to the model as a paragraph, keys and all, and the site could no longer read it."""
    source = tmp_path / "post.md"
    source.write_text('---\ntitle: "Where is the station?"\ndate: 2024-01-01\n\ndescription: The apples were cheap.\n'
                      "tags: [house, dog]\n---\nThe dog\n", encoding="utf-8")
    output = tmp_path / "post.de.md"
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "8 items: 3 translated, 0 failed, 0 done before, 5 empty;" in out, err
    station, apples, dog = alone(server.target, ["Where is the station?", "The apples were cheap.", "The dog"])
    lines = output.read_text(encoding="utf-8").split("\n")
    assert lines[0] == lines[6] == "---" and lines[2:4] == ["date: 2024-01-01", ""] and lines[5:] == [
        "tags: [house, dog]", "---", dog, ""]
    assert yaml.safe_load("\n".join(lines[1:6])) == {"title": station, "date": datetime.date(2024, 1, 1),
                                                      "description": apples, "tags": ["house", "dog"]}
    toml = tmp_path / "page.md"  # Hugo's TOML front matter
    toml.write_text('+++\ntitle = "The dog"\ndraft = false\n+++\n', encoding="utf-8")
    code, out, err = batch(server.target, toml, tmp_path / "page.de.md", *SHORT)
    assert code == 0 and "4 items: 1 translated" in out, err
    assert (tmp_path / "page.de.md").read_text(encoding="utf-8") == (
        f'+++\ntitle = "{double_quoted(dog, "toml")}"\ndraft = false\n+++\n')


def test_a_paragraphs_job_reads_a_fenced_code_block_as_one_item_blank_lines_and_all(tmp_path):
    """Before, a README's code block with a blank line in it was cut there into two items, neither a whole block,
    and its lines were translated."""
    source = tmp_path / "README"
    source.write_text("Install:\n\n```sh\npip install foo\n\nfoo --help\n```\n\nDone.\n", encoding="utf-8")
    items = [(item.line, item.text, item.lines) for item in read_paragraphs(source, Settings(format="paragraphs"))]
    assert items == [(1, "Install:", 1), (2, "", 1), (3, "```sh\npip install foo\n\nfoo --help\n```", 5), (8, "", 1),
                     (9, "Done.", 1)]
    # and a Markdown page's indented block: ripgrep's "    Features:", after a blank line in a terminal session, went
    # alone and came back as "    Funktionen:" (not a list item's paragraph, nor a web page's indented markup)
    source.write_text("Versions:\n\n    $ ag -V\n    ag version 2.2.0\n\n    Features:\n      +jit\n\n- item\n\n    more\n",
                      encoding="utf-8")
    items = [(item.line, item.text) for item in read_paragraphs(source, Settings(format="paragraphs"))]
    assert items == [(1, "Versions:"), (2, ""), (3, "    $ ag -V\n    ag version 2.2.0\n\n    Features:\n      +jit"),
                     (8, ""), (9, "- item"), (10, ""), (11, "    more")]
    # but not a plain text's: the Debian Reference's, indented throughout, was one item a section, its prose, sessions
    # and files together, and its sessions' commands came back translated
    manual = tmp_path / "reference.txt"
    manual.write_text("1.2.8. Named pipes\n\n    Try the following\n\n    $ cd; mkfifo mypipe\n    $ ls -l mypipe\n"
                      "    prw-rw-r-- 1 penguin penguin 0 Oct 16 21:49 mypipe\n", encoding="utf-8")
    items = [item.text for item in read_paragraphs(manual, Settings(format="paragraphs"))]
    assert items == ["1.2.8. Named pipes", "", "    Try the following", "", "    $ cd; mkfifo mypipe\n"
                     "    $ ls -l mypipe\n    prw-rw-r-- 1 penguin penguin 0 Oct 16 21:49 mypipe"]


def test_a_markdown_documents_shortcut_references_are_sent_as_collapsed_ones(tmp_path):
    """ripgrep's "adapted from [uv's AI policy]." (defined at the page's end) came back as "von der AI-Richtlinie", a
    link to no definition: sent as a collapsed reference, its translation is a full one to the same definition. Not
    words in brackets that no definition names, code, a fenced block or a web page."""
    source = tmp_path / "README.md"
    source.write_text("Adapted from [uv's AI policy] and [The Guide], not [maybe] or `[guide]`.\n\n```\n[guide]\n```\n\n"
                      "[uv's  AI Policy]: https://example.org/ai\n[the guide]: ./GUIDE.md\n", encoding="utf-8")
    texts = [item.text for item in read_paragraphs(source, Settings(format="paragraphs"))]
    assert texts[0] == "Adapted from [uv's AI policy][] and [The Guide][], not [maybe] or `[guide]`."
    assert texts[2:] == ["```\n[guide]\n```", "", "[uv's  AI Policy]: https://example.org/ai\n[the guide]: ./GUIDE.md"]
    from translator.v1 import translator_pb2 as pb

    page = Settings(format="paragraphs", options=pb.DecodingOptions(text_format=pb.TEXT_FORMAT_HTML))
    assert next(read_paragraphs(source, page)).text.startswith("Adapted from [uv's AI policy] and")


def test_a_text_whose_lines_go_on_on_the_next_gets_a_hint_to_read_it_as_paragraphs(server, tmp_path):
    """A README or an e-mail wrapped at 72 columns, read line by line (the default of a .txt file), had its sentences
    translated in pieces, and nothing said so."""
    readme = tmp_path / "README.txt"
    readme.write_text("This program reads the configuration file from the directory that\n"
                      "holds the data and writes a report of what it found to the standard\n"
                      "output, one line for each file that it could not read or that has\n"
                      "changed since the last time the program was run on the same data.\n", encoding="utf-8")
    code, out, err = batch(server.target, readme, tmp_path / "README.de.txt", *SHORT)
    assert code == 0 and "3 of the 4 lines seem to go on on the next" in err and "--format paragraphs" in err, err
    corpus = tmp_path / "sentences.txt"  # one sentence a line, short or ended
    corpus.write_text("Where is the station?\nthe apples were cheap\nI eat an apple.\nthe dog\n"
                      "This program reads the configuration file from the directory.\nand writes a report\n",
                      encoding="utf-8")
    code, out, err = batch(server.target, corpus, tmp_path / "sentences.de.txt", *SHORT)
    assert code == 0 and "seem to go on" not in err, err


def test_malformed_lines_are_reported_by_number_and_the_job_goes_on(server, tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_bytes(b'{"id": "a", "text": "Where is the station?"}\n'
                       b'not json\n'
                       b'{"id": "b"}\n'
                       b'{"id": "c", "text": "I eat an apple.", "max_output_tokens": 2}\n'
                       b'{"id": "d", "text": "\xff\xfe"}\n'
                       b'{"id": "e", "text": "\xe2\x80\x8b"}\n'
                       b'\n'
                       b'{"id": {"k": 1}, "text": "Where is the station?"}\n'
                       b'{"id": "z", "text": "Where is the station?", "model": "nosuch"}\n'
                       b'{"id": "y", "text": "I eat an apple.", "max_output_tokens": 10000000000}\n')
    code, out, err = batch(server.target, source, tmp_path / "out.jsonl", "--format", "jsonl")
    assert code == 1
    done = by_line(tmp_path / "out.jsonl")
    assert sorted(done) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert [done[n]["id"] for n in (1, 4, 8)] == ["a", "c", '{"k": 1}'] and done[4]["output_tokens"] <= 2
    assert {n for n, r in done.items() if "error" in r} == {2, 3, 5, 6, 7, 9, 10}
    assert all(done[n]["error"]["code"] == "INVALID_ARGUMENT" for n in (2, 3, 5, 6, 7, 10))
    for number in (2, 3, 5, 6, 7, 10):
        assert f"line {number}: INVALID_ARGUMENT" in err
    assert done[7]["error"]["message"].startswith("an empty line;")
    # The server names an item by the line key it was sent under; the record has its own line and id instead.
    assert done[9]["error"]["code"] == "NOT_FOUND" and done[9]["error"]["message"].startswith("unknown model 'nosuch'")
    assert not done[6]["error"]["message"].startswith("item ")
    assert done[10]["error"]["message"] == ("max_output_tokens, min_output_tokens and beam_size must be whole numbers "
                                            'from 0 to 4294967295, not {"max_output_tokens": 10000000000}')
    assert "10 items: 3 translated, 7 failed" in out

    tsv = tmp_path / "in.tsv"
    tsv.write_text("x1\tWhere is the station?\nno tab here\n", encoding="utf-8")
    code, _, err = batch(server.target, tsv, tmp_path / "tsv.jsonl")  # the format from the name
    assert code == 1 and "line 2: INVALID_ARGUMENT: a TSV line needs an id, a tab" in err
    assert by_line(tmp_path / "tsv.jsonl")[1]["id"] == "x1"


@pytest.mark.parametrize("name", ["out.jsonl", "out.txt"])
def test_a_rerun_sends_the_failed_lines_again_and_keeps_one_record_per_line(server, tmp_path, name):
    """Before, a failed line counted as recorded: a rerun skipped it, one with the line fixed was refused as a changed
    input, and a text output's journal was deleted with its failures. The input's format comes from its name."""
    source, output = tmp_path / "in.jsonl", tmp_path / name
    journal = output if name.endswith(".jsonl") else tmp_path / f"{name}.journal.jsonl"
    lines = [json.dumps({"id": f"x{i}", "text": sentence(i)}) for i in range(6)]
    broken = [*lines[:2], '{"id": "x2", "text": "unterminated', *lines[3:5],
              json.dumps({"id": "x5", "text": sentence(5), "model": "nosuch"})]
    source.write_text("\n".join(broken) + "\n", encoding="utf-8")
    for run in range(2):  # the second run sends the two failed lines again and fails them again
        code, out, err = batch(server.target, source, output, *SHORT)
        assert code == 1 and f"6 items: {4 - 4 * run} translated, 2 failed, {4 * run} done before" in out, out + err
        assert "line 3: INVALID_ARGUMENT: not valid JSON" in err and "line 6: NOT_FOUND" in err
        assert "rerun the same command to send the 2 failed lines again" in err and str(journal) in err
        assert sorted(by_line(journal)) == [1, 2, 3, 4, 5, 6]  # one record per line: the old errors dropped

    source.write_text("\n".join(lines) + "\n", encoding="utf-8")  # both fixed: no other line changed
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "6 items: 2 translated, 0 failed, 4 done before" in out, out + err
    with TranslatorClient(server.target) as client:
        expected = [client.translate([sentence(i)], max_output_tokens=16).translations[0].text for i in range(6)]
    if name.endswith(".jsonl"):
        assert [translations(output)[i + 1] for i in range(6)] == expected
    else:
        assert output.read_text(encoding="utf-8").splitlines() == expected and not journal.exists()


def test_lines_longer_than_the_server_takes_are_sent_in_parts_and_recorded_whole(exported_tiny, tmp_path):
    """The job learns the server's --max-text-chars from ListModels (here below PART_CHARS), sends a longer line in
    parts cut between sentences (an over-long word anywhere), and records the line once: its parts' translations
    joined with the whitespace between them. A part the server refuses fails its line, which says which part; code
    longer than the server takes is kept as written."""
    limit = 120
    process = ServerProcess("batch-limit", serve_command(exported_tiny.parent.parent, exported_tiny.parent.name,
                                                         workers=1, threads=1) + ["--max-text-chars", str(limit)])
    try:
        prose = "  " + " ".join(sentence(i) for i in range(40)) + " "  # ~1,000 characters of sentences
        word = "x" * (2 * limit + 17)  # no place to cut but inside
        invisible = "Where is the station? " + ("\u200b" * 100 + " ") * 3 + "I eat bread."  # parts 2, 3: nothing visible
        source = tmp_path / "in.txt"
        source.write_text(f"{prose}\nShort line.\n{word}\n{invisible}\n{prose}\n", encoding="utf-8")
        code, out, err = batch(process.target, source, tmp_path / "out.jsonl", "--dedupe", *SHORT)
        done = by_line(tmp_path / "out.jsonl")
        assert sorted(done) == [1, 2, 3, 4, 5] and "5 items: 4 translated, 1 failed" in out
        assert done[5]["translation"] == done[1]["translation"]  # with --dedupe on, a repeated long line too
        assert done[1]["source"] == prose and done[3]["source"] == word
        with TranslatorClient(process.target) as client:
            for line, text in ((1, prose), (3, word)):
                lead, parts = split_line(text, limit)
                assert len(parts) > 1 and all(len(part) <= limit for part, _ in parts)
                answers = client.translate([part for part, _ in parts], max_output_tokens=16).translations
                assert done[line]["translation"] == lead + "".join(a.text + after for a, (_, after) in zip(answers, parts))
                assert done[line]["input_tokens"] == sum(a.input_tokens for a in answers)
                assert done[line]["output_tokens"] == sum(a.output_tokens for a in answers)
        assert done[4]["error"]["code"] == "INVALID_ARGUMENT" and code == 1
        assert re.search(r"part \d of \d of a long line sent in parts: .*invisible characters", done[4]["error"]["message"])
        # code longer than the server takes is kept as written, as the server keeps code: cut as text, LilyPond's
        # manual's <pre> of 150,000 characters reached the model in pieces and came back translated
        fenced = "```\n" + "".join(f"print('the house {i}')\n" for i in range(12)) + "```"
        pre = "<pre>" + "\n".join(f"water = {i}  # the water is green" for i in range(8)) + "</pre>"
        (tmp_path / "page.md").write_text(f"We eat bread.\n\n{fenced}\n\nThe dog runs.\n", encoding="utf-8")
        (tmp_path / "page.html").write_text(f"<p>We eat bread.</p>\n{pre}\n", encoding="utf-8")
        for name in ("page.md", "page.html"):
            code, out, err = batch(process.target, tmp_path / name, tmp_path / f"de.{name}", *SHORT)
            assert code == 0 and "1 failed" not in out, err
        assert fenced in (tmp_path / "de.page.md").read_text(encoding="utf-8")
        assert pre in (tmp_path / "de.page.html").read_text(encoding="utf-8")
    finally:
        process.stop()


def test_a_line_of_more_sentences_than_the_queue_holds_is_translated_in_parts(exported_tiny, tmp_path):
    """Below the server's 32,768 characters but more sentences than its queue (the default 1,024) takes at once:
    whole, the line is refused; in parts of PART_SENTENCES sentences it is translated like any other."""
    process = ServerProcess("batch-queue", serve_command(exported_tiny.parent.parent, exported_tiny.parent.name,
                                                         workers=1, threads=1, max_queue_size=1024))
    try:
        line = " ".join(f"Go {i}." for i in range(1100))  # ~7,500 characters, 1,100 sentences
        with TranslatorClient(process.target) as client:
            with pytest.raises(grpc.RpcError) as refused:
                client.translate([line], max_output_tokens=16)
            assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "fit the queue" in refused.value.details()
        source = tmp_path / "in.txt"
        source.write_text(line + "\n", encoding="utf-8")
        code, out, err = batch(process.target, source, tmp_path / "out.jsonl", *SHORT)
        assert code == 0, err
        [record] = records(tmp_path / "out.jsonl")
        lead, parts = split_line(line, PART_CHARS)
        assert lead == "" and len(parts) == -(-1100 // PART_SENTENCES)
        with TranslatorClient(process.target) as client:
            answers = [client.translate([part], max_output_tokens=16).translations[0] for part, _ in parts]
        assert record["translation"] == "".join(a.text + after for a, (_, after) in zip(answers, parts))
    finally:
        process.stop()


def test_items_a_busy_server_refuses_are_sent_again_until_it_takes_them(exported_tiny, tmp_path):
    """A queue of 8 sequences, decoded one at a time, and 200 items of 8 sentences in flight: items are refused
    RESOURCE_EXHAUSTED for longer than the 8 attempts that were all an item had (~16 s of backoff: 32 of 400 such
    lines failed; of these 200, 13 fail with --give-up-seconds 16). Each is sent again until the server takes it, or
    for --give-up-seconds."""
    process = ServerProcess("batch-busy", serve_command(exported_tiny.parent.parent, exported_tiny.parent.name,
                                                        workers=1, threads=1, max_num_seqs=1, max_queue_size=8))
    try:
        source = tmp_path / "in.txt"
        source.write_text("".join(" ".join(sentence(8 * i + k) for k in range(8)) + "\n" for i in range(200)),
                          encoding="utf-8")
        started = time.monotonic()
        # (a give-up time far beyond the ~30 s this takes on 2 cores: a busier machine only makes it slower)
        code, out, err = batch(process.target, source, tmp_path / "out.jsonl", "--concurrency", "200",
                               "--min-output-tokens", "64", "--max-output-tokens", "64", "--give-up-seconds", "600")
        print(f"200 items through a queue of 8 in {time.monotonic() - started:.1f} s: {out.strip()}")
        assert code == 0, err
        assert "200 items: 200 translated, 0 failed" in out
    finally:
        process.stop()


def test_split_line_keeps_every_character_and_every_part_within_the_limit():
    for text, limit in (("  One. Two, three; four five six.  Seven!\tEight  ", 9), ("a" * 50, 7),
                        ("Short. " * 30, 20), ("x " * 40, 3)):
        lead, parts = split_line(text, limit)
        assert lead + "".join(part + after for part, after in parts) == text
        assert all(0 < len(part) <= limit and part == part.strip() and not after.strip() for part, after in parts)
    assert split_line("  One. Two.  Three.", 11) == ("  ", [("One. Two.", "  "), ("Three.", "")])
    assert [part for part, _ in split_line("One. Two. Three. Four. Five.", 100, max_sentences=2)[1]] == [
        "One. Two.", "Three. Four.", "Five."]


def test_a_long_lines_fenced_code_block_goes_whole_in_a_part_of_its_own():
    """Before, a paragraph holding a code block longer than PART_CHARS was cut inside the block: the parts after the
    first reached the server without the opening fence, and their code was translated."""
    code = "```sh\n" + "".join(f"echo {i}; ls /tmp/d{i}\n" for i in range(60)) + "```"
    text = f"Install it first. Then run this:\n\n{code}\n\nThat is all. Now save."
    lead, parts = split_line(text, 300, keep_code=True)
    assert lead + "".join(part + after for part, after in parts) == text
    assert [part for part, _ in parts] == ["Install it first. Then run this:", code, "That is all. Now save."]
    lead, parts = split_line(text, 300)  # placeholders off: cut as text
    assert lead + "".join(part + after for part, after in parts) == text and all(len(p) <= 300 for p, _ in parts)


def test_a_long_json_text_goes_whole_in_one_part():
    """The server keeps JSON data as written only whole (translator.text.json_data): before, an API's answer of 6,000
    characters in a spreadsheet's cell was cut, and each part came back translated."""
    data = json.dumps([{"airport": f"Airport number {i}. It is open.", "code": f"A{i:02}"} for i in range(100)])
    assert json_data(data)  # records
    assert len(data) > PART_CHARS
    assert split_line(f" {data} ", PART_CHARS, keep_code=True) == (" ", [(data, " ")])
    lead, parts = split_line(data, PART_CHARS)  # placeholders off: cut as text
    assert len(parts) > 1 and lead + "".join(part + after for part, after in parts) == data


def test_a_long_html_text_is_cut_after_blocks_never_inside_a_tag_and_its_style_sheet_goes_whole():
    """A page of 25,000 characters was cut between sentences as text: inside a style sheet (its second half, sent
    alone, came back translated: "a { color: red; }" as "eine { Farbe: Rot; }") and after "crates." inside an image's
    tag (its quotes lost). HTML is cut after blocks' ends and between sentences outside tags, its raw elements (a
    style sheet, a script, pre) go whole in parts of their own, and a sentence too long is cut between words outside
    its tags."""
    style = "<style>\n" + "".join(f"  p.c{i} {{ color: red; margin: {i}px; }}\n" for i in range(12)) + "</style>"
    image = '<img src="https://img.shields.io/crates/v/rustfmt-nightly.svg" alt="Version 2. Crates. Io. Now." />'
    paragraphs = "\n".join(f"<p>The <em>dog</em> {i} sleeps. {image} It is late.</p>" for i in range(6))
    long_sentence = "<p>" + " ".join(f'<a href="https://example.com/a b/{i}">word {i}</a>' for i in range(12)) + "</p>"
    text = f"<html><head>{style}</head><body>\n{paragraphs}\n{long_sentence}\n</body></html>"
    lead, parts = split_line(text, 300, keep_code=True, html=True)
    assert lead + "".join(part + after for part, after in parts) == text
    assert style in [part for part, _ in parts] and all(len(part) <= 300 for part, _ in parts if part != style)
    for part, _ in parts:  # every "<" opens a whole tag
        assert re.sub(r"<[^<>]*>", "", part).count("<") == 0 and re.sub(r"<[^<>]*>", "", part).count(">") == 0
    assert sum(part.endswith("</p>") for part, _ in parts) >= 4  # cut after blocks' ends, where they fit
    lead, parts = split_line(text, 300, keep_code=True)  # as text (before): inside the style sheet and a tag
    assert style not in [part for part, _ in parts]
    tags = "<p>" + "<b>x</b>" * 200 + "</p>"  # no place to cut but inside a run: before a tag, never inside one
    lead, parts = split_line(tags, 300, html=True)
    assert "".join(part + after for part, after in parts) == tags and len(parts) > 1
    assert all(re.fullmatch(r"(?:<[^<>]*>|x)+", part) for part, _ in parts)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGTERM], ids=["killed", "shut down (a rolling update)"])
def test_a_server_stopped_mid_job_and_restarted_loses_and_duplicates_nothing(exported_tiny, lines_5000, uninterrupted,
                                                                             tmp_path, stop):
    """SIGKILL: streams break (their status may come back as gRPC's INTERNAL "Internal error from Core", grpc#36066).
    SIGTERM: the server answers what it read and ends its streams UNAVAILABLE (before, it answered every further
    item UNAVAILABLE until the job had spent its attempts at them)."""
    command = serve_command(exported_tiny.parent.parent, exported_tiny.parent.name, workers=1, threads=1)
    victim = ServerProcess("victim", command)
    port = victim.target.rsplit(":", 1)[1]
    output = tmp_path / "out.jsonl"
    job = batch(victim.target, lines_5000, output, "--concurrency", "128", *SHORT, wait=False)
    try:
        wait_for_records(output, 1500)
        victim.process.send_signal(stop)
        victim.process.wait(30)
        stopped_at = output.read_bytes().count(b"\n")
        time.sleep(1.0)  # the client sees the connection refused and backs off
        command[command.index("--port") + 1] = port
        restarted = ServerProcess("restarted", command)
        try:
            out, err = job.communicate(timeout=300)
        finally:
            restarted.stop()
    finally:
        if job.poll() is None:
            job.kill()
        if victim.process.poll() is None:
            victim.process.kill()
    assert job.returncode == 0, err
    print(f"server stopped ({stop.name}) after {stopped_at} of 5000 records; the job reconnected and finished: "
          f"{out.strip()}")
    assert translations(output) == translations(uninterrupted)


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["killed", "interrupted (Ctrl-C)"])
def test_a_client_stopped_mid_job_resumes_where_it_stopped(server, lines_5000, uninterrupted, tmp_path, stop):
    output = tmp_path / "out.jsonl"
    job = batch(server.target, lines_5000, output, "--concurrency", "128", *SHORT, wait=False)
    wait_for_records(output, 2000)
    job.send_signal(stop)
    _, err = job.communicate(timeout=10)
    if stop == signal.SIGINT:  # before, a traceback
        assert job.returncode == 130 and err.endswith("interrupted: the results so far are kept; rerun the same "
                                                       "command to resume\n"), err
    with output.open("ab") as torn:  # as if killed in the middle of writing a record
        torn.write(b'{"line": 4999, "id": "4999", "source": "x", "transl')
    journal = Journal(output, lines=5000)  # the killed job's lock died with it
    before = len(journal.done)
    journal.close()
    code, out, err = batch(server.target, lines_5000, output, "--concurrency", "128", *SHORT)
    assert code == 0, err
    print(f"client stopped ({stop.name}) after {before} of 5000 records; rerun: {out.strip()}")
    assert f"{before} done before" in out and f"{5000 - before} translated" in out
    assert translations(output) == translations(uninterrupted)


def test_a_full_disk_stops_the_job_with_a_message_and_a_rerun_resumes(server, lines_5000, uninterrupted, tmp_path):
    """A file size limit stands in for the full disk (the same write error: Python ignores SIGXFSZ). Before, two
    tracebacks. The limit is set by an interpreter that then becomes the job (no preexec_fn: see above)."""
    output = tmp_path / "out.jsonl"
    limited = ("import os, resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536)); "
               "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])")
    command = [sys.executable, "-c", limited, "-m", "service.cli", "batch", "--server", server.target,
               "--input", str(lines_5000), "--output", str(output), "--quiet", *SHORT]
    full = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert full.returncode == 1 and full.stderr == (f"error: [Errno {errno.EFBIG}] cannot write {output} (File too "
                                                    "large): the results so far are kept; make room and rerun the same "
                                                    "command to resume\n"), full.stderr
    assert output.stat().st_size == 65536  # the last record torn
    code, out, err = batch(server.target, lines_5000, output, *SHORT)
    assert code == 0 and " done before" in out, err
    assert translations(output) == translations(uninterrupted)


def test_a_rerun_on_an_input_changed_since_is_refused(server, tmp_path):
    """Before, it kept the translations of the lines as they were (or, with a line inserted, put every later line's
    translation on the wrong line) and went on."""
    source, output = tmp_path / "in.txt", tmp_path / "out.jsonl"
    lines = [sentence(i) for i in range(5)]
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert batch(server.target, source, output, *SHORT)[0] == 0
    recorded = output.read_bytes()
    code, out, err = batch(server.target, source, output, *SHORT)
    assert code == 0 and "5 done before" in out and output.read_bytes() == recorded
    for changed, message in ((lines[:2] + ["Another line."] + lines[3:], "line 3 of .* is not the text"),
                             (["A new first line."] + lines, "line 1 of .* is not the text"),
                             (lines[:4], "records lines that .* does not have")):
        source.write_text("\n".join(changed) + "\n", encoding="utf-8")
        code, out, err = batch(server.target, source, output, *SHORT)
        assert code == 1 and re.search(f"error: .*{message}.*: the input changed since", err), err
        assert output.read_bytes() == recorded


@pytest.mark.parametrize("name", ["out.jsonl", "out.txt"])
def test_a_second_job_on_the_same_output_is_refused_while_the_first_runs(server, lines_5000, uninterrupted, tmp_path,
                                                                          name):
    """Two jobs on one journal would record lines twice, and the first to finish a text output would delete the
    journal under the other."""
    output = tmp_path / name
    journal = output if name.endswith(".jsonl") else tmp_path / f"{name}.journal.jsonl"
    first = batch(server.target, lines_5000, output, "--concurrency", "8", *SHORT, wait=False)  # slow: still running
    wait_for_records(journal, 500)
    code, _, err = batch(server.target, lines_5000, output, *SHORT)
    assert code == 1 and "another batch job is writing" in err and str(journal) in err
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    if name.endswith(".jsonl"):
        assert translations(output) == translations(uninterrupted)
    else:
        expected = translations(uninterrupted)
        assert output.read_text(encoding="utf-8").splitlines() == [expected[line] for line in range(1, 5001)]


def test_a_job_that_finds_no_translator_server_says_why(server, tmp_path):
    """Before, after --connect-timeout: "no server at ... (start one with `make serve`)", also where something else
    listens on the port (here the server's metrics, plain HTTP) or where a server is (with TLS on one side only)."""
    source = tmp_path / "in.txt"
    source.write_text("Hello.\n", encoding="utf-8")
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        refused = f"127.0.0.1:{closed.getsockname()[1]}"
    metrics = server.metrics_url.split("//")[1].split("/")[0]
    for target, reason in ((refused, "Connection refused"), (metrics, "HTTP/2")):
        code, out, err = batch(target, source, tmp_path / "out.txt", "--connect-timeout", "1")
        assert code == 1 and f"error: no translator server answers at {target} within 1 s (" in err, err
        assert reason in err and "check --server" in err, err


def test_a_job_for_a_model_the_server_does_not_have_is_refused_before_anything_is_written(server, tmp_path):
    """Before, every line failed NOT_FOUND and the text output was written, all empty."""
    source = tmp_path / "in.txt"
    source.write_text("Hello.\nGood bye.\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "out.txt", "--model", "en-fr")
    assert code == 1 and err == "error: the server has no model 'en-fr', only tiny: choose one with --model\n", err
    assert sorted(path.name for path in tmp_path.iterdir()) == ["in.txt"]


def test_a_job_with_beam_search_translates_as_the_same_beams_do_alone_and_too_many_are_refused(server, tmp_path):
    """--beam K asks for K beams per segment (batch jobs trade time for quality: 4 beams scored chrF 56.37 against
    greedy's 55.73 on the held-out texts); more than the model's max_beam_size is refused before anything is written,
    where every line would have failed INVALID_ARGUMENT."""
    source = tmp_path / "in.txt"
    source.write_text(f"{TEXTS[0]}\n{TEXTS[1]}\n", encoding="utf-8")
    code, out, err = batch(server.target, source, tmp_path / "out.txt", "--beam", "4")
    assert code == 0, err
    with TranslatorClient(server.target) as client:
        alone = [client.translate([text], beam_size=4).translations[0].text for text in TEXTS[:2]]
        greedy = [client.translate([text]).translations[0].text for text in TEXTS[:2]]
    assert alone != greedy  # the beams made a difference the output can show
    assert (tmp_path / "out.txt").read_text(encoding="utf-8") == "".join(f"{text}\n" for text in alone)
    code, out, err = batch(server.target, source, tmp_path / "more.txt", "--beam", "9")
    assert code == 1 and err == "error: model 'tiny' searches with at most 8 beams: choose --beam 8 or fewer\n", err
    assert not (tmp_path / "more.txt").exists()

    # A JSONL record's beam_size is its text's, over the job's --beam; too many fail that record alone.
    records = tmp_path / "in.jsonl"
    records.write_text("".join(json.dumps(record) + "\n" for record in (
        {"id": "greedy", "text": TEXTS[0]}, {"id": "beams", "text": TEXTS[1], "beam_size": 4},
        {"id": "greedy too", "text": TEXTS[0], "beam_size": 1}, {"id": "many", "text": TEXTS[0], "beam_size": 9},
        {"id": "not a number", "text": TEXTS[0], "beam_size": True})), encoding="utf-8")
    code, out, err = batch(server.target, records, tmp_path / "out.jsonl", "--beam", "4", "--dedupe")
    assert code == 1
    done = by_line(tmp_path / "out.jsonl")
    assert [done[n].get("translation") for n in (1, 2, 3)] == [alone[0], alone[1], greedy[0]]
    assert done[4]["error"]["code"] == "INVALID_ARGUMENT" and "beam" in done[4]["error"]["message"]
    assert done[5]["error"]["message"].endswith('not {"beam_size": true}')


def test_inputs_that_cannot_be_resumed_and_outputs_that_would_overwrite_the_input_are_refused(tmp_path):
    source = tmp_path / "in.txt"
    source.write_text("Hello.\n")
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "link.jsonl").symlink_to(source)
    refused = {"no such file": (tmp_path / "missing.txt", tmp_path / "out.txt"),
               "not a regular file": (tmp_path / "pipe", tmp_path / "out.txt"),
               "is the input file": (source, tmp_path / "link.jsonl"),
               "does not exist": (source, tmp_path / "nowhere" / "out.txt"), "is a directory": (source, tmp_path)}
    for message, (input_path, output) in refused.items():
        with pytest.raises(JobRefused, match=message):
            check_paths(input_path, output, output)
    with pytest.raises(JobRefused, match="is the input file"):  # a text output's journal
        check_paths(source, tmp_path / "out.txt", source)
    check_paths(source, tmp_path / "out.txt", tmp_path / "out.txt.journal.jsonl")


def test_a_jsonl_job_whose_output_is_its_input_leaves_the_input_alone(server, tmp_path):
    """The journal of a JSONL output is the output: read as one, the input was truncated to nothing."""
    source = tmp_path / "items.jsonl"
    source.write_text('{"text": "The house is small."}\n', encoding="utf-8")
    code, _, err = batch(server.target, source, source, "--format", "jsonl")
    assert code == 1 and "is the input file" in err
    assert source.read_text(encoding="utf-8") == '{"text": "The house is small."}\n'


def test_a_journal_remembers_its_translated_lines_by_number_and_text(tmp_path):
    """In an array indexed by line (8 bytes a line; a dict took ~115: a 1,000,000-line journal cost a rerun's client
    115 MB, now 7): errors are not translated lines, lines the input does not have are counted apart."""
    path = tmp_path / "out.jsonl"
    records = [{"line": 3, "source": "three", "translation": "drei"}, {"line": 7, "source": "seven", "error": {}},
               {"line": 1, "source": "one", "translation": "eins"}, {"line": 9, "source": "nine", "translation": "neun"}]
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    journal = Journal(path, lines=8)
    done = journal.done
    journal.close()
    assert journal.failed_before == 1 and len(done) == 3 and done.outside == {9}
    assert [line for line in range(12) if line in done] == [1, 3]
    assert (done.same_text(3, "three"), done.same_text(3, "Three"), done.same_text(7, "seven")) == (True, False, None)


def test_count_lines_matches_what_the_job_reads(tmp_path):
    for data, lines in ((b"", 0), (b"a", 1), (b"a\n", 1), (b"a\nb", 2), (b"a\r\nb\r\n", 2), (b"\n\n", 2)):
        (tmp_path / "f").write_bytes(data)
        assert count_lines(tmp_path / "f") == lines


@pytest.mark.slow
def test_client_memory_stays_flat_on_200000_lines(server, tmp_path):
    source = tmp_path / "in.txt"
    total = int(os.environ.get("BATCH_LINES", "200000"))
    source.write_text("".join(sentence(i) + "\n" for i in range(total)), encoding="utf-8")
    output = tmp_path / "out.jsonl"
    job = batch(server.target, source, output, "--concurrency", "128", *SHORT, wait=False)
    wait_for_records(output, total // 10, timeout=3600)
    at_10 = resident_mb(job.pid)
    wait_for_records(output, total * 9 // 10, timeout=3600)
    at_90 = resident_mb(job.pid)
    out, err = job.communicate(timeout=3600)
    assert job.returncode == 0, err
    print(f"client resident memory at 10%: {at_10:.1f} MB, at 90%: {at_90:.1f} MB; {out.strip()}")
    assert at_90 < at_10 * 1.1 + 5
