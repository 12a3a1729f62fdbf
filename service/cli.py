"""The one command line: ``translator data|train|evaluate|translate|...``.

Each subcommand imports what it needs when it runs, so serving commands never import torch.
"""

from __future__ import annotations

import argparse
import codecs
import io
import json
import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from service.config import DEFAULT_CHECKPOINT, DEFAULT_DATA, DEFAULT_MODEL_DIR, DEFAULT_PORT, DEFAULT_SERVER, DeviceUnavailable
from translator.lexicon import DIRECTORY as WORDLISTS, GERMAN_COUNT


UINT32_MAX = 2**32 - 1  # the proto's uint32 fields (token limits, beams, top-k)
UINT64_MAX = 2**64 - 1  # its uint64 seed


def whole_number(minimum: int, maximum: int = UINT32_MAX):
    """An argparse type: a whole number from minimum to maximum. A value outside is refused where it is typed
    (argparse names the flag), not passed on to fail later as a traceback, a division by zero or a report of nan."""
    def whole_number(text: str) -> int:
        value = int(text)  # not a whole number: argparse says "invalid whole_number value: 'x'"
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}, not {value}")
        if value > maximum:
            raise argparse.ArgumentTypeError(f"must be at most {maximum}, not {value}")
        return value
    return whole_number


def existing_file(text: str) -> Path:
    """An argparse type: a path to a file that exists (certificates, keys, tokens), checked before connecting."""
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"{text} is not a file")
    return Path(text)


def glossary_file(text: str):
    """An argparse type: a glossary file (translator.glossary.read_file), read and checked before connecting."""
    from translator import glossary

    try:
        return glossary.read_file(existing_file(text))
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def server_address(text: str) -> str:
    """An argparse type: a gRPC target. A bare host gets translator serve's port: gRPC would take 443, and
    `--server localhost` then failed with "connection refused" on a port nothing here uses. A URL is refused
    with what to give instead (gRPC reads "http://host:port" as a host name)."""
    scheme = text.split("://", 1)[0].lower() if "://" in text else None
    if scheme in ("http", "https", "grpc", "grpcs"):
        raise argparse.ArgumentTypeError(f"{text} is a URL; give host:port (e.g. 127.0.0.1:{DEFAULT_PORT}), with --tls "
                                         "for TLS")
    bare = text.startswith("[") and text.endswith("]") or (":" not in text and "/" not in text)
    return f"{text}:{DEFAULT_PORT}" if text and bare else text


def positive_number(text: str) -> float:
    """An argparse type: a finite number above 0 (seconds, minutes, megabytes, a learning rate)."""
    value = float(text)  # not a number: argparse says "invalid positive_number value: 'x'"
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a number above 0, not {text}")
    return value


def text_encoding(text: str) -> str:
    """An argparse type: the name of an encoding Python's codecs read and write text in ("cp1252", "latin-1"), as
    codecs names it; "" for UTF-8, which the batch job reads by default (a byte order mark or none)."""
    try:
        name = codecs.lookup(text).name
        "".encode(name), b"".decode(name)  # "base64" and "rot13" are codecs, not text encodings
    except LookupError:
        raise argparse.ArgumentTypeError(f"{text!r} is no text encoding Python knows: give one such as cp1252 "
                                         "(Windows' Western European), latin-1, iso-8859-15, mac-roman or utf-16")
    return "" if name in ("utf-8", "utf-8-sig") else name


def cmd_data_freedict(args) -> int:
    from model.data import build_corpus

    stats = build_corpus(args.out, args.source, args.reverse_source)
    print(json.dumps(stats, indent=2, ensure_ascii=False))
    print(f"wrote {', '.join(f'{args.out}/{n}.tsv' for n in stats['splits'])} and {args.out}/stats.json")
    return 0


def cmd_data_gettext(args) -> int:
    from model.catalogs import build_catalog_corpus

    stats = build_catalog_corpus(args.out, args.cache, args.max_mb, args.max_package_mb, args.mirror, args.suite)
    print(json.dumps(stats["counts"] | {"splits": stats["splits"]}, indent=2, ensure_ascii=False))
    print(f"wrote {', '.join(f'{args.out}/{n}.tsv' for n in stats['splits'])}, {args.out}/stats.json "
          f"(with licenses) and {args.out}/packages.json")
    return 0


