"""An edit that brings in a numeric id (`%4000000000`) or drops the last use of one.

spirv-as (with --preserve-numeric-ids, as the editor assembles) keeps a numeric id's
number, makes names it numbers skip it, and raises the header's bound to one past the
largest number. While the text holds no name the user typed (each one the run numbers
on first sight), a numeric id coming in or going changes only its own words and the
bound: the stretch is spliced and the bound word set, with the bytes the whole text's
assembly gives. With such names, the same holds when each one's number stays below
every number coming in or going (names are numbered from the lowest free number up, so
they never reached it). An id may leave only when the edits brought it in (its count is
then exact, and no name or other spelling pins its number). Anything else takes the
whole assembly. The tables learn the ids on commit (`NumericChange.commit`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from spvinspect.codec.asm.ids import numeric_ids

MAX_NUMBER = 0xFFFFFFFE
"""The largest number taken: one past it (the bound) must fit in a word."""


class NumberedInUse:
    """The pinned numbers (a region's ids in use, `module_tables.IdsInUse`, or a whole
    run's set) with the numeric ids the edits brought in: the numbers a new name skips."""

    __slots__ = ("ids", "base_top", "words", "numbers", "_ids_top")

    def __init__(self, ids, base_top: int | None = None) -> None:
        self.ids = ids
        self.base_top = base_top
        """The largest pinned number without the edits' (None: the ids' own `top`)."""
        self._ids_top: tuple[object, int] | None = None
        """(the ids, their `top`) once asked: a pass over a big module's ids, which do not change."""
        self.words: dict[str, int] = {}
        """Each numeric id word the edits brought in, with its number."""
        self.numbers: Counter[int] = Counter()
        """Those numbers, with how many of the words have each."""

    def __contains__(self, number: object) -> bool:
        return number in self.numbers or number in self.ids

    def free_from(self, number: int) -> int:
        """The first number from `number` on that is not in use."""
        free = getattr(self.ids, "free_from", None)
        while True:
            if free is not None:
                number = free(number)
            elif number in self.ids:
                number += 1
                continue
            if number not in self.numbers:
                return number
            number += 1

    @property
    def top(self) -> int:
        """The largest id in use (0 when none)."""
        return max(self._base_top(), max(self.numbers, default=0))

    def _base_top(self) -> int:
        if self.base_top is not None:
            return self.base_top
        ids, known = self.ids, self._ids_top
        if known is None or known[0] is not ids:
            known = self._ids_top = (ids, ids.top)
        return known[1]

    def top_after(self, change: NumericChange) -> int:
        """The largest id in use once `change` is applied."""
        numbers = self.numbers.copy()
        numbers.update(change.added.values())
        numbers.subtract(change.removed.values())
        return max(self._base_top(), max((n for n, count in numbers.items() if count > 0), default=0))

    def apply(self, change: NumericChange) -> None:
        """Take `change` in."""
        self.words.update(change.added)
        self.numbers.update(change.added.values())
        for word, number in change.removed.items():
            del self.words[word]
            self.numbers[number] -= 1
            if self.numbers[number] <= 0:
                del self.numbers[number]


class WithNumbered:
    """A set of id words (the pinned, the numeric ones) and the numeric ids the edits
    brought in (`NumberedInUse.words`)."""

    __slots__ = ("words", "numbered")

    def __init__(self, words, numbered: NumberedInUse) -> None:
        self.words = words
        self.numbered = numbered

    def __contains__(self, word: object) -> bool:
        return word in self.words or word in self.numbered.words


@dataclass(frozen=True, slots=True)
class NumericChange:
    """The numeric id words a stretch brings in and drops the last use of (word → number)."""

    added: dict[str, int]
    removed: dict[str, int]

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)

    @property
    def lowest(self) -> int:
        """The lowest number coming in or going."""
        return min([*self.added.values(), *self.removed.values()])

    def commit(self, declared) -> None:
        """Record the change in the run's tables (`assembly_state.Declared`), once."""
        preserve = declared.preserve
        if not isinstance(preserve, NumberedInUse):  # a whole run's sets: read through from now on
            preserve = NumberedInUse(preserve, declared.pin_bound - 1)
            declared.pinned = WithNumbered(declared.pinned, preserve)
            declared.numeric = WithNumbered(declared.numeric, preserve)
            declared.preserve = preserve
        preserve.apply(self)
        declared.numbers.update(self.added)
        for word in self.removed:
            declared.numbers.pop(word, None)
        declared.pin_bound = max(preserve.top + 1, 1)


def top_after(declared, change: NumericChange) -> int:
    """The largest pinned number once `change` is applied."""
    preserve = declared.preserve
    if isinstance(preserve, NumberedInUse):
        return preserve.top_after(change)
    return max(declared.pin_bound - 1, max(change.added.values(), default=0))


def names_top(declared, assigned: dict[str, int], unpinned: dict[str, int] | None) -> int | None:
    """The largest number of a name the user typed (`unpinned`, numbered as `assigned`
    or as before; 0 when none); None when not known."""
    if unpinned is None:
        return None
    numbers = declared.numbers
    return max((assigned.get(name, numbers.get(name, 0)) for name in unpinned), default=0)


def numeric_change(state, changes: dict[str, int]) -> NumericChange | None:
    """The numeric id words that come into `state`'s text or leave it when each id
    word's count changes by `changes` (empty: none); None when the whole assembly is
    needed (a name the user typed numbered in the text, an id dropped that the edits did
    not bring in, a number already pinned, the bound past 32 bits)."""
    declared = state.declared
    counts = state.counts
    added: dict[str, int] = {}
    removed: dict[str, int] = {}
    for word, change in changes.items():
        if not change:
            continue
        before = counts.get(word, 0)
        if before and before + change > 0:
            continue
        number = numeric_ids([word]).get(word)
        if number is None:
            continue
        if before == 0:
            added[word] = number
        else:
            removed[word] = number
    change = NumericChange(added, removed)
    if not change:
        return change
    preserve = declared.preserve
    numbered = preserve.words if isinstance(preserve, NumberedInUse) else {}
    if state.unpinned is None or declared.pin_bound == 0 or not declared.numbers:
        return None
    if any(not 0 < number <= MAX_NUMBER or number in preserve for number in added.values()):
        return None
    if any(word not in numbered for word in removed):
        return None
    return change
