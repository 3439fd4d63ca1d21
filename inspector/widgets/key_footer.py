"""Textual's footer, recomposed only when the keys it shows change.

The footer rebuilds itself (a widget per key, each styled) whenever the screen's
bindings might have changed: focus moving, the screen resuming. Right after the first
paint several such rebuilds came in a row, and the user's first key waited for them; moving the focus between panes whose keys are the same rebuilt it too.
"""

from __future__ import annotations

from textual.widgets import Footer


class KeyFooter(Footer):
    """A `Footer` that skips a rebuild when the keys it would show are the ones shown."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple | None = None

    def bindings_changed(self, screen) -> None:
        super().bindings_changed(screen)
        if self._shown is None:
            # The first keys at once, so that they are in the first paint (Textual
            # fills the footer in after it, re-laying out the screen there).
            self.call_next(self.recompose)

    async def recompose(self) -> None:
        shown = self._keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
        if not self.children:  # composed before the screen's bindings were ready: not shown
            self._shown = None

    def _keys_shown(self) -> tuple:
        """What the footer shows: the screen's active bindings, in the footer's form."""
        if not self.is_attached:
            return ()
        return (self.compact, self.show_command_palette) + tuple(
            (key, active.binding.action, active.binding.description, active.binding.key_display, active.enabled, active.tooltip)
            for key, active in self.screen.active_bindings.items()
            if active.binding.show
        )
