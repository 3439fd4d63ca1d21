"""Literal print/parse round trips for every integer and float width, NaN payloads
included, and batches of random literals checked against spirv-as, the encoded floats
(bfloat16, the 8-bit formats) among them."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st
from oracle import run_tool

from spvinspect.codec.asm.literals import encode_float, encode_integer
from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.float_formats import FLOAT_LAYOUTS

WIDTHS = (8, 16, 32, 64)


def words_of(bits: int, width: int) -> list[int]:
    """The words SPIR-V stores for a literal of `width` bits (sign-extended if asked)."""
    if width > 32:
        return [bits & 0xFFFFFFFF, bits >> 32]
    return [bits & 0xFFFFFFFF]


def hex_float(bits: int, width: int) -> str:
    """C hex-float text for any bit pattern, infinities and NaNs with exponent max-bias."""
    exp_bits, frac_bits = FLOAT_LAYOUTS[width]
    bias = (1 << (exp_bits - 1)) - 1
    sign = "-" if bits >> (width - 1) else ""
    exponent = (bits >> frac_bits) & ((1 << exp_bits) - 1)
    fraction = bits & ((1 << frac_bits) - 1)
    if exponent == 0:
        if fraction == 0:
            return f"{sign}0x0p+0"
        top = fraction.bit_length() - 1  # normalise a subnormal: 1.rest
        fraction = (fraction - (1 << top)) << (frac_bits - top)
        power = 1 - bias - (frac_bits - top)
    else:
        power = exponent - bias
    digits = -(-frac_bits // 4)
    text = f"{fraction << (4 * digits - frac_bits):0{digits}x}".rstrip("0")
    return f"{sign}0x1{'.' + text if text else ''}p{power:+d}"


def bits_value(bits: int, width: int) -> float:
    fmt = {16: "e", 32: "f", 64: "d"}[width]
    size = {16: "H", 32: "I", 64: "Q"}[width]
    return struct.unpack(f"<{fmt}", struct.pack(f"<{size}", bits))[0]


def decimal_text(bits: int, width: int) -> str:
    """Decimal text that names the value exactly enough for its width."""
    value = bits_value(bits, width)
    return f"{value:.9g}" if width == 32 else repr(value)


@given(st.sampled_from(WIDTHS), st.booleans(), st.data())
def test_integer_round_trip(width: int, signed: bool, data) -> None:
    low, high = (-(1 << (width - 1)), (1 << (width - 1)) - 1) if signed else (0, (1 << width) - 1)
    value = data.draw(st.integers(low, high))
    expected = words_of(value & ((1 << 64) - 1), width)
    assert encode_integer(str(value), width, signed) == (expected, None)
    hex_text = hex(value & ((1 << width) - 1))
    assert encode_integer(hex_text, width, signed) == (expected, None)


@given(st.sampled_from(WIDTHS), st.booleans(), st.integers(1, 1 << 70))
def test_integer_out_of_range_is_an_error(width: int, signed: bool, excess: int) -> None:
    too_big = (1 << (width - 1 if signed else width)) - 1 + excess
    words, error = encode_integer(str(too_big), width, signed)
    assert words is None and error


@given(st.sampled_from(sorted(FLOAT_LAYOUTS)), st.data())
def test_hex_float_round_trip_every_bit_pattern(width: int, data) -> None:
    bits = data.draw(st.integers(0, (1 << width) - 1))
    assert encode_float(hex_float(bits, width), width) == (words_of(bits, width), None)


@given(st.sampled_from(sorted(FLOAT_LAYOUTS)), st.data())
def test_decimal_float_round_trip(width: int, data) -> None:
    exp_bits, frac_bits = FLOAT_LAYOUTS[width]
    max_exponent = (1 << exp_bits) - 1
    bits = data.draw(st.integers(0, (1 << width) - 1).filter(
        lambda b: ((b >> frac_bits) & max_exponent) != max_exponent
    ))
    words, error = encode_float(decimal_text(bits, width), width)
    assert error is None
    assert words == words_of(bits, width)


def test_nan_payloads_from_the_syntax_guide() -> None:
    assert encode_float("0x1.8p+128", 32) == ([0x7FC00000], None)
    assert encode_float("-0x1.0002p+128", 32) == ([0xFF800100], None)


def test_random_literals_same_as_spirv_as() -> None:
    """Hundreds of random literals of every type in one module, against spirv-as."""
    rng = random.Random(1234)
    lines = [
        "OpCapability Shader", "OpCapability Int8", "OpCapability Int16", "OpCapability Int64",
        "OpCapability Float16", "OpCapability Float64", "OpMemoryModel Logical GLSL450",
    ]
    for width in WIDTHS:
        lines += [f"%i{width} = OpTypeInt {width} 1", f"%u{width} = OpTypeInt {width} 0"]
    for width in FLOAT_LAYOUTS:
        lines.append(f"%f{width} = OpTypeFloat {width}")
    for n in range(300):
        width = rng.choice(WIDTHS)
        value = rng.randrange(-(1 << (width - 1)), 1 << (width - 1))
        text = str(value) if n % 2 else hex(value & ((1 << width) - 1))
        lines.append(f"%c{n} = OpConstant %i{width} {text}")
        fwidth = rng.choice(sorted(FLOAT_LAYOUTS))
        bits = rng.getrandbits(fwidth)
        lines.append(f"%h{n} = OpConstant %f{fwidth} {hex_float(bits, fwidth)}")
        lines.append(f"%d{n} = OpConstant %f{fwidth} {rng.uniform(-1e4, 1e4):.{rng.randint(1, 20)}g}")
    text = "\n".join(lines)
    reference = run_tool("spirv-as", "-o", "-", "-", input=text.encode())
    assert reference.returncode == 0, reference.stderr.decode()
    ours = assemble(text).binary
    assert ours[12:] == reference.stdout[12:] and ours[:8] == reference.stdout[:8]


ENCODED_LITERALS = [
    "0", "-0", "1.2", "-3.3", "0.1", "240", "255", "0.0029", "0x1p+128", "0x1.8p+128",
    "0x1.03p+0", "0x1.fp+8", "0x1p-9", "0x1p-16", "0x1p-149",
]
"""Where the formats round, go subnormal or clamp (in range for all three)."""
NEAR_THE_TOP = {
    "BFloat16KHR": ["1e38", "3.4e38", "61440", "65535"],
    "Float8E4M3EXT": ["256", "300", "448", "-448"],
    "Float8E5M2EXT": ["256", "448", "57345", "61440", "65535", "1.6e-5"],
}
"""Each format's largest values, where an 8-bit one saturates."""
TOO_LARGE = {"BFloat16KHR": "1e39", "Float8E4M3EXT": "449", "Float8E5M2EXT": "65536"}


