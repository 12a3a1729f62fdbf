"""An exported model directory as the service reads it without running it: its metadata, limits and tokenizer
(``Model``), and what a served model reports (``ModelInfo``). No ONNX Runtime here: the server, whose graphs run in
engine worker processes, and the text-preparer process need no more of a model; ``service.runtime`` adds the
sessions."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from translator.model_format import FORMAT_VERSION, ModelMeta
from translator.tokenizer import SpecialIds, Tokenizer


@dataclass(frozen=True)
class ModelInfo:
    name: str
    version: str
    precision: str
    provider: str


class Model:
    """An exported model directory as read without running it: metadata, limits and tokenizer. A server whose
    graphs run in worker processes needs no more of a model (ServedModel); Runtime adds the sessions."""

    info: ModelInfo  # these two need the sessions: Runtime reads them there, ServedModel gets them from a worker
    has_alignments: bool

    def __init__(self, model_dir: Path):
        self.model_dir = Path(model_dir)
        self.meta = ModelMeta.read(self.model_dir)
        if self.meta.format != FORMAT_VERSION:
            raise ValueError(f"{self.model_dir} was exported in format {self.meta.format}; this runtime reads format "
                             f"{FORMAT_VERSION} (self-attention over in-place buffers): export it again with `translator export --out "
                             f"{self.model_dir}` (`make serve` does so for the default model)")
        self.special = SpecialIds.of(self.meta.model)
        self.tokenizer = Tokenizer.from_dir(self.model_dir, self.special)
        self.limits = self.meta.limits

    @property
    def vocab_size(self) -> int:
        return self.meta.model["vocab_size"]

    @property
    def max_positions(self) -> int:
        return self.meta.model["max_positions"]


class ServedModel(Model):
    """A model whose graphs run in engine worker processes, as the server sees it: what Model reads, and what
    its first worker reported once it had built its sessions (the provider, whether the decoder has alignments).
    It holds no sessions: they would cost the server's process a copy of the weights (~75 MB fp32 here)."""

    def __init__(self, model_dir: Path, info: ModelInfo, has_alignments: bool):
        super().__init__(model_dir)
        self.info, self.has_alignments = info, has_alignments
