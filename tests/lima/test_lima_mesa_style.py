"""`--style mesa`: the exact line Mesa's `ppir_disassemble_instr` prints.

Every expected string below was worked out by reading Mesa's
`src/gallium/drivers/lima/ir/pp/disasm.c` (current main) by hand; each case names the
printing function and branch it exercises. Inputs are packed from the bit positions of
`codegen.h` (see lima_words.py).
"""

from __future__ import annotations

import pytest
from lima_words import (
    BRANCH, COMBINE, CONST0, CONST1, FLOAT_ACC, FLOAT_MUL, REAL_INSTRUCTION, SAMPLER, TEMP_WRITE, UNIFORM,
    VARYING, VEC4_ACC, VEC4_MUL, bits, instruction,
)

from spvinspect import lima

ID = 0xE4  # identity swizzle, which print_swizzle leaves out
YXZW = 0b11_10_00_01  # .yxzw


def mesa(words: list[int], index: int = 0) -> str:
    program = lima.decode_words(words)
    assert not program.diagnostics
    return lima.mesa_line(program.instructions[index])


def vec4_mul(op, *, a0=1, s0=ID, abs0=0, neg0=0, a1=2, s1=ID, abs1=0, neg1=0, dest=3, mask=0xF, outmod=0):
    return bits((0, 4, a0), (4, 8, s0), (12, 1, abs0), (13, 1, neg0), (14, 4, a1), (18, 8, s1),
                (26, 1, abs1), (27, 1, neg1), (28, 4, dest), (32, 4, mask), (36, 2, outmod), (38, 5, op))


def vec4_acc(op, *, mul_in=0, **kwargs):
    return vec4_mul(op, **kwargs) | mul_in << 43


def float_mul(op, *, a0=5, abs0=0, neg0=0, a1=10, abs1=0, neg1=0, dest=15, output_en=1, outmod=0):
    # $1.y = 5, $2.z = 10, $3.w = 15
    return bits((0, 6, a0), (6, 1, abs0), (7, 1, neg0), (8, 6, a1), (14, 1, abs1), (15, 1, neg1),
                (16, 6, dest), (22, 1, output_en), (23, 2, outmod), (25, 5, op))


def float_acc(op, *, mul_in=0, **kwargs):
    return float_mul(op, **kwargs) | mul_in << 30


# --- vec4_mul: print_vec4_mul with the vec4_mul_ops table ---------------------------------

VEC4_MUL_NAMES = {8: "not", 9: "and", 10: "or", 11: "xor", 12: "ne", 13: "gt", 14: "ge",
                  15: "eq", 16: "min", 17: "max", 31: "mov"}
ONE_SOURCE_MUL = {8, 31}  # CASE(not, 1), CASE(mov, 1)


@pytest.mark.parametrize("op", range(32))
def test_vec4_mul_every_op(op):
    # ops 0-7 are "mul" (2 sources) and print "<<op" after arg0 for op != 0; table gaps
    # print "op%u" with srcs 0. print_vec4_mul always prints a space after arg0.
    if op < 8:
        expected = f"mul.v0 $3 $1{f'<<{op}' if op else ''} $2"
    elif op in VEC4_MUL_NAMES:
        tail = "" if op in ONE_SOURCE_MUL else "$2"
        expected = f"{VEC4_MUL_NAMES[op]}.v0 $3 $1 {tail}"
    else:
        expected = f"op{op}.v0 $3 $1 "
    assert mesa(instruction({VEC4_MUL: vec4_mul(op)})) == expected


@pytest.mark.parametrize(
    ("outmod", "expected"),
    [(1, "mul.sat.v0 $3 $1 $2"), (2, "mul.pos.v0 $3 $1 $2"), (3, "mul.int.v0 $3 $1 $2")],
)
def test_vec4_mul_output_modifiers(outmod, expected):
    # print_outmod: clamp_fraction .sat, clamp_positive .pos, round .int, before ".v0 "
    assert mesa(instruction({VEC4_MUL: vec4_mul(0, outmod=outmod)})) == expected


