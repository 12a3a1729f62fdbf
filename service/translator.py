"""Text in, text out, in this process: ``Translator(model_dir).translate(texts)`` (paragraphs, line breaks and
placeholders handled by translator.text, as in the server) or ``translate_batch(sentences)`` (the model alone).

The sentences are decoded by the scheduler's loop (``Scheduler.run``), the one the server runs."""

from __future__ import annotations

from pathlib import Path

from service.decoding import DecodingOptions, TranslationResult
from service.runtime import Runtime
from service.scheduler import Request, Scheduler
from translator.text import Prepared, prepare


class Translator:
    def __init__(self, model_dir: Path, *, device: str = "cpu", precision: str = "fp32", threads: int | None = None,
                 max_batch_size: int = 32):
        self.runtime = Runtime(model_dir, device=device, precision=precision, threads=threads)
        self.max_batch_size = max_batch_size

    def translate(self, texts: list[str], *, options: DecodingOptions = DecodingOptions(), html: bool = False,
                  preserve_placeholders: bool = True) -> list[str]:
        """Whole texts: split into sentences that fit the model, translated together, rejoined as the source."""
        limit = self.runtime.limits.max_source_tokens
        fits = lambda segment: len(self.runtime.tokenizer.encode(segment)) <= limit  # noqa: E731
        return self.translate_prepared([prepare(text, preserve_placeholders, html, fits) for text in texts], options)

    def translate_prepared(self, prepared: list[Prepared], options: DecodingOptions = DecodingOptions()) -> list[str]:
        """Texts already split by translator.text.prepare; each Prepared keeps its `repairs` count."""
        results = iter(self.translate_batch([s for p in prepared for s in p.segments], options=options))
        return [p.restore([next(results).text for _ in p.segments]) for p in prepared]

    def translate_batch(self, texts: list[str], *, options: DecodingOptions = DecodingOptions()) -> list[TranslationResult]:
        if not texts:
            return []
        options = options.validate(self.runtime.limits.max_output_tokens)
        tokenizer = self.runtime.tokenizer
        sources = tokenizer.encode_batch(texts)
        requests = [Request(str(i), ids, options) for i, ids in enumerate(sources)]
        # Similar lengths join together, so encoder batches carry little padding.
        by_length = sorted(requests, key=lambda r: len(r.source_ids))
        Scheduler(self.runtime, max_num_seqs=self.max_batch_size, max_queue_size=max(1, len(texts))).run(by_length)
        return [TranslationResult(tokenizer.decode(r.output_ids), r.output_ids, len(r.source_ids), r.finish_reason)
                for r in requests]
