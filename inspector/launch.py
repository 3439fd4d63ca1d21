"""`spvinspect [FILE] [--lima] [--at OFFSET] [--pane NAME] [--raw-id] [--theme NAME] [--tour FILE] [--diff B]`.

On a terminal this opens the inspector app; with standard output redirected it prints
the disassembly instead (`inspector.commands.open`, or `spvinspect lima dis` for a PP
program), so pipes and scripts keep working. An MBS file opens Lima mode whatever its
name; `--lima` reads any other file as a raw little-endian PP instruction stream.
Anything wrong with the command line or the file is one line on stderr and exit 1.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from spvinspect.commands.arguments import add_raw_id
from spvinspect.commands.open import EXAMPLE_MODULE, print_module
from spvinspect.responsive import FRAMES_PER_SECOND
from spvinspect.formats.lima_panes import LIMA_PANES
from spvinspect.formats.panes import pane_names
from spvinspect.formats.spirv_panes import SPIRV_PANES
from spvinspect.codec.plural import counted

PANE_NAMES = pane_names(SPIRV_PANES)
"""Panes `--pane` can focus and zoom."""
LIMA_PANE_NAMES = pane_names(LIMA_PANES)
"""Panes `--pane` can focus and zoom in Lima mode."""


def build_parser() -> argparse.ArgumentParser:
    """The options of the app's command line."""
    parser = argparse.ArgumentParser(
        prog="spvinspect",
        description="Open a SPIR-V module in the inspector (the bundled example without FILE). "
        "An MBS file, or any file with --lima, opens Lima mode (Mali-200/400 PP shaders). "
        "With standard output redirected, print its disassembly instead. "
        "Subcommands: dis, explain, as, cfg, lima (spvinspect COMMAND -h).",
    )
    parser.add_argument("file", nargs="?", help="SPIR-V binary (default: the bundled example)")
    parser.add_argument("--lima", action="store_true", help="read FILE as a raw little-endian Lima PP instruction stream")
    parser.add_argument("--lima-example", action="store_true", help="open the bundled Lima PP example (an MBS with symbol names and a texture) in Lima mode, ready to run: 6 registers, 8 image, F11 steps")
    parser.add_argument("--at", metavar="OFFSET", help="select the word at this byte offset (decimal or 0x hex)")
    parser.add_argument("--pane", metavar="NAME", help=f"focus and zoom a pane: {', '.join(PANE_NAMES)}; in Lima mode {', '.join(LIMA_PANE_NAMES)}")
    add_raw_id(parser)
    parser.add_argument("--theme", metavar="NAME", help="colour theme (remembered when switched in the app)")
    parser.add_argument("--tour", metavar="TOUR", help="a guided tour of the module or Lima program (a TOML file; t steps through it; the bundled examples have their own)")
    parser.add_argument("--diff", metavar="B", help="compare FILE with B side by side (both SPIR-V, or both Lima PP programs)")
    parser.add_argument("--inputs", metavar="FILE", help="inputs JSON for running the SPIR-V entry point (the `spvinspect run --inputs` shape)")
    return parser


def read_inputs(path: str) -> tuple[dict | None, str | None]:
    """The inputs JSON object at `path`, or None and why it cannot be used (one line)."""
    try:
        with open(path, encoding="utf-8") as f:
            inputs = json.load(f)
    except OSError as error:
        return None, f"--inputs {path}: cannot read: {error.strerror or error}"
    except json.JSONDecodeError as error:
        return None, f"--inputs {path}:{error.lineno}:{error.colno}: not JSON: {error.msg}"
    except UnicodeDecodeError:
        return None, f"--inputs {path}: not UTF-8 text"
    if not isinstance(inputs, dict):
        return None, f"--inputs {path}: the inputs must be a JSON object"
    return inputs, None


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
    """True when the app can run: standard output is a terminal, or Textual draws through
    its web driver (`spvinspect serve`), whose output is a pipe to the browser's page."""
    return sys.stdout.isatty() or os.environ.get("TEXTUAL_DRIVER", "").endswith(":WebDriver")


