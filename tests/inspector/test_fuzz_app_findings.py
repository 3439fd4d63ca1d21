"""What the app's long random-key run (benchmarks/fuzz_app.py) found, each kept as a test."""

from __future__ import annotations

from spvinspect.widgets.asm_editor import AsmEditor
from test_edit_editor import EditorHost, example_session


async def test_a_message_with_square_brackets_shows_as_written_on_the_editor_border():
    """Found by seed 27, input 20: the editor's border showed the cursor line's message as
    markup, and a typed `}N[/4` in it ended the app (MarkupError)."""
    session = example_session()
    row = next(i for i, line in enumerate(session.lines) if "OpConstant %float " in line)
    async with EditorHost(session).run_test() as pilot:
        editor = pilot.app.query_one(AsmEditor)
        editor.move_cursor((row, 0))
        editor.insert("}N[/4 [b]\n")
        editor.move_cursor((row, 0))
        await pilot.pause()
        await pilot.pause()
        assert "found '}N[/4" in str(editor.border_subtitle)
        assert pilot.app.return_code is None
