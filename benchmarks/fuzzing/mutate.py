"""Format-blind mutations of bytes, 32-bit words and text, each driven by a `random.Random`."""

from __future__ import annotations

import random
import struct

INTERESTING_WORDS = (
    0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 31, 32, 63, 64, 0xFF, 0x100, 0x7FFF, 0x8000, 0xFFFF, 0x10000,
    0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF, 0x07230203, 0x03022307,
)
"""Boundaries where counts, widths, ids and signs tend to go wrong."""

UNICODE_SNIPPETS = (
    "²", "①", "٣", "१", "Ⅷ", "\u2028", "\u2029", "\x85", "\x0b", "\x0c", "\xa0", "\u200b", "\ufeff",
    "é", "e\u0301", "日本", "🙂", "\ud800", "\udfff", "\udc80", "\U0010ffff", "\u202e", "Ａ",
)
"""Digits other than 0-9, line and blank separators, combining marks, lone surrogates…"""


def words_of(data: bytes) -> tuple[list[int], bytes]:
    """Little-endian words of `data`, and the bytes after the last whole word."""
    whole = len(data) // 4 * 4
    return list(struct.unpack(f"<{whole // 4}I", data[:whole])), data[whole:]


def bytes_of(words: list[int], tail: bytes = b"") -> bytes:
    """Little-endian bytes of `words` (each taken modulo 2**32), then `tail`."""
    return struct.pack(f"<{len(words)}I", *(w & 0xFFFFFFFF for w in words)) + tail


def interesting_word(rng: random.Random) -> int:
    """A boundary value, a small number or random bits."""
    pick = rng.random()
    if pick < 0.5:
        return rng.choice(INTERESTING_WORDS)
    if pick < 0.75:
        return rng.randrange(64)
    return rng.getrandbits(32)


def flip_bits(data: bytes, rng: random.Random) -> bytes:
    """One to eight single-bit flips."""
    if not data:
        return data
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        at = rng.randrange(len(out))
        out[at] ^= 1 << rng.randrange(8)
    return bytes(out)


def set_words(words: list[int], rng: random.Random, first: int = 0) -> list[int]:
    """One to four words from `first` on replaced by interesting values."""
    out = list(words)
    if len(out) > first:
        for _ in range(rng.randint(1, 4)):
            out[rng.randrange(first, len(out))] = interesting_word(rng)
    return out


def insert_words(words: list[int], rng: random.Random, first: int = 0) -> list[int]:
    """Random words, or a copy of a run of the words themselves, inserted somewhere."""
    at = rng.randint(min(first, len(words)), len(words))
    if words and rng.random() < 0.5:
        start = rng.randrange(len(words))
        piece = words[start : start + rng.randint(1, 16)]
    else:
        piece = [interesting_word(rng) for _ in range(rng.randint(1, 8))]
    return words[:at] + piece + words[at:]


def delete_words(words: list[int], rng: random.Random, first: int = 0) -> list[int]:
    """A run of one to sixteen words removed."""
    if len(words) <= first:
        return list(words)
    at = rng.randrange(first, len(words))
    return words[:at] + words[at + rng.randint(1, 16) :]


def counted_pieces(data: bytes, first: int, count_of) -> list[bytes]:
    """`data` cut into units a shrinker removes whole: the first `first` words, then one piece
    per instruction as `count_of(word)` sizes it, then what is left."""
    words, _ = words_of(data)
    pieces = [data[: 4 * first]]
    at = first
    while at < len(words) and 0 < count_of(words[at]) <= len(words) - at:
        pieces.append(data[4 * at : 4 * (at + count_of(words[at]))])
        at += count_of(words[at])
    pieces.append(data[4 * at :])
    return [piece for piece in pieces if piece]


def truncate(data: bytes, rng: random.Random) -> bytes:
    """`data` cut short at any byte, often mid-word."""
    return data[: rng.randrange(len(data) + 1)] if data else data


