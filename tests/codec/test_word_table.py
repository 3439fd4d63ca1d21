"""The word table of an instruction: every word on its own row with what it is, and the
grammar's word-count rule (issue #24's teaching table)."""

from __future__ import annotations

import array

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.grammar_card import ext_instruction_card, instruction_card
from spvinspect.codec.text.listing import OperandFormatter
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.word_detail import WordKind
from spvinspect.codec.text.word_table import header_table, word_table

MODULE = """\
OpCapability Shader
OpCapability Int64
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
OpName %main "main_\u00e9_name"
OpName %glsl "glsl"
OpName %one "one"
OpName %v "v"
OpName %x "x"
OpName %a "a"
OpName %b "b"
OpName %m "m"
OpDecorate %v RelaxedPrecision
%void = OpTypeVoid
%fn = OpTypeFunction %void
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %float
%one = OpConstant %float 1
%sel = OpConstant %long 5
%main = OpFunction %void None %fn
%a = OpLabel
%v = OpVariable %ptr Function
%x = OpExtInst %float %glsl Sqrt %one
OpStore %v %x Volatile|Aligned 4
OpSelectionMerge %m None
OpSwitch %sel %m 4294967296 %b -1 %m
%b = OpLabel
OpBranch %m
%m = OpLabel
%p = OpPhi %float %one %a %x %b
OpReturn
OpFunctionEnd
"""


def module_bytes() -> bytes:
    return assemble(MODULE).words.tobytes()


def named(module) -> OperandFormatter:
    return OperandFormatter(load_grammar(), NameMap(module))


def find(module, opname: str):
    return next(i for i in module.instructions if i.opname == opname)


def rows_of(module, opname: str):
    table = word_table(module, find(module, opname), named(module))
    return table, table.rows


def test_every_word_of_an_instruction_has_a_row_at_its_offset():
    module = decode(module_bytes())
    store = find(module, "OpStore")
    table, rows = rows_of(module, "OpStore")
    assert [r.index for r in rows] == list(range(store.word_count))
    assert [r.word_offset for r in rows] == list(range(store.offset, store.end))
    assert rows[2].byte_offset == (store.offset + 2) * 4
    assert table.title == f"OpStore, words {store.offset}-{store.end - 1}"


def test_first_word_splits_into_word_count_and_opcode_with_its_bits():
    module = decode(module_bytes())
    _, rows = rows_of(module, "OpStore")
    first = rows[0]
    assert first.kind is WordKind.OPCODE and first.role == "word count | opcode"
    assert first.hex == "0x0005003e" and first.file_hex == "3e 00 05 00"
    assert first.text == "word count 5, opcode 62 (OpStore)"
    assert first.bits == "0000000000000101 | 0000000000111110"


def test_store_with_aligned_ties_the_alignment_to_its_mask_bit():
    module = decode(module_bytes())
    table, rows = rows_of(module, "OpStore")
    assert table.word_count_rule == "3 + variable"
    assert (rows[1].role, rows[1].text) == ("operand 1 'Pointer' (IdRef)", "%v")
    assert (rows[2].role, rows[2].text) == ("operand 2 'Object' (IdRef)", "%x")
    assert (rows[3].kind, rows[3].text, rows[3].tied_to) == (WordKind.ENUM, "Volatile|Aligned", "")
    assert rows[4].text == "4" and rows[4].kind is WordKind.LITERAL
    assert rows[4].tied_to == "MemoryAccess Aligned (bit 0x2)"


def test_value_enum_parameters_are_tied_to_their_enumerant():
    module = decode(module_bytes())
    table, rows = rows_of(module, "OpExecutionMode")
    assert table.word_count_rule == "3 + variable"
    assert [r.tied_to for r in rows] == ["", "", ""]
    source = MODULE.replace("OriginUpperLeft", "LocalSize 8 4 1")
    local = decode(assemble(source).words.tobytes())
    _, rows = rows_of(local, "OpExecutionMode")
    assert [r.text for r in rows[3:]] == ["8", "4", "1"]
    assert {r.tied_to for r in rows[3:]} == {"ExecutionMode LocalSize"}


def test_switch_shows_both_halves_of_each_64_bit_case_and_its_pair():
    module = decode(module_bytes())
    table, rows = rows_of(module, "OpSwitch")
    assert table.word_count_rule == "3 + variable"
    cases = rows[3:]
    assert [(r.text, r.hex) for r in cases[:2]] == [
        ("4294967296, low word", "0x00000000"),
        ("4294967296, high word", "0x00000001"),
    ]
    assert cases[0].tied_to == cases[1].tied_to == "pair 1 (case literal): 4294967296 -> %b"
    assert (cases[2].text, cases[2].tied_to) == ("%b", "pair 1 (target label): 4294967296 -> %b")
    assert [r.text for r in cases[3:5]] == ["-1, low word", "-1, high word"]
    assert cases[5].tied_to == "pair 2 (target label): -1 -> %m"


