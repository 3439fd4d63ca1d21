"""Opening a file again after it changed on disk: the same kind of document over its new
bytes, or why it cannot be (gone, unreadable, no longer a SPIR-V module). Textual-free."""

from __future__ import annotations

from pathlib import Path


def reopened(document, path: Path):
    """(the new document, None), or (None, what went wrong in words)."""
    from spvinspect.document import Document, looks_like_spirv

    try:
        data = path.read_bytes()
    except OSError as error:
        return None, f"Not reloaded: {path}: {error.strerror or error}"
    if isinstance(document, Document):
        if not looks_like_spirv(data):
            return None, f"Not reloaded: {path} is no longer a SPIR-V module (its first word is not the magic number)"
        return Document(data, path), None
    return type(document)(data, document.name), None
