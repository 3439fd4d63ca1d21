"""Aligning two sequences of instruction keys: which elements of A and B are the same.

A patience alignment: common prefix and suffix, then the keys that occur once on each
side as anchors (their longest increasing run), recursively between anchors; a gap with
no such anchor is left to difflib when small, or taken as replaced. Fast on long
sequences with few differences (half a million instructions, a hundred edits), and an
insertion never shifts the elements after it into differences.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher
from typing import NamedTuple

SMALL_GAP = 40_000
"""A gap of at most this many element pairs (len(A) × len(B)) goes to difflib."""


class Op(NamedTuple):
    """A run of the alignment: `equal`, `replace`, `delete` (A only) or `insert` (B
    only), over A[a1:a2] and B[b1:b2]."""

    tag: str
    a1: int
    a2: int
    b1: int
    b2: int


def _increasing_run(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of `pairs` (sorted by A) whose B indexes increase."""
    tails: list[int] = []
    tail_at: list[int] = []
    back: list[int] = []
    for k, (_, j) in enumerate(pairs):
        at = bisect_left(tails, j)
        if at == len(tails):
            tails.append(j)
            tail_at.append(k)
        else:
            tails[at] = j
            tail_at[at] = k
        back.append(tail_at[at - 1] if at else -1)
    run = []
    k = tail_at[-1] if tail_at else -1
    while k >= 0:
        run.append(pairs[k])
        k = back[k]
    run.reverse()
    return run


def matches(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    """The pairs (i, j) of equal elements the alignment keeps, in increasing order."""
    out: list[tuple[int, int]] = []
    stack = [(0, len(a), 0, len(b))]
    # Ranges are taken from the stack last first, and pushed in reverse order, so the
    # pairs come out in order.
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        if isinstance(alo, tuple):  # a pair waiting for its turn
            out.append(alo)
            continue
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            out.append((alo, blo))
            alo += 1
            blo += 1
        suffix = []
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi -= 1
            bhi -= 1
            suffix.append((ahi, bhi))
        tail = [(pair, 0, 0, 0) for pair in reversed(suffix)]
        if alo < ahi and blo < bhi:
            anchors = _anchors(a, b, alo, ahi, blo, bhi)
            if anchors:
                pieces: list = []
                i0, j0 = alo, blo
                for i, j in anchors:
                    pieces.append((i0, i, j0, j))
                    pieces.append(((i, j), 0, 0, 0))
                    i0, j0 = i + 1, j + 1
                pieces.append((i0, ahi, j0, bhi))
                stack.extend(reversed(pieces + tail))
                continue
            if (ahi - alo) * (bhi - blo) <= SMALL_GAP:
                matcher = SequenceMatcher(None, a[alo:ahi], b[blo:bhi], autojunk=False)
                for block in matcher.get_matching_blocks():
                    out.extend((alo + block.a + k, blo + block.b + k) for k in range(block.size))
        stack.extend(reversed(tail))
    return out


def _anchors(a, b, alo, ahi, blo, bhi) -> list[tuple[int, int]]:
    """The elements found once in A[alo:ahi] and once in B[blo:bhi], as (i, j), the
    longest run of them in the same order on both sides."""
    seen_a: dict = {}
    for i in range(alo, ahi):
        key = a[i]
        seen_a[key] = -1 if key in seen_a else i
    seen_b: dict = {}
    for j in range(blo, bhi):
        key = b[j]
        if key in seen_a:
            seen_b[key] = -1 if key in seen_b else j
    pairs = [(seen_a[key], j) for key, j in seen_b.items() if j >= 0 and seen_a[key] >= 0]
    if not pairs:
        return []
    pairs.sort()
    return _increasing_run(pairs)


def align(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Op]:
    """The alignment of A and B as runs: equal, replace, delete, insert."""
    ops: list[Op] = []
    i = j = 0
    run_start: tuple[int, int] | None = None
    for mi, mj in matches(a, b) + [(len(a), len(b))]:
        if mi > i or mj > j:
            if run_start is not None:
                ops.append(Op("equal", run_start[0], i, run_start[1], j))
                run_start = None
            tag = "replace" if mi > i and mj > j else "delete" if mi > i else "insert"
            ops.append(Op(tag, i, mi, j, mj))
        if mi == len(a) and mj == len(b):
            break
        if run_start is None:
            run_start = (mi, mj)
        i, j = mi + 1, mj + 1
    if run_start is not None:
        ops.append(Op("equal", run_start[0], i, run_start[1], j))
    return ops
