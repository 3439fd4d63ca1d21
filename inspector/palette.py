"""What the keys do, for the command palette and the help screen.

`bound_actions` lists every binding of the app, a screen and the screen's own widgets
(not only the focused ones), read from each node's live bindings so that remapped keys
show as remapped. `ActionsProvider` offers each of them in the command palette, so every
action has a key and a palette entry; `GotoProvider` makes a provider of named places
(functions, entry points) from a callable.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial

from textual.actions import parse
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.dom import DOMNode
from textual.markup import escape
from textual.screen import Screen
from textual.widgets import Input

_PALETTE_ACTION = "command_palette"
"""The action that opens the palette; the palette does not offer itself."""


@dataclass(frozen=True, slots=True)
class BoundAction:
    """One action of one node with every key bound to it."""

    node: DOMNode
    """Where the action runs (the node whose BINDINGS declare it)."""
    binding: Binding
    keys: tuple[str, ...]
    """The keys as the footer shows them: `j`, `↓`, `^o`."""

    @property
    def description(self) -> str:
        """What it does, in a few words."""
        return self.binding.description or self.binding.tooltip

    @property
    def tooltip(self) -> str:
        """What it does, in a sentence when the binding has one."""
        return self.binding.tooltip or self.binding.description


def _is_ours(node: DOMNode) -> bool:
    """A widget of this app rather than one of Textual's building blocks."""
    return not type(node).__module__.startswith("textual.")


def _textual_only_actions(node: DOMNode) -> frozenset[str]:
    """Actions only Textual's own classes among the node's bind (an Input's editing keys)."""
    own: set[str] = set()
    textual: set[str] = set()
    for cls in type(node).__mro__:
        declared = cls.__dict__.get("BINDINGS")
        if declared:
            into = textual if cls.__module__.startswith("textual.") else own
            into.update(binding.action for binding in Binding.make_bindings(declared))
    return frozenset(textual - own)


def node_actions(node: DOMNode, textual_keys: bool = True) -> list[BoundAction]:
    """The described, non-system bindings of one node, keys of the same action together
    (the binding shown is one with an id, when one has: what the keys table remaps).
    Without `textual_keys`, actions only Textual's classes bind are left out."""
    grouped: dict[tuple[str, str], list[Binding]] = {}
    # As Textual's own binding chain does: the node's bindings (class BINDINGS and `bind()`
    # calls) with the app's keymap applied to a copy. Textual has no public accessor for
    # the bindings of a node that is not focused.
    bindings = node._bindings.copy()
    if node.app._keymap:
        bindings.apply_keymap(node.app._keymap)
    left_out = frozenset() if textual_keys else _textual_only_actions(node)
    for _key, binding in bindings:
        if binding.system or not (binding.description or binding.tooltip) or binding.action in left_out:
            continue
        grouped.setdefault((binding.action, binding.description), []).append(binding)
    app = node.app
    actions = []
    for group in grouped.values():
        # App's own ctrl+q (no id) and the app's q with its id: q first, with its id.
        group.sort(key=lambda binding: binding.id is None)
        keys = tuple(dict.fromkeys(app.get_key_display(binding) for binding in group))
        actions.append(BoundAction(node, group[0], keys))
    return actions


def bound_actions(screen: Screen) -> Iterator[BoundAction]:
    """Every action bound in the app, the screen and the screen's own widgets. Of a text
    field (ours, made on Textual's Input) only the keys our classes add: its two dozen
    editing keys are every text field's, and would drown the app's own; of a widget
    that never has the focus (the footer) only ours too: Textual's scroll keys it
    inherits never reach it."""
    yield from node_actions(screen.app)
    yield from node_actions(screen)
    for widget in screen.walk_children():
        if _is_ours(widget):
            textual_keys = widget.can_focus and not isinstance(widget, Input)
            yield from node_actions(widget, textual_keys=textual_keys)


def _run(action: BoundAction) -> Callable[[], Awaitable[bool]]:
    return partial(action.node.app.run_action, action.binding.action, action.node)


def _available(action: BoundAction) -> bool:
    """False when the node says the action cannot run now (`check_action`)."""
    namespace, name, parameters = parse(action.binding.action)
    if namespace:
        return True
    return action.node.check_action(name, parameters) is not False


def _help(action: BoundAction) -> str:
    """The palette's second line (Textual markup): what the action does, and its keys."""
    return escape(f"{action.tooltip}  ·  {' '.join(action.keys)}")


class ActionsProvider(Provider):
    """The command palette's entries for every key binding of the screen it was opened on."""

    async def startup(self) -> None:
        """Build the screen's panes not shown yet (hidden), so that their keys are offered too."""
        layout = getattr(self.screen, "pane_layout", None)
        if layout is not None:
            await layout.build_all()

    def _actions(self) -> list[BoundAction]:
        return [
            action
            for action in bound_actions(self.screen)
            if action.binding.action != _PALETTE_ACTION and _available(action)
        ]

    async def discover(self) -> Hits:
        """Every bound action, before anything is typed."""
        for action in self._actions():
            yield DiscoveryHit(action.description, _run(action), text=action.description, help=_help(action))

    async def search(self, query: str) -> Hits:
        """Bound actions whose description matches what was typed."""
        matcher = self.matcher(query)
        for action in self._actions():
            score = matcher.match(action.description)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(action.description),
                    _run(action),
                    text=action.description,
                    help=_help(action),
                )


GotoItems = Callable[[Screen], Iterable[tuple[str, Callable[[], object]]]]
"""Given the screen the palette was opened on: (label, callback) for each place."""


def GotoProvider(items: GotoItems, prefix: str = "Go to ") -> type[Provider]:  # noqa: N802
    """A command-palette provider class offering `prefix + label` for every item.

    Named like the class it makes, since it goes where provider classes go
    (`COMMANDS = {GotoProvider(lambda screen: screen.places())}`); `items` is called
    each time the palette opens, so the places follow the document.
    """

    class _GotoProvider(Provider):
        async def discover(self) -> Hits:
            for label, callback in items(self.screen):
                yield DiscoveryHit(prefix + label, callback, text=prefix + label)

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            for label, callback in items(self.screen):
                text = prefix + label
                score = matcher.match(text)
                if score > 0:
                    yield Hit(score, matcher.highlight(text), callback, text=text)

    _GotoProvider.__qualname__ = _GotoProvider.__name__ = "GotoProvider"
    return _GotoProvider
