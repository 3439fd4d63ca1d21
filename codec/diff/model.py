"""The comparison of two SPIR-V modules, as a view drives it: rows pairing A's and B's
instructions (equal, changed, removed, added, or a block's label that moved), each with
its word ranges in both files and the words that changed; next and previous
difference; a summary per section and per function.

`compare(a, b)` makes it from two opened modules. The rows are kept as flat arrays
(half a million of them for a large module); `row(k)` builds one on demand.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import NamedTuple

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.diff.align import _increasing_run
from spvinspect.codec.diff.matcher import UNKNOWN, Matcher, Progress, Region, match
from spvinspect.codec.diff.shape import ModuleShape

EQUAL, CHANGED, REMOVED, ADDED, MOVED = range(5)
KINDS = ("equal", "changed", "removed", "added", "moved")
"""Row kinds by code. A `moved` row is the label of a block whose place among its
function's blocks changed (its instructions are compared in A's order)."""


class Row(NamedTuple):
    """One row of the comparison."""

    kind: str
    a: int | None
    """A's instruction index (None for an added instruction)."""
    b: int | None
    """B's instruction index (None for a removed one)."""
    region: int
    a_words: tuple[int, int] | None
    """A's word range [start, end), in words from the start of the file."""
    b_words: tuple[int, int] | None


@dataclass
class Counts:
    """What changed in one region (or in all): instructions and their words."""

    added: int = 0
    removed: int = 0
    changed: int = 0
    moved: int = 0
    words_added: int = 0
    words_removed: int = 0
    words_changed: int = 0

    @property
    def any(self) -> bool:
        return bool(self.added or self.removed or self.changed or self.moved)

    def add(self, other: Counts) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


@dataclass
class Summary:
    """Counts per region (in comparison order) and in all; the header's changes."""

    regions: list[tuple[Region, Counts]] = field(default_factory=list)
    total: Counts = field(default_factory=Counts)
    header: list[tuple[str, int, int]] = field(default_factory=list)
    """(field, A's value, B's value) for each header word that differs, the bound aside
    (ids are compared by what they are, so their numbers are free to differ)."""


