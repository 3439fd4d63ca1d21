"""A pane's border title and subtitle, set only when they change (Textual repaints the
whole pane on every assignment, even of the same text), as plain text: names from the
user's files are shown as written, never read as markup."""

from __future__ import annotations

from textual.content import Content
from textual.geometry import Region
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


def set_border_subtitle_alone(pane: Widget, text: str) -> None:
    """Give `pane` the border subtitle `text`, repainting its bottom border line only (a
    pane that repaints just the rows that changed, with a subtitle that changes each time)."""
    if text != _shown(pane._border_subtitle):
        pane._border_subtitle = _border_content(pane, text)
        _refresh_border_line(pane, bottom=True)


def set_border_title_alone(pane: Widget, text: str) -> None:
    """Give `pane` the border title `text`, repainting its top border line only (a pane
    that repaints just the rows that changed, with a title that changes each time)."""
    if text != _shown(pane._border_title):
        pane._border_title = _border_content(pane, text)
        _refresh_border_line(pane, bottom=False)


def _border_content(pane: Widget, text: str):
    """`text` as Textual keeps a border title: rendered, tabs expanded, its first line."""
    return pane.render_str(Content(text)).expand_tabs(4).split()[0]


def _refresh_border_line(pane: Widget, bottom: bool) -> None:
    """Repaint the pane's top or bottom border line (all of it before its first layout)."""
    offset, outer = pane.content_offset, pane.outer_size
    if not outer:
        pane.refresh()
        return
    pane.refresh(Region(-offset.x, (outer.height - 1 if bottom else 0) - offset.y, outer.width, 1))
