"""Scrollbars that repaint only when the bar they draw changes, and draw a bar seen before
from memory.

Textual repaints a scrollbar whenever its range, window or position changes, even by a
fraction of a cell that moves no glyph (a cursor step in a 1,000-row list scrolls the list
by a row, and its thumb by nothing), and draws it anew through Rich every time (the
breakdown's bar takes a new range with each instruction, from a handful of sizes). A
`QuietScrollBar` works out the thumb as Textual's `ScrollBarRender` places it, repaints
when that moved, and keeps the finished lines of the last few bars it drew; a vertical bar
with its thumb somewhere new is put together from rows Textual drew before (a row shows the
track, the thumb or one of its partial glyphs). A pane takes them by mixing in
`QuietScrollbars` before its widget class.
"""

from __future__ import annotations

from math import ceil

from rich.style import Style
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarCorner, ScrollBarRender
from textual.geometry import Region
from textual.strip import Strip

from spvinspect.widgets.kept_lines import KeptLines

_KEPT_BARS = 32
"""Bars drawn before that a scrollbar keeps the lines of (one per range and size)."""
_KEPT_ROWS = 256
"""Rows of vertical bars drawn before that a scrollbar keeps (a few per size and colours)."""


class QuietScrollBar(ScrollBar):
    """A `ScrollBar` that repaints only when its drawn thumb moves or resizes."""

    window_virtual_size: Reactive[int] = Reactive(100, repaint=False)
    window_size: Reactive[int] = Reactive(0, repaint=False)
    position: Reactive[float] = Reactive(0, repaint=False)

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self._shown_thumb: tuple | None = None
        self._bars: dict[tuple, list[Strip]] = {}
        self._rows: dict[tuple, Strip] = {}
        """A vertical bar's lines drawn by Textual, by everything but the thumb and what
        the row shows of it (`_row_states`): a bar with the thumb somewhere new is put
        together from rows drawn before."""

    def thumb(self) -> tuple:
        """Where the thumb is drawn, in eighths of a cell, as `ScrollBarRender.render_bar`
        places it (with the bar's length); just the length when there is no thumb."""
        window = self.window_size if self.window_size < self.window_virtual_size else 0
        virtual, window = ceil(self.window_virtual_size), ceil(window)
        size = self.size.height if self.vertical else self.size.width
        if not (window and size and virtual and size != virtual) or virtual == window:
            return (size,)
        thumb_size = max(1, window / (virtual / size))
        position = (size - thumb_size) * (self.position / (virtual - window))
        bars = len(ScrollBarRender.VERTICAL_BARS)
        start = int(position * bars)
        return (size, start, start + ceil(thumb_size * bars))

    def _range_changed(self) -> None:
        if self.thumb() != self._shown_thumb:
            self.refresh()

    watch_window_virtual_size = watch_window_size = watch_position = _range_changed

    def bar_style(self) -> Style:
        """The bar's colours as Textual's `ScrollBar.render` picks them (grabbed, under
        the mouse, or at rest; a translucent background over the pane's)."""
        styles = self.parent.styles
        if self.grabbed:
            background, color = styles.scrollbar_background_active, styles.scrollbar_color_active
        elif self.mouse_over:
            background, color = styles.scrollbar_background_hover, styles.scrollbar_color_hover
        else:
            background, color = styles.scrollbar_background, styles.scrollbar_color
        if background.a < 1:
            background = self.parent.background_colors[0] + background
        color = background + color
        return Style.from_color(color.rich_color, background.rich_color)

    _handed: tuple | None = None
    """The lines last handed to the compositor and what they were for (None: repainted
    since, they are worked out again)."""

    def _set_dirty(self, *regions: Region) -> None:
        self._handed = None
        super()._set_dirty(*regions)

    def render_lines(self, crop: Region) -> list[Strip]:
        # Asked again while nothing of it was repainted (a frame that repaints other
        # panes): the lines handed over last time, without working the colours out.
        app, parent = self.app, self.parent
        again = (crop, self.outer_size, self.mouse_over, self.grabbed, parent.styles._cache_key, parent.has_focus,
                 tuple(app._filters), app.ansi_theme)
        handed = self._handed
        if handed is not None and handed[0] == again:
            return handed[1]
        lines = self._bar_lines(crop)
        self._handed = (again, lines)
        return lines

    def _bar_lines(self, crop: Region) -> list[Strip]:
        # The bar's finished lines (Textual's styles applied) are kept by everything they
        # are made of: the thumb, the size, the colours, the crop and the app's filters.
        thumb = self.thumb()
        self._shown_thumb = thumb
        app = self.app
        key = (
            thumb,
            self.size,
            crop,
            self.bar_style(),
            self.visual_style,
            self.background_colors,
            self.screen.styles.scrollbar_color.a == 0,
            tuple(app.get_line_filters()),
            app.ansi_theme,
        )
        lines = self._bars.get(key)
        if lines is None:
            whole = self.vertical and crop == self.size.region and not key[6]
            states = _row_states(thumb) if whole else None
            rows = self._rows
            if states is not None and all((key[1:], state) in rows for state in states):
                lines = [rows[key[1:], state] for state in states]
            else:
                lines = super().render_lines(crop)
                if states is not None and len(states) == len(lines):
                    if len(rows) >= _KEPT_ROWS:
                        rows.clear()
                    rows.update(((key[1:], state), line) for state, line in zip(states, lines))
            if len(self._bars) >= _KEPT_BARS:
                self._bars.clear()
            self._bars[key] = lines
        # A bar from memory leaves the styles cache's lines and the content marked dirty:
        # the next bar drawn anew is drawn whole.
        return lines