def cmd_data_lexicon(args) -> int:
    import shutil
    import tempfile

    from tqdm import tqdm

    from model.data import REVERSE_PACKAGE, dictd_files, fetch_word_list, read_noun_genders, read_tsv, read_verbs
    from translator import lexicon

    splits = [directory / "train.tsv" for directory in [args.data, *args.extra_data]]
    if missing := [str(split) for split in splits if not split.is_file()]:
        print(f"error: {', '.join(missing)} missing: prepare the corpus first (translator data freedict|gettext)",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            word_list, notice = (args.proper_nouns, None) if args.proper_nouns else fetch_word_list(Path(tmp))
            _, *dictionary = dictd_files(REVERSE_PACKAGE, args.genders, Path(tmp) / "genders",
                                         "pass --genders with the path to its .deb or dictd files")
        except (RuntimeError, FileNotFoundError) as error:  # no apt, no network: the message says what to pass instead
            print(f"error: {error}", file=sys.stderr)
            return 1
        proper_nouns = word_list.read_text(encoding="utf-8").split()
        genders, verbs = read_noun_genders(*dictionary), read_verbs(*dictionary)
        pairs = [(pair.en, pair.de) for split in splits for pair in read_tsv(split)]
        built = lexicon.build(tqdm(pairs, desc="reading pairs", unit="pair", unit_scale=True), proper_nouns, genders,
                              verbs)
        written = lexicon.write(built, args.out)
        if notice:
            written.append(Path(shutil.copyfile(notice, args.out / lexicon.PROPER_NOUNS_NOTICE)))
    print(f"{len(pairs):,} pairs and {len(proper_nouns):,} words of {word_list.name}: {len(built.words):,} English "
          f"words (capitalized ones German translates among them), {len(built.names):,} names, "
          f"{len(built.german):,} German words, {len(built.describing):,} describing English words, "
          f"{len(built.genders):,} German nouns' genders and {len(built.verbs):,} verbs ({REVERSE_PACKAGE}); wrote "
          f"{', '.join(map(str, written))}")
    return 0


def cmd_average(args) -> int:
    from model.train import write_average

    print(f"wrote {write_average(args.run, args.steps, args.out)}: the average of steps {', '.join(map(str, args.steps))}")
    return 0


def cmd_train(args) -> int:
    from model.train import TrainOptions, train
    from model.transformer import TransformerConfig

    cfg = TransformerConfig(
        vocab_size=args.vocab_size, d_model=args.d_model, n_heads=args.heads, d_ff=args.d_ff,
        encoder_layers=args.encoder_layers, decoder_layers=args.decoder_layers, dropout=args.dropout,
        activation=args.activation, norm_position=args.norm,
    )
    device = args.device or ("cuda" if torch_cuda_available() else "cpu")
    if args.precision == "fp16" and device == "cpu":
        print("error: --precision fp16 needs --device cuda (use bf16 on CPU)", file=sys.stderr)
        return 2
    opts = TrainOptions(
        data_dir=args.data, out_dir=args.out, extra_data=tuple(args.extra_data), init_from=args.init_from, device=device,
        precision=args.precision, average_last=args.average_last, max_tokens=args.max_tokens, lr=args.lr, warmup_steps=args.warmup,
        validate_every=args.validate_every, patience=args.patience, max_steps=args.max_steps, example_weight=args.example_weight,
        max_minutes=args.max_minutes, seed=args.seed, threads=args.threads,
    )
    state = train(cfg, opts)
    print(f"stopped at step {state['step']} after {state['seconds'] / 60:.1f} min; best valid chrF {state['best_chrf']:.2f}; "
          f"checkpoint in {args.out}")
    return 0


def torch_cuda_available() -> bool:
    import torch

    return torch.cuda.is_available()


def cmd_evaluate(args) -> int:
    from model.evaluate import evaluate, format_table

    report = evaluate(args.checkpoint, [args.data, *args.extra_data], limit=args.limit, beam_size=args.beam,
                      repeat_period=repeat_period(args))
    print(format_table(report))
    out = args.out or args.checkpoint / "eval.json"
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {out}")
    if args.card:
        from model.card import write_model_card

        from model.evaluate import source_name

        corpora = {source_name(d): json.loads((d / "stats.json").read_text()) for d in (args.data, *args.extra_data)}
        print(f"wrote {write_model_card(args.checkpoint, report, corpora, report['parameters'], args.train_command)}")
    return 0


def repeat_period(args) -> int:
    """The PyTorch path's repeat_period (model.greedy): the served engine's, unless --allow-repeats."""
    from service.decoding import MAX_REPEAT_PERIOD

    return 0 if args.allow_repeats else MAX_REPEAT_PERIOD


# Texts go to the server in requests of at most this many: under its default limit of 64 per request.
TEXTS_PER_REQUEST = 32


def cmd_translate(args) -> int:
    if args.paragraphs and (args.text or args.n_best > 1 or args.scores):
        print("error: --paragraphs reads stdin and prints texts of several lines: give no text arguments, and no "
              "--n-best or --scores (one line per hypothesis)", file=sys.stderr)
        return 2
    try:
        texts = utf8_arguments(args.text) or stdin_texts(sys.stdin.buffer, args.paragraphs, sys.stdout)
    except ValueError as error:  # before, a traceback where the request was built
        print(f"error: {error}: convert it first, e.g. with iconv -f latin1 -t utf-8", file=sys.stderr)
        return 2
    if not any(text.strip() for text in texts):
        print("error: give text as arguments or on stdin", file=sys.stderr)
        return 2
    if args.stream and (args.n_best > 1 or args.scores):  # the stream prints the best text only: they were dropped
        print("error: --n-best and --scores are printed once a text is finished; --stream prints its text as it is "
              "decoded: drop one of them", file=sys.stderr)
        return 2
    if args.attention and not args.attention.parent.is_dir():  # known before translating, not after
        print(f"error: --attention {args.attention}: the directory {args.attention.parent} does not exist", file=sys.stderr)
        return 2
    if args.checkpoint:
        if any(value != DECODING_DEFAULTS.get(name) for name, value in decoding_arguments(args).items()
               if name not in ("beam_size", "suppress_repeats")):
            print("error: with --checkpoint (PyTorch) only --beam applies; use --model-dir or a server for "
                  "n-best, scores, sampling and alignments", file=sys.stderr)
            return 2
        from model.checkpoint import load_checkpoint
        from model.train import translate

        model, tokenizer = load_checkpoint(args.checkpoint)
        translated = iter(translate(model, tokenizer, [text for text in texts if text.strip()], beam_size=args.beam,
                                    repeat_period=repeat_period(args)))
        for text in texts:
            print(next(translated) if text.strip() else text)
        return 0
    if args.model_dir:
        try:
            translations = translate_locally(args, texts)
        except ValueError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    else:
        import grpc

        try:
            translations = translate_remotely(args, texts)
        except grpc.RpcError as error:
            unreachable = f": {NO_SERVER}" if error.code() == grpc.StatusCode.UNAVAILABLE else ""
            print(f"error: {error.code().name}: {error.details()} (server {args.server}){unreachable}", file=sys.stderr)
            return 1
    if not args.stream:
        print_translations(translations, args)
    if args.attention:
        from service.heatmap import draw_alignments

        first = next(i for i, text in enumerate(texts) if text.strip())
        print(f"wrote {draw_alignments(translations[first], args.attention, texts[first][:80])}", file=sys.stderr)
    return 0


def utf8_arguments(texts: list[str]) -> list[str]:
    """The text arguments, each checked to be UTF-8: Python gives an argument of other bytes as lone surrogates."""
    for number, text in enumerate(texts, start=1):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as error:
            raise ValueError(f"text argument {number} is not valid UTF-8 (at character {error.start})") from None
    return texts


def utf8_lines(lines: Iterable[bytes]) -> Iterator[str]:
    """Each line decoded, without its line break; one that is not UTF-8 is named by its number."""
    for number, raw in enumerate(lines, start=1):
        try:
            yield raw.decode("utf-8").rstrip("\r\n")
        except UnicodeDecodeError as error:
            raise ValueError(f"stdin line {number} is not valid UTF-8 ({error.reason} at byte {error.start})") from None


def stdin_texts(lines: Iterable[bytes], paragraphs: bool, output: io.TextIOWrapper | None = None) -> list[str]:
    """Stdin's texts: each line, or with --paragraphs each run of lines between blank lines (its sentences wrapped
    over lines are translated whole, a fenced code block kept whole); a blank line is a text of its own, printed back
    blank, so that the output lines up with the input. Where stdin's first line ends in CRLF (a Windows file), the
    `output` writes CRLF too (it wrote LF: a Windows file came back with Unix line ends)."""
    from translator.text import paragraph_runs

    lines = list(lines)
    if output is not None and lines and lines[0].endswith(b"\r\n"):
        output.reconfigure(newline="\r\n")
    if not paragraphs:
        return list(utf8_lines(lines))
    return ["\n".join(run) for run in paragraph_runs(utf8_lines(lines), lambda line: line)]


DECODING_DEFAULTS = {"beam_size": 1, "num_hypotheses": 1, "return_scores": False, "return_alignments": False}


def decoding_arguments(args) -> dict:
    """The translate command's decoding flags as DecodingOptions fields (the same names in the proto and in
    service.decoding.DecodingOptions)."""
    options = dict(beam_size=args.beam, num_hypotheses=args.n_best, return_scores=args.scores,
                   return_alignments=bool(args.attention))
    if args.length_penalty is not None:
        options["length_penalty"] = args.length_penalty
    # Every sampling knob implies sampling, as --temperature did: a --top-p that greedy decoding ignored said nothing.
    if args.sample or args.temperature is not None or args.top_k or args.top_p != 1.0:
        options.update(sampling_temperature=1.0 if args.temperature is None else args.temperature,
                       sampling_topk=args.top_k, sampling_topp=args.top_p)
    if args.seed is not None:
        options["seed"] = args.seed
    if args.allow_repeats:
        options["suppress_repeats"] = False
    return options


def text_options(args) -> dict:
    """The translate command's options for TranslatorClient.translate/stream."""
    return dict(model=args.model, max_output_tokens=args.max_output_tokens, html=args.html,
                preserve_placeholders=not args.no_placeholders,
                glossary=args.glossary.entries if args.glossary else (), **decoding_arguments(args))


def translate_remotely(args, texts: list[str]) -> list:
    """Translation messages from the server, one per text (a blank text, which the server refuses, is its own
    translation); with --stream, pieces are printed as they arrive."""
    from translator.v1 import translator_pb2 as pb

    with client_for(args, timeout=args.timeout) as client:
        if not args.stream:
            wanted = [text for text in texts if text.strip()]
            translated = iter([translation for start in range(0, len(wanted), TEXTS_PER_REQUEST)
                               for translation in client.translate(wanted[start:start + TEXTS_PER_REQUEST],
                                                                   **text_options(args)).translations])
            return [next(translated) if text.strip() else pb.Translation(text=text) for text in texts]
        finals = []
        for text in texts:  # one text at a time, so that pieces of different texts never interleave on screen
            if not text.strip():
                print(text)
                finals.append(pb.Translation(text=text))
                continue
            for chunk in client.stream([text], **text_options(args)):
                print(chunk.text, end="\n" if chunk.HasField("final") else "", flush=True)
                if chunk.HasField("final"):
                    finals.append(chunk.final)
        return finals


def translate_locally(args, texts: list[str]) -> list:
    """Without a server: ONNX Runtime on an exported directory, with the text pipeline and decoding the server
    runs (ValueError for options out of range)."""
    from service.decoding import DecodingOptions
    from service.translator import Translator

    translator = Translator(args.model_dir, precision=args.precision, device=args.device,
                            alignment_layer=args.alignment_layer)
    options = DecodingOptions(max_output_tokens=args.max_output_tokens, **decoding_arguments(args))
    translations = translator.translate_texts(texts, options=options, html=args.html,
                                              preserve_placeholders=not args.no_placeholders, glossary=args.glossary)
    if args.stream:
        for translation in translations:
            print(translation.text)
    return translations


def print_translations(translations: list, args) -> None:
    """One line per text; with --n-best, `index ||| text [||| score]` per hypothesis (Moses' n-best format);
    with --scores, the score before a tab."""
    for index, translation in enumerate(translations):
        if args.n_best > 1:
            for hypothesis in translation.hypotheses or [translation]:
                print(f"{index} ||| {hypothesis.text}" + (f" ||| {hypothesis.score:.4f}" if args.scores else ""))
        elif args.scores:
            print(f"{translation.score:.4f}\t{translation.text}")
        else:
            print(translation.text)


BATCH_RESUMES = "the results so far are kept; rerun the same command to resume"  # a batch job stopped part way
NO_SERVER = "start one with `make serve`, or check --server and the TLS flags"  # what to do when none answers


def cmd_batch(args) -> int:
    import asyncio

    import grpc

    from service import batch

    wrong = batch_paths(args)
    if wrong:
        print(f"error: {wrong}", file=sys.stderr)
        return 2
    tree = args.input.is_dir()
    if tree:  # what is wrong with the paths, before a server is looked for
        try:
            if args.format:
                raise batch.JobRefused(f"--format {args.format}: --input is a directory, whose files are read by "
                                       "their names (see --format); give one file to read it as another format")
            batch.check_tree(args.input, args.output)
        except batch.JobRefused as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    elif args.exclude:
        print(f"error: --exclude leaves out files of an --input directory, and {args.input} is a file: drop "
              "--exclude", file=sys.stderr)
        return 1

    settings = None if tree else job_settings(args, args.input)
    if not tree:
        try:
            batch.check_job(args.input, args.output, settings)
        except (OSError, batch.JobRefused) as error:  # before a server is waited for
            print(f"error: {error}", file=sys.stderr)
            return 1

    async def run():
        async with client_for(args, timeout=None, aio=True) as client:
            try:
                await client.wait_until_ready(timeout=args.connect_timeout)
            except asyncio.TimeoutError:
                raise ConnectionError(f"no translator server answers at {args.server} within {args.connect_timeout:g} "
                                      f"s ({await why_unreachable(client)}): {NO_SERVER}") from None
            if tree:
                return await batch.run_tree(client, args.input, args.output, lambda path: tree_settings(args, path),
                                            progress=not args.quiet, files_at_once=args.files_at_once,
                                            concurrency=args.concurrency, exclude=args.exclude,
                                            report=lambda path, done, settings: report_job(args, path, done, settings))
            return await batch.run_job(client, args.input, args.output, settings, progress=not args.quiet)

    try:
        summary = asyncio.run(run())
    except (OSError, batch.JobRefused) as error:  # no server, no result for so long (TimeoutError), a file refused
        print(f"error: {error}", file=sys.stderr)
        return 1
    except grpc.aio.AioRpcError as error:
        print(f"error: {error.code().name}: {error.details()} ({BATCH_RESUMES})", file=sys.stderr)
        return 1
    if tree:
        for failure in summary.failed:
            print(f"failed: {failure}", file=sys.stderr)
        if summary.failed:
            print("rerun the same command to send what failed again (files done are left as they are, unless their "
                  "source changes)",
                  file=sys.stderr)
        if summary.unmade:
            print(f"note: {unmade(summary.unmade)} under {args.output} no file of {args.input} makes (its source "
                  "deleted, renamed or left out since?): left as they are", file=sys.stderr)
        print(summary)
        return 1 if summary.failed else 0
    report_job(args, None, summary, settings)
    return 1 if summary.failed else 0


def batch_paths(args) -> str:
    """Sets args.input and args.output from --input, --output and the paths given without a flag, in that order
    (`translator batch in.po out.po`, `--input in.po out.po`); what is missing or given twice, else ""."""
    given = [path for path in (args.input_path, args.output_path) if path is not None] + args.more_paths
    for name in ("input", "output"):
        if getattr(args, name) is None and given:
            setattr(args, name, given.pop(0))
    if given:
        return (f"{' '.join(map(str, given))}: a path more than one INPUT and one OUTPUT (translator batch INPUT "
                "OUTPUT, or --input INPUT --output OUTPUT)")
    missing = [name.upper() for name in ("input", "output") if getattr(args, name) is None]
    if missing:
        return (f"no {' and no '.join(missing)} given: translator batch INPUT OUTPUT (or --input INPUT "
                "--output OUTPUT)")
    return ""


def unmade(paths: list[Path], shown: int = 5) -> str:
    """How many files, and the first `shown` of them by name: "2 files (b.txt, c.json)"."""
    names = ", ".join(str(path) for path in paths[:shown])
    more = f" and {len(paths) - shown} more" if len(paths) > shown else ""
    return f"{len(paths)} {'file' if len(paths) == 1 else 'files'} ({names}{more})"


def job_settings(args, path: Path, format: str = ""):
    """A batch job's settings for the input `path`: its format given, or --format, or the one its name says."""
    from service import batch
    from translator.v1 import translator_pb2 as pb

    return batch.Settings(
        format=format or args.format or batch.format_named(path),
        output_format=args.output_format or ("jsonl" if args.output.suffix.lower() == ".jsonl" else "text"),
        concurrency=args.concurrency, model=args.model,
        options=pb.DecodingOptions(max_output_tokens=args.max_output_tokens, min_output_tokens=args.min_output_tokens,
                                   beam_size=args.beam,
                                   text_format=pb.TEXT_FORMAT_HTML if args.html or path.suffix.lower()
                                   in batch.PAGE_SUFFIXES else pb.TEXT_FORMAT_PLAIN,
                                   preserve_placeholders=not args.no_placeholders,
                                   glossary=[pb.GlossaryEntry(source=source, target=target)
                                             for source, target in (args.glossary.entries if args.glossary else ())]),
        dedupe=args.dedupe, give_up_seconds=args.give_up_seconds, review=not args.no_review,
        encoding=args.encoding or "")


def tree_settings(args, path: Path):
    """A directory's file's job settings, by its name; None for a file of no format a job reads (copied), an XML file
    that holds no Android resources or no element at all too, and a file of a suffix another kind shares that its
    format refuses (a TypeScript .ts, a PHP program, a CSV table of data: batch.SHARED_SUFFIX_FORMATS)."""
    from service import android_strings, batch, documents

    format = batch.format_named(path)
    if format == "text" and path.suffix.lower() not in batch.TEXT_SUFFIXES:
        return None
    if path.suffix.lower() == ".xml" and documents.holds_no_element(path):
        return None
    if format == "android" and not android_strings.holds_resources(path):
        return None
    if format in batch.SHARED_SUFFIX_FORMATS and not batch.is_format(path, format):
        return None
    return job_settings(args, path, format)


def report_job(args, path: Path | None, summary, settings) -> None:
    """What a finished job says: its failures and what to do about them, hints about its input, its summary (a
    directory's file's prefixed with its path, and only without --quiet), each line above a directory's progress bar
    (printed beside it, a line began at the bar's end: "  0%|   | 0/3 [00:00<?, ?file/s]bin.txt: line 2: ...")."""
    from tqdm import tqdm

    from service import batch

    def say(text: str) -> None:
        tqdm.write(text, file=sys.stderr)

    named = f"{path}: " if path is not None else ""
    for line in summary.errors:
        say(named + line)
    if summary.failed and path is None:
        journal = batch.journal_path(args.output, settings)
        more = f"... and {summary.failed - len(summary.errors)} more; " if summary.failed > len(summary.errors) else ""
        say(f"{more}{journal} records every failure; rerun the same command to send the {summary.failed} failed "
            f"{'line' if summary.failed == 1 else 'lines'} again")
    if summary.not_utf8:
        say(f"{named}{summary.not_utf8} {'line is' if summary.not_utf8 == 1 else 'lines are'} not UTF-8: a file in "
            "another encoding is read in it with --encoding NAME (Windows' Western European: cp1252)")
    if settings.format == "text" and summary.wrapped >= 3 and summary.wrapped * 10 >= summary.items:
        say(f"{named}{summary.wrapped} of the {summary.items} lines seem to go on on the next (a paragraph wrapped "
            "over lines: a README, an e-mail, a book), and each line was translated alone: --format paragraphs "
            "translates each paragraph whole and wraps it again")
    if summary.tracked:
        one = summary.tracked == 1
        say(f"{named}{summary.tracked} {'paragraph has' if one else 'paragraphs have'} tracked changes and stayed as "
            f"{'it was' if one else 'they were'}: accept or reject the changes (Word: Review, Accept; LibreOffice: "
            "Edit, Track Changes, Manage) and translate the document again")
    if summary.approximated:
        say(f"{named}{summary.approximated} characters of the translations are not in {settings.encoding}: written "
            "as the nearest it has („ and “ as \", – as -), else as ?")
    if path is None or not args.quiet:
        tqdm.write(named + str(summary), file=sys.stdout)


async def why_unreachable(client) -> str:
    """gRPC's reason a channel is not ready (connection refused, not HTTP/2: another service on that port, TLS on one
    side only), read from a call that fails fast."""
    import asyncio

    import grpc

    try:
        await asyncio.wait_for(client.list_models(), 10)
    except grpc.aio.AioRpcError as error:
        return error.details() or error.code().name
    except asyncio.TimeoutError:
        return "no answer"
    return "it answers now: run the command again"


def client_for(args, timeout: float | None, aio: bool = False):
    """A TranslatorClient (AsyncTranslatorClient with aio) with the command's server, TLS and token options."""
    from service.client import AsyncTranslatorClient, TranslatorClient

    token = args.token_file.read_text(encoding="utf-8").strip() if args.token_file else None
    return (AsyncTranslatorClient if aio else TranslatorClient)(args.server, timeout=timeout, tls=args.tls, ca=args.tls_ca, cert=args.tls_cert,
                            key=args.tls_key, token=token)


def _text_arguments(parser) -> None:
    parser.add_argument("--html", action="store_true",
                        help="texts are HTML: markup is never translated; block-level tags separate sentences; "
                             "outside <pre> a line break is a space")
    parser.add_argument("--no-placeholders", action="store_true",
                        help="translate placeholders (%%s, {name}), tags (HTML's, BBCode's), URLs, e-mail addresses, "
                             "file paths and names, "
                             "dotted names (org.gnome.Settings), "
                             "names like FreeBSD or Zoë, long options, operators (&&, ==), `code`, ``` code blocks, "
                             "front matter, GNU-style `quotes', "
                             "Markdown link brackets and targets, footnote references, attribute lists "
                             "({#install}), alert and admonition types ([!NOTE], !!! note, :::tip), MDX import "
                             "and export lines, emoji shortcodes (:tada:), TeX math ($x^2$), JSON keys, environment "
                             "variables, codes (hashes, UUIDs, IPv6 "
                             "addresses) and numbers like other text "
                             "instead of keeping them exactly")
    parser.add_argument("--glossary", type=glossary_file, metavar="FILE",
                        help="terms to translate a given way: a UTF-8 file, one a line, its English, a tab and its "
                             "German (the English alone keeps the term as written: a name not to translate); a term "
                             "is found as whole words, in any case where it is written in small letters, else as "
                             "written, and where terms overlap the one that starts first wins, then the longest; lines "
                             "starting with # are skipped; at most 1,000 terms, each of at most 100 characters (its "
                             "German 200)")


def _connection_arguments(parser, tokens: bool = True) -> None:
    parser.add_argument("--server", type=server_address, default=DEFAULT_SERVER,
                        help=f"server address, host[:port] (port {DEFAULT_PORT} unless given) or any gRPC target such as "
                             f"dns:///host:port (env TRANSLATOR_SERVER; default {DEFAULT_SERVER})")
    parser.add_argument("--tls", action="store_true", help="connect with TLS, trusting the system's certificate authorities")
    parser.add_argument("--tls-ca", type=existing_file, help="connect with TLS, trusting this PEM CA certificate")
    parser.add_argument("--tls-cert", type=existing_file, help="client certificate (PEM) for mutual TLS")
    parser.add_argument("--tls-key", type=existing_file, help="the client certificate's private key (PEM)")
    if tokens:
        parser.add_argument("--token-file", type=existing_file,
                            help="file holding the bearer token to send (default: env TRANSLATOR_AUTH_TOKEN, if set)")
    else:
        parser.set_defaults(token_file=None)


def cmd_health(args) -> int:
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc

    try:
        with client_for(args, args.timeout) as client:
            response = health_pb2_grpc.HealthStub(client.channel).Check(
                health_pb2.HealthCheckRequest(service=args.service), timeout=args.timeout)
    except grpc.RpcError as error:
        details = error.details()
        if error.code() == grpc.StatusCode.NOT_FOUND and not details:  # gRPC's health service says nothing more
            details = (f"the server reports no service {args.service!r}; ask '' (the whole server, the default) or "
                       "'translator.v1.Translator'")
        print(f"{args.server}: {error.code().name}: {details}", file=sys.stderr)
        return 1
    status = health_pb2.HealthCheckResponse.ServingStatus.Name(response.status)
    print(f"{args.server}: {status}")
    return 0 if response.status == health_pb2.HealthCheckResponse.SERVING else 1


def server_config(args):
    """ServerConfig from `translator serve` flags (ValueError says which settings are wrong)."""
    from service.config import ServerConfig

    return ServerConfig(
        host=args.host, port=args.port, repository=args.repository, models=tuple(args.model), device=args.device,
        precision=args.precision, workers=args.workers, threads=args.threads,
        worker_processes=args.worker_processes, max_num_seqs=args.max_num_seqs,
        max_beam_size=args.max_beam_size, alignment_layer=args.alignment_layer,
        max_num_batched_tokens=args.max_num_batched_tokens, max_queue_size=args.max_queue_size,
        join_interval_steps=args.join_interval_steps, placeholder_retry_beams=args.placeholder_retry_beams,
        uncovered_attention=args.uncovered_attention,
        max_texts_per_request=args.max_texts_per_request, max_text_chars=args.max_text_chars,
        max_message_bytes=args.max_message_bytes, max_concurrent_streams=args.max_concurrent_streams,
        batch_inflight=args.batch_inflight, stream_interval_ms=args.stream_interval_ms,
        stream_updates_per_second=args.stream_updates_per_second, grace_seconds=args.grace_seconds, metrics_host=args.metrics_host,
        metrics_port=args.metrics_port, tls_cert=args.tls_cert, tls_key=args.tls_key, tls_client_ca=args.tls_client_ca,
        auth_token_file=args.auth_token_file,
    )


def cmd_serve(args) -> int:
    import asyncio
    import logging

    from service.server import serve

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = server_config(args)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    try:
        asyncio.run(serve(config))
    except (OSError, RuntimeError, ValueError) as error:  # no such model, a port in use, no CUDA provider, no tokens
        print(f"error: cannot start serving: {error}", file=sys.stderr)
        return 1
    return 0


def cmd_export(args) -> int:
    from export.repository import ParityError, export_model, is_stale

    use_torch_threads(args.threads)
    try:
        if args.if_stale and not is_stale(args.out, args.checkpoint):
            print(f"{args.out} is up to date with {args.checkpoint}")
            return 0
        report = export_model(args.checkpoint, args.out, args.data, int8=args.int8, fp16=args.fp16,
                              batches=args.batches, sentences=args.sentences)
    except (ParityError, ValueError) as error:  # failed parity; a malformed serving.json
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(format_parity(report))
    print(f"exported to {args.out}")
    return 0


def cmd_validate(args) -> int:
    from export.repository import REPORT_FILE, validate

    use_torch_threads(args.threads)
    report = validate(args.model_dir, args.checkpoint, args.data, args.batches, args.sentences, args.device)
    print(format_parity(report))
    if args.write:
        (args.model_dir / REPORT_FILE).write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return 0 if report["passed"] else 1


def format_parity(report: dict) -> str:
    tensor, sequence = report["tensor"], report["sequence"]
    lines = [f"tensor parity over {tensor['batches']} batches (sizes {tensor['batch_sizes']}) on "
             f"{report['provider']}, against float64:",
             f"  {'output':<22}{'max abs diff':>14}{'max rel diff':>14}{'max |value|':>14}"]
    for name, stats in tensor["outputs"].items():
        lines.append(f"  {name:<22}{stats['max_abs']:>14.3e}{stats['max_rel']:>14.3e}{stats['max_reference']:>14.3g}")
    worst = tensor["outputs"]["logits"]["worst_input"]
    lines.append(f"  worst logits input: batch {worst.get('batch')} row {worst.get('row')}: {worst.get('source')!r}")
    lines.append(f"  logits bound {report['logits_bound']:.3e}: {report['rule']}")
    lines.append(f"sequence parity: {sequence['token_identical']}/{sequence['sentences']} greedy outputs token-identical "
                 f"({100 * sequence['share']:.1f}%), {len(sequence['near_ties'])} near-ties, "
                 f"{len(sequence['mismatches'])} mismatches")
    for kind, label in (("near_ties", "near-tie"), ("mismatches", "mismatch")):
        for case in sequence[kind]:
            lines.append(f"  {label}: {case['source']!r}: pytorch {case['pytorch']!r} vs onnx "
                         f"{case['onnx']!r} (token {case['first_differing_token']}, float64 margin {case['float64_margin']:.3g})")
    if "int8" in report:
        q = report["int8"]
        lines.append(f"int8 ({q.get('weight_scales', 'per output channel')} weight scales, "
                     f"{q.get('weight_levels', 127)} weight levels, "
                     f"{q.get('activation_scales', 'per batch')} activation scales) vs fp32 on {q['test_pairs']} test "
                     f"pairs: BLEU {q['int8']['bleu']} vs {q['fp32']['bleu']} "
                     f"(drop {q['bleu_drop']}), chrF {q['int8']['chrf']} vs {q['fp32']['chrf']} (drop {q['chrf_drop']})")
    if "fp16" in report:
        lines.append(f"fp16: {report['fp16']}")
    lines.append("PASSED" if report["passed"] else "FAILED: " + "; ".join(report["failures"]))
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="translator", description="English→German translation: data, training, export, serving.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    data = commands.add_parser("data", help="prepare training data").add_subparsers(dest="source_kind", required=True, metavar="SOURCE")
    freedict = data.add_parser("freedict", help="parse and split Debian's dict-freedict-eng-deu (Ding) dictionary",
                               description="Fetch dict-freedict-eng-deu with apt-get download (or use --source), extract "
                                           "example and headword pairs, and write train/valid/test TSVs and stats.json.")
    freedict.add_argument("--source", type=Path, help="a .deb, or a directory holding the dictd .index and .dict(.dz) files")
    freedict.add_argument("--reverse-source", type=Path,
                          help="the same for dict-freedict-deu-eng, whose examples that eng-deu lacks join train (default: "
                               "downloaded too when --source is not given; with --source, read only from here)")
    freedict.add_argument("--out", type=Path, default=DEFAULT_DATA, help=f"output directory (default: {DEFAULT_DATA})")
    freedict.set_defaults(func=cmd_data_freedict)
    cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "translator" / "catalogs"
    gettext = data.add_parser("gettext", help="software messages from Debian packages' German gettext catalogs",
                              description="Find the packages that ship usr/share/locale/de/LC_MESSAGES/*.mo in the "
                                          "mirror's Contents index, download the smallest first with apt-get download "
                                          "(bounded), extract and clean the English/German message pairs, and split "
                                          "them by package into train/valid/test TSVs, stats.json and packages.json.")
    gettext.add_argument("--out", type=Path, default=DEFAULT_DATA / "software",
                         help=f"output directory (default: {DEFAULT_DATA / 'software'})")
    gettext.add_argument("--cache", type=Path, default=cache, help=f"download cache, kept between runs (default: {cache})")
    gettext.add_argument("--max-mb", type=positive_number, default=1500, help="total download bound in MB (default: 1500)")
    gettext.add_argument("--max-package-mb", type=positive_number, default=40, help="skip packages larger than this (default: 40)")
    gettext.add_argument("--mirror", help="Debian mirror URL (default: the first one apt is configured with)")
    gettext.add_argument("--suite", help="Debian suite, e.g. bookworm (default: apt's configured suite)")
    gettext.set_defaults(func=cmd_data_gettext)
    words = data.add_parser("lexicon", help="the word lists that tell names from English words (translator/wordlists/)",
                            description="Read the training splits (DATA/train.tsv and each --extra-data DIR/train.tsv) "
                                        "and write english_words.txt.gz (every word the English side writes in small "
                                        "letters, and the capitalized words German translates), names.txt.gz "
                                        "(capitalized words German keeps as written, and a word list's proper nouns "
                                        "the pairs lack), german_words.txt.gz (the words the German side writes "
                                        f"{GERMAN_COUNT} times or more) and english_describing.txt.gz (the English "
                                        "headwords in small letters a pair translates with a German adjective or "
                                        "adverb), german_genders.txt.gz (German nouns' genders) and "
                                        "german_verbs.txt.gz (German verbs' infinitives), both from "
                                        "dict-freedict-deu-eng's headwords. The text pipeline keeps as written a "
                                        "capitalized word english_words lacks inside a sentence, and one names holds "
                                        "at its start; a word a letter off a code the source reads is the code, "
                                        "unless German writes it; \"as WORD as\" compares where WORD describes; an "
                                        "article takes the gender of the noun after it, a verb the person of the "
                                        "pronoun before it.")
    words.add_argument("--data", type=Path, default=DEFAULT_DATA,
                       help=f"corpus directory with train.tsv (default: {DEFAULT_DATA})")
    words.add_argument("--extra-data", type=Path, action="append", default=[], metavar="DIR",
                       help="another corpus directory whose train.tsv the model was trained on too, e.g. "
                            "data/software; repeatable")
    words.add_argument("--proper-nouns", type=Path, metavar="WORD_LIST",
                       help="a word list (one word per line) whose capitalized words the training pairs lack are "
                            "names too (default: Debian's wamerican, SCOWL's American English list, downloaded with "
                            "apt-get; its copyright file is written beside the lists)")
    words.add_argument("--genders", type=Path, metavar="SOURCE",
                       help="dict-freedict-deu-eng as a .deb or a directory holding its dictd .index and .dict(.dz) "
                            "files, whose headwords give the nouns' genders and the verbs (default: downloaded "
                            "with apt-get)")
    words.add_argument("--out", type=Path, default=WORDLISTS,
                       help=f"output directory (default: {WORDLISTS}, the one the package ships and reads)")
    words.set_defaults(func=cmd_data_lexicon)

    train = commands.add_parser("train", help="train a Transformer checkpoint", description="Train on DATA/train.tsv, validate on "
                                "DATA/valid.tsv, keep the best checkpoint in OUT, resume from OUT/last.pt when present.")
    train.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"directory with train.tsv and valid.tsv (default: {DEFAULT_DATA})")
    train.add_argument("--out", type=Path, default=Path("runs/default"), help="checkpoint directory (default: runs/default)")
    train.add_argument("--extra-data", type=Path, action="append", default=[], metavar="DIR",
                       help="another corpus directory (train.tsv, valid.tsv), e.g. data/software: its pairs are mixed into "
                            "training and its validation pairs interleaved with DATA's; repeatable")
    train.add_argument("--init-from", type=Path, metavar="CHECKPOINT",
                       help="warm start: begin from this checkpoint's weights, vocabulary and architecture")
    train.add_argument("--device", choices=("cpu", "cuda"), help="where to train (default: cuda when available)")
    train.add_argument("--precision", choices=("fp32", "bf16", "fp16"), default="fp32",
                       help="autocast precision of forward and backward; fp16 (with loss scaling) on CUDA only (default: fp32)")
    train.add_argument("--average-last", type=whole_number(1), default=1, metavar="N",
                       help="at the end, average the weights of the last N validations and keep the average if it "
                            "validates better (default: 1, no averaging)")
    train.add_argument("--vocab-size", type=whole_number(1), default=8000, help="SentencePiece vocabulary size (default: 8000)")
    train.add_argument("--d-model", type=whole_number(1), default=256, help="model width (default: 256)")
    train.add_argument("--heads", type=whole_number(1), default=4, help="attention heads; must divide --d-model (default: 4)")
    train.add_argument("--d-ff", type=whole_number(1), default=1024, help="feed-forward inner width (default: 1024)")
    train.add_argument("--encoder-layers", type=whole_number(1), default=6,
                       help="encoder layers: run once per request (default: 6)")
    train.add_argument("--decoder-layers", type=whole_number(1), default=2,
                       help="decoder layers: run once per generated token (default: 2)")
    train.add_argument("--dropout", type=float, default=0.1, help="dropout probability (default: 0.1)")
    train.add_argument("--activation", choices=("relu", "gelu", "silu"), default="relu",
                       help="feed-forward activation (default: relu)")
    train.add_argument("--norm", choices=("pre", "post"), default="pre", help="LayerNorm placement (default: pre)")
    train.add_argument("--max-tokens", type=whole_number(1), default=4000, help="padded tokens per batch (default: 4000)")
    train.add_argument("--lr", type=positive_number, default=1e-3, help="peak learning rate (default: 1e-3)")
    train.add_argument("--warmup", type=whole_number(1), default=800, help="warm-up steps (default: 800)")
    train.add_argument("--validate-every", type=whole_number(1), default=500, help="steps between validations (default: 500)")
    train.add_argument("--patience", type=whole_number(1), default=6, help="validations without improvement before stopping (default: 6)")
    train.add_argument("--example-weight", type=whole_number(0), default=2, help="copies of each dictionary example sentence per epoch; headword entries and "
                            "--extra-data pairs appear once (default: 2)")
    train.add_argument("--max-steps", type=whole_number(1), default=1_000_000, help="stop after this many optimizer steps (default: 1000000)")
    train.add_argument("--max-minutes", type=positive_number, default=float("inf"), help="stop after this much training time")
    train.add_argument("--seed", type=int, default=1, help="seed of initialisation, batching and dropout (default: 1)")
    train.add_argument("--threads", type=whole_number(1), default=2, help="torch intra-op threads (default: 2)")
    train.set_defaults(func=cmd_train)

    average = commands.add_parser("average", help="average a training run's validation snapshots into a checkpoint",
                                  description="Write a checkpoint holding the element-wise average of RUN's validation "
                                              "snapshots (RUN/snapshots/step-N.safetensors) at the given steps, with RUN's "
                                              "tokenizer and training log.")
    average.add_argument("run", type=Path, help="a `translator train --out` directory")
    average.add_argument("--steps", type=int, nargs="+", required=True, help="validation steps to average, e.g. 3750 4500 5250")
    average.add_argument("--out", type=Path, required=True, help="checkpoint directory to write")
    average.set_defaults(func=cmd_average)
    evaluate = commands.add_parser("evaluate", help="BLEU/chrF of a checkpoint and of a dictionary baseline on the test split")
    evaluate.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="checkpoint directory (default: the shipped model)")
    evaluate.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"directory with train.tsv and test.tsv (default: {DEFAULT_DATA})")
    evaluate.add_argument("--extra-data", type=Path, action="append", default=[], metavar="DIR",
                          help="another corpus whose test.tsv is scored separately, e.g. data/software; repeatable")
    evaluate.add_argument("--limit", type=whole_number(1), help="score only the first N test pairs of each corpus")
    evaluate.add_argument("--beam", type=whole_number(1), default=4, metavar="K",
                          help="also score beam search with K beams beside greedy (default 4; 1: greedy only)")
    evaluate.add_argument("--out", type=Path, help="JSON report path (default: CHECKPOINT/eval.json)")
    evaluate.add_argument("--card", action="store_true", help="also write CHECKPOINT/MODEL_CARD.md")
    evaluate.add_argument("--allow-repeats", action="store_true",
                          help="decode as the model ranks: no suppression of a block of tokens written a third time in "
                               "a row (default: suppressed, as the service decodes)")
    evaluate.add_argument("--train-command", default="translator train --data data --out runs/default",
                          help="the training command recorded in the model card")
    evaluate.set_defaults(func=cmd_evaluate)

    translate = commands.add_parser("translate", help="translate text through the server (or locally)",
                                    description="Send texts (arguments, or stdin lines or paragraphs) to a running "
                                                "server; with --model-dir or --checkpoint translate in this process "
                                                "instead.")
    translate.add_argument("text", nargs="*", help="texts to translate; when none, every stdin line (a blank one is "
                           "printed back blank; lines that end in CRLF are answered in CRLF)")
    translate.add_argument("--paragraphs", action="store_true",
                           help="read stdin a paragraph at a time (the lines between blank lines are one text, so a "
                                "sentence wrapped over lines is translated whole and wrapped again) instead of a line "
                                "at a time")
    _connection_arguments(translate)
    translate.add_argument("--model", default="", help="model name (default: the server's default model)")
    translate.add_argument("--stream", action="store_true", help="print pieces as they are decoded (the best translation only: not with --n-best or --scores)")
    translate.add_argument("--max-output-tokens", type=whole_number(0), default=0, help="limit generated tokens per sentence (0: twice the sentence's source tokens plus 20, "
                           "within the model's limit)")
    decoding = translate.add_argument_group("decoding (greedy unless asked)")
    decoding.add_argument("--beam", type=whole_number(1), default=1, metavar="K", help="beam search with K beams (default 1: greedy)")
    decoding.add_argument("--n-best", type=whole_number(1), default=1, metavar="N",
                          help="print the N best hypotheses per text as `index ||| text [||| score]` (N <= --beam)")
    decoding.add_argument("--length-penalty", type=float, metavar="A",
                          help="rank hypotheses by log-probability / length^A (0..10; default 1)")
    decoding.add_argument("--scores", action="store_true",
                          help="print each translation's score (log-probability / length^A) before a tab")
    decoding.add_argument("--sample", action="store_true", help="sample tokens instead of taking the most likely")
    decoding.add_argument("--temperature", type=float, help="sampling temperature (implies --sample; default 1)")
    decoding.add_argument("--top-k", type=whole_number(0), default=0, help="sample among the K most likely tokens (implies --sample; default 0: all)")
    decoding.add_argument("--top-p", type=float, default=1.0, help="sample within the nucleus of mass P (implies --sample; default 1: all)")
    decoding.add_argument("--seed", type=whole_number(0, UINT64_MAX), help="sampling seed: the same seed gives the same translation")
    decoding.add_argument("--allow-repeats", action="store_true",
                          help="let the model write a word or a few a third time in a row (default: suppressed unless "
                               "the source has the same tokens)")
    decoding.add_argument("--attention", type=Path, metavar="PNG",
                          help="draw the first text's alignments (cross-attention per sentence) into this PNG")
    decoding.add_argument("--alignment-layer", type=int, default=-1,
                          help="with --model-dir: decoder layer the alignments (and the placement of inline "
                               "elements' tags) come from (default -1: the last)")
    _text_arguments(translate)
    translate.add_argument("--timeout", type=positive_number, default=60.0, help="deadline in seconds (default: 60)")
    translate.add_argument("--checkpoint", type=Path, help="translate with this PyTorch checkpoint instead of a server")
    translate.add_argument("--model-dir", type=Path, help="translate with ONNX Runtime on this exported directory instead of a server")
    translate.add_argument("--precision", choices=("fp32", "int8", "fp16"), default="fp32", help="with --model-dir (default: fp32)")
    translate.add_argument("--device", choices=("cpu", "cuda"), default="cpu", help="with --model-dir (default: cpu)")
    translate.set_defaults(func=cmd_translate)

    batch = commands.add_parser(
        "batch", help="translate a whole file through the server: resumable, in bounded memory",
        description="Translate every line of --input (or every item of its --format: a paragraph, a catalog's "
                    "message, a JSON string, an XLIFF unit, a subtitle cue) through TranslateBatch. Results are "
                    "written as they finish; "
                    "rerunning the same command resumes, sending only lines not yet translated. A line longer than "
                    "4,096 characters is sent in parts cut between sentences and recorded whole. "
                    "Failed lines are "
                    "recorded with their line number and status and the job goes on; the exit code is 1 when "
                    "any line failed, and a rerun sends them again (a line fixed since too). An --input directory is "
                    "translated file by file into the --output directory, each file by the format its name says "
                    "and at the same path there; files of no format a job reads (images, stylesheets, XML that "
                    "holds no Android resources, a TypeScript .ts, a PHP program, a CSV table of data) are copied, "
                    "a program's configuration (docker-compose.yml, package.json) gets only its words translated, "
                    "hidden ones (.git) and links skipped, and a rerun leaves "
                    "the files it finished as they are, but for those whose source was modified after their output "
                    "was written.")
    batch.add_argument("input_path", nargs="?", type=Path, metavar="INPUT", help="the same as --input")
    batch.add_argument("output_path", nargs="?", type=Path, metavar="OUTPUT", help="the same as --output")
    batch.add_argument("--input", type=Path,
                       help="input (UTF-8, or see --encoding): text (one segment per line), TSV (id<TAB>text), JSONL "
                            '({"id": ..., "text": ..., optional "model", "max_output_tokens", "min_output_tokens", '
                            '"beam_size", each over the job\'s flag), '
                            "paragraphs, a configuration file, a gettext catalog, a JSON resource file, XLIFF or "
                            "subtitles (see --format); or a directory: each file of a format its name says (see "
                            "--format; .txt as text) translated, every other copied")
    batch.add_argument("--output", type=Path,
                       help="text output: line i holds the translation of input line i (empty when it failed; "
                            "a catalog's, a JSON, an XLIFF, an Android or .NET resource, a Qt Linguist file's or a "
                            "String Catalog's: the file filled in, see --format; "
                            "assembled at the end from OUTPUT.journal.jsonl, kept while a line failed; lines end "
                            "with \\r\\n where the input's first line does); JSONL output: one record per line in "
                            "finishing order (line, id, source, translation, token counts, finish reason, model, "
                            "or error with code and message); for an --input directory, a directory (made where "
                            "missing) that gets each file at the same path, a JSONL output's named PATH.jsonl")
    batch.add_argument("--format",
                       choices=("text", "tsv", "jsonl", "paragraphs", "comments", "config", "properties", "po", "json",
                                "xliff",
                                "android", "metainfo", "policy", "mime", "ts", "resx", "xcstrings", "stringsdict",
                                "csv", "php", "ipynb", "docx",
                                "odt", "odp", "ods", "pptx", "xlsx", "epub",
                                "subtitles", "ass", "rst", "asciidoc", "latex", "man", "fluent", "docbook",
                                "texinfo", "pod", "svg"),
                       help="input format (default: jsonl or tsv when INPUT ends in .jsonl or .tsv, config when it "
                            "ends in .yml, .yaml, .ini, .desktop, .strings or .toml, properties when it ends in "
                            ".properties, po when it ends in .po or .pot, json when it ends in .json or .arb, xliff "
                            "when it ends in .xlf or .xliff, metainfo when it ends in .metainfo.xml or .appdata.xml, "
                            "policy when it ends in .policy, for another .xml by its "
                            "root element: metainfo for <component>, policy for <policyconfig>, mime for <mime-info>, "
                            "docbook for a DocBook document's or part's (<book>, <article>, <chapter>, <section>, "
                            "...), else android; docbook when it ends in .docbook or .dbk; texinfo when it ends in "
                            ".texi, .texinfo or .txi (lilypond-book's .tely, .itely or .itexi too); pod when it "
                            "ends in .pod, .pm or .pl or has no suffix and its "
                            "first line runs perl (#!/usr/bin/perl); svg when it ends in .svg; ts when it ends in .ts, "
                            "resx when it ends in .resx or .resw, xcstrings when it ends in .xcstrings, stringsdict "
                            "when it ends in .stringsdict, csv when it ends in .csv, php when it ends in .php, ipynb "
                            "when it ends in .ipynb, docx when it ends in .docx, .docm, .dotx or .dotm, odt when it "
                            "ends in .odt or .ott, odp when it ends in .odp or .otp, ods when it ends in .ods or .ots, "
                            "pptx when it ends in .pptx, .pptm, .potx, .potm, .ppsx or .ppsm, xlsx when it ends in "
                            ".xlsx, .xlsm, .xltx or .xltm, epub when it ends in .epub, subtitles when it ends in .srt "
                            "or .vtt, ass when it ends in .ass or .ssa, rst when it ends in .rst or .rest, asciidoc "
                            "when it ends in .adoc, .asciidoc or .asc, latex when it ends in .tex or .ltx, man when it "
                            "ends in .man or in a manual section (.1, .8, .3pm, .1ssl) and its first line that is not "
                            "blank is a request or a comment (.TH, .\\\"), fluent when it ends in .ftl, paragraphs "
                            "when it ends in .md, .markdown, .mdx, .html, .htm, .xhtml or .page (web pages and "
                            "Mallard's, GNOME's help, read as with --html), else text; paragraphs: each run of lines "
                            "between blank lines is one item, so a "
                            "sentence wrapped over lines is translated whole, and its translation fills the same lines "
                            "of the text output (a Markdown page's front matter line by line: its title and "
                            "description translated, its settings kept; a shortcut reference to one of its links, "
                            "[label], written as a full one, [Übersetzung][label]); comments: a file of code or "
                            "settings (a shell script, sshd_config, a preseed file: never chosen by a name), each run "
                            "of its comment lines (#, // or ; after the same indentation) one item, its translation "
                            "written back over as many comment lines, everything else kept, commented-out code too (no "
                            "space after the mark, #Port 22, or more than one, an assignment, a key in CamelCase "
                            "with a value, or a first word that starts one of the file's other lines); config: a "
                            "configuration or "
                            "resource file, "
                            "each line's value translated and its key, section header, quotes and comments kept, a "
                            "YAML, TOML or Apple strings value read and written (quoted, escaped) as its reader needs, "
                            "a Rails locale's top-level en: written de:, a desktop entry's Name, GenericName, Comment "
                            "and Keywords kept and their German added after each (Name[de]=), its other keys kept; "
                            "a program's configuration (a file whose name, directory or top-level key does not say "
                            "it holds a program's English words, as en.yml, messages.en.yaml, config/locales/ or "
                            "i18n/ and en: do, nor has a translation beside it: docker-compose.yml, pyproject.toml, "
                            "an OpenAPI document) sends only "
                            "the values under keys that say words (description, summary, title, text, "
                            "message, help, ...), its booleans, numbers and dates never; "
                            "properties: a Java properties file, each value one item as Java reads it (escapes undone, "
                            "a value continued over lines joined, MessageFormat's '' single) and written back escaped "
                            "as it was, over as many lines (\\uXXXX beyond ASCII, or UTF-8 where the file holds such "
                            "characters, ISO-8859-1 where it is not UTF-8), its key and comments kept (of a program's "
                            "configuration, application.properties, not a resource bundle as Messages.properties or "
                            "app_en.properties, only the values under keys that say words); po: a gettext "
                            "catalog or template (UTF-8), each untranslated message's msgid and msgid_plural one item "
                            "keyed by its line, and the text output the catalog with those messages' msgstr filled in, "
                            "flagged fuzzy, and a template's header filled for German; translated, fuzzy and obsolete "
                            "messages are kept as they are; json: a JSON resource file, each string value with a "
                            "letter one item numbered in document order, its JSON path the id, keys and metadata (keys "
                            "starting with @) never sent (of a program's configuration, package.json or tsconfig.json, "
                            "a file whose name or directory does not say it holds its English words as en.json, "
                            "messages.json, strings.json, .arb or locales/en/ do, only the values under keys that say "
                            "words, its description), and the text output the file as it was but for those values; "
                            "xliff: XLIFF 1.2 or 2.x, each unit with a source and no target text one item numbered in "
                            "document order, sent as HTML (inline codes kept), its id the record's, and the text "
                            "output the file as it was but for those units' targets, flagged for review (1.2: "
                            "state=needs-review-translation, 2.x: the segment's state=translated) and the file's "
                            "target language where it names none; units marked translate=no are kept; android: Android "
                            "string resources (res/values/strings.xml), each string, string-array item and plurals "
                            "quantity one item numbered in document order, its resource name the id (planets[2], "
                            "songs:other), sent as HTML as Android reads it (escapes undone, <xliff:g> kept), and the "
                            "text output the German resource file: those strings translated and escaped as Android "
                            "needs, strings marked translatable=false left out, tools:locale=de; metainfo: AppStream's "
                            "metadata (what GNOME Software, KDE Discover and Flathub show of an application), each "
                            "text AppStream's translation rules mark (name, summary, developer name, keyword, "
                            "screenshot caption, a paragraph or list item of the description or of a release's) "
                            "without German and not marked translate=no one item numbered in document order, its "
                            "element's path the id, sent as HTML (<em>, <code> kept), and the text output the file as "
                            "it was with each translation added after its English as msgfmt adds one, the same "
                            "element with xml:lang=de; policy: polkit's actions (.policy), each action's "
                            "description and message, and mime: a shared MIME database package "
                            "(/usr/share/mime/packages), each type's comment, read and written back the same way; "
                            "ts: a Qt Linguist "
                            "file, each message without a translation one item numbered in document order, its "
                            "context's name the id, and the text output the file as it was but for those messages' "
                            "translations (a plural's numerus forms; a source marking an optional ending, %%n file(s), "
                            "sends its singular and plural as two items), still type=unfinished, and language=de where "
                            "it names none or English; resx: a .NET resource file (.resx, UWP's .resw), each <data> "
                            "holding a string one item numbered in document order, its name the id (typed data and the "
                            "WinForms designer's >> metadata not sent), and the text output the file as it was but for "
                            "those values (name it for its culture: Resources.de.resx); xcstrings: an Xcode String "
                            "Catalog, each string without a German localization one item (its English text, or its "
                            "key; each plural variation and substitution alone), its key the id, and the text output "
                            "the catalog as Xcode writes it with a German localization for each, state needs_review (a "
                            "string of no letter, %%@, gets its own text, translated); "
                            "stringsdict: an Apple plural dictionary (Localizable.stringsdict), each variant of a "
                            "string's variables (zero, one, other, ...) and each format (its %%#@variables@ kept) one "
                            "item numbered in document order, its keys the id (key/variable/one), and the text output "
                            "the file as it was but for those texts (name it for German: "
                            "de.lproj/Localizable.stringsdict); csv: a translation table (Godot's: keys,en,de), its "
                            "header row naming each column's language, each row whose English cell has a letter and "
                            "whose German cell is empty one item numbered by its row, its first cell the id, and the "
                            "text output the table with its German column (de, added where it has none) filled in; "
                            "php: a PHP translation file (Laravel's <?php return ['key' => 'text'];, CodeIgniter's "
                            "$lang['key'] = 'text';), each string value one item numbered in document order, its keys "
                            "the id (dotted), and the text output the file as it was but for those strings; ipynb: a "
                            "Jupyter notebook, each Markdown cell with a letter one item numbered by its cell, its "
                            "cell id the id, code cells, outputs and metadata never sent, and the text output the "
                            "notebook with those cells' sources translated; docx: a Word document, each paragraph with "
                            "a letter (body, headers, footers, footnotes, endnotes, comments, tables, text boxes, "
                            "charts' titles, SmartArt diagrams) one item numbered in document order, its part and "
                            "number the id, its runs' formats, links, content controls, tabs, pictures and fields kept "
                            "around the words they held (sent as HTML), paragraphs with tracked changes (the job says "
                            "how many) or in a code style never sent, and the output the document with those "
                            "paragraphs translated (its title, subject and description too, as in every office format, "
                            "and its pictures' alternative text, as in every office format); odt: an OpenDocument "
                            "text, read as a docx is (its body, headers and footers; footnotes, frames and tables too; "
                            "its pictures' and shapes' titles and descriptions); odp: an OpenDocument presentation "
                            "(Impress'), read as an odt is (its slides and notes, not its masters' prompts; text in a "
                            "typewriter's font kept as code); ods: an OpenDocument spreadsheet (Calc's), read as an "
                            "odt is (its string cells and notes; not a cell showing a number, a date or a formula's "
                            "result, nor a string its formulas, validity conditions or filters name as a value); pptx: "
                            "a PowerPoint presentation, each paragraph of its slides, speaker notes, charts' titles, "
                            "SmartArt diagrams and comments read as a docx's is; xlsx: an Excel workbook, each string "
                            "of its cells (shared or inline) and notes, then of its charts, text boxes, SmartArt "
                            "diagrams and threaded comments, with a letter one item, sent once however many cells show "
                            "it, its part and number the id, its runs' formats and line breaks kept (sent as HTML), a "
                            "string a formula, a data validation list, a filter or a table's column names as a value "
                            "never sent (translated it would no longer match), and the output the workbook with those "
                            "strings translated; epub: an EPUB book, each page read as a web page is (--html: each run "
                            "of lines between blank lines one item, its markup, code and style sheets kept), the "
                            "package document's titles and descriptions and the table of contents' labels items too, "
                            "and the output the book with those translated and its language German; subtitles: SubRip "
                            "or WebVTT, read as paragraphs, each cue's text one item and its number, identifier and "
                            "timing line kept, WebVTT's header and NOTE, STYLE and REGION blocks kept whole; ass: "
                            "SubStation Alpha (.ass, .ssa), each Dialogue line's text one item (its override tags, "
                            "{\\i1}, kept; \\N a line break), its fields and every other line kept as written; rst: "
                            "reStructuredText (Sphinx), read as paragraphs: a paragraph's words one item, a title's "
                            "alone (its under- and overline written as long as the translation), directives' first "
                            "lines and options, targets, comments, tables, doctests and the literal blocks after "
                            "\"::\" (and under code directives) kept as written, a final \"::\" written back; "
                            "asciidoc: AsciiDoc (Asciidoctor, git's manual pages), read as paragraphs and each cut "
                            "into its blocks: a paragraph's, a list item's, an admonition's and a description's words "
                            "one item, a title's, a block title's and a term's alone (a two-line title's underline "
                            "written as long as the translation; a term of words with its description on its line one "
                            "item with it), list marks, a term that is a name (`--quiet`::) or a value before its "
                            "description (true;; ...), attribute entries and lists, comments, block macros "
                            "(include::), listings, literal blocks, passthroughs, the blocks styled source, literal or "
                            "synopsis, and a table's lines of several cells, its cells of blocks or code (a|, l|, m|) "
                            "and CSV tables kept as written; a table's cell alone on its line is sent; latex: a LaTeX "
                            "document, read as paragraphs, each paragraph's words one item (formatted words and titles "
                            "translated, other commands, comments and mathematics kept), its preamble (\\documentclass "
                            "to \\begin{document}), its code and mathematics environments (verbatim, lstlisting, "
                            "equation, ...) over blank lines and what follows \\end{document} kept as written, but the "
                            "preamble's \\title{...}; man: a manual page in roff's man macros (or BSD's mdoc), each "
                            "paragraph (its text lines and the font macros among them, .B, .IR, ..., sent as font "
                            "escapes, \\fBls\\fR(1)) one item written back over as many lines, each .SH and .SS "
                            "heading (sent sentence-cased, written in capitals where it was; a standard section's, "
                            ".SH NAME, .SH SEE ALSO, written as German manual pages name it, BEZEICHNUNG, SIEHE "
                            "AUCH, not sent), a .TP tag and the NAME "
                            "line's words after its \\- one item (mdoc's .Sh, .Ss, but NAME and SYNOPSIS, and .Nd "
                            "too); the SYNOPSIS section, a tag that starts with an option (\\-W help; but a "
                            "description after it, \\- ...), no-fill text and examples (.nf, .EX, mdoc's .Bd "
                            "-literal), tables, equations, macro definitions, conditionals, comments, lines that start "
                            "with a space or a shell's prompt ($), strings (\\*(ex), small capitals (\\s-1API\\s0, "
                            "their words sent) and every other request kept as written; docbook: DocBook XML (KDE's "
                            "manuals, a book's chapter whose entities its book declares), each element's own words "
                            "(a paragraph's, a title's, a term's, a table cell's, a keyword's) one item numbered in "
                            "document order, its element's path the id, sent as HTML (its inline elements its markup, "
                            "<command> and other code kept), each block inside it (a list, a screen, a footnote, an "
                            "index term) a placeholder, <placeholder-1/>, whose own texts are items; screens, program "
                            "listings, synopses, literal layouts, addresses, an element whose words are all names or "
                            "code, one marked translate=no and entities (&kappname;) kept as written; and the text "
                            "output the document as it was but for those texts, wrapped to its lines' width, the "
                            "root's lang de (KDE's <!ENTITY %% English \"INCLUDE\"> German); texinfo: a Texinfo manual "
                            "(GNU's), each paragraph (over the comment and index lines between its lines, which "
                            "are written before it), heading, title, concept index entry (@cindex), list item, "
                            "multitable cell, term of a table of words (@table @asis), line of a @display, menu "
                            "entry's description and footnote one item numbered in document order, its line and kind the id (57:@section), "
                            "sent as HTML (@emph{...} and the like its markup, translated inside; @code, @var, @xref "
                            "and every other brace command kept as written), a footnote a placeholder whose words "
                            "are an item of their own; examples, verbatim, @node lines, menu entries' nodes, index "
                            "entries of names, definitions' headers, comments and blocks Texinfo does not know (a "
                            "preprocessor's: @lilypond) kept as written; and the text output the "
                            "manual as it was but for those texts, wrapped to its lines' width, German written as "
                            "Texinfo's accent commands (@\"a) but in a manual of @documentencoding UTF-8 or one "
                            "holding such characters, and its "
                            "@documentlanguage de; pod: Perl's documentation (a .pod file, the POD in a module or "
                            "script, a script of no suffix too where its first line runs perl; dpkg's manual pages), "
                            "each ordinary paragraph, =head heading and =item's words one item numbered in document "
                            "order, its line and kind the id (25:paragraph), sent as HTML (B<...>, I<...> and S<...> "
                            "its markup, translated inside, but bold of an option, a path or a name, B<--build>; "
                            "C<...>, F<...>, L<...>, X<...> kept as written; E<...> the character it names), in the "
                            "NAME section only what follows the name's dash, a standard section's =head1 as German "
                            "manual pages name it (NAME: BEZEICHNUNG); verbatim (indented) paragraphs, other "
                            "commands, =begin to =end and the code outside the POD kept as written; and the text "
                            "output the document as it was but for those texts, wrapped to its lines' width, its "
                            "links to its own sections naming their translated headings, =encoding UTF-8 (or "
                            "--encoding's) added where it declares none and gets German; "
                            "svg: an SVG drawing, each <text>'s words (its <tspan> lines and runs its markup, sent "
                            "as HTML, so a label over lines is one sentence), flowed paragraph, <title>, <desc> and "
                            "a <foreignObject>'s paragraph of HTML (diagrams.net's labels, <b> and <br> its markup) "
                            "one item numbered in document order, its element's path the id; styles, scripts, "
                            "metadata, texts of no letter, a <switch>'s other languages (systemLanguage) and the "
                            "names Graphviz titles a node's or an edge's group with kept; "
                            "and the text output the drawing as it was but for those texts, its xml:lang de (a "
                            "drawing of no text, an icon, as it was); "
                            "fluent: a Project "
                            "Fluent file (.ftl): a message's, a term's and an attribute's value and a variant's text "
                            "one item each, with the lines it goes on over (sent without their indentation, written "
                            "back over them), identifiers, attribute names, variant keys, selectors, comments, access "
                            "and command keys and placeables ({ $count }) kept; an access key its translated label "
                            "lacks is the label's first letter)")
    batch.add_argument("--output-format", choices=("text", "jsonl"),
                       help="default: jsonl when OUTPUT ends in .jsonl, else text")
    batch.add_argument("--no-review", "--no-fuzzy", dest="no_review", action="store_true",
                       help="with --format po, xliff, ts or xcstrings: leave the translations filled in unflagged "
                            "(by default each is flagged for review: a catalog's fuzzy, which msgfmt leaves out until "
                            "a translator removes it; XLIFF 1.2's state=needs-review-translation, here "
                            "state=translated; Qt's type=unfinished, here none; Xcode's state needs_review, here "
                            "translated)")
    batch.add_argument("--concurrency", type=whole_number(1), default=64,
                       help="items in flight, over one TranslateBatch stream per 64; an --input directory's files "
                            "share them (default: 64)")
    batch.add_argument("--files-at-once", type=whole_number(1), default=32, metavar="N",
                       help="with an --input directory: files translated at the same time, sharing --concurrency's "
                            "items in flight (many small files otherwise wait on one round trip each); with more than "
                            "1, one progress bar counts files (default: 32)")
    batch.add_argument("--exclude", action="append", default=[], metavar="PATTERN",
                       help="with an --input directory: leave out the files and directories PATTERN names, neither "
                            "translated nor copied (repeatable): as rsync reads it, a pattern with a '/' inside is "
                            "matched against the whole path from the input directory ('api/*.md', 'docs/old'), one "
                            "without against each name ('*.min.js', 'vendor'); '*' matches any characters within a "
                            "name, '?' one, '[abc]' one of them")
    batch.add_argument("--dedupe", action="store_true",
                       help="translate identical segments (same text, model and options) once (the last 100,000 "
                            "remembered; an --input directory's files share them)")
    batch.add_argument("--encoding", type=text_encoding,
                       help="the input's encoding where it is not UTF-8: a legacy one such as cp1252 (Windows' Western "
                            "European: old subtitles, spreadsheets' CSV), latin-1 or iso-8859-15, any Python knows; "
                            "the text output is written in it too, a character of a translation it has none for as "
                            "the nearest it has („ as \", – as -; counted in the summary). Not for po, JSON or XML "
                            "formats (their files are UTF-8). Default: UTF-8, or UTF-16 or UTF-32 by a byte order "
                            "mark (a file whose mark says another encoding than --encoding is refused); a properties "
                            "file that is not UTF-8: ISO-8859-1, as Java reads it; a web page that is not UTF-8, or is "
                            "ASCII: the encoding its <meta> charset or XML declaration names, as browsers read it (a "
                            "character of a translation that encoding lacks written as a reference, &#8222;)")
    _connection_arguments(batch)
    batch.add_argument("--model", default="", help="model name (default: the server's default model)")
    batch.add_argument("--max-output-tokens", type=whole_number(0), default=0, help="per segment (default 0: twice the sentence's source tokens plus 20, "
                       "within the model's limit)")
    batch.add_argument("--min-output-tokens", type=whole_number(0), default=0, help="per segment (default: 0)")
    batch.add_argument("--beam", type=whole_number(1), default=1, metavar="K",
                       help="beam search with K beams per segment (default 1: greedy; at most the model's "
                            "max_beam_size). 4 beams translated the held-out texts better (chrF 56.37 against 55.73) "
                            "in ~3.4x greedy's time")
    _text_arguments(batch)
    batch.add_argument("--connect-timeout", type=positive_number, default=30.0,
                       help="seconds to wait for the server; then the job stops and says what gRPC met there "
                       "(connection refused, not a gRPC server, a TLS mismatch) (default: 30)")
    batch.add_argument("--give-up-seconds", type=positive_number, default=300.0,
                       help="stop (resumable) after this long without a single result, e.g. the server is gone; an item "
                       "the server keeps refusing as busy or shutting down fails after this long (default: 300)")
    batch.add_argument("--quiet", action="store_true", help="no progress bar")
    batch.set_defaults(func=cmd_batch, more_paths=[])  # more_paths: see main

    convert = commands.add_parser("convert", help="convert between Hugging Face Marian (OPUS-MT) and our checkpoints")
    directions = convert.add_subparsers(dest="direction", required=True, metavar="DIRECTION")
    from_marian = directions.add_parser("from-marian", help="a Marian directory (config.json, weights, source.spm, "
                                        "target.spm, vocab.json) → our checkpoint",
                                        description="Needs the `interop` extra (transformers). Download an OPUS-MT model "
                                                    "yourself, e.g. with `huggingface-cli download Helsinki-NLP/opus-mt-en-de`.")
    from_marian.add_argument("source", type=Path, help="Marian (transformers) model directory")
    from_marian.add_argument("--out", type=Path, required=True, help="checkpoint directory to write")
    to_marian = directions.add_parser("to-marian", help="our checkpoint (post-norm, Marian layout) → a Marian directory")
    to_marian.add_argument("source", type=Path, help="checkpoint directory")
    to_marian.add_argument("--out", type=Path, required=True, help="Marian directory to write")
    convert.set_defaults(func=cmd_convert)

    _serve_parser(commands)
    health = commands.add_parser("health", help="ask a server's grpc.health.v1 status (exit 0 when SERVING)")
    _connection_arguments(health, tokens=False)  # health needs no token
    health.add_argument("--service", default="", help="service name to check (default: the whole server)")
    health.add_argument("--timeout", type=positive_number, default=3.0, help="seconds to wait for the answer (default: 3)")
    health.set_defaults(func=cmd_health)
    _bench_parser(commands)

    export = commands.add_parser("export", help="export a checkpoint to ONNX and prove parity",
                                 description="Write encoder.onnx, decoder.onnx, tokenizer, config.json, parity_report.json "
                                             "and MODEL_CARD.md into OUT. Exits 1 and leaves OUT.failed/ when parity fails.")
    export.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="checkpoint directory (default: the shipped model)")
    export.add_argument("--out", type=Path, default=DEFAULT_MODEL_DIR, help=f"model directory (default: {DEFAULT_MODEL_DIR})")
    export.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"valid/test splits; fetched when missing (default: {DEFAULT_DATA})")
    export.add_argument("--int8", action="store_true",
                        help="also write int8 graphs (activation scales calibrated on the valid split); fails when "
                             "test chrF drops by more than 1.0")
    export.add_argument("--fp16", action="store_true", help="also write fp16 graphs for CUDA (checked where a GPU exists)")
    export.add_argument("--if-stale", action="store_true", help="do nothing when OUT was already exported from this checkpoint")
    _parity_arguments(export)
    export.set_defaults(func=cmd_export)

    validate = commands.add_parser("validate", help="re-run the parity check of an exported model directory")
    validate.add_argument("model_dir", type=Path, help="exported model directory")
    validate.add_argument("--checkpoint", type=Path, help="PyTorch checkpoint (default: the one recorded in config.json)")
    validate.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"valid split; fetched when missing (default: {DEFAULT_DATA})")
    validate.add_argument("--write", action="store_true", help="replace MODEL_DIR/parity_report.json with this run's report")
    validate.add_argument("--device", choices=["cpu", "cuda"], default="cpu",
                          help="where the graphs run: cpu (as the export's gate), or cuda (onnxruntime-gpu) to check a "
                               "GPU's kernels against the same bound (default: cpu)")
    _parity_arguments(validate)
    validate.set_defaults(func=cmd_validate)
    return parser


