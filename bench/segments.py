"""``translator bench segments``: which segment length a model translates best, to write into its checkpoint's
serving.json (export.repository.SERVING_FILE; the export copies it into config.json's limits.segment_tokens).

Each held-out split is translated in-process through the server's text pipeline once with the model's whole source
limit, then again with sentences cut between words into pieces of at most N source tokens, for each N asked
(translator.text.split_to_fit). Only texts segmented otherwise at N than at the whole limit can change, so only those
are translated again. Reported per split and N: chrF and BLEU of all pairs and of the pairs the shortest N cuts, how
many texts N cuts and how many translations changed. Choose N on validation splits, confirm on test splits: a
small model may translate pieces better than a whole sentence it drops words from; a large one loses context."""

from __future__ import annotations

from dataclasses import replace

from tqdm import tqdm

from bench.common import format_table, machine
from model.evaluate import scores
from service.decoding import DecodingOptions
from service.texts import Texts


def _chrf_bleu(texts: list[str], references: list[str]) -> dict:
    return scores(texts, references, digits=3) if texts else {"chrf": None, "bleu": None}


def _segmented(translator, texts: list[str], limits) -> Texts:
    """The texts segmented as the server segments them, with these limits."""
    return Texts.segmented(translator.runtime, texts, DecodingOptions(), preserve_placeholders=True, html=False,
                           limits=limits)


def _translated(translator, segmented: Texts) -> list[str]:
    return [t.text for t in translator.translate_segmented(segmented)]


def run(translator, splits: dict[str, list[tuple[str, str]]], lengths: list[int]) -> dict:
    """Rows of (split, segment length) over `splits` ({name: [(English, German)]}); lengths above the model's source
    limit are read as the limit. A text is translated again at a length only where it is segmented otherwise."""
    limits = translator.runtime.limits
    whole = limits.max_source_tokens
    lengths = sorted({min(n, whole) for n in lengths} - {whole}, reverse=True)
    rows = []
    steps = tqdm(total=len(splits) * (len(lengths) + 1), desc="bench segments", unit="translation")
    for name, pairs in splits.items():
        sources, references = [en for en, _ in pairs], [de for _, de in pairs]
        segmented = {length: _segmented(translator, sources, replace(limits, segment_tokens=length))
                     for length in [whole, *lengths]}
        segments = {length: [p.segments for p in texts.prepared] for length, texts in segmented.items()}
        cut = {length: [i for i, pieces in enumerate(segments[length]) if pieces != segments[whole][i]]
               for length in segmented}
        baseline = _translated(translator, segmented[whole])
        steps.update()
        long = cut[lengths[-1]] if lengths else []  # the pairs that some length cuts: the shortest cuts them all
        for length in [whole, *lengths]:
            texts = list(baseline)
            if length != whole:
                again = _segmented(translator, [sources[i] for i in cut[length]], replace(limits, segment_tokens=length))
                for i, text in zip(cut[length], _translated(translator, again)):
                    texts[i] = text
                steps.update()
            rows.append({"split": name, "segment_tokens": length, "pairs": len(pairs), "cut": len(cut[length]),
                         "changed": sum(a != b for a, b in zip(texts, baseline)), "all": _chrf_bleu(texts, references),
                         "long_pairs": len(long),
                         "long": _chrf_bleu([texts[i] for i in long], [references[i] for i in long])})
    steps.close()
    return {"machine": machine(), "model_segment_tokens": limits.segment_tokens, "rows": rows}


def report(results: dict) -> str:
    header = ["split", "segment tokens", "pairs", "cut", "changed", "chrF", "BLEU", "cut pairs", "chrF cut pairs",
              "BLEU cut pairs"]
    table = format_table(header, [[r["split"], r["segment_tokens"], r["pairs"], r["cut"], r["changed"],
                                   r["all"]["chrf"], r["all"]["bleu"], r["long_pairs"], r["long"]["chrf"],
                                   r["long"]["bleu"]] for r in results["rows"]])
    best = {}
    for row in results["rows"]:
        if row["split"] not in best or row["all"]["chrf"] > best[row["split"]]["all"]["chrf"]:
            best[row["split"]] = row
    lines = [f"best chrF on {split}: segment tokens {row['segment_tokens']} ({row['all']['chrf']})"
             for split, row in best.items()]
    notes = ["cut: texts segmented otherwise than at the model's whole limit (only those are translated again); "
             "cut pairs: those the shortest length cuts, scored alone at every length",
             f"this model's config.json segments at {results['model_segment_tokens']}"]
    return "\n".join([table, "", *lines, *notes])
