"""The status line: where the selection is, the naming mode, search and indexing state."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget


class StatusLine(Widget):
    """One line: the selection on the left, modes and progress on the right."""

    COMPONENT_CLASSES = {"status-line--key", "status-line--busy"}
    """Labels, and the indexing progress."""

    place: reactive[str] = reactive("")
    """Where the selection is, as users read offsets."""
    detail: reactive[str] = reactive("")
    """The operand under the cursor, or the search result position."""
    mode: reactive[str] = reactive("")
    """Naming mode and other toggles."""
    busy: reactive[str] = reactive("")
    """Work in progress (indexing), or empty."""

    def render(self) -> Table:
        grid = Table.grid(expand=True)
        grid.add_column(no_wrap=True, overflow="ellipsis", ratio=1)
        grid.add_column(no_wrap=True, justify="right")
        right = Text.assemble(
            (self.busy + "  " if self.busy else "", self.get_component_rich_style("status-line--busy")),
            (self.mode, self.get_component_rich_style("status-line--key")),
        )
        left = Text(self.place)
        if self.detail:
            left.append("  " + self.detail)
        grid.add_row(left, right)
        return grid
