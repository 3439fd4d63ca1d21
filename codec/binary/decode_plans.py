"""The decoder's fast path: instructions whose operands map one to one onto their words.

Most instructions of a real module (arithmetic, loads, stores, branches, access chains,
names, constants, decorations without parameters) have operand lists made only of ids,
plain literal integers and enums, ending in at most one `*` operand, or in a string or a
typed number that takes the remaining words. For an instruction's first word (opcode
and word count) a `WordPlan` says what each operand word is. The fast path takes an
instruction only when the plan vouches for every word: ids not 0 and below the bound,
enum values known and without parameters, the string's nul in its last word, the typed
number as wide as its type says. Anything else (and every diagnostic) is left to the
general decoder, which gives the same operands for what the plan accepts.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from codec.binary.model import NumberType
from codec.grammar import OperandDesc
from codec.program import (
    ENUM_BASE, EXT_INST_NUM, ID, LIT_INT, LIT_STR, OPT_ID, OPT_LIT_INT, REPEATED_ENUM_BASE, RESULT_ID,
    TYPE_ID, TYPED_NUM, VAR_ID, VAR_LIT_INT, Program,
)

ID_CHECK = 0
LITERAL = 1
ENUM = 2
MASK = 3
STRING = 4
TYPED = 5
"""A number whose width its result type gives (OpConstant's value)."""
EXT_NUMBER = 6
"""An extended instruction's number: the plan is the one of that instruction."""
CASE = 7
"""An OpSwitch case literal of one word, as wide as the selector's type says."""

TRAILING = frozenset({STRING, TYPED})
"""Checks whose operand takes every remaining word."""

class PlanEntry(NamedTuple):
    """How one operand is checked: an id, a literal, an enum value or mask, a string, a
    typed number."""

    kind: str
    name: str
    check: int
    valid: frozenset[int] | int = 0
    """ENUM: the values without parameters; MASK: the bits without parameters."""


class SimplePlan(NamedTuple):
    """The operands of an opcode the fast path can decode, as the grammar lists them."""

    required: tuple[PlanEntry, ...]
    optional: tuple[PlanEntry, ...]
    repeated: PlanEntry | None
    trailing: PlanEntry | None
    """A STRING or TYPED operand last, taking the words the others leave."""
    type_index: int
    """Index of the IdResultType operand, or -1."""
    result_index: int
    """Index of the IdResult operand, or -1."""


class WordPlan(NamedTuple):
    """The fast path for one first word: what each operand word is."""

    opcode: int
    opname: str
    entries: tuple[PlanEntry, ...]
    """One entry per operand; a trailing one covers every word from its index on."""
    ids: tuple[int, ...]
    """Word indexes (from the first operand word) of the ids."""
    enums: tuple[tuple[int, frozenset[int]], ...]
    masks: tuple[tuple[int, int], ...]
    trailing: int
    """Word index of the trailing string or typed number, or -1."""
    type_index: int
    result_index: int
    all_ids: bool
    """Every operand word is an id: checked with `min` and `max`."""
    ext_inst_set: str = ""
    """For an extended instruction: the import name of its set …"""
    ext_opname: str = ""
    """… and the instruction's name in it."""
    case_type: NumberType | None = None
    """For OpSwitch: the selector's type, which its case literals take."""


def _entry(code: int, operand: OperandDesc, program: Program) -> tuple[PlanEntry, int] | None:
    """The plan entry of an operand of `code`, with its quantifier (0 required, 1
    optional, 2 repeated); None when the fast path cannot check it word by word."""
    name = operand.name
    check = _CHECKS.get(code)
    if check is not None:
        quantifier = _QUANTIFIERS.get(code, 0)
        kind = program.repetition_kinds(code, operand)[0] if quantifier == 2 else operand.kind
        return PlanEntry(kind, name, check), quantifier
    if code < ENUM_BASE:
        return None
    enum = program.enum(code)
    quantifier = 2 if code >= REPEATED_ENUM_BASE else code & 1
    kind = operand.kind
    if enum.is_mask:
        known = 0
        for value in enum.plain.values():
            known |= value
        return PlanEntry(kind, name, MASK, known), quantifier
    return PlanEntry(kind, name, ENUM, frozenset(enum.plain.values())), quantifier


_CHECKS = {
    ID: ID_CHECK, TYPE_ID: ID_CHECK, RESULT_ID: ID_CHECK, OPT_ID: ID_CHECK, VAR_ID: ID_CHECK,
    LIT_INT: LITERAL, OPT_LIT_INT: LITERAL, VAR_LIT_INT: LITERAL,
    LIT_STR: STRING, TYPED_NUM: TYPED, EXT_INST_NUM: EXT_NUMBER,
}
"""The program's codes the fast path checks word by word, and how."""
_QUANTIFIERS = {OPT_ID: 1, OPT_LIT_INT: 1, VAR_ID: 2, VAR_LIT_INT: 2}


def simple_plan(codes: tuple[int, ...], operands: tuple[OperandDesc, ...], program: Program) -> SimplePlan | None:
    """The plan of an operand program (`codes`, with the grammar's `operands` they stand
    for), or None when the fast path cannot decode it."""
    required: list[PlanEntry] = []
    optional: list[PlanEntry] = []
    repeated: PlanEntry | None = None
    trailing: PlanEntry | None = None
    for code, operand in zip(codes, operands):
        found = _entry(code, operand, program)
        if found is None or repeated is not None or trailing is not None:
            return None
        entry, quantifier = found
        if entry.check in TRAILING:
            if quantifier or optional:
                return None
            trailing = entry
        elif quantifier == 0:
            if optional:
                return None
            required.append(entry)
        elif quantifier == 1:
            optional.append(entry)
        else:
            repeated = entry
    return SimplePlan(
        tuple(required),
        tuple(optional),
        repeated,
        trailing,
        codes.index(TYPE_ID) if TYPE_ID in codes else -1,
        codes.index(RESULT_ID) if RESULT_ID in codes else -1,
    )


def simple_plans(program: Program, excluded: frozenset[int]) -> dict[int, SimplePlan]:
    """A plan for every opcode whose operands the fast path can decode."""
    plans = {}
    for opcode, op in program.by_opcode.items():
        if opcode in excluded:
            continue
        plan = simple_plan(op.codes, op.operands, program)
        if plan is not None:
            plans[opcode] = plan
    return plans


def word_plan(
    opcode: int, opname: str, plan: SimplePlan, count: int, ext_inst_set: str = "", ext_opname: str = ""
) -> WordPlan | None:
    """The plan for an instruction of `count` words, or None when no operand list of the
    plan has that many words."""
    n = count - 1
    entries = plan.required
    if plan.trailing is not None:
        if n <= len(entries):
            return None
        entries = entries + (plan.trailing,)
    elif n < len(entries):
        return None
    else:
        entries = entries + plan.optional
        if n > len(entries):
            if plan.repeated is None:
                return None
            entries = entries + (plan.repeated,) * (n - len(entries))
        entries = entries[:n]
    ids = tuple(k for k, e in enumerate(entries) if e.check == ID_CHECK)
    return WordPlan(
        opcode,
        opname,
        entries,
        ids,
        tuple((k, e.valid) for k, e in enumerate(entries) if e.check == ENUM),  # type: ignore[misc]
        tuple((k, e.valid) for k, e in enumerate(entries) if e.check == MASK),  # type: ignore[misc]
        len(plan.required) if plan.trailing is not None else -1,
        plan.type_index,
        plan.result_index,
        0 < len(ids) == n,
        ext_inst_set,
        ext_opname,
    )


def words_fit(plan: WordPlan, operand_words: list[int], bound: int) -> bool:
    """True when every operand word is what the plan says (the trailing operand, which
    needs more than the words, is checked by its decoder)."""
    if plan.all_ids:
        return min(operand_words) != 0 and max(operand_words) < bound
    for k in plan.ids:
        word = operand_words[k]
        if not word or word >= bound:
            return False
    for k, valid in plan.enums:
        if operand_words[k] not in valid:
            return False
    for k, known in plan.masks:
        if operand_words[k] & ~known:
            return False
    return True


def trailing_string(words: array, start: int, end: int) -> str | None:
    """The string that fills `words[start:end]` exactly (its nul in the last word), or
    None."""
    raw = words[start:end].tobytes()
    nul = raw.find(b"\0")
    if nul < 0 or nul // 4 + 1 != end - start:
        return None
    return raw[:nul].decode("utf-8", "surrogateescape")


def switch_plan(opcode: int, opname: str, count: int, case_type: NumberType) -> WordPlan | None:
    """OpSwitch's plan: selector, default, then (case literal, label) pairs, for a selector
    type whose literals take one word; None for other types or an unpaired literal."""
    if case_type.category != "int" or not 0 < case_type.width <= 32 or (count - 3) % 2:
        return None
    entries = (
        PlanEntry("IdRef", "Selector", ID_CHECK),
        PlanEntry("IdRef", "Default", ID_CHECK),
        *(PlanEntry("LiteralInteger", "Target", CASE), PlanEntry("IdRef", "Target", ID_CHECK)) * ((count - 3) // 2),
    )
    ids = tuple(k for k, e in enumerate(entries) if e.check == ID_CHECK)
    return WordPlan(opcode, opname, entries, ids, (), (), -1, -1, -1, False, case_type=case_type)
