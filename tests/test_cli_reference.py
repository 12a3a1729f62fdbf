"""Every command and flag is documented: argparse help for each, and docs/cli.md (written by `make docs`) lists
each command's flags under its own heading."""

import re

import pytest

from service.cli import build_parser, main
from service.cli_reference import REFERENCE, arguments, commands, markdown


def sections(text: str) -> dict[str, str]:
    """docs/cli.md's text under each `## `translator …`` heading."""
    parts = re.split(r"^## `([^`]+)`$", text, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def test_every_argument_of_every_command_has_help():
    undocumented = [(" ".join(words), action.option_strings or action.dest)
                    for words, parser, _ in commands(build_parser()) for action in arguments(parser) if not action.help]
    assert undocumented == []


def test_the_reference_lists_every_command_and_its_flags():
    documented = sections(REFERENCE.read_text(encoding="utf-8"))
    missing = []
    for words, parser, _ in commands(build_parser()):
        section = documented.get(" ".join(words))
        if section is None:
            missing.append(" ".join(words))
            continue
        missing += [f"{' '.join(words)} {flag}" for action in arguments(parser) for flag in action.option_strings
                    if f"`{flag}" not in section and f" {flag}`" not in section]
    assert missing == [], f"docs/cli.md is out of date: run `make docs` ({missing})"


def test_the_reference_shows_defaults_and_choices_without_this_machines_paths():
    text = markdown(build_parser())
    assert "| `--beam` | `1` | beam search with K beams" in text
    assert "(one of: fp32, int8, fp16)" in text
    assert "| `--top-k` | `0` |" in text  # a default of 0 shows too (0 == False)
    assert "%%" not in text  # argparse's escapes expanded as --help shows them
    assert str(REFERENCE.parent.parent) not in text


@pytest.mark.parametrize("argv, message", [
    (["translate", "--beam", "-1", "hi"], "argument --beam: must be at least 1, not -1"),
    (["translate", "--max-output-tokens", str(2**32), "hi"], f"argument --max-output-tokens: must be at most {2**32 - 1}"),
    (["translate", "--seed", str(2**64), "hi"], f"argument --seed: must be at most {2**64 - 1}, not {2**64}"),
    (["translate", "--timeout", "nan", "hi"], "argument --timeout: must be a number above 0, not nan"),
    (["translate", "--top-k", "2.5", "hi"], "argument --top-k: invalid whole_number value: '2.5'"),
    (["batch", "--input", "in.txt", "--output", "out.txt", "--concurrency", "0"],
     "argument --concurrency: must be at least 1, not 0"),
    (["health", "--timeout", "-1"], "argument --timeout: must be a number above 0, not -1"),
    (["bench", "text", "--repeats", "0"], "argument --repeats: must be at least 1, not 0"),
    (["bench", "load", "--seconds", "0"], "argument --seconds: must be a number above 0, not 0"),
    (["train", "--heads", "0"], "argument --heads: must be at least 1, not 0"),
    (["translate", "--token-file", "/no/such/token.txt", "hi"], "argument --token-file: /no/such/token.txt is not a file"),
])
def test_a_value_out_of_range_is_refused_where_it_is_typed(capsys, argv, message):
    """Not passed on to fail later: a negative beam was a protobuf traceback, `bench text --repeats 0` a table of
    inf and nan, `--timeout 0` a DEADLINE_EXCEEDED from the server."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


# Flags whose numbers may be negative or are checked where they are used: the server's settings (ServerConfig names
# what is wrong), the sampling and ranking knobs (DecodingOptions does), layers counted from the end, seeds of training.
UNRANGED = {"--alignment-layer", "--length-penalty", "--temperature", "--top-p", "--dropout", "--steps"}


@pytest.mark.parametrize("argv, message", [
    (["batch", "in.txt"], "error: no OUTPUT given: translator batch INPUT OUTPUT (or --input INPUT --output OUTPUT)"),
    (["batch", "--output", "out.txt"], "error: no INPUT given"),
    (["batch"], "error: no INPUT and no OUTPUT given"),
    (["batch", "a.txt", "b.txt", "c.txt"], "error: c.txt: a path more than one INPUT and one OUTPUT"),
    (["batch", "a.txt", "--quiet", "b.txt", "c.txt"], "error: c.txt: a path more than one INPUT and one OUTPUT"),
    (["batch", "--input", "a.txt", "--output", "b.txt", "c.txt"], "error: c.txt: a path more than one INPUT"),
])
def test_a_batch_job_without_its_two_paths_or_with_more_says_so_before_connecting(capsys, argv, message):
    # No server listens on port 1: the refusal comes before any connection.
    assert main(argv + ["--server", "127.0.0.1:1"]) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_flag_after_a_batch_jobs_paths_is_still_refused(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["batch", "a.txt", "b.txt", "--bogus"])
    assert exited.value.code == 2
    assert "unrecognized arguments: --bogus" in capsys.readouterr().err


def test_every_number_a_command_takes_has_its_range():
    bare = [(" ".join(words), action.option_strings[0]) for words, parser, _ in commands(build_parser())
            if words != ("translator", "serve") for action in arguments(parser)
            if action.type in (int, float) and action.option_strings[0] not in UNRANGED
            and (words, action.option_strings[0]) != (("translator", "train"), "--seed")]
    assert bare == []


def test_an_attention_picture_for_a_missing_directory_is_refused_before_translating(capsys):
    # No server listens on port 1: the refusal comes before any connection.
    assert main(["translate", "--server", "127.0.0.1:1", "--attention", "/no/such/dir/a.png", "hi"]) == 2
    assert "error: --attention /no/such/dir/a.png: the directory /no/such/dir does not exist" in capsys.readouterr().err


def test_a_translation_no_server_answers_says_what_to_do(capsys):
    """As a batch job does: "UNAVAILABLE: ... Connection refused" alone did not say to start one."""
    assert main(["translate", "--server", "127.0.0.1:1", "hi"]) == 1
    assert "(server 127.0.0.1:1): start one with `make serve`, or check --server" in capsys.readouterr().err


@pytest.mark.parametrize("flags, expected", [
    ([], {}),
    (["--top-p", "0.9"], {"sampling_temperature": 1.0, "sampling_topk": 0, "sampling_topp": 0.9}),
    (["--top-k", "5"], {"sampling_temperature": 1.0, "sampling_topk": 5, "sampling_topp": 1.0}),
    (["--temperature", "0.7"], {"sampling_temperature": 0.7, "sampling_topk": 0, "sampling_topp": 1.0}),
])
def test_every_sampling_knob_implies_sampling(flags, expected):
    """A --top-p that greedy decoding silently ignored said nothing; --temperature already implied --sample."""
    from service.cli import decoding_arguments

    options = decoding_arguments(build_parser().parse_args(["translate", *flags, "hi"]))
    assert {name: value for name, value in options.items() if name.startswith("sampling")} == expected


@pytest.mark.parametrize("given, target", [
    ("localhost", "localhost:50051"), ("10.0.0.7", "10.0.0.7:50051"), ("[::1]", "[::1]:50051"),
    ("translator.example.com:443", "translator.example.com:443"), ("dns:///translator:50051", "dns:///translator:50051"),
    ("unix:/run/translator.sock", "unix:/run/translator.sock"),
])
def test_a_server_without_a_port_is_reached_on_the_serving_port(given, target):
    """gRPC's own default is 443, where `--server localhost` found nothing; other gRPC targets pass as given."""
    assert build_parser().parse_args(["health", "--server", given]).server == target


def test_a_url_as_the_server_says_what_to_give(capsys):
    with pytest.raises(SystemExit):
        main(["translate", "--server", "http://127.0.0.1:50051", "hi"])
    assert ("argument --server: http://127.0.0.1:50051 is a URL; give host:port (e.g. 127.0.0.1:50051), with --tls "
            "for TLS") in capsys.readouterr().err


@pytest.mark.parametrize("flags", [["--n-best", "2", "--beam", "2"], ["--scores"]])
def test_streaming_refuses_what_only_a_finished_text_has(capsys, flags):
    """`--stream --n-best 2` printed the best text alone, and `--stream --scores` no score, without a word."""
    assert main(["translate", "--server", "127.0.0.1:1", "--stream", *flags, "hi"]) == 2
    assert "error: --n-best and --scores are printed once a text is finished" in capsys.readouterr().err
