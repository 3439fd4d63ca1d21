"""`spvinspect [FILE] [--at OFFSET] [--pane NAME] [--raw-id] [--theme NAME]`.

On a terminal this opens the inspector app; with standard output redirected it prints
the disassembly instead (`inspector.commands.open`), so pipes and scripts keep working.
Anything wrong with the command line or the file is one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import sys

from inspector.commands.open import EXAMPLE_MODULE, print_module

PANE_NAMES = ("header", "list", "diagnostics")
"""Panes `--pane` can focus and zoom (hex, cfg and breakdown come with their panes)."""


def build_parser() -> argparse.ArgumentParser:
    """The options of the app's command line."""
    parser = argparse.ArgumentParser(
        prog="spvinspect",
        description="Open a SPIR-V module in the inspector (the bundled example without FILE). "
        "With standard output redirected, print its disassembly instead. "
        "Subcommands: dis, explain, as, cfg, lima (spvinspect COMMAND -h).",
    )
    parser.add_argument("file", nargs="?", help="SPIR-V binary (default: the bundled example)")
    parser.add_argument("--at", metavar="OFFSET", help="select the word at this byte offset (decimal or 0x hex)")
    parser.add_argument("--pane", metavar="NAME", help=f"focus and zoom a pane: {', '.join(PANE_NAMES)}")
    parser.add_argument("--raw-id", action="store_true", help="raw id numbers instead of friendly names")
    parser.add_argument("--theme", metavar="NAME", help="colour theme (remembered when switched in the app)")
    return parser


def parse_offset(text: str) -> int | None:
    """A byte offset typed as decimal or 0x hex; None when it is neither."""
    try:
        value = int(text, 16) if text.lower().startswith("0x") else int(text, 10)
    except ValueError:
        return None
    return value if value >= 0 else None


def fail(message: str) -> int:
    """Print a one-line error and give the exit code."""
    print(f"spvinspect: error: {message}", file=sys.stderr)
    return 1


def on_terminal() -> bool:
    """True when standard output is a terminal, where the app can run."""
    return sys.stdout.isatty()


def main(argv: list[str]) -> int:
    """Open the app on a terminal, or print the disassembly; the exit code."""
    args = build_parser().parse_args(argv)
    path = args.file or str(EXAMPLE_MODULE)
    if not on_terminal():
        return print_module(path, raw_ids=args.raw_id)
    if path == "-":
        return fail("the app reads keys from the terminal; give a file name, not - (stdin)")
    from inspector.commands.io import read_input
    from inspector.document import looks_like_spirv

    data = read_input(path)
    if data is None:
        return 1
    if not looks_like_spirv(data):
        first = f"0x{int.from_bytes(data[:4], 'little'):08x}" if len(data) >= 4 else f"{len(data)} byte(s) long"
        return fail(f"{path}: not a SPIR-V module (first word {first}, the magic number is 0x07230203)")
    at = None
    if args.at is not None:
        at = parse_offset(args.at)
        if at is None:
            return fail(f"--at {args.at}: not a byte offset (decimal, or hex with 0x)")
        if at >= len(data):
            return fail(f"--at {args.at}: past the end of {path} ({len(data):,} bytes)")
    if args.pane is not None and args.pane not in PANE_NAMES:
        return fail(f"--pane {args.pane}: no such pane; choose one of {', '.join(PANE_NAMES)}")
    from themes import THEMES

    if args.theme is not None and args.theme not in THEMES:
        return fail(f"--theme {args.theme}: no such theme; choose one of {', '.join(THEMES)}")
    return run_app(data, path, at, args.pane, args.raw_id, args.theme)


def run_app(data: bytes, path: str, at: int | None, pane: str | None, raw: bool, theme: str | None) -> int:
    """Open the app over the module; returns when the user quits."""
    from inspector.app import InspectorApp
    from inspector.config import load_config
    from inspector.document import Document

    config = load_config()
    document = Document(data, path)
    word = at // 4 if at is not None else None
    app = InspectorApp(document, at=word, pane=pane, raw=raw, theme=theme or config.theme, notice=config.problem)
    app.run()
    return 0
