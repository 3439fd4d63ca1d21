"""A steppable run of one fragment: step forward and back, run to the end, to an
instruction or to the next taken branch, breakpoints, and a record of every step.

The watched fragment runs in its 2x2 quad (four lanes, its neighbours' inputs interpolated
the same way) so that dFdx/dFdy have neighbours; the records are the watched lane's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from spvinspect.lima.emulator.execute import Lanes, Step
from spvinspect.lima.emulator.inputs import Inputs
from spvinspect.lima.emulator.state import EmulationError, StepRecord, State
from spvinspect.lima.model import Instruction, LimaProgram

MAX_STEPS = 10_000
"""A fragment still running after this many instructions is reported as not ending (Mesa's
longest loops run 64 times round a few instructions)."""


def instruction_at(program: LimaProgram) -> dict[int, int]:
    """Word offset -> instruction index."""
    return {instruction.word_offset: instruction.index for instruction in program.instructions}


def color_register(program: LimaProgram) -> int:
    """The register holding the output colour when the program stops.

    The register is not in the code: the driver puts it in the render state (Mesa's
    `frag_color0_reg`). Mesa's compiler moves the colour into it in the last instruction of
    the program's end block, so the vec4 register a non-discarding `stop` instruction
    writes is taken (the add unit's before the multiplier's); `$0` when none does.
    """
    for instruction in program.instructions:
        if not instruction.stop:
            continue
        fields = {f.name: f for f in instruction.fields}
        branch = fields.get("branch")
        if branch is not None and branch.layout == "discard":
            continue
        for name in ("vec4_acc", "vec4_mul"):
            f = fields.get(name)
            if f is not None and f["mask"] and f["dest"] < 12:
                return f["dest"]
        f = fields.get("combine")
        if f is not None and f.layout in ("vector_dest", "scalar_vec_mul") and f["mask"]:
            return f["dest"]
    return 0


@dataclass(frozen=True, slots=True)
class FragmentResult:
    """The outcome of one fragment, in the JSON shape of `lima run --json`."""

    color: tuple[float, float, float, float]
    discarded: bool
    steps: int

    def to_json(self) -> dict:
        return {"color": list(self.color), "discarded": self.discarded, "steps": self.steps}


def prepare(program: LimaProgram) -> None:
    """Raises EmulationError when the program cannot be run at all."""
    if not program.instructions:
        raise EmulationError("the program has no instructions to run")


class Machine:
    """One fragment of `program` at `fragment` of a `grid` (width, height)."""

    def __init__(
        self,
        program: LimaProgram,
        inputs: Inputs | None = None,
        fragment: tuple[int, int] = (0, 0),
        grid: tuple[int, int] = (1, 1),
        max_steps: int = MAX_STEPS,
    ) -> None:
        prepare(program)
        self.max_steps = max_steps
        self.program = program
        self.inputs = inputs or Inputs()
        self.fragment = fragment
        self.grid = grid
        x0, y0 = fragment[0] & ~1, fragment[1] & ~1
        xs = np.array([x0, x0 + 1, x0, x0 + 1], dtype=np.float64)
        ys = np.array([y0, y0, y0 + 1, y0 + 1], dtype=np.float64)
        self.lanes = Lanes(self.inputs, xs, ys, grid, (2, 2))
        self.watch = (fragment[1] - y0) * 2 + (fragment[0] - x0)
        self.offsets = instruction_at(program)
        self.output_register = (
            self.inputs.color_register if self.inputs.color_register is not None else color_register(program)
        )
        self.state = State.fresh(4)
        self.history: list[tuple[State, StepRecord]] = []
        self.breakpoints: set[int] = set()

    # -- where we are ---------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return bool(self.state.done[self.watch])

    @property
    def current(self) -> Instruction | None:
        """The instruction the next step executes (None once the fragment has ended)."""
        if self.finished:
            return None
        pc = int(self.state.pc[self.watch])
        index = self.offsets.get(pc)
        if index is None:
            raise EmulationError(f"the fragment jumped to word {pc}, which does not start an instruction")
        return self.program.instructions[index]

    @property
    def records(self) -> list[StepRecord]:
        """What every step so far did, oldest first."""
        return [record for _, record in self.history]

    # -- moving -----------------------------------------------------------------------

    def step(self) -> StepRecord | None:
        """Executes one instruction; None when the fragment has already ended."""
        instruction = self.current
        if instruction is None:
            return None
        if len(self.history) >= self.max_steps:
            raise EmulationError(f"the fragment has not ended after {self.max_steps} instructions")
        before = self.state.copy()
        active = ~self.state.done & (self.state.pc == instruction.word_offset)
        record = Step(instruction, self.state, self.lanes, active, self.watch).run()
        self.history.append((before, record))
        return record

    def back(self) -> bool:
        """Undoes the last step; False when there is none."""
        if not self.history:
            return False
        self.state, _ = self.history.pop()
        return True

    def run(self, until: Iterable[int] = (), stop_on_taken_branch: bool = False) -> StepRecord | None:
        """Steps until the fragment ends, reaches an instruction in `until` or a breakpoint
        (after at least one step), or (optionally) takes a branch. Returns the last record."""
        stops = set(until) | self.breakpoints
        record = None
        while not self.finished:
            record = self.step()
            if stop_on_taken_branch and record is not None and record.taken:
                break
            current = self.current
            if current is not None and current.index in stops:
                break
        return record

    def run_to(self, index: int) -> StepRecord | None:
        """Runs until instruction `index` is next (or the fragment ends)."""
        return self.run(until=(index,))

    def run_to_taken_branch(self) -> StepRecord | None:
        """Runs until a branch is taken (or the fragment ends)."""
        return self.run(stop_on_taken_branch=True)

    # -- results -------------------------------------------------------------------

    def registers(self) -> np.ndarray:
        """(16, 4) fp16: `$0`-`$11` then the pipeline registers, in the watched lane."""
        return self.state.bank[self.watch].copy()

    def pipeline(self) -> dict[str, tuple[float, ...]]:
        """The pipeline registers as the last instruction left them, in the watched lane."""
        w, state = self.watch, self.state
        values = {"^v0": state.vmul[w], "^s0": state.fmul[w : w + 1], "^coords": state.coords[w]}
        for reg, name in ((12, "^const0"), (13, "^const1"), (14, "^texture"), (15, "^uniform")):
            values[name] = state.bank[w, reg]
        return {name: tuple(float(x) for x in value) for name, value in values.items()}

    def temporaries(self) -> dict[int, tuple[float, ...]]:
        """Temporary index -> its vec4, for those written so far, in the watched lane."""
        return {index: tuple(float(x) for x in values[self.watch]) for index, values in sorted(self.state.temps.items())}

    def result(self) -> FragmentResult:
        """The colour (the output register, as fp16 values widened), discard and steps."""
        w = self.watch
        color = tuple(float(x) for x in self.state.bank[w, self.output_register].astype(np.float32))
        return FragmentResult(color, bool(self.state.discarded[w]), int(self.state.steps[w]))


def run_fragment(
    program: LimaProgram, inputs: Inputs | None = None, fragment: tuple[int, int] = (0, 0), grid: tuple[int, int] = (1, 1)
) -> tuple[FragmentResult, list[StepRecord]]:
    """Runs one fragment to the end: its result and every step's record."""
    machine = Machine(program, inputs, fragment, grid)
    machine.run()
    return machine.result(), machine.records
