"""Operand plans: the grammar turned into the small integer codes the assembler runs on.

Each instruction's logical operands become a tuple of codes, reversed so that the
assembler can use it directly as a stack (the next operand last). Enumerated operand
kinds get a code of their own that indexes `EnumTable.kinds`. Plans are built once per
grammar and cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import NamedTuple

from codec.grammar import ExtInstSet, Grammar, OperandDesc, OperandKind, load_grammar

# Operand codes. Optional codes are odd-numbered neighbours of their required form
# where both exist, so that `code in OPTIONAL` stays a set lookup.
ID, TYPE_ID, RESULT_ID, OPT_ID, VAR_ID = 0, 1, 2, 3, 4
LIT_INT, OPT_LIT_INT, VAR_LIT_INT = 5, 6, 7
LIT_STR, OPT_LIT_STR = 8, 9
TYPED_NUM, OPT_TYPED_INT = 10, 11
VAR_LIT_INT_ID, VAR_ID_LIT_INT = 12, 13
EXT_INST_NUM, SPEC_OP_NUM, LIT_FLOAT = 14, 15, 16
OPT_CIV = 17
ENUM_BASE = 32
"""Enum codes: ENUM_BASE + 2 * index into `EnumTable.kinds`, plus 1 when optional."""
REPEATED_ENUM_BASE = 1 << 16
"""Codes of enum operands quantified `*` (OpSpecConstantCapabilitiesINTEL's
Capabilities): REPEATED_ENUM_BASE + the kind's required code; see `Plans.variadic`."""

VARIADIC = {
    VAR_ID: (OPT_ID,),
    VAR_LIT_INT: (OPT_LIT_INT,),
    VAR_LIT_INT_ID: (OPT_TYPED_INT, ID),
    VAR_ID_LIT_INT: (OPT_ID, LIT_INT),
}
"""What one more repetition of a variadic operand expects, in text order."""

FIXED_OPTIONAL = frozenset({OPT_ID, OPT_LIT_INT, OPT_LIT_STR, OPT_TYPED_INT, OPT_CIV})

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

CODE_NAMES = {
    ID: "an id", TYPE_ID: "a result type id", RESULT_ID: "a result id", OPT_ID: "an id",
    VAR_ID: "an id", LIT_INT: "an integer", OPT_LIT_INT: "an integer", VAR_LIT_INT: "an integer",
    LIT_STR: "a quoted string", OPT_LIT_STR: "a quoted string", TYPED_NUM: "a number",
    OPT_TYPED_INT: "an integer", EXT_INST_NUM: "an extended instruction name",
    SPEC_OP_NUM: "an opcode name without 'Op'", LIT_FLOAT: "a float", OPT_CIV: "a literal or an id",
}

TYPE_DECLARATION = "Type-Declaration"
VERSION_ANY = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class OpcodePlan:
    """How to assemble one opcode: its operand codes (as a stack) and its availability."""

    opname: str
    opcode: int
    stack: tuple[int, ...]
    has_result: bool
    has_type: bool
    declares_type: bool
    min_version: int
    last_version: int
    enabled_elsewhere: bool
    """True when an extension or capability enables it in any version."""
    fast: int
    """How many leading operands are plain ids (the assembler's short path)."""
    optional_after_fast: bool
    """True when the operand after those ids is optional or variadic."""

    def available(self, version: int) -> bool:
        """True when spirv-as accepts the opcode for a target of SPIR-V `version`."""
        return self.enabled_elsewhere or self.min_version <= version <= self.last_version


@dataclass(frozen=True, slots=True)
class EnumKind:
    """An enumerated operand kind, with each enumerant's parameters as a code stack."""

    kind: OperandKind
    is_mask: bool
    parameters: dict[int, tuple[int, ...]]
    """Enumerant value → its parameters' codes, as a stack."""
    parameter_bits: int = 0
    """For a mask, the bits whose enumerants have parameters."""


