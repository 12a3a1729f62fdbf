"""Test-set BLEU/chrF (sacreBLEU) of a checkpoint and of a word-by-word dictionary baseline."""

from __future__ import annotations

import re
import time
from collections import Counter, defaultdict
from pathlib import Path

import sacrebleu

from model.data import Pair, read_tsv

_WORD = re.compile(r"\w+(?:[-']\w+)*|[^\w\s]")


class DictionaryBaseline:
    """Translate word by word with the most frequent single-word translation seen in train; copy unknown words."""

    def __init__(self, train_pairs: list[Pair]):
        options: dict[str, Counter] = defaultdict(Counter)
        for pair in train_pairs:
            if " " not in pair.en and " " not in pair.de:
                options[pair.en.lower()][pair.de] += 1
        self.lexicon = {word: counts.most_common(1)[0][0] for word, counts in options.items()}

    def translate(self, text: str) -> str:
        words = [self.lexicon.get(token.lower(), token) for token in _WORD.findall(text)]
        return re.sub(r" ([^\w\s])", r"\1", " ".join(words))


def scores(hypotheses: list[str], references: list[str]) -> dict:
    return {
        "bleu": round(sacrebleu.corpus_bleu(hypotheses, [references]).score, 2),
        "chrf": round(sacrebleu.corpus_chrf(hypotheses, [references]).score, 2),
    }


def evaluate(checkpoint: Path, data_dir: Path, limit: int | None = None) -> dict:
    """Scores of the model and the baseline on data_dir/test.tsv, plus sample translations."""
    from model.checkpoint import load_checkpoint
    from model.train import translate

    test = read_tsv(data_dir / "test.tsv")[:limit]
    sources, references = [p.en for p in test], [p.de for p in test]
    model, tokenizer = load_checkpoint(checkpoint)
    started = time.monotonic()
    hypotheses = translate(model, tokenizer, sources)
    seconds = time.monotonic() - started
    baseline = DictionaryBaseline(read_tsv(data_dir / "train.tsv"))
    baseline_hypotheses = [baseline.translate(s) for s in sources]
    from model.transformer import num_parameters

    return {
        "test_pairs": len(test),
        "parameters": num_parameters(model),
        "model": scores(hypotheses, references) | {"seconds": round(seconds, 1)},
        "dictionary_baseline": scores(baseline_hypotheses, references),
        "examples": [
            {"source": s, "reference": r, "model": h, "baseline": b}
            for s, r, h, b in list(zip(sources, references, hypotheses, baseline_hypotheses))[:10]
        ],
    }


def format_table(report: dict) -> str:
    rows = [("system", "BLEU", "chrF"), ("model (greedy)", report["model"]["bleu"], report["model"]["chrf"]),
            ("dictionary baseline", report["dictionary_baseline"]["bleu"], report["dictionary_baseline"]["chrf"])]
    lines = [f"{name:<22}{bleu:>8}{chrf:>8}" for name, bleu, chrf in rows]
    return f"test split: {report['test_pairs']} pairs\n" + "\n".join(lines)
