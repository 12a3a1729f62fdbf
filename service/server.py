"""The gRPC server: thin servicers (validate, submit, await or stream, map to protobuf), health,
reflection, an interceptor for unexpected errors, and graceful shutdown on SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import re
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc

from service import reflection
from service.config import MAX_STREAM_INTERVAL_MS, ServerConfig, host_port
from service.decoding import DecodingCapabilities, DecodingOptions, FinishReason
from service.engine import Engine, SchedulerLimits, WorkerSpec
from service.metrics import Metrics
from service.preparing import Preparer, TooSlow
from service.model import Model
from service.scheduler import QueueFull
from service.texts import Texts
from service.security import UNAUTHENTICATED_MESSAGE, BearerTokens, load_tokens, server_credentials
from translator import lexicon
from translator.glossary import MAX_ENTRIES as MAX_GLOSSARY_ENTRIES
from translator.glossary import Glossary
from translator.model_format import resolve_model_dir
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc

log = logging.getLogger("translator")
SERVICE = pb.DESCRIPTOR.services_by_name["Translator"]
SERVICE_NAME = SERVICE.full_name
FAILURES = {  # finish reasons that end an RPC with an error
    FinishReason.DEADLINE: (grpc.StatusCode.DEADLINE_EXCEEDED, "the deadline passed before the translation finished"),
    FinishReason.CANCELLED: (grpc.StatusCode.CANCELLED, "the request was cancelled"),
    FinishReason.ERROR: (grpc.StatusCode.INTERNAL, "decoding failed on the server; see its log"),
}


# A text must contain something other than whitespace, control and invisible format characters (zero-width
# spaces and joiners, direction marks, soft hyphens, byte-order marks).
VISIBLE = re.compile(r"[^\s\x00-\x1f\x7f-\x9f\u00ad\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\ufeff]")
# HTTP/2 keepalive. gRPC's server default answers a client that pings more often than every 5 minutes while no
# call is open with GOAWAY "too_many_pings" and drops the connection; clients commonly ping every 10-60 s (grpc-go
# allows 10 s at least), so pings from every 10 s are accepted, with or without calls. The server pings an idle
# connection every minute and closes it when 20 s pass without an answer: a vanished client's streams end.
KEEPALIVE_OPTIONS = [("grpc.http2.min_ping_interval_without_data_ms", 10_000), ("grpc.keepalive_permit_without_calls", 1),
                     ("grpc.keepalive_time_ms", 60_000), ("grpc.keepalive_timeout_ms", 20_000)]
# request_id and BatchItem.id: echoed in every streamed chunk, so a long one multiplied the response (a 3 MB
# request_id over 8 texts came back as 117 MB); ample for UUIDs, trace ids and paths.
MAX_ID_CHARS = 256
# On SIGTERM, calls that arrive are refused with UNAVAILABLE, which clients retry on another replica, for at least this
# long, and then until the calls in flight are done, before gRPC stops taking calls: gRPC cancels a call that arrives
# once it is stopping (CANCELLED, which clients do not retry), and a call a client sent just before the signal may
# still be on its way (the soak met one in ~1,600 calls).
REFUSING_BEFORE_STOP_SECONDS = 0.5
SHUTTING_DOWN = "the server is shutting down; retry on another replica"
# A client's string quoted back in an error message is cut to this: the message travels in a trailer, and clients
# refuse trailers over 16 KiB (a 100,000-character model name came back as RESOURCE_EXHAUSTED instead of NOT_FOUND).
MAX_QUOTED_CHARS = 64
# A client's deadline cancels its call up to this long before the server's copy of it expires (the server's starts
# when the call arrives): on loopback under CPU contention such deadlines came in with 0.2-0.9 ms left and were
# counted CANCELLED; the margin leaves room for a network's one-way latency.
DEADLINE_SLACK = 0.05


def quoted(value: str) -> str:
    """A client's string as an error message shows it: repr, cut after MAX_QUOTED_CHARS characters."""
    if len(value) <= MAX_QUOTED_CHARS:
        return repr(value)
    return f"{value[:MAX_QUOTED_CHARS]!r}... ({len(value)} characters)"


