"""An edited module's friendly names derived from the unedited module's
(`codec.text.names_update`) are the names a fresh naming pass gives the edited module:
constants retyped to another constant's value (so names collide and suffixes move), vector
sizes and integer signedness changed, array lengths pointed at other constants; some with
instructions in the functions changed too (the edit reaching there)."""

from __future__ import annotations

import random

from oracle import corpus_files

from spvinspect.codec.binary.lazy import LazyModule, open_module
from spvinspect.codec.binary.splice import WordChange
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.names_update import names_after_edit
from tests.codec.test_splice import pack


def opened(data: bytes) -> LazyModule:
    module = open_module(data)
    module.ensure_indexed()
    return module


def naming_edits(module: LazyModule, rng: random.Random) -> list[tuple[list[int], WordChange]]:
    """Edits of single instructions before the functions that rename ids: each as the
    edited words and the change (told with the instructions around it, kept)."""
    words = list(module.words)
    end = module.first_function or module.instruction_count
    by_name = module.grammar.by_name
    constants, edits = [], []
    for index in range(end):
        instruction = module.instruction(index)
        if instruction.valid and instruction.opname == "OpConstant" and instruction.word_count == 4:
            constants.append(instruction)
    for index in range(end):
        instruction = module.instruction(index)
        if not instruction.valid:
            continue
        at, count = instruction.offset, instruction.word_count
        edited = None
        if instruction.opname == "OpConstant" and count == 4:
            same_type = [c for c in constants if c.type_id == instruction.type_id and c is not instruction]
            edited = list(words)
            edited[at + 3] = words[rng.choice(same_type).offset + 3] if same_type else words[at + 3] ^ 1
        elif instruction.opcode == by_name["OpTypeVector"].opcode:
            edited = list(words)
            edited[at + 3] = 4 if words[at + 3] != 4 else 2
        elif instruction.opcode == by_name["OpTypeInt"].opcode:
            edited = list(words)
            edited[at + 3] ^= 1
        elif instruction.opcode == by_name["OpTypeArray"].opcode and constants:
            edited = list(words)
            edited[at + 3] = rng.choice(constants).result_id
        if edited is not None:  # the change told wider than the instruction (its neighbours kept)
            first = module.offset(max(index - 1, 0))
            last = module.offset(index + 2) if index + 2 < end else at + count
            if module.first_function is not None and rng.random() < 0.5:
                last = _bodies_edited(module, edited, rng)
            edits.append((edited, WordChange(first, last, last)))
    rng.shuffle(edits)
    return edits[:4]


def _bodies_edited(module: LazyModule, words: list[int], rng: random.Random) -> int:
    """A few instructions in the functions changed in `words` (their last word flipped,
    as re-encoded switch literals change, their opcodes kept); the end of the change:
    the module's."""
    for index in rng.sample(range(module.first_function, module.instruction_count), min(3, module.instruction_count - module.first_function)):
        at = module.offset(index)
        if words[at] >> 16 >= 2:
            words[at + (words[at] >> 16) - 1] ^= 1 << rng.randrange(4)
    return module.tail_offset


def test_an_edits_names_are_a_fresh_passs_names(corpus):
    rng = random.Random(23)
    followed = compared = 0
    failures = []
    for path in corpus_files("spv")[::6] + corpus_files("peer", "*/*.spv")[::6]:
        old = opened(path.read_bytes())
        previous = NameMap(old)
        current = list(old.words)
        # One edit after another, each named from the names the one before derived.
        for words, change in naming_edits(old, rng):
            current[change.start : change.old_end] = words[change.start : change.old_end]
            new = opened(pack(current))
            renamed = names_after_edit(previous, old, new, change)
            compared += 1
            if renamed is None:
                old, previous = new, NameMap(new)
                continue
            followed += 1
            fresh = NameMap(new).table()
            if renamed.table() != fresh:
                wrong = {k: (renamed.table().get(k), v) for k, v in fresh.items() if renamed.table().get(k) != v}
                failures.append(f"{path.name} at word {change.start}: {dict(list(wrong.items())[:4])}")
            old, previous = new, renamed
    assert not failures, f"{len(failures)} of {followed} edits named differently: {failures[:10]}"
    assert compared > 150 and followed > 0.9 * compared, (followed, compared)


def test_a_rename_moves_suffixes_as_a_fresh_pass_does():
    from spvinspect.codec.asm.assembler import assemble

    text = """OpCapability Shader
OpMemoryModel Logical GLSL450
%1 = OpTypeInt 32 0
%2 = OpConstant %1 5
%3 = OpConstant %1 6
%4 = OpConstant %1 7
%5 = OpTypeArray %1 %3
%6 = OpTypePointer Private %5
"""
    old = opened(assemble(text).binary)
    previous = NameMap(old)
    assert previous.table()[3] == "uint_6" and previous.table()[5] == "_arr_uint_uint_6"
    at = old.offset(3)  # %2 = OpConstant %uint 5 becomes 6: it takes uint_6, %3 becomes uint_6_0
    words = list(old.words)
    words[at + 3] = 6
    new = opened(pack(words))
    renamed = names_after_edit(previous, old, new, WordChange(at, at + 4, at + 4))
    assert renamed is not None
    table = renamed.table()
    assert (table[2], table[3], table[5], table[6]) == ("uint_6", "uint_6_0", "_arr_uint_uint_6_0", "_ptr_Private__arr_uint_uint_6_0")
    assert table == NameMap(new).table()
