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
