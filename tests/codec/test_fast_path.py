"""The decoder's fast path, compiled from the operand program, decodes exactly as the
general walk does: every corpus module (and corrupted copies) decoded both ways gives
the same instructions and diagnostics."""

from __future__ import annotations

from array import array

import pytest
from corruptions import corruptions

from spvinspect.codec.binary.fast_forms import FastForms, instruction_form
from spvinspect.codec.binary.instruction_decoder import InstructionDecoder
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.binary.model import NumberType
from spvinspect.codec.binary.tables import decoder_tables
from spvinspect.codec.grammar import load_grammar


class GeneralOnly(FastForms):
    """Forms that take no instruction: every one goes through the general walk."""

    def entry(self, head: int) -> None:
        return None


def both_ways(data: bytes) -> tuple[tuple[list, list], tuple[list, list], int]:
    """(instructions, diagnostics) decoded with the fast path and without, and how many
    instructions the fast path took."""
    module = open_module(data)
    module.ensure_indexed()
    offsets = array("I", (module.offset(i) for i in range(module.instruction_count)))
    bound = module.header.bound if module.header is not None else 0
    tables = decoder_tables(load_grammar())
    fast = InstructionDecoder(tables, bound)
    fast_instructions = fast.run(module.words, offsets)
    taken = len(fast_instructions) - len(fast.general)
    general = InstructionDecoder(tables, bound)
    general_instructions = general.run(module.words, offsets, GeneralOnly(tables, instruction_form))
    return (fast_instructions, fast.diagnostics), (general_instructions, general.diagnostics), taken


def test_corpus_modules_decode_alike_on_both_paths(spv_modules):
    taken = 0
    for number, path in enumerate(spv_modules):
        data = path.read_bytes()
        fast, general, took = both_ways(data)
        assert fast == general, path.name
        taken += took
        if number % 8 == 0:
            for case in corruptions(data, number):
                fast, general = both_ways(case.data)[:2]
                assert fast == general, f"{path.name}: {case.name}"
    assert taken > 0


@pytest.mark.parametrize("opname", ["OpPhi", "OpSwitch", "OpGroupMemberDecorate", "OpLoad", "OpDecorate"])
def test_the_program_gives_these_opcodes_a_fast_path(opname):
    tables = decoder_tables(load_grammar())
    opcode = tables.program.by_name[opname].opcode
    plan = tables.plan(opcode)
    assert plan is not None
    if opname == "OpSwitch":
        assert tables.word_plan(opcode, 7) is None  # the case literals' width is not known yet
        case = tables.case_word_plan(opcode, 7, NumberType("int", 32, True))
        assert [e.kind for e in case.entries] == ["IdRef", "IdRef"] + ["LiteralInteger", "IdRef"] * 2
        assert tables.case_word_plan(opcode, 6, NumberType("int", 32, True)) is None  # a literal without its label
        assert tables.case_word_plan(opcode, 7, NumberType("int", 16, True)) is None


def test_opphi_reads_its_pairs_as_a_plain_list_of_ids():
    tables = decoder_tables(load_grammar())
    opcode = tables.program.by_name["OpPhi"].opcode
    for count in (4, 5, 6):  # odd counts of ids too, as SPIRV-Tools reads them
        plan = tables.word_plan(opcode, count)
        assert plan is not None and plan.all_ids
        assert [e.kind for e in plan.entries[2:]] == ["IdRef"] * (count - 3)