class EnumTable:
    """The enumerated kinds met so far, each with its code."""

    def __init__(self) -> None:
        self.kinds: list[EnumKind] = []
        self._index: dict[int, int] = {}
        self.repeated: dict[int, tuple[int, ...]] = {}
        """Repeated enum code → what one more repetition expects (the optional enum)."""

    def code(self, kind: OperandKind, optional: bool, local: dict[str, OperandKind]) -> int:
        """The code of `kind`, registering it (and its parameters' kinds) on first use."""
        key = id(kind)
        index = self._index.get(key)
        if index is None:
            index = len(self.kinds)
            self._index[key] = index
            params: dict[int, tuple[int, ...]] = {}
            is_mask = kind.category == "BitEnum"
            bits = 0
            for e in kind.enumerants:
                if e.parameters:
                    bits |= e.value
            self.kinds.append(EnumKind(kind, is_mask, params, bits if is_mask else 0))
            for e in kind.enumerants:
                if e.parameters:
                    params.setdefault(e.value, stack_of(e.parameters, self, local))
        return ENUM_BASE + 2 * index + int(optional)


def code_of(op: OperandDesc, enums: EnumTable, local: dict[str, OperandKind]) -> int:
    """The code of one grammar operand; `local` holds an extended set's own kinds."""
    codes = _SCALAR_CODES.get(op.kind)
    if codes is not None:
        return codes[{None: 0, "?": 1, "*": 2}[op.quantifier]]
    kind = local.get(op.kind) or load_grammar().operand_kinds[op.kind]
    if op.quantifier == "*":
        code = REPEATED_ENUM_BASE + enums.code(kind, False, local)
        enums.repeated[code] = (enums.code(kind, True, local),)
        return code
    return enums.code(kind, op.quantifier is not None, local)


def stack_of(operands, enums: EnumTable, local: dict[str, OperandKind]) -> tuple[int, ...]:
    """The operands' codes as a stack: the first operand last."""
    return tuple(code_of(o, enums, local) for o in reversed(operands))


FAST_CODES = frozenset({ID, TYPE_ID, RESULT_ID})
ID_CODES = frozenset({ID, TYPE_ID})
TAIL_NONE, TAIL_OPTIONAL, TAIL_IDS, TAIL_CASES, TAIL_OTHER = 0, 1, 2, 3, 4
"""After a quick shape's fixed run: nothing; only optional operands; a variadic id list
(`VAR_ID`, the Ids of OpAccessChain or OpFunctionCall); OpSwitch's (literal, label)
pairs; anything else."""
OP_SWITCH = 251
EXT_INST_OPCODES = frozenset({12, 4433})
"""OpExtInst and OpExtInstWithForwardRefsKHR, whose set id needs checking."""


def _fast_prefix(stack: tuple[int, ...], opcode: int) -> int:
    count = 0
    for code in reversed(stack):
        if code not in FAST_CODES:
            break
        count += 1
    return min(count, 2) if opcode in EXT_INST_OPCODES else count


def _tail(codes: tuple[int, ...], opcode: int) -> int:
    """The tail kind of the operand codes (in text order) after a quick shape's fixed part."""
    if not codes:
        return TAIL_NONE
    if codes == (VAR_ID,):
        return TAIL_IDS
    if codes == (VAR_LIT_INT_ID,) and opcode == OP_SWITCH:
        return TAIL_CASES
    if all(_is_optional(code) for code in codes):
        return TAIL_OPTIONAL
    return TAIL_OTHER


def _is_optional(code: int) -> bool:
    if code >= REPEATED_ENUM_BASE:
        return True
    return code in FIXED_OPTIONAL or code in VARIADIC or (code >= ENUM_BASE and code & 1 == 1)


def _version(text: str | None, default: int) -> int:
    if text is None:
        return default
    if text == "None":
        return VERSION_ANY
    major, minor = text.split(".")
    return (int(major) << 16) | (int(minor) << 8)


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


OP_EXT_INST_IMPORT = 11
CONSTANT_OPCODES = frozenset({43, 50})
"""OpConstant and OpSpecConstant, whose number's width comes from their type."""


def _simple(code: int, opcode: int) -> bool:
    """True for an operand code the quick paths encode."""
    if code >= ENUM_BASE:
        return code < REPEATED_ENUM_BASE and not code & 1
    if code == TYPED_NUM:
        return opcode in CONSTANT_OPCODES
    if code == EXT_INST_NUM:
        return opcode in EXT_INST_OPCODES
    return code in (ID, LIT_STR, LIT_INT)


