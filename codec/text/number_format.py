"""Numeric literals as SPIRV-Tools prints them.

Integers in decimal (signed ones sign-extended from the word). Floats of 32 and 64
bits: zero and normal values in decimal with enough digits to round-trip (C's `%.9g`
and `%.17g`); infinities, NaNs and subnormals in C hex-float form with every bit kept.
16-bit floats, and floats with an FPEncoding (bfloat16, the two 8-bit formats), are
always printed in hex-float form.
"""

from __future__ import annotations

import struct

from spvinspect.codec.float_formats import ENCODED_FORMATS, FLOAT_LAYOUTS
from spvinspect.codec.binary.model import NumberType

_UINT32, _FLOAT32 = struct.Struct("<I"), struct.Struct("<f")
_UINT64, _FLOAT64 = struct.Struct("<Q"), struct.Struct("<d")


def format_hex_float(bits: int, width: int, layout: tuple[int, int] | None = None) -> str:
    """`0x1.8p+128`, `-0x1.0002p+128`, `0x1p-149`: the C hex-float form of `bits`."""
    exp_bits, frac_bits = layout or FLOAT_LAYOUTS[width]
    sign = "-" if bits >> (width - 1) & 1 else ""
    biased = bits >> frac_bits & ((1 << exp_bits) - 1)
    fraction = bits & ((1 << frac_bits) - 1)
    bias = (1 << (exp_bits - 1)) - 1
    if biased == 0:
        if fraction == 0:
            return f"{sign}0x0p+0"
        exponent = 1 - bias
        while not fraction >> frac_bits & 1:
            fraction <<= 1
            exponent -= 1
        fraction &= (1 << frac_bits) - 1
    else:
        exponent = biased - bias
    digits = (frac_bits + 3) // 4
    text = f"{fraction << (digits * 4 - frac_bits):0{digits}x}".rstrip("0")
    mantissa = f"1.{text}" if text else "1"
    return f"{sign}0x{mantissa}p{exponent:+d}"


def format_float(bits: int, width: int) -> str:
    """A float literal as spirv-dis prints it."""
    if width == 32:
        exponent = bits >> 23 & 0xFF
        if exponent == 0xFF or (exponent == 0 and bits & 0x7FFFFF):
            return format_hex_float(bits, 32)
        return "%.9g" % _FLOAT32.unpack(_UINT32.pack(bits))[0]
    if width == 64:
        exponent = bits >> 52 & 0x7FF
        if exponent == 0x7FF or (exponent == 0 and bits & 0xFFFFFFFFFFFFF):
            return format_hex_float(bits, 64)
        return "%.17g" % _FLOAT64.unpack(_UINT64.pack(bits))[0]
    if width == 16:
        return format_hex_float(bits & 0xFFFF, 16)
    return str(bits)


def format_number(value: int, number_type: NumberType, num_words: int) -> str:
    """A typed literal (OpConstant, OpSwitch case) as spirv-dis prints it."""
    if number_type.category == "float":
        encoded = ENCODED_FORMATS.get(number_type.encoding)  # type: ignore[arg-type]
        if encoded is not None and encoded.width == number_type.width:
            # SPIRV-Tools prints every bit pattern of these by the same formula, the
            # all-ones exponent included.
            bits = value & ((1 << encoded.width) - 1)
            return format_hex_float(bits, encoded.width, (encoded.exp_bits, encoded.frac_bits))
        return format_float(value, 64 if num_words == 2 else number_type.width)
    if number_type.signed:
        width = 32 * num_words
        if value >> (width - 1):
            value -= 1 << width
    return str(value)
