"""The detail panel: the word under the hex cursor, read as every type at once and
explained down to its operand (the data inspector of ImHex, for SPIR-V).

Drawn on the Line API from the detail's rows: a new word lays out only its own lines
(labels in a column as wide as the widest, each value wrapped within the rest) and
repaints only the lines that differ from the word before."""

from __future__ import annotations

from functools import lru_cache

from rich.cells import cell_len
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from spvinspect.codec.text.word_detail import WordDetail
from spvinspect.widgets.framed_lines import FramedLines
from spvinspect.widgets.text_wrap import wrapped

ROWS_KEPT = 256
"""Facts laid out kept (a loop's words, a few dozen facts each)."""
HINT = "Move the hex cursor to a word to see what it is."
"""What the panel says before any word is selected."""


class WordDetailPanel(FramedLines, Widget):
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
        self._lines: list[Strip] | None = None
        """The lines drawn for `detail` at `_laid_out_for` (None: to lay out again)."""
        self._laid_out_for: tuple | None = None
        """(content width, the styles' key) the lines were laid out for."""
        self._rows_drawn: LRUCache[tuple, list[Strip]] = LRUCache(ROWS_KEPT)
        """Each fact's lines by what decides them: a word seen before (the cursor going
        round a loop) gives the same strips again, not laid out anew."""
        self._styled: tuple[Style, Style] | None = None
        self._styled_for: tuple | None = None
        """The label and diagnostic styles (`_styles`), and what they were worked out for."""

    def show(self, detail: WordDetail | None) -> None:
        """Show `detail` (None: nothing selected yet), repainting the lines that changed."""
        before = self._lines if self._laid_out_for == self._layout_key() else None
        self.detail = detail
        self._lines = None
        if before is None or not self.size:
            self.refresh()
            return
        after = self._laid_out()
        width, height = self.size
        changed = [Region(0, y, width, 1) for y in range(min(height, max(len(before), len(after))))
                   if y >= len(before) or y >= len(after) or before[y] != after[y]]
        if changed:
            self.refresh(*changed)  # one call: each clears the widget's cached styles and sizes

    def get_content_height(self, container, viewport, width: int) -> int:
        """As many lines as the detail takes at `width` (the panel's height is fixed in the
        app's stylesheet; auto elsewhere)."""
        return len(self._layout(width))

    def notify_style_update(self) -> None:
        self._lines = None
        self._rows_drawn.clear()
        self._styled_for = None
        super().notify_style_update()

    def render_line(self, y: int) -> Strip:
        lines = self.once_a_pass(self._laid_out)
        if y < len(lines):
            return lines[y]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    # -- laying out -------------------------------------------------------------------

    def _layout_key(self) -> tuple:
        return (self.size.width, self.styles._cache_key, id(self._component_styles.get("word-detail--label")))

    def _laid_out(self) -> list[Strip]:
        key = self._layout_key()
        if self._lines is None or self._laid_out_for != key:
            self._lines = self._layout(self.size.width)
            self._laid_out_for = key
        return self._lines

    def _layout(self, width: int) -> list[Strip]:
        """The detail's lines `width` cells wide, in the widget's style: a label column as
        wide as the widest label, a space, then each value wrapped (word by word, a word
        too long for the column cut with an ellipsis) within the rest."""
        base = self.visual_style.rich_style
        console = self.app.console
        detail = self.detail
        if detail is None:
            italic = base + Style(italic=True)
            return [Strip([Segment(line.plain, italic)]) for line in Text(HINT).wrap(console, width)]
        label_style, error = self._styles(base)
        rows = detail.rows()
        label_width = min(width, max((cell_len(name) for name, _ in rows), default=0))
        lines: list[Strip] = []
        drawn = self._rows_drawn
        for name, value in rows:
            key = (name, value, label_width, width, base, label_style, error)
            row_lines = drawn.get(key)
            if row_lines is None:
                row_lines = drawn[key] = self._row_lines(name, value, label_width, width, base, label_style, error)
            lines += row_lines
        return lines

    def _row_lines(self, name: str, value: str, label_width: int, width: int, base: Style, label_style: Style,
                   error: Style) -> list[Strip]:
        """One fact's lines: its label, then its value wrapped within the rest of `width`."""
        console = self.app.console
        value_width = width - label_width - 1
        label = Segment(_fitted(console, name, label_width), label_style)
        if value_width <= 0:
            return [Strip([label], label_width)]
        gap = Segment(" ", base)
        style = error if name == "Diagnostic" else base
        if "\n" not in value and "\t" not in value and (length := cell_len(value)) <= value_width:
            # Most values fit their column: one line, padded as the wrap would pad it.
            return [Strip([label, gap, Segment(value + " " * (value_width - length), style)], width)]
        blank = Segment(" " * label_width, base)
        return [Strip([blank if number else label, gap, Segment(line, style)])
                for number, line in enumerate(_wrapped(console, value, value_width))]

    def _styles(self, base: Style) -> tuple[Style, Style]:
        """The labels' and the diagnostics' styles over `base`, worked out once for the
        styles a layout is for (Textual works a component's style out anew each time)."""
        components = self._component_styles
        key = (base, self.styles._cache_key, components.get("word-detail--label"), components.get("word-detail--diagnostic"))
        kept = self._styled_for
        if kept is None or kept[:2] != key[:2] or kept[2] is not key[2] or kept[3] is not key[3]:
            self._styled = (base + self.get_component_rich_style("word-detail--label", partial=True),
                            base + self.get_component_rich_style("word-detail--diagnostic", partial=True))
            self._styled_for = key
        return self._styled


@lru_cache(maxsize=512)
def _wrapped(console, value: str, width: int) -> tuple[str, ...]:
    """`value` wrapped word by word within `width` cells (a word too long cut with an
    ellipsis): the same words come back as the cursor goes round a loop."""
    return wrapped(console, value, width)


def _fitted(console, text: str, width: int) -> str:
    """`text` padded to `width` cells (cut with an ellipsis when longer)."""
    length = cell_len(text)
    if length <= width:
        return text + " " * (width - length)
    return Text(text).wrap(console, width, justify="left", overflow="ellipsis", no_wrap=True)[0].plain
