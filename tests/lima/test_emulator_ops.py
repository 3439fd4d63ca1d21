"""Each unit and op of the Lima emulator against results worked out by hand in fp16.

Programs are written in our assembly syntax and assembled; the expected values are the
exact fp16 results (fp16 has 11 significant bits: 1/3 is 0.333251953125, 2049 is 2048).
"""

from __future__ import annotations

import pytest

from spvinspect import lima
from spvinspect.lima.emulator import EmulationError, Machine, parse_inputs, run_fragment


def program(text: str):
    words, diagnostics = lima.assemble(text)
    assert words is not None, [d.message for d in diagnostics]
    return lima.decode_words(words)


def run(text: str, inputs: dict | None = None, **kwargs):
    result, records = run_fragment(program(text), parse_inputs(inputs or {}), **kwargs)
    return result, records


def color(text: str, inputs: dict | None = None) -> list[float]:
    return list(run(text, inputs)[0].color)


V = {"varyings": {"0": [0.5, -2.0, 3.0, 0.25], "1": [4.0, 0.5, -1.0, 2.0]}}


def test_varying_fetch_rounds_to_fp16():
    assert color("stop, load.v $0 0", {"varyings": {"0": [0.1, 1 / 3, 2049.0, 70000.0]}}) == [
        0.0999755859375,
        0.333251953125,
        2048.0,
        float("inf"),
    ]


def test_vec4_mul_with_swizzle_negate_and_absolute():
    assert color("stop, load.v $1 0, mul.v0 $0 -$1_abs.wzyx $1", V) == [-0.125, 6.0, -6.0, -0.125]


def test_mul_rounds_each_result_to_fp16():
    # 1.0009765625 (1 + 2^-10) squared is 1 + 2^-9 + 2^-20; fp16 keeps 1 + 2^-9.
    inputs = {"varyings": {"0": [1.0009765625, 0, 0, 0]}}
    assert color("stop, load.v $1 0, mul.v0 $0.x $1.x $1.x", inputs)[0] == 1.001953125


def test_mul_shift_ops_scale_the_product():
    assert color("stop, load.v $1 0, mul_x4.v0 $0 $1 ^const0.xxxx, const0 1.0 0 0 0", V) == [2.0, -8.0, 12.0, 1.0]
    assert color("stop, load.v $1 0, mul_d2.v0 $0 $1 ^const0.xxxx, const0 1.0 0 0 0", V) == [0.25, -1.0, 1.5, 0.125]


def test_vec4_add_fed_by_the_multiplier_pipeline_register():
    # ^v0 = v0 * 2; $0 = ^v0 + v1
    text = "load.v $1 0, mul.v0 ^v0 $1 ^const0.xxxx, const0 2.0 0 0 0\nstop, load.v $2 1, add.v1 $0 $2 $1"
    assert color(text, V) == [4.5, -1.5, 2.0, 2.25]
    text = "load.v $1 0, mul.v0 ^v0 $1 ^const0.xxxx, add.v1 $0 ^v0 $1, const0 2.0 0 0 0\nstop, mov.v1 $0 $0"
    assert color(text, V) == [1.5, -6.0, 9.0, 0.75]


def test_comparisons_min_max_and_logic():
    text = "load.v $1 0\nload.v $2 1\n{} $0 $1 $2\nstop, mov.v1 $0 $0"
    assert color(text.format("gt.v0"), V) == [0.0, 0.0, 1.0, 0.0]
    assert color(text.format("ge.v1"), V) == [0.0, 0.0, 1.0, 0.0]
    assert color(text.format("min.v1"), V) == [0.5, -2.0, -1.0, 0.25]
    assert color(text.format("max.v0"), V) == [4.0, 0.5, 3.0, 2.0]
    assert color(text.format("eq.v0"), {"varyings": {"0": [1, 2, 3, 4], "1": [1, 0, 3, 0]}}) == [1.0, 0.0, 1.0, 0.0]


