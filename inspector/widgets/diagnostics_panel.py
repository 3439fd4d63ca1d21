"""The diagnostics panel: what is wrong with the module, one line each; choosing one
selects the word it names."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from spvinspect.codec.diagnostics import Diagnostic

SHOWN_AT_MOST = 5000
"""A hostile file can have a diagnostic per word; the list stays quick to build."""


class DiagnosticsPanel(OptionList):
    """Every diagnostic with its word offset and byte offset; `enter` jumps to the word."""

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="diagnostics.down", tooltip="Next diagnostic"),
        Binding("k", "cursor_up", "Up", show=False, id="diagnostics.up", tooltip="Previous diagnostic"),
    ]

    COMPONENT_CLASSES = {"diagnostics-panel--offset", "diagnostics-panel--error", "diagnostics-panel--warning"}
    """The position column and the severity words."""

    class Chosen(Message):
        """The user picked a diagnostic: show the word it names."""

        def __init__(self, word: int) -> None:
            super().__init__()
            self.word = word

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="-empty")  # until the view shows some
        self.border_title = "Diagnostics"
        self._shown: list[Diagnostic] = []

    def show_diagnostics(self, diagnostics: list[Diagnostic]) -> None:
        """Replace the listed diagnostics."""
        ordered = sorted(diagnostics, key=lambda d: -1 if d.word_offset is None else d.word_offset)
        if ordered == self._shown:
            return
        self._shown = ordered
        diagnostics = ordered
        style = self.get_component_rich_style
        options = []
        for number, diagnostic in enumerate(diagnostics[:SHOWN_AT_MOST]):
            word = diagnostic.word_offset
            where = f"{word * 4:08x} w{word}" if word is not None else "module"
            severity = diagnostic.severity.value
            prompt = Text.assemble(
                (f"{where:<18}", style("diagnostics-panel--offset")),
                (f"{severity}: ", style(f"diagnostics-panel--{'warning' if severity != 'error' else 'error'}")),
                diagnostic.message,
            )
            options.append(Option(prompt, id=str(number)))
        self.clear_options()
        self.add_options(options)
        more = len(diagnostics) - SHOWN_AT_MOST
        self.border_title = f"Diagnostics ({len(diagnostics):,})"
        self.border_subtitle = f"first {SHOWN_AT_MOST:,} shown, {more:,} more" if more > 0 else ""

    def on_focus(self) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        word = self._shown[int(event.option.id or 0)].word_offset
        if word is not None:
            self.post_message(self.Chosen(word))
