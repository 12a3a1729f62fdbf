"""``translator bench placeholders``: how placeholders fare on real software messages the model was not
trained on: the held-out software test split (`translator data gettext` writes it as test.unmasked.tsv: whole
packages the model never saw), or the German gettext catalogs installed on this machine
(/usr/share/locale/de/LC_MESSAGES/*.mo). Only messages with format placeholders, tags, URLs, e-mail
addresses or code spans count.

Reported: the share of messages whose every protected item (and every character outside the model's
vocabulary) appears in the translation exactly as often as in the source (the pipeline's guarantee), the share
the model carried without any repair, the share whose tags are all there and nested as in the source (an
element's tags may move with its words), the share whose words were lost
(a message with text besides its protected items translated into nothing but them), and chrF against the
messages' own German translations; and the share translated as alone where the messages come five at a time as the
lines of one text (a message's placeholder tokens must not depend on the items before it)."""

from __future__ import annotations

import random
import struct
from collections import Counter
from pathlib import Path

from model.catalogs import read_mo
from model.data import read_tsv
from bench.tags import nested_as
from service.decoding import DecodingOptions
from translator.text import LETTER, protected_spans

CATALOGS = Path("/usr/share/locale/de/LC_MESSAGES")


def messages(source: Path = CATALOGS, limit: int = 500, seed: int = 0) -> list[tuple[str, str]]:
    """(English, German) pairs of distinct single-line English messages with something to protect (the first German
    translation of each), sampled reproducibly, from a TSV split (English first) or a directory of .mo catalogs."""
    found: dict[str, str] = {}
    for english, german in pairs_of(source):
        if "\n" not in english and 10 <= len(english) <= 200 and protected_spans(english):
            found.setdefault(english, german)
    chosen = random.Random(seed).sample(sorted(found), min(limit, len(found)))
    return [(english, found[english]) for english in chosen]


def pairs_of(source: Path) -> list[tuple[str, str]]:
    """(English, German) of a TSV split (English first) or of a directory of .mo catalogs."""
    return [(p.en, p.de) for p in read_tsv(source)] if source.is_file() else catalog_messages(source)


def catalog_messages(catalogs: Path) -> list[tuple[str, str]]:
    found = []
    for path in sorted(catalogs.glob("*.mo")):
        try:
            found += read_mo(path.read_bytes())
        except (OSError, ValueError, struct.error):
            continue
    return found


def has_words(text: str) -> bool:
    """Whether text has a letter outside its protected items."""
    outside, done = [], 0
    for start, end in protected_spans(text):
        outside.append(text[done:start])
        done = end
    return LETTER.search("".join(outside) + text[done:]) is not None


def run(translator, pairs: list[tuple[str, str]], source: Path, options: DecodingOptions = DecodingOptions()) -> dict:
    import sacrebleu

    texts, references = [english for english, _ in pairs], [german for _, german in pairs]
    segmented = translator.segment(texts, options=options)
    translated = [t.text for t in translator.translate_segmented(segmented, options=options)]
    prepared = segmented.prepared
    unknown = translator.runtime.tokenizer.unknown_spans
    source_spans = [unknown(t) for t in texts]

    def items(text: str, spans: list[tuple[int, int]]) -> Counter:
        """What the pipeline keeps exactly: protected items, and characters outside the model's vocabulary."""
        return Counter(text[start:end] for start, end in protected_spans(text)) + Counter(
            char for start, end in spans for char in text[start:end])

    n = len(texts)
    return {
        "messages": n, "source": str(source),
        "items_exact": sum(items(r, unknown(r)) == items(t, spans) for t, r, spans in zip(texts, translated, source_spans)) / n,
        "with_unknown_characters": sum(bool(spans) for spans in source_spans) / n,
        "carried_without_repair": sum(p.repairs == 0 for p in prepared) / n,
        "tags_nested_as_in_source": sum(nested_as(r, t) for t, r in zip(texts, translated)) / n,
        "words_lost": sum(has_words(t) and not has_words(r) for t, r in zip(texts, translated)) / n,
        "chrf": round(sacrebleu.corpus_chrf(translated, [references]).score, 2),
        "as_alone_in_texts": as_alone_in_texts(translator, translated, texts, options) / n,
        "examples": [{"source": t, "translation": r, "reference": g}
                     for t, r, g in list(zip(texts, translated, references))[:5]],
    }


LINES_PER_TEXT = 5


def as_alone_in_texts(translator, alone: list[str], texts: list[str], options: DecodingOptions) -> int:
    """How many of the single-line texts come back as they did alone where they are the lines of longer texts."""
    starts = range(0, len(texts), LINES_PER_TEXT)
    joined = translator.translate(["\n".join(texts[i:i + LINES_PER_TEXT]) for i in starts], options=options)
    same = 0
    for start, text in zip(starts, joined):
        lines, expected = text.split("\n"), alone[start:start + LINES_PER_TEXT]
        same += sum(a == b for a, b in zip(lines, expected)) if len(lines) == len(expected) else 0  # lines lost: none
    return same


def report(results: dict) -> str:
    return (f"{results['messages']} software messages with placeholders ({results['source']}): "
            f"every protected item (and character outside the vocabulary, in "
            f"{100 * results['with_unknown_characters']:.1f}% of them) kept exactly {100 * results['items_exact']:.1f}%, "
            f"carried by the model without repair {100 * results['carried_without_repair']:.1f}%, "
            f"tags nested as in the source {100 * results['tags_nested_as_in_source']:.1f}%, words lost "
            f"{100 * results['words_lost']:.1f}%, chrF against the messages' German {results['chrf']:.2f}; "
            f"translated as alone where they are the lines of texts of {LINES_PER_TEXT} "
            f"{100 * results['as_alone_in_texts']:.1f}%")
