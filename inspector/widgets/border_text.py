"""A pane's border title and subtitle, set only when they change: Textual repaints the
whole pane on every assignment, even of the same text."""

from __future__ import annotations

from textual.widget import Widget


def set_border_title(pane: Widget, text: str) -> None:
    """Give `pane` the border title `text` (a repaint only when it is new)."""
    if text != (pane.border_title or ""):
        pane.border_title = text


def set_border_subtitle(pane: Widget, text: str) -> None:
    """Give `pane` the border subtitle `text` (a repaint only when it is new)."""
    if text != (pane.border_subtitle or ""):
        pane.border_subtitle = text
