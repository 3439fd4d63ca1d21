"""A pane's border title and subtitle, set only when they change (Textual repaints the
whole pane on every assignment, even of the same text), as plain text: names from the
user's files are shown as written, never read as markup."""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget


def _shown(content: Content | None) -> str:
    return "" if content is None else content.plain


def set_border_title(pane: Widget, text: str) -> None:
    """Give `pane` the border title `text` (a repaint only when it is new)."""
    if text != _shown(pane._border_title):
        pane.border_title = Content(text)


def set_border_subtitle(pane: Widget, text: str) -> None:
    """Give `pane` the border subtitle `text` (a repaint only when it is new)."""
    if text != _shown(pane._border_subtitle):
        pane.border_subtitle = Content(text)
