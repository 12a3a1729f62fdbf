"""MODEL_CARD.md for a trained checkpoint, from its config, training log, corpus stats and evaluation."""

from __future__ import annotations

import json
from pathlib import Path

from model.transformer import TransformerConfig

CARD_FILE = "MODEL_CARD.md"


def training_summary(checkpoint: Path) -> dict:
    log = [json.loads(line) for line in (checkpoint / "train_log.jsonl").read_text().splitlines() if line.strip()]
    best = max(log, key=lambda entry: entry["valid_chrf"])
    last = log[-1]
    return {"steps": last["step"], "epochs": last["epoch"], "minutes": last["seconds"] / 60, "tokens": last["tokens"],
            "tokens_per_second": last["tokens"] / last["seconds"], "best_step": best["step"],
            "best_valid_chrf": best["valid_chrf"], "best_valid_loss": best["valid_loss"]}


def write_model_card(checkpoint: Path, report: dict, stats: dict, parameters: int, command: str) -> Path:
    cfg = TransformerConfig.load(checkpoint)
    train = training_summary(checkpoint)
    model, baseline = report["model"], report["dictionary_baseline"]
    splits = stats["splits"]
    examples = "\n".join(f"| {e['source']} | {e['reference']} | {e['model']} |" for e in report["examples"])
    text = f"""# Model card: en-de (translator default model)

English→German translation model trained from scratch by this project. It is small enough to serve
fast on 2 CPU cores: {parameters:,} parameters, a deep encoder ({cfg.encoder_layers} layers) and a
shallow decoder ({cfg.decoder_layers} layers) — the decoder runs once per generated token, the
encoder once per request.

## Data and license

Trained on Debian's `dict-freedict-eng-deu` package: the FreeDict English–German dictionary
generated from the Ding dictionary (TU Chemnitz). **The dictionary is licensed under the GNU GPL v3
and the GNU AGPL v3** (see the package's copyright file); this model is derived from it, so treat the
weights as covered by those licenses. The corpus is not distributed with this repository;
`translator data freedict` fetches and prepares it.

| split | example pairs | headword entries | total |
|---|---:|---:|---:|
| train | {splits['train'].get('example', 0):,} | {splits['train'].get('entry', 0):,} | {splits['train']['total']:,} |
| valid | {splits['valid'].get('example', 0):,} | {splits['valid'].get('entry', 0):,} | {splits['valid']['total']:,} |
| test | {splits['test'].get('example', 0):,} | {splits['test'].get('entry', 0):,} | {splits['test']['total']:,} |

Valid and test hold only example sentences/phrases; their English sides never occur in train (split by
a hash of the English side). How often example pairs repeat per epoch is the `--example-weight` of the
training commands below (headword entries appear once).

## Architecture

Encoder–decoder Transformer: d_model {cfg.d_model}, {cfg.n_heads} heads, FFN {cfg.d_ff} ({cfg.activation}),
{cfg.norm_position}-norm residual blocks, sinusoidal positions ({cfg.position_layout}), embeddings
scaled by √d, one embedding shared by source, target and output projection; SentencePiece unigram
vocabulary of {cfg.vocab_size:,} pieces shared by English and German.

## Training

```
{command}
```

{train['steps']:,} steps ({train['epochs'] + 1} epochs started), {train['minutes']:.0f} minutes on 2 CPU cores,
{train['tokens'] / 1e6:.1f} M tokens (source + target) at {train['tokens_per_second']:,.0f} tokens/s on average
(the machine was shared with other work during training). Best validation chrF {train['best_valid_chrf']:.2f}
at step {train['best_step']:,} (greedy, 300 validation sentences); this checkpoint is that step.

## Evaluation (test split, {report['test_pairs']:,} pairs, sacreBLEU, greedy decoding)

| system | BLEU | chrF |
|---|---:|---:|
| this model | {model['bleu']} | {model['chrf']} |
| word-by-word dictionary baseline (most frequent single-word translation from train) | {baseline['bleu']} | {baseline['chrf']} |

## Example translations (first ten of the test split)

| source | reference | model |
|---|---|---|
{examples}

## Limitations

Trained on dictionary examples and headwords only: short, often fragmentary phrases. Long or
conversational sentences, names and rare domains translate poorly; the model does not know about
casing conventions beyond what the dictionary shows.
"""
    path = checkpoint / CARD_FILE
    path.write_text(text)
    return path
