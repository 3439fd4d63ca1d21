"""Search over a whole module: every instruction's line in one string, and queries on it.

Textual-free. Building the index disassembles every instruction once (in a worker, in
batches); afterwards a query is a scan of the joined text with `str.find` (a fast
substring search, far quicker than a regular expression with look-arounds on tens of
megabytes), each hit checked for what may stand around it, and mapped back to its row
by bisection over the line starts.
"""

from __future__ import annotations

import bisect
import re
from array import array
from dataclasses import dataclass

NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_")
"""The characters an id name (and an opcode name) is made of."""
NUMBER_NEIGHBOURS = NAME_CHARS | {".", "%", "-"}
"""A number literal is not part of a longer number, name or id."""

_NUMBER = re.compile(r"-?(?:0x[0-9a-fA-F]+|\d+(?:\.\d*)?(?:[eE][-+]?\d+)?)")
_HEX_WORD = re.compile(r"0x[0-9a-fA-F]{1,8}")
_DECIMAL = re.compile(r"\d{1,10}")
WORD_LIMIT = 1 << 32
"""Hex and decimal queries up to a word's value are searched as word values."""
MEANINGS = {
    "id": "an id",
    "opcode": "an opcode",
    "word": "a word's value",
    "value": "a literal or an enum's number",
    "literal": "a literal",
    "text": "text",
}
"""What a query of each kind is matched as, in the user's words."""
FINDS = {
    "id": "an id: its definition and uses",
    "opcode": "an opcode: its instructions",
    "word": "a word: the instructions holding that value",
    "value": "a value: literal or enum operands of it, or the number printed",
    "literal": "a literal, as printed",
    "text": "text, anywhere in a line",
}
"""What a query of each kind finds, told while it is typed."""
_OPNAME = re.compile(r"Op[A-Za-z0-9_]+")


@dataclass(frozen=True, slots=True)
class Query:
    """What the user typed, understood: the text to find and what may not touch it."""

    text: str
    kind: str
    """`id`, `opcode`, `literal` or `text`."""
    needle: str
    """The text searched for (lower case when `ignore_case`)."""
    not_before: frozenset[str] = frozenset()
    """Characters that may not come just before a hit."""
    not_after: frozenset[str] = frozenset()
    """Characters that may not come just after a hit."""
    ignore_case: bool = False
    id_: int | None = None
    value: int | None = None
    """The number a `word` query (a hex word) or a `value` query (a decimal) stands for."""

    @property
    def meaning(self) -> str:
        """What the query is matched as (`a word's value`)."""
        return MEANINGS[self.kind]

    @property
    def finds(self) -> str:
        """What the query is taken as and finds (`0x14c1 → a word: the instructions
        holding that value`)."""
        return f"{self.text} → {FINDS[self.kind]}"

    @property
    def description(self) -> str:
        """How the status line names the search (`word 0x14c1`, `value 5313`)."""
        return f"{self.kind} {self.text}"

    def spelled(self, name: str) -> Query:
        """The same id query with the id spelled `%name` (as the index spells it)."""
        return Query(self.text, self.kind, "%" + name, self.not_before, self.not_after, False, self.id_)


class SearchIndex:
    """The lines of one naming mode joined by newlines, with where each row's line starts."""

    def __init__(self, raw: bool) -> None:
        self.raw = raw
        self._parts: list[str] = []
        self._starts = array("q")
        self._length = 0
        self.text = ""
        self._folded: str | None = None
        self.complete = False

    def add_lines(self, lines: list[str]) -> None:
        """Append the next rows' lines (rows are added in order), kept joined: a large
        module's index holds no string object for every line until `finish`."""
        if not lines:
            return
        starts = self._starts
        length = self._length
        for line in lines:
            starts.append(length)
            length += len(line) + 1
        self._length = length
        self._parts.append("\n".join(lines))

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

    def _haystack(self, query: Query) -> str:
        if not query.ignore_case:
            return self.text
        if self._folded is None:
            # Lower-casing keeps every position (the listing is ASCII but for strings,
            # whose rare non-ASCII letters may change length; they are then only found
            # case-sensitively, which `find` on the unfolded text still does).
            folded = self.text.lower()
            self._folded = folded if len(folded) == len(self.text) else self.text
        return self._folded

    def rows_matching(self, query: Query) -> list[int]:
        """Every row with a hit of `query`, in order, each once."""
        text = self._haystack(query)
        needle = query.needle
        if not needle:
            return []
        starts = self._starts
        end = len(text)
        before, after = query.not_before, query.not_after
        rows: list[int] = []
        position = text.find(needle)
        while position >= 0:
            stop = position + len(needle)
            if (position == 0 or text[position - 1] not in before) and (stop >= end or text[stop] not in after):
                row = bisect.bisect_right(starts, position) - 1
                rows.append(row)
                if row + 1 >= len(starts):
                    break
                position = text.find(needle, starts[row + 1])  # one hit a row is enough
            else:
                position = text.find(needle, position + 1)
        return rows

    def uses(self, name: str) -> list[int]:
        """Rows where the id spelled `%name` appears as an operand (not where it is defined)."""
        spelled = "%" + name
        query = Query(spelled, "id", spelled, not_after=NAME_CHARS)
        text = self.text
        rows = []
        for row in self.rows_matching(query):
            start = self._starts[row]
            line_end = self._starts[row + 1] - 1 if row + 1 < len(self._starts) else len(text)
            line = text[start:line_end]
            hits = _hits(line, spelled)
            defined_here = hits and not line[: hits[0]].strip() and line.startswith(" = ", hits[0] + len(spelled))
            if defined_here and len(hits) == 1:
                continue
            rows.append(row)
        return rows


