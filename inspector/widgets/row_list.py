"""The base of both instruction lists (SPIR-V's and Lima's): a Line-API `ScrollView` over
a document's rows, drawing only the rows on screen, with the cursor row kept in view and
the virtual width grown to the widest row drawn so far (for horizontal scrolling). A row
cut at either edge shows an ellipsis there; shift+left/right scroll sideways."""

from __future__ import annotations

from collections.abc import Iterable

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

from spvinspect.responsive.pacing import WhenIdle
from spvinspect.widgets.row_refresh import refresh_row_spans
from spvinspect.widgets.scrollbars import QuietScrollbars
from spvinspect.widgets.style_memo import StyleMemo
from spvinspect.widgets.framed_lines import FramedLines


ELLIPSIS = "…"
"""Drawn in the last (or first) cell of a row cut at the list's edge."""


def fit_row(text: Strip, scroll_x: int, width: int) -> Strip:
    """A row's text scrolled `scroll_x` cells sideways into `width` cells, with an ellipsis
    in the last cell when more of it follows and in the first when its start is scrolled
    away. Each ellipsis takes the style of the cell it stands in."""
    length = text.cell_length
    right = length > scroll_x + width
    left = scroll_x > 0 and length > scroll_x
    if width < 3 or not (left or right):
        return text.crop(scroll_x, scroll_x + width)
    start, end = scroll_x + left, scroll_x + width - right
    segments = [Segment(ELLIPSIS, _style_at(text, scroll_x))] if left else []
    segments.extend(text.crop(start, end))
    if right:
        segments.append(Segment(ELLIPSIS, _style_at(text, end)))
    return Strip(segments, min(width, length - scroll_x))


def _style_at(strip: Strip, x: int) -> Style | None:
    """The style of the cell at column `x` of `strip`."""
    position = 0
    for segment in strip:
        position += segment.cell_length
        if position > x:
            return segment.style
    return None


class RowList(FramedLines, QuietScrollbars, StyleMemo, ScrollView, can_focus=True):
    """Rows of a document with a cursor row; subclasses draw a row (`render_row`) and say
    which row the cursor is on (`cursor_row`)."""

    BINDINGS = [
        Binding("shift+right", "scroll_sideways(1)", "Scroll right", show=False, id="rows.scroll_right", tooltip="Show more of long lines: scroll half a width right"),
        Binding("shift+left", "scroll_sideways(-1)", "Scroll left", show=False, id="rows.scroll_left", tooltip="Scroll half a width left, back towards the start of the lines"),
    ]

    GUTTER_WIDTH = 0
    """Columns of the gutter drawn before each row's text."""
    START_WIDTH = 80
    """Columns of text assumed before any row has been drawn."""
    WIDEN_WHEN_IDLE = True
    """Grow the virtual width once the keys pause (a new virtual size re-lays out the
    whole screen); False: at once."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._widest = 0
        self._widen_when_idle = WhenIdle(self, self._widen)

    # -- what subclasses give ------------------------------------------------------

    @property
    def row_count(self) -> int:
        """Rows of the list."""
        raise NotImplementedError

    @property
    def cursor_row(self) -> int | None:
        """The row under the cursor, if any."""
        raise NotImplementedError

    def render_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        """Row `row` drawn `width` cells wide, scrolled `scroll_x` cells sideways."""
        raise NotImplementedError

    # -- shared ------------------------------------------------------------------------

    def reset_rows(self) -> None:
        """The rows changed (another layout, an edit): forget the width and resize."""
        self._widest = 0
        self.virtual_size = Size(self.GUTTER_WIDTH + self.START_WIDTH, self.row_count)
        self.refresh()

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y, width, base = self.once_a_pass(self._line_view)
        row = scroll_y + y
        if row >= self.row_count:
            return Strip.blank(width, base)
        return self.render_row(row, scroll_x, width, base)

    def _line_view(self) -> tuple[int, int, int, Style]:
        """The scroll offset, the text's width and the base style the rows are drawn with."""
        scroll_x, scroll_y = self.scroll_offset
        return scroll_x, scroll_y, self.scrollable_content_region.width, self.memo_style("")

    def refresh_rows(self, rows: Iterable[int | None]) -> None:
        """Repaint these rows where they are on screen, not the whole list (a cursor
        or a gutter mark moved), in one refresh (each call clears the widget's caches
        and prompts its message loop)."""
        top, height = round(self.scroll_offset.y), self.size.height
        shown = sorted({row for row in rows if row is not None and top <= row < top + height})
        refresh_row_spans(self, ((row, row) for row in shown))

    def scroll_to_row(self, row: int, center: bool = False, first: int | None = None) -> None:
        """Bring `row` (and `first`, a row above it shown with it) into view; `center`
        puts it mid-screen when it is off screen."""
        height = max(1, self.scrollable_content_region.height)
        top = self.scroll_offset.y
        first = row if first is None else first
        if center and not top <= row < top + height:
            self.scroll_to(y=max(0, row - height // 2), animate=False, immediate=True)
        elif first < top:
            self.scroll_to(y=first, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    @property
    def text_width(self) -> int:
        """Cells of row text on screen (the width less the gutter)."""
        return max(self.scrollable_content_region.width - self.GUTTER_WIDTH, 1)

    def action_scroll_sideways(self, direction: int) -> None:
        """Scroll the rows half their visible width right (1) or left (-1)."""
        if direction > 0 and self._widest > self.virtual_size.width - self.GUTTER_WIDTH:
            self._widen()  # rows wider than the list knows yet (it widens when idle)
        step = max(self.text_width // 2, 8)
        self.scroll_to(x=max(0, self.scroll_offset.x + direction * step), animate=False, immediate=True)

    def note_width(self, cells: int) -> None:
        """A row `cells` wide was drawn: grow the virtual width to the widest seen."""
        if cells > self._widest:
            self._widest = cells
            if self.WIDEN_WHEN_IDLE:
                self._widen_when_idle()
            else:
                self._widen()

    def _widen(self) -> None:
        self.virtual_size = Size(self.GUTTER_WIDTH + self._widest, self.row_count)
        if self.WIDEN_WHEN_IDLE:
            # A horizontal scrollbar may have just appeared and covered the cursor's row.
            self.call_after_refresh(self._keep_cursor_visible)

    def _keep_cursor_visible(self) -> None:
        if self.cursor_row is not None:
            self.scroll_to_row(self.cursor_row)


class RowCursorKeys:
    """Row, page and first/last-row moves for a `RowList` whose cursor is `_cursor`."""

    _cursor: int

    def _move_to(self, row: int) -> None:
        self._cursor = min(max(0, row), max(0, self.row_count - 1))
        self.scroll_to_row(self._cursor)
        self.refresh()

    def action_move(self, step: int) -> None:
        """Move the cursor a row."""
        self._move_to(self._cursor + step)

    def action_page(self, step: int) -> None:
        """Move the cursor a page."""
        self._move_to(self._cursor + step * max(1, self.scrollable_content_region.height - 1))

    def action_edge(self, last: int) -> None:
        """Move the cursor to the first or the last row."""
        self._move_to(self.row_count - 1 if last else 0)