def test_phi_pairs_read_as_value_from_block():
    module = decode(module_bytes())
    _, rows = rows_of(module, "OpPhi")
    assert [r.role for r in rows[1:3]] == ["Result Type", "Result <id>"]
    assert [r.kind for r in rows[1:3]] == [WordKind.TYPE_ID, WordKind.RESULT_ID]
    assert [r.tied_to for r in rows[3:]] == [
        "pair 1 (value): value %one from block %a",
        "pair 1 (from block): value %one from block %a",
        "pair 2 (value): value %x from block %b",
        "pair 2 (from block): value %x from block %b",
    ]


def test_ext_inst_rows_and_the_extended_instructions_word_count():
    module = decode(module_bytes())
    table, rows = rows_of(module, "OpExtInst")
    assert table.word_count_rule == "6"
    assert [(r.role, r.text) for r in rows[3:]] == [
        ("operand 1 'Set' (IdRef)", "%1"),  # as the listing and spirv-dis print it
        ("operand 2 'Instruction' (LiteralExtInstInteger)", "Sqrt"),
        ("operand 3 'x' (IdRef)", "%one"),
    ]


def test_a_string_spanning_words_shows_the_bytes_of_each_word():
    module = decode(module_bytes())
    table, rows = rows_of(module, "OpName")
    assert table.word_count_rule == "3 + variable"
    assert [r.text for r in rows[2:]] == [
        "\"main_\u00e9_name\", word 1 of 4: bytes 1-4 of 12: 'main'",
        "\"main_\u00e9_name\", word 2 of 4: bytes 5-8 of 12: '_\u00e9_'",
        "\"main_\u00e9_name\", word 3 of 4: bytes 9-12 of 12: 'name'",
        "\"main_\u00e9_name\", word 4 of 4: nul and zero padding",
    ]
    assert {r.kind for r in rows[2:]} == {WordKind.STRING}


def test_header_rows_show_the_version_word_as_its_bytes():
    module = decode(module_bytes())
    table = header_table(module)
    assert [r.role for r in table.rows] == ["magic number", "version", "generator", "bound", "schema"]
    assert table.rows[0].file_hex == "03 02 23 07"
    assert table.rows[1].bits == "0 | 1 | 6 | 0" and table.rows[1].text == "header: version = 1.6"
    assert [r.byte_offset for r in table.rows] == [0, 4, 8, 12, 16]
    assert table.word_count_rule == ""


def test_a_big_endian_module_shows_the_files_bytes_at_the_same_offsets():
    little = decode(module_bytes())
    swapped = array.array("I", module_bytes())
    swapped.byteswap()
    big = open_module(swapped.tobytes())
    assert big.big_endian
    index = next(i for i, inst in enumerate(little.instructions) if inst.opname == "OpStore")
    big_rows = word_table(big, big.instruction(index)).rows
    little_rows = word_table(little, little.instructions[index]).rows
    assert [(r.word_offset, r.hex, r.text) for r in big_rows] == [
        (r.word_offset, r.hex, r.text) for r in little_rows
    ]
    assert big_rows[0].file_hex == "00 05 00 3e" and little_rows[0].file_hex == "3e 00 05 00"
    assert header_table(big).rows[0].file_hex == "07 23 02 03"


def test_a_broken_instruction_names_its_raw_words():
    words = assemble(MODULE).words
    module = decode(words.tobytes())
    decorate = find(module, "OpDecorate")
    words[decorate.offset + 2] = 0xFFFF  # no Decoration has this value
    broken = decode(words.tobytes())
    inst = find(broken, "OpDecorate")
    assert not inst.valid
    rows = word_table(broken, inst).rows
    assert rows[0].text == "word count 3, opcode 71 (OpDecorate)"
    raw = [r for r in rows if r.kind is WordKind.RAW]
    assert raw and raw[-1].hex == "0x0000ffff"
    assert {(r.role, r.text) for r in raw} == {("raw word", "raw word, does not fit the grammar")}


def test_grammar_cards_give_the_word_count_rule():
    grammar = load_grammar()
    rules = {name: instruction_card(grammar, name).word_count for name in (
        "OpTypeInt", "OpIAdd", "OpStore", "OpConstant", "OpLoopMerge", "OpTypeStruct", "OpExtInst",
    )}
    assert rules == {
        "OpTypeInt": "4",
        "OpIAdd": "5",
        "OpStore": "3 + variable",
        "OpConstant": "4 + variable",
        "OpLoopMerge": "4 + variable",
        "OpTypeStruct": "2 + variable",
        "OpExtInst": "5 + variable",
    }
    assert ext_instruction_card(grammar, "GLSL.std.450", "FMix").word_count == "8"
