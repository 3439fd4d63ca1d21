"""What the app's long random-key run (benchmarks/fuzz_app.py) found, each kept as a test."""

from __future__ import annotations

from spvinspect.widgets.asm_editor import AsmEditor
from test_edit_editor import EditorHost, example_session
from waiting import until


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
        await until(pilot, lambda: "found '}N[/4" in str(editor.border_subtitle),
                    "the cursor line's message on the editor's border")
        assert "found '}N[/4" in str(editor.border_subtitle)
        assert pilot.app.return_code is None


async def test_the_image_pane_of_a_module_that_cannot_run_says_why_without_a_worker_failure():
    """Found by seed 1126, input 26: the image pane's grid worker raised ShaderError on a
    14-byte module (no header), which the app counted as a worker's failure (a bug) and
    told twice, once in a notice and once in the pane."""
    from inspector_apps import image_done, make_app
    from spvinspect.widgets.spirv_image import SpirvImage

    data = bytes.fromhex("03022307000501000b0008001500")
    app = make_app(data, "input.spv")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("9")
        pane = app.screen.query_one(SpirvImage)
        await image_done(pilot, pane)
        assert pane.progress == "could not run the grid: not a SPIR-V module (no header)"
        assert app.worker_failures == []
        assert not [n for n in app._notifications if n.severity == "error"]


async def test_a_problem_whose_message_holds_square_brackets_is_listed_as_written():
    """Found by seed 1126, input 109 (an MBS file, typing in its editor): the editor's
    problem list read each message as markup, and an assembler message quoting the typed
    `[/ne{Nlfn` ended the app (MarkupError)."""
    from textual.app import App

    from spvinspect.codec.diagnostics import Diagnostic
    from spvinspect.editing.session import LineMessage
    from spvinspect.widgets.asm_editor import EditorMessages

    message = "unknown instruction: found '[/ne{Nlfn' [b]"

    class Host(App):
        def compose(self):
            yield EditorMessages(id="problems")

    app = Host()
    async with app.run_test() as pilot:
        problems = app.query_one(EditorMessages)
        problems.show_messages([LineMessage(2, 4, Diagnostic(message))])
        await pilot.pause()
        assert problems.get_option_at_index(0).prompt == f"3:5 error: {message}"
        shown = [strip.text for strip in problems.render_lines(problems.region.reset_offset)]
        assert any(f"3:5 error: {message}" in line for line in shown)
        assert app.return_code is None


async def test_the_go_to_dialog_quotes_a_bad_entry_with_square_brackets_as_written():
    """Found by seed 1126, input 153 (a Lima stream): a go-to entry holding `[/tmp/x']`
    was quoted in the dialog's error as markup, which ended the app (MarkupError)."""
    from textual.widgets import Input, Label

    from spvinspect.app import InspectorApp
    from spvinspect.lima.emulator.example import example_mbs
    from spvinspect.lima_document import LimaDocument
    from spvinspect.screens.go_to import GoToDialog

    app = InspectorApp(LimaDocument(example_mbs(), "x.mbs"))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("colon")
        await pilot.pause()
        assert isinstance(app.screen, GoToDialog)
        app.screen.query_one(Input).value = "[/tmp/x']"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, GoToDialog) and app.return_code is None
        assert "[/tmp/x']" in str(app.screen.query_one("#goto-error", Label).render())
