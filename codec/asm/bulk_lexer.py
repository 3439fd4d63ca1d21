"""The bulk path's word splitter: the words of a big ASCII text and their numbers, as
`lexer.word_codes` gives them, found by array passes (numpy) over the text's bytes.

Lines holding a character that needs spirv-as's full rule (a quote, backslash, `;`,
`,`, `(`, `)` or a control character other than tab, CR and LF) go through the
lexer's exact regular expression; everywhere else a word is a run of bytes between
spaces, tabs, CRs and LFs. Each word becomes a 64-bit key: its bytes themselves when
it has at most 8, a hash of them (top bit set) when longer; equal keys are checked to
be equal words, so a hash collision only sends the text back to `lexer.word_codes`.
"""

from __future__ import annotations

import numpy as np

from spvinspect.codec.asm.lexer import PUNCTUATION, _STEP

_BLOCK = 1 << 24
"""Bytes split at a time, which bounds the memory of the per-byte arrays."""

_PUNCT, _QUOTE, _ALWAYS = 1, 2, 3
_KINDS = bytes(
    _ALWAYS if c == 92 or (c < 32 and c not in b"\t\n\r") else _QUOTE if c == 34 else _PUNCT if c in b";,()" else 0
    for c in range(256)
)
"""`bytes.translate` table: what a byte is to the splitter, 0 for most."""

_MASKS = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], np.uint64)
"""The low `k` bytes of a 64-bit word, for k = 0..8."""

_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)
_TOP = np.uint64(1 << 63)
_LONG_IN_PYTHON = 64
"""Words longer than this (long quoted strings) are hashed one by one."""


def word_codes_array(text: str) -> tuple[np.ndarray, list[str], np.ndarray] | None:
    """Every word of `text` (already cut at its NUL) as a number, as `lexer.word_codes`
    gives them (each word's index among the distinct words, those in order of first
    appearance), the numbers as an int32 array; and the distinct words' bytes, each
    followed by a NUL. None when the text is not ASCII or two different words got one
    key."""
    if not text.isascii() or len(text) < 16:
        return None
    starts_parts, lengths_parts, keys_parts = [], [], []
    pos, size = 0, len(text)
    while pos < size:
        end = text.find("\n", min(pos + _BLOCK, size)) + 1 or size
        starts, lengths, keys, pos = _block_words(text, pos, end)
        starts_parts.append(starts)
        lengths_parts.append(lengths)
        keys_parts.append(keys)
    starts = np.concatenate(starts_parts)
    lengths = np.concatenate(lengths_parts)
    keys = np.concatenate(keys_parts)
    del starts_parts, lengths_parts, keys_parts
    codes, firsts = _factorize(keys)
    del keys
    data = text.encode("ascii") + bytes(8)
    if not _same_words(data, text, starts, lengths, codes, firsts):
        return None
    return (codes, *_spellings(data, starts[firsts], lengths[firsts]))


def _spellings(data: bytes, starts: np.ndarray, lengths: np.ndarray) -> tuple[list[str], np.ndarray]:
    """The words at `starts` of `lengths` in `data`, as strings, and their bytes each
    followed by a NUL (no word holds one): gathered at once, and split at the NULs."""
    if not len(starts):
        return [], np.zeros(0, np.uint8)
    spans = lengths.astype(np.int64) + 1
    out_starts = np.zeros(len(spans), np.int64)
    np.cumsum(spans[:-1], out=out_starts[1:])
    total = int(out_starts[-1] + spans[-1])
    take = np.repeat(starts - out_starts, spans) + np.arange(total)
    joined = np.frombuffer(data, np.uint8)[take]
    joined[out_starts + spans - 1] = 0
    return joined.tobytes().decode("ascii").split("\0")[:-1], joined


