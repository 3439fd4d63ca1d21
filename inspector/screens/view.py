"""The format's side of the one screen: a container of the format's panes that shows the
screen's selection in them and turns the panes' intents into selections."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget

from spvinspect.selection import Selection
from spvinspect.widgets.kept_lines import KeptLines


class Column(KeptLines, Vertical):
    """A column of panes (drawn again only when it changed: the panes cover it)."""


class FormatView(KeptLines, Horizontal):
    """What the screen asks of a format's view. The screen owns the selection, history,
    panes and editing; the view owns its widgets and how a selection shows in them."""

    SCREEN_BINDINGS: ClassVar[list[Binding]] = []
    """The screen's keys over this format, in footer order; their actions are the
    screen's own (back, zoom, edit…) or the view's."""

    COLUMN_IDS: ClassVar[tuple[str, str]]
    """Ids of the "main" and the "side" column, which the format's stylesheet lays out."""

    def __init__(self, document: Any, *, at: int | None = None, raw: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.document = document
        self._at = at

    def compose(self) -> ComposeResult:
        """The screen's panes that start shown in two columns, "main" then "side" (ids from
        `COLUMN_IDS`); the others are built into them when first shown."""
        built = self.screen.pane_layout.built_panes
        main_id, side_id = self.COLUMN_IDS
        with Column(id=main_id) as main:
            yield from built("main", main)
        with Column(id=side_id) as side:
            yield from built("side", side)

    def overlays(self) -> Iterable[Widget]:
        """Widgets the screen lays over the panes (a search bar)."""
        return ()

    def first_selection(self) -> Selection | None:
        """The first selection, once the panes are mounted (`at`: a word of the file)."""
        raise NotImplementedError

    def started(self) -> None:
        """The first selection is shown: focus, and start background work."""

    def show(self, selection: Selection, center: bool) -> None:
        """Show the screen's new selection in every pane (`center`: a jump)."""
        raise NotImplementedError

    def selection_of_row(self, row: int, operand: int | None = None) -> Selection | None:
        """The selection of a row of the instruction list (None: no such row)."""
        raise NotImplementedError

    def selection_of_instruction(self, index: int, operand: int | None = None) -> Selection | None:
        """The selection of instruction `index` (None: no such instruction)."""
        raise NotImplementedError

    def selection_of_word(self, word: int) -> Selection | None:
        """The selection of a word of the file (None: nothing to select there)."""
        raise NotImplementedError

    def select(self, selection: Selection, jump: bool = False) -> None:
        """Ask the screen for a new selection."""
        self.screen.select(selection, jump)

    def can_show(self, name: str) -> bool:
        """Whether pane `name` has anything to show (else say why not)."""
        return True

    def places(self) -> list[tuple[str, Callable[[], None]]]:
        """Places to jump to from the palette."""
        return []

    def search(self, text: str) -> None:
        """Search for `text` (formats with a search bar)."""

    def copy_choices(self) -> Any:
        """What ctrl+c offers for the selection (None: nothing to copy)."""
        return None

    # -- editing --------------------------------------------------------------------

    def new_edit_session(self, document: Any) -> Any:
        """The session `e` opens over `document` (on a worker thread): the document's own."""
        return document.open_edit_session()

    def before_edit(self, editing: Any) -> None:
        """Just before `e` opens the editor (`editing`: the screen's EditingController)."""

    def editor_line(self, session: Any) -> int:
        """The whole text's line of the selection, for the editor's cursor."""
        raise NotImplementedError

    def editor_selection(self, session: Any, line: int) -> Selection | None:
        """The selection for the editor's line."""
        raise NotImplementedError

    def show_document(self, document: Any) -> None:
        """Put an edit's document into the panes."""
        raise NotImplementedError

    def after_edit(self, session: Any, line: int | None, kept: Selection | None) -> Selection | None:
        """The selection once an edit's document is shown: the editor's line, or `kept`."""
        raise NotImplementedError

    def pause_background(self, paused: bool) -> None:
        """Keep the format's background work resting while `paused` (the editor opening)."""

    def build_index(self) -> None:
        """(Re)build what the format indexes in the background (nothing by default)."""
