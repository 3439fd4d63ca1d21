"""Mesa's disassembly as assembler input (issue #27 item 14): every program's Mesa-main
listing assembles back to its words, in both styles, through `lima as` and auto-detection;
`lima dis --offsets` prints what Mesa main prints, offsets included."""

from __future__ import annotations

from pathlib import Path

import pytest
from lima_words import REAL_INSTRUCTION, mbs_file, to_bytes

from spvinspect import lima
from spvinspect.editing.lima_fix import fixed_line

PROGRAMS = Path("/work/shared/lima/programs")
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.pp"))
pytestmark = pytest.mark.skipif(not NAMES, reason="the shared Lima programs are not here")


def words_of(data: bytes) -> list[int]:
    return [int.from_bytes(data[i : i + 4], "little") for i in range(0, len(data), 4)]


@pytest.mark.parametrize("name", NAMES)
def test_dis_offsets_in_mesa_style_is_mesa_mains_text(cli, name):
    code, out, err = cli("lima", "dis", "--style", "mesa", "--offsets", str(PROGRAMS / f"{name}.pp"))
    assert (code, err) == (0, "")
    assert out == (PROGRAMS / f"{name}.mesa-main.txt").read_text()


@pytest.mark.parametrize("name", NAMES)
def test_mesa_mains_own_listing_assembles_to_the_programs_words(cli, name, tmp_path):
    expected = (PROGRAMS / f"{name}.pp").read_bytes()
    out_file = tmp_path / "out.bin"
    for style in ("mesa", "auto"):
        code, _, err = cli("lima", "as", "--style", style, str(PROGRAMS / f"{name}.mesa-main.txt"), "-o", str(out_file))
        assert (code, err) == (0, "")
        assert out_file.read_bytes() == expected


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("container", ["raw", "mbs"])
def test_both_styles_round_trip(name, container):
    code = (PROGRAMS / f"{name}.pp").read_bytes()
    data = code if container == "raw" else mbs_file(words_of(code))
    program = lima.decode(data)
    assert not program.diagnostics
    for style in ("seed", "mesa"):
        for offsets in (False, True):
            text = "\n".join(lima.listing_lines(program, style, offsets))
            for reading in (style, "auto"):
                words, diagnostics = lima.assemble(text, reading)
                assert diagnostics == [], (style, offsets, reading)
                assert words == words_of(code), (style, offsets, reading)


def test_the_real_instruction_round_trips_in_mesa_style():
    program = lima.decode(to_bytes(REAL_INSTRUCTION))
    text = "\n".join(lima.listing_lines(program, "mesa"))
    words, diagnostics = lima.assemble(text, "mesa")
    assert diagnostics == []
    assert words == [w for instr in program.instructions for w in instr.words]


def test_mesa_spellings_map_to_ours():
    cases = {
        "mul.s0 $0.w ^const0.x, add.s1 $0.w ^s0 $1.y, const0 1.000000 0.000000 0.000000 0.000000":
            "mul.s0 ^s0 $0.w ^const0.x, add.s1 $0.w ^s0 $1.y, const0 1.0 0.0 0.0 0.0",
        "mov.sat.s1 $1.x $0.z": "mov_sat.s1 $1.x $0.z",
        "mul.v0 $3 $1<<1 $2": "mul_x2.v0 $3 $1 $2",
        "load.perspective.w.v $1.xy 0.xy": "load_persp_w.v $1.xy 0.xy",
        "ge.s0 abs($0.z) ^const0.x": "ge.s0 ^s0 $0_abs.z ^const0.x",
        "mov.v1 $1 $0, stop": "stop, mov.v1 $1 $0",
        "texld.b bias000 2 $1.y": "texld 2 $1.y",
    }
    for mesa, ours in cases.items():
        assert lima.assemble(mesa, "mesa") == lima.assemble(ours, "seed"), mesa


def test_a_cube_sampler_reads_in_both_mesa_spellings():
    main = lima.assemble("texld bias1f0 0", "mesa")
    old = lima.assemble("texld.cube 0", "mesa")
    ours = lima.assemble("texld 0 {constant_lod_bias=-16}", "seed")
    assert main == old == ours
    assert ours[0] is not None


def test_branch_targets_are_absolute_word_offsets():
    text = "mov.v1 $1 $0\nmov.v1 $1 $0\nbranch.lt $0.x $1.y 0, stop"
    words, diagnostics = lima.assemble(text, "mesa")
    assert diagnostics == []
    listing = lima.listing_lines(lima.decode_words(words), "mesa")
    assert listing[-1] == "branch.lt $0.x $1.y 0, stop"


