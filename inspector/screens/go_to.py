"""The one "go to" dialog: asks for a place as text (a byte offset, an instruction
index), checks it with the caller's parser and returns what it parsed, or None."""

from __future__ import annotations

from collections.abc import Callable

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from spvinspect.codec.plural import noun


def parse_offset(text: str) -> int:
    """A byte offset typed by the user: decimal, or hex with `0x`; ValueError if neither."""
    cleaned = text.strip().replace("_", "")
    try:
        value = int(cleaned, 16) if cleaned.lower().startswith("0x") else int(cleaned, 10)
    except ValueError:
        raise ValueError(f"'{text.strip()}' is not an offset (decimal, or hex with 0x)") from None
    if value < 0:
        raise ValueError("an offset cannot be negative")
    return value


def offset_below(limit: int) -> Callable[[str], int]:
    """A parser of byte offsets in a binary of `limit` bytes."""

    def parse(text: str) -> int:
        offset = parse_offset(text)
        if offset >= limit:
            raise ValueError(f"0x{offset:x} is past the end of the module (0x{limit:x} {noun(limit, 'byte')})")
        return offset

    return parse


def index_below(count: int) -> Callable[[str], int]:
    """A parser of instruction indexes from 0 to `count - 1`."""

    def parse(text: str) -> int:
        cleaned = text.strip()
        if cleaned.isascii() and cleaned.isdigit() and int(cleaned) < count:
            return int(cleaned)
        raise ValueError(f"not an index from 0 to {count - 1}: {cleaned!r}")

    return parse


class GoToDialog(ModalScreen[int | None]):
    """Asks for a place; dismisses with what `parse` made of the text, or None when
    cancelled. What is wrong with the text is said under the field, which stays open."""

    DEFAULT_CSS = """
    GoToDialog { align: center middle; }
    GoToDialog > Vertical {
        width: 60; max-width: 100%; height: auto; padding: 1 2;
        border: round $accent; background: $surface;
    }
    GoToDialog Label { width: 100%; }
    GoToDialog #goto-error { color: $error; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="goto.cancel", tooltip="Close without moving")]

    def __init__(self, prompt: str, placeholder: str, parse: Callable[[str], int]) -> None:
        super().__init__()
        self.prompt = prompt
        self.placeholder = placeholder
        self.parse = parse

    @classmethod
    def byte_offset(cls, limit: int) -> GoToDialog:
        """Asks for a byte offset in a binary of `limit` bytes."""
        return cls("Go to byte offset (decimal, or hex with 0x)", "0x1348", offset_below(limit))

    @classmethod
    def instruction(cls, count: int) -> GoToDialog:
        """Asks for an instruction index below `count`."""
        return cls(f"Go to instruction (0-{max(count - 1, 0)})", "index", index_below(count))

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.prompt)
            yield Input(placeholder=self.placeholder, id="goto-input")
            yield Label("", id="goto-error", markup=False)  # it quotes what was typed

    @on(Input.Submitted)
    def submit(self, event: Input.Submitted) -> None:
        """Close with the place, or say what is wrong with the text and stay open."""
        try:
            place = self.parse(event.value)
        except ValueError as error:
            self.query_one("#goto-error", Label).update(str(error))
            return
        self.dismiss(place)

    def action_cancel(self) -> None:
        """Close without a place."""
        self.dismiss(None)

    async def on_key(self, event: events.Key) -> None:
        """Keys typed right after the key that opened the dialog, before the field has the
        focus (a fast typist, or a paste), reach the screen: they go into the field, so
        none is lost. (A printable key the focused field takes never gets here; enter
        always submits.)"""
        field = self.query_one(Input)
        if event.key == "enter":
            await field.action_submit()
        elif event.is_printable and event.character is not None:
            field.insert_text_at_cursor(event.character)
        else:
            return
        event.stop()
