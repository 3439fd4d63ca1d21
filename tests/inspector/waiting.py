"""Waiting in Pilot tests on what the app does, never on how long it takes: a loaded machine
makes a test slower, never wrong."""

from __future__ import annotations

import asyncio
import time

from textual.command import CommandList, CommandPalette
from textual.timer import Timer
from textual.widgets import Input
from textual.widgets._toast import Toast
from textual.worker import WorkerState

PATIENCE = 60.0
"""Seconds a wait gives up after: only a condition that never comes true reaches it."""
POLL = 0.02
"""Seconds between two looks at a condition."""


async def until(pilot, condition, what: str, patience: float = PATIENCE) -> None:
    """Let the app run until `condition()` holds; fail, naming `what`, if it never does.
    The app runs while the test sleeps: a look costs only the condition (`pilot.pause`
    would first have every widget handle its queued messages, ~2 ms each time)."""
    deadline = time.monotonic() + patience
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(POLL)


def pending_timers(app) -> list[Timer]:
    """The one-shot timers the app and its widgets have set that have not fired yet: work
    the app has put off to a moment later (the CFG pane's follow, a fold once the keys
    pause, a debounce). A notice's own timer (its toast leaving) is not work put off."""
    return [timer for node in (app, *app._registry) if not isinstance(node, Toast)
            for timer in list(node._timers)
            if timer._repeat == 0 and timer._task is not None and not timer._task.done()]


def quiet(app) -> bool:
    """No worker is pending or running and no work is put off (`pending_timers`)."""
    busy = (WorkerState.PENDING, WorkerState.RUNNING)
    return not any(worker.state in busy for worker in app.workers) and not pending_timers(app)


async def until_quiet(pilot) -> None:
    """Let the app run until it has done everything the keys so far asked for, the work it
    put off included: `quiet` before and after every queued message is handled (a timer
    that has fired may have queued a call that sets the next one)."""
    while True:
        await until(pilot, lambda: quiet(pilot.app), "the app doing all it put off")
        await pilot.pause()
        if quiet(pilot.app):
            return


def palette_searched(app, typed: str) -> bool:
    """The command palette is on top, holds `typed`, and has finished searching for it (its
    gathering worker is done), so its list shows every hit and the first one highlighted."""
    palette = app.screen
    if not isinstance(palette, CommandPalette) or palette.query_one(Input).value != typed:
        return False
    searching = (WorkerState.PENDING, WorkerState.RUNNING)
    if any(worker.group == CommandPalette._GATHER_COMMANDS_GROUP and worker.state in searching
           for worker in app.workers):
        return False
    return palette.has_class("-ready") and palette.query_one(CommandList).option_count > 0


async def search_palette(pilot, typed: str) -> None:
    """Type `typed` into the open command palette and wait until it has found its hits."""
    await pilot.press(*typed)
    searched = lambda: palette_searched(pilot.app, typed)  # noqa: E731
    while True:
        await until(pilot, searched, f"the palette's hits for {typed!r}")
        await pilot.pause()  # a search the last key started but has not begun is begun now
        if searched():
            return
