"""A long step of a job that a newer edit stops: the whole text's assembly of a big
module, which a keystroke must not wait behind.

`stoppable(step, stale)` runs `step()` on the calling thread while a watcher asks
`stale()` every `POLL_SECONDS`; once it says a newer text has come, `Stopped` is raised
in the calling thread at its next Python instruction (CPython's asynchronous exception,
`PyThreadState_SetAsyncExc`), and `stoppable` raises it. Only a step that changes no
state shared with other threads may be stopped so (a whole assembly builds its own
tables); steps that fill shared caches check `stale()` between their parts instead.
"""

from __future__ import annotations

import ctypes
import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

POLL_SECONDS = 0.05
"""How often the watcher asks whether the step is stale."""


class Stopped(Exception):
    """A newer edit made the step's result useless; it was stopped."""


def _raise_in(thread_id: int, error: type[BaseException] | None) -> None:
    """Make `error` raise in thread `thread_id` at its next instruction (None: clear one pending)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread_id), ctypes.py_object(error) if error else None)


def stoppable(step: Callable[[], T], stale: Callable[[], bool]) -> T:
    """`step()`'s result, or `Stopped` raised once `stale()` is true (checked first, then
    while it runs)."""
    if stale():
        raise Stopped
    thread_id = threading.get_ident()
    lock = threading.Lock()
    live = [True]
    done = threading.Event()

    def watch() -> None:
        while not done.wait(POLL_SECONDS):
            if stale():
                with lock:
                    if live[0]:
                        _raise_in(thread_id, Stopped)
                return

    watcher = threading.Thread(target=watch, name="spvinspect-stop-watch", daemon=True)
    watcher.start()
    try:
        return step()
    finally:
        done.set()
        with lock:  # no exception is raised in this thread after this
            live[0] = False
            _raise_in(thread_id, None)
