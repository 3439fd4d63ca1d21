"""Bytes to 32-bit words: endianness from the magic number, and what does not fit."""

from __future__ import annotations

import sys
from array import array

from spvinspect.codec.diagnostics import Diagnostic

MAGIC = 0x07230203
SWAPPED_MAGIC = 0x03022307


def words_from_bytes(data: bytes, read: tuple[array, bool] | None = None) -> tuple[array, bytes, bool, list[Diagnostic]]:
    """The module's words in host order, the bytes past the last whole word, whether the
    module is big-endian, and diagnostics about the length.

    The byte order is taken from the magic number; when the magic matches neither order
    the words are read little-endian, as the specification's physical layout suggests.
    `read`: `data`'s whole words already read (host order) with their byte order, as
    `file_bytes` wrote them (an edit's assembly): shared, not read again (8 MB on the
    large module, on every keystroke); never changed by anyone after.
    """
    if read is not None and len(read[0]) * 4 == len(data) and read[0][:1] == array("I", [MAGIC]):
        return read[0], b"", read[1], []
    problems: list[Diagnostic] = []
    whole = len(data) - len(data) % 4
    trailing = bytes(data[whole:])
    if trailing:
        problems.append(
            Diagnostic(
                f"the file is {len(data)} bytes long, not a multiple of 4: "
                f"the last {len(trailing)} byte(s) are not part of any word",
                word_offset=whole // 4,
            )
        )
    words = array("I")
    words.frombytes(data[:whole])
    if sys.byteorder != "little":
        words.byteswap()
    big_endian = bool(words) and words[0] == SWAPPED_MAGIC
    if big_endian:
        words.byteswap()
    return words, trailing, big_endian, problems


def file_bytes(words: array, big_endian: bool, trailing: bytes = b"") -> bytes:
    """`words` (host order) as the file holds them: in the module's byte order, followed by
    the bytes past the last whole word (the inverse of `words_from_bytes`)."""
    if (sys.byteorder == "big") == big_endian:
        return words.tobytes() + trailing
    swapped = array("I", words)
    swapped.byteswap()
    return swapped.tobytes() + trailing
