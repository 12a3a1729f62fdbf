"""SentencePiece tokenization shared by training, export and serving (no torch here), and the
incremental detokenizer that streaming uses.

The special ids are defined once, here; a checkpoint's ``config.json`` records them and every
later stage reads them from there (a converted Marian model brings its own).
"""

from __future__ import annotations

import json
import re
import shutil
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import sentencepiece as spm

PAD_ID, UNK_ID, BOS_ID, EOS_ID = 0, 1, 2, 3
SPACE_PIECE = "\u2581"  # SentencePiece's mark of a space (a word start)
SPM_FILE = "spm.model"  # our joint model
MARIAN_FILES = ("source.spm", "target.spm", "vocab.json")  # Marian: two models over one vocabulary
TOKENIZER_FILES = (SPM_FILE, *MARIAN_FILES)
# Control characters other than whitespace: SentencePiece's normalization deletes most of them (NUL becomes <unk>),
# so they would vanish from a translation; judged unknown, they pass through like emoji.
CONTROL = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f]")
# More combining marks on one character than any orthography stacks (Vietnamese uses two, pointed Hebrew with
# cantillation four): decoration ("zalgo" text), passed through as it is rather than fed to the model one mark per
# token. STACKED_MARKS finds such stacks of the common diacritics without a scan of every character.
MAX_COMBINING_MARKS = 4
STACKED_MARKS = re.compile(r"[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]{5,}")
# Compatibility forms whose normal form means something else: the NFKC normalization of SentencePiece models writes
# "m²" as "m2", "½" as "1⁄2", "H₂O" as "H2O", "™" as "TM" and "①" as "1", so translations lost them ("Add ½ cup of
# sugar." came back as "1. satt2-Schlüssel hinzufügen."). Where the model's normalization changes one, it is judged
# unknown and passes through as it is. Ligatures, full-width letters and "…" normalize to what they mean: read.
LOSSY_FORMS = ("<super>", "<sub>", "<fraction>", "<circle>", "<square>")


def is_lossy_form(character: str) -> bool:
    return unicodedata.decomposition(character).startswith(LOSSY_FORMS)