class ModuleDiff:
    """The rows of a comparison, navigation between differences, and its summary."""

    def __init__(self, a: LazyModule, b: LazyModule, progress: Progress | None = None) -> None:
        tell = progress or (lambda step, done, of: None)
        self.module_a = a
        self.module_b = b
        tell("reading A", 0, 1)
        self.shape_a = ModuleShape(a)
        tell("reading B", 0, 1)
        self.shape_b = ModuleShape(b)
        tell("matching ids", 0, 1)
        self.matcher: Matcher = match(self.shape_a, self.shape_b, progress)
        tell("rows", 0, 1)
        self.regions: list[Region] = self.matcher.regions
        self.kinds = array("b")
        self.a_index = array("i")
        self.b_index = array("i")
        self.region_of = array("i")
        self.region_starts = array("i")
        """The first row of each region."""
        for number, region in enumerate(self.regions):
            self.region_starts.append(len(self.kinds))
            self._rows(number, region)
        self.differences = array("i", [k for k, kind in enumerate(self.kinds) if kind != EQUAL])
        """The rows that are not equal, in order."""

    # -- building --------------------------------------------------------------------

    def _emit(self, kind: int, i: int, j: int, region: int) -> None:
        self.kinds.append(kind)
        self.a_index.append(i)
        self.b_index.append(j)
        self.region_of.append(region)

    def _rows(self, number: int, region: Region) -> None:
        moved = self._moved_labels(region)
        emit = self._emit
        for op in region.ops:
            run_a = region.a[op.a1 : op.a2]
            run_b = region.b[op.b1 : op.b2]
            if op.tag == "equal":
                if moved:
                    for i, j in zip(run_a, run_b):
                        emit(MOVED if i in moved else EQUAL, i, j, number)
                else:
                    self.kinds.frombytes(bytes(len(run_a)))
                    self.a_index.extend(run_a)
                    self.b_index.extend(run_b)
                    self.region_of.extend([number] * len(run_a))
                continue
            pairs = []
            if op.tag == "replace":
                pairs = [(i, j) for i, j in self.matcher.changed_pairs(run_a, run_b) if self._similar(i, j)]
            ka = kb = 0
            for i, j in pairs + [(None, None)]:
                while ka < len(run_a) and run_a[ka] != i:
                    emit(REMOVED, run_a[ka], -1, number)
                    ka += 1
                while kb < len(run_b) and run_b[kb] != j:
                    emit(ADDED, -1, run_b[kb], number)
                    kb += 1
                if i is None:
                    break
                same = not self._changed_positions(i, j)
                emit((MOVED if i in moved else EQUAL) if same else CHANGED, i, j, number)
                ka += 1
                kb += 1

    def _moved_labels(self, region: Region) -> set[int]:
        """A's indexes of the labels of blocks whose order among the paired blocks
        differs in B: those off the longest run kept in the same order."""
        f, g = region.function_a, region.function_b
        if f is None or g is None:
            return set()
        canon_b = self.matcher.ids.canon_b
        position = {block.label: k for k, block in enumerate(f.blocks)}
        order = [
            (position[x], block.first)
            for block in g.blocks
            if (x := canon_b[block.label]) != UNKNOWN and x in position
        ]
        pairs = [(k, p) for k, (p, _) in enumerate(order)]
        kept = {p for _, p in _increasing_run(pairs)}
        return {f.blocks[p].first for p, _ in order if p not in kept}

    def _similar(self, i: int, j: int) -> bool:
        """Whether two instructions of the same opcode are one changed instruction rather
        than one removed and one added: their results are paired, or (without results)
        they are about the same id (their first) and at least half their operand words
        are the same."""
        result_a, result_b = self.shape_a.results[i], self.shape_b.results[j]
        if result_a or result_b:
            return bool(result_a and result_b) and self.matcher.ids.canon_b[result_b] == result_a
        size = max(self.shape_a.words[self.shape_a.offsets[i]], self.shape_b.words[self.shape_b.offsets[j]]) >> 16
        changed = self._changed_positions(i, j)
        ids = self.shape_a.id_positions[i]
        if ids and ids[0] in changed:
            return False  # about another thing (a decoration's target, a store's pointer)
        return 2 * len(changed) <= size - 1

    def _changed_positions(self, i: int, j: int) -> list[int]:
        """Word positions (from the instructions' first words) where A's instruction
        `i` and B's `j` differ, ids compared by their pairing."""
        a, b = self.shape_a, self.shape_b
        words_a, words_b = a.words_of(i), b.words_of(j)
        canon_a, canon_b = self.matcher.ids.canon_a, self.matcher.ids.canon_b
        for p in a.id_positions[i]:
            words_a[p] = canon_a[words_a[p]]
            if words_a[p] == UNKNOWN:
                words_a[p] = -10 - p  # an unpaired id equals nothing
        for p in b.id_positions[j]:
            words_b[p] = canon_b[words_b[p]]
        out = [p for p, (x, y) in enumerate(zip(words_a, words_b)) if x != y]
        out.extend(range(min(len(words_a), len(words_b)), max(len(words_a), len(words_b))))
        return out

    # -- reading ---------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.kinds)

    @property
    def same(self) -> bool:
        """True when nothing differs (the header's bound aside)."""
        return not self.differences and not self.header_changes()

    def row(self, k: int) -> Row:
        i, j = self.a_index[k], self.b_index[k]
        return Row(
            KINDS[self.kinds[k]],
            i if i >= 0 else None,
            j if j >= 0 else None,
            self.region_of[k],
            self.shape_a.word_range(i) if i >= 0 else None,
            self.shape_b.word_range(j) if j >= 0 else None,
        )

    def changed_words(self, k: int) -> tuple[list[int], list[int]]:
        """For a changed row: the word offsets (in each file) of the words that differ."""
        i, j = self.a_index[k], self.b_index[k]
        if self.kinds[k] != CHANGED:
            return [], []
        positions = self._changed_positions(i, j)
        start_a, end_a = self.shape_a.word_range(i)
        start_b, end_b = self.shape_b.word_range(j)
        return (
            [start_a + p for p in positions if start_a + p < end_a],
            [start_b + p for p in positions if start_b + p < end_b],
        )

    def next_difference(self, k: int) -> int | None:
        """The first row after row `k` that is not equal, or None."""
        at = bisect_right(self.differences, k)
        return self.differences[at] if at < len(self.differences) else None

    def previous_difference(self, k: int) -> int | None:
        """The last row before row `k` that is not equal, or None."""
        at = bisect_left(self.differences, k)
        return self.differences[at - 1] if at > 0 else None

    def row_of_a(self, index: int) -> int | None:
        """The row showing A's instruction `index` (for following a selection)."""
        if not hasattr(self, "_rows_of_a"):
            self._rows_of_a = {i: k for k, i in enumerate(self.a_index) if i >= 0}
        return self._rows_of_a.get(index)

    def header_changes(self) -> list[tuple[str, int, int]]:
        ha, hb = self.module_a.header, self.module_b.header
        if ha is None or hb is None:
            return []
        return [
            (name, getattr(ha, name), getattr(hb, name))
            for name in ("version", "generator", "schema")
            if getattr(ha, name) != getattr(hb, name)
        ]

    def summary(self) -> Summary:
        """Counts per region and in all."""
        out = Summary(header=self.header_changes())
        per = [Counts() for _ in self.regions]
        size_a, size_b = self.shape_a, self.shape_b
        for k in self.differences:
            counts = per[self.region_of[k]]
            kind = self.kinds[k]
            i, j = self.a_index[k], self.b_index[k]
            if kind == ADDED:
                counts.added += 1
                counts.words_added += size_b.words[size_b.offsets[j]] >> 16
            elif kind == REMOVED:
                counts.removed += 1
                counts.words_removed += size_a.words[size_a.offsets[i]] >> 16
            elif kind == CHANGED:
                counts.changed += 1
                counts.words_changed += len(self._changed_positions(i, j))
            elif kind == MOVED:
                counts.moved += 1
        for region, counts in zip(self.regions, per):
            out.regions.append((region, counts))
            out.total.add(counts)
        return out


def compare(a: LazyModule, b: LazyModule, progress: Progress | None = None) -> ModuleDiff:
    """Compare two opened modules; `progress` (step, done, of) is told how far it is."""
    return ModuleDiff(a, b, progress)
