"""``translator bench segments``: which segment length a model translates best, to write into its checkpoint's
serving.json (export.repository.SERVING_FILE; the export copies it into config.json's limits.segment_tokens).

Each held-out split is translated in-process through the server's text pipeline once with the model's whole source
limit, then again with sentences cut between words into pieces of at most N source tokens, for each N asked
(translator.text.split_to_fit). Only texts longer than N tokens can change, so only those are translated again.
Reported per split and N: chrF and BLEU of all pairs, of the pairs whose source is longer than the shortest N (the
ones some cut changes), and how many translations changed. Choose N on validation splits, confirm on test splits: a
small model may translate pieces better than a whole sentence it drops words from; a large one loses context."""

from __future__ import annotations

from dataclasses import replace

from tqdm import tqdm

from bench.common import format_table, machine
from service.texts import Texts
from translator.text import segment_texts


def _chrf_bleu(texts: list[str], references: list[str]) -> dict:
    import sacrebleu

    if not texts:
        return {"chrf": None, "bleu": None}
    return {"chrf": round(sacrebleu.corpus_chrf(texts, [references]).score, 3),
            "bleu": round(sacrebleu.corpus_bleu(texts, [references]).score, 3)}


def _translated(translator, texts: list[str], limits) -> list[str]:
    segmented = Texts(*segment_texts(texts, translator.runtime.tokenizer, limits,
                                     take_out_tags=translator.runtime.has_alignments))
    return [t.text for t in translator.translate_segmented(segmented)]


def run(translator, splits: dict[str, list[tuple[str, str]]], lengths: list[int]) -> dict:
    """Rows of (split, segment length) over `splits` ({name: [(English, German)]}); lengths above the model's source
    limit are read as the limit."""
    limits = translator.runtime.limits
    whole = limits.max_source_tokens
    lengths = sorted({min(n, whole) for n in lengths} - {whole}, reverse=True)
    shortest = min(lengths, default=whole)
    rows = []
    steps = tqdm(total=len(splits) * (len(lengths) + 1), desc="bench segments", unit="translation")
    for name, pairs in splits.items():
        sources, references = [en for en, _ in pairs], [de for _, de in pairs]
        tokens = [len(ids) for ids in translator.runtime.tokenizer.encode_batch(sources)]
        long = [i for i, n in enumerate(tokens) if n > shortest]
        baseline = _translated(translator, sources, replace(limits, segment_tokens=whole))
        steps.update()
        for length in [whole, *lengths]:
            texts = list(baseline)
            longer = [i for i, n in enumerate(tokens) if n > length]
            if length != whole:
                for i, text in zip(longer, _translated(translator, [sources[i] for i in longer],
                                                       replace(limits, segment_tokens=length))):
                    texts[i] = text
                steps.update()
            rows.append({"split": name, "segment_tokens": length, "pairs": len(pairs), "longer": len(longer),
                         "changed": sum(a != b for a, b in zip(texts, baseline)), "all": _chrf_bleu(texts, references),
                         "long_pairs": len(long),
                         "long": _chrf_bleu([texts[i] for i in long], [references[i] for i in long])})
    steps.close()
    return {"machine": machine(), "model_segment_tokens": limits.segment_tokens, "shortest": shortest, "rows": rows}


def report(results: dict) -> str:
    header = ["split", "segment tokens", "pairs", "longer", "changed", "chrF", "BLEU",
              f"chrF > {results['shortest']} tok", f"BLEU > {results['shortest']} tok"]
    table = format_table(header, [[r["split"], r["segment_tokens"], r["pairs"], r["longer"], r["changed"],
                                   r["all"]["chrf"], r["all"]["bleu"], r["long"]["chrf"], r["long"]["bleu"]]
                                  for r in results["rows"]])
    best = {}
    for row in results["rows"]:
        if row["split"] not in best or row["all"]["chrf"] > best[row["split"]]["all"]["chrf"]:
            best[row["split"]] = row
    lines = [f"best chrF on {split}: segment tokens {row['segment_tokens']} ({row['all']['chrf']})"
             for split, row in best.items()]
    return "\n".join([table, "", *lines, f"this model's config.json segments at {results['model_segment_tokens']}"])
