"""The hex pane of one side of a comparison: the `HexView` with the words of added,
removed and moved instructions, and the words that differ in changed ones, marked in
the theme's added / removed / changed colours (through its cell-styling callback)."""

from __future__ import annotations
from textual.content import Content

from spvinspect.formats.comparison import Comparison
from spvinspect.widgets.hex_view import HexView


class DiffHexView(HexView):
    """A side's words, each marked by the difference its instruction is in."""

    COMPONENT_CLASSES = HexView.COMPONENT_CLASSES | {
        "hex-view--diff-added",
        "hex-view--diff-removed",
        "hex-view--diff-changed",
        "hex-view--diff-moved",
    }
    DEFAULT_CSS = """
    DiffHexView > .hex-view--diff-added { color: $success; text-style: bold; }
    DiffHexView > .hex-view--diff-removed { color: $error; text-style: bold strike; }
    DiffHexView > .hex-view--diff-changed { color: $warning; text-style: bold underline; }
    DiffHexView > .hex-view--diff-moved { color: $accent; text-style: bold; }
    """

    def __init__(self, comparison: Comparison, side: int, *, id: str | None = None) -> None:
        words, trailing, big_endian, tail_offset = comparison.words(side)
        super().__init__(
            words,
            big_endian=big_endian,
            trailing_bytes=trailing,
            tail_offset=tail_offset,
            cell_kind=lambda word: comparison.cell_mark(side, word),
            id=id,
        )
        self.comparison = comparison
        self.side = side
        self.border_title = Content(f"{comparison.names[side]} · hex")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No grammar cards here (the comparison's screen shows none)."""
        if action == "card":
            return False
        return super().check_action(action, parameters)

    def on_hex_view_word_selected(self, message: HexView.WordSelected) -> None:
        """Say which side the word is on, for the screen (the message goes on up)."""
        message.side = self.side  # type: ignore[attr-defined]
