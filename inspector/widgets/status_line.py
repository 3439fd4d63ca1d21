"""The status line: where the selection is, the naming mode, search and indexing state.
Its one line is drawn as Textual draws a widget's text, without the work per frame that
has no effect on it (no text selected, no links, the text at the top left)."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.content import Content
from textual.geometry import Region
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

    # A change repaints the line as a changed line (`_line_changed`), not the whole
    # widget, so that `FramedLines` draws it without Textual's general line work.
    place: reactive[str] = reactive("", repaint=False)
    """Where the selection is, as users read offsets."""
    detail: reactive[str] = reactive("", repaint=False)
    """The operand under the cursor, or the search result position."""
    mode: reactive[str] = reactive("", repaint=False)
    """Naming mode and other toggles."""
    busy: reactive[str] = reactive("", repaint=False)
    """Work in progress (indexing), or empty."""

    def _line_changed(self) -> None:
        width, height = self.content_size
        if width and height:
            self.refresh(Region(0, 0, width, height))
        else:
            self.refresh()

    watch_place = watch_detail = watch_mode = watch_busy = _line_changed

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
            drawn = self._drawn_line(width, style.rich_style)
            if drawn is not None:
                return drawn
            return self._textual_line(width, height)
        return Strip.blank(width, style.rich_style)

    def _textual_line(self, width: int, height: int) -> Strip:
        """The line as Textual draws the widget's text."""
        style = self.visual_style
        options = RenderOptions(self._get_style, self.styles, None, None)
        drawn = Content.from_rich_text(self.render()).render_strips(width, height, style, options)
        return drawn[0] if drawn else Strip.blank(width, style.rich_style)

    def _drawn_line(self, width: int, base: Style) -> Strip | None:
        """The line as `_textual_line` draws it, made from its parts directly (each part's
        style on the pane's, marked with its offset for selecting text with the mouse);
        None when the parts do not fit the width (Textual then cuts them)."""
        right = []
        if self.busy:
            right.append((self.busy + "  ", self.memo_style("status-line--busy")))
        if self.mode:
            right.append((self.mode, self.memo_style("status-line--key")))
        left = self.place + ("  " + self.detail if self.detail else "")
        room = max(0, width - sum(cell_len(text) for text, _ in right))
        length = cell_len(left)
        if length > room:
            left = set_cell_size(left, room - 1) + "…"
        elif length < room:
            left += " " * (room - length)
        parts = [(left, None), *right] if left else right
        if sum(cell_len(text) for text, _ in parts) != width or not left.isprintable():
            return None
        segments, offset = [], 0
        for text, part_style in parts:
            segments.append(Segment(text, _placed(base if part_style is None else base + part_style, offset)))
            offset += len(text)
        return Strip(segments, width)


@lru_cache(maxsize=256)
def _placed(style: Style, offset: int) -> Style:
    """`style` marked with a part's offset in the line's text."""
    return style + Style.from_meta({"offset": (offset, 0)})
