"""The detail panel: the word under the hex cursor, read as every type at once and
explained down to its operand (the data inspector of ImHex, for SPIR-V)."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from spvinspect.codec.text.word_detail import WordDetail


class WordDetailPanel(Static):
    """Renders a `WordDetail`: one labelled row per fact (a long value wraps within its
    column), diagnostics in the error colour."""

    COMPONENT_CLASSES = {"word-detail--label", "word-detail--diagnostic"}
    DEFAULT_CSS = """
    WordDetailPanel { height: auto; padding: 0 1; background: $surface; }
    WordDetailPanel > .word-detail--label { color: $text-muted; text-style: bold; }
    WordDetailPanel > .word-detail--diagnostic { color: $diagnostic-error; }
    """

    def __init__(self, detail: WordDetail | None = None, **kwargs) -> None:
        super().__init__(**kwargs)
        self.detail = detail
        """The word shown; None shows a hint instead."""
        self.border_title = "Word"

    def on_mount(self) -> None:
        """Show the word given at construction."""
        self.show(self.detail)

    def show(self, detail: WordDetail | None) -> None:
        """Show `detail` (None: nothing selected yet)."""
        self.detail = detail
        if detail is None:
            self.update(Text("Move the hex cursor to a word to see what it is.", style="italic"))
            return
        label = self.get_component_rich_style("word-detail--label", partial=True)
        error = self.get_component_rich_style("word-detail--diagnostic", partial=True)
        table = Table.grid(padding=(0, 1), expand=True)
        table.add_column(no_wrap=True)
        table.add_column(ratio=1)
        for name, value in detail.rows():
            table.add_row(Text(name, label), Text(value, error if name == "Diagnostic" else ""))
        # A panel of fixed height never needs the screen laid out again for new text.
        self.update(table, layout=self.styles.height is None or self.styles.height.is_auto)