def _hits(line: str, spelled: str) -> list[int]:
    """Where `%name` stands whole in one line."""
    found = []
    position = line.find(spelled)
    while position >= 0:
        stop = position + len(spelled)
        if stop >= len(line) or line[stop] not in NAME_CHARS:
            found.append(position)
        position = line.find(spelled, position + 1)
    return found


def parse_query(text: str, opnames: set[str], name_to_id) -> Query | None:
    """The search `text` as a `Query`: `%id` or `%name`, an opcode name, a hex word
    (`0x14c1`: the instructions holding a word of that value), a decimal (`5313`: literal
    and enum operands of that value, and the number as printed), another number or a
    quoted string, else any text (case-insensitive when typed in lower case).

    `name_to_id(name)` gives the id a friendly name or number stands for, or None."""
    text = text.strip()
    if not text:
        return None
    if text.startswith("%") and len(text) > 1:
        return Query(text, "id", text, not_after=NAME_CHARS, id_=name_to_id(text[1:]))
    if _OPNAME.fullmatch(text) and text in opnames:
        return Query(text, "opcode", text, NAME_CHARS, NAME_CHARS)
    if _HEX_WORD.fullmatch(text):
        return Query(text, "word", text, value=int(text, 16))
    if _DECIMAL.fullmatch(text) and int(text) < WORD_LIMIT:
        return Query(text, "value", text, NUMBER_NEIGHBOURS, NAME_CHARS | {"."}, value=int(text))
    if _NUMBER.fullmatch(text):
        return Query(text, "literal", text, NUMBER_NEIGHBOURS, NAME_CHARS | {"."})
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return Query(text, "literal", text)
    if text == text.lower():
        return Query(text, "text", text, ignore_case=True)
    return Query(text, "text", text)


class SearchSession:
    """The last search and its matching rows, stepped through from the cursor (wrapping)."""

    def __init__(self) -> None:
        self.query: Query | None = None
        self.matches: list[int] | None = None
        """Rows matching `query`, in order; None until searched (or after the rows changed)."""

    def start(self, query: Query | None) -> None:
        """A new search; its matches are found by the next `found`."""
        self.query = query
        self.matches = None

    def forget_matches(self) -> None:
        """The rows changed (another layout or naming): search again when next asked."""
        self.matches = None

    def found(self, matches: list[int]) -> None:
        """The rows the document found for `query`."""
        self.matches = matches

    def step(self, current: int | None, step: int) -> int | None:
        """The next (`step` 1) or previous (-1) match from row `current`, wrapping round."""
        matches = self.matches
        if not matches:
            return None
        here = -1 if current is None else current
        if step > 0:
            return matches[bisect.bisect_right(matches, here) % len(matches)]
        return matches[(bisect.bisect_left(matches, here) - 1) % len(matches)]

    def describe(self, row: int | None) -> str:
        """`opcode OpLoad: match 3 of 120` when `row` is a match, else empty."""
        matches = self.matches
        if self.query is None or not matches or row is None:
            return ""
        position = bisect.bisect_left(matches, row)
        if position < len(matches) and matches[position] == row:
            return f"{self.query.description}: match {position + 1:,} of {len(matches):,}"
        return ""
