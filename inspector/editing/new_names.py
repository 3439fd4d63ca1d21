"""Incremental re-assembly of a stretch that brings in, renames or drops names.

A name the original module does not pin (one the user typed) is numbered where it first
appears, with the next number no pinned id holds, as spirv-as numbers names; so a new
name in a stretch gets the number the whole run would give it when every such name that
appears first before the stretch keeps its place, and the names first appearing after the
stretch keep theirs (checked by numbering on past the stretch). How the stretch's
definitions change the tables is `dependents.changed_definitions`'s.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass

from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.editing.assembly_state import AssemblyState, _line_start_words


class StretchIds(dict):
    """The stretch's id table: its own entries (the names it numbers), read through to
    the whole run's, except the masked names, which the stretch numbers afresh."""

    __slots__ = ("base", "masked")

    def __init__(self, base: dict[str, int], masked: frozenset[str]) -> None:
        super().__init__()
        self.base = base
        self.masked = masked

    def get(self, key, default=None):
        """This stretch's number for `key`, else the whole run's (unless masked)."""
        found = dict.get(self, key)
        if found is not None:
            return found
        return default if key in self.masked else self.base.get(key, default)


@dataclass(frozen=True, slots=True)
class NamePlan:
    """Which names the stretch numbers afresh, and where numbering starts."""

    masked: frozenset[str]
    next_id: int
    earlier: list[str]
    """Unpinned names first appearing before the stretch (their numbers stay)."""
    involved: bool = True
    """False when the stretch holds no unpinned name, old or new: numbering is untouched."""


def free_words(toks: list[str], pinned: frozenset[str]) -> list[str]:
    """The id words of `toks` that are not pinned, in order, once each."""
    return [tok for tok in dict.fromkeys(toks) if tok[:1] == "%" and tok not in pinned]


def plan(
    state: AssemblyState, old_toks: list[str], new_toks: list[str], line0: int, numbered: dict[str, int]
) -> NamePlan | None:
    """How the stretch from line `line0` numbers names; None when it cannot (numbers
    past 32 bits, first appearances unknown, a new numeric id not in `numbered`: the
    numeric ids the stretch brings in, see `numeric_ids`)."""
    declared = state.declared
    unpinned = state.unpinned
    new_free = [word for word in free_words(new_toks, declared.pinned) if word not in numbered]
    if not new_free and not free_words(old_toks, declared.pinned):
        return NamePlan(frozenset(), 1, [], involved=False)
    if unpinned is None or declared.pin_bound == 0 or any(numeric_ids([tok]) for tok in new_free):
        return None
    earlier = [name for name, line in unpinned.items() if line < line0]
    masked = frozenset(name for name, line in unpinned.items() if line >= line0)
    next_id = declared.numbers[earlier[-1]] + 1 if earlier else 1
    free_from = getattr(declared.preserve, "free_from", None)
    if free_from is not None:  # a region's pinned ids: where numbering lands, found at once
        next_id = free_from(next_id)
    return NamePlan(masked, next_id, earlier)


def renumbered(
    state: AssemblyState, names: NamePlan, ids, old_toks: list[str], new_toks: list[str],
    new_stretch: list[str], line0: int, line1: int, line_delta: int,
) -> tuple[dict[str, int], dict[str, int] | None, list[str], int | None] | None:
    """After the stretch's run (`ids` its id table): the names it numbered, the unpinned
    names with their first lines, the names gone, and the new id bound (None: as it
    was); None when the words outside the stretch would change."""
    if not names.involved:
        unpinned = state.unpinned
        if unpinned is None:
            return {}, None, [], None
        return {}, {name: line + (line_delta if line >= line1 else 0) for name, line in unpinned.items()}, [], None
    assigned = dict(ids.numbers)
    unpinned = state.unpinned or {}
    numbers = state.declared.numbers
    counts = state.counts
    old_in = Counter(tok for tok in old_toks if tok[:1] == "%")

    def outside(name: str) -> int:
        return counts.get(name, 0) - old_in[name]

    if any(outside(name) and assigned[name] != numbers.get(name) for name in assigned):
        return None
    dropped = [name for name, line in unpinned.items() if line0 <= line < line1 and name not in assigned]
    if any(outside(name) for name in dropped):
        return None
    later = [name for name, line in unpinned.items() if line >= line1 and name not in assigned]
    for name in later:
        if ids.assign(name) != numbers[name]:
            return None
    firsts: dict[str, int] = {}
    if assigned:
        starts = _line_start_words(new_stretch, len(new_toks))
        if starts is None:
            return None
        for name in assigned:
            firsts[name] = line0 + bisect_right(starts, new_toks.index(name)) - 1
    placed = {name: unpinned[name] for name in names.earlier}
    placed.update(firsts)
    placed.update((name, unpinned[name] + line_delta) for name in later)
    top = max((ids.numbers.get(name, numbers.get(name, 0)) for name in placed), default=0)
    bound = max(state.declared.pin_bound, top + 1)
    return assigned, placed, dropped, bound
