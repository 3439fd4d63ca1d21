"""A widget's drawn lines handed to the compositor again while nothing of it changed.

Textual's compositor asks every widget under a repainted part of the screen for its lines
on every frame, and each answer works the widget's styles out again from its ancestors
(its backgrounds, borders and titles), even when the widget keeps every line it drew. A
step repaints most rows of the screen, so each pane, column and scrollbar that did not
change costs a frame that. Textual marks a widget's lines for repainting whenever what
it draws changes (its content, its styles, its size, the theme), which is what its own
line cache trusts; a widget with `KeptLines` mixed in returns its last lines while none
is marked and the compositor asks for the same part of it under the same filters.
"""

from __future__ import annotations

from textual.geometry import Region
from textual.strip import Strip


class KeptLines:
    """Mix in before a Textual widget class (a pane, a container, a scrollbar)."""

    _kept_lines: list[Strip] | None = None
    _kept_for: tuple = ()

    def render_lines(self, crop: Region) -> list[Strip]:
        cache = self._styles_cache
        key = (crop, self.outer_size, tuple(self.app._filters))  # its size, without a walk to the screen
        if self._kept_lines is not None and self._kept_for == key and not cache._dirty_lines and cache._cache:
            return self._kept_lines
        lines = super().render_lines(crop)
        self._kept_lines, self._kept_for = lines, key
        return lines
