"""What the specifications leave undefined is shown as `undef` (and listed under
"undefined" in the run's JSON), class by class, beside the defined neighbours of each
case, in the per-invocation interpreter and in lanes. Where it is said: the docstrings
of codec/interp/ops.py and codec/interp/glsl450.py."""

from __future__ import annotations

import json
import math

import numpy as np

from asm_module import CONSTS, run_values
from oracle import compile_glsl

from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.group import run_entry, run_grid
from spvinspect.codec.interp.shader import Shader
from spvinspect.codec.interp.trace import format_record, format_result

def test_division_remainder_and_shifts():
    """Integers: by 0, the minimum over -1, a remainder of a negative operand (Vulkan), a
    shift by the width or more. Floats: a non-zero over 0 is the signed infinity (Vulkan);
    0/0 and inf/inf a NaN drivers may assume away; the remainders by 0 (SPIR-V). The
    defined results of the same ops are in test_interp_ops."""
    v = run_values("""
%sdiv0 = OpSDiv %int %i7 %i0
%sdivmin = OpSDiv %int %imin %im1
%udiv0 = OpUDiv %uint %u3 %u0
%umod0 = OpUMod %uint %u3 %u0
%srem0 = OpSRem %int %i7 %i0
%sremneg = OpSRem %int %im7 %i2
%smodneg = OpSMod %int %i7 %im2
%shl32 = OpShiftLeftLogical %uint %u3 %u32
%zero_zero = OpFDiv %float %f0 %f0
%inf = OpFDiv %float %f1 %f0
%minf = OpFDiv %float %fm1 %f0
%inf_inf = OpFDiv %float %inf %inf
%rem0 = OpFRem %float %f1 %f0
%mod0 = OpFMod %float %f1 %f0
%third = OpFDiv %float %f1 %f3
""", CONSTS)
    undefined = ("sdiv0", "sdivmin", "udiv0", "umod0", "srem0", "sremneg", "smodneg", "shl32",
                 "zero_zero", "inf_inf", "rem0", "mod0")
    assert [v[k] for k in undefined] == ["undef"] * len(undefined)
    assert (v["inf"], v["minf"]) == ("inf", "-inf")
    assert v["third"] == float(np.float32(1) / np.float32(3))


def test_glsl_std_450_functions_outside_their_domains():
    v = run_values("""
%asin2 = OpExtInst %float %glsl Asin %f2
%acos = OpExtInst %float %glsl Acos %f1_5
%atan00 = OpExtInst %float %glsl Atan2 %f0 %f0
%acosh = OpExtInst %float %glsl Acosh %fhalf
%atanh1 = OpExtInst %float %glsl Atanh %f1
%log0 = OpExtInst %float %glsl Log %f0
%log2m = OpExtInst %float %glsl Log2 %fm1
%sqrtm = OpExtInst %float %glsl Sqrt %fm1
%isqrt0 = OpExtInst %float %glsl InverseSqrt %f0
%pow = OpExtInst %float %glsl Pow %fm1 %f2
%asin1 = OpExtInst %float %glsl Asin %f1
%atan01 = OpExtInst %float %glsl Atan2 %f0 %f1
%log1 = OpExtInst %float %glsl Log %f1
%sqrt0 = OpExtInst %float %glsl Sqrt %f0
%isqrt = OpExtInst %float %glsl InverseSqrt %f2
""", CONSTS)
    undefined = ("asin2", "acos", "atan00", "acosh", "atanh1", "log0", "log2m", "sqrtm", "isqrt0", "pow")
    assert [v[k] for k in undefined] == ["undef"] * len(undefined)
    assert v["asin1"] == float(np.float32(math.pi / 2))
    assert (v["atan01"], v["log1"], v["sqrt0"]) == (0.0, 0.0, 0.0)
    assert v["isqrt"] == float(np.float32(1 / math.sqrt(2)))


