"""The exported model format: what ``export/`` writes and ``service/`` reads. No torch, no onnxruntime.

    <repository>/<name>/<version>/
        config.json            ModelMeta: name, version, model hyperparameters, limits, source checkpoint, graphs
        encoder[.int8|.fp16].onnx   ENCODER_INPUTS → memory, cross K/V per decoder layer
        decoder[.int8|.fp16].onnx   DECODER_INPUTS + past and cross K/V → logits, present K/V, alignments
                               (past/present K and V (B, H, positions, Dh); cross keys transposed (B, H, Dh, S))
        parity_report.json     written by the export; a version is served only when it passed
        spm.model | source.spm + target.spm + vocab.json   the tokenizer (translator.tokenizer)
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

CONFIG_FILE = "config.json"
REPORT_FILE = "parity_report.json"
ENCODER_FILE = "encoder.onnx"
DECODER_FILE = "decoder.onnx"
# In a checkpoint directory, optional: how the checkpoint is best served, {"segment_tokens": N} (Limits.segment_tokens),
# as `translator bench segments` measured it; the export copies it into config.json's limits.
SERVING_FILE = "serving.json"
PRECISIONS = {"fp32": "", "int8": ".int8", "fp16": ".fp16"}  # precision → file name suffix
# 2: the decoder also outputs alignments. 3: keys are stored transposed, (B, H, Dh, positions), in the encoder's
# cross outputs and the decoder's cache inputs and outputs. 4: the decoder's self-attention is ONNX Runtime's
# GroupQueryAttention over whole buffers (past and present K/V (B, H, P, Dh), written in place; no past_mask);
# cross keys stay transposed. The runtime reads only this version.
FORMAT_VERSION = 4
TARGET_LANGUAGE = "de"  # what the models translate English into: written where a file or page names its language

ENCODER_INPUTS = ("src_ids", "src_mask")  # (B, S) int64, (B, S) bool (True = real token)
ENCODER_MEMORY = "memory"  # (B, S, D); the cross K/V outputs follow it
DECODER_INPUTS = ("tokens", "positions", "memory_mask")  # (B,), (B,) = each row's cached positions, (B, S)
DECODER_LOGITS = "logits"  # (B, V); the present K/V follow it
DECODER_ALIGNMENTS = "alignments"  # (B, layers, S): cross-attention averaged over heads; exports before it lack it


def cache_names(prefix: str, layers: int) -> list[str]:
    """``prefix_key_0, prefix_value_0, prefix_key_1, ...``: past, present and cross K/V of each decoder layer."""
    return [f"{prefix}_{kind}_{i}" for i in range(layers) for kind in ("key", "value")]


def position_major(buffers: list) -> list:
    """Views of K/V tensors ``[key_0, value_0, key_1, ...]`` (numpy or torch) whose keys are stored transposed,
    (B, H, Dh, positions), values (B, H, positions, Dh) — the cross K/V, and PyTorch's own cache — with positions on
    axis 2 for both. Writing to a view writes the tensor."""
    return [b.swapaxes(2, 3) if i % 2 == 0 else b for i, b in enumerate(buffers)]


def graph_files(model_dir: Path, precision: str) -> tuple[Path, Path]:
    """(encoder, decoder) ONNX files of one precision."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision {precision!r} must be one of {sorted(PRECISIONS)}")
    suffix = PRECISIONS[precision]
    return Path(model_dir) / f"encoder{suffix}.onnx", Path(model_dir) / f"decoder{suffix}.onnx"


@dataclass(frozen=True)
class Limits:
    """What one request may ask of the model, in tokens, and the longest segment it is given."""

    max_source_tokens: int
    max_output_tokens: int
    # A longer sentence is cut at a clause or word (translator.text.split_to_fit) into pieces of at most this many
    # source tokens: a small model may translate the pieces better than the whole it can read (the shipped model
    # drops words from long sentences). The checkpoint's serving.json sets it; else max_source_tokens.
    segment_tokens: int

    def __post_init__(self):
        if not 1 <= self.segment_tokens <= self.max_source_tokens:
            raise ValueError(f"segment_tokens={self.segment_tokens} must be between 1 and max_source_tokens="
                             f"{self.max_source_tokens}")

    @classmethod
    def of(cls, raw: dict) -> "Limits":
        """The limits of a config.json; one written before segment_tokens existed segments at max_source_tokens."""
        return cls(**{"segment_tokens": raw.get("max_source_tokens"), **raw})


