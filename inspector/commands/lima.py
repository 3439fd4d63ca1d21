"""`spvinspect lima dis|as|explain`: Lima (Mali-200/400) PP fragment shaders on the command line."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable

from spvinspect import lima
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.commands.arguments import add_command
from spvinspect.commands.io import few_collections, read_input, report, write_output
from spvinspect.commands import lima_run

LIMA_INPUT = "input file, or - for stdin"
"""The help of a `lima` subcommand's input."""


def register(subparsers) -> None:
    """Adds the `lima` command and its `dis`, `as` and `explain` subcommands."""
    parser = subparsers.add_parser(
        "lima",
        help="disassemble, assemble or explain Lima PP fragment shaders",
        description="Lima (Mali-200/400) PP fragment shaders: raw instruction words or MBS files.",
    )
    sub = parser.add_subparsers(dest="lima_command", metavar="SUBCOMMAND", required=True)

    dis = add_command(sub, "dis", run_dis, LIMA_INPUT, help="disassemble a raw instruction stream or an MBS file")
    add_style(dis, lima.STYLES, "seed")
    dis.add_argument(
        "--offsets",
        action="store_true",
        help="say each instruction's word offset: `@     5: ` before a Mesa line (as Mesa prints it), "
        "a `# @5` comment after a seed line",
    )

    assemble = add_command(sub, "as", run_as, LIMA_INPUT, help="assemble the proposed syntax or Mesa's into instruction words")
    add_style(assemble, lima.ASSEMBLER_STYLES, "auto")
    assemble.add_argument("-o", "--output", required=True, help="output file, or - for stdout")
    assemble.add_argument("--container", metavar="MBS", help="write this MBS file with its fragment code replaced "
                          "(needed for an .mbs output name), instead of the raw instruction stream")
    add_command(sub, "explain", run_explain, LIMA_INPUT, help="every bit range of every instruction, with offsets")

    lima_run.register(sub)


STYLE_MEANINGS = {
    "seed": "the proposed syntax, which `lima as` reads back",
    "mesa": "the lines Mesa's lima disassembler prints",
    "auto": "whichever the text is written in",
}
"""What each `--style` means, for the help of the commands that take one."""


def add_style(command: argparse.ArgumentParser, choices: Iterable[str], default: str) -> None:
    """`--style`, its choices each explained in the help."""
    help_text = "; ".join(f"{style}: {STYLE_MEANINGS[style]}" + (" (default)" if style == default else "") for style in choices)
    command.add_argument("--style", choices=choices, default=default, help=help_text)


def run_dis(args: argparse.Namespace) -> int:
    """Prints the program one instruction per line; diagnostics go to stderr."""
    offsets = getattr(args, "offsets", False)
    return _print_lines(args.file, lambda program: lima.listing_lines(program, args.style, offsets))


def run_explain(args: argparse.Namespace) -> int:
    """Prints every bit range of every control word and field, with offsets."""
    return _print_lines(args.file, lima.explain_lines)


def _print_lines(path: str, lines_of: Callable[[lima.LimaProgram], Iterable[str]]) -> int:
    """Prints the lines `lines_of` makes of the program in `path`; its diagnostics go to
    stderr and give the exit code (1 when the file cannot be read)."""
    data = read_input(path)
    if data is None:
        return 1
    with few_collections():
        program = lima.decode(data)
        lines = list(lines_of(program))
    if lines:
        print("\n".join(lines))
    return report(path, program.diagnostics)


def run_as(args: argparse.Namespace) -> int:
    """Assembles the file; writes the output only when there is no error."""
    data = read_input(args.file)
    if data is None:
        return 1
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        problem = Diagnostic(f"the file is not UTF-8 text (byte {error.start} cannot be read)")
        return report(args.file, [problem])
    with few_collections():
        words, diagnostics = lima.assemble(text, args.style)
    status = report(args.file, diagnostics)
    if words is None:
        return 1
    payload = _output_bytes(args, words)
    if payload is None:
        return 1
    return status if write_output(args.output, payload) else 1


def _output_bytes(args: argparse.Namespace, words: list[int]) -> bytes | None:
    """The raw stream, or with `--container` that MBS file holding the new code; never a
    raw stream under an `.mbs` name (None after saying why)."""
    from spvinspect.lima.mbs import ContainerError, mbs_with_code, raw_stream

    if args.container is None:
        if args.output.lower().endswith(".mbs"):
            report(args.output, [Diagnostic(
                "an .mbs name is an MBS container, and `lima as` writes a raw instruction stream: give the "
                "container the code goes into with --container FILE.mbs, or another output name (.bin)")])
            return None
        return raw_stream(words)
    container = read_input(args.container)
    if container is None:
        return None
    try:
        return mbs_with_code(container, words)
    except ContainerError as error:
        report(args.container, [Diagnostic(f"{error}; the code cannot be put into it")])
        return None
