"""Textual's footer, recomposed only when the keys it shows change, and fitted to its width.

The footer rebuilds itself (a widget per key, each styled) whenever the screen's
bindings might have changed: focus moving, the screen resuming. Right after the first
paint several such rebuilds came in a row, and the user's first key waited for them; moving
the focus between panes whose keys are the same rebuilt it too.

On a narrow terminal the keys that do not fit are left out: the app's own keys (Quit,
Help) and the palette key always show, then the focused pane's and the screen's keys in
their order, each that still fits.
"""

from __future__ import annotations

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from spvinspect.widgets.kept_lines import KeptLines

PALETTE_EXTRA = 2
"""Columns the palette key takes beyond an ordinary key: its separator bar and padding."""


class KeyFooter(KeptLines, Footer):
    """A `Footer` that skips a rebuild when the keys it would show are the ones shown, and
    shows only the keys that fit its width, the app's first."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._shown: tuple | None = None

    def bindings_changed(self, screen) -> None:
        super().bindings_changed(screen)
        if self._shown is None:
            # The first keys at once, so that they are in the first paint (Textual
            # fills the footer in after it, re-laying out the screen there).
            self.call_next(self.recompose)

    def on_resize(self, event: events.Resize) -> None:
        """Another width may hold other keys."""
        if self._shown is not None and self._shown[0] != self._width():
            self.call_next(self.recompose)

    async def recompose(self) -> None:
        shown = self._keys_shown()
        if shown == self._shown:
            return
        self._shown = shown
        await super().recompose()
        if not self.children:  # composed before the screen's bindings were ready: not shown
            self._shown = None

    def _width(self) -> int:
        return self.size.width or (self.screen.size.width if self.is_attached else 0) or self.app.size.width

    def _keys_shown(self) -> tuple:
        """What the footer shows: its width and the screen's active bindings, in the
        footer's form."""
        if not self.is_attached:
            return ()
        return (self._width(), self.compact, self.show_command_palette) + tuple(
            (key, active.binding.action, active.binding.description, active.binding.key_display, active.enabled, active.tooltip)
            for key, active in self.screen.active_bindings.items()
            if active.binding.show
        )

    def _key_width(self, key_display: str, description: str) -> int:
        """Columns a key takes: its key and description, with FooterKey's padding."""
        return cell_len(key_display) + cell_len(description) + (2 if self.compact else 3)

    def compose(self) -> ComposeResult:
        if not self._bindings_ready:
            return
        active_bindings = self.screen.active_bindings
        keys: dict[str, tuple] = {}  # action -> (binding, enabled, tooltip, the app's own)
        for node, binding, enabled, tooltip in active_bindings.values():
            if binding.show and binding.action not in keys:
                keys[binding.action] = (binding, enabled, tooltip, node is self.app)
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            palette = active_bindings.get(self.app.COMMAND_PALETTE_BINDING)
        room = self._width()
        if palette is not None:
            binding = palette.binding
            room -= self._key_width(self.app.get_key_display(binding), binding.description) + PALETTE_EXTRA
        widths = {action: self._key_width(self.app.get_key_display(b), b.description) for action, (b, *_) in keys.items()}
        # The app's keys first; then the pane's and the screen's in the footer's order (the
        # focused pane's first), each while it fits.
        kept = {action for action, entry in keys.items() if entry[3]}
        room -= sum(widths[action] for action in kept)
        for action, entry in keys.items():
            if not entry[3] and widths[action] <= room:
                kept.add(action)
                room -= widths[action]
        for action, (binding, enabled, tooltip, _) in keys.items():
            if action in kept:
                yield _compact(FooterKey(
                    binding.key,
                    self.app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    disabled=not enabled,
                    tooltip=tooltip,
                ), self.compact).data_bind(compact=Footer.compact)
        if palette is not None:
            binding = palette.binding
            yield _compact(FooterKey(
                binding.key,
                self.app.get_key_display(binding),
                binding.description,
                binding.action,
                classes="-command-palette",
                disabled=not palette.enabled,
                tooltip=binding.tooltip or binding.description,
            ), True)  # as Textual's footer has it: compact, whatever the footer is


def _compact(key: FooterKey, compact: bool) -> FooterKey:
    """`key` made compact or not before it mounts. Textual's keys become compact as they
    mount and then take the footer's `compact` (False), each a restyle of the key: two
    for every key at every rebuild."""
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)
    return key
