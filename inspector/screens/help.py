"""The help screen (`?`): every key and what it does, grouped by pane, and what each pane shows.

The keys come from the live bindings of the screen underneath (`inspector.palette`), so
the help never disagrees with the keys; the pane texts are data (`PaneHelp`), so a new
pane (hex, CFG, Lima breakdown) brings its own text by adding one record.
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
from spvinspect.palette import BoundAction, bound_actions


@dataclass(frozen=True, slots=True)
class PaneHelp:
    """What one pane is: its name (as `--pane` takes it), title, widget and what it shows."""

    name: str
    title: str
    text: str
    selector: str = ""
    """CSS selector of the pane's widget in the screen; `#name` when empty."""

    @property
    def query(self) -> str:
        """The selector to find the pane's widget with."""
        return self.selector or f"#{self.name}"


SPIRV_PANES: tuple[PaneHelp, ...] = (
    PaneHelp(
        "header",
        "Header",
        "The module's five header words, each with its word offset and hex value: magic and "
        "byte order, version, generator (vendor, tool and its version), id bound and schema; "
        "then counts of instructions, functions and ids used, and of diagnostics.",
    ),
    PaneHelp(
        "list",
        "Instruction list",
        "The disassembly exactly as `spvinspect dis` prints it, friendly names or raw ids, "
        "with each instruction's byte offset in the gutter. The cursor selects an "
        "instruction and an operand in it; every other pane follows that selection.",
    ),
    PaneHelp(
        "hex",
        "Hex and word detail",
        "The module's words (or, with b, its bytes and ASCII) with byte offsets, in the "
        "module's byte order. The selected instruction's words are framed and coloured by "
        "what they are (opcode word, type, result, ids, literals, strings, enumerants, raw "
        "words); words that diagnostics name are marked, the undecodable tail and trailing "
        "bytes shown as such. Under it, the word under the cursor in every reading (hex, "
        "unsigned, signed, float, characters) and what it is: header field, word count and "
        "opcode, or which operand of which instruction, its value and where an id is defined. "
        "c opens the grammar's card for the instruction or operand.",
    ),
    PaneHelp(
        "cfg",
        "CFG",
        "The control-flow graph of the function holding the selection, laid out in layers: "
        "blocks with their name, size and role (loop header, merge block, continue target), "
        "branch conditions and switch cases on the edges, back, merge and continue edges "
        "drawn apart, unreachable blocks marked. Moving along edges selects the block's OpLabel; "
        "a function too big to draw at once shows the blocks near the selection first.",
    ),
    PaneHelp(
        "diagnostics",
        "Diagnostics",
        "What is wrong with a broken module, each problem with the word it was found at; "
        "choosing one moves the selection to that word.",
    ),
)
"""The panes of a SPIR-V module."""

LIMA_PANES: tuple[PaneHelp, ...] = (
    PaneHelp(
        "header",
        "Header",
        "For an MBS file, the chunk tree: each chunk's identifier, byte offset and size, "
        "and its parsed values; for a raw stream, its length, instruction count and the "
        "units it uses. Choosing a line selects the byte it starts at.",
    ),
    PaneHelp(
        "list",
        "Instruction list",
        "One PP instruction a line, in the seed-004 syntax or Mesa's, with its index and "
        "word offset in the gutter; branch targets are labelled (L3:), and the names of "
        "uniforms and varyings are shown beside the numbers they name.",
    ),
    PaneHelp(
        "diagnostics",
        "Diagnostics",
        "What could not be decoded, each problem with the file word it was found at; "
        "choosing one selects that word.",
    ),
    PaneHelp(
        "hex",
        "Hex",
        "The file's words: the selected instruction framed, and the hex digits holding the "
        "bits of the range chosen in the breakdown marked (softer when a digit holds only "
        "some of them); the status line names the exact bits.",
    ),
    PaneHelp(
        "breakdown",
        "Breakdown",
        "The selected instruction bit by bit: the control word, then every present field as "
        "its own strip, each range with its bit range, name, raw value and meaning; unknown "
        "bits are shown, never hidden. The cursor picks a strip or a range for the hex pane.",
    ),
)
"""The panes of Lima mode."""

EVERYWHERE = "Everywhere"
DESCRIPTION_WIDTH = 24
"""Cells of the keys table's description column at most (wider ones wrap)."""


@dataclass(frozen=True, slots=True)
class HelpSection:
    """One group of the help screen: a title, what the pane shows, its keys."""

    title: str
    text: str
    actions: tuple[BoundAction, ...]


def _pane_of(node: DOMNode, panes: dict[Widget, PaneHelp]) -> PaneHelp | None:
    while node is not None:
        if node in panes:
            return panes[node]
        node = node.parent
    return None


def help_sections(screen: Screen, panes: Sequence[PaneHelp]) -> list[HelpSection]:
    """The keys of the app, the screen and its widgets, grouped by the pane they belong to.

    Keys of the app and the screen work everywhere; a widget's keys belong to the pane
    that contains it; widgets in no described pane get a group named after their class.
    Panes without keys are still described, when present on the screen.
    """
    pane_widgets: dict[Widget, PaneHelp] = {}
    for pane in panes:
        for widget in screen.query(pane.query):
            pane_widgets[widget] = pane
    everywhere: list[BoundAction] = []
    by_pane: dict[PaneHelp, list[BoundAction]] = {p: [] for p in pane_widgets.values()}
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

    def __init__(self, panes: Sequence[PaneHelp] | None = None) -> None:
        super().__init__()
        self.panes = tuple(panes) if panes is not None else None
        """The pane descriptions to show, in order; None: the `HELP_PANES` of the screen
        underneath (SPIR-V's panes if it names none)."""
        self.sections: list[HelpSection] = []
        """What the screen shows, set when composed; for tests and other views."""

    def compose(self) -> ComposeResult:
        stack = self.app.screen_stack
        underneath = stack[stack.index(self) - 1] if self in stack else self.app.screen
        if self.panes is None:
            self.panes = getattr(underneath, "HELP_PANES", SPIRV_PANES)
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

    def action_close(self) -> None:
        """Back to the screen underneath."""
        self.dismiss()