@dataclass(frozen=True)
class Undecodable:
    """A request message that could not be parsed (corrupt wire format, invalid UTF-8 in a string field).
    The servicers answer it with INVALID_ARGUMENT instead of letting gRPC fail the call as UNKNOWN."""

    message: str  # the message type
    error: str

    def __str__(self) -> str:
        return f"the request is not a valid {self.message} ({self.error}); check the client's encoding (strings must be UTF-8)"


def safe_deserializer(deserialize, message: str):
    def parse(data: bytes):
        try:
            return deserialize(data)
        except Exception as error:  # noqa: BLE001 - protobuf raises DecodeError, or others for bad UTF-8
            return Undecodable(message, str(error) or type(error).__name__)
    return parse


def released(abort: grpc.aio.AbortError) -> grpc.aio.AbortError:
    """The abort of a refused call, cut loose from the frames it passed through. gRPC keeps the AbortError on the
    call's state, and the frames in its traceback (and in that of the RequestError it was raised while handling)
    hold the call's context, hence that state, and the request: a reference cycle that kept each refused
    request's message and texts alive until the garbage collector's next full pass (measured: 20 refused requests
    of 2.4 MB held 48 MB of Python objects, more with protobuf's copies; after 200 refused 4 MB requests one at a
    time the server's RSS was 330 MB, 120 MB without the cycle). The interceptor's wrapper, the outermost frame,
    drops its own `request` first."""
    abort.__context__ = abort.__cause__ = None
    return abort.with_traceback(None)


@functools.lru_cache(maxsize=32)
def glossary_of(entries: tuple[tuple[str, str], ...]) -> Glossary | None:
    """A request's glossary (None where it has none), checked: ValueError naming the entry to fix. Cached: a batch
    job sends the same glossary with every item."""
    return Glossary.of(entries) if entries else None


class RequestError(Exception):
    """Bad input or an unavailable server: a status code and a message that says what to fix."""

    def __init__(self, code: grpc.StatusCode, message: str):
        super().__init__(message)
        self.code = code


