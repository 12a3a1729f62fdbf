"""Training a joint SentencePiece model (training only; the torch-free tokenizer is ``translator.tokenizer``)."""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

import sentencepiece as spm

from translator.tokenizer import BOS_ID, EOS_ID, PAD_ID, SPM_FILE, UNK_ID


def train_sentencepiece(texts: Iterable[str], out_dir: Path, vocab_size: int = 8000, seed_sentences: int = 2_000_000) -> Path:
    """Train a joint EN/DE unigram model on texts; returns the .model path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    prefix = out_dir / SPM_FILE.removesuffix(".model")
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(texts),
        model_prefix=str(prefix),
        vocab_size=vocab_size,
        model_type="unigram",
        character_coverage=1.0,
        input_sentence_size=seed_sentences,
        shuffle_input_sentence=True,
        pad_id=PAD_ID,
        unk_id=UNK_ID,
        bos_id=BOS_ID,
        eos_id=EOS_ID,
        normalization_rule_name="nmt_nfkc",
        num_threads=2,
        minloglevel=2,
    )
    return prefix.with_suffix(".model")