def main(argv: list[str]) -> int:
    """Open the app on a terminal, or print the disassembly; the exit code."""
    os.environ.setdefault("TEXTUAL_FPS", FRAMES_PER_SECOND)  # read when Textual is imported
    args = build_parser().parse_args(argv)
    if args.lima_example:
        if args.file is not None:
            return fail("--lima-example opens the bundled example: give no FILE with it")
        return _lima_example(args)
    path = args.file or str(EXAMPLE_MODULE)
    if not on_terminal():
        if args.diff is not None:
            from spvinspect.commands.diff import run_diff

            return run_diff(argparse.Namespace(file_a=path, file_b=args.diff, raw_id=args.raw_id, context=3,
                                               lima=args.lima, no_summary=False))
        if args.lima or _file_is_mbs(path):
            return print_lima(path)
        return print_module(path, raw_ids=args.raw_id)
    if path == "-":
        return fail("the app reads keys from the terminal; give a file name, not - (stdin)")
    from spvinspect.commands.io import read_input
    from spvinspect.document import looks_like_spirv

    data = read_input(path)
    if data is None:
        return 1
    lima_mode = args.lima or (not looks_like_spirv(data) and _is_mbs(data))
    if not lima_mode and not looks_like_spirv(data):
        if len(data) >= 4:
            found = f"first word 0x{int.from_bytes(data[:4], 'little'):08x}, the magic number is 0x07230203"
        else:
            found = f"{counted(len(data), 'byte')} long, shorter than the magic number"
        return fail(f"{path}: not a SPIR-V module ({found}); for a raw Lima PP stream, add --lima")
    at = None
    if args.at is not None:
        at = parse_offset(args.at)
        if at is None:
            return fail(f"--at {args.at}: not a byte offset (decimal, or hex with 0x)")
        if at >= len(data):
            return fail(f"--at {args.at}: past the end of {path} ({counted(len(data), 'byte', grouped=True)})")
    panes = LIMA_PANE_NAMES if lima_mode else PANE_NAMES
    if args.pane is not None and args.pane not in panes:
        return fail(f"--pane {args.pane}: no such pane; choose one of {', '.join(panes)}")
    from spvinspect.themes import theme_names

    if args.theme is not None and args.theme not in theme_names():
        return fail(f"--theme {args.theme}: no such theme; choose one of {', '.join(theme_names())}")
    if args.diff is not None:
        return run_diff_app(data, path, args.diff, lima_mode, args.theme)
    inputs = None
    if args.inputs is not None:
        if lima_mode:
            return fail("--inputs: Lima mode takes its inputs in the inputs pane")
        inputs, problem = read_inputs(args.inputs)
        if problem is not None:
            return fail(problem)
    tour = None
    if args.tour is not None or (args.file is None and not lima_mode):
        tour, problem = _load_tour(args.tour, "lima" if lima_mode else "spirv")
        if problem is not None:
            return fail(problem)
    if lima_mode:
        return run_lima_app(data, path, at, args.pane, args.theme, tour)
    return run_app(data, path, at, args.pane, args.raw_id, args.theme, tour, inputs)


def _load_tour(path: str | None, kind: str):
    """The tour at `path` (None: the bundled example's of that format), checked against the
    format it is opened over; (tour, None) or (None, the message)."""
    from spvinspect.tour import EXAMPLE_LIMA_TOUR, EXAMPLE_TOUR, FORMAT_NAMES, TourError, load_tour

    source = path or (EXAMPLE_LIMA_TOUR if kind == "lima" else EXAMPLE_TOUR)
    try:
        tour = load_tour(source)
        if tour.format != kind:
            return None, (f"--tour {path}: a tour of {FORMAT_NAMES[tour.format]} (format = \"{tour.format}\"), "
                          f"the file opens as {FORMAT_NAMES[kind]}")
        return load_tour(source, frozenset(LIMA_PANE_NAMES if kind == "lima" else PANE_NAMES)), None
    except TourError as error:
        return None, f"--tour {error}" if path else str(error)


LIMA_EXAMPLE_NAME = "lima-example.mbs"
"""The name the bundled Lima example is shown under (a save writes it there, after asking)."""


