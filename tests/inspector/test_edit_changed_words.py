"""The words an edit changed, compared at once (numpy) where many coarse runs differ,
are the ones the runs' refinement finds."""

from __future__ import annotations

import random
from array import array

from spvinspect.editing import changes
from spvinspect.editing.changes import changed_words


def test_changed_words_at_many_places_are_the_refined_runs(monkeypatch):
    rng = random.Random(23)
    original = array("I", [rng.randrange(4) for _ in range(12_000)])
    for grow in (0, 1, -1):
        edited = array("I", original)
        for at in sorted(rng.sample(range(100, 11_500), 120), reverse=True):  # edits all along
            if grow > 0:
                edited.insert(at, 7)
            elif grow < 0:
                del edited[at]
            edited[at] = rng.randrange(4)
        data, old = edited.tobytes() + b"\x01\x02"[: grow + 1], original.tobytes()
        monkeypatch.setattr(changes, "SCANNED_BLOCKS", 1 << 30)
        refined = changed_words(old, data)
        monkeypatch.setattr(changes, "SCANNED_BLOCKS", 0)
        assert changed_words(old, data) == refined and refined.count > 50, grow
