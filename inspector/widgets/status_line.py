"""The status line: where the selection is, the naming mode, search and indexing state.
Its one line is drawn as Textual draws a widget's text, without the work per frame that
has no effect on it (no text selected, no links, the text at the top left)."""

from __future__ import annotations

from rich.text import Text
from textual.content import Content
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import RenderOptions
from textual.widget import Widget

from spvinspect.widgets.framed_lines import FramedLines
from spvinspect.widgets.style_memo import StyleMemo


class StatusLine(FramedLines, StyleMemo, Widget):
    """One line: the selection on the left, modes and progress on the right."""

    COMPONENT_CLASSES = {"status-line--key", "status-line--busy"}
    """Labels, and the indexing progress."""

    place: reactive[str] = reactive("")
    """Where the selection is, as users read offsets."""
    detail: reactive[str] = reactive("")
    """The operand under the cursor, or the search result position."""
    mode: reactive[str] = reactive("")
    """Naming mode and other toggles."""
    busy: reactive[str] = reactive("")
    """Work in progress (indexing), or empty."""

    def render(self) -> Text:
        # One line laid out by hand (a Rich table of two columns costs a frame more than
        # every other pane's changed lines together): the left part cut with an ellipsis
        # where it meets the right one, which ends at the right edge.
        right = Text.assemble(
            (self.busy + "  " if self.busy else "", self.memo_style("status-line--busy")),
            (self.mode, self.memo_style("status-line--key")),
        )
        left = Text(self.place)
        if self.detail:
            left.append("  " + self.detail)
        left.truncate(max(0, self.content_size.width - right.cell_len), overflow="ellipsis", pad=True)
        return Text.assemble(left, right, no_wrap=True, end="")

    def render_line(self, y: int) -> Strip:
        self._dirty_regions.clear()
        if self.text_selection is not None or self.styles.content_align != ("left", "top"):
            return super().render_line(y)  # text selected with the mouse: Textual draws it
        width, height = self.size
        style = self.visual_style
        if y == 0 and width:
            options = RenderOptions(self._get_style, self.styles, None, None)
            drawn = Content.from_rich_text(self.render()).render_strips(width, height, style, options)
            if drawn:
                return drawn[0]
        return Strip.blank(width, style.rich_style)
