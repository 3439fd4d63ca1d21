"""What the decoder's fast path makes of the instructions its plans vouch for.

A *form* is compiled once per plan (`codec.binary.decode_plans.WordPlan`) and called for
each instruction the fast path takes: `instruction_form` builds the decoded
`Instruction`; the disassembler's line forms make its text (`codec.text.line_forms`);
the naming pass takes what it names (`codec.text.names`). `FastForms` keeps, for each
first word met, the plan and its form, so the decoder's loop finds both with one lookup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import repeat
from typing import TYPE_CHECKING, NamedTuple

from spvinspect.codec.binary.decode_plans import CASE, WordPlan
from spvinspect.codec.binary.model import Instruction, NumberType, Operand

if TYPE_CHECKING:
    from spvinspect.codec.binary.tables import DecoderTables

_new = tuple.__new__

CACHED_FORMS = 1 << 16
"""First words whose plan and form are kept, at most (real modules use a few hundred)."""


Form = Callable[[list[int], int, "str | int | None", "NumberType | None"], object] | str
"""What the fast path makes of one instruction its plan vouches for: called with the
operand words, the instruction's offset, and the trailing operand's value (a string or a
number, with the number's type), None when the plan has none. A str is what it makes of
every instruction of its plan, taken as it is (no call)."""


class FastEntry(NamedTuple):
    """What the fast path needs of a first word, flat: its form and the plan's facts
    (kept by `FastForms` as plain tuples in this order)."""

    form: Form
    all_ids: bool
    trailing: int
    result_index: int
    type_index: int
    plan: WordPlan


EXTENDED = FastEntry(None, False, -1, -1, -1, None)  # type: ignore[arg-type]
"""The entry of an extended instruction's first word: its plan depends on the set it
imports and on its instruction number (see `FastForms.extended`)."""
SWITCH = FastEntry(None, False, -2, -1, -1, None)  # type: ignore[arg-type]
"""The entry of OpSwitch's first word: its plan depends on the selector's type (see
`FastForms.switch`)."""


class FastForms:
    """For each first word the fast path takes: its plan, and the form `compile(plan)`
    makes of it, kept once computed."""

    __slots__ = ("tables", "compile", "prepare", "entries", "_others", "_extended", "_switches")

    def __init__(
        self,
        tables: DecoderTables,
        compile: Callable[[WordPlan], Form],
        prepare: Callable[[list[int], int, Sequence[int]], None] | None = None,
    ) -> None:
        self.tables = tables
        self.compile = compile
        self.prepare = prepare
        """Called with the words of each run of instructions, the offset of the first and
        the instructions' offsets, before their forms are: forms that read many words can
        look them up in bulk. The list is theirs to write in from an instruction's first
        word on once its form is called (the decoder reads no word of an instruction
        after that)."""
        self.entries: dict[int, FastEntry] = {}
        self._others: dict[int, FastEntry | None] = {}
        self._extended: dict[tuple[int, str, int], FastEntry | None] = {}
        self._switches: dict[tuple[int, NumberType], FastEntry | None] = {}

    def entry(self, head: int) -> FastEntry | None:
        """The plan and form for an instruction whose first word is `head`: the entry,
        `EXTENDED` or `SWITCH` (then the plan depends on more than the first word), or
        None. Entries are kept in `entries`, markers and None in `_others`."""
        found = self.entries.get(head) or self._others.get(head, False)
        if found is False:
            opcode, count = head & 0xFFFF, head >> 16
            if opcode in self.tables.ext_inst_opcodes:
                # The set id and the instruction number must be there to choose the plan.
                found = EXTENDED if count > self.tables.ext_set_positions[opcode] + 1 else None
            elif opcode in self.tables.selector_typed_opcodes:
                found = SWITCH if count > 1 else None
            else:
                found = self._entry(self.tables.word_plan(opcode, count))
            if len(self.entries) + len(self._others) < CACHED_FORMS:
                if found is None or found is EXTENDED or found is SWITCH:
                    self._others[head] = found
                else:
                    self.entries[head] = found
        return found  # type: ignore[return-value]

    def extended(self, head: int, import_name: str, number: int) -> FastEntry | None:
        """The plan and form for an extended instruction of the set imported as
        `import_name`, with instruction number `number`, or None."""
        key = (head, import_name, number)
        found = self._extended.get(key, False)
        if found is False:
            plan = self.tables.ext_word_plan(head & 0xFFFF, head >> 16, import_name, number)
            found = self._entry(plan)
            if len(self._extended) < CACHED_FORMS:
                self._extended[key] = found
        return found  # type: ignore[return-value]

    def switch(self, head: int, case_type: NumberType) -> FastEntry | None:
        """The plan and form for an OpSwitch whose selector has type `case_type`, or None."""
        key = (head, case_type)
        found = self._switches.get(key, False)
        if found is False:
            plan = self.tables.case_word_plan(head & 0xFFFF, head >> 16, case_type)
            found = self._switches[key] = self._entry(plan)
        return found  # type: ignore[return-value]

    def _entry(self, plan: WordPlan | None) -> FastEntry | None:
        if plan is None:
            return None
        entry = FastEntry(self.compile(plan), plan.all_ids, plan.trailing, plan.result_index, plan.type_index, plan)
        # Kept as a plain tuple: the decoder's loop unpacks an entry for every
        # instruction, and the interpreter unpacks exact tuples faster.
        return tuple(entry)  # type: ignore[return-value]


def instruction_form(plan: WordPlan) -> Form:
    """The form that builds the decoded `Instruction`."""
    opcode, opname, type_index, result_index, start, ext_inst_set = (
        plan.opcode, plan.opname, plan.type_index, plan.result_index, plan.trailing, plan.ext_inst_set
    )
    kinds = [entry.kind for entry in plan.entries]
    names = [entry.name for entry in plan.entries]
    if start >= 0:
        del kinds[start], names[start]
    operand = repeat(Operand)
    one = repeat(1)
    number_types: object = repeat(None)
    if plan.case_type is not None:
        number_types = [plan.case_type if entry.check == CASE else None for entry in plan.entries]

    def form(
        operand_words: list[int], offset: int, value: str | int | None, number_type: NumberType | None
    ) -> Instruction:
        position = offset + 1
        # Each operand is made by tuple.__new__ over zip's tuples: no Python-level call.
        fields = zip(kinds, names, operand_words, range(position, position + len(kinds)), one, number_types)
        operands = tuple(map(_new, operand, fields))
        if start >= 0:
            size = len(operand_words) - start
            trailing = plan.entries[start]
            operands += (_new(Operand, (trailing.kind, trailing.name, value, position + start, size, number_type)),)
        return _new(
            Instruction,
            (offset, opcode, opname, len(operand_words) + 1,
             operand_words[type_index] if type_index >= 0 else 0,
             operand_words[result_index] if result_index >= 0 else 0,
             operands, ext_inst_set, True),
        )

    return form
