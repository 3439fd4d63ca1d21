"""The operand program: every opcode's operands as small integer codes, compiled once
from the grammar, for the decoder and the assembler alike.

The grammar has many operand kinds (IdRef, IdScope, LiteralInteger, PairIdRefIdRef,
dozens of enums), but an engine needs to know only a few things about an operand: is
it an id, which literal it is, which enum, whether it is optional or repeats. The
program says that once per opcode (`OpcodeProgram.codes`, in text order), with the
grammar's quirks settled here, as SPIRV-Tools settles them:

- OpExtInst and OpExtInstWithForwardRefsKHR end at the instruction number: the
  extended instruction's own operands (`Program.ext_instructions`) take the place of
  the grammar's trailing `IdRef*`; an unknown non-semantic set's are
  `UNKNOWN_SET_OPERANDS`, any ids.
- OpPhi's `PairIdRefIdRef*` is a plain list of ids (odd counts too).
- OpSwitch's `PairLiteralIntegerIdRef*` literals take the selector's width
  (`OPT_TYPED_INT`), as OpConstant's take the result type's (`TYPED_NUM`).
- OpSpecConstantOp's `LiteralSpecConstantOpInteger` brings the operands of the opcode
  it names, after that opcode's result type and result id.

Enumerants with parameters bring their parameters' codes (`EnumKind.parameters`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import NamedTuple

from spvinspect.codec.grammar import ExtInstSet, Grammar, OperandDesc, OperandKind, load_grammar
from spvinspect.codec.opcodes import Opcodes, opcodes

# Operand codes. The optional form of a code is a separate code, so that asking whether
# an operand may be absent is a set lookup.
ID, TYPE_ID, RESULT_ID, OPT_ID, VAR_ID = 0, 1, 2, 3, 4
LIT_INT, OPT_LIT_INT, VAR_LIT_INT = 5, 6, 7
LIT_STR, OPT_LIT_STR = 8, 9
TYPED_NUM, OPT_TYPED_INT = 10, 11
"""A number as wide as a type says: OpConstant's result type, OpSwitch's selector."""
VAR_LIT_INT_ID, VAR_ID_LIT_INT = 12, 13
EXT_INST_NUM, SPEC_OP_NUM, LIT_FLOAT = 14, 15, 16
OPT_CIV = 17
"""Any word the instruction still holds: a number, a string or an id. No grammar
operand has it; the assembler expects it after a `!<integer>`, where the grammar no
longer says what comes."""
ENUM_BASE = 32
"""Enum codes: ENUM_BASE + 2 * the kind's index in `Program.enums`, plus 1 when optional."""
REPEATED_ENUM_BASE = 1 << 16
"""Codes of enum operands quantified `*` (OpSpecConstantCapabilitiesINTEL's
Capabilities): REPEATED_ENUM_BASE + the kind's required code."""

REPEATS = {
    VAR_ID: (OPT_ID,),
    VAR_LIT_INT: (OPT_LIT_INT,),
    VAR_LIT_INT_ID: (OPT_TYPED_INT, ID),
    VAR_ID_LIT_INT: (OPT_ID, LIT_INT),
}
"""What one more repetition of a repeated operand holds, in text order."""

UNKNOWN_SET_OPERANDS = (VAR_ID,)
"""The operands of an instruction of a non-semantic set the grammar does not know: ids."""

FIXED_OPTIONAL = frozenset({OPT_ID, OPT_LIT_INT, OPT_LIT_STR, OPT_TYPED_INT, OPT_CIV})
"""Optional codes other than enums (which are optional when odd)."""

CODE_NAMES = {
    ID: "an id", TYPE_ID: "a result type id", RESULT_ID: "a result id", OPT_ID: "an id",
    VAR_ID: "an id", LIT_INT: "an integer", OPT_LIT_INT: "an integer", VAR_LIT_INT: "an integer",
    LIT_STR: "a quoted string", OPT_LIT_STR: "a quoted string", TYPED_NUM: "a number",
    OPT_TYPED_INT: "an integer", EXT_INST_NUM: "an extended instruction name",
    SPEC_OP_NUM: "an opcode name without 'Op'", LIT_FLOAT: "a float", OPT_CIV: "a literal or an id",
}
"""What each non-enum code expects, for messages."""

