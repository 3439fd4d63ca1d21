"""The interpreter against Mesa's lavapipe: the golden buffers that
tests/oracles/spirv_lavapipe.py recorded from the driver running the very same modules
with the same inputs. At least 99% of the components must agree (see agreement.py)."""

from __future__ import annotations

import json
from pathlib import Path

from agreement import Agreement, compare

from spvinspect.codec.interp.group import run_entry, run_grid
from spvinspect.codec.interp.shader import Shader

GOLDEN = Path(__file__).parent.parent / "golden" / "lavapipe_compute.json"
GOLDEN_FRAGMENT = Path(__file__).parent.parent / "golden" / "lavapipe_fragment.json"


def test_compute_shaders_agree_with_lavapipe(corpus):
    cases = json.loads(GOLDEN.read_text())["cases"]
    total = Agreement()
    modules = set()
    for case in cases:
        path = corpus / case["module"]
        result = run_entry(path.read_bytes(), case["entry"], case["inputs"])
        assert "unsupported" not in result and "stopped" not in result, (case["module"], result)
        total.add(compare(result["buffers"], case["buffers"], case["module"]))
        modules.add(case["module"])
    assert len(modules) >= 30
    assert total.compared > 10_000
    assert total.ratio >= 0.99, (total.ratio, total.misses[:10])


def test_fragment_shaders_agree_with_lavapipe(corpus):
    """Each pixel of a 4x4 grid, quad by quad; killed fragments are not compared. The
    misses are NaN where lavapipe's pow gives 0 (GLSL leaves pow of NaN undefined)."""
    cases = json.loads(GOLDEN_FRAGMENT.read_text())["cases"]
    total = Agreement()
    modules = set()
    for case in cases:
        shader = Shader((corpus / case["module"]).read_bytes(), case["inputs"].get("spec_constants"))
        grid = run_grid(shader, shader.entry_point(case["entry"]), case["inputs"], tuple(case["grid"]))
        for ours, ref in zip(grid["pixels"], case["pixels"]):
            if ours is not None:
                compare(ours, ref, case["module"], total)
        modules.add(case["module"])
    assert len(modules) >= 100
    assert total.compared > 10_000
    assert total.ratio >= 0.99, (total.ratio, total.misses[:10])
