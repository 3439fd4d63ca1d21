"""The assembler: seed 004's examples, the syntax it accepts, and its diagnostics."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lima_words import BRANCH, CONST0, SAMPLER, VARYING, VEC4_MUL, bits, instruction

from spvinspect import lima
from spvinspect.codec.diagnostics import Severity

YYYX = 0b00_01_01_01


def errors(text: str) -> list[str]:
    words, diagnostics = lima.assemble(text)
    assert words is None
    return [f"{d.location}: {d.message}" for d in diagnostics]


def words_of(text: str) -> list[int]:
    words, diagnostics = lima.assemble(text)
    assert diagnostics == [], diagnostics
    return words


# --- seed 004, verbatim ---------------------------------------------------------------------

def test_seed_test_s_example_breaks_field_order_and_writes_the_destination_last():
    assert errors("load.u 1, load.v 1 $0") == [
        "1:1: load.u (uniform, field 2) must come after load.v (varying, field 0)",
        "1:18: the destination comes first: found '1' where load.v expects its output, and the "
        "output '$0' last; corrected line: load.u 1, load.v $0 1",
    ]


def test_seed_texture_example_writes_two_destinations_last():
    source = "stop, sync, load.v 0 ^tex_coord, texld_2d 0, mov.v0 ^tex_sampler $0"
    corrected = "stop, sync, load.v ^tex_coord 0, texld_2d 0, mov.v0 $0 ^tex_sampler"
    found = errors(source)
    assert len(found) == 2
    assert found[0].startswith("1:20: the destination comes first: found '0' where load.v")
    assert found[1].startswith("1:53: the destination comes first: found '^tex_sampler' where mov.v0")
    assert all(message.endswith(f"corrected line: {corrected}") for message in found)


def test_seed_texture_example_corrected_assembles():
    words = words_of("stop, sync, load.v ^tex_coord 0, texld_2d 0, mov.v0 $0 ^tex_sampler")
    varying = bits((2, 2, 0), (5, 2, 3), (10, 4, 15), (18, 6, 0), (24, 4, 15), (28, 4, 0xF))
    sampler = bits((30, 12, 0), (42, 20, 0x39001))
    mov = bits((0, 4, 14), (4, 8, 0xE4), (32, 4, 0xF), (38, 5, 31))
    assert words == instruction({VARYING: varying, SAMPLER: sampler, VEC4_MUL: mov}, stop=1, sync=1)


def test_seed_constant_example_writes_the_destination_last():
    assert errors("stop, mov.v0 ^const0.yyyx $0, const0 1.0 0.0 0.0 0.0") == [
        "1:14: the destination comes first: found '^const0.yyyx' where mov.v0 expects its output, "
        "and the output '$0' last; corrected line: stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0"
    ]


def test_seed_constant_example_corrected_assembles():
    words = words_of("stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0")
    mov = bits((0, 4, 12), (4, 8, YYYX), (32, 4, 0xF), (38, 5, 31))
    assert words == instruction({VEC4_MUL: mov, CONST0: bits((0, 16, 0x3C00))}, stop=1)


def test_seed_test_s_example_in_canonical_order_assembles():
    words = words_of("load.v $0 1, load.u 1")
    (instr,) = lima.decode_words(words).instructions
    assert lima.mesa_line(instr) == "load.v $0 1, load.u 1"


# --- syntax -------------------------------------------------------------------------------------

def test_labels_comments_and_continuation_lines():
    source = """
    # a loop around one move
    top:
        branch_lt $0.x $1.y top   # back edge
        stop,
            mov.v0 $0 $1
    """
    words = words_of(source)
    first, second = lima.decode_words(words).instructions
    assert lima.mesa_line(first) == "branch.lt $0.x $1.y 0"
    assert lima.mesa_line(second) == "mov.v0 $0 $1 , stop"
    assert first.fields[0]["next_count"] == first.count  # the branch target's count


def test_count_next_count_and_prefetch_are_computed():
    first, second = lima.decode_words(words_of("mov.v0 $0 $1\nstop, discard")).instructions
    assert first.count == 3 and second.count == 4
    assert first.control_value("next_count") == 4 and first.control_value("prefetch") == 1
    assert second.control_value("next_count") == 0 and second.control_value("prefetch") == 0


@pytest.mark.parametrize(
    ("alias", "canonical"),
    [
        ("mov.v0 $0 ^tex_sampler", "mov.v0 $0 ^texture"),
        ("mov.v0 $0 ^sampler", "mov.v0 $0 ^texture"),
        ("mov.v0 $0 ^u", "mov.v0 $0 ^uniform"),
        ("load.v ^tex_coord 3", "load.v ^discard 3"),
        ("add.s1 $0.x ^fmul $1.y", "add.s1 $0.x ^s0 $1.y"),
        ("add.v1 $0 ^vmul $1", "add.v1 $0 ^v0 $1"),
        ("texld_2d 2", "texld 2"),
        ("mov.v0 $0 abs($1.x)", "mov.v0 $0 $1_abs.xxxx"),
    ],
)
def test_aliases_assemble_like_the_canonical_spelling(alias, canonical):
    assert words_of(alias) == words_of(canonical)


def test_modifiers_masks_and_swizzles():
    # two swizzle letters: the last repeats, as in Direct3D (.yx is .yxxx)
    words = words_of("mul_x2_sat.v0 $3.xz -$1_abs.yx $2")
    mul = bits((0, 4, 1), (4, 8, 0b00_00_00_01), (12, 1, 1), (13, 1, 1), (14, 4, 2), (18, 8, 0xE4),
               (28, 4, 3), (32, 4, 0b0101), (36, 2, 1), (38, 5, 1))
    assert words == instruction({VEC4_MUL: mul})


def test_unconditional_branch_to_a_later_label():
    words = words_of("branch out\nnop\nout:\nstop, discard")
    branch = lima.decode_words(words).instructions[0].fields[0]
    assert branch["target"] == 4 + 1  # the branch (4 words) and the nop (1 word)
    assert words[:4] == instruction({BRANCH: bits((16, 3, 7), (41, 27, 5), (68, 5, 4))}, next_count=1, prefetch=1)


# --- diagnostics --------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("const0 70000 0 0 0", "1:8: 70000 is not representable as a half float: the largest is 65504"),
        ("const0 0 1e-9 0 0", "1:10: 1e-9 is not representable as a half float: it rounds to zero"),
        ("const0 0 0 nan 0", "1:12: write a NaN as its raw half bits, such as 0x7e00"),
        ("mov.v0 $0 $12", "1:11: expected $0-$11 or a pipeline register, found '$12' (write ^const0)"),
        ("mov.v0 $0", "1:1: mov.v0 takes a destination and 1 source (2 operands), found 1"),
        ("frob.v0 $0 $1", "1:1: unknown vec4_mul op 'frob'"),
        ("mov.x9 $0 $1", "1:1: unknown unit .x9 in 'mov.x9'; expected .v .u .t .v0 .s0 .v1 .s1 .s2"),
        ("branch nowhere", "1:8: undefined label 'nowhere'"),
        ("stop, stop", "1:7: stop (control bit 5) appears twice in one instruction"),
        ("mov.v0 $0 $1, stop", "1:1: mov.v0 (vec4_mul, field 3) must come after stop (control bit 5)"),
        ("rcp.s2 $0.q $1.x", "1:8: expected a scalar destination such as $0.x, found '$0.q'"),
        ("mov.v0 $0.yx $1", "1:8: expected a write mask with xyzw in order, found 'yx'"),
        ("mov.v0 $0 $1 {bogus=1}", "1:14: no range 'bogus' here; expected one of arg0_source"),
        ("stop,", "1:5: the last instruction ends with a comma: expected another op after it"),
    ],
)
def test_diagnostics_say_where_what_was_expected_and_what_was_found(text, expected):
    found = errors(text)
    assert any(message.startswith(expected) for message in found), found


def test_an_operand_spelled_twice_is_blamed_at_each_place_it_is_written():
    # Readings of operands are remembered by their text; a problem's column is not.
    assert errors("mov.v0 $0 $12\nadd.v1 $1 $0 $12\nload.u 3.xy+$1.q\nload.u   3.xy+$1.q") == [
        "1:11: expected $0-$11 or a pipeline register, found '$12' (write ^const0)",
        "2:14: expected $0-$11 or a pipeline register, found '$12' (write ^const0)",
        "3:13: expected components from xyzw, found 'q' in '$1.q'",
        "4:15: expected components from xyzw, found 'q' in '$1.q'",
    ]


def test_duplicate_label():
    assert errors("a:\nnop\na:\nnop") == ["3:1: label 'a' is already defined on line 1"]


def test_constants_round_to_the_nearest_half():
    words = words_of("const0 0.1 -0.0 inf 0x7e01")
    const = lima.decode_words(words).instructions[0].fields[0]
    assert [const[c] for c in "xyzw"] == [0x2E66, 0x8000, 0x7C00, 0x7E01]


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("$^.,:#{}=+-_ \nabcdelmorstuvxyzw0123456789²①٣")), max_size=80))
def test_assembler_never_raises_and_words_come_with_no_error(text):
    words, diagnostics = lima.assemble(text)
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    assert (words is None) == bool(errors)
    assert all(d.line is not None and 1 <= d.line <= max(1, text.count("\n") + 1) for d in diagnostics)
    if words is not None:  # what assembles decodes into whole instructions
        program = lima.decode_words(words)
        assert sum(len(instr.words) for instr in program.instructions) == len(words)
