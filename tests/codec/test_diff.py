"""The SPIR-V diff on hand-made pairs: ids matched by what they are, each edit one row."""

from __future__ import annotations

import re

import pytest

from spvinspect.cli import main
from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.diff import compare
from spvinspect.codec.diff.render import summary_lines, unified

BASE = """\
OpCapability Shader
%1 = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %4 "main" %20 %30
OpExecutionMode %4 OriginUpperLeft
OpName %4 "main"
OpName %20 "color_in"
OpName %30 "color_out"
OpName %40 "scale"
OpDecorate %20 Location 0
OpDecorate %30 Location 0
%2 = OpTypeVoid
%3 = OpTypeFunction %2
%6 = OpTypeFloat 32
%7 = OpTypeVector %6 4
%8 = OpTypePointer Input %7
%9 = OpTypePointer Output %7
%10 = OpTypeBool
%11 = OpConstant %6 2
%12 = OpConstant %6 0.5
%13 = OpTypeFunction %7 %7
%20 = OpVariable %8 Input
%30 = OpVariable %9 Output
%40 = OpFunction %7 None %13
%41 = OpFunctionParameter %7
%42 = OpLabel
%43 = OpVectorTimesScalar %7 %41 %11
OpReturnValue %43
OpFunctionEnd
%4 = OpFunction %2 None %3
%5 = OpLabel
%21 = OpLoad %7 %20
%22 = OpCompositeExtract %6 %21 0
%23 = OpFOrdGreaterThan %10 %22 %12
OpSelectionMerge %52 None
OpBranchConditional %23 %50 %51
%50 = OpLabel
%24 = OpFunctionCall %7 %40 %21
OpStore %30 %24
OpBranch %52
%51 = OpLabel
%25 = OpVectorTimesScalar %7 %21 %12
OpStore %30 %25
OpBranch %52
%52 = OpLabel
OpReturn
OpFunctionEnd
"""


def binary(text: str) -> bytes:
    result = assemble(text, preserve_numeric_ids=True)
    assert result.words is not None, result.diagnostics
    return result.words.tobytes()


def renumber(text: str, mapping: dict[int, int]) -> str:
    """The text with ids renamed by `mapping` (others kept)."""
    return re.sub(r"%(\d+)\b", lambda m: f"%{mapping.get(int(m.group(1)), int(m.group(1)))}", text)


# Every numeric id of BASE onto another number, some past the old bound.
PERMUTATION = {n: 200 - n for n in (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 20, 21, 22, 23, 24, 25, 30, 40, 41, 42, 43, 50, 51, 52)}


def diff_of(text_a: str, text_b: str):
    return compare(open_module(binary(text_a)), open_module(binary(text_b)))


def differences(diff) -> list[tuple[str, str | None, str | None]]:
    """(kind, A's opname, B's opname) of every row that is not equal."""
    out = []
    for k in diff.differences:
        row = diff.row(k)
        a = diff.module_a.instruction(row.a).opname if row.a is not None else None
        b = diff.module_b.instruction(row.b).opname if row.b is not None else None
        out.append((row.kind, a, b))
    return out


def test_a_renumbered_module_compares_equal():
    diff = diff_of(BASE, renumber(BASE, PERMUTATION))
    assert diff.same
    module = open_module(binary(BASE))
    module.ensure_indexed()
    assert len(diff) == module.instruction_count
    assert list(unified(diff, "a", "b")) == []


def test_a_changed_constant_is_one_changed_row_and_its_uses_stay_equal():
    edited = renumber(BASE.replace("%12 = OpConstant %6 0.5", "%12 = OpConstant %6 0.75"), PERMUTATION)
    diff = diff_of(BASE, edited)
    assert differences(diff) == [("changed", "OpConstant", "OpConstant")]
    k = diff.differences[0]
    words_a, words_b = diff.changed_words(k)
    row = diff.row(k)
    assert words_a == [row.a_words[1] - 1] and words_b == [row.b_words[1] - 1]  # the value word only


def test_an_inserted_instruction_is_one_added_row_and_shifts_nothing():
    edited = BASE.replace("%22 = OpCompositeExtract %6 %21 0\n", "%22 = OpCompositeExtract %6 %21 0\n%99 = OpCompositeExtract %6 %21 1\n")
    diff = diff_of(BASE, renumber(edited, PERMUTATION))
    assert differences(diff) == [("added", None, "OpCompositeExtract")]


def test_a_removed_instruction_is_one_removed_row():
    edited = BASE.replace("OpStore %30 %25\n", "")
    diff = diff_of(BASE, renumber(edited, PERMUTATION))
    assert differences(diff) == [("removed", "OpStore", None)]


def test_a_decoration_added_is_one_added_row():
    edited = BASE.replace("OpDecorate %30 Location 0\n", "OpDecorate %30 Location 0\nOpDecorate %25 RelaxedPrecision\n")
    diff = diff_of(BASE, renumber(edited, PERMUTATION))
    assert differences(diff) == [("added", None, "OpDecorate")]


