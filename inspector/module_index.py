"""What needs the whole module: complete diagnostics, the definition of every id, the
search text; and the queries on them (search, uses, definitions). Textual-free.

`ModuleIndex` is a part of `inspector.document.Document`, kept apart because it is the
one part built in a worker: `index_steps` makes it in batches, with progress.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator
from itertools import islice
from array import array
from dataclasses import dataclass

from spvinspect.codec.binary.model import HEADER_WORDS
from spvinspect.codec.text.disassembler import Disassembler
from spvinspect.search import Query, SearchIndex, parse_query
from spvinspect.search_matches import matching_operand, value_operand, words_holding
from spvinspect.selection import Selection

VALUE_DECODE_LIMIT = 5_000
"""Instructions holding a word of a decimal query's value that are decoded to find enum
operands of that value (a fraction of a second); more (a common value such as 0 on a
huge module) would keep the screen waiting for seconds."""
NAMING_BATCH = 512
"""Instructions named between two yields of `index_steps` (a few milliseconds of work)."""


class DefiningRows:
    """Id → the row of the instruction defining it, as two sorted arrays: a dict of Python
    ints would take some 30 MB for the large module's 340,000 ids, these take under 3 MB."""

    __slots__ = ("_ids", "_rows")

    def __init__(self, definitions: dict[int, int]) -> None:
        ids = sorted(definitions)
        self._ids = array("I", ids)
        self._rows = array("I", map(definitions.__getitem__, ids))

    def __len__(self) -> int:
        return len(self._ids)

    def get(self, id_: int) -> int | None:
        """The row defining `id_`, or None."""
        ids = self._ids
        k = bisect.bisect_left(ids, id_)
        return self._rows[k] if k < len(ids) and ids[k] == id_ else None


@dataclass(frozen=True, slots=True)
class Use:
    """One place an id is used: the row and the operand there that names it."""

    row: int
    operand: int | None
    line: str


