"""Half-precision helpers of the emulator: rounding to fp16, swizzles and output modifiers.

The PP computes in IEEE-754 binary16 (the limadriver ISA notes; Mesa's ppir compiles every
float at mediump). Each op is computed in float32 from fp16 operands and rounded once to
fp16 with numpy's round-to-nearest-even: for one add or multiply of two fp16 values that
is the correctly rounded fp16 result.
"""

from __future__ import annotations

import numpy as np

HALF = np.float16
WIDE = np.float32


def half(values) -> np.ndarray:
    """`values` rounded to fp16 (overflow gives ±inf, as a conversion on the PP would)."""
    with np.errstate(over="ignore", invalid="ignore"):
        return np.asarray(values, dtype=WIDE).astype(HALF)


def wide(values: np.ndarray) -> np.ndarray:
    """fp16 operands widened to float32 for an op (exact)."""
    return values.astype(WIDE)


def swizzle(vectors: np.ndarray, code: int) -> np.ndarray:
    """(N, 4) vectors reordered by an 8-bit swizzle: 2 bits per output component, x lowest."""
    return vectors[:, [(code >> (2 * i)) & 3 for i in range(4)]]


def modify(values: np.ndarray, absolute: int, negate: int) -> np.ndarray:
    """Source modifiers: absolute value first, then negation (Mesa's disassembler prints
    `-abs(x)`, the order the hardware applies them)."""
    if absolute:
        values = np.abs(values)
    if negate:
        values = -values
    return values


OUTMODS = ("none", "sat", "pos", "int")


def outmod(values: np.ndarray, mode: int) -> np.ndarray:
    """An output modifier on float32 results (field `dest_modifier`, 2 bits).

    1 `sat` clamps to [0, 1] and 2 `pos` to >= 0 (limadriver ISA notes; Mesa's
    ppir_outmod_clamp_fraction / clamp_positive). 3 is what Mesa calls `round`, but Mesa's
    compiler uses it to lower `ftrunc` (and float-to-int conversions), so it is taken to
    truncate toward zero; NaN under `sat`/`pos` becomes 0 (not documented; our choice).
    """
    if mode == 1:
        return np.clip(np.nan_to_num(values, nan=0.0, posinf=1.0, neginf=0.0), 0.0, 1.0)
    if mode == 2:
        return np.maximum(np.nan_to_num(values, nan=0.0, posinf=np.inf), 0.0)
    if mode == 3:
        return np.trunc(values)
    return values


def mask_components(mask: int) -> list[int]:
    """Components a 4-bit write mask selects, x first."""
    return [i for i in range(4) if mask & (1 << i)]
