"""Enumerated operands in assembly: a named enumerant (`Location`) or a mask of named
bits (`Unroll|DependencyLength`), and the parameters they bring."""

from __future__ import annotations

import difflib

from spvinspect.codec.asm.errors import AssemblyError, shown
from spvinspect.codec.program import EnumKind


def encode_enum(enum: EnumKind, tok: str, i: int, stack: list[int]) -> int:
    """The value of enum word `tok` (word `i` of the text); pushes the codes of the
    parameters it brings onto the operand stack `stack` (the next operand last).
    Raises AssemblyError when a name is not one of the kind's."""
    by_name = enum.kind.by_name
    if enum.is_mask and tok:
        value = 0
        for part in tok.split("|"):
            e = by_name.get(part)
            if e is None:
                raise AssemblyError(not_enumerant(part or tok, enum), ("start", i))
            value |= e.value
        params = enum.parameters
        if params and value & enum.parameter_bits:
            bit = 1 << 31  # the lowest bit's parameters come first: push them last
            while bit:
                if value & bit and bit in params:
                    stack.extend(reversed(params[bit]))
                bit >>= 1
        return value
    e = by_name.get(tok)
    if e is None:
        raise AssemblyError(not_enumerant(tok, enum), ("start", i))
    params = enum.parameters.get(e.value)
    if params:
        stack.extend(reversed(params))
    return e.value


def plain_enum_value(enum: EnumKind, tok: str) -> int | None:
    """The value of enum word `tok` when it names enumerants that bring no parameters
    (the quick paths' case); None otherwise."""
    plain = enum.plain
    if not enum.is_mask:
        return plain.get(tok)
    value = 0
    for part in tok.split("|"):
        bit = plain.get(part)
        if bit is None:
            return None
        value |= bit
    return value


def not_enumerant(name: str, enum: EnumKind) -> str:
    """'Foo' is not a Decoration — did you mean …?"""
    close = difflib.get_close_matches(name, list(enum.kind.by_name), n=1)
    hint = f" — did you mean '{close[0]}'?" if close else ""
    return f"'{shown(name)}' is not a {enum.kind.kind}{hint}"
