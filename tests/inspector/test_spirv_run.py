"""Stepping the bundled example in the app: step, back, a breakpoint, run to the cursor,
run to the end; the list's selection, the values pane and the CFG's blocks taken follow."""

from __future__ import annotations

from spvinspect.codec.binary.decoder import decode
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.messages import SelectInstruction
from spvinspect.widgets.cfg_view import CfgView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.status_line import StatusLine
from spvinspect.widgets.values_pane import ValuesPane

from inspector_apps import make_app
from waiting import until


def _index(opname: str, nth: int = 0) -> int:
    module = decode(EXAMPLE_MODULE.read_bytes())
    return [i for i, inst in enumerate(module.instructions) if inst.opname == opname][nth]


async def test_stepping_back_a_breakpoint_and_running_to_the_cursor() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("8")
        values = screen.query_one(ValuesPane)
        await pilot.pause()
        assert values.row_text(0).startswith("No run yet")
        # Hidden by the user (x), the pane stays hidden when a step starts the run: its key is named.
        await pilot.press("x", "full_stop")
        await pilot.pause()
        assert not screen.pane_layout.shown("values")
        assert "Run started: 8 the values" in [str(n.message) for n in app._notifications]
        await pilot.press("comma", "8")
        # Four steps: OpLabel, two OpVariables, OpLine; the selection follows the next one.
        # Instructions are numbered from 1 everywhere, as the status line counts them.
        await pilot.press("full_stop")
        await pilot.pause()
        assert values.border_subtitle == f"1 step · stepped instruction {_index('OpLabel') + 1}"
        await pilot.press(*["full_stop"] * 3)
        await pilot.pause()
        run = screen.execution.run
        assert run.steps == 4 and screen.selection.instruction == run.current_instruction == _index("OpLoad", 0)
        assert values.row_text(0) == f"Next: OpLoad (word {screen.document.module.offset(_index('OpLoad', 0))})"
        await pilot.press("full_stop", "full_stop", "full_stop")  # the two loads and the sample
        await pilot.pause()
        texts = [values.row_text(row) for row in range(len(values.rows))]
        sample = next(t for t in texts if t.startswith("%73"))
        assert sample.split()[-4:] == ["(0.125,", "0.125,", "0.5,", "1.0)"]  # the default texture's mean
        assert "id:73" in {key.split("/")[0] for key in values.changed}
        await pilot.press("b")
        await pilot.pause()
        assert "0x3e000000 0x3e000000 0x3f000000 0x3f800000" in values.row_text(texts.index(sample))
        # Back: the sample is undone.
        await pilot.press("comma")
        await pilot.pause()
        assert run.steps == 6 and screen.selection.instruction == _index("OpImageSampleImplicitLod")
        # The saved state the next back restores was copied once this back was on screen:
        # that back copies nothing on its key, and steps on as before.
        debugger, inside, copies = run.debugger, [False], []
        back, copy = debugger.back, debugger._copy
        debugger.back = lambda: (inside.__setitem__(0, True), back(), inside.__setitem__(0, False))[1]
        debugger._copy = lambda group: (copies.append(inside[0]), copy(group))[1]
        await until(pilot, lambda: debugger._spare is not None, "the saved state copied ahead of the next back")
        await pilot.press("comma")
        await pilot.pause()
        assert run.steps == 5 and True not in copies
        await pilot.press("full_stop")
        await pilot.pause()
        assert run.steps == 6 and screen.selection.instruction == _index("OpImageSampleImplicitLod")
        # A breakpoint on the switch; F5 stops there.
        switch = _index("OpSwitch")
        screen.post_message(SelectInstruction(switch))
        await pilot.pause()
        await pilot.press("asterisk", "f5")
        await pilot.pause()
        assert run.current_instruction == switch and screen.selection.instruction == switch
        assert run.stop_reason == f"breakpoint at instruction {switch + 1}"
        assert f"instruction {switch + 1}/" in str(screen.query_one(StatusLine).place)
        assert f"Breakpoint set on instruction {switch + 1}" in [str(n.message) for n in app._notifications]
        cfg = screen.query_one(CfgView)
        entry_block, merge_block = run.visited
        assert cfg.visited == {entry_block, merge_block}
        # Run to the cursor: the store of `color = base * tint` (case 0).
        store = _index("OpStore", 2)
        screen.post_message(SelectInstruction(store))
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause()
        assert run.current_instruction == store and screen.selection.instruction == store
        assert run.stop_reason == f"reached instruction {store + 1}"
        assert screen.query_one(InstructionList)._run_marks == {switch: "●", store: "▶"}
        await pilot.press("f5")
        await pilot.pause()
        assert run.finished and values.border_subtitle.endswith(f"returned after {run.steps} steps")
        assert values.row_text(0) == "Ended: done"
        assert screen.selection.instruction == run.last.instruction  # where the run ended


async def test_a_step_at_80x24_with_the_values_pane_on_screen_names_no_key() -> None:
    """Narrow, `8` zooms the values pane to the screen: the step that starts the run shows
    it there, with no notice naming its key."""
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(80, 24)) as pilot:
        screen = app.screen
        await pilot.press("8")
        await pilot.pause()
        await pilot.press("full_stop")
        await pilot.pause()
        assert screen.maximized is screen.query_one(ValuesPane) and screen.pane_layout.shown("values")
        assert not [n for n in app._notifications if "Run started" in str(n.message)]
