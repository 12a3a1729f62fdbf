"""The texts of one RPC as the engine's sequences (translator.text does the splitting and restoring): which
sequence is which segment of which text, and how finished segments become each text's translation — whole
(Translate, TranslateBatch) or streamed segment after segment (TranslateStream)."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np

from service.decoding import DecodingOptions, FinishReason, Hypothesis
from translator.glossary import Glossary
from translator.markup import PLACEHOLDER_PATTERN, put_back_tags
from translator.model_format import Limits
from translator.text import Prepared, read_codes, segment_texts
from translator.tokenizer import IncrementalDetokenizer
from translator.v1 import translator_pb2 as pb


FINISH_REASONS = {FinishReason.EOS: pb.FINISH_REASON_EOS, FinishReason.LENGTH: pb.FINISH_REASON_LENGTH}


def alignment(weights: np.ndarray, source_ids: list[int], target_ids: list[int], tokenizer) -> pb.Alignment:
    """The (target, source) attention matrix of one sentence, with its pieces and each row's best source token."""
    weights = weights.reshape(len(target_ids), len(source_ids))
    return pb.Alignment(source_tokens=tokenizer.pieces_of(source_ids), target_tokens=tokenizer.pieces_of(target_ids),
                        weights=weights.ravel().tolist(), source_index=weights.argmax(axis=1).tolist() if weights.size else [])