class ModuleIndex:
    """The whole-module index of a `Document` (which provides the module, names, listing,
    layout and tail this reads)."""

    def __init__(self) -> None:
        self._indexes: dict[bool, SearchIndex] = {}
        self._ids_by_name: dict[str, int] | None = None
        self._definitions: DefiningRows | None = None
        self.checked = False
        """True once the whole-module diagnostics pass has run."""
        self.search_note = ""
        """What the last search left out, in words (empty when nothing)."""

    @property
    def ids_defined(self) -> int | None:
        """How many ids the module defines, once the definitions are indexed."""
        return None if self._definitions is None else len(self._definitions)

    def index_steps(self, raw: bool = False) -> Iterator[float]:
        """Build what needs the whole module in one pass over its instructions: the complete
        diagnostics, the definition of every id and the search text in `raw`'s naming.
        Yields the fraction done between runs of lines (the decoder's chunks, a couple of
        milliseconds of work each), so a worker can report progress, pause for the UI and
        stop early; done when exhausted."""
        module = self.module
        yield 0.0
        if raw in self._indexes and self._indexes[raw].complete:
            return
        yield from self._jump_steps(raw)
        index = SearchIndex(raw)
        definitions: dict[int, int] = {}
        define = definitions.setdefault
        results = self._result_words()
        total = max(module.instruction_count, 1)
        row = 0
        # The disassembler's own pass, line forms and all (the same lines the list shows).
        for lines in Disassembler(module, names=self.names(raw)).line_runs():
            index.add_lines(lines)
            for result in islice(results, len(lines)):
                if result:
                    define(result, row)
                row += 1
            yield row / total
        index.add_lines(self.tail_lines)
        index.finish()
        # The pass decoded every instruction in order: the diagnostics are complete.
        self.checked = True
        yield 1.0
        if self._definitions is None:
            self._drop_invalid_definers(definitions)
            yield 1.0
            table = self.names(False).table()
            ids = list(definitions)
            by_name: dict[str, int] = {}
            # Named ids only: a number is its own id (`parse_query`), and a string for each
            # of the hundreds of thousands of unnamed ids would cost tens of megabytes.
            for start in range(0, len(ids), NAMING_BATCH * 64):
                batch = ids[start : start + NAMING_BATCH * 64]
                by_name.update({name: id_ for id_ in batch if (name := table.get(id_))})
                yield 1.0
            self._ids_by_name = by_name
            self._definitions = DefiningRows(definitions)
        self._indexes[raw] = index
        yield 1.0

    def _drop_invalid_definers(self, definitions: dict[int, int]) -> None:
        """Read from the words, `definitions` holds the first instruction whose result word
        names each id; one the decoder found invalid (each has a diagnostic) defines
        nothing: the id goes to the first instruction that validly defines it, if any."""
        module = self.module
        invalid = set()
        for diagnostic in module.diagnostics:
            if diagnostic.word_offset is not None:
                index = module.index_at(diagnostic.word_offset)
                if index is not None and not module.instruction(index).valid:
                    invalid.add(index)
        lost = {id_ for id_, row in definitions.items() if row in invalid}
        if not lost:
            return
        for id_ in lost:
            del definitions[id_]
        for row, id_ in enumerate(self._result_words()):
            if id_ in lost and row not in invalid:
                definitions.setdefault(id_, row)

    def _result_words(self) -> Iterator[int]:
        """The word where each instruction's result id would be (0 without one)."""
        module = self.module
        words = module.words
        positions = module.tables.result_positions
        offset = HEADER_WORDS
        for _ in range(module.instruction_count):
            head = words[offset]
            position = positions[head & 0xFFFF]
            yield words[offset + position] if position and position < head >> 16 else 0
            offset += head >> 16

    def _jump_steps(self, raw: bool) -> Iterator[float]:
        """First what a jump anywhere waits for, so that it is ready soon after the first
        paint: which instruction defines which id (to decode any chunk), what naming a
        line of a function body needs, then the names' pass over the part before the
        functions, a batch at a time."""
        module = self.module
        module.ensure_indexed()
        yield 0.0
        names = self.names(raw)
        names.prepare()
        yield 0.0
        while names.name_more(NAMING_BATCH):
            yield 0.0
        yield 0.0

    def search_index(self, raw: bool = False) -> SearchIndex | None:
        """The finished search index for `raw`'s naming, or None while it is being built."""
        index = self._indexes.get(raw)
        return index if index is not None and index.complete else None

    def parse_query(self, text: str, raw: bool = False) -> Query | None:
        """A search the user typed, understood against this module's names and opcodes
        (friendly names of ids are known once the index is built)."""
        ids_by_name = self._ids_by_name or {}

        def name_to_id(name: str) -> int | None:
            return int(name) if name.isdigit() else ids_by_name.get(name)

        query = parse_query(text, set(self.grammar.by_name), name_to_id)
        if query is not None and query.kind == "id" and query.id_ is not None:
            # Spell the id as the index spells it, whatever naming the user typed in.
            query = query.spelled(self.names(raw).name(query.id_))
        return query

    @staticmethod
    def needs_index(query: Query) -> bool:
        """False for an opcode or word search, which read the words at once."""
        return query.kind not in ("opcode", "word")

    def search(self, query: Query, raw: bool = False) -> list[int] | None:
        """Rows matching `query` in the current layout, in order; None while the index a
        search by id, value, literal or text needs is being built."""
        if query.kind == "opcode":
            opcode = self.grammar.by_name[query.text].opcode
            return self._layout_rows([k for k, found in enumerate(self.module.opcodes()) if found == opcode])
        if query.kind == "word":
            instructions, tail = words_holding(self.module, query.value)
            count = self.module.instruction_count
            tail_rows = len(self.tail_lines)
            return self._layout_rows(instructions + [count + t for t in tail if t < tail_rows])
        index = self.search_index(raw)
        if index is None:
            return None
        rows = index.rows_matching(query)
        self.search_note = ""
        if query.kind == "value":
            rows = sorted(set(rows).union(self._value_rows(query.value)))
        return self._layout_rows(rows)

    def _value_rows(self, value: int) -> list[int]:
        """Instructions with a literal or enum operand equal to `value` (only those holding
        a word of that value are decoded; when more than `VALUE_DECODE_LIMIT` do, none is,
        and `search_note` says so)."""
        instruction = self.module.instruction
        holding, _ = words_holding(self.module, value)
        if len(holding) > VALUE_DECODE_LIMIT:
            self.search_note = (
                f"{len(holding):,} instructions hold a word of value {value}: too many to read each one's "
                f"operands, so only where {value} is printed was searched (0x{value:x} finds every such word)"
            )
            return []
        return [k for k in holding if value_operand(instruction(k), value, self.grammar) is not None]

    def select_match(self, row: int, query: Query, raw: bool = False) -> Selection:
        """The selection on a search's match in `row`: the word of a word search, else the
        operand the hit stands in (the id, the value, the literal), else the row."""
        index = self.layout.instruction(row)
        if index is None:
            return self.select_row(row)
        instruction = self.module.instruction(index)
        if query.kind == "word":
            words = self.module.words
            word = next((w for w in range(instruction.offset, instruction.end) if words[w] == query.value), None)
            return self.select_word(word) if word is not None else self.select_row(row)
        operand = None
        if query.kind == "value":
            operand = value_operand(instruction, query.value, self.grammar)
        if operand is None and query.kind != "opcode":
            operand = matching_operand(self.listing(raw).segments(index), query)
        return self.select_instruction(index, operand)

    def _layout_rows(self, indexed: list[int]) -> list[int]:
        """Rows of the index (instructions, then tail lines) as rows of the layout."""
        layout = self.layout
        if not layout.aided:
            return indexed
        count = self.module.instruction_count
        return sorted(layout.row_of(r) if r < count else layout.tail_row(r - count) for r in indexed)

    def definition(self, id_: int, near: int | None = None) -> int | None:
        """The instruction defining `id_`. Before the index is built, the function holding
        instruction `near` and the part before the first function are scanned (where
        nearly all ids live)."""
        if self._definitions is not None:
            return self._definitions.get(id_)
        firsts = [span.first for span in self.module.functions()]
        count = self.module.instruction_count
        ranges = [range(0, firsts[0] if firsts else count)]
        if near is not None and firsts:
            k = bisect.bisect_right(firsts, near) - 1
            if k >= 0:
                end = firsts[k + 1] if k + 1 < len(firsts) else count
                ranges.insert(0, range(firsts[k], end))
        instruction = self.module.instruction
        for indexes in ranges:
            for index in indexes:
                if instruction(index).result_id == id_:
                    return index
        return None

    def uses(self, id_: int, raw: bool = False, limit: int = 1000) -> list[Use] | None:
        """Where `id_` is used (at most `limit`, in module order), or None while indexing."""
        index = self.search_index(raw)
        if index is None:
            return None
        spelled = "%" + self.names(raw).name(id_)
        uses = []
        for instruction in index.uses(spelled[1:])[:limit]:
            segments = self.listing(raw).segments(instruction)
            operand = next((s.operand for s in segments if s.text == spelled and s.operand is not None), None)
            uses.append(Use(self.layout.row_of(instruction), operand, self.listing(raw).line(instruction)))
        return uses

    def operand_id(self, index: int, operand: int | None) -> int | None:
        """The id an operand of instruction `index` names (ids, types and results), or
        None for anything else."""
        if operand is None or index >= self.module.instruction_count:
            return None
        operands = self.module.instruction(index).operands
        if not 0 <= operand < len(operands):
            return None
        chosen = operands[operand]
        return chosen.value if chosen.kind.startswith("Id") and isinstance(chosen.value, int) else None
