"""``translator bench inputs``: how translations fare on text written otherwise than the model's training text,
translated in-process through the server's text pipeline. Sentences come from a held-out TSV split (the dictionary's
test split by default) and software messages (the held-out software split, else the German catalogs installed here).

- **Escaped.** The split's sentences with a character a web page escapes (& < > " ', by html.escape), escaped and
  translated as HTML. Reported: the share whose translation, unescaped, equals the plain sentence's, and chrF of
  both against the references.
- **Numbers.** Sentences and single-line messages with a number (translator.text.NUMBER). Reported: the share whose
  translation has the source's numbers, those grouped in thousands and quantities as German writes them (8,000 as
  8.000, 2.5 GB as 2,5 GB: translator.text.numbers_in_german), the same share for the references, and chrF.
- **Clauses.** Sentences and single-line messages with a mark between clauses (translator.text.CLAUSE_SEPARATORS:
  ; — | and others) before whitespace. Reported: chrF.
- **Quotations.** Sentences and single-line messages with a quotation (translator.text.QUOTED: curly marks, ASCII
  single quotes, or GNU's `quotes'). Reported: the share whose translation has as many quotations (in any of those
  marks, „…“ included, or in »…«, as the pipeline writes curly ones) as the source, and chrF.
- **Capitals.** The split's sentences of two words or more and messages of letters and punctuation only, in capitals.
  Reported: chrF against the references in capitals, beside the sentences as written translated and capitalized
  (what reading them as words can reach)."""

from __future__ import annotations

import html
import random
import re
from collections import Counter

from bench.common import share
from translator.text import CLAUSE_SEPARATORS, NUMBER, QUOTED, numbers_in_german

GERMAN_QUOTED = re.compile(r"»[^»«\n]{1,200}?«")  # translator.text.german_quotation_marks' (QUOTED reads «…» only)

CLAUSE_MARK = re.compile(f"[{''.join(sorted(CLAUSE_SEPARATORS))}]\\s")


def sample(pairs: list[tuple[str, str]], limit: int, seed: int = 0) -> list[tuple[str, str]]:
    """Up to `limit` of the pairs, distinct English, sampled reproducibly."""
    unique = sorted(dict(pairs).items())
    return random.Random(seed).sample(unique, min(limit, len(unique)))


def cases(split_pairs: list[tuple[str, str]], messages: list[tuple[str, str]], limit: int) -> dict:
    """The sentences of each measurement, from the split's and the messages' (English, German) pairs."""
    single = [(e, g) for e, g in messages if "\n" not in e and "\n" not in g and 10 <= len(e) <= 200]
    return {
        "escaped": sample([(e, g) for e, g in split_pairs if html.escape(e) != e], limit),
        "numbers": sample([(e, g) for e, g in split_pairs + single if re.search(NUMBER, e) and re.search("[a-z]{3}", e)],
                          limit),
        "clauses": sample([(e, g) for e, g in split_pairs + single if CLAUSE_MARK.search(e)], limit),
        "quotations": sample([(e, g) for e, g in split_pairs + single if QUOTED.search(e)], limit),
        "capitals": sample([(e, g) for e, g in split_pairs if len(e.split()) >= 2], limit // 2)
        + sample([(e, g) for e, g in single if re.fullmatch(r"[A-Za-z ,.:!?'-]+", e)], limit // 2),
    }


def run(translator, chosen: dict) -> dict:
    import sacrebleu

    def chrf(texts: list[str], references: list[str]) -> float:
        return round(sacrebleu.corpus_chrf(texts, [references]).score, 2)

    results: dict = {}
    if pairs := chosen["escaped"]:
        english, german = zip(*pairs)
        plain = translator.translate(list(english))
        escaped = [html.unescape(t) for t in translator.translate([html.escape(e) for e in english], html=True)]
        results["escaped"] = {"sentences": len(pairs), "as_plain": share(e == p for e, p in zip(escaped, plain)),
                              "chrf": chrf(escaped, list(german)), "plain_chrf": chrf(plain, list(german))}
    if pairs := chosen["numbers"]:
        english, german = zip(*pairs)
        translated = translator.translate(list(english))
        expected = [Counter(numbers_in_german(e)) for e in english]
        results["numbers"] = {"sentences": len(pairs), "chrf": chrf(translated, list(german)),
                              "numbers_kept": share(_numbers(t) == n for n, t in zip(expected, translated)),
                              "numbers_kept_by_references": share(_numbers(g) == n for n, g in zip(expected, german))}
    if pairs := chosen["clauses"]:
        english, german = zip(*pairs)
        results["clauses"] = {"sentences": len(pairs), "chrf": chrf(translator.translate(list(english)), list(german))}
    if pairs := chosen["quotations"]:
        english, german = zip(*pairs)
        translated = translator.translate(list(english))
        results["quotations"] = {"sentences": len(pairs), "chrf": chrf(translated, list(german)), "kept": share(
            len(QUOTED.findall(t)) + len(GERMAN_QUOTED.findall(t)) == len(QUOTED.findall(e))
            for e, t in zip(english, translated))}
    if pairs := chosen["capitals"]:
        english, german = zip(*pairs)
        references = [g.upper() for g in german]
        capitals = translator.translate([e.upper() for e in english])
        as_written = [t.upper() for t in translator.translate(list(english))]
        results["capitals"] = {"sentences": len(pairs), "chrf": chrf(capitals, references),
                               "as_written_chrf": chrf(as_written, references),
                               "examples": [{"source": e.upper(), "translation": t}
                                            for e, t in list(zip(english, capitals))[:5]]}
    return results


def _numbers(text: str) -> Counter:
    return Counter(re.findall(NUMBER, text))


def report(results: dict) -> str:
    lines = []
    if escaped := results.get("escaped"):
        lines.append(f"escaped: {escaped['sentences']} sentences with & < > \" ' escaped as a web page does, "
                     f"translated as HTML: unescaped, the plain sentence's translation {100 * escaped['as_plain']:.1f}%;"
                     f" chrF {escaped['chrf']:.2f} (plain {escaped['plain_chrf']:.2f})")
    if numbers := results.get("numbers"):
        lines.append(f"numbers: {numbers['sentences']} sentences and messages with a number: the source's numbers in "
                     f"the translation {100 * numbers['numbers_kept']:.1f}% (in the references "
                     f"{100 * numbers['numbers_kept_by_references']:.1f}%); chrF {numbers['chrf']:.2f}")
    if clauses := results.get("clauses"):
        lines.append(f"clauses: {clauses['sentences']} sentences and messages with ; — | or another mark between "
                     f"clauses: chrF {clauses['chrf']:.2f}")
    if quotations := results.get("quotations"):
        lines.append(f"quotations: {quotations['sentences']} sentences and messages with a quotation: as many in the "
                     f"translation {100 * quotations['kept']:.1f}%; chrF {quotations['chrf']:.2f}")
    if capitals := results.get("capitals"):
        lines.append(f"capitals: {capitals['sentences']} sentences and messages in capitals: chrF "
                     f"{capitals['chrf']:.2f} against the references in capitals (the sentences as written, "
                     f"translated and capitalized: {capitals['as_written_chrf']:.2f})")
        lines += [f"  {e['source']}  =>  {e['translation']}" for e in capitals["examples"]]
    return "\n".join(lines)
