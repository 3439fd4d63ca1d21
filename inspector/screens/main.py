"""The main screen: owns the selection and the jump history; panes post intents, the
screen decides, and every pane follows the new selection.

Layout: the header pane in a side column, the instruction list beside it with the
diagnostics under it; the hex and CFG panes of later steps go into `#panes` as further
columns. Below 100 columns the side column folds away and each pane is one key away
(zoomed to the whole screen).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import var
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.worker import get_current_worker

from inspector.document import Document
from inspector.module_index import Use
from inspector.layouts import PlainLayout
from inspector.messages import GoToDefinition, IndexProgress, ListUses, SelectInstruction, SelectRow, SelectWord
from inspector.search import SearchSession
from inspector.selection import JumpHistory, Selection
from inspector.screens.uses import UsesScreen
from inspector.widgets.diagnostics_panel import DiagnosticsPanel
from inspector.widgets.header_pane import HeaderPane
from inspector.widgets.instruction_list import InstructionList
from inspector.widgets.search_bar import SearchBar
from inspector.widgets.status_line import StatusLine

WORK_SLICE = 0.012
"""Seconds the index worker works before resting …"""
REST = 0.004
"""… and seconds it rests, so keys and repaints never wait long for the GIL …"""
QUIET_AFTER_INPUT = 0.3
"""… and it waits while the user typed or clicked less than this many seconds ago."""
PROGRESS_EVERY = 0.25
"""Seconds between two progress reports of the index worker."""
READING_AIDS_LIMIT = 150_000
"""Instructions up to which the reading aids are offered: they decode the whole module at
once and keep every instruction (a few hundred bytes each)."""
NARROW_BELOW = 100
"""Terminal width under which the side column folds away."""
PANES = {"header": "#header", "list": "#list", "diagnostics": "#diagnostics"}
"""Pane names for `--pane`, the number keys and the palette, and their widgets."""


class MainScreen(Screen):
    """The inspector: header, instruction list and diagnostics over one document."""

    BINDINGS = [
        Binding(
            "slash",
            "search",
            "Search",
            id="main.search",
            tooltip="Search: opcode, %id or name, literal, text",
            priority=True,  # acted on before the next key is routed, so a typed burst lands in the bar
        ),
        Binding("n", "search_step(1)", "Next match", show=False, id="main.search_next", tooltip="The next match of the last search"),
        Binding("N", "search_step(-1)", "Previous match", show=False, id="main.search_previous", tooltip="The previous match of the last search"),
        Binding("ctrl+o,alt+left", "back", "Back", id="main.back", tooltip="Back to where the last jump left"),
        Binding("ctrl+n,alt+right", "forward", "Forward", show=False, id="main.forward", tooltip="Forward again after going back"),
        Binding("r", "toggle_raw", "Raw ids", id="main.raw", tooltip="Raw id numbers or friendly names"),
        Binding(
            "a",
            "toggle_reading_aids",
            "Reading aids",
            show=False,
            id="main.reading_aids",
            tooltip="Section comments, decorations beside definitions, blocks nested in structured order (spirv-dis --comment --nested-indent --reorder-blocks)",
        ),
        Binding("z", "zoom", "Zoom", id="main.zoom", tooltip="Zoom the focused pane to the whole screen, or back"),
        Binding("x", "hide_pane", "Hide pane", show=False, id="main.hide", tooltip="Hide the focused pane (its number key shows it again)"),
        Binding("1", "pane('header')", "Header", show=False, id="main.pane_header", tooltip="Show and focus the header pane"),
        Binding("2", "pane('list')", "List", show=False, id="main.pane_list", tooltip="Show and focus the instruction list"),
        Binding("3", "pane('diagnostics')", "Diagnostics", show=False, id="main.pane_diagnostics", tooltip="Show and focus the diagnostics"),
    ]
    ALLOW_IN_MAXIMIZED_VIEW = "Footer, StatusLine, SearchBar"
    AUTO_FOCUS = "#list"

    selection: var[Selection | None] = var(None, always_update=True)
    """The word every pane follows."""
    raw: var[bool] = var(False)
    """Raw id numbers instead of friendly names, in every pane."""

    def __init__(self, document: Document, *, at: int | None = None, pane: str | None = None, raw: bool = False) -> None:
        super().__init__()
        self.document = document
        self.history = JumpHistory()
        self._at = at
        self._pane = pane
        self.set_reactive(MainScreen.raw, raw)
        self.search = SearchSession()
        """The last search and its matches."""
        self._pending: Callable[[], None] | None = None
        """A request (search, uses, definition) waiting for the index."""
        self._center = False

    def compose(self) -> ComposeResult:
        document = self.document
        with Horizontal(id="panes"):
            with Vertical(id="side"):
                yield HeaderPane(document, id="header")
            with Vertical(id="main"):
                instruction_list = InstructionList(document, id="list")
                instruction_list.raw = self.raw
                instruction_list.border_title = f"Instructions · {document.name}"
                yield instruction_list
                yield DiagnosticsPanel(id="diagnostics")
        yield SearchBar(id="search")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(SearchBar).display = False
        self._show_diagnostics()
        start = self.document.select_word(self._at) if self._at is not None else self.document.select_row(0)
        self._center = True
        self.selection = start
        self.query_one(InstructionList).focus()
        if self._pane is not None:
            self.action_pane(self._pane)
            self.maximize(self.query_one(PANES[self._pane], Widget), container=False)
        # After the first paint: the worker would otherwise compete with it for the GIL.
        self.call_after_refresh(self._build_index)

    def on_resize(self) -> None:
        self.set_class(self.size.width < NARROW_BELOW, "-narrow")

    # -- the selection ----------------------------------------------------------

    def select(self, selection: Selection, jump: bool = False) -> None:
        """Make `selection` current; a jump remembers the place it leaves and centres."""
        if jump and self.selection is not None and selection != self.selection:
            self.history.record(self.selection)
        self._center = jump
        self.selection = selection

    def watch_selection(self, selection: Selection | None) -> None:
        if selection is None:
            return
        self.query_one(InstructionList).show(selection, center=self._center)
        self._center = False
        self._update_status()

    @on(SelectRow)
    def _select_row(self, message: SelectRow) -> None:
        message.stop()
        self.select(self.document.select_row(message.row, message.operand), message.jump)

    @on(SelectInstruction)
    def _select_instruction(self, message: SelectInstruction) -> None:
        message.stop()
        if 0 <= message.index < self.document.instruction_count:
            self.select(self.document.select_instruction(message.index, message.operand), message.jump)

    @on(SelectWord)
    def _select_word(self, message: SelectWord) -> None:
        message.stop()
        self.select(self.document.select_word(message.word), message.jump)

    @on(DiagnosticsPanel.Chosen)
    def _diagnostic_chosen(self, message: DiagnosticsPanel.Chosen) -> None:
        message.stop()
        self.select(self.document.select_word(message.word), jump=True)
        self._focus_list()

    def _update_status(self) -> None:
        status = self.query_one(StatusLine)
        selection = self.selection
        document = self.document
        if selection is None:
            return
        rows = document.row_count
        place = f"{selection.byte_offset:#010x} w{selection.word}"
        if selection.row is not None:
            place += f"  row {selection.row + 1:,}/{rows:,}"
        else:
            place += "  header"
        status.place = place
        status.detail = self._operand_text(selection)
        status.mode = ("raw ids" if self.raw else "friendly names") + (" · reading aids" if document.layout.aided else "")
        instruction_list = self.query_one(InstructionList)
        function = document.function_name(selection.row, self.raw) if selection.row is not None else None
        instruction_list.border_subtitle = f"in {function}" if function else ""

    def _operand_text(self, selection: Selection) -> str:
        described = self.search.describe(selection.row)
        if described:
            return described
        if selection.instruction is None or selection.operand is None:
            return ""
        operand = self.document.module.instruction(selection.instruction).operands[selection.operand]
        shown = self.document.operand_text(selection.row, selection.operand, self.raw) if selection.row is not None else ""
        label = f"'{operand.name}' " if operand.name else ""
        return f"{label}{operand.kind} {shown}"

    def places(self) -> list[tuple[str, Callable[[], None]]]:
        """Entry points and functions, each with a callback that jumps there."""
        return [(label, self._jumper(row)) for label, row in self.document.places()]

    def _jumper(self, row: int) -> Callable[[], None]:
        return lambda: self.select(self.document.select_row(row), jump=True)

    # -- panes ----------------------------------------------------------------

    def action_pane(self, name: str) -> None:
        """Show and focus a pane; below 100 columns it fills the screen."""
        widget = self.query_one(PANES[name], Widget)
        if name == "diagnostics" and not self.document.diagnostics:
            self.notify("No diagnostics: the module decodes cleanly", timeout=3)
            return
        widget.display = True
        widget.parent.set_class(False, "-emptied")  # type: ignore[union-attr]
        widget.focus()
        if self.has_class("-narrow") and name != "list":
            self.maximize(widget, container=False)
        elif self.maximized is not None and self.maximized is not widget:
            self.minimize()

    def action_zoom(self) -> None:
        """Zoom the focused pane to the whole screen, or restore the layout."""
        if self.maximized is not None:
            self.minimize()
        elif self.focused is not None:
            self.maximize(self.focused, container=False)

    def action_hide_pane(self) -> None:
        """Hide the focused pane (not the last one shown); its number key brings it back."""
        focused = self.focused
        if focused is None or focused.id not in {p[1:] for p in PANES.values()}:
            return
        if focused.id == "list":
            self.notify("The instruction list stays; zoom (z) another pane instead.")
            return
        focused.display = False
        column = focused.parent
        if isinstance(column, Widget) and not any(child.display for child in column.children):
            column.add_class("-emptied")  # an empty column would keep its width
        self._focus_list()

    def _focus_list(self) -> None:
        if self.maximized is not None and self.maximized.id != "list":
            self.minimize()
        self.query_one(InstructionList).focus()

    def _show_diagnostics(self) -> None:
        diagnostics = self.document.diagnostics
        panel = self.query_one(DiagnosticsPanel)
        panel.show_diagnostics(diagnostics)
        panel.set_class(not diagnostics, "-empty")
        rows = set()
        for diagnostic in diagnostics:
            if diagnostic.word_offset is not None:
                row = self.document.select_word(diagnostic.word_offset).row
                if row is not None:
                    rows.add(row)
        self.query_one(InstructionList).diagnostic_rows = frozenset(rows)

    # -- naming ---------------------------------------------------------------

    def action_toggle_raw(self) -> None:
        """Switch between raw id numbers and friendly names."""
        self.raw = not self.raw

    def watch_raw(self, raw: bool) -> None:
        if not self.is_mounted:
            return
        if self.document.layout.aided:
            # The reading aids' rows hold names: lay them out again in the new naming.
            self._show_layout(None)
            self._build_reading_aids(raw)
        self.query_one(InstructionList).raw = raw
        self._update_status()
        if self.search.query is not None:
            self.search.start(self.document.parse_query(self.search.query.text, raw))
        self._build_index()

    # -- reading aids ----------------------------------------------------------------

    def action_toggle_reading_aids(self) -> None:
        """Switch between the plain disassembly and spirv-dis's reading aids."""
        if self.document.layout.aided:
            self._show_layout(None)
        elif self.document.instruction_count > READING_AIDS_LIMIT:
            self.notify(
                f"Reading aids lay out the whole module at once: offered up to {READING_AIDS_LIMIT:,} instructions",
                severity="warning",
            )
        else:
            self._build_reading_aids(self.raw)

    @work(thread=True, exclusive=True, group="reading-aids")
    def _build_reading_aids(self, raw: bool) -> None:
        layout = self.document.reading_aids_layout(raw)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show_layout, layout)

    def _show_layout(self, layout: PlainLayout | None) -> None:
        """Show the rows of `layout` (None: plain), keeping the selected word."""
        kept = self.selection
        self.document.use_layout(layout)
        self.search.forget_matches()
        self.query_one(InstructionList).rows_changed()
        self._show_diagnostics()
        if kept is not None:
            if kept.instruction is not None:
                self.selection = self.document.select_instruction(kept.instruction, kept.operand)
            else:
                self.selection = self.document.select_word(kept.word)

    # -- the whole-module index (a thread worker, in batches) ---------------------

    @work(thread=True, exclusive=True, group="index")
    def _build_index(self) -> None:
        """Index the whole module in time-boxed batches: pure-Python work holds the GIL, so
        after each slice of work the thread sleeps briefly and the UI runs at once, and
        while keys are coming it pauses altogether."""
        worker = get_current_worker()
        reported = rested = time.perf_counter()
        for fraction in self.document.index_steps(self.raw):
            if worker.is_cancelled:
                return
            now = time.perf_counter()
            if now - reported > PROGRESS_EVERY:
                self.post_message(IndexProgress(fraction))
                reported = now
            if now - rested > WORK_SLICE:
                time.sleep(REST)
                # The user is at the keys: keep out of the way until they pause.
                while time.monotonic() - getattr(self.app, "last_input", 0.0) < QUIET_AFTER_INPUT and not worker.is_cancelled:
                    time.sleep(REST)
                rested = time.perf_counter()
        self.post_message(IndexProgress(1.0))

    @on(IndexProgress)
    def _index_progress(self, message: IndexProgress) -> None:
        header = self.query_one(HeaderPane)
        status = self.query_one(StatusLine)
        done = self.document.search_index(self.raw) is not None
        if not done:
            header.progress = message.fraction
            status.busy = f"indexing {message.fraction:.0%}"
            return
        header.progress = None
        status.busy = ""
        self._show_diagnostics()
        self.query_one(InstructionList).refresh()
        header.refresh()
        pending, self._pending = self._pending, None
        if pending is not None:
            pending()

    def _when_indexed(self, request: Callable[[], None], what: str) -> None:
        """Run `request` now if the index is ready, else as soon as it is."""
        if self.document.search_index(self.raw) is not None:
            request()
        else:
            self._pending = request
            self.notify(f"{what} as soon as the index is built…", timeout=3)

    # -- definitions and uses ---------------------------------------------------

    def _id_under_selection(self) -> int | None:
        """The id under the operand cursor; on the opcode, the first id operand it reads."""
        selection = self.selection
        if selection is None or selection.instruction is None:
            return None
        document = self.document
        if selection.operand is not None:
            return document.operand_id(selection.instruction, selection.operand)
        operands = document.module.instruction(selection.instruction).operands
        for kinds in (("IdRef",), ("IdResultType",)):
            for operand in operands:
                if operand.kind in kinds:
                    return int(operand.value)
        return None

    @on(GoToDefinition)
    def _go_to_definition(self, message: GoToDefinition) -> None:
        message.stop()
        id_ = self._id_under_selection()
        if id_ is None:
            self.notify("No id under the cursor: move onto one with ← →", severity="warning")
            return
        index = self.document.definition(id_, near=self.selection.instruction if self.selection else None)
        if index is not None:
            self._jump_to_definition(id_, index)
        elif self.document.ids_defined is None:
            self._when_indexed(lambda: self._definition_after_index(id_), "Going to the definition")
        else:
            self.notify(f"%{self.document.names(self.raw).name(id_)} is not defined in this module", severity="warning")

    def _definition_after_index(self, id_: int) -> None:
        index = self.document.definition(id_)
        if index is None:
            self.notify(f"%{self.document.names(self.raw).name(id_)} is not defined in this module", severity="warning")
        else:
            self._jump_to_definition(id_, index)

    def _jump_to_definition(self, id_: int, index: int) -> None:
        operands = self.document.module.instruction(index).operands
        result = next((k for k, o in enumerate(operands) if o.kind == "IdResult" and o.value == id_), None)
        self.select(self.document.select_instruction(index, result), jump=True)

    @on(ListUses)
    def _list_uses(self, message: ListUses) -> None:
        message.stop()
        id_ = self._id_under_selection()
        if id_ is None:
            self.notify("No id under the cursor: move onto one with ← →", severity="warning")
            return
        self._when_indexed(lambda: self._show_uses(id_), "Listing the uses")

    def _show_uses(self, id_: int) -> None:
        document = self.document
        name = document.names(self.raw).name(id_)
        index = document.search_index(self.raw)
        total = len(index.uses(name)) if index is not None else 0
        uses = document.uses(id_, self.raw) or []
        offsets = [document.row_word(use.row) * 4 for use in uses]
        title = f"Uses of %{name} ({total:,})"

        def chosen(use: Use | None) -> None:
            if use is not None:
                self.select(document.select_row(use.row, use.operand), jump=True)

        self.app.push_screen(UsesScreen(title, uses, offsets, total - len(uses)), chosen)

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

    # -- search -----------------------------------------------------------------

    def action_search(self) -> None:
        """Open the search bar."""
        self.query_one(SearchBar).open()

    @on(SearchBar.Search)
    def _search(self, message: SearchBar.Search) -> None:
        message.stop()
        self._focus_list()
        text = message.text
        query = self.document.parse_query(text, self.raw)
        if query is not None and not self.document.needs_index(query):
            self._start_search(text)
        else:
            self._when_indexed(lambda: self._start_search(text), f"Searching for {text.strip()}")

    def _start_search(self, text: str) -> None:
        """Understand the query (friendly names are known once indexed) and go to the
        first match after the cursor."""
        self.search.start(self.document.parse_query(text, self.raw))
        self._run_search(1)

    @on(SearchBar.Closed)
    def _search_closed(self, message: SearchBar.Closed) -> None:
        message.stop()
        self._focus_list()

    def _run_search(self, step: int) -> None:
        """Go to the next or previous match, searching first if the matches are not known."""
        search = self.search
        if search.query is None:
            return
        if search.matches is None:
            search.found(self.document.search(search.query, self.raw) or [])
        target = search.step(self.selection.row if self.selection else None, step)
        if target is None:
            self.notify(f"No match for {search.query.text}", severity="warning")
        else:
            self.select(self.document.select_row(target), jump=True)

    def action_search_step(self, step: int) -> None:
        """Go to the next (1) or previous (-1) match of the last search."""
        query = self.search.query
        if query is None:
            self.action_search()
        elif self.search.matches is not None or not self.document.needs_index(query):
            self._run_search(step)
        else:
            self._when_indexed(lambda: self._run_search(step), f"Searching for {query.text}")
