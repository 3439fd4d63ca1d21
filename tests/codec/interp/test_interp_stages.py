"""Fragment quads (derivatives, discard, sampling), compute workgroups (barriers,
shared memory, atomics) and the `run` command, on GLSL compiled by glslang."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from oracle import compile_glsl

from spvinspect.codec.interp.group import Launch, run_entry

FRAG_DERIVATIVES = """#version 450
layout(location = 0) out vec4 color;
void main() {
    vec2 p = gl_FragCoord.xy;
    float f = p.x * p.x + 3.0 * p.y;
    color = vec4(dFdx(f), dFdy(f), fwidth(p.x), dFdxFine(f));
}"""

FRAG_DISCARD = """#version 450
layout(location = 0) out vec4 color;
void main() {
    if (gl_FragCoord.x > 1.0) discard;
    color = vec4(1.0);
}"""

FRAG_TEXTURE = """#version 450
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;
void main() {
    color = texture(tex, gl_FragCoord.xy / 4.0) + textureLod(tex, vec2(0.5), 0.0) * 0.0;
}"""

COMP_SHARED = """#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint counter; uint values[4]; uint reversed[4]; };
shared uint tmp[4];
void main() {
    uint i = gl_LocalInvocationID.x;
    tmp[i] = i * 10u;
    atomicAdd(counter, i + 1u);
    barrier();
    reversed[i] = tmp[3u - i];
    values[i] = i;
}"""


def _compile(tmp_path, source, stage):
    return compile_glsl(source, stage, tmp_path / f"s.{stage}.spv")


def test_derivatives_come_from_the_quad(tmp_path):
    data = _compile(tmp_path, FRAG_DERIVATIVES, "frag")
    # Pixel (1, 1): coarse dFdx of x^2 + 3y from the quad's top row: (1.5^2 - 0.5^2) = 2.
    out = run_entry(data, launch=Launch(fragment=(1, 1)))["outputs"]["color"]
    assert out[0] == 2.0 and out[1] == 3.0 and out[2] == 1.0
    assert out[3] == 2.0  # fine: the bottom row has the same x values
    out = run_entry(data, launch=Launch(fragment=(3, 2)))["outputs"]["color"]
    assert out[0] == 3.5**2 - 2.5**2


def test_discard_kills_the_fragment(tmp_path):
    data = _compile(tmp_path, FRAG_DISCARD, "frag")
    assert run_entry(data, launch=Launch(fragment=(0, 0)))["outputs"]["color"] == [1.0] * 4
    killed = run_entry(data, launch=Launch(fragment=(1, 0)))
    assert killed["killed"] is True and killed["outputs"]["color"] == ["undef"] * 4


def test_sampling_a_given_texture_nearest_and_linear(tmp_path):
    data = _compile(tmp_path, FRAG_TEXTURE, "frag")
    rgba = [float(i) for i in range(4 * 4 * 4)]
    image = {"width": 4, "height": 4, "rgba": rgba, "mips": False}
    nearest = {"images": {"0.0": {**image, "sampler": {"filter": "nearest"}}}}
    out = run_entry(data, inputs=nearest, launch=Launch(fragment=(2, 1)))["outputs"]["color"]
    assert out == rgba[(1 * 4 + 2) * 4:(1 * 4 + 2) * 4 + 4]
    linear = {"images": {"0.0": {**image, "sampler": {"filter": "linear"}}}}
    out = run_entry(data, inputs=linear, launch=Launch(fragment=(2, 1)))["outputs"]["color"]
    # The texel centre: linear filtering gives the texel itself.
    assert out == rgba[(1 * 4 + 2) * 4:(1 * 4 + 2) * 4 + 4]
    assert run_entry(data)["outputs"]["color"] == [0.125, 0.125, 0.5, 1.0]  # the default gradient


def test_workgroup_barrier_shared_memory_and_atomics(tmp_path):
    data = _compile(tmp_path, COMP_SHARED, "comp")
    buffers = run_entry(data)["buffers"]["0.0"]
    assert buffers == {"counter": 10, "values": [0, 1, 2, 3], "reversed": [30, 20, 10, 0]}


def test_inputs_fill_buffers_by_set_and_binding(tmp_path):
    data = _compile(tmp_path, COMP_SHARED, "comp")
    buffers = run_entry(data, inputs={"buffers": {"0.0": {"counter": 100}}})["buffers"]["0.0"]
    assert buffers["counter"] == 110


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "spvinspect", "run", *args], capture_output=True, text=True, check=False)


def test_run_command_json_and_trace(tmp_path):
    data = _compile(tmp_path, FRAG_DERIVATIVES, "frag")
    path = tmp_path / "d.spv"
    path.write_bytes(data)
    result = _cli(str(path), "--json", "--fragment", "1,1")
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert set(out) >= {"entry", "stage", "outputs", "buffers", "steps"}
    assert out["stage"] == "fragment" and out["outputs"]["color"][:3] == [2.0, 3.0, 1.0]
    traced = _cli(str(path), "--trace")
    assert "OpDPdx" in traced.stdout and "output color =" in traced.stdout


def test_run_command_stops_on_an_unsupported_instruction(tmp_path):
    from asm_module import module

    data = module("%r = OpSDotAccSat %uint %u3 %u3 %u3 PackedVectorFormat4x8Bit", "%u3 = OpConstant %uint 3\n")
    path = tmp_path / "u.spv"
    path.write_bytes(data)
    result = _cli(str(path), "--json")
    assert result.returncode == 3
    out = json.loads(result.stdout)
    assert out["unsupported"]["opcode"] == "OpSDotAccSat"
    assert isinstance(out["unsupported"]["offset"], int)
    assert "OpSDotAccSat at word" in result.stderr


def test_run_command_reports_bad_inputs(tmp_path):
    data = _compile(tmp_path, COMP_SHARED, "comp")
    path = tmp_path / "c.spv"
    path.write_bytes(data)
    bad = tmp_path / "in.json"
    bad.write_text('{"buffers": {"0.0": {"values": "no"}}}')
    result = _cli(str(path), "--inputs", str(bad))
    assert result.returncode == 1 and "buffers['0.0']" in result.stderr
    assert "Traceback" not in result.stderr


COMP_SUBGROUP = """#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer B { uint sum[4]; uint scan[4]; uint elect[4]; uint bcount[4]; uint shuf[4]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    sum[i] = subgroupAdd(i + 1u);
    scan[i] = subgroupExclusiveAdd(i + 1u);
    elect[i] = subgroupElect() ? 1u : 0u;
    bcount[i] = subgroupBallotBitCount(subgroupBallot(i % 2u == 0u));
    shuf[i] = subgroupShuffleXor(i * 10u, 1u);
}"""


def test_subgroup_operations_exchange_values_between_invocations(tmp_path):
    data = _compile(tmp_path, COMP_SUBGROUP, "comp")
    assert run_entry(data)["buffers"]["0.0"] == {
        "sum": [10, 10, 10, 10], "scan": [0, 1, 3, 6], "elect": [1, 0, 0, 0],
        "bcount": [2, 2, 2, 2], "shuf": [10, 0, 30, 20],
    }


COMP_IMAGES = """#version 450
layout(local_size_x = 2) in;
layout(binding = 0, r32ui) uniform uimage2D counters;
layout(binding = 1, rgba32f) uniform image2D target;
layout(binding = 2) uniform sampler2D tex;
layout(std430, binding = 3) buffer B { uint before[2]; ivec2 size; vec4 fetched; vec4 gathered; int levels; };
void main() {
    uint i = gl_LocalInvocationID.x;
    before[i] = imageAtomicAdd(counters, ivec2(1, 0), i + 1u);
    imageStore(target, ivec2(i, 1), vec4(float(i), 2.0, 3.0, 4.0));
    size = imageSize(target);
    fetched = texelFetch(tex, ivec2(1, 1), 0);
    gathered = textureGather(tex, vec2(0.5), 1);
    levels = textureQueryLevels(tex);
}"""


def test_storage_images_atomics_fetch_gather_and_queries(tmp_path):
    data = _compile(tmp_path, COMP_IMAGES, "comp")
    result = run_entry(data)
    b = result["buffers"]["0.3"]
    assert sorted(b["before"]) == [0, 1]  # the two atomic adds saw 0, then 1 (lockstep order)
    assert b["size"] == [4, 4]
    # The default texture is a 4x4 gradient: texel (1, 1) = (1.5/4, 1.5/4, 0.5/1, 1).
    assert b["fetched"] == [0.375, 0.375, 0.5, 1.0]
    # Gather of green at the centre: rows 2, 2, 1, 1 of the 4x4 gradient.
    assert b["gathered"] == [0.625, 0.625, 0.375, 0.375]
    assert b["levels"] == 3
    target = result["images"]["0.1"]
    row1 = target["rgba"][4 * 4 : 4 * 4 + 8]
    assert row1 == [0.0, 2.0, 3.0, 4.0, 1.0, 2.0, 3.0, 4.0]
    counters = result["images"]["0.0"]
    assert counters["rgba"][4] == 3.0  # texel (1, 0): 0 + 1 + 2
