"""A region's edit the splice could not number, re-assembled as one stretch over the
module's own tables instead of the whole module's text.

In a region session every id outside the region is pinned: a friendly name keeps its
id, a numeric id its number. What the whole text's assembly numbers afresh are the
names the user typed, and those appear only in the region; they are numbered in order
of first appearance with the lowest numbers no pinned id holds. So when a numeric id
comes in at or below such a name's number (which the splice from the last good state
cannot renumber, `numeric_ids`), the whole run's words are the module's own around the
region's, the region's lines assembled from the tables read off the unedited module
(`region_state`) with every numeric id the lines hold pinned first, and the header's
bound: one splice of the whole region into a fresh state. The outside words are never
re-made from text. A numeric id the module defines that leaves the region stays pinned
when an instruction outside the region names it (`named_outside`: the words tell); the
others are free for the names the user typed, as in the whole run. A dependent after the region may
change size here (`ModuleOutside.resizing`: integer constants re-encoded from their
words, others from their lines, up to `dependents.RESIZED_LIMIT` of them).
A numeric id at 0xFFFFFFFF pins its number while the header's bound leaves it out (its
bound, 2^32, wraps), as spirv-as writes it. Where the splice is not sure either, the
caller assembles the whole text.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.codec.asm.lexer import tokenize
from spvinspect.codec.text.region import region_words
from spvinspect.editing.assembly_state import AssemblyState
from spvinspect.editing.incremental import StretchError, splice
from spvinspect.editing.numeric_ids import MAX_NUMBER, NumericChange


def region_reassembled(source, lines: list[str]) -> AssemblyState | StretchError | None:
    """The whole text's assembly with the region of `source` (a `RegionSource`) reading
    `lines`, made from the module's words and the region's lines alone; its first error
    (in the region's lines); None when only the whole text's assembly can tell."""
    fresh = source.state()
    if fresh is None:
        return None
    toks = [tok for tok in tokenize("\n".join(lines)) if tok[:1] == "%"]
    declared = fresh.declared
    in_use = declared.preserve
    numbered = numeric_ids(toks)
    added = {word: number for word, number in numbered.items() if number not in in_use}
    if any(not 0 < number <= MAX_NUMBER + 1 for number in added.values()):
        return None
    uses = Counter(tok for tok in toks if tok in added)
    if added:  # pinned before any name is numbered, as the whole run pins them
        NumericChange(added, {}).commit(declared)
        if MAX_NUMBER + 1 in added.values():
            declared.pin_bound = _wrapped_bound(declared.preserve)
        for word in added:
            fresh.counts[word] = uses[word]
    # The module's numeric ids the lines no longer hold: one that an instruction outside
    # the region names stays pinned (the whole text holds it); the others the whole
    # text no longer holds, so a name the user typed may take their numbers.
    gone = {word: number for word, number in numeric_ids(
        [tok for tok in tokenize("\n".join(fresh.lines)) if tok[:1] == "%"]).items() if word not in numbered}
    freed = set(gone.values()) - named_outside(source.module, source.region, set(gone.values()))
    if freed:
        in_use.ids = Freed(in_use.ids, freed)
    for word in gone:
        fresh.counts[word] += 1
    state = splice(fresh, lines, (0, len(fresh.lines), len(lines)), source.around.resizing())
    if not isinstance(state, AssemblyState) or state is fresh:
        return None if state is fresh else state
    for word in added:  # counted once, by the seeding above
        state.count_changes[word] = state.count_changes.get(word, 0) - uses[word]
    for word in gone:
        state.count_changes[word] = state.count_changes.get(word, 0) - 1
    return state


class Freed:
    """The ids in use (`module_tables.IdsInUse`) less those the whole text no longer
    holds (`freed`): the numbers a new name skips."""

    __slots__ = ("ids", "freed")

    def __init__(self, ids, freed: set[int]) -> None:
        self.ids = ids
        self.freed = freed

    def __contains__(self, number: object) -> bool:
        return number not in self.freed and number in self.ids

    def free_from(self, number: int) -> int:
        """The first number from `number` on that is not in use."""
        found = self.ids.free_from(number)
        return min([found, *(n for n in self.freed if number <= n < found)])

    @property
    def top(self) -> int:
        """The largest id in use, a freed one's included (the header's bound keeps it)."""
        return self.ids.top


NAMED_LIMIT = 4096
"""The most instructions decoded to tell whether one names an id (the rest are taken to)."""


def named_outside(module, region, numbers: set[int]) -> set[int]:
    """Of `numbers`, those an instruction of `module` outside `region` names (an id
    operand, or words that do not decode): one numpy pass over the words, then only the
    instructions holding such a word are decoded."""
    if not numbers:
        return set()
    words = np.frombuffer(module.words, dtype=np.uint32)
    start, end = region_words(module, region)
    wanted = np.fromiter(numbers, dtype=np.uint32, count=len(numbers))
    hits = np.concatenate([5 + np.flatnonzero(np.isin(words[5:start], wanted)),
                           end + np.flatnonzero(np.isin(words[end:], wanted))])
    offsets = np.frombuffer(module.index.offsets, dtype=np.uint32)
    holders = np.searchsorted(offsets, hits, side="right") - 1
    if len(np.unique(holders)) > NAMED_LIMIT:
        return set(numbers)
    found: set[int] = set()
    for index in np.unique(holders).tolist():
        inst = module.instruction(index)
        for operand in inst.operands:
            if operand.kind.startswith(("Id", "Pair", "Raw")) or not inst.valid:
                found.update(int(w) for w in words[operand.offset : operand.end] if int(w) in numbers)
    return found


def _wrapped_bound(preserve) -> int:
    """The pinned numbers' bound (`numeric_ids.NumberedInUse`) without 0xFFFFFFFF's: its
    bound, 2^32, wraps to 0 in the header's word, which holds the other ids' bound (as
    spirv-as writes it, `IdTable.pin`; spirv-val then says the id is out of bound)."""
    base = preserve.ids.top if preserve.base_top is None else preserve.base_top
    return max([base, *(number for number in preserve.numbers if number <= MAX_NUMBER)]) + 1
