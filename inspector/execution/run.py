"""A stepped run, whatever the format: the moves every debugger offers written once over
the few an adapter provides (`_advance`, `_retreat`, `current_instruction`, `finished`).

Instructions are named by their index in the document (the row key both instruction lists
and `SelectInstruction` use). A failure of the engine (an op it cannot execute) is caught
into `error`, a message: the run stops there, it never raises into the app.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

STEP_OVER = "step_over"
STEP_OUT = "step_out"
"""Optional capabilities (`SteppedRun.CAPABILITIES`): formats with calls step over and out."""

BREAKPOINT_MARK = "●"
CURRENT_MARK = "▶"
"""What an instruction list's gutter shows: a breakpoint, the instruction the next step runs."""


@dataclass(frozen=True, slots=True)
class ChangedValue:
    """One value a step wrote: its name as the format prints it (`$1.xy`, `^v0`, `%12`),
    the value before (None when it had none) and after."""

    name: str
    old: tuple | None
    new: tuple
    kind: str = ""
    """What it is, in the format's words (`register`, `pipeline`, `temporary`, `id`)."""
    unit: str = ""
    """The part of the instruction that wrote it, when the format has such parts."""


@dataclass(frozen=True, slots=True)
class StepChange:
    """What one step did: the instruction it executed, the values it wrote, a branch's
    condition and whether it was taken, how the run ended if it did."""

    instruction: int
    values: tuple[ChangedValue, ...] = ()
    branch: str | None = None
    """Why the branch went where it went (None when the instruction has no branch)."""
    taken: bool = False
    outcome: str | None = None
    """`stop`, `discard`, `return`… when this step ended the run."""

    def changed(self, name: str) -> ChangedValue | None:
        """The value named `name` this step wrote, if it did."""
        return next((value for value in self.values if value.name == name), None)


class SteppedRun(ABC):
    """One invocation (or fragment) under the user's control.

    Adapters implement `current_instruction`, `finished`, `_advance` and `_retreat`, and
    list the exceptions their engine raises for what it cannot execute in `ERRORS`; the
    moves below are the same for every format. `stop_reason` says why the last move
    stopped, in words for the status line.
    """

    CAPABILITIES: frozenset[str] = frozenset()
    ERRORS: tuple[type[Exception], ...] = ()
    STEP_LIMIT = 100_000
    """A run to somewhere gives up after this many steps (the engine's own limit may be lower)."""

    def __init__(self) -> None:
        self.breakpoints: set[int] = set()
        """Indices of instructions a run stops before (after at least one step)."""
        self.error: str | None = None
        """Why the engine stopped (an op it cannot execute); the run is over when set."""
        self.last: StepChange | None = None
        """What the last step changed (after `back`, the step now last)."""
        self.stop_reason: str = "ready"
        self.numbered_from = 0
        """The number the format's list and status line give the first instruction."""

    def named(self, index: int | None) -> str:
        """`instruction N` in the numbering the list and status line use."""
        return instruction_named(index, self.numbered_from)

    # -- what an adapter provides ---------------------------------------------------

    @property
    @abstractmethod
    def current_instruction(self) -> int | None:
        """The index of the instruction the next step executes; None once the run is over."""

    @property
    @abstractmethod
    def finished(self) -> bool:
        """True when the run has ended (stopped, discarded, returned)."""

    @property
    @abstractmethod
    def steps(self) -> int:
        """Steps taken so far."""

    @abstractmethod
    def _advance(self) -> StepChange | None:
        """Execute one instruction; None when there is nothing left to execute."""

    @abstractmethod
    def _retreat(self) -> tuple[bool, StepChange | None]:
        """Undo the last step: whether there was one, and the change of the step now last."""

    def _over(self) -> StepChange | None:
        """Step over a call (formats with STEP_OVER)."""
        raise NotImplementedError

    def _out(self) -> None:
        """Run until the current function returns (formats with STEP_OUT)."""
        raise NotImplementedError

    def ended_text(self) -> str:
        """How the run ended, for `stop_reason` (the format's words: `stopped`, `discarded`)."""
        return "ended"

    def after_move(self) -> None:
        """Work the next move would otherwise do on its key, done once the screen shows
        this one (the engine's copies of its state); nothing by default."""

    # -- the moves ------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True when no step can be taken (ended, or stopped by an error)."""
        return self.error is not None or self.finished

    def _guarded(self, move: Callable[[], object]) -> bool:
        """Run `move`, turning the engine's errors into `error`; True when it went well."""
        try:
            move()
        except self.ERRORS as failure:
            self.error = str(failure)
            self.stop_reason = f"cannot go on: {failure}"
            return False
        return True

    def _one(self) -> StepChange | None:
        change = self._advance()
        if change is not None:
            self.last = change
        return change

    def step(self) -> StepChange | None:
        """Execute one instruction; None when the run is over or the engine failed."""
        return self._single(self._one, lambda change: change and f"stepped {self.named(change.instruction)}")

    def step_over(self) -> StepChange | None:
        """Step, running a call to its return (a plain step where there are no calls)."""
        if STEP_OVER not in self.CAPABILITIES:
            return self.step()
        return self._single(self._over, lambda change: "stepped over")

    def _single(self, advance: Callable[[], StepChange | None], said: Callable[[StepChange | None], str | None]) -> StepChange | None:
        """One move of the engine (`advance`), guarded; `said` tells the stop reason of the
        move's change (None: the run is over)."""
        if self.over:
            self.stop_reason = self._over_text()
            return None
        change: StepChange | None = None

        def move() -> None:
            nonlocal change
            change = advance()
            if change is not None:
                self.last = change

        if self._guarded(move):
            reason = None if self.finished else said(change)
            self.stop_reason = self._over_text() if reason is None else reason
        return change

    def step_out(self) -> None:
        """Run until the current function returns (the end where there are no calls)."""
        if STEP_OUT not in self.CAPABILITIES:
            self.run_to_end()
            return
        if self.over:
            self.stop_reason = self._over_text()
            return
        if self._guarded(self._out):
            self.stop_reason = self._over_text() if self.finished else "stepped out"

    def back(self) -> bool:
        """Undo the last step (the state before it comes back); False at the start."""
        went = False

        def move() -> None:
            nonlocal went
            went, self.last = self._retreat()

        if self._guarded(move) and went:
            self.error = None
            self.stop_reason = "stepped back" if self.steps else "at the start"
        elif not went:
            self.stop_reason = "at the start: nothing to undo"
        return went

    def _run(self, stop: Callable[[StepChange], str | None]) -> None:
        """Step until `stop` gives a reason, a breakpoint is reached, or the run is over."""
        if self.over:
            self.stop_reason = self._over_text()
            return

        def move() -> None:
            for _ in range(self.STEP_LIMIT):
                change = self._one()
                if change is None or self.finished:
                    self.stop_reason = self._over_text()
                    return
                reason = stop(change)
                if reason is not None:
                    self.stop_reason = reason
                    return
                current = self.current_instruction
                if current in self.breakpoints:
                    self.stop_reason = f"breakpoint at {self.named(current)}"
                    return
            self.stop_reason = f"still running after {self.STEP_LIMIT} steps"

        self._guarded(move)

    def run_to_end(self) -> None:
        """Run to the end, or to the next breakpoint."""
        self._run(lambda change: None)

    def run_to(self, index: int) -> None:
        """Run until instruction `index` is the next to execute (or a breakpoint, or the end)."""
        self._run(lambda change: f"reached {self.named(index)}" if self.current_instruction == index else None)

    def run_to_taken_branch(self) -> None:
        """Run until a branch is taken (or a breakpoint, or the end)."""
        self._run(lambda change: f"branch taken at {self.named(change.instruction)}" if change.taken else None)

    def toggle_breakpoint(self, index: int) -> bool:
        """Set or clear a breakpoint before instruction `index`; True when it is now set."""
        return toggled(self.breakpoints, index)

    def _over_text(self) -> str:
        if self.error is not None:
            return f"cannot go on: {self.error}"
        return self.ended_text() if self.finished else self.stop_reason


