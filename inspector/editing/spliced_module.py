"""The lazy module of an edited binary, its index made from the unedited module's.

Opening a module needs an index of every instruction boundary, which candidate
instructions define each id, and the function spans: on the 468,000-instruction module
that is a pass of a few hundred milliseconds over every word, too slow to repeat on each
keystroke. An edit replaces one run of instructions (words [start, old end) by [start,
new end)); `spliced_module` opens the new binary and gives it the old module's index
with that run re-scanned and what follows shifted, so only the words the edit touched
are read. It fills the lazy module's own index structures (`codec.binary.lazy` has no
public way to hand an index over; the tests hold the result to a fresh `open_module`'s,
boundary for boundary, candidate for candidate and span for span), and returns None when
it cannot be sure (an unindexed or damaged module, an edit not on instruction
boundaries) so that the caller opens the module afresh.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left

from spvinspect.codec.binary.definitions import Definitions
from spvinspect.codec.binary.index import InstructionIndex
from spvinspect.codec.binary.lazy import FunctionSpan, LazyModule, open_module
from spvinspect.codec.binary.model import HEADER_WORDS

WordChange = tuple[int, int, int]
"""Words [start, old end) of the old module are words [start, new end) of the new."""


def spliced_module(old: LazyModule, data: bytes, change: WordChange) -> LazyModule | None:
    """`data` opened with `old`'s index spliced (see the module's docstring), or None."""
    old_index = old._index
    if old.header is None or not old_index.done or old_index.stop is not None or old.trailing_bytes:
        return None
    start, old_end, new_end = change
    offsets = old_index.offsets
    count = len(offsets)
    i0 = bisect_left(offsets, start)
    i1 = bisect_left(offsets, old_end)
    if start < HEADER_WORDS or (i0 < count and offsets[i0] != start) or (i1 < count and offsets[i1] != old_end):
        return None
    if i1 == count and old_end != old_index.next_offset:
        return None
    module = open_module(data, old.grammar)
    words = module.words
    if module.header is None or module.header.magic != old.header.magic or module.trailing_bytes:
        return None
    middle = _boundaries(words, start, new_end)
    if middle is None:
        return None
    shift = new_end - old_end
    tail = offsets[i1:] if not shift else array("I", [offset + shift for offset in offsets[i1:]])
    index = InstructionIndex(words, HEADER_WORDS, old_index._op_function, scan=False)
    index.offsets = offsets[:i0] + middle + tail
    index.next_offset = old_index.next_offset + shift
    if len(words) != index.next_offset:
        return None
    index.done = True
    index.first_function = _first_function(old_index, words, index.offsets, i0, i1, len(middle))
    module._index = index
    definitions = _spliced_definitions(old, module, i0, i1, len(middle))
    if definitions is None:
        return None
    module._definitions = definitions
    module._functions = _spliced_functions(old, module, i0, i1, len(middle))
    return module


def _boundaries(words: array, start: int, end: int) -> array | None:
    """The instruction starts in words [start, end), or None unless they end at `end`."""
    found = array("I")
    offset = start
    while offset < end:
        size = words[offset] >> 16
        if not size:
            return None
        found.append(offset)
        offset += size
    return found if offset == end else None


def _first_function(
    old_index: InstructionIndex, words: array, offsets: array, i0: int, i1: int, added: int
) -> int | None:
    """The first OpFunction's index in the new module."""
    first = old_index.first_function
    if first is not None and first < i0:
        return first
    op_function = old_index._op_function
    if first is not None and first >= i1:
        last = i0 + added  # before the old first function's new place, only the edit can hold one
        shifted = first - (i1 - i0) + added
    else:
        last = shifted = len(offsets)
    for index in range(i0, last):
        if words[offsets[index]] & 0xFFFF == op_function:
            return index
    return shifted if shifted < len(offsets) else None


def _result(words: array, offset: int, positions) -> int | None:
    """The id the instruction at `offset` would define (as `Definitions` reads it)."""
    head = words[offset]
    position = positions[head & 0xFFFF]
    return words[offset + position] if position and position < head >> 16 else None


def _spliced_definitions(old: LazyModule, module: LazyModule, i0: int, i1: int, added: int) -> Definitions | None:
    """`old`'s candidate definers with instructions [i0, i1) replaced by `added` new ones."""
    before = old._definitions
    count = len(old._index.offsets)
    if before.scanned != count:
        return None
    after = Definitions(module._tables, module.words, module.header.bound)
    delta = added - (i1 - i0)
    dense = after._dense
    first = before._first
    if delta:
        first = array("i", [value + delta if value > i1 else value for value in first])
    else:
        first = array("i", first)
    sparse = {id_: value + delta if value > i1 else value for id_, value in before._sparse.items()}
    if len(first) > dense:
        sparse.update((id_, value) for id_, value in enumerate(first[dense:], dense) if value)
        del first[dense:]
    elif len(first) < dense:
        first.extend(array("i", bytes(4 * (dense - len(first)))))
        for id_ in [id_ for id_ in sparse if id_ < dense]:
            first[id_] = sparse.pop(id_)
    repeated = {id_: [c + delta if c >= i1 else c for c in found] for id_, found in before.repeated.items()}
    positions = module._tables.result_positions
    old_words, old_offsets = old.words, old._index.offsets
    new_words, new_offsets = module.words, module._index.offsets
    touched = {_result(old_words, old_offsets[k], positions) for k in range(i0, i1)}
    touched |= {_result(new_words, new_offsets[k], positions) for k in range(i0, i0 + added)}
    touched.discard(None)
    for id_ in touched:
        repeated.pop(id_, None)
        kept = before.repeated.get(id_)
        if kept is None:
            value = before.first(id_)
            kept = [] if value is None else [value]
        candidates = [c for c in kept if c < i0] + [c + delta for c in kept if c >= i1]
        candidates += [k for k in range(i0, i0 + added) if _result(new_words, new_offsets[k], positions) == id_]
        candidates.sort()
        value = candidates[0] + 1 if candidates else 0
        if id_ < dense:
            first[id_] = value
        elif value:
            sparse[id_] = value
        else:
            sparse.pop(id_, None)
        if len(candidates) > 1:
            repeated[id_] = candidates
    after._first, after._sparse, after.repeated = first, sparse, repeated
    after.scanned = len(new_offsets)
    return after


def _spliced_functions(old: LazyModule, module: LazyModule, i0: int, i1: int, added: int) -> list[FunctionSpan] | None:
    """`old`'s function spans, shifted past the edit; None (found again when asked)
    when the edit holds an OpFunction or OpFunctionEnd, old or new."""
    spans = old._functions
    if spans is None:
        return None
    opcodes = module._tables.opcodes
    bounds = {opcodes.OpFunction, opcodes.OpFunctionEnd}
    if any(old.opcode(k) in bounds for k in range(i0, i1)):
        return None
    if any(module.opcode(k) in bounds for k in range(i0, i0 + added)):
        return None
    delta = added - (i1 - i0)
    return [
        span if span.end <= i0 else
        FunctionSpan(span.first + delta, span.end + delta, span.result_id) if span.first >= i1 else
        FunctionSpan(span.first, span.end + delta, span.result_id)
        for span in spans
    ]
