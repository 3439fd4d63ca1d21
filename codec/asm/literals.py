"""Numeric and string literals of SPIR-V assembly, parsed exactly as spirv-as parses them.

Every parser returns `(words, None)` on success or `(None, message)` on failure and never
raises. Integers accept what C++ `istream >> std::setbase(0)` accepts (decimal, `0x` hex,
leading-zero octal, an optional sign); hex text for a signed type sign-extends. Floats are
C decimal or hex floats (`0x1.8p+3`, lowercase `p` only); hex floats keep every NaN bit,
decimal 16-bit floats round to 32 bits first and then toward zero, as SPIRV-Tools does.
"""

from __future__ import annotations

from spvinspect.codec.asm.errors import shown

import math
import re
import struct
from decimal import Decimal
from fractions import Fraction

from spvinspect.codec.float_formats import BFLOAT16, ENCODED_FORMATS, FLOAT8_E4M3, FLOAT8_E5M2, FLOAT_LAYOUTS

_INTEGER = re.compile(r"([+-]?)(?:0[xX]([0-9a-fA-F]+)|(0[0-7]*)|([1-9][0-9]*))\Z")
_DECIMAL_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\Z")
_HEX_FLOAT = re.compile(r"0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?p([+-]?)([0-9]+)\Z")

INT64_MIN = -(1 << 63)
UINT64_MAX = (1 << 64) - 1
TOO_LARGE = 1 << 64
"""What a decimal of more than 20 digits reads as: past every literal's range, so
rejected as too large, without converting digits that int() refuses past 4,300."""


def parse_c_integer(text: str) -> int | None:
    """The value of `text` read like C++ `istream >> std::setbase(0)`, or None; a
    decimal past 64 bits may read as `TOO_LARGE`."""
    m = _INTEGER.match(text)
    if m is None:
        return None
    sign, hex_digits, octal, decimal = m.groups()
    if hex_digits is not None:
        value = int(hex_digits, 16)
    elif octal is not None:
        value = int(octal, 8)
    elif len(decimal) > 20:  # 20 digits hold every 64-bit number
        value = TOO_LARGE
    else:
        value = int(decimal)
    return -value if sign == "-" else value


def parse_u32(text: str) -> int | None:
    """An unsigned 32-bit number (ids, `!<integer>`, OpUnknown counts), or None."""
    value = parse_c_integer(text)
    if value is None or text.startswith("-") or value > 0xFFFFFFFF:
        return None
    return value


def id_number(name: str) -> int | None:
    """The number an id name like `12` (or `0x1f`) stands for, or None for a real name."""
    if not "0" <= name[:1] <= "9":
        return None
    if name.isascii() and name.isdigit() and name[0] != "0":
        value = int(name) if len(name) <= 10 else TOO_LARGE
        return value if value <= 0xFFFFFFFF else None
    return parse_u32(name)


def parse_u16(text: str) -> int | None:
    """An unsigned 16-bit number (OpUnknown's opcode and word count), or None."""
    value = parse_u32(text)
    return value if value is not None and value <= 0xFFFF else None


def _split64(bits: int, width: int) -> list[int]:
    if width > 32:
        return [bits & 0xFFFFFFFF, (bits >> 32) & 0xFFFFFFFF]
    return [bits & 0xFFFFFFFF]


