"""Training: token-budget batches, label-smoothed cross-entropy, AdamW with inverse-sqrt warm-up,
periodic validation (loss and chrF), keep-best, resume, warm start from a checkpoint, CUDA with bf16/fp16
autocast, and averaging of the last validated weights."""

from __future__ import annotations

import itertools
import json
import math
import random
import shutil
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from tqdm import tqdm

from safetensors.torch import load_file, save_model

from model.checkpoint import load_checkpoint, pad_batch, save_checkpoint, special_ids
from model.data import Pair, read_tsv
from model.beam import beam_search
from model.greedy import greedy
from model.tokenizer import train_sentencepiece
from translator.tokenizer import SPM_FILE, Tokenizer, copy_tokenizer
from model.transformer import WEIGHTS_FILE, Transformer, TransformerConfig, num_parameters

LAST_STATE = "last.pt"
LOG_FILE = "train_log.jsonl"
SNAPSHOTS = "snapshots"  # the weights at the last few validations, for averaging
PRECISIONS = {"fp32": None, "bf16": torch.bfloat16, "fp16": torch.float16}


@dataclass(frozen=True)
class TrainOptions:
    data_dir: Path
    out_dir: Path
    extra_data: tuple[Path, ...] = ()  # more corpora: their train.tsv is mixed in, their valid.tsv validated on
    init_from: Path | None = None  # start from this checkpoint's weights and tokenizer (its config wins)
    device: str = "cpu"
    precision: str = "fp32"  # autocast dtype of forward/backward: fp32, bf16 or fp16 (CUDA only)
    average_last: int = 1  # at the end, average the weights of this many last validations (kept if better)
    max_tokens: int = 6000  # padded source + target tokens per batch
    max_length: int = 96  # longer pairs (in tokens) are skipped
    lr: float = 1e-3
    warmup_steps: int = 1000
    weight_decay: float = 0.01
    label_smoothing: float = 0.1
    clip_norm: float = 1.0
    example_weight: int = 2  # repeat dictionary example sentences this often per epoch (other pairs once)
    validate_every: int = 500
    chrf_sample: int = 300
    patience: int = 6  # validations without a better chrF before stopping
    max_steps: int = 1_000_000
    max_minutes: float = float("inf")
    seed: int = 1
    threads: int = 2


def inverse_sqrt(step: int, warmup: int) -> float:
    """Learning-rate factor: linear warm-up to 1, then 1/√step decay."""
    step = max(step, 1)
    return min(step / warmup, math.sqrt(warmup / step))


def make_batches(pairs: list[tuple[list[int], list[int]]], max_tokens: int, rng: random.Random):
    """Group pairs of similar length so that padded (source + target) tokens stay under max_tokens."""
    source_lengths = np.fromiter((len(source) for source, _ in pairs), dtype=np.int64, count=len(pairs))
    target_lengths = np.fromiter((len(target) for _, target in pairs), dtype=np.int64, count=len(pairs))
    ties = np.random.default_rng(rng.getrandbits(64)).random(len(pairs))
    order = np.lexsort((ties, target_lengths, source_lengths))  # by source length, then target length, then at random
    widths = (source_lengths + target_lengths)[order].tolist()
    batches, start, width = [], 0, 0
    for position, pair_width in enumerate(widths):
        new_width = max(width, pair_width)
        if position > start and new_width * (position - start + 1) > max_tokens:
            batches.append(order[start:position].tolist())
            start, new_width = position, pair_width
        width = new_width
    if start < len(widths):
        batches.append(order[start:].tolist())
    rng.shuffle(batches)
    return batches


def collate(pairs, indices, cfg: TransformerConfig):
    """Source ids/mask, decoder input (start + target) and labels (target + EOS), padded."""
    src, src_mask = pad_batch([pairs[i][0] for i in indices], cfg.pad_id)
    tgt, _ = pad_batch([[cfg.decoder_start_id] + pairs[i][1] for i in indices], cfg.pad_id)
    return src, src_mask, tgt[:, :-1], tgt[:, 1:]


def to_device(tensor: torch.Tensor, device: str) -> torch.Tensor:
    """A batch tensor on the training device. To a GPU from pinned memory, so that the copy is queued behind the
    running step instead of waiting for it (a copy from pageable memory synchronises the stream): the host collates
    the next batch while the device computes."""
    if torch.device(device).type != "cuda":
        return tensor.to(device)
    return tensor.pin_memory().to(device, non_blocking=True)


def loss_fn(logits, labels, cfg: TransformerConfig, smoothing: float):
    return F.cross_entropy(logits.flatten(0, 1), labels.flatten(), ignore_index=cfg.pad_id, label_smoothing=smoothing)


