"""Hostile and careless input (issue 16): every case a clear diagnostic, never an exception."""

from __future__ import annotations

import pytest
from lima_words import REAL_INSTRUCTION, chunk, mbs_file

from spvinspect import lima
from spvinspect.codec.diagnostics import Severity
from spvinspect.lima.assembler import MAX_ERRORS
from spvinspect.lima.mbs import MAX_DEPTH

HUGE_DECIMAL = "9" * 5000
HUGE_HEX = "0x" + "f" * 5000


def only_error(text: str) -> str:
    """`line:col: message` of the one error `text` gives; the assembly must fail."""
    words, diagnostics = lima.assemble(text)
    assert words is None, text
    errors = [f"{d.location}: {d.message}" for d in diagnostics if d.severity is Severity.ERROR]
    assert len(errors) == 1, errors
    return errors[0]


# --- numbers ----------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("add.v1 $0 $² $1", "1:11: expected a register ($0-$11, ^const0, ^const1, ^texture, ^uniform, ^v0), found '$²'"),
        ("load.v $² 1", "1:8: expected a destination ($0-$15 or ^discard), found '$²'"),
        ("op①_vec.s2 $0.x $1.x", "1:1: unknown combine op 'op①'"),
        ("rcp.s2 $1.x $٣.x", "1:13: expected a register ($0-$11, ^const0, ^const1, ^texture, ^uniform), found '$٣'"),
        ("load.u ٣", "1:8: expected an index (a decimal or 0x hex integer), found '٣'"),
        ("const0 ١ 0 0 0", "1:8: expected a number, found '١'"),
    ],
)
def test_unicode_digits_are_not_numbers(text, expected):
    assert only_error(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("load.u 09", "1:8: '09' has a leading zero: write '9' (no number here starts with 0, which C reads as octal)"),
        ("load.u 6.z {unknown_2=08}", "1:12: '08' has a leading zero: write '8'"),
        ("mov.v0 $0 $01", "1:11: '01' has a leading zero: write '1'"),
        ("count 03, nop", "1:7: '03' has a leading zero: write '3'"),
        ("branch -007", "1:8: '-007' has a leading zero: write '-7'"),
        ("const0 00.5 0 0 0", "1:8: '00.5' has a leading zero: write '0.5'"),
    ],
)
def test_leading_zeros_are_refused_everywhere_the_same_way(text, expected):
    assert only_error(text).startswith(expected)


def test_zero_itself_and_zero_fractions_are_fine():
    words, diagnostics = lima.assemble("load.u 0, const0 0.5 -0.0 0 0x0")
    assert words is not None and diagnostics == []


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("const0 0x 0 0 0", "1:8: expected hex digits after 0x in '0x'"),
        ("load.u 0x", "1:8: expected hex digits after 0x in '0x'"),
        ("mov.v0 $0 $1 {arg0_source=0x}", "1:14: expected hex digits after 0x in '0x'"),
    ],
)
def test_a_bare_0x_is_refused(text, expected):
    assert only_error(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"load.u {HUGE_DECIMAL}", "1:8: an index '999999999999999999999999'… (5000 characters) does not fit in 16 bits (-32768 to 65535)"),
        (f"load.u {HUGE_HEX}", "1:8: an index '0xffffffffffffffffffffff'… (5002 characters) does not fit in 16 bits (-32768 to 65535)"),
        (f"count {HUGE_DECIMAL}", "1:7: a count value '999999999999999999999999'… (5000 characters) does not fit in 5 bits (0 to 31)"),
        (f"branch +{HUGE_DECIMAL}", "1:8: a relative word count '+99999999999999999999999'… (5001 characters) does not fit in 27 bits (-67108864 to 67108863)"),
        (f"mov.v0 $0 ${HUGE_DECIMAL}", "1:11: register number '999999999999999999999999'… (5000 characters) does not fit in 4 bits (0 to 15)"),
        (f"const0 {HUGE_HEX} 0 0 0", "1:8: half-float bits '0xffffffffffffffffffffff'… (5002 characters) does not fit in 16 bits (0 to 65535)"),
        (f"const0 {HUGE_DECIMAL} 0 0 0", "1:8: '999999999999999999999999'… (5000 characters) is not representable as a half float: the largest is 65504"),
        (f"{{padding={HUGE_HEX}}}", "1:1: padding '0xffffffffffffffffffffff'… (5002 characters) does not fit in 960 bits"),
        (f"{{padding={HUGE_DECIMAL}}}", "1:1: padding '999999999999999999999999'… (5000 characters) does not fit in 960 bits"),
        (f"load.u 1 {{index={HUGE_DECIMAL}}}", "1:10: index '999999999999999999999999'… (5000 characters) does not fit in 16 bits (-32768 to 65535)"),
        (f"load.u 1 {{index=-{HUGE_HEX[2:]}}}", "1:10: expected index (a decimal or 0x hex integer)"),
    ],
)
def test_numbers_of_any_length_get_a_short_message(text, expected):
    assert only_error(text).startswith(expected)


