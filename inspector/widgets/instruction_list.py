"""The instruction list: the disassembly, one instruction a row, rendered on demand.

A `ScrollView` on the Line API: `render_line(y)` draws only the rows on screen, so a
half-million-instruction module scrolls like a small one. Each row is the exact line
`spvinspect dis` prints, coloured by the listing's segment roles through the theme, with
the instruction's byte offset in a gutter. The widget never changes the selection
itself: keys become `SelectRow` / `GoToDefinition` / `ListUses` intents for the screen,
which sets `selection` back.
"""

from __future__ import annotations

from rich.cells import cell_len
from rich.segment import Segment as RichSegment
from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.reactive import var
from textual.strip import Strip

from spvinspect.codec.text.listing import Role
from spvinspect.document import Document
from spvinspect.messages import GoToDefinition, ListUses, SelectRow, SelectWord
from spvinspect.selection import Selection
from spvinspect.widgets.role_styles import role_styles
from spvinspect.widgets.row_keys import row_move_bindings
from spvinspect.widgets.row_list import RowList, fit_row

CONTROL_PICTURES = {code: chr(0x2400 + code) for code in range(32)} | {10: "↵", 9: "⇥", 127: "␡"}
"""How control characters inside strings show on their one row (a newline in OpSource
text would otherwise break the row in two); each picture stands for one character."""
GUTTER_WIDTH = 11
"""Eight hex digits, a diagnostic mark and two spaces."""
ID_ROLES = frozenset({Role.RESULT_ID, Role.ID, Role.TYPE_ID})
"""Roles of segments that name an id."""
PARTIAL_COMPONENTS = tuple(f"instruction-list--{name}" for name in ("gutter", "mark", "run-mark", "operand", "same-id", "tail"))
"""Components a row takes its own styles from (laid over the roles' colours)."""
NO_STYLE = Style()
"""A role without a colour of its own (one object, not one made per segment)."""
ROWS_KEPT = 512
"""Rows drawn kept by everything that decides how they look: a step that scrolls the list
a row, or the cursor going round a loop, draws rows it drew a moment ago."""


