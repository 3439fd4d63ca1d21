"""The keys that move a list pane's cursor a row or a page: one table, so the list panes
bind the same keys, each with its own keymap ids and its own word for a row."""

from __future__ import annotations

from textual.binding import Binding

ROW_MOVES = (
    ("down,j", "move(1)", "Down", "down", "Next {}"),
    ("up,k", "move(-1)", "Up", "up", "Previous {}"),
    ("pagedown,ctrl+f", "page(1)", "Page down", "page_down", "A page down"),
    ("pageup,ctrl+b", "page(-1)", "Page up", "page_up", "A page up"),
)
"""Keys, action, description, keymap id after the pane's prefix, tooltip (`{}`: a row)."""


def row_move_bindings(scope: str, row: str) -> list[Binding]:
    """A row and a page down and up, out of the footer, with keymap ids `scope.down`…
    and tooltips that call a row `row` ("Next instruction")."""
    return [
        Binding(keys, action, description, show=False, id=f"{scope}.{name}", tooltip=tooltip.format(row))
        for keys, action, description, name, tooltip in ROW_MOVES
    ]