def _quick_shape(plan: OpcodePlan) -> QuickShape | None:
    opcode = plan.opcode
    if plan.declares_type or opcode == OP_EXT_INST_IMPORT:
        return None
    text = plan.stack[::-1]
    head = (TYPE_ID, RESULT_ID) if plan.has_type else (RESULT_ID,) if plan.has_result else ()
    if text[: len(head)] != head:
        return None
    rest = text[len(head):]
    length = 0
    while length < len(rest) and _simple(rest[length], opcode):
        length += 1
    # OpExtInst's run ends at the instruction's name; the ids that follow are taken as
    # a list, which must then be just what that instruction needs.
    tail = TAIL_IDS if opcode in EXT_INST_OPCODES else _tail(rest[length:], opcode)
    if tail == TAIL_OTHER:
        return None
    fixed = (TYPE_ID,) * plan.has_type + rest[:length]
    codes = None if ID_CODES.issuperset(fixed) and tail != TAIL_CASES else fixed
    return QuickShape(opcode, len(fixed), plan.has_type, tail, codes)


@dataclass(frozen=True, slots=True)
class Plans:
    """Everything the assembler needs from the grammar, precomputed."""

    by_name: dict[str, OpcodePlan]
    enums: EnumTable
    ext_stacks: dict[str, dict[str, tuple[int, tuple[int, ...]]]]
    """Import name → extended instruction name → (number, operand stack)."""
    grammar: Grammar
    by_version: dict[int, dict[str, OpcodePlan]]
    quick_by_version: dict[int, tuple[dict[str, QuickShape], dict[str, QuickShape]]]

    def available(self, version: int) -> dict[str, OpcodePlan]:
        """The plans of the opcodes spirv-as accepts for SPIR-V `version`."""
        table = self.by_version.get(version)
        if table is None:
            table = {name: p for name, p in self.by_name.items() if p.available(version)}
            self.by_version[version] = table
        return table

    def quick(self, version: int) -> tuple[dict[str, QuickShape], dict[str, QuickShape]]:
        """The shapes of the opcodes the assembler's quick path takes for SPIR-V
        `version`: those with a result id, then those without."""
        tables = self.quick_by_version.get(version)
        if tables is None:
            with_result: dict[str, QuickShape] = {}
            without: dict[str, QuickShape] = {}
            for name, plan in self.available(version).items():
                shape = _quick_shape(plan)
                if shape is not None:
                    (with_result if plan.has_result else without)[name] = shape
            tables = self.quick_by_version[version] = (with_result, without)
        return tables

    def ext_instructions(self, ext: ExtInstSet) -> dict[str, tuple[int, tuple[int, ...]]]:
        """Name → (number, operand stack) for an extended set."""
        table = self.ext_stacks.get(ext.import_name)
        if table is None:
            table = {
                name: (desc.opcode, stack_of(desc.operands, self.enums, ext.operand_kinds))
                for name, desc in ext.by_name.items()
            }
            self.ext_stacks[ext.import_name] = table
        return table


def _availability(grammar: Grammar) -> dict[str, tuple[int, int, bool]]:
    """Opname → (first version, last version, enabled by extension or capability)."""
    table = {}
    for desc in grammar.instructions.values():
        first = _version(desc.version, 0x10000)
        last = _version(desc.last_version, VERSION_ANY)
        elsewhere = bool(desc.extensions or desc.capabilities)
        for name in (desc.opname, *desc.aliases):
            table[name] = (first, last, elsewhere)
    return table


@cache
def load_plans() -> Plans:
    """The plans of the installed grammar (built on first use)."""
    grammar = load_grammar()
    enums = EnumTable()
    availability = _availability(grammar)
    by_name = {}
    for name, desc in grammar.by_name.items():
        first, last, elsewhere = availability.get(name, (0x10000, VERSION_ANY, False))
        operands = desc.operands
        if desc.opcode in EXT_INST_OPCODES:
            # The extended instruction's own operands take the place of the grammar's
            # trailing `IdRef*`, as in spirv-as: Sqrt takes one id and no more.
            operands = operands[:-1]
        stack = stack_of(operands, enums, {})
        fast = _fast_prefix(stack, desc.opcode)
        by_name[name] = OpcodePlan(
            opname=name,
            opcode=desc.opcode,
            stack=stack,
            has_result=desc.has_result,
            has_type=desc.has_result_type,
            declares_type=desc.opclass == TYPE_DECLARATION and desc.has_result,
            min_version=first,
            last_version=last,
            enabled_elsewhere=elsewhere,
            fast=fast,
            optional_after_fast=fast < len(stack) and _is_optional(stack[-1 - fast]),
        )
    return Plans(by_name, enums, {}, grammar, {}, {})
