"""Integer literals re-encoded for another integer type straight from their words, many
at once (numpy): the words spirv-as gives for the decimal text spirv-dis prints for
them (`number_format.format_number`), read as `literals.encode_integer` reads it.

An integer constant whose type changes width (`%int = OpTypeInt 32 1` edited to 64
bits) is re-encoded from its own line in the whole text; here the line is never made.
spirv-dis prints the literal's words (one or two) as a decimal, sign-extended from
their width when the old type is signed; spirv-as takes that decimal into the new
type when it fits (a negative value only into a signed type, no lower than the
type's least; a positive one no higher than its greatest) and writes it in one word
up to 32 bits (sign-extended to the word) or two.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

_LOW = np.uint64(0xFFFFFFFF)


class Retyped(NamedTuple):
    """The literals in the new type: which fit, and their words (`high` unused up to 32 bits)."""

    fits: np.ndarray
    low: np.ndarray
    high: np.ndarray


def literal_values(low: np.ndarray, high: np.ndarray, two_words: np.ndarray, signed: bool
                   ) -> tuple[np.ndarray, np.ndarray]:
    """The values of literals whose first word is `low` and second `high` (where
    `two_words`), as spirv-dis prints them: 64 bits (two's complement) and whether negative."""
    low = low.astype(np.uint64)
    high = np.where(two_words, high, 0).astype(np.uint64)
    bits = low | (high << np.uint64(32))
    if not signed:
        return bits, np.zeros(len(bits), dtype=bool)
    negative = np.where(two_words, high >> np.uint64(31), low >> np.uint64(31)).astype(bool)
    extend = negative & ~two_words  # one word, sign-extended to 64 bits
    bits = np.where(extend, bits | (_LOW << np.uint64(32)), bits)
    return bits, negative


def retyped(bits: np.ndarray, negative: np.ndarray, width: int, signed: bool) -> Retyped:
    """`literal_values`' values encoded for a `width`-bit (un)signed integer type (width
    at most 64)."""
    if signed:
        least = np.uint64((1 << 64) - (1 << (width - 1)))  # -2^(width-1), as 64 bits
        greatest = np.uint64((1 << (width - 1)) - 1)
        fits = np.where(negative, bits >= least, bits <= greatest)
    else:
        fits = ~negative & (bits <= np.uint64((1 << width) - 1))
    return Retyped(fits, (bits & _LOW).astype(np.uint32), (bits >> np.uint64(32)).astype(np.uint32))
