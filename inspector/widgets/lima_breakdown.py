"""The breakdown panel: one Lima instruction bit by bit, a strip per field.

It draws the `lima.breakdown.Breakdown` it is given: each strip's title (name, unit,
width, where it starts), its bits high to low grouped by labelled range and coloured by
unit (unknown bits in their own colour, never hidden), then one row per range with its
bit range, name, raw value and meaning. A cursor walks the strips and their ranges;
every move posts `FieldSelected` with exactly the bits under it, for the hex pane.
Rendered on the Line API from rows built once per instruction and width (a row is a few
runs of text, one per range and style); each row drawn is kept, so a row seen before
(another instruction's, or this one's again) costs nothing, and another instruction
repaints only the rows that differ.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from spvinspect.themes.tokens import LIMA_UNITS
from spvinspect.widgets.border_text import set_border_title_alone
from spvinspect.widgets.scrollbars import QuietScrollbars
from spvinspect.widgets.style_memo import StyleMemo
from spvinspect.widgets.virtual_size import set_virtual_size
from spvinspect.lima.breakdown import CONTROL_UNIT, BitSelection, BitStrip, Breakdown, Label
from spvinspect.widgets.framed_lines import FramedLines

_INDENT = 2
_PLAIN = Style()
_KEPT_ROWS = 4096
"""Drawn rows the pane keeps (a row is a few hundred bytes)."""
_KEPT_LAYOUTS = 256
"""Instructions whose rows the pane keeps, per width."""

Cell = tuple[str, "str | None", "int | None"]
"""A run of a row's text: the text, its unit (its colour) and the entry it belongs to
(None: it selects nothing)."""
Row = tuple[Cell, ...]
_UNIT_CLASSES = {unit: f"lima-breakdown--{unit}" for unit in LIMA_UNITS}


@dataclass(frozen=True, slots=True)
class Entry:
    """What the cursor can stand on: a whole strip (label None) or one of its ranges."""

    strip: BitStrip
    label: Label | None

    @property
    def bits(self) -> BitSelection:
        """The stream bits of the strip or range."""
        return self.strip.bits if self.label is None else self.label.bits


class _UnitStyles(dict):
    """(unit, under the cursor) -> the style a cell is drawn in, made when first asked."""

    def __init__(self, pane: LimaBreakdown, base: Style) -> None:
        super().__init__()
        self._pane, self._base = pane, base

    def __missing__(self, key: tuple) -> Style:
        unit, under_cursor = key
        style = self._pane._style(unit)
        if under_cursor:
            style = style + self._pane.memo_style("lima-breakdown--cursor")
        drawn = self[key] = self._base + style
        return drawn


class LimaBreakdown(FramedLines, QuietScrollbars, StyleMemo, ScrollView, can_focus=True):
    """The selected instruction's control word and fields as labelled bit strips."""

    DEFAULT_CSS = "\n".join(
        [
            "LimaBreakdown { background: $surface; }",
            "LimaBreakdown > .lima-breakdown--control { color: $lima-control-word; }",
            "LimaBreakdown > .lima-breakdown--unknown { color: $lima-unknown-bits; text-style: italic; }",
            "LimaBreakdown > .lima-breakdown--muted { color: $text-muted; }",
            "LimaBreakdown > .lima-breakdown--cursor { background: $hex-selection-background; text-style: bold; }",
            *(f"LimaBreakdown > .{cls} {{ color: $lima-unit-{unit}; }}" for unit, cls in _UNIT_CLASSES.items()),
        ]
    )
    COMPONENT_CLASSES = {
        "lima-breakdown--control",
        "lima-breakdown--unknown",
        "lima-breakdown--muted",
        "lima-breakdown--cursor",
        *_UNIT_CLASSES.values(),
    }
    """Control word, unknown bits, secondary text, the cursor, and one colour per unit."""
    BINDINGS = [
        Binding("down,j", "move(1)", "Next range", show=False, id="breakdown.down", tooltip="Next range or strip"),
        Binding("up,k", "move(-1)", "Previous range", show=False, id="breakdown.up", tooltip="Previous range or strip"),
        Binding("right_square_bracket", "strip(1)", "Next field", show=False, id="breakdown.next_strip", tooltip="Next field strip"),
        Binding("left_square_bracket", "strip(-1)", "Previous field", show=False, id="breakdown.previous_strip", tooltip="Previous field strip"),
        Binding("home", "first", "First", show=False, id="breakdown.first", tooltip="The control word"),
    ]

    class FieldSelected(Message):
        """The user put the cursor on a strip or a range: these are its bits."""

        def __init__(self, bits: BitSelection, strip: BitStrip, label: Label | None) -> None:
            super().__init__()
            self.bits = bits
            """Stream words and per-word masks of exactly the selected bits."""
            self.strip = strip
            """The strip (control word, field or padding) the cursor is in."""
            self.label = label
            """The range under the cursor; None when the whole strip is selected."""

    cursor: var[int] = var(0, init=False)
    """Index into `entries`: the strip or range under the cursor."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.breakdown: Breakdown | None = None
        self.entries: tuple[Entry, ...] = ()
        """Every strip and range the cursor can stand on, in drawing order."""
        self._lines: list[Row] = []
        self._entry_rows: list[int] = []
        self._built_width = -1
        self._drawn_key: tuple = ()
        self._drawn: dict = {}
        self._strips: dict[tuple, Strip] = {}
        """Rows drawn before: (row, the entry under the cursor if in the row, width) -> strip."""
        self._layouts: dict[tuple[int, int], tuple[Breakdown, list[Row], list[int], int]] = {}
        """Rows of instructions shown before: (id of the breakdown, width) -> its rows, the
        row of each entry and the widest row's length."""
        self._entries_of: dict[int, tuple[Breakdown, tuple[Entry, ...]]] = {}
        """The entries of breakdowns shown before, by the breakdown's id."""
        self.border_title = "Breakdown"

    # -- what is shown -----------------------------------------------------------------

    def show(self, breakdown: Breakdown | None) -> None:
        """Draw `breakdown`; the cursor stays on the same strip and range name if it can."""
        previous = self.selected
        self.breakdown = breakdown
        self.entries = self._entries(breakdown)
        set_border_title_alone(self, "Breakdown" if breakdown is None else f"Breakdown · instruction {breakdown.index}")
        self._built_width = -1
        keep = 0
        if previous is not None:
            for position, entry in enumerate(self.entries):
                same_label = (entry.label and entry.label.name) == (previous.label and previous.label.name)
                if entry.strip.name == previous.strip.name and same_label:
                    keep = position
                    break
        old_cursor = self.cursor
        self.set_reactive(LimaBreakdown.cursor, keep)
        self._rebuild(old_cursor)

    @property
    def selected(self) -> Entry | None:
        """The strip or range under the cursor."""
        return self.entries[self.cursor] if 0 <= self.cursor < len(self.entries) else None

    def watch_cursor(self, old: int, new: int) -> None:
        scrolled = self.scroll_offset
        self._scroll_to_cursor()
        if self.scroll_offset != scrolled:
            self.refresh()
            return
        top, width = self.scroll_offset.y, self.scrollable_content_region.width
        rows = [Region(0, row - top, width, 1) for row, cells in enumerate(self._lines) if _on_row(cells, old) or _on_row(cells, new)]
        if rows:
            self.refresh(*rows)

    def on_resize(self) -> None:
        self._rebuild()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()

    # -- keys ---------------------------------------------------------------------------

    def _select(self, position: int) -> None:
        if not self.entries:
            return
        self.cursor = max(0, min(position, len(self.entries) - 1))
        entry = self.entries[self.cursor]
        self.post_message(self.FieldSelected(entry.bits, entry.strip, entry.label))

    def select_named(self, strip: str, label: str | None = None) -> bool:
        """Put the cursor on strip `strip` (or its range `label`), as the keys would; False
        when the instruction has no such strip or range."""
        for position, entry in enumerate(self.entries):
            if entry.strip.name == strip and (entry.label.name if entry.label else None) == label:
                self._select(position)
                return True
        return False

    def action_move(self, step: int) -> None:
        """Move the cursor to the next or previous strip or range."""
        self._select(self.cursor + step)

    def action_strip(self, step: int) -> None:
        """Move the cursor to the next or previous strip as a whole."""
        starts = [i for i, entry in enumerate(self.entries) if entry.label is None]
        if not starts:
            return
        if step > 0:
            later = [i for i in starts if i > self.cursor]
            self._select(later[0] if later else starts[-1])
        else:
            earlier = [i for i in starts if i < self.cursor]
            self._select(earlier[-1] if earlier else starts[0])

    def action_first(self) -> None:
        """Select the control word."""
        self._select(0)

    def on_click(self, event: events.Click) -> None:
        """Select the strip or range drawn on the clicked row (a strip's title or bits,
        a range's row, or one of its bits)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        row = offset.y + self.scroll_offset.y
        if not 0 <= row < len(self._lines):
            return
        column = offset.x + self.scroll_offset.x
        x = 0
        positions = []
        for text, _, position in self._lines[row]:
            if position is not None:
                positions.append(position)
                if x <= column < x + len(text):
                    self._select(position)
                    return
            x += len(text)
        if positions:
            self._select(positions[0])

    # -- layout ---------------------------------------------------------------------------

    def _rebuild(self, old_cursor: int | None = None) -> None:
        """Lay the breakdown out in rows for the pane's width, and repaint: only the rows
        that differ from those on screen when the cursor was at `old_cursor` (another
        instruction), else the whole pane."""
        width = max(20, self.scrollable_content_region.width or 80)
        self._built_width = width
        old_lines = self._lines
        _, self._lines, self._entry_rows, widest = self._layout(width)
        scrolled = self.scroll_offset
        set_virtual_size(self, Size(max(widest, width), len(self._lines)), repaint=False)
        if old_cursor is None or self.scroll_offset != scrolled or not self.is_mounted:
            self.refresh()
            return
        top, (width, height) = self.scroll_offset.y, self.scrollable_content_region.size
        changed = []
        for row in range(top, top + height):
            old = old_lines[row] if row < len(old_lines) else None
            new = self._lines[row] if row < len(self._lines) else None
            if old != new or (old is not None and (_on_row(old, old_cursor) or _on_row(new, self.cursor))):
                changed.append(Region(0, row - top, width, 1))
        if changed:
            self.refresh(*changed)

    def prepare(self, breakdown: Breakdown) -> None:
        """Lay out `breakdown` (another instruction's) now, so that showing it later is
        quick (the view prepares the instructions next to the selected one)."""
        self._entries(breakdown)
        if self._built_width > 0:
            self._layout(self._built_width, breakdown)

    def _entries(self, breakdown: Breakdown | None) -> tuple[Entry, ...]:
        """Every strip and range of `breakdown` in drawing order (kept)."""
        if breakdown is None:
            return ()
        kept = self._entries_of.get(id(breakdown))
        if kept is not None and kept[0] is breakdown:
            return kept[1]
        entries: list[Entry] = []
        for strip in breakdown.strips:
            entries.append(Entry(strip, None))
            entries += [Entry(strip, label) for label in strip.labels]
        if len(self._entries_of) >= _KEPT_LAYOUTS:
            self._entries_of.clear()
        self._entries_of[id(breakdown)] = (breakdown, tuple(entries))
        return tuple(entries)

    def _layout(self, width: int, breakdown: Breakdown | None = None) -> tuple[Breakdown, list[Row], list[int], int]:
        """The rows of `breakdown` (the shown one) at `width`, the row of each entry and the
        widest row's length (kept)."""
        breakdown = self.breakdown if breakdown is None else breakdown
        key = (id(breakdown), width)
        kept = self._layouts.get(key)
        if kept is not None and kept[0] is breakdown:
            return kept
        lines: list[Row] = []
        entry_rows: list[int] = []
        position = 0
        for strip in breakdown.strips if breakdown is not None else ():
            entry_rows.append(len(lines))
            lines.append(((strip.title, strip.unit, position),))
            lines += self._bit_rows(strip, position, width)
            position += 1
            for label in strip.labels:
                entry_rows.append(len(lines))
                lines.append(self._label_row(strip, label, position))
                position += 1
            lines.append(())
        if len(self._layouts) >= _KEPT_LAYOUTS:
            self._layouts.clear()
        widest = max((sum(len(text) for text, _, _ in line) for line in lines), default=0)
        laid_out = self._layouts[key] = (breakdown, lines, entry_rows, widest)
        return laid_out

    def _bit_rows(self, strip: BitStrip, first_entry: int, width: int) -> list[Row]:
        """The strip's bits, highest first, one run per range; a range starts a new row
        when it does not fit the current one, and only a range longer than a row is split."""
        room = max(8, width - _INDENT)
        rows: list[Row] = []
        row: list[Cell] = []
        used = 0
        for position, label in reversed(list(enumerate(strip.labels, start=first_entry + 1))):
            unit = "unknown" if label.unknown else strip.unit
            digits = label.binary
            if row and used + 1 + len(digits) > room:
                rows.append(tuple(row))
                row, used = [], 0
            elif row:
                row.append((" ", None, None))
                used += 1
            while used + len(digits) > room:
                cut = room - used
                row.append((digits[:cut], unit, position))
                rows.append(tuple(row))
                row, used, digits = [], 0, digits[cut:]
            if digits:
                row.append((digits, unit, position))
                used += len(digits)
        if row:
            rows.append(tuple(row))
        return [((" " * _INDENT, None, None), *cells) for cells in rows]

    def _label_row(self, strip: BitStrip, label: Label, position: int) -> Row:
        unit = "unknown" if label.unknown else strip.unit
        return (
            (f"{' ' * _INDENT}{label.bit_range_text:>5} ", "muted", position),
            (f"{label.name:<18}", unit, position),
            (f"{label.value_text:>10}  ", None, position),
            (label.meaning, "unknown" if label.unknown else None, position),
        )

    def _scroll_to_cursor(self) -> None:
        if not self._entry_rows or self.cursor >= len(self._entry_rows):
            return
        row = self._entry_rows[self.cursor]
        height = max(1, self.scrollable_content_region.height)
        top = self.scroll_offset.y
        if row < top:
            self.scroll_to(y=row, animate=False, immediate=True)
        elif row >= top + height:
            self.scroll_to(y=row - height + 1, animate=False, immediate=True)

    # -- rendering ------------------------------------------------------------------------

    def _style(self, unit: str | None) -> Style:
        if unit is None:
            return _PLAIN
        if unit == CONTROL_UNIT:
            return self.memo_style("lima-breakdown--control")
        if unit in ("unknown", "padding"):
            return self.memo_style("lima-breakdown--unknown")
        if unit == "muted":
            return self.memo_style("lima-breakdown--muted")
        return self.memo_style(_UNIT_CLASSES[unit])

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        width = self.scrollable_content_region.width
        if width != self._built_width and width > 0:
            self._rebuild()
        row = scroll_y + y
        base = self.memo_style("")
        if row >= len(self._lines):
            return Strip.blank(width, base)
        cells = self._lines[row]
        cursor = self.cursor
        drawn = self._drawn_styles(base)
        key = (cells, cursor if _on_row(cells, cursor) else None, scroll_x, width)
        strip = self._strips.get(key)
        if strip is None:
            if len(self._strips) >= _KEPT_ROWS:
                self._strips.clear()
            strip = self._strips[key] = self._draw_row(cells, cursor, scroll_x, width, base, drawn)
        return strip

    def _draw_row(self, cells: Row, cursor: int, scroll_x: int, width: int, base: Style, drawn: dict) -> Strip:
        """A row as a strip `width` cells wide: a segment per run of one style."""
        length = sum(len(text) for text, _, _ in cells)
        if scroll_x or length > width:
            return self._cut_line(cells, scroll_x, width, base)
        segments: list[Segment] = []
        texts: list[str] = []
        style = None
        for text, unit, position in cells:
            cell_style = drawn[unit, position == cursor]
            if cell_style is not style and texts:
                segments.append(Segment("".join(texts), style))
                texts = []
            texts.append(text)
            style = cell_style
        if texts:
            segments.append(Segment("".join(texts), style))
        if length < width:
            segments.append(Segment(" " * (width - length), base))
        return Strip(segments, width)

    def _drawn_styles(self, base: Style) -> dict:
        """Each unit's style, under the cursor or not, over the pane's own (`base`), as
        `_cut_line` draws them; kept while the pane's and its components' styles are the
        same objects (as `StyleMemo` keeps them)."""
        key = (base, self._memo_key, *map(id, self._component_styles.values()))
        if self._drawn_key != key:
            self._drawn_key = key
            self._drawn = _UnitStyles(self, base)
            self._strips = {}
        return self._drawn

    def _cut_line(self, cells: list, scroll_x: int, width: int, base: Style) -> Strip:
        """A row scrolled sideways or wider than the pane, cut to the pane."""
        cursor_style = self.memo_style("lima-breakdown--cursor")
        segments = []
        for text, unit, position in cells:
            style = self._style(unit)
            if position is not None and position == self.cursor:
                style = style + cursor_style
            segments.append(Segment(text, style))
        line = Strip(segments).crop(scroll_x, scroll_x + width).extend_cell_length(width)
        return line.apply_style(base)

    def rendered_text(self) -> list[str]:
        """Every row as plain text (for tests and copying), whatever is on screen."""
        return ["".join(text for text, _, _ in line) for line in self._lines]


def _on_row(cells: Row, entry: int) -> bool:
    """True when entry `entry` (the cursor's) is drawn on the row of `cells`."""
    return any(position == entry for _, _, position in cells)
