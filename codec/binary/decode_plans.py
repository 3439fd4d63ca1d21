"""The decoder's fast path: instructions whose operands are all plain single words.

Most instructions of a real module (arithmetic, loads, stores, branches, access
chains, decorations without parameters) have operand lists made only of ids, plain
literal integers and enums without parameters, ending in at most one `*` operand.
For those, a precomputed plan maps each word to its operand directly. Anything the
plan cannot vouch for (a word count outside its range, id 0 or past the bound, an
unknown enumerant) returns None and the general decoder handles it, diagnostics and
all.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from codec.grammar import Grammar, InstructionDesc, OperandKind
from codec.binary.model import Operand

_new = tuple.__new__

ID = 0
LITERAL = 1
ENUM = 2


class PlanEntry(NamedTuple):
    """How one operand word is checked: as an id, a literal, or an enum value."""

    kind: str
    name: str
    check: int
    valid: frozenset[int] | int = 0
    """For ValueEnum: the known values; for BitEnum: the mask of known bits (as int)."""
    is_mask: bool = False


class SimplePlan(NamedTuple):
    """The operands of an instruction the fast path can decode."""

    required: tuple[PlanEntry, ...]
    optional: tuple[PlanEntry, ...]
    repeated: PlanEntry | None
    type_index: int
    """Index of the IdResultType operand, or -1."""
    result_index: int
    """Index of the IdResult operand, or -1."""


def _entry(kind: str, name: str, kinds: dict[str, OperandKind]) -> PlanEntry | None:
    if kind.startswith("Id"):
        return PlanEntry(kind, name, ID)
    if kind == "LiteralInteger":
        return PlanEntry(kind, name, LITERAL)
    ko = kinds.get(kind)
    if ko is None or not ko.is_enum or any(e.parameters for e in ko.enumerants):
        return None
    if ko.category == "BitEnum":
        known = 0
        for e in ko.enumerants:
            known |= e.value
        return PlanEntry(kind, name, ENUM, known, True)
    return PlanEntry(kind, name, ENUM, frozenset(ko.by_value))


def _plan(desc: InstructionDesc, kinds: dict[str, OperandKind]) -> SimplePlan | None:
    required: list[PlanEntry] = []
    optional: list[PlanEntry] = []
    repeated: PlanEntry | None = None
    for operand in desc.operands:
        entry = _entry(operand.kind, operand.name, kinds)
        if entry is None or repeated is not None:
            return None
        if operand.quantifier is None:
            if optional:
                return None
            required.append(entry)
        elif operand.quantifier == "?":
            optional.append(entry)
        else:
            repeated = entry
    kinds_in_order = [o.kind for o in desc.operands]
    return SimplePlan(
        tuple(required),
        tuple(optional),
        repeated,
        kinds_in_order.index("IdResultType") if "IdResultType" in kinds_in_order else -1,
        kinds_in_order.index("IdResult") if "IdResult" in kinds_in_order else -1,
    )


def simple_plans(grammar: Grammar, excluded: frozenset[int]) -> dict[int, SimplePlan]:
    """A plan for every opcode whose operands are all plain single words."""
    plans = {}
    for opcode, desc in grammar.instructions.items():
        if opcode in excluded:
            continue
        plan = _plan(desc, grammar.operand_kinds)
        if plan is not None:
            plans[opcode] = plan
    return plans


def decode_simple(
    plan: SimplePlan, words: array, offset: int, count: int, bound: int
) -> tuple[Operand, ...] | None:
    """The operands, or None when the general decoder must look at this instruction."""
    n = count - 1
    required = plan.required
    fixed = len(required)
    if n < fixed:
        return None
    entries = required + plan.optional
    if n > len(entries):
        if plan.repeated is None:
            return None
        entries = entries + (plan.repeated,) * (n - len(entries))
    operands = []
    append = operands.append
    position = offset + 1
    for entry in entries[:n]:
        word = words[position]
        check = entry.check
        if check == ID:
            if word == 0 or word >= bound:
                return None
        elif check == ENUM:
            if entry.is_mask:
                if word & ~entry.valid:  # type: ignore[operator]
                    return None
            elif word not in entry.valid:  # type: ignore[operator]
                return None
        append(_new(Operand, (entry.kind, entry.name, word, position, 1, None)))
        position += 1
    return tuple(operands)