_SCALAR_CODES = {
    # kind: (required, '?', '*')
    "IdRef": (ID, OPT_ID, VAR_ID),
    "IdMemorySemantics": (ID, OPT_ID, VAR_ID),
    "IdScope": (ID, OPT_ID, VAR_ID),
    "IdResultType": (TYPE_ID, TYPE_ID, TYPE_ID),
    "IdResult": (RESULT_ID, RESULT_ID, RESULT_ID),
    "LiteralInteger": (LIT_INT, OPT_LIT_INT, VAR_LIT_INT),
    "LiteralString": (LIT_STR, OPT_LIT_STR, OPT_LIT_STR),
    "LiteralContextDependentNumber": (TYPED_NUM, TYPED_NUM, TYPED_NUM),
    "LiteralExtInstInteger": (EXT_INST_NUM, EXT_INST_NUM, EXT_INST_NUM),
    "LiteralSpecConstantOpInteger": (SPEC_OP_NUM, SPEC_OP_NUM, SPEC_OP_NUM),
    "LiteralFloat": (LIT_FLOAT, LIT_FLOAT, LIT_FLOAT),
    "PairIdRefIdRef": (VAR_ID, VAR_ID, VAR_ID),
    "PairLiteralIntegerIdRef": (VAR_LIT_INT_ID, VAR_LIT_INT_ID, VAR_LIT_INT_ID),
    "PairIdRefLiteralInteger": (VAR_ID_LIT_INT, VAR_ID_LIT_INT, VAR_ID_LIT_INT),
}
_QUANTIFIER_INDEX = {None: 0, "?": 1, "*": 2}

TYPE_DECLARATION = "Type-Declaration"
VERSION_ANY = 0xFFFFFFFF
"""The last version of an opcode that no version retires."""


def is_optional(code: int) -> bool:
    """True when an operand of `code` may be absent (optional or repeated)."""
    if code >= REPEATED_ENUM_BASE:
        return True
    return code in FIXED_OPTIONAL or code in REPEATS or (code >= ENUM_BASE and code & 1 == 1)


def repetition(code: int) -> tuple[int, ...] | None:
    """What one more repetition of a repeated operand holds, in text order; None when
    `code` does not repeat."""
    if code >= REPEATED_ENUM_BASE:
        return ((code - REPEATED_ENUM_BASE) | 1,)
    return REPEATS.get(code)


@dataclass(frozen=True, slots=True)
class EnumKind:
    """An enumerated operand kind, with the codes of each enumerant's parameters."""

    kind: OperandKind
    is_mask: bool
    parameters: dict[int, tuple[int, ...]]
    """Enumerant value (a bit, for a mask) → its parameters' codes in text order, for
    the enumerants that have parameters."""
    parameter_bits: int
    """For a mask, the bits whose enumerants have parameters; 0 for a value enum."""
    plain: dict[str, int]
    """Name (and alias) → value of the enumerants that bring no parameters."""


@dataclass(frozen=True, slots=True)
class OpcodeProgram:
    """One opcode's operands as codes, with what the grammar says of its availability."""

    opname: str
    opcode: int
    codes: tuple[int, ...]
    """The operands' codes in text order (the result type and result id included)."""
    operands: tuple[OperandDesc, ...]
    """The grammar's operands the codes stand for, one each."""
    has_result: bool
    has_type: bool
    declares_type: bool
    """True for the type declarations (OpTypeInt, OpTypeStruct, …)."""
    min_version: int
    last_version: int
    enabled_elsewhere: bool
    """True when an extension or capability enables it in any version."""

    def available(self, version: int) -> bool:
        """True when spirv-as accepts the opcode for a target of SPIR-V `version`
        (a version word, like 0x00010300)."""
        return self.enabled_elsewhere or self.min_version <= version <= self.last_version


class ExtInstruction(NamedTuple):
    """One instruction of an extended set: its number and its own operands' codes."""

    name: str
    number: int
    codes: tuple[int, ...]
    operands: tuple[OperandDesc, ...]


class ExtInstructions(NamedTuple):
    """The compiled instructions of one extended set, by name and by number."""

    by_name: dict[str, ExtInstruction]
    by_number: dict[int, ExtInstruction]


class _Compiler:
    """Turns grammar operands into codes, registering enum kinds as they are met."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.enums: list[EnumKind] = []
        self._index: dict[int, int] = {}

    def codes(self, operands, local: dict[str, OperandKind]) -> tuple[int, ...]:
        """The codes of grammar operands; `local` holds an extended set's own kinds."""
        return tuple(self.code(o, local) for o in operands)

    def code(self, op: OperandDesc, local: dict[str, OperandKind]) -> int:
        """The code of one grammar operand."""
        scalar = _SCALAR_CODES.get(op.kind)
        if scalar is not None:
            return scalar[_QUANTIFIER_INDEX[op.quantifier]]
        kind = local.get(op.kind) or self.grammar.operand_kinds[op.kind]
        if op.quantifier == "*":
            return REPEATED_ENUM_BASE + self.enum_code(kind, local)
        return self.enum_code(kind, local) + int(op.quantifier is not None)

    def enum_code(self, kind: OperandKind, local: dict[str, OperandKind]) -> int:
        """The required code of an enum kind, registering it (and its parameters'
        kinds) on first use."""
        index = self._index.get(id(kind))
        if index is None:
            index = self._index[id(kind)] = len(self.enums)
            is_mask = kind.category == "BitEnum"
            with_parameters = {e.value for e in kind.enumerants if e.parameters}
            bits = 0
            for value in with_parameters:
                bits |= value
            plain = {
                name: e.value
                for name, e in kind.by_name.items()
                if not (e.value & bits if is_mask else e.value in with_parameters)
            }
            parameters: dict[int, tuple[int, ...]] = {}
            self.enums.append(EnumKind(kind, is_mask, parameters, bits if is_mask else 0, plain))
            for e in kind.enumerants:
                if e.parameters:
                    parameters.setdefault(e.value, self.codes(e.parameters, local))
        return ENUM_BASE + 2 * index


