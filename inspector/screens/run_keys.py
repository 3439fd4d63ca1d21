"""The stepping keys, bound once for every format: a screen binds `RUN_BINDINGS`, owns a
`RunController` and forwards the keys' actions to it; its format's document offers
`open_execution()` (a `spvinspect.execution.Execution`).

The keys work from any pane: screen bindings with priority, acted on as the key arrives
rather than once it has travelled from the focused pane up to the app (a step is one
message, not one per widget on the way). So they are keys no pane binds (function keys and
punctuation: a pane's own binding of the same key, remapped, would lose to them), and a
focused text field (the inputs pane's, the editor) still types them: Textual leaves a key
a text field consumes to the field. The first stepping key starts a run with the current
settings. After every move every widget with `show_run_marks(marks)` gets the gutter
marks (breakpoints, the current instruction), every widget with `run_changed(execution)`
(a `RunFollower`) is told, and the screen selects the current instruction
(`select_instruction`, what `SelectInstruction` asks for, so the list, hex and detail panes
follow).
"""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.timer import Timer

from spvinspect.execution import Execution
from spvinspect.execution.run import instruction_named
from spvinspect.messages import SelectInstruction

RUN_BINDINGS = [
    Binding("f11,full_stop", "run_step", "Step", show=False, priority=True, id="run.step", tooltip="Execute one instruction (starts a run)"),
    Binding("shift+f11,comma", "run_back", "Step back", show=False, priority=True, id="run.back", tooltip="Undo the last step: the state before it comes back"),
    Binding("f10,greater_than_sign", "run_over", "Step over", show=False, priority=True, id="run.over", tooltip="Step, a call running to its return (a plain step without calls)"),
    Binding("shift+f10,less_than_sign", "run_out", "Step out", show=False, priority=True, id="run.out", tooltip="Run until the current function returns (the end without calls)"),
    Binding("f5", "run_continue", "Run", show=False, priority=True, id="run.continue", tooltip="Run to the end or the next breakpoint"),
    Binding("f4", "run_to_cursor", "Run to cursor", show=False, priority=True, id="run.to_cursor", tooltip="Run until the selected instruction is next"),
    Binding("f6", "run_to_branch", "Run to branch", show=False, priority=True, id="run.to_branch", tooltip="Run until a branch is taken"),
    Binding("f9,asterisk", "run_breakpoint", "Breakpoint", show=False, priority=True, id="run.breakpoint", tooltip="Set or clear a breakpoint on the selected instruction"),
    Binding("shift+f5", "run_restart", "Restart", show=False, priority=True, id="run.restart", tooltip="Start the run again from the first instruction"),
]
"""The stepping keys, with ids for the keymap (`run.step`…)."""

AFTER_MOVE = 0.05
"""Seconds after a move that the run does the work its next move would otherwise do on
the key (the engine's copies of its state): past the move's frame, and keys pressed in
quick succession wait for none of it."""


def _carried(old: Any, new: Any) -> Any:
    """The settings a new document's run keeps from the old one's (inputs, fragment)."""
    carry = getattr(new, "carry_from", None)
    return carry(old) if carry is not None and old is not None else new


class RunFollower:
    """Mix into a widget that shows the open run: told after every step and restart."""

    def run_changed(self, execution: Execution) -> None:
        """The run moved, restarted or was opened (`execution.run` may be None, with
        `execution.error` saying why it could not start)."""