def test_fract_floor_ceil():
    inputs = {"varyings": {"0": [2.75, -2.75, 0.5, -0.25]}}
    text = "load.v $1 0\n{}.v1 $0 $1\nstop, mov.v1 $0 $0"
    assert color(text.format("fract"), inputs) == [0.75, 0.25, 0.5, 0.75]
    assert color(text.format("floor"), inputs) == [2.0, -3.0, 0.0, -1.0]
    assert color(text.format("ceil"), inputs) == [3.0, -2.0, 1.0, -0.0]


def test_sum3_and_sum4_broadcast_the_total():
    assert color("load.v $1 0\nsum3.v1 $0 $1\nstop, mov.v1 $0 $0", V) == [1.5] * 4
    assert color("load.v $1 0\nsum4.v1 $0 $1\nstop, mov.v1 $0 $0", V) == [1.75] * 4


def test_output_modifiers():
    inputs = {"varyings": {"0": [1.5, -0.5, 0.25, -2.75]}}
    assert color("stop, load.v $1 0, mov_sat.v0 $0 $1", inputs) == [1.0, 0.0, 0.25, 0.0]
    assert color("stop, load.v $1 0, mov_pos.v0 $0 $1", inputs) == [1.5, 0.0, 0.25, 0.0]
    # `int` truncates toward zero (Mesa lowers ftrunc to it).
    assert color("stop, load.v $1 0, mov_int.v0 $0 $1", inputs) == [1.0, -0.0, 0.0, -2.0]


def test_scalar_units_and_their_pipeline_register():
    # ^s0 = v.x * v.y = -1; $0.x = ^s0 + v.z = 2; $0.y = v.w
    text = "load.v $1 0, mul.s0 ^s0 $1.x $1.y, add.s1 $0.x ^s0 $1.z\nmov.s0 $0.y $1.w\nstop, mov.v1 $0 $0"
    assert color(text, V)[:2] == [2.0, 0.25]


def test_combine_functions_in_fp16():
    inputs = {"varyings": {"0": [3.0, 4.0, 0.25, 0.125]}}
    text = "load.v $1 0\n{} $0.x $1.{}\nstop, mov.v1 $0 $0"
    assert color(text.format("rcp.s2", "x"), inputs)[0] == 0.333251953125
    assert color(text.format("sqrt.s2", "y"), inputs)[0] == 2.0
    assert color(text.format("rsqrt.s2", "y"), inputs)[0] == 0.5
    assert color(text.format("exp2.s2", "x"), inputs)[0] == 8.0
    assert color(text.format("log2.s2", "w"), inputs)[0] == -3.0
    # sin and cos take turns: sin(2*pi*0.25) = 1, cos(2*pi*0.125) = 0.7071 -> 0.70703125
    assert color(text.format("sin.s2", "z"), inputs)[0] == 1.0
    assert color(text.format("cos.s2", "w"), inputs)[0] == 0.70703125


def test_sel_picks_by_the_scalar_multiplier_result():
    text = "load.v $1 0\nload.v $2 1\nmov.s0 ^s0 $1.{}, sel.v1 $0 $1 $2\nstop, mov.v1 $0 $0"
    assert color(text.format("x"), V) == V["varyings"]["0"]
    zero = {"varyings": {"0": [0.0, 1, 2, 3], "1": [4.0, 0.5, -1.0, 2.0]}}
    assert color(text.format("x"), zero) == zero["varyings"]["1"]


def test_uniforms_and_temporaries():
    inputs = {"uniforms": {"0": [1, 2, 3, 4], "1": [0.5, 0.25, -1, -2]}}
    text = "load.u 1, mov.v1 $1 ^uniform, store.t 65533 $1\nstop, load.t 65533, add.v1 $0 ^uniform ^uniform"
    result, records = run(text, inputs)
    assert list(result.color) == [1.0, 0.5, -2.0, -4.0]
    assert any(w.kind == "temporary" and w.name == "temp[-3]" for w in records[0].writes)


