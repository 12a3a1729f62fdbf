"""The EN→DE corpus: Debian's dict-freedict-eng-deu (Ding) parsed into clean pairs and split.

The dictd database holds entries (a headword line, then a translation line, then notes,
examples and cross references). We keep two kinds of pairs:

- ``example``: the quoted usage examples, ``"English"  - German``;
- ``entry``: headword → first translation.

``dict-freedict-deu-eng`` is the same Ding data read from the German side; its examples (``"German"  -
English``) that eng-deu lacks join train only, so valid and test stay the same.

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
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "dict-freedict-eng-deu"
DICT_NAME = "freedict-eng-deu"
REVERSE_PACKAGE = "dict-freedict-deu-eng"
REVERSE_DICT_NAME = "freedict-deu-eng"
WORD_LIST_PACKAGE = "wamerican"  # proper nouns for translator.lexicon's names
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
_ALTERNATIVES = re.compile(", ")
_SLASH_ALTERNATIVES = re.compile(" / ")
_BRACKETS = re.compile(r"[<>\[\]{}]")
_IPA = re.compile("[ˈˌəɪʊɒɜɔæʌθðŋʃʒɹɐː]")
_SPACES = re.compile(r"\s+")
# A German headword line: a one-word noun, its IPA, an abbreviation's ("Bahnhof /.../ (Bhf. /.../) <masc, n, sg>")
# and its grammar (`read_noun_genders`)
_NOUN_HEADWORD = r"(?P<noun>[A-ZÄÖÜ][a-zäöüß]+) /[^/]*/(?: \([^()]*\))*"
_SINGULAR_NOUN = re.compile(_NOUN_HEADWORD + r" <(?P<genders>(?:masc|fem|neut)(?:, (?:masc|fem|neut))*), n, sg>")
_PLURAL_NOUN = re.compile(_NOUN_HEADWORD + r" <pl>")
# A German headword line of a one-word verb's infinitive, after the objects and the "sich" it takes ("lesen /lˈeːzən/
# <v, trans, intr>", "etw. kaufen /.../ <v>", "sich jdm. anvertrauen"; `read_verbs`)
_VERB = re.compile(r"(?:(?:etw|jd[nms])\. |sich )*(?P<verb>[a-zäöüß]+n) /[^/]*/ <v[,>]")


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
    """The first translation of a German side that lists alternatives separated by ', ', cut only outside
    annotations: "abdanken <v, intr>, zurücktreten" cut inside its "<v, intr>" left "abdanken <v" (14,309 training
    pairs ended in a cut annotation, "<v", "<masc", "[Schmerzen", "(von etw."; the model learned to write "treffen
    <v" for "make")."""
    if is_sentence(english):
        german = _before_first(_SENTENCE_ALTERNATIVES, german)
    elif ", " not in english:
        german = _before_first(_ALTERNATIVES, german)
    return _before_first(_SLASH_ALTERNATIVES, german)


def _before_first(separator: re.Pattern, text: str) -> str:
    """text up to the first separator that stands outside brackets (an unclosed one runs to the end)."""
    depth, outside = 0, []
    for character in text:
        depth = max(0, depth + (character in "<[({") - (character in ">])}"))
        outside.append(character if depth == 0 and character not in ">])}" else "\0")
    found = separator.search("".join(outside))
    return text[:found.start()] if found else text


def is_sentence(english: str) -> bool:
    return english[:1].isupper() and english.rstrip()[-1:] in ".!?"


def parse_entry(text: str, reverse: bool = False) -> tuple[list[Pair], Counter]:
    """Pairs from one dictd entry, and counts of what was dropped and why. `reverse`: a German-headword
    dictionary, of which only the examples are read (its headwords are eng-deu's translations)."""
    dropped: Counter = Counter()
    lines = text.splitlines()
    if reverse:
        return _examples(lines[2:], dropped, reverse=True), dropped
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
    return pairs + _examples(lines[2:], dropped), dropped


def _examples(lines: list[str], dropped: Counter, reverse: bool = False) -> list[Pair]:
    """The quoted usage examples, ``"English"  - German`` (reverse: ``"German"  - English``); the translation
    side keeps its first alternative."""
    pairs = []
    for line in lines:
        match = _EXAMPLE.match(line)
        if not match:
            continue
        quoted, translation = match["en"], match["de"]
        translation = first_german(translation, quoted)
        english, german = (translation, quoted) if reverse else (quoted, translation)
        pair = Pair(clean(english), clean(german), "example")
        if pair.en and pair.de:
            pairs.append(pair)
        else:
            dropped["example empty after cleaning"] += 1
    return pairs


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
    if any(side.count("(") != side.count(")") or _BRACKETS.search(side) for side in (pair.en, pair.de)):
        return "annotation residue"  # an annotation cleaning could not take out whole ("Klammer(")
    return None


def read_dictd(index_path: Path, dict_path: Path, reverse: bool = False) -> tuple[list[Pair], Counter]:
    """All pairs of a dictd database, deduplicated, with counts of each kind and of the drops (`reverse`: a
    German-headword dictionary, see parse_entry)."""
    seen_pairs: set[tuple[str, str]] = set()
    pairs: list[Pair] = []
    counts: Counter = Counter()
    for entry in dictd_entries(index_path, dict_path):
        entry_pairs, dropped = parse_entry(entry, reverse)
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


def dictd_entries(index_path: Path, dict_path: Path) -> Iterator[str]:
    """Each entry of a dictd database once (the index names an entry under each of its headwords), without the
    database's own "00-database" entries."""
    data = dict_path.read_bytes()
    if dict_path.suffix == ".dz":
        data = gzip.decompress(data)
    seen_offsets: set[int] = set()
    for line in index_path.read_text(encoding="utf-8").splitlines():
        headword, offset_b64, length_b64 = line.split("\t")[:3]
        offset = decode_b64_number(offset_b64)
        if headword.startswith("00-database") or headword == "" or offset in seen_offsets:
            continue
        seen_offsets.add(offset)
        yield data[offset : offset + decode_b64_number(length_b64)].decode("utf-8")


def read_noun_genders(index_path: Path, dict_path: Path) -> dict[str, str]:
    """The genders of a German-headword dictd database's nouns (dict-freedict-deu-eng): each one-word noun whose
    singular entries all name the same gender ("Gitarre /ɡiːtˈarə/ <fem, n, sg>": "f"), "p" after it where an entry
    reads the same word as a plural ("Lehrer": "mp"); "p" alone for a plural that is no singular ("Kollegen"). A noun
    of two genders ("Band", "See") has none."""
    genders: defaultdict[str, set[str]] = defaultdict(set)
    plurals: set[str] = set()
    for entry in dictd_entries(index_path, dict_path):
        headword = entry.split("\n", 1)[0]
        if singular := _SINGULAR_NOUN.fullmatch(headword):
            genders[singular["noun"]].update(gender[0] for gender in singular["genders"].split(", "))
        elif plural := _PLURAL_NOUN.fullmatch(headword):
            plurals.add(plural["noun"])
    singular = {noun: min(found) + ("p" if noun in plurals else "") for noun, found in genders.items()
                if len(found) == 1}
    return {**dict.fromkeys(plurals - genders.keys(), "p"), **singular}


def read_verbs(index_path: Path, dict_path: Path) -> set[str]:
    """The infinitives of a German-headword dictd database's one-word verbs (dict-freedict-deu-eng: "lesen",
    "sammeln", "tun")."""
    return {verb["verb"] for entry in dictd_entries(index_path, dict_path) if (verb := _VERB.match(entry))}


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


def fold_reverse(splits: dict[str, list[Pair]], reverse_pairs: list[Pair]) -> Counter:
    """Add to train the reverse dictionary's pairs that it lacks. A pair whose English side is held out, or
    hashes to a held-out split, is dropped, so that valid and test stay those of eng-deu alone."""
    held_out = {p.en.lower() for name in SPLITS if name != "train" for p in splits[name]}
    train_english = {p.en.lower() for p in splits["train"]}
    present = {(p.en, p.de) for p in splits["train"]}
    counts: Counter = Counter()
    for pair in reverse_pairs:
        english = pair.en.lower()
        if english in held_out or split_of(pair.en) != "train":
            counts["deu-eng: dropped: held-out English"] += 1
        elif (pair.en, pair.de) in present:
            counts["deu-eng: duplicate of eng-deu"] += 1
        else:
            counts[f"deu-eng: kept {'another German rendering' if english in train_english else 'new English'}"] += 1
            splits["train"].append(pair)
            present.add((pair.en, pair.de))
    return counts


def write_tsv(path: Path, pairs: list[Pair]) -> None:
    with path.open("w", encoding="utf-8") as out:
        for pair in pairs:
            out.write(f"{pair.en}\t{pair.de}\t{pair.kind}\n")


def read_tsv(path: Path) -> list[Pair]:
    with Path(path).open(encoding="utf-8") as lines:
        return [Pair(*line.rstrip("\n").split("\t")) for line in lines]


def locate_dictd(source: Path, name: str = DICT_NAME) -> tuple[Path, Path]:
    """The .index and .dict(.dz) files inside a directory."""
    index = next(source.rglob(f"*{name}.index"), None) or next(source.rglob("*.index"), None)
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


def fetch_deb(directory: Path, package: str = PACKAGE, instead: str | None = None) -> Path:
    """Download the Debian package with apt-get into directory (instead: what the error says to pass otherwise)."""
    flag = "--source" if package == PACKAGE else "--reverse-source"
    try:
        apt_get(["apt-get", "download", package], cwd=directory)
    except RuntimeError as error:
        raise RuntimeError(f"{error}; {instead or f'pass {flag} with a path to the {package} .deb or dictd files'}") \
            from None
    return next(directory.glob(f"{package}_*.deb"))


def extract_deb(deb: Path, directory: Path) -> Path:
    subprocess.run(["dpkg-deb", "-x", str(deb), str(directory)], check=True)
    return directory


def fetch_word_list(directory: Path) -> tuple[Path, Path]:
    """Debian's wamerican (SCOWL's American English word list, permissive license) downloaded into directory: the
    list (one word per line, proper nouns capitalized) and its copyright file, which must go with what is made of it."""
    deb = fetch_deb(directory, WORD_LIST_PACKAGE, "pass --proper-nouns with a word list, one word per line")
    extracted = extract_deb(deb, directory / "extracted")
    return (extracted / "usr" / "share" / "dict" / "american-english",
            extracted / "usr" / "share" / "doc" / WORD_LIST_PACKAGE / "copyright")


def build_corpus(out_dir: Path, source: Path | None = None, reverse_source: Path | None = None) -> dict:
    """Fetch (or take) the dictionaries, parse, split, write TSVs and stats.json; return the stats. Without
    `source` both packages are downloaded; with it, the reverse dictionary is read only from `reverse_source`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        tmp_dir = Path(tmp)
        reverse = source is None or reverse_source is not None
        source, pairs, counts = _read_package(PACKAGE, source, tmp_dir / "eng-deu")
        splits = split_pairs(pairs)
        if reverse:
            reverse_source, reverse_pairs, read = _read_package(REVERSE_PACKAGE, reverse_source, tmp_dir / "deu-eng")
            counts.update({f"deu-eng: {reason.replace('kept', 'read')}": n for reason, n in read.items()})
            counts.update(fold_reverse(splits, reverse_pairs))
    for name, split in splits.items():
        write_tsv(out_dir / f"{name}.tsv", split)
    stats = {
        "name": "Ding dictionary examples",
        "source": str(source),
        "reverse_source": str(reverse_source) if reverse else None,
        "counts": dict(sorted(counts.items())),
        "splits": {name: dict(Counter(p.kind for p in split)) | {"total": len(split)} for name, split in splits.items()},
    }
    (out_dir / "stats.json").write_text(json.dumps(stats, indent=2, ensure_ascii=False) + "\n")
    return stats


def _read_package(package: str, source: Path | None, work_dir: Path) -> tuple[Path, list[Pair], Counter]:
    """(where it was read, its pairs, counts) of one dictionary package: downloaded when source is None."""
    source, index, dictionary = dictd_files(package, source, work_dir)
    return source, *read_dictd(index, dictionary, reverse=package == REVERSE_PACKAGE)


def dictd_files(package: str, source: Path | None, work_dir: Path, instead: str | None = None
                ) -> tuple[Path, Path, Path]:
    """(where it was read, its .index, its .dict or .dict.dz) of one dictionary package: in source (a .deb or a
    directory), else downloaded (instead: what the error says to pass otherwise)."""
    work_dir.mkdir(parents=True)
    if source is None:
        source = fetch_deb(work_dir, package, instead)
    if source.is_file() and source.suffix == ".deb":
        source = extract_deb(source, work_dir / "deb")
    return source, *locate_dictd(source, DICT_NAME if package == PACKAGE else REVERSE_DICT_NAME)
