"""Search over a whole module: every instruction's line in one string, and queries on it.

Textual-free. Building the index disassembles every instruction once (in a worker, in
batches); afterwards a query is one regular-expression scan of the joined text, which
takes milliseconds even for half a million lines, and each match maps back to its row
by bisection over the line starts.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass

NAME_END = r"(?![A-Za-z0-9_])"
"""An id name ends where the characters an id name may hold end."""

_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")
_OPNAME = re.compile(r"Op[A-Za-z0-9_]+")


@dataclass(frozen=True, slots=True)
class Query:
    """What the user typed, understood: a description for the status line and a pattern."""

    text: str
    kind: str
    """`id`, `opcode`, `literal` or `text`."""
    pattern: re.Pattern[str]
    id_: int | None = None

    @property
    def description(self) -> str:
        """How the status line names the search."""
        return f"{self.kind} {self.text}"


class SearchIndex:
    """The lines of one naming mode joined by newlines, with where each row's line starts."""

    def __init__(self, raw: bool) -> None:
        self.raw = raw
        self._parts: list[str] = []
        self._starts = array("q")
        self._length = 0
        self.text = ""
        self.complete = False

    def add(self, line: str) -> None:
        """Append the next row's line (rows are added in order)."""
        self._starts.append(self._length)
        self._parts.append(line)
        self._length += len(line) + 1

    def finish(self) -> None:
        """Join the lines; the index answers queries from now on."""
        self.text = "\n".join(self._parts)
        self._parts = []
        self.complete = True

    @property
    def rows(self) -> int:
        """How many rows are indexed."""
        return len(self._starts)

    def row_at(self, position: int) -> int:
        """The row whose line holds character `position` of the text."""
        return bisect.bisect_right(self._starts, position) - 1

    def line_start(self, row: int) -> int:
        """Where row `row`'s line starts in the text."""
        return self._starts[row]

    def rows_matching(self, pattern: re.Pattern[str]) -> list[int]:
        """Every row with a match of `pattern`, in order, each once."""
        rows: list[int] = []
        starts = self._starts
        row_at = bisect.bisect_right
        next_start = -1
        for match in pattern.finditer(self.text):
            position = match.start()
            if position < next_start:
                continue  # another match on the row just recorded
            row = row_at(starts, position) - 1
            rows.append(row)
            next_start = starts[row + 1] if row + 1 < len(starts) else len(self.text) + 1
        return rows

    def uses(self, name: str) -> list[int]:
        """Rows where the id spelled `%name` appears as an operand (not where it is defined)."""
        pattern = re.compile("%" + re.escape(name) + NAME_END)
        text = self.text
        rows = []
        for row in self.rows_matching(pattern):
            start = self._starts[row]
            first = pattern.search(text, start)
            defined_here = first is not None and not text[start : first.start()].strip() and (
                text.startswith(" = ", first.end())
            )
            if defined_here and pattern.search(text, first.end(), self._line_end(row)) is None:
                continue
            rows.append(row)
        return rows

    def _line_end(self, row: int) -> int:
        return self._starts[row + 1] - 1 if row + 1 < len(self._starts) else len(self.text)


def parse_query(text: str, opnames: set[str], name_to_id) -> Query | None:
    """The search `text` as a `Query`: `%id` or `%name`, an opcode name, a number or a
    quoted string, else any text (case-insensitive when typed in lower case).

    `name_to_id(name)` gives the id a friendly name or number stands for, or None."""
    text = text.strip()
    if not text:
        return None
    if text.startswith("%") and len(text) > 1:
        id_ = name_to_id(text[1:])
        pattern = re.compile(re.escape(text) + NAME_END)
        return Query(text, "id", pattern, id_)
    if _OPNAME.fullmatch(text) and text in opnames:
        return Query(text, "opcode", re.compile(r"(?<![A-Za-z0-9_])" + text + NAME_END))
    if _NUMBER.fullmatch(text):
        return Query(text, "literal", re.compile(r"(?<![\w.%-])" + re.escape(text) + r"(?![\w.])"))
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return Query(text, "literal", re.compile(re.escape(text)))
    flags = re.IGNORECASE if text == text.lower() else 0
    return Query(text, "text", re.compile(re.escape(text), flags))
