"""What the decoder needs from the grammar, derived once per grammar and kept.

Opcode numbers are resolved here by name, in one place; the fast-path plans and the
positions of result ids are computed from the operand lists. `decoder_tables(grammar)`
returns the same object for the same grammar, so opening a module (or decoding the
empty input the editor sends on every keystroke) costs no table building.
"""

from __future__ import annotations

import threading

from codec.binary.decode_plans import SimplePlan, WordPlan, simple_plan, simple_plans, word_plan
from codec.binary.fast_forms import FastForms, instruction_form
from codec.grammar import Grammar, InstructionDesc, OperandKind

TYPED_LITERAL_KINDS = frozenset(
    {"LiteralContextDependentNumber", "LiteralSpecConstantOpInteger", "LiteralExtInstInteger"}
)
"""Operand kinds whose decoding reads the state left by earlier instructions: the
literal's width comes from its type, an extended instruction's grammar from its import."""


class DecoderTables:
    """Per-grammar tables: instruction descriptions, fast-path plans, opcodes by role."""

    __slots__ = (
        "grammar",
        "kinds",
        "instructions",
        "plans",
        "instruction_forms",
        "ext_inst_opcodes",
        "typed_literal_opcodes",
        "result_positions",
        "type_positions",
        "op_ext_inst_import",
        "op_type_int",
        "op_type_float",
        "op_switch",
        "op_function",
        "op_function_end",
    )

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.kinds: dict[str, OperandKind] = grammar.operand_kinds
        self.instructions: dict[int, InstructionDesc] = grammar.instructions
        by_name = grammar.by_name
        self.op_ext_inst_import = by_name["OpExtInstImport"].opcode
        self.op_type_int = by_name["OpTypeInt"].opcode
        self.op_type_float = by_name["OpTypeFloat"].opcode
        self.op_switch = by_name["OpSwitch"].opcode
        self.op_function = by_name["OpFunction"].opcode
        self.op_function_end = by_name["OpFunctionEnd"].opcode
        self.ext_inst_opcodes = frozenset(
            desc.opcode
            for desc in grammar.instructions.values()
            if any(o.kind == "LiteralExtInstInteger" for o in desc.operands)
        )
        self.typed_literal_opcodes = frozenset(
            desc.opcode
            for desc in grammar.instructions.values()
            if any(o.kind in TYPED_LITERAL_KINDS for o in desc.operands)
        )
        """Opcodes whose operands may need a number type or an import: their IdResultType
        (word 1) and, for extended instructions, their set id (word 3)."""
        # Instructions that must be seen whole by the general path (state they record,
        # checks beyond their words' shapes) never take the fast path.
        self.plans: dict[int, SimplePlan] = simple_plans(
            grammar,
            frozenset({self.op_switch, self.op_type_int, self.op_type_float, self.op_ext_inst_import})
            | self.ext_inst_opcodes,
        )
        self.instruction_forms = FastForms(self, instruction_form)
        """The fast path's plans, with the form that builds `Instruction`s."""
        # Word positions (from the instruction's first word) of the result id and its
        # type, 0 when the instruction has none. Every opcode below 65536 has an entry.
        self.result_positions = bytearray(65536)
        self.type_positions = bytearray(65536)
        for desc in grammar.instructions.values():
            kinds = [o.kind for o in desc.operands[:2]]
            if "IdResult" in kinds:
                self.result_positions[desc.opcode] = kinds.index("IdResult") + 1
            if kinds[:1] == ["IdResultType"]:
                self.type_positions[desc.opcode] = 1

    def word_plan(self, opcode: int, count: int) -> WordPlan | None:
        """The fast path's plan for an instruction of `count` words, or None."""
        plan = self.plans.get(opcode)
        if plan is None:
            return None
        return word_plan(opcode, self.instructions[opcode].opname, plan, count)

    def ext_word_plan(self, opcode: int, count: int, import_name: str, number: int) -> WordPlan | None:
        """The fast path's plan for an extended instruction (`opcode` one of
        `ext_inst_opcodes`) of `count` words, whose set is imported as `import_name` and
        whose instruction number is `number`; None when the set or instruction is
        unknown to the grammar or its operands are not for the fast path."""
        ext = self.grammar.ext_inst_set(import_name)
        desc = ext.instructions.get(number) if ext is not None else None
        if desc is None:
            return None
        core = self.instructions[opcode]
        # The extended instruction's operands take the place of the grammar's trailing
        # operand list; its own operand kinds come before the core ones.
        plan = simple_plan(core.operands[:4] + desc.operands, {**self.kinds, **ext.operand_kinds})
        if plan is None:
            return None
        return word_plan(opcode, core.opname, plan, count, import_name, desc.opname)

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