@dataclass
class Texts:
    prepared: list[Prepared]
    sources: list[list[int]]  # token ids per segment, all texts' segments in order: the engine's sequences
    n_best: bool = False  # num_hypotheses > 1 was asked for: every translation has hypotheses
    alignments: bool = False  # return_alignments was asked for: every translation has its segments' alignments
    owner: list[tuple[int, int]] = field(init=False)  # sequence → (text index, segment index)

    def __post_init__(self):
        self.owner = [(text, segment) for text, prepared in enumerate(self.prepared)
                      for segment in range(len(prepared.segments))]

    @classmethod
    def segmented(cls, model, texts: list[str], options, *, preserve_placeholders: bool, html: bool,
                  limits: Limits | None = None, glossary: Glossary | None = None) -> Texts:
        """Texts split into sentences that fit `model` (a Runtime or a served Model; longer sentences cut at a clause
        or word), tokenized; inline elements' tags taken out, to go back by alignment, where the model has
        alignments. `options` (DecodingOptions or the proto's) say whether translations carry an n-best list and
        alignments; `limits` replace the model's own (`translator bench segments` tries other segment lengths); a
        `glossary`'s terms are written as it says."""
        return cls.of(segment_texts(texts, model.tokenizer, limits or model.limits, preserve_placeholders, html,
                                    take_out_tags=model.has_alignments, glossary=glossary), options)

    @classmethod
    def of(cls, segmented: tuple[list[Prepared], list[list[int]]], options) -> Texts:
        """What segment_texts returned, for a request with these options (see `segmented`)."""
        return cls(*segmented, n_best=options.num_hypotheses > 1, alignments=options.return_alignments)

    def decoding_options(self, options: DecodingOptions) -> DecodingOptions:
        """The options to decode with: the caller's, with alignments where tags were taken out of a segment (they
        go back where the alignments say)."""
        if options.return_alignments or not any(moved for p in self.prepared for moved in p.moved):
            return options
        return replace(options, return_alignments=True)

    def kept(self) -> list[tuple[str, ...]]:
        """Per sequence, the placeholder tokens its segment holds and the codes it reads: its translation must
        hold them too (Request.kept)."""
        return [self._kept(self.prepared[text].segments[segment]) for text, segment in self.owner]

    @staticmethod
    def _kept(segment: str) -> tuple[str, ...]:
        placeholders = dict.fromkeys(token.group() for token in PLACEHOLDER_PATTERN.finditer(segment))
        return (*placeholders, *read_codes(segment))

    @functools.cached_property
    def streaming(self) -> list[bool]:
        """Per sequence, whether its translation is sent as it is decoded (`Prepared.streams`): the others' tokens
        are not events. Asked once: by the engine's call, and by the streamer at every token."""
        return [self.prepared[text].streams(segment) for text, segment in self.owner]

    def translation(self, sequence: int, request, tokenizer) -> pb.Translation:
        """One finished sequence (a segment) as a Translation: its best hypothesis, and what its options asked
        for (scores, the n-best list, alignments)."""
        options, best = request.options, request.hypotheses[0]
        text_of = self._text_of(sequence, request, tokenizer)
        translation = pb.Translation(text=text_of(best), input_tokens=len(request.source_ids),
                                     output_tokens=len(best.token_ids), finish_reason=FINISH_REASONS[request.finish_reason])
        if options.return_scores:
            translation.score, translation.token_scores[:] = best.score, best.token_logprobs
        if options.num_hypotheses > 1:
            translation.hypotheses.extend(
                pb.Hypothesis(text=text_of(h), score=h.score if options.return_scores else 0.0,
                              token_scores=h.token_logprobs if options.return_scores else [])
                for h in request.hypotheses)
        if self.alignments and best.alignments is not None:
            translation.alignments.append(alignment(best.alignments, request.source_ids, best.token_ids, tokenizer))
        return translation

    def _text_of(self, sequence: int, request, tokenizer) -> Callable[[Hypothesis], str]:
        """A hypothesis's text, with the tags taken out of its segment put back by its alignments."""
        text, segment = self.owner[sequence]
        prepared = self.prepared[text]
        moved, stripped = prepared.moved[segment], prepared.segments[segment]

        def decoded_alone(hypothesis: Hypothesis) -> str:
            return prepared.without_cut_annotation(segment, tokenizer.decode(hypothesis.token_ids))

        if not moved:
            return decoded_alone
        source_spans = tokenizer.source_spans(stripped)

        def text_of(hypothesis: Hypothesis) -> str:
            if hypothesis.alignments is None:  # left to repair: the tokens go at the end
                return decoded_alone(hypothesis)
            decoded, target_spans = tokenizer.decode_with_spans(hypothesis.token_ids)
            decoded = prepared.without_cut_annotation(segment, decoded)  # a prefix: its tokens' spans end in it
            target_spans = [(min(start, len(decoded)), min(end, len(decoded))) for start, end in target_spans]
            return put_back_tags(decoded, moved, stripped, source_spans, target_spans, hypothesis.alignments)
        return text_of

    def merge(self, text: int, segments: list[pb.Translation]) -> pb.Translation:
        """A text's translation from its segments' (in order): restored text, summed token counts and scores,
        joined token scores, alignments and hypotheses (hypothesis i joins the segments' i-th)."""
        prepared = self.prepared[text]
        reasons = {s.finish_reason for s in segments}
        alternatives = min((len(s.hypotheses) for s in segments), default=0)
        hypotheses = [pb.Hypothesis(text=prepared.restore([s.hypotheses[i].text for s in segments]),
                                    score=sum(s.hypotheses[i].score for s in segments),
                                    token_scores=[x for s in segments for x in s.hypotheses[i].token_scores])
                      for i in range(alternatives)]
        if not segments and self.n_best:  # nothing to translate: the text as it is is the one hypothesis
            hypotheses = [pb.Hypothesis(text=prepared.restore([]))]
        restored = prepared.restore([s.text for s in segments])  # last: restore() leaves `repairs` of the best
        return pb.Translation(
            text=restored,
            input_tokens=sum(s.input_tokens for s in segments), output_tokens=sum(s.output_tokens for s in segments),
            finish_reason=pb.FINISH_REASON_LENGTH if pb.FINISH_REASON_LENGTH in reasons else pb.FINISH_REASON_EOS,
            segments=len(segments), score=sum(s.score for s in segments),
            token_scores=[x for s in segments for x in s.token_scores], hypotheses=hypotheses,
            alignments=[a for s in segments for a in s.alignments])

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
    """Streamed pieces per text in reading order: glue, then the current segment's text as its tokens arrive (the
    characters it read as references spelled as them again; a segment holding placeholders or references to
    whitespace at once when finished, restored), the next segments' pieces held back until their turn. Concatenated,
    a text's pieces equal its final translation."""

    def __init__(self, texts: Texts, tokenizer):
        self.texts = texts
        self.collector = Collector(texts)
        # each holds back the end of its text that may still go (`Prepared.settled`)
        self.detokenizers = [IncrementalDetokenizer(tokenizer, functools.partial(texts.prepared[text].settled, segment))
                             for text, segment in texts.owner]
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

    def advance(self, tokens: dict[int, list[int]], finished: dict[int, pb.Translation]
                ) -> list[tuple[int, str, pb.Translation | None]]:
        """(text index, piece, final translation or None) to send for one batch of events: each sequence's new
        tokens, detokenized once for the batch (a sequence that finished in it sends its rest from the final
        text instead), then the finished sequences."""
        pieces = []
        for sequence, ids in tokens.items():
            if sequence not in finished:
                pieces += self.push(sequence, ids)
        for sequence, translation in finished.items():
            pieces += self.finish(sequence, translation)
        return pieces

    def push(self, sequence: int, tokens: list[int]) -> list[tuple[int, str, pb.Translation | None]]:
        text, segment = self.texts.owner[sequence]
        prepared = self.texts.prepared[text]
        if not self.texts.streaming[sequence]:
            return []  # placeholders are restored once the segment is complete
        detokenizer = self.detokenizers[sequence]
        sent = detokenizer.sent
        piece = prepared.written(segment, detokenizer.push(*tokens), sent)
        if not piece:
            return []
        if segment != self.current[text]:
            self.held[sequence].append(piece)
            return []
        return [(text, self._glue_before(text, segment, piece) + piece, None)]

    def finish(self, sequence: int, translation: pb.Translation) -> list[tuple[int, str, pb.Translation | None]]:
        """(text index, piece, final translation or None) to send, in order."""
        text, segment = self.texts.owner[sequence]
        prepared = self.texts.prepared[text]
        if prepared.whole:  # its segments' pieces are no pieces of its translation (`Prepared.whole`)
            final = self.collector.add(sequence, translation)
            return [(text, final.text, final)] if final is not None else []
        if self.texts.streaming[sequence]:  # nothing from the model: the segment as it is, as restore() does
            detokenizer = self.detokenizers[sequence]
            sent = detokenizer.sent
            tail = prepared.written(segment, detokenizer.finish(translation.text or prepared.segments[segment]), sent)
        else:
            tail = prepared.restore_segment(segment, translation.text)
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
                pieces.append(self._glue_before(text, turn, held) + held)
            if self.finished[current_sequence] is None:
                break
            self.current[text] += 1
        if final is not None:
            last = self.finished[self.first_sequence[text] + len(prepared.segments) - 1]
            pieces.append(prepared.glue_between(-1, last or "", ""))
            return [(text, "".join(pieces), final)]
        return [(text, "".join(pieces), None)] if any(pieces) else []

    def _glue_before(self, text: int, segment: int, piece: str) -> str:
        """The glue before a segment, the first time the segment sends anything (`piece`, its first), as written
        after the segment before it (sent in order: finished)."""
        if (text, segment) in self.glued:
            return ""
        self.glued.add((text, segment))
        before = self.finished[self.first_sequence[text] + segment - 1] if segment else ""
        return self.texts.prepared[text].glue_between(segment, before or "", piece)
