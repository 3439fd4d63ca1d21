"""Dependents outside a region re-encoded from their words, their lines never made.

A constant whose type an edit changes, and a switch whose selector's type it changes,
encode differently in the whole text's assembly (`dependents`). Outside a region's text
their lines are not at hand; their literals are read from their words instead and
re-encoded for the new type: integers all at once (`codec.asm.retyped_integers`), floats
one literal at a time from the text spirv-dis prints for each, read as spirv-as reads it.
"""

from __future__ import annotations

from array import array

import numpy as np

from spvinspect.codec.asm.declarations import FLOAT, INT
from spvinspect.codec.asm.literal_operands import encode_typed
from spvinspect.codec.asm.plans import load_plans
from spvinspect.codec.asm.retyped_integers import Retyped, literal_values, retyped
from spvinspect.codec.binary.model import NumberType
from spvinspect.codec.text.number_format import format_number


def numbers_from_words(view: np.ndarray, plan: list[tuple[int, int, object]], tables, resizes: bool
                       ) -> tuple[dict[int, array] | None, int | None]:
    """The instructions outside a region in `plan` whose literals are numbers before
    and after the edit (at most 64 bits), re-encoded from their words (their lines are
    never made): a constant of a type edited, a switch whose selector's type changed.
    By position in the plan; with the position of the first one that gives an error (a
    value that does not fit its new type, a constant of a type no longer a number type,
    cases on a value no longer an integer; None when none does: it is left to its line,
    for the whole run's diagnostic). None at once when one would change size and
    `resizes` is False. `tables` gives the number types before and after the edit
    (`dependents._Kinds`)."""
    positions = np.array([k for k, p in enumerate(plan) if not isinstance(p[2], tuple)], dtype=np.int64)
    if not len(positions):
        return {}, None
    ops = load_plans().program.opcodes
    starts = np.array([plan[k][0] for k in positions.tolist()], dtype=np.int64)
    heads = view[starts]
    opcodes, counts = (heads & 0xFFFF).astype(np.int64), (heads >> 16).astype(np.int64)
    found: dict[int, array] = {}
    unfit: list[int] = []
    constant = np.isin(opcodes, [ops.OpConstant, ops.OpSpecConstant]) & np.isin(counts, [4, 5])
    type_ids = view[starts[constant] + 1]
    for type_id in np.unique(type_ids).tolist():
        kinds = tables.numbers(type_id, type_id)
        mine = np.flatnonzero(constant)[type_ids == type_id]
        if kinds is None:
            if (tables.types.get(type_id) or (None,))[0] not in (INT, FLOAT):  # a constant of no number type
                unfit.append(int(positions[mine][0]))  # is an error
            continue
        if not resizes and literal_words(kinds[0]) != literal_words(kinds[1]):
            return None, None
        unfit += _retyped_rows(view, positions[mine], starts[mine], opcodes[mine], counts[mine] - 3, 3, *kinds, found)
    switch = np.flatnonzero((opcodes == ops.OpSwitch) & (counts >= 3))
    selectors = view[starts[switch] + 1]
    distinct, which = np.unique(selectors, return_inverse=True)
    kinds = [tables.numbers(tables.old_value_types.get(s), tables.value_types.get(s)) for s in distinct.tolist()]
    not_integer = np.array([(tables.types.get(tables.value_types.get(s)) or (None,))[0] != INT
                            for s in distinct.tolist()], dtype=bool)[which]
    kinds = [kind if kind is not None and kind[0][0] == kind[1][0] == INT else None for kind in kinds]
    groups = {kind: k for k, kind in enumerate(dict.fromkeys(kinds))}
    group = np.array([groups[kind] for kind in kinds], dtype=np.int64)[which] if len(kinds) else which
    for kind, k in groups.items():
        mine = switch[group == k]
        if kind is None:  # no cases: the same words; cases on a value not an integer: an error
            for position, start, count, bad in zip(positions[mine].tolist(), starts[mine].tolist(),
                                                   counts[mine].tolist(), not_integer[group == k].tolist()):
                if count == 3:
                    found[position] = array("I", view[start : start + 3].tobytes())
                elif bad:
                    unfit.append(position)
            continue
        if not resizes and literal_words(kind[0]) != literal_words(kind[1]) and (counts[mine] > 3).any():
            return None, None
        unfit += _retyped_rows(view, positions[mine], starts[mine], opcodes[mine], counts[mine] - 3, 3, *kind,
                               found, labelled=True)
    return found, min(unfit, default=None)


