"""Waiting in Pilot tests on what the app does, never on how long it takes: a loaded machine
makes a test slower, never wrong."""

from __future__ import annotations

import time

from textual.command import CommandList, CommandPalette
from textual.widgets import Input
from textual.worker import WorkerState

PATIENCE = 60.0
"""Seconds a wait gives up after: only a condition that never comes true reaches it."""


async def until(pilot, condition, what: str, patience: float = PATIENCE) -> None:
    """Let the app run until `condition()` holds; fail, naming `what`, if it never does."""
    deadline = time.monotonic() + patience
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await pilot.pause(0.02)


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