class StatusInterceptor(grpc.aio.ServerInterceptor):
    """The gate of every translator.v1 call: authentication (when tokens are set), undecodable requests, and
    its final status, counted once; anything unexpected becomes INTERNAL and is logged."""

    def __init__(self, metrics: Metrics, models: list[str], tokens: BearerTokens | None = None):
        self.metrics = metrics
        self.models = models
        self.tokens = tokens
        self._open_calls = 0  # translator.v1 calls whose handler runs
        self._no_open_calls = asyncio.Event()

    async def calls_finished(self) -> None:
        """Return once no translator.v1 call is in progress."""
        if self._open_calls:
            await self._no_open_calls.wait()

    async def intercept_service(self, continuation, details):
        handler = await continuation(details)
        if not details.method.startswith(f"/{SERVICE_NAME}/"):
            return handler  # health and reflection stay open
        if handler is None:  # a method this server does not have: gRPC answers UNIMPLEMENTED
            self.metrics.observe_rpc("unknown", "unknown", "UNIMPLEMENTED", None)  # one label: names are the client's
            return None
        method = details.method.rsplit("/", 1)[-1]
        message = SERVICE.methods_by_name[method].input_type.full_name
        deserialize = safe_deserializer(handler.request_deserializer, message)
        refusal = None
        if self.tokens is not None and not self.tokens.authorized(details.invocation_metadata):
            refusal = (grpc.StatusCode.UNAUTHENTICATED, UNAUTHENTICATED_MESSAGE)
        started = self._count_if_never_started(method)
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(self._unary(method, handler.unary_unary, refusal, started),
                                                       deserialize, handler.response_serializer)
        behavior = handler.unary_stream or handler.stream_stream
        wrapped = self._streaming(method, behavior, refusal, started)
        make = grpc.unary_stream_rpc_method_handler if handler.unary_stream else grpc.stream_stream_rpc_method_handler
        return make(wrapped, deserialize, handler.response_serializer)

    def _model(self, request) -> str:
        if isinstance(request, Undecodable):
            return "unknown"
        name = getattr(request, "model", None)
        if name is None:
            return "*"  # client streams name a model per item
        name = name or self.models[0]
        return name if name in self.models else "unknown"

    def _count_if_never_started(self, method) -> asyncio.Event:
        """gRPC skips the handler of a call whose client went away (deadline or cancel) before its request
        message arrived; count such a call as CANCELLED when the task serving it ends. The server never sees
        its deadline, so it cannot tell which of the two it was."""
        started = asyncio.Event()

        def ended(_task) -> None:
            if not started.is_set():
                self.metrics.observe_rpc(method, "unknown", "CANCELLED", None)
        asyncio.current_task().add_done_callback(ended)
        return started

    def _unary(self, method, behavior, refusal, started):
        async def run(request, context):
            started.set()
            try:
                async with self._observed(method, request, context):
                    await self._admissible(request, context, refusal)
                    return await behavior(request, context)
            except grpc.aio.AbortError as abort:
                del request  # see released()
                raise released(abort)
        return run

    def _streaming(self, method, behavior, refusal, started):
        async def run(request, context):
            started.set()
            try:
                async with self._observed(method, request, context):
                    await self._admissible(request, context, refusal)
                    async for response in behavior(request, context):
                        yield response
            except grpc.aio.AbortError as abort:
                del request  # see released()
                raise released(abort)
        return run

    @staticmethod
    async def _admissible(request, context, refusal) -> None:
        """Abort an unauthenticated call, or one whose request could not be parsed."""
        if refusal is not None:
            await context.abort(*refusal)
        if isinstance(request, Undecodable):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(request))

    @contextlib.asynccontextmanager
    async def _observed(self, method, request, context):
        """Count the RPC under its final status code; turn unexpected errors into INTERNAL."""
        started, code = time.monotonic(), "OK"
        self._open_calls += 1
        self._no_open_calls.clear()
        try:
            yield
        except grpc.aio.AbortError:
            code = context.code().name
            raise
        except (asyncio.CancelledError, GeneratorExit):  # GeneratorExit: a stream closed by a cancel or deadline
            code = self._ended_early(context)
            raise
        except Exception:
            if self._ended_early(context, only_if_over=True):  # e.g. an abort racing the deadline: not a fault
                code = self._ended_early(context)
                raise asyncio.CancelledError() from None  # how gRPC expects a handler of a finished call to end
            log.exception("unexpected error in %s", method)
            code = "INTERNAL"
            await context.abort(grpc.StatusCode.INTERNAL, "internal server error; the server log has the details")
        finally:
            self.metrics.observe_rpc(method, self._model(request), code, time.monotonic() - started)
            self._open_calls -= 1
            if not self._open_calls:
                self._no_open_calls.set()

    @staticmethod
    def _ended_early(context, only_if_over: bool = False) -> str | None:
        """DEADLINE_EXCEEDED or CANCELLED for a call that ended before its handler; with only_if_over, None
        when the call is still open. A client whose deadline passes cancels the call, and that can reach the
        server just before the server's own deadline, which starts when the call arrived: within DEADLINE_SLACK
        of it a cancelled call ended by its deadline."""
        remaining = context.time_remaining()
        if remaining is not None and remaining <= 0:
            return "DEADLINE_EXCEEDED"
        if only_if_over and not context.cancelled():
            return None
        return "DEADLINE_EXCEEDED" if remaining is not None and remaining <= DEADLINE_SLACK else "CANCELLED"


@dataclass
class Admitted:
    engine: Engine
    texts: Texts  # the texts' segments: the engine's sequences
    options: DecodingOptions