def test_vec4_mul_source_modifiers_swizzle_and_mask():
    # print_vector_source: "-" then "abs(" reg swizzle ")"; print_mask lists xyzw bits
    words = instruction({VEC4_MUL: vec4_mul(0, s0=YXZW, abs0=1, neg0=1, neg1=1, s1=0, mask=0b0101)})
    assert mesa(words) == "mul.v0 $3.xz -abs($1.yxzw) -$2.xxxx"


def test_vec4_mul_without_register_write_omits_the_destination():
    # print_vec4_mul: `if (vec4_mul->mask)` guards the destination
    assert mesa(instruction({VEC4_MUL: vec4_mul(0, mask=0, dest=7)})) == "mul.v0 $1 $2"


def test_vec4_sources_name_the_pipeline_registers():
    # print_reg: 12 ^const0, 13 ^const1, 14 ^texture, 15 ^uniform
    words = instruction({VEC4_MUL: vec4_mul(9, a0=12, a1=13)})
    assert mesa(words) == "and.v0 $3 ^const0 ^const1"
    words = instruction({VEC4_MUL: vec4_mul(9, a0=14, a1=15)})
    assert mesa(words) == "and.v0 $3 ^texture ^uniform"


# --- vec4_acc: print_vec4_acc with vec4_acc_ops ----------------------------------------------

ACC_OPS = {0: ("add", 2), 4: ("fract", 1), 8: ("ne", 2), 9: ("gt", 2), 10: ("ge", 2), 11: ("eq", 2),
            12: ("floor", 1), 13: ("ceil", 1), 14: ("min", 2), 15: ("max", 2), 16: ("sum3", 1),
            17: ("sum4", 1), 20: ("dFdx", 2), 21: ("dFdy", 2), 23: ("sel", 2), 31: ("mov", 1)}


ACC_UNITS = {
    "vec4": (VEC4_ACC, vec4_acc, ACC_OPS, "v1 $3 $1", " $2"),
    # float_acc_ops is vec4_acc_ops without sum3 / sum4, so 16 and 17 are gaps
    "float": (FLOAT_ACC, float_acc, {k: v for k, v in ACC_OPS.items() if k not in (16, 17)}, "s1 $3.w $1.y", " $2.z"),
}
"""print_vec4_acc and print_float_acc: the unit, its packer, its ops table, the line up to arg0, arg1."""


@pytest.mark.parametrize("op", range(32))
@pytest.mark.parametrize("unit", ACC_UNITS)
def test_acc_every_op(unit, op):
    # unlike vec4_mul, the space before arg1 is printed only when srcs > 1
    field, packed, table, up_to_arg0, arg1 = ACC_UNITS[unit]
    name, sources = table.get(op, (f"op{op}", 0))
    expected = f"{name}.{up_to_arg0}" + (arg1 if sources > 1 else "")
    assert mesa(instruction({field: packed(op)})) == expected


def test_vec4_acc_reads_the_multiplier_result():
    # mul_in passes special "^v0" to print_reg; the swizzle and modifiers still print
    words = instruction({VEC4_ACC: vec4_acc(0, mul_in=1, a0=9, s0=0, neg0=1, outmod=1)})
    assert mesa(words) == "add.sat.v1 $3 -^v0.xxxx $2"


# --- float_mul / float_acc: print_float_mul, print_float_acc ---------------------------------

@pytest.mark.parametrize("op", range(32))
def test_float_mul_every_op(op):
    # print_dest_scalar ends with a space; "<<op" for ops 1-7; " arg1" when srcs > 1
    if op < 8:
        expected = f"mul.s0 $3.w $1.y{f'<<{op}' if op else ''} $2.z"
    elif op in VEC4_MUL_NAMES:
        expected = f"{VEC4_MUL_NAMES[op]}.s0 $3.w $1.y" + ("" if op in ONE_SOURCE_MUL else " $2.z")
    else:
        expected = f"op{op}.s0 $3.w $1.y"
    assert mesa(instruction({FLOAT_MUL: float_mul(op)})) == expected


def test_float_mul_modifiers_and_no_output():
    # output_en 0 skips print_dest_scalar; print_source_scalar wraps abs() after "-"
    words = instruction({FLOAT_MUL: float_mul(0, output_en=0, abs0=1, neg0=1, neg1=1, outmod=2)})
    assert mesa(words) == "mul.pos.s0 -abs($1.y) -$2.z"