def literal_words(number_type: tuple) -> int:
    """How many words a literal of a number type takes."""
    return 2 if number_type[1] > 32 else 1


def _retyped_by_text(low: np.ndarray, high: np.ndarray, old: tuple, new: tuple, old_words: int,
                     new_words: int) -> Retyped:
    """Literals of number type `old` (`low`, `high` words) re-encoded for type `new` one
    at a time: the text spirv-dis prints for each (`format_number`), read as spirv-as
    reads it (`encode_typed`); a float on either side."""
    kind, width, detail = old
    shown = NumberType("float", width, False, detail) if kind == FLOAT else NumberType("int", width, bool(detail))
    fits, lows, highs = [], [], []
    for value in (low.astype(np.uint64) | (high.astype(np.uint64) << np.uint64(32))).tolist():
        words, _ = encode_typed(format_number(value, shown, old_words), new)
        ok = words is not None and len(words) == new_words
        fits.append(ok)
        lows.append(words[0] if ok else 0)
        highs.append(words[1] if ok and new_words == 2 else 0)
    return Retyped(np.array(fits, dtype=bool), np.array(lows, dtype=np.uint32), np.array(highs, dtype=np.uint32))


def _retyped_rows(view: np.ndarray, positions: np.ndarray, starts: np.ndarray, opcodes: np.ndarray,
                  sizes: np.ndarray, head: int, old: tuple, new: tuple, found: dict[int, array],
                  labelled: bool = False) -> list[int]:
    """Instructions at `starts` whose first `head` words are kept and whose `sizes` words
    after them are literals of type `old` (each followed by a label word when
    `labelled`: a switch's cases), re-encoded for type `new` into `found` (by plan
    position); the positions of those holding a value that does not fit (or that would
    grow past the longest instruction), left out."""
    old_words, new_words = literal_words(old), literal_words(new)
    step = old_words + labelled
    whole = sizes % step == 0
    if not labelled:
        whole &= sizes == old_words
    starts, positions, opcodes, sizes = starts[whole], positions[whole], opcodes[whole], sizes[whole]
    cases = sizes // step
    owner = np.repeat(np.arange(len(starts)), cases)
    first = np.cumsum(cases) - cases
    at = starts[owner] + head + (np.arange(int(cases.sum())) - first[owner]) * step
    two = np.full(len(at), old_words == 2)
    second = np.where(two, view[np.minimum(at + 1, len(view) - 1)], 0)
    if old[0] == INT == new[0]:
        encoded = retyped(*literal_values(view[at], second, two, old[2]), new[1], new[2])
    else:
        encoded = _retyped_by_text(view[at], second, old, new, old_words, new_words)
    columns = [encoded.low] + ([encoded.high] if new_words == 2 else []) + ([view[at + old_words]] if labelled else [])
    rows = np.stack(columns, axis=1).astype(np.uint32) if len(at) else np.zeros((0, len(columns)), np.uint32)
    counts = head + cases * (new_words + labelled)
    bad = np.zeros(len(starts), dtype=bool)
    bad[owner[~encoded.fits]] = True
    bad |= counts > 0xFFFF
    kept = view[starts[:, None] + np.arange(head)] if len(starts) else np.zeros((0, head), np.uint32)
    kept = kept.astype(np.uint32)
    kept[:, 0] = (counts << 16) | opcodes
    ends = np.cumsum(cases)
    for k, position in enumerate(positions.tolist()):
        if not bad[k]:
            found[position] = array("I", kept[k].tobytes() + rows[ends[k] - cases[k] : ends[k]].tobytes())
    return positions[bad].tolist()
