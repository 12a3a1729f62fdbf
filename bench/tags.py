"""``translator bench tags``: how sentences with inline markup fare, translated in-process through the server's
text pipeline two ways: with each element's tags taken out and put back by alignment (what the service does where
the model has alignments) and with the tags left in the sentence as placeholder tokens (what it did before, and
still does for a model without alignments). Sentences come from a held-out TSV split (English first: the
dictionary's test split by default).

- **Words.** One inline element (<b>, <i>, <em>, <a href>, <span class>) around 1-3 consecutive random words of
  each sentence. Reported: chrF of the translations' words (tags removed) against the references, the share
  whose words equal the untagged sentence's translation (the tags cost nothing), the share keeping every tag
  once and nested as in the source, and the share with an element around no words ("<b></b>").
- **Placement.** <b> around one word whose dictionary translation (an entry of the dictionary's training split:
  one English word, one German word) is exactly one word of the untagged sentence's translation. Reported: the
  share whose <b> wraps exactly that German word. Sentences where no word qualifies are left out."""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from pathlib import Path

from bench.common import share
from model.data import read_tsv
from service.texts import Texts
from translator.markup import TAG, reduced
from translator.text import segment_texts

ELEMENTS = (("<b>", "</b>"), ("<i>", "</i>"), ("<em>", "</em>"), ('<a href="/help">', "</a>"),
            ('<span class="key">', "</span>"))
WAYS = (("taken_out", True, "taken out, put back by alignment"), ("as_tokens", False, "placeholder tokens"))
WORD = re.compile(r"[^\W\d_]+")


def sentences(split: Path, limit: int, seed: int = 0) -> list[tuple[str, str]]:
    """(English, German) of up to `limit` sentences of 4-20 words without markup, sampled reproducibly."""
    pairs = [(p.en, p.de) for p in read_tsv(split) if 4 <= len(p.en.split()) <= 20 and not TAG.search(p.en)]
    return random.Random(seed).sample(pairs, min(limit, len(pairs)))


def dictionary(path: Path) -> dict[str, set[str]]:
    """One-word English entries and their one-word German translations, lower-cased."""
    words: dict[str, set[str]] = defaultdict(set)
    for pair in read_tsv(path):
        if pair.kind == "entry" and WORD.fullmatch(pair.en) and WORD.fullmatch(pair.de):
            words[pair.en.lower()].add(pair.de.lower())
    return words


def run(translator, pairs: list[tuple[str, str]], split: Path, words: dict[str, set[str]] | None = None,
        seed: int = 0) -> dict:
    import sacrebleu

    rng = random.Random(seed)
    references = [german for _, german in pairs]
    untagged = translator.translate([english for english, _ in pairs])
    tagged = [_with_element(english, rng) for english, _ in pairs]
    placements = _placements(pairs, untagged, words) if words else []
    results: dict = {"sentences": len(pairs), "split": str(split), "placement_sentences": len(placements),
                     "untagged_chrf": round(sacrebleu.corpus_chrf(untagged, [references]).score, 2)}
    for way, take_out, _ in WAYS:
        translated = _translated(translator, tagged, take_out)
        bare = [TAG.sub("", text) for text in translated]
        results[way] = {
            "chrf": round(sacrebleu.corpus_chrf(bare, [references]).score, 2),
            "words_as_untagged": share(" ".join(b.split()) == " ".join(u.split()) for b, u in zip(bare, untagged)),
            "tags_kept_and_nested": share(nested_as(t, s) for t, s in zip(translated, tagged)),
            "empty_elements": share(any(o + c in t for o, c in ELEMENTS) for t in translated),
            "examples": [{"source": s, "translation": t} for s, t in list(zip(tagged, translated))[:8]],
        }
        if placements:
            placed = _translated(translator, [source for source, _ in placements], take_out)
            results[way]["placed_on_the_dictionary_word"] = share(
                _wraps(text, word) for text, (_, word) in zip(placed, placements))
    return results


def _with_element(sentence: str, rng: random.Random) -> str:
    words = sentence.split()
    count = rng.randint(1, min(3, len(words)))
    first = rng.randrange(len(words) - count + 1)
    opening, closing = rng.choice(ELEMENTS)
    wrapped = opening + " ".join(words[first:first + count]) + closing
    return " ".join(words[:first] + [wrapped] + words[first + count:])


def _placements(pairs: list[tuple[str, str]], untagged: list[str], words: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(sentence with <b> around one word, the German word it should wrap): the first word of each sentence whose
    dictionary translations match exactly one word of the untagged translation, once."""
    found = []
    for (english, _), translation in zip(pairs, untagged):
        target = WORD.findall(translation)
        counts = Counter(target)
        tokens = english.split()
        for index, token in enumerate(tokens):
            hits = [word for word in target if word.lower() in words.get(token.lower(), ())] if WORD.fullmatch(token) else []
            if len(hits) == 1 and counts[hits[0]] == 1:
                found.append((" ".join(tokens[:index] + [f"<b>{token}</b>"] + tokens[index + 1:]), hits[0]))
                break
    return found


def _wraps(text: str, word: str) -> bool:
    element = re.search(r"<b>(.*?)</b>", text)
    return element is not None and element.group(1) == word


def _translated(translator, texts: list[str], take_out: bool) -> list[str]:
    tokenizer, limits = translator.runtime.tokenizer, translator.runtime.limits
    segmented = Texts(*segment_texts(texts, tokenizer, limits, take_out_tags=take_out))
    return [t.text for t in translator.translate_segmented(segmented)]


def nested_as(translation: str, source: str) -> bool:
    """Whether the translation has the source's tags, each as often, opening and closing elements as the source's
    order does (the order itself may differ: words that swapped places take their tags along)."""
    tags, source_tags = [m.group(0) for m in TAG.finditer(translation)], [m.group(0) for m in TAG.finditer(source)]
    return Counter(tags) == Counter(source_tags) and reduced(tags) == reduced(source_tags)


def report(results: dict) -> str:
    placement = results["placement_sentences"]
    lines = [f"{results['sentences']} held-out sentences with an inline element ({results['split']}); chrF of the "
             f"untagged sentences' translations {results['untagged_chrf']:.2f}; placement measured on {placement}",
             "| tags | chrF of the words | words as untagged | tags kept and nested | empty elements | <b> on the "
             "dictionary word |", "|---|---:|---:|---:|---:|---:|"]
    for way, _, name in WAYS:
        r = results[way]
        placed = f"{100 * r['placed_on_the_dictionary_word']:.1f}%" if placement else "-"
        lines.append(f"| {name} | {r['chrf']:.2f} | {100 * r['words_as_untagged']:.1f}% | "
                     f"{100 * r['tags_kept_and_nested']:.1f}% | {100 * r['empty_elements']:.1f}% | {placed} |")
    lines += ["examples (taken out):"] + [f"  {e['source']}  =>  {e['translation']}"
                                          for e in results["taken_out"]["examples"]]
    return "\n".join(lines)