def test_float_acc_reads_the_multiplier_result():
    # special "^s0" replaces the register and suppresses the ".c" component
    words = instruction({FLOAT_ACC: float_acc(0, mul_in=1, abs0=1, outmod=3)})
    assert mesa(words) == "add.int.s1 $3.w abs(^s0) $2.z"


def test_scalar_pipeline_sources():
    # print_source_scalar: print_reg(reg >> 2) then ".%c" of reg & 3; 49 = ^const0.y
    assert mesa(instruction({FLOAT_MUL: float_mul(9, a0=49, a1=63)})) == "and.s0 $3.w ^const0.y ^uniform.w"


# --- combine: print_combine, print_combine_mul, print_combine_atan_pt2 -----------------------

COMBINE_NAMES = ["rcp", "mov", "sqrt", "rsqrt", "exp2", "log2", "sin", "cos", "atan", "atan2"]


def combine_scalar(op, *, a0=5, a1=10, abs0=0, neg0=0, abs1=0, neg1=0, outmod=0, dest=15):
    return bits((0, 1, 0), (1, 1, 0), (2, 4, op), (6, 1, abs1), (7, 1, neg1), (8, 6, a1),
                (14, 1, abs0), (15, 1, neg0), (16, 6, a0), (22, 2, outmod), (24, 6, dest))


@pytest.mark.parametrize("op", range(16))
def test_combine_every_scalar_op(op):
    # combine_ops has 10 entries; only atan2 has 2 sources. Ops 10-15 index past the table
    # (undefined in C); we print "op%u" as for a gap.
    if op < 10:
        expected = f"{COMBINE_NAMES[op]}.s2 $3.w $1.y" + (" $2.z" if op == 9 else "")
    else:
        expected = f"op{op}.s2 $3.w $1.y"
    assert mesa(instruction({COMBINE: combine_scalar(op)})) == expected


def test_combine_scalar_modifiers():
    words = instruction({COMBINE: combine_scalar(9, neg0=1, abs1=1, outmod=1)})
    assert mesa(words) == "atan2.sat.s2 $3.w -$1.y abs($2.z)"


def test_combine_vector_destination():
    # dest_vec without src_vec: "$%u" vector.dest, print_mask, no output modifier
    raw = combine_scalar(0) & ~bits((22, 8, 0xFF)) | bits((0, 1, 1), (22, 4, 0b0011), (26, 4, 3))
    assert mesa(instruction({COMBINE: raw})) == "rcp.s2 $3.xy $1.y"


def test_combine_scalar_times_vector():
    # dest_vec and src_vec: print_combine_mul, arg1 is a vec4 with swizzle, no abs/neg
    raw = bits((0, 1, 1), (1, 1, 1), (2, 8, YXZW), (10, 4, 2), (15, 1, 1), (16, 6, 5), (22, 4, 0xF), (26, 4, 3))
    assert mesa(instruction({COMBINE: raw})) == "mul.s2 $3 -$1.y $2.yxzw"


def test_combine_atan_part_two():
    # src_vec without dest_vec: print_combine_atan_pt2 prints the outmod *after* ".s2 "
    raw = bits((1, 1, 1), (2, 8, ID), (10, 4, 2), (22, 2, 1), (24, 6, 15))
    assert mesa(instruction({COMBINE: raw})) == "atan_pt2.s2 .sat$3.w $2"


# --- varying: print_varying, both layouts ----------------------------------------------------

def varying_imm(*, perspective=0, source_type=0, alignment=3, offset_vector=15, offset_scalar=0,
                index=5, dest=3, mask=0xF):
    return bits((0, 2, perspective), (2, 2, source_type), (5, 2, alignment), (10, 4, offset_vector),
                (16, 2, offset_scalar), (18, 6, index), (24, 4, dest), (28, 4, mask))


