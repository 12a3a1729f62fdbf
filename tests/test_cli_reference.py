"""Every command and flag is documented: argparse help for each, and docs/cli.md (written by `make docs`) lists
each command's flags under its own heading."""

import re

from service.cli import build_parser
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
