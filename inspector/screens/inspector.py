"""The one screen for every format: it owns the selection, the jump history, the pane
layout and editing; what differs by format sits in the view it holds.

The view (`spvinspect.screens.view.FormatView`, named by the document's `VIEW`) is the
panes' container: it lays out the format's widgets, turns their intents into selections
and shows each selection in them. The screen's keys are the view's (`SCREEN_BINDINGS`),
and so are the actions the screen does not have itself.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import BindingsMap
from textual.reactive import var
from textual.screen import Screen

from spvinspect.messages import SelectInstruction, SelectRow, SelectWord
from spvinspect.screens.editing import EditingController
from spvinspect.screens.panes import HORIZONTAL_BREAKPOINTS, PaneLayout, width_class
from spvinspect.screens.run_keys import RUN_BINDINGS, RunController
from spvinspect.selection import JumpHistory, Selection
from spvinspect.widgets.kept_lines import KeptLines
from spvinspect.widgets.key_footer import KeyFooter
from spvinspect.widgets.search_bar import SearchBar
from spvinspect.widgets.status_line import StatusLine


class InspectorScreen(KeptLines, Screen):
    """The panes of one document, the selection they follow, editing, and the stepping
    keys (`RunController`: a format whose document opens no execution says so)."""

    BINDINGS = RUN_BINDINGS

    ALLOW_IN_MAXIMIZED_VIEW = "Footer, StatusLine, SearchBar"
    AUTO_FOCUS = "#list"
    HORIZONTAL_BREAKPOINTS = HORIZONTAL_BREAKPOINTS

    selection: var[Selection | None] = var(None, always_update=True)
    """The place every pane follows (a word, and the row, instruction and operand holding it)."""

    def __init__(self, document: Any, *, at: int | None = None, pane: str | None = None, raw: bool = False) -> None:
        module, _, name = document.VIEW.partition(":")  # imported only now: one format's code loads
        view_class = getattr(import_module(module), name)
        super().__init__()
        # The width class of the terminal's size now, not at the first resize: styled and
        # laid out once for the screen's width (the class came after the first layout,
        # which then styled every node again and, below 100 columns, laid out other panes).
        self.add_class(width_class(self.app.size.width), update=False)
        self.document = document
        self.history: JumpHistory[Selection] = JumpHistory()
        self.pane_layout = PaneLayout(self, document.PANES, self._can_show)
        self.editing = EditingController(self)
        self.running = RunController(self)
        """The stepped run and the stepping keys' actions."""
        self.view = view_class(document, at=at, raw=raw)
        """The format's side of the screen: its panes and how a selection shows in them."""
        self._pane = pane
        self._resumed = False
        """Whether the screen has been resumed (shown) before."""
        self._center = False
        """Centre the list on the next selection (a jump)."""
        self._bindings = _merged(self._bindings, view_class.SCREEN_BINDINGS)

    def compose(self) -> ComposeResult:
        yield self.view
        yield from self.view.overlays()
        yield StatusLine(id="status")
        yield KeyFooter()

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        # The first time, every node was styled as it mounted, in the theme and width
        # class the screen starts in: Textual would style them all again.
        if not self._resumed:
            self._resumed = True
            event.refresh_styles = False

    def on_mount(self) -> None:
        first = self.view.first_selection()
        if first is not None:
            self._center = True
            self.selection = first
        self.view.started()
        if self._pane is not None:
            self.zoom_pane(self._pane)
        self.editing.mount()

    def on_unmount(self) -> None:
        self.editing.unmount()

    def __getattr__(self, name: str) -> Any:
        # The stepping keys run the run controller's `action_run_…` methods, and the keys
        # of the view's SCREEN_BINDINGS the view's own `action_…` methods.
        if name.startswith("action_"):
            for owner in (self.__dict__.get("running"), self.__dict__.get("view")):
                if owner is not None and hasattr(owner, name):
                    return getattr(owner, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    # -- the stepped run --------------------------------------------------------------

    @property
    def execution(self) -> Any:
        """The run of the document (`spvinspect.execution.Execution`; None for a format
        that cannot be executed)."""
        return self.running.execution

    def restart_run(self) -> None:
        """A pane changed the run's settings (inputs, the fragment): start again."""
        self.running.action_run_restart()

    def run_updated(self, select: bool = True) -> None:
        """Select the current instruction and tell the panes (after every move)."""
        self.running.updated(select)

    # -- the selection ------------------------------------------------------------

    def select(self, selection: Selection, jump: bool = False, center: bool = False) -> None:
        """Make `selection` current; a jump remembers the place it leaves and centres;
        `center` alone centres (when off screen) without remembering."""
        if jump and self.selection is not None and selection != self.selection:
            self.history.record(self.selection)
        self._center = jump or center
        self.selection = selection

    def watch_selection(self, selection: Selection | None) -> None:
        if selection is None:
            return
        center, self._center = self._center, False
        self.view.show(selection, center)
        self.pane_layout.follow(selection)

    @on(SelectRow)
    def _select_row(self, message: SelectRow) -> None:
        message.stop()
        self._select_from(self.view.selection_of_row(message.row, message.operand), message.jump)

    @on(SelectInstruction)
    def _select_instruction(self, message: SelectInstruction) -> None:
        message.stop()
        self.select_instruction(message.index, message.operand, message.jump, message.center)

    def select_instruction(self, index: int, operand: int | None = None, jump: bool = False, center: bool = False) -> None:
        """Select instruction `index` now (what `SelectInstruction` asks for)."""
        self._select_from(self.view.selection_of_instruction(index, operand), jump, center)

    @on(SelectWord)
    def _select_word(self, message: SelectWord) -> None:
        message.stop()
        self._select_from(self.view.selection_of_word(message.word), message.jump)

    def _select_from(self, selection: Selection | None, jump: bool, center: bool = False) -> None:
        if selection is not None:
            self.select(selection, jump, center)

    def action_back(self) -> None:
        """Go back to where the last jump left."""
        if self.selection is not None:
            previous = self.history.back(self.selection)
            if previous is not None:
                self._center = True
                self.selection = previous

    def action_forward(self) -> None:
        """Go forward again after going back."""
        if self.selection is not None:
            following = self.history.forward(self.selection)
            if following is not None:
                self._center = True
                self.selection = following

    @property
    def raw(self) -> bool:
        """Raw id numbers instead of friendly names, for panes that show ids (the view's
        naming; False for a format without ids)."""
        return bool(getattr(self.view, "raw", False))

    def copy_choices(self) -> Any:
        """What ctrl+c offers for the selection (the view's)."""
        return self.view.copy_choices()

    def places(self) -> list:
        """Places of the document to jump to (entry points, functions), each with a
        callback that jumps there."""
        return self.view.places()

    # -- panes ----------------------------------------------------------------------

    def _can_show(self, name: str) -> bool:
        return self.view.can_show(name)

    def pane(self, name: str):
        """The widget of pane `name`."""
        return self.pane_layout.pane(name)

    def show_pane(self, name: str):
        """Show and focus a pane; on a narrow screen it fills the screen (a pane shown for
        the first time is built: what this returns, when not None, awaits its mounting)."""
        return self.pane_layout.show(name)

    async def action_pane(self, name: str) -> None:
        """`show_pane`, the key done once a pane built now is mounted."""
        mounting = self.show_pane(name)
        if mounting is not None:
            await mounting

    def zoom_pane(self, name: str) -> None:
        """Focus pane `name` and zoom it to the whole screen (`--pane`)."""
        self.pane_layout.zoom(name)

    def action_zoom(self) -> None:
        """Zoom the focused pane to the whole screen, or restore the layout."""
        self.pane_layout.toggle_zoom()

    def action_hide_pane(self) -> None:
        """Hide the focused pane (never the home pane); its number key brings it back."""
        self.pane_layout.hide_focused()

    def focus_home(self) -> None:
        """Give the focus back to the home pane."""
        self.pane_layout.focus_home()

    # -- editing ----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if self.editing.typed_in_editor(action):
            return False
        return super().check_action(action, parameters)

    def action_edit(self) -> None:
        """Open the editor over the document's text (in the view's choice of syntax)."""
        self.view.before_edit(self.editing)
        self.editing.action_edit()

    def action_save(self) -> None:
        """Save the edit over the opened file."""
        self.editing.action_save()

    def action_save_as(self) -> None:
        """Save the edit elsewhere."""
        self.editing.action_save_as()

    def action_reload(self) -> None:
        """Open the file again as it is on disk now."""
        self.editing.action_reload()

    def action_compare_saved(self) -> None:
        """The module as edited beside the file on disk (and its .bak)."""
        self.editing.action_compare_saved()

    def ask_before_quit(self) -> bool:
        """With unsaved changes, ask whether to quit; True when asking."""
        return self.editing.ask_before_quit()

    def show_edited_document(self, document: Any) -> None:
        """Put an edit's (or a reload's) document into every pane, on the editor's line
        (or on the same place)."""
        self.document = document
        self.view.show_document(document)
        self.pane_layout.document_changed(document)
        line = self.editing.editor_cursor_line()
        session = self.editing.edit_session
        selection = self.view.after_edit(session, line, self.selection)
        if selection is not None:
            self.selection = selection

    def on_asm_editor_closed(self, message) -> None:
        message.stop()
        self.editing.closed(message)

    def on_asm_editor_cursor_line_changed(self, message) -> None:
        message.stop()
        self.editing.cursor_line_changed(message)

    def on_asm_editor_text_edited(self, message) -> None:
        message.stop()
        self.editing.text_edited(message)

    def on_editor_messages_chosen(self, message) -> None:
        message.stop()
        self.editing.message_chosen(message)

    # -- search, where the format has it ------------------------------------------

    def on_search_bar_search(self, message) -> None:
        message.stop()
        self.focus_home()
        self.view.search(message.text)

    @on(SearchBar.Changed, "SearchBar")
    def _search_typed(self, message: SearchBar.Changed) -> None:
        """Say under the bar, as a query is typed, what it will be matched as."""
        message.stop()
        query = self.document.parse_query(message.value, self.raw)
        self.query_one(StatusLine).detail = query.finds if query is not None else ""

    def on_search_bar_closed(self, message) -> None:
        message.stop()
        self.focus_home()


def _merged(own: BindingsMap, bindings: list) -> BindingsMap:
    """The screen's bindings with the view's after them (a key the view binds is the view's)."""
    keys = dict(own.key_to_bindings)
    keys.update(BindingsMap(bindings).key_to_bindings)
    return BindingsMap.from_keys(keys)
