"""Execution, shared by every format (Textual-free): a stepped run of one invocation or
fragment (`SteppedRun`: step, back, run to the end, to an instruction, to the next taken
branch, breakpoints, what the last step changed) and the screen's open run (`Execution`),
which a format's panes configure (inputs, the chosen fragment) and restart."""

from spvinspect.execution.run import (
    STEP_OUT,
    STEP_OVER,
    ChangedValue,
    Execution,
    StepChange,
    SteppedRun,
    gutter_marks,
)

__all__ = [
    "STEP_OUT",
    "STEP_OVER",
    "ChangedValue",
    "Execution",
    "StepChange",
    "SteppedRun",
    "gutter_marks",
]
