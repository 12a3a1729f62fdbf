"""MODEL_CARD.md for a trained checkpoint, from its config, training log, corpus stats and evaluation."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from model.transformer import TransformerConfig
from translator.model_format import SERVING_FILE, segment_tokens

CARD_FILE = "MODEL_CARD.md"


def training_summary(checkpoint: Path) -> dict:
    """The run's numbers. The checkpoint is the entry with the best validation chrF, unless an entry says it was
    selected otherwise (`selected_by`: why, e.g. a score on the full validation sets)."""
    log = [json.loads(line) for line in (checkpoint / "train_log.jsonl").read_text().splitlines() if line.strip()]
    best = next((e for e in reversed(log) if e.get("selected_by")), None) or max(log, key=lambda entry: entry["valid_chrf"])
    last = log[-1]
    return {"steps": last["step"], "epochs": last["epoch"], "minutes": last["seconds"] / 60, "tokens": last["tokens"],
            "tokens_per_second": last["tokens"] / last["seconds"], "best_step": best["step"],
            "best_valid_chrf": best["valid_chrf"], "best_valid_loss": best["valid_loss"],
            "averaged": best.get("averaged"), "selected_by": best.get("selected_by"),
            "hardware": last.get("hardware", "2 CPU cores shared with other work"),  # logs before it was recorded
            "curve": [(e["step"], e["valid_chrf"]) for e in log if "averaged" not in e]}


def license_families(licenses: dict[str, int]) -> list[tuple[str, int]]:
    """Packages per license name (a package naming several counts under each)."""
    counts: Counter = Counter()
    for names, packages in licenses.items():
        for name in names.split(" / "):
            counts[name] += packages
    return counts.most_common()


def data_section(corpora: dict[str, dict]) -> str:
    rows = []
    for name, stats in corpora.items():
        for split in ("train", "valid", "test"):
            counts = stats["splits"][split]
            kinds = ", ".join(f"{kind} {n:,}" for kind, n in counts.items() if kind not in ("total", "packages"))
            packages = f" ({counts['packages']:,} packages)" if "packages" in counts else ""
            rows.append(f"| {name} | {split} | {counts['total']:,}{packages} | {kinds} |")
    text = "| corpus | split | pairs | kinds |\n|---|---|---:|---|\n" + "\n".join(rows)
    for stats in corpora.values():
        if "licenses" in stats:
            families = license_families(stats["licenses"])
            shown = ", ".join(f"{name} {n}" for name, n in families[:12])
            text += (f"\n\nSoftware messages: {stats['source']}. Their licenses (packages naming each; a package may "
                     f"name several; the full list is in the corpus's stats.json): {shown}, and {len(families) - 12} "
                     "more. Most are copyleft (GPL, LGPL, GFDL): treat the weights as derived from GPL-licensed "
                     "material.")
    return text


def reverse_summary(corpora: dict[str, dict]) -> str:
    counts = next((stats["counts"] for stats in corpora.values() if stats.get("reverse_source")), None)
    if counts is None:
        return "not in the corpus this model was evaluated with"
    return (f"{counts.get('deu-eng: kept new English', 0):,} with a new English side, "
            f"{counts.get('deu-eng: kept another German rendering', 0):,} with another German rendering; "
            f"{counts.get('deu-eng: duplicate of eng-deu', 0):,} duplicates and "
            f"{counts.get('deu-eng: dropped: held-out English', 0):,} with held-out English left out")


def serving_section(checkpoint: Path) -> str:
    """The card's word on the checkpoint's serving.json, where it has one."""
    tokens = segment_tokens(checkpoint)
    return (f"## Serving\n\n`{SERVING_FILE}`: a sentence longer than {tokens} source tokens is cut between words into "
            "pieces, translated together\n(the export copies the length into config.json; `translator bench segments` "
            "measures it).\n\n") if tokens else ""


def write_model_card(checkpoint: Path, report: dict, corpora: dict[str, dict], parameters: int, command: str) -> Path:
    cfg = TransformerConfig.load(checkpoint)
    train = training_summary(checkpoint)
    beam = report.get("beam_size", 0)
    beam_cells = lambda r: f" {r['beam']['bleu']} | {r['beam']['chrf']} |" if "beam" in r else ""  # noqa: E731
    scores = "\n".join(f"| {name} | {r['test_pairs']:,} | {r['model']['bleu']} | {r['model']['chrf']} |{beam_cells(r)} "
                       f"{r['dictionary_baseline']['bleu']} | {r['dictionary_baseline']['chrf']} |"
                       for name, r in report["sources"].items())
    beam_header = (f" beam {beam} BLEU | beam {beam} chrF |", "---:|---:|") if beam else ("", "")
    decoded = ("; as served, no third copy in a row of a block of tokens the source lacks"
               if report.get("repeat_period") else "")
    examples = "\n".join(f"| {e['source']} | {e['reference']} | {e['model']} |"
                         for r in report["sources"].values() for e in r["examples"][:6])
    curve = ", ".join(f"{step:,}: {chrf:.1f}" for step, chrf in train["curve"])
    chosen = (f"the average of the weights at {', '.join(train['averaged'])}" if train["averaged"]
              else f"the weights at step {train['best_step']:,}")
    if train["selected_by"]:
        averaged = f" The checkpoint is {chosen}, {train['selected_by']}."
    elif train["averaged"]:
        averaged = f" The checkpoint is {chosen}, which validated better than any single one."
    else:
        averaged = " This checkpoint is that step."
    text = f"""# Model card: en-de (translator default model)