def _row_states(thumb: tuple) -> list:
    """What each row of a vertical bar with `thumb` (`QuietScrollBar.thumb`) shows, as
    `ScrollBarRender.render_bar` fills it in: the track above or below the thumb (their
    clicks scroll up or down), the thumb, or the glyph of its partial first or last row."""
    size = thumb[0]
    if len(thumb) == 1:
        return ["track"] * size
    bars = len(ScrollBarRender.VERTICAL_BARS)
    start_index, start_bar = divmod(max(0, thumb[1]), bars)
    end_index, end_bar = divmod(max(0, thumb[2]), bars)
    states: list = ["above"] * size
    states[end_index:] = ["below"] * (size - end_index)
    states[start_index:end_index] = ["thumb"] * (end_index - start_index)
    glyphs = ScrollBarRender.VERTICAL_BARS
    if start_index < size and glyphs[bars - 1 - start_bar] != " ":
        states[start_index] = ("first", start_bar)
    if end_index < size and glyphs[bars - 1 - end_bar] != " ":
        states[end_index] = ("last", end_bar)
    return states[:size]


class KeptCorner(KeptLines, ScrollBarCorner):
    """The corner between two scrollbars, drawn again only when it changed."""


class KeptScrollBar(KeptLines, ScrollBar):
    """Textual's scrollbar, drawn again only when it changed."""


class _MadeScrollbars:
    """Mix in before a scrolling widget class: its scrollbars are `BAR`s, the corner
    between them a `KeptCorner` (Textual's own properties, with the classes swapped)."""

    BAR: type[ScrollBar] = ScrollBar

    @property
    def scrollbar_corner(self) -> ScrollBarCorner:
        if self._scrollbar_corner is None:
            self._scrollbar_corner = KeptCorner()
            self.app._start_widget(self, self._scrollbar_corner)
        return self._scrollbar_corner

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        if self._vertical_scrollbar is None:
            self._vertical_scrollbar = self.BAR(vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)
            self._vertical_scrollbar.display = False
            self.app._start_widget(self, self._vertical_scrollbar)
        return self._vertical_scrollbar

    @property
    def horizontal_scrollbar(self) -> ScrollBar:
        if self._horizontal_scrollbar is None:
            self._horizontal_scrollbar = self.BAR(
                vertical=False, name="horizontal", thickness=self.scrollbar_size_horizontal
            )
            self._horizontal_scrollbar.display = False
            self.app._start_widget(self, self._horizontal_scrollbar)
        return self._horizontal_scrollbar


class KeptScrollbars(_MadeScrollbars):
    """Mix in before a scrolling widget class whose bars seldom change (a header, an
    image): its scrollbars are `KeptScrollBar`s, its corner a `KeptCorner`."""

    BAR = KeptScrollBar


class QuietScrollbars(_MadeScrollbars):
    """Mix in before a scrolling widget class: its scrollbars are `QuietScrollBar`s (and
    the corner between them a `KeptCorner`)."""

    BAR = QuietScrollBar
