"""GLSL.std.450 results the extended instruction set leaves undefined are shown as
`undef`, as the rest of the interpreter shows undefined behaviour (a driver gives any
value there: lavapipe's pow of a negative base is 0, numpy's NaN)."""

from __future__ import annotations

from oracle import compile_glsl

from spvinspect.codec.interp.group import run_entry

FRAG_POW = """#version 450
layout(location = 0) in vec4 x;
layout(location = 0) out vec4 color;
void main() { color = pow(x, vec4(2.2, 2.0, 0.0, 0.5)); }"""


def test_pow_of_a_negative_base_or_zero_to_a_non_positive_power_is_undefined(tmp_path):
    data = compile_glsl(FRAG_POW, "frag", tmp_path / "f.spv")
    color = run_entry(data, inputs={"inputs": {"x": [-0.5, -2.0, 0.0, 4.0]}})["outputs"]["color"]
    assert color == ["undef", "undef", "undef", 2.0]
    assert run_entry(data, inputs={"inputs": {"x": [1.0, 3.0, 5.0, 0.0]}})["outputs"]["color"] == [1.0, 9.0, 1.0, 0.0]
