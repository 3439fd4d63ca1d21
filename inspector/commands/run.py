"""`spvinspect run`: execute an entry point of a SPIR-V module and print its outputs."""

from __future__ import annotations

import argparse
import json
import sys

from spvinspect.commands.arguments import SPIRV_INPUT, add_command
from spvinspect.commands.io import read_input

UNSUPPORTED_EXIT = 3


def register(subparsers) -> None:
    parser = add_command(
        subparsers, "run", run_run, SPIRV_INPUT,
        help="run an entry point and print its outputs (an interpreter, logical addressing)",
        description="Run one invocation of an entry point (a fragment shader's 2x2 quad, a compute "
        "shader's workgroup, one vertex) with inputs from a JSON file or defaults, and print the "
        "outputs and buffers. An instruction the interpreter cannot execute stops the run with "
        "a message naming it and its word offset (exit status 3).",
    )
    parser.add_argument("--entry", default=None, help="entry point name (default: the first)")
    parser.add_argument("--inputs", default=None, help="inputs JSON file")
    parser.add_argument("--fragment", default=None, metavar="X,Y", help="the fragment's pixel (default 0,0)")
    parser.add_argument("--grid", default=None, metavar="W,H", help="also run every pixel of a W x H grid")
    parser.add_argument("--workgroup", default=None, metavar="X,Y,Z", help="the workgroup to run (default 0,0,0)")
    parser.add_argument("--invocation", default=None, metavar="X,Y,Z", help="the invocation in it to report and trace")
    parser.add_argument("--trace", action="store_true", help="print each step's result")
    parser.add_argument("--json", action="store_true", help="print JSON")


def _ints(text: str | None, n: int, what: str) -> tuple[int, ...] | None:
    if text is None:
        return None
    parts = text.split(",")
    try:
        values = tuple(int(p) for p in parts)
    except ValueError:
        values = ()
    if len(values) != n or any(v < 0 for v in values):
        raise ValueError(f"{what} takes {n} non-negative integers separated by commas, not {text!r}")
    return values


def run_run(args: argparse.Namespace) -> int:
    from spvinspect.codec.interp.debugger import Debugger
    from spvinspect.codec.interp.group import Launch, run_grid
    from spvinspect.codec.interp.interface import InputError, defaulted_runtime_arrays
    from spvinspect.codec.interp.shader import Shader, ShaderError
    from spvinspect.codec.interp.trace import format_record, format_result

    try:
        fragment = _ints(args.fragment, 2, "--fragment") or (0, 0)
        grid = _ints(args.grid, 2, "--grid")
        workgroup = _ints(args.workgroup, 3, "--workgroup") or (0, 0, 0)
        invocation = _ints(args.invocation, 3, "--invocation") or (0, 0, 0)
    except ValueError as error:
        print(f"spvinspect run: error: {error}", file=sys.stderr)
        return 2
    data = read_input(args.file)
    if data is None:
        return 1
    inputs = {}
    if args.inputs:
        try:
            with open(args.inputs, encoding="utf-8") as f:
                inputs = json.load(f)
        except OSError as error:
            print(f"{args.inputs}: error: cannot read: {error.strerror or error}", file=sys.stderr)
            return 1
        except json.JSONDecodeError as error:
            print(f"{args.inputs}:{error.lineno}:{error.colno}: error: not JSON: {error.msg}", file=sys.stderr)
            return 1
        if not isinstance(inputs, dict):
            print(f"{args.inputs}: error: the inputs must be a JSON object", file=sys.stderr)
            return 1
    launch = Launch(fragment=fragment, workgroup=workgroup, invocation=invocation)
    try:
        shader = Shader(data, inputs.get("spec_constants"))
        debugger = Debugger(shader, args.entry, inputs, launch)
    except (ShaderError, InputError) as error:
        print(f"{args.file}: error: {error}", file=sys.stderr)
        return 1
    if args.trace:
        names = shader.names
        while not debugger.finished:
            rec = debugger.step()
            if rec is None:
                break
            if not args.json:
                print(format_record(shader, rec, names))
    debugger.run()
    result = debugger.group.result()
    if grid is not None and "unsupported" not in result and debugger.entry.model == "Fragment":
        result["grid"] = run_grid(shader, debugger.entry, inputs, grid)
    if args.json and args.trace:
        result["trace"] = [format_record(shader, r, shader.names, as_json=True) for r in debugger.history]
    if "unsupported" in result:
        u = result["unsupported"]
        if args.json:
            print(json.dumps({"unsupported": {"opcode": u["opcode"], "offset": u["offset"]}}))
        print(f"{args.file}: error: {u['message']}", file=sys.stderr)
        return UNSUPPORTED_EXIT
    defaults = defaulted_runtime_arrays(shader, debugger.entry, inputs, len(debugger.group.invocations))
    notes = [note for var_notes in defaults.values() for note in var_notes]
    if notes:
        result["notes"] = notes
    if args.json:
        print(json.dumps(result))
    else:
        print(format_result(result))
        for note in notes:
            print(f"note: {note}")
    return 0
