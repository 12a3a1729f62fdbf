"""The EN→DE corpus: Debian's dict-freedict-eng-deu (Ding) parsed into clean pairs and split.

The dictd database holds entries (a headword line, then a translation line, then notes,
examples and cross references). We keep two kinds of pairs:

- ``example``: the quoted usage examples, ``"English"  - German``;
- ``entry``: headword → first translation.

The split is a pure function of the English side (a hash), so it is deterministic and no English
side of valid/test can appear in train.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "dict-freedict-eng-deu"
DICT_NAME = "freedict-eng-deu"
SPLITS = ("train", "valid", "test")
HELD_OUT_PERCENT = 4  # per held-out split, of the example pairs (~2,200 each)

_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_EXAMPLE = re.compile(r'^\s+"(?P<en>[^"]+)"\s+-\s+(?P<de>.+)$')
_ANNOTATIONS = [
    re.compile(r"/[^/]*/"),  # IPA: /ˈiːl/
    re.compile(r"<[^>]*>"),  # grammar: <fem>, <v, intr>
    re.compile(r"\[[^\]]*\]"),  # register and domain: [coll.], [zool.]
    re.compile(r"\{[^}]*\}"),  # cross references: {eel spear}
    re.compile(r"\([^)]*\)"),  # optional parts and glosses: (in the neck), (Pistacia atlantica)
]
_ALTERNATIVE_WORD = re.compile(r"\b(\w{2,})(?:/\w{2,})+\b")  # colour/color → colour
_SENTENCE_ALTERNATIVES = re.compile(r"(?<=[.!?…]), ")  # "Satz eins., Satz zwei."
_IPA = re.compile("[ˈˌəɪʊɒɜɔæʌθðŋʃʒɹɐː]")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Pair:
    en: str
    de: str
    kind: str  # "example" or "entry"


def decode_b64_number(text: str) -> int:
    """dictd's index stores offsets and lengths as base-64 numbers (most significant digit first)."""
    value = 0
    for char in text:
        value = value * 64 + _B64.index(char)
    return value


def clean(text: str) -> str:
    """Strip dictionary annotations and keep the first of slash alternatives."""
    for pattern in _ANNOTATIONS:
        text = pattern.sub(" ", text)
    text = _ALTERNATIVE_WORD.sub(r"\1", text)
    text = text.replace("…", "")
    return _SPACES.sub(" ", text).strip(" ,;")


def first_german(german: str, english: str) -> str:
    """The first translation of a German side that lists alternatives separated by ', '."""
    if is_sentence(english):
        german = _SENTENCE_ALTERNATIVES.split(german)[0]
    elif ", " not in english:
        german = german.split(", ")[0]
    return german.split(" / ")[0]


def is_sentence(english: str) -> bool:
    return english[:1].isupper() and english.rstrip()[-1:] in ".!?"


def parse_entry(text: str) -> tuple[list[Pair], Counter]:
    """Pairs from one dictd entry, and counts of what was dropped and why."""
    dropped: Counter = Counter()
    lines = text.splitlines()
    if len(lines) < 2:
        dropped["entry without translation"] += 1
        return [], dropped
    pairs = []
    headword = lines[0].split(" /")[0]  # the IPA follows the headword
    headword, translation = clean(headword), clean(first_german(lines[1], headword))
    if headword and translation:
        pairs.append(Pair(headword, translation, "entry"))
    else:
        dropped["entry empty after cleaning"] += 1
    for line in lines[2:]:
        match = _EXAMPLE.match(line)
        if not match:
            continue
        english = match["en"]
        german = first_german(match["de"], english)
        pair = Pair(clean(english), clean(german), "example")
        if pair.en and pair.de:
            pairs.append(pair)
        else:
            dropped["example empty after cleaning"] += 1
    return pairs, dropped


def is_broken(pair: Pair) -> str | None:
    """Why a pair is unusable, or None."""
    if pair.en == pair.de and " " in pair.en:
        return "identical sides"
    if len(pair.en) > 300 or len(pair.de) > 300:
        return "too long"
    ratio = len(pair.de) / max(len(pair.en), 1)
    if pair.kind == "example" and not 0.25 <= ratio <= 4:
        return "length ratio"
    if any(char in pair.en + pair.de for char in '"|\t'):
        return "stray markup"
    if _IPA.search(pair.en + pair.de):
        return "pronunciation residue"
    return None


