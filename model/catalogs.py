"""EN→DE software messages from Debian's German gettext catalogs (msgid English → msgstr German).

Debian packages ship human translations of their user interface as ``usr/share/locale/de/LC_MESSAGES/*.mo``:
the same material the GNOME/KDE/Ubuntu corpora of OPUS are made of. This module

1. finds the packages carrying German catalogs in the mirror's Contents index (what apt-file reads),
2. downloads the smallest ones first with ``apt-get download`` into a cache outside git, within a bound,
3. reads every catalog (plural forms and message contexts included) and each package's license,
4. cleans the pairs (accelerators, placeholders, markup, line structure, length ratio, untranslated, duplicates),
5. splits by package: valid/test hold whole packages (a hash of the package name), so the software test set
   is software the model never saw; held-out pairs whose English also occurs in a training package are dropped.

Placeholders and markup become the placeholder tokens the serving text pipeline uses (translator.text), so the
model learns to carry them; a pair whose two sides do not hold the same placeholders is dropped.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import json
import re
import struct
import subprocess
import tarfile
import urllib.request
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from model.data import Pair, apt_get, write_tsv
from translator.text import protect, protected_spans, runs_merged, with_tokens

CATALOG = re.compile(r"^(?:\./)?usr/share/locale/de(?:_DE)?/LC_MESSAGES/[^/\s]+\.mo$")
CONTENTS = ("Contents-all.gz", "Contents-amd64.gz")
HELD_OUT_PERCENT = 3  # of the packages, per held-out split
MAX_CHARS = 300  # longer lines are help texts and licenses rather than messages
MAX_LENGTH_RATIO = 3.0
# A word holding a mnemonic marker: "_File", "Ne_w", "E&mpty" (not "&amp;", "a && b" or "& ").
MARKED_WORD = re.compile(r"[^\W_]*(?<!&)[_&](?![&#]|[A-Za-z]+;)[^\W_]+")
CHARSET = re.compile(r"charset=([\w.-]+)", re.IGNORECASE)


@dataclass(frozen=True)
class Package:
    name: str
    size: int  # bytes of the .deb


def mirror_and_suite() -> tuple[str, str]:
    """The first Debian mirror and suite apt is configured with (deb822 or one-line sources)."""
    uri, suite = "http://deb.debian.org/debian", None
    for path in sorted(Path("/etc/apt").glob("sources.list.d/*.sources")):
        for stanza in re.split(r"\n\s*\n", path.read_text()):  # deb822: one source per paragraph
            fields = {key.strip(): value.strip() for key, _, value in
                      (line.partition(":") for line in stanza.splitlines() if ":" in line and not line.startswith("#"))}
            if "URIs" in fields and "security" not in fields["URIs"]:
                return fields["URIs"].split()[0], fields.get("Suites", "stable").split()[0]
    sources = Path("/etc/apt/sources.list")
    for line in sources.read_text().splitlines() if sources.exists() else []:
        parts = line.split()
        if len(parts) >= 3 and parts[0] == "deb" and "security" not in parts[1]:
            return parts[1], parts[2]
    os_release = Path("/etc/os-release")
    if os_release.exists():
        suite = dict(line.split("=", 1) for line in os_release.read_text().splitlines() if "=" in line).get("VERSION_CODENAME")
    return uri, (suite or "stable").strip('"')


def catalog_packages(cache: Path, mirror: str, suite: str) -> dict[str, int]:
    """Package name → number of German catalogs it ships, from the mirror's Contents index (cached)."""
    found: Counter = Counter()
    for name in CONTENTS:
        path = cache / f"{suite}-{name}"
        if not path.exists():
            url = f"{mirror.rstrip('/')}/dists/{suite}/main/{name}"
            print(f"fetching {url}")
            urllib.request.urlretrieve(url, path.with_suffix(".part"))
            path.with_suffix(".part").rename(path)
        with gzip.open(path, "rt", encoding="utf-8", errors="replace") as lines:
            for line in lines:
                if "/LC_MESSAGES/" not in line:
                    continue
                filename, _, locations = line.rstrip("\n").rpartition(" ")
                if CATALOG.match(filename.strip()):
                    found.update(location.rsplit("/", 1)[-1] for location in locations.split(","))
    return dict(found)


def package_sizes(names: list[str]) -> list[Package]:
    """Download sizes from apt's package lists (packages apt does not know are left out)."""
    shown = apt_get(["apt-cache", "show", "--no-all-versions", *names], check=False)
    packages, name = [], None
    for line in shown.splitlines():
        if line.startswith("Package: "):
            name = line.split(": ", 1)[1]
        elif line.startswith("Size: ") and name:
            packages.append(Package(name, int(line.split(": ", 1)[1])))
            name = None
    return packages