def cmd_convert(args) -> int:
    from model import marian

    if not args.source.is_dir():
        print(f"error: {args.source} is not a directory; give a {'Marian (transformers)' if args.direction == 'from-marian' else 'checkpoint'} "
              "directory", file=sys.stderr)
        return 2  # the input cannot be converted: a usage error
    try:
        if args.direction == "from-marian":
            model = marian.from_marian(args.source, args.out)
        else:
            marian.to_marian(args.source, args.out)
    except (ValueError, OSError, KeyError) as error:  # unsupported configs, missing or unreadable files
        print(f"error: cannot convert {args.source}: {error}", file=sys.stderr)
        return 2  # the input cannot be converted: a usage error
    if args.direction == "from-marian":
        print(f"converted {args.source} ({model.cfg.encoder_layers}+{model.cfg.decoder_layers} layers, d={model.cfg.d_model}, "
              f"vocab {model.cfg.vocab_size}) into checkpoint {args.out}")
        print(f"next: translator export --checkpoint {args.out} --out model_repository/<name>/1")
    else:
        print(f"wrote Marian (transformers) directory {args.out}")
    return 0


def cmd_bench_engine(args) -> int:
    from bench import engine

    results = engine.run(args.checkpoint, args.model_dir, tokens=args.tokens, repeats=args.repeats, threads=args.threads,
                         out_dir=args.out)
    print(engine.report(results))
    print(f"wrote {args.out}/engine.json and {args.out}/engine.png")
    return 0


