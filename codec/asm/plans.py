"""The assembler's plans: the operand program (`codec.program`) laid out for the
assembler's two engines.

For the exact engine (`codec.asm.encoder`) each opcode's codes become a stack (the
next operand last), with the length of the leading run of plain ids it takes on a
short path. For the quick paths (`codec.asm.quick`) each opcode whose operands are
plain enough gets a `QuickShape`. Both are read off the program's codes, so that the
two engines cannot disagree on what an operand is. Built once per grammar (the
tables of available opcodes once per version) and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from spvinspect.codec.grammar import ExtInstSet, Grammar
from spvinspect.codec.program import (
    EXT_INST_NUM, ENUM_BASE, ID, LIT_INT, LIT_STR, REPEATED_ENUM_BASE, RESULT_ID, TYPE_ID,
    TYPED_NUM, VAR_ID, VAR_LIT_INT_ID, OpcodeProgram, Program, is_optional, program_of,
)


@dataclass(frozen=True, slots=True)
class OpcodePlan:
    """How the exact engine assembles one opcode: its operand codes as a stack."""

    opname: str
    opcode: int
    stack: tuple[int, ...]
    """The program's codes reversed: the next operand last."""
    has_result: bool
    has_type: bool
    declares_type: bool
    fast: int
    """How many leading operands are plain ids (the engine's short path)."""
    optional_after_fast: bool
    """True when the operand after those ids is optional or repeated."""
    program: OpcodeProgram


class ExtPlan(NamedTuple):
    """How to assemble one instruction of an extended set."""

    number: int
    stack: tuple[int, ...]
    """Its own operands' codes, the next operand last."""
    ids: int
    """How many operands it takes when they are all plain ids (the quick paths take
    those); -1 otherwise."""


TAIL_NONE, TAIL_OPTIONAL, TAIL_IDS, TAIL_CASES, TAIL_OTHER = 0, 1, 2, 3, 4
"""After a quick shape's fixed run: nothing; only optional operands; a list of ids
(`VAR_ID`, the Ids of OpAccessChain or OpFunctionCall, or an extended instruction's
operands); OpSwitch's (literal, label) pairs; anything else."""


class QuickShape(NamedTuple):
    """An opcode the assembler's quick paths take: after the opcode (and the result
    id), a fixed run of ids, plain literals, OpExtInst's instruction name and
    enumerants without parameters; then nothing, a list of ids, OpSwitch's (literal,
    label) pairs, or optional operands (taken only when they are absent)."""

    opcode: int
    length: int
    """How many words the fixed run has in the text (the result type included)."""
    has_type: bool
    tail: int
    """TAIL_NONE, TAIL_OPTIONAL, TAIL_IDS or TAIL_CASES."""
    codes: tuple[int, ...] | None
    """The fixed run's operand codes in text order; None when they are all ids and
    nothing but ids or absent optional operands follow them."""


_ID_CODES = frozenset({ID, TYPE_ID})
_FAST_CODES = frozenset({ID, TYPE_ID, RESULT_ID})


def _fast_prefix(codes: tuple[int, ...], ext_inst: bool) -> int:
    """How many leading codes are plain ids; for an extended instruction, those before
    the set id, which needs checking."""
    count = 0
    for code in codes:
        if code not in _FAST_CODES:
            break
        count += 1
    return min(count, 2) if ext_inst else count


def _plan(program: OpcodeProgram, ext_inst: bool) -> OpcodePlan:
    codes = program.codes
    fast = _fast_prefix(codes, ext_inst)
    return OpcodePlan(
        opname=program.opname,
        opcode=program.opcode,
        stack=codes[::-1],
        has_result=program.has_result,
        has_type=program.has_type,
        declares_type=program.declares_type,
        fast=fast,
        optional_after_fast=fast < len(codes) and is_optional(codes[fast]),
        program=program,
    )