def test_a_relative_branch_past_27_bits_is_refused_not_wrapped():
    assert only_error("branch +67108864") == (
        "1:8: a relative word count '+67108864' does not fit in 27 bits (-67108864 to 67108863)"
    )


@pytest.mark.parametrize("text", ["const0 1e400 0 0 0", "const0 1e-400 0 0 0"])
def test_reals_that_overflow_or_underflow_are_not_read_as_inf_or_zero(text):
    assert "is not representable as a half float" in only_error(text)


@pytest.mark.parametrize("op", ["const0.", "const1.", "texld.", "discard."])
def test_an_op_ending_in_a_dot_is_unknown(op):
    assert only_error(f"{op} 0 0 0 0") == f"1:1: unknown op {op!r}"


# --- counts and padding -----------------------------------------------------------------------

def roundtrip(words: list[int]) -> list[int] | None:
    text = "\n".join(lima.seed_lines(lima.decode_words(words)))
    assembled, diagnostics = lima.assemble(text)
    assert [d for d in diagnostics if d.severity is Severity.ERROR] == [], text
    return assembled


def test_padding_of_the_longest_counts_round_trips():
    words = [0x15] + [0] * 19 + [0x80000000]  # count 21, no fields, padding bit 639 set
    assert roundtrip(words) == words
    widest = [0x1F] + [0xFFFFFFFF] * 30  # count 31: 960 padding bits, all set
    assert roundtrip(widest) == widest


def test_padding_past_the_instruction_is_refused():
    assert only_error("count 2, {padding=0x100000000}") == (
        "1:10: padding 0x100000000 does not fit in the 32 padding bits"
    )


def test_a_count_short_of_the_fields_round_trips_when_the_cut_bits_are_zero():
    words = [REAL_INSTRUCTION[0] & ~0x1F | 2, REAL_INSTRUCTION[1]]  # count 2; the fields need 5
    assert lima.decode_words(words).diagnostics[0].severity is Severity.ERROR
    assert roundtrip(words) == words
    _, diagnostics = lima.assemble("\n".join(lima.seed_lines(lima.decode_words(words))))
    assert [d.message for d in diagnostics] == [
        "count 2 cuts the fields short (they need 5 words); the bits left out are zero"
    ]


def test_a_count_short_of_set_bits_is_refused():
    assert only_error("count 1, texld 0") == (
        "1:1: count 1 is too small: the fields need 3 words and bit 74 of the instruction is set,"
        " past its last word (word 0)"
    )
    assert only_error("count 0, nop") == "1:1: count 0 leaves no room for the control word (the least is 1)"


# --- MBS --------------------------------------------------------------------------------------