def cmd_bench_load(args) -> int:
    from bench import load
    from translator.model_format import resolve_model_dir

    if not args.no_ct2:
        try:
            import ctranslate2  # noqa: F401
        except ImportError:
            print("error: the CTranslate2 yardstick needs the bench extra (pip install -e '.[bench]'); "
                  "or run without it: --no-ct2", file=sys.stderr)
            return 2
    model_dir = resolve_model_dir(args.repository, args.model)
    try:
        results = load.run(args.repository, args.model, model_dir, args.checkpoint, args.workdir,
                           clients=tuple(args.clients), apis=tuple(args.apis), precisions=tuple(args.precisions),
                           seconds=args.seconds, processes=args.processes, workers=args.workers, threads=args.threads,
                           ct2=not args.no_ct2, out_dir=args.out, beam_sizes=tuple(args.beam),
                           variants=tuple(args.variant), rounds=args.rounds)
    except RuntimeError as error:  # a server that did not start (a --variant flag it refused), a point too short
        print(f"error: {error}", file=sys.stderr)
        return 1
    print(load.report(results))
    print(f"wrote {args.out}/load.json and {args.out}/load.png")
    return 0


def cmd_bench_compare(args) -> int:
    from bench import compare

    results = compare.run(args.checkpoint, args.model_dir, args.data, args.workdir, batch_sizes=tuple(args.batch_sizes),
                          tokens=args.tokens, thread_counts=tuple(args.threads), repeats=args.repeats, out_dir=args.out)
    print(compare.report(results))
    print(f"wrote {args.out}/compare.json and {args.out}/compare.png")
    return 0


