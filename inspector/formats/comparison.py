"""Two documents compared, as the side-by-side view reads them (Textual-free): aligned
rows, each showing an instruction of A, of B or of both, how it differs, its line on
each side, and which words of each file an instruction's difference is in.

`Comparison` is the part both formats share (rows, navigation, nearest instruction);
`formats.diff_spirv` and `formats.diff_lima` fill in the rest.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

A, B = 0, 1
"""The sides: A (the first file, the old one) and B (the second, the new one)."""
KINDS = ("equal", "changed", "removed", "added", "moved")
"""Row kinds by code, as `codec.diff.model` numbers them."""
EQUAL, CHANGED, REMOVED, ADDED, MOVED = range(5)
MARKS = {EQUAL: " ", CHANGED: "~", REMOVED: "-", ADDED: "+", MOVED: "»"}
"""The gutter mark of each kind."""


class Piece(NamedTuple):
    """A piece of a row's text and its listing role (None: plain text)."""

    text: str
    role: object | None


class Comparison:
    """Aligned rows of two documents: `kinds[k]`, and the instruction each side shows on
    row k (`index[side][k]`, -1 for none)."""

    names: tuple[str, str]
    """The two files' names, as users see them."""

    def __init__(self, kinds: Sequence[int], index_a: Sequence[int], index_b: Sequence[int], counts: tuple[int, int]) -> None:
        self.kinds = np.asarray(kinds, dtype=np.int8)
        self.index = (np.asarray(index_a, dtype=np.int64), np.asarray(index_b, dtype=np.int64))
        self.differences = np.flatnonzero(self.kinds != EQUAL)
        """The rows that are not equal, in order."""
        differences = self.differences
        self.run_starts = differences[np.concatenate(([True], np.diff(differences) != 1))] if len(differences) else differences
        """The first row of each run of rows that differ."""
        self._row_of = tuple(self._rows_of(side, counts[side]) for side in (A, B))
        self._shown = tuple(np.flatnonzero(self.index[side] >= 0) for side in (A, B))
        """The rows each side shows an instruction on, in order."""

    def _rows_of(self, side: int, count: int) -> np.ndarray:
        rows = np.full(max(count, 1), -1, dtype=np.int64)
        index = self.index[side]
        shown = index >= 0
        rows[index[shown]] = np.flatnonzero(shown)
        return rows

    # -- rows --------------------------------------------------------------------------

    @property
    def row_count(self) -> int:
        return len(self.kinds)

    @property
    def same(self) -> bool:
        return not len(self.differences)

    def kind(self, row: int) -> int:
        return int(self.kinds[row])

    def instruction(self, side: int, row: int) -> int | None:
        """The instruction `side` shows on `row`, or None (a gap)."""
        value = int(self.index[side][row])
        return value if value >= 0 else None

    def nearest(self, side: int, row: int) -> int | None:
        """The instruction `side` shows on `row`, else on the nearest row above it that
        shows one, else below it; None when the side has no instruction at all."""
        shown = self._shown[side]
        if not len(shown):
            return None
        at = bisect_right(shown, row)
        pick = shown[at - 1] if at else shown[0]
        return int(self.index[side][pick])

    def row_of(self, side: int, index: int) -> int | None:
        """The row showing `side`'s instruction `index`."""
        if 0 <= index < len(self._row_of[side]):
            row = int(self._row_of[side][index])
            return row if row >= 0 else None
        return None

    # -- differences -------------------------------------------------------------------

    def next_difference(self, row: int) -> int | None:
        """The first row of the next difference after `row` (a run of rows that differ
        is one difference), or None."""
        starts = self.run_starts
        at = bisect_right(starts, row)
        return int(starts[at]) if at < len(starts) else None

    def previous_difference(self, row: int) -> int | None:
        """The first row of the last difference that starts before `row` (inside a run:
        the run's first row), or None."""
        starts = self.run_starts
        at = bisect_left(starts, row)
        return int(starts[at - 1]) if at else None

    def difference_number(self, row: int) -> tuple[int, int]:
        """(which difference `row` is in or after, from 1, 0 before the first; how many
        differences there are)."""
        return int(np.searchsorted(self.run_starts, row, side="right")), len(self.run_starts)

    # -- what a format gives -----------------------------------------------------------

    def pieces(self, side: int, row: int) -> Sequence[Piece]:
        """Row `row`'s text on `side` (nothing for a gap)."""
        raise NotImplementedError

    def words(self, side: int):
        """(the words the hex pane shows, trailing bytes, big-endian, tail offset)."""
        raise NotImplementedError

    def word_range(self, side: int, index: int) -> range:
        """The hex cells of `side`'s instruction `index`."""
        raise NotImplementedError

    def cell_kinds(self, side: int, index: int) -> Sequence[str]:
        """The hex pane's style name of each word of an instruction (from its first)."""
        return ()

    def instruction_at_word(self, side: int, word: int) -> int | None:
        """`side`'s instruction holding hex cell `word`."""
        raise NotImplementedError

    def changed_words(self, side: int, row: int) -> frozenset[int]:
        """The hex cells of `side` that differ on a changed row."""
        return frozenset()

    def static_cell(self, side: int, word: int) -> str | None:
        """A word's style name outside any difference (SPIR-V's header), or None."""
        return None

    def summary_line(self) -> str:
        """What differs, in one line."""
        raise NotImplementedError

    def summary_lines(self) -> list[str]:
        """The whole summary, as `spvinspect diff` prints it."""
        raise NotImplementedError

    def row_detail(self, row: int) -> str:
        """What a row's difference is, in a few words (the status line)."""
        return KINDS[self.kind(row)]

    # -- the hex pane's marks ----------------------------------------------------------

    def cell_mark(self, side: int, word: int) -> str | None:
        """The hex pane's style of word `word` of `side`: the kind of difference its
        instruction is in (a changed instruction: only the words that differ), else
        its static kind."""
        index = self.instruction_at_word(side, word)
        if index is not None:
            row = self.row_of(side, index)
            if row is not None:
                kind = self.kind(row)
                if kind in (REMOVED, ADDED):
                    return "diff-removed" if kind == REMOVED else "diff-added"
                if kind == MOVED:
                    return "diff-moved"
                if kind == CHANGED and word in self.changed_words(side, row):
                    return "diff-changed"
        return self.static_cell(side, word)
