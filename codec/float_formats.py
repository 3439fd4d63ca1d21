"""The float formats of SPIR-V literals, in one place: IEEE widths and the FPEncoding
formats (OpTypeFloat's optional third operand)."""

from __future__ import annotations

from typing import NamedTuple

FLOAT_LAYOUTS = {16: (5, 10), 32: (8, 23), 64: (11, 52)}
"""IEEE width → (exponent bits, fraction bits)."""


class EncodedFormat(NamedTuple):
    """A float format named by an FPEncoding enumerant."""

    name: str
    """The friendly name spirv-dis gives its OpTypeFloat."""
    width: int
    exp_bits: int
    frac_bits: int


BFLOAT16, FLOAT8_E4M3, FLOAT8_E5M2 = 0, 4214, 4215
"""FPEncoding values: BFloat16KHR, Float8E4M3EXT, Float8E5M2EXT."""

ENCODED_FORMATS = {
    BFLOAT16: EncodedFormat("bfloat16", 16, 8, 7),
    FLOAT8_E4M3: EncodedFormat("fp8e4m3", 8, 4, 3),
    FLOAT8_E5M2: EncodedFormat("fp8e5m2", 8, 5, 2),
}


def special_float(bits: int, width: int, encoding: int | None = None) -> str:
    """What a float's bits are when they are no finite number: `+Inf`, `-Inf`, `NaN
    (quiet)`, `NaN (signalling, payload 0x1)`; '' for a finite value. IEEE widths, or an
    FPEncoding format (Float8E4M3EXT has no infinities; its only NaN is all ones)."""
    encoded = ENCODED_FORMATS.get(encoding) if encoding is not None else None
    if encoded is not None:
        width, exp_bits, frac_bits = encoded.width, encoded.exp_bits, encoded.frac_bits
    elif width in FLOAT_LAYOUTS:
        exp_bits, frac_bits = FLOAT_LAYOUTS[width]
    else:
        return ""
    bits &= (1 << width) - 1
    negative = bool(bits >> (width - 1))
    exponent = bits >> frac_bits & ((1 << exp_bits) - 1)
    fraction = bits & ((1 << frac_bits) - 1)
    if exponent != (1 << exp_bits) - 1:
        return ""
    if encoding == FLOAT8_E4M3:
        if fraction != (1 << frac_bits) - 1:
            return ""
        return "NaN (sign bit set)" if negative else "NaN"
    if fraction == 0:
        return "-Inf" if negative else "+Inf"
    quiet_bit = 1 << (frac_bits - 1)
    notes = ["quiet" if fraction & quiet_bit else "signalling"]
    if negative:
        notes.append("sign bit set")
    if fraction & ~quiet_bit:
        notes.append(f"payload 0x{fraction & ~quiet_bit:x}")
    return f"NaN ({', '.join(notes)})"