def varying_reg(*, perspective=0, source_type=1, source=1, negate=0, absolute=0, swizzle=ID, dest=3, mask=0xF):
    return bits((0, 2, perspective), (2, 2, source_type), (10, 4, source), (14, 1, negate),
                (15, 1, absolute), (16, 8, swizzle), (24, 4, dest), (28, 4, mask))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # imm layout, print_varying_source: alignment 0 "%u.%c" of index>>2, 1 "%u.%s", else "%u"
        (varying_imm(alignment=0, index=7), "load.v $3 1.w"),
        (varying_imm(alignment=1, index=3), "load.v $3 1.zw"),
        (varying_imm(alignment=2, index=5), "load.v $3 5"),
        (varying_imm(offset_vector=2, offset_scalar=1), "load.v $3 5+$2.y"),
        # perspective only for source_type < 2
        (varying_imm(perspective=2), "load.perspective.z.v $3 5"),
        (varying_imm(perspective=3), "load.perspective.w.v $3 5"),
        (varying_imm(perspective=1), "load.perspective.unknown.v $3 5"),
        # dest 15 is ^discard; print_mask prints "." alone for mask 0
        (varying_imm(dest=15, mask=0b0011), "load.v ^discard.xy 5"),
        (varying_imm(mask=0), "load.v $3. 5"),
        # reg layout (source_type 1) through print_vector_source
        (varying_reg(negate=1, absolute=1, swizzle=YXZW), "load.v $3 -abs($1.yxzw)"),
        (varying_reg(perspective=3), "load.perspective.w.v $3 $1"),
        # source_type 2 by perspective: cube(imm), cube(reg), normalize(reg), gl_FragCoord
        (varying_imm(source_type=2, perspective=0, alignment=0, index=6), "load.v $3 cube(1.z)"),
        (varying_reg(source_type=2, perspective=1), "load.v $3 cube($1)"),
        (varying_reg(source_type=2, perspective=2, swizzle=0), "load.v $3 normalize($1.xxxx)"),
        (varying_imm(source_type=2, perspective=3), "load.v $3 gl_FragCoord"),
        # source_type 3: gl_FrontFacing when perspective is set, else gl_PointCoord
        (varying_imm(source_type=3, perspective=0), "load.v $3 gl_PointCoord"),
        (varying_imm(source_type=3, perspective=1), "load.v $3 gl_FrontFacing"),
    ],
)
def test_varying(raw, expected):
    assert mesa(instruction({VARYING: raw})) == expected


# --- sampler, uniform, temp_write --------------------------------------------------------------

def sampler(*, lod_bias=0, index_offset=0, explicit_lod=0, lod_bias_register=0, constant_lod_bias=0,
            offset_en=0, index=3):
    return bits((0, 6, lod_bias), (6, 6, index_offset), (17, 1, explicit_lod), (18, 1, lod_bias_register),
                (20, 9, constant_lod_bias), (29, 1, offset_en), (30, 12, index), (42, 20, 0x39001))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # print_sampler: "texld", ".b" for a register bias, " bias%03x" of the 9-bit constant
        (sampler(), "texld bias000 3"),
        (sampler(explicit_lod=1), "texld bias000 3"),
        (sampler(constant_lod_bias=0x1F0), "texld bias1f0 3"),
        (sampler(offset_en=1, index_offset=10), "texld bias000 3+$2.z"),
        (sampler(lod_bias_register=1, lod_bias=5), "texld.b bias000 3 $1.y"),
    ],
)
def test_sampler(raw, expected):
    assert mesa(instruction({SAMPLER: raw})) == expected


def uniform(*, source=0, alignment=2, offset_reg=0, offset_en=0, index=5):
    return bits((0, 2, source), (10, 2, alignment), (18, 6, offset_reg), (24, 1, offset_en), (25, 16, index))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # print_uniform: source 0 "u", 3 "t", else ".u%u"; the index is an int16_t
        (uniform(), "load.u 5"),
        (uniform(source=3, alignment=1, index=3), "load.t 1.zw"),
        (uniform(alignment=0, index=6), "load.u 1.z"),
        (uniform(alignment=3, index=6), "load.u 1.z"),
        (uniform(source=1), "load..u1 5"),
        (uniform(offset_en=1, offset_reg=4), "load.u 5+$1.x"),
        # C division truncates toward zero; & on a negative int16 is two's complement
        (uniform(alignment=0, index=0xFFFF), "load.u 0.w"),
        (uniform(alignment=1, index=0xFFFD), "load.u -1.zw"),
        (uniform(index=0x8000), "load.u -32768"),
    ],
)
def test_uniform(raw, expected):
    assert mesa(instruction({UNIFORM: raw})) == expected