class Plans:
    """Everything the assembler needs from the grammar, laid out for its engines."""

    def __init__(self, program: Program) -> None:
        self.program = program
        self.grammar: Grammar = program.grammar
        self.ext_inst_opcodes = program.ext_inst_opcodes
        op = program.opcodes
        self.constant_opcodes = frozenset({op.OpConstant, op.OpSpecConstant})
        """The opcodes whose number is as wide as their result type says."""
        self.by_name: dict[str, OpcodePlan] = {
            name: _plan(p, p.opcode in self.ext_inst_opcodes) for name, p in program.by_name.items()
        }
        self.enums = program.enums
        """The enum kinds, indexed by (code - ENUM_BASE) >> 1."""
        self._by_version: dict[int, dict[str, OpcodePlan]] = {}
        self._quick_by_version: dict[int, tuple[dict[str, QuickShape], dict[str, QuickShape]]] = {}
        self._ext: dict[str, dict[str, ExtPlan]] = {}

    def available(self, version: int) -> dict[str, OpcodePlan]:
        """The plans of the opcodes spirv-as accepts for SPIR-V `version`."""
        table = self._by_version.get(version)
        if table is None:
            table = {name: p for name, p in self.by_name.items() if p.program.available(version)}
            self._by_version[version] = table
        return table

    def quick(self, version: int) -> tuple[dict[str, QuickShape], dict[str, QuickShape]]:
        """The shapes of the opcodes the assembler's quick path takes for SPIR-V
        `version`: those with a result id, then those without."""
        tables = self._quick_by_version.get(version)
        if tables is None:
            with_result: dict[str, QuickShape] = {}
            without: dict[str, QuickShape] = {}
            for name, plan in self.available(version).items():
                shape = self._quick_shape(plan.program)
                if shape is not None:
                    (with_result if plan.has_result else without)[name] = shape
            tables = self._quick_by_version[version] = (with_result, without)
        return tables

    def ext_instructions(self, ext: ExtInstSet) -> dict[str, ExtPlan]:
        """Name → plan of the instructions of an extended set."""
        table = self._ext.get(ext.import_name)
        if table is None:
            table = {
                name: ExtPlan(i.number, i.codes[::-1], len(i.codes) if i.codes == (ID,) * len(i.codes) else -1)
                for name, i in self.program.ext_instructions(ext).by_name.items()
            }
            self._ext[ext.import_name] = table
        return table

    def _simple(self, code: int, opcode: int) -> bool:
        """True for an operand code the quick paths encode."""
        if code >= ENUM_BASE:
            return code < REPEATED_ENUM_BASE and not code & 1
        if code == TYPED_NUM:
            return opcode in self.constant_opcodes
        if code == EXT_INST_NUM:
            return opcode in self.ext_inst_opcodes
        return code in (ID, LIT_STR, LIT_INT)

    def _quick_shape(self, program: OpcodeProgram) -> QuickShape | None:
        opcode = program.opcode
        if program.declares_type or opcode == self.program.opcodes.OpExtInstImport:
            return None  # they declare what later instructions need: the exact engine records it
        codes = program.codes
        head = (TYPE_ID, RESULT_ID) if program.has_type else (RESULT_ID,) if program.has_result else ()
        if codes[: len(head)] != head:
            return None
        rest = codes[len(head):]
        length = 0
        while length < len(rest) and self._simple(rest[length], opcode):
            length += 1
        # OpExtInst's run ends at the instruction's name; the ids that follow are taken as
        # a list, which must then be just what that instruction needs.
        tail = TAIL_IDS if opcode in self.ext_inst_opcodes else _tail(rest[length:])
        if tail == TAIL_OTHER:
            return None
        fixed = (TYPE_ID,) * program.has_type + rest[:length]
        simple = None if _ID_CODES.issuperset(fixed) and tail != TAIL_CASES else fixed
        return QuickShape(opcode, len(fixed), program.has_type, tail, simple)


def _tail(codes: tuple[int, ...]) -> int:
    """The tail kind of the operand codes (in text order) after a quick shape's fixed part."""
    if not codes:
        return TAIL_NONE
    if codes == (VAR_ID,):
        return TAIL_IDS
    if codes == (VAR_LIT_INT_ID,):
        return TAIL_CASES
    if all(is_optional(code) for code in codes):
        return TAIL_OPTIONAL
    return TAIL_OTHER


@cache
def load_plans() -> Plans:
    """The plans of the installed grammar (built on first use)."""
    return Plans(program_of())
