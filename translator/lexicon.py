"""What the training data says about words: which capitalized English words are names to keep as written and which the
model translates, how English words are spelled, which tells a name in small letters ("dictfmt"), and which words
the German side writes, which tells a German word from a code the model misspelt, and which English words describe,
which tells a comparison from a role ("as cold as", not "as root as"); and, from a German-headword dictionary, each
German noun's gender, which tells the article it takes ("die Gitarre"), and its verbs, which tell a verb's form
from another word ("Ich sucht": "suchen"). Built by `translator data lexicon` from the
training splits and that dictionary; read by the text pipeline (`translator.text.ascii_names`,
`translator.text.package_names`, `translator.text.codes_as_read`, `translator.text.EQUATIVE`,
`translator.agreement.agreeing`, `translator.conjugation.conjugated`). No torch.

    translator/wordlists/
        english_words.txt.gz   every word the English side writes in small letters (`cat`, `windows`), and the
                               capitalized words the German side translates (`Monday`, `German`, `Vietnamese`)
        names.txt.gz           capitalized words the German side keeps as written and the English side never
                               writes in small letters (`Anna`, `Chicago`, `Nginx`), and a word list's proper nouns
                               the training data lacks (`Linda`, `Redis`)
        german_words.txt.gz    the words the German side writes GERMAN_COUNT times or more, in small letters
                               (`liste`, `typ`)
        english_describing.txt.gz
                               the English headwords in small letters a pair translates with one German word in
                               small letters that is no verb's infinitive and that German writes in small letters
                               mostly: adjectives and adverbs (`cold`: `kalt`, `quickly`: `schnell`), not nouns
                               (`root`: `Wurzel`; `user`: `benutzer` in a catalog) nor verbs (`input`: `eingeben`)
        german_genders.txt.gz  German nouns and each one's gender, "m", "f" or "n", "p" after it where the plural
                               is written the same (`Gitarre f`, `Lehrer mp`): Ding's German headwords
                               (dict-freedict-deu-eng), read by `translator.agreement.agreeing`
        german_verbs.txt.gz    German verbs' infinitives (`lesen`, `sammeln`): Ding's German headwords, read by
                               `translator.conjugation.conjugated`
        SCOWL-COPYRIGHT        the word list's copyright and license (Debian's wamerican: SCOWL, permissive)

Derived from the training data (the Ding dictionary, GPL/AGPL; Debian's gettext catalogs, mostly GPL), see
model/default/MODEL_CARD.md, and from SCOWL's American English word list.
"""

from __future__ import annotations

import functools
import gzip
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from itertools import chain
from pathlib import Path

