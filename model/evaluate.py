"""Test-set BLEU/chrF (sacreBLEU) of a checkpoint and of a word-by-word dictionary baseline."""

from __future__ import annotations

import json
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


def scores(hypotheses: list[str], references: list[str], digits: int = 2) -> dict:
    return {
        "bleu": round(sacrebleu.corpus_bleu(hypotheses, [references]).score, digits),
        "chrf": round(sacrebleu.corpus_chrf(hypotheses, [references]).score, digits),
    }


def source_name(data_dir: Path) -> str:
    """What a corpus directory holds, for report tables: its stats.json `name`, else the directory's name."""
    stats = Path(data_dir) / "stats.json"
    return (json.loads(stats.read_text()).get("name") if stats.exists() else None) or Path(data_dir).name


def evaluate(checkpoint: Path, data_dirs: list[Path], limit: int | None = None, beam_size: int = 4,
             repeat_period: int = 0) -> dict:
    """Scores of the model (greedy, and beam search with beam_size > 1) and of the dictionary baseline (built
    from the first corpus's train split) on each corpus's test.tsv, plus sample translations; repeat_period > 0
    suppresses repeats as the service does (model.greedy)."""
    from model.checkpoint import load_checkpoint
    from model.train import translate
    from model.transformer import num_parameters

    model, tokenizer = load_checkpoint(checkpoint)
    baseline = DictionaryBaseline(read_tsv(data_dirs[0] / "train.tsv"))
    report = {"parameters": num_parameters(model), "beam_size": beam_size if beam_size > 1 else 0,
              "repeat_period": repeat_period, "sources": {}}
    for data_dir in data_dirs:
        test = read_tsv(data_dir / "test.tsv")[:limit]
        sources, references = [p.en for p in test], [p.de for p in test]
        started = time.monotonic()
        name = source_name(data_dir)
        hypotheses = translate(model, tokenizer, sources, progress=f"{name}: greedy", repeat_period=repeat_period)
        seconds = time.monotonic() - started
        baseline_hypotheses = [baseline.translate(s) for s in sources]
        beam = {}
        if beam_size > 1:
            started = time.monotonic()
            beam_hypotheses = translate(model, tokenizer, sources, beam_size=beam_size,
                                        progress=f"{name}: beam {beam_size}", repeat_period=repeat_period)
            beam = {"beam": scores(beam_hypotheses, references) | {"seconds": round(time.monotonic() - started, 1)}}
        report["sources"][name] = {
            "test_pairs": len(test),
            "model": scores(hypotheses, references) | {"seconds": round(seconds, 1)}, **beam,
            "dictionary_baseline": scores(baseline_hypotheses, references),
            "examples": [{"source": s, "reference": r, "model": h, "baseline": b}
                         for s, r, h, b in list(zip(sources, references, hypotheses, baseline_hypotheses))[:10]],
        }
    return report


def format_table(report: dict) -> str:
    beam = report.get("beam_size", 0)
    beam_header = f"{f'beam{beam} BLEU':>12}{f'beam{beam} chrF':>12}" if beam else ""
    lines = [f"{'test split':<40}{'pairs':>7}{'BLEU':>8}{'chrF':>8}{beam_header}{'dict BLEU':>11}{'dict chrF':>11}"]
    for name, result in report["sources"].items():
        model, baseline = result["model"], result["dictionary_baseline"]
        beam_cells = f"{result['beam']['bleu']:>12}{result['beam']['chrf']:>12}" if "beam" in result else ""
        lines.append(f"{name:<40}{result['test_pairs']:>7}{model['bleu']:>8}{model['chrf']:>8}{beam_cells}"
                     f"{baseline['bleu']:>11}{baseline['chrf']:>11}")
    return "\n".join(lines)