def _block_words(text: str, pos: int, end: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The words of `text[pos:end]` (whole lines): each word's start, length and key;
    and where the next block starts (past `end` when an exact stretch, a quoted string
    over several lines, runs on)."""
    data = text[pos:end].encode("ascii") + bytes(8)  # eight more: every word's first 8 bytes readable
    size = end - pos
    x = np.frombuffer(data, np.uint8)[:size]
    blank = x <= 32  # spaces, tabs, CRs, LFs; a line with another control is split exactly
    edges = np.flatnonzero(blank[:-1] != blank[1:]) + 1
    if size and not blank[0]:
        edges = np.concatenate([np.zeros(1, edges.dtype), edges])
    if size and not blank[-1]:
        edges = np.append(edges, size)
    del blank
    starts = edges[0::2]
    lengths = edges[1::2] - starts
    del edges
    regions = _exact_regions(text, pos, end, _exact_at(data, size, starts, lengths))
    if regions and regions[-1][1] > end:
        return _block_words(text, pos, regions[-1][1])
    if regions:
        keep = np.ones(len(starts), bool)
        cut_from = np.searchsorted(starts, [a - pos for a, _b, _w in regions]).tolist()
        cut_to = np.searchsorted(starts, [b - pos for _a, b, _w in regions]).tolist()
        for a, b in zip(cut_from, cut_to):
            keep[a:b] = False
        exact = [word for _a, _b, words in regions for word in words]
        e_starts = np.array([s for s, _n in exact], np.int64).reshape(-1) - pos
        e_lengths = np.array([n for _s, n in exact], np.int64).reshape(-1)
        starts, lengths = starts[keep], lengths[keep]
        at = np.searchsorted(starts, e_starts)
        starts = np.insert(starts, at, e_starts)
        lengths = np.insert(lengths, at, e_lengths)
    keys = _keys(data, text, pos, starts, lengths)
    return starts + pos, lengths.astype(np.int32), keys, end


def _exact_at(data: bytes, size: int, starts: np.ndarray, lengths: np.ndarray) -> list[int]:
    """Where, in a block split at blanks, spirv-as's rule splits otherwise: at a
    backslash or control character; at `;`, `,`, `(` or `)` outside quotes; at the
    start of a word with an odd number of quotes (its string runs past a blank)."""
    marked = data[:size].translate(_KINDS)
    groups = np.frombuffer(marked[: size - size % 8], np.uint64)
    nonzero = np.flatnonzero(groups)
    candidates = ((nonzero * 8)[:, None] + np.arange(8)).reshape(-1)
    candidates = np.concatenate([candidates, np.arange(size - size % 8, size)])
    kinds = np.frombuffer(marked, np.uint8)
    special = candidates[kinds[candidates] != 0]
    if not len(special):
        return []
    kind = kinds[special]
    word = np.searchsorted(starts, special, side="right") - 1
    is_quote = (kind == _QUOTE).astype(np.int64)
    quotes = np.cumsum(is_quote)
    before = quotes - is_quote
    new_word = np.ones(len(special), bool)
    new_word[1:] = word[1:] != word[:-1]
    first = np.maximum.accumulate(np.where(new_word, np.arange(len(special)), 0))
    inside = (before - before[first]) % 2 == 1
    bad = (kind == _ALWAYS) | ((kind == _PUNCT) & ~inside)
    last = np.ones(len(special), bool)
    last[:-1] = new_word[1:]
    odd = last & ((quotes - before[first]) % 2 == 1)
    at = np.concatenate([special[bad], starts[word[odd]]])
    at.sort()
    return at.tolist()


def _exact_regions(text: str, pos: int, end: int, at: list[int]) -> list[tuple[int, int, list[tuple[int, int]]]]:
    """The stretches of whole lines split by the exact rule, from the line of each of
    `at` (offsets in the block at `pos`) to a line end past it: (start, end, each
    word's (start, length)); a punctuation word has length 0."""
    regions: list[tuple[int, int, list[tuple[int, int]]]] = []
    step = _STEP.match
    size = len(text)
    consumed = 0
    for special in at:
        special += pos
        if special < consumed:
            continue
        start = text.rfind("\n", 0, special) + 1
        cursor = start
        words: list[tuple[int, int]] = []
        while True:
            m = step(text, cursor)
            word = m.group(1)
            cursor = m.end()
            if word is not None:
                words.append((m.start(1), 0 if word in PUNCTUATION else len(word)))
            elif cursor >= size or cursor > special:
                break
        regions.append((start, cursor, words))
        consumed = cursor
    return regions


def _keys(data: bytes, text: str, pos: int, starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Each word's 64-bit key: its bytes (the first at the low end) when it has at most
    8, else a hash of its bytes and length with the top bit set (ASCII bytes leave the
    top bit of a short word's key clear)."""
    view = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    keys = view[starts] & _MASKS[np.minimum(lengths, 8)]
    long = np.flatnonzero(lengths > 8)
    if not len(long):
        return keys
    l_starts, l_lengths = starts[long], lengths[long]
    hashes = keys[long]
    longest = min(int(l_lengths.max()), _LONG_IN_PYTHON)
    for offset in range(8, longest, 8):
        more = np.flatnonzero(l_lengths > offset)
        chunk = view[l_starts[more] + offset] & _MASKS[np.minimum(l_lengths[more] - offset, 8)]
        hashes[more] = hashes[more] * _MULTIPLIER + chunk
    hashes = hashes * _MULTIPLIER + l_lengths.astype(np.uint64)
    for i in np.flatnonzero(l_lengths > _LONG_IN_PYTHON).tolist():
        a = int(l_starts[i]) + pos
        hashes[i] = hash(text[a:a + int(l_lengths[i])]) & 0xFFFFFFFFFFFFFFFF
    keys[long] = hashes | _TOP
    return keys


def _factorize(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each key's number (distinct keys numbered in order of first appearance, int32)
    and each number's first position."""
    n = len(keys)
    if n == 0:
        return np.zeros(0, np.int32), np.zeros(0, np.int64)
    ordered = np.sort(keys)
    distinct = ordered[np.concatenate([[True], ordered[1:] != ordered[:-1]])]
    del ordered
    count = len(distinct)
    # A hash table: each distinct key in its slot, if no other took it; the keys of
    # shared slots found by a search among the sorted distinct keys.
    bits = min(max(count * 4, 1 << 10).bit_length(), 25)
    shift = np.uint64(64 - bits)
    table = np.zeros(1 << bits, np.int32)
    table[(distinct * _MULTIPLIER) >> shift] = np.arange(count, dtype=np.int32)
    inverse = table[(keys * _MULTIPLIER) >> shift]
    del table
    missed = np.flatnonzero(distinct[inverse] != keys)
    if len(missed):
        inverse[missed] = np.searchsorted(distinct, keys[missed])
    del distinct, missed
    firsts = np.full(count, n, np.int64)
    np.minimum.at(firsts, inverse, np.arange(n, dtype=np.int64))
    order = np.argsort(firsts)
    rank = np.empty(count, np.int32)
    rank[order] = np.arange(count, dtype=np.int32)
    return rank[inverse], firsts[order]


def _same_words(
    data: bytes, text: str, starts: np.ndarray, lengths: np.ndarray, codes: np.ndarray, firsts: np.ndarray,
) -> bool:
    """Whether every long word (hashed) is the word first given its number."""
    long = np.flatnonzero(lengths > 8)
    if not len(long):
        return True
    other = firsts[codes[long]]
    if not (lengths[other] == lengths[long]).all():
        return False
    check = long[long != other]
    other = firsts[codes[check]]
    if not len(check):
        return True
    view = np.ndarray(shape=(len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
    a, b, n = starts[check], starts[other], lengths[check].astype(np.int64)
    for offset in range(0, min(int(n.max()), _LONG_IN_PYTHON), 8):
        more = np.flatnonzero(n > offset)
        mask = _MASKS[np.minimum(n[more] - offset, 8)]
        if not ((view[a[more] + offset] & mask) == (view[b[more] + offset] & mask)).all():
            return False
    for i in np.flatnonzero(n > _LONG_IN_PYTHON).tolist():
        s, t, m = int(a[i]), int(b[i]), int(n[i])
        if text[s:s + m] != text[t:t + m]:
            return False
    return True
