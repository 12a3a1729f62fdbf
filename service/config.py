"""Server settings: one dataclass, filled from command-line flags whose defaults come from
``TRANSLATOR_*`` environment variables, and the model repository layout."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

from translator.model_format import model_name

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_REPOSITORY = ROOT / "model_repository"
DEFAULT_DATA = ROOT / "data"  # the corpus splits, wherever the command runs from
DEFAULT_MODEL = "en-de"
DEFAULT_MODEL_DIR = DEFAULT_REPOSITORY / DEFAULT_MODEL / "1"  # where `make export` puts the shipped model
DEFAULT_CHECKPOINT = ROOT / "model" / "default"
DEFAULT_PORT = 50051  # translator serve's gRPC port, and the one clients add to a host given without one
DEFAULT_SERVER = os.environ.get("TRANSLATOR_SERVER", f"127.0.0.1:{DEFAULT_PORT}")  # what clients talk to
BENCH_RESULTS = ROOT / "bench" / "results"  # where benchmarks write JSON and plots
# However many texts stream at once, each still gets an update at least this often while it decodes (the longest
# --stream-interval-ms, and the cap of the interval --stream-updates-per-second stretches).
MAX_STREAM_INTERVAL_MS = 1000
MAX_PORT = 65535


def host_port(host: str, port: int) -> str:
    """An address as gRPC and URLs take it: an IPv6 address in brackets (--host :: gave gRPC ":::50051", which it
    cannot read: "cannot listen", whatever the port)."""
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


class DeviceUnavailable(RuntimeError):
    """The device asked for (--device) cannot run a model here; the message says what to install or choose instead."""


@dataclass(frozen=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = DEFAULT_PORT  # 0 picks a free port (tests)
    repository: Path = DEFAULT_REPOSITORY
    models: tuple[str, ...] = (DEFAULT_MODEL,)  # "name" (latest version) or "name/version"; the first is the default
    device: str = "cpu"  # cpu | cuda
    precision: str = "fp32"  # fp32 | int8 | fp16
    workers: int = 0  # engine workers (each with its own ORT sessions) per model; 0 = one per core
    threads: int = 0  # ONNX Runtime intra-op threads per worker; 0 = cores / workers
    worker_processes: bool | None = None  # engine workers in processes of their own, else threads; None: processes on CPU
    max_num_seqs: int = 64  # sequences in one decoder step
    max_num_batched_tokens: int = 4096  # decoder positions + newly encoded source tokens per step
    max_beam_size: int = 8  # largest DecodingOptions.beam_size; at most max_num_seqs (each beam is a decoder row)
    alignment_layer: int = -1  # decoder layer whose cross-attention alignments report (negative: from the last)
    max_queue_size: int = 1024  # waiting sequences; beyond: RESOURCE_EXHAUSTED
    join_interval_steps: int = 1  # while rows decode, waiting requests join at every n-th step (shared encoder runs)
    placeholder_retry_beams: int = 4  # a greedy sentence with a defect (scheduler.Defects) is decoded again
    uncovered_attention: float = 0.5  # a source word given less attention was left out (scheduler.UNCOVERED_ATTENTION)
    max_texts_per_request: int = 64
    max_text_chars: int = 32768  # characters per text; longer ones are refused before tokenizing
    max_message_bytes: int = 4 * 1024 * 1024  # largest request message accepted
    max_concurrent_streams: int = 256  # concurrent calls per client connection
    stream_interval_ms: float = 50.0  # TranslateStream: after a message, hold further pieces this long (0: per token)
    stream_updates_per_second: float = 250.0  # intermediate pieces of all open streamed texts together; 0: no bound
    batch_inflight: int = 64  # TranslateBatch items read but not yet answered, per stream; reading pauses beyond
    grace_seconds: float = 20.0  # on SIGTERM, time for in-flight requests to finish
    metrics_host: str = "127.0.0.1"
    metrics_port: int = 9464  # Prometheus scrape port (0 = a free port; -1 = off)
    tls_cert: Path | None = None  # PEM certificate chain; with tls_key, serve TLS
    tls_key: Path | None = None
    tls_client_ca: Path | None = None  # PEM CA: require client certificates it signed (mutual TLS)
    auth_token_file: Path | None = None  # accepted bearer tokens, one per line (also TRANSLATOR_AUTH_TOKEN)
    warmup: bool = True

    ENV = {  # flag → environment variable; documented in the README
        "host": "TRANSLATOR_HOST", "port": "TRANSLATOR_PORT", "repository": "TRANSLATOR_MODEL_REPOSITORY",
        "models": "TRANSLATOR_MODELS", "device": "TRANSLATOR_DEVICE", "precision": "TRANSLATOR_PRECISION",
        "workers": "TRANSLATOR_WORKERS", "threads": "TRANSLATOR_THREADS", "worker_processes": "TRANSLATOR_WORKER_PROCESSES", "max_num_seqs": "TRANSLATOR_MAX_NUM_SEQS",
        "max_beam_size": "TRANSLATOR_MAX_BEAM_SIZE", "alignment_layer": "TRANSLATOR_ALIGNMENT_LAYER",
        "max_num_batched_tokens": "TRANSLATOR_MAX_NUM_BATCHED_TOKENS", "max_queue_size": "TRANSLATOR_MAX_QUEUE_SIZE",
        "join_interval_steps": "TRANSLATOR_JOIN_INTERVAL_STEPS",
        "placeholder_retry_beams": "TRANSLATOR_PLACEHOLDER_RETRY_BEAMS",
        "uncovered_attention": "TRANSLATOR_UNCOVERED_ATTENTION",
        "max_texts_per_request": "TRANSLATOR_MAX_TEXTS_PER_REQUEST", "max_text_chars": "TRANSLATOR_MAX_TEXT_CHARS", "batch_inflight": "TRANSLATOR_BATCH_INFLIGHT",
        "stream_interval_ms": "TRANSLATOR_STREAM_INTERVAL_MS", "stream_updates_per_second": "TRANSLATOR_STREAM_UPDATES_PER_SECOND",
        "grace_seconds": "TRANSLATOR_GRACE_SECONDS", "metrics_host": "TRANSLATOR_METRICS_HOST",
        "metrics_port": "TRANSLATOR_METRICS_PORT", "max_message_bytes": "TRANSLATOR_MAX_MESSAGE_BYTES",
        "max_concurrent_streams": "TRANSLATOR_MAX_CONCURRENT_STREAMS", "tls_cert": "TRANSLATOR_TLS_CERT",
        "tls_key": "TRANSLATOR_TLS_KEY", "tls_client_ca": "TRANSLATOR_TLS_CLIENT_CA",
        "auth_token_file": "TRANSLATOR_AUTH_TOKEN_FILE",
    }

    SWITCHES = ("worker_processes",)  # settings whose variable reads 1/0

    def __post_init__(self):
        problems = [f"{name} must be at least 1" for name in
                    ("max_num_seqs", "max_num_batched_tokens", "max_beam_size", "max_queue_size", "join_interval_steps", "max_texts_per_request", "max_text_chars",
                     "max_message_bytes", "max_concurrent_streams", "batch_inflight")
                    if getattr(self, name) < 1]
        if not 0 <= self.stream_interval_ms <= MAX_STREAM_INTERVAL_MS:
            problems.append(f"stream_interval_ms={self.stream_interval_ms} must be between 0 and {MAX_STREAM_INTERVAL_MS}")
        if not self.stream_updates_per_second >= 0:  # written so that nan fails too
            problems.append(f"stream_updates_per_second={self.stream_updates_per_second} must be 0 (no bound) or more")
        if not 0 <= self.grace_seconds < math.inf:
            problems.append(f"grace_seconds={self.grace_seconds} must be a finite number of seconds, 0 or more")
        # gRPC would bind a port above 65535 modulo 65536 (70000 served on 4464), and the metrics server raise
        if not 0 <= self.port <= MAX_PORT:
            problems.append(f"port={self.port} must be between 0 (any free port) and {MAX_PORT}")
        if not -1 <= self.metrics_port <= MAX_PORT:
            problems.append(f"metrics_port={self.metrics_port} must be between -1 (off) and {MAX_PORT}")
        if self.placeholder_retry_beams < 0:
            problems.append(f"placeholder_retry_beams={self.placeholder_retry_beams} must be 0 (never) or more")
        if not 0 <= self.uncovered_attention < math.inf:  # (nan fails too)
            problems.append(f"uncovered_attention={self.uncovered_attention} must be 0 (no word left out) or more")
        if self.workers < 0 or self.threads < 0:
            problems.append("workers and threads must be 0 (automatic) or more")
        if self.device not in ("cpu", "cuda"):
            problems.append(f"device {self.device!r} must be cpu or cuda")
        if not self.models:
            problems.append("name at least one model")
        names = [model_name(spec) for spec in self.models]
        if repeated := sorted({name for name in names if names.count(name) > 1}):  # one engine per name is served
            problems.append(f"models name {', '.join(map(repr, repeated))} more than once: serve one version of each")
        problems += [f"{name}={path} is not a file" for name in ("tls_cert", "tls_key", "tls_client_ca", "auth_token_file")
                     if (path := getattr(self, name)) is not None and not Path(path).is_file()]
        if (self.tls_cert is None) != (self.tls_key is None):
            problems.append("TLS needs both a certificate (--tls-cert) and its key (--tls-key)")
        if self.tls_client_ca is not None and self.tls_cert is None:
            problems.append("mutual TLS (--tls-client-ca) needs TLS (--tls-cert and --tls-key)")
        if problems:
            raise ValueError("invalid server settings: " + "; ".join(problems))

    @property
    def engine_workers(self) -> int:
        """Workers per model: as set, else one per core on CPU (measured faster than one worker with every
        core: small-batch GEMMs scale poorly across threads) and one on CUDA (a GPU is one device)."""
        if self.workers:
            return self.workers
        return 1 if self.device == "cuda" else max(1, (os.cpu_count() or 1) // max(1, self.threads or 1))

    @property
    def engine_in_processes(self) -> bool:
        """Workers in processes of their own unless told otherwise, except on CUDA: there every process would need a
        CUDA context (and GPU memory) of its own."""
        return self.device == "cpu" if self.worker_processes is None else self.worker_processes

    @property
    def worker_threads(self) -> int:
        """ONNX Runtime intra-op threads of each worker."""
        return self.threads or max(1, (os.cpu_count() or 1) // self.engine_workers)

    @property
    def oversubscribed(self) -> str | None:
        """Why the engines' threads outnumber the cores (a warning for the log), else None."""
        cores, threads = os.cpu_count() or 1, len(self.models) * self.engine_workers * self.worker_threads
        if self.device != "cpu" or threads <= cores:
            return None
        return (f"{len(self.models)} model(s) x {self.engine_workers} engine workers x {self.worker_threads} ONNX "
                f"Runtime threads = {threads} threads on {cores} cores: they will take turns (measured on 2 cores, two "
                "workers of two threads each served 13-27% fewer tokens/s than two of one); --workers 0 and "
                "--threads 0 fit the cores")

    @classmethod
    def env_default(cls, name: str):
        """The default of a setting, overridden by its TRANSLATOR_* variable when set."""
        default = cls.__dataclass_fields__[name].default
        raw = os.environ.get(cls.ENV[name])
        if raw is None:
            return default
        if name == "models":
            return tuple(m.strip() for m in raw.split(",") if m.strip())
        if name in cls.SWITCHES:
            if raw.strip().lower() not in ("1", "0", "true", "false", "yes", "no", "on", "off"):
                raise ValueError(f"{cls.ENV[name]}={raw!r} must be 1 or 0")
            return raw.strip().lower() in ("1", "true", "yes", "on")
        if default is None or isinstance(default, Path):
            return Path(raw)
        try:
            return type(default)(raw)
        except ValueError:
            kind = "a whole number" if isinstance(default, int) else "a number"
            raise ValueError(f"{cls.ENV[name]}={raw!r} must be {kind}") from None
