"""A module with an edit spliced in: the edited binary opened with the unedited module's
index, only the edited words re-scanned.

Opening a module indexes every instruction boundary, which instructions define each id
and where functions are; repeating that over a huge module for each keystroke is too
slow. An edit replaces one run of instructions (words [start, old end) by words [start,
new end)); `splice_module` opens the new binary and gives it the old index with that run
re-scanned and what follows shifted. The result equals a fresh `open_module` of the new
binary (boundary for boundary, candidate for candidate, span for span); when that cannot
be guaranteed (an unindexed or damaged module, an edit not on instruction boundaries) it
is None and the caller opens the binary afresh. An edit that keeps every instruction's
place (a literal's digit, a letter of a name) also hands the new module the chunks the
old one decoded that decode alike, so the panes do not decode them again after each key.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from typing import NamedTuple

from spvinspect.codec.binary.definitions import Definitions
from spvinspect.codec.binary.index import InstructionIndex
from spvinspect.codec.binary.instruction_decoder import number_type_of
from spvinspect.codec.binary.lazy import FunctionSpan, LazyModule, open_module
from spvinspect.codec.binary.model import HEADER_WORDS


class WordChange(NamedTuple):
    """Words [start, old_end) of the old module are words [start, new_end) of the new."""

    start: int
    old_end: int
    new_end: int


def splice_module(old: LazyModule, data: bytes, change: tuple[int, int, int],
                  read: tuple[array, bool] | None = None) -> LazyModule | None:
    """`data` (the binary `old` becomes with `change`) opened with `old`'s index spliced,
    or None when the splice cannot be sure to equal a fresh open (`read`: `data`'s words
    already read, see `words_from_bytes`)."""
    start, old_end, new_end = change
    if old.header is None or not old.indexed or old.index.stop is not None or old.trailing_bytes:
        return None
    offsets = old.index.offsets
    count = len(offsets)
    i0 = bisect_left(offsets, start)
    i1 = bisect_left(offsets, old_end)
    if start < HEADER_WORDS or (i0 < count and offsets[i0] != start) or (i1 < count and offsets[i1] != old_end):
        return None
    if i1 == count and old_end != old.tail_offset:
        return None
    module = open_module(data, old.grammar, read)
    if module.header is None or module.header.magic != old.header.magic or module.trailing_bytes:
        return None
    index = InstructionIndex.spliced(old.index, module.words, i0, i1, start, new_end)
    if index is None:
        return None
    added = len(index.offsets) - count + (i1 - i0)
    definitions = Definitions.spliced(
        old.definitions, offsets, module.words, module.header.bound, index.offsets, i0, i1, added
    )
    if definitions is None:
        return None
    module.adopt_index(index, definitions, _spliced_functions(old, module, index, i0, i1, added))
    if added == i1 - i0 and new_end == old_end and index.offsets[i0:i1] == offsets[i0:i1]:
        module.adopt_decoded(old, i0, i1, later=False)
        if _decoded_alike_after(old, module, i0, i1):
            module.adopt_decoded(old, i0, i1, later=True)
    return module


def _decoded_alike_after(old: LazyModule, new: LazyModule, i0: int, i1: int) -> bool:
    """Whether the instructions after [i0, i1) decode alike in `old` and `new` (same
    boundaries, only those instructions edited): the edited ones define the same ids,
    with the same types, no numeric type or import among them, and they decode (a
    definer that does not decode defines nothing for the later ones)."""
    tables = old.tables
    words_old, words_new = old.words, new.words
    offsets = old.index.offsets
    for k in range(i0, i1):
        at = offsets[k]
        head = words_old[at]
        opcode = head & 0xFFFF
        if head != words_new[at] or opcode == tables.opcodes.OpExtInstImport:
            return False
        if number_type_of(tables, words_old, at) is not None or number_type_of(tables, words_new, at) is not None:
            return False
        for position in (tables.result_positions[opcode], 1 if tables.type_positions[opcode] else 0):
            if position and position < head >> 16 and words_old[at + position] != words_new[at + position]:
                return False
        if not (old.instruction(k).valid and new.instruction(k).valid):
            return False
    return True


def _spliced_functions(
    old: LazyModule, module: LazyModule, index: InstructionIndex, i0: int, i1: int, added: int
) -> list[FunctionSpan] | None:
    """`old`'s function spans shifted past the edit; None (found again when asked) when
    the edit holds an OpFunction or OpFunctionEnd, old or new."""
    spans = old.known_functions
    if spans is None:
        return None
    opcodes = module.tables.opcodes
    bounds = {opcodes.OpFunction, opcodes.OpFunctionEnd}
    if added == i1 - i0 and i1 - i0 > _FEW:
        return list(spans) if _bounds_kept(old, module, index, i0, i1, opcodes.OpFunction, opcodes.OpFunctionEnd) else None
    if any(old.opcode(k) in bounds for k in range(i0, i1)):
        return None
    words, offsets = module.words, index.offsets
    if any(words[offsets[k]] & 0xFFFF in bounds for k in range(i0, i0 + added)):
        return None
    delta = added - (i1 - i0)
    if not delta:
        return list(spans)  # the same places (spans are immutable)
    before = bisect_right(spans, i0, key=_end)
    after = bisect_left(spans, i1, lo=before, key=_first)
    return (spans[:before] + [FunctionSpan(first, end + delta, id_) for first, end, id_ in spans[before:after]]
            + [FunctionSpan(first + delta, end + delta, id_) for first, end, id_ in spans[after:]])


_FEW = 64
"""Instructions an edit replaces beyond which their opcodes are compared with numpy."""


def _bounds_kept(old: LazyModule, module: LazyModule, index: InstructionIndex, i0: int, i1: int,
                 op_function: int, op_end: int) -> bool:
    """Whether instructions [i0, i1), as many before the edit as after, have their
    OpFunction and OpFunctionEnd at the same places, each OpFunction with the same result
    (the function spans are the same), compared at C speed: an edit re-encoding
    instructions all through the functions."""
    import numpy as np  # here: opening a module never loads numpy

    old_words = np.frombuffer(old.words, dtype=np.uint32)
    new_words = np.frombuffer(module.words, dtype=np.uint32)
    old_at = np.frombuffer(old.index.offsets, dtype=np.uint32)[i0:i1].astype(np.int64)
    new_at = np.frombuffer(index.offsets, dtype=np.uint32)[i0:i1].astype(np.int64)
    old_heads, new_heads = old_words[old_at], new_words[new_at]
    old_op, new_op = old_heads & 0xFFFF, new_heads & 0xFFFF
    old_bound = (old_op == op_function) | (old_op == op_end)
    if not np.array_equal(old_bound, (new_op == op_function) | (new_op == op_end)):
        return False
    if not np.array_equal(old_op[old_bound], new_op[old_bound]):
        return False
    starts = np.flatnonzero(old_op == op_function)
    old_long, new_long = (old_heads[starts] >> 16) >= 3, (new_heads[starts] >> 16) >= 3
    if not np.array_equal(old_long, new_long):
        return False
    starts = starts[old_long]
    return bool(np.array_equal(old_words[old_at[starts] + 2], new_words[new_at[starts] + 2]))


def _end(span: FunctionSpan) -> int:
    return span.end


def _first(span: FunctionSpan) -> int:
    return span.first