def cmd_bench_profile(args) -> int:
    from bench import profile
    from bench.common import write_results

    profiles = [profile.profile_steps(args.model_dir, precision, batch, args.tokens, args.threads)
                for precision in args.precisions for batch in args.batch_sizes]
    print(profile.report(profiles))
    print(f"wrote {write_results('profile', {'model_dir': str(args.model_dir), 'profiles': profiles}, args.out)}")
    return 0


def cmd_bench_vocab(args) -> int:
    from bench import profile, vocab
    from bench.common import write_results
    from service.runtime import Runtime

    data_dirs = [args.data, *args.extra_data]
    missing = [d / name for d in data_dirs for name in ("train.tsv", "test.tsv") if not (d / name).exists()]
    if missing:
        print(f"error: {missing[0]} is missing: prepare the corpus first (translator data freedict|gettext)", file=sys.stderr)
        return 2
    runtime_steps = {}
    for precision in args.precisions:
        runtime = Runtime(args.model_dir, precision=precision, threads=1)
        for batch in args.batch_sizes:
            runtime_steps[(precision, batch)] = profile.timed_steps(runtime, batch)[0]
    d_model, vocab_size = runtime.meta.model["d_model"], runtime.vocab_size
    results = vocab.run(data_dirs, args.sizes, runtime_steps, d_model=d_model, shipped_vocab=vocab_size,
                        sentences=args.sentences)
    print(vocab.report(results))
    print(f"wrote {write_results('vocab', results, args.out)}")
    return 0