def encode_integer(text: str, width: int, signed: bool) -> tuple[list[int] | None, str | None]:
    """Words of an integer literal of a `width`-bit (un)signed type, or an error."""
    if width > 64:
        return None, f"{width}-bit integer literals are not supported"
    negative = text.startswith("-")
    if negative and not signed:
        return None, f"expected an unsigned integer, found negative '{shown(text)}'"
    value = parse_c_integer(text)
    if value is None or (negative and value < INT64_MIN) or value > UINT64_MAX:
        return None, f"expected an integer, found '{shown(text)}'"
    is_hex = text[:2] in ("0x", "0X")
    magnitude = (1 << width) - 1
    overflow = UINT64_MAX & ~magnitude
    sign_bit = 0
    if negative or signed:
        magnitude >>= 1
        sign_bit = magnitude + 1
    if value < 0:  # by value, as SPIRV-Tools checks: "-0" is a zero, not a negative
        bits = value & UINT64_MAX
        fits = (bits & overflow) == overflow and (bits & sign_bit) == sign_bit
    elif is_hex:
        bits = value
        fits = (bits & overflow) == 0
        if fits and bits & sign_bit:
            bits |= overflow
    else:
        bits = value
        fits = (bits & magnitude) == bits
    if not fits:
        kind = "signed" if signed else "unsigned"
        return None, f"integer {shown(text)} does not fit in a {width}-bit {kind} integer"
    return _split64(bits, width), None


def _hex_float_bits(
    m: re.Match, negative: bool, width: int, layout: tuple[int, int] | None = None
) -> int:
    """Bits of a hex float, truncating extra fraction bits as SPIRV-Tools does; `layout`
    (exponent bits, fraction bits) for a format other than IEEE's of that width."""
    exp_bits, frac_bits = layout or FLOAT_LAYOUTS[width]
    top = width - 1  # accumulator bit that receives the first fraction bit
    bias = (1 << (exp_bits - 1)) - 1
    max_exponent = (1 << exp_bits) - 1
    int_digits = m.group(1).lstrip("0")
    frac_digits = m.group(2) or ""
    fraction = 0
    index = 0
    exponent = bias
    is_denorm = not int_digits
    seen_one = False
    for digit in int_digits:
        nibble = int(digit, 16)
        for shift in (3, 2, 1, 0):
            bit = (nibble >> shift) & 1
            if seen_one:
                if index <= top:
                    fraction |= bit << (top - index)
                index += 1
                exponent += 1
            seen_one = seen_one or bit == 1
    seen_one = False
    for digit in frac_digits:
        nibble = int(digit, 16)
        for shift in (3, 2, 1, 0):
            bit = (nibble >> shift) & 1
            seen_one = seen_one or bit == 1
            if is_denorm and not seen_one:
                exponent -= 1
            else:
                if index <= top:
                    fraction |= bit << (top - index)
                index += 1
    written = _exponent(m.group(4))
    exponent += -written if m.group(3) == "-" else written
    is_zero = is_denorm and fraction == 0
    if is_denorm and not is_zero:
        fraction = (fraction << 1) & ((1 << width) - 1)
        exponent -= 1
    elif is_zero:
        exponent = 0
    if exponent <= 0 and not is_zero:
        fraction = (fraction >> 1) | (1 << top)
    fraction_mask = (1 << frac_bits) - 1
    fraction = (fraction >> (width - frac_bits)) & fraction_mask
    while exponent < 0 and not is_zero:
        fraction = (fraction >> 1) & fraction_mask
        exponent += 1
        if fraction == 0:
            is_zero = True
            exponent = 0
    if exponent > max_exponent:
        exponent = max_exponent
        fraction = 0
    return (int(negative) << top) | (exponent << frac_bits) | fraction


_LARGEST_EXPONENT = 10**12
"""Where a hex float's written exponent saturates: far past every format's range,
as spirv-as saturates it, and too small for its loops to take long."""


def _exponent(digits: str) -> int:
    """A hex float's written exponent, saturated at `_LARGEST_EXPONENT`."""
    digits = digits.lstrip("0")
    return int(digits or "0") if len(digits) <= 12 else _LARGEST_EXPONENT


def _f32_bits(value: float) -> int:
    return struct.unpack("<I", struct.pack("<f", value))[0]


def _f32_value(bits: int) -> float:
    return struct.unpack("<f", struct.pack("<I", bits))[0]


