"""Pacing for pure-Python work on worker threads, and for costly repaints, so that keys
never wait for them.

Such work holds the GIL: a key's handling and the frame after it would get it back only
every few milliseconds, doubling their time. A paced worker calls its `Pace` between
small steps; the pace has it sleep briefly after each slice of work (the UI runs at
once), and altogether while the user is at the keys, and tells it when it is cancelled.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from spvinspect.responsive import last_input

WORK_SLICE = 0.012
"""Seconds a worker works before resting …"""
REST = 0.004
"""… and seconds it rests, so keys and repaints never wait long for the GIL …"""
QUIET_AFTER_INPUT = 0.3
"""… and it waits while the user typed or clicked less than this many seconds ago."""


class Pace:
    """Call between steps (a few milliseconds each): True to go on, False once the work
    is cancelled. `last_input` gives the `time.monotonic()` of the user's last key or
    click; `cancelled` whether the work is still wanted."""

    def __init__(self, last_input: Callable[[], float], cancelled: Callable[[], bool]) -> None:
        self._last_input = last_input
        self._cancelled = cancelled
        self._rested = time.perf_counter()

    def __call__(self) -> bool:
        if self._cancelled():
            return False
        if time.perf_counter() - self._rested > WORK_SLICE or self._user_active():
            time.sleep(REST)
            while self._user_active() and not self._cancelled():
                time.sleep(REST)
            self._rested = time.perf_counter()
        return not self._cancelled()

    def _user_active(self) -> bool:
        return user_active(self._last_input())


def user_active(last_input: float) -> bool:
    """True while the user's last key or click (`time.monotonic()`) is less than
    `QUIET_AFTER_INPUT` ago."""
    return time.monotonic() - last_input < QUIET_AFTER_INPUT


class WhenIdle:
    """`callback`, run on `node`'s message loop (a Textual widget or screen) once the
    user is not at the keys: at once if they are not, else when they pause; asked again
    while it waits, it still runs once. For changes that re-lay out the whole screen,
    which keys in quick succession would otherwise wait for."""

    def __init__(self, node: Any, callback: Callable[[], None]) -> None:
        self._node = node
        self._callback = callback
        self._waiting = False

    def __call__(self) -> None:
        if not self._waiting:
            self._waiting = True
            self._run()

    def _run(self) -> None:
        if self.user_at_the_keys():
            self._node.set_timer(QUIET_AFTER_INPUT, self._run)
        else:
            self._waiting = False
            self._callback()

    def user_at_the_keys(self) -> bool:
        """Whether the user typed or clicked a moment ago (then the change waits)."""
        return user_active(last_input(self._node.app))
