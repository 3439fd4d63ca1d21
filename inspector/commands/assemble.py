"""`spvinspect as`: SPIR-V assembly text to a binary module, like spirv-as."""

from __future__ import annotations

import argparse
import os
import sys

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.asm.header import TARGET_ENV_VERSIONS
from spvinspect.commands.arguments import add_command
from spvinspect.commands.io import read_input, report, write_output

DEFAULT_OUTPUT = "out.spv"
"""Where spirv-as writes when no -o is given."""


def register(subparsers) -> None:
    """Adds the `as` command."""
    parser = add_command(
        subparsers, "as", run_as, "SPIR-V assembly text, or - for stdin",
        help="assemble SPIR-V assembly text (output identical to spirv-as)",
        description="Assemble SPIR-V assembly text into a binary module, as spirv-as does. "
        "Text that starts with spirv-dis's header comments keeps their version, "
        "generator, bound and schema (unless --target-env is given), so a disassembled "
        "module assembles back to the same bytes.",
    )
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
    parser.add_argument(
        "--ids-from", dest="ids_from", default=None, metavar="ORIGINAL.spv",
        help="give friendly names (%%main, %%v4float) the ids they have in ORIGINAL.spv, the "
        "module the text was disassembled from, and keep numeric ids; unedited text then "
        "assembles to ORIGINAL.spv byte for byte, and an edit changes only what it must",
    )


def run_as(args: argparse.Namespace) -> int:
    """Assemble; on errors print them to stderr, write nothing and return 1."""
    # A big text's array passes (numpy) use no linear algebra: one BLAS thread, not one
    # per core started (and spinning) as numpy is imported.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    data = read_input(args.file)
    if data is None:
        return 1
    text = data.decode("utf-8", "surrogateescape")
    del data  # the bytes are not needed again: a huge text is then held once
    hints = None
    if args.ids_from is not None:
        hints = original_id_hints(args.ids_from)
        if hints is None:
            return 1
    result = assemble(
        text,
        target_env=args.target_env,
        preserve_numeric_ids=args.preserve_numeric_ids or hints is not None,
        id_hints=hints,
    )
    if result.binary is None:
        return report(args.file, result.diagnostics) or 1
    if not write_output(args.output, result.binary):
        return 1
    return report(args.file, result.diagnostics)


def original_id_hints(path: str) -> dict[str, int] | None:
    """Friendly name → id in the module at `path`; None after saying why it cannot be
    used (unreadable, or not a SPIR-V module)."""
    # Imported here: the decoder and the disassembler's names are only needed with --ids-from.
    from spvinspect.codec.binary.lazy import open_module
    from spvinspect.codec.text.names import module_names

    data = read_input(path)
    if data is None:
        return None
    module = open_module(data)
    if module.header is None:
        print(f"{path}: error: --ids-from needs a SPIR-V module: the file has no SPIR-V header",
              file=sys.stderr)
        return None
    return module_names(module).id_hints()
