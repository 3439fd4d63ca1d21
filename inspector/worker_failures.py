"""A failure in a background worker is a message, never an exit.

Textual ends the app when a worker raises (`WorkerFailed`); the app hands such a failure
here instead and shows what this says. Workers are named by their group, which says
what the user was waiting for."""

from __future__ import annotations

from textual.worker import WorkerFailed, get_current_worker

WHAT_FAILED = {
    "edit-open": "Opening the editor",
    "index": "Indexing the module (search, uses and the complete diagnostics)",
    "reading-aids": "Building the reading aids",
    "cfg-layout": "Laying out the CFG",
}
"""What a worker of each group was doing, in the user's words."""


def failure_text(failure: WorkerFailed) -> str:
    """The notice for a worker that raised: what failed, the error, and that the app goes on."""
    try:
        group = get_current_worker().group
    except Exception:  # noqa: BLE001 - outside a worker's context: say it generically
        group = ""
    what = WHAT_FAILED.get(group, "Background work")
    error = failure.error
    return f"{what} failed: {type(error).__name__}: {error}. The app goes on; nothing was saved or lost."
