"""Saving an edit: never losing the user's work, never writing a binary that failed to assemble.

Every write goes through `SavedFile.write` (`inspector.editing.opened_file`): atomic,
`FILE.bak` of what it replaces, and a question (`NeedsAnswer`) before writing over a
file that changed on disk since it was opened or last saved, or over another existing
file ("save as"). Failures raise `SaveError`, whose text says what went wrong in words
(read-only file, missing directory, full disk) and that the edit is still in memory;
nothing here touches the session's text. Lima's own saving is `lima_saving`.
"""

from __future__ import annotations

from pathlib import Path

from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.editing.opened_file import (  # noqa: F401 - the names saving's callers use
    KEPT, ChangedOnDisk, FileStamp, NeedsAnswer, SavedFile, SaveError, WouldReplace, describe, same_path,
)
from spvinspect.editing.session import EditSession


class NotAssembled(SaveError):
    """The text does not assemble, so there is no binary to write."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        first = diagnostics[0]
        more = f" (and {len(diagnostics) - 1} more)" if len(diagnostics) > 1 else ""
        super().__init__(
            f"not saved: the text does not assemble: {first.location}: {first.message}{more}; "
            f"fix it first, or save the text as assembly"
        )
        self.diagnostics = diagnostics


def binary_to_save(session: EditSession) -> bytes:
    """The binary of the session's newest text; NotAssembled when it does not assemble.
    Assembles here when the newest text has not been assembled yet."""
    binary, diagnostics = session.assemble_now()
    if binary is None:
        raise NotAssembled([session.numbered(d) for d in diagnostics])
    return binary


def save_binary(session: EditSession, file: SavedFile, path=None, *, overwrite: bool = False) -> Path:
    """Save the binary (over the opened file, or to `path`: "save as")."""
    written = file.write(binary_to_save(session), path, overwrite=overwrite)
    if path is None or same_path(Path(path), file.path):
        session.mark_saved()
    return written


def save_assembly(session, file: SavedFile, path, *, overwrite: bool = False) -> Path:
    """Save the text itself (`.spvasm`), errors and all (strings' bytes that are not
    UTF-8 written back as they were)."""
    return file.write(session.whole_text().encode("utf-8", "surrogateescape"), path, overwrite=overwrite)


def describe_failure(error: BaseException) -> str:
    """An unexpected failure while saving (a bug), in words that keep the edit."""
    return f"not saved: {type(error).__name__}: {error} (a bug in spvinspect, please report it); {KEPT}"
