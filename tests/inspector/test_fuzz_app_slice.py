"""A seeded slice of the app's random-key test (benchmarks/fuzz_app.py): a few inputs of
different kinds, tens of random keys each (the panes, the editor, saves and their
questions) through Pilot; nothing may end the app, fail a worker or hang."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from oracle import corpus_dir

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from benchmarks.fuzzing.app_inputs import app_input, key_sequence  # noqa: E402
from benchmarks.fuzzing.app_run import drive  # noqa: E402

KEYS = 14
"""Keys per input."""


@pytest.mark.parametrize("index, kind", [(0, "spirv-valid"), (1, "spirv-big-endian"), (2, "mbs")])
def test_random_keys_neither_end_the_app_nor_hang(index, kind):
    rng = random.Random(f"27/app/{index}")
    item = app_input(rng, kind, corpus_dir())
    outcome = drive(item, key_sequence(rng, KEYS), (120, 40), timeout=60)
    assert outcome.findings == [], outcome.detail
    assert outcome.keys == KEYS
