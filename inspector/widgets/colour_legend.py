"""The colour legend: what each colour of the hex pane and of the instruction list means,
drawn in the theme's own styles (the hex pane's cell styles, the listing's role styles),
so it can never disagree with the panes."""

from __future__ import annotations

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from spvinspect.formats.spirv_legend import HEX_MEANINGS, LIST_MEANINGS
from spvinspect.screens.panes import BuiltPane
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.role_styles import role_styles


def legend_renderable(screen: Screen, compact: bool = False) -> Group:
    """The legend of `screen`'s hex pane and instruction list, in the current theme: each
    colour's sample with what it means, or (`compact`) each colour's short name written
    in it, a line a pane."""
    app = screen.app
    role = role_styles(app.theme, app.current_theme.dark)
    sections = []
    found = screen.query(HexView)
    if found:
        hex_view = found.first()
        sections.append(("Hex pane", [(sample, hex_view.cell_style(name), short, meaning) for name, sample, short, meaning in HEX_MEANINGS]))
    sections.append(("Instruction list", [(sample, role[r], short, meaning) for r, sample, short, meaning in LIST_MEANINGS]))
    parts = []
    for title, entries in sections:
        if compact:
            line = Text(f"{title}:", style="bold")
            for _, style, short, _ in entries:
                line.append(" ")
                line.append(short, style=style)
            parts.append(line)
            continue
        parts.append(Text(title, style="bold"))
        table = Table.grid(padding=(0, 1))
        table.add_column(no_wrap=True)
        table.add_column()
        for sample, style, _, meaning in entries:
            table.add_row(Text(sample, style=style), meaning)
        parts.append(table)
    return Group(*parts)


class ColourLegend(BuiltPane, VerticalScroll):
    """The legend as a pane beside the hex pane, each colour with a short name (zoomed,
    and in the help screen, with what it means); `L` shows or hides it."""

    ALLOW_MAXIMIZE = True
    """On a narrow screen it opens zoomed, as other panes do."""
    DEFAULT_CSS = """
    ColourLegend { height: auto; max-height: 8; border: round $panel-lighten-2; padding: 0 1; }
    ColourLegend:focus { border: round $accent; }
    ColourLegend.-maximized { height: 1fr; max-height: 100%; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="legend-body")

    def on_mount(self) -> None:
        self.border_title = "Colours · L hides"
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.call_after_refresh(self._draw))
        self._draw()

    def on_show(self) -> None:
        self._draw()

    def on_resize(self) -> None:
        self._draw()

    def _draw(self) -> None:
        """Short names beside the hex pane; zoomed, what each colour means."""
        compact = not self.has_class("-maximized")
        self.query_one("#legend-body", Static).update(legend_renderable(self.screen, compact=compact))
