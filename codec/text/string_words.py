"""What one word of a SPIR-V string holds: which bytes, and the characters they belong to.

A string is UTF-8 packed four bytes to a word, so a character may span two words; each
word shows every character that has a byte in it whole, and says which one continues.
Bytes that are no UTF-8 show as `\\xNN`.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from functools import lru_cache


def _shown(char: str) -> str:
    """A character as the quoted text shows it: an undecodable byte as `\\xNN`, other
    unprintable characters escaped."""
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte surrogateescape kept
        return f"\\x{code - 0xDC00:02x}"
    return char if char.isprintable() else repr(char)[1:-1]


@lru_cache(maxsize=4)
def _characters(encoded: bytes) -> tuple[list[tuple[int, int, str]], list[int]]:
    """(first byte, end byte, character) for every character of `encoded`, and the first
    bytes alone (to find a word's characters by bisection); kept for the few strings last
    asked about, as every word of a string asks about the same one."""
    spans = []
    start = 0
    for char in encoded.decode("utf-8", "surrogateescape"):
        size = len(char.encode("utf-8", "surrogateescape"))
        spans.append((start, start + size, char))
        start += size
    return spans, [first for first, _, _ in spans]


def string_word_text(encoded: bytes, word: int) -> str:
    """Word `word` (from 0) of the string `encoded` (its bytes, without the nul):
    `bytes 1-4 of 6: 'abcé' (é ends in the next word)`, `bytes 5-6 of 6: 'é!' (é begins
    in the word before) + nul and zero padding`, or `nul and zero padding`."""
    first, end = word * 4, min(word * 4 + 4, len(encoded))
    if first >= len(encoded):
        return "nul and zero padding"
    spans, starts = _characters(encoded)
    inside = spans[bisect_right(starts, first) - 1 : bisect_left(starts, end)]
    span = f"byte {end}" if end - first == 1 else f"bytes {first + 1}-{end}"
    text = f"{span} of {len(encoded)}: '{''.join(_shown(c) for _, _, c in inside)}'"
    notes = []
    start, _, char = inside[0]
    if start < first:
        notes.append(f"{_shown(char)} begins in the word before")
    _, stop, char = inside[-1]
    if stop > end:
        notes.append(f"{_shown(char)} ends in the next word")
    if notes:
        text += f" ({'; '.join(notes)})"
    if end - first < 4:
        text += " + nul and zero padding"
    return text