DIRECTORY = Path(__file__).with_name("wordlists")
WORDS_FILE = "english_words.txt.gz"
NAMES_FILE = "names.txt.gz"
GERMAN_FILE = "german_words.txt.gz"
DESCRIBING_FILE = "english_describing.txt.gz"
GENDERS_FILE = "german_genders.txt.gz"
VERBS_FILE = "german_verbs.txt.gz"
PROPER_NOUNS_NOTICE = "SCOWL-COPYRIGHT"
# A capitalized word: one capital and small letters, not inside a word, a hyphenated compound, a contraction, a
# dotted name or a key combination ("Ctrl+S"). Names spelled otherwise are items already (translator.text's NAME:
# "FreeBSD", "VirtualBox"; `names_outside_ascii`: "Zoë").
CAPITALIZED = r"[A-Z][a-z]+"
STARTS_A_WORD = r"(?<![\w'’.+-])"
ENDS_A_WORD = r"(?![\w+-])"
CAPITALIZED_WORD = re.compile(STARTS_A_WORD + CAPITALIZED + ENDS_A_WORD)
SMALL_WORD = re.compile(r"(?<![A-Za-z])[a-z]+(?![A-Za-z])")
# A capitalized word the German side writes as it is in fewer than this share of the pairs holding it is translated:
# "John" (5 of 29 dictionary pairs: "John Doe", "John Bull") and "Canadian" (1 of 15) are, "Paris" (5 of 17) is kept.
KEPT_SHARE = 0.25
# Three letters in this many of the English words or more are spelled like English; a word in small letters the
# lexicon lacks with three letters spelled otherwise is a name more often than not ("dictfmt": "tfm" is in none of the
# words, "ksysgardd": "sga" in one). Of such words between words in small letters in two samples of 9,232 package
# descriptions German keeps 198 of 219 at 8, 135 of 149 at 3, 231 of 262 at 12 (English compounds come in above it:
# "halfspace", "mapmakers").
COMMON_TRIGRAM = 8
# A word the German side writes this often or more is German: "Liste" (65 of the shipped model's dictionary pairs),
# "Kontext" (5); a misspelling of a code the model read in capitals is written once or twice at most ("Pater" 2: the
# model's "PATER" for "PATTERN"), and most never ("GROUPP", "IEEEE").
GERMAN_COUNT = 3
GERMAN_WORD = re.compile(r"[^\W\d_]+")
# A headword in small letters, and a German word in small letters that describes: no verb's infinitive ("kalt",
# "schnell", "ausführlich"; not "eingeben", "wandern", "sammeln")
HEADWORD = re.compile(r"[a-z]+")
DESCRIBING_GERMAN = re.compile(r"[a-zäöüß]+(?<!en)(?<!ern)(?<!eln)")
# Suffixes that give a noun its gender, for nouns the dictionary lacks ("Arbeiterschaft", "Netzwerkverwaltung")
SUFFIX_GENDERS = (("ung", "f"), ("heit", "f"), ("keit", "f"), ("schaft", "f"), ("tion", "f"), ("tät", "f"),
                  ("chen", "np"), ("lein", "np"), ("ismus", "m"))
# Nouns that end words they are no head of: a participle's "-ende" ("der Vorsitzende", "die Reisende")
NO_HEADS = {"Ende", "Ente"}
# Suffixes that tell the gender before a noun the word ends in ("Arbeiterschaft" is no "Schaft"; "Zeitsprung" is a
# "Sprung")
SUFFIXES_BEFORE_HEADS = ("heit", "keit", "schaft", "tion", "tät")
# The shortest last part of a compound a noun's gender is read from ("Datei" in "Konfigurationsdatei", not "Ei" in
# "Polizei"), and the shortest first part ("Kopf" in "Kopfhörer"; not "Ger" in "Gerangel", no "Angel")
MIN_HEAD = 4