def choose(packages: list[Package], max_mb: float, max_package_mb: float) -> list[Package]:
    """Smallest packages first (the most catalogs per byte), within the total and per-package bounds."""
    chosen, total = [], 0
    for package in sorted(packages, key=lambda p: (p.size, p.name)):
        if package.size > max_package_mb * 1e6 or total + package.size > max_mb * 1e6:
            continue
        chosen.append(package)
        total += package.size
    return chosen


def download(packages: list[Package], cache: Path, chunk: int = 50) -> dict[str, Path]:
    """The .deb of every package, downloaded into cache when not there yet."""
    debs = cache / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    present = {deb.name.split("_", 1)[0]: deb for deb in debs.glob("*.deb")}
    missing = [p.name for p in packages if p.name not in present]
    with tqdm(total=len(missing), desc="apt-get download", unit="package", disable=not missing) as bar:
        for start in range(0, len(missing), chunk):
            names = missing[start : start + chunk]
            try:
                apt_get(["apt-get", "download", *names], cwd=debs)
            except RuntimeError:  # apt-get downloads nothing when one name fails: try them one by one
                for name in names:
                    apt_get(["apt-get", "download", name], cwd=debs, check=False)
            bar.update(len(names))
    present = {deb.name.split("_", 1)[0]: deb for deb in debs.glob("*.deb")}
    return {p.name: present[p.name] for p in packages if p.name in present}


def read_mo(data: bytes) -> list[tuple[str, str]]:
    """(English, German) messages of a compiled catalog: contexts stripped, each plural form paired with the
    English singular (German form 0) or plural (form 1); the header and untranslated entries skipped."""
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if order is None:
        raise ValueError("not a gettext .mo file")
    count, originals, translations = struct.unpack(order + "3I", data[8:20])

    def entry(table: int, index: int) -> bytes:
        length, offset = struct.unpack(order + "2I", data[table + 8 * index : table + 8 * index + 8])
        return data[offset : offset + length]

    charset = "utf-8"  # what the header (the translation of "") declares; older catalogs use ISO-8859-1
    for index in range(count):
        if not entry(originals, index) and (declared := CHARSET.search(entry(translations, index).decode("ascii", "replace"))):
            charset = declared.group(1)
    try:
        "".encode(charset)
    except LookupError:
        raise ValueError(f"unknown charset {charset}") from None
    messages = []
    for index in range(count):
        english = entry(originals, index).decode(charset, errors="replace")
        german = entry(translations, index).decode(charset, errors="replace")
        english = english.rsplit("\x04", 1)[-1]  # "context\x04message"
        if not english or not german:
            continue
        singular_plural, forms = english.split("\x00"), german.split("\x00")
        messages += [(en, de) for en, de in zip(singular_plural, forms) if de]
    return messages


def read_package(deb: Path) -> tuple[list[tuple[str, str]], str]:
    """The messages of every German catalog in a .deb, and the package's license (from its copyright file)."""
    tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", str(deb)], capture_output=True, check=True).stdout
    messages, license_name = [], "unknown"
    with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
        for member in archive:
            if member.isfile() and CATALOG.match(member.name):
                try:
                    messages += read_mo(archive.extractfile(member).read())
                except (ValueError, struct.error):
                    continue
            elif member.isfile() and re.match(r"^(?:\./)?usr/share/doc/[^/]+/copyright$", member.name):
                license_name = license_of(archive.extractfile(member).read().decode("utf-8", errors="replace"))
    return messages, license_name


def license_of(copyright_text: str) -> str:
    """The licenses a Debian copyright file names (machine-readable `License:` fields), most frequent first."""
    names = Counter(m.group(1).strip() for m in re.finditer(r"^License:[ \t]*(\S[^\n]*)$", copyright_text, re.MULTILINE))
    return " / ".join(name for name, _ in names.most_common(3)) or "see copyright file"


def strip_accelerators(text: str, other: str) -> str:
    """Drop mnemonic markers from the words of text that the other side does not contain verbatim: "Ne_w Item"
    / "N_euer Eintrag" are accelerators, "http_proxy" on both sides is a name."""
    return MARKED_WORD.sub(lambda m: m.group(0) if m.group(0) in other else re.sub(r"[_&](?=[^\W_])", "", m.group(0), 1), text)


def mask_like(text: str, items: list[str]) -> str | None:
    """The German side masked with the English side's numbering (runs of items with only spaces between them as
    one, as protect() and the service do); None when its items differ from the English."""
    free: dict[str, list[int]] = {}
    for index, item in enumerate(items):
        free.setdefault(item, []).append(index)
    spans = runs_merged(text, protected_spans(text))
    numbers = []
    for start, end in spans:
        ids = free.get(text[start:end])
        if not ids:
            return None
        numbers.append(ids.pop(0))
    return None if any(free.values()) else with_tokens(text, spans, numbers)


