"""Opening a file again after it changed on disk: the same kind of document over its new
bytes, or why it cannot be (gone, unreadable, no longer a SPIR-V module). Textual-free."""

from __future__ import annotations

from pathlib import Path


def reopened(document, path: Path):
    """(the new document, None), or (None, what went wrong in words): the document's
    format says whether the new bytes are still one of its kind (`Format.reopened`)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return None, f"Not reloaded: {path}: {error.strerror or error}"
    return document.reopened(data, path)
