"""The grammar card: what the grammar says about an instruction, an enumerant or an
extended instruction, with a key that opens the specification at its entry."""

from __future__ import annotations

import webbrowser

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from spvinspect.codec.text.grammar_card import EnumerantCard, GrammarCard, InstructionCard, MaskCard


def open_in_browser(url: str) -> bool:
    """Open `url` in a graphical browser; False when there is none (no display, or only
    a terminal browser, which would take over the very terminal the app runs in)."""
    try:
        browser = webbrowser.get()
    except webbrowser.Error:
        return False
    if type(browser) is webbrowser.GenericBrowser:
        return False
    try:
        return bool(browser.open(url))
    except OSError:
        return False


def card_table(card: GrammarCard) -> Table:
    """The card as a two-column table: label, then what the grammar says."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(overflow="fold")
    if isinstance(card, InstructionCard):
        if card.ext_set:
            table.add_row("Set", card.ext_set)
        if card.opclass:
            table.add_row("Class", card.opclass)
        if card.word_count:
            table.add_row("Word count", card.word_count)
        first = "word 0: word count (high 16 bits) | opcode (low 16 bits)"
        if card.ext_set:
            first = "OpExtInst's Result Type, Result <id>, 1 'Set', 2 'Instruction', then:"
        lines = [first, *(f"{label} {entry.text}" for label, entry in card.numbered_operands)]
        table.add_row("Operands", Text("\n".join(lines)))
    elif isinstance(card, EnumerantCard):
        table.add_row("Kind", f"{card.kind} ({card.category})")
        table.add_row("Value", f"{card.value} (0x{card.value:x})")
        if card.parameters:
            table.add_row("Parameters", "\n".join(p.text for p in card.parameters))
    elif isinstance(card, MaskCard):
        table.add_row("Kind", f"{card.kind} ({card.category})")
        table.add_row("Value", f"{card.value} (0x{card.value:x})")
        table.add_row("Bits", "\n".join(card.bit_lines))
    availability = card.availability
    if availability.capabilities:
        table.add_row("Capabilities", ", ".join(availability.capabilities))
    if availability.extensions:
        table.add_row("Extensions", ", ".join(availability.extensions))
    if availability.version_text:
        table.add_row("Versions", availability.version_text)
    if card.aliases:
        table.add_row("Aliases", ", ".join(card.aliases))
    table.add_row("Spec", card.spec_url)
    return table


class GrammarCardScreen(ModalScreen[None]):
    """A grammar card over the app; `o` opens the specification, `y` copies its link,
    escape closes."""

    DEFAULT_CSS = """
    GrammarCardScreen { align: center middle; }
    GrammarCardScreen > VerticalScroll {
        width: 90%; max-width: 100; height: auto; max-height: 90%;
        border: round $accent; background: $surface; padding: 0 1;
    }
    GrammarCardScreen #card-title { text-style: bold; color: $hex-opcode; }
    GrammarCardScreen #card-hint { color: $text-muted; }
    """
    BINDINGS = [
        Binding("o", "open_spec", "Open spec", id="card.open-spec", tooltip="Open the specification at this entry in a browser"),
        Binding("y", "copy_spec", "Copy link", id="card.copy-spec", tooltip="Copy the specification's link to the clipboard"),
        Binding("escape,q", "close", "Close", id="card.close", tooltip="Close the card"),
    ]

    def __init__(self, card: GrammarCard) -> None:
        super().__init__()
        self.card = card
        """The card shown."""

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(self.card.title, id="card-title")
            yield Static(card_table(self.card), id="card-body")
            yield Static("o: open the specification · y: copy its link · escape: close", id="card-hint")

    def action_open_spec(self) -> None:
        """Open the specification in a browser, or show the URL where there is none."""
        url = self.card.spec_url
        if open_in_browser(url):
            self.notify(f"Opened {url}", title="Specification")
        else:
            self.notify(url, title="No browser here; the specification is at", timeout=15)

    def action_copy_spec(self) -> None:
        """Copy the specification's link (through the terminal, so over ssh too)."""
        url = self.card.spec_url
        self.app.copy_to_clipboard(url)
        self.notify(url, title="Copied the specification's link", timeout=8)

    def action_close(self) -> None:
        """Close the card."""
        self.dismiss(None)