def _lima_example(args: argparse.Namespace) -> int:
    """Open (or, off a terminal, print) the bundled Lima example."""
    from spvinspect.lima.emulator.example import example_mbs

    data = example_mbs()
    if not on_terminal():
        from spvinspect import lima

        print("\n".join(lima.listing_lines(lima.decode(data), "seed", False)))
        return 0
    if args.pane is not None and args.pane not in LIMA_PANE_NAMES:
        return fail(f"--pane {args.pane}: no such pane; choose one of {', '.join(LIMA_PANE_NAMES)}")
    tour, problem = _load_tour(args.tour, "lima")
    if problem is not None:
        return fail(problem)
    return run_lima_app(data, LIMA_EXAMPLE_NAME, None, args.pane, args.theme, tour)


def run_app(data: bytes, path: str, at: int | None, pane: str | None, raw: bool, theme: str | None, tour=None,
            inputs: dict | None = None) -> int:
    """Open the app over the module; returns when the user quits."""
    from spvinspect.app import InspectorApp
    from spvinspect.config import load_config
    from spvinspect.document import Document

    config = load_config()
    document = Document(data, path)
    document.run_inputs = inputs
    word = at // 4 if at is not None else None
    app = InspectorApp(document, at=word, pane=pane, raw=raw, theme=theme or config.theme, notice=config.problem, keys=config.keys, tour=tour)
    del document  # the app's alone: once an edit replaces it, it is freed with its whole-module index
    app.run()
    return 0


def run_lima_app(data: bytes, path: str, at: int | None, pane: str | None, theme: str | None, tour=None) -> int:
    """Open the app in Lima mode over a PP program; `at` is a byte offset of the file."""
    from spvinspect.app import InspectorApp
    from spvinspect.config import load_config
    from spvinspect.lima_document import LimaDocument

    config = load_config()
    document = LimaDocument(data, path)
    word = at // 4 if at is not None else None
    app = InspectorApp(document, at=word, pane=pane, theme=theme or config.theme, notice=config.problem, keys=config.keys,
                       tour=tour)
    del document  # the app's alone (see `run_app`)
    app.run()
    return 0


def run_diff_app(data: bytes, path: str, path_b: str, lima_mode: bool, theme: str | None) -> int:
    """Open the app on `path` and `path_b` side by side; returns when the user quits."""
    from spvinspect.commands.io import read_input
    from spvinspect.document import looks_like_spirv

    if path_b == "-":
        return fail("--diff -: the app reads keys from the terminal; give a file name")
    data_b = read_input(path_b)
    if data_b is None:
        return 1
    if looks_like_spirv(data) != looks_like_spirv(data_b) and (_is_mbs(data) or _is_mbs(data_b)):
        return fail(f"--diff {path_b}: one of {path} and {path_b} is SPIR-V, the other a Lima MBS file: compare two of a kind")
    if not lima_mode and not looks_like_spirv(data_b):
        return fail(f"--diff {path_b}: not a SPIR-V module; to compare Lima PP programs, add --lima")
    from spvinspect.config import load_config
    from spvinspect.diff_app import DiffApp
    from spvinspect.formats.compare_files import comparing

    config = load_config()
    if lima_mode:
        from spvinspect.lima_document import LimaDocument

        document = LimaDocument(data, path)
    else:
        from spvinspect.document import Document

        document = Document(data, path)
    make = comparing(document, (data_b, path_b), lima_mode)
    title = f"{Path(path).name} ⇄ {Path(path_b).name}"
    app = DiffApp(document, make, title, theme=theme or config.theme, notice=config.problem, keys=config.keys)
    app.run()
    return 0


def print_lima(path: str) -> int:
    """Print the PP program at `path` as `spvinspect lima dis` does; the exit code."""
    from spvinspect.commands.lima import run_dis

    return run_dis(argparse.Namespace(file=path, style="seed"))


def _is_mbs(data: bytes) -> bool:
    """True when `data` is an MBS container (the Lima codec is imported only for files
    that are not SPIR-V, so SPIR-V modules open without it)."""
    from spvinspect.lima.mbs import is_mbs

    return is_mbs(data)


def _file_is_mbs(path: str) -> bool:
    """True when the file at `path` starts as an MBS container; False for stdin and for a
    file that cannot be read (the SPIR-V path then says why)."""
    if path == "-":
        return False
    try:
        with open(path, "rb") as file:
            head = file.read(4)
    except OSError:
        return False
    from spvinspect.document import looks_like_spirv

    return not looks_like_spirv(head) and _is_mbs(head)
