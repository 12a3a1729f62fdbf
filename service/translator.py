"""Text in, text out, in this process: ``Translator(model_dir).translate(texts)`` (paragraphs, line breaks and
placeholders handled by translator.text, as in the server) or ``translate_batch(sentences)`` (the model alone).

The sentences are decoded by the scheduler's loop (``Scheduler.run``), the one the server runs."""

from __future__ import annotations

from pathlib import Path

from service.decoding import DecodingOptions, TranslationResult
from service.runtime import Runtime
from service.scheduler import Request, Scheduler
from translator.text import Prepared, segment_texts


class Translator:
    def __init__(self, model_dir: Path, *, device: str = "cpu", precision: str = "fp32", threads: int | None = None,
                 max_batch_size: int = 32):
        self.runtime = Runtime(model_dir, device=device, precision=precision, threads=threads)
        self.max_batch_size = max_batch_size

    def translate(self, texts: list[str], *, options: DecodingOptions = DecodingOptions(), html: bool = False,
                  preserve_placeholders: bool = True) -> list[str]:
        """Whole texts: split into sentences that fit the model, translated together, rejoined as the source."""
        return self.translate_segmented(*self.segment(texts, html=html, preserve_placeholders=preserve_placeholders),
                                        options=options)

    def segment(self, texts: list[str], *, html: bool = False,
                preserve_placeholders: bool = True) -> tuple[list[Prepared], list[list[int]]]:
        """translator.text.segment_texts for this model: the prepared texts and their segments' token ids."""
        return segment_texts(texts, self.runtime.tokenizer, self.runtime.limits.max_source_tokens,
                             preserve_placeholders, html)

    def translate_segmented(self, prepared: list[Prepared], sources: list[list[int]], *,
                            options: DecodingOptions = DecodingOptions()) -> list[str]:
        """Texts from segment(); each Prepared keeps its `repairs` count."""
        results = iter(self.translate_ids(sources, options=options))
        return [p.restore([next(results).text for _ in p.segments]) for p in prepared]

    def translate_batch(self, texts: list[str], *, options: DecodingOptions = DecodingOptions()) -> list[TranslationResult]:
        """Sentences, each translated as it is (the model alone)."""
        return self.translate_ids(self.runtime.tokenizer.encode_batch(texts) if texts else [], options=options)

    def translate_ids(self, sources: list[list[int]], *,
                      options: DecodingOptions = DecodingOptions()) -> list[TranslationResult]:
        if not sources:
            return []
        options = options.validate(self.runtime.limits.max_output_tokens)
        tokenizer = self.runtime.tokenizer
        requests = [Request(str(i), ids, options) for i, ids in enumerate(sources)]
        # Similar lengths join together, so encoder batches carry little padding.
        by_length = sorted(requests, key=lambda r: len(r.source_ids))
        Scheduler(self.runtime, max_num_seqs=self.max_batch_size, max_queue_size=len(sources)).run(by_length)
        return [TranslationResult(tokenizer.decode(r.output_ids), r.output_ids, len(r.source_ids), r.finish_reason)
                for r in requests]