def test_reordered_blocks_are_one_moved_label_and_their_instructions_equal():
    blocks = "%50 = OpLabel\n%24 = OpFunctionCall %7 %40 %21\nOpStore %30 %24\nOpBranch %52\n"
    other = "%51 = OpLabel\n%25 = OpVectorTimesScalar %7 %21 %12\nOpStore %30 %25\nOpBranch %52\n"
    edited = BASE.replace(blocks + other, other + blocks)
    diff = diff_of(BASE, renumber(edited, PERMUTATION))
    assert [kind for kind, _, _ in differences(diff)] == ["moved"]
    assert differences(diff) == [("moved", "OpLabel", "OpLabel")]


def test_a_function_called_through_a_changed_body_keeps_its_callers_equal():
    edited = BASE.replace("%43 = OpVectorTimesScalar %7 %41 %11", "%43 = OpVectorTimesScalar %7 %41 %12")
    diff = diff_of(BASE, renumber(edited, PERMUTATION))
    assert differences(diff) == [("changed", "OpVectorTimesScalar", "OpVectorTimesScalar")]
    summary = diff.summary()
    assert summary.total.changed == 1 and summary.total.words_changed == 1
    assert [counts.changed for _, counts in summary.regions if counts.any] == [1]


def test_next_and_previous_difference_walk_the_rows_that_differ():
    edited = BASE.replace("OpName %40 \"scale\"\n", "").replace("OpStore %30 %25\n", "")
    diff = diff_of(BASE, renumber(edited, PERMUTATION))
    first, second = diff.differences
    assert diff.next_difference(-1) == first
    assert diff.next_difference(first) == second
    assert diff.next_difference(second) is None
    assert diff.previous_difference(second) == first
    assert diff.previous_difference(first) is None


def test_the_unified_diff_is_in_a_s_id_space_with_dis_line_numbers():
    edited = renumber(BASE.replace("%12 = OpConstant %6 0.5", "%12 = OpConstant %6 0.75"), PERMUTATION)
    diff = diff_of(BASE, edited)
    lines = list(unified(diff, "a.spv", "b.spv", context=1, friendly=False))
    assert lines == [
        "--- a.spv",
        "+++ b.spv",
        "@@ -24,3 +24,3 @@ declarations",
        "          %11 = OpConstant %6 2",
        "-         %12 = OpConstant %6 0.5",
        "+         %12 = OpConstant %6 0.75",
        "          %13 = OpTypeFunction %7 %7",
    ]
    table = summary_lines(diff, friendly=False)
    assert table[1].split() == ["declarations", "0", "0", "1", "0", "0", "0", "1"]
    assert table[-1].split() == ["total", "0", "0", "1", "0", "0", "0", "1"]


def test_cli_exit_status_like_diff(tmp_path, capsys):
    a, b, same = tmp_path / "a.spv", tmp_path / "b.spv", tmp_path / "same.spv"
    a.write_bytes(binary(BASE))
    same.write_bytes(binary(renumber(BASE, PERMUTATION)))
    b.write_bytes(binary(BASE.replace("OpStore %30 %25\n", "")))
    assert main(["diff", str(a), str(same)]) == 0
    assert capsys.readouterr().out == ""
    assert main(["diff", str(a), str(b)]) == 1
    out = capsys.readouterr().out
    assert "-               OpStore %color_out %25" in out
    assert re.search(r"^total +0 +1 +0 +0 +0 +3 +0$", out, re.M)


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "not a SPIR-V module (only 0 bytes)"),
        (b"hello world!", "not a SPIR-V module (magic number 68656c6c)"),
        (b"\x03\x02\x23\x07\x00\x00", "the header is incomplete (6 bytes)"),
    ],
)
def test_cli_bad_input_is_a_message_and_status_2(tmp_path, capsys, content, message):
    a, bad = tmp_path / "a.spv", tmp_path / "bad.spv"
    a.write_bytes(binary(BASE))
    bad.write_bytes(content)
    assert main(["diff", str(a), str(bad)]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert main(["diff", str(a), str(tmp_path / "missing.spv")]) == 2
    assert "cannot read" in capsys.readouterr().err


def test_a_big_endian_module_compares_equal_to_its_little_endian_self(tmp_path):
    from array import array

    words = array("I", binary(renumber(BASE, PERMUTATION)))
    words.byteswap()
    a, b = tmp_path / "a.spv", tmp_path / "b.spv"
    a.write_bytes(binary(BASE))
    b.write_bytes(words.tobytes())
    assert main(["diff", str(a), str(b)]) == 0


def test_a_module_cut_short_is_compared_as_far_as_it_reads_with_a_warning(tmp_path, capsys):
    data = binary(BASE)
    a, b = tmp_path / "a.spv", tmp_path / "b.spv"
    a.write_bytes(data)
    b.write_bytes(data[:-4] + ((5 << 16) | 56).to_bytes(4, "little"))  # OpFunctionEnd claims 5 words
    assert main(["diff", str(a), str(b)]) == 1
    captured = capsys.readouterr()
    assert "warning: no instruction can be read from here on" in captured.err
    assert "-               OpFunctionEnd" in captured.out