def test_a_branch_taken_and_why():
    text = (
        "load.v $1 0\n"
        "branch_gt $1.x ^const0.x L1, const0 0.0 0 0 0\n"
        "stop, mov.v1 $0 ^const0.xxxx, const0 1.0 0 0 0\n"
        "L1:\n"
        "stop, mov.v1 $0 ^const0.xxxx, const0 2.0 0 0 0"
    )
    result, records = run(text, V)
    assert result.color == (2.0, 2.0, 2.0, 2.0)
    assert records[1].taken and "0.5 > ^const0.x = 0 is true: taken" in records[1].branch
    result, records = run(text, {"varyings": {"0": [-1.0, 0, 0, 0]}})
    assert result.color == (1.0, 1.0, 1.0, 1.0) and not records[1].taken


def test_discard_ends_the_fragment_discarded():
    result, _ = run("load.v $1 0\nstop, discard", V)
    assert result.discarded and result.steps == 2


def test_texture_sampling_nearest_and_linear():
    texels = [0, 0, 0, 1, 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1]
    inputs = {"varyings": {"0": [0.75, 0.25, 0, 0]}, "textures": {"0": {"width": 2, "height": 2, "rgba": texels}}}
    text = "stop, sync, load.v ^discard.xy 0.xy, texld 0, mov.v1 $0 ^texture"
    assert color(text, inputs) == [1.0, 0.0, 0.0, 1.0]
    inputs["textures"]["0"]["filter"] = "linear"
    inputs["varyings"]["0"] = [0.5, 0.5, 0, 0]
    assert color(text, inputs) == [0.5, 0.5, 0.25, 1.0]


def test_special_inputs():
    inputs = {"fragcoord": [10.5, 20.5, 0.5, 1.0], "pointcoord": [0.25, 0.75], "frontfacing": False}
    assert color("stop, load.v $0 gl_FragCoord {alignment=3}", inputs) == [10.5, 20.5, 0.5, 1.0]
    assert color("stop, load.v $0.xy gl_PointCoord", inputs)[:2] == [0.25, 0.75]
    assert color("stop, load.v $0.x gl_FrontFacing", inputs)[0] == 0.0


def test_derivatives_across_the_quad():
    # v = 3x + 5y over a 2x2 grid: dFdx = 3/2 per fragment of a 2-wide grid... in grid units
    ramp = {"bottom_left": [0, 0, 0, 0], "bottom_right": [4, 0, 0, 0], "top_left": [0, 8, 0, 0]}
    inputs = {"varyings": {"0": ramp}}
    text = "sync, load.v $1.xy 0.xy, dFdx.v1 $0.x $1.x -$1.x\nsync, dFdy.v1 $0.y -$1.y $1.y\nstop, mov.v1 $0 $0"
    result, _ = run_fragment(program(text), parse_inputs(inputs), (1, 1), (2, 2))
    assert result.color[:2] == (2.0, 4.0)


def test_an_op_it_cannot_execute_names_instruction_unit_and_op():
    with pytest.raises(EmulationError) as caught:
        run("load.v $1 0\nstop, atan.s2 $0.x $1.x", V)
    message = str(caught.value)
    assert "instruction 1" in message and "unit combine" in message and "op 8" in message


def test_reading_a_pipeline_register_the_instruction_does_not_load_is_refused():
    with pytest.raises(EmulationError, match="reads \\^texture but the instruction has no sampler"):
        run("stop, mov.v1 $0 ^texture", V)


def test_stepping_back_restores_the_state_and_breakpoints_stop():
    machine = Machine(program("load.v $1 0\nmul.v0 $2 $1 $1\nadd.v1 $3 $2 $1\nstop, mov.v1 $0 $3"), parse_inputs(V))
    machine.step()
    machine.step()
    assert list(machine.registers()[2]) == [0.25, 4.0, 9.0, 0.0625]
    assert machine.back()
    assert list(machine.registers()[2]) == [0.0] * 4
    assert machine.current.index == 1
    machine.breakpoints.add(3)
    machine.run()
    assert machine.current.index == 3 and not machine.finished
    machine.run()
    assert machine.finished and machine.result().color == (0.75, 2.0, 12.0, 0.3125)
    write = machine.records[1].writes[-1]
    assert (write.name, write.old, write.new) == ("$2", (0.0,) * 4, (0.25, 4.0, 9.0, 0.0625))