class TranslatorServicer(pb_grpc.TranslatorServicer):
    def __init__(self, engines: dict[str, Engine], config: ServerConfig, metrics: Metrics):
        self.engines = engines
        self.default_model = next(iter(engines))
        self.config = config
        self.metrics = metrics
        self.draining = asyncio.Event()  # set on SIGTERM: new calls are refused, batch streams stop reading
        self.streamed_texts = 0  # texts of the TranslateStream calls in progress: stream_interval shares its budget among them
        self.preparer = Preparer()  # splits and tokenizes the requests' texts within a bound

    # -- validation, shared by every RPC ---------------------------------------------------------
    async def admit(self, model: str, texts: list[str], options: pb.DecodingOptions, identifier: tuple[str, str],
                    field: str = "texts") -> Admitted:
        """Check a request and tokenize it; RequestError names the field and what to fix. `identifier` is the
        client's id field and its value (`request_id`, or a BatchItem's `id`); `field` is how the client's message
        calls the texts (`texts` of a TranslateRequest, `text` of a BatchItem)."""
        id_field, id_value = identifier
        if len(id_value) > MAX_ID_CHARS:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"{id_field} has {len(id_value)} characters; the limit is {MAX_ID_CHARS}: send a shorter id")
        if self.draining.is_set():
            raise RequestError(grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        engine = self.engines.get(model or self.default_model)
        if engine is None:
            raise RequestError(grpc.StatusCode.NOT_FOUND, f"unknown model {quoted(model)}; loaded models: {', '.join(self.engines)}")
        if not texts:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, f"{field} is empty: send at least one text")
        if len(texts) > self.config.max_texts_per_request:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"{len(texts)} texts exceed the limit of {self.config.max_texts_per_request} per request; "
                               "split the request or use TranslateBatch")
        names = [f"{field}[{i}]" for i in range(len(texts))] if field == "texts" else [field]
        for name, text in zip(names, texts):
            if len(text) > self.config.max_text_chars:
                raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"{name} has {len(text)} characters; the limit is {self.config.max_text_chars}: split it")
            if not VISIBLE.search(text):
                raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                                   f"{name} is empty or holds only whitespace or invisible characters: send text to translate")
        model = engine.model
        try:
            checked = decoding_options(options).validate(self.capabilities(model))
        except ValueError as error:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, f"options.{error}") from None
        if options.text_format not in pb.TextFormat.values():
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"options.text_format {options.text_format} is not one of {sorted(pb.TextFormat.values())}")
        try:
            glossary = glossary_of(tuple((entry.source, entry.target) for entry in options.glossary))
        except ValueError as error:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, f"options.{error}") from None
        keep = options.preserve_placeholders if options.HasField("preserve_placeholders") else True
        html = options.text_format == pb.TEXT_FORMAT_HTML
        try:
            segmented = Texts.of(await self.preparer.prepare(model, texts, keep, html, glossary), options)
        except TooSlow as stopped:
            self.metrics.observe_preparation_stopped(engine.name)
            chars = sum(map(len, texts))
            log.error("preparing a request (characters: %d, texts: %d) took over %.1f s and was stopped; no pattern "
                      "should take this long (tests/test_patterns.py)", chars, len(texts), stopped.seconds)
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"{field} took over {stopped.seconds:.1f} s to split into sentences (the bound for "
                               f"{chars:,} characters): send smaller parts") from None
        longest = model.limits.max_source_tokens  # cut to fit as they are: a refusal here, not a failed encoder
        too_long = next((sequence for sequence, ids in enumerate(segmented.sources) if len(ids) > longest), None)
        if too_long is not None:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT, f"{names[segmented.owner[too_long][0]]} holds a "
                               f"sentence of {len(segmented.sources[too_long])} tokens that could not be cut to the "
                               f"{longest} the model reads: send it in smaller parts")
        if len(segmented.sources) > self.config.max_queue_size:
            raise RequestError(grpc.StatusCode.INVALID_ARGUMENT,
                               f"{field} hold {len(segmented.sources)} sentences; at most {self.config.max_queue_size} "
                               "fit the queue: split the request")
        return Admitted(engine, segmented, segmented.decoding_options(checked))

    def capabilities(self, model: Model) -> DecodingCapabilities:
        return DecodingCapabilities(max_output_tokens=model.limits.max_output_tokens, vocab_size=model.vocab_size,
                                    max_beam_size=min(self.config.max_beam_size, self.config.max_num_seqs),
                                    alignments=model.has_alignments)

    def start(self, admitted: Admitted, context, stream: bool = False):
        remaining = context.time_remaining()
        deadline = time.monotonic() + remaining if remaining is not None else None
        texts = admitted.texts
        call = admitted.engine.new_call(texts.sources, admitted.options, deadline, texts.streaming if stream else (),
                                        texts.kept())
        try:
            return call.submit()
        except QueueFull as error:
            raise RequestError(grpc.StatusCode.RESOURCE_EXHAUSTED, str(error)) from None

    def stream_interval(self) -> float:
        """Seconds a stream gathers pieces after a message: --stream-interval-ms, or longer while so many texts
        stream that together they would send more than --stream-updates-per-second intermediate messages (at most
        MAX_STREAM_INTERVAL_MS, the bound of --stream-interval-ms too). Every message costs the event loop gRPC's
        work, which under load comes out of the decoding's share of the cores; a text's first piece and its end
        still go at once."""
        base, budget = self.config.stream_interval_ms / 1000, self.config.stream_updates_per_second
        return min(max(base, self.streamed_texts / budget), MAX_STREAM_INTERVAL_MS / 1000) if budget else base

    def translation(self, admitted: Admitted, sequence_index: int, request) -> pb.Translation:
        if request.finish_reason in FAILURES:
            raise RequestError(*FAILURES[request.finish_reason])
        self.metrics.observe_finished(admitted.engine.name, request)
        return admitted.texts.translation(sequence_index, request, admitted.engine.model.tokenizer)

    # -- RPCs ---------------------------------------------------------------------------------------
    async def Translate(self, request: pb.TranslateRequest, context) -> pb.TranslateResponse:
        try:
            admitted = await self.admit(request.model, list(request.texts), request.options,
                                        ("request_id", request.request_id))
            translations = await self.translate_whole(admitted, context)
        except RequestError as error:
            await context.abort(error.code, str(error))
        info = admitted.engine.model.info
        return pb.TranslateResponse(translations=translations, model=info.name, model_version=info.version,
                                    request_id=request.request_id)

    async def translate_whole(self, admitted: Admitted, context) -> list[pb.Translation]:
        """Every text of the call, translated (Translate, and each TranslateBatch item)."""
        collector = admitted.texts.collector()
        translations: dict[int, pb.Translation] = dict(collector.empty_texts())
        async for events in self.start(admitted, context).events():
            for sequence_index, sequence, token in events:
                if token is None:
                    text = admitted.texts.owner[sequence_index][0]
                    if (done := collector.add(sequence_index, self.translation(admitted, sequence_index, sequence))) is not None:
                        translations[text] = done
        for text, translation in translations.items():
            self.metrics.observe_text(admitted.engine.name, translation.segments, admitted.texts.prepared[text].repairs)
        return [translations[i] for i in range(len(admitted.texts.prepared))]

    async def TranslateStream(self, request: pb.TranslateRequest, context):
        texts, call = 0, None  # this call's share of streamed_texts, and its engine call, once admitted
        try:
            admitted = await self.admit(request.model, list(request.texts), request.options,
                                        ("request_id", request.request_id))
            texts = len(admitted.texts.prepared)
            self.streamed_texts += texts
            call = self.start(admitted, context, stream=True)
            info = admitted.engine.model.info
            streamer = admitted.texts.streamer(admitted.engine.model.tokenizer)

            def chunks(pieces):
                for index, text, final in pieces:
                    if final is not None:
                        self.metrics.observe_text(info.name, final.segments, admitted.texts.prepared[index].repairs)
                    yield pb.TranslateChunk(request_id=request.request_id, index=index, text=text, final=final,
                                            model=info.name, model_version=info.version)

            for chunk in chunks(streamer.opening()):
                yield chunk
            # Each list of events goes at once until a piece has: a stream holds a first word back (an article until
            # its noun ends, `Prepared.settled`), and a first list that sent nothing left the first piece to the interval
            sent = False
            async for events in call.events(lambda: self.stream_interval() if sent else 0.0):
                tokens: dict[int, list[int]] = {}
                finished: dict[int, pb.Translation] = {}
                for sequence_index, sequence, token in events:
                    if token is None:
                        finished[sequence_index] = self.translation(admitted, sequence_index, sequence)
                    else:
                        tokens.setdefault(sequence_index, []).append(token)
                for chunk in chunks(coalesced(streamer.advance(tokens, finished))):
                    sent = sent or bool(chunk.text)
                    yield chunk
        except RequestError as error:
            await context.abort(error.code, str(error))
        finally:
            self.streamed_texts -= texts
            if call is not None:  # a stream cancelled while it sent its opening pieces never reached call.events()
                call.close()

    async def TranslateBatch(self, request_iterator, context):
        if self.draining.is_set():
            await context.abort(grpc.StatusCode.UNAVAILABLE, SHUTTING_DOWN)
        results: asyncio.Queue = asyncio.Queue()  # BatchResults as they finish; None once reading has ended
        # Items read but whose result is not yet sent: a client that stops reading its results stops the
        # server from reading (and translating) more of its items.
        slots = asyncio.Semaphore(self.config.batch_inflight)
        tasks: set[asyncio.Task] = set()
        read = 0

        async def translate_item(item: pb.BatchItem) -> None:
            result = pb.BatchResult(id=item.id)
            try:
                admitted = await self.admit(item.model, [item.text], item.options, ("id", item.id), field="text")
                info = admitted.engine.model.info
                result.model, result.model_version = info.name, info.version
                result.translation.CopyFrom((await self.translate_whole(admitted, context))[0])
            except RequestError as error:
                result.error_code, result.error_message = error.code.value[0], f"item {quoted(item.id)}: {error}"
            except Exception:  # a fault of ours: this item fails, the stream waits for no result that never comes
                log.exception("TranslateBatch item %s failed", quoted(item.id))
                result.error_code = grpc.StatusCode.INTERNAL.value[0]
                result.error_message = f"item {quoted(item.id)}: internal error (in the server's log)"
            await results.put(result)

        async def read_items() -> None:
            nonlocal read
            async for item in request_iterator:
                await slots.acquire()
                read += 1
                if isinstance(item, Undecodable):  # no id to answer under: say which item of the stream it was
                    await results.put(pb.BatchResult(error_code=grpc.StatusCode.INVALID_ARGUMENT.value[0],
                                                     error_message=f"item #{read} of this stream: {item}"))
                    continue
                task = asyncio.create_task(translate_item(item))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

        # On SIGTERM the stream stops reading, answers what it has read and ends UNAVAILABLE: the client sends the
        # rest to another replica. Answering each further item UNAVAILABLE instead used up a batch job's attempts
        # at them within the grace period (1,900 of 3,000 lines recorded as failed across a restart).
        reader = asyncio.create_task(read_items())
        reader.add_done_callback(lambda _: results.put_nowait(None))
        drained = asyncio.create_task(self.draining.wait())
        drained.add_done_callback(lambda _: reader.cancel())
        try:
            answered, reading = 0, True
            while reading or answered < read:
                if (result := await results.get()) is None:
                    reading = False
                    continue
                yield result
                answered += 1
                slots.release()
            if reader.cancelled():  # by the drain, not by a client that had sent everything
                await context.abort(grpc.StatusCode.UNAVAILABLE, f"{SHUTTING_DOWN}: the items not answered on this "
                                    "stream were not read; send them again")
            await reader  # re-raise a reader failure
        finally:
            drained.cancel()
            reader.cancel()
            for task in list(tasks):
                task.cancel()

    async def ListModels(self, request, context) -> pb.ListModelsResponse:
        return pb.ListModelsResponse(models=[self.model_info(engine, name == self.default_model)
                                             for name, engine in self.engines.items()])

    def model_info(self, engine: Engine, default: bool) -> pb.ModelInfo:
        info, limits = engine.model.info, self.capabilities(engine.model)
        return pb.ModelInfo(name=info.name, version=info.version, precision=info.precision, provider=info.provider,
                            max_source_tokens=engine.model.limits.max_source_tokens,
                            max_output_tokens=limits.max_output_tokens, default=default,
                            max_beam_size=limits.max_beam_size, alignments=limits.alignments,
                            max_text_chars=self.config.max_text_chars,
                            segment_tokens=engine.model.limits.segment_tokens,
                            max_glossary_entries=MAX_GLOSSARY_ENTRIES)


