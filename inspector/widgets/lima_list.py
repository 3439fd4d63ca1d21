"""The Lima instruction list: one PP instruction a row, branch labels, highlighted text.

A Line-API `ScrollView` over a `LimaDocument`'s rows: seed-004 syntax by default, Mesa's
one key away (`m`), coloured by the `LimaLexer` through the theme's Pygments style, with
the instruction index and word offset in a gutter. The widget never moves its own cursor:
keys become intents (`InstructionSelected`) for the screen, which sets
`selected` back. Stepping keys: next/previous instruction, next/previous branch, next/
previous instruction using a unit (`u` picks the unit), `enter` follows a branch, `:`
goes to an index.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.strip import Strip

from spvinspect.lexers.lima import LimaLexer
from spvinspect.lima_document import STYLES, LimaDocument, RowKind
from spvinspect.screens.go_to import GoToDialog
from spvinspect.themes import token_style
from spvinspect.widgets.row_list import RowList, fit_row

GUTTER_WIDTH = 13
"""Index (5), word offset (`w` and 5 digits) and two spaces."""
_LEXER = LimaLexer()
_KEPT_ROWS = 512
"""Drawn rows the list keeps (a few screens of them)."""


class LimaInstructionList(RowList):
    """Every instruction of a PP program, in the seed-004 or Mesa syntax, with a cursor."""

    GUTTER_WIDTH = GUTTER_WIDTH
    WIDEN_WHEN_IDLE = False

    DEFAULT_CSS = """
    LimaInstructionList { background: $surface; }
    LimaInstructionList > .lima-list--gutter { color: $text-muted; }
    LimaInstructionList > .lima-list--cursor { background: $hex-selection-background; }
    LimaInstructionList > .lima-list--undecoded { color: $lima-unknown-bits; text-style: italic; }
    LimaInstructionList > .lima-list--run-mark { color: $error; text-style: bold; }
    """
    COMPONENT_CLASSES = {"lima-list--gutter", "lima-list--cursor", "lima-list--undecoded", "lima-list--run-mark"}
    """Gutter, the selected instruction's row, words left undecoded, a run's marks."""
    BINDINGS = [
        Binding("down,j", "step(1)", "Next", show=False, id="lima.next", tooltip="Next instruction (n from any pane)"),
        Binding("up,k", "step(-1)", "Previous", show=False, id="lima.previous", tooltip="Previous instruction (p from any pane)"),
        Binding("pagedown", "page(1)", "Page down", show=False, id="lima.page_down"),
        Binding("pageup", "page(-1)", "Page up", show=False, id="lima.page_up"),
        Binding("home", "edge(0)", "First", show=False, id="lima.first", tooltip="First instruction"),
        Binding("end,G", "edge(-1)", "Last", show=False, id="lima.last", tooltip="Last instruction"),
        Binding("enter", "follow", "Follow branch", id="lima.follow", tooltip="Jump to the branch target of this instruction"),
        Binding("right_square_bracket", "branch(1)", "Next branch", show=False, id="lima.next_branch", tooltip="Next instruction with a branch or discard"),
        Binding("left_square_bracket", "branch(-1)", "Previous branch", show=False, id="lima.previous_branch", tooltip="Previous instruction with a branch or discard"),
        Binding("right_curly_bracket", "unit(1)", "Next in unit", show=False, id="lima.next_unit", tooltip="Next instruction using the chosen unit (u chooses)"),
        Binding("left_curly_bracket", "unit(-1)", "Previous in unit", show=False, id="lima.previous_unit", tooltip="Previous instruction using the chosen unit"),
        Binding("u", "cycle_unit", "Unit", id="lima.cycle_unit", tooltip="Choose the unit that { and } step to"),
    ]

    class InstructionSelected(Message):
        """Select instruction `index` (the screen sets `selected`, the other panes follow)."""

        def __init__(self, index: int, jump: bool = False) -> None:
            super().__init__()
            self.index = index
            self.jump = jump
            """True for a jump (branch target, go to index) the history should remember."""

    selected: var[int | None] = var(None, init=False)
    """The selected instruction (set by the screen); the cursor row follows it."""
    style: var[str] = var("seed", init=False)
    """`seed` (the proposed syntax) or `mesa` (Mesa's disassembler)."""
    step_unit: var[str | None] = var(None, init=False)
    """The unit `{` and `}` step to (`texture`, `vec4-mul`…); None until chosen."""

    def __init__(self, document: LimaDocument, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.document = document
        self._strips: LRUCache[tuple[int, str], Strip] = LRUCache(1024)
        self._prepared: dict[tuple[int, str], Strip] = {}
        """Rows' text highlighted ahead of being drawn (`prepare_rows_near`), by (row, style)."""
        self._drawn_rows: dict[tuple, Strip] = {}
        """Rows drawn with their gutter and cursor, by what they are drawn from (`render_row`)."""
        self._center_next = False
        """Centre the row of the next `selected` when it is off screen (`show`)."""
        self._run_marks: dict[int, str] = {}
        """Instruction index -> its gutter mark (a breakpoint, the run's current instruction)."""
        self.virtual_size = Size(GUTTER_WIDTH + 80, document.row_count)
        self._update_title()

    def show_document(self, document: LimaDocument) -> None:
        """Show another program's rows (an edit's)."""
        self.document = document
        self._strips.clear()
        self._prepared.clear()
        self._drawn_rows.clear()
        self.virtual_size = Size(self.virtual_size.width, document.row_count)
        self.refresh()

    def _update_title(self) -> None:
        unit = f" · step unit {self.step_unit}" if self.step_unit else ""
        self.border_title = f"Lima · {self.style}{unit}"

    # -- what is shown ---------------------------------------------------------------

    def show(self, index: int, center: bool = False) -> None:
        """Select instruction `index`; `center` puts its row mid-list when it is off screen
        (a jump, a run's next instruction)."""
        self._center_next = center
        self.selected = index
        self._center_next = False

    def watch_selected(self, old: int | None, new: int | None) -> None:
        if new is not None:
            self._scroll_to_row(self.document.instruction_row(new), self._center_next)
        self.refresh_rows(self._row_of(index) for index in (old, new))

    def _row_of(self, index: int | None) -> int | None:
        """The row of instruction `index` (None: none, or no longer in the program)."""
        if index is None or not 0 <= index < len(self.document.instructions):
            return None
        return self.document.instruction_row(index)

    def watch_style(self) -> None:
        self._strips.clear()
        self._prepared.clear()
        self._drawn_rows.clear()
        self._update_title()
        self.refresh()

    def watch_step_unit(self) -> None:
        self._update_title()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._prepared.clear()
        self._drawn_rows.clear()
        self.refresh()

    @property
    def row_count(self) -> int:
        """Rows: labels, instructions and the words left undecoded."""
        return self.document.row_count

    @property
    def cursor_row(self) -> int | None:
        """The selected instruction's row."""
        return None if self.selected is None else self.document.instruction_row(self.selected)

    def on_resize(self) -> None:
        if self.cursor_row is not None:
            self._scroll_to_row(self.cursor_row)

    def _scroll_to_row(self, row: int, center: bool = False) -> None:
        """Bring a row into view, with the branch label above it."""
        label_above = row > 0 and self.document.rows[row - 1].kind is RowKind.LABEL
        self.scroll_to_row(row, center, first=row - 1 if label_above else row)

    # -- rendering ----------------------------------------------------------------------

    def render_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        # A row drawn before (the list scrolled a row under a step) comes from memory while
        # what it is drawn from is the same: its text, cursor, gutter mark, place and styles.
        shown = self.document.rows[row]
        selected = shown.kind is RowKind.INSTRUCTION and shown.instruction == self.selected
        mark = self._run_marks.get(shown.instruction) if shown.kind is RowKind.INSTRUCTION else None
        key = (row, selected, mark, scroll_x, width, self.style, base, *map(id, self._component_styles.values()))
        line = self._drawn_rows.get(key)
        if line is None:
            if len(self._drawn_rows) >= _KEPT_ROWS:
                self._drawn_rows.clear()
            line = self._drawn_rows[key] = self._draw_row(row, scroll_x, width, base)
        return line

    def _draw_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        """The gutter and the row's text fitted to `width`, padded, under the cursor's style
        (on its row) and the list's: one strip made (joining, padding and styling strips
        would make one each)."""
        text = fit_row(self._row_strip(row), scroll_x, width - GUTTER_WIDTH)
        shown = self.document.rows[row]
        gutter = self._gutter(shown)
        parts = [part for part in (gutter, text) if part.cell_count]
        segments = [segment for part in parts for segment in part._segments]
        length = sum(part.cell_length for part in parts)
        if length < width:
            segments.append(Segment(" " * (width - length)))
            length = width
        if shown.kind is RowKind.INSTRUCTION and shown.instruction == self.selected:
            cursor = self.memo_style("lima-list--cursor")
            segments = [Segment(t, base + (cursor + s if s else cursor), c) for t, s, c in segments]
        else:
            segments = [Segment(t, base + s if s else base, c) for t, s, c in segments]
        return Strip(segments, length)

    def show_run_marks(self, marks: dict[int, str]) -> None:
        """Mark instructions in the gutter (`spvinspect.execution.gutter_marks`)."""
        if marks != self._run_marks:
            old, self._run_marks = self._run_marks, dict(marks)
            moved = {index for index in old.keys() | marks.keys() if old.get(index) != marks.get(index)}
            self.refresh_rows(self._row_of(index) for index in moved)

    def _gutter(self, shown) -> Strip:
        mark = self._run_marks.get(shown.instruction) if shown.kind is RowKind.INSTRUCTION else None
        if mark is not None:
            gutter = self.memo_style("lima-list--gutter")
            return Strip([
                Segment(f"{shown.instruction:>5}", gutter),
                Segment(mark, self.memo_style("lima-list--run-mark")),
                Segment(f"w{shown.word_offset:<5} "[: GUTTER_WIDTH - 6].ljust(GUTTER_WIDTH - 6), gutter),
            ])
        if shown.kind is RowKind.INSTRUCTION:
            text = f"{shown.instruction:>5} w{shown.word_offset:<5}  "
        elif shown.kind is RowKind.UNDECODED:
            text = f"{'':>5} w{shown.word_offset:<5}  "
        else:
            text = " " * GUTTER_WIDTH
        return Strip([Segment(text[:GUTTER_WIDTH].ljust(GUTTER_WIDTH), self.memo_style("lima-list--gutter"))])

    def _row_strip(self, row: int) -> Strip:
        key = (row, self.style)
        cached = self._strips.get(key)
        if cached is None:
            cached = self._prepared.pop(key, None) or self._highlighted(row)
            self._strips[key] = cached
            self.note_width(cached.cell_length)
        return cached

    def _highlighted(self, row: int) -> Strip:
        """Row `row`'s text coloured by the lexer (or as undecoded words)."""
        text = self.document.row_text(row, self.style)
        if self.document.rows[row].kind is RowKind.UNDECODED:
            return Strip([Segment(text, self.get_component_rich_style("lima-list--undecoded"))])
        theme, dark = self.app.theme, self.app.current_theme.dark
        return Strip([
            Segment(value, token_style(theme, dark, token))
            for token, value in _LEXER.get_tokens(text)
            if value != "\n"
        ])

    def prepare_rows_near(self, index: int) -> None:
        """Highlight now the rows a page either side of instruction `index`'s page that were
        never drawn, so that the steps and moves after it (a run re-centres the list) draw
        them without lexing them; they count towards the list's width once drawn."""
        row, height = self._row_of(index), max(1, self.scrollable_content_region.height)
        if row is None:
            return
        top = round(self.scroll_offset.y)
        if len(self._prepared) > _KEPT_ROWS:
            self._prepared.clear()
        style = self.style
        for near in range(max(0, min(top, row) - height), min(self.row_count, max(top, row) + 2 * height)):
            key = (near, style)
            if key not in self._prepared and self._strips.get(key) is None:
                self._prepared[key] = self._highlighted(near)

    def shown_text(self, row: int) -> str:
        """A row's text as drawn, without the gutter."""
        return self._row_strip(row).text

    # -- keys: each becomes an intent -------------------------------------------------------

    def _request(self, index: int | None, jump: bool = False) -> None:
        count = len(self.document.instructions)
        if index is None or not count:
            return
        self.post_message(self.InstructionSelected(max(0, min(index, count - 1)), jump))

    def action_step(self, step: int) -> None:
        """Select the next or previous instruction."""
        self._request((self.selected if self.selected is not None else -step) + step)

    def action_page(self, step: int) -> None:
        """Select the instruction a page away."""
        height = max(1, self.scrollable_content_region.height - 1)
        self._request((self.selected or 0) + step * height)

    def action_edge(self, which: int) -> None:
        """Select the first (0) or last (-1) instruction."""
        self._request(0 if which == 0 else len(self.document.instructions) - 1, jump=True)

    def action_follow(self) -> None:
        """Jump to the branch target of the selected instruction, if it starts an instruction."""
        if self.selected is None:
            return
        target = self.document.branch_target(self.selected)
        if target is None:
            word = self.document.branch_target_word(self.selected)
            if word is not None:
                self.notify(f"the branch target, word {word}, does not start an instruction", severity="warning")
            return
        self._request(target, jump=True)

    def action_branch(self, step: int) -> None:
        """Select the next or previous instruction holding a branch or discard."""
        self._request(self.document.next_branch(self._from(step), step))

    def action_unit(self, step: int) -> None:
        """Select the next or previous instruction using the chosen unit."""
        if self.step_unit is None:
            self.action_cycle_unit()
        if self.step_unit is not None:
            self._request(self.document.next_using(self._from(step), self.step_unit, step))

    def _from(self, step: int) -> int:
        return self.selected if self.selected is not None else (-1 if step > 0 else len(self.document.instructions))

    def action_cycle_unit(self) -> None:
        """Choose the next unit the program uses as the one `{` and `}` step to."""
        units = self.document.units_used
        if not units:
            return
        position = units.index(self.step_unit) + 1 if self.step_unit in units else 0
        self.step_unit = units[position % len(units)]

    def action_toggle_style(self) -> None:
        """Switch between the seed-004 syntax and Mesa's."""
        self.style = STYLES[(STYLES.index(self.style) + 1) % len(STYLES)]

    def action_goto(self) -> None:
        """Ask for an index and go there."""

        def chosen(index: int | None) -> None:
            if index is not None:
                self._request(index, jump=True)

        self.app.push_screen(GoToDialog.instruction(len(self.document.instructions)), chosen)

    def on_click(self, event: events.Click) -> None:
        row = self.scroll_offset.y + event.y
        if row < self.document.row_count:
            self._request(self.document.rows[row].instruction)
