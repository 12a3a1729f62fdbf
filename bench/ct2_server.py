"""The yardstick for ``translator bench load``: the translator.v1 API served by CTranslate2 with plain static
batching (what a competent 200-line server does), on weights identical to ours.

Requests wait in an asyncio queue; a batcher takes up to ``--max-batch`` texts or whatever arrived within
``--max-wait-ms`` and runs ``translate_batch`` in a thread pool of ``--workers`` threads (CTranslate2's
``inter_threads``, each with ``--threads`` intra-op threads). Static batching cannot stream: TranslateStream
sends each text's translation as one chunk when its batch is done.

    python -m bench.ct2_server --ct2-model DIR --tokenizer-dir MODEL_DIR [--port 0]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
from pathlib import Path

import ctranslate2
import grpc

from translator.model_format import ModelMeta
from translator.tokenizer import SpecialIds, Tokenizer
from translator.v1 import translator_pb2 as pb
from translator.v1 import translator_pb2_grpc as pb_grpc


class StaticBatcher:
    def __init__(self, translator: ctranslate2.Translator, workers: int, max_batch: int, max_wait: float, max_tokens: int):
        self.translator, self.max_batch, self.max_wait, self.max_tokens = translator, max_batch, max_wait, max_tokens
        self.queue: asyncio.Queue = asyncio.Queue()
        self.pool = concurrent.futures.ThreadPoolExecutor(workers)
        self.slots = asyncio.Semaphore(workers)  # a batch is formed only when a worker can take it

    async def translate(self, tokens: list[str]) -> list[str]:
        future = asyncio.get_running_loop().create_future()
        await self.queue.put((tokens, future))
        return await future

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self.slots.acquire()
            batch = [await self.queue.get()]
            deadline = loop.time() + self.max_wait
            while len(batch) < self.max_batch:
                try:
                    batch.append(await asyncio.wait_for(self.queue.get(), max(0.0, deadline - loop.time())))
                except asyncio.TimeoutError:
                    break
            loop.create_task(self._translate(batch))

    async def _translate(self, batch) -> None:
        try:
            results = await asyncio.get_running_loop().run_in_executor(
                self.pool, lambda: self.translator.translate_batch([t for t, _ in batch], beam_size=1,
                                                                   max_decoding_length=self.max_tokens))
            for (_, future), result in zip(batch, results):
                future.set_result(result.hypotheses[0])
        except Exception as error:  # noqa: BLE001 - every waiting client gets the failure
            for _, future in batch:
                future.set_exception(error)
        finally:
            self.slots.release()


class Servicer(pb_grpc.TranslatorServicer):
    def __init__(self, batcher: StaticBatcher, tokenizer: Tokenizer, pieces: list[str], meta: ModelMeta):
        self.batcher, self.tokenizer, self.meta = batcher, tokenizer, meta
        self.pieces, self.index = pieces, {p: i for i, p in enumerate(pieces)}

    async def _translations(self, request) -> list[pb.Translation]:
        sources = [self.tokenizer.encode(text) for text in request.texts]
        outputs = await asyncio.gather(*(self.batcher.translate([self.pieces[i] for i in ids]) for ids in sources))
        return [pb.Translation(text=self.tokenizer.decode([self.index[p] for p in output]), input_tokens=len(ids),
                               output_tokens=len(output), finish_reason=pb.FINISH_REASON_EOS)
                for ids, output in zip(sources, outputs)]

    async def Translate(self, request, context):
        return pb.TranslateResponse(translations=await self._translations(request), model=self.meta.name,
                                    model_version=self.meta.version, request_id=request.request_id)

    async def TranslateStream(self, request, context):
        for index, translation in enumerate(await self._translations(request)):
            yield pb.TranslateChunk(request_id=request.request_id, index=index, text=translation.text, final=translation,
                                    model=self.meta.name, model_version=self.meta.version)


def tokenizer_and_pieces(model_dir: Path) -> tuple[ModelMeta, Tokenizer, list[str]]:
    """Our exported model's metadata, tokenizer, and the piece of every id (CTranslate2 speaks pieces)."""
    meta = ModelMeta.read(model_dir)
    cfg = meta.model
    tokenizer = Tokenizer.from_dir(model_dir, SpecialIds.of(cfg))
    if tokenizer.pieces:  # a Marian vocabulary; ids it skips still need a token for CTranslate2
        pieces = [tokenizer.pieces.get(i, f"<unused_{i}>") for i in range(cfg["vocab_size"])]
    else:
        pieces = [tokenizer.target.id_to_piece(i) for i in range(cfg["vocab_size"])]
    return meta, tokenizer, pieces


async def serve(args) -> None:
    meta, tokenizer, pieces = tokenizer_and_pieces(args.tokenizer_dir)
    translator = ctranslate2.Translator(str(args.ct2_model), device="cpu", compute_type=args.compute_type,
                                        inter_threads=args.workers, intra_threads=args.threads)
    batcher = StaticBatcher(translator, args.workers, args.max_batch, args.max_wait_ms / 1000,
                            meta.limits.max_output_tokens)
    server = grpc.aio.server()
    pb_grpc.add_TranslatorServicer_to_server(Servicer(batcher, tokenizer, pieces, meta), server)
    port = server.add_insecure_port(f"127.0.0.1:{args.port}")
    await server.start()
    batching = asyncio.create_task(batcher.run())
    print(f"ctranslate2 static batching serving {meta.name} ({args.compute_type}) on 127.0.0.1:{port} (gRPC)", flush=True)
    try:
        await server.wait_for_termination()
    finally:
        batching.cancel()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ct2-model", type=Path, required=True, help="CTranslate2 model directory (built from our weights)")
    parser.add_argument("--tokenizer-dir", type=Path, required=True, help="our exported model directory (tokenizer, limits)")
    parser.add_argument("--compute-type", default="float32", help="float32 or int8 (default float32)")
    parser.add_argument("--port", type=int, default=0, help="gRPC port (default: any free port)")
    parser.add_argument("--workers", type=int, default=2, help="batches translated at once (inter_threads; default 2)")
    parser.add_argument("--threads", type=int, default=1, help="intra-op threads per worker (default 1)")
    parser.add_argument("--max-batch", type=int, default=64, help="texts per batch (default 64)")
    parser.add_argument("--max-wait-ms", type=float, default=5.0, help="how long a batch waits to fill (default 5)")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
