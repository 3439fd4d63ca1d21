"""A region edit that brings in a numeric id (`%4000000000`) or drops the last use of one.

spirv-as (with --preserve-numeric-ids, as the editor assembles) keeps a numeric id's
number, makes names it numbers skip it, and raises the header's bound to one past the
largest number. A region's text numbers no name of its own until the user types one, so
while it has none, a numeric id coming in or going changes only its own words and the
bound: the stretch is spliced and the bound word set, with the bytes the whole text's
assembly gives. An id may leave only when the edits brought it in (its count is then
exact: the module's words never held it). Anything else takes the whole assembly.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.codec.asm.module_tables import IdsInUse
from spvinspect.editing.new_names import NamePlan, free_words

MAX_NUMBER = 0xFFFFFFFE
"""The largest number taken: one past it (the bound) must fit in a word."""


class NumberedInUse:
    """A region's ids in use (`IdsInUse`: the module's, the names'), with the numeric ids
    the edits brought in: the numbers a new name skips, and the pinned bound."""

    __slots__ = ("ids", "words", "numbers")

    def __init__(self, ids: IdsInUse) -> None:
        self.ids = ids
        self.words: dict[str, int] = {}
        """Each numeric id word the edits brought in, with its number."""
        self.numbers: Counter[int] = Counter()
        """Those numbers, with how many of the words have each."""

    def __contains__(self, number: object) -> bool:
        return number in self.numbers or number in self.ids

    def free_from(self, number: int) -> int:
        """The first number from `number` on that is not in use."""
        while True:
            number = self.ids.free_from(number)
            if number not in self.numbers:
                return number
            number += 1

    @property
    def top(self) -> int:
        """The largest id in use (0 when none)."""
        return max(self.ids.top, max(self.numbers, default=0))

    def top_after(self, change: NumericChange) -> int:
        """The largest id in use once `change` is applied."""
        numbers = self.numbers.copy()
        numbers.update(change.added.values())
        numbers.subtract(change.removed.values())
        return max(self.ids.top, max((n for n, count in numbers.items() if count > 0), default=0))

    def apply(self, change: NumericChange) -> None:
        """Take `change` in (once, when its state is committed)."""
        self.words.update(change.added)
        self.numbers.update(change.added.values())
        for word, number in change.removed.items():
            del self.words[word]
            self.numbers[number] -= 1
            if self.numbers[number] <= 0:
                del self.numbers[number]


@dataclass(frozen=True, slots=True)
class NumericChange:
    """The numeric id words a stretch brings in and drops the last use of (word → number)."""

    added: dict[str, int]
    removed: dict[str, int]


def numeric_change(state, changes: dict[str, int]) -> NumericChange | None:
    """How the numeric ids in `state`'s text change when each id word's count changes by
    `changes`; None when the whole assembly is needed (not a region, a name the user
    typed numbered in the text, an id dropped that the module holds, a number in use)."""
    declared = state.declared
    in_use = declared.preserve
    if not isinstance(in_use, NumberedInUse) or state.unpinned or state.unpinned is None:
        return None
    counts, numeric = state.counts, declared.numeric
    added: dict[str, int] = {}
    removed: dict[str, int] = {}
    for word, change in changes.items():
        if not change or word not in numeric:
            continue
        before = counts.get(word, 0)
        if before == 0:
            number = numeric_ids([word]).get(word)
            if number is None or not 0 < number <= MAX_NUMBER or number in in_use:
                return None
            added[word] = number
        elif before + change <= 0:
            number = in_use.words.get(word)
            if number is None:
                return None
            removed[word] = number
    return NumericChange(added, removed)


def plan(state, old_toks: list[str], new_toks: list[str], change: NumericChange) -> NamePlan | None:
    """The stretch's naming with `change`: it numbers nothing (None when it holds a
    name the user typed, old or new, other than the numeric ids coming in)."""
    pinned = state.declared.pinned
    if any(word not in change.added for word in free_words(new_toks, pinned)) or free_words(old_toks, pinned):
        return None
    return NamePlan(frozenset(), 1, [], involved=False)
