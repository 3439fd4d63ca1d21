"""`spvinspect cfg`: the control-flow graphs of a SPIR-V module as Graphviz DOT."""

from __future__ import annotations

import argparse

from spvinspect.codec.cfg.graph import build_cfg
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.diagnostics import has_errors
from spvinspect.codec.cfg.dot import to_dot
from spvinspect.codec.text.names import module_names
from spvinspect.commands.arguments import SPIRV_INPUT, add_command, add_output
from spvinspect.commands.io import read_input, report, write_output


def register(subparsers) -> None:
    """Adds the `cfg` command."""
    add_output(add_command(
        subparsers, "cfg", run_cfg, SPIRV_INPUT,
        help="write the control-flow graph as Graphviz DOT (the graph spirv-cfg draws)",
        description="Write every function's control-flow graph as Graphviz DOT: blocks named "
        "by result id, branch edges, merge edges dashed and continue edges dotted, as "
        "spirv-cfg does, with friendly names and instruction counts in the labels.",
    ))


def run_cfg(args: argparse.Namespace) -> int:
    """Writes the DOT graph; diagnostics go to stderr and make the exit code 1.

    When errors leave no function to draw (a bad header, a module cut short before its
    functions) nothing is written; malformed functions still get the rest of the graph.
    """
    data = read_input(args.file)
    if data is None:
        return 1
    module = decode(data)
    cfg = build_cfg(module, module_names(module))
    diagnostics = [*module.diagnostics, *cfg.diagnostics]
    if not cfg.functions and has_errors(diagnostics):
        return report(args.file, diagnostics)
    if not write_output(args.output, to_dot(cfg).encode("utf-8")):
        return 1
    return report(args.file, diagnostics)
