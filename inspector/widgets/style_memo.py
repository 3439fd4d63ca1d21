"""Styles a Line-API pane draws with, worked out once until the styles change.

Textual forgets a widget's component styles on every refresh and works its own style
out from every ancestor on each call; a pane that draws each row with them pays that on
every row of every frame. The memo keeps them while the widget's own styles and its
component styles are the same objects (Textual makes them anew when a pseudo-class such
as focus or a class changes them) and until Textual says they changed
(`notify_style_update`, a theme) — as Textual keeps a widget's `visual_style`.
"""

from __future__ import annotations

from rich.style import Style


class StyleMemo:
    """Mix in before the widget class: `memo_style(name)` is a component's rich style,
    `memo_style("")` the widget's own (`rich_style`)."""

    _memo: dict[str, tuple[object, Style]] | None = None
    _memo_key: int = -1

    def memo_style(self, name: str) -> Style:
        memo, key = self._memo, self.styles._cache_key
        if memo is None or key != self._memo_key:
            memo, self._memo_key = {}, key
            self._memo = memo
        # A component's styles are made anew whenever Textual applies the widget's rules
        # (a focus changes `Pane:focus > .component`) without touching the widget's own.
        source = self._component_styles.get(name) if name else None
        kept = memo.get(name)
        if kept is None or kept[0] is not source:
            kept = memo[name] = (source, self.get_component_rich_style(name) if name else self.rich_style)
        return kept[1]

    def notify_style_update(self) -> None:
        self._memo = None
        super().notify_style_update()
