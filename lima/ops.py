"""Op codes of the arithmetic units: Mesa's names and source counts, and our spellings.

Keys are the raw op values. Mesa's tables (`disasm.c`) leave gaps that print as `opN`;
the multiply op values 1-7 also shift the result, which our syntax writes as the
Direct3D result-shift modifiers `_x2` … `_d2` (the shift is a 3-bit two's-complement
count, as Mesa's `shift_to_op` encodes it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache


@dataclass(frozen=True, slots=True)
class Op:
    """An op as Mesa names it, with how many sources Mesa prints."""

    name: str
    sources: int


_MUL_FAMILY = {
    8: Op("not", 1),
    9: Op("and", 2),
    10: Op("or", 2),
    11: Op("xor", 2),
    12: Op("ne", 2),
    13: Op("gt", 2),
    14: Op("ge", 2),
    15: Op("eq", 2),
    16: Op("min", 2),
    17: Op("max", 2),
    31: Op("mov", 1),
}
_ACC_FAMILY = {
    0: Op("add", 2),
    4: Op("fract", 1),
    8: Op("ne", 2),
    9: Op("gt", 2),
    10: Op("ge", 2),
    11: Op("eq", 2),
    12: Op("floor", 1),
    13: Op("ceil", 1),
    14: Op("min", 2),
    15: Op("max", 2),
    20: Op("dFdx", 2),
    21: Op("dFdy", 2),
    23: Op("sel", 2),
    31: Op("mov", 1),
}

OPS: dict[str, dict[int, Op]] = {
    "vec4_mul": {**{shift: Op("mul", 2) for shift in range(8)}, **_MUL_FAMILY},
    "float_mul": {**{shift: Op("mul", 2) for shift in range(8)}, **_MUL_FAMILY},
    "vec4_acc": {**_ACC_FAMILY, 16: Op("sum3", 1), 17: Op("sum4", 1)},
    "float_acc": dict(_ACC_FAMILY),
    "combine": {
        0: Op("rcp", 1),
        1: Op("mov", 1),
        2: Op("sqrt", 1),
        3: Op("rsqrt", 1),
        4: Op("exp2", 1),
        5: Op("log2", 1),
        6: Op("sin", 1),
        7: Op("cos", 1),
        8: Op("atan", 1),
        9: Op("atan2", 2),
    },
}
"""Per unit (field name), Mesa's op table."""

_RAW_OP = re.compile(r"op(0|[1-9][0-9]?)")
"""`opN`, the spelling of an op value nobody has named (two ASCII digits at most)."""

MUL_SHIFTS = {1: "x2", 2: "x4", 3: "x8", 4: "d16", 5: "d8", 6: "d4", 7: "d2"}
"""Multiply op value -> result-shift modifier of our syntax."""


def mesa_op(unit: str, value: int) -> Op | None:
    """Mesa's entry for op `value` of `unit`, or None where Mesa prints `opN`."""
    return OPS[unit].get(value)


def op_name(unit: str, value: int) -> str:
    """Our spelling of op `value` of `unit`: `mul_x2`, `fract`, `op18`."""
    if unit in ("vec4_mul", "float_mul") and value in MUL_SHIFTS:
        return f"mul_{MUL_SHIFTS[value]}"
    op = mesa_op(unit, value)
    return op.name if op else f"op{value}"


def op_sources(unit: str, value: int) -> int:
    """How many sources op `value` reads in our syntax; unknown ops show both."""
    op = mesa_op(unit, value)
    return op.sources if op else 2


@cache
def _values_by_name(unit: str) -> dict[str, int]:
    return {op_name(unit, value): value for value in range(32)}


def op_value(unit: str, name: str) -> int | None:
    """The op value our spelling `name` stands for in `unit`, or None."""
    value = _values_by_name(unit).get(name)
    if value is not None:
        return value
    match = _RAW_OP.fullmatch(name)
    return int(match.group(1)) if match else None
