"""Two SPIR-V documents compared for the side-by-side view (Textual-free): the rows of
`codec.diff`, B's lines in A's id space (so a renumbered id reads the same on both
sides), each instruction's words coloured by kind, and the summary."""

from __future__ import annotations

from functools import lru_cache

from spvinspect.codec.binary.model import HEADER_WORDS
from spvinspect.codec.diff import compare
from spvinspect.codec.diff.matcher import Progress
from spvinspect.codec.diff.render import DiffText, summary_lines
from spvinspect.document import Document
from spvinspect.formats.comparison import ADDED, CHANGED, KINDS, MOVED, REMOVED, A, Comparison, Piece
from spvinspect.formats.spirv_hex import header_cell, instruction_cells


class SpirvComparison(Comparison):
    """Two SPIR-V modules compared, ids matched by what they are (`codec.diff`)."""

    def __init__(self, a: Document, b: Document, progress: Progress | None = None) -> None:
        self.documents = (a, b)
        self.names = (a.name, b.name)
        self.diff = compare(a.module, b.module, progress)
        diff = self.diff
        counts = (diff.shape_a.count, diff.shape_b.count)
        super().__init__(diff.kinds, diff.a_index, diff.b_index, counts)
        # Not indented: each side has half the width, and a row's result id reads as well
        # at its start.
        self.text = DiffText(diff, friendly=True, indent=False)
        self._listings = (self.text.listing_a, self.text.listing_b)
        # What naming any line needs first (the naming section, whether the bodies name
        # anything), read here on the worker rather than on the first paint.
        self.text.listing_a.names.names.prepare()
        self.text.names_b.names_b.prepare()
        self._summary = diff.summary()
        self.changed_words = lru_cache(maxsize=256)(self._changed_words)  # type: ignore[method-assign]

    def pieces(self, side: int, row: int) -> tuple[Piece, ...]:
        index = self.instruction(side, row)
        if index is None:
            return ()
        return tuple(Piece(s.text, s.role) for s in self._listings[side].segments(index))

    def words(self, side: int):
        module = self.documents[side].module
        return module.words, module.trailing_bytes, module.big_endian, module.tail_offset

    def word_range(self, side: int, index: int) -> range:
        start, end = (self.diff.shape_a if side == A else self.diff.shape_b).word_range(index)
        return range(start, end)

    def cell_kinds(self, side: int, index: int) -> tuple[str, ...]:
        return instruction_cells(self.documents[side].module.instruction(index))

    def instruction_at_word(self, side: int, word: int) -> int | None:
        if word < HEADER_WORDS:
            return None
        return self.documents[side].module.index_at(word)

    def _changed_words(self, side: int, row: int) -> frozenset[int]:
        return frozenset(self.diff.changed_words(row)[side])

    def static_cell(self, side: int, word: int) -> str | None:
        return header_cell(word)

    def summary_line(self) -> str:
        total = self._summary.total
        if self.same:
            return "no difference: every instruction matches (ids paired by what they are)"
        parts = [
            f"{total.changed} changed",
            f"{total.added} added",
            f"{total.removed} removed",
        ]
        if total.moved:
            parts.append(f"{total.moved} blocks moved")
        words = f"words +{total.words_added} −{total.words_removed} ~{total.words_changed}"
        header = f" · header: {', '.join(name for name, _, _ in self._summary.header)}" if self._summary.header else ""
        return f"instructions: {', '.join(parts)} · {words}{header}"

    def summary_lines(self) -> list[str]:
        return summary_lines(self.diff, self._summary)

    def row_detail(self, row: int) -> str:
        kind = self.kind(row)
        where = self.text.region_title(int(self.diff.region_of[row]))
        if kind == CHANGED:
            words = len(self.changed_words(A, row))
            return f"changed ({words} word{'s' if words != 1 else ''}) · {where}"
        if kind == MOVED:
            return f"block moved · {where}"
        if kind in (ADDED, REMOVED):
            return f"{KINDS[kind]} · {where}"
        return where
