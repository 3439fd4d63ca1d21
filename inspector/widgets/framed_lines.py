"""A pane's content lines framed (border, padding, Textual's styles) once per content line.

Textual frames each line of a widget anew whenever it is repainted: the borders, the
padding, the tint and opacity, then the terminal's colour filter on the result. A pane
whose rows move (a step shifts the values pane's rows, the list scrolls a row) repaints
lines it has framed before. A pane that keeps the rows it draws (the same `Strip` for the
same row) mixes in `FramedLines`: a content line drawn from a strip it framed before,
under the same styles, size and colours, is the framed line of then (whose colour filter
and cuts Textual keeps on it too). Border and padding lines are framed as Textual frames them.
"""

from __future__ import annotations

from textual._styles_cache import StylesCache
from textual.cache import LRUCache
from textual.strip import Strip

LINES_KEPT = 256
"""Framed lines kept per pane (a few screens of rows)."""


class FramingCache(StylesCache):
    """Textual's styles cache, keeping each content line's framed strip by the content
    strip it framed (held, so the identity cannot be reused) and all that frames it. A
    full repaint (a scroll) keeps them: what framed a line is in its key."""

    def __init__(self) -> None:
        super().__init__()
        self._framed: LRUCache[tuple, tuple[Strip, Strip]] = LRUCache(LINES_KEPT)

    def render_line(self, styles, y, size, content_size, padding, base_background, background, render_content_line,
                    border_title, border_subtitle, opacity, ansi_theme, native_ansi) -> Strip:
        gutter = styles.gutter
        content_y = y - gutter.top
        if y < gutter.top or y >= size.height - gutter.bottom or content_y >= content_size.height:
            return super().render_line(styles, y, size, content_size, padding, base_background, background,
                                       render_content_line, border_title, border_subtitle, opacity, ansi_theme,
                                       native_ansi)
        content = render_content_line(content_y)
        # The outline's first and last lines differ from the rest: y takes part then.
        outlined = y if y in (0, size.height - 1) and any(edge for edge, _ in styles.outline) else None
        key = (id(content), outlined, styles._cache_key, size, content_size, padding, base_background, background,
               opacity, id(ansi_theme), native_ansi)
        kept = self._framed.get(key)
        if kept is not None and kept[0] is content:
            return kept[1]
        line = super().render_line(styles, y, size, content_size, padding, base_background, background,
                                   lambda _: content, border_title, border_subtitle, opacity, ansi_theme, native_ansi)
        self._framed[key] = (content, line)
        return line


class FramedLines:
    """Mix in before a Textual widget class whose `render_line` gives the same strip for a
    line that looks the same."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = FramingCache()
