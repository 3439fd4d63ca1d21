"""What the decoder needs from the grammar, derived once per grammar and kept.

Opcode numbers come from `codec.opcodes`; the fast-path plans and the positions of
result ids are computed from the operand program (`codec.program`).
`decoder_tables(grammar)` returns the same object for the same grammar, so opening a
module (or decoding the empty input the editor sends on every keystroke) costs no
table building.
"""

from __future__ import annotations

import threading

from spvinspect.codec.binary.decode_plans import SimplePlan, WordPlan, simple_plan, word_plan
from spvinspect.codec.binary.fast_forms import FastForms, instruction_form
from spvinspect.codec.binary.model import NumberType
from spvinspect.codec.grammar import Grammar, InstructionDesc, OperandDesc
from spvinspect.codec.opcodes import Opcodes
from spvinspect.codec.program import (
    EXT_INST_NUM, OPT_TYPED_INT, RESULT_ID, SPEC_OP_NUM, TYPE_ID, TYPED_NUM, Program, program_of, repetition,
)

TYPED_LITERAL_CODES = frozenset({TYPED_NUM, SPEC_OP_NUM, EXT_INST_NUM})
"""Operand codes whose decoding reads the state left by earlier instructions: the
literal's width comes from its type, an extended instruction's operands from its import."""


class DecoderTables:
    """Per-grammar tables: instruction descriptions, fast-path plans, opcodes by role."""

    __slots__ = (
        "grammar",
        "program",
        "opcodes",
        "instructions",
        "_whole_only",
        "_plans",
        "instruction_forms",
        "ext_inst_opcodes",
        "typed_literal_opcodes",
        "selector_typed_opcodes",
        "result_positions",
        "type_positions",
        "ext_set_positions",
        "_repetitions",
    )

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.program: Program = program_of(grammar)
        self.opcodes: Opcodes = self.program.opcodes
        self.instructions: dict[int, InstructionDesc] = grammar.instructions
        self.ext_inst_opcodes = self.program.ext_inst_opcodes
        by_opcode = self.program.by_opcode
        self.typed_literal_opcodes = frozenset(
            opcode for opcode, op in by_opcode.items() if not TYPED_LITERAL_CODES.isdisjoint(op.codes)
        )
        """Opcodes whose operands may need a number type or an import: their result type
        (word 1) and, for extended instructions, their set id (word 3)."""
        # Instructions that must be seen whole by the general path (state they record,
        # checks beyond their words' shapes) never take the fast path.
        ops = self.opcodes
        self._whole_only = (
            frozenset({ops.OpTypeInt, ops.OpTypeFloat, ops.OpExtInstImport}) | self.ext_inst_opcodes
        )
        self._plans: dict[int, SimplePlan | None] = {}
        self.selector_typed_opcodes = frozenset(
            opcode
            for opcode, op in by_opcode.items()
            if any(OPT_TYPED_INT in (repetition(code) or ()) for code in op.codes)
        )
        """Opcodes whose literals are as wide as their selector's type (OpSwitch): their
        selector is their first operand word."""
        self.instruction_forms = FastForms(self, instruction_form)
        """The fast path's plans, with the form that builds `Instruction`s."""
        self._repetitions: dict[tuple[int, OperandDesc], tuple[tuple[int, OperandDesc], ...]] = {}
        # Word positions (from the instruction's first word) of the result id and its
        # type, 0 when the instruction has none. Every opcode below 65536 has an entry.
        self.result_positions = bytearray(65536)
        self.type_positions = bytearray(65536)
        self.ext_set_positions = bytearray(65536)
        """For the extended instructions, the word position of the set id: the id just
        before the instruction number (which the program ends them at)."""
        for opcode, op in by_opcode.items():
            first = op.codes[:2]
            if RESULT_ID in first:
                self.result_positions[opcode] = first.index(RESULT_ID) + 1
            if first[:1] == (TYPE_ID,):
                self.type_positions[opcode] = 1
            if opcode in self.ext_inst_opcodes:
                # The set id's operand index is the number's less one; its word position
                # one more than that (the first word is the opcode's).
                self.ext_set_positions[opcode] = op.codes.index(EXT_INST_NUM)

    def repetition(self, code: int, operand: OperandDesc) -> tuple[tuple[int, OperandDesc], ...]:
        """One more repetition of a repeated operand (`code`, standing for the grammar's
        `operand`), as the general walk expects it: codes with the operands they decode
        to (a pair's kinds, the operand's name). Kept once made."""
        key = (code, operand)
        found = self._repetitions.get(key)
        if found is None:
            kinds = self.program.repetition_kinds(code, operand)
            found = self._repetitions[key] = tuple(
                zip(repetition(code) or (), (OperandDesc(kind, None, operand.name) for kind in kinds))
            )
        return found

    def word_plan(self, opcode: int, count: int) -> WordPlan | None:
        """The fast path's plan for an instruction of `count` words, or None."""
        plan = self.plan(opcode)
        if plan is None:
            return None
        return word_plan(opcode, self.instructions[opcode].opname, plan, count)

    def plan(self, opcode: int) -> SimplePlan | None:
        """The fast path's plan of an opcode (compiled from its operand program on first
        use), or None when the fast path does not take it."""
        try:
            return self._plans[opcode]
        except KeyError:
            pass
        op = self.program.by_opcode.get(opcode)
        plan = None
        if op is not None and opcode not in self._whole_only:
            plan = simple_plan(op.codes, op.operands, self.program)
        self._plans[opcode] = plan
        return plan

    def case_word_plan(self, opcode: int, count: int, case_type: NumberType) -> WordPlan | None:
        """The fast path's plan for an instruction of `count` words of one of
        `selector_typed_opcodes`, whose selector has type `case_type`, or None."""
        plan = self.plan(opcode)
        if plan is None:
            return None
        return word_plan(opcode, self.instructions[opcode].opname, plan, count, case_type=case_type)

    def ext_word_plan(self, opcode: int, count: int, import_name: str, number: int) -> WordPlan | None:
        """The fast path's plan for an extended instruction (`opcode` one of
        `ext_inst_opcodes`) of `count` words, whose set is imported as `import_name` and
        whose instruction number is `number`; None when the set or instruction is
        unknown to the grammar or its operands are not for the fast path."""
        ext = self.grammar.ext_inst_set(import_name)
        inst = self.program.ext_instructions(ext).by_number.get(number) if ext is not None else None
        if inst is None:
            return None
        core = self.program.by_opcode[opcode]
        # The program's operands of the core instruction end at the instruction number;
        # the extended instruction's own follow.
        plan = simple_plan(core.codes + inst.codes, core.operands + inst.operands, self.program)
        if plan is None:
            return None
        return word_plan(opcode, core.opname, plan, count, import_name, inst.name)

_TABLES: dict[int, tuple[Grammar, DecoderTables]] = {}
_TABLES_LOCK = threading.Lock()


def decoder_tables(grammar: Grammar) -> DecoderTables:
    """The tables of `grammar`, built on first use and kept for the process's life."""
    entry = _TABLES.get(id(grammar))
    if entry is not None and entry[0] is grammar:
        return entry[1]
    with _TABLES_LOCK:
        entry = _TABLES.get(id(grammar))
        if entry is None or entry[0] is not grammar:
            entry = (grammar, DecoderTables(grammar))
            _TABLES[id(grammar)] = entry
    return entry[1]
