"""`spvinspect lima run`: execute a Lima PP program on the emulator and print its output."""

from __future__ import annotations

import argparse
import json
import math
import sys

from spvinspect import lima
from spvinspect.codec.diagnostics import has_errors
from spvinspect.commands.arguments import add_command
from spvinspect.commands.io import read_input, report
from spvinspect.lima.emulator import (
    EmulationError,
    InputError,
    Inputs,
    Machine,
    StepRecord,
    parse_inputs,
    run_grid,
)
from spvinspect.lima.symbols import symbol_table


def register(sub) -> None:
    """Adds `run` to the `lima` subcommands."""
    run = add_command(
        sub, "run", run_run, "raw instruction stream or MBS file, or - for stdin",
        help="execute the program for one fragment or a grid, in fp16 as the PP does",
        description="Runs a Lima PP program on the emulator. Without --grid one fragment runs; "
        "with --grid every fragment of the grid runs (or only --fragment's).",
    )
    run.add_argument("--inputs", metavar="JSON", help="varyings, uniforms, textures… (see the README)")
    run.add_argument("--fragment", metavar="X,Y", help="the fragment to run (default 0,0)")
    run.add_argument("--grid", metavar="W,H", help="grid size; alone, runs every fragment")
    run.add_argument("--trace", action="store_true", help="print every step's writes and branches")
    run.add_argument("--json", action="store_true", help="print JSON: {color, discarded, steps} (a list for a grid)")


def _pair(text: str | None, what: str, smallest: int) -> tuple[int, int] | None | str:
    if text is None:
        return None
    parts = text.split(",")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        return f"--{what}: expected two whole numbers like 4,8, found {text!r}"
    pair = (int(parts[0]), int(parts[1]))
    if min(pair) < smallest:
        return f"--{what}: {text!r} must be at least {smallest},{smallest}"
    return pair


def _error(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 1


def _load_inputs(path: str | None, symbols) -> Inputs | str:
    if path is None:
        return Inputs()
    data = read_input(path)
    if data is None:
        return f"cannot read the inputs {path}"
    try:
        parsed = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        return f"{path}: not JSON ({error})"
    try:
        return parse_inputs(parsed, symbols)
    except InputError as error:
        return f"{path}: {error}"


def json_number(x: float) -> float | str:
    """A value for `--json`: NaN and infinities as the strings "nan", "inf" and "-inf"
    (JSON has no such numbers; the same strings as `spvinspect run --json`)."""
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return x


def _json_values(values) -> list[float | str]:
    return [json_number(float(x)) for x in values]


def _number(x: float) -> str:
    return f"{x:.6g}"


def _trace_lines(record: StepRecord) -> list[str]:
    lines = [f"[{record.instruction}] @{record.word_offset}"]
    for write in record.writes:
        old = "" if write.old is None else " ".join(_number(x) for x in write.old) + " -> "
        lines.append(f"    {write.unit}: {write.name} = {old}{' '.join(_number(x) for x in write.new)}")
    if record.branch:
        lines.append(f"    branch: {record.branch}")
    if record.outcome:
        lines.append(f"    {record.outcome}")
    return lines


def _trace_json(record: StepRecord) -> dict:
    return {
        "instruction": record.instruction,
        "word": record.word_offset,
        "writes": [
            {"unit": w.unit, "kind": w.kind, "name": w.name, "old": _json_values(w.old) if w.old else None, "new": _json_values(w.new)}
            for w in record.writes
        ],
        "branch": record.branch,
        "taken": record.taken,
        "outcome": record.outcome,
    }


def run_run(args: argparse.Namespace) -> int:
    """Runs the program; prints the colour, discard and step count (or JSON)."""
    fragment = _pair(args.fragment, "fragment", 0)
    grid = _pair(args.grid, "grid", 1)
    for value in (fragment, grid):
        if isinstance(value, str):
            return _error(value)
    if grid is not None and fragment is not None and (fragment[0] >= grid[0] or fragment[1] >= grid[1]):
        return _error(f"--fragment {args.fragment} is outside the {grid[0]}x{grid[1]} grid")
    data = read_input(args.file)
    if data is None:
        return 1
    program = lima.decode(data)
    status = report(args.file, program.diagnostics)
    if has_errors(program.diagnostics) and not program.instructions:
        return 1
    inputs = _load_inputs(args.inputs, symbol_table(program.chunks) if program.chunks else None)
    if isinstance(inputs, str):
        return _error(inputs)
    try:
        if grid is not None and fragment is None:
            if args.trace:
                return _error("--trace follows one fragment: add --fragment X,Y")
            result = run_grid(program, inputs, grid)
            records = result.to_json()
            for record in records:
                record["color"] = _json_values(record["color"])
            if args.json:
                print(json.dumps(records, allow_nan=False))
            else:
                for record in records:
                    state = "discarded" if record["discarded"] else " ".join(_number(c) for c in record["color"])
                    print(f"{record['x']},{record['y']}: {state} ({record['steps']} steps)")
            return status
        machine = Machine(program, inputs, fragment or (0, 0), grid or (1, 1))
    except EmulationError as error:
        return _error(f"{args.file}: {error}")
    try:
        machine.run()
    except EmulationError as error:
        if args.trace and not args.json:
            for record in machine.records:
                print("\n".join(_trace_lines(record)))
        return _error(f"{args.file}: {error}")
    outcome = machine.result()
    if args.json:
        out = outcome.to_json()
        out["color"] = _json_values(out["color"])
        if args.trace:
            out["trace"] = [_trace_json(record) for record in machine.records]
        print(json.dumps(out, allow_nan=False))
        return status
    if args.trace:
        for record in machine.records:
            print("\n".join(_trace_lines(record)))
    print(f"color: {' '.join(_number(c) for c in outcome.color)}")
    print(f"discarded: {'yes' if outcome.discarded else 'no'}")
    print(f"steps: {outcome.steps}")
    return status
