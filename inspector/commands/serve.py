"""`spvinspect serve [FILE] [--host H] [--port N]`: the inspector as a web page (textual-serve),
so a class can use it in a browser; each browser tab runs its own copy of the app."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from spvinspect.commands.arguments import add_command, add_raw_id
from spvinspect.commands.open import EXAMPLE_MODULE

EXTRA = "pip install 'spvinspect[serve]'"
"""How to get textual-serve, which the command needs and the base install does not bring."""


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "serve", run, None,
        help="serve the inspector as a web page (needs the serve extra)",
        description="Serve the inspector over HTTP with textual-serve: every browser that opens the page "
        "gets its own copy of the app on FILE (the bundled example without one). Listens on "
        "127.0.0.1 unless --host says otherwise; anyone who can reach the address can use the app.",
    )
    parser.add_argument("file", nargs="?", help="SPIR-V module or Lima program (default: the bundled example)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    parser.add_argument("--lima", action="store_true", help="read FILE as a raw little-endian Lima PP stream")
    add_raw_id(parser)


def app_command(args: argparse.Namespace) -> str:
    """The shell command textual-serve starts for each browser: this Python, this package."""
    path = str(Path(args.file).resolve()) if args.file else str(EXAMPLE_MODULE)
    words = [sys.executable, "-m", "spvinspect", path]
    words += ["--lima"] if args.lima else []
    words += ["--raw-id"] if args.raw_id else []
    return shlex.join(words)


def run(args: argparse.Namespace) -> int:
    if args.file and not Path(args.file).is_file():
        print(f"spvinspect serve: error: {args.file}: no such file", file=sys.stderr)
        return 1
    if not 0 < args.port < 65536:
        print(f"spvinspect serve: error: --port {args.port}: not a port (1-65535)", file=sys.stderr)
        return 1
    try:
        from textual_serve.server import Server
    except ImportError:
        print(f"spvinspect serve: error: textual-serve is not installed; {EXTRA}", file=sys.stderr)
        return 1
    title = f"spvinspect · {Path(args.file).name if args.file else 'example.spv'}"
    print(f"spvinspect: serving {title} at http://{args.host}:{args.port}/ (ctrl+c stops)", file=sys.stderr)
    try:
        Server(app_command(args), host=args.host, port=args.port, title=title).serve()
    except OSError as error:
        print(f"spvinspect serve: error: {args.host}:{args.port}: {error.strerror or error}", file=sys.stderr)
        return 1
    return 0
