"""A buffer's runtime array takes its length from the inputs, else one element per
invocation (at least 16), and `run` and the values pane say so."""

from __future__ import annotations

import json

from oracle import compile_glsl

from spvinspect.cli import main
from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.group import run_entry
from spvinspect.codec.interp.shader import Shader
from spvinspect.codec.interp.values_view import invocation_rows

COMP_RUNTIME = """#version 450
layout(local_size_x = 4) in;
layout(std430, binding = 0) buffer Data { uint count; uint values[]; } data;
void main() {
    uint i = gl_LocalInvocationID.x;
    data.values[i] = i + 1u;
    if (i == 0u) data.count = uint(data.values.length());
}"""


def test_runtime_arrays_default_to_16_elements_or_take_the_inputs_length(tmp_path, capsys):
    path = tmp_path / "r.comp.spv"
    data = compile_glsl(COMP_RUNTIME, "comp", path)
    buffer = run_entry(data)["buffers"]["0.0"]
    assert buffer["values"] == [1, 2, 3, 4] + [0] * 12 and buffer["count"] == 16
    given = run_entry(data, inputs={"buffers": {"0.0": {"values": [7] * 6}}})["buffers"]["0.0"]
    assert given["values"] == [1, 2, 3, 4, 7, 7] and given["count"] == 6

    assert main(["run", str(path)]) == 0
    assert "note: data.values: a runtime array, 16 elements by default" in capsys.readouterr().out
    assert main(["run", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["notes"][0].startswith("data.values: a runtime array, 16 elements")
    inputs = tmp_path / "in.json"
    inputs.write_text(json.dumps({"buffers": {"0.0": {"values": [0, 0]}}}))
    assert main(["run", str(path), "--inputs", str(inputs)]) == 0
    assert "note:" not in capsys.readouterr().out

    rows = invocation_rows(Debugger(Shader(data)), str)
    notes = [row.label for row in rows if row.label.startswith("note: data.values")]
    assert notes == ["note: data.values: a runtime array, 16 elements by default (give buffers['0.0'] a list to choose its length)"]
