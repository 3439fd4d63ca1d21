"""The values pane of a SPIR-V run: the next instruction's operands and the last step's
result, the current function's live ids and every variable laid out as a tree; values the
last move changed are highlighted, `b` shows each value's bits."""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Region, Size
from textual.strip import Strip

from spvinspect.codec.plural import counted
from spvinspect.codec.interp.values_view import KeptRows, ValueRow, changed_keys, invocation_rows
from spvinspect.screens.panes import BuiltPane
from spvinspect.screens.run_keys import RunFollower
from spvinspect.widgets.border_text import set_border_subtitle_alone
from spvinspect.widgets.row_list import RowCursorKeys, RowList
from spvinspect.widgets.row_keys import row_move_bindings
from spvinspect.widgets.virtual_size import set_virtual_size

LABEL_WIDTH = 24
"""Columns the labels (indented by depth) take at most before the type and value."""
ROWS_GRAIN = 64
"""The pane's virtual height grows and shrinks by this many rows."""
STRIPS_KEPT = 512
"""Rows drawn kept by what they show: a step shifts rows up or down, and going back
draws rows drawn before."""
NO_RUN = "No run yet: . or F11 steps the entry point, F5 runs it to the end (? lists the keys)."


class ValuesPane(BuiltPane, RunFollower, RowCursorKeys, RowList):
    """Rows of `codec.interp.values_view`, drawn on demand (a buffer may have thousands)."""

    DEFAULT_CSS = """
    ValuesPane { height: 1fr; border: round $border-blurred; border-title-color: $text-muted;
                 border-subtitle-color: $text-muted; background: $background; scrollbar-size-vertical: 1; }
    ValuesPane:focus { border: round $primary; border-title-color: $text; border-subtitle-color: $text; }
    ValuesPane > .values-pane--heading { color: $accent; text-style: bold; }
    ValuesPane > .values-pane--type { color: $text-muted; }
    ValuesPane > .values-pane--changed { background: $warning 30%; text-style: bold; }
    ValuesPane > .values-pane--cursor { background: $boost; }
    ValuesPane:focus > .values-pane--cursor { background: $hex-selection-background; }
    ValuesPane > .values-pane--muted { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"values-pane--heading", "values-pane--type", "values-pane--changed", "values-pane--cursor",
                         "values-pane--muted"}
    """Section headings, type names, values the last move changed, the cursor row, messages."""
    BINDINGS = [
        *row_move_bindings("values", "value"),
        Binding("home,g", "edge(0)", "First", show=False, id="values.first", tooltip="The first row"),
        Binding("end,G", "edge(1)", "Last", show=False, id="values.last", tooltip="The last row"),
        Binding("b", "toggle_bits", "Bits", id="values.bits", tooltip="Show each value's bits (hex of the float or integer) or its value"),
    ]

    def __init__(self, document) -> None:
        super().__init__()
        self.border_title = "Values"
        self._document = document
        self.rows: list[ValueRow] = []
        """The rows shown (empty without a run)."""
        self.changed: set[str] = set()
        """Keys of the rows the last move changed."""
        self.bits = False
        """Show the bits of each value instead of its text."""
        self.message = NO_RUN
        self._cursor = 0
        self._label_width = LABEL_WIDTH
        self._kept_rows = KeptRows()
        """The rows of the values the last step showed (`invocation_rows`)."""
        self._strips: LRUCache[tuple, Strip] = LRUCache(STRIPS_KEPT)
        """Rows drawn, by everything that decides how they look (`_strip_key`)."""
        self._behind = False
        """The run moved while the pane was hidden: its rows are not the run's."""

    # -- what the screen tells -------------------------------------------------------------

    def run_changed(self, execution) -> None:
        if not self.display:
            # Hidden (x): its rows are worked out when it is shown again (`on_show`).
            self._behind = True
            return
        self._behind = False
        before = (self.rows, self.changed, self._label_width, self.message, self._cursor)
        run = execution.run
        if run is None:
            self.rows, self.changed = [], set()
            self.message = f"Cannot run: {execution.error}" if execution.error else NO_RUN
            set_border_subtitle_alone(self, "")
        else:
            debugger = run.debugger
            names = self._document.names(False)
            rows = invocation_rows(debugger, names.name, self._kept_rows)
            # The live ids and variables: the next/last sections change with every step.
            changed = changed_keys(self.rows, rows) if self.rows else set()
            self.changed = {key for key in changed if key.startswith(("id:", "var:"))}
            self.rows = rows
            self._label_width = min(LABEL_WIDTH, max((2 * (r.depth - 1) + len(r.label) for r in rows if not r.heading), default=1))
            self.message = ""
            set_border_subtitle_alone(self, f"{counted(run.steps, 'step', grouped=True)} · {run.stop_reason}")
        self._cursor = min(self._cursor, max(0, len(self.rows) - 1))
        if self._fit_virtual_size(repaint=False):
            return
        self._repaint_changed(*before)

    def _repaint_changed(self, rows: list[ValueRow], changed: set[str], label_width: int, message: str, cursor: int) -> None:
        """Repaint the rows on screen drawn otherwise than before (`rows` with `changed`
        highlighted, labels `label_width` wide, the cursor on `cursor`): a step changes a
        few values, not the whole pane."""
        if not rows or not self.rows or label_width != self._label_width or message != self.message:
            self._repaint_rows()
            return
        new, new_changed = self.rows, self.changed
        top = round(self.scroll_offset.y)
        height = self.size.height
        redrawn = {cursor, self._cursor} if cursor != self._cursor else set()
        for row in range(top, min(top + height, max(len(rows), len(new)))):
            if row >= len(rows) or row >= len(new):
                redrawn.add(row)
                continue
            old_row, new_row = rows[row], new[row]
            if old_row != new_row or (old_row.key in changed) != (new_row.key in new_changed):
                redrawn.add(row)
        # One refresh for them all (each refresh call clears the widget's style caches).
        width = max(self.virtual_size.width, self.size.width)
        regions = [Region(0, row - top, width, 1) for row in sorted(redrawn) if top <= row < top + height]
        if regions:
            self.refresh(*regions)

    def _fit_virtual_size(self, repaint: bool = True) -> bool:
        """The width from every row (not the rows drawn so far), rounded up like the
        height; True when that repainted the whole pane (a new size), else only when
        `repaint`."""
        widest = max((len(self._plain(row)) for row in self.rows), default=len(self.message))
        size = Size(-(-widest // ROWS_GRAIN) * ROWS_GRAIN, self.row_count)
        if size != self.virtual_size:
            set_virtual_size(self, size, repaint=False)  # lays the screen out only when a scrollbar comes or goes
            self._repaint_rows()
            return True
        if repaint:
            self._repaint_rows()
        return False

    def _repaint_rows(self) -> None:
        """Repaint every row on screen, not the border around them (a plain `refresh`
        has Textual draw the whole pane anew, frame and titles included)."""
        self.refresh(Region(0, 0, max(self.virtual_size.width, self.size.width), self.size.height))

    def document_changed(self, document) -> None:
        self._document = document

    def on_show(self) -> None:
        execution = getattr(self.screen, "execution", None)
        if execution is not None and (execution.run is not None or self._behind):
            self.run_changed(execution)

    # -- drawing ----------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        # Rounded up: the live ids grow with every step, and a new virtual size lays the
        # whole screen out again (a frame of its own); the rows past the last are blank.
        return -(-max(1, len(self.rows)) // ROWS_GRAIN) * ROWS_GRAIN

    @property
    def cursor_row(self) -> int | None:
        return self._cursor

    def row_text(self, row: int) -> str:
        """Row `row` as plain text (what the pane draws, without colours)."""
        return "".join(segment.text for segment in self._segments(row)).rstrip()

    def _parts(self, value: ValueRow) -> tuple[str, str, str]:
        """A value row's label (indented and cut to the labels' width), type and value
        as drawn."""
        label = ("  " * (value.depth - 1) + value.label)[: self._label_width].ljust(self._label_width)
        shown = value.bits if self.bits and value.bits else value.value
        return label + " ", f"{value.type_text:<7} ", shown

    def _plain(self, value: ValueRow) -> str:
        """What `row_text` gives for `value`, without drawing it."""
        return value.label if value.heading else "".join(self._parts(value)).rstrip()

    def _segments(self, row: int) -> list[Segment]:
        component = self.memo_style
        if not self.rows:
            return [Segment(self.message, component("values-pane--muted"))]
        value = self.rows[row]
        if value.heading:
            return [Segment(value.label, component("values-pane--heading"))]
        label, type_text, shown = self._parts(value)
        segments = [Segment(label), Segment(type_text, component("values-pane--type"))]
        style = component("values-pane--changed") if value.key in self.changed else Style()
        segments.append(Segment(shown, style))
        return segments

    def note_width(self, cells: int) -> None:
        """The width is known from every row (`run_changed`)."""

    def render_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        if row >= max(1, len(self.rows)):
            return Strip.blank(width, base)
        key = self._strip_key(row, scroll_x, width, base)
        line = self._strips.get(key)
        if line is None:
            cursor = self.memo_style("values-pane--cursor") if row == self._cursor and self.rows else None
            line = self._strips[key] = _drawn(self._segments(row), scroll_x, width, base, cursor)
        return line

    def _strip_key(self, row: int, scroll_x: int, width: int, base: Style) -> tuple:
        """What row `row` looks like drawn: its value (or the message), whether it changed
        and has the cursor, how values and labels are shown, the view and the styles."""
        component = self.memo_style
        styles = (base, *self.once_a_pass(self._row_styles))
        if not self.rows:
            return (None, self.message, scroll_x, width, styles)
        value = self.rows[row]
        cursor = component("values-pane--cursor") if row == self._cursor else None
        return (value, value.key in self.changed, cursor, self.bits, self._label_width, scroll_x, width, styles)

    def _row_styles(self) -> tuple[Style, ...]:
        """The headings', types', changed values' and messages' styles."""
        component = self.memo_style
        return (component("values-pane--heading"), component("values-pane--type"),
                component("values-pane--changed"), component("values-pane--muted"))

    def notify_style_update(self) -> None:
        self._strips.clear()
        super().notify_style_update()

    # -- keys ---------------------------------------------------------------------------------

    def action_toggle_bits(self) -> None:
        """Show each value's bits, or its text again."""
        self.bits = not self.bits
        self.border_title = "Values · bits" if self.bits else "Values"
        self._fit_virtual_size()


def _drawn(segments: list[Segment], scroll_x: int, width: int, base: Style, cursor: Style | None) -> Strip:
    """A row's segments scrolled `scroll_x` cells, `width` wide, under the `cursor`'s style
    (when it has the cursor) and the pane's `base`: as one strip of as many segments (and
    one of padding) when the row fits unscrolled, the common case."""
    over = base + cursor if cursor is not None else base
    length = sum(cell_len(segment.text) for segment in segments)
    if scroll_x or length > width:
        line = Strip(segments).crop(scroll_x, scroll_x + width).extend_cell_length(width)
        return (line.apply_style(cursor) if cursor is not None else line).apply_style(base)
    drawn = [Segment(text, over + style if style else over) for text, style, _ in segments if text]
    if length < width:
        drawn.append(Segment(" " * (width - length), over))
    return Strip(drawn, width)
