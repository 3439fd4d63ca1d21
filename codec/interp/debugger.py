"""Stepping one invocation of a group, for a values pane or `run --trace`: step, step
over a call, step out, back (restoring a saved state of the group and replaying the few
steps after it), run to an instruction or to the end, stopping at breakpoints. Each step
gives a `StepRecord`."""

from __future__ import annotations

import copy

import numpy as np

from spvinspect.codec.interp.group import STEP_LIMIT, Group, Launch
from spvinspect.codec.interp.invocation import BLOCKED, RUNNING, Invocation, StepRecord
from spvinspect.codec.interp.shader import Ins, Shader


class Debugger:
    """One invocation of an entry point under the user's control; the rest of its group
    (the quad, the workgroup) runs along as far as the stepped invocation needs."""

    def __init__(self, shader: Shader, entry: str | None = None, inputs: dict | None = None,
                 launch: Launch | None = None) -> None:
        self.shader = shader
        self.entry = shader.entry_point(entry)
        self.inputs = inputs or {}
        self.launch = launch or Launch()
        self.breakpoints: set[int] = set()
        """Word offsets of instructions to stop before."""
        self.history: list[StepRecord] = []
        self.group = Group(shader, self.entry, self.inputs, self.launch)
        self.saved: dict[int, Group] = {}
        """Steps taken → a copy of the group as it was then, every `interval` steps."""
        self.interval = SAVE_INTERVAL
        self._shared = _unchanging(shader, self.entry, self.inputs)
        self._spare: tuple[int, Group] | None = None
        """(steps taken, a copy of `saved` at that step made ahead by `prepare`), for `back`."""

    @property
    def invocation(self) -> Invocation:
        return self.group.invocations[self.group.focus]

    @property
    def current(self) -> Ins | None:
        """The instruction the next step executes (None once the invocation is over)."""
        return self.invocation.current

    @property
    def finished(self) -> bool:
        return self.invocation.status not in (RUNNING, BLOCKED)

    @property
    def depth(self) -> int:
        return len(self.invocation.frames)

    def live_values(self) -> dict[int, object]:
        """The ids the current function has defined so far, with their values."""
        inv = self.invocation
        return dict(inv.frames[-1].ids) if inv.frames else {}

    def step(self) -> StepRecord | None:
        """Execute the invocation's next instruction; its record, or None when over."""
        taken = len(self.history)
        if taken % self.interval == 0 and taken not in self.saved:
            self._save(taken)
        inv = self.invocation
        inv.recording = True
        with np.errstate(all="ignore"):
            while inv.status in (RUNNING, BLOCKED):
                if inv.status == RUNNING:
                    rec = inv.step()
                    if inv.status != BLOCKED:
                        self.group.advance(skip=inv)
                        if rec is not None:
                            self.history.append(rec)
                        return rec
                # Blocked: the others run up to the same point, then the group answers.
                while self.group.steps < STEP_LIMIT and self.group.advance(skip=inv):
                    pass
                if not self.group.resolve():
                    return None
        return None

    def step_over(self) -> StepRecord | None:
        """Step; a call runs to its return."""
        depth = self.depth
        rec = self.step()
        while not self.finished and self.depth > depth and not self._at_breakpoint():
            self.step()
        return rec

    def step_out(self) -> None:
        """Run until the current function returns."""
        depth = self.depth
        while not self.finished and self.depth >= depth:
            self.step()
            if self._at_breakpoint():
                return

    def run_to(self, offset: int | None = None, limit: int = STEP_LIMIT) -> None:
        """Run until the next instruction is at word `offset` (None: to the end), or a
        breakpoint, or the end; then the rest of the group runs on only if finished."""
        for _ in range(limit):
            if self.finished:
                break
            self.step()
            cur = self.current
            if cur is not None and (cur.offset == offset or cur.offset in self.breakpoints):
                return
        if self.finished:
            self.group.run()

    def run(self) -> None:
        self.run_to(None)

    def back(self) -> StepRecord | None:
        """Undo the last step: the group as saved at or before the step before is
        restored and the steps after it are taken again. Returns the record of the step
        now last, if any."""
        target = len(self.history) - 1
        if target < 0:
            return None
        start = max((k for k in self.saved if k <= target), default=None)
        for k in [k for k in self.saved if k > target]:
            del self.saved[k]
        spare, self._spare = self._spare, None
        if start is None:
            self.group = Group(self.shader, self.entry, self.inputs, self.launch)
            start = 0
        elif spare is not None and spare[0] == start:
            self.group = spare[1]
        else:
            self.group = self._copy(self.saved[start])
        del self.history[start:]
        while len(self.history) < target and not self.finished:
            self.step()
        return self.history[-1] if self.history else None

    def prepare(self, going_back: bool = False) -> None:
        """The copies the next move would make, made now (for a moment the user waits for
        nothing, after the screen shows this one): the state at this step when the next
        step is due to save it, and when `going_back`, a copy of the saved state the next
        `back` restores."""
        taken = len(self.history)
        if taken % self.interval == 0 and taken not in self.saved and not self.finished:
            self._save(taken)
        if not going_back or not taken:
            return
        start = max((k for k in self.saved if k <= taken - 1), default=None)
        if start is not None and (self._spare is None or self._spare[0] != start):
            self._spare = (start, self._copy(self.saved[start]))

    def _save(self, taken: int) -> None:
        if len(self.saved) >= MAX_SAVED:
            # Keep every other saved state and save half as often: memory stays bounded
            # on long runs, and back replays at most `interval` steps.
            self.interval *= 2
            self.saved = {k: g for k, g in self.saved.items() if k % self.interval == 0}
            if taken % self.interval:
                return
        self.saved[taken] = self._copy(self.group)

    def _copy(self, group: Group) -> Group:
        """A deep copy of the group's state; the module and what never changes are shared."""
        return copy.deepcopy(group, dict(self._shared))

    def _at_breakpoint(self) -> bool:
        cur = self.current
        return cur is not None and cur.offset in self.breakpoints


SAVE_INTERVAL = 8
"""Steps between saved states of the group at first (`back` replays fewer than this: a
copy of a quad costs about as much as eight steps, and one step in eight takes it)."""
MAX_SAVED = 256
"""Saved states kept before they are thinned out."""


def _unchanging(shader: Shader, entry, inputs: dict) -> dict[int, object]:
    """A deepcopy memo that keeps the module's parts (types, functions, instructions),
    the entry point and the inputs shared between a group and its copies."""
    keep: list[object] = [shader, entry, inputs, shader.module, shader.grammar]
    keep += shader.types.values()
    keep += shader.functions.values()
    keep += shader.instructions
    keep += shader.variables.values()
    return {id(x): x for x in keep}
