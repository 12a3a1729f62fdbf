"""docs/cli.md: every `translator` command and flag, written from the parser itself so it cannot drift from
`--help` (`make docs` rewrites it; a test fails when a flag is missing from it)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "docs" / "cli.md"


def commands(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("translator",)):
    """(command words, its parser, its one-line help) for every command, depth first in the parser's order."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {choice.dest: choice.help for choice in action._choices_actions}
            for name, sub in action.choices.items():
                yield path + (name,), sub, helps.get(name, "")
                yield from commands(sub, path + (name,))


def arguments(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    """The parser's own arguments (not --help, not its subcommands)."""
    return [a for a in parser._actions if not isinstance(a, (argparse._HelpAction, argparse._SubParsersAction))]


def _default(action: argparse.Action) -> str:
    # `is` for None and False: 0 == False, and a default of 0 (e.g. --workers: one per core) must still show.
    if action.default is None or action.default is False or action.default in (argparse.SUPPRESS, "", []):
        return ""
    value = " ".join(map(str, action.default)) if isinstance(action.default, (list, tuple)) else str(action.default)
    return f"`{value}`"


def _cell(text: str) -> str:
    return " ".join((text or "").split()).replace("|", "\\|")


def markdown(parser: argparse.ArgumentParser) -> str:
    lines = ["# `translator` command reference", "",
             "Generated from the command-line parser by `make docs` (`python -m service.cli_reference`); "
             "`translator <command> --help` prints the same. Defaults of `translator serve` can also come from the "
             "environment variables its flags name.", ""]
    for words, sub, summary in commands(parser):
        lines += [f"## `{' '.join(words)}`", "", _cell(sub.description or summary), ""]
        own = arguments(sub)
        if not own:
            continue
        lines += ["| argument | default | meaning |", "|---|---|---|"]
        for action in own:
            name = ", ".join(action.option_strings) or action.metavar or action.dest
            choices = f" (one of: {', '.join(map(str, action.choices))})" if action.choices else ""
            meaning = (action.help or "") % dict(vars(action), prog=sub.prog)  # argparse's %-expansion (%%s -> %s)
            lines.append(f"| `{name}` | {_default(action)} | {_cell(meaning)}{choices} |")
        lines.append("")
    # Defaults that are paths name this checkout and this user's home: write them as a reader's would be.
    return "\n".join(lines).replace(f"{ROOT}/", "").replace(str(Path.home()), "~")


def main() -> int:
    from service.cli import build_parser

    REFERENCE.write_text(markdown(build_parser()), encoding="utf-8")
    print(f"wrote {REFERENCE}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
