"""Every fragment of a width x height grid at once, vectorised across fragments.

Lanes whose branches go different ways are kept apart by their program counters: each
round executes the instruction at the lowest program counter among the running lanes, for
the lanes that are there (lanes meet again where the paths join, as on a SIMD machine).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from spvinspect.lima.emulator.execute import Lanes, Step
from spvinspect.lima.emulator.inputs import Inputs
from spvinspect.lima.emulator.machine import MAX_STEPS, color_register, instruction_at, prepare
from spvinspect.lima.emulator.state import EmulationError, State
from spvinspect.lima.model import LimaProgram


@dataclass(frozen=True)
class GridResult:
    """Colours, discards and step counts, row 0 at the bottom."""

    colors: np.ndarray
    """(height, width, 4) float32 (fp16 values widened)."""
    discarded: np.ndarray
    steps: np.ndarray

    def to_json(self) -> list[dict]:
        """One record per fragment, row by row from the bottom-left."""
        height, width = self.discarded.shape
        return [
            {
                "x": x,
                "y": y,
                "color": [float(c) for c in self.colors[y, x]],
                "discarded": bool(self.discarded[y, x]),
                "steps": int(self.steps[y, x]),
            }
            for y in range(height)
            for x in range(width)
        ]


def run_grid(
    program: LimaProgram,
    inputs: Inputs | None = None,
    grid: tuple[int, int] = (64, 64),
    progress: Callable[[int], None] | None = None,
) -> GridResult:
    """Runs every fragment; `progress` hears the number of instructions executed so far."""
    prepare(program)
    inputs = inputs or Inputs()
    width, height = grid
    rows, cols = height + (height & 1), width + (width & 1)
    ys, xs = np.divmod(np.arange(rows * cols, dtype=np.float64), cols)
    lanes = Lanes(inputs, xs, ys, grid, (rows, cols))
    state = State.fresh(rows * cols)
    offsets = instruction_at(program)
    executed = 0
    limit = MAX_STEPS * 4
    while True:
        running = ~state.done
        if not running.any():
            break
        pc = int(state.pc[running].min())
        index = offsets.get(pc)
        if index is None:
            raise EmulationError(f"a fragment jumped to word {pc}, which does not start an instruction")
        active = running & (state.pc == pc)
        Step(program.instructions[index], state, lanes, active, None).run()
        executed += 1
        if progress is not None and executed % 64 == 0:
            progress(executed)
        if executed > limit or int(state.steps.max()) > MAX_STEPS:
            raise EmulationError(f"some fragments have not ended after {MAX_STEPS} instructions")
    register = inputs.color_register if inputs.color_register is not None else color_register(program)
    colors = state.bank[:, register].astype(np.float32).reshape(rows, cols, 4)[:height, :width]
    return GridResult(
        colors,
        state.discarded.reshape(rows, cols)[:height, :width],
        state.steps.reshape(rows, cols)[:height, :width],
    )
