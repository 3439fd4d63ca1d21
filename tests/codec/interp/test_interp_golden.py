"""The interpreter against Mesa's lavapipe: the golden buffers and pixels that
tests/oracles/spirv_lavapipe.py and spirv_lavapipe_fragment.py recorded from the driver
running the very same modules with the same inputs (images included). At least 99% of
the components must agree (see agreement.py), and every module with a miss must be
explained in golden/lavapipe_misses.json (an explanation for a module that no longer
misses is stale and fails too)."""

from __future__ import annotations

import json
from pathlib import Path

from agreement import Agreement, compare

from spvinspect.codec.interp.group import run_entry, run_grid
from spvinspect.codec.interp.shader import Shader

GOLDEN = Path(__file__).parent.parent / "golden" / "lavapipe_compute.json"
GOLDEN_FRAGMENT = Path(__file__).parent.parent / "golden" / "lavapipe_fragment.json"
MISSES = Path(__file__).parent.parent / "golden" / "lavapipe_misses.json"


def _check(kind: str, per_module: dict[str, Agreement], at_least: int) -> None:
    total = Agreement()
    for a in per_module.values():
        total.add(a)
    assert len(per_module) >= at_least
    assert total.compared > 10_000
    assert total.ratio >= 0.99, (total.ratio, total.misses[:10])
    explained = json.loads(MISSES.read_text())[kind]
    missing = {m: a.misses[:3] for m, a in per_module.items() if a.missed and m not in explained}
    assert not missing, f"misses not explained in {MISSES.name}: {missing}"
    stale = [m for m in explained if m not in per_module or not per_module[m].missed]
    assert not stale, f"explained in {MISSES.name} but no longer missing: {stale}"


def test_compute_shaders_agree_with_lavapipe(corpus):
    per_module: dict[str, Agreement] = {}
    for case in json.loads(GOLDEN.read_text())["cases"]:
        path = corpus / case["module"]
        result = run_entry(path.read_bytes(), case["entry"], case["inputs"])
        assert "unsupported" not in result and "stopped" not in result, (case["module"], result)
        compare(result["buffers"], case["buffers"], case["module"], per_module.setdefault(case["module"], Agreement()))
    _check("compute", per_module, 30)


def test_fragment_shaders_agree_with_lavapipe(corpus):
    """Each pixel of a 4x4 grid, quad by quad; killed fragments are not compared, nor
    components the interpreter shows as undefined (a cube map's zero direction, NaN
    coordinates…). Shaders that sample are fed the very texels the interpreter reads."""
    per_module: dict[str, Agreement] = {}
    sampling = set()
    for case in json.loads(GOLDEN_FRAGMENT.read_text())["cases"]:
        shader = Shader((corpus / case["module"]).read_bytes(), case["inputs"].get("spec_constants"))
        if any(v.storage == "UniformConstant" for v in shader.variables.values()):
            sampling.add(case["module"])
        grid = run_grid(shader, shader.entry_point(case["entry"]), case["inputs"], tuple(case["grid"]))
        a = per_module.setdefault(case["module"], Agreement())
        for ours, ref in zip(grid["pixels"], case["pixels"]):
            if ours is not None:
                compare(ours, ref, case["module"], a)
    _check("fragment", per_module, 150)
    assert len(sampling) >= 50