def _version(text: str | None, default: int) -> int:
    if text is None:
        return default
    if text == "None":
        return VERSION_ANY
    major, minor = text.split(".")
    return (int(major) << 16) | (int(minor) << 8)


class Program:
    """The operand program of one grammar (see the module's docstring)."""

    def __init__(self, grammar: Grammar) -> None:
        self.grammar = grammar
        self.opcodes: Opcodes = opcodes(grammar)
        self.ext_inst_opcodes = frozenset(
            desc.opcode
            for desc in grammar.instructions.values()
            if any(o.kind == "LiteralExtInstInteger" for o in desc.operands)
        )
        """The opcodes that run an extended instruction (OpExtInst and the like)."""
        compiler = _Compiler(grammar)
        self.by_name: dict[str, OpcodeProgram] = {}
        """Every opname and alias → its program."""
        self.by_opcode: dict[int, OpcodeProgram] = {}
        for name, desc in grammar.by_name.items():
            operands = desc.operands
            if desc.opcode in self.ext_inst_opcodes:
                operands = operands[:-1]  # the extended instruction's own operands follow
            first = _version(desc.version, 0x10000)
            last = _version(desc.last_version, VERSION_ANY)
            program = OpcodeProgram(
                opname=name,
                opcode=desc.opcode,
                codes=compiler.codes(operands, {}),
                operands=operands,
                has_result=desc.has_result,
                has_type=desc.has_result_type,
                declares_type=desc.opclass == TYPE_DECLARATION and desc.has_result,
                min_version=first,
                last_version=last,
                enabled_elsewhere=bool(desc.extensions or desc.capabilities),
            )
            self.by_name[name] = program
            if name == desc.opname:
                self.by_opcode[desc.opcode] = program
        self._ext: dict[str, ExtInstructions] = {}
        for ext in grammar.ext_inst_sets.values():
            instructions = [
                ExtInstruction(name, d.opcode, compiler.codes(d.operands, ext.operand_kinds), d.operands)
                for name, d in ext.by_name.items()
            ]
            self._ext[ext.import_name] = ExtInstructions(
                {i.name: i for i in instructions},
                {i.number: i for i in instructions if i.name == ext.instructions[i.number].opname},
            )
        self.enums: tuple[EnumKind, ...] = tuple(compiler.enums)
        """The enum kinds, indexed by (code - ENUM_BASE) >> 1."""

    def enum(self, code: int) -> EnumKind:
        """The enum kind of an enum code (required, optional or repeated)."""
        if code >= REPEATED_ENUM_BASE:
            code -= REPEATED_ENUM_BASE
        return self.enums[(code - ENUM_BASE) >> 1]

    def embedded_operands(self, opcode: int) -> tuple[tuple[int, ...], tuple[OperandDesc, ...]] | None:
        """The codes and grammar operands OpSpecConstantOp's operation number brings when
        it names `opcode`: that opcode's operands after its result type and result id;
        None when OpSpecConstantOp cannot take it (unknown, or without a result type)."""
        op = self.by_opcode.get(opcode)
        if op is None or not op.has_type:
            return None
        return op.codes[2:], op.operands[2:]

    def repetition_kinds(self, code: int, operand: OperandDesc) -> tuple[str, ...]:
        """The grammar kinds of one more repetition of a repeated operand, one per code of
        `repetition(code)`: a pair's two kinds (one, for OpPhi's pairs read as a plain
        list of ids), else the operand's own kind."""
        size = len(repetition(code) or ())
        kind = self.grammar.operand_kinds.get(operand.kind)
        if kind is not None and kind.category == "Composite":
            return tuple(kind.bases[:size])
        return (operand.kind,) * size

    def ext_instructions(self, ext: ExtInstSet) -> ExtInstructions:
        """The compiled instructions of an extended set of this grammar."""
        return self._ext[ext.import_name]


_PROGRAMS: dict[int, tuple[Grammar, Program]] = {}
_LOCK = threading.Lock()


def program_of(grammar: Grammar | None = None) -> Program:
    """The program of `grammar` (the installed one by default), compiled on first use
    and kept for the process's life."""
    grammar = grammar or load_grammar()
    entry = _PROGRAMS.get(id(grammar))
    if entry is None or entry[0] is not grammar:
        with _LOCK:
            entry = _PROGRAMS.get(id(grammar))
            if entry is None or entry[0] is not grammar:
                entry = _PROGRAMS[id(grammar)] = (grammar, Program(grammar))
    return entry[1]
