"""Software-message pairs from gettext catalogs: reading .mo files, cleaning, splitting by package."""

import struct
from collections import Counter

import pytest

from model.catalogs import (build_catalog_corpus, choose, clean_line, clean_pairs, license_of, read_mo,
                            split_of_package, strip_accelerators, Package)
from translator.text import prepare


def mo_file(messages: dict[str, str], charset: str = "UTF-8", big_endian: bool = False) -> bytes:
    """A compiled catalog, as msgfmt writes it (header entry included, keys sorted)."""
    entries = {"": f"Content-Type: text/plain; charset={charset}\n", **messages}
    keys = sorted(entries)
    originals = [k.encode(charset) for k in keys]
    translations = [entries[k].encode(charset) for k in keys]
    order = ">" if big_endian else "<"
    header_size, count = 28, len(keys)
    offset = header_size + 16 * count
    tables, blobs = [[], []], b""
    for table, strings in zip(tables, (originals, translations)):
        for string in strings:
            table.append((len(string), offset + len(blobs)))
            blobs += string + b"\0"
    data = struct.pack(order + "7I", 0x950412DE, 0, count, header_size, header_size + 8 * count, 0, 0)
    for table in tables:
        data += b"".join(struct.pack(order + "2I", *entry) for entry in table)
    return data + blobs


def test_read_mo_handles_contexts_plurals_charsets_and_byte_order():
    messages = {"menu\x04_Open": "Ö_ffnen", "%d file\x00%d files": "%d Datei\x00%d Dateien", "untranslated": ""}
    for charset, big_endian in (("UTF-8", False), ("ISO-8859-1", True)):
        pairs = read_mo(mo_file(messages, charset, big_endian))
        assert sorted(pairs) == sorted([("_Open", "Ö_ffnen"), ("%d file", "%d Datei"), ("%d files", "%d Dateien")])
    with pytest.raises(ValueError):
        read_mo(b"\0" * 40)


def test_accelerators_are_dropped_but_names_kept():
    assert strip_accelerators("Ne_w Item", "N_euer Eintrag") == "New Item"
    assert strip_accelerators("E&mpty Trash", "Papierkorb lee&ren") == "Empty Trash"
    assert strip_accelerators("http_proxy is unset", "»http_proxy« ist nicht gesetzt") == "http_proxy is unset"
    for text in ("Tom &amp; Jerry", "a && b", "Status & more"):
        assert strip_accelerators(text, "") == text


def test_placeholders_become_the_serving_pipelines_tokens_on_both_sides():
    reason, pair = clean_line("Delete %s from <b>{folder}</b>?", "%s aus <b>{folder}</b> löschen?")
    assert reason == "kept with placeholders"
    (en, de), (raw_en, _) = pair
    assert en == "Delete XX0X from XX1X?" and de == "XX0X aus XX1X löschen?"  # a run of items is one token
    masked = prepare(raw_en)  # what the service sends the model for the same message
    assert masked.segments == [en]
    assert clean_line("Copy %1$s to %2$s", "%2$s nach %1$s kopieren")[1][0][1] == "XX1X nach XX0X kopieren"  # reordered
    assert clean_line("%s of %d", "%s von")[0] == "dropped: placeholders or markup differ"
    assert clean_line("Move %s %s now", "%s, %s jetzt verschieben")[0] == "dropped: placeholders or markup differ"


def test_filters_count_what_they_drop():
    counts = Counter()
    pairs = clean_pairs([("File", "File"), ("x", "y"), ("Line one\nLine two", "Zeile eins\nZeile zwei"),
                         ("One\nTwo", "Eins zwei"), ("Open", "Öffnen Sie bitte die Datei, die Sie gestern gespeichert haben"),
                         ("word " * 80, "Wort " * 80)], counts)
    assert [p for p, _ in pairs] == [("Line one", "Zeile eins"), ("Line two", "Zeile zwei")]
    assert counts == Counter({"dropped: untranslated": 1, "dropped: no words": 1, "kept": 2,
                              "dropped: line structure differs": 1, "dropped: length ratio": 1,
                              "dropped: longer than 300 characters": 1})


def test_split_is_by_package():
    names = [f"package-{i}" for i in range(2000)]
    splits = Counter(split_of_package(name) for name in names)
    assert 0.015 < splits["test"] / len(names) < 0.045 and 0.015 < splits["valid"] / len(names) < 0.045


def test_license_and_download_bounds():
    assert license_of("Files: *\nLicense: GPL-2+\n\nFiles: po/*\nLicense: GPL-2+\n\nLicense: LGPL-2.1\n") == "GPL-2+ / LGPL-2.1"
    packages = [Package("a", 5_000_000), Package("b", 1_000_000), Package("c", 50_000_000), Package("d", 3_000_000)]
    assert [p.name for p in choose(packages, max_mb=5, max_package_mb=40)] == ["b", "d"]


@pytest.mark.slow
def test_real_catalogs_from_debian(tmp_path):
    """Downloads a few MB of the smallest packages with German catalogs and extracts them end to end."""
    stats = build_catalog_corpus(tmp_path / "software", tmp_path / "cache", max_mb=5)
    assert stats["counts"]["messages"] > 1000 and stats["splits"]["train"]["software"] > 500
    assert sum(stats["licenses"].values()) == sum(s["packages"] for s in stats["splits"].values())
    assert (tmp_path / "software" / "test.unmasked.tsv").exists()
