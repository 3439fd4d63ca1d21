"""Image instructions the lavapipe oracle found wrong: offsets on 1D fetches, cube-map
array layers (chosen by the fourth coordinate, clamped to the cubes there are)."""

from __future__ import annotations

from oracle import compile_glsl

from spvinspect.codec.interp.group import run_entry

FRAG_FETCH_1D_CUBE_ARRAY = """#version 450
layout(binding = 0) uniform sampler1D line;
layout(binding = 1) uniform samplerCubeArray cubes;
layout(location = 0) in vec4 layer;
layout(location = 0) out vec4 fetched;
layout(location = 1) out vec4 cube;
void main() {
    fetched = vec4(texelFetchOffset(line, 0, 0, 1).r, texelFetchOffset(line, 0, 0, -1).r,
                   texelFetchOffset(line, 2, 0, 1).r, 0.0);
    cube = vec4(texture(cubes, vec4(0.0, 0.0, 1.0, layer.x)).r, texture(cubes, vec4(-1.0, 0.0, 0.0, layer.y)).r,
                texture(cubes, vec4(0.0, 0.0, 1.0, layer.z)).r, 0.0);
}"""


def test_fetch_offsets_on_1d_images_and_cube_array_layers(tmp_path):
    data = compile_glsl(FRAG_FETCH_1D_CUBE_ARRAY, "frag", tmp_path / "f.spv")
    line = {"width": 4, "height": 1, "rgba": [v for x in range(4) for v in (10.0 + x, 0.0, 0.0, 1.0)]}
    # Three cubes; each face's texels hold its layer number (6 * cube + face) in red.
    cubes = {"width": 1, "height": 1, "layers": 18, "rgba": [v for z in range(18) for v in (float(z), 0.0, 0.0, 1.0)]}
    inputs = {"images": {"0.0": {**line, "sampler": {"filter": "nearest"}},
                         "0.1": {**cubes, "sampler": {"filter": "nearest"}}},
              "inputs": {"layer": [1.0, 2.0, 7.0, 0.0]}}
    out = run_entry(data, inputs=inputs)["outputs"]
    # x = 0 + 1 is texel 1; x = 0 - 1 is outside the image (zero); x = 2 + 1 is texel 3.
    assert out["fetched"] == [11.0, 0.0, 13.0, 0.0]
    # +Z is face 4, -X face 1; layer 7 is past the last cube and clamps to cube 2.
    assert out["cube"] == [10.0, 13.0, 16.0, 0.0]
