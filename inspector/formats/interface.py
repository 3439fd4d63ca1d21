"""The format interface: what a document offers the app, whatever binary it holds.

Textual-free. `Document` (SPIR-V) and `LimaDocument` (Mali-200/400 PP) implement it; the
app and the editing screen use only these members, so a new format plugs in by
implementing them and listing its panes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from spvinspect.formats.panes import PaneSpec


@runtime_checkable
class Format(Protocol):
    """An opened binary, as every screen and pane sees it."""

    data: bytes
    """The bytes as opened (or as an edit assembled them)."""
    PANES: Sequence[PaneSpec]
    """The panes the format shows: `--pane`, the number keys, the help and the palette."""
    VIEW: str
    """`module:Class` of the view that lays out those panes on the one screen
    (`spvinspect.screens.view.FormatView`), imported only when a document of the format opens."""
    SAVE_KINDS: str
    """What save-as writes, by the name given (for the save-as dialog)."""

    @property
    def name(self) -> str:
        """The name the panes show (the file's, as given)."""

    @property
    def file_path(self) -> Path | None:
        """The opened file, when there is one (saving goes over it)."""

    @property
    def row_count(self) -> int:
        """Rows of the instruction list."""

    def open_edit_session(self) -> Any:
        """An edit session over this document's text (`spvinspect.editing`), generic over
        the format's assembler; on a worker thread (the whole text's first assembly)."""

    def compared_with(self, file: tuple[bytes, str], names: tuple[str, str] | None = None) -> Any:
        """How to compare a file of this format (its bytes and name) with this document:
        a function building the comparison on a worker (`formats.compare_files.comparing`)."""

    def editor_language(self) -> Any:
        """The editor's `spvinspect.editing.language.EditorLanguage`: its lexer and line fix."""

    def save_edit(self, session: Any, file: Any, path: Path | None = None, *, overwrite: bool = False) -> Path:
        """Save an edit's binary over the opened file (`file`), or to `path` (save as);
        returns where it went (`spvinspect.editing.saving` does the writing)."""

    def reopened(self, data: bytes, path: Path) -> tuple[Format | None, str | None]:
        """A document of this format over the file's new bytes (a reload), or why not."""

    def changed_cells(self, changed: Any) -> Any:
        """The hex pane's cells of an edit's changed words (`editing.changes.ChangedWords`)."""

    def edited(self, session: Any, outcome: Any) -> Format | None:
        """The document of an edit's good binary (None while the text does not
        assemble); on the job thread."""
