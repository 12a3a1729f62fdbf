"""Python client for translator.v1, and the batch job that translates a whole file through the service."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator

import grpc

from service.config import DEFAULT_SERVER
from service.security import TOKEN_ENV, bearer, channel_credentials
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc



class TranslatorClient:
    """``TranslatorClient("127.0.0.1:50051").translate(["Where is the station?"])``.

    TLS: ``tls=True`` (trusting the system's roots, or ``ca``); ``cert`` and ``key`` add a client certificate
    (mutual TLS). ``token`` is sent as a bearer token on every call (default: ``$TRANSLATOR_AUTH_TOKEN``).
    """

    def __init__(self, target: str = DEFAULT_SERVER, *, timeout: float | None = 60.0, tls: bool = False,
                 ca: Path | None = None, cert: Path | None = None, key: Path | None = None, token: str | None = None):
        if tls or ca or cert:
            self.channel = grpc.secure_channel(target, channel_credentials(ca, cert, key))
        else:
            self.channel = grpc.insecure_channel(target)
        self.stub = pb_grpc.TranslatorStub(self.channel)
        self.timeout = timeout
        token = token if token is not None else os.environ.get(TOKEN_ENV, "").strip()
        self.metadata = bearer(token) if token else None

    def close(self) -> None:
        self.channel.close()

    def __enter__(self) -> "TranslatorClient":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @staticmethod
    def request(texts: list[str], model: str = "", max_output_tokens: int = 0, min_output_tokens: int = 0,
                request_id: str = "") -> pb.TranslateRequest:
        return pb.TranslateRequest(texts=texts, model=model, request_id=request_id,
                                   options=pb.DecodingOptions(max_output_tokens=max_output_tokens,
                                                              min_output_tokens=min_output_tokens))

    def translate(self, texts: list[str], **options) -> pb.TranslateResponse:
        return self.stub.Translate(self.request(texts, **options), timeout=self.timeout, metadata=self.metadata)

    def stream(self, texts: list[str], **options) -> Iterator[pb.TranslateChunk]:
        return self.stub.TranslateStream(self.request(texts, **options), timeout=self.timeout, metadata=self.metadata)

    def batch(self, items: Iterable[pb.BatchItem]) -> Iterator[pb.BatchResult]:
        return self.stub.TranslateBatch(iter(items), metadata=self.metadata)  # a batch job has no overall deadline

    def list_models(self) -> pb.ListModelsResponse:
        return self.stub.ListModels(pb.ListModelsRequest(), timeout=self.timeout, metadata=self.metadata)

    def wait_until_ready(self, timeout: float = 60.0) -> None:
        grpc.channel_ready_future(self.channel).result(timeout=timeout)


def translate_file(client: TranslatorClient, source: Path, target: Path, model: str = "", progress: bool = True) -> dict:
    """Translate every non-empty line of source into the same line of target (empty lines stay empty).

    Lines stream through TranslateBatch; results arrive as they finish and are written in input
    order. Returns counts; failed lines are written empty and reported with their error.
    """
    from tqdm import tqdm

    lines = source.read_text(encoding="utf-8").splitlines()
    todo = [i for i, line in enumerate(lines) if line.strip()]
    items = (pb.BatchItem(id=str(i), text=lines[i], model=model) for i in todo)
    translated: dict[int, str] = {}
    errors: dict[int, str] = {}
    with tqdm(total=len(todo), unit="line", disable=not progress, desc=source.name) as bar:
        for result in client.batch(items):
            if not result.id:  # the server could not even read an item's id
                raise RuntimeError(f"the server could not read an item: {result.error_message}")
            line = int(result.id)
            if result.error_code:
                errors[line] = f"{status_name(result.error_code)}: {result.error_message}"
            else:
                translated[line] = result.translation.text
            bar.update(1)
    with target.open("w", encoding="utf-8") as out:
        for i in range(len(lines)):
            out.write(translated.get(i, "") + "\n")
    return {"lines": len(lines), "translated": len(translated), "failed": errors}


def status_name(number: int) -> str:
    return next((c.name for c in grpc.StatusCode if c.value[0] == number), str(number))
