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
from codec.grammar import Grammar, OperandDesc, OperandKind

ID = 0
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


def _entry(kind: str, name: str, kinds: dict[str, OperandKind]) -> PlanEntry | None:
    if kind.startswith("Id"):
        return PlanEntry(kind, name, ID)
    if kind == "LiteralInteger":
        return PlanEntry(kind, name, LITERAL)
    if kind == "LiteralString":
        return PlanEntry(kind, name, STRING)
    if kind == "LiteralContextDependentNumber":
        return PlanEntry(kind, name, TYPED)
    if kind == "LiteralExtInstInteger":
        return PlanEntry(kind, name, EXT_NUMBER)
    ko = kinds.get(kind)
    if ko is None or not ko.is_enum:
        return None
    plain = [e for e in ko.enumerants if not e.parameters]
    if ko.category == "BitEnum":
        known = 0
        for e in plain:
            known |= e.value
        return PlanEntry(kind, name, MASK, known)
    return PlanEntry(kind, name, ENUM, frozenset(e.value for e in plain))


def simple_plan(operands: tuple[OperandDesc, ...], kinds: dict[str, OperandKind]) -> SimplePlan | None:
    """The plan of an operand list, or None when the fast path cannot decode it."""
    required: list[PlanEntry] = []
    optional: list[PlanEntry] = []
    repeated: PlanEntry | None = None
    trailing: PlanEntry | None = None
    for operand in operands:
        entry = _entry(operand.kind, operand.name, kinds)
        if entry is None or repeated is not None or trailing is not None:
            return None
        if entry.check in TRAILING:
            if operand.quantifier is not None or optional:
                return None
            trailing = entry
        elif operand.quantifier is None:
            if optional:
                return None
            required.append(entry)
        elif operand.quantifier == "?":
            optional.append(entry)
        else:
            repeated = entry
    kinds_in_order = [o.kind for o in operands]
    return SimplePlan(
        tuple(required),
        tuple(optional),
        repeated,
        trailing,
        kinds_in_order.index("IdResultType") if "IdResultType" in kinds_in_order else -1,
        kinds_in_order.index("IdResult") if "IdResult" in kinds_in_order else -1,
    )


def simple_plans(grammar: Grammar, excluded: frozenset[int]) -> dict[int, SimplePlan]:
    """A plan for every opcode whose operands the fast path can decode."""
    plans = {}
    for opcode, desc in grammar.instructions.items():
        if opcode in excluded:
            continue
        plan = simple_plan(desc.operands, grammar.operand_kinds)
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
    ids = tuple(k for k, e in enumerate(entries) if e.check == ID)
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
        PlanEntry("IdRef", "Selector", ID),
        PlanEntry("IdRef", "Default", ID),
        *(PlanEntry("LiteralInteger", "Target", CASE), PlanEntry("IdRef", "Target", ID)) * ((count - 3) // 2),
    )
    ids = tuple(k for k, e in enumerate(entries) if e.check == ID)
    return WordPlan(opcode, opname, entries, ids, (), (), -1, -1, -1, False, case_type=case_type)
