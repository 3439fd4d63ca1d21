"""Running a Lima PP program in the app, as a user does: `spvinspect --lima-example`, step
forward and back, a breakpoint, run to the cursor, edit an input, choose the stepped
fragment in the image; the list, gutter and registers pane follow."""

from __future__ import annotations

import json

from launched_app import launched_app

from spvinspect.app import InspectorApp
from spvinspect.screens.edit_dialogs import Question
from spvinspect.widgets.lima_list import LimaInstructionList
from waiting import until as wait_until


def example_app(monkeypatch, tmp_path) -> InspectorApp:
    """The app `spvinspect --lima-example` opens on a terminal, before it runs."""
    return launched_app(monkeypatch, tmp_path, ["--lima-example", "--theme", "spvinspect-dark"])


async def until(pilot, condition, what: str) -> None:
    await wait_until(pilot, condition, what)


def registers(app) -> str:
    return app.screen.pane("registers").render_text().plain  # built hidden if not shown yet


def gutter(app, index: int) -> str:
    listing = app.screen.query_one(LimaInstructionList)
    row = listing.document.instruction_row(index)
    return listing._gutter(listing.document.rows[row]).text


async def test_step_back_breakpoint_and_run_to_cursor(monkeypatch, tmp_path) -> None:
    app = example_app(monkeypatch, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        # A step starts the run and shows the registers pane; the list keeps the focus.
        await pilot.press("full_stop")
        await until(pilot, lambda: "step 1 · next 1" in registers(app), "the first step's registers")
        assert screen.pane_layout.shown("registers") and isinstance(screen.focused, LimaInstructionList)
        await pilot.press("full_stop")
        await until(pilot, lambda: screen.selection.instruction == 2, "the list follows the current instruction")
        shown = registers(app)
        assert "fragment 0,0 of 32×32 · step 2 · next 2" in shown
        assert "$3      0.2   0.405  0.7197     1.0" in shown  # the texel times u_tint
        assert "^texture     0.2    0.45     0.9     1.0" in shown
        assert gutter(app, 2) == "    2▶w13    "
        await pilot.press("comma")
        await until(pilot, lambda: screen.selection.instruction == 1, "back selects the instruction undone")
        assert "step 1 · next 1" in registers(app) and "$3      0.0     0.0     0.0     0.0" in registers(app)
        # A breakpoint on instruction 4 (chosen in the list), then run: it stops there.
        await pilot.press("2", "j", "j", "j", "f9")
        await until(pilot, lambda: gutter(app, 4) == "    4●w21    ", "the breakpoint shows in the gutter")
        await pilot.press("f5")
        await until(pilot, lambda: "breakpoint at instruction 4" in registers(app), "the run stops at the breakpoint")
        assert screen.selection.instruction == 4 and gutter(app, 4) == "    4▶w21    "
        # Run to the cursor: instruction 5, the branch; then on to the taken branch.
        await pilot.press("j", "f4")
        await until(pilot, lambda: "reached instruction 5" in registers(app), "run to the cursor")
        await pilot.press("f6")
        await until(pilot, lambda: "branch taken at instruction 5" in registers(app), "run to the taken branch")
        assert "branch: $4.x = 0.469238 > ^const0.x = 0.25 is true: taken to word 40 — taken" in registers(app)
        await pilot.press("f5")
        await until(pilot, lambda: "output: discarded" in registers(app), "the fragment is discarded")
        assert screen.selection.instruction == 8  # where the run ended: the discard
        await pilot.press("6", "b")  # the registers pane's bits
        await until(pilot, lambda: "$3   0x3266  0x367b  0x39c2  0x3c00" in registers(app), "fp16 bits one key away")


async def test_edit_an_input_and_choose_a_fragment_in_the_image(monkeypatch, tmp_path) -> None:
    app = example_app(monkeypatch, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("8")
        image = screen.query_one("#image")
        await until(pilot, lambda: image.pixels is not None, "the grid is drawn")
        assert image.info_text() == "x 0 y 0 (stepped): discarded"
        # The centre of the disc: v_uv 0.52 is the checker's blue texel (0.2 0.45 0.9)
        # times u_tint (1 0.9 0.8), darkened by 1 - 2r, r = 0.0156² * 2.
        for key in ["right"] * 16 + ["up"] * 16:
            await pilot.press(key)
        assert image.info_text() == "x 16 y 16: 0.1997 0.4045 0.7192 1"
        await pilot.press("enter")
        await until(pilot, lambda: "fragment 16,16 of 32×32 · step 0" in registers(app), "the chosen fragment is stepped")
        await pilot.press("f5")
        await until(pilot, lambda: "output ($0):  0.1997  0.4045   0.719     1.0" in registers(app), "its colour")
        ended = screen.execution.run.last.instruction
        assert ended > 0 and screen.selection.instruction == ended  # where the run ended
        await pilot.press("6")
        await pilot.pause()
        # On screen, its swatch beside the numbers (it wrapped out of the pane's view).
        row = next(strip for strip in screen._compositor.render_strips() if "output ($0)" in strip.text)
        colours = {(style.color, style.bgcolor) for _, style, _ in row if style is not None}
        assert any(c is not None and c.triplet == (51, 103, 183) for pair in colours for c in pair)
        # u_tint's blue to 0: the run starts again and the image is drawn again.
        await pilot.press("7")
        tint = next(row for row in screen.query(".input-row") if str(row.children[0].render()) == "u_tint")
        field = tint.children[1]
        field.focus()
        field.value = ""
        before = registers(app)
        # Typed: the stepping keys (`.` among them) act before the focused pane, but a
        # text field still types them.
        await pilot.press("1", "space", "0", "full_stop", "9", "space", "0", "space", "1")
        assert field.value == "1 0.9 0 1" and registers(app) == before
        await pilot.press("enter")
        await until(pilot, lambda: "step 0 · next 0" in registers(app), "an edited input restarts the run")
        await pilot.press("f5")
        await until(pilot, lambda: "output ($0):  0.1997  0.4045     0.0     1.0" in registers(app), "the new colour")
        await until(pilot, lambda: not image.progress and image.info_text() == "x 16 y 16 (stepped): 0.1997 0.4045 0 1", "the image again")
        message = screen.query_one("#inputs-message")
        field.value = "1 lots 0 1"
        await pilot.press("enter")
        await until(pilot, lambda: "u_tint: 'lots' is not a number" in str(message.render()), "a bad value is a message")
        # Save, then save again: the existing file is replaced only after asking (no: kept).
        pane = screen.query_one("#inputs")
        saved = tmp_path / "in.json"
        pane.save(saved)
        assert json.loads(saved.read_text())["uniforms"]["u_tint"] == [1, 0.9, 0, 1]
        saved.write_text("{}")
        pane.save(saved)
        await until(pilot, lambda: isinstance(app.screen, Question), "asked before replacing")
        await pilot.press("n")
        await until(pilot, lambda: f"{saved} left as it was" in str(message.render()), "the file kept")
        assert saved.read_text() == "{}"
        # Loading: a file the inputs cannot use is a message; a good one rebuilds the rows.
        saved.write_text('{"uniforms": {"u_nothing": [1]}}')
        assert not await pane.load(saved)
        assert "'u_nothing' is neither a slot number nor a uniform name" in str(message.render())
        saved.write_text('{"uniforms": {"u_tint": [0.5, 0.5, 0.5, 1]}}')
        assert await pane.load(saved)
        await until(pilot, lambda: len(screen.query(".input-row")) == 1, "the rows of the loaded inputs")
