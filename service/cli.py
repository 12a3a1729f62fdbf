"""The one command line: ``translator data|train|evaluate|translate|...``.

Each subcommand imports what it needs when it runs, so serving commands never import torch.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CHECKPOINT = ROOT / "model" / "default"
DEFAULT_MODEL_DIR = ROOT / "model_repository" / "en-de" / "1"


def cmd_data_freedict(args) -> int:
    from model.data import build_corpus

    stats = build_corpus(args.out, args.source)
    print(json.dumps(stats, indent=2, ensure_ascii=False))
    print(f"wrote {', '.join(f'{args.out}/{n}.tsv' for n in stats['splits'])} and {args.out}/stats.json")
    return 0


def cmd_train(args) -> int:
    from model.train import TrainOptions, train
    from model.transformer import TransformerConfig

    cfg = TransformerConfig(
        vocab_size=args.vocab_size, d_model=args.d_model, n_heads=args.heads, d_ff=args.d_ff,
        encoder_layers=args.encoder_layers, decoder_layers=args.decoder_layers, dropout=args.dropout,
        activation=args.activation, norm_position=args.norm,
    )
    opts = TrainOptions(
        data_dir=args.data, out_dir=args.out, max_tokens=args.max_tokens, lr=args.lr, warmup_steps=args.warmup,
        validate_every=args.validate_every, patience=args.patience, max_steps=args.max_steps,
        max_minutes=args.max_minutes, seed=args.seed, threads=args.threads,
    )
    state = train(cfg, opts)
    print(f"stopped at step {state['step']} after {state['seconds'] / 60:.1f} min; best valid chrF {state['best_chrf']:.2f}; "
          f"checkpoint in {args.out}")
    return 0


def cmd_evaluate(args) -> int:
    from model.evaluate import evaluate, format_table

    report = evaluate(args.checkpoint, args.data, limit=args.limit)
    print(format_table(report))
    out = args.out or args.checkpoint / "eval.json"
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {out}")
    return 0


def cmd_translate(args) -> int:
    texts = args.text or [line.rstrip("\n") for line in sys.stdin if line.strip()]
    if not texts:
        print("error: give text as arguments or on stdin", file=sys.stderr)
        return 2
    if args.model_dir:
        from service.decoding import Translator

        translator = Translator(args.model_dir, precision=args.precision, device=args.device)
        translations = [r.text for r in translator.translate_batch(texts)]
    else:
        from model.checkpoint import load_checkpoint
        from model.train import translate

        model, tokenizer = load_checkpoint(args.checkpoint)
        translations = translate(model, tokenizer, texts)
    for line in translations:
        print(line)
    return 0


def cmd_export(args) -> int:
    from export.repository import ParityError, export_model

    try:
        report = export_model(args.checkpoint, args.out, args.data, int8=args.int8, fp16=args.fp16,
                              batches=args.batches, sentences=args.sentences)
    except ParityError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(format_parity(report))
    print(f"exported to {args.out}")
    return 0


def cmd_validate(args) -> int:
    from export.repository import REPORT_FILE, validate

    report = validate(args.model_dir, args.checkpoint, args.data, args.batches, args.sentences)
    print(format_parity(report))
    if args.write:
        (args.model_dir / REPORT_FILE).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0 if report["passed"] else 1


def format_parity(report: dict) -> str:
    tensor, sequence = report["tensor"], report["sequence"]
    lines = [f"tensor parity over {tensor['batches']} batches (sizes {tensor['batch_sizes']}):",
             f"  {'output':<18}{'max abs diff':>14}{'max rel diff':>14}"]
    for name, stats in tensor["outputs"].items():
        lines.append(f"  {name:<18}{stats['max_abs']:>14.3e}{stats['max_rel']:>14.3e}")
    worst = tensor["outputs"]["logits"]["worst_input"]
    lines.append(f"  worst logits input: batch {worst.get('batch')} row {worst.get('row')}: {worst.get('source')!r}")
    lines.append(f"sequence parity: {sequence['token_identical']}/{sequence['sentences']} greedy outputs token-identical "
                 f"({100 * sequence['share']:.1f}%)")
    for mismatch in sequence["mismatches"]:
        lines.append(f"  mismatch: {mismatch['source']!r}: pytorch {mismatch['pytorch']!r} vs onnx {mismatch['onnx']!r}")
    if "int8" in report:
        q = report["int8"]
        lines.append(f"int8 vs fp32 on {q['test_pairs']} test pairs: BLEU {q['int8']['bleu']} vs {q['fp32']['bleu']} "
                     f"(drop {q['bleu_drop']}), chrF {q['int8']['chrf']} vs {q['fp32']['chrf']} (drop {q['chrf_drop']})")
    if "fp16" in report:
        lines.append(f"fp16: {report['fp16']}")
    lines.append("PASSED" if report["passed"] else "FAILED: " + "; ".join(report["failures"]))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="translator", description="English→German translation: data, training, export, serving.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    data = commands.add_parser("data", help="prepare training data").add_subparsers(dest="source_kind", required=True, metavar="SOURCE")
    freedict = data.add_parser("freedict", help="parse and split Debian's dict-freedict-eng-deu (Ding) dictionary",
                               description="Fetch dict-freedict-eng-deu with apt-get download (or use --source), extract "
                                           "example and headword pairs, and write train/valid/test TSVs and stats.json.")
    freedict.add_argument("--source", type=Path, help="a .deb, or a directory holding the dictd .index and .dict(.dz) files")
    freedict.add_argument("--out", type=Path, default=Path("data"), help="output directory (default: data)")
    freedict.set_defaults(func=cmd_data_freedict)

    train = commands.add_parser("train", help="train a Transformer checkpoint", description="Train on DATA/train.tsv, validate on "
                                "DATA/valid.tsv, keep the best checkpoint in OUT, resume from OUT/last.pt when present.")
    train.add_argument("--data", type=Path, default=Path("data"), help="directory with train.tsv and valid.tsv (default: data)")
    train.add_argument("--out", type=Path, default=Path("runs/default"), help="checkpoint directory (default: runs/default)")
    train.add_argument("--vocab-size", type=int, default=8000, help="SentencePiece vocabulary size (default: 8000)")
    train.add_argument("--d-model", type=int, default=256)
    train.add_argument("--heads", type=int, default=4)
    train.add_argument("--d-ff", type=int, default=1024)
    train.add_argument("--encoder-layers", type=int, default=6)
    train.add_argument("--decoder-layers", type=int, default=2)
    train.add_argument("--dropout", type=float, default=0.1)
    train.add_argument("--activation", choices=("relu", "gelu", "silu"), default="relu")
    train.add_argument("--norm", choices=("pre", "post"), default="pre", help="LayerNorm placement (default: pre)")
    train.add_argument("--max-tokens", type=int, default=4000, help="padded tokens per batch (default: 4000)")
    train.add_argument("--lr", type=float, default=1e-3, help="peak learning rate (default: 1e-3)")
    train.add_argument("--warmup", type=int, default=800, help="warm-up steps (default: 800)")
    train.add_argument("--validate-every", type=int, default=500, help="steps between validations (default: 500)")
    train.add_argument("--patience", type=int, default=6, help="validations without improvement before stopping (default: 6)")
    train.add_argument("--max-steps", type=int, default=1_000_000)
    train.add_argument("--max-minutes", type=float, default=float("inf"), help="stop after this much training time")
    train.add_argument("--seed", type=int, default=1)
    train.add_argument("--threads", type=int, default=2, help="torch intra-op threads (default: 2)")
    train.set_defaults(func=cmd_train)

    evaluate = commands.add_parser("evaluate", help="BLEU/chrF of a checkpoint and of a dictionary baseline on the test split")
    evaluate.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="checkpoint directory (default: the shipped model)")
    evaluate.add_argument("--data", type=Path, default=Path("data"), help="directory with train.tsv and test.tsv (default: data)")
    evaluate.add_argument("--limit", type=int, help="score only the first N test pairs")
    evaluate.add_argument("--out", type=Path, help="JSON report path (default: CHECKPOINT/eval.json)")
    evaluate.set_defaults(func=cmd_evaluate)

    translate = commands.add_parser("translate", help="translate text (arguments or stdin lines)")
    translate.add_argument("text", nargs="*", help="texts to translate; read from stdin when none")
    translate.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="PyTorch checkpoint directory")
    translate.add_argument("--model-dir", type=Path, help="exported model directory: decode with ONNX Runtime instead of PyTorch")
    translate.add_argument("--precision", choices=("fp32", "int8", "fp16"), default="fp32", help="with --model-dir (default: fp32)")
    translate.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="with --model-dir (default: cpu)")
    translate.set_defaults(func=cmd_translate)

    export = commands.add_parser("export", help="export a checkpoint to ONNX and prove parity",
                                 description="Write encoder.onnx, decoder.onnx, tokenizer, config.json, parity_report.json "
                                             "and MODEL_CARD.md into OUT. Exits 1 and leaves OUT.failed/ when parity fails.")
    export.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="checkpoint directory (default: the shipped model)")
    export.add_argument("--out", type=Path, default=DEFAULT_MODEL_DIR, help=f"model directory (default: {DEFAULT_MODEL_DIR})")
    export.add_argument("--data", type=Path, default=Path("data"), help="valid/test splits; fetched when missing (default: data)")
    export.add_argument("--int8", action="store_true", help="also write int8 graphs; fails when test chrF drops by more than 1.0")
    export.add_argument("--fp16", action="store_true", help="also write fp16 graphs for CUDA (checked where a GPU exists)")
    _parity_arguments(export)
    export.set_defaults(func=cmd_export)

    validate = commands.add_parser("validate", help="re-run the parity check of an exported model directory")
    validate.add_argument("model_dir", type=Path, help="exported model directory")
    validate.add_argument("--checkpoint", type=Path, help="PyTorch checkpoint (default: the one recorded in config.json)")
    validate.add_argument("--data", type=Path, default=Path("data"), help="valid split; fetched when missing (default: data)")
    validate.add_argument("--write", action="store_true", help="replace MODEL_DIR/parity_report.json with this run's report")
    _parity_arguments(validate)
    validate.set_defaults(func=cmd_validate)
    return parser


def _parity_arguments(parser) -> None:
    parser.add_argument("--batches", type=int, default=32, help="validation batches for tensor parity (default: 32)")
    parser.add_argument("--sentences", type=int, default=500, help="validation sentences for sequence parity (default: 500)")


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
