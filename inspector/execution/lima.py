"""Lima PP runs for the app: the emulator's `Machine` as a `SteppedRun`, and the settings
a screen's panes change (inputs, the chosen fragment of the grid)."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from spvinspect.codec.plural import counted
from spvinspect.execution.run import ChangedValue, Execution, StepChange, SteppedRun
from spvinspect.lima.emulator import EmulationError, Inputs, Machine, StepRecord, parse_inputs
from spvinspect.lima.emulator.example import INPUTS as EXAMPLE_INPUTS
from spvinspect.lima.model import LimaProgram
from spvinspect.lima.symbols import SymbolTable, symbol_table

DEFAULT_GRID = (32, 32)
"""The grid the image pane draws and the stepped fragment belongs to."""


def change_of(record: StepRecord) -> StepChange:
    """The emulator's record of a step, in the shared shape."""
    values = tuple(ChangedValue(w.name, w.old, w.new, w.kind, w.unit) for w in record.writes)
    return StepChange(record.instruction, values, record.branch, record.taken, record.outcome)


class LimaRun(SteppedRun):
    """One fragment of a PP program, stepped (`machine` for what the registers pane reads)."""

    ERRORS = (EmulationError,)

    def __init__(self, machine: Machine) -> None:
        super().__init__()
        self.machine = machine

    @property
    def current_instruction(self) -> int | None:
        try:
            current = self.machine.current
        except EmulationError as error:
            self.error = str(error)
            return None
        return None if current is None else current.index

    @property
    def finished(self) -> bool:
        return self.machine.finished

    @property
    def steps(self) -> int:
        return len(self.machine.history)

    def _advance(self) -> StepChange | None:
        record = self.machine.step()
        return None if record is None else change_of(record)

    def _retreat(self) -> tuple[bool, StepChange | None]:
        went = self.machine.back()
        history = self.machine.history
        return went, change_of(history[-1][1]) if history else None

    def ended_text(self) -> str:
        result = self.machine.result()
        if result.discarded:
            return f"discarded after {counted(result.steps, 'step')}"
        return f"stopped after {counted(result.steps, 'step')}: colour {' '.join(f'{c:.4g}' for c in result.color)}"


@dataclass
class LimaSettings:
    """What a Lima run reads besides the program: inputs (as JSON, the `lima run --inputs`
    shape, so they can be edited, saved and loaded), the fragment stepped and the grid."""

    program: LimaProgram
    data: dict
    fragment: tuple[int, int] = (0, 0)
    grid: tuple[int, int] = DEFAULT_GRID
    symbols: SymbolTable | None = field(default=None)

    def carry_from(self, old: LimaSettings) -> LimaSettings:
        """These settings for an edited program, keeping the old inputs, fragment and grid."""
        self.data, self.fragment, self.grid = old.data, old.fragment, old.grid
        return self

    def inputs(self) -> Inputs:
        """The inputs parsed (InputError naming the key when they cannot be used)."""
        return parse_inputs(self.data, self.symbols)


def default_inputs(program: LimaProgram, symbols: SymbolTable | None) -> dict:
    """Inputs a program runs with the moment it opens: the bundled example's own for it;
    else every varying a ramp from 0 at the bottom-left to 1 at the far edges (so the image
    shows something), every uniform 0.5 (between the thresholds and scales programs
    compare with), and the built-in checker for samplers."""
    if symbols is not None and {s.name for s in symbols.varyings} == {"v_uv"} and {s.name for s in symbols.uniforms} == {"u_tint"}:
        return copy.deepcopy(EXAMPLE_INPUTS)
    ramp = {"bottom_left": [0.0, 0.0, 0.0, 1.0], "bottom_right": [1.0, 0.0, 0.5, 1.0], "top_left": [0.0, 1.0, 0.5, 1.0]}
    varyings: dict = {}
    uniforms: dict = {}
    if symbols is not None:
        for symbol in symbols.varyings:
            if symbol.name and not symbol.name.startswith("gl_"):
                varyings[symbol.name] = {k: v[: max(1, symbol.component_count)] for k, v in ramp.items()}
        for symbol in symbols.uniforms:
            if symbol.name and not symbol.name.startswith("gl_") and 1 <= symbol.component_count <= 4:
                uniforms[symbol.name] = [0.5] * symbol.component_count
    else:
        for slot in sorted(_slots(program, "varying")):
            varyings[str(slot)] = ramp
        for slot in sorted(_slots(program, "uniform")):
            uniforms[str(slot)] = [0.5, 0.5, 0.5, 0.5]
    return {"varyings": varyings, "uniforms": uniforms}


def _slots(program: LimaProgram, table: str) -> set[int]:
    """The vec4 slots of the varyings or uniforms a raw program loads directly."""
    slots = set()
    for instruction in program.instructions:
        for f in instruction.fields:
            if table == "varying" and f.name == "varying" and f.layout == "index" and f["source_type"] == 0:
                slots.add((f["index"] << {0: 0, 1: 1}.get(f["alignment"], 2)) // 4)
            elif table == "uniform" and f.name == "uniform" and f.layout == "load" and f["source"] == 0:
                slots.add(f["index"] * {0: 1, 1: 2}.get(f["alignment"], 4) // 4)
    return slots


def lima_execution(program: LimaProgram) -> Execution:
    """The open-run controller of a PP program, its `settings` a `LimaSettings`."""
    symbols = symbol_table(program.chunks) if program.chunks else None
    settings = LimaSettings(program, default_inputs(program, symbols), symbols=symbols)

    def start() -> LimaRun:
        try:
            machine = Machine(program, settings.inputs(), settings.fragment, settings.grid)
        except EmulationError as error:
            raise ValueError(str(error)) from error
        return LimaRun(machine)

    return Execution(start, settings=settings)
