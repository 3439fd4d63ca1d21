"""Coverage on the whole corpus: coverage.json (written by interp_coverage.py) records
every entry point of spv/ and peer/ run with default inputs; at least 90% must run to
completion, and what stops the rest names an instruction (never a crash). The suite
re-runs every tenth module (but those that reach the step limit) and checks it still
ends as recorded, and that the record covers the corpus as it is, so the figure cannot go
stale."""

from __future__ import annotations

import json

from interp_coverage import OUT, corpus_modules, run_module


def test_nine_in_ten_entry_points_run_with_default_inputs(corpus):
    recorded = json.loads(OUT.read_text())
    outcomes = recorded["outcomes"]
    modules = corpus_modules(corpus)
    assert {key.rsplit(":", 1)[0] for key in outcomes} == {str(p.relative_to(corpus)) for p in modules}
    ok = sum(1 for o in outcomes.values() if o == "ok")
    assert (recorded["ok"], recorded["total"]) == (ok, len(outcomes))
    assert ok / len(outcomes) >= 0.9
    stopped = {k: o for k, o in outcomes.items() if o != "ok"}
    assert all(o.startswith(("unsupported Op", "step limit")) for o in stopped.values()), stopped
    changed = {}
    for path in modules[::10]:
        name = str(path.relative_to(corpus))
        if any(k.rsplit(":", 1)[0] == name for k, o in stopped.items() if o == "step limit"):
            continue  # millions of steps to learn nothing new
        for entry, outcome in run_module(path, recorded["step_limit"]):
            key = f"{path.relative_to(corpus)}:{entry}"
            if outcomes.get(key) != outcome:
                changed[key] = (outcomes.get(key), outcome)
    assert not changed, f"coverage.json is stale (recorded, now): {changed}"
