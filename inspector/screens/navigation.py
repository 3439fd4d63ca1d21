"""Going places in the module: the definition of the id under the cursor, its uses,
search, and back and forward through the jump history."""

from __future__ import annotations

from textual import on
from textual.binding import Binding

from spvinspect.messages import GoToDefinition, ListUses
from spvinspect.module_index import Use
from spvinspect.screens.indexing import IndexedScreen
from spvinspect.screens.uses import UsesScreen
from spvinspect.search import SearchSession
from spvinspect.selection import JumpHistory, Selection
from spvinspect.widgets.search_bar import SearchBar
from spvinspect.widgets.status_line import StatusLine


class NavigationScreen(IndexedScreen):
    """Definitions, uses, search and the jump history over the screen's selection."""

    BINDINGS = [
        Binding(
            "slash",
            "search",
            "Search",
            id="main.search",
            tooltip="Search: opcode, %id or name, 0x word, decimal value (literal or enum), literal, text",
            priority=True,  # acted on before the next key is routed, so a typed burst lands in the bar
        ),
        Binding("n", "search_step(1)", "Next match", show=False, id="main.search_next", tooltip="The next match of the last search"),
        Binding("N", "search_step(-1)", "Previous match", show=False, id="main.search_previous", tooltip="The previous match of the last search"),
        Binding("ctrl+o,alt+left", "back", "Back", id="main.back", tooltip="Back to where the last jump left"),
        Binding("ctrl+n,alt+right", "forward", "Forward", show=False, id="main.forward", tooltip="Forward again after going back"),
    ]

    selection: Selection | None

    def __init__(self) -> None:
        super().__init__()
        self.history = JumpHistory()
        self.search = SearchSession()
        """The last search and its matches."""
        self._center = False
        """Centre the list on the next selection (a jump)."""

    def select(self, selection: Selection, jump: bool = False) -> None:
        """Make `selection` current; a jump remembers the place it leaves and centres."""
        if jump and self.selection is not None and selection != self.selection:
            self.history.record(self.selection)
        self._center = jump
        self.selection = selection

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
            self.when_indexed(lambda: self._definition_after_index(id_), "Going to the definition")
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
        self.when_indexed(lambda: self._show_uses(id_), "Listing the uses")

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
        self.focus_home()
        text = message.text
        query = self.document.parse_query(text, self.raw)
        if query is not None and not self.document.needs_index(query):
            self._start_search(text)
        else:
            self.when_indexed(lambda: self._start_search(text), f"Searching for {text.strip()}")

    def _start_search(self, text: str) -> None:
        """Understand the query (friendly names are known once indexed) and go to the
        first match after the cursor."""
        self.search.start(self.document.parse_query(text, self.raw))
        self._run_search(1)

    @on(SearchBar.Changed)
    def _search_typed(self, message: SearchBar.Changed) -> None:
        """Say under the bar, as a query is typed, what it will be matched as."""
        message.stop()
        query = self.document.parse_query(message.value, self.raw)
        self.query_one(StatusLine).detail = query.finds if query is not None else ""

    @on(SearchBar.Closed)
    def _search_closed(self, message: SearchBar.Closed) -> None:
        message.stop()
        self.focus_home()

    def _run_search(self, step: int) -> None:
        """Go to the next or previous match, searching first if the matches are not known."""
        search = self.search
        if search.query is None:
            return
        if search.matches is None:
            search.found(self.document.search(search.query, self.raw) or [])
            if getattr(self.document, "search_note", ""):
                self.notify(self.document.search_note, timeout=8, markup=False)
        target = search.step(self.selection.row if self.selection else None, step)
        if target is None:
            self.notify(f"No match for {search.query.text} ({search.query.meaning})", severity="warning")
        else:
            self.select(self.document.select_match(target, search.query, self.raw), jump=True)

    def action_search_step(self, step: int) -> None:
        """Go to the next (1) or previous (-1) match of the last search."""
        query = self.search.query
        if query is None:
            self.action_search()
        elif self.search.matches is not None or not self.document.needs_index(query):
            self._run_search(step)
        else:
            self.when_indexed(lambda: self._run_search(step), f"Searching for {query.text}")