def test_bad_mesa_text_gets_a_message_with_line_and_column():
    words, diagnostics = lima.assemble("load.v $0 0\nload.v $0 0, frob.v0 $1 $2, stop", "mesa")
    assert words is None
    (problem,) = diagnostics
    assert (problem.line, problem.column) == (2, 14)
    assert "frob" in problem.message
    # a problem our assembler finds in the rewritten op points at the same word of Mesa's
    (problem,) = lima.assemble("@     0: load.v $0 0, mov.v0 $0 $99", "mesa")[1]
    assert (problem.column, "'$99'" in problem.message) == (33, True)


def test_auto_reads_seed_text_as_seed():
    text = "store.t 3 $1"  # Mesa's compiler would also set the offset register's bits
    assert lima.assemble(text, "auto") == lima.assemble(text, "seed")
    assert lima.assemble(text, "mesa")[0] != lima.assemble(text, "seed")[0]


def test_the_order_fix_turns_a_mesa_line_into_ours_instead_of_breaking_it():
    for line in (
        "load.v $1 0, mul.v0 abs($1) $0, add.v1 $0 ^v0 $2",
        "load.v $1 0, max.v0 $1 ^const0.xxxx, add.v1 $2 -^v0 $0, const0 0.250000 0.000000 0.000000 0.000000, stop",
        "mov.v1 $1 $0, stop",
    ):
        messages = [d.message for d in lima.assemble(line, "seed")[1]]
        fixed = fixed_line(line, messages)
        assert fixed is not None, line
        assert lima.assemble(fixed, "seed") == lima.assemble(line, "mesa"), (line, fixed)


def test_the_editor_assembles_a_program_pasted_in_mesa_syntax():
    from spvinspect.editing.lima_assembler import open_lima_session

    name = NAMES[0]
    data = (PROGRAMS / f"{name}.pp").read_bytes()
    session = open_lima_session(data)
    mesa_text = (PROGRAMS / f"{name}.mesa-main.txt").read_text().splitlines()
    session.replace_lines(0, len(session.lines), mesa_text)
    while (job := session.request()) is not None:
        session.accept(job.run())
    assert session.assembles and session.binary == data


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from spvinspect.codec.diagnostics import Severity  # noqa: E402

MESA_ALPHABET = list("$^.,:#@()<>+-_ \nabcdeglmnoprstuvxyzw0123456789²٣") + [
    "load.v ", "mul.v0 ", "mov.s1 ", "texld.b ", "bias1f0 ", "branch.lt ", "abs(", "<<3", "stop", "store.t ", "@ 12: ",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(MESA_ALPHABET), max_size=40).map("".join), st.sampled_from(["mesa", "auto"]))
def test_mesa_and_auto_never_raise_and_words_come_with_no_error(text, style):
    words, diagnostics = lima.assemble(text, style)
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    assert (words is None) == bool(errors)
    assert all(d.line is not None and 1 <= d.line <= max(1, text.count("\n") + 1) for d in diagnostics)
    assert all(d.column is not None and d.column >= 1 for d in diagnostics)


@pytest.mark.parametrize("name", NAMES)
def test_the_lexer_reads_mesa_mains_listing_with_offsets_without_an_error_token(name):
    from pygments.token import Error

    from spvinspect.lexers.lima import LimaLexer

    text = (PROGRAMS / f"{name}.mesa-main.txt").read_text()
    bad = [value for token, value in LimaLexer().get_tokens(text) if token in Error]
    assert bad == []


from test_lima_roundtrip import well_formed_instruction  # noqa: E402


@settings(max_examples=400, deadline=None)
@given(st.lists(well_formed_instruction(), min_size=1, max_size=4))
def test_mesa_text_of_any_words_reads_back_to_the_same_mesa_text(instructions):
    # Mesa's text leaves bits out, so the words may differ; what it says must not. With
    # offsets, an instruction without fields is a line of its own (`@     3: `).
    words = [w for instr in instructions for w in instr]
    text = "\n".join(lima.listing_lines(lima.decode_words(words), "mesa", offsets=True))
    again, diagnostics = lima.assemble(text, "mesa")
    assert [d.message for d in diagnostics] == []
    assert "\n".join(lima.listing_lines(lima.decode_words(again), "mesa", offsets=True)) == text