def _nearest_f32_bits(text: str) -> int | None:
    """Bits of the float32 nearest to a decimal text (like strtof), None on overflow."""
    d = float(text)
    try:
        bits = _f32_bits(d)
    except OverflowError:
        return None
    f = _f32_value(bits)
    if math.isinf(f):
        return None
    if f != d:
        # Rounding through a double is only wrong when the double is a tie.
        other_bits = bits + 1 if abs(d) > abs(f) else bits - 1
        other = _f32_value(other_bits)
        if not math.isinf(other) and 2 * d == f + other:
            exact = Fraction(Decimal(text))  # Fraction(text) refuses 4,300 digits
            if abs(exact - Fraction(other)) < abs(exact - Fraction(f)):
                bits = other_bits
    return bits


def _f32_to_f16_toward_zero(bits32: int) -> int | None:
    """A float32 bit pattern rounded toward zero to float16, None when it overflows."""
    sign = (bits32 >> 16) & 0x8000
    value = abs(struct.unpack("<f", struct.pack("<I", bits32))[0])
    if value == 0:
        return sign
    mantissa, exponent = math.frexp(value)  # value = mantissa * 2**exponent, 0.5 <= m < 1
    if exponent > 16:
        return None
    if exponent >= -13:  # normal half: 1.f * 2**(exponent-1), biased exponent >= 1
        fraction = int((mantissa * 2 - 1) * 1024)
        return sign | ((exponent - 1 + 15) << 10) | fraction
    return sign | int(value * (1 << 24))


def _decimal_float_bits(text: str, width: int) -> int | None:
    negative = text.startswith("-")
    body = text[1:] if negative else text
    if not _DECIMAL_FLOAT.match(body):
        return None
    if width == 64:
        d = float(body)
        if math.isinf(d):
            return None
        bits = struct.unpack("<Q", struct.pack("<d", d))[0]
        return bits ^ (1 << 63) if negative else bits
    bits32 = _nearest_f32_bits(body)
    if bits32 is None:
        return None
    if negative:
        bits32 ^= 1 << 31
    if width == 32:
        return bits32
    return _f32_to_f16_toward_zero(bits32)


def float_bits(text: str, width: int) -> int | None:
    """The bit pattern of a `width`-bit float literal (16, 32 or 64), or None."""
    negative = text.startswith("-")
    body = text[1:] if negative else text
    if body[:2] in ("0x", "0X"):
        m = _HEX_FLOAT.match(body)
        if m is None:
            return None
        return _hex_float_bits(m, negative, width)
    return _decimal_float_bits(text, width)


FLOAT8_LARGEST = {FLOAT8_E4M3: 0x7E, FLOAT8_E5M2: 0x7B}
"""The largest finite bits of each 8-bit format, to which spirv-as saturates decimals
past the last ordinary exponent: E4M3 uses its all-ones exponent for numbers (448),
E5M2 keeps it for infinities and NaNs (57344)."""


def _float8_bits(text: str, encoding: int) -> int | None:
    """Bits of an 8-bit float literal as spirv-as makes them, or None.

    Hex floats go bit by bit like the other widths. A decimal is read as the nearest
    32-bit float, then cut toward zero; past the largest exponent a value up to the
    largest finite one becomes that one (so 256 is 448 in E4M3), and anything larger
    is an error."""
    _, _, exp_bits, frac_bits = ENCODED_FORMATS[encoding]
    negative = text.startswith("-")
    body = text[1:] if negative else text
    if body[:2] in ("0x", "0X"):
        m = _HEX_FLOAT.match(body)
        return None if m is None else _hex_float_bits(m, negative, 8, (exp_bits, frac_bits))
    if not _DECIMAL_FLOAT.match(body):
        return None
    bits32 = _nearest_f32_bits(body)
    if bits32 is None:
        return None
    value = _f32_value(bits32)
    bias = (1 << (exp_bits - 1)) - 1
    max_exponent = (1 << exp_bits) - 2 - bias
    max_bits = FLOAT8_LARGEST[encoding]
    max_value = (1 + (max_bits & ((1 << frac_bits) - 1)) / (1 << frac_bits)) * 2.0 ** (
        (max_bits >> frac_bits) - bias
    )
    if value == 0:
        bits = 0
    else:
        exponent = math.frexp(value)[1] - 1
        if exponent > max_exponent:
            if value > max_value:
                return None
            bits = max_bits
        elif exponent >= 1 - bias:
            fraction = int((value / 2.0**exponent - 1) * (1 << frac_bits))
            bits = ((exponent + bias) << frac_bits) | fraction
        else:
            bits = int(value * 2.0 ** (bias - 1 + frac_bits))
    return bits | (0x80 if negative else 0)