def store(*, source=5, alignment=0, offset_reg=0, offset_en=0, index=6):
    return bits((0, 2, 3), (4, 6, source), (10, 2, alignment), (18, 6, offset_reg), (24, 1, offset_en), (25, 16, index))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # print_temp_write: scalar source when alignment is 0, else print_reg(source >> 2)
        (store(), "store.t 1.z $1.y"),
        (store(alignment=2, index=2, source=8), "store.t 2 $2"),
        (store(alignment=1, index=3, source=9), "store.t 1.zw $2"),
        (store(offset_en=1, offset_reg=4), "store.t 1.z+$1.x $1.y"),
        # fb_read when bits 1-5 are 0b00111: fb_color / fb_depth and " $%u"
        (bits((0, 1, 1), (1, 5, 7), (6, 4, 3)), "fb_color $3"),
        (bits((0, 1, 0), (1, 5, 7), (6, 4, 11)), "fb_depth $11"),
    ],
)
def test_temp_write(raw, expected):
    assert mesa(instruction({TEMP_WRITE: raw})) == expected


# --- branch: print_branch ---------------------------------------------------------------------

def branch(*, cond, arg0=5, arg1=10, target=3):
    gt, eq, lt = (cond >> 2) & 1, (cond >> 1) & 1, cond & 1
    return bits((4, 6, arg1), (10, 6, arg0), (16, 1, gt), (17, 1, eq), (18, 1, lt),
                (41, 27, target & ((1 << 27) - 1)))


@pytest.mark.parametrize(
    ("cond", "name"), [(0, "nv"), (1, "lt"), (2, "eq"), (3, "le"), (4, "gt"), (5, "ne"), (6, "ge")]
)
def test_conditional_branches(cond, name):
    # cond[] indexed by lt | eq << 1 | gt << 2; the target prints as target + offset
    assert mesa(instruction({BRANCH: branch(cond=cond)})) == f"branch.{name} $1.y $2.z 3"


def test_unconditional_branch_and_absolute_target():
    # all three condition bits: no condition and no sources; offset is the word offset
    first = instruction({VEC4_MUL: vec4_mul(0)})
    words = first + instruction({BRANCH: branch(cond=7, target=-len(first))})
    assert mesa(words, 1) == "branch 0"


def test_discard():
    # word0 == PPIR_CODEGEN_DISCARD_WORD0 and the rest zero
    assert mesa(instruction({BRANCH: 0x007F0003}, stop=1)) == "discard, stop"


# --- constants and the control word -------------------------------------------------------------

def test_constants_print_as_c_floats():
    # print_const: " %f" of _mesa_half_to_float for each of x y z w
    words = instruction({CONST0: bits((0, 16, 0x3800), (16, 16, 0xC000), (32, 16, 0x7C00), (48, 16, 0xFE00)),
                         CONST1: bits((0, 16, 0x8000), (16, 16, 0x0001), (32, 16, 0x7BFF), (48, 16, 0x2000))})
    assert mesa(words) == (
        "const0 0.500000 -2.000000 inf -nan, const1 -0.000000 0.000000 65504.000000 0.007812"
    )


def test_fields_in_order_then_sync_then_stop():
    # ppir_disassemble_instr: ", " between fields in presence order, then ", sync", ", stop"
    words = instruction({VARYING: varying_imm(), UNIFORM: uniform()}, stop=1, sync=1)
    assert mesa(words) == "load.v $3 5, load.u 5, sync, stop"


def test_no_fields_prints_the_leading_comma():
    assert mesa(instruction({}, stop=1, sync=1)) == ", sync, stop"


def test_the_real_instruction_matches_encoding_md():
    assert mesa(REAL_INSTRUCTION) == "mov.v0 $0 ^const0.xxxx , const0 1.000000 0.000000 0.000000 -1.677734, stop"
