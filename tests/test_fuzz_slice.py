"""A small seeded slice of the fuzz campaign (benchmarks/fuzz.py), and the harness itself.

The slice runs every kind: no input may raise or hang, and the SPIR-V and Lima round
trips must hold.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from oracle import corpus_dir

from spvinspect import lima

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.fuzzing import checks  # noqa: E402
from benchmarks.fuzzing.kinds import KINDS, Kind, make_input  # noqa: E402
from benchmarks.fuzzing.outcome import shrink  # noqa: E402
from benchmarks.fuzzing.runner import Settings, run_campaign  # noqa: E402

SLICE = 100
"""Inputs per kind: 500 in all (the long runs are `benchmarks/fuzz.py`'s)."""
LIMA_KINDS = ("lima-stream", "mbs", "lima-text")
SPIRV_KINDS = ("spirv-binary", "spirv-text")


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """The slice's report: seed 16, every kind, reproducers in a temporary folder."""
    settings = Settings(
        kinds=tuple(KINDS), count=SLICE, seed=16, timeout=30, corpus=corpus_dir(),
        out=tmp_path_factory.mktemp("fuzz"), workers=2, minimize_seconds=0,
    )
    return run_campaign(settings)


def findings(report, kind: str, *categories: str) -> list[str]:
    return [
        f"{f.count} x {f.category}: {f.signature} (reproducer: {f.reproducer})\n{f.detail}"
        for f in report.findings.values()
        if f.kind == kind and f.category in categories
    ]


@pytest.mark.parametrize("kind", KINDS)
def test_no_input_raises_or_hangs(report, kind):
    assert report.tallies[kind].inputs == SLICE
    assert findings(report, kind, "exception", "hang", "worker died") == []
    assert (report.tallies[kind].exceptions, report.tallies[kind].hangs) == (0, 0)


@pytest.mark.parametrize("kind", LIMA_KINDS)
def test_lima_round_trips_hold(report, kind):
    assert findings(report, kind, "round trip") == []


def test_spirv_round_trips_hold(report):
    assert [finding for kind in SPIRV_KINDS for finding in findings(report, kind, "round trip")] == []


# --- the harness -------------------------------------------------------------------------------

def _stubborn_check(data: bytes) -> list[str]:
    if b"\x07" in data:
        while True:
            pass
    if b"\x05" in data:
        raise ValueError("five")
    return ["odd length"] if len(data) % 2 else []


def test_the_runner_finds_hangs_groups_exceptions_and_shrinks_reproducers(monkeypatch, tmp_path):
    kind = Kind("test-bytes", lambda rng, corpus: bytes(rng.randrange(9) for _ in range(rng.randint(2, 6))),
                _stubborn_check, ("odd length",), ".bin")
    monkeypatch.setitem(KINDS, kind.name, kind)
    settings = Settings(kinds=(kind.name,), count=40, seed=1, timeout=0.1, out=tmp_path, workers=2,
                        batch=7, minimize_seconds=5)
    report = run_campaign(settings)
    inputs = [make_input(kind, 1, index, None) for index in range(40)]
    hangs = sum(b"\x07" in data for data in inputs)
    raising = sum(b"\x07" not in data and b"\x05" in data for data in inputs)
    odd = sum(b"\x07" not in data and b"\x05" not in data and len(data) % 2 for data in inputs)
    tally = report.tallies[kind.name]
    assert hangs and raising and odd  # the seed exercises all three
    assert (tally.inputs, tally.hangs, tally.exceptions, tally.violations["odd length"]) == (40, hangs, raising, odd)
    by_category = {f.category: f for f in report.findings.values()}
    assert by_category["exception"].signature.startswith("ValueError at tests/test_fuzz_slice.py:")
    assert by_category["exception"].reproducer.read_bytes() == b"\x05"
    assert len(by_category["round trip"].reproducer.read_bytes()) == 1
    assert b"\x07" in by_category["hang"].reproducer.read_bytes()
    assert (tmp_path / "summary.json").exists()


def _waiting_check(data: bytes) -> list[str]:
    time.sleep(1.0)
    return []


def test_an_input_that_waits_without_using_the_cpu_is_not_a_hang(tmp_path):
    """The limit is CPU time: on a loaded machine a slow input is not a hang."""
    kind = Kind("test-waits", lambda rng, corpus: b"\x06", _waiting_check, (), ".bin")
    KINDS[kind.name] = kind
    try:
        report = run_campaign(Settings(kinds=(kind.name,), count=3, seed=1, timeout=0.5, workers=2, batch=1))
    finally:
        del KINDS[kind.name]
    assert (report.tallies[kind.name].inputs, report.tallies[kind.name].hangs) == (3, 0)


def test_shrink_keeps_the_failure_and_drops_the_rest():
    assert shrink("line one\nline two has X in it\nline three\n", lambda text: "X" in text, 5) == "X"
    assert shrink(bytes(range(40)), lambda data: b"\x11\x12" in data, 5) == b"\x11\x12"


REAL_INSTRUCTION = bytes.fromhex("250402000c000000cf07e001000000b0f5050000")
"""The five words of ENCODING.md's real instruction, little-endian."""


def test_the_lima_checks_catch_a_codec_that_loses_bits(monkeypatch):
    assert checks.lima_bytes(REAL_INSTRUCTION) == []
    monkeypatch.setattr(lima, "listing_lines", lambda program, style="seed": ["nop"] * len(program.instructions))
    assert checks.lima_bytes(REAL_INSTRUCTION) == [checks.LIMA_LISTING]
    monkeypatch.setattr(lima, "encode_words", lambda program: [])
    assert checks.lima_bytes(REAL_INSTRUCTION) == [checks.LIMA_ENCODE, checks.LIMA_LISTING]