def nested_mbs(levels: int) -> bytes:
    data = b""
    for _ in range(levels):
        data = chunk(b"MBS1", data)
    return data


def test_deeply_nested_mbs_chunks_stop_at_a_depth_with_a_diagnostic():
    data = nested_mbs(498)
    assert len(data) == 3984
    program = lima.decode(data)
    messages = [d.message for d in program.diagnostics]
    assert messages[0] == (
        f"chunk 'MBS1' is nested {MAX_DEPTH} levels deep; its contents are not parsed"
        f" (at most {MAX_DEPTH} levels) (byte 0x{8 * MAX_DEPTH:x})"
    )
    assert len(list(lima.chunk_lines(program.chunks))) == MAX_DEPTH + 1


def test_a_real_file_is_well_within_the_depth_cap():
    program = lima.decode(mbs_file(REAL_INSTRUCTION))
    assert program.diagnostics == ()


def test_lima_dis_of_deep_nesting_and_as_of_huge_numbers_print_no_traceback(cli, tmp_path):
    deep = tmp_path / "deep.mbs"
    deep.write_bytes(nested_mbs(498))
    code, _, err = cli("lima", "dis", str(deep))
    assert code == 1 and "Traceback" not in err and "nested 16 levels deep" in err
    source = tmp_path / "huge.s"
    source.write_text(f"const0 {HUGE_HEX} 0 0 0\nload.u 09\n", encoding="utf-8")
    code, _, err = cli("lima", "as", str(source), "-o", str(tmp_path / "out.bin"))
    assert code == 1
    assert err.splitlines() == [
        f"{source}:1:8: error: half-float bits '0xffffffffffffffffffffff'… (5002 characters) does not fit in 16 bits (0 to 65535)",
        f"{source}:2:8: error: '09' has a leading zero: write '9' (no number here starts with 0, which C reads as octal)",
    ]


def test_only_a_newline_ends_a_line_as_in_editors():
    # str.splitlines() would also split at \x0c and \u2028 and shift every line number after
    assert only_error("stop\x0c, discard\r\nload.u 09\u2028").startswith("2:8: '09' has a leading zero")


def test_chunk_identifiers_with_control_bytes_stay_inside_their_comment_line():
    data = chunk(b"MBS1", chunk(b"\n\x04\r\x85", b"") + chunk(b"CFRA", b"\x07\0\0\0"))
    lines = lima.listing_lines(lima.decode(data))
    assert lines[1] == "#   '\\n\\x04\\r\\x85' at byte 0x8, 0 bytes"
    assert lima.assemble("\n".join(lines)) == ([], [])


def test_a_long_line_of_misordered_ops_names_each_corrected_op_not_the_whole_line():
    text = ", ".join(["load.v 1 $0"] * 300)  # 300 fixes on one line: the line is built once
    words, diagnostics = lima.assemble(text)
    fixes = [d.message for d in diagnostics if "destination comes first" in d.message]
    assert words is None and len(fixes) == 300
    assert fixes[0].endswith("; corrected op: load.v $0 1")


@pytest.mark.parametrize(
    "text",
    [
        "mov.v0 $0 $99\n" * 5_000,  # an error a line
        "mov.v0 $0 $1,\n" * 5_000,  # one instruction continued over every line
        "load.v 1 $0, " * 5_000,  # misordered ops
        "," * 50_000,
    ],
)
def test_errors_stop_at_a_thousand_and_runaway_instructions_are_cut(text):
    words, diagnostics = lima.assemble(text)
    errors = [d for d in diagnostics if d.severity is Severity.ERROR]
    assert words is None and 1 <= len(errors) <= MAX_ERRORS + 3, len(errors)


def test_an_instruction_of_more_than_4096_words_is_cut_with_an_error():
    words, diagnostics = lima.assemble("mov.v0 $0 $1" + ", stop" * 3000)
    assert any(d.message.startswith("an instruction has more than 4096 words") for d in diagnostics)