class RunController:
    """The screen's open run: which document it runs, the moves the stepping keys make,
    and telling the panes after each move. The screen forwards its `action_run_…` keys here
    and keeps `execution`, `restart_run` and `run_updated` for the panes."""

    def __init__(self, screen: Any) -> None:
        self._screen = screen
        self._execution: Execution | None = None
        self._executed: Any = None
        """The document `_execution` runs (an edit's new document gets a new one)."""
        self._told_error: str | None = None
        """The stop reason last told as an error notice (each is told once)."""
        self._after_move: Timer | None = None

    @property
    def execution(self) -> Execution | None:
        """The run controller of the screen's document (None when the format cannot be
        executed); a new one, keeping the breakpoints, when an edit replaced the document."""
        document = getattr(self._screen, "document", None)
        if self._execution is None or self._executed is not document:
            opener = getattr(document, "open_execution", None)
            old = self._execution
            self._execution = opener() if opener is not None else None
            self._executed = document
            if old is not None and self._execution is not None:
                self._execution.breakpoints = old.breakpoints
                self._execution.settings = _carried(old.settings, self._execution.settings)
        return self._execution

    def cursor(self) -> int | None:
        """The selected instruction (the list's cursor)."""
        selection = getattr(self._screen, "selection", None)
        return getattr(selection, "instruction", None)

    def _open_run(self) -> Any:
        execution = self.execution
        if execution is None:
            self._screen.notify("This format cannot be executed", severity="warning", timeout=3)
            return None
        started = execution.run is None
        run = execution.open()
        if run is None:
            self._screen.notify(f"Cannot run: {execution.error}", severity="error", timeout=6)
            self.updated(select=False)
        elif started:
            self._show_run_panes()
        return run

    def _show_run_panes(self) -> None:
        """A run started from a stepping key: its panes shown, or, where they cannot be
        (hidden by the user, a narrow screen), their keys named."""
        layout = getattr(self._screen, "pane_layout", None)
        untold = layout.show_run_panes() if layout is not None else []
        if untold:
            keys = ", ".join(f"{spec.key} the {spec.title.lower()}" for spec in untold if spec.key)
            if keys:
                self._screen.notify(f"Run started: {keys}", timeout=4)

    def _move(self, name: str, *args: Any) -> None:
        run = self._open_run()
        if run is None:
            return
        getattr(run, name)(*args)
        self.updated()

    def action_run_step(self) -> None:
        self._move("step")

    def action_run_back(self) -> None:
        self._move("back")

    def action_run_over(self) -> None:
        self._move("step_over")

    def action_run_out(self) -> None:
        self._move("step_out")

    def action_run_continue(self) -> None:
        self._move("run_to_end")

    def action_run_to_branch(self) -> None:
        self._move("run_to_taken_branch")

    def action_run_to_cursor(self) -> None:
        index = self.cursor()
        if index is None:
            self._screen.notify("Select an instruction to run to", timeout=3)
            return
        self._move("run_to", index)

    def action_run_breakpoint(self) -> None:
        execution, index = self.execution, self.cursor()
        if execution is None or index is None:
            return
        now_set = execution.toggle_breakpoint(index)
        self._screen.notify(f"Breakpoint {'set' if now_set else 'cleared'} on {instruction_named(index, execution.numbered_from)}", timeout=2)
        self.updated(select=False)

    def action_run_restart(self) -> None:
        execution = self.execution
        if execution is not None:
            execution.restart()
            self.updated()

    def _after_move_soon(self) -> None:
        """Have the run do what its next move would otherwise do on its key, `AFTER_MOVE`
        seconds after the last move (once this one is on screen)."""
        if self._after_move is None:
            self._after_move = self._screen.set_timer(AFTER_MOVE, self._after_move_now)
        else:
            self._after_move.reset()

    def _after_move_now(self) -> None:
        self._after_move = None
        run = self._execution.run if self._execution is not None else None
        if run is not None:
            run.after_move()

    def updated(self, select: bool = True) -> None:
        """Select the current instruction and tell the panes (after every move)."""
        execution = self.execution
        if execution is None:
            return
        screen = self._screen
        run = execution.run
        marks = execution.marks()
        for widget in screen.walk_children():
            if hasattr(widget, "show_run_marks"):
                widget.show_run_marks(marks)
            if isinstance(widget, RunFollower):
                widget.run_changed(execution)
        if select and run is not None and (index := _shown_instruction(run)) is not None:
            # At once, as the screen would on the message (which would wait its turn in
            # the screen's queue, after the key's own handling).
            selected = getattr(screen, "select_instruction", None)
            if selected is not None:
                selected(index, center=True)
            else:
                screen.post_message(SelectInstruction(index, center=True))
        if run is not None:
            self._after_move_soon()
        if run is not None and run.error is not None and run.stop_reason != self._told_error:
            self._told_error = run.stop_reason
            screen.notify(run.stop_reason, severity="error", timeout=6)


def _shown_instruction(run: Any) -> int | None:
    """The instruction the list shows for a run: the next to execute, or, once the run has
    ended, the one it ended on (the discard, the return)."""
    index = run.current_instruction
    if index is None and run.finished and run.last is not None:
        return run.last.instruction
    return index