def coalesced(pieces: list[tuple[int, str, pb.Translation | None]]) -> list[tuple[int, str, pb.Translation | None]]:
    """Consecutive pieces of one text as one (its final translation, if any, rides on the last): one message
    instead of several when the stream fell behind the engine."""
    merged: list[tuple[int, str, pb.Translation | None]] = []
    for index, text, final in pieces:
        if merged and merged[-1][0] == index and merged[-1][2] is None:
            merged[-1] = (index, merged[-1][1] + text, final)
        else:
            merged.append((index, text, final))
    return merged


def decoding_options(options: pb.DecodingOptions) -> DecodingOptions:
    """The request's decoding options (unchecked: DecodingOptions.validate says what is out of range)."""
    return DecodingOptions(
        max_output_tokens=options.max_output_tokens, min_output_tokens=options.min_output_tokens,
        beam_size=options.beam_size,
        length_penalty=options.length_penalty if options.HasField("length_penalty") else 1.0,
        num_hypotheses=options.num_hypotheses, return_scores=options.return_scores,
        sampling_temperature=options.sampling_temperature, sampling_topk=options.sampling_topk,
        sampling_topp=options.sampling_topp, seed=options.seed if options.HasField("seed") else None,
        return_alignments=options.return_alignments,
        suppress_repeats=options.suppress_repeats if options.HasField("suppress_repeats") else True)


