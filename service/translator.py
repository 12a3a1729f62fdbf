"""Text in, text out, in this process: ``Translator(model_dir).translate(texts)`` (paragraphs, line breaks and
placeholders handled by translator.text, as in the server), ``translate_texts`` for the server's whole
Translation messages (scores, n-best, alignments), or ``translate_batch(sentences)`` (the model alone).

The sentences are decoded by the scheduler's loop (``Scheduler.run``), the one the server runs."""

from __future__ import annotations

from pathlib import Path

from service.decoding import DecodingCapabilities, DecodingOptions, TranslationResult
from service.runtime import Runtime
from service.scheduler import UNCOVERED_ATTENTION, Request, Scheduler
from service.texts import Texts
from translator.glossary import Glossary
from translator.v1 import translator_pb2 as pb


class Translator:
    def __init__(self, model_dir: Path, *, device: str = "cpu", precision: str = "fp32", threads: int | None = None,
                 max_batch_size: int = 32, alignment_layer: int = -1, placeholder_retry_beams: int = 4,
                 uncovered_attention: float = UNCOVERED_ATTENTION):
        self.runtime = Runtime(model_dir, device=device, precision=precision, threads=threads,
                               alignment_layer=alignment_layer)
        self.max_batch_size = max_batch_size
        self.placeholder_retry_beams = placeholder_retry_beams  # as the server's --placeholder-retry-beams
        self.uncovered_attention = uncovered_attention  # and --uncovered-attention
        self.capabilities = DecodingCapabilities(
            max_output_tokens=self.runtime.limits.max_output_tokens, vocab_size=self.runtime.vocab_size,
            max_beam_size=max_batch_size, alignments=self.runtime.has_alignments)

    def translate(self, texts: list[str], *, options: DecodingOptions = DecodingOptions(), html: bool = False,
                  preserve_placeholders: bool = True, glossary: Glossary | None = None) -> list[str]:
        """Whole texts: split into sentences that fit the model, translated together, rejoined as the source."""
        return [t.text for t in self.translate_texts(texts, options=options, html=html,
                                                     preserve_placeholders=preserve_placeholders, glossary=glossary)]

    def translate_texts(self, texts: list[str], *, options: DecodingOptions = DecodingOptions(), html: bool = False,
                        preserve_placeholders: bool = True, glossary: Glossary | None = None) -> list[pb.Translation]:
        """As translate(), as the server's Translation messages (scores, hypotheses, alignments when asked)."""
        texts = self.segment(texts, html=html, preserve_placeholders=preserve_placeholders, options=options,
                             glossary=glossary)
        return self.translate_segmented(texts, options=options)

    def segment(self, texts: list[str], *, html: bool = False, preserve_placeholders: bool = True,
                options: DecodingOptions = DecodingOptions(), glossary: Glossary | None = None) -> Texts:
        """translator.text.segment_texts for this model: the prepared texts and their segments' token ids (with
        inline tags taken out, to be put back by alignment, where the model has alignments)."""
        return Texts.segmented(self.runtime, texts, options, preserve_placeholders=preserve_placeholders, html=html,
                               glossary=glossary)

    def translate_segmented(self, texts: Texts, *, options: DecodingOptions = DecodingOptions()) -> list[pb.Translation]:
        """Texts from segment(); each Prepared keeps its `repairs` count."""
        collector = texts.collector()
        translations = dict(collector.empty_texts())
        for sequence, request in enumerate(self.decode(texts.sources, texts.decoding_options(options), texts.kept())):
            done = collector.add(sequence, texts.translation(sequence, request, self.runtime.tokenizer))
            if done is not None:
                translations[texts.owner[sequence][0]] = done
        return [translations[i] for i in range(len(texts.prepared))]

    def translate_batch(self, texts: list[str], *, options: DecodingOptions = DecodingOptions()) -> list[TranslationResult]:
        """Sentences, each translated as it is (the model alone)."""
        tokenizer = self.runtime.tokenizer
        requests = self.decode(tokenizer.encode_batch(texts), options)
        return [TranslationResult(tokenizer.decode(r.output_ids), r.output_ids, len(r.source_ids), r.finish_reason,
                                  r.hypotheses) for r in requests]

    def decode(self, sources: list[list[int]], options: DecodingOptions,
               kept: list[tuple[str, ...]] | None = None) -> list[Request]:
        """Finished requests for these token ids, in their order (ValueError for options out of range or a source
        longer than the model reads); kept[i]: the placeholder tokens source i's translation must hold
        (Request.kept)."""
        if not sources:
            return []
        options = options.validate(self.capabilities)
        requests = [Request(str(i), ids, options, kept=kept[i] if kept else ()) for i, ids in enumerate(sources)]
        # Similar lengths join together, so encoder batches carry little padding.
        by_length = sorted(requests, key=lambda r: len(r.source_ids))
        Scheduler(self.runtime, max_num_seqs=self.max_batch_size, max_queue_size=len(sources),
                  retry_beams=self.placeholder_retry_beams, uncovered_attention=self.uncovered_attention).run(by_length)
        return requests
