"""Coverage on the corpus: a sample of every tenth module's entry points must run to
completion with default inputs in at least 90% of cases (interp_coverage.py counts them all)."""

from __future__ import annotations

from interp_coverage import run_module


def test_nine_in_ten_entry_points_run_with_default_inputs(corpus):
    paths = sorted((corpus / "spv").glob("*.spv")) + sorted((corpus / "peer").rglob("*.spv"))
    ok = total = 0
    stopped = []
    for path in paths[::10]:
        for entry, outcome in run_module(path, limit=200_000):
            total += 1
            if outcome == "ok":
                ok += 1
            else:
                stopped.append((path.name, entry, outcome))
    assert total >= 100
    assert ok / total >= 0.9, stopped
    # What stops names the instruction: never a crash.
    assert all(o.startswith(("unsupported Op", "step limit")) for _, _, o in stopped), stopped
