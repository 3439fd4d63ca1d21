"""How a subcommand declares itself, and the options several commands share, worded once:
one call gives a command its parser, its input file and the function that runs it."""

from __future__ import annotations

import argparse
from collections.abc import Callable

SPIRV_INPUT = "SPIR-V binary, or - for stdin"
"""The help of the input of a command that reads a SPIR-V binary."""
RAW_ID = "raw id numbers instead of friendly names"
"""The help of `--raw-id` where it names the app's or the diff's ids."""


def add_command(subparsers, name: str, run: Callable[[argparse.Namespace], int], file: str | None,
                **texts: str) -> argparse.ArgumentParser:
    """The parser of the subcommand `name` (`texts`: its `help` and `description`), with the
    positional input `file` described by `file` (none when None) and `run` to run it."""
    parser = subparsers.add_parser(name, **texts)
    if file is not None:
        parser.add_argument("file", help=file)
    parser.set_defaults(run=run)
    return parser


def add_output(parser: argparse.ArgumentParser) -> None:
    """`-o FILE`, where a command that prints text can write it instead of to stdout."""
    parser.add_argument("-o", dest="output", default=None, help="output file, or - for stdout (default)")


def add_raw_id(parser: argparse.ArgumentParser) -> None:
    """`--raw-id`: ids as numbers, not friendly names."""
    parser.add_argument("--raw-id", action="store_true", help=RAW_ID)
