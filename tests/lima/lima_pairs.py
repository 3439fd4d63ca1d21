"""Pairs of Lima programs for testing the diff: one of Mesa's programs with random
instructions inserted, removed and changed, edited in the proposed syntax and assembled,
with what the diff must report."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from oracle import corpus_dir

from spvinspect import lima
from spvinspect.lima.compare import ADDED, CHANGED, REMOVED



def programs_dir() -> Path | None:
    """Mesa's programs: $SPVINSPECT_LIMA_PROGRAMS, else `lima/programs` beside the
    corpus ($SPVINSPECT_CORPUS/../lima/programs); None when neither is there."""
    named = os.environ.get("SPVINSPECT_LIMA_PROGRAMS")
    corpus = corpus_dir()
    for place in (Path(named) if named else None, corpus.parent / "lima" / "programs" if corpus else None):
        if place is not None and place.is_dir():
            return place
    return None


NEW_CONSTANTS = ("0.125", "0.375", "3.0", "-2.0")


def programs() -> list[Path]:
    """Every program (`*.pp`); skips the test when there are none."""
    place = programs_dir()
    found = sorted(place.glob("*.pp")) if place is not None else []
    if not found:
        pytest.skip("no Lima programs: set SPVINSPECT_CORPUS (lima/programs beside it) or SPVINSPECT_LIMA_PROGRAMS")
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
    """What a diff reports: A's numbers of changed instructions, A's removed lines and
    B's added lines."""
    got: dict[str, list] = {"changed": [], "removed": [], "added": []}
    for k in diff.differences:
        kind, i, j = diff.rows[k]
        if kind == ADDED:
            got["added"].append(diff.lines_b[j])
        elif kind == REMOVED:
            got["removed"].append(diff.lines_a[i])
        elif kind == CHANGED:
            got["changed"].append(i)
    return got


def reports_exactly(diff, expected: dict[str, list]) -> bool:
    """True when the diff reports the edits and nothing else (an inserted or removed
    instruction may be reported for an identical neighbour)."""
    got = reported(diff)
    want_added = [line.replace("sync, ", "") for line in expected["added"]]
    return (
        sorted(got["changed"]) == sorted(expected["changed"])
        and sorted(got["removed"]) == sorted(diff.lines_a[i] for i in expected["removed"])
        and sorted(line.split("    #")[0] for line in got["added"]) == sorted(want_added)
    )
