"""Comparing Lima PP programs: Mesa's programs with instructions inserted, removed and
changed (edited in the proposed syntax and assembled), exactly those edits reported."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from spvinspect import lima
from spvinspect.cli import main
from spvinspect.lima.compare import ADDED, CHANGED, REMOVED, compare_programs, lima_summary_lines, lima_unified

PROGRAMS = Path(__file__).resolve().parents[3] / "shared" / "lima" / "programs"
if not PROGRAMS.is_dir():
    PROGRAMS = Path("/work/shared/lima/programs")
NEW_CONSTANTS = ("0.125", "0.375", "3.0", "-2.0")


def programs() -> list[Path]:
    found = sorted(PROGRAMS.glob("*.pp"))
    if not found:
        pytest.skip(f"no Lima programs in {PROGRAMS}")
    return found


def is_instruction(line: str) -> bool:
    return bool(line) and not line.startswith("#") and not line.endswith(":")


def edited(text: str, rng: random.Random, edits: int) -> tuple[str, dict[str, list]]:
    """The program's text with `edits` random edits, and what a diff must report: A's
    instruction numbers changed and removed, the lines added."""
    lines = text.splitlines()
    # Items: (line, A's instruction index or None for a new one, changed?)
    items = []
    index = 0
    for line in lines:
        if is_instruction(line):
            items.append([line, index, False])
            index += 1
        else:
            items.append([line, None, False])
    expected: dict[str, list] = {"changed": [], "removed": [], "added": []}
    removed: set[str] = set()
    for _ in range(edits):
        kind = rng.choice(("insert", "remove", "change"))
        # Never the last instruction (it stops the program) nor one a label names.
        free = [
            k for k, (line, origin, changed) in enumerate(items)
            if origin is not None and not changed and k + 1 < len(items) and "stop" not in line
            and (k == 0 or not items[k - 1][0].endswith(":"))
        ]
        if not free:
            continue
        k = rng.choice(free)
        line, origin, _ = items[k]
        if kind == "insert":
            # A copy of another instruction, never of one removed (the two would cancel).
            copy = rng.choice([item[0] for item in items if is_instruction(item[0]) and "stop" not in item[0]])
            copy = re.sub(r"\bsync, ", "", copy)
            if copy in removed:
                continue
            items.insert(k, [copy, None, True])
            expected["added"].append(copy)
        elif kind == "remove":
            if re.sub(r"\bsync, ", "", line) in expected["added"]:
                continue
            removed.add(re.sub(r"\bsync, ", "", line))
            del items[k]
            expected["removed"].append(origin)
        else:
            match = re.search(r"(const[01]) (\S+)", line)
            if match is None or re.sub(r"\bsync, ", "", line) in expected["added"]:
                continue
            value = rng.choice([v for v in NEW_CONSTANTS if v != match.group(2)])
            items[k] = [line[: match.start(2)] + value + line[match.end(2):], origin, True]
            expected["changed"].append(origin)
    return "\n".join(item[0] for item in items) + "\n", expected


def assembled(text: str) -> bytes:
    words, diagnostics = lima.assemble(text)
    assert words is not None, diagnostics
    return b"".join(word.to_bytes(4, "little") for word in words)


def reported(diff) -> dict[str, list]:
    got: dict[str, list] = {"changed": [], "removed": [], "added": []}
    for k in diff.differences:
        kind, i, j = diff.rows[k]
        if kind == ADDED:
            got["added"].append(diff.lines_b[j])
        elif kind == REMOVED:
            got["removed"].append(i)
        elif kind == CHANGED:
            got["changed"].append(i)
    return got


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
        got = reported(diff)
        want_added = [line.replace("sync, ", "") for line in expected["added"]]
        if (
            sorted(got["changed"]) != sorted(expected["changed"])
            or sorted(got["removed"]) != sorted(expected["removed"])
            or sorted(line.split("    #")[0] for line in got["added"]) != sorted(want_added)
        ):
            failures.append((path.name, expected, got))
    assert failures == []


def test_an_insertion_before_a_branch_target_leaves_the_branch_equal():
    path = PROGRAMS / "alpha_test_multi_discard.pp"
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


def test_a_changed_constant_names_its_unit():
    path = programs()[0]
    program = lima.decode(path.read_bytes())
    lines = lima.listing_lines(program)
    k = next(k for k, line in enumerate(lines) if "const0 " in line)
    lines[k] = re.sub(r"const0 \S+", "const0 7.0", lines[k])
    diff = compare_programs(program, lima.decode(assembled("\n".join(lines) + "\n")))
    (row,) = diff.differences
    assert diff.rows[row][0] == CHANGED
    assert diff.changed_units(row) == ["constant"]


def test_spvinspect_diff_reads_lima_with_the_flag(tmp_path, capsys):
    path = programs()[0]
    program = lima.decode(path.read_bytes())
    lines = lima.listing_lines(program)
    k = next(k for k, line in enumerate(lines) if "const0 " in line)
    lines[k] = re.sub(r"const0 \S+", "const0 7.0", lines[k])
    other = tmp_path / "b.pp"
    other.write_bytes(assembled("\n".join(lines) + "\n"))
    assert main(["diff", "--lima", str(path), str(path)]) == 0
    assert main(["diff", "--lima", str(path), str(other)]) == 1
    out = capsys.readouterr().out
    assert "const0 7.0" in out and "# changed: constant" in out
    assert "instructions: 0 added, 0 removed, 1 changed" in out
    assert main(["diff", str(path), str(other)]) == 2
    assert "for raw Lima PP programs use --lima" in capsys.readouterr().err