def started_engines(config: ServerConfig, metrics: Metrics) -> Iterator[tuple[str, Engine]]:
    """(model name, its started engine) for each model of the config, in order."""
    limits = SchedulerLimits(max_num_seqs=config.max_num_seqs, max_num_batched_tokens=config.max_num_batched_tokens,
                             max_queue_size=config.max_queue_size, join_interval_steps=config.join_interval_steps,
                             retry_beams=config.placeholder_retry_beams, uncovered_attention=config.uncovered_attention)
    for spec in config.models:
        model_dir = resolve_model_dir(config.repository, spec)
        worker = WorkerSpec(model_dir, config.precision, config.device, config.worker_threads, config.alignment_layer,
                            config.warmup)
        if config.engine_in_processes:
            engine = Engine.in_processes(worker, config.engine_workers, limits, metrics.observe_step)
        else:
            engine = Engine.in_threads([worker.runtime() for _ in range(config.engine_workers)], limits,
                                       metrics.observe_step)
        info = engine.start().model.info
        metrics.model_loaded(info)
        log.info("loaded %s version %s from %s (%s, %s, engine workers: %d, ONNX Runtime threads each: %d, in %s)",
                 info.name, info.version, model_dir, info.precision, info.provider, config.engine_workers,
                 config.worker_threads, "processes" if config.engine_in_processes else "threads")
        yield info.name, engine


