"""Keeping keys answered at once: the one home of input recency, pacing of background
work (`pacing`), idle-time garbage collection (`collector`), the editor's job thread
(`jobs`) and the frame rate. Textual-free, so `launch` can set the frame rate before
Textual is imported."""

from __future__ import annotations

from typing import Any

FRAMES_PER_SECOND = "120"
"""Textual's frame rate (`TEXTUAL_FPS`, unless the user set it): a frame that follows a
long one waits for the next tick but one of its timer, so a faster tick shortens that
wait."""
IDLE_AFTER = 1.0
"""Seconds without a key or click after which the user counts as idle: full garbage
collections wait for that (`collector`)."""
FULL_COLLECTION_PAUSES = 4
"""How many times `IDLE_AFTER` the user must pause before the full collection that walks
the frozen objects too (`collector.collect_all`, the longest one: over an open large
module and its editor, a few hundred milliseconds under load); the freeze due after an
edit, which walks only what is not frozen, needs just `IDLE_AFTER`. A typist's pause
between words is shorter, so the long collection rarely meets the next key."""


def last_input(app: Any) -> float:
    """`time.monotonic()` of the last key or click the app saw (0 before any): the app
    notes it as each input event arrives; workers read it to keep out of the keys' way."""
    return getattr(app, "last_input", 0.0)
