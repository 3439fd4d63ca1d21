"""A Lima PP (Mali-200/400 fragment processor) emulator: runs decoded programs in fp16.

Knows nothing of the UI. `Machine` steps one fragment (forward, back, to a breakpoint) and
records each step's writes; `run_grid` runs a whole grid of fragments vectorised with numpy.
Ops it cannot execute faithfully stop with an `EmulationError` naming the instruction, unit
and op.
"""

from spvinspect.lima.emulator.grid import GridResult, run_grid
from spvinspect.lima.emulator.inputs import InputError, Inputs, Texture, inputs_to_json, parse_inputs
from spvinspect.lima.emulator.machine import FragmentResult, Machine, color_register, run_fragment
from spvinspect.lima.emulator.state import EmulationError, StepRecord, Write

__all__ = [
    "EmulationError",
    "FragmentResult",
    "GridResult",
    "InputError",
    "Inputs",
    "Machine",
    "StepRecord",
    "Texture",
    "Write",
    "color_register",
    "inputs_to_json",
    "parse_inputs",
    "run_fragment",
    "run_grid",
]
