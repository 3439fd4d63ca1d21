"""An image drawn with half-block characters: each cell is `▀`, its foreground the upper
pixel and its background the lower, in truecolour, from an (H, W, 4) float array (row 0
at the bottom, as grids of fragments are). A cursor on one pixel (arrows or hjkl), Enter
chooses it (`Chosen`); the first line shows a progress text while the image is computed,
then the pixel under the cursor and its value."""

from __future__ import annotations

import numpy as np
from rich.segment import Segment
from rich.style import Style
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import reactive, var
from textual.scroll_view import ScrollView
from textual.strip import Strip

from spvinspect.widgets.kept_lines import KeptLines
from spvinspect.widgets.scrollbars import KeptScrollbars

UPPER_HALF = "▀"
DISCARDED = ((0.30, 0.30, 0.30), (0.18, 0.18, 0.18))
"""Discarded pixels: a grey checker, so they stand apart from black ones."""
NOT_A_NUMBER = (1.0, 0.0, 1.0)
"""A NaN channel draws magenta."""


def _rgb(pixel: np.ndarray) -> tuple[int, int, int]:
    rgb = np.asarray(pixel[:3], dtype=np.float64)
    if np.isnan(rgb).any():
        rgb = np.array(NOT_A_NUMBER)
    return tuple(int(round(float(c) * 255)) for c in np.clip(rgb, 0.0, 1.0))


def _number(value: float) -> str:
    if np.isnan(value):
        return "NaN"
    if np.isinf(value):
        return "+Inf" if value > 0 else "-Inf"
    return f"{value:.4g}"


