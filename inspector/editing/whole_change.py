"""Which instructions a whole assembly of a region's module changed, from the words alone.

A whole assembly gives every word of the module anew, though an edit that needed one
usually changes a few instructions. The panes' new document reuses the shown module's
index when told which words changed (`editing.follow`); without that, it indexes and
names the whole module again, seconds on a big one. The change is found by comparing the
words before and after (numpy: the first and the last word that differ), widened to the
instructions around them, whose starts the region's text and its module give (in the
new words when the old ones had instructions after the region resized by an earlier
edit, walked when both have).
"""

from __future__ import annotations

from array import array

import numpy as np

from spvinspect.editing.assembly_state import AssemblyState
from spvinspect.editing.dependents import ModuleOutside, instruction_starts


def whole_change(base: AssemblyState, state: AssemblyState, around: ModuleOutside) -> tuple[int, int, int] | None:
    """Words [start, old end) of `base`'s words that are words [start, new end) of
    `state`'s (instruction boundaries of both), all else equal; None when the
    instructions cannot be placed (an empty change when only the header differs)."""
    old = np.frombuffer(base.words, dtype=np.uint32)
    new = np.frombuffer(state.words, dtype=np.uint32)
    shortest = min(len(old), len(new))
    if shortest <= 5:
        return None
    differ = np.flatnonzero(old[5:shortest] != new[5:shortest])
    first = 5 + int(differ[0]) if len(differ) else shortest
    tail_differ = np.flatnonzero(old[::-1][:shortest - 5] != new[::-1][:shortest - 5])
    same_tail = min(int(tail_differ[0]) if len(tail_differ) else shortest - 5, shortest - first)
    if first == len(old) == len(new):
        return 5, 5, 5
    end = len(base.words) if base.words_end is None else base.words_end
    starts = instruction_starts(old, base.group_words, end)
    if starts is None or not len(base.group_words):
        return None
    last = max(len(old) - same_tail, first + 1)
    outside = around.instructions(old, int(base.group_words[0]), end)
    if outside is not None:
        every = np.sort(np.concatenate([starts, outside[0], [len(old)]]))
    elif (placed := _placed_by_new(new, state, around, first, same_tail)) is not None:
        start, new_end = placed
        return start, new_end + len(old) - len(new), new_end
    else:  # the words after the region resized by an earlier edit, and still: walked
        every = _walked(old, base.words, starts, around, int(base.group_words[0]), end, last)
        if every is None:
            return None
    start = int(every[np.searchsorted(every, first, side="right") - 1])
    after = np.searchsorted(every, max(last, start + 1), side="left")
    old_end = int(every[min(int(after), len(every) - 1)])
    return start, old_end, old_end + len(new) - len(old)


def _placed_by_new(new: np.ndarray, state: AssemblyState, around: ModuleOutside, first: int,
                   same_tail: int) -> tuple[int, int] | None:
    """The change's start and new end placed by the new words, when they are laid out as
    the module's (an earlier edit's resizing after the region undone): the words before
    `first` and the last `same_tail` are the old ones, so are their boundaries."""
    if state.group_words is None or not len(state.group_words):
        return None
    end = len(new) if state.words_end is None else state.words_end
    starts = instruction_starts(new, state.group_words, end)
    outside = None if starts is None else around.instructions(new, int(state.group_words[0]), end)
    if outside is None:
        return None
    every = np.sort(np.concatenate([starts, outside[0], [len(new)]]))
    start = int(every[np.searchsorted(every, first, side="right") - 1])
    after = np.searchsorted(every, max(len(new) - same_tail, start + 1), side="left")
    return start, int(every[min(int(after), len(every) - 1)])


def _walked(words: np.ndarray, raw: array, starts: np.ndarray, around: ModuleOutside, text_start: int,
            text_end: int, last: int) -> np.ndarray | None:
    """Every instruction start in `words` up to the first at or past `last`, and the end:
    the module's own before the region (its words there are the module's: an edit
    never reaches before it), the text's, then a walk from the region's end (an earlier
    edit resized instructions after it); None when the words do not walk."""
    module_words = np.frombuffer(around.module.words, dtype=np.uint32)
    if not np.array_equal(words[5:text_start], module_words[5:text_start]):
        return None
    offsets = np.frombuffer(around.module.index.offsets, dtype=np.uint32).astype(np.int64)
    found = []
    at, size = text_end, len(words)
    while at < min(last, size):
        found.append(at)
        step = raw[at] >> 16
        if not step:
            return None
        at += step
    if at > size:
        return None
    walked = np.array(found + [at, size], dtype=np.int64)
    return np.unique(np.concatenate([offsets[offsets < text_start], starts, walked]))
