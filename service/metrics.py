"""Prometheus metrics (prefix ``translator_``), served on their own HTTP port.

Labels come only from small fixed sets: method, model (loaded names, else "unknown"), gRPC code,
finish reason. Units are in the names.
"""

from __future__ import annotations

from typing import Callable

from prometheus_client import (CollectorRegistry, Counter, Gauge, Histogram, PlatformCollector, ProcessCollector,
                               start_http_server)

from service.scheduler import Request, StepOutput

LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
TOKEN_TIME_BUCKETS = (0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256)
BATCH_BUCKETS = (1, 2, 4, 8, 16, 24, 32, 48, 64, 96, 128)
SEGMENT_BUCKETS = (0, 1, 2, 3, 5, 10, 20, 50, 100)
TOKEN_BUCKETS = (1, 4, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096)


class Metrics:
    def __init__(self):
        self.registry = registry = CollectorRegistry()
        ProcessCollector(registry=registry)
        PlatformCollector(registry=registry)
        self.requests = Counter("translator_requests_total", "RPCs by method, model and gRPC status code",
                                ["method", "model", "code"], registry=registry)
        self.request_seconds = Histogram("translator_request_duration_seconds", "RPC latency from arrival to last byte",
                                         ["method", "model"], buckets=LATENCY_BUCKETS, registry=registry)
        self.queue_wait = Histogram("translator_queue_wait_seconds", "Time a sequence waited before joining the decoder batch",
                                    ["model"], buckets=LATENCY_BUCKETS, registry=registry)
        self.first_token = Histogram("translator_time_to_first_token_seconds", "Arrival to first generated token, per sequence",
                                     ["model"], buckets=LATENCY_BUCKETS, registry=registry)
        self.per_token = Histogram("translator_time_per_output_token_seconds", "Mean time between generated tokens, per sequence",
                                   ["model"], buckets=TOKEN_TIME_BUCKETS, registry=registry)
        self.batch_size = Histogram("translator_decoder_batch_size", "Sequences in each decoder step",
                                    ["model"], buckets=BATCH_BUCKETS, registry=registry)
        self.batched_tokens = Histogram("translator_batched_tokens", "Decoder positions plus newly encoded source tokens per step",
                                        ["model"], buckets=TOKEN_BUCKETS, registry=registry)
        self.input_tokens = Counter("translator_input_tokens_total", "Source tokens of finished sequences",
                                    ["model"], registry=registry)
        self.generated_tokens = Counter("translator_generated_tokens_total", "Generated tokens of finished sequences",
                                        ["model"], registry=registry)
        self.sequences = Counter("translator_sequences_finished_total", "Finished sequences by finish reason",
                                 ["model", "reason"], registry=registry)
        self.segments = Histogram("translator_text_segments", "Segments per translated text: sentences, and pieces "
                                  "of sentences longer than the model's segment_tokens", ["model"],
                                  buckets=SEGMENT_BUCKETS, registry=registry)
        self.worker_restarts = Counter("translator_engine_worker_restarts_total",
                                       "Engine worker processes replaced: exited (killed by the OOM killer, a crash in "
                                       "native code) or stalled (held sequences and sent nothing for 60 s)",
                                       ["model", "reason"], registry=registry)
        self.preparations_stopped = Counter("translator_text_preparations_stopped_total",
                                            "Requests whose texts took longer than their bound to split into sentences "
                                            "and tokenize, stopped and refused INVALID_ARGUMENT (a pattern of the text "
                                            "pipeline backtracks on some text)", ["model"], registry=registry)
        self.placeholder_repairs = Counter("translator_placeholder_repairs_total",
                                           "Placeholder tokens the model lost, repeated or reordered, repaired",
                                           ["model"], registry=registry)
        self.placeholder_retries = Counter("translator_placeholder_retries_total",
                                           "Sentences decoded again with a beam search because their greedy "
                                           "translation lost or doubled a placeholder token, a code it reads or a "
                                           "number, said a run of words or a full stop twice, ended otherwise than "
                                           "their source or said a bracket more or less often, or came back short "
                                           "(--placeholder-retry-beams)",
                                           ["model"], registry=registry)
        self.queue_depth = Gauge("translator_queue_depth", "Sequences waiting to join the decoder batch",
                                 ["model"], registry=registry)
        self.queue_capacity = Gauge("translator_queue_capacity", "Waiting sequences the queue accepts before RESOURCE_EXHAUSTED",
                                    ["model"], registry=registry)
        self.active = Gauge("translator_active_sequences", "Sequences in the running decoder batch",
                            ["model"], registry=registry)
        self.cache_bytes = Gauge("translator_kv_cache_bytes", "K/V cache bytes held by running sequences (slots in use of every engine worker's pool)",
                                 ["model"], registry=registry)
        self.stream_interval = Gauge("translator_stream_interval_seconds",
                                     "Time a TranslateStream now gathers pieces between messages (grows with the "
                                     "streaming texts under --stream-updates-per-second)", registry=registry)
        self.model_info = Gauge("translator_model_info", "Loaded models (value 1)",
                                ["model", "version", "provider", "precision"], registry=registry)
        self._http = None
        self._children: dict[tuple, object] = {}

    def _labeled(self, metric, *labels):
        """metric.labels(*labels), looked up once per label set (the sets are small and fixed): prometheus_client
        checks and locks on every labels() call, 1.5 µs against 0.3 for this lookup, ~10 calls per request."""
        key = (metric, labels)
        if (child := self._children.get(key)) is None:
            child = self._children[key] = metric.labels(*labels)
        return child

    def model_loaded(self, info) -> None:
        self.model_info.labels(info.name, info.version, info.provider, info.precision).set(1)
        for reason in ("exited", "stalled"):  # at 0 from the start: increase() sees the first one
            self._labeled(self.worker_restarts, info.name, reason)
        self._labeled(self.preparations_stopped, info.name)
        self._labeled(self.placeholder_repairs, info.name)
        self._labeled(self.placeholder_retries, info.name)

    def observe_step(self, stats: StepOutput, engine) -> None:
        """Called by an engine worker's thread after every decoder step."""
        model = engine.name
        if stats.replaced is not None:
            self._labeled(self.worker_restarts, model, stats.replaced).inc()
        if stats.batch_size:
            self._labeled(self.batch_size, model).observe(stats.batch_size)
            self._labeled(self.batched_tokens, model).observe(stats.batched_tokens)
        for request in stats.finished:
            self._labeled(self.sequences, model, request.finish_reason.value).inc()
            if request.scheduled_time is not None:
                self._labeled(self.queue_wait, model).observe(request.scheduled_time - request.arrival_time)

    def observe_finished(self, model: str, request: Request) -> None:
        """Token counts and token timings of a sequence delivered to its client."""
        self._labeled(self.input_tokens, model).inc(len(request.source_ids))
        self._labeled(self.generated_tokens, model).inc(len(request.output_ids))
        if request.retried:
            self._labeled(self.placeholder_retries, model).inc()
        if request.first_token_time is not None:
            self._labeled(self.first_token, model).observe(request.first_token_time - request.arrival_time)
            if len(request.output_ids) > 1:
                self._labeled(self.per_token, model).observe(
                    (request.finish_time - request.first_token_time) / (len(request.output_ids) - 1))

    def observe_text(self, model: str, segments: int, repairs: int) -> None:
        """One translated text: how many segments it had, how many placeholder tokens were repaired."""
        self._labeled(self.segments, model).observe(segments)
        if repairs:
            self._labeled(self.placeholder_repairs, model).inc(repairs)

    def observe_preparation_stopped(self, model: str) -> None:
        self._labeled(self.preparations_stopped, model).inc()

    def observe_rpc(self, method: str, model: str, code: str, seconds: float | None) -> None:
        """Count a call under its final status; seconds is None for a call that never reached its handler."""
        self._labeled(self.requests, method, model, code).inc()
        if seconds is not None:
            self._labeled(self.request_seconds, method, model).observe(seconds)

    def serve(self, host: str, port: int, engines: dict, stream_interval: Callable[[], float]) -> int | None:
        """Start the scrape endpoint (port 0: any free port; -1: off); returns the bound port. The gauges read
        their values when scraped."""
        self.stream_interval.set_function(stream_interval)
        for name, engine in engines.items():
            self.queue_depth.labels(name).set_function(engine.queue_depth)
            self.queue_capacity.labels(name).set(engine.limits.max_queue_size)
            self.active.labels(name).set_function(engine.active_sequences)
            self.cache_bytes.labels(name).set_function(engine.cache_bytes)
        if port < 0:
            return None
        self._http, _ = start_http_server(port, addr=host.strip("[]"), registry=self.registry)  # "[::1]" too
        return self._http.server_port

    def stop(self) -> None:
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
