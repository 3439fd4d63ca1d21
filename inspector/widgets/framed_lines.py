"""A pane's changed content lines put between its side borders without Textual's general
line work.

Textual draws each changed line of a widget through its styles cache, which works out the
border, padding, hatch, tint, opacity and outline again for every line. A pane with a
plain frame (side borders or none, no hatch, tint, outline or transparency) draws a
content line as its text fitted between its padding and side borders;
`FramedLines` draws the changed content lines that way into the same cache, and leaves
everything else (padding rows, line filters, cropping) to Textual, so the screen is the
same either way. A changed top or bottom border row (a title or subtitle that follows the
selection) is drawn by Textual's own line function, with the colours worked out once for
the frame rather than again for every row.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual._border import get_box
from textual._segment_tools import make_blank
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style

_FRAME_MARK = -1
"""A row Textual never draws: the frame's entry in the pane's line cache, which Textual
empties whenever what the pane's frame depends on changes."""
_FEW_OTHER_ROWS = 2
"""Changed rows outside the content (border titles) drawn one by one; more: all anew."""
_KEPT_FRAMED = 1024
"""Content lines framed before that a pane keeps (with their filtered versions)."""


class FramedLines:
    """Mix in before a Textual widget class whose pane has a plain frame."""

    _framed_lines: list[Strip] | None = None
    """The lines last handed to the compositor, and what they were drawn for."""
    _framed_for: tuple = ()
    _frame_kept: tuple | None = None
    """The plain frame last worked out, and the line cache and size it was worked out for."""
    _framed_rows: dict | None = None
    """id of a content line drawn before -> (that line, it framed), for `_framed_rows_for`
    (the frame): a line drawn again (a row the pane keeps) is framed, and filtered (Textual
    keeps a strip's filtered versions on it), once."""
    _framed_rows_for: tuple | None = None
    _border_colours: tuple | None = None
    """(frame, the backgrounds and the title's and subtitle's colours) for `_border_row`."""

    _pass_memo: dict | None = None
    """While the compositor asks for lines: what `once_a_pass` worked out, by the method
    that worked it out; None outside a pass."""

    def once_a_pass(self, work: Callable[[], Any]) -> Any:
        """`work()` (a method of the pane) worked out once for every line drawn in one pass
        of the compositor (what every line of the pass shares: the scroll offset, the
        text's width, the styles); outside a pass, at every call."""
        memo = self._pass_memo
        if memo is None:
            return work()
        value = memo.get(work, memo)
        if value is memo:
            value = memo[work] = work()
        return value

    def render_lines(self, crop: Region) -> list[Strip]:
        self._pass_memo = {}
        try:
            return self._framed_render_lines(crop)
        finally:
            self._pass_memo = None

    def _pass_region(self) -> Region:
        """The pane's region on screen (a walk up to the screen to find)."""
        return self.region

    def _framed_render_lines(self, crop: Region) -> list[Strip]:
        cache = self._styles_cache
        region = self.once_a_pass(self._pass_region)
        frame = self._frame(cache) if cache._cache and region.width == cache._width else None
        if frame is None:
            self._framed_lines = None
            return super().render_lines(crop)
        drawn = self._frame_dirty_lines(crop, cache, frame)
        filters, background = tuple(self.get_line_filters()), frame[-1]
        key = (crop, region.size, filters, background)
        kept = self._framed_lines
        others = [y for y in cache._dirty_lines if crop.y <= y < crop.bottom] if cache._dirty_lines else ()
        if kept is None or self._framed_for != key or len(others) > _FEW_OTHER_ROWS:
            lines = super().render_lines(crop)
            self._framed_lines, self._framed_for = lines, key
            return lines
        # Only content lines and a border row or two changed: put them, filtered as Textual
        # would, into the lines handed over last time.
        for y, strip in drawn.items():
            for line_filter in filters:
                strip = strip.apply_filter(line_filter, background)
            kept[y - crop.y] = strip.crop(crop.x, crop.right) if crop.x or crop.right != region.width else strip
        for y in others:
            # A border or padding row (a title changed): Textual draws that row alone.
            strip = self._border_row(y, cache, frame)
            if strip is None:
                kept[y - crop.y] = super().render_lines(Region(crop.x, y, crop.width, 1))[0]
                continue
            for line_filter in filters:
                strip = strip.apply_filter(line_filter, background)
            kept[y - crop.y] = strip.crop(crop.x, crop.right) if crop.x or crop.right != region.width else strip
        return kept

    def _border_row(self, y: int, cache, frame: tuple) -> Strip | None:
        """The top or bottom border row `y` (with its title or subtitle) drawn into
        Textual's line cache by Textual's own line function, unfiltered; None for another
        row (padding)."""
        styles = self.styles
        size = self.once_a_pass(self._pass_region).size
        (top, _), _, (bottom, _), _ = styles.border
        if not ((top and y == 0) or (bottom and y == size.height - 1)):
            return None
        colours = self._border_colours
        if colours is None or colours[0] is not frame:
            base_background, background = self.background_colors
            colours = self._border_colours = (
                frame,
                base_background,
                background,
                self._get_title_style_information(base_background),
                self._get_subtitle_style_information(base_background),
            )
        _, base_background, background, title_style, subtitle_style = colours
        title, subtitle = self._border_title, self._border_subtitle
        app = self.app
        strip = cache.render_line(
            styles, y, size, size - styles.gutter.totals, styles.padding, base_background, background,
            self.render_line,
            None if title is None else (title, *title_style),
            None if subtitle is None else (subtitle, *subtitle_style),
            1.0, app.ansi_theme, app.native_ansi_color,
        )
        cache._cache[y] = strip
        cache._dirty_lines.discard(y)
        return strip

    def _frame_dirty_lines(self, crop: Region, cache, frame: tuple) -> dict[int, Strip]:
        """Draw the changed content lines inside `crop` into Textual's line cache; the
        lines drawn, by their row in the pane."""
        left, right, inner, top, content_width, content_height, _ = frame
        dirty = cache._dirty_lines
        start, end = max(crop.y, top), min(crop.bottom, top + content_height)
        rows = [y for y in dirty if start <= y < end]
        if not rows:
            return {}
        width = self.once_a_pass(self._pass_region).width
        padding = self.styles.padding
        left = ([left] if left else []) + ([make_blank(padding.left, inner)] if padding.left else [])
        right = ([make_blank(padding.right, inner)] if padding.right else []) + ([right] if right else [])
        lines = cache._cache
        drawn = {}
        framed_rows = self._framed_rows
        if framed_rows is None or self._framed_rows_for is not frame or len(framed_rows) >= _KEPT_FRAMED:
            framed_rows = self._framed_rows = {}
            self._framed_rows_for = frame
        for y in rows:
            line = self.render_line(y - top).adjust_cell_length(content_width, inner)
            kept = framed_rows.get(id(line))
            if kept is None or kept[0] is not line:
                kept = framed_rows[id(line)] = (line, Strip([*left, *line, *right], width))
            lines[y] = drawn[y] = kept[1]
        dirty.difference_update(rows)
        if hasattr(self, "_kept_lines"):
            self._kept_lines = None
        return drawn

    def _frame(self, cache) -> tuple | None:
        """`_plain_frame`, worked out again only when Textual forgot the pane's drawn lines
        (a change of style, theme or size clears its line cache) or its size changed."""
        kept = self._frame_kept
        size = self.once_a_pass(self._pass_region).size
        if kept is not None and cache._cache.get(_FRAME_MARK) is kept and kept[1] == size:
            return kept[0]
        frame = self._plain_frame(cache)
        self._frame_kept = kept = (frame, size)
        cache._cache[_FRAME_MARK] = kept
        return frame

    def _plain_frame(self, cache) -> tuple | None:
        """The side border cells (None: no border), the text's background, the first content row, the
        content's width and height, and the pane's background; None when the frame is not
        plain."""
        styles = self.styles
        (_, _), (right_type, right_color), (_, _), (left_type, left_color) = styles.border
        if (
            styles.tint.a
            or styles.text_opacity != 1.0
            or any(edge for edge, _ in styles.outline)
            or (styles.has_rule("hatch") and styles.hatch != "none")
            or self.opacity != 1.0
        ):
            return None
        base_background, background = self.background_colors
        inner, outer = cache.get_inner_outer(base_background, background)
        left = get_box(left_type, inner, outer, Style(foreground=base_background + left_color))[1][0] if left_type else None
        right = get_box(right_type, inner, outer, Style(foreground=base_background + right_color))[1][2] if right_type else None
        content_width, content_height = self.content_region.size
        return left, right, inner.rich_style, styles.gutter.top, content_width, content_height, background
