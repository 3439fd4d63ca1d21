"""Numbers of the proposed PP syntax: one reading of integers and half-float constants.

Integers are ASCII decimal or `0x` hex, optionally signed. A decimal integer never has a
leading zero: `09` would be octal to a C reader and decimal to others, so it is refused
rather than guessed. Digits are ASCII only (`str.isdigit` also accepts `²` and `①`).
Values are range-checked before Python converts them, so a number of any length gives a
message instead of Python's 4,300-digit conversion error.
"""

from __future__ import annotations

import math
import re

_INTEGER = re.compile(r"([+-]?)(0[xX][0-9a-fA-F]*|[0-9]+)")
_DECIMAL_REAL = re.compile(r"[+-]?(?:([0-9]+)\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_INFINITY = re.compile(r"[+-]?inf", re.IGNORECASE)
_SHOWN = 24


class NumberError(ValueError):
    """A number that cannot be read or does not fit; the message says which and why."""


def shown(text: str) -> str:
    """`text` quoted for a message, cut short when it is long."""
    if len(text) <= _SHOWN:
        return repr(text)
    return repr(text[:_SHOWN]) + f"… ({len(text)} characters)"


def _leading_zero(text: str, digits: str) -> NumberError:
    plain = text.replace(digits, digits.lstrip("0") or "0", 1)
    return NumberError(
        f"{shown(text)} has a leading zero: write {shown(plain)} (no number here starts with 0,"
        " which C reads as octal)"
    )


def parse_integer(text: str, what: str, bits: int, *, signed: bool = False, either: bool = False) -> int:
    """The value of `text`, which must fit `bits` unsigned bits (or signed ones).

    `either` accepts both readings and returns the unsigned bits of a negative value
    (two's complement), as `{name=value}` overrides do.
    """
    match = _INTEGER.fullmatch(text)
    if not match:
        raise NumberError(f"expected {what} (a decimal or 0x hex integer), found {shown(text)}")
    sign, digits = match.groups()
    if digits[:2].lower() == "0x":
        if len(digits) == 2:
            raise NumberError(f"expected hex digits after 0x in {shown(text)}")
        magnitude_digits, base = digits[2:].lstrip("0"), 16
        too_long = len(magnitude_digits) * 4 > bits + 4
    else:
        if len(digits) > 1 and digits[0] == "0":
            raise _leading_zero(text, digits)
        magnitude_digits, base = digits, 10
        too_long = len(digits) > math.ceil(bits * math.log10(2)) + 1
    low = -(1 << (bits - 1)) if (signed or either) else 0
    high = (1 << (bits if not signed else bits - 1)) - 1
    value = 0 if too_long else int(magnitude_digits or "0", base) * (-1 if sign == "-" else 1)
    if too_long or not low <= value <= high:
        limits = f" ({low} to {high})" if bits <= 64 else ""
        raise NumberError(f"{what} {shown(text)} does not fit in {bits} bits{limits}")
    return value & ((1 << bits) - 1) if either else value


def parse_real(text: str) -> float:
    """A decimal real (`0.5`, `-1e+04`, `.25`) or `inf`; NumberError for anything else."""
    if _INFINITY.fullmatch(text):
        return float(text)
    match = _DECIMAL_REAL.fullmatch(text)
    if not match:
        raise NumberError(f"expected a number, found {shown(text)}")
    whole = match.group(1)
    if whole and len(whole) > 1 and whole[0] == "0":
        raise _leading_zero(text, whole)
    return float(text)
