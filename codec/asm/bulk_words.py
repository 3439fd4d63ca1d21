"""The bulk path's view of a text's words (`codec.asm.bulk`): each word as a number,
what each distinct word is, and, by array passes (numpy), the numbers spirv-as gives
the ids and the words of plainly written 32-bit numbers."""

from __future__ import annotations

import re

import numpy as np

from spvinspect.codec.asm import literals as lit
from spvinspect.codec.asm.declarations import FLOAT, INT
from spvinspect.codec.asm.quick import QuickEncoder

OTHER, PCT, EQ, OP = 0, 1, 2, 3
"""What a distinct word is: anything else, an id ('%…'), '=', or an opcode name."""

_ID_CHARS = np.zeros(0x110000, bool)
"""The characters an id has after its '%', by code point."""
_ID_CHARS[np.frombuffer(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_", np.uint8)] = True


class Words:
    """The words of a text as the engines read them (`toks[i]`, `toks[a:b]`), made on
    demand from their numbers (`bulk_lexer.word_codes_array`'s array, or
    `lexer.word_codes`'s list until the bulk path makes it an array), with the two
    empty words the engines look ahead to."""

    __slots__ = ("codes", "unique", "n")

    def __init__(self, codes: list[int], unique: list[str]) -> None:
        self.codes = codes
        self.unique = unique
        self.n = len(codes)

    def __len__(self) -> int:
        return self.n + 2

    def __getitem__(self, i):
        if isinstance(i, slice):
            unique = self.unique
            return [unique[c] for c in self.codes[i]]
        return self.unique[self.codes[i]] if i < self.n else ""


class Distinct:
    """What each distinct word of a text is, found by array passes over their
    characters: its class, and the number of an id written as a number (which
    --preserve-numeric-ids keeps, as `ids.numeric_ids` finds them)."""

    def __init__(self, unique: list[str], chars: np.ndarray | None = None) -> None:
        """`chars`, when given, are the words' characters (bytes of an ASCII text), each
        word followed by a NUL, as `bulk_lexer.word_codes_array` gives them."""
        self.unique = unique
        count = len(unique)
        # Characters as numbers, each word followed by a NUL (no word has one).
        if chars is None:
            chars = np.frombuffer(("\0".join(unique) + "\0").encode("utf-32-le", "surrogatepass"), np.uint32)
        ends = np.flatnonzero(chars == 0)[:count]
        starts = np.zeros(count, np.int64)
        starts[1:] = ends[:-1] + 1
        lengths = ends - starts
        first = chars[starts]
        self.ok = not (first == ord("!")).any()
        """False when a word starts with '!' or an id word is not valid: the bulk path
        does not apply."""
        cls = np.zeros(count + 1, np.int8)  # one more: the class of the padding
        pct = first == ord("%")
        id_char = np.zeros(len(chars) + 1, np.int32)
        np.cumsum(_ID_CHARS[chars], out=id_char[1:])
        valid = id_char[starts + lengths] - id_char[starts + 1] == lengths - 1
        if (pct & ((lengths < 2) | ~valid)).any():
            self.ok = False
        cls[:count][pct] = PCT
        second = chars[np.minimum(starts + 1, len(chars) - 1)]
        third = chars[np.minimum(starts + 2, len(chars) - 1)]
        op = (first == ord("O")) & (second == ord("p")) & (third >= ord("A")) & (third <= ord("Z")) & (lengths >= 3)
        self.ops = np.flatnonzero(op).tolist()
        cls[self.ops] = OP
        try:
            cls[unique.index("=")] = EQ
        except ValueError:
            pass
        self.cls = cls

        # Ids written in decimal: '%' and up to ten digits, the first not 0.
        digit = (chars >= ord("0")) & (chars <= ord("9"))
        digits = np.zeros(len(chars) + 1, np.int32)
        np.cumsum(digit, out=digits[1:])
        decimal = (pct & (lengths >= 2) & (lengths <= 11) & (second >= ord("1")) & (second <= ord("9"))
                   & (digits[starts + lengths] - digits[starts + 1] == lengths - 1))
        at = np.flatnonzero(decimal)
        values = np.zeros(len(at), np.int64)
        for k in range(10):
            more = lengths[at] - 1 > k
            values = np.where(more, values * 10 + chars[np.minimum(starts[at] + 1 + k, len(chars) - 1)] - ord("0"),
                              values)
        fits = values <= 0xFFFFFFFF
        at, values = at[fits], values[fits]
        numeric = np.full(count + 1, -1, np.int64)
        numeric[at] = values
        # The rest (`%0`, `%0x1f`, `%017`), few, one by one.
        for i in np.flatnonzero(pct & (second == ord("0"))).tolist():
            value = lit.id_number(unique[i][1:])
            if value is not None and value <= 0xFFFFFFFF:
                numeric[i] = value
        self.numeric = numeric
        """Each distinct word's number when it is an id written as a number; -1 otherwise."""

    def numeric_ids(self) -> dict[str, int]:
        """Id word → number, for the ids written as numbers."""
        at = np.flatnonzero(self.numeric >= 0)
        unique = self.unique
        return dict(zip([unique[i] for i in at.tolist()], self.numeric[at].tolist()))


_PLAIN_FLOAT = re.compile(r"-?[0-9]{1,30}(?:\.[0-9]{1,30})?\Z")
_PLAIN_INT = re.compile(r"-?[0-9]{1,9}\Z")
"""Numbers written plainly: a float without exponent, an integer of at most nine digits."""


def plain_number_words(info: tuple, toks: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
    """The words of plainly written 32-bit numbers of type `info` (`encode_typed`'s),
    by array passes; and which of `toks` they are for (the others are left to
    `encode_typed`). None when the type is not a 32-bit integer or IEEE float."""
    kind, width, detail = info
    if width != 32 or (kind == FLOAT and detail is not None) or kind not in (INT, FLOAT):
        return None
    if kind == INT:
        plain = _PLAIN_INT.match if detail else re.compile(r"[0-9]{1,9}\Z").match
        at = [i for i, tok in enumerate(toks) if plain(tok)]
        values = np.fromiter(map(int, [toks[i] for i in at]), np.int64, len(at))
        return (values & 0xFFFFFFFF).astype(np.uint32), np.array(at, np.int64)
    at = [i for i, tok in enumerate(toks) if _PLAIN_FLOAT.match(tok)]
    # Through a double, as `literals._nearest_f32_bits` goes: right but for a double
    # that falls on a tie between two floats, left to `encode_typed`.
    double = np.fromiter(map(float, [toks[i] for i in at]), np.float64, len(at))
    with np.errstate(over="ignore"):
        single = double.astype(np.float32)
    back = single.astype(np.float64)
    toward = np.where(double > back, np.float32(np.inf), np.float32(-np.inf)).astype(np.float32)
    other = np.nextafter(single, toward).astype(np.float64)
    ok = np.isfinite(single) & ((back == double) | (2 * double != back + other))
    return single[ok].view(np.uint32), np.array(at, np.int64)[ok]


def number_ids(
    encoder: QuickEncoder, distinct: Distinct, numeric: bool, hints: dict[str, int], codes: np.ndarray,
    typed_starts: np.ndarray,
) -> np.ndarray | None:
    """The number of every distinct word (0 for those that are not ids, and for the
    padding, last), as spirv-as numbers them: the numeric ids (if `numeric`) and the
    hints pinned, the others from 1 up in order of first appearance, skipping the
    pinned numbers. Fills the encoder's id table with them, as `IdTable.pin` and
    `IdTable.assign` would."""
    ids = encoder.ids
    unique = distinct.unique
    numbers = np.zeros(len(unique) + 1, np.uint32)
    is_pinned = np.zeros(len(unique) + 1, bool)
    if numeric:
        is_pinned = distinct.numeric >= 0
        numbers[is_pinned] = distinct.numeric[is_pinned]
    kept = np.concatenate([numbers[is_pinned].astype(np.int64), np.fromiter(hints.values(), np.int64, len(hints))])
    if len(kept):  # one past the largest, but for 2^32 - 1 (its bound wraps to 0)
        below = kept[kept != 0xFFFFFFFF]
        ids.bound = max(ids.bound, int(below.max()) + 1 if len(below) else 0)
    if hints:
        where = dict(zip(unique, range(len(unique)))) if len(hints) > 64 else None
        for word, number in hints.items():
            i = where.get(word) if where is not None else (unique.index(word) if word in unique else None)
            if i is not None:
                numbers[i] = number
                is_pinned[i] = True
    # Distinct words are indexed in order of first appearance in the text.
    named_np = np.flatnonzero((distinct.cls == PCT) & ~is_pinned)
    # An assignment whose result and result type both appear first there: the type is
    # numbered first. The two are then next to each other among the named ids.
    if len(typed_starts) and len(named_np):
        seen = np.maximum.accumulate(codes)
        s = typed_starts
        before = np.where(s > 0, seen[np.maximum(s - 1, 0)], -1)
        s = s[(codes[s] > before) & (codes[s + 3] > seen[s + 2])]
        del seen
        if len(s):
            r_at = np.minimum(np.searchsorted(named_np, codes[s]), len(named_np) - 1)
            t_at = np.minimum(np.searchsorted(named_np, codes[s + 3]), len(named_np) - 1)
            both = (named_np[r_at] == codes[s]) & (named_np[t_at] == codes[s + 3])
            r_at, t_at = r_at[both], t_at[both]
            if not (t_at == r_at + 1).all():
                return None
            named_np[r_at], named_np[t_at] = named_np[t_at], named_np[r_at].copy()
    count = len(named_np)
    if len(kept):
        candidates = np.arange(1, count + len(kept) + 1, dtype=np.int64)
        candidates = candidates[~np.isin(candidates, kept)][:count]
    else:
        candidates = np.arange(1, count + 1, dtype=np.int64)
    numbers[named_np] = candidates
    if count:
        top = int(candidates[-1])
        ids.next_id = top + 1
        ids.bound = max(ids.bound, (top + 1) & 0xFFFFFFFF)
    ids.preserve = frozenset(kept.tolist())
    return numbers