class Server:
    """The running service: gRPC server, engines, health and metrics."""

    def __init__(self, config: ServerConfig):
        self.config = config
        # Before the engines: a token file without tokens, or a certificate that is not one, stops start-up.
        tokens = load_tokens(config.auth_token_file)
        credentials = None if config.tls_cert is None else server_credentials(config.tls_cert, config.tls_key,
                                                                              config.tls_client_ca)
        if (warning := config.oversubscribed) is not None:
            log.warning(warning)
        self.metrics = Metrics()
        self.engines: dict[str, Engine] = {}
        try:
            self._set_up(config, tokens, credentials)
        except BaseException:  # a model, a port or the metrics could not start: the workers started end with it
            for engine in self.engines.values():
                engine.stop()
            raise

    def _set_up(self, config: ServerConfig, tokens: tuple[bytes, ...],
                credentials: grpc.ServerCredentials | None) -> None:
        """The engines, the servicer and its gate, the gRPC server bound to its port, the metrics endpoint."""
        for name, engine in started_engines(config, self.metrics):
            self.engines[name] = engine
        self.servicer = TranslatorServicer(self.engines, config, self.metrics)
        self.health = health.aio.HealthServicer()
        self.gate = StatusInterceptor(self.metrics, list(self.engines), BearerTokens(tokens) if tokens else None)
        self.grpc = grpc.aio.server(interceptors=[self.gate], options=[
            ("grpc.so_reuseport", 0), ("grpc.max_receive_message_length", config.max_message_bytes),
            ("grpc.max_concurrent_streams", config.max_concurrent_streams), *KEEPALIVE_OPTIONS])
        pb_grpc.add_TranslatorServicer_to_server(self.servicer, self.grpc)
        health_pb2_grpc.add_HealthServicer_to_server(self.health, self.grpc)
        reflection.enable(self.grpc, [SERVICE_NAME, health.SERVICE_NAME])
        self.port = self._listen(host_port(config.host, config.port), credentials)
        try:
            self.metrics_port = self.metrics.serve(config.metrics_host, config.metrics_port, self.engines,
                                                   self.servicer.stream_interval)
        except OSError as error:
            raise OSError(f"cannot serve metrics on {host_port(config.metrics_host, config.metrics_port)} ({error}); change "
                          "--metrics-host or --metrics-port (-1: no metrics)") from None
        self._stopping = False
        self._stopped = asyncio.Event()

    def _listen(self, address: str, credentials: grpc.ServerCredentials | None) -> int:
        """Bind the gRPC port, with TLS when given credentials; the port bound."""
        try:
            port = (self.grpc.add_insecure_port(address) if credentials is None
                    else self.grpc.add_secure_port(address, credentials))
        except RuntimeError:  # gRPC's "Failed to bind to address ..." says no more than this
            port = 0
        if not port:
            raise OSError(f"cannot listen on {address} (in use, or not an address of this machine); change --host or "
                          "--port (0: any free port)")
        return port

    @property
    def default_model(self) -> str:
        return next(iter(self.engines))

    async def start(self) -> None:
        await self.grpc.start()
        for name in ("", SERVICE_NAME):
            await self.health.set(name, health_pb2.HealthCheckResponse.SERVING)

    async def drain_and_stop(self) -> None:
        """NOT_SERVING, refuse new requests, let in-flight ones finish within the grace period, stop."""
        if self._stopping:  # a second signal
            return
        self._stopping = True
        self.servicer.draining.set()
        for name in ("", SERVICE_NAME):
            await self.health.set(name, health_pb2.HealthCheckResponse.NOT_SERVING)
        log.info("draining: waiting up to %.0f s for in-flight requests", self.config.grace_seconds)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.config.grace_seconds
        await asyncio.sleep(min(REFUSING_BEFORE_STOP_SECONDS, self.config.grace_seconds))  # in-flight calls go on meanwhile
        # gRPC itself stops only once the calls in flight are done (or the grace is over): until then a new call is
        # refused UNAVAILABLE, which clients retry elsewhere; a stopping gRPC cancels it (CANCELLED, not retried).
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.gate.calls_finished(), max(0.0, deadline - loop.time()))
        await self.grpc.stop(max(0.0, deadline - loop.time()))
        for engine in self.engines.values():
            engine.stop()
        self.servicer.preparer.stop()
        self.metrics.stop()
        self._stopped.set()

    async def wait(self) -> None:
        await self._stopped.wait()


async def serve(config: ServerConfig) -> None:
    server = Server(config)
    await server.start()
    lexicon.load()  # the text pipeline's word lists (0.4 s), read now rather than by the first request
    # What start-up built (modules, protobuf descriptors, the servicer: ~40k objects) lives as long as the process:
    # out of the collector's sight, a full collection under load took 1.5 ms at most instead of 25-31 ms.
    gc.collect()
    gc.freeze()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(server.drain_and_stop()))
    models = ", ".join(f"{e.model.info.name}/{e.model.info.version} ({e.model.info.precision})" for e in server.engines.values())
    metrics = f"http://{host_port(config.metrics_host, server.metrics_port)}/metrics" if server.metrics_port else "off"
    transport = "gRPC" if config.tls_cert is None else ("gRPC, mutual TLS" if config.tls_client_ca else "gRPC, TLS")
    if server.gate.tokens is not None:
        transport += ", bearer tokens"
    print(f"translator serving {models} on {host_port(config.host, server.port)} ({transport}); metrics {metrics}",
          flush=True)
    await server.wait()
    print("translator stopped", flush=True)