def cmd_bench_soak(args) -> int:
    from bench import soak
    from bench.common import write_results

    report = soak.soak(serve_command_for(args, max_queue_size=args.max_queue_size), args.minutes, clients=args.clients)
    print(soak.format_report(report))
    print(f"wrote {write_results('soak', report, args.out)}")
    return 0 if soak.passed(report) else 1


def cmd_bench_batch(args) -> int:
    from bench import batch
    from bench.common import write_results

    results = batch.run(serve_command_for(args), args.lines, tuple(args.concurrency))
    print(batch.report(results))
    print(f"wrote {write_results('batch', results, args.out)}")
    return 0


def cmd_bench_tree(args) -> int:
    from bench import batch
    from bench.common import write_results

    if args.files > args.lines:
        print(f"error: --files {args.files} is more than --lines {args.lines}: every file needs a line",
              file=sys.stderr)
        return 2
    results = batch.run_as_tree(serve_command_for(args), args.lines, args.files, tuple(args.files_at_once),
                                args.concurrency, args.rounds)
    print(batch.report_tree(results))
    print(f"wrote {write_results('tree', results, args.out)}")
    return 0


def cmd_bench_text(args) -> int:
    from bench import text
    from bench.common import write_results
    from service.model import Model

    short, long = args.lengths
    if short >= long:  # both are at least 1 (argparse)
        print(f"error: --lengths {short} {long}: give a short and a longer length", file=sys.stderr)
        return 2
    results = text.run(Model(args.model_dir), (short, long), args.repeats)
    print(text.report(results))
    print(f"wrote {write_results('text', results, args.out)}")
    return 0


HELD_OUT_MESSAGES = DEFAULT_DATA / "software" / "test.unmasked.tsv"


def cmd_bench_placeholders(args) -> int:
    from bench import placeholders
    from bench.common import write_results
    from service.translator import Translator

    source = _messages_source(args)
    if source == placeholders.CATALOGS:
        print(f"note: {HELD_OUT_MESSAGES} is missing (translator data gettext writes it); using the catalogs installed "
              "here, which may overlap the model's training packages")
    pairs = placeholders.messages(source, args.messages)
    if not pairs:
        print(f"error: no messages with placeholders in {source}", file=sys.stderr)
        return 1
    results = placeholders.run(Translator(args.model_dir, precision=args.precision), pairs, source)
    print(placeholders.report(results))
    print(f"wrote {write_results('placeholders', results, args.out)}")
    return 0


def cmd_bench_inputs(args) -> int:
    from bench import inputs, placeholders
    from bench.common import write_results
    from service.translator import Translator

    if _splits_missing([args.split]):
        return 1
    source = _messages_source(args)
    messages = placeholders.pairs_of(source) if source.exists() else []
    if not messages:
        print(f"note: no software messages in {source}; measuring the split's sentences only")
    chosen = inputs.cases(placeholders.pairs_of(args.split), messages, args.sentences)
    results = inputs.run(Translator(args.model_dir, precision=args.precision), chosen)
    results |= {"split": str(args.split), "messages": str(source)}
    print(inputs.report(results))
    print(f"wrote {write_results('inputs', results, args.out)}")
    return 0


def cmd_bench_segments(args) -> int:
    from bench import placeholders, segments
    from bench.common import write_results
    from service.translator import Translator

    if _splits_missing(args.splits):
        return 1
    splits = {}
    for path in args.splits:
        try:
            splits[str(path)] = placeholders.pairs_of(path)[:args.pairs]
        except (TypeError, ValueError) as error:  # a line without its three columns; not UTF-8
            print(f"error: {path} is not a TSV split (English, German and kind, tab-separated, per line): {error}",
                  file=sys.stderr)
            return 1
        if not splits[str(path)]:
            print(f"error: {path} holds no pairs", file=sys.stderr)
            return 1
    results = segments.run(Translator(args.model_dir, precision=args.precision), splits, args.lengths)
    print(segments.report(results))
    print(f"wrote {write_results('segments', results, args.out)}")
    return 0


def cmd_bench_tags(args) -> int:
    from bench import tags
    from bench.common import write_results
    from service.translator import Translator

    if _splits_missing([args.split]):
        return 1
    translator = Translator(args.model_dir, precision=args.precision)
    if not translator.runtime.has_alignments:
        print(f"error: {args.model_dir} was exported without alignments, so its tags stay placeholder tokens: "
              "re-export it (translator export) to compare", file=sys.stderr)
        return 1
    pairs = tags.sentences(args.split, args.sentences, args.seed)
    if not pairs:
        print(f"error: no sentences of 4-20 words in {args.split}", file=sys.stderr)
        return 1
    words = None
    if args.dictionary.exists():
        words = tags.dictionary(args.dictionary)
    else:
        print(f"note: {args.dictionary} is missing, so placement is not measured (translator data freedict writes it)")
    results = tags.run(translator, pairs, args.split, words, args.seed)
    print(tags.report(results))
    print(f"wrote {write_results('tags', results, args.out)}")
    return 0


def _held_out_arguments(parser) -> None:
    """The model and the held-out split of a benchmark that translates in-process."""
    add_model_dir(parser)
    parser.add_argument("--precision", choices=("fp32", "int8"), default="fp32", help="(default: fp32)")
    parser.add_argument("--split", type=Path, default=DEFAULT_DATA / "test.tsv",
                        help=f"a TSV split, English first (default: {DEFAULT_DATA / 'test.tsv'})")


def _splits_missing(splits: list[Path]) -> bool:
    """Whether a held-out split is missing (said on stderr, with what writes it)."""
    missing = [str(path) for path in splits if not path.exists()]
    if missing:
        print(f"error: no such split: {', '.join(missing)} (`translator data freedict` writes the dictionary's splits, "
              "`translator data gettext` the software messages'; or pass others)", file=sys.stderr)
    return bool(missing)


def _messages_argument(parser) -> None:
    """The software messages of a benchmark (`_messages_source` reads it)."""
    parser.add_argument("--source", type=Path,
                        help=f"software messages: a TSV split (English first) or a directory of .mo catalogs (default: "
                             f"{HELD_OUT_MESSAGES} when it exists, else /usr/share/locale/de/LC_MESSAGES)")


def _messages_source(args) -> Path:
    from bench.placeholders import CATALOGS

    return args.source or (HELD_OUT_MESSAGES if HELD_OUT_MESSAGES.exists() else CATALOGS)


def _served_model_arguments(parser) -> None:
    """The model a benchmark starts `translator serve` with (serve_command_for reads them)."""
    from service.config import DEFAULT_MODEL, DEFAULT_REPOSITORY

    parser.add_argument("--repository", type=Path, default=DEFAULT_REPOSITORY, help="model repository")
    parser.add_argument("--model", default=DEFAULT_MODEL, help=f"model name (default: {DEFAULT_MODEL})")
    parser.add_argument("--precision", choices=("fp32", "int8"), default="fp32", help="(default: fp32)")


def serve_command_for(args, **settings) -> list[str]:
    from bench.load import serve_command

    return serve_command(args.repository, args.model, args.precision, **settings)


def add_model_dir(parser: argparse.ArgumentParser) -> None:
    """A benchmark's --model-dir: an exported model, the default one unless given."""
    from service.config import DEFAULT_REPOSITORY

    parser.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR,
                        help=f"exported model (default: {DEFAULT_MODEL_DIR.relative_to(DEFAULT_REPOSITORY.parent)})")


