"""The breakdown's meaning column reads a range in the context of its field (issue #27
item 13): what Mesa main's disassembler prints for the same bits is what the meaning says."""

from __future__ import annotations

from lima_words import (
    BRANCH, SAMPLER, TEMP_WRITE, UNIFORM, VARYING, VEC4_ACC, VEC4_MUL, FLOAT_ACC, FLOAT_MUL, bits,
    instruction,
)

from spvinspect import lima
from spvinspect.lima.breakdown import breakdown

ID = 0xE4


def decode(words):
    program = lima.decode_words(words)
    assert not program.diagnostics
    return program


def one(fields, **kwargs):
    return breakdown(decode(instruction(fields, **kwargs)).instructions[0])


def varying(perspective, source_type, dest=1, mask=0xF):
    return bits((0, 2, perspective), (2, 2, source_type), (26, 4, dest), (30, 4, mask))


def test_perspective_of_special_inputs_names_the_input():
    cases = {
        (3, 2): "gl_FragCoord",
        (0, 3): "gl_PointCoord",
        (1, 3): "gl_FrontFacing",
        (1, 2): "cube",
        (2, 2): "normalize",
    }
    for (perspective, source_type), word in cases.items():
        label = one({VARYING: varying(perspective, source_type)}).strip("varying").label("perspective")
        assert word in label.meaning, (perspective, source_type, label.meaning)
        assert "divide" not in label.meaning
    plain = one({VARYING: varying(3, 0)}).strip("varying").label("perspective")
    assert plain.meaning == "divide by w"


def store(index, alignment=0, source=0):
    return bits((0, 2, 3), (4, 6, source), (10, 2, alignment), (25, 16, index))


def test_temporary_indices_are_signed():
    b = one({TEMP_WRITE: store(0xFFFF, alignment=2, source=4)})
    assert b.strip("temp_write").label("index").meaning.startswith("-1")
    load = one({UNIFORM: bits((0, 2, 3), (10, 2, 2), (25, 16, 0xFFFE))})
    assert load.strip("uniform").label("index").meaning.startswith("-2")


def test_temporary_index_is_signed_in_the_seed_text_and_it_assembles_back():
    words = instruction({TEMP_WRITE: store(0xFFFF, alignment=2, source=4)})
    lines = lima.listing_lines(decode(words))
    assert lines == ["store.t -1 $1"]
    assert lima.assemble("\n".join(lines))[0] == words


def test_vec4_aligned_store_reads_a_whole_register():
    source = one({TEMP_WRITE: store(3, alignment=2, source=4)}).strip("temp_write").label("source")
    assert source.meaning.split()[0] == "$1"
    scalar = one({TEMP_WRITE: store(3, alignment=0, source=5)}).strip("temp_write").label("source")
    assert scalar.meaning == "$1.y"


def alu4(op, *, a0=1, dest=3, mask=0xF):
    return bits((0, 4, a0), (4, 8, ID), (14, 4, 2), (18, 8, ID), (28, 4, dest), (32, 4, mask), (38, 5, op))


def test_mul_in_names_the_multiplier_result():
    b = one({VEC4_MUL: alu4(0), VEC4_ACC: alu4(0) | 1 << 43})
    assert b.strip("vec4_acc").label("arg0_source").meaning.startswith("^v0")
    scalar = bits((0, 6, 5), (8, 6, 10), (16, 6, 15), (22, 1, 1), (25, 5, 0))
    b = one({FLOAT_MUL: scalar, FLOAT_ACC: scalar | 1 << 30})
    assert b.strip("float_acc").label("arg0_source").meaning.startswith("^s0")
    assert b.strip("float_mul").label("arg0_source").meaning == "$1.y"


def test_mask_zero_writes_nothing():
    b = one({VEC4_MUL: alu4(0, mask=0)})
    assert "nothing" in b.strip("vec4_mul").label("dest").meaning
    assert "nothing" in b.strip("vec4_mul").label("mask").meaning
    full = one({VEC4_MUL: alu4(0)})
    assert full.strip("vec4_mul").label("dest").meaning == "$3"
    no_output = bits((0, 6, 5), (8, 6, 10), (16, 6, 15), (22, 1, 0), (25, 5, 0))
    assert "nothing" in one({FLOAT_MUL: no_output}).strip("float_mul").label("dest").meaning


def test_cube_sampler_bits_read_both_ways_and_agree_with_the_text():
    cube = bits((20, 9, 0x1F0), (30, 12, 2), (42, 20, 0x39001))
    program = decode(instruction({SAMPLER: cube}))
    label = breakdown(program.instructions[0]).strip("sampler").label("constant_lod_bias")
    assert "-16" in label.meaning and "cube" in label.meaning
    assert "{constant_lod_bias=-16}" in lima.listing_lines(program)[0]
    plain = one({SAMPLER: bits((30, 12, 2), (42, 20, 0x39001))}).strip("sampler").label("constant_lod_bias")
    assert "2D" in plain.meaning or "generic" in plain.meaning


def test_branch_names_its_target_instruction_and_label():
    first = instruction({VEC4_MUL: alu4(31)})
    second = instruction({VEC4_MUL: alu4(31)})
    back = -(len(first) + len(second))
    # codegen.h: unknown 4, arg1 6, arg0 6, cond_gt, cond_eq, cond_lt, unknown 22, target 27
    branch = bits((4, 6, 1), (10, 6, 2), (16, 1, 1), (17, 1, 1), (18, 1, 1), (41, 27, back & 0x7FFFFFF))
    words = first + second + instruction({BRANCH: branch}, stop=1)
    program = decode(words)
    target = breakdown(program.instructions[2], [i.word_offset for i in program.instructions]).strip("branch").label("target")
    assert f"{back:+d} words" in target.meaning
    assert "instruction 0" in target.meaning and "L0" in target.meaning


def test_strip_titles_carry_the_hex_of_their_words():
    words = instruction({VEC4_MUL: alu4(31), UNIFORM: bits((10, 2, 2), (25, 16, 1))})
    b = one({VEC4_MUL: alu4(31), UNIFORM: bits((10, 2, 2), (25, 16, 1))})
    assert f"0x{words[0]:08x}" in b.strip("control").title
    mul = b.strip("vec4_mul")
    for offset in mul.bits.word_offsets:
        assert f"0x{words[offset]:08x}" in mul.title
