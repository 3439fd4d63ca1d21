"""`spvinspect as`: SPIR-V assembly text to a binary module, like spirv-as."""

from __future__ import annotations

import argparse

from codec.asm.header import TARGET_ENV_VERSIONS
from codec.asm.assembler import assemble
from inspector.commands.io import read_input, report, write_output

DEFAULT_OUTPUT = "out.spv"
"""Where spirv-as writes when no -o is given."""


def register(subparsers) -> None:
    """Adds the `as` command."""
    parser = subparsers.add_parser(
        "as",
        help="assemble SPIR-V assembly text (output identical to spirv-as)",
        description="Assemble SPIR-V assembly text into a binary module, as spirv-as does. "
        "Text that starts with spirv-dis's header comments keeps their version, "
        "generator, bound and schema (unless --target-env is given), so a disassembled "
        "module assembles back to the same bytes.",
    )
    parser.add_argument("file", help="SPIR-V assembly text, or - for stdin")
    parser.add_argument(
        "-o", dest="output", default=DEFAULT_OUTPUT,
        help=f"output file, or - for stdout (default: {DEFAULT_OUTPUT})",
    )
    parser.add_argument(
        "--target-env", choices=list(TARGET_ENV_VERSIONS), default=None, metavar="ENV",
        help="target environment, which sets the version word (default: SPIR-V 1.6); "
        + "|".join(TARGET_ENV_VERSIONS),
    )
    parser.add_argument(
        "--preserve-numeric-ids", action="store_true",
        help="numeric ids keep their numbers; named ids fill the gaps from 1 up",
    )
    parser.set_defaults(run=run_as)


def run_as(args: argparse.Namespace) -> int:
    """Assemble; on errors print them to stderr, write nothing and return 1."""
    data = read_input(args.file)
    if data is None:
        return 1
    text = data.decode("utf-8", "surrogateescape")
    result = assemble(
        text, target_env=args.target_env, preserve_numeric_ids=args.preserve_numeric_ids
    )
    if result.binary is None:
        return report(args.file, result.diagnostics) or 1
    if not write_output(args.output, result.binary):
        return 1
    return report(args.file, result.diagnostics)