class InstructionList(RowList):
    """Every instruction of the module as `spvinspect dis` prints it, with a cursor."""

    GUTTER_WIDTH = GUTTER_WIDTH

    BINDINGS = [
        *row_move_bindings("list", "instruction"),
        Binding("home", "first", "First", show=False, id="list.first", tooltip="First instruction (also gg)"),
        Binding("end,G", "last", "Last", show=False, id="list.last", tooltip="Last row"),
        Binding("g", "prefix_g", "g…", show=False, id="list.g", tooltip="gg first row, gd definition, gr uses"),
        Binding("right,l", "operand(1)", "Next operand", show=False, id="list.operand_next", tooltip="The operand cursor to the next operand"),
        Binding("left,h", "operand(-1)", "Previous operand", show=False, id="list.operand_previous", tooltip="The operand cursor to the previous operand (the opcode before the first)"),
        Binding("right_square_bracket", "function(1)", "Next function", show=False, id="list.function_next", tooltip="The next OpFunction"),
        Binding("left_square_bracket", "function(-1)", "Previous function", show=False, id="list.function_previous", tooltip="The previous OpFunction"),
        Binding("right_curly_bracket", "block(1)", "Next block", show=False, id="list.block_next", tooltip="The next OpLabel in the function"),
        Binding("left_curly_bracket", "block(-1)", "Previous block", show=False, id="list.block_previous", tooltip="The previous OpLabel in the function"),
        Binding("enter", "definition", "Definition", id="list.definition", tooltip="Go to the definition of the id under the cursor (gd)"),
        Binding("u", "uses", "Uses", id="list.uses", tooltip="List the uses of the id under the cursor (gr)"),
        Binding("f", "fold", "Fold", show=False, id="list.fold", tooltip="Fold the function (on its OpFunction) or the block at the cursor into one line, or open the fold"),
    ]

    COMPONENT_CLASSES = {
        "instruction-list--gutter",
        "instruction-list--mark",
        "instruction-list--cursor",
        "instruction-list--operand",
        "instruction-list--same-id",
        "instruction-list--tail",
        "instruction-list--run-mark",
    }
    """Gutter, diagnostic mark, cursor row, operand under the cursor, other uses of its id,
    tail rows, a run's marks (breakpoints, the current instruction)."""

    raw: var[bool] = var(False)
    """Raw id numbers instead of friendly names."""
    selection: var[Selection | None] = var(None, always_update=True)
    """The screen's selection; the cursor row and operand follow it."""

    def __init__(self, document: Document, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.document = document
        self.diagnostic_rows: frozenset[int] = frozenset()
        """Rows whose words a diagnostic names; marked in the gutter."""
        self._run_marks: dict[int, str] = {}
        """Instruction index -> its run mark in the gutter (`spvinspect.execution.gutter_marks`)."""
        self._segments: LRUCache[tuple[int, bool], tuple] = LRUCache(4096)
        self._strips: LRUCache[tuple, Strip] = LRUCache(ROWS_KEPT)
        """Rows drawn (`render_row`); forgotten with the rows, the naming and the styles."""
        self._rows_replaced = False
        """The rows changed since the last selection (whose row then names an old row)."""
        self._pending_g = False
        self._center_next = False
        self._requested: tuple[int, int | None] | None = None
        self._unanswered = 0
        self._looks_kept: tuple | None = None
        """What `_looks` worked out, and for what."""
        self._partial_memo: dict[str, tuple[object, Style]] = {}
        self._partial_key = -1
        """Components' own styles, while the list's styles stay the same (`_partial_style`)."""
        self._page_top: int | None = None
        """Where a page key scrolls the list once its move is answered: the page and the
        cursor move in one frame (scrolling at once would show a frame of the old cursor)."""
        self.virtual_size = Size(GUTTER_WIDTH + 80, document.row_count)

    # -- what is shown -------------------------------------------------------------

    def show_run_marks(self, marks: dict[int, str]) -> None:
        """Mark instructions in the gutter: breakpoints and the run's current instruction."""
        if marks != self._run_marks:
            old, self._run_marks = self._run_marks, dict(marks)
            moved = {index for index in old.keys() | marks.keys() if old.get(index) != marks.get(index)}
            self.refresh_rows(self._row_of(index) for index in moved)

    def _row_of(self, index: int) -> int | None:
        """The row showing instruction `index` (None: no such instruction)."""
        if not 0 <= index < self.document.instruction_count:
            return None
        return self.document.layout.row_of(index)

    def show(self, selection: Selection, center: bool = False) -> None:
        """Put the cursor on `selection`; `center` puts its row mid-screen (after a jump)."""
        self._center_next = center
        self.selection = selection

    def watch_selection(self, old: Selection | None, new: Selection | None) -> None:
        if self._unanswered:
            self._unanswered -= 1
        if not self._unanswered:
            self._requested = None
            if self._page_top is not None:
                self.scroll_to(y=self._page_top, animate=False, immediate=True)
                self._page_top = None
        if new is None or new.row is None:
            self.refresh()
            return
        self.scroll_to_row(new.row, self._center_next)
        self._center_next = False
        # The old selection's row belongs to the rows shown before, when they changed.
        replaced, self._rows_replaced = self._rows_replaced, False
        if old is not None and not replaced and self._id_text(old) == self._id_text(new):
            self.refresh_rows((old.row, new.row))  # no other row's marks changed
        else:
            self.refresh()

    @property
    def row_count(self) -> int:
        """Rows of the document's current layout."""
        return self.document.row_count

    def on_resize(self) -> None:
        if self.cursor_row is not None:
            self.scroll_to_row(self.cursor_row, center=True)

    def watch_raw(self) -> None:
        self._looks_kept = None
        self._segments.clear()
        self._strips.clear()
        self.refresh()

    def notify_style_update(self) -> None:
        self._looks_kept = None
        self._partial_memo.clear()
        self._strips.clear()
        super().notify_style_update()
        self.refresh()

    def action_fold(self) -> None:
        """Fold the function or block at the cursor (`spvinspect.folding`), or open the
        fold; the selection stays on its word."""
        from spvinspect.folding import toggle_fold

        kept, row = self.selection, self.cursor_row
        if kept is None or row is None:
            return
        layout = toggle_fold(self.document, row, self.raw)
        if isinstance(layout, str):
            self.notify(layout, severity="warning", timeout=4)
            return
        self.document.use_layout(layout)
        self.rows_changed()
        screen = self.screen
        for refresh in (getattr(getattr(screen, "search", None), "forget_matches", None), getattr(screen, "show_diagnostics", None)):
            if refresh is not None:
                refresh()  # their rows moved
        self.post_message(SelectWord(kept.word, jump=False))

    def rows_changed(self) -> None:
        """The document's rows changed (another layout, an edit): resize and redraw."""
        self._segments.clear()
        self._strips.clear()
        self._looks_kept = None
        self._rows_replaced = True
        self.reset_rows()

    @property
    def cursor_row(self) -> int | None:
        """The row under the cursor, counting moves asked for but not yet made: keys typed
        faster than the screen answers each move from where the previous one went."""
        if self._requested is not None:
            return self._requested[0]
        return None if self.selection is None else self.selection.row

    @property
    def cursor_operand(self) -> int | None:
        """The operand under the cursor, counting moves asked for but not yet made."""
        if self._requested is not None:
            return self._requested[1]
        return None if self.selection is None else self.selection.operand

    # -- rendering -----------------------------------------------------------------

    def _row_segments(self, row: int) -> tuple:
        key = (row, self.raw)
        cached = self._segments.get(key)
        if cached is None:
            segments = self.document.segments(row, self.raw)
            if segments is None:
                cached = ((self.document.row_text(row, self.raw), None, None),)
            else:
                cached = tuple((s.text.translate(CONTROL_PICTURES), s.role, s.operand) for s in segments)
            self._segments[key] = cached
        return cached

    def _selected_id_text(self) -> str | None:
        return self._id_text(self.selection)

    def _id_text(self, selection: Selection | None) -> str | None:
        """The id under `selection`'s operand, which every row marks where it appears."""
        if selection is None or selection.row is None or selection.operand is None:
            return None
        for text, role, operand in self._row_segments(selection.row):
            if operand == selection.operand and role in ID_ROLES:
                return text
        return None

    def render_row(self, row: int, scroll_x: int, width: int, base: Style) -> Strip:
        styles, same_id, looks = self.once_a_pass(self._looks_of_view)
        if looks[1] != base:  # drawn under another style than the list's own
            styles, same_id, looks = self._looks(base)
        selection = self.selection
        on_cursor = selection is not None and selection.row == row
        operand_cursor = selection.operand if on_cursor and selection is not None else None
        run_mark = self._run_marks.get(self.document.row_instruction(row)) if self._run_marks else None
        key = (row, self.raw, on_cursor, operand_cursor, same_id, row in self.diagnostic_rows, run_mark, scroll_x, width,
               looks, self.memo_style("instruction-list--cursor") if on_cursor else None)
        line = self._strips.get(key)
        if line is None:
            line = self._strips[key] = self._draw_row(row, scroll_x, width, base, styles, on_cursor, operand_cursor,
                                                      same_id, run_mark)
        return line

    def _looks(self, base: Style) -> tuple[dict, str | None, tuple]:
        """The roles' styles, the id every row marks and the styles a row is drawn with,
        worked out once for all the rows drawn while they stay the same (the theme, the
        list's styles and component styles, the selection)."""
        app, components = self.app, self._component_styles
        sources = [components.get(name) for name in PARTIAL_COMPONENTS]
        key = (app.theme, self.styles._cache_key, base, self.selection, self.raw, self.document)
        kept = self._looks_kept
        if kept is None or kept[0] != key or any(new is not old for new, old in zip(sources, kept[1])):
            styles = role_styles(app.theme, app.current_theme.dark)
            component = self._partial_style
            looks = (id(styles), base, *(component(name) for name in PARTIAL_COMPONENTS))
            kept = self._looks_kept = (key, sources, (styles, self._selected_id_text(), looks))
        return kept[2]

    def _looks_of_view(self) -> tuple[dict, str | None, tuple]:
        """`_looks` under the base style the rows are drawn with."""
        return self._looks(self.once_a_pass(self._line_view)[3])

    def _draw_row(self, row: int, scroll_x: int, width: int, base: Style, styles: dict, on_cursor: bool,
                  operand_cursor: int | None, same_id: str | None, run_mark: str | None) -> Strip:
        """Row `row` drawn: its gutter (byte offset, diagnostic and run marks) and its
        text coloured by role, with the cursor, the operand under it and the other uses of
        its id (`same_id`) marked."""
        component = self._partial_style
        same_id_style = component("instruction-list--same-id")
        operand_style = component("instruction-list--operand")
        parts = []
        for text, role, operand in self._row_segments(row):
            style = component("instruction-list--tail") if role is None else styles.get(role, NO_STYLE)
            if same_id is not None and text == same_id and role in ID_ROLES:
                style = style + same_id_style
            if operand_cursor is not None and operand == operand_cursor:
                style = style + operand_style
            parts.append(RichSegment(text, style))
        text_strip = Strip(parts)
        length = text_strip.cell_length
        self.note_width(length)
        word = self.document.row_word(row)
        mark = "●" if row in self.diagnostic_rows else " "
        gutter = [
            RichSegment(f"{word * 4:08x}" if word is not None else " " * 8, component("instruction-list--gutter")),
            RichSegment(mark, component("instruction-list--mark")),
            *((RichSegment(run_mark, component("instruction-list--run-mark")), RichSegment(" ")) if run_mark else (RichSegment("  "),)),
        ]
        cursor = self.memo_style("instruction-list--cursor") if on_cursor else None
        used = sum(cell_len(segment.text) for segment in gutter) + length
        if not scroll_x and used <= width:
            # The row fits unscrolled (most do): one strip, each segment under the
            # cursor's and the list's styles, and one segment of padding.
            over = base + cursor if cursor is not None else base
            drawn = [RichSegment(text, over + style if style else over) for text, style, _ in (*gutter, *parts) if text]
            if used < width:
                drawn.append(RichSegment(" " * (width - used), over))
            return Strip(drawn, width)
        text_strip = fit_row(text_strip, scroll_x, width - GUTTER_WIDTH)
        line = Strip.join([Strip(gutter), text_strip]).extend_cell_length(width)
        if cursor is not None:
            line = line.apply_style(cursor)
        return line.apply_style(base)

    def _partial_style(self, name: str) -> Style:
        """Component `name`'s own style (not combined with the list's), worked out once
        while the styles are the same (as `memo_style` keeps the combined ones)."""
        memo, key = self._partial_memo, self.styles._cache_key
        if key != self._partial_key:
            memo.clear()
            self._partial_key = key
        source = self._component_styles.get(name)
        kept = memo.get(name)
        if kept is None or kept[0] is not source:
            kept = memo[name] = (source, self.get_component_rich_style(name, partial=True))
        return kept[1]

    # -- keys: each becomes an intent ----------------------------------------------

    def _request(self, row: int, operand: int | None = None, jump: bool = False) -> None:
        if self.document.row_count:
            row = max(0, min(row, self.document.row_count - 1))
            self._requested = (row, operand)
            self._unanswered += 1
            self.post_message(SelectRow(row, operand, jump))

    def action_move(self, step: int) -> None:
        """Move the cursor `step` rows."""
        self._request((self.cursor_row or 0) + step)

    def action_page(self, step: int) -> None:
        """Move the cursor a page, and the page with it."""
        if not self.document.row_count:
            return
        height = max(1, self.scrollable_content_region.height - 1)
        top = self._page_top if self._page_top is not None else round(self.scroll_offset.y)
        self._page_top = max(0, top + step * height)
        self._request((self.cursor_row or 0) + step * height)

    def action_first(self) -> None:
        """Go to the first row."""
        self._request(0, jump=True)

    def action_last(self) -> None:
        """Go to the last row (the tail, if any)."""
        self._request(self.document.row_count - 1, jump=True)

    def action_prefix_g(self) -> None:
        """Start a two-key command: gg, gd or gr."""
        self._pending_g = True

    def on_key(self, event: events.Key) -> None:
        """Two-key commands are read here, before bindings: keys typed in one burst reach
        the widget before the app has run the first key's binding."""
        if not self._pending_g:
            if event.key == "g":
                event.stop()
                event.prevent_default()
                self._pending_g = True
            return
        self._pending_g = False
        second = {"g": self.action_first, "d": self.action_definition, "r": self.action_uses}.get(event.key)
        if second is not None:
            event.stop()
            event.prevent_default()
            second()

    def action_operand(self, step: int) -> None:
        """Move the operand cursor to the next or previous operand shown on the line."""
        row = self.cursor_row
        if row is None:
            return
        shown = [operand for _, role, operand in self._row_segments(row) if operand is not None]
        if not shown:
            return
        current = self.cursor_operand
        if current is None:
            target = shown[0] if step > 0 else None
        else:
            position = shown.index(current) if current in shown else -1
            target_position = position + step
            if target_position < 0:
                target = None
            else:
                target = shown[min(target_position, len(shown) - 1)]
        self._request(row, target)
        self._scroll_to_operand(row, target)

    def _scroll_to_operand(self, row: int, operand: int | None) -> None:
        """Scroll sideways so the operand under the cursor is on screen."""
        if operand is None:
            self.scroll_to(x=0, animate=False, immediate=True)
            return
        width = self.scrollable_content_region.width - GUTTER_WIDTH
        start = 0
        for text, _, index in self._row_segments(row):
            if index == operand:
                left = self.scroll_offset.x
                if not (left <= start and start + len(text) <= left + width):
                    if self._widest > self.virtual_size.width - GUTTER_WIDTH:
                        self._widen()  # this line may be wider than the list knows yet
                    self.scroll_to(x=max(0, start - width // 2), animate=False, immediate=True)
                return
            start += len(text)

    def action_function(self, step: int) -> None:
        """Go to the start of the next or previous function."""
        target = self.document.function_row(self.cursor_row or 0, step)
        if target is not None:
            self._request(target, jump=True)

    def action_block(self, step: int) -> None:
        """Go to the next or previous block label."""
        target = self.document.block_row(self.cursor_row or 0, step)
        if target is not None:
            self._request(target)

    def action_definition(self) -> None:
        """Ask to go to the definition of the id under the operand cursor."""
        self.post_message(GoToDefinition())

    def action_uses(self) -> None:
        """Ask for the uses of the id under the operand cursor."""
        self.post_message(ListUses())

    def on_click(self, event: events.Click) -> None:
        row = self.scroll_offset.y + event.y
        if row >= self.document.row_count:
            return
        column = event.x - GUTTER_WIDTH + self.scroll_offset.x
        start = 0
        chosen = None
        for text, _, operand in self._row_segments(row):
            if start <= column < start + len(text):
                chosen = operand
                break
            start += len(text)
        self._request(row, chosen)
