"""What each arithmetic op computes: one table per unit, each op written once with its source.

Op values and names are Mesa's (`codegen.h`, `disasm.c`; `lima.ops` holds the names). The
functions take float32 arrays (fp16 operands widened) and return float32; the caller rounds
to fp16. Sources: Mesa's ppir (`codegen.c` says which NIR op each value encodes, `lower.c`
how sel/sum/dFdx are fed) and the limadriver ISA notes. Where neither says what the
hardware does at the edges (NaN, the value of a true comparison), the choice is written here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

Binary = Callable[[np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True, slots=True)
class Semantics:
    """One op: its name, how many sources it reads, what it computes."""

    name: str
    sources: int
    compute: Callable[..., np.ndarray]


def _truth(values: np.ndarray) -> np.ndarray:
    return values != 0


def _bool(values: np.ndarray) -> np.ndarray:
    # A true comparison is 1.0, a false one 0.0: Mesa compiles `b2f` to nothing and uses
    # these results directly as 0.0/1.0 floats (vec_compare_bool's `vec4(lt)`).
    return values.astype(np.float32)


def _shift_scale(shift: int) -> np.float32:
    # Op values 0-7 of the multiply and accumulate units are `mul` / `add` with a result
    # shift (Mesa's shift_to_op: a 3-bit two's-complement exponent, so 5, 6, 7 are /8,
    # /4, /2 and 4 would be /16).
    return np.float32(2.0 ** (shift - 8 if shift >= 4 else shift))


def _shifted_mul(shift: int) -> Semantics:
    scale = _shift_scale(shift)
    return Semantics("mul" if shift == 0 else f"mul_shift{shift}", 2, lambda a, b: a * b * scale)


def _shifted_add(shift: int) -> Semantics:
    scale = _shift_scale(shift)
    return Semantics("add" if shift == 0 else f"add_shift{shift}", 2, lambda a, b: (a + b) * scale)


_SHARED: dict[str, Semantics] = {
    op.name: op
    for op in (
        Semantics("ne", 2, lambda a, b: _bool(a != b)),
        Semantics("gt", 2, lambda a, b: _bool(a > b)),
        Semantics("ge", 2, lambda a, b: _bool(a >= b)),
        Semantics("eq", 2, lambda a, b: _bool(a == b)),
        Semantics("min", 2, np.minimum),
        Semantics("max", 2, np.maximum),
        Semantics("mov", 1, lambda a: a),
    )
}
"""The ops several units have, each unit under values of its own (`_placed`)."""


def _placed(**values: int) -> dict[int, Semantics]:
    """A unit's op value -> op, for shared ops given as `name=value`."""
    return {value: _SHARED[name] for name, value in values.items()}


_MUL_LOGIC: dict[int, Semantics] = {
    # Logic ops read non-zero as true (not documented; Mesa feeds them 0.0/1.0 booleans).
    8: Semantics("not", 1, lambda a: _bool(~_truth(a))),
    9: Semantics("and", 2, lambda a, b: _bool(_truth(a) & _truth(b))),
    10: Semantics("or", 2, lambda a, b: _bool(_truth(a) | _truth(b))),
    11: Semantics("xor", 2, lambda a, b: _bool(_truth(a) ^ _truth(b))),
    **_placed(ne=12, gt=13, ge=14, eq=15, min=16, max=17, mov=31),
}

MUL_OPS: dict[int, Semantics] = {
    **{shift: _shifted_mul(shift) for shift in (0, 1, 2, 3, 5, 6, 7)},
    **_MUL_LOGIC,
}
"""vec4_mul and float_mul (`^v0` / `^s0`): the same table in both (Mesa's
ppir_codegen_vec4_mul_op / float_mul_op enums agree)."""

ACC_OPS: dict[int, Semantics] = {
    **{shift: _shifted_add(shift) for shift in (0, 1, 2, 3, 5, 6, 7)},
    4: Semantics("fract", 1, lambda a: a - np.floor(a)),
    12: Semantics("floor", 1, np.floor),
    13: Semantics("ceil", 1, np.ceil),
    **_placed(ne=8, gt=9, ge=10, eq=11, min=14, max=15, mov=31),
}
"""vec4_acc and float_acc ops that act lane by lane. `add` with a shift follows Mesa's
codegen (float_acc add uses shift_to_op). `sel` (23), `sum3`/`sum4` (16, 17) and
`dFdx`/`dFdy` (20, 21) read more than their own lane and are done by the unit itself."""

SEL, SUM3, SUM4, DFDX, DFDY = 23, 16, 17, 20, 21
ACC_SPECIAL = {SEL: "sel", SUM3: "sum3", SUM4: "sum4", DFDX: "dFdx", DFDY: "dFdy"}

_TWO_PI = np.float32(2.0 * np.pi)


def _safe(function: Callable[[np.ndarray], np.ndarray]) -> Callable[[np.ndarray], np.ndarray]:
    def run(a: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            return function(a)

    return run


COMBINE_OPS: dict[int, Semantics] = {
    # The combine unit's scalar functions, computed in float32 and rounded once: the
    # hardware's table-driven approximations are not documented, so fp16 rounding is all
    # that separates them from the exact function here.
    0: Semantics("rcp", 1, _safe(lambda a: np.float32(1.0) / a)),
    **_placed(mov=1),
    2: Semantics("sqrt", 1, _safe(np.sqrt)),
    3: Semantics("rsqrt", 1, _safe(lambda a: np.float32(1.0) / np.sqrt(a))),
    4: Semantics("exp2", 1, _safe(np.exp2)),
    5: Semantics("log2", 1, _safe(np.log2)),
    # sin/cos take turns, not radians: Mesa multiplies the argument by 1/(2*pi) before
    # them (the 0.159180 constant in front of every sin.s2/cos.s2 in its output).
    6: Semantics("sin", 1, _safe(lambda a: np.sin(a * _TWO_PI))),
    7: Semantics("cos", 1, _safe(lambda a: np.cos(a * _TWO_PI))),
}
"""Combine ops 8 and 9 (`atan`, `atan2` part 1) and the `atan_pt2` layout are not
emulated: what their partial results hold is not documented anywhere public."""


def branch_taken(a: np.ndarray, b: np.ndarray, gt: int, eq: int, lt: int) -> np.ndarray:
    """A branch's condition: the set bits of `cond_gt`, `cond_eq`, `cond_lt` compare arg0
    with arg1; all three set is unconditional (Mesa's codegen), NaN included."""
    if gt and eq and lt:
        return np.ones(a.shape, dtype=bool)
    taken = np.zeros(a.shape, dtype=bool)
    if gt:
        taken |= a > b
    if eq:
        taken |= a == b
    if lt:
        taken |= a < b
    return taken
