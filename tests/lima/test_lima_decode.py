"""Decoding: the real instruction, the breakdown records, bad input, and MBS files."""

from __future__ import annotations

import struct

from lima_words import REAL_INSTRUCTION, VEC4_MUL, bits, chunk, instruction, mbs_file, to_bytes

from spvinspect import lima
from spvinspect.codec.diagnostics import Severity


def test_real_instruction_decodes_as_encoding_md_states():
    program = lima.decode(to_bytes(REAL_INSTRUCTION))
    assert program.diagnostics == ()
    (instr,) = program.instructions
    assert (instr.count, instr.stop, instr.sync) == (5, True, False)
    assert [f.name for f in instr.fields] == ["vec4_mul", "vec4_const_0"]
    mul, const = instr.fields
    assert mul["arg0_source"] == 12 and mul.range("arg0_source").meaning == "^const0"
    assert mul["arg0_swizzle"] == 0 and mul.range("arg0_swizzle").meaning == "xxxx"
    assert mul["op"] == 31 and mul.range("op").meaning == "mov"
    assert (mul["dest"], mul["mask"]) == (0, 0xF)
    assert const["x"] == 0x3C00 and const.range("x").meaning == "1.0"
    assert lima.encode_words(program) == REAL_INSTRUCTION


def test_bit_ranges_carry_field_and_instruction_positions():
    (instr,) = lima.decode_words(REAL_INSTRUCTION).instructions
    mul, const = instr.fields
    assert (mul.word_offset, mul.bit_offset, mul.width) == (1, 32, 43)
    op = mul.range("op")
    assert (op.first_bit, op.width, op.instruction_bit, op.word) == (38, 5, 70, 2)
    assert (const.bit_offset, const.range("w").instruction_bit) == (75, 123)
    assert instr.padding.instruction_bit == 139 and instr.padding.width == 21


def test_unknown_bits_are_named_by_position_and_kept():
    words = list(REAL_INSTRUCTION)
    words[0] |= 0b101 << 26
    program = lima.decode_words(words)
    (instr,) = program.instructions
    unknown = [r for r in instr.control if r.name == "unknown_26"][0]
    assert unknown.value == 0b101 and "non-zero" in unknown.meaning
    assert lima.encode_words(program) == words


def test_padding_bits_are_kept():
    words = list(REAL_INSTRUCTION)
    words[4] |= 0xABC << 20
    program = lima.decode_words(words)
    assert program.instructions[0].padding.value == 0xABC << 9
    assert lima.encode_words(program) == words


def test_unused_layouts_are_kept_as_alternatives():
    # a temp_write field read as fb_read also shows how the store layout would read it
    words = instruction({8: bits((0, 1, 1), (1, 5, 7), (6, 4, 3))})
    (field,) = lima.decode_words(words).instructions[0].fields
    assert field.layout == "fb_read"
    assert [v.layout for v in field.alternatives] == ["store"]
    assert {r.name for r in field.view("store")} >= {"dest", "source", "index"}


def test_count_zero_is_reported_with_its_word_offset_and_the_rest_kept():
    words = REAL_INSTRUCTION + [0x00000000, 0x12345678]
    program = lima.decode_words(words)
    assert len(program.instructions) == 1
    (problem,) = program.diagnostics
    assert problem.word_offset == 5 and "count 0" in problem.message
    assert program.trailing_words == (0, 0x12345678)
    assert lima.encode_words(program) == words


def test_count_past_the_end_is_reported():
    words = REAL_INSTRUCTION + [0x00000007, 1, 2]
    program = lima.decode_words(words)
    (problem,) = program.diagnostics
    assert problem.word_offset == 5
    assert "claims 7 words" in problem.message and "ends at word 8" in problem.message
    assert lima.encode_words(program) == words


def test_fields_needing_more_bits_than_count_allows():
    words = [0x00020422, 0x0000000C]  # the real control word with count 2
    program = lima.decode_words(words)
    (problem,) = program.diagnostics
    assert problem.word_offset == 0 and "need 5 words but count is 2" in problem.message
    assert program.instructions[0].fields[1].missing_bits > 0
    assert lima.encode_words(program) == words


def test_count_larger_than_needed_is_a_warning():
    words = instruction({VEC4_MUL: 0}, count=4)
    program = lima.decode_words(words)
    (problem,) = program.diagnostics
    assert problem.severity is Severity.WARNING and problem.word_offset == 0


def test_length_not_a_multiple_of_four():
    program = lima.decode(to_bytes(REAL_INSTRUCTION) + b"\x01\x02")
    (problem,) = program.diagnostics
    assert problem.word_offset == 5 and "2 bytes" in problem.message
    assert len(program.instructions) == 1


def test_empty_input():
    (problem,) = lima.decode(b"").diagnostics
    assert problem.word_offset == 0


# --- MBS ---------------------------------------------------------------------------------------

def test_mbs_file_gives_the_chunk_tree_and_the_fragment_program():
    data = mbs_file(REAL_INSTRUCTION)
    program = lima.decode(data)
    assert program.diagnostics == ()
    assert [i.words for i in program.instructions] == [tuple(REAL_INSTRUCTION)]
    (top,) = program.chunks
    assert (top.ident, top.byte_offset) == ("MBS1", 0)
    fragment, vertex = top.children
    assert fragment.ident == "CFRA" and fragment.byte_offset == 8
    assert fragment.fields[0].name == "version" and fragment.fields[0].meaning == "Mali-400 PP"
    idents = [c.ident for c in fragment.children]
    assert idents == ["FSTA", "FDIS", "FBUU", "SUNI", "SVAR", "DBIN"]
    uniforms = fragment.children[3]
    (vuni,) = uniforms.children
    assert vuni.children[0].fields[0].value == "u_color"
    assert {f.name: f.value for f in vuni.fields}["type"] == 1
    dbin = fragment.children[5]
    assert program.code_byte_offset == dbin.data_offset
    assert data[dbin.data_offset : dbin.data_offset + 4] == to_bytes(REAL_INSTRUCTION[:1])
    assert vertex.ident == "CVER" and [c.ident for c in vertex.children] == ["FINS", "DBIN"]


def test_truncated_mbs_chunk_is_reported_with_offsets():
    data = mbs_file(REAL_INSTRUCTION)
    cut = data.index(b"DBIN") + 8 + 12  # three of the five code words survive
    program = lima.decode(data[:cut])
    messages = [d.message for d in program.diagnostics]
    assert any("'DBIN' claims 20 bytes but only 12 remain" in m for m in messages)
    dbin_problem = next(d for d in program.diagnostics if "'DBIN'" in d.message)
    assert dbin_problem.word_offset == data.index(b"DBIN") // 4
    assert any("claims 5 words" in m for m in messages)
    assert program.trailing_words == tuple(REAL_INSTRUCTION[:3])


def test_mbs_without_fragment_program():
    data = chunk(b"MBS1", chunk(b"CVER", struct.pack("<I", 6)))
    program = lima.decode(data)
    assert program.instructions == ()
    assert [c.ident for c in program.chunks[0].children] == ["CVER"]
    assert "no fragment program" in program.diagnostics[0].message