@dataclass(frozen=True)
class Lexicon:
    words: frozenset[str]  # English words in small letters, and the capitalized ones German translates
    names: frozenset[str]  # capitalized words German keeps, never English in small letters
    german: frozenset[str] = frozenset()  # words German writes (GERMAN_COUNT), in small letters
    describing: frozenset[str] = frozenset()  # English adjectives and adverbs (DESCRIBING_GERMAN), in small letters
    genders: Mapping[str, str] = field(default_factory=dict, hash=False)  # German nouns: "m", "f", "n", "p" plural
    verbs: frozenset[str] = frozenset()  # German verbs' infinitives
    common_trigrams: frozenset[str] = field(init=False, repr=False, compare=False)  # of the words, `__post_init__`

    def knows(self, word: str) -> bool:
        """Whether the model learned word as English to translate: itself, or in small letters."""
        return word in self.words or word.lower() in self.words

    def is_german(self, word: str) -> bool:
        """Whether the training pairs' German side writes the word (in any case) GERMAN_COUNT times or more."""
        return word.lower() in self.german

    def describes(self, word: str) -> bool:
        """Whether a pair translates the English word alone with a German adjective or adverb ("cold": "kalt");
        not a noun's or a verb's alone ("root": "Wurzel", "input": "eingeben")."""
        return word in self.describing

    def gender(self, noun: str) -> str | None:
        """A German noun's gender: "m", "f" or "n", "p" after it where its plural is written the same, "p" alone for
        a plural. A compound takes the gender of its head, its last part ("Passwort-Manager": "Manager"), or the
        longest noun of MIN_HEAD letters or more it ends in after a word German writes ("Konfigurationsdatei":
        "Konfiguration" and "s", "Datei"), where no suffix of SUFFIXES_BEFORE_HEADS tells it first ("Arbeiterschaft",
        "Mannschaft": "f", not "Schaft"'s); a word the dictionary lacks that ends in a suffix of SUFFIX_GENDERS has its
        gender. None for any other word ("Firewall": "Fire" is no German word), and for a noun whose head says
        otherwise than the dictionary ("Wunschliste" is no "m")."""
        listed = self.genders.get(noun)
        suffixed = next((gender for suffix, gender in SUFFIX_GENDERS if noun.endswith(suffix)
                         and len(noun) > len(suffix) + 2), None)
        # what such a suffix tells comes before the noun it ends in ("Mannschaft" is no "Schaft")
        head = suffixed if suffixed and noun.endswith(SUFFIXES_BEFORE_HEADS) else self._head_gender(noun)
        if listed is None:
            return head or suffixed
        return listed if head is None or head[0] == listed[0] else None

    def head(self, noun: str) -> str | None:
        """The listed noun a noun is declined as: itself where the dictionary lists it, else its head (`_head`):
        "Schneesturm": "Sturm", "VNC-Client": "Client"; None for a noun of neither ("Arbeiterschaft")."""
        return noun if noun in self.genders else self._head(noun)

    def _head(self, noun: str) -> str | None:
        """A compound's head: its last part where the dictionary lists it ("Passwort-Manager": "Manager"), else the
        longest listed noun of MIN_HEAD letters or more it ends in after a word German writes ("Konfigurationsdatei":
        "Datei"), none of NO_HEADS."""
        *_, head = noun.rsplit("-", 1)
        if head != noun:
            return head if head in self.genders else None
        return next((head for start in range(MIN_HEAD, len(noun) - MIN_HEAD + 1)
                     if (head := noun[start].upper() + noun[start + 1:]) in self.genders and head not in NO_HEADS
                     and self._a_first_part(noun[:start])), None)

    def _head_gender(self, noun: str) -> str | None:
        if (head := self._head(noun)) is None:
            return None
        # a last part after a hyphen is read as the word alone ("I2C-Werkzeuge": "Werkzeuge", which its "Zeuge" doubts)
        return self.gender(head) if "-" in noun else self.genders[head]

    def _a_first_part(self, word: str) -> bool:
        """Whether a compound's first part is a word German writes, with or without a linking "s", "n", "en" or "e"."""
        return any(self.is_german(word[:len(word) - len(link)]) for link in ("", "s", "n", "en", "e")
                   if word.endswith(link))

    def spelled_like_english(self, word: str) -> bool:
        """Whether each three letters of a word in small letters, its start and its end counted as letters, are in
        COMMON_TRIGRAM of the words in small letters or more."""
        return _trigrams_of(word) <= self.common_trigrams

    def __post_init__(self) -> None:  # counted with the words (0.3 s), not by the first text that asks
        counts = Counter(chain.from_iterable(_trigrams_of(word) for word in self.words if word.islower()))
        object.__setattr__(self, "common_trigrams",
                           frozenset(trigram for trigram, count in counts.items() if count >= COMMON_TRIGRAM))


def _trigrams_of(word: str) -> set[str]:
    marked = f"^{word}$"
    return {marked[k:k + 3] for k in range(len(marked) - 2)}


