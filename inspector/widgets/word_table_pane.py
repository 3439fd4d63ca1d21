"""The word-table pane: every word of the selected instruction (or of the header) on its
own row, the way the specification lays an instruction out, with the grammar's word-count
rule in the title and the word under the cursor highlighted.

The rows come from the codec (`word_table`, `header_table`); the pane only shows them,
coloured as the hex pane colours each kind of word.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import on
from textual.widgets import DataTable
from textual.content import Content

from spvinspect.codec.text.word_detail import WordKind
from spvinspect.codec.text.word_table import WordRow, WordTable, header_table, word_table
from spvinspect.messages import SelectWord
from spvinspect.screens.panes import BuiltPane
from spvinspect.selection import Selection
from spvinspect.widgets.hex_view import HexView

ROW_LIMIT = 2048
"""Rows shown at most (an `OpSource` can carry a whole shader's text); the title says
how many words the instruction has."""
COLUMNS = ("#", "offset", "file bytes", "what it is · what it holds")


def kind_name(row: WordRow) -> str:
    """The hex pane's cell kind of a row (`type-id`)."""
    return row.kind.value.replace("_", "-")


def row_cells(row: WordRow, style: Style) -> tuple[Text, ...]:
    """The cells of one row: index, byte offset, the bytes in file order, then what the
    word is (coloured as the hex pane colours it) over what it holds, its bits and what
    it is tied to, a line each."""
    lines = [row.text]
    if row.bits:
        lines.append(row.bits)
    if row.tied_to:
        lines.append(f"tied to {row.tied_to}")
    return (
        Text(str(row.index), justify="right"),
        Text(f"0x{row.byte_offset:x}"),
        Text(row.file_hex),
        Text.assemble((row.role, style), "\n", "\n".join(lines)),
    )


def table_title(table: WordTable, shown: int) -> str:
    """`OpStore, words 20-23 · word count 3 + variable` (and how many rows are shown)."""
    title = f"Words · {table.title}"
    if table.word_count_rule:
        title += f" · word count {table.word_count_rule}"
    if shown < len(table.rows):
        title += f" · first {shown:,} of {len(table.rows):,}"
    return title


class WordTablePane(BuiltPane, DataTable):
    """The words of the selected instruction, one a row; the cursor row is the selected word.

    Moving the cursor here selects that word in every pane."""

    DEFAULT_CSS = """
    WordTablePane { height: 1fr; border: round $panel-lighten-2; }
    WordTablePane:focus { border: round $accent; }
    """

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", zebra_stripes=False, **kwargs)
        self._shown: tuple[int, bool] | None = None
        """(instruction index or -1 for the header, raw ids) of the table shown."""
        self._offsets: list[int] = []
        """The word offset of each row shown."""

    def on_mount(self) -> None:
        selection = getattr(self.screen, "selection", None)
        if isinstance(selection, Selection):
            self.follow_selection(selection)

    def follow_selection(self, selection: Selection) -> None:
        if not self.display:
            self._shown = None  # built when shown
            return
        raw = bool(getattr(self.screen, "raw", False))
        if selection.instruction is not None:
            key = (selection.instruction, raw)
        elif selection.row is None:
            key = (-1, raw)
        else:
            key = None
        if key != self._shown:
            self._shown = key
            self._fill(self._table(selection))
        self._highlight(selection.word)

    def document_changed(self, document) -> None:
        self._shown = None

    def on_show(self) -> None:
        selection = getattr(self.screen, "selection", None)
        if isinstance(selection, Selection):
            self._shown = None
            self.follow_selection(selection)

    def _table(self, selection: Selection) -> WordTable | None:
        document = self.screen.document
        module = document.module
        if selection.instruction is not None:
            raw = bool(getattr(self.screen, "raw", False))
            instruction = module.instruction(selection.instruction)
            return word_table(module, instruction, document.listing(raw).formatter)
        if selection.row is None:
            return header_table(module)
        return None

    def _fill(self, table: WordTable | None) -> None:
        # Columns anew: their widths grow with every table otherwise, and so would
        # depend on the instructions shown before.
        self.clear(columns=True)
        self.add_columns(*COLUMNS)
        self._offsets = []
        if table is None:
            self.border_title = "Words · past the last instruction: no grammar to read them by"
            return
        rows = table.rows[:ROW_LIMIT]
        self.border_title = Content(table_title(table, len(rows)))
        styles = self._kind_styles()
        for row in rows:
            cells = row_cells(row, styles.get(kind_name(row), Style()))
            self.add_row(*cells, height=None)
            self._offsets.append(row.word_offset)

    def _kind_styles(self) -> dict[str, Style]:
        """Each word kind's style in the hex pane (one source for the colours)."""
        found = self.screen.query(HexView)
        if not found:
            return {}
        hex_view = found.first()
        return {name: hex_view.cell_style(name) for name in _KIND_NAMES}

    def _highlight(self, word: int) -> None:
        if word in self._offsets:
            row = self._offsets.index(word)
            if row != self.cursor_row:
                self.move_cursor(row=row, animate=False)

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, message: DataTable.RowHighlighted) -> None:
        message.stop()
        # A refill puts the cursor on row 0 before it goes to the selected word: only the
        # move that is still current is the user's.
        if not self.has_focus or message.cursor_row != self.cursor_row or not 0 <= message.cursor_row < len(self._offsets):
            return
        word = self._offsets[message.cursor_row]
        selection = getattr(self.screen, "selection", None)
        if not isinstance(selection, Selection) or selection.word != word:
            self.post_message(SelectWord(word, jump=False))


_KIND_NAMES = tuple(kind.value.replace("_", "-") for kind in WordKind)
"""The hex pane's cell kinds, one a word kind."""
