"""`splice_module`: the edited binary opened with the unedited module's index spliced in
is the module a fresh `open_module` makes (boundaries, candidate definers, function spans,
decoded instructions), for word-level edits of every kind; edits it cannot splice give
None rather than a wrong index."""

from __future__ import annotations

import random
import struct

import pytest
from oracle import corpus_files
from spliced import assert_same_module

from spvinspect.codec.binary import lazy
from spvinspect.codec.binary.lazy import LazyModule, open_module
from spvinspect.codec.binary.splice import WordChange, splice_module
from spvinspect.commands.open import EXAMPLE_MODULE

OP_NOP = 0x00010000
"""OpNop's first word: word count 1, opcode 0."""


def indexed(data: bytes) -> LazyModule:
    module = open_module(data)
    module.ensure_indexed()
    module.functions()
    return module


def words_of(module: LazyModule) -> list[int]:
    return list(module.words)


def pack(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def random_edit(module: LazyModule, rng: random.Random) -> tuple[bytes, WordChange]:
    """One edit on instruction boundaries: a literal changed, OpNops added, instructions
    removed, an instruction duplicated (its id defined twice), or one moved elsewhere."""
    words = words_of(module)
    offsets = list(module.index.offsets)
    count = len(offsets)
    ends = offsets[1:] + [module.tail_offset]
    k = rng.randrange(count)
    start, end = offsets[k], ends[k]
    kind = rng.randrange(5)
    if kind == 0:
        replacement = words[start:end]
        if len(replacement) > 1:
            replacement[-1] ^= 1 << rng.randrange(8)
    elif kind == 1:
        replacement = [OP_NOP] * rng.randrange(1, 4)
        end = start
    elif kind == 2:
        end = ends[min(count - 1, k + rng.randrange(3))]
        replacement = []
    elif kind == 3:
        replacement = words[start:end] * 2
    else:
        j = rng.randrange(count)
        replacement = words[offsets[j] : ends[j]] + words[start:end]
    new = words[:start] + replacement + words[end:]
    return pack(new), WordChange(start, end, start + len(replacement))


def test_every_kind_of_edit_splices_to_the_fresh_module():
    module = indexed(EXAMPLE_MODULE.read_bytes())
    rng = random.Random(21)
    for step in range(60):
        data, change = random_edit(module, rng)
        spliced = splice_module(module, data, change)
        assert spliced is not None, (step, change)
        assert_same_module(spliced, open_module(data))
        module = spliced


def test_a_new_function_boundary_is_found_again():
    module = indexed(EXAMPLE_MODULE.read_bytes())
    words = words_of(module)
    first = module.functions()[0]
    at = module.offset(first.first)
    size = words[at] >> 16
    data = pack(words[:at] + words[at + size :])
    spliced = splice_module(module, data, WordChange(at, at + size, at))
    assert spliced is not None and spliced.known_functions is None
    assert_same_module(spliced, open_module(data))


@pytest.mark.parametrize(
    "change",
    [(2, 2, 3), (8, 8, 9), (7, 9, 7)],
    ids=["in the header", "inside an instruction", "ending inside an instruction"],
)
def test_an_edit_off_instruction_boundaries_is_not_spliced(change):
    module = indexed(EXAMPLE_MODULE.read_bytes())
    words = words_of(module)
    start, old_end, new_end = change
    data = pack(words[:start] + [OP_NOP] * (new_end - start) + words[old_end:])
    assert splice_module(module, data, change) is None


def test_an_unindexed_or_damaged_module_is_not_spliced():
    data = EXAMPLE_MODULE.read_bytes()
    change = WordChange(5, 5, 6)
    edited = data[:20] + struct.pack("<I", OP_NOP) + data[20:]
    assert splice_module(open_module(data), edited, change) is None
    damaged = indexed(data + b"\x01\x02")
    assert splice_module(damaged, edited + b"\x01\x02", change) is None
    overrun = struct.pack("<I", 0x00050000)  # a word count running past the end
    stopped = indexed(data + overrun)
    assert stopped.index.stop is not None
    assert splice_module(stopped, edited + overrun, change) is None


def test_a_module_cannot_adopt_an_index_once_decoding_started():
    module = indexed(EXAMPLE_MODULE.read_bytes())
    fresh = open_module(EXAMPLE_MODULE.read_bytes())
    fresh.instruction(0)
    with pytest.raises(RuntimeError):
        fresh.adopt_index(module.index, module.definitions, None)


SPLICE_MODULES = corpus_files("spv", "*.spv")[::60]


@pytest.mark.skipif(not SPLICE_MODULES, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
@pytest.mark.parametrize("path", SPLICE_MODULES, ids=lambda p: p.name[:60])
def test_corpus_edits_splice_to_the_fresh_module(path):
    module = indexed(path.read_bytes())
    rng = random.Random(path.name)
    for _ in range(8):
        data, change = random_edit(module, rng)
        spliced = splice_module(module, data, change)
        assert spliced is not None, change
        assert_same_module(spliced, open_module(data))
        module = spliced


def test_decoded_chunks_carried_over_decode_as_a_fresh_module(monkeypatch):
    """A spliced module takes the unedited one's decoded chunks that the edit leaves
    alike (all before it; after it too when the edit changes no definition they read):
    small chunks, many edits of one word (a literal, a type's width, a result id, a
    result type), each module decoded whole before the next edit."""
    monkeypatch.setattr(lazy, "CHUNK", 8)
    module = indexed(EXAMPLE_MODULE.read_bytes())
    module.check()
    rng = random.Random(5)
    carried = 0
    for step in range(80):
        words = words_of(module)
        k = rng.randrange(module.instruction_count)
        at, size = module.offset(k), words[module.offset(k)] >> 16
        if size < 2:
            continue
        words[at + rng.randrange(1, size)] ^= 1 << rng.randrange(3)
        data = pack(words)
        spliced = splice_module(module, data, WordChange(at, at + size, at + size))
        assert spliced is not None, step
        carried += len(spliced._cache) > 1
        assert_same_module(spliced, open_module(data))
        module = spliced
    assert carried > 40


def test_wide_edits_keeping_every_place_splice_to_the_fresh_module():
    """Many instructions of one run changed in place (literals and result ids flipped,
    instructions of a size swapped), as an edit re-encoding instructions all along gives."""
    module = indexed(EXAMPLE_MODULE.read_bytes())
    rng = random.Random(23)
    for step in range(40):
        words = words_of(module)
        offsets = list(module.index.offsets)
        ends = offsets[1:] + [module.tail_offset]
        k0 = rng.randrange(len(offsets))
        k1 = min(len(offsets) - 1, k0 + rng.randrange(2, 40))
        for k in range(k0, k1 + 1):
            start, end = offsets[k], ends[k]
            if end - start > 1 and rng.random() < 0.3:
                words[end - 1] ^= 1 << rng.randrange(3)
            j = rng.randrange(k0, k1 + 1)
            if rng.random() < 0.2 and ends[j] - offsets[j] == end - start:
                words[start:end], words[offsets[j] : ends[j]] = words[offsets[j] : ends[j]], words[start:end]
        data = pack(words)
        spliced = splice_module(module, data, WordChange(offsets[k0], ends[k1], ends[k1]))
        assert spliced is not None, step
        assert_same_module(spliced, open_module(data))
        module = spliced


def test_an_edit_across_functions_keeping_their_bounds_keeps_the_function_spans():
    """Instructions changed in place all through the functions (a type's switches
    re-encoded), their OpFunction and OpFunctionEnd kept: the spans are carried over."""
    module = indexed(EXAMPLE_MODULE.read_bytes())
    words = words_of(module)
    opcodes = module.tables.opcodes
    bounds = {opcodes.OpFunction, opcodes.OpFunctionEnd}
    offsets = list(module.index.offsets)
    ends = offsets[1:] + [module.tail_offset]
    flipped = 0
    for k in range(module.first_function, len(offsets)):
        if words[offsets[k]] & 0xFFFF not in bounds and ends[k] - offsets[k] > 1:
            words[ends[k] - 1] ^= 1
            flipped += 1
    data = pack(words)
    spliced = splice_module(module, data, WordChange(offsets[1], module.tail_offset, module.tail_offset))
    assert flipped > 10 and spliced is not None and spliced.known_functions == module.functions()
    assert_same_module(spliced, open_module(data))


def test_a_numeric_id_near_the_top_of_the_range_keeps_the_id_table_its_size():
    """A new id at 4000000000 raises the bound past every word of the module: the spliced
    definers keep the ids' dense table at its size (the new id goes to the sparse part)
    rather than one entry for each of the module's words."""
    module = indexed(EXAMPLE_MODULE.read_bytes())
    words = words_of(module)
    void = next(i for i in module.instructions() if i.opname == "OpTypeVoid").result_id
    at = module.offset(module.first_function)
    undef = [(3 << 16) | 1, void, 4_000_000_000]  # %4000000000 = OpUndef %void
    new = words[:at] + undef + words[at:]
    new[3] = 4_000_000_001
    data = pack(new)
    spliced = splice_module(module, data, WordChange(at, at, at + 3))
    assert spliced is not None
    assert_same_module(spliced, open_module(data))
    assert spliced._definitions._dense == module._definitions._dense