English→German translation model trained by this project. It is small enough to serve fast on 2 CPU
cores: {parameters:,} parameters, a deep encoder ({cfg.encoder_layers} layers) and a shallow decoder
({cfg.decoder_layers} layers) — the decoder runs once per generated token, the encoder once per request.

## Data and license

- Debian's `dict-freedict-eng-deu`: the FreeDict English–German dictionary generated from the Ding
  dictionary (TU Chemnitz), **GNU GPL v3 and GNU AGPL v3**; usage examples and headword entries.
  `translator data freedict` fetches and prepares it; valid/test hold example sentences whose English side
  never occurs in train.
- German gettext catalogs of Debian packages (`usr/share/locale/de/LC_MESSAGES/*.mo`): human translations of
  software messages. `translator data gettext` finds, downloads (bounded), extracts and cleans them; valid and
  test hold whole packages (by a hash of the package name), so the software test set is software the model
  never saw, and held-out messages whose English occurs in a training package are dropped.
  Placeholders and markup are the serving pipeline's placeholder tokens (`XX0X`), so the model learns to carry them.
- Debian's `dict-freedict-deu-eng` (the same Ding source read from the German side, same licenses): its usage
  examples that eng-deu lacks join train only ({reverse_summary(corpora)}); valid and test stay eng-deu's.
  Its headwords' genders (`Gitarre <fem, n, sg>`) and verbs (`lesen <v, trans, intr>`) are the text pipeline's
  (`translator/wordlists/german_genders.txt.gz` and `german_verbs.txt.gz`, `translator data lexicon`): an article of
  the model's German takes its noun's gender (its adjectives the ending they give), a verb after a subject pronoun or
  a singular noun its subject's person.

No corpus is distributed with this repository.

{data_section(corpora)}

## Architecture

Encoder–decoder Transformer: d_model {cfg.d_model}, {cfg.n_heads} heads, FFN {cfg.d_ff} ({cfg.activation}),
{cfg.norm_position}-norm residual blocks, sinusoidal positions ({cfg.position_layout}), embeddings
scaled by √d, one embedding shared by source, target and output projection; SentencePiece unigram
vocabulary of {cfg.vocab_size:,} pieces shared by English and German.

## Training

```
{command}
```

The last run: {train['steps']:,} steps, {train['minutes']:.0f} minutes on {train['hardware']},
{train['tokens'] / 1e6:.1f} M tokens (source + target) at {train['tokens_per_second']:,.0f} tokens/s on average.
The checkpoint's validation chrF {train['best_valid_chrf']:.2f} (greedy, 300 validation sentences interleaved from
the corpora) and loss {train['best_valid_loss']:.3f}, at step {train['best_step']:,}.{averaged}

Validation chrF by step (learning curve): {curve}.

## Evaluation (test splits, sacreBLEU; the service decodes greedily unless a request asks for a beam{decoded})

| test split | pairs | greedy BLEU | greedy chrF |{beam_header[0]} dictionary baseline BLEU | dictionary baseline chrF |
|---|---:|---:|---:|{beam_header[1]}---:|---:|
{scores}

The dictionary baseline translates word by word with the most frequent single-word translation in the
dictionary's train split (unknown words copied).

## Example translations (first six of each test split)

| source | reference | model |
|---|---|---|
{examples}

{serving_section(checkpoint)}## Limitations

Trained on dictionary examples, headwords and software messages: short texts. Long or conversational
sentences, names and rare domains translate poorly; the model does not know about casing conventions
beyond what its data shows. The service keeps names spelled with letters outside ASCII (`Zoë`, `François`) as they
are; a capitalized word in ASCII inside a sentence is no sure name (`Sunday`, `Swiss`, `American` must be translated:
kept, 36 dictionary test sentences scored chrF 41.14 → 37.05), so such a name its data lacks may be dropped or changed.
"""
    path = checkpoint / CARD_FILE
    path.write_text(text)
    return path
