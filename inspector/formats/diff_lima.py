"""Two Lima PP programs compared for the side-by-side view (Textual-free): the rows of
`lima.compare` (instructions aligned, each pair compared unit by unit), B's labels
named after their partners in A, and the per-unit summary."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from spvinspect.formats.comparison import ADDED, CHANGED, EQUAL, REMOVED, A, B, Comparison, Piece
from spvinspect.lima.compare import compare_programs, lima_summary_lines, program_counts
from spvinspect.lima_document import LimaDocument

CODES = {"equal": EQUAL, "changed": CHANGED, "removed": REMOVED, "added": ADDED}


class LimaComparison(Comparison):
    """Two PP programs compared (`lima.compare`)."""

    def __init__(self, a: LimaDocument, b: LimaDocument) -> None:
        self.documents = (a, b)
        self.names = (Path(a.name).name, Path(b.name).name)
        self.diff = compare_programs(a.program, b.program)
        rows = self.diff.rows
        kinds = [CODES[kind] for kind, _, _ in rows]
        index_a = [-1 if i is None else i for _, i, _ in rows]
        index_b = [-1 if j is None else j for _, _, j in rows]
        super().__init__(kinds, index_a, index_b, (len(a.instructions), len(b.instructions)))
        self._lines = (self.diff.lines_a, self.diff.lines_b)

    def pieces(self, side: int, row: int) -> tuple[Piece, ...]:
        index = self.instruction(side, row)
        return () if index is None else (Piece(self._lines[side][index], None),)

    def words(self, side: int):
        words, trailing = self.documents[side].hex_words()
        return words, trailing, False, len(words)

    def word_range(self, side: int, index: int) -> range:
        return self.documents[side].hex_instruction_words(index)

    def instruction_at_word(self, side: int, word: int) -> int | None:
        return self.documents[side].instruction_at_hex_word(word)

    def changed_words(self, side: int, row: int) -> frozenset[int]:
        """The cells of the words that differ between the two instructions of a changed
        row (a word only one has, too)."""
        i, j = self.instruction(A, row), self.instruction(B, row)
        if self.kind(row) != CHANGED or i is None or j is None:
            return frozenset()
        words_a = self.documents[A].instructions[i].words
        words_b = self.documents[B].instructions[j].words
        index = (i, j)[side]
        cells = self.word_range(side, index)
        own = (words_a, words_b)[side]
        other = (words_b, words_a)[side]
        return frozenset(cells[k] for k in range(len(own)) if k >= len(other) or own[k] != other[k])

    def summary_line(self) -> str:
        if self.same:
            return "no difference: every instruction matches"
        kinds = Counter(int(k) for k in self.kinds)
        ca, cb = program_counts(self.diff.a), program_counts(self.diff.b)
        units = sorted(u for u in set(ca.units) | set(cb.units) if ca.units[u] != cb.units[u])
        unit_text = ", ".join(f"{u} {ca.units[u]}→{cb.units[u]}" for u in units) or "unit use the same"
        spills = ""
        if (ca.temp_loads, ca.temp_stores) != (cb.temp_loads, cb.temp_stores):
            spills = f" · temporaries {ca.temp_loads}/{ca.temp_stores}→{cb.temp_loads}/{cb.temp_stores}"
        return (
            f"instructions: {kinds[CHANGED]} changed, {kinds[ADDED]} added, {kinds[REMOVED]} removed"
            f" · words {ca.words}→{cb.words}{spills} · {unit_text}"
        )

    def summary_lines(self) -> list[str]:
        return lima_summary_lines(self.diff)

    def row_detail(self, row: int) -> str:
        kind = self.kind(row)
        if kind == CHANGED:
            return "changed: " + ", ".join(self.diff.changed_units(row))
        return super().row_detail(row)
