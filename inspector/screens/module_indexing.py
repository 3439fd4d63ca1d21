"""The whole-module index of a SPIR-V module, built by a thread worker while the user reads.

Complete diagnostics, the definition of every id and the search text need every
instruction decoded, which on a big module takes long, so the screen paints first
and a worker builds them in paced steps. Requests that need the index (search, uses, a
definition not yet known) wait for it and run as soon as it is there.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from textual.worker import get_current_worker

from spvinspect.codec.text.region import REGION_FROM_BYTES
from spvinspect.messages import IndexProgress
from spvinspect.responsive import last_input
from spvinspect.responsive.collector import keep_out, let_in
from spvinspect.responsive.pacing import Pace

PROGRESS_EVERY = 0.25
"""Seconds between two progress reports of the index worker."""
QUIET_START_INSTRUCTIONS = 100_000
"""Modules with more instructions than this are indexed only once the keys pause after
the first paint (smaller ones take a fraction of a second: at once)."""


class ModuleIndexing:
    """The index worker of a view over a SPIR-V document (its `document`, `raw`, and
    `index_advanced` / `index_complete` to show progress), and a request waiting for it."""

    def __init__(self, view: Any) -> None:
        self._view = view
        self._pending: Callable[[], None] | None = None
        """A request (search, uses, definition) waiting for the index."""
        self._paused = False
        """The screen asked the worker to rest (`pause`)."""
        self._resumed_at = 0.0
        """When the last pause ended (`time.monotonic()`): quiet time counts from it."""

    @property
    def document(self) -> Any:
        """The view's document (an edit replaces it)."""
        return self._view.document

    def build(self) -> None:
        """(Re)start the index worker for the current naming."""
        # What is there by now (the opened module, the first screen) lives as long as the
        # screen: out of the cyclic collector's full collections (long pauses on a large
        # module, which fell on the first keys) until the screen goes.
        keep_out((self, "index"))
        self._view.run_worker(self._index_worker, thread=True, exclusive=True, group="index")

    def pause(self, paused: bool) -> None:
        """Keep the worker resting, as while keys are pressed, until `pause(False)` (and
        a pause after it): the screen's answer to a key that takes longer than a frame
        (the editor opening) then has the GIL to itself."""
        self._paused = paused
        if not paused:
            self._resumed_at = time.monotonic()

    def _quiet_since(self, started: float) -> float:
        """The moment the worker counts quiet time from (see `Pace`): now while paused."""
        if self._paused:
            return time.monotonic()
        return max(started, self._resumed_at, last_input(self._view.app))

    def stop(self) -> None:
        """The view goes: what the index built may be collected again."""
        let_in((self, "index"))

    def drop(self) -> None:
        """The view shows another document (an edit's): a worker still indexing the one
        before stops, or it would hold that document and its half-built index (a module's
        worth of search text) until done, for nothing. The new one is indexed when the
        editor closes."""
        self._view.workers.cancel_group(self._view, "index")

    def _index_worker(self) -> None:
        """Index the whole module, paced (see `spvinspect.responsive.pacing`): checked
        after every step, so a key waits for one step, not for a slice."""
        worker = get_current_worker()
        # On a big module the worker starts as if a key had just been pressed: it waits
        # for a pause after the first paint, where a key pressed at once would otherwise
        # wait for the worker's first steps (names, a chunk's decoding).
        started = time.monotonic() if self.document.instruction_count > QUIET_START_INSTRUCTIONS else 0.0
        pace = Pace(lambda: self._quiet_since(started), lambda: worker.is_cancelled)
        reported = time.perf_counter()
        for step, fraction in enumerate(self.document.index_steps(self._view.raw)):
            if not pace():
                return
            if step == 0:
                self._preload_editing()
            now = time.perf_counter()
            if now - reported > PROGRESS_EVERY:
                # What the index built since: out of the collector too (its full
                # collections over it were pauses on keys while indexing).
                keep_out((self, "index"))
                self._view.post_message(IndexProgress(fraction))
                reported = now
        keep_out((self, "index"))
        self._view.post_message(IndexProgress(1.0))

    def _preload_editing(self) -> None:
        """Import the region editor's modules (a second of imports) while the user reads a
        big module, rather than after `e` (the module is edited a region at a time)."""
        if len(self.document.data) >= REGION_FROM_BYTES:
            import spvinspect.editing.region_assembler  # noqa: F401

    def progress(self, message: IndexProgress) -> None:
        """The worker's report: show how far it is, and once done run what waited."""
        if self.document.search_index(self._view.raw) is None:
            self._view.index_advanced(message.fraction)
            return
        self._view.index_advanced(None)
        self._view.index_complete()
        pending, self._pending = self._pending, None
        if pending is not None:
            pending()

    def when_indexed(self, request: Callable[[], None], what: str) -> None:
        """Run `request` now if the index is ready, else as soon as it is."""
        if self.document.search_index(self._view.raw) is not None:
            request()
        else:
            self._pending = request
            self._view.notify(f"{what} as soon as the index is built…", timeout=3)
