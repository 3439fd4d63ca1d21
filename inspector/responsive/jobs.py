"""One long-lived thread that runs the editor's re-assembly jobs, one after another.

A thread worker of Textual's starts a thread per job and reports its states through the
message queue, which costs tens of milliseconds a keystroke on a busy machine; the
editor's jobs come several a second, so they go to this one thread instead. Once the
jobs submitted are done, the free memory they left is given back to the system
(`memory.trim`: a job on a big module frees buffers of megabytes). Textual-free.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable

from spvinspect.responsive import memory


class JobThread:
    """Runs submitted callables in order on one daemon thread, started on first use."""

    def __init__(self, name: str, failed: Callable[[BaseException], None]) -> None:
        self.name = name
        self._failed = failed
        """Called (on the thread) with what a job raised; the thread goes on."""
        self._queue: queue.SimpleQueue[Callable[[], None] | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def submit(self, job: Callable[[], None]) -> None:
        """Run `job` after the jobs submitted before it."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
            self._thread.start()
        self._queue.put(job)

    def stop(self) -> None:
        """Let the thread end once the jobs already submitted are done."""
        if self._thread is not None:
            self._queue.put(None)
            self._thread = None

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            try:
                job()
            except Exception as error:  # noqa: BLE001 - reported, and the next job still runs
                self._failed(error)
            # Let go of the job done before waiting for the next: it holds what it was
            # given (an edit's states and module, tens of MB on a large module).
            job = None
            if self._queue.empty():
                memory.trim()