@dataclass(frozen=True)
class SpecialIds:
    pad: int = PAD_ID
    unk: int = UNK_ID
    bos: int = BOS_ID
    eos: int = EOS_ID

    @classmethod
    def of(cls, config: dict) -> "SpecialIds":
        """The ids a model's config records (an export's ``config.json`` "model")."""
        return cls(pad=config["pad_id"], unk=config["unk_id"], bos=config["bos_id"], eos=config["eos_id"])


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
        self._visible: dict[int, bool] = {}
        # Our models' space piece (`_spaced`). A Marian model's text stays exactly MarianTokenizer's (its tests compare
        # them), double spaces included.
        space = None if vocab else self.target.piece_to_id(SPACE_PIECE)
        self._space = space if space is not None and self.target.id_to_piece(space) == SPACE_PIECE else None
        self._known: dict[str, bool] = {}  # whether the source vocabulary has a character (with its combining marks)

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

    def unknown_spans(self, text: str, ids: list[int] | None = None) -> list[tuple[int, int]]:
        """(start, end) of each run of characters in `text` that the model cannot read: characters the source
        vocabulary cannot represent (emoji, other scripts, rare symbols: each would reach the model as <unk>, which
        it cannot translate or copy), control characters, and characters under a stack of more than
        MAX_COMBINING_MARKS combining marks, and characters the normalization deletes or (LOSSY_FORMS) changes in
        meaning. A character is judged with the combining marks that follow it; whitespace is always known. `ids`:
        encode(text), where the caller has it already."""
        if (self.special.unk not in (self.encode(text) if ids is None else ids) and not CONTROL.search(text)
                and not STACKED_MARKS.search(text) and not self._normalization_loses_any(text)):
            return []
        spans: list[tuple[int, int]] = []
        index = 0
        while index < len(text):
            end = index + 1
            while end < len(text) and unicodedata.combining(text[end]):
                end += 1
            if end - index - 1 > MAX_COMBINING_MARKS or not self._is_known(text[index:end]):
                if spans and spans[-1][1] == index:
                    spans[-1] = (spans[-1][0], end)
                else:
                    spans.append((index, end))
            index = end
        return spans

    def _is_known(self, character: str) -> bool:
        if character not in self._known:
            if len(self._known) > 100_000:  # hostile input may bring every character there is
                self._known.clear()
            self._known[character] = character.isspace() or (
                not CONTROL.match(character) and self.special.unk not in self.encode(character)
                and not self._normalization_loses(character))
        return self._known[character]

    def _normalization_loses(self, character: str) -> bool:
        """Whether the model would not read the character (with its combining marks): its normalization deletes it
        (SentencePiece's NFKC rules drop U+FFFD, the byte order mark, zero-width spaces and joiners and the
        left-to-right and right-to-left marks, so a translation lost them), writes a LOSSY_FORMS one as something
        else, or writes one character as another outside ASCII (the micro sign "µ" as Greek "μ", the ohm sign as an
        omega, "￡" as "£": "30 µs" came back as "30 μs", which looks the same and is not what a search finds). Never
        asked of whitespace, which normalizes to nothing at a text's edges."""
        normal = self.source.normalize(character).removeprefix(SPACE_PIECE)
        return not normal or (is_lossy_form(character[0]) and character not in normal) or (
            len(character) == len(normal) == 1 and normal != character and not normal.isascii()
            and not unicodedata.combining(normal))

    def _normalization_loses_any(self, text: str) -> bool:
        """Judged per distinct character (ASCII loses none but control characters: CONTROL), which a text without
        <unk> has few of: 8 µs for a 126-character German sentence. A regular expression class of the 797
        LOSSY_FORMS alone took 35 µs to search it, and 25 ms at import to build."""
        return any(self._normalization_loses(character) for character in set(text)
                   if not character.isascii() and not character.isspace())

    def encode_batch(self, texts: list[str]) -> list[list[int]]:
        return [self.encode(text) for text in texts]

    def encode_target(self, text: str) -> list[int]:
        """Target ids for training: the sentence followed by EOS (BOS is the decoder's start token)."""
        return self.target.encode(text) + [self.special.eos]

    def decode(self, ids: list[int]) -> str:
        """Text of target ids; special ids are skipped, <unk> too (SentencePiece would write it as " ⁇ "), and so is
        a space piece that another space or the end follows (`_spaced`)."""
        skip = {self.special.pad, self.special.bos, self.special.eos, self.special.unk}
        ids = self._spaced([i for i in ids if i not in skip])
        if self.pieces is None:
            return self.target.decode(ids)
        # Marian: as MarianTokenizer.decode(skip_special_tokens=True), and the pieces of the shared vocabulary that
        # target.spm lacks lose their "▁" like the rest.
        text = self.target.decode_pieces([self.pieces[i] for i in ids])
        return text.replace(SPACE_PIECE, " ").strip()

    def _spaced(self, ids: list[int]) -> list[int]:
        """Without the space pieces ("▁" alone) that a word's own space or the end follows. The model wrote one before
        a word ("Variable "%s"  Schatten …") or last ("… für Intern "): 4 of 3,000 catalog messages came back with a
        double or a trailing space. One the end follows is held back while a stream decodes, so the pieces still
        join to the final text."""
        if self._space not in ids:
            return ids
        pieces = self.pieces_of(ids)
        return [token for token, after in zip(ids, [*pieces[1:], SPACE_PIECE])
                if token != self._space or not after.startswith(SPACE_PIECE)]

    def visible(self, token: int) -> bool:
        """Whether this id alone decodes to more than whitespace (cached)."""
        if token not in self._visible:
            self._visible[token] = bool(self.decode([token]).strip())
        return self._visible[token]

    def decode_batch(self, batch: list[list[int]]) -> list[str]:
        return [self.decode(ids) for ids in batch]

    def source_spans(self, text: str) -> list[tuple[int, int]]:
        """(start, end) in `text` of each token encode(text) gives before end-of-sentence, without the whitespace
        it starts with."""
        spans = self.source.encode(text, out_type="offset_mapping")["offsets"]  # sentencepiece >= 0.2.2
        return [(start + len(text[start:end]) - len(text[start:end].lstrip()), end) for start, end in spans]

    def decode_with_spans(self, ids: list[int]) -> tuple[str, list[tuple[int, int]]]:
        """decode(ids), and the (start, end) in it of each id's text, without the whitespace it starts with; (n, n)
        for an id that adds no text of its own (a special id, a byte that completes a character later: the
        character is the completing id's)."""
        detokenizer, spans, length = IncrementalDetokenizer(self), [], 0
        for token in ids:
            piece = detokenizer.push(token)
            spans.append((length + len(piece) - len(piece.lstrip()), length + len(piece)))
            length += len(piece)
        text = self.decode(ids)
        if len(text) > length and spans:  # text held back to the end (an incomplete character)
            spans[-1] = (spans[-1][0], len(text))
        return text, spans

    def pieces_of(self, ids: list[int]) -> list[str]:
        """The vocabulary piece of each id (for alignments): "▁" marks a word start, "</s>" is end-of-sentence."""
        if self.pieces is not None:
            return [self.pieces.get(i, "<unk>") for i in ids]
        return [self.source.id_to_piece(i) for i in ids]


