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


def set_virtual_size(pane: ScrollView, size: Size, repaint: bool = True) -> None:
    """Give `pane` the virtual size `size`; the screen is laid out again only when a
    scrollbar of the pane appears or goes (or the pane has no size yet). With `repaint`
    False the pane is not repainted here: it repaints what changed itself (it must
    repaint whole when the scroll offset moved)."""
    if pane.virtual_size == size:
        return
    if not pane.is_mounted or not pane.container_size:
        pane.virtual_size = size
        return
    pane.set_reactive(Widget.virtual_size, size)
    # Shows or hides the scrollbars (their layout reactives lay out the screen when they
    # change), then gives them their range: a scrollbar repaints itself when its range
    # moves its thumb (Textual's `_scroll_update` would repaint both bars every time).
    pane._refresh_scrollbars()
    width, height = pane.container_size
    if pane.show_vertical_scrollbar and pane.styles.scrollbar_size_vertical:
        _set(pane.vertical_scrollbar, size.height, height - pane.scrollbar_size_horizontal)
    if pane.show_horizontal_scrollbar and pane.styles.scrollbar_size_horizontal:
        _set(pane.horizontal_scrollbar, size.width, width - pane.scrollbar_size_vertical)
    x, y = pane.validate_scroll_x(pane.scroll_x), pane.validate_scroll_y(pane.scroll_y)
    if x != pane.scroll_x:
        pane.scroll_x = x
    if y != pane.scroll_y:
        pane.scroll_y = y
    if repaint:
        pane.refresh()


def _set(bar, virtual_size: int, window_size: int) -> None:
    """A scrollbar's range, its reactives set only when they change (setting one costs
    its validation and watchers even with the same value)."""
    if bar.window_virtual_size != virtual_size:
        bar.window_virtual_size = virtual_size
    if bar.window_size != window_size:
        bar.window_size = window_size
