"""A checkpoint directory: config.json + model.safetensors + spm.model."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import load_model, save_model

from translator.model_format import ENCODER_FILE
from translator.tokenizer import SpecialIds, Tokenizer
from model.transformer import WEIGHTS_FILE, Transformer, TransformerConfig


def special_ids(cfg: TransformerConfig) -> SpecialIds:
    return SpecialIds(pad=cfg.pad_id, unk=cfg.unk_id, bos=cfg.bos_id, eos=cfg.eos_id)


def save_checkpoint(model: Transformer, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    model.cfg.save(directory)
    save_model(model, str(directory / WEIGHTS_FILE))  # stores tied weights once


def load_checkpoint(directory: Path) -> tuple[Transformer, Tokenizer]:
    """The model (eval mode) and its tokenizer."""
    directory = Path(directory)
    if not (directory / WEIGHTS_FILE).exists():
        hint = (f"; it is an exported model: translate with --model-dir {directory}"
                if (directory / ENCODER_FILE).is_file() else "")
        raise FileNotFoundError(f"{directory} is not a checkpoint: {WEIGHTS_FILE} is missing{hint}")
    cfg = TransformerConfig.load(directory)
    model = Transformer(cfg)
    load_model(model, str(directory / WEIGHTS_FILE), strict=cfg.final_logits_bias)
    return model.eval(), Tokenizer.from_dir(directory, special_ids(cfg))


def pad_batch(sequences: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-padded ids (B, T) and mask (B, T), True = real token. One vectorised fill rather than a tensor per row:
    a 40,000-token training batch is collated in a few milliseconds, which keeps a GPU fed."""
    lengths = np.fromiter(map(len, sequences), dtype=np.int64, count=len(sequences))
    mask = np.arange(lengths.max(initial=0))[None, :] < lengths[:, None]
    ids = np.full(mask.shape, pad_id, dtype=np.int64)
    ids[mask] = np.fromiter(itertools.chain.from_iterable(sequences), dtype=np.int64, count=int(lengths.sum()))
    return torch.from_numpy(ids), torch.from_numpy(mask)