def _bench_parser(commands) -> None:
    from service.config import BENCH_RESULTS as RESULTS

    bench = commands.add_parser("bench", help="benchmarks (print ratios, write JSON + PNG)").add_subparsers(
        dest="bench", required=True, metavar="BENCHMARK")
    engine = bench.add_parser("engine", help="PyTorch with/without cache vs ONNX Runtime fp32/int8, greedy at fixed length",
                              description="Generated tokens/s at batch 1, 8 and 32 with end-of-sentence suppressed, the "
                                          "ratios between engines, the per-step loop overhead, and ms/token at output "
                                          "lengths 16, 64 and 256.")
    engine.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="PyTorch checkpoint (default: the shipped model)")
    engine.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR, help=f"exported model (default: {DEFAULT_MODEL_DIR})")
    engine.add_argument("--tokens", type=whole_number(1), default=64, help="generated tokens per sequence (default: 64)")
    engine.add_argument("--repeats", type=whole_number(1), default=3, help="timed runs per point; the fastest counts (default: 3)")
    engine.add_argument("--threads", type=whole_number(1), default=2, help="threads for every engine (default: 2)")
    engine.add_argument("--out", type=Path, default=RESULTS, help="where to write engine.json and engine.png")
    engine.set_defaults(func=cmd_bench_engine)

    from service.config import DEFAULT_MODEL, DEFAULT_REPOSITORY

    load = bench.add_parser("load", help="closed-loop gRPC load: our server vs CTranslate2 static batching vs one at a time",
                            description="Starts real servers on loopback one after another: ours (continuous batching) and a "
                                        "CTranslate2 server with static batching on identical weights (bench/ct2_server.py) "
                                        "per precision, and ours serving one sequence at a time. Each point runs --seconds "
                                        "with closed-loop clients in --processes client processes, and prints tokens/s, "
                                        "latency and time-to-first-token percentiles, the server's CPU ms per generated "
                                        "token against the raw engine's (ours and CTranslate2's, 1 thread) at the same mean "
                                        "batch size and length, and our engine worker processes' share of it, the client "
                                        "CPU share, and the ratios to CTranslate2 and to one-at-a-time serving.")
    load.add_argument("--repository", type=Path, default=DEFAULT_REPOSITORY, help="model repository")
    load.add_argument("--model", default=DEFAULT_MODEL, help=f"model name (default: {DEFAULT_MODEL})")
    load.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT,
                      help="the model's PyTorch checkpoint, from which the CTranslate2 models are built (default: shipped)")
    load.add_argument("--workdir", type=Path, default=RESULTS / "compare-models", help="where CTranslate2 models go (reused)")
    load.add_argument("--clients", type=whole_number(1), nargs="+", default=[1, 4, 16, 64, 128],
                      help="concurrency levels (default: 1 4 16 64 128)")
    load.add_argument("--apis", nargs="+", choices=("stream", "unary"), default=["stream", "unary"],
                      help="TranslateStream and/or Translate (default: both)")
    load.add_argument("--precisions", nargs="+", choices=("fp32", "int8"), default=["fp32", "int8"],
                      help="precisions to serve (default: both); one-at-a-time serving uses the first")
    load.add_argument("--seconds", type=positive_number, default=20.0, help="duration of each point (default: 20)")
    load.add_argument("--processes", type=whole_number(1), default=2, help="client processes (default: 2)")
    load.add_argument("--rounds", type=whole_number(1), default=1,
                      help="run every server this many times, in turn, and report each point's median round and "
                           "the median of same-round ratios: the machine's drift between servers cancels (default: 1)")
    load.add_argument("--workers", type=whole_number(0), default=0, help="our engine workers (default 0: the server's default)")
    load.add_argument("--threads", type=whole_number(0), default=0, help="our ORT threads per worker (default 0: the server's default)")
    load.add_argument("--no-ct2", action="store_true", help="skip the CTranslate2 yardstick")
    load.add_argument("--variant", action="append", default=[], metavar="FLAGS",
                      help="also run our server with these extra `translator serve` flags, side by side (A/B), e.g. "
                           "--variant='--stream-interval-ms 0'; repeatable")
    load.add_argument("--beam", type=whole_number(1), nargs="*", default=[], metavar="K",
                      help="also load our server with requests asking for beam search with K beams (e.g. --beam 4)")
    load.add_argument("--out", type=Path, default=RESULTS, help="where to write load.json and load.png")
    load.set_defaults(func=cmd_bench_load)

    soak = bench.add_parser("soak", help="mixed traffic for a while, then SIGTERM under load: statuses, memory, drain",
                            description="Starts `translator serve` and runs unary, streaming and batch calls, "
                                        "cancellations, deadlines and bad input from --clients concurrent clients for "
                                        "--minutes; then checks that no call ended with a status its kind does not "
                                        "allow, prints the resident-memory slope after warm-up, checks that queue, "
                                        "active sequences and KV-cache bytes return to 0, and sends SIGTERM while "
                                        "calls are in flight: accepted calls must finish and the server exit 0. "
                                        "Exit code 1 when any check fails.")
    soak.add_argument("--minutes", type=positive_number, default=10.0, help="duration of the mixed traffic (default: 10)")
    soak.add_argument("--clients", type=whole_number(1), default=16, help="concurrent clients (default: 16)")
    _served_model_arguments(soak)
    soak.add_argument("--max-queue-size", type=whole_number(1), default=1024, help="the server's queue bound (default: 1024)")
    soak.add_argument("--out", type=Path, default=RESULTS, help="where to write soak.json")
    soak.set_defaults(func=cmd_bench_soak)

    jobs = bench.add_parser("batch", help="a batch job's throughput at several concurrency settings",
                            description="Starts `translator serve`, writes --lines distinct input lines and runs "
                                        "the same job (service.batch, JSONL output) at each --concurrency, printing "
                                        "lines/s, output tokens/s and the ratio to the first setting.")
    jobs.add_argument("--lines", type=whole_number(1), default=20_000, help="input lines (default: 20000)")
    jobs.add_argument("--concurrency", type=whole_number(1), nargs="+", default=[1, 16, 64, 128, 256],
                      help="settings to measure, in order (default: 1 16 64 128 256)")
    _served_model_arguments(jobs)
    jobs.add_argument("--out", type=Path, default=RESULTS, help="where to write batch.json")
    jobs.set_defaults(func=cmd_bench_batch)

    tree = bench.add_parser("tree", help="a directory of small files against the same lines as one file",
                            description="Starts `translator serve`, writes --lines distinct lines as one file and as "
                                        "--files files, and runs the one-file job and the directory's job at each "
                                        "--files-at-once, alternated --rounds times: seconds of each and the ratio "
                                        "of its mean time to one file's.")
    tree.add_argument("--lines", type=whole_number(1), default=3600, help="input lines (default: 3600)")
    tree.add_argument("--files", type=whole_number(1), default=1200, help="files the lines are split into "
                                                                          "(default: 1200: 3 lines each)")
    tree.add_argument("--files-at-once", type=whole_number(1), nargs="+", default=[1, 8, 32],
                      help="settings to measure, in order (default: 1 8 32)")
    tree.add_argument("--concurrency", type=whole_number(1), default=64,
                      help="items in flight, the files' together (default: 64)")
    tree.add_argument("--rounds", type=whole_number(1), default=2, help="times each job runs (default: 2)")
    _served_model_arguments(tree)
    tree.add_argument("--out", type=Path, default=RESULTS, help="where to write tree.json")
    tree.set_defaults(func=cmd_bench_tree)

    kept = bench.add_parser("placeholders", help="placeholders, tags and URLs on real software messages",
                            description="Translates English software messages with placeholders (the held-out "
                                        "software test split, else the German catalogs installed here) in-process "
                                        "through the server's text pipeline, and prints how many keep every "
                                        "protected item exactly, how many the model carried without repair, how "
                                        "many keep their tags nested as in the source, how many lost their words "
                                        "(translated into nothing but their protected items), chrF against the "
                                        "messages' own German translations, and how many come back as alone where "
                                        "they are the lines of texts of five.")
    add_model_dir(kept)
    kept.add_argument("--precision", choices=("fp32", "int8"), default="fp32", help="(default: fp32)")
    _messages_argument(kept)
    kept.add_argument("--messages", type=whole_number(1), default=500, help="messages to sample (default: 500)")
    kept.add_argument("--out", type=Path, default=RESULTS, help="where to write placeholders.json")
    kept.set_defaults(func=cmd_bench_placeholders)

    written = bench.add_parser("inputs", help="escaped text, numbers, marks between clauses, quotations and capitals: text "
                                              "written otherwise than the model's training text",
                               description="Translates held-out sentences and software messages in-process through "
                                           "the server's text pipeline, written otherwise than the model's training "
                                           "text: escaped as a web page does (& < > \" ' as character references, "
                                           "translated as HTML: the share whose unescaped translation equals the "
                                           "plain sentence's, and chrF of both), with numbers (the share whose "
                                           "translation has the source's numbers, the same for the references, "
                                           "chrF), with ; — | between clauses (chrF), with quotations (the share whose "
                                           "translation has as many, chrF), and in capitals (chrF "
                                           "against the references in capitals, "
                                           "beside the sentences as written, translated and capitalized).")
    _held_out_arguments(written)
    _messages_argument(written)
    written.add_argument("--sentences", type=whole_number(1), default=1000,
                         help="sentences per measurement, at most (default: 1000)")
    written.add_argument("--out", type=Path, default=RESULTS, help="where to write inputs.json")
    written.set_defaults(func=cmd_bench_inputs)

    inline = bench.add_parser("tags", help="inline markup on held-out sentences: tags taken out against tags as tokens",
                              description="Wraps 1-3 consecutive random words of held-out sentences in one inline "
                                          "element (<b>, <i>, <em>, <a href>, <span class>) and translates them "
                                          "in-process through the server's text pipeline twice: with the tags taken "
                                          "out and put back by alignment (the service's way) and with the tags as "
                                          "placeholder tokens. Prints, for each, chrF of the words (tags removed) "
                                          "against the references, the share whose words equal the untagged "
                                          "sentence's translation, the share that keeps every tag nested as in the "
                                          "source, the share with an element around no words, and, with <b> around "
                                          "one word whose dictionary translation is one word of the untagged "
                                          "translation, the share whose <b> wraps exactly that word.")
    _held_out_arguments(inline)
    inline.add_argument("--dictionary", type=Path, default=DEFAULT_DATA / "train.tsv",
                        help="a TSV split whose one-word entries judge placement (default: "
                             f"{DEFAULT_DATA / 'train.tsv'})")
    inline.add_argument("--sentences", type=whole_number(1), default=1000, help="sentences to sample (default: 1000)")
    inline.add_argument("--seed", type=whole_number(0), default=0, help="which words get the element (default: 0)")
    inline.add_argument("--out", type=Path, default=RESULTS, help="where to write tags.json")
    inline.set_defaults(func=cmd_bench_tags)

    cut = bench.add_parser("segments", help="chrF and BLEU of held-out splits with long sentences cut into pieces of N "
                                            "tokens: the segment length to write into a checkpoint's serving.json",
                           description="Translates each split in-process through the server's text pipeline with the "
                                       "model's whole source limit, then with sentences cut between words into "
                                       "pieces of at most N source tokens for each N of --lengths (only texts N "
                                       "segments otherwise are translated again), and prints chrF and BLEU of all "
                                       "pairs and of those the shortest N cuts, how many texts each N cuts and how "
                                       "many translations changed. Choose "
                                       "N on validation splits, confirm it on test splits, and write it into the "
                                       "checkpoint's serving.json as {\"segment_tokens\": N}; the export copies it "
                                       "into config.json.")
    add_model_dir(cut)
    cut.add_argument("--precision", choices=("fp32", "int8"), default="fp32", help="(default: fp32)")
    cut.add_argument("--splits", type=Path, nargs="+",
                     default=[DEFAULT_DATA / "valid.tsv", DEFAULT_DATA / "software" / "valid.unmasked.tsv"],
                     help="TSV splits, English first, or directories of .mo catalogs (default: the dictionary's "
                          "and the software messages' validation splits)")
    cut.add_argument("--lengths", type=whole_number(1), nargs="+", default=[16, 24, 32, 48, 64],
                     help="segment lengths in source tokens to try beside the model's whole limit (default: 16 24 32 "
                          "48 64)")
    cut.add_argument("--pairs", type=whole_number(1), default=None, help="the first N pairs of each split (default: all)")
    cut.add_argument("--out", type=Path, default=RESULTS, help="where to write segments.json")
    cut.set_defaults(func=cmd_bench_segments)

    hostile = bench.add_parser("text", help="the text pipeline's cost on hostile texts, short against long",
                               description="Segments and tokenizes texts made of one unit repeated (a word with no "
                                           "space, unclosed comments, quotes after every \"!\", thousands of block "
                                           "tags, ...) as the server does before decoding, at two lengths, and prints "
                                           "the time at each and its growth: about the lengths' ratio where the work "
                                           "is linear, its square where it is quadratic. Ordinary prose is the "
                                           "yardstick. Needs only the model's tokenizer.")
    add_model_dir(hostile)
    hostile.add_argument("--lengths", nargs=2, type=whole_number(1), default=[4000, 32000], metavar=("SHORT", "LONG"),
                         help="characters per text (default: 4000 32000, the server's --max-text-chars)")
    hostile.add_argument("--repeats", type=whole_number(1), default=3, help="timed runs per point; the best counts (default: 3)")
    hostile.add_argument("--out", type=Path, default=RESULTS, help="where to write text.json")
    hostile.set_defaults(func=cmd_bench_text)

    profiled = bench.add_parser("profile", help="where a decoder step's time goes: ORT's profiler, by op type",
                                description="Decodes greedily (forced to --tokens tokens) with ONNX Runtime's profiler on "
                                            "the decoder and prints, per decoder step, the kernel time of each op type, "
                                            "the whole run() call and the time spent outside ONNX Runtime (the loop).")
    add_model_dir(profiled)
    profiled.add_argument("--precisions", nargs="+", choices=("fp32", "int8"), default=["fp32", "int8"],
                          help="graphs to profile (default: fp32 int8)")
    profiled.add_argument("--batch-sizes", nargs="+", type=whole_number(1), default=[1, 32], help="(default: 1 32)")
    profiled.add_argument("--tokens", type=whole_number(1), default=64, help="decoder steps per run (default: 64)")
    profiled.add_argument("--threads", type=whole_number(1), default=1, help="ONNX Runtime intra-op threads (default: 1)")
    profiled.add_argument("--out", type=Path, default=RESULTS, help="where to write profile.json")
    profiled.set_defaults(func=cmd_bench_profile)

    vocab = bench.add_parser("vocab", help="pieces per sentence and decoder cost of SentencePiece vocabulary sizes",
                             description="Trains a joint unigram SentencePiece model per --sizes on a sample of the train "
                                         "splits and prints, per size, pieces per test sentence of each corpus, the output "
                                         "projection's ms per step (fp32/int8, 1 thread) and the decoder work per sentence "
                                         "(target pieces x step time, the shipped model's measured step with its projection "
                                         "swapped) relative to the first size.")
    vocab.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"corpus with train/test splits (default: {DEFAULT_DATA})")
    vocab.add_argument("--extra-data", type=Path, action="append", default=[], metavar="DIR",
                       help="another corpus (repeatable), e.g. data/software")
    vocab.add_argument("--sizes", nargs="+", type=whole_number(1), default=[8000, 16000, 32000], help="(default: 8000 16000 32000)")
    vocab.add_argument("--sentences", type=whole_number(1), default=400_000, help="train pairs sampled, spread over the corpora (default: 400000)")
    vocab.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR, help="exported model whose step is measured")
    vocab.add_argument("--precisions", nargs="+", choices=("fp32", "int8"), default=["fp32", "int8"],
                       help="precisions of the output projection to time (default: fp32 int8)")
    vocab.add_argument("--batch-sizes", nargs="+", type=whole_number(1), default=[1, 32], help="(default: 1 32)")
    vocab.add_argument("--out", type=Path, default=RESULTS, help="where to write vocab.json")
    vocab.set_defaults(func=cmd_bench_vocab)

    compare = bench.add_parser("compare", help="identical weights in our runtime, CTranslate2 and Transformers",
                               description="Needs the `bench` extra (ctranslate2, transformers). Builds an OPUS-MT base "
                                           "sized Marian model with random weights and uses the shipped model, exports "
                                           "both (fp32 + int8), builds CTranslate2 models from the same weights, checks "
                                           "greedy agreement with CTranslate2, then times greedy decoding forced to "
                                           "--tokens tokens at each batch size, every engine at its best thread count, "
                                           "and prints our best against CTranslate2's best per precision and overall. "
                                           "Writes compare.json and compare.png (tokens/s against batch size).")
    compare.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT, help="the small model (default: shipped)")
    compare.add_argument("--model-dir", type=Path, default=DEFAULT_MODEL_DIR,
                         help="the small model's export with int8 (reused when current; else exported into --workdir)")
    compare.add_argument("--data", type=Path, default=DEFAULT_DATA, help=f"valid split for the export's parity check (default: {DEFAULT_DATA})")
    compare.add_argument("--workdir", type=Path, default=RESULTS / "compare-models", help="where the built models go (reused)")
    compare.add_argument("--tokens", type=whole_number(1), default=64, help="tokens generated per sentence (default: 64)")
    compare.add_argument("--batch-sizes", nargs="+", type=whole_number(1), default=[1, 2, 4, 8, 16, 32, 64],
                         help="(default: 1 2 4 8 16 32 64)")
    compare.add_argument("--threads", nargs="+", type=whole_number(1), default=[1, 2],
                         help="intra-op thread counts every engine tries at each batch size; the fastest counts (default: 1 2)")
    compare.add_argument("--repeats", type=whole_number(1), default=3, help="timed rounds after a warm-up round, engines interleaved; each keeps its fastest (default: 3)")
    compare.add_argument("--out", type=Path, default=RESULTS, help="where to write compare.json and compare.png")
    compare.set_defaults(func=cmd_bench_compare)


