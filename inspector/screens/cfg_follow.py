"""When the CFG pane follows the selection: a moment after the keys pause, and after an
edit's new binary once the edits pause."""

from __future__ import annotations

from collections.abc import Callable

from textual.dom import DOMNode
from textual.timer import Timer

CFG_FOLLOWS_AFTER = 0.12
"""Seconds after the last selection change that the CFG pane follows it: keys pressed
in quick succession (held, or a few a second) meet no CFG frame in between, which
would otherwise delay each by up to a frame (long ones on a big module)."""
CFG_AFTER_EDIT = 0.4
"""Seconds without a new binary before the CFG pane lays out the edited function."""


class CfgFollow:
    """One timer for both a new selection and a new module (an edit's binary), so neither
    cancels the other's follow. `follow(new_module)` does the following."""

    def __init__(self, owner: DOMNode, follow: Callable[[bool], None]) -> None:
        self._owner = owner
        self._follow = follow
        self._timer: Timer | None = None
        self._new_module = False

    def soon(self, delay: float = CFG_FOLLOWS_AFTER) -> None:
        """Follow the selection `delay` seconds after the last call."""
        if self._timer is None:
            self._timer = self._owner.set_timer(delay, self._run)
        else:
            self._timer.reset()

    def new_module(self) -> None:
        """Take a new module's graphs once the edits pause, then follow."""
        self._new_module = True
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        self.soon(CFG_AFTER_EDIT)

    def now(self) -> None:
        """Follow at once (the first layout)."""
        if self._timer is not None:
            self._timer.stop()
        self._run()

    def _run(self) -> None:
        self._timer = None
        new_module, self._new_module = self._new_module, False
        self._follow(new_module)
