"""Which words of the edited module differ from the file as it was opened, for the hex pane."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

import numpy as np

BLOCKS = (4096, 64, 1)
"""Sizes in words of the runs compared at once (as bytes, at memcmp speed), coarse to fine."""


@dataclass(frozen=True, slots=True)
class ChangedWords:
    """Word ranges [start, end) of the edited module that are not the original's."""

    ranges: tuple[tuple[int, int], ...] = ()

    def __contains__(self, word: int) -> bool:
        at = bisect_right(self.ranges, (word, 1 << 62)) - 1
        return at >= 0 and self.ranges[at][0] <= word < self.ranges[at][1]

    def __bool__(self) -> bool:
        return bool(self.ranges)

    @property
    def count(self) -> int:
        """How many words changed."""
        return sum(end - start for start, end in self.ranges)


def changed_words(original: bytes, edited: bytes) -> ChangedWords:
    """The words of `edited` that differ from `original`.

    A word counts as unchanged when it equals the original's word at the same offset,
    or at the same distance from the end (so the words after an inserted or removed
    instruction are not all marked). The runs compared shrink from BLOCKS[0] words
    to one only where they differ, so an edit costs about one pass of memcmp; where many
coarse runs differ, every word is compared at once instead (`_changed_runs`)."""
    shift = (len(edited) // 4 - len(original) // 4) * 4
    ranges: list[tuple[int, int]] = []

    def same(at: int, size: int) -> bool:
        end = at + size
        piece = edited[at:end]
        return original[at:end] == piece or (0 <= at - shift and original[at - shift : end - shift] == piece)

    def scan(start: int, end: int, level: int) -> None:
        size = BLOCKS[level] * 4
        for at in range(start, end, size):
            stop = min(at + size, end)
            if same(at, stop - at):
                continue
            if level + 1 < len(BLOCKS):
                scan(at, stop, level + 1)
            elif ranges and ranges[-1][1] == at // 4:
                ranges[-1] = (ranges[-1][0], at // 4 + 1)
            else:
                ranges.append((at // 4, at // 4 + 1))

    size = BLOCKS[0] * 4
    total = len(edited) // 4 * 4
    differ = [at for at in range(0, total, size) if not same(at, min(at + size, total) - at)]
    if len(differ) > SCANNED_BLOCKS:  # many places (an edit that resized instructions all along)
        return ChangedWords(_changed_runs(original, edited, differ[0] // 4, min(differ[-1] + size, total) // 4))
    for at in differ:
        scan(at, min(at + size, total), 1)
    return ChangedWords(tuple(ranges))


SCANNED_BLOCKS = 16
"""The most coarse blocks that differ refined by comparing runs; past it, every word at once (numpy)."""


def _changed_runs(original: bytes, edited: bytes, start: int, end: int) -> tuple[tuple[int, int], ...]:
    """`changed_words`' ranges between words `start` and `end` of `edited`, each word
    compared at once (numpy): equal at the same offset or at the same distance from the end."""
    old = np.frombuffer(original, dtype=np.uint32, count=len(original) // 4)
    new = np.frombuffer(edited, dtype=np.uint32, count=len(edited) // 4)[start:end]
    shift = len(edited) // 4 - len(old)
    changed = np.ones(len(new), dtype=bool)
    for delta in (0, shift):  # words [low, high) of the run have an original word `delta` before them
        low, high = max(start, delta), min(end, len(old) + delta)
        if low < high:
            changed[low - start : high - start] &= old[low - delta : high - delta] != new[low - start : high - start]
    edges = np.flatnonzero(np.diff(np.concatenate([[False], changed, [False]]).astype(np.int8)))
    return tuple((start + int(a), start + int(b)) for a, b in zip(edges[::2], edges[1::2]))
