"""The grid in lanes (all fragments together, values as arrays over lanes) gives exactly
the pixels the per-invocation interpreter gives, quad by quad; what the lanes cannot run
falls back, saying why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracle import compile_glsl, run_tool

from spvinspect.codec.interp.group import Launch, run_entry, run_grid
from spvinspect.codec.interp.shader import Shader

BENCHMARK = Path(__file__).resolve().parents[3] / "benchmarks" / "grid_shader.frag"

DIVERGENT = """#version 450
layout(location = 0) out vec4 color;
layout(binding = 0) uniform sampler2D tex;

float shade(int k, vec2 p) {
    if (k == 2) {
        return p.x;  // an early return in some lanes only
    }
    float s = 0.0;
    for (int i = 0; i < k * 3 + 1; i++) {
        if (i % 2 == 1) {
            continue;
        }
        s += float(i) * 0.125;
    }
    return s;
}

void main() {
    ivec2 px = ivec2(gl_FragCoord.xy);
    int k = (px.x + 2 * px.y) % 5;
    if (k == 4 && px.x > 5) {
        discard;
    }
    vec4 c = vec4(0.0);
    switch (k) {
        case 0: c.r = 1.0; break;
        case 1: c.g = shade(k, gl_FragCoord.xy); break;
        case 3: c.b = dFdx(gl_FragCoord.x * gl_FragCoord.y); // falls through
        default: c.a = shade(k, gl_FragCoord.xy / 8.0);
    }
    vec3 v = vec3(0.25, 0.5, 0.75);
    c.r += v[px.y % 3];
    c += texture(tex, gl_FragCoord.xy / 9.0) * fwidth(gl_FragCoord.x * float(k));
    color = c;
}
"""


def _same_both_ways(data: bytes, size: tuple[int, int]) -> dict:
    shader = Shader(data)
    entry = shader.entry_point()
    lanes = run_grid(shader, entry, {}, size)
    assert "per_invocation" not in lanes, lanes.get("per_invocation")
    quads = run_grid(shader, entry, {}, size, lanes=False)
    assert json.dumps(lanes["pixels"]) == json.dumps(quads["pixels"])
    return lanes


def test_divergent_control_flow_in_lanes_matches_invocation_by_invocation(tmp_path):
    """Lanes that take different switch cases, loop different counts, return early from a
    call, are discarded, index a vector per lane, and take derivatives and sample a
    texture where their quads diverged: pixel for pixel what each invocation gives.
    Optimised too (phis, selects)."""
    data = compile_glsl(DIVERGENT, "frag", tmp_path / "d.spv")
    grid = _same_both_ways(data, (10, 6))
    pixels = grid["pixels"]
    assert pixels[6 + 4 * 10] is None and pixels[0] is not None  # k == 4 past x 5: discarded
    assert len({json.dumps(p) for p in pixels}) > 10
    optimised = tmp_path / "o.spv"
    result = run_tool("spirv-opt", "-O", str(tmp_path / "d.spv"), "-o", str(optimised))
    assert result.returncode == 0, result.stderr
    data = optimised.read_bytes()
    assert any(i.opname == "OpPhi" for i in Shader(data).instructions)
    _same_both_ways(data, (10, 6))


def test_the_benchmark_shader_in_lanes_matches_invocation_by_invocation(tmp_path):
    data = compile_glsl(BENCHMARK.read_text(), "frag", tmp_path / "b.spv")
    pixels = _same_both_ways(data, (16, 16))["pixels"]
    assert len({json.dumps(p) for p in pixels}) > 4


CORPUS_FRAGMENTS = (
    "spv/shaders-no-opt_frag_fp16.invalid.desktop.frag.spv",
    "peer/glsl/parallaxmapping_parallax.frag.spv",
    "peer/glsl/shadowmappingcascade_scene.frag.spv",
    "spv/shaders-hlsl_frag_complex-expression-in-access-chain.frag.spv",
    "spv/shaders-msl_vulkan_frag_demote-to-helper.vk.nocompat.msl23.ios.frag.spv",
    "spv/shaders-msl_frag_sample-rate-frag-coord-sample-pos.frag.spv",
    "peer/glsl/subpasses_transparent.frag.spv",
    "peer/hlsl/deferred_deferred.frag.spv",
    "peer/slang/parallaxmapping_parallax.frag.spv",
)


def test_corpus_fragment_shaders_in_lanes_match_invocation_by_invocation(corpus):
    for name in CORPUS_FRAGMENTS:
        _same_both_ways((corpus / name).read_bytes(), (4, 4))


STORAGE = """#version 450
layout(location = 0) out vec4 color;
layout(std430, binding = 0) buffer Counter { uint count; };
void main() {
    uint n = atomicAdd(count, 1u);
    color = vec4(gl_FragCoord.xy / 4.0, 0.0, 1.0);
}
"""


def test_what_lanes_cannot_run_goes_invocation_by_invocation_and_says_why(tmp_path):
    data = compile_glsl(STORAGE, "frag", tmp_path / "s.spv")
    shader = Shader(data)
    grid = run_grid(shader, shader.entry_point(), {}, (4, 2))
    assert "OpAtomicIAdd at word" in grid["per_invocation"]
    assert grid["pixels"][5] == {"color": [0.375, 0.375, 0.0, 1.0]}


def test_a_grid_in_lanes_stops_when_progress_says_so(tmp_path):
    data = compile_glsl(BENCHMARK.read_text(), "frag", tmp_path / "b.spv")
    shader = Shader(data)
    calls = []

    def progress(done: int, rows: int) -> bool:
        calls.append(done)
        return len(calls) < 2

    grid = run_grid(shader, shader.entry_point(), {}, (16, 16), progress=progress)
    assert "per_invocation" not in grid
    assert grid["pixels"] == [None] * 256


@pytest.mark.parametrize("width", [3])
def test_an_odd_grid_keeps_only_its_own_pixels(tmp_path, width):
    data = compile_glsl(BENCHMARK.read_text(), "frag", tmp_path / "b.spv")
    pixels = _same_both_ways(data, (width, 3))["pixels"]
    assert len(pixels) == width * 3


AFTER_A_BRANCH = """#version 450
layout(location = 0) out vec4 color;
void main() {
    int k = (int(gl_FragCoord.x) + 2 * int(gl_FragCoord.y)) % 5;
    vec4 c = vec4(0.0);
    if (k == 3) {
        c.b = dFdx(gl_FragCoord.x * gl_FragCoord.y);
    }
    c.a = fwidth(gl_FragCoord.x * float(k));
    color = c;
}
"""


def test_a_derivative_after_a_branch_sees_the_lane_that_took_it(tmp_path):
    """Pixel (3, 0) takes the branch (k = 3) and its quad's others do not: after the branch
    the quad's four values of x*k are 2.5*2, 3.5*3, 2.5*4 and 3.5*0, so fwidth is
    |10.5 - 5| + |10 - 5| in every lane of the quad (not the lane's own value for the
    lane still inside the branch)."""
    data = compile_glsl(AFTER_A_BRANCH, "frag", tmp_path / "a.spv")
    for pixel in ((2, 0), (3, 0)):
        assert run_entry(data, launch=Launch(fragment=pixel))["outputs"]["color"][3] == 10.5
    _same_both_ways(data, (4, 2))


SOME_LANES = """#version 450
layout(location = 0) out vec4 color;
void main() {
    if (int(gl_FragCoord.x) == 1) {
        color.g = 1.0;
    } else if (int(gl_FragCoord.y) == 1) {
        color = vec4(0.5);
    }
}
"""


def test_an_output_some_lanes_never_store_stays_undefined_there(tmp_path):
    data = compile_glsl(SOME_LANES, "frag", tmp_path / "u.spv")
    pixels = _same_both_ways(data, (4, 2))["pixels"]
    assert pixels[0] == {"color": ["undef"] * 4}
    assert pixels[1] == {"color": ["undef", 1.0, "undef", "undef"]}
    assert pixels[4] == {"color": [0.5] * 4}


UNDEFINED_WHOLE = """#version 450
layout(location = 0) out vec4 whole;
layout(location = 1) out vec4 fraction;
void main() {
    vec4 never_set;
    fraction = modf(never_set, whole);
}
"""


def test_an_output_stored_undefined_as_a_whole_stays_undefined(tmp_path):
    """Modf of an undefined vector stores it through its pointer: the grid's pixels read
    it (a TypeError in the image pane's worker; found by benchmarks/fuzz_app.py)."""
    data = compile_glsl(UNDEFINED_WHOLE, "frag", tmp_path / "m.spv")
    pixels = _same_both_ways(data, (2, 2))["pixels"]
    assert pixels[0] == {"whole": ["undef"] * 4, "fraction": ["undef"] * 4}