class FragmentImage(KeptScrollbars, KeptLines, ScrollView, can_focus=True):
    """A grid's colours, two pixels a cell, with a cursor on one pixel."""

    DEFAULT_CSS = """
    FragmentImage { height: 1fr; }
    FragmentImage > .fragment-image--info { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"fragment-image--info"}
    BINDINGS = [
        Binding("left,h", "move(-1, 0)", "Left", show=False, id="image.left", tooltip="The pixel to the left"),
        Binding("right,l", "move(1, 0)", "Right", show=False, id="image.right", tooltip="The pixel to the right"),
        Binding("up,k", "move(0, 1)", "Up", show=False, id="image.up", tooltip="The pixel above"),
        Binding("down,j", "move(0, -1)", "Down", show=False, id="image.down", tooltip="The pixel below"),
        Binding("enter", "choose", "Choose pixel", id="image.choose", tooltip="Step this pixel's fragment"),
    ]

    class Chosen(Message):
        """The user chose pixel (x, y), y counted from the bottom row."""

        def __init__(self, image: FragmentImage, x: int, y: int) -> None:
            super().__init__()
            self.image = image
            self.x = x
            self.y = y

        @property
        def control(self) -> FragmentImage:
            return self.image

    cursor: var[tuple[int, int]] = var((0, 0), init=False)
    """The pixel under the cursor: (x, y), y from the bottom."""
    progress: reactive[str] = reactive("", layout=False)
    """Shown on the first line while the image is being computed ("" once it is done)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.pixels: np.ndarray | None = None
        self.discarded: np.ndarray | None = None
        self.chosen: tuple[int, int] | None = None
        """The pixel last chosen (drawn in its complement, like the cursor; "(stepped)" in the info line)."""
        self._rows: dict[int, Strip] = {}

    def show_image(self, pixels: np.ndarray, discarded: np.ndarray | None = None) -> None:
        """Draw (H, W, 4) colours (row 0 at the bottom); `discarded` (H, W) marks pixels
        that have no colour."""
        self.pixels = np.asarray(pixels, dtype=np.float32)
        height, width = self.pixels.shape[:2]
        self.discarded = np.zeros((height, width), dtype=bool) if discarded is None else np.asarray(discarded, bool)
        x, y = self.cursor
        self.cursor = (min(x, width - 1), min(y, height - 1))
        self._rows.clear()
        self.virtual_size = Size(width, 1 + (height + 1) // 2)
        self.refresh()

    # -- keys ---------------------------------------------------------------------------

    def action_move(self, dx: int, dy: int) -> None:
        if self.pixels is None:
            return
        height, width = self.pixels.shape[:2]
        x, y = self.cursor
        self.cursor = (max(0, min(width - 1, x + dx)), max(0, min(height - 1, y + dy)))

    def action_choose(self) -> None:
        if self.pixels is None:
            return
        self.chosen = self.cursor
        self._rows.clear()
        self.refresh()
        self.post_message(self.Chosen(self, *self.cursor))

    def watch_cursor(self, old: tuple[int, int], new: tuple[int, int]) -> None:
        self._rows.pop(self._row_of(old[1]), None)
        self._rows.pop(self._row_of(new[1]), None)
        self.refresh()
        if self.pixels is not None:  # keep the cursor's cell (and the info line above) in view
            # The cell row and the one after it: the info line takes the viewport's first line.
            self.scroll_to_region(Region(new[0], self._row_of(new[1]) - 1, 1, 2), animate=False, immediate=True)

    def watch_progress(self) -> None:
        self.refresh()

    # -- drawing ------------------------------------------------------------------------

    def _row_of(self, y: int) -> int:
        """The line (after the info line) that draws pixel row y (from the bottom)."""
        if self.pixels is None:
            return 1
        return 1 + (self.pixels.shape[0] - 1 - y) // 2

    def info_text(self) -> str:
        """The first line: progress, or the pixel under the cursor and its value."""
        if self.progress:
            return self.progress
        if self.pixels is None:
            return "no image yet"
        x, y = self.cursor
        chosen = " (stepped)" if self.chosen == (x, y) else ""
        if self.discarded is not None and self.discarded[y, x]:
            return f"x {x} y {y}{chosen}: discarded"
        return f"x {x} y {y}{chosen}: " + " ".join(_number(float(c)) for c in self.pixels[y, x])

    def render_line(self, y: int) -> Strip:
        """Line 0 is the info line, always in view; the image's cell rows scroll under it."""
        width = self.scrollable_content_region.width
        if y == 0:
            text = self.info_text()[: max(width, 0)]
            return Strip([Segment(text.ljust(width), self.get_component_rich_style("fragment-image--info"))])
        cell_row = self.scroll_offset.y + y - 1
        if self.pixels is None or cell_row >= (self.pixels.shape[0] + 1) // 2:
            return Strip.blank(width, self.rich_style)
        strip = self._rows.get(cell_row + 1)
        if strip is None:
            strip = self._draw_row(cell_row)
            self._rows[cell_row + 1] = strip
        return strip.crop(self.scroll_offset.x, self.scroll_offset.x + width).extend_cell_length(width, self.rich_style)

    def _colour(self, x: int, y: int) -> tuple[int, int, int]:
        assert self.pixels is not None and self.discarded is not None
        if self.discarded[y, x]:
            marked = ((x, y) == self.cursor and self.has_focus) or (x, y) == self.chosen
            return (255, 255, 255) if marked else _rgb(np.array(DISCARDED[(x + y) % 2]))
        rgb = _rgb(self.pixels[y, x])
        if ((x, y) == self.cursor and self.has_focus) or (x, y) == self.chosen:
            return tuple(255 - c for c in rgb)  # the cursor and the chosen pixel: its complement
        return rgb

    def _draw_row(self, cell_row: int) -> Strip:
        """Cell row `cell_row` from the top: pixel rows (from the bottom) top and top - 1."""
        assert self.pixels is not None
        height, width = self.pixels.shape[:2]
        upper = height - 1 - 2 * cell_row
        lower = upper - 1
        segments = []
        for x in range(width):
            top = self._colour(x, upper)
            if lower >= 0:
                bottom = self._colour(x, lower)
                style = Style(color=f"rgb({top[0]},{top[1]},{top[2]})", bgcolor=f"rgb({bottom[0]},{bottom[1]},{bottom[2]})")
            else:
                style = Style(color=f"rgb({top[0]},{top[1]},{top[2]})")
            segments.append(Segment(UPPER_HALF, style))
        return Strip(segments, width)

    def on_focus(self) -> None:
        self._rows.clear()
        self.refresh()

    def on_blur(self) -> None:
        self._rows.clear()
        self.refresh()
