"""`spvinspect lima run` as a user types it: one fragment, a grid, a trace, JSON, bad input."""

from __future__ import annotations

import json

import pytest

from spvinspect import lima

PROGRAM = (
    "load.v $1 0\n"
    "branch_gt $1.x ^const0.x L1, const0 0.0 0 0 0\n"
    "stop, mul.v0 $0 $1 ^const0.xxxx, const0 2.0 0 0 0\n"
    "L1:\n"
    "stop, discard"
)


def write_program(tmp_path, text: str = PROGRAM):
    words, diagnostics = lima.assemble(text)
    assert words is not None, diagnostics
    path = tmp_path / "shader.pp"
    path.write_bytes(b"".join(w.to_bytes(4, "little") for w in words))
    return path


def write_inputs(tmp_path, data) -> str:
    path = tmp_path / "in.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_one_fragment_prints_colour_discard_and_steps(cli, tmp_path):
    pp = write_program(tmp_path)
    inputs = write_inputs(tmp_path, {"varyings": {"0": [-0.5, 1.5, 3.0, 0.1]}})
    code, out, err = cli("lima", "run", str(pp), "--inputs", inputs)
    assert code == 0, err
    assert out.splitlines() == ["color: -1 3 6 0.199951", "discarded: no", "steps: 3"]


def test_json_output_keeps_the_issue_keys(cli, tmp_path):
    pp = write_program(tmp_path)
    inputs = write_inputs(tmp_path, {"varyings": {"0": [0.5, 0, 0, 0]}})
    code, out, _ = cli("lima", "run", str(pp), "--inputs", inputs, "--json")
    assert code == 0
    assert json.loads(out) == {"color": [0.0, 0.0, 0.0, 0.0], "discarded": True, "steps": 3}


def test_a_grid_gives_one_record_per_fragment_row_by_row(cli, tmp_path):
    pp = write_program(tmp_path)
    ramp = {"bottom_left": [-1, 0, 0, 0], "bottom_right": [1, 0, 0, 0], "top_left": [-1, 0, 0, 0]}
    inputs = write_inputs(tmp_path, {"varyings": {"0": ramp}})
    code, out, _ = cli("lima", "run", str(pp), "--inputs", inputs, "--grid", "2,2", "--json")
    records = json.loads(out)
    assert code == 0
    assert [(r["x"], r["y"], r["discarded"]) for r in records] == [
        (0, 0, False),
        (1, 0, True),
        (0, 1, False),
        (1, 1, True),
    ]
    assert records[0]["color"][0] == -1.0


def test_trace_shows_writes_and_why_the_branch_went_its_way(cli, tmp_path):
    pp = write_program(tmp_path)
    inputs = write_inputs(tmp_path, {"varyings": {"0": [-0.5, 1.5, 3.0, 0.1]}})
    code, out, _ = cli("lima", "run", str(pp), "--inputs", inputs, "--trace")
    assert code == 0
    assert "    varying: $1 = 0 0 0 0 -> -0.5 1.5 3 0.0999756" in out
    assert "branch: $1.x = -0.5 > ^const0.x = 0 is false: not taken" in out
    assert "    vec4_mul: $0 = 0 0 0 0 -> -1 3 6 0.199951" in out


def test_an_op_it_cannot_run_is_an_error_message(cli, tmp_path):
    pp = write_program(tmp_path, "load.v $1 0\nstop, atan.s2 $0.x $1.x")
    code, out, err = cli("lima", "run", str(pp))
    assert code == 1
    assert "instruction 1 (word 3), unit combine: op 8 (atan) of combine is not emulated" in err
    assert "Traceback" not in err


def test_bad_inputs_and_arguments_are_messages(cli, tmp_path):
    pp = write_program(tmp_path)
    bad = write_inputs(tmp_path, {"uniforms": {"0": "red"}})
    code, _, err = cli("lima", "run", str(pp), "--inputs", bad)
    assert code == 1 and "uniforms.0: expected a list of 1 to 64 numbers" in err
    code, _, err = cli("lima", "run", str(pp), "--grid", "2x2")
    assert code == 1 and "--grid: expected two whole numbers" in err
    (tmp_path / "broken.json").write_text("{")
    code, _, err = cli("lima", "run", str(pp), "--inputs", str(tmp_path / "broken.json"))
    assert code == 1 and "not JSON" in err


def test_json_output_is_valid_json_with_nan_and_infinities_as_strings(cli, tmp_path):
    # 60000 * 2 overflows fp16 to +inf; inf * 0 is NaN; the trace's old/new values too.
    pp = write_program(tmp_path, "load.v $1 0\nstop, mul.v0 $0 $1 ^const0.xxyx, const0 2.0 0.0 0 0\n")
    inputs = write_inputs(tmp_path, {"varyings": {"0": [60000, -60000, float("inf"), 1]}})
    code, out, err = cli("lima", "run", str(pp), "--inputs", inputs, "--json", "--trace")
    assert code == 0, err
    record = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert record["color"] == ["inf", "-inf", "nan", 2.0]
    assert record["trace"][-1]["writes"][-1]["new"] == ["inf", "-inf", "nan", 2.0]
    code, out, _ = cli("lima", "run", str(pp), "--inputs", inputs, "--json", "--grid", "1,1")
    assert json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))[0]["color"][2] == "nan"


def test_inputs_take_nan_and_infinities_as_the_json_output_writes_them(cli, tmp_path):
    pp = write_program(tmp_path, "load.v $1 0\nstop, mul.v0 $0 $1 ^const0.xxxx, const0 1.0 0.0 0 0\n")
    inputs = write_inputs(tmp_path, {"varyings": {"0": ["inf", "-inf", "nan", 1]}})
    code, out, err = cli("lima", "run", str(pp), "--inputs", inputs, "--json")
    assert code == 0, err
    assert json.loads(out)["color"] == ["inf", "-inf", "nan", 1.0]
