"""The source pane: the example's GLSL, the selected instruction's line highlighted, and
choosing a line selects its instructions."""

from __future__ import annotations

from spvinspect.codec.binary.decoder import decode
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.messages import SelectInstruction
from spvinspect.widgets.source_pane import SourcePane

from inspector_apps import make_app


def _opnames(indexes: list[int]) -> list[str]:
    module = decode(EXAMPLE_MODULE.read_bytes())
    return [module.instructions[i].opname for i in indexes]


async def test_the_source_pane_follows_the_selection_and_chooses_a_lines_instructions() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("7")
        source = app.screen.query_one(SourcePane)
        await pilot.pause()
        assert source.display and app.focused is source
        assert source.border_title == "Source · example.frag"
        assert source.current_line is None and source.border_subtitle == "no line for this instruction"
        # The texture sample of `vec4 base = texture(albedo, uv);` is on line 17.
        sample = next(i for i, name in enumerate(_opnames(list(range(199)))) if name == "OpImageSampleImplicitLod")
        app.screen.post_message(SelectInstruction(sample))
        await pilot.pause()
        assert source.current_line == 17 and source.cursor_line == 17
        assert source.border_subtitle == "line 17 · instruction 3/4 of it"
        # Down to `case 0: color = base * tint; break;` (line 22) and choose it.
        await pilot.press("j", "j", "j", "j", "j", "enter")
        await pilot.pause()
        tied = source.sources.instructions(0, 22)
        assert app.screen.selection.instruction == tied[0]
        assert source.current_line == 22 and app.focused is source
        await pilot.press("n")
        await pilot.pause()
        assert app.screen.selection.instruction == tied[1]
        assert source.border_subtitle == f"line 22 · instruction 2/{len(tied)} of it"
        await pilot.press("N", "N")
        await pilot.pause()
        assert app.screen.selection.instruction == tied[-1]
        # A line without instructions says so and leaves the selection.
        await pilot.press("g", *"jjjjjj", "enter")
        await pilot.pause()
        assert source.cursor_line == 7 and app.screen.selection.instruction == tied[-1]
        assert "Line 7 has no instructions." in [n.message for n in app._notifications]


async def test_a_narrow_screen_shows_the_source_zoomed_and_keeps_the_line_in_view() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), "example.spv")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press(*["full_stop"] * 7, "7")
        await pilot.pause()
        source = app.screen.query_one(SourcePane)
        assert source.current_line == 17 and app.screen.maximized is source
        await pilot.press("j", "j", "enter", "2")
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        assert source.current_line == 19
        top, height = source.scroll_offset.y, source.scrollable_content_region.height
        assert top <= 18 < top + height