@pytest.mark.parametrize(("encoding", "width"), [
    ("BFloat16KHR", 16), ("Float8E4M3EXT", 8), ("Float8E5M2EXT", 8),
])
def test_encoded_float_literals_same_as_spirv_as(encoding: str, width: int) -> None:
    """bfloat16 is a 32-bit float's top half; the 8-bit formats cut a 32-bit float toward
    zero and saturate or fail past their range, as spirv-as does."""
    rng = random.Random(width)
    texts = ENCODED_LITERALS + NEAR_THE_TOP[encoding]
    texts += [f"{rng.uniform(-400, 400):.{rng.randint(1, 8)}g}" for _ in range(100)]
    texts += [float.hex(rng.uniform(-100, 100) * 2.0 ** rng.randint(-20, 0)) for _ in range(50)]
    lines = ["OpCapability Shader", f"%t = OpTypeFloat {width} {encoding}"]
    lines += [f"%c{n} = OpConstant %t {text}" for n, text in enumerate(texts)]
    text = "\n".join(lines)
    reference = run_tool("spirv-as", "-o", "-", "-", input=text.encode())
    assert reference.returncode == 0, reference.stderr.decode()
    ours = assemble(text).binary
    assert ours[12:] == reference.stdout[12:] and ours[:8] == reference.stdout[:8]
    too_large = "\n".join(lines[:2]) + f"\n%c = OpConstant %t {TOO_LARGE[encoding]}"
    assert run_tool("spirv-as", "-o", "-", "-", input=too_large.encode()).returncode != 0
    assert assemble(too_large).diagnostics[0].line == 3