def encode_pairs(tokenizer: Tokenizer, pairs, max_length: int):
    encoded = [(tokenizer.encode(p.en), tokenizer.encode_target(p.de)) for p in pairs]
    return [e for e in encoded if len(e[0]) <= max_length and len(e[1]) <= max_length]


@torch.inference_mode()
def validate(model, valid_pairs, valid_encoded, tokenizer, opts: TrainOptions) -> dict:
    import sacrebleu

    model.eval()
    cfg = model.cfg
    total, count = 0.0, 0
    for indices in make_batches(valid_encoded, opts.max_tokens, random.Random(0)):
        src, src_mask, tgt_in, labels = (t.to(opts.device) for t in collate(valid_encoded, indices, cfg))
        n = int((labels != cfg.pad_id).sum())
        total += float(loss_fn(model(src, src_mask, tgt_in), labels, cfg, 0.0)) * n
        count += n
    sample = valid_pairs[: opts.chrf_sample]
    hypotheses = translate(model, tokenizer, [p.en for p in sample], device=opts.device)
    chrf = sacrebleu.corpus_chrf(hypotheses, [[p.de for p in sample]]).score
    model.train()
    return {"valid_loss": total / count, "valid_chrf": chrf}


def translate(model: Transformer, tokenizer: Tokenizer, texts: list[str], batch_size: int = 64, max_len: int = 128,
              device: str = "cpu", beam_size: int = 1, progress: str | None = None,
              repeat_period: int = 0) -> list[str]:
    """Greedy (beam_size 1) or beam-search translations (PyTorch path), batched by length; with a progress
    bar labelled `progress` if given; repeat_period: as model.greedy's (service.decoding.MAX_REPEAT_PERIOD decodes as
    the service does; 0 as the model ranks)."""
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    out = [""] * len(texts)
    batch_size = max(1, batch_size // beam_size)
    starts = range(0, len(order), batch_size)
    for start in starts if progress is None else tqdm(starts, desc=progress, unit="batch", mininterval=5):
        rows = order[start : start + batch_size]
        src, src_mask = pad_batch(tokenizer.encode_batch([texts[i] for i in rows]), model.cfg.pad_id)
        src, src_mask = src.to(device), src_mask.to(device)
        limit = min(max_len, 2 * src.size(1) + 10, model.cfg.max_positions)
        if beam_size > 1:
            outputs = [best.token_ids for best, *_ in beam_search(model, src, src_mask, beam_size, limit,
                                                                  repeat_period=repeat_period)]
        else:
            outputs = greedy(model, src, src_mask, limit, repeat_period=repeat_period)
        for i, ids in zip(rows, outputs):
            out[i] = tokenizer.decode(ids)
    return out


def read_corpora(opts: TrainOptions, split: str) -> list[Pair]:
    """split.tsv of every corpus; for validation interleaved, so that the chrF sample covers each corpus."""
    corpora = [read_tsv(directory / f"{split}.tsv") for directory in (opts.data_dir, *opts.extra_data)]
    if split == "train":
        return [pair for corpus in corpora for pair in corpus]
    return [pair for group in itertools.zip_longest(*corpora) for pair in group if pair is not None]


def build_model(cfg: TransformerConfig, opts: TrainOptions, train_pairs: list[Pair]) -> tuple[Transformer, Tokenizer]:
    """The run's own model when resuming, a warm start from opts.init_from (its weights, tokenizer and config), or a fresh one."""
    out = opts.out_dir
    if (out / LAST_STATE).exists() and (out / WEIGHTS_FILE).exists():
        model, _ = load_checkpoint(out)  # resuming: the run's own architecture and vocabulary (weights: last.pt)
        return model.train(), Tokenizer.from_dir(out, special_ids(model.cfg))
    if opts.init_from is not None:
        model, _ = load_checkpoint(opts.init_from)
        if not (out / SPM_FILE).exists():
            copy_tokenizer(opts.init_from, out)
        print(f"warm start from {opts.init_from} (its architecture and vocabulary; the architecture flags are ignored)")
        return model.train(), Tokenizer.from_dir(out, special_ids(model.cfg))
    if not (out / SPM_FILE).exists():
        print(f"training SentencePiece ({cfg.vocab_size} pieces) on {len(train_pairs)} pairs")
        train_sentencepiece((t for p in train_pairs for t in (p.en, p.de)), out, cfg.vocab_size)
    tokenizer = Tokenizer.from_dir(out, special_ids(cfg))
    return Transformer(replace(cfg, vocab_size=tokenizer.source.get_piece_size())), tokenizer


def train(cfg: TransformerConfig, opts: TrainOptions) -> dict:
    torch.manual_seed(opts.seed)
    torch.set_num_threads(opts.threads)
    out = opts.out_dir
    out.mkdir(parents=True, exist_ok=True)
    train_pairs, valid_pairs = read_corpora(opts, "train"), read_corpora(opts, "valid")
    model, tokenizer = build_model(cfg, opts, train_pairs)
    cfg = model.cfg
    weighted = [p for p in train_pairs for _ in range(opts.example_weight if p.kind == "example" else 1)]
    train_encoded = encode_pairs(tokenizer, weighted, opts.max_length)
    valid_encoded = encode_pairs(tokenizer, valid_pairs, opts.max_length)
    model.to(opts.device)
    optimizer = torch.optim.AdamW(model.parameters(), lr=opts.lr, betas=(0.9, 0.98), eps=1e-9, weight_decay=opts.weight_decay)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: inverse_sqrt(s, opts.warmup_steps))
    scaler = torch.amp.GradScaler(opts.device, enabled=opts.precision == "fp16")  # fp16 gradients underflow unscaled
    state = {"step": 0, "epoch": 0, "best_chrf": -1.0, "bad_validations": 0, "tokens": 0, "seconds": 0.0}
    if (out / LAST_STATE).exists():
        saved = torch.load(out / LAST_STATE, weights_only=False, map_location=opts.device)
        model.load_state_dict(saved["model"])
        optimizer.load_state_dict(saved["optimizer"])
        schedule.load_state_dict(saved["schedule"])
        state = saved["state"]
        print(f"resumed from step {state['step']} (best valid chrF {state['best_chrf']:.2f})")
    print(f"{num_parameters(model):,} parameters; {len(train_encoded):,} training pairs on {opts.device} "
          f"({opts.precision}); config {asdict(cfg)}")
    model.train()
    log = (out / LOG_FILE).open("a")
    started = time.monotonic() - state["seconds"]
    done = False
    while not done:
        batches = make_batches(train_encoded, opts.max_tokens, random.Random(opts.seed + state["epoch"]))
        skip = state.get("batch_in_epoch", 0)
        bar = tqdm(batches[skip:], desc=f"epoch {state['epoch']}", unit="batch", dynamic_ncols=True, mininterval=5)
        window_tokens, window_start = 0, time.monotonic()
        for position, indices in enumerate(bar, start=skip):
            batch = collate(train_encoded, indices, cfg)
            tokens = int(batch[1].sum() + (batch[3] != cfg.pad_id).sum())  # counted on the host: no wait for the device
            src, src_mask, tgt_in, labels = (to_device(t, opts.device) for t in batch)
            with torch.autocast(torch.device(opts.device).type, dtype=PRECISIONS[opts.precision],
                                enabled=opts.precision != "fp32"):
                loss = loss_fn(model(src, src_mask, tgt_in), labels, cfg, opts.label_smoothing)
            optimizer.zero_grad(set_to_none=True)
            scaler.scale(loss).backward()
            scaler.unscale_(optimizer)
            torch.nn.utils.clip_grad_norm_(model.parameters(), opts.clip_norm)
            scaler.step(optimizer)
            scaler.update()
            schedule.step()
            state["step"] += 1
            state["tokens"] += tokens
            window_tokens += tokens
            rate = window_tokens / max(time.monotonic() - window_start, 1e-9)
            if state["step"] % 50 == 0:  # .item() waits for the device: not every step
                bar.set_postfix(loss=f"{loss.item():.3f}", tok_s=f"{rate:,.0f}", lr=f"{schedule.get_last_lr()[0]:.2e}")
            state["batch_in_epoch"] = position + 1
            state["seconds"] = time.monotonic() - started
            if state["step"] % opts.validate_every == 0:
                done = _validate_and_save(model, optimizer, schedule, state, valid_pairs, valid_encoded, tokenizer, opts, log, loss.item(), rate)
                window_tokens, window_start = 0, time.monotonic()
            if state["step"] >= opts.max_steps or state["seconds"] > opts.max_minutes * 60:
                done = True
            if done:
                break
        else:
            state["epoch"] += 1
            state["batch_in_epoch"] = 0
    save_state(model, optimizer, schedule, state, out)  # a later run with a larger budget goes on from here
    if opts.average_last > 1:
        _keep_average_if_better(model, state, valid_pairs, valid_encoded, tokenizer, opts, log)
    log.close()
    return state


