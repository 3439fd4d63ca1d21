"""Repainting several runs of a scrolled pane's rows in one refresh: each `refresh` call
clears the widget's caches and prompts its message loop, and Textual's
`ScrollView.refresh_lines` takes a single run."""

from __future__ import annotations

from collections.abc import Iterable

from textual.geometry import Region
from textual.scroll_view import ScrollView


def refresh_row_spans(view: ScrollView, spans: Iterable[tuple[int, int]]) -> None:
    """Repaint rows `first` to `last` (virtual rows, both included) of each span of `view`,
    in one refresh; nothing when there are no spans."""
    top = view.scroll_offset.y
    width = max(view.virtual_size.width, view.size.width)
    regions = [Region(0, first - top, width, last - first + 1) for first, last in spans]
    if regions:
        view.refresh(*regions)
