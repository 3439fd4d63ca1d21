"""Sampling with a coordinate per lane runs over the lanes at once (images_lanes) and
gives bit for bit the pixels the per-invocation sampler gives quad by quad: 2D, 2D
arrays, 3D, nearest and linear, mip levels from the quad's derivatives (nearest and
linear between levels), bias, explicit LOD, gradients, offsets, projection, depth
comparison, repeat and clamp-to-edge, cube maps and cube arrays (seamless past a face's
edges and corners)."""

from __future__ import annotations

import json

from oracle import compile_glsl

from spvinspect.codec.interp import images_lanes
from spvinspect.codec.interp.group import run_grid
from spvinspect.codec.interp.shader import Shader

SAMPLING = """#version 450
layout(location = 0) out vec4 color;
layout(location = 1) out vec4 more;
layout(binding = 0) uniform sampler2D flat2;
layout(binding = 1) uniform sampler2DArray layers;
layout(binding = 2) uniform sampler3D volume;
layout(binding = 3) uniform sampler2DShadow shadow;
layout(binding = 4) uniform samplerCube cube;
layout(binding = 5) uniform samplerCubeArray cubes;
layout(location = 2) out vec4 round;
void main() {
    vec2 p = gl_FragCoord.xy * vec2(0.37, 0.29) * gl_FragCoord.x - 0.3;
    color = texture(flat2, p) + texture(flat2, p * 1.7, 0.75)
          + textureLod(flat2, p, gl_FragCoord.x * 0.4) + textureGrad(flat2, p, vec2(0.3 * p.x, 0.0), vec2(0.0, 0.2))
          + textureOffset(flat2, p, ivec2(1, -1)) + textureProj(flat2, vec3(p, 1.5 + p.y));
    more = texture(layers, vec3(p, gl_FragCoord.y - 0.5)) + texture(volume, vec3(p, p.x * p.y))
         + vec4(texture(shadow, vec3(p, 0.4)), textureProjLod(shadow, vec4(p, 0.3, 2.0), 0.5), 0.0, 0.0);
    vec3 d = vec3(p.x - 1.0, 0.9 - p.y, p.x * p.y - 0.5);
    round = texture(cube, d) + texture(cubes, vec4(d.zxy, gl_FragCoord.x / 4.0)) + textureLod(cube, -d, 0.6);
}
"""


def _image(w: int, h: int, d: int, seed: int, sampler: dict, layers: bool = False) -> dict:
    rgba = [((i * 7919 + seed * 104729) % 1013) / 1013.0 for i in range(w * h * d * 4)]
    return {"width": w, "height": h, ("layers" if layers else "depth"): d, "rgba": rgba, "sampler": sampler}


def test_sampling_in_lanes_is_the_samplers_own_result_bit_for_bit(tmp_path, monkeypatch):
    data = compile_glsl(SAMPLING, "frag", tmp_path / "s.spv")
    shader = Shader(data)
    entry = shader.entry_point()
    calls, left = [], []
    run = images_lanes.execute_lanes

    def counted(inv, ins, active):
        calls.append(ins.opname)
        try:
            return run(inv, ins, active)
        except images_lanes.NotInLanes:
            left.append(ins.opname)
            raise

    monkeypatch.setattr("spvinspect.codec.interp.lanes.execute_lanes", counted)
    for filter_, mipmap, address in (("linear", "linear", "repeat"), ("nearest", "nearest", "clamp"),
                                     ("linear", "nearest", "clamp")):
        sampler = {"filter": filter_, "mipmap": mipmap, "address": address}
        inputs = {"images": {"0.0": _image(8, 8, 1, 1, sampler), "0.1": _image(4, 4, 3, 2, sampler, layers=True),
                             "0.2": _image(4, 4, 4, 3, sampler), "0.3": _image(4, 4, 1, 4, sampler),
                             "0.4": _image(4, 4, 6, 5, sampler, layers=True),
                             "0.5": _image(2, 2, 12, 6, sampler, layers=True)}}
        lanes = run_grid(shader, entry, inputs, (8, 4))
        assert "per_invocation" not in lanes, lanes["per_invocation"]
        quads = run_grid(shader, entry, inputs, (8, 4), lanes=False)
        assert json.dumps(lanes["pixels"]) == json.dumps(quads["pixels"]), (filter_, mipmap, address)
        assert len({json.dumps(p) for p in lanes["pixels"]}) > 12
    assert len(calls) == 3 * 13 and not left, left