def hardware(opts: TrainOptions) -> str:
    """What trained, for the log and the model card: the GPU's name, or the CPU threads."""
    if torch.device(opts.device).type == "cuda":
        return f"{torch.cuda.get_device_name(opts.device)} ({opts.precision})"
    return f"{opts.threads} CPU threads ({opts.precision})"


def snapshot_path(out_dir: Path, step: int) -> Path:
    """Where the weights validated at this step are kept for averaging."""
    return out_dir / SNAPSHOTS / f"step-{step}.safetensors"


def snapshot_paths(out_dir: Path) -> list[Path]:
    """The saved validation snapshots, oldest first."""
    return sorted((out_dir / SNAPSHOTS).glob("step-*.safetensors"), key=lambda p: int(p.stem.split("-")[1]))


def average_snapshots(paths: list[Path]) -> dict[str, torch.Tensor]:
    """The element-wise mean of saved weights (float64 accumulation), in the snapshots' dtypes."""
    total: dict[str, torch.Tensor] = {}
    dtypes: dict[str, torch.dtype] = {}
    for path in paths:
        for name, tensor in load_file(path).items():
            total[name] = total.get(name, 0) + tensor.double()
            dtypes[name] = tensor.dtype
    return {name: (value / len(paths)).to(dtypes[name]) for name, value in total.items()}


