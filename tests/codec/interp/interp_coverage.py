"""Counts the entry points of the whole corpus (spv/ and peer/) that run to completion
with default inputs, and what stops the others, and records every entry point's outcome
in coverage.json for the suite to check against:
`python tests/codec/interp/interp_coverage.py CORPUS_DIR [OUT.json]`."""

from __future__ import annotations

import collections
import json
import sys
from pathlib import Path

from spvinspect.codec.interp.group import STEP_LIMIT, Group
from spvinspect.codec.interp.interface import InputError
from spvinspect.codec.interp.shader import Shader, ShaderError

OUT = Path(__file__).parent / "coverage.json"


def run_module(path: Path, limit: int = STEP_LIMIT) -> list[tuple[str, str]]:
    """(entry point, outcome) for every entry point: `ok`, or why it stopped."""
    try:
        shader = Shader(path.read_bytes())
    except ShaderError as error:
        return [("-", f"module: {error}")]
    out = []
    for ep in shader.entry_points:
        try:
            group = Group(shader, ep)
            group.run(limit)
        except (ShaderError, InputError) as error:
            out.append((ep.name, f"setup: {error}"))
            continue
        stopped = group.stopped
        if stopped is not None:
            ins = stopped.unsupported
            out.append((ep.name, f"unsupported {ins.opname}" if ins else f"stopped: {stopped.message[:60]}"))
        elif not group.finished:
            out.append((ep.name, "step limit"))
        else:
            out.append((ep.name, "ok"))
    return out


def corpus_modules(corpus: Path) -> list[Path]:
    """Every module of spv/ and peer/, in a stable order."""
    return sorted((corpus / "spv").glob("*.spv")) + sorted((corpus / "peer").rglob("*.spv"))


def measure(corpus: Path, limit: int = STEP_LIMIT) -> dict:
    """Each entry point's outcome (`MODULE:ENTRY` → `ok` or why it stopped), the share
    that ran to completion and what stopped the rest (outcome → count)."""
    outcomes = {}
    for path in corpus_modules(corpus):
        for entry, outcome in run_module(path, limit):
            outcomes[f"{path.relative_to(corpus)}:{entry}"] = outcome
    ok = sum(1 for o in outcomes.values() if o == "ok")
    stops = collections.Counter(o for o in outcomes.values() if o != "ok")
    return {"ok": ok, "total": len(outcomes), "share": round(ok / max(len(outcomes), 1), 4),
            "step_limit": limit, "stops": dict(stops.most_common()), "outcomes": outcomes}


if __name__ == "__main__":
    corpus = Path(sys.argv[1])
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else OUT
    result = measure(corpus)
    out.write_text(json.dumps(result, indent=1) + "\n")
    print(f"{result['ok']}/{result['total']} entry points ran to completion ({100 * result['share']:.1f}%)")
    for reason, n in result["stops"].items():
        print(f"{n:5d}  {reason}")