def _serve_parser(commands) -> None:
    from service.config import ServerConfig

    env = ServerConfig.env_default
    serve = commands.add_parser("serve", help="serve exported models over gRPC",
                                description="Load model_repository/<name>/<version> (latest passed version unless "
                                            "name/version is given), warm up, then serve gRPC with health, "
                                            "reflection and Prometheus metrics. Every flag defaults to its "
                                            "TRANSLATOR_* environment variable. SIGTERM drains gracefully.")
    serve.add_argument("--host", default=env("host"), help="listen address (TRANSLATOR_HOST; default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=env("port"), help="gRPC port (TRANSLATOR_PORT; default 50051; 0 = any free port)")
    serve.add_argument("--repository", type=Path, default=env("repository"), help="model repository (TRANSLATOR_MODEL_REPOSITORY)")
    serve.add_argument("--model", action="append", default=None, help="model to load, name or name/version; repeat for "
                       "several, the first is the default (TRANSLATOR_MODELS, comma-separated; default en-de)")
    serve.add_argument("--device", choices=("cpu", "cuda"), default=env("device"), help="where the engines run: cpu, or cuda with onnxruntime-gpu (TRANSLATOR_DEVICE; default cpu)")
    serve.add_argument("--precision", choices=("fp32", "int8", "fp16"), default=env("precision"), help="graphs to serve: fp32, int8 (CPU) or fp16 (CUDA); the model directory must hold them "
                            "(TRANSLATOR_PRECISION; default fp32)")
    serve.add_argument("--workers", type=int, default=env("workers"),
                       help="engine workers per model, each with its own ONNX Runtime sessions and KV cache "
                            "(TRANSLATOR_WORKERS; default 0 = one per core on CPU, one on CUDA)")
    serve.add_argument("--threads", type=int, default=env("threads"),
                       help="ONNX Runtime threads per worker (TRANSLATOR_THREADS; default 0 = cores / workers)")
    serve.add_argument("--worker-processes", action=argparse.BooleanOptionalAction, default=env("worker_processes"),
                       help="run each engine worker in a process of its own (with its own GIL) instead of a thread of "
                            "the server (TRANSLATOR_WORKER_PROCESSES=1|0; default: processes on CPU, a thread on CUDA)")
    serve.add_argument("--max-num-seqs", type=int, default=env("max_num_seqs"), help="sequences per decoder step of each worker (TRANSLATOR_MAX_NUM_SEQS; default 64)")
    serve.add_argument("--max-beam-size", type=int, default=env("max_beam_size"),
                       help="largest beam_size a request may ask for, capped at --max-num-seqs (each beam is one "
                            "decoder row) (TRANSLATOR_MAX_BEAM_SIZE; default 8)")
    serve.add_argument("--alignment-layer", type=int, default=env("alignment_layer"),
                       help="decoder layer whose cross-attention (heads averaged) return_alignments reports and inline "
                            "elements' tags are placed by; negative counts from the last (TRANSLATOR_ALIGNMENT_LAYER; "
                            "default -1)")
    serve.add_argument("--max-num-batched-tokens", type=int, default=env("max_num_batched_tokens"),
                       help="decoder positions + new source tokens per step (TRANSLATOR_MAX_NUM_BATCHED_TOKENS; default 4096)")
    serve.add_argument("--max-queue-size", type=int, default=env("max_queue_size"), help="waiting sequences before RESOURCE_EXHAUSTED (TRANSLATOR_MAX_QUEUE_SIZE; default 1024)")
    serve.add_argument("--join-interval-steps", type=int, default=env("join_interval_steps"),
                       help="while sequences are decoding, waiting requests join at every n-th decoder step, so that "
                            "more of them share an encoder run; an idle worker takes them at once "
                            "(TRANSLATOR_JOIN_INTERVAL_STEPS; default 1: at every step)")
    serve.add_argument("--placeholder-retry-beams", type=int, default=env("placeholder_retry_beams"),
                       help="a sentence decoded greedily whose translation lost a placeholder token (%%s, {name}, a "
                            "tag), a code it reads (XMPP, FAT32, A4, .sh) or a number (in digits, or in words: ten), "
                            "or says one more often than its source, that says a run of words or a full stop twice in "
                            "a row where its source does not, that ends otherwise than its source where that ends "
                            "in ?, !, :, ... or a full stop after a word of 4 letters or more, or says a bracket more "
                            "or less often than its "
                            "source, that left a word of its source out (--uncovered-attention), or that came back "
                            "short (fewer tokens than half its source's, of 4 or more), is decoded again with this "
                            "many beams before it is answered, where the text pipeline would put the placeholder back "
                            "at the sentence's end; the beams' translation is answered where it mends what the greedy "
                            "one lost or doubled, the words it left out, its repeat, its marks or its shortness, else "
                            "the greedy one; not a streamed sentence, whose tokens went out, nor one whose deadline "
                            "leaves less than twice the time its greedy decoding took, nor where more beams than "
                            "--max-num-seqs would not fit (TRANSLATOR_PLACEHOLDER_RETRY_BEAMS; default 4; 0: never)")
    serve.add_argument("--uncovered-attention", type=float, default=env("uncovered_attention"),
                       help="a word of a sentence's source (of 3 letters or more, no article, preposition or "
                            "auxiliary, in a source of 4 words or more) that its greedy translation's attention gave "
                            "less than this, summed over the translation's tokens, was left out: the sentence is "
                            "decoded again with --placeholder-retry-beams beams, whose translation leaving out fewer "
                            "words is answered; higher mends more sentences at more decoding time (batch jobs of "
                            "held-out text took 1.1-1.2x the time of 0 at 0.5, 1.35-1.5x at 0.7 for about 1.5x the "
                            "gain in chrF) (TRANSLATOR_UNCOVERED_ATTENTION; default 0.5; 0: never)")
    serve.add_argument("--max-texts-per-request", type=int, default=env("max_texts_per_request"), help="texts per Translate or TranslateStream call; more are refused with INVALID_ARGUMENT "
                            "(TRANSLATOR_MAX_TEXTS_PER_REQUEST; default 64)")
    serve.add_argument("--max-text-chars", type=int, default=env("max_text_chars"),
                       help="characters per text; longer texts are refused before tokenizing (TRANSLATOR_MAX_TEXT_CHARS; default 32768)")
    serve.add_argument("--batch-inflight", type=int, default=env("batch_inflight"), help="items of one TranslateBatch stream read but whose result is not yet sent; the server stops reading beyond it (TRANSLATOR_BATCH_INFLIGHT; default 64)")
    serve.add_argument("--stream-interval-ms", type=float, default=env("stream_interval_ms"),
                       help="TranslateStream sends the first piece at once, then gathers pieces for this long per "
                            "message (a finished text goes at once; 0: one message per token) "
                            "(TRANSLATOR_STREAM_INTERVAL_MS; default 50)")
    serve.add_argument("--stream-updates-per-second", type=float, default=env("stream_updates_per_second"),
                       help="intermediate TranslateStream messages all streaming texts together send per second at "
                            "most: with more texts open, each one's interval grows beyond --stream-interval-ms (up to "
                            "1 s), so that under load the cores decode instead of sending updates; first pieces and "
                            "ends are never held (TRANSLATOR_STREAM_UPDATES_PER_SECOND; default 250; 0: no bound)")
    serve.add_argument("--grace-seconds", type=float, default=env("grace_seconds"), help="SIGTERM grace period (TRANSLATOR_GRACE_SECONDS; default 20)")
    serve.add_argument("--metrics-host", default=env("metrics_host"), help="metrics listen address (TRANSLATOR_METRICS_HOST)")
    serve.add_argument("--max-message-bytes", type=int, default=env("max_message_bytes"),
                       help="largest request message (TRANSLATOR_MAX_MESSAGE_BYTES; default 4194304)")
    serve.add_argument("--max-concurrent-streams", type=int, default=env("max_concurrent_streams"),
                       help="concurrent calls per client connection (TRANSLATOR_MAX_CONCURRENT_STREAMS; default 256)")
    serve.add_argument("--tls-cert", type=Path, default=env("tls_cert"),
                       help="PEM certificate chain; with --tls-key, serve TLS (TRANSLATOR_TLS_CERT)")
    serve.add_argument("--tls-key", type=Path, default=env("tls_key"), help="PEM private key (TRANSLATOR_TLS_KEY)")
    serve.add_argument("--tls-client-ca", type=Path, default=env("tls_client_ca"),
                       help="PEM CA; clients must present a certificate it signed: mutual TLS (TRANSLATOR_TLS_CLIENT_CA)")
    serve.add_argument("--auth-token-file", type=Path, default=env("auth_token_file"),
                       help="bearer tokens accepted by translator.v1 calls, one per line (TRANSLATOR_AUTH_TOKEN_FILE; "
                            "TRANSLATOR_AUTH_TOKEN adds one); health and reflection stay open")
    serve.add_argument("--metrics-port", type=int, default=env("metrics_port"), help="Prometheus port (TRANSLATOR_METRICS_PORT; default 9464; -1 = off)")
    serve.set_defaults(func=cmd_serve, model_default=env("models"))


def _parity_arguments(parser) -> None:
    parser.add_argument("--batches", type=whole_number(1), default=32, help="validation batches for tensor parity (default: 32)")
    parser.add_argument("--sentences", type=whole_number(1), default=500, help="validation sentences for sequence parity (default: 500)")
    parser.add_argument("--threads", type=whole_number(0), default=0,
                        help="PyTorch threads (default 0: one per core); 1 where other work keeps a core busy: the "
                             "check's many small operations then wait on each other's threads (the shipped model's "
                             "export took 197.6 s on 2 cores beside a busy one with two threads, 30.2 s with one)")


def use_torch_threads(threads: int) -> None:
    """torch.set_num_threads(threads), unless 0 (torch's own default)."""
    if threads:
        import torch

        torch.set_num_threads(threads)


def main(argv: list[str] | None = None) -> int:
    try:
        parser = build_parser()
    except ValueError as error:  # a TRANSLATOR_* variable that a flag's default cannot take: say which
        print(f"error: {error}", file=sys.stderr)
        return 2
    args, unparsed = parser.parse_known_args(argv)
    if unparsed and hasattr(args, "more_paths") and not any(word.startswith("-") for word in unparsed):
        args.more_paths = [Path(word) for word in unparsed]  # `batch in.po --format po out.po`: argparse fills
        # positionals from their first run only, and leaves out.po unparsed
    elif unparsed:
        parser.error(f"unrecognized arguments: {' '.join(unparsed)}")
    if args.command == "serve" and args.model is None:
        args.model = list(args.model_default)
    try:
        return args.func(args)
    except KeyboardInterrupt:  # Ctrl-C: a message, not a traceback
        print(f"interrupted: {BATCH_RESUMES}" if args.command == "batch" else "interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `translator translate | head`: stop quietly, as a tool killed by SIGPIPE does
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # Python's flush at exit would raise again
        return 128 + 13
    except FileNotFoundError as error:  # a path given that is not what the command needs: the message says which
        print(f"error: {error}", file=sys.stderr)
        return 1
    except DeviceUnavailable as error:  # --device cuda where onnxruntime-gpu or its CUDA libraries are missing
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
