"""The header pane follows the edits: repainted when what it shows changes (a new id
past the bound), left as drawn when nothing it shows
changed (a constant's digit: a repaint a key the user pays for on a large module)."""

from __future__ import annotations

from spvinspect.widgets.header_pane import HeaderPane
from edit_pilot import open_editor, opened_from, settled


async def test_the_header_pane_repaints_only_when_an_edit_changes_what_it_shows(tmp_path, example_bytes):
    app = opened_from(tmp_path / "module.spv", example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        header = app.screen.query_one(HeaderPane)
        crop = header.region.reset_offset
        bound = app.screen.document.module.header.bound
        await open_editor(pilot, r"= OpConstant %float 512$")
        await pilot.press("5")  # the counts of an edit's module: "so far" until the editor closes
        await settled(pilot)
        drawn = header.render_lines(crop)
        edited = app.screen.document
        await pilot.press("6")
        await settled(pilot)
        assert app.screen.document is not edited
        assert header.render_lines(crop) is drawn, "the same header and counts: nothing repainted"
        editor = app.screen.editing.editor
        lines = app.screen.editing.edit_session.lines
        row = next(k for k, line in enumerate(lines) if "%78 = OpLoad " in line)
        editor.move_cursor((row - editor.first_line, len(lines[row])))
        editor.insert(f"\n%{bound + 10} = OpUndef %float")  # a new numeric id past the bound
        await settled(pilot)
        session = app.screen.editing.edit_session
        assert session.assembles, session.diagnostics
        assert app.screen.document.module.header.bound == bound + 11
        shown = "\n".join(strip.text for strip in header.render_lines(crop))
        assert f"/{bound + 11:,} ids" in shown and f"{bound + 11:08x}" in shown
