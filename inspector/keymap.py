"""Keys remapped in the user's config file, checked before Textual's keymap gets them.

Every binding of the app has an id (`list.down`, `main.raw`); the config's keys table
gives an id new keys, and `App.set_keymap` does the rest. An id that names no binding,
or a key Textual has no name for, would be silently dead: `checked_keymap` keeps what
is usable and says why the rest is not, in a line each, for a notice in the app.
"""

from __future__ import annotations

import difflib
import importlib
import pkgutil
from collections.abc import Iterable, Iterator

from textual.binding import Binding
from textual.dom import DOMNode
from textual.keys import Keys, _normalize_key_list, key_to_character

MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})
"""What may stand before a key, joined by `+` (`ctrl+shift+f`)."""
NAMED_KEYS = frozenset(key.value.rpartition("+")[2] for key in Keys if not key.value.startswith("<"))
"""Names of the keys that are not characters (`up`, `pagedown`, `f5`, `escape`)."""
PACKAGES = ("spvinspect.screens", "spvinspect.widgets")
"""Where the app's screens and widgets (and so their bindings) are defined."""


def key_problem(key: str) -> str | None:
    """Why `key` is not a key Textual can send, or None: a character (`j`, `?`), a key's
    name (`pagedown`, `question_mark`), each after modifiers (`ctrl+`, `shift+`, `alt+`)."""
    *modifiers, base = key.split("+")
    unknown = [m for m in modifiers if m not in MODIFIERS]
    if unknown:
        return f"{unknown[0]!r} is not a modifier (ctrl, shift, alt, meta, super, hyper)"
    if len(base) == 1:
        return None if base.isprintable() else "a control character is not a key name"
    if base in NAMED_KEYS or key_to_character(base) is not None:
        return None
    return "no such key (keys are characters or names such as pagedown, f5, question_mark)"


def _binding_classes() -> Iterator[type[DOMNode]]:
    """Every screen and widget class of the app (their modules imported first)."""
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        for module in pkgutil.iter_modules(package.__path__, package_name + "."):
            importlib.import_module(module.name)
    stack = [DOMNode]
    while stack:
        cls = stack.pop()
        stack.extend(cls.__subclasses__())
        if cls.__module__.startswith("spvinspect."):
            yield cls


def _own_bindings(cls: type[DOMNode]) -> list[Binding]:
    """The bindings with ids a class declares itself (a format's view declares the
    screen's, `SCREEN_BINDINGS`)."""
    declared = [*cls.__dict__.get("BINDINGS", ()), *cls.__dict__.get("SCREEN_BINDINGS", ())]
    return [b for b in declared if isinstance(b, Binding) and b.id is not None]


def binding_ids(classes: Iterable[type[DOMNode]] | None = None) -> dict[str, Binding]:
    """Every binding id of the app's screens and widgets (or of `classes`), with its binding."""
    found: dict[str, Binding] = {}
    for cls in _binding_classes() if classes is None else classes:
        for binding in _own_bindings(cls):
            found.setdefault(binding.id, binding)
    return found


def key_clashes(keymap: dict[str, str], classes: Iterable[type[DOMNode]] | None = None) -> list[str]:
    """Keys the keymap gives an action that another action of the same widget or screen
    still has: the remapped one takes the key (as Textual's keymap does), the other
    loses it; a line each."""
    told = []
    for cls in _binding_classes() if classes is None else classes:
        owners: dict[str, list[str]] = {}
        for binding in _own_bindings(cls):
            keys = keymap.get(binding.id) or binding.key
            for key in _normalize_key_list(keys).split(","):
                owners.setdefault(key, []).append(binding.id)
        for key, ids in owners.items():
            remapped = [i for i in ids if i in keymap]
            kept = [i for i in ids if i not in keymap]
            if remapped and kept:
                told.append(f"keys: {key} of {remapped[0]} takes the key from {', '.join(kept)}")
    return told


def checked_keymap(entries: Iterable[tuple[str, str]], known: dict[str, Binding]) -> tuple[dict[str, str], list[str]]:
    """The keymap of the usable `entries` (binding id, keys "a,b"), and a one-line reason
    for each entry or key left out. `known` is every binding id (`binding_ids()`)."""
    keymap: dict[str, str] = {}
    problems: list[str] = []
    for binding_id, keys in entries:
        if binding_id not in known:
            near = difflib.get_close_matches(binding_id, list(known), n=1)
            hint = f" (did you mean {near[0]}?)" if near else " (the help screen, ?, shows each key's id)"
            problems.append(f"keys: {binding_id!r} is no binding id{hint}")
            continue
        usable = []
        for key in keys.split(","):
            problem = key_problem(key)
            if problem is None:
                usable.append(key)
            else:
                problems.append(f"keys: {binding_id} {key!r}: {problem}")
        if usable:
            keymap[binding_id] = ",".join(usable)
    return keymap, problems
