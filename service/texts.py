"""The texts of one RPC as the engine's sequences (translator.text does the splitting and restoring): which
sequence is which segment of which text, and how finished segments become each text's translation — whole
(Translate, TranslateBatch) or streamed segment after segment (TranslateStream)."""

from __future__ import annotations

from dataclasses import dataclass, field

from translator.text import Prepared
from translator.tokenizer import IncrementalDetokenizer
from translator.v1 import translator_pb2 as pb


@dataclass
class Texts:
    prepared: list[Prepared]
    sources: list[list[int]]  # token ids per segment, all texts' segments in order: the engine's sequences
    owner: list[tuple[int, int]] = field(init=False)  # sequence → (text index, segment index)

    def __post_init__(self):
        self.owner = [(text, segment) for text, prepared in enumerate(self.prepared)
                      for segment in range(len(prepared.segments))]

    def merge(self, text: int, segments: list[pb.Translation]) -> pb.Translation:
        """A text's translation from its segments' (in order): restored text, summed token counts."""
        prepared = self.prepared[text]
        reasons = {s.finish_reason for s in segments}
        return pb.Translation(
            text=prepared.restore([s.text for s in segments]),
            input_tokens=sum(s.input_tokens for s in segments), output_tokens=sum(s.output_tokens for s in segments),
            finish_reason=pb.FINISH_REASON_LENGTH if pb.FINISH_REASON_LENGTH in reasons else pb.FINISH_REASON_EOS,
            segments=len(segments))

    def collector(self) -> "Collector":
        return Collector(self)

    def streamer(self, tokenizer) -> "Streamer":
        return Streamer(self, tokenizer)


class Collector:
    """Finished segments gathered per text; a text is complete when all of its segments are."""

    def __init__(self, texts: Texts):
        self.texts = texts
        self.segments: list[list[pb.Translation | None]] = [[None] * len(p.segments) for p in texts.prepared]
        self.left = [len(p.segments) for p in texts.prepared]

    def add(self, sequence: int, translation: pb.Translation) -> pb.Translation | None:
        """Record a finished segment; the text's translation once it is complete."""
        text, segment = self.texts.owner[sequence]
        self.segments[text][segment] = translation
        self.left[text] -= 1
        return self.texts.merge(text, self.segments[text]) if not self.left[text] else None

    def empty_texts(self) -> list[tuple[int, pb.Translation]]:
        """Texts with nothing to translate (only numbers, bullets or placeholders): complete already."""
        return [(text, self.texts.merge(text, [])) for text, left in enumerate(self.left) if not left]


class Streamer:
    """Streamed pieces per text in reading order: glue, then the current segment's text as its tokens arrive
    (segments holding placeholders at once when finished, restored), the next segments' pieces held back
    until their turn. Concatenated, a text's pieces equal its final translation."""

    def __init__(self, texts: Texts, tokenizer):
        self.texts = texts
        self.collector = Collector(texts)
        self.detokenizers = [IncrementalDetokenizer(tokenizer) for _ in texts.sources]
        self.held: list[list[str]] = [[] for _ in texts.sources]  # pieces not yet sent, per sequence
        self.finished: list[str | None] = [None] * len(texts.sources)  # restored text of finished segments
        self.current = [0] * len(texts.prepared)  # per text: the segment being streamed
        self.glued: set[tuple[int, int]] = set()  # segments whose glue has been sent
        self.first_sequence = [0] * len(texts.prepared)
        for text in range(1, len(texts.prepared)):
            self.first_sequence[text] = self.first_sequence[text - 1] + len(texts.prepared[text - 1].segments)

    def opening(self) -> list[tuple[int, str, pb.Translation | None]]:
        """Pieces due before any token: complete texts with no segments."""
        return [(text, translation.text, translation) for text, translation in self.collector.empty_texts()]

    def push(self, sequence: int, token: int) -> list[tuple[int, str, pb.Translation | None]]:
        text, segment = self.texts.owner[sequence]
        if self.texts.prepared[text].owners[segment]:
            return []  # placeholders are restored once the segment is complete
        piece = self.detokenizers[sequence].push(token)
        if not piece:
            return []
        if segment != self.current[text]:
            self.held[sequence].append(piece)
            return []
        return [(text, self._glue_before(text, segment) + piece, None)]

    def finish(self, sequence: int, translation: pb.Translation) -> list[tuple[int, str, pb.Translation | None]]:
        """(text index, piece, final translation or None) to send, in order."""
        text, segment = self.texts.owner[sequence]
        prepared = self.texts.prepared[text]
        if prepared.owners[segment]:
            tail = prepared.restore_segment(segment, translation.text)
        else:
            tail = self.detokenizers[sequence].finish(translation.text)
        self.finished[sequence] = tail
        self.held[sequence].append(tail)
        final = self.collector.add(sequence, translation)
        pieces = []
        while self.current[text] < len(prepared.segments):  # send what is now in turn
            turn = self.current[text]
            current_sequence = self.first_sequence[text] + turn
            held = "".join(self.held[current_sequence])
            self.held[current_sequence] = []
            if held or self.finished[current_sequence] is not None:
                pieces.append(self._glue_before(text, turn) + held)
            if self.finished[current_sequence] is None:
                break
            self.current[text] += 1
        if final is not None:
            pieces.append(prepared.unmask(prepared.glue[-1]))
            return [(text, "".join(pieces), final)]
        return [(text, "".join(pieces), None)] if any(pieces) else []

    def _glue_before(self, text: int, segment: int) -> str:
        """The glue before a segment, the first time the segment sends anything."""
        if (text, segment) in self.glued:
            return ""
        self.glued.add((text, segment))
        prepared = self.texts.prepared[text]
        return prepared.unmask(prepared.glue[segment])
