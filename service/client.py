"""Python clients for translator.v1 (sync and asyncio): TLS, tokens, retries, client-side balancing."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Iterable, Iterator, Mapping

import grpc

from service.config import DEFAULT_SERVER
from service.security import TOKEN_ENV, bearer, channel_credentials
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc


RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)  # never a client error
# gRPC's own client policy: spread calls over every address the name resolves to (a Kubernetes headless Service gives
# one per pod) with round_robin (gRPC keeps one long-lived connection per address), and retry Translate,
# TranslateStream and ListModels on UNAVAILABLE (a replica draining or gone) and RESOURCE_EXHAUSTED (a full queue)
# with exponential backoff and jitter (gRPC waits a random time up to the current backoff); a stream only before its
# first response. Not TranslateBatch: a batch job reopens its streams and sends their unanswered items again itself
# (service.batch), and gRPC replaying a stream's items on a retry left a job waiting forever on its last items in 4
# of 20 server restarts (0 of 20 without).
SERVICE_CONFIG = {
    "loadBalancingConfig": [{"round_robin": {}}],
    "methodConfig": [{
        "name": [{"service": "translator.v1.Translator", "method": method}
                 for method in ("Translate", "TranslateStream", "ListModels")],
        "retryPolicy": {"maxAttempts": 5, "initialBackoff": "0.2s", "maxBackoff": "5s", "backoffMultiplier": 2,
                        "retryableStatusCodes": [code.name for code in RETRYABLE]},
    }],
}
# While a call is open, ping a connection that has been silent for 30 s and drop it after 10 s without an answer: a
# call to a server that vanished without closing the connection (a node lost, a route dead) fails UNAVAILABLE within
# about a minute (63 s in tests/test_client.py; without keepalive it still waited after 200 s, TCP gives up after
# ~15 minutes), and a batch job reopens its stream elsewhere.
KEEPALIVE_OPTIONS = [("grpc.keepalive_time_ms", 30_000), ("grpc.keepalive_timeout_ms", 10_000)]
CHANNEL_OPTIONS = [("grpc.service_config", json.dumps(SERVICE_CONFIG)), ("grpc.enable_retries", 1), *KEEPALIVE_OPTIONS]


def open_channel(target: str, *, tls: bool = False, ca: Path | None = None, cert: Path | None = None,
                 key: Path | None = None, aio: bool = False):
    """A channel (grpc or grpc.aio) to target: TLS when tls, ca or cert is given, else plaintext."""
    module = grpc.aio if aio else grpc
    if tls or ca or cert:
        return module.secure_channel(target, channel_credentials(ca, cert, key), CHANNEL_OPTIONS)
    return module.insecure_channel(target, CHANNEL_OPTIONS)


def token_metadata(token: str | None) -> tuple[tuple[str, str], ...] | None:
    """Bearer token metadata; token None reads $TRANSLATOR_AUTH_TOKEN."""
    token = token if token is not None else os.environ.get(TOKEN_ENV, "").strip()
    return bearer(token) if token else None


def request(texts: list[str], model: str = "", max_output_tokens: int = 0, min_output_tokens: int = 0,
            request_id: str = "", html: bool = False, preserve_placeholders: bool | None = None,
            glossary: Mapping[str, str] | Iterable[tuple[str, str]] = (), **decoding) -> pb.TranslateRequest:
    """A TranslateRequest; `glossary` maps terms to their translations ({"cloud": "Wolke"}, or (term, translation)
    pairs; "" keeps a term as written); `decoding` takes any other DecodingOptions field by name (beam_size=4, ...)."""
    options = pb.DecodingOptions(max_output_tokens=max_output_tokens, min_output_tokens=min_output_tokens,
                                 text_format=pb.TEXT_FORMAT_HTML if html else pb.TEXT_FORMAT_PLAIN, **decoding)
    options.glossary.extend(pb.GlossaryEntry(source=source, target=target)
                            for source, target in (glossary.items() if isinstance(glossary, Mapping) else glossary))
    if preserve_placeholders is not None:  # unset: the server's default (on)
        options.preserve_placeholders = preserve_placeholders
    return pb.TranslateRequest(texts=texts, model=model, request_id=request_id, options=options)


class TranslatorClient:
    """``TranslatorClient("127.0.0.1:50051").translate(["Where is the station?"])``.

    TLS: ``tls=True`` (trusting the system's roots, or ``ca``); ``cert`` and ``key`` add a client certificate
    (mutual TLS). ``token`` is sent as a bearer token on every call (default: ``$TRANSLATOR_AUTH_TOKEN``).
    Calls are retried on UNAVAILABLE and RESOURCE_EXHAUSTED (SERVICE_CONFIG); ``timeout`` bounds each call.
    """

    def __init__(self, target: str = DEFAULT_SERVER, *, timeout: float | None = 60.0, tls: bool = False,
                 ca: Path | None = None, cert: Path | None = None, key: Path | None = None, token: str | None = None):
        self.channel = open_channel(target, tls=tls, ca=ca, cert=cert, key=key)
        self.stub = pb_grpc.TranslatorStub(self.channel)
        self.timeout = timeout
        self.metadata = token_metadata(token)

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "TranslatorClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def translate(self, texts: list[str], **options) -> pb.TranslateResponse:
        return self.stub.Translate(request(texts, **options), timeout=self.timeout, metadata=self.metadata)

    def stream(self, texts: list[str], **options) -> Iterator[pb.TranslateChunk]:
        return self.stub.TranslateStream(request(texts, **options), timeout=self.timeout, metadata=self.metadata)

    def batch(self, items: Iterable[pb.BatchItem]) -> Iterator[pb.BatchResult]:
        """Results as they finish. Not retried by gRPC: a server shutting down ends the stream UNAVAILABLE once it has
        answered the items it read; send the unanswered ones again (service.batch does)."""
        return self.stub.TranslateBatch(iter(items), metadata=self.metadata)  # a batch job has no overall deadline

    def list_models(self) -> pb.ListModelsResponse:
        return self.stub.ListModels(pb.ListModelsRequest(), timeout=self.timeout, metadata=self.metadata)

    def wait_until_ready(self, timeout: float = 60.0) -> None:
        grpc.channel_ready_future(self.channel).result(timeout=timeout)


class AsyncTranslatorClient:
    """The asyncio twin of TranslatorClient: ``async with AsyncTranslatorClient(target) as client: ...``."""

    def __init__(self, target: str = DEFAULT_SERVER, *, timeout: float | None = 60.0, tls: bool = False,
                 ca: Path | None = None, cert: Path | None = None, key: Path | None = None, token: str | None = None):
        self.channel = open_channel(target, tls=tls, ca=ca, cert=cert, key=key, aio=True)
        self.stub = pb_grpc.TranslatorStub(self.channel)
        self.timeout = timeout
        self.metadata = token_metadata(token)

    async def close(self) -> None:
        await self.channel.close()

    async def __aenter__(self) -> "AsyncTranslatorClient":
        return self

    async def __aexit__(self, *exc) -> None:
        await self.close()

    async def translate(self, texts: list[str], **options) -> pb.TranslateResponse:
        return await self.stub.Translate(request(texts, **options), timeout=self.timeout, metadata=self.metadata)

    def stream(self, texts: list[str], **options):
        """An async iterator of TranslateChunk."""
        return self.stub.TranslateStream(request(texts, **options), timeout=self.timeout, metadata=self.metadata)

    def batch(self, items=None):
        """A TranslateBatch call: give an (async) iterable of BatchItem, or none and use write()/done_writing().
        Not retried by gRPC: see TranslatorClient.batch."""
        return self.stub.TranslateBatch(items, metadata=self.metadata)  # a batch job has no overall deadline

    async def list_models(self) -> pb.ListModelsResponse:
        return await self.stub.ListModels(pb.ListModelsRequest(), timeout=self.timeout, metadata=self.metadata)

    async def wait_until_ready(self, timeout: float = 60.0) -> None:
        await asyncio.wait_for(self.channel.channel_ready(), timeout)


def status_lost(error: grpc.aio.AioRpcError) -> bool:
    """True when gRPC's asyncio client replaced a stream's status with its own INTERNAL: a write that fails because
    the server has just ended the stream (a replica shutting down or killed, a token refused) reports "Internal error
    from Core" instead of the server's status (grpc/grpc#36066; 193 of 200 streams ended early by a server, 2 of 5
    batch jobs without a token). Only a new call can tell why the stream ended."""
    return error.code() == grpc.StatusCode.INTERNAL and error.details() == "Internal error from Core"


def status_name(number: int) -> str:
    return next((c.name for c in grpc.StatusCode if c.value[0] == number), str(number))