def build(pairs: Iterable[tuple[str, str]], proper_nouns: Iterable[str] = (), genders: Mapping[str, str] = {},
          verbs: Iterable[str] = ()) -> Lexicon:
    """The lexicon of (English, German) training pairs. A capitalized word is translated where a pair of it alone
    (a dictionary headword) has another German side ("Monday": "Montag"; "Vietnamese": "vietnamesisch" as well as
    "Vietnamese") or where German writes it in fewer than KEPT_SHARE of its pairs ("Windows" is also "windows").
    The capitalized proper_nouns (a word list's: "Linda", "Redis") that the pairs do not know are names too. A
    headword in small letters describes where a pair of it alone has a DESCRIBING_GERMAN side ("cold": "kalt")
    that the German side writes in small letters mostly (not a noun's: "user": "benutzer" in a catalog). The
    nouns' genders and the verbs are a German-headword dictionary's (`model.data.read_noun_genders`,
    `model.data.read_verbs`)."""
    small: set[str] = set()
    headwords_described: list[tuple[str, str]] = []  # (English, German) of each pair that may describe
    pairs_with, kept_in, german_counts, german_small = Counter(), Counter(), Counter(), Counter()
    headword_translations: defaultdict[str, set[str]] = defaultdict(set)
    for english, german in pairs:
        small.update(SMALL_WORD.findall(english))
        german_words = GERMAN_WORD.findall(german)
        german_counts.update(word.lower() for word in german_words)
        german_small.update(word for word in german_words if word[0].islower())
        if re.fullmatch(CAPITALIZED, english):
            headword_translations[english].add(german)
        elif HEADWORD.fullmatch(english) and DESCRIBING_GERMAN.fullmatch(german):
            headwords_described.append((english, german))
        for word in set(CAPITALIZED_WORD.findall(english)):
            pairs_with[word] += 1
            kept_in[word] += re.search(rf"(?<![^\W\d_]){word}", german) is not None  # "Andys Hobby" keeps "Andy"
    translated = {word for word, germans in headword_translations.items() if germans != {word}}
    translated |= {word for word, count in pairs_with.items() if kept_in[word] < KEPT_SHARE * count}
    words = frozenset(small | {word for word in translated if word.lower() not in small})
    kept = {word for word in pairs_with if word not in translated and word.lower() not in small}
    unknown = {word for word in proper_nouns if re.fullmatch(CAPITALIZED, word) and word not in pairs_with
               and word.lower() not in small}
    german_words = frozenset(word for word, count in german_counts.items() if count >= GERMAN_COUNT)
    # Not a noun a catalog wrote in small letters ("user": "benutzer"), which German writes capitalized mostly
    describing = {english for english, german in headwords_described
                  if 2 * german_small[german] > german_counts[german]}
    return Lexicon(words=words, names=frozenset(kept | unknown), german=german_words, describing=frozenset(describing),
                   genders=dict(genders), verbs=frozenset(verbs))


def write(lexicon: Lexicon, directory: Path = DIRECTORY) -> list[Path]:
    """The lexicon's six files, one word per line (a noun and its gender), sorted (gzip without a timestamp: a rebuild
    of the same data is the same bytes)."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, words in ((WORDS_FILE, lexicon.words), (NAMES_FILE, lexicon.names), (GERMAN_FILE, lexicon.german),
                        (DESCRIBING_FILE, lexicon.describing),
                        (GENDERS_FILE, [f"{noun} {gender}" for noun, gender in lexicon.genders.items()]),
                        (VERBS_FILE, lexicon.verbs)):
        path = directory / name
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as out:
            out.write("".join(f"{word}\n" for word in sorted(words)).encode())
        written.append(path)
    return written


@functools.cache
def load(directory: Path = DIRECTORY) -> Lexicon:
    """The lexicon a directory holds (by default, the one shipped with the package), read once per process."""
    words, names, german, describing = (frozenset(_lines(directory / name))
                                        for name in (WORDS_FILE, NAMES_FILE, GERMAN_FILE, DESCRIBING_FILE))
    genders = dict(line.split(" ") for line in _lines(directory / GENDERS_FILE))
    return Lexicon(words=words, names=names, german=german, describing=describing, genders=genders,
                   verbs=frozenset(_lines(directory / VERBS_FILE)))


def _lines(path: Path) -> list[str]:
    return gzip.decompress(path.read_bytes()).decode().splitlines()
