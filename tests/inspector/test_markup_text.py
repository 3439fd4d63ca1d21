"""Text that comes from the user's files (a file name, a source file's name, a search) shows as
written: square brackets in it are not markup, and never end the app."""

from __future__ import annotations

from spvinspect.codec.asm import assemble
from inspector_apps import make_app
from test_narrow_screen import screen_lines

NAMED = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%file = OpString "shaders/[/x]/[b]main.frag"
OpSource GLSL 450 %file "void main() {}"
OpName %main "sh[/i]ne [b]"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
%entry = OpLabel
OpReturn
OpFunctionEnd
"""


async def test_square_brackets_in_names_and_searches_show_as_written():
    result = assemble(NAMED)
    assert result.ok, result.diagnostics
    app = make_app(result.binary, name="we[i]rd [b].spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert "Instructions · we[i]rd [b].spv" in "\n".join(screen_lines(app))
        await pilot.press("7")  # the source pane, titled with OpSource's file name
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "shaders/[/x]/[b]main.frag" in "\n".join(screen_lines(app))
        app.screen.view.navigation.search("[/x] nothing")
        await pilot.pause()
        shown = [str(notice.message) for notice in app._notifications]
        assert any("[/x] nothing" in message for message in shown), shown
        assert app.return_code is None
