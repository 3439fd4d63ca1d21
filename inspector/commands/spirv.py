"""`spvinspect dis` and `spvinspect explain`: SPIR-V binaries as text."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator

from spvinspect.codec.binary.lazy import LazyModule, open_module
from spvinspect.codec.text.disassembler import Disassembler, DisassemblyOptions
from spvinspect.codec.text.explain import explain_chunks
from spvinspect.commands.arguments import SPIRV_INPUT, add_command, add_output
from spvinspect.commands.io import few_collections, read_input, report, write_output


def register(subparsers) -> None:
    """Adds the `dis` and `explain` commands."""
    dis = add_command(
        subparsers, "dis", run_dis, SPIRV_INPUT,
        help="disassemble a SPIR-V binary (output identical to spirv-dis --no-color)",
        description="Disassemble a SPIR-V module. Words that do not fit the grammar are "
        "printed as !0x... raw words, so the text assembles back to the same binary.",
    )
    add_output(dis)
    dis.add_argument("--raw-id", action="store_true", help="show raw id numbers instead of friendly names")
    dis.add_argument("--no-header", action="store_true", help="omit the header comments")
    dis.add_argument("--no-indent", action="store_true", help="do not indent instructions")
    dis.add_argument("--offsets", action="store_true", help="show each instruction's byte offset")
    dis.add_argument(
        "--lossless",
        action="store_true",
        help="text that `spvinspect as` turns back into the same bytes, for any input: raw ids, "
        "!0x... words where decoding failed, and header comments the assembler honours where the "
        "standard ones do not give the header back; identical to --raw-id for a valid "
        "little-endian module",
    )
    dis.add_argument("--comment", action="store_true", help="add comments that make reading easier (as spirv-dis)")
    dis.add_argument(
        "--nested-indent", action="store_true", help="indent blocks by their nesting in structured control flow"
    )
    dis.add_argument(
        "--reorder-blocks",
        action="store_true",
        help="print blocks in structured control-flow order (instructions leave binary order)",
    )
    add_output(add_command(
        subparsers, "explain", run_explain, SPIRV_INPUT,
        help="explain every word of a SPIR-V binary, one line each",
        description="Print every word of the module: byte offset, hex value and what it is.",
    ))


def run_dis(args: argparse.Namespace) -> int:
    """Disassemble; diagnostics go to stderr and make the exit code 1."""
    return _on_module(args, _dis)


def run_explain(args: argparse.Namespace) -> int:
    """Explain every word; diagnostics go to stderr and make the exit code 1."""
    return _on_module(args, lambda args, module: write_output(args.output, encoded(explain_chunks(module))))


def _on_module(args: argparse.Namespace, write: Callable[[argparse.Namespace, LazyModule], bool | int]) -> int:
    """Reads the module in `args.file` and has `write` write its text, the collector quieter
    meanwhile; then its diagnostics on stderr give the exit code. `write` gives True when
    written, False when not (1), or the exit code of a usage error."""
    with few_collections():
        data = read_input(args.file)
        if data is None:
            return 1
        module = open_module(data)
        del data  # the module keeps its own words: the file's bytes need not stay in memory
        written = write(args, module)
        if written is not True:
            return 1 if written is False else written
        return report(args.file, module.check())


def _dis(args: argparse.Namespace, module: LazyModule) -> bool | int:
    options = DisassemblyOptions(
        friendly_names=not (args.raw_id or args.lossless),
        header=not args.no_header,
        indent=not args.no_indent,
        offsets=args.offsets,
        lossless=args.lossless,
    )
    if args.lossless and args.reorder_blocks:
        print("spvinspect dis: error: --reorder-blocks moves instructions, so it cannot be combined "
              "with --lossless", file=sys.stderr)
        return 2
    if args.comment or args.nested_indent or args.reorder_blocks:
        # Imported only here: the plain disassembly starts faster without it.
        from spvinspect.codec.text.reading_aids import ReadingAids, reading_text

        text = reading_text(module, options, ReadingAids(args.comment, args.nested_indent, args.reorder_blocks))
        return write_output(args.output, text.encode("utf-8", "surrogateescape"))
    return write_output(args.output, encoded(Disassembler(module, options).chunks()))


def encoded(pieces: Iterable[str]) -> Iterator[bytes]:
    """The pieces of a text as the bytes written for them, one piece at a time, so that
    the text of a large module is written as it is made, never held whole."""
    for piece in pieces:
        yield piece.encode("utf-8", "surrogateescape")
