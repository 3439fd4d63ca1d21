"""What a keystroke repaints: the editor's edited row (its other rows are drawn from the
same text as before), and the header pane only when what it shows changes (a new id past
the bound), not on a constant's digit. Each repaint of a whole pane is a cost the user pays
on every key of a large module."""

from __future__ import annotations

from spvinspect.widgets.header_pane import HeaderPane
from edit_pilot import open_editor, opened_from, settled


async def test_a_keystroke_repaints_the_edited_row_and_the_header_only_when_it_changes(tmp_path, example_bytes):
    app = opened_from(tmp_path / "module.spv", example_bytes)
    async with app.run_test(size=(120, 40)) as pilot:
        header = app.screen.query_one(HeaderPane)
        crop = header.region.reset_offset
        bound = app.screen.document.module.header.bound
        editor = await open_editor(pilot, r"= OpConstant %float 512$")
        editor.cursor_blink = False
        await pilot.press("5")  # the counts of an edit's module: "so far" until the editor closes
        await settled(pilot)
        drawn = header.render_lines(crop)
        edited = app.screen.document
        rows = []
        draw_row = editor._render_line
        editor._render_line = lambda y: rows.append(y + editor.scroll_offset.y) or draw_row(y)
        await pilot.press("6")
        await settled(pilot)
        editor._render_line = draw_row
        row = editor.cursor_location[0]
        assert editor.document.get_line(row).endswith("= OpConstant %float 51256")
        assert set(rows) == {row}, "the edited row drawn again, no other"
        shown = [strip.text for strip in editor.render_lines(editor.region.reset_offset)]
        assert any("= OpConstant %float 51256 " in text for text in shown)
        assert app.screen.document is not edited
        assert header.render_lines(crop) is drawn, "the same header and counts: nothing repainted"
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
