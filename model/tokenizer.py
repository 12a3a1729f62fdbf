"""SentencePiece tokenization shared by training, export and serving (no torch here).

The special ids are defined once, here; a checkpoint's ``config.json`` records them and every
later stage reads them from there (a converted Marian model brings its own).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import sentencepiece as spm

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
SPM_FILE = "spm.model"  # our joint model
MARIAN_FILES = ("source.spm", "target.spm", "vocab.json")  # Marian: two models over one vocabulary
TOKENIZER_FILES = (SPM_FILE, *MARIAN_FILES)


@dataclass(frozen=True)
class SpecialIds:
    pad: int = PAD_ID
    unk: int = UNK_ID
    bos: int = BOS_ID
    eos: int = EOS_ID


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


class Tokenizer:
    """Text ↔ ids. Source ids end with EOS; target ids are produced by the model.

    Marian checkpoints use two SentencePiece models (source and target) over one shared
    vocabulary; ``vocab`` then maps pieces to ids. Our own models use one joint model.
    """

    def __init__(self, source_model: Path, target_model: Path | None = None, vocab: dict[str, int] | None = None,
                 special: SpecialIds = SpecialIds()):
        self.source = spm.SentencePieceProcessor(model_file=str(source_model))
        self.target = spm.SentencePieceProcessor(model_file=str(target_model or source_model))
        self.vocab = vocab
        self.pieces = {i: p for p, i in vocab.items()} if vocab else None
        self.special = special

    @classmethod
    def from_dir(cls, directory: Path, special: SpecialIds = SpecialIds()) -> "Tokenizer":
        """Our joint spm.model, or Marian's source.spm + target.spm + vocab.json."""
        directory = Path(directory)
        if (directory / SPM_FILE).exists():
            return cls(directory / SPM_FILE, special=special)
        source, target, vocab = (directory / name for name in MARIAN_FILES)
        if not all(p.exists() for p in (source, target, vocab)):
            raise FileNotFoundError(f"{directory} has no tokenizer: expected {SPM_FILE} or {', '.join(MARIAN_FILES)}")
        return cls(source, target, json.loads(vocab.read_text(encoding="utf-8")), special)


    def encode(self, text: str) -> list[int]:
        """Source ids of one text, ending with EOS."""
        if self.vocab is None:
            ids = self.source.encode(text)
        else:
            unk = self.special.unk
            ids = [self.vocab.get(piece, unk) for piece in self.source.encode(text, out_type=str)]
        return ids + [self.special.eos]

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        return [self.encode(text) for text in texts]

    def encode_target(self, text: str) -> list[int]:
        """Target ids for training: the sentence followed by EOS (BOS is the decoder's start token)."""
        return self.target.encode(text) + [self.special.eos]

    def decode(self, ids: list[int]) -> str:
        """Text of target ids; special ids are skipped."""
        skip = {self.special.pad, self.special.bos, self.special.eos}
        ids = [i for i in ids if i not in skip]
        if self.pieces is None:
            return self.target.decode(ids)
        return self.target.decode_pieces([self.pieces[i] for i in ids])

    def decode_batch(self, batch: list[list[int]]) -> list[str]:
        return [self.decode(ids) for ids in batch]


def spm_pieces(spm_path: Path) -> list[str]:
    """Every piece of a SentencePiece model, in id order."""
    processor = spm.SentencePieceProcessor(model_file=str(spm_path))
    return [processor.id_to_piece(i) for i in range(processor.get_piece_size())]


def copy_tokenizer(source: Path, target: Path) -> None:
    """Copy whichever tokenizer files a checkpoint has."""
    for name in TOKENIZER_FILES:
        if (Path(source) / name).exists():
            shutil.copy(Path(source) / name, Path(target) / name)
