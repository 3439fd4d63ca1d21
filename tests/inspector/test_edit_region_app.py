"""Region editing in the app (the bundled example edited as a big module would be: a region
at a time): `e` shows the function around the selection; edits spliced into the module
give the bytes the same edits in the whole text give, new names included (an import's too); an
edit that needs the whole text is assembled whole, and the user is told; undoing every edit is clean; `e` elsewhere
moves the region, keeping what was edited."""

from __future__ import annotations

import re
import threading

from edit_pilot import TIMEOUT, opened_from, settled
from waiting import until

from spvinspect.editing import region_assembler
from spvinspect.editing.session import EditSession
from spvinspect.editing.assembly_state import assemble_full
from spvinspect.editing.spirv_assembler import open_spirv_session


def whole_text_edit(data: bytes, old: list[str], new: list[str]) -> bytes:
    """The binary of the whole text (as the editor opens a small module) with the run of
    lines `old` replaced by `new`."""
    session = open_spirv_session(data)
    lines = session.lines
    at = next(k for k in range(len(lines)) if lines[k : k + len(old)] == old)
    state = assemble_full(lines[:at] + new + lines[at + len(old) :], session.assembler.hints).state
    assert state is not None
    return state.binary


def _no_repr(session: EditSession) -> str:
    raise AssertionError("a session was described by its repr (its whole text and words: seconds on a big module)")


async def test_region_edits_splice_as_whole_text_edits(monkeypatch, tmp_path, example_bytes):
    monkeypatch.setattr(region_assembler, "REGION_FROM_BYTES", 0)
    monkeypatch.setattr(EditSession, "__repr__", _no_repr)
    path = tmp_path / "module.spv"
    app = opened_from(path, example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("]", "]", "j", "j", "e")
        await settled(pilot)
        session, editor = screen.editing.edit_session, screen.editing.editor
        module = screen.document.module
        blur = module.functions()[1]
        assert session.partial and session.assembler.region == (blur.first, blur.end)
        assert editor.text.split("\n") == session.lines and session.lines[0].endswith("= OpFunction %v4float None %11")
        # A new load defines a new name; a numbered result's use takes it instead.
        row = next(k for k, line in enumerate(session.lines) if "= OpLoad %int %27" in line)
        old = session.lines[row : row + 2]
        new = ["    %loaded = OpLoad %int %27", old[1].replace(old[0].split()[0], "%loaded")]
        editor.move_cursor((row + 1, 0))
        editor.insert(new[0] + "\n")
        editor.replace(new[1], (row + 2, 0), (row + 2, len(old[1])))
        await settled(pilot)
        expected = whole_text_edit(example_bytes, old, [old[0], *new])
        assert session.state is not None and not session.state.full
        assert session.binary == expected and screen.document.data == expected
        assert screen.document.module.instruction_count == module.instruction_count + 1
        assert screen.editing.unsaved and "●" in editor.border_title
        # Undo every edit: the original bytes, and nothing unsaved.
        while editor.history.undo_stack:
            await pilot.press("ctrl+z")
        await settled(pilot)
        assert session.lines == screen.editing.edit_session.lines and session.binary == example_bytes
        assert not screen.editing.unsaved and "●" not in editor.border_title
        # An edit of the import splices (what reads the import is re-encoded): the same bytes.
        await pilot.press("escape", "g", "g", "e")
        await settled(pilot)
        session, editor = screen.editing.edit_session, screen.editing.editor
        assert session.assembler.region.first == 0 and session.lines[0].strip() == "OpCapability Shader"
        row = next(k for k, line in enumerate(session.lines) if "OpExtInstImport" in line)
        imported = session.lines[row]
        editor.move_cursor((row, len(imported)))
        await pilot.press("space")
        await settled(pilot)
        assert not session.state.full and session.binary == example_bytes and session.assembles
        # A new import splices too (an OpExtInst naming it would be re-encoded), then undone.
        added = '         %900 = OpExtInstImport "GLSL.std.450"'
        expected = whole_text_edit(example_bytes, [imported], [imported, added])
        editor.move_cursor((row + 1, 0))
        editor.insert(added + "\n")
        await settled(pilot)
        assert not session.state.full and session.binary == expected
        await pilot.press("ctrl+z")
        await settled(pilot)
        assert session.binary == example_bytes
        # An edit neither the splice nor the region's re-assembly over the module's tables
        # is sure of (forced here: the same import) takes the whole text: assembled on the
        # job thread (the user is told, the editor's title says so, keys are answered
        # meanwhile), then undone.
        release = threading.Event()
        whole = region_assembler.RegionSource.text_assembly
        with monkeypatch.context() as unsure:
            unsure.setattr(region_assembler.RegionSource, "text_assembly",
                           lambda source, lines, *stale: release.wait(TIMEOUT) and whole(source, lines, *stale))
            unsure.setattr(region_assembler, "splice", lambda *args: None)
            unsure.setattr(region_assembler, "region_reassembled", lambda source, lines: None)
            editor.move_cursor((row + 1, 0))
            editor.insert(added + "\n")
            await until(pilot, lambda: "assembling the whole module" in str(editor.border_title),
                        "the editor saying it assembles the whole module", TIMEOUT)
            assert "assembling the whole module" in str(editor.border_title) and session.busy
            # The messages shown again meanwhile (as spirv-val's verdict on the binary shown,
            # landing now, shows them): the title still says what is going on.
            screen.editing._show_messages()
            assert "assembling the whole module" in str(editor.border_title)
            at = editor.cursor_location
            await pilot.press("down")
            assert editor.cursor_location == (at[0] + 1, 0) and session.busy
            release.set()
            await settled(pilot)
            assert "assembling" not in str(editor.border_title)
            assert session.state.full and session.binary == expected
            assert any("assembling the whole module's text" in str(n.message) for n in app._notifications)
            await pilot.press("ctrl+z")
            await settled(pilot)
        assert session.binary == example_bytes
        # A constant edited in the global section: the whole text's bytes, then the region
        # moves to a function and the edit stays (unsaved), as the panes show.
        row = next(k for k, line in enumerate(session.lines) if re.search(r"= OpConstant %int \d+$", line))
        old = session.lines[row]
        editor.move_cursor((row, len(old)))
        await pilot.press("5")
        await settled(pilot)
        expected = whole_text_edit(example_bytes, [old], [old + "5"])
        assert session.binary == expected != example_bytes and screen.editing.unsaved
        await pilot.press("escape", "G", "e")
        await settled(pilot)
        moved = screen.editing.edit_session
        assert moved is not session and moved.partial and moved.assembler.region.end == module.instruction_count
        assert moved.binary == expected and screen.editing.unsaved
        assert screen.editing.editor.text.split("\n") == moved.lines