def test_clamps_smoothstep_ldexp_and_frexp_with_undefined_arguments():
    """A clamp whose minVal is above its maxVal (signed as signed: -2 is below 2), a
    smoothstep whose edges do not rise, Ldexp past 2^128, Frexp of an infinity."""
    v = run_values("""
%fclamp = OpExtInst %float %glsl FClamp %f1 %f3 %f2
%nclamp = OpExtInst %float %glsl NClamp %f1 %f3 %f2
%uclamp = OpExtInst %uint %glsl UClamp %u0 %u3 %u2
%sclamp = OpExtInst %int %glsl SClamp %i0 %i2 %im2
%smooth = OpExtInst %float %glsl SmoothStep %f1 %f1 %f0
%ldexp129 = OpExtInst %float %glsl Ldexp %f1 %e129
%inf = OpFDiv %float %f1 %f0
%frexp = OpExtInst %float %glsl FrexpStruct %inf
%sclampok = OpExtInst %int %glsl SClamp %i7 %im2 %i2
%smoothok = OpExtInst %float %glsl SmoothStep %f0 %f2 %f1
%ldexp128 = OpExtInst %float %glsl Ldexp %fhalf %e128
""", CONSTS.replace("%f1_5", "%frexp_t = OpTypeStruct %float %int\n%f1_5").replace(
        "%frexp = OpExtInst %float", "%frexp = OpExtInst %frexp_t"))
    undefined = ("fclamp", "nclamp", "uclamp", "sclamp", "smooth", "ldexp129")
    assert [v[k] for k in undefined] == ["undef"] * len(undefined)
    assert v["frexp"] == ["undef", "undef"]
    assert (v["sclampok"], v["smoothok"], v["ldexp128"]) == (2, 0.5, float(np.float32(2.0 ** 127)))


FRAGMENT = """#version 450
layout(location = 0) in vec4 x;
layout(location = 0) out vec4 color;
layout(location = 1) out float total;
void main() {
    color = vec4(1.0 / x.x, sqrt(x.y), mod(x.z, x.w), pow(x.x, 2.0));
    total = color.x + color.y;
}
"""


def test_the_run_lists_its_undefined_outputs_and_the_trace_shows_them(tmp_path):
    data = compile_glsl(FRAGMENT, "frag", tmp_path / "f.spv")
    result = run_entry(data, inputs={"inputs": {"x": [0.0, -4.0, 1.0, 0.0]}})
    assert result["outputs"] == {"color": ["inf", "undef", "undef", 0.0], "total": "undef"}
    assert result["undefined"] == ["outputs.color[1]", "outputs.color[2]", "outputs.total"]
    assert "undefined (the specification gives no value): outputs.color[1], outputs.color[2], outputs.total" \
        in format_result(result)
    defined = run_entry(data, inputs={"inputs": {"x": [2.0, 4.0, 5.0, 3.0]}})
    assert defined["outputs"] == {"color": [0.5, 2.0, 2.0, 4.0], "total": 2.5} and "undefined" not in defined
    shader = Shader(data)
    debugger = Debugger(shader, inputs={"inputs": {"x": [0.0, -4.0, 1.0, 0.0]}})
    debugger.run()
    sqrt = next(r for r in debugger.history if r.opname == "OpExtInst")
    assert format_record(shader, sqrt, shader.names, as_json=True)["value"] == "undef"
    assert format_record(shader, sqrt, shader.names).endswith('= "undef"')


GRID = """#version 450
layout(location = 0) out vec4 color;
void main() {
    vec2 p = gl_FragCoord.xy;
    color = vec4(sqrt(p.x - S), mod(p.y, p.x - M), 1.0 / (p.y - 0.5), inversesqrt(p.x));
}
"""


def test_lanes_give_the_undefined_results_each_invocation_gives(tmp_path):
    """Where some lanes only are undefined the grid runs invocation by invocation, and
    says so; where none or all are, in lanes; the pixels are the same either way. Pixels
    (0, 0) and (1, 0) are at p = (0.5, 0.5) and (1.5, 0.5)."""
    for s, m, in_lanes in (("1.0", "1.5", False), ("0.0", "9.0", True), ("9.0", "9.0", True)):
        data = compile_glsl(GRID.replace("S", s).replace("M", m), "frag", tmp_path / "g.spv")
        shader = Shader(data)
        lanes = run_grid(shader, shader.entry_point(), {}, (4, 2))
        quads = run_grid(shader, shader.entry_point(), {}, (4, 2), lanes=False)
        assert json.dumps(lanes["pixels"]) == json.dumps(quads["pixels"])
        assert ("per_invocation" not in lanes) == in_lanes, lanes.get("per_invocation")
        first, second = lanes["pixels"][0]["color"], lanes["pixels"][1]["color"]
        assert (first[0] == "undef", second[0] == "undef") == (float(s) > 0.5, float(s) > 1.5)
        assert second[1] == ("undef" if m == "1.5" else -7.0)  # mod(0.5, -7.5)
        assert first[2] == second[2] == "inf"