def read_dictd(index_path: Path, dict_path: Path) -> tuple[list[Pair], Counter]:
    """All pairs of a dictd database, deduplicated, with counts of each kind and of the drops."""
    data = dict_path.read_bytes()
    if dict_path.suffix == ".dz":
        data = gzip.decompress(data)
    seen_offsets: set[int] = set()
    seen_pairs: set[tuple[str, str]] = set()
    pairs: list[Pair] = []
    counts: Counter = Counter()
    for line in index_path.read_text(encoding="utf-8").splitlines():
        headword, offset_b64, length_b64 = line.split("\t")[:3]
        offset = decode_b64_number(offset_b64)
        if headword.startswith("00-database") or headword == "" or offset in seen_offsets:
            continue
        seen_offsets.add(offset)
        entry = data[offset : offset + decode_b64_number(length_b64)].decode("utf-8")
        entry_pairs, dropped = parse_entry(entry)
        counts.update({f"dropped: {reason}": n for reason, n in dropped.items()})
        for pair in entry_pairs:
            reason = is_broken(pair)
            if reason:
                counts[f"dropped: {reason}"] += 1
            elif (pair.en, pair.de) in seen_pairs:
                counts[f"duplicate {pair.kind}"] += 1
            else:
                seen_pairs.add((pair.en, pair.de))
                pairs.append(pair)
                counts[f"kept {pair.kind}"] += 1
    return pairs, counts


def split_of(english: str) -> str:
    """Deterministic split by a hash of the English side."""
    bucket = int(hashlib.sha256(english.lower().encode("utf-8")).hexdigest()[:8], 16) % 100
    if bucket < HELD_OUT_PERCENT:
        return "valid"
    if bucket < 2 * HELD_OUT_PERCENT:
        return "test"
    return "train"


def split_pairs(pairs: list[Pair]) -> dict[str, list[Pair]]:
    """valid/test hold example pairs only; train holds everything whose English side is not held out."""
    splits: dict[str, list[Pair]] = {name: [] for name in SPLITS}
    held_out_english = set()
    for pair in pairs:
        if pair.kind == "example" and split_of(pair.en) != "train":
            splits[split_of(pair.en)].append(pair)
            held_out_english.add(pair.en.lower())
    splits["train"] = [p for p in pairs if p.en.lower() not in held_out_english]
    return splits


def write_tsv(path: Path, pairs: list[Pair]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for pair in pairs:
            out.write(f"{pair.en}\t{pair.de}\t{pair.kind}\n")


def read_tsv(path: Path) -> list[Pair]:
    with Path(path).open(encoding="utf-8") as lines:
        return [Pair(*line.rstrip("\n").split("\t")) for line in lines]


def locate_dictd(source: Path) -> tuple[Path, Path]:
    """The .index and .dict(.dz) files inside a directory."""
    index = next(source.rglob(f"*{DICT_NAME}.index"), None) or next(source.rglob("*.index"), None)
    if index is None:
        raise FileNotFoundError(f"no dictd .index file under {source}")
    for suffix in (".dict.dz", ".dict"):
        candidate = index.with_name(index.name.removesuffix(".index") + suffix)
        if candidate.exists():
            return index, candidate
    raise FileNotFoundError(f"{index} has no .dict or .dict.dz beside it")


_lists_refreshed = False


def apt_get(command: list[str], cwd: Path | None = None, check: bool = True) -> str:
    """Run an apt command and return its output. On failure the package lists are refreshed once per process
    (a fresh machine may have none) and the command retried; check=True raises on a second failure."""
    global _lists_refreshed
    if shutil.which(command[0]) is None:
        raise RuntimeError(f"{command[0]} is not available (a Debian system is needed to fetch packages)")
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0 and not _lists_refreshed:
        _lists_refreshed = True
        update = ["apt-get", "update", "-q"] if os.geteuid() == 0 else ["sudo", "apt-get", "update", "-q"]
        subprocess.run(update, check=True, capture_output=True)
        result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"`{' '.join(command[:3])}` failed: {result.stderr.strip()}")
    return result.stdout


def fetch_deb(directory: Path) -> Path:
    """Download the Debian package with apt-get into directory."""
    try:
        apt_get(["apt-get", "download", PACKAGE], cwd=directory)
    except RuntimeError as error:
        raise RuntimeError(f"{error}; pass --source with a path to the {PACKAGE} .deb or dictd files") from None
    return next(directory.glob(f"{PACKAGE}_*.deb"))


def extract_deb(deb: Path, directory: Path) -> Path:
    subprocess.run(["dpkg-deb", "-x", str(deb), str(directory)], check=True)
    return directory


def build_corpus(out_dir: Path, source: Path | None = None) -> dict:
    """Fetch (or take) the dictionary, parse, split, write TSVs and stats.json; return the stats."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_dir = Path(tmp)
        if source is None:
            source = fetch_deb(tmp_dir)
        if source.is_file() and source.suffix == ".deb":
            source = extract_deb(source, tmp_dir / "deb")
        index, dictionary = locate_dictd(source)
        pairs, counts = read_dictd(index, dictionary)
    splits = split_pairs(pairs)
    for name, split in splits.items():
        write_tsv(out_dir / f"{name}.tsv", split)
    stats = {
        "name": "Ding dictionary examples",
        "source": str(source),
        "counts": dict(sorted(counts.items())),
        "splits": {name: dict(Counter(p.kind for p in split)) | {"total": len(split)} for name, split in splits.items()},
    }
    (out_dir / "stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n")
    return stats
