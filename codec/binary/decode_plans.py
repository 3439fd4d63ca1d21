"""The decoder's fast path: instructions whose operands map one to one onto their words.

Most instructions of a real module (arithmetic, loads, stores, branches, phis, access
chains, names, constants, decorations without parameters) have operand programs
(`codec.program`) made only of ids, plain literal integers and enums, ending in at most
one repeated operand (an id, a literal, a pair of them), or in a string or a typed
number that takes the remaining words. The plans are compiled from those programs, so
the grammar's quirks the program settles (OpPhi's pairs as a plain list of ids,
OpSwitch's literals as wide as its selector, an extended instruction's own operands)
are the fast path's too. For an instruction's first word (opcode and word count) a
`WordPlan` says what each operand word is. The fast path takes an instruction only
when the plan vouches for every word: ids not 0 and below the bound, enum values known
and without parameters, the string's nul in its last word, the typed number as wide as
its type says. Anything else (and every diagnostic) is left to the general decoder,
which gives the same operands for what the plan accepts.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from spvinspect.codec.binary.model import NumberType
from spvinspect.codec.grammar import OperandDesc
from spvinspect.codec.program import (
    ENUM_BASE, EXT_INST_NUM, ID, LIT_INT, LIT_STR, OPT_ID, OPT_LIT_INT, OPT_TYPED_INT, RESULT_ID, TYPE_ID,
    TYPED_NUM, Program, is_optional, repetition,
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
    repeated: tuple[PlanEntry, ...]
    """What one more repetition of the last operand holds (empty when none repeats)."""
    trailing: PlanEntry | None
    """A STRING or TYPED operand last, taking the words the others leave."""
    type_index: int
    """Index of the IdResultType operand, or -1."""
    result_index: int
    """Index of the IdResult operand, or -1."""
    takes_case_type: bool
    """Some literals are as wide as a selector's type (OpSwitch's case literals): a word
    plan needs that type."""


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
    """Every operand word is an id: the decoder checks them with `0 in` and `max`."""
    ext_inst_set: str = ""
    """For an extended instruction: the import name of its set …"""
    ext_opname: str = ""
    """… and the instruction's name in it."""
    case_type: NumberType | None = None
    """For OpSwitch: the selector's type, which its case literals (CASE) take."""


def _entry(code: int, kind: str, name: str, program: Program) -> PlanEntry | None:
    """The plan entry of one operand word of `code`, or None when the fast path cannot
    check it word by word."""
    check = _CHECKS.get(code)
    if check is not None:
        return PlanEntry(kind, name, check)
    if code < ENUM_BASE:
        return None
    enum = program.enum(code)
    if enum.is_mask:
        known = 0
        for value in enum.plain.values():
            known |= value
        return PlanEntry(kind, name, MASK, known)
    return PlanEntry(kind, name, ENUM, frozenset(enum.plain.values()))


_CHECKS = {
    ID: ID_CHECK, TYPE_ID: ID_CHECK, RESULT_ID: ID_CHECK, OPT_ID: ID_CHECK,
    LIT_INT: LITERAL, OPT_LIT_INT: LITERAL, OPT_TYPED_INT: CASE,
    LIT_STR: STRING, TYPED_NUM: TYPED, EXT_INST_NUM: EXT_NUMBER,
}
"""The program's codes the fast path checks word by word, and how."""


def simple_plan(codes: tuple[int, ...], operands: tuple[OperandDesc, ...], program: Program) -> SimplePlan | None:
    """The plan of an operand program (`codes`, with the grammar's `operands` they stand
    for), or None when the fast path cannot decode it."""
    required: list[PlanEntry] = []
    optional: list[PlanEntry] = []
    repeated: tuple[PlanEntry, ...] = ()
    trailing: PlanEntry | None = None
    for code, operand in zip(codes, operands):
        if repeated or trailing is not None:
            return None
        more = repetition(code)
        if more is not None:
            kinds = program.repetition_kinds(code, operand)
            repeated = tuple(_entry(c, kind, operand.name, program) for c, kind in zip(more, kinds))  # type: ignore[misc]
            if None in repeated:
                return None
            continue
        entry = _entry(code, operand.kind, operand.name, program)
        if entry is None:
            return None
        if entry.check in TRAILING:
            if optional:
                return None
            trailing = entry
        elif not is_optional(code):
            if optional:
                return None
            required.append(entry)
        else:
            optional.append(entry)
    return SimplePlan(
        tuple(required),
        tuple(optional),
        repeated,
        trailing,
        codes.index(TYPE_ID) if TYPE_ID in codes else -1,
        codes.index(RESULT_ID) if RESULT_ID in codes else -1,
        any(e.check == CASE for e in repeated),
    )


def word_plan(
    opcode: int,
    opname: str,
    plan: SimplePlan,
    count: int,
    ext_inst_set: str = "",
    ext_opname: str = "",
    case_type: NumberType | None = None,
) -> WordPlan | None:
    """The plan for an instruction of `count` words, or None when no operand list of the
    plan has that many words. A plan that `takes_case_type` needs `case_type`, and takes
    only 32-bit integer selectors, whose case literals are one word any value of which
    fits."""
    if plan.takes_case_type and (case_type is None or case_type.category != "int" or case_type.width != 32):
        return None
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
            size = len(plan.repeated)
            if not size or (n - len(entries)) % size:
                return None
            entries = entries + plan.repeated * ((n - len(entries)) // size)
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
        case_type if plan.takes_case_type else None,
    )


def words_fit(plan: WordPlan, operand_words: list[int], bound: int) -> bool:
    """True when every operand word is what the plan says (the trailing operand, which
    needs more than the words, is checked by its decoder). (The decoder checks a plan
    whose words are all ids itself, with `0 in` and `max`.)"""
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
    """The string that fills `words[start:end]` exactly (its nul in the last word, and
    only nuls after it, as the specification requires), or None."""
    raw = words[start:end].tobytes()
    nul = raw.find(b"\0")
    if nul < 0 or nul // 4 + 1 != end - start or raw[nul:].strip(b"\0"):
        return None
    return raw[:nul].decode("utf-8", "surrogateescape")