def splice(data: bytes, other: bytes, rng: random.Random, align: int = 4) -> bytes:
    """A prefix of `data` followed by a suffix of `other`, cut at `align`-byte boundaries."""
    cut = rng.randrange(len(data) // align + 1) * align
    join = rng.randrange(len(other) // align + 1) * align
    return data[:cut] + other[join:]


def swap_byte_order(data: bytes) -> bytes:
    """Every whole word with its bytes reversed; the tail stays."""
    words, tail = words_of(data)
    return struct.pack(f">{len(words)}I", *words) + tail


# --- text -------------------------------------------------------------------------------------

def huge_number(rng: random.Random) -> str:
    """A number past what any literal holds: thousands of digits, huge exponents, bare prefixes."""
    digits = rng.choice((30, 400, 4301, 5000, 20000))
    return rng.choice((
        "9" * digits,
        "-" + "9" * digits,
        "0x" + "f" * digits,
        "1" + "0" * digits + ".5",
        "1e" + "9" * 6,
        "1e-" + "9" * 6,
        "0x1p+99999",
        "0x",
        "-0x",
        "00" + "7" * rng.randint(1, 5),
        "0" * digits,
    ))


def text_edit(text: str, rng: random.Random, vocabulary: tuple[str, ...]) -> str:
    """One edit a careless user or an attacker makes: tokens, Unicode, quotes, numbers, NUL, CRLF."""
    lines = text.split("\n")
    choice = rng.randrange(11)
    line_at = rng.randrange(len(lines))
    tokens = lines[line_at].split(" ")
    token_at = rng.randrange(len(tokens))
    if choice == 0:  # delete a token
        del tokens[token_at]
    elif choice == 1:  # duplicate or swap tokens
        other = rng.randrange(len(tokens))
        tokens[token_at], tokens[other] = tokens[other], tokens[token_at]
        if rng.random() < 0.5:
            tokens.insert(token_at, tokens[other])
    elif choice == 2:  # a token from the vocabulary, replacing or inserted
        word = rng.choice(vocabulary)
        if rng.random() < 0.5:
            tokens[token_at] = word
        else:
            tokens.insert(token_at, word)
    elif choice == 3:  # a number nothing can hold
        tokens[token_at] = huge_number(rng)
    elif choice == 4:  # Unicode inside a token
        token = tokens[token_at]
        at = rng.randint(0, len(token))
        tokens[token_at] = token[:at] + rng.choice(UNICODE_SNIPPETS) + token[at:]
    elif choice == 5:  # an unterminated or broken string
        tokens[token_at] = rng.choice(('"', '"abc', '"\\', 'x"', '"a\\"', '"\\u', '"\0"')) + tokens[token_at]
    elif choice == 6:  # raw words
        tokens.insert(token_at, rng.choice(("!", "!0x", "!-1", "!0x1ffffffff", "!abc", "!4294967296", "!" + "9" * 5000)))
    elif choice == 7:  # NUL
        token = tokens[token_at]
        at = rng.randint(0, len(token))
        tokens[token_at] = token[:at] + "\0" + token[at:]
    elif choice == 8:  # line ends
        return rng.choice(("\r\n", "\r", "\n\n", "\x0b")).join(lines)
    elif choice == 9:  # whole lines: delete, duplicate, swap
        other = rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines[line_at], lines[other] = lines[other], lines[line_at]
        elif rng.random() < 0.5:
            lines.insert(line_at, lines[other])
        else:
            del lines[line_at]
        return "\n".join(lines)
    else:  # cut the text anywhere
        return text[: rng.randrange(len(text) + 1)]
    lines[line_at] = " ".join(tokens)
    return "\n".join(lines)


def as_file_text(text: str) -> str:
    """`text` as a command reads it back from a file: UTF-8 with surrogateescape, which turns
    every lone surrogate into its own escape."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape")
