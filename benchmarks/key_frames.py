"""Key to frame in a running app (Textual headless): the time from a key's arrival to the
first and the last frame it caused, as wall and CPU time, with nothing of Pilot's in between.

The app's display hook (`App.post_display_hook`, called once a frame is composed) stamps
every frame. A key is stamped and sent as the terminal driver sends one (a `Key` event
posted to the app; Pilot's press would also post callbacks to every widget while the app
works, and be timed with it); once the app has settled (no frame for `SETTLED` seconds),
the key's times are its first and last frames' stamps less its own (a pane may follow
later on purpose: the SPIR-V CFG, a moment after the keys pause). The CPU time is this
process's to the first frame and to the last (the app runs on one thread; a worker thread would add to it).
"""

from __future__ import annotations

import asyncio
import statistics
import time
import unicodedata
from collections.abc import Callable
from typing import NamedTuple

from textual import events
from textual.keys import _get_unicode_name_from_key

SETTLED = 0.25
"""Seconds without a frame after which a key's work is over (past the SPIR-V CFG's
follow, 0.12 s after the last selection)."""
FRAME_WAIT = 10.0
"""Seconds a key that changes something may take to its first frame on a loaded machine."""
BUDGET_MS = 16.0
"""Issues #22 and #26: a step from the key to the updated panes."""


class KeyTime(NamedTuple):
    """One key: wall and CPU seconds to its first frame, wall seconds to its last (a pane
    may follow later on purpose, as the SPIR-V CFG does), how many frames it caused, and
    CPU seconds to its last frame (the work that followed later counted in)."""

    wall: float
    cpu: float
    last: float
    frames: int
    cpu_last: float = 0.0


class FrameClock:
    """Stamps the frames of `app` (install before the app runs)."""

    def __init__(self, app) -> None:
        self.frames: list[tuple[float, float]] = []
        self._painted_event = asyncio.Event()
        app.post_display_hook = self._painted

    def _painted(self) -> None:
        self.frames.append((time.perf_counter(), time.process_time()))
        self._painted_event.set()

    async def _next_frame(self, timeout: float) -> bool:
        """Wait for a frame without waking before it (a poll would add its own CPU time to
        the key's); False when none came within `timeout` seconds."""
        self._painted_event.clear()
        try:
            await asyncio.wait_for(self._painted_event.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def settle(self) -> None:
        """Wait until no frame came for `SETTLED` seconds."""
        while True:
            count = len(self.frames)
            await asyncio.sleep(SETTLED)
            if len(self.frames) == count:
                return

    async def press(self, pilot, key: str, done: Callable[[], bool] | None = None, redraws: bool = True) -> KeyTime:
        """Press `key` (a Textual key name: `full_stop`, `n`, `f11`), wait for `done()` (when
        given), for its first frame (unless it `redraws` nothing) and for the app to
        settle; the times to its frames (0 frames: nothing was redrawn, the time is 0)."""
        await self.settle()
        app = pilot.app
        before = len(self.frames)
        wall, cpu = time.perf_counter(), time.process_time()
        event = events.Key(key, _character(key))
        event.set_sender(app)
        app.post_message(event)
        deadline = time.perf_counter() + FRAME_WAIT
        while redraws and len(self.frames) == before and time.perf_counter() < deadline:
            await self._next_frame(deadline - time.perf_counter())
        while done is not None and not done():
            await asyncio.sleep(0.001)
        await self.settle()
        if len(self.frames) == before:
            return KeyTime(0.0, 0.0, 0.0, 0)
        first_wall, first_cpu = self.frames[before]
        last_wall, last_cpu = self.frames[-1]
        return KeyTime(first_wall - wall, first_cpu - cpu, last_wall - wall, len(self.frames) - before, last_cpu - cpu)


def _character(key: str) -> str | None:
    """The character a key types, as Pilot works it out (None for function keys)."""
    try:
        return unicodedata.lookup(_get_unicode_name_from_key(key))
    except KeyError:
        return key if len(key) == 1 else None


def summary(label: str, times: list[KeyTime]) -> str:
    """`label  median … p95 … cpu … (budget 16 ms) · last frame … cpu … frames …` in
    milliseconds: to the key's first frame, then to its last one."""
    walls = sorted(t.wall for t in times)
    p95 = walls[min(len(walls) - 1, round(0.95 * (len(walls) - 1)))]
    cpu = statistics.median(t.cpu for t in times)
    frames = statistics.mean(t.frames for t in times)
    last = statistics.median(t.last for t in times)
    cpu_last = statistics.median(t.cpu_last for t in times)
    return (
        f"  {label:<32} median {statistics.median(walls) * 1e3:6.1f} ms  p95 {p95 * 1e3:6.1f} ms  "
        f"cpu {cpu * 1e3:5.1f} ms (budget {BUDGET_MS:.0f} ms) · last frame {last * 1e3:6.1f} ms, cpu {cpu_last * 1e3:5.1f} ms, "
        f"frames {frames:.1f}"
    )
