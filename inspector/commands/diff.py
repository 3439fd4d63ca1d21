"""`spvinspect diff A B`: what changed between two SPIR-V modules, or two Lima programs.

The format is told by the content: SPIR-V by its magic number (either byte order), Lima
by an MBS file's header, or with `--lima` for raw Lima streams. The exit status is
diff(1)'s: 0 when the two are the same, 1 when they differ, 2 when one cannot be
compared (with a message saying why).
"""

from __future__ import annotations

import argparse
import sys

from spvinspect.commands.arguments import add_command, add_raw_id
from spvinspect.commands.io import few_collections, read_input, source_name
from spvinspect.codec.plural import counted

SAME, DIFFERENT, TROUBLE = 0, 1, 2
SPIRV_MAGIC = (b"\x03\x02\x23\x07", b"\x07\x23\x02\x03")


def register(subparsers) -> None:
    """Adds the `diff` command."""
    parser = add_command(
        subparsers, "diff", run_diff, None,
        help="compare two SPIR-V modules (ids matched by what they are) or two Lima programs",
        description="Compare two SPIR-V modules instruction by instruction, their ids matched by what "
        "they are rather than by their numbers: a unified diff of the disassemblies in A's id space, then "
        "a summary per section and function. Lima PP programs (MBS files, or raw streams with --lima) "
        "are aligned by instruction and compared unit by unit. Exit status: 0 same, 1 different, 2 trouble.",
    )
    parser.add_argument("file_a", metavar="A", help="the first module or program (- for stdin)")
    parser.add_argument("file_b", metavar="B", help="the second module or program")
    add_raw_id(parser)
    parser.add_argument("--context", type=int, default=3, metavar="N", help="lines of context (default 3)")
    parser.add_argument("--lima", action="store_true", help="read both files as Lima PP programs (raw or MBS)")
    parser.add_argument("--no-summary", action="store_true", help="print the diff only, without the summary")


def _fail(message: str) -> int:
    print(f"spvinspect diff: error: {message}", file=sys.stderr)
    return TROUBLE


def run_diff(args: argparse.Namespace) -> int:
    """Compare; the diff and summary on stdout, problems on stderr."""
    if args.context < 0:
        return _fail("--context must be 0 or more")
    if args.file_a == "-" and args.file_b == "-":
        return _fail("only one of A and B can be standard input")
    data_a = read_input(args.file_a)
    data_b = read_input(args.file_b) if data_a is not None else None
    if data_a is None or data_b is None:
        return TROUBLE
    with few_collections():
        if args.lima or _is_mbs(data_a) or _is_mbs(data_b):
            return _lima(args, data_a, data_b)
        for path, data in ((args.file_a, data_a), (args.file_b, data_b)):
            if data[:4] not in SPIRV_MAGIC:
                what = f"magic number {data[:4].hex()}" if len(data) >= 4 else f"only {counted(len(data), 'byte')}"
                return _fail(
                    f"{source_name(path)}: not a SPIR-V module ({what}); "
                    "for raw Lima PP programs use --lima"
                )
        return _spirv(args, data_a, data_b)


def _is_mbs(data: bytes) -> bool:
    from spvinspect.lima.mbs import is_mbs

    return is_mbs(data)


def _spirv(args: argparse.Namespace, data_a: bytes, data_b: bytes) -> int:
    from spvinspect.codec.binary.lazy import open_module
    from spvinspect.codec.diff.model import compare
    from spvinspect.codec.diff.render import summary_lines, unified

    modules = []
    for path, data in ((args.file_a, data_a), (args.file_b, data_b)):
        module = open_module(data)
        if module.header is None:
            return _fail(f"{source_name(path)}: the header is incomplete ({counted(len(data), 'byte')})")
        modules.append(module)
    diff = compare(*modules)
    for path, shape in ((args.file_a, diff.shape_a), (args.file_b, diff.shape_b)):
        if shape.tail < len(shape.words):
            print(f"{source_name(path)}:word {shape.tail}: warning: no instruction can be read from here on "
                  f"(a word count of 0 or past the end): the {len(shape.words) - shape.tail} words left are "
                  "not compared", file=sys.stderr)
    if diff.same:
        return SAME
    friendly = not args.raw_id
    out = sys.stdout
    for line in unified(diff, source_name(args.file_a), source_name(args.file_b), args.context, friendly):
        out.write(line + "\n")
    if not args.no_summary:
        out.write("\n")
        for line in summary_lines(diff, friendly=friendly):
            out.write(line + "\n")
    out.flush()
    return DIFFERENT


def _lima(args: argparse.Namespace, data_a: bytes, data_b: bytes) -> int:
    from spvinspect import lima
    from spvinspect.lima.compare import compare_programs, lima_summary_lines, lima_unified

    programs = []
    for path, data in ((args.file_a, data_a), (args.file_b, data_b)):
        program = lima.decode(data)
        for diagnostic in program.diagnostics:
            print(diagnostic.format(source_name(path)), file=sys.stderr)
        if not program.instructions and data:
            return _fail(f"{source_name(path)}: no Lima PP instruction could be read")
        programs.append(program)
    diff = compare_programs(*programs)
    if diff.same:
        return SAME
    out = sys.stdout
    for line in lima_unified(diff, source_name(args.file_a), source_name(args.file_b), args.context):
        out.write(line + "\n")
    if not args.no_summary:
        out.write("\n")
        for line in lima_summary_lines(diff):
            out.write(line + "\n")
    out.flush()
    return DIFFERENT
