"""The `spvinspect` command: dispatches to subcommands, or opens a module."""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMAND_MODULES = ("spirv", "assemble", "cfg", "lima")
"""Modules of `inspector.commands`, each with a `register(subparsers)` function."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="spvinspect",
        description="Inspect and edit SPIR-V modules and Lima fragment shaders.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMAND_MODULES:
        importlib.import_module(f"inspector.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    args_list = sys.argv[1:] if argv is None else argv
    parser = build_parser()
    known = set(parser._subparsers._group_actions[0].choices)  # noqa: SLF001
    if not args_list or args_list[0] not in known and not args_list[0].startswith("-"):
        from inspector.commands.open import open_module

        return open_module(args_list[0] if args_list else None)
    args = parser.parse_args(args_list)
    try:
        return args.run(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
