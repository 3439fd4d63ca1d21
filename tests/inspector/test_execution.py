"""The shared stepped run (`spvinspect.execution`) over the Lima emulator, without the app:
step, back, run to the end, to an instruction, to the next taken branch, breakpoints,
what a step changed, and an engine failure as a message."""

from __future__ import annotations

from spvinspect import lima
from spvinspect.execution import StepChange
from spvinspect.execution.lima import lima_execution
from spvinspect.lima.emulator.example import example_mbs

from lima_apps import program_words, to_bytes


def example():
    return lima_execution(lima.decode(example_mbs()))


def test_step_back_and_what_a_step_changed() -> None:
    execution = example()
    run = execution.open()
    assert (run.current_instruction, run.steps, run.stop_reason) == (0, 0, "ready")
    change = run.step()
    assert isinstance(change, StepChange) and change.instruction == 0
    assert change.changed("^const0").new == (4.0, 0.0, 0.0, 0.0)
    # Fragment 0,0 of 32x32: v_uv at its centre is 0.5/32 = 0.015625, times 4.
    assert change.changed("$2.xy").new[:2] == (0.0625, 0.0625)
    assert run.current_instruction == 1 and run.stop_reason == "stepped instruction 0"
    run.step()
    assert run.back() and run.steps == 1 and run.last.instruction == 0
    assert run.machine.registers()[3].tolist() == [0, 0, 0, 0]  # instruction 1's texture write undone
    assert run.back() and run.last is None and not run.back()
    assert run.stop_reason == "at the start: nothing to undo"


def test_runs_stop_at_breakpoints_the_cursor_a_taken_branch_and_the_end() -> None:
    execution = example()
    execution.toggle_breakpoint(3)
    run = execution.open()
    run.run_to_end()
    assert (run.current_instruction, run.stop_reason) == (3, "breakpoint at instruction 3")
    assert execution.marks() == {3: "▶"}
    run.run_to(4)
    assert (run.current_instruction, run.stop_reason) == (4, "reached instruction 4")
    assert execution.marks() == {3: "●", 4: "▶"}
    # Fragment 0,0 lies outside the disc: instruction 5's branch to the discard is taken.
    run.run_to_taken_branch()
    assert run.stop_reason == "branch taken at instruction 5" and run.last.taken
    assert run.last.branch == "$4.x = 0.469238 > ^const0.x = 0.25 is true: taken to word 40"
    run.run_to_end()
    assert run.finished and run.stop_reason == "discarded after 7 steps"
    assert run.step() is None and run.stop_reason == "discarded after 7 steps"
    # The centre pixel draws: a restart keeps the breakpoints.
    execution.settings.fragment = (16, 16)
    run = execution.restart()
    assert run.breakpoints == {3}
    run.toggle_breakpoint(3)
    run.run_to_end()
    assert run.stop_reason.startswith("stopped after 8 steps: colour ")
    assert run.machine.result().color[3] == 1.0


def test_an_op_the_engine_cannot_run_is_a_message_and_bad_inputs_cannot_start() -> None:
    # The texld of instruction 3 has no varying fetch in its instruction: no coordinates.
    execution = lima_execution(lima.decode(to_bytes(program_words())))
    assert set(execution.settings.data["uniforms"]) == {"0", "1"}  # defaults from the loads
    run = execution.open()
    run.run_to_end()
    assert run.error is not None and run.over
    assert run.stop_reason.startswith("cannot go on: instruction 3 (word 12), unit sampler")
    assert run.back() and run.error is None
    execution.settings.data = {"uniforms": {"u_nothing": [1]}}
    assert execution.restart() is None
    assert "'u_nothing' is neither a slot number nor a uniform name" in execution.error


def test_spirv_back_gives_back_the_blocks_the_undone_steps_entered() -> None:
    """The CFG's blocks taken after going back are those of stepping afresh to the same
    step (a loop enters its blocks again and again)."""
    from spvinspect.commands.open import EXAMPLE_MODULE
    from spvinspect.document import Document

    def opened():
        document = Document(EXAMPLE_MODULE.read_bytes(), "example.spv")
        document.run_inputs = {"buffers": {"0.1": {"tint": [1, 1, 1, 1], "mode": 1, "steps": 2, "threshold": 0.0}},
                               "inputs": {"uv": [0.25, 0.5]}}
        return document.open_execution().open()

    run, afresh = opened(), opened()
    visited_after = []
    for _ in range(90):
        afresh.step()
        visited_after.append(list(afresh.visited))
    for _ in range(90):
        run.step()
    assert len(set(run.visited)) > 3 and len(run.visited) > len(set(run.visited))  # a loop went round
    for steps in range(89, 29, -1):
        assert run.back()
        assert run.steps == steps and run.visited == visited_after[steps - 1], steps
        assert set(run.taken_blocks) == set(run.visited), steps