def spm_pieces(spm_path: Path) -> list[str]:
    """Every piece of a SentencePiece model, in id order."""
    processor = spm.SentencePieceProcessor(model_file=str(spm_path))
    return [processor.id_to_piece(i) for i in range(processor.get_piece_size())]


def copy_tokenizer(source: Path, target: Path) -> None:
    """Copy whichever tokenizer files a checkpoint has."""
    for name in TOKENIZER_FILES:
        if (Path(source) / name).exists():
            shutil.copy(Path(source) / name, Path(target) / name)


class IncrementalDetokenizer:
    """Text pieces of a growing token sequence: valid UTF-8 that concatenates to the final text, at O(1)
    amortised cost per token.

    Only a short window of ids is decoded: the text of ``ids[prefix:read]`` was already decoded, and
    ``decode(ids[prefix:])`` minus it is the new text. Both decodes start at the same token, which has
    visible text: SentencePiece drops all the whitespace a decode starts with, so a window starting with
    whitespace-only pieces would lose as many spaces as it has more of them than ``ids[prefix:read]``. A piece
    ending in an incomplete UTF-8 sequence (U+FFFD) is held back until the bytes that complete it arrive, and so
    is what `settled(text, sent)` says of the text decoded after the pieces sent may still change (the final text may
    lack it).
    """

    def __init__(self, tokenizer: Tokenizer, settled: Callable[[str, str], int] = lambda text, sent: len(text)):
        self.tokenizer = tokenizer
        self.settled = settled  # how much of the text decoded after the pieces sent is sure to stay
        self.ids: list[int] = []
        self.prefix = 0  # window start
        self.read = 0  # ids[:read] are decoded
        self.unsure = ""  # decoded, not sent
        self.sent = ""  # the pieces so far

    def push(self, *tokens: int) -> str:
        """The new text that these tokens complete and `settled` lets go ("" while it is only whitespace, an
        incomplete character or unsettled). Pushing a stream's tokens in batches, one per message sent, decodes once
        per batch instead of per token."""
        self.ids.extend(tokens)
        window = self.ids[self.prefix:]
        decoded = self.tokenizer.decode(self.ids[self.prefix:self.read])
        text = self.tokenizer.decode(window)
        if len(text) <= len(decoded) or text.endswith("\ufffd") or not text.startswith(decoded):
            return ""
        pending = self.unsure + text[len(decoded):]
        self.prefix, self.read = self._anchored(self.read), len(self.ids)
        settled = self.settled(pending, self.sent)
        piece, self.unsure = pending[:settled], pending[settled:]
        self.sent += piece
        return piece

    def _anchored(self, start: int) -> int:
        """The window start at or before `start` whose token has visible text (or 0)."""
        while start > 0 and not self.tokenizer.visible(self.ids[start]):
            start -= 1
        return start

    def finish(self, final_text: str) -> str:
        """What is left of final_text after the pieces sent so far (they are always a prefix of it)."""
        return final_text[len(self.sent):]
