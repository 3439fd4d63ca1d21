"""Comparing Lima PP programs: Mesa's programs with instructions inserted, removed and
changed (edited in the proposed syntax and assembled), exactly those edits reported."""

from __future__ import annotations

import random
import re

import pytest
from lima_pairs import assembled, edited, programs, reports_exactly
from lima_words import mbs_file

from spvinspect import lima
from spvinspect.cli import main
from spvinspect.lima.compare import ADDED, CHANGED, compare_programs, lima_summary_lines, lima_unified


def test_a_program_against_itself_reassembled_is_the_same():
    for path in programs():
        program = lima.decode(path.read_bytes())
        again = lima.decode(assembled("\n".join(lima.listing_lines(program)) + "\n"))
        assert compare_programs(program, again).same, path.name


@pytest.mark.parametrize("edits", [1, 2, 4])
def test_inserted_removed_and_changed_instructions_are_reported_exactly(edits):
    failures = []
    for n, path in enumerate(programs()):
        program = lima.decode(path.read_bytes())
        text = "\n".join(lima.listing_lines(program)) + "\n"
        other_text, expected = edited(text, random.Random(100 * edits + n), edits)
        diff = compare_programs(program, lima.decode(assembled(other_text)))
        if not reports_exactly(diff, expected):
            failures.append((path.name, expected))
    assert failures == []


def test_an_insertion_before_a_branch_target_leaves_the_branch_equal():
    path = programs()[0].parent / "alpha_test_multi_discard.pp"
    if not path.exists():
        pytest.skip("alpha_test_multi_discard.pp is not in the shared programs")
    program = lima.decode(path.read_bytes())
    lines = lima.listing_lines(program)
    lines.insert(1, "min.s1 $2.x $0.x $0.y")
    diff = compare_programs(program, lima.decode(assembled("\n".join(lines) + "\n")))
    assert [diff.rows[k][0] for k in diff.differences] == [ADDED]
    text = list(lima_unified(diff, "a.pp", "b.pp", context=0))
    assert text == ["--- a.pp", "+++ b.pp", "@@ -1,0 +2,1 @@", "+min.s1 $2.x $0.x $0.y"]
    summary = lima_summary_lines(diff)
    assert summary[0] == "instructions: 1 added, 0 removed, 0 changed"
    assert "unit scalar-add              1       2      +1" in summary


def with_const0_changed(program: lima.LimaProgram) -> bytes:
    """`program` reassembled with its first `const0` set to 7.0."""
    lines = lima.listing_lines(program)
    k = next(k for k, line in enumerate(lines) if "const0 " in line)
    lines[k] = re.sub(r"const0 \S+", "const0 7.0", lines[k])
    return assembled("\n".join(lines) + "\n")


def test_a_changed_constant_names_its_unit():
    program = lima.decode(programs()[0].read_bytes())
    diff = compare_programs(program, lima.decode(with_const0_changed(program)))
    (row,) = diff.differences
    assert diff.rows[row][0] == CHANGED
    assert diff.changed_units(row) == ["constant"]


def test_spvinspect_diff_reads_lima_with_the_flag(tmp_path, capsys):
    path = programs()[0]
    other = tmp_path / "b.pp"
    other.write_bytes(with_const0_changed(lima.decode(path.read_bytes())))
    assert main(["diff", "--lima", str(path), str(path)]) == 0
    assert main(["diff", "--lima", str(path), str(other)]) == 1
    out = capsys.readouterr().out
    assert "const0 7.0" in out and "# changed: constant" in out
    assert "instructions: 0 added, 0 removed, 1 changed" in out
    assert main(["diff", str(path), str(other)]) == 2
    assert "for raw Lima PP programs use --lima" in capsys.readouterr().err


def test_mbs_files_are_told_by_their_content(tmp_path, capsys):
    path = programs()[0]
    other = with_const0_changed(lima.decode(path.read_bytes()))
    words_a = [int.from_bytes(path.read_bytes()[i : i + 4], "little") for i in range(0, len(path.read_bytes()), 4)]
    words_b = [int.from_bytes(other[i : i + 4], "little") for i in range(0, len(other), 4)]
    a, b = tmp_path / "a.mbs", tmp_path / "b.mbs"
    a.write_bytes(mbs_file(words_a))
    b.write_bytes(mbs_file(words_b))
    assert main(["diff", str(a), str(a)]) == 0
    assert main(["diff", str(a), str(b)]) == 1
    assert "instructions: 0 added, 0 removed, 1 changed" in capsys.readouterr().out