def clean_pairs(messages: list[tuple[str, str]], counts: Counter) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """(masked, unmasked) pairs from raw messages, each dropped one counted under its reason."""
    pairs = []
    for english, german in messages:
        english, german = english.replace("\r\n", "\n"), german.replace("\r\n", "\n")
        en_lines, de_lines = english.strip("\n").split("\n"), german.strip("\n").split("\n")
        if len(en_lines) != len(de_lines):
            counts["dropped: line structure differs"] += 1
            continue
        for en, de in zip(en_lines, de_lines):
            reason, pair = clean_line(en, de)
            counts[reason] += 1
            if pair:
                pairs.append(pair)
    return pairs


def clean_line(english: str, german: str) -> tuple[str, tuple[tuple[str, str], tuple[str, str]] | None]:
    en, de = " ".join(strip_accelerators(english, german).split()), " ".join(strip_accelerators(german, english).split())
    if not re.search(r"[^\W\d_]{2}", en):
        return "dropped: no words", None
    if len(en) > MAX_CHARS or len(de) > MAX_CHARS:
        return "dropped: longer than 300 characters", None
    if en == de:
        return "dropped: untranslated", None
    items: list[str] = []
    en_masked = protect(en, items)  # the serving pipeline's tokens, numbered in English order
    de_masked = mask_like(de, items)
    if de_masked is None:
        return "dropped: placeholders or markup differ", None
    ratio = (len(de_masked) + 5) / (len(en_masked) + 5)
    if not 1 / MAX_LENGTH_RATIO <= ratio <= MAX_LENGTH_RATIO:
        return "dropped: length ratio", None
    return ("kept with placeholders" if items else "kept"), ((en_masked, de_masked), (en, de))


def split_of_package(name: str) -> str:
    bucket = int(hashlib.sha256(name.encode("utf-8")).hexdigest()[:8], 16) % 100
    return "valid" if bucket < HELD_OUT_PERCENT else "test" if bucket < 2 * HELD_OUT_PERCENT else "train"


def build_catalog_corpus(out_dir: Path, cache: Path, max_mb: float = 1500, max_package_mb: float = 40,
                         mirror: str | None = None, suite: str | None = None) -> dict:
    """Find, download (bounded), read, clean and split; write out_dir/{train,valid,test}.tsv and stats.json."""
    out_dir.mkdir(parents=True, exist_ok=True)
    cache.mkdir(parents=True, exist_ok=True)
    default_mirror, default_suite = mirror_and_suite()
    mirror, suite = mirror or default_mirror, suite or default_suite
    carrying = catalog_packages(cache, mirror, suite)
    known = package_sizes(sorted(carrying))
    chosen = choose(known, max_mb, max_package_mb)
    print(f"{len(carrying)} packages carry German catalogs; apt knows {len(known)} "
          f"({sum(p.size for p in known) / 1e6:,.0f} MB); using the {len(chosen)} smallest "
          f"({sum(p.size for p in chosen) / 1e6:,.0f} MB, bounds --max-mb {max_mb:g}, --max-package-mb {max_package_mb:g})")
    debs = download(chosen, cache)
    counts: Counter = Counter()
    by_split: dict[str, dict[tuple[str, str], tuple[str, str]]] = {"train": {}, "valid": {}, "test": {}}
    packages: dict[str, list[str]] = {name: [] for name in by_split}
    licenses: Counter = Counter()
    for name, deb in tqdm(sorted(debs.items()), desc="reading catalogs", unit="package"):
        try:
            messages, license_name = read_package(deb)
        except (subprocess.CalledProcessError, tarfile.TarError):
            counts["packages unreadable"] += 1
            continue
        counts["messages"] += len(messages)
        split = split_of_package(name)
        packages[split].append(name)
        licenses[license_name] += 1
        for pair, unmasked in clean_pairs(messages, counts):
            if pair in by_split[split]:
                counts["dropped: duplicate"] += 1
            by_split[split].setdefault(pair, unmasked)
    seen_english = {en for en, _ in by_split["train"]}
    for split in ("valid", "test"):
        fresh = {pair: unmasked for pair, unmasked in by_split[split].items() if pair[0] not in seen_english}
        counts[f"dropped from {split}: English also in a training package"] += len(by_split[split]) - len(fresh)
        by_split[split] = fresh
    for split, pairs in by_split.items():
        write_tsv(out_dir / f"{split}.tsv", [Pair(en, de, "software") for en, de in pairs])
        if split != "train":  # as the catalogs have them: what the placeholder benchmark sends through the service
            write_tsv(out_dir / f"{split}.unmasked.tsv", [Pair(en, de, "software") for en, de in pairs.values()])
    stats = {"name": "software messages (held-out packages)",
             "source": f"German gettext catalogs of {len(debs)} Debian packages ({mirror} {suite})",
             "bounds": {"max_mb": max_mb, "max_package_mb": max_package_mb},
             "counts": dict(sorted(counts.items())),
             "splits": {split: {"software": len(pairs), "total": len(pairs), "packages": len(packages[split])}
                        for split, pairs in by_split.items()},
             "licenses": dict(licenses.most_common())}
    (out_dir / "stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n")
    (out_dir / "packages.json").write_text(json.dumps(packages, indent=1) + "\n")
    return stats
