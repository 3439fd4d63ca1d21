"""Going places in a SPIR-V module: the definition of the id under the cursor, its uses,
and search; requests that need the whole-module index wait for it."""

from __future__ import annotations

from typing import Any

from spvinspect.module_index import Use
from spvinspect.screens.module_indexing import ModuleIndexing
from spvinspect.screens.uses import UsesScreen
from spvinspect.search import SearchSession


class ModuleNavigation:
    """Definitions, uses and search over the view's selection; the last search is its own."""

    def __init__(self, view: Any, indexing: ModuleIndexing) -> None:
        self._view = view
        self._indexing = indexing
        self.session = SearchSession()
        """The last search and its matches."""

    # -- definitions and uses ---------------------------------------------------

    def _id_under_selection(self) -> int | None:
        """The id under the operand cursor; on the opcode, the first id operand it reads."""
        selection = self._view.selection
        if selection is None or selection.instruction is None:
            return None
        document = self._view.document
        if selection.operand is not None:
            return document.operand_id(selection.instruction, selection.operand)
        operands = document.module.instruction(selection.instruction).operands
        for kinds in (("IdRef",), ("IdResultType",)):
            for operand in operands:
                if operand.kind in kinds:
                    return int(operand.value)
        return None

    def go_to_definition(self) -> None:
        """Jump to the definition of the id under the cursor (once indexed, if need be)."""
        id_ = self._id_under_selection()
        if id_ is None:
            self._view.notify("No id under the cursor: move onto one with ← →", severity="warning")
            return
        index = self._view.document.definition(id_, near=self._view.selection.instruction if self._view.selection else None)
        if index is not None:
            self._jump_to_definition(id_, index)
        elif self._view.document.ids_defined is None:
            self._indexing.when_indexed(lambda: self._definition_after_index(id_), "Going to the definition")
        else:
            self._view.notify(f"%{self._view.document.names(self._view.raw).name(id_)} is not defined in this module", severity="warning")

    def _definition_after_index(self, id_: int) -> None:
        index = self._view.document.definition(id_)
        if index is None:
            self._view.notify(f"%{self._view.document.names(self._view.raw).name(id_)} is not defined in this module", severity="warning")
        else:
            self._jump_to_definition(id_, index)

    def _jump_to_definition(self, id_: int, index: int) -> None:
        operands = self._view.document.module.instruction(index).operands
        result = next((k for k, o in enumerate(operands) if o.kind == "IdResult" and o.value == id_), None)
        self._view.select(self._view.document.select_instruction(index, result), jump=True)

    def list_uses(self) -> None:
        """List the uses of the id under the cursor, to jump to one."""
        id_ = self._id_under_selection()
        if id_ is None:
            self._view.notify("No id under the cursor: move onto one with ← →", severity="warning")
            return
        self._indexing.when_indexed(lambda: self._show_uses(id_), "Listing the uses")

    def _show_uses(self, id_: int) -> None:
        document = self._view.document
        name = document.names(self._view.raw).name(id_)
        index = document.search_index(self._view.raw)
        total = len(index.uses(name)) if index is not None else 0
        uses = document.uses(id_, self._view.raw) or []
        offsets = [document.row_word(use.row) * 4 for use in uses]
        title = f"Uses of %{name} ({total:,})"

        def chosen(use: Use | None) -> None:
            if use is not None:
                self._view.select(document.select_row(use.row, use.operand), jump=True)

        self._view.app.push_screen(UsesScreen(title, uses, offsets, total - len(uses)), chosen)

    # -- search -----------------------------------------------------------------

    def search(self, text: str) -> None:
        """Search for `text` (the search bar's), once the index is there if it needs it."""
        query = self._view.document.parse_query(text, self._view.raw)
        if query is not None and not self._view.document.needs_index(query):
            self._start_search(text)
        else:
            self._indexing.when_indexed(lambda: self._start_search(text), f"Searching for {text.strip()}")

    def _start_search(self, text: str) -> None:
        """Understand the query (friendly names are known once indexed) and go to the
        first match after the cursor."""
        self.session.start(self._view.document.parse_query(text, self._view.raw))
        self._run_search(1)

    def _run_search(self, step: int) -> None:
        """Go to the next or previous match, searching first if the matches are not known."""
        search = self.session
        if search.query is None:
            return
        if search.matches is None:
            search.found(self._view.document.search(search.query, self._view.raw) or [])
            if getattr(self._view.document, "search_note", ""):
                self._view.notify(self._view.document.search_note, timeout=8, markup=False)
        target = search.step(self._view.selection.row if self._view.selection else None, step)
        if target is None:
            self._view.notify(f"No match for {search.query.text} ({search.query.meaning})", severity="warning")
        else:
            self._view.select(self._view.document.select_match(target, search.query, self._view.raw), jump=True)

    def search_step(self, step: int) -> None:
        """Go to the next (1) or previous (-1) match of the last search."""
        query = self.session.query
        if query is None:
            self._view.action_search()
        elif self.session.matches is not None or not self._view.document.needs_index(query):
            self._run_search(step)
        else:
            self._indexing.when_indexed(lambda: self._run_search(step), f"Searching for {query.text}")
