"""One side of the side-by-side comparison: the aligned rows as that side shows them
(its instruction's line, or a gap where only the other side has one), a gutter with
the instruction's byte offset and a mark of how the row differs.

A `RowList` (Line API), so half a million rows scroll like a few. Both sides have the
same rows; the screen keeps their cursor and their scrolling together. Keys become
`RowRequested` for the screen, which moves both sides.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.events import Click
from textual.message import Message
from textual.strip import Strip

from spvinspect.codec.text.listing import Role
from spvinspect.formats.comparison import EQUAL, KINDS, MARKS, Comparison
from spvinspect.widgets.instruction_list import CONTROL_PICTURES
from spvinspect.widgets.role_styles import role_styles
from spvinspect.widgets.row_keys import row_move_bindings
from spvinspect.widgets.row_list import RowList

GUTTER_WIDTH = 11
"""Eight hex digits of the byte offset, a space, the mark and a space."""
NARROW_GUTTER = 2
"""The mark and a space: the gutter of a list narrower than `COMPACT_BELOW` (the status
line still says where the row's instructions are)."""
COMPACT_BELOW = 50


class DiffList(RowList):
    """One side's lines of a comparison, with the shared cursor row."""

    GUTTER_WIDTH = GUTTER_WIDTH
    WIDEN_WHEN_IDLE = False

    BINDINGS = [
        *row_move_bindings("diff", "row"),
        Binding("home", "to(0)", "First", show=False, id="diff.first", tooltip="First row"),
        Binding("end,G", "to(-1)", "Last", show=False, id="diff.last", tooltip="Last row"),
    ]

    COMPONENT_CLASSES = {
        "diff-list--gutter",
        "diff-list--cursor",
        "diff-list--gap",
        *(f"diff-list--{name}" for name in KINDS if name != "equal"),
    }
    """Gutter, cursor row (the same on both sides, focused or not: it is one row),
    a gap (the other side's instruction), and each kind's mark."""

    DEFAULT_CSS = """
    DiffList > .diff-list--gutter { color: $foreground-darken-3; }
    DiffList > .diff-list--cursor { background: $hex-selection-background; }
    DiffList > .diff-list--gap { background: $panel; }
    DiffList > .diff-list--added { color: $success; text-style: bold; }
    DiffList > .diff-list--removed { color: $error; text-style: bold; }
    DiffList > .diff-list--changed { color: $warning; text-style: bold; }
    DiffList > .diff-list--moved { color: $accent; text-style: bold; }
    """

    class RowRequested(Message):
        """The user moved this side's cursor: select `row` on both sides."""

        def __init__(self, row: int) -> None:
            super().__init__()
            self.row = row

    def __init__(self, comparison: Comparison, side: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.comparison = comparison
        self.side = side
        self.row: int = 0
        """The shared cursor row."""
        self.partner: DiffList | None = None
        """The other side, which scrolls with this one."""

    @property
    def row_count(self) -> int:
        return self.comparison.row_count

    @property
    def cursor_row(self) -> int | None:
        return self.row

    def on_mount(self) -> None:
        self.reset_rows()

    def on_resize(self) -> None:
        """A narrow list drops the byte offsets from its gutter, for the text."""
        gutter = NARROW_GUTTER if self.size.width < COMPACT_BELOW else GUTTER_WIDTH
        if gutter != self.GUTTER_WIDTH:
            self.GUTTER_WIDTH = gutter
            self.reset_rows()
        self.scroll_to_row(self.row)

    # -- following the screen ----------------------------------------------------------

    def show_row(self, row: int, center: bool = False) -> None:
        """Put the cursor on `row` and bring it into view."""
        old = self.row
        self.row = row
        self.scroll_to_row(row, center)
        self.refresh_lines(old - round(self.scroll_offset.y), 1)
        self.refresh_lines(row - round(self.scroll_offset.y), 1)

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Scroll the other side with this one."""
        super().watch_scroll_y(old_value, new_value)
        partner = self.partner
        if partner is not None and round(partner.scroll_y) != round(new_value):
            partner.scroll_to(y=new_value, animate=False, immediate=True)

    def watch_scroll_x(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_x(old_value, new_value)
        partner = self.partner
        if partner is not None and round(partner.scroll_x) != round(new_value):
            partner.scroll_to(x=new_value, animate=False, immediate=True)

    # -- drawing -----------------------------------------------------------------------

    def render_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        comparison = self.comparison
        kind = comparison.kind(row)
        index = comparison.instruction(self.side, row)

        def component(name: str) -> Style:
            return self.get_component_rich_style(name, partial=True)

        if index is None:
            line = Strip([Segment(" " * width, component("diff-list--gap"))])
        else:
            styles = role_styles(self.app.theme, self.app.current_theme.dark)
            parts = [
                Segment(text.translate(CONTROL_PICTURES), styles.get(role, Style()) if isinstance(role, Role) else Style())
                for text, role in comparison.pieces(self.side, row)
            ]
            text_strip = Strip(parts)
            self.note_width(text_strip.cell_length)
            text_strip = text_strip.crop(scroll_x, scroll_x + width - self.GUTTER_WIDTH)
            mark = MARKS[kind] if kind != EQUAL else " "
            mark_style = component(f"diff-list--{KINDS[kind]}") if kind != EQUAL else Style()
            parts = [Segment(mark, mark_style), Segment(" ")]
            if self.GUTTER_WIDTH == GUTTER_WIDTH:
                word = comparison.word_range(self.side, index).start
                parts.insert(0, Segment(f"{word * 4:08x} ", component("diff-list--gutter")))
            gutter = Strip(parts)
            line = Strip.join([gutter, text_strip]).extend_cell_length(width)
        if row == self.row:
            line = line.apply_style(self.get_component_rich_style("diff-list--cursor"))
        return line.apply_style(base)

    # -- keys ----------------------------------------------------------------------------

    def _request(self, row: int) -> None:
        if self.row_count:
            self.post_message(self.RowRequested(max(0, min(row, self.row_count - 1))))

    def action_move(self, step: int) -> None:
        """Move the cursor `step` rows."""
        self._request(self.row + step)

    def action_page(self, step: int) -> None:
        """Move the cursor and the view a page."""
        height = max(1, self.scrollable_content_region.height - 1)
        self.scroll_to(y=self.scroll_offset.y + step * height, animate=False, immediate=True)
        self._request(self.row + step * height)

    def action_to(self, row: int) -> None:
        """Go to the first row (0) or the last (-1)."""
        self._request(row if row >= 0 else self.row_count - 1)

    def on_click(self, event: Click) -> None:
        row = round(self.scroll_offset.y) + event.y
        if row < self.row_count:
            self._request(row)

