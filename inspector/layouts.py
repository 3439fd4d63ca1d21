"""How the instruction list's rows map to instructions: the plain disassembly (one row an
instruction), or spirv-dis's reading aids (section comments, nested blocks in structured
order), each followed by the undecodable tail. Textual-free.

Every instruction keeps exactly one row in either layout, so the selection (a word, its
instruction and operand) survives a switch, and every instruction row keeps its offset.
"""

from __future__ import annotations

from spvinspect.codec.text.listing import Role, Segment
from spvinspect.codec.text.reading_aids import Row, instruction_rows


class PlainLayout:
    """Row k is instruction k; the tail's rows follow the last instruction."""

    aided = False

    def __init__(self, instructions: int, tail_rows: int) -> None:
        self.instructions = instructions
        self.count = instructions + tail_rows
        """Number of rows."""

    def instruction(self, row: int) -> int | None:
        """The instruction a row shows, or None (a tail row)."""
        return row if row < self.instructions else None

    def row_of(self, index: int) -> int:
        """The row of instruction `index`."""
        return index

    def tail(self, row: int) -> int | None:
        """Which tail line a row shows, or None."""
        return row - self.instructions if row >= self.instructions else None

    def tail_row(self, line: int) -> int:
        """The row of tail line `line`."""
        return self.instructions + line

    def text(self, row: int) -> str | None:
        """The row's own text when the layout has one (comments); None: the listing's line."""
        return None

    def segments(self, row: int, plain: tuple[Segment, ...]) -> tuple[Segment, ...]:
        """The segments of an instruction row, from the listing's `plain` ones."""
        return plain


class AidedLayout(PlainLayout):
    """The rows `dis --comment --nested-indent --reorder-blocks` prints, then the tail."""

    aided = True

    def __init__(self, rows: list[Row], tail_rows: int) -> None:
        self.rows = rows
        self._row_of = instruction_rows(rows)
        super().__init__(len(self._row_of), tail_rows)
        self.count = len(rows) + tail_rows

    def instruction(self, row: int) -> int | None:
        return self.rows[row].instruction if row < len(self.rows) else None

    def row_of(self, index: int) -> int:
        return self._row_of[index]

    def tail(self, row: int) -> int | None:
        return row - len(self.rows) if row >= len(self.rows) else None

    def tail_row(self, line: int) -> int:
        return len(self.rows) + line

    def text(self, row: int) -> str | None:
        return self.rows[row].text if row < len(self.rows) else None

    def segments(self, row: int, plain: tuple[Segment, ...]) -> tuple[Segment, ...]:
        """The listing's segments with the nesting inserted before the opcode and the
        comments (decorations, `; id %N`) after the line, as the row's text has them."""
        text = self.rows[row].text
        opcode_at = next((k for k, s in enumerate(plain) if s.role is Role.OPCODE), None)
        if opcode_at is None:
            return (Segment(text, Role.RAW, None),)
        head, rest = plain[:opcode_at], plain[opcode_at:]
        start = sum(len(s.text) for s in head)
        nest = text.find(rest[0].text, start) - start
        end = start + max(nest, 0) + sum(len(s.text) for s in rest)
        parts = list(head)
        if nest > 0:
            parts.append(Segment(" " * nest, Role.INDENT, None))
        parts.extend(rest)
        if end < len(text):
            parts.append(Segment(text[end:], Role.COMMENT, None))
        return tuple(parts)
