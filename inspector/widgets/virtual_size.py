"""A Line-API pane's virtual size, changed without laying out the whole screen.

Textual's `virtual_size` is a layout reactive: any change lays out and repaints every
widget of the screen. A pane whose content changes size on each selection (the
breakdown, the registers) needs that only when one of its scrollbars appears or goes;
otherwise the scrollbars' range and the scroll offset are updated in place and the pane
repaints itself alone.
"""

from __future__ import annotations

from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.widget import Widget


def set_virtual_size(pane: ScrollView, size: Size) -> None:
    """Give `pane` the virtual size `size`; the screen is laid out again only when a
    scrollbar of the pane appears or goes (or the pane has no size yet)."""
    if pane.virtual_size == size:
        return
    if not pane.is_mounted or not pane.container_size:
        pane.virtual_size = size
        return
    pane.set_reactive(Widget.virtual_size, size)
    # Shows or hides the scrollbars (their layout reactives lay out the screen when they
    # change), sets their range and clamps the scroll offset.
    pane._scroll_update(size)
    pane.refresh()
