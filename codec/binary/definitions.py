"""Which instructions define which ids, read from the words alone (no decoding).

An instruction whose opcode has an IdResult defines, if it decodes, the id at that
position: its *candidate* result. Every id the decoder records comes from a candidate,
so the candidates of an id before a point bound what the decoder can know of it there.
In a valid module each id has one candidate; ids with several are kept with all of them.
The scan runs in steps over indexed instructions, as far as it is asked.
"""

from __future__ import annotations

from array import array

from spvinspect.codec.binary.tables import DecoderTables

_DENSE_LIMIT = 1 << 24
"""Ids below this (and below the bound) are looked up in an array, the rest in a dict."""


class Definitions:
    """The candidate definers of every id, for the instructions scanned so far."""

    __slots__ = ("tables", "words", "scanned", "_first", "_dense", "_sparse", "repeated")

    def __init__(self, tables: DecoderTables, words: array, bound: int, dense_limit: int = _DENSE_LIMIT) -> None:
        self.tables = tables
        self.words = words
        self.scanned = 0
        """Number of instructions scanned."""
        # First candidate of each id, as instruction index + 1 (0: none yet).
        self._dense = min(bound, dense_limit, len(words))
        self._first = array("i", bytes(4 * self._dense))
        self._sparse: dict[int, int] = {}
        self.repeated: dict[int, list[int]] = {}
        """Ids with more than one candidate: every candidate's index, ascending."""

    def extend(self, offsets: array, upto: int) -> None:
        """Scan the instructions at `offsets[self.scanned:upto]`."""
        words = self.words
        positions = self.tables.result_positions
        first_of = self._first
        dense = self._dense
        sparse = self._sparse
        repeated = self.repeated
        index = self.scanned
        for offset in offsets[index:upto]:
            index += 1
            head = words[offset]
            position = positions[head & 0xFFFF]
            if position and position < head >> 16:
                result = words[offset + position]
                if result < dense:
                    earlier = first_of[result]
                    if not earlier:
                        first_of[result] = index
                        continue
                else:
                    earlier = sparse.setdefault(result, index)
                    if earlier == index:
                        continue
                candidates = repeated.get(result)
                if candidates is None:
                    repeated[result] = [earlier - 1, index - 1]
                else:
                    candidates.append(index - 1)
        self.scanned = index

    @classmethod
    def spliced(
        cls,
        old: Definitions,
        old_offsets: array,
        words: array,
        bound: int,
        offsets: array,
        i0: int,
        i1: int,
        added: int,
    ) -> Definitions | None:
        """The candidate definers of every instruction at `offsets` in `words`: `old`'s
        (over every instruction at `old_offsets`) with instructions [i0, i1) replaced by
        the `added` ones from i0 on. None when `old` has not scanned every instruction."""
        if old.scanned != len(old_offsets):
            return None
        # The dense table follows the bound as edits raise it a few ids at a time, but keeps
        # its size when an edit makes it leap (a numeric id near 2^32 would size it by the
        # module's words): the ids above it are then few, and sparse.
        leap = bound > 2 * old._dense
        after = cls(old.tables, words, bound, dense_limit=old._dense if leap else _DENSE_LIMIT)
        delta = added - (i1 - i0)
        dense = after._dense
        import numpy as np  # here: opening a module never loads numpy

        shifted = np.frombuffer(old._first, dtype=np.int32).copy()
        if delta:
            shifted[shifted > i1] += delta
        sparse = {id_: value + delta if value > i1 else value for id_, value in old._sparse.items()}
        if len(shifted) > dense:
            beyond = np.flatnonzero(shifted[dense:])
            sparse.update(zip((beyond + dense).tolist(), shifted[dense:][beyond].tolist()))
            shifted = shifted[:dense]
        elif len(shifted) < dense:
            shifted = np.concatenate([shifted, np.zeros(dense - len(shifted), dtype=np.int32)])
            for id_ in [id_ for id_ in sparse if id_ < dense]:
                shifted[id_] = sparse.pop(id_)
        first = array("i", shifted.tobytes())
        repeated = {id_: [c + delta if c >= i1 else c for c in found] for id_, found in old.repeated.items()}
        old_results = old._result_array(old_offsets, i0, i1, np)
        results = after._result_array(offsets, i0, i0 + added, np)
        if delta == 0:  # the same places: only the ids whose definers moved among them
            differ = np.flatnonzero(old_results != results)
            touched = set(old_results[differ].tolist()) | set(results[differ].tolist())
            touched.discard(-1)
            at = np.flatnonzero(np.isin(results, np.array(sorted(touched), dtype=np.int64)))
        else:
            touched = set(old_results.tolist()) | set(results.tolist())
            touched.discard(-1)
            at = np.flatnonzero(results >= 0)
        new_results: dict[int, list[int]] = {}  # each result defined anew, with its definers
        for k, result in zip((at + i0).tolist(), results[at].tolist()):
            new_results.setdefault(result, []).append(k)
        for id_ in touched:
            repeated.pop(id_, None)
            kept = old.repeated.get(id_)
            if kept is None:
                value = old.first(id_)
                kept = [] if value is None else [value]
            candidates = [c for c in kept if c < i0] + [c + delta for c in kept if c >= i1]
            candidates += new_results.get(id_, ())
            candidates.sort()
            value = candidates[0] + 1 if candidates else 0
            if id_ < dense:
                first[id_] = value
            elif value:
                sparse[id_] = value
            else:
                sparse.pop(id_, None)
            if len(candidates) > 1:
                repeated[id_] = candidates
        after._first, after._sparse, after.repeated = first, sparse, repeated
        after.scanned = len(offsets)
        return after

    def _result_array(self, offsets: array, i0: int, i1: int, np) -> "np.ndarray":
        """The id each instruction at `offsets[i0:i1]` would define (-1: none), from
        the words at once (numpy, passed in: opening a module never loads it)."""
        words = np.frombuffer(self.words, dtype=np.uint32)
        at = np.frombuffer(offsets, dtype=np.uint32)[i0:i1].astype(np.int64)
        heads = words[at]
        positions = np.frombuffer(bytes(self.tables.result_positions), dtype=np.uint8)[heads & 0xFFFF].astype(np.int64)
        defines = (positions > 0) & (positions < (heads >> 16))
        found = np.full(len(at), -1, dtype=np.int64)
        found[defines] = words[at[defines] + positions[defines]]
        return found

    def before(self, id_: int, index: int) -> list[int]:
        """The candidates of `id_` among the scanned instructions before `index`."""
        candidates = self.repeated.get(id_)
        if candidates is not None:
            return [c for c in candidates if c < index]
        first = self._first[id_] if id_ < self._dense else self._sparse.get(id_, 0)
        return [first - 1] if 0 < first <= index else []

    def first(self, id_: int) -> int | None:
        """The first candidate of `id_` among the scanned instructions, or None."""
        first = self._first[id_] if id_ < self._dense else self._sparse.get(id_, 0)
        return first - 1 if first else None
