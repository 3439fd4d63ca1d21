"""A region's editor numbers its lines as the module's whole text does (spirv-dis's text:
header comments, a line per instruction, more for line breaks inside strings), and the
line:col of a diagnostic there is that text's too."""

from __future__ import annotations

from edit_pilot import opened_from, settled
from oracle import run_tool

from spvinspect.editing import region_assembler


async def test_a_regions_lines_are_numbered_as_the_whole_text(monkeypatch, tmp_path, corpus):
    # Two functions, and a source text (an OpSource string of many lines) before them.
    source = corpus / "asm" / "shaders_asm_frag_line-directive.line.asm.frag"
    module = tmp_path / "module.spv"
    assembled = run_tool("spirv-as", "--target-env", "spv1.6", "-o", str(module), str(source))
    assert assembled.returncode == 0, assembled.stderr
    dis = run_tool("spirv-dis", str(module)).stdout.decode().rstrip("\n").split("\n")
    monkeypatch.setattr(region_assembler, "REGION_FROM_BYTES", 0)
    app = opened_from(module, module.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        later = screen.document.module.functions()[1]
        chosen = later.first + 3
        screen.select(screen.document.select_word(screen.document.module.offset(chosen)))
        await pilot.press("e")
        await settled(pilot)
        session, editor = screen.editing.edit_session, screen.editing.editor
        assert session.partial and session.assembler.region == (later.first, later.end)
        row = editor.cursor_location[0]
        top = next(k for k in range(len(dis)) if dis[k : k + len(session.lines)] == session.lines)
        assert top > later.first + 5  # the source text's lines count
        number = top + row + 1  # the cursor's line in spirv-dis's text, from 1
        assert dis[number - 1] == session.lines[row]
        gutter = editor.render_line(row - editor.scroll_offset.y).text
        assert gutter.split()[0] == str(number), gutter
        # A bad token there: its diagnostic names the whole text's line.
        editor.move_cursor((row, len(session.lines[row])))
        await pilot.press("space", "x")
        await settled(pilot)
        assert not session.assembles
        assert str(editor.border_subtitle).startswith(f"{number}:"), editor.border_subtitle
        listed = screen.query_one("#edit-messages")
        assert str(listed.get_option_at_index(0).prompt).startswith(f"{number}:")
        await pilot.press("ctrl+s")
        await pilot.pause()
        told = [str(n.message) for n in app._notifications]
        assert any(f"does not assemble: {number}:" in text for text in told), told
