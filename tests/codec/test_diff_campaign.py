"""The pair campaign, a seeded slice: corpus modules against themselves renumbered (no
difference, always) and renumbered with K random edits (exactly those reported).
`benchmarks/diff_campaign.py` runs it on every module, beside spirv-diff."""

from __future__ import annotations

import random

import pytest
from diff_pairs import make_pair, reports_exactly

from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.diff import compare

STEP = 20
"""Every STEP-th corpus module is in the slice."""


def slice_of(corpus) -> list:
    files = sorted((corpus / "spv").glob("*.spv")) + sorted((corpus / "peer").glob("*/*.spv"))
    return files[::STEP]


def test_a_module_against_itself_renumbered_never_differs(corpus):
    files = slice_of(corpus)
    assert files
    failures = []
    for n, path in enumerate(files):
        data = path.read_bytes()
        other, _ = make_pair(data, random.Random(n), 0)
        if not compare(open_module(data), open_module(other)).same:
            failures.append(path.name)
    assert failures == []


@pytest.mark.parametrize("edits", [1, 3])
def test_k_edits_are_reported_exactly(corpus, edits):
    files = slice_of(corpus)
    failures = []
    for n, path in enumerate(files):
        data = path.read_bytes()
        other, expected = make_pair(data, random.Random(1000 * edits + n), edits)
        diff = compare(open_module(data), open_module(other))
        if not reports_exactly(diff, expected):
            failures.append((path.name, expected.edits))
    assert len(failures) <= 0.01 * len(files), failures


def test_context_and_removed_lines_are_dis_lines_at_their_line_numbers(corpus):
    from spvinspect.codec.diff.render import unified
    from spvinspect.codec.text.disassembler import Disassembler

    for n, path in enumerate(slice_of(corpus)[::3]):
        data = path.read_bytes()
        other, _ = make_pair(data, random.Random(n), 3)
        diff = compare(open_module(data), open_module(other))
        lines = Disassembler(open_module(data)).lines()
        number = None
        for line in unified(diff, "a", "b", context=2):
            if line.startswith("@@ -") and "header" not in line:
                number = int(line.split()[1][1:].split(",")[0])
            elif number is not None and line[:1] in " -~":
                text = line[1:].split("    ; block moved")[0]
                assert text == lines[number - 1], (path.name, number)
                number += 1
