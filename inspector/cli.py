"""The `spvinspect` command: dispatches to subcommands, or opens a module."""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS = {"dis": "spirv", "explain": "spirv", "as": "assemble", "cfg": "cfg", "lima": "lima", "diff": "diff", "run": "run"}
"""Subcommand → its module in `inspector.commands`, which has a `register(subparsers)`."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with `command`'s module registered, or every module.

    Registering one module imports only what that command needs, which keeps a
    command's start-up short; help and usage errors get the full parser."""
    parser = argparse.ArgumentParser(
        prog="spvinspect",
        description="Inspect and edit SPIR-V modules and Lima fragment shaders.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    modules = [COMMANDS[command]] if command in COMMANDS else dict.fromkeys(COMMANDS.values())
    for name in modules:
        importlib.import_module(f"spvinspect.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the process exit code."""
    args_list = sys.argv[1:] if argv is None else argv
    try:
        if not args_list or args_list[0] not in COMMANDS and args_list[0] not in ("-h", "--help"):
            from spvinspect.launch import main as launch

            return launch(args_list)
        args = build_parser(args_list[0]).parse_args(args_list)
        return args.run(args)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