def gutter_marks(run: SteppedRun | None, breakpoints: set[int]) -> dict[int, str]:
    """Instruction index -> the mark an instruction list's gutter shows for it."""
    marks = {index: BREAKPOINT_MARK for index in breakpoints}
    if run is not None and (current := run.current_instruction) is not None:
        marks[current] = CURRENT_MARK
    return marks


@dataclass
class Execution:
    """A screen's open run: `start` (the format's) makes a fresh run from the current
    settings (inputs, the chosen fragment or invocation), raising ValueError with a message
    when they cannot be used; breakpoints outlive restarts. Panes that change the settings
    call `restart`."""

    start: Callable[[], SteppedRun]
    breakpoints: set[int] = field(default_factory=set)
    run: SteppedRun | None = None
    error: str | None = None
    """Why a run could not even start (bad inputs, nothing to run)."""
    settings: Any = None
    """The format's settings `start` reads and its panes change (Lima: `LimaSettings`)."""
    numbered_from: int = 0
    """The number the format's list and status line give the first instruction (SPIR-V
    counts from 1 as the word detail does; Lima from 0 as Mesa's disassembler does)."""

    def open(self) -> SteppedRun | None:
        """The open run, started if there is none (None, with `error`, when it cannot start)."""
        if self.run is None:
            self.restart()
        return self.run

    def restart(self) -> SteppedRun | None:
        """A fresh run from the start, with the current settings and the breakpoints."""
        try:
            run = self.start()
        except ValueError as failure:
            self.run = None
            self.error = str(failure) or type(failure).__name__
            return None
        run.breakpoints = self.breakpoints
        run.numbered_from = self.numbered_from
        self.run = run
        self.error = None
        return run

    def close(self) -> None:
        """Forget the run (the breakpoints stay)."""
        self.run = None

    def toggle_breakpoint(self, index: int) -> bool:
        """Set or clear a breakpoint before instruction `index`; True when it is now set."""
        return toggled(self.breakpoints, index)

    def marks(self) -> dict[int, str]:
        """The gutter marks: breakpoints and the current instruction."""
        return gutter_marks(self.run, self.breakpoints)


def instruction_named(index: int | None, numbered_from: int) -> str:
    """`instruction N`, N counted from `numbered_from`."""
    return f"instruction {index + numbered_from}" if index is not None else "no instruction"


def toggled(breakpoints: set[int], index: int) -> bool:
    """Set or clear breakpoint `index` in `breakpoints`; True when it is now set."""
    if index in breakpoints:
        breakpoints.discard(index)
        return False
    breakpoints.add(index)
    return True