def averaged_model(cfg: TransformerConfig, paths: list[Path]) -> Transformer:
    """A model holding the mean of these snapshots."""
    model = Transformer(cfg)
    model.load_state_dict(average_snapshots(paths), strict=False)  # tied weights are stored once
    return model


def write_average(run_dir: Path, steps: list[int], out_dir: Path) -> Path:
    """A checkpoint in out_dir: the average of run_dir's validation snapshots at these steps, with its tokenizer
    and training log (score it with `translator evaluate` before shipping it)."""
    paths = [snapshot_path(run_dir, step) for step in steps]
    missing = [path.stem for path in paths if not path.exists()]
    if missing:
        kept = ", ".join(path.stem for path in snapshot_paths(run_dir)) or "none"
        raise FileNotFoundError(f"{run_dir} has no snapshot {', '.join(missing)} (it has: {kept})")
    save_checkpoint(averaged_model(TransformerConfig.load(run_dir), paths), out_dir)
    copy_tokenizer(run_dir, out_dir)
    shutil.copy(run_dir / LOG_FILE, out_dir / LOG_FILE)
    return out_dir


def _keep_average_if_better(model, state, valid_pairs, valid_encoded, tokenizer, opts: TrainOptions, log) -> None:
    """Average the last validated weights; the average becomes the checkpoint only when it validates better."""
    snapshots = snapshot_paths(opts.out_dir)[-opts.average_last:]
    if len(snapshots) < 2:
        return
    averaged = averaged_model(model.cfg, snapshots).to(opts.device)
    metrics = validate(averaged, valid_pairs, valid_encoded, tokenizer, opts)
    improved = metrics["valid_chrf"] > state["best_chrf"]
    entry = {"step": state["step"], "epoch": state["epoch"], "averaged": [p.stem for p in snapshots], "tokens": state["tokens"],
             "seconds": state["seconds"], **metrics, "best": improved, "hardware": hardware(opts)}
    log.write(json.dumps(entry) + "\n")
    tqdm.write(json.dumps(entry))
    if improved:
        state["best_chrf"] = metrics["valid_chrf"]
        save_checkpoint(averaged.cpu(), opts.out_dir)


def _validate_and_save(model, optimizer, schedule, state, valid_pairs, valid_encoded, tokenizer, opts, log, train_loss, rate) -> bool:
    """Validate, keep the best checkpoint and the last snapshots, save the resumable state; True when patience ran out."""
    metrics = validate(model, valid_pairs, valid_encoded, tokenizer, opts)
    improved = metrics["valid_chrf"] > state["best_chrf"]
    if improved:
        state["best_chrf"] = metrics["valid_chrf"]
        state["bad_validations"] = 0
        save_checkpoint(model, opts.out_dir)
    else:
        state["bad_validations"] += 1
    if opts.average_last > 1:
        path = snapshot_path(opts.out_dir, state["step"])
        path.parent.mkdir(exist_ok=True)
        save_model(model, str(path))
        for stale in snapshot_paths(opts.out_dir)[:-opts.average_last]:
            stale.unlink()
    entry = {"step": state["step"], "epoch": state["epoch"], "train_loss": train_loss, "tokens_per_second": rate,
             "tokens": state["tokens"], "seconds": state["seconds"], **metrics, "best": improved, "hardware": hardware(opts)}
    log.write(json.dumps(entry) + "\n")
    log.flush()
    tqdm.write(json.dumps(entry))
    save_state(model, optimizer, schedule, state, opts.out_dir)
    return state["bad_validations"] >= opts.patience


def save_state(model, optimizer, schedule, state: dict, out_dir: Path) -> None:
    """What a resumed run continues from (written atomically)."""
    tmp = out_dir / (LAST_STATE + ".tmp")
    torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict(), "schedule": schedule.state_dict(),
                "state": state}, tmp)
    shutil.move(tmp, out_dir / LAST_STATE)