@dataclass(frozen=True)
class ModelMeta:
    """config.json of an exported model."""

    name: str
    version: str
    model: dict  # the checkpoint's TransformerConfig, as stored in its own config.json
    limits: Limits
    source_checkpoint: dict = field(default_factory=dict)  # {"path", "sha256"}
    graphs: dict = field(default_factory=dict)  # per ONNX file: opset, op counts, ORT optimisations
    format: int = 1  # FORMAT_VERSION of the export that wrote it

    @property
    def decoder_layers(self) -> int:
        return self.model["decoder_layers"]

    @classmethod
    def read(cls, model_dir: Path) -> "ModelMeta":
        """FileNotFoundError, saying what the directory is instead, unless it holds an export's config.json."""
        path = Path(model_dir) / CONFIG_FILE
        if not path.is_file():
            raise FileNotFoundError(not_an_export(model_dir, f"{CONFIG_FILE} is missing"))
        try:
            raw = json.loads(path.read_text())
            return cls(name=raw["name"], version=str(raw["version"]), model=raw["model"],
                       limits=Limits.of(raw["limits"]), source_checkpoint=raw.get("source_checkpoint", {}),
                       graphs=raw.get("graphs", {}), format=raw.get("format", 1))
        except KeyError as error:
            raise FileNotFoundError(not_an_export(model_dir, f"its {CONFIG_FILE} has no {error} key")) from None
        except (ValueError, TypeError) as error:  # not JSON, or not the export's shapes
            raise FileNotFoundError(not_an_export(model_dir, f"its {CONFIG_FILE} is not an export's: {error}")) from None

    def write(self, model_dir: Path) -> None:
        (Path(model_dir) / CONFIG_FILE).write_text(json.dumps(asdict(self), indent=2) + "\n")


def segment_tokens(checkpoint: Path) -> int | None:
    """A checkpoint directory's SERVING_FILE segment length, if it names one. ValueError, saying what to fix, for a
    file that is not {"segment_tokens": a positive integer}."""
    path = Path(checkpoint) / SERVING_FILE
    if not path.is_file():
        return None
    try:
        serving = json.loads(path.read_text())
    except ValueError as error:
        raise ValueError(f"{path} is not JSON: {error}") from None
    if not isinstance(serving, dict) or set(serving) - {"segment_tokens"}:
        raise ValueError(f"{path} must be a JSON object whose only key is segment_tokens, not {serving!r}")
    tokens = serving.get("segment_tokens")
    if tokens is not None and (type(tokens) is not int or tokens < 1):
        raise ValueError(f"{path}: segment_tokens must be a positive integer, not {tokens!r}")
    return tokens


def not_an_export(model_dir: Path, why: str) -> str:
    """Why ``model_dir`` cannot be served, and what the user probably meant: one of its versions, or exporting the
    PyTorch checkpoint it holds."""
    model_dir = Path(model_dir)
    message = f"{model_dir} is not an exported model directory: {why}"
    versions = sorted((p.name for p in model_dir.glob("*") if p.name.isdigit() and (p / CONFIG_FILE).is_file()),
                      key=int)
    if versions:
        return f"{message}; it holds versions ({', '.join(versions)}): pass one, e.g. {model_dir / versions[-1]}"
    if (model_dir / "model.safetensors").is_file():  # model.transformer.WEIGHTS_FILE (that module imports torch)
        return (f"{message}; it is a PyTorch checkpoint: translate with --checkpoint {model_dir}, or export it "
                f"with `translator export --checkpoint {model_dir} --out DIR`")
    return message


def passed_parity(model_dir: Path) -> bool:
    report = Path(model_dir) / REPORT_FILE
    return report.exists() and bool(json.loads(report.read_text()).get("passed"))


def model_name(spec: str) -> str:
    """The name in a model spec, ``name`` or ``name/version``."""
    return spec.partition("/")[0]


def resolve_model_dir(repository: Path, spec: str) -> Path:
    """``name`` → the highest numbered version that passed its parity check; ``name/version`` → that one."""
    name, _, version = spec.partition("/")
    base = Path(repository) / name
    if version:
        candidates = [base / version]
    else:
        candidates = sorted((p for p in base.glob("*") if p.name.isdigit()), key=lambda p: int(p.name), reverse=True)
    for candidate in candidates:
        if passed_parity(candidate):
            return candidate
    raise FileNotFoundError(f"no exported model {spec!r} with a passed parity report under {repository}; "
                            f"run `translator export --out {base}/1` (or `make serve`, which does it for the default model)")
