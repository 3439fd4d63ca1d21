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


FRAG_CUBE_EDGE = """#version 450
layout(binding = 0) uniform samplerCube cube;
layout(location = 0) out vec4 color;
void main() { color = textureLod(cube, vec3(0.8, 0.0, 1.0), 0.0); }"""


def test_linear_cube_sampling_is_seamless_across_faces(tmp_path):
    data = compile_glsl(FRAG_CUBE_EDGE, "frag", tmp_path / "f.spv")
    # 2x2 faces; texel (x, y) of face f holds 10 f + 2 y + x in red.
    rgba = [v for f in range(6) for y in range(2) for x in range(2) for v in (10.0 * f + 2 * y + x, 0.0, 0.0, 1.0)]
    inputs = {"images": {"0.0": {"width": 2, "height": 2, "layers": 6, "rgba": rgba, "mips": False}}}
    red = run_entry(data, inputs=inputs)["outputs"]["color"][0]
    # On +Z (face 4) at s = 0.9, t = 0.5 the footprint is texels x = 1 and x = 2 (weight
    # 0.3), rows 0 and 1 (0.5 each); x = 2 is past the edge: column 0 of +X (face 0).
    assert abs(red - (0.5 * (0.7 * 41 + 0.3 * 0) + 0.5 * (0.7 * 43 + 0.3 * 2))) < 1e-5


FRAG_CUBE_ZERO = """#version 450
layout(binding = 0) uniform samplerCube cube;
layout(location = 0) in vec3 direction;
layout(location = 0) out vec4 color;
void main() { color = texture(cube, direction); }"""


def test_a_cube_map_in_the_zero_direction_is_undefined(tmp_path):
    data = compile_glsl(FRAG_CUBE_ZERO, "frag", tmp_path / "f.spv")
    assert run_entry(data)["outputs"]["color"] == ["undef"] * 4  # the cube's face is a division by zero
    assert run_entry(data, inputs={"inputs": {"direction": [0.0, 0.0, 1.0]}})["outputs"]["color"][3] == 1.0


FRAG_PROJ_SHADOW = """#version 450
layout(binding = 0) uniform sampler2DShadow shadow;
layout(location = 0) out vec4 color;
void main() {
    color = vec4(textureProj(shadow, vec4(0.5, 0.5, 1.5, 2.0)), textureProj(shadow, vec4(0.5, 0.5, 1.5, 4.0)), 0.0, 0.0);
}"""


def test_projective_depth_comparison_divides_the_reference_too(tmp_path):
    data = compile_glsl(FRAG_PROJ_SHADOW, "frag", tmp_path / "f.spv")
    depth = {"width": 1, "height": 1, "rgba": [0.5, 0.0, 0.0, 1.0], "sampler": {"filter": "nearest"}}
    color = run_entry(data, inputs={"images": {"0.0": depth}})["outputs"]["color"]
    # The reference is 1.5 / 2 = 0.75 (fails against depth 0.5), then 1.5 / 4 = 0.375 (passes).
    assert color[:2] == [0.0, 1.0]


FRAG_LOD_HALF = """#version 450
layout(binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 color;
void main() { color = vec4(textureLod(tex, vec2(0.125), 0.5).r, textureLod(tex, vec2(0.125), 0.5625).r, 0.0, 0.0); }"""


def test_nearest_mipmap_rounds_half_a_level_down_as_vulkan_prefers(tmp_path):
    data = compile_glsl(FRAG_LOD_HALF, "frag", tmp_path / "f.spv")
    # A 4x4 checkerboard in red: level 0 reads 0 at texel (0, 0); level 1 averages to 0.5.
    rgba = [v for y in range(4) for x in range(4) for v in (float((x + y) % 2), 0.0, 0.0, 1.0)]
    image = {"width": 4, "height": 4, "rgba": rgba, "sampler": {"filter": "nearest", "mipmap": "nearest"}}
    color = run_entry(data, inputs={"images": {"0.0": image}})["outputs"]["color"]
    assert color[:2] == [0.0, 0.5]  # level ceil(0.5 + 0.5) - 1 = 0, then ceil(1.0625) - 1 = 1
