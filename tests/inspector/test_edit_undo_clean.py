"""Undoing every edit back to the text as opened (or as last saved) counts as unchanged:
no ● in the editor's title, no question when quitting, and ctrl+s writes nothing (no
`.bak`) — in SPIR-V and in Lima mode."""

from __future__ import annotations

from spvinspect.editing.lima_assembler import open_lima_session
from spvinspect.screens.edit_dialogs import Question
from edit_pilot import open_editor, opened_from, raw_stream, settled


async def test_undo_back_to_the_opened_text_is_unchanged_and_saves_nothing(tmp_path, example_bytes):
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await open_editor(pilot, r"= OpConstant %float \d")
        screen = app.screen
        opened = screen.editing.edit_session.text
        await pilot.press("5", "6")
        await settled(pilot)
        assert screen.editing.unsaved and "●" in editor.border_title
        while editor.history.undo_stack:
            await pilot.press("ctrl+z")
        await settled(pilot)
        assert screen.editing.edit_session.text == opened
        assert not screen.editing.unsaved and "●" not in editor.border_title
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not (tmp_path / "module.spv.bak").exists() and path.read_bytes() == example_bytes
        assert any("Nothing to save" in n.message for n in app._notifications)
        # Saved once, then edited and undone back to the saved text: unchanged again.
        await pilot.press("7")
        await settled(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        saved = path.read_bytes()
        assert saved != example_bytes and not screen.editing.unsaved
        await pilot.press("8")
        await settled(pilot)
        assert screen.editing.unsaved
        await pilot.press("ctrl+z")
        await settled(pilot)
        assert not screen.editing.unsaved
        await pilot.press("ctrl+z")  # past the save: differs from the file again
        await settled(pilot)
        assert screen.editing.unsaved
        await pilot.press("ctrl+y")
        await settled(pilot)
        await pilot.press("escape", "q")
        await pilot.pause()
        assert not isinstance(app.screen, Question) and app.return_code == 0


def test_a_lima_session_undone_to_its_text_is_unchanged():
    session = open_lima_session(raw_stream("mov.v0 $0 $1\nstop, mov.v0 $1 $0"))
    opened = list(session.lines)
    session.edit((0, 0), (0, 0), "# a note\n")
    assert session.modified
    session.replace_lines(0, 2, opened[:1])
    assert session.lines == opened and not session.modified
