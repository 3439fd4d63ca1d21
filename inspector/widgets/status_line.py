"""The status line: where the selection is, the naming mode, search and indexing state."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from spvinspect.widgets.style_memo import StyleMemo


class StatusLine(StyleMemo, Widget):
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

    def render(self) -> Text:
        # One line laid out by hand (a Rich table of two columns costs a frame more than
        # every other pane's changed lines together): the left part cut with an ellipsis
        # where it meets the right one, which ends at the right edge.
        right = Text.assemble(
            (self.busy + "  " if self.busy else "", self.memo_style("status-line--busy")),
            (self.mode, self.memo_style("status-line--key")),
        )
        left = Text(self.place)
        if self.detail:
            left.append("  " + self.detail)
        left.truncate(max(0, self.content_size.width - right.cell_len), overflow="ellipsis", pad=True)
        return Text.assemble(left, right, no_wrap=True, end="")
