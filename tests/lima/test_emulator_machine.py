"""The stepping engine a pane drives: run to an instruction, to the next taken branch,
breakpoints, the record of each step, and inputs named by an MBS file's symbols."""

from __future__ import annotations

import json

import pytest

from spvinspect import lima
from spvinspect.lima.emulator import EmulationError, InputError, Machine, parse_inputs
from spvinspect.lima.symbols import symbol_table

from lima_words import mbs_file

LOOP = (
    "load.v $1 0, mov.s0 $2.x ^const0.x, const0 0.0 0 0 0\n"
    "L1:\n"
    "add.s1 $2.x $2.x ^const0.x, const0 1.0 0 0 0\n"
    "branch_lt $2.x $1.x L1\n"
    "stop, mov.v1 $0 $2.xxxx"
)


def machine(text: str, inputs: dict | None = None, **kwargs) -> Machine:
    words, diagnostics = lima.assemble(text)
    assert words is not None, diagnostics
    return Machine(lima.decode_words(words), parse_inputs(inputs or {}), **kwargs)


def test_run_to_the_next_taken_branch_and_to_an_instruction():
    m = machine(LOOP, {"varyings": {"0": [3.0, 0, 0, 0]}})
    record = m.run_to_taken_branch()
    assert record.instruction == 2 and record.taken
    assert m.current.index == 1
    assert "$2.x = 1 < $1.x = 3 is true: taken to word" in record.branch
    m.run_to(3)
    assert m.current.index == 3 and list(m.registers()[2][:1]) == [3.0]
    assert m.records[-1].branch.endswith("not taken")
    m.run()
    assert m.finished and m.result().color == (3.0, 3.0, 3.0, 3.0) and m.result().steps == 8


def test_back_after_the_end_resumes_the_fragment():
    m = machine(LOOP, {"varyings": {"0": [2.0, 0, 0, 0]}})
    m.run()
    assert m.current is None and m.step() is None
    assert m.back() and not m.finished and m.current.index == 3
    m.run()
    assert m.finished and m.result().color[0] == 2.0


def test_breakpoints_stop_each_time_round_a_loop():
    m = machine(LOOP, {"varyings": {"0": [3.0, 0, 0, 0]}})
    m.breakpoints.add(2)
    seen = []
    while not m.finished:
        m.run()
        seen.append(float(m.registers()[2][0]))
    assert seen == [1.0, 2.0, 3.0, 3.0]


def test_a_program_that_never_ends_is_a_message():
    m = machine("L1:\nbranch L1", max_steps=50)
    with pytest.raises(EmulationError, match="has not ended after"):
        m.run()


def test_a_branch_into_the_middle_of_an_instruction_is_a_message():
    words, _ = lima.assemble("branch L1\nL1:\nstop, mov.v1 $0 $0")
    branch = lima.decode_words(words).instructions[0].fields[0]
    target_bit = branch.bit_offset + 41  # `target` starts at bit 41 of the branch field
    words[target_bit // 32] += 1 << (target_bit % 32)  # one word further on
    m = Machine(lima.decode_words(words))
    with pytest.raises(EmulationError, match="does not start an instruction"):
        m.run()


def test_temporaries_and_pipeline_registers_are_readable_for_a_pane():
    m = machine("stop, load.v $1 0, mul.v0 ^v0 $1 $1, store.t 3 $1", {"varyings": {"0": [1, 2, 3, 4]}})
    m.step()
    assert m.temporaries() == {3: (1.0, 2.0, 3.0, 4.0)}
    assert m.pipeline()["^v0"] == (1.0, 4.0, 9.0, 16.0)
    assert [w.name for w in m.records[0].writes] == ["^coords", "$1", "^v0", "temp[3]"]


def test_mbs_symbol_names_address_inputs(cli, tmp_path):
    words, _ = lima.assemble("stop, load.u 0, mov.v0 $0 ^uniform")
    data = mbs_file(words)
    program = lima.decode(data)
    inputs = parse_inputs({"uniforms": {"u_color": [0.25, 0.5, 0.75, 1.0]}}, symbol_table(program.chunks))
    m = Machine(program, inputs)
    m.run()
    assert m.result().color == (0.25, 0.5, 0.75, 1.0)
    with pytest.raises(InputError, match="this file's uniforms: u_color"):
        parse_inputs({"uniforms": {"u_tint": [1]}}, symbol_table(program.chunks))
    (tmp_path / "s.mbs").write_bytes(data)
    (tmp_path / "in.json").write_text(json.dumps({"uniforms": {"u_color": [1, 0, 0.5, 1]}}))
    code, out, err = cli("lima", "run", str(tmp_path / "s.mbs"), "--inputs", str(tmp_path / "in.json"), "--json")
    assert code == 0, err
    assert json.loads(out)["color"] == [1.0, 0.0, 0.5, 1.0]


def test_the_bundled_example_runs_with_its_named_inputs(cli, tmp_path):
    from spvinspect.lima.emulator import run_grid
    from spvinspect.lima.emulator.example import INPUTS, example_mbs

    data = example_mbs()
    program = lima.decode(data)
    assert program.diagnostics == ()
    inputs = parse_inputs(INPUTS, symbol_table(program.chunks))
    grid = run_grid(program, inputs, (64, 64))
    assert grid.discarded[0, 0] and grid.discarded[63, 63] and not grid.discarded[32, 32]
    # centre: v_uv = 32.5/64, texel (2, 2) of the checker (0.2, 0.45, 0.9) times the tint
    # (1, 0.9, 0.8), darkened by 1 - 2 * 2 * (0.5/64)^2
    assert list(grid.colors[32, 32]) == pytest.approx([0.2, 0.405, 0.72, 1.0], rel=2e-3)
    (tmp_path / "example.mbs").write_bytes(data)
    (tmp_path / "in.json").write_text(json.dumps(INPUTS))
    code, out, err = cli(
        "lima", "run", str(tmp_path / "example.mbs"), "--inputs", str(tmp_path / "in.json"),
        "--fragment", "32,32", "--grid", "64,64", "--json",
    )
    assert code == 0, err
    assert json.loads(out)["color"] == [float(c) for c in grid.colors[32, 32]]
