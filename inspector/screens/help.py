"""The help screen (`?`): every key and what it does, grouped by pane, and what each pane shows.

The keys come from the live bindings of the screen underneath (`inspector.palette`), so
the help never disagrees with the keys; the pane texts come from the screen's pane specs
(`spvinspect.formats.PaneSpec`), so a new pane brings its own text by adding one record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

from spvinspect.config import config_path
from spvinspect.formats.panes import PaneSpec
from spvinspect.formats.spirv_panes import SPIRV_PANES
from spvinspect.palette import BoundAction, bound_actions


EVERYWHERE = "Everywhere"
DESCRIPTION_WIDTH = 24
"""Cells of the keys table's description column at most (wider ones wrap)."""


@dataclass(frozen=True, slots=True)
class HelpSection:
    """One group of the help screen: a title, what the pane shows, its keys."""

    title: str
    text: str
    actions: tuple[BoundAction, ...]


def _pane_of(node: DOMNode, panes: dict[Widget, PaneSpec]) -> PaneSpec | None:
    while node is not None:
        if node in panes:
            return panes[node]
        node = node.parent
    return None


def help_sections(screen: Screen, panes: Sequence[PaneSpec]) -> list[HelpSection]:
    """The keys of the app, the screen and its widgets, grouped by the pane they belong to.

    Keys of the app and the screen work everywhere; a widget's keys belong to the pane
    that contains it; widgets in no described pane get a group named after their class.
    Panes without keys are still described, when present on the screen.
    """
    pane_widgets: dict[Widget, PaneSpec] = {}
    for pane in panes:
        for widget in screen.query(pane.query):
            pane_widgets[widget] = pane
    everywhere: list[BoundAction] = []
    by_pane: dict[PaneSpec, list[BoundAction]] = {p: [] for p in pane_widgets.values()}
    others: dict[str, list[BoundAction]] = {}
    for action in bound_actions(screen):
        if action.node is screen or action.node is screen.app:
            everywhere.append(action)
        elif (pane := _pane_of(action.node, pane_widgets)) is not None:
            by_pane[pane].append(action)
        else:
            title = getattr(action.node, "BINDING_GROUP_TITLE", None) or type(action.node).__name__
            others.setdefault(title, []).append(action)
    sections = [HelpSection(EVERYWHERE, "", tuple(everywhere))]
    sections += [HelpSection(p.title, p.text, tuple(a)) for p, a in by_pane.items()]
    sections += [HelpSection(title, "", tuple(a)) for title, a in others.items()]
    return [s for s in sections if s.actions or s.text]


def _keys_table(actions: Sequence[BoundAction], widths: tuple[int, int]) -> Table:
    """Keys, what they do, and the longer tooltip with the binding's id (what the config
    file's keys table remaps); `widths` lines up every section's columns."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True, min_width=widths[0])
    # A long description wraps rather than pushing the tooltip and the id off screen.
    description = min(widths[1], DESCRIPTION_WIDTH)
    table.add_column(min_width=description, max_width=description)
    table.add_column(style="dim", ratio=1)
    for action in actions:
        more = Text(action.tooltip if action.tooltip != action.description else "")
        if action.binding.id:
            more.append(f"{'  ' if more else ''}[{action.binding.id}]", style="italic")
        table.add_row(" ".join(action.keys), action.description, more)
    return table


def remap_hint() -> str:
    """How to change a key: the config file and the shape of its keys table."""
    return (
        f"Any key can be changed in {config_path()}: "
        '"keys": {"list.down": "down,j,n"} gives the action with id list.down (in brackets '
        "after each action below) the keys down, j and n."
    )


class HelpScreen(ModalScreen[None]):
    """Every key of the screen underneath and what each pane shows."""

    DEFAULT_CSS = """
    HelpScreen {
        align: center middle;
    }
    HelpScreen > VerticalScroll {
        width: 90%;
        max-width: 100;
        height: 90%;
        border: round $primary;
        background: $surface;
        padding: 0 1;
    }
    HelpScreen .help-title {
        text-style: bold;
        color: $primary;
        margin-top: 1;
    }
    HelpScreen .help-text {
        color: $text-muted;
    }
    """

    BINDINGS = [
        Binding("escape,question_mark,q", "close", "Close help", id="help.close", tooltip="Back to the panes"),
    ]

    def __init__(self, panes: Sequence[PaneSpec] | None = None) -> None:
        super().__init__()
        self.panes = tuple(panes) if panes is not None else None
        """The pane descriptions to show, in order; None: the `PANE_SPECS` of the screen
        underneath (SPIR-V's panes if it names none)."""
        self.sections: list[HelpSection] = []
        """What the screen shows, set when composed; for tests and other views."""

    def compose(self) -> ComposeResult:
        stack = self.app.screen_stack
        underneath = stack[stack.index(self) - 1] if self in stack else self.app.screen
        if self.panes is None:
            self.panes = getattr(underneath, "PANE_SPECS", SPIRV_PANES)
        self.sections = help_sections(underneath, self.panes)
        actions = [a for section in self.sections for a in section.actions]
        widths = (
            max((cell_len(" ".join(a.keys)) for a in actions), default=0),
            max((cell_len(a.description) for a in actions), default=0),
        )
        with VerticalScroll(id="help-body"):
            yield Static(Text("Keys and panes   (escape closes)", style="bold"))
            yield Static(remap_hint(), classes="help-text", markup=False)
            for section in self.sections:
                yield Static(section.title, classes="help-title")
                if section.text:
                    yield Static(section.text, classes="help-text", markup=False)
                if section.actions:
                    yield Static(_keys_table(section.actions, widths), classes="help-keys")
            if any(pane.name == "legend" for pane in self.panes):
                from spvinspect.widgets.colour_legend import legend_renderable

                yield Static("Colours", classes="help-title")
                yield Static(legend_renderable(underneath), id="help-legend")

    def action_close(self) -> None:
        """Back to the screen underneath."""
        self.dismiss()