def encode_float(
    text: str, width: int, encoding: int | None = None
) -> tuple[list[int] | None, str | None]:
    """Words of a float literal of a `width`-bit float type (with OpTypeFloat's
    FPEncoding, if any), or an error."""
    if encoding == BFLOAT16 and width == 16:
        bits = float_bits(text, 32)
        if bits is None:
            return None, f"expected a bfloat16, found '{shown(text)}'"
        return [bits >> 16], None  # spirv-as truncates the 32-bit float
    if encoding in FLOAT8_LARGEST and width == 8:
        bits = _float8_bits(text, encoding)
        if bits is None:
            return None, f"expected an 8-bit float (or one too large for the format), found '{shown(text)}'"
        return [bits], None
    # Other encodings (and widths) read as the disassembler prints them: the IEEE float
    # of that width; for a width with no IEEE layout, the double that two words hold or
    # the bits of one word as an integer.
    if width not in FLOAT_LAYOUTS:
        if width > 64:
            return None, f"{width}-bit float literals are not supported"
        if width > 32:
            words, error = encode_float(text, 64)
            if words is not None and words[1] >> (width - 32):
                return None, f"the bits of '{shown(text)}' do not fit in a {width}-bit float"
            return words, error
        words, _ = encode_integer(text, width, False)
        if words is None:
            return None, f"expected the bits of a {width}-bit float as an integer, found '{shown(text)}'"
        return words, None
    bits = float_bits(text, width)
    if bits is None:
        return None, f"expected a {width}-bit float, found '{shown(text)}'"
    return _split64(bits, width), None


def encode_untyped_number(text: str) -> tuple[list[int] | None, str | None]:
    """Words of a number whose type is unknown: a 32-bit float when it has a '.',
    otherwise a 32-bit signed (leading '-') or unsigned integer."""
    if "." in text:
        return encode_float(text, 32)
    return encode_integer(text, 32, text.startswith("-"))


def string_bytes(value: str) -> tuple[bytes | None, str | None]:
    """The UTF-8 bytes of a literal string's contents, or an error. Characters
    U+DC80 to U+DCFF stand for the bytes 0x80 to 0xFF that are not UTF-8, as the
    decoder reads them (surrogateescape); any other lone surrogate has no bytes."""
    try:
        return value.encode("utf-8", "surrogateescape"), None
    except UnicodeEncodeError as error:
        code = ord(value[error.start])
        return None, f"the string holds U+{code:04X}, a lone surrogate, which UTF-8 cannot encode"


def string_word_count(data: bytes) -> int:
    """How many words a literal string of UTF-8 bytes `data` takes, its nul included."""
    return len(data) // 4 + 1


def string_words(data: bytes) -> list[int]:
    """The nul-terminated words of a literal string of UTF-8 bytes `data`."""
    data += b"\0" * (4 - len(data) % 4)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def unquote(token: str) -> str | None:
    """The contents of a quoted string token, `\\` escaping the next character;
    None when the token is not a quoted string."""
    if len(token) < 2 or token[0] != '"' or token[-1] != '"':
        return None
    body = token[1:-1]
    if "\\" not in body:
        return body
    out = []
    escaping = False
    for ch in body:
        if ch == "\\" and not escaping:
            escaping = True
        else:
            out.append(ch)
            escaping = False
    return "".join(out)
