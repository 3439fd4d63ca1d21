"""Long lines in the instruction lists (SPIR-V's and Lima's): an ellipsis where the pane
cuts a line, shift+right/left scroll sideways to read the rest."""

from __future__ import annotations

from pathlib import Path

from inspector_apps import make_app
from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.lima_document import LimaDocument
from spvinspect.widgets.instruction_list import GUTTER_WIDTH, InstructionList
from spvinspect.widgets.lima_list import GUTTER_WIDTH as LIMA_GUTTER, LimaInstructionList

LIMA_PROGRAMS = Path("/work/shared/lima/programs")


def drawn(widget, y: int, gutter: int) -> str:
    """Row `y` on screen as the list draws it, without the gutter."""
    return widget.render_line(y).text[gutter : widget.scrollable_content_region.width]


async def read_sideways(pilot, widget, y: int, gutter: int, full: str) -> None:
    """The row is cut with an ellipsis; shift+right shows more, with an ellipsis at its
    start, until its end; shift+left goes back to the start."""
    first = drawn(widget, y, gutter)
    assert first.endswith("…") and full.startswith(first[:-1]), (first, full)
    seen = first[:-1]
    for _ in range(20):
        await pilot.press("shift+right")
        await pilot.pause()
        now = drawn(widget, y, gutter).rstrip()
        assert now.startswith("…"), now
        if not now.endswith("…"):
            break
    else:
        raise AssertionError("the end of the line never showed")
    assert full.endswith(now[1:]), (now, full)
    for _ in range(20):
        await pilot.press("shift+left")
        await pilot.pause()
        if widget.scroll_offset.x == 0:
            break
    assert drawn(widget, y, gutter) == first and seen


async def test_a_cut_spirv_line_shows_an_ellipsis_and_scrolls_sideways() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), name="example.spv")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        instruction_list = app.screen.query_one(InstructionList)
        row = next(r for r in range(app.document.row_count) if "OpEntryPoint" in app.document.row_text(r))
        y = row - round(instruction_list.scroll_offset.y)
        full = app.document.row_text(row)
        assert len(full) > instruction_list.scrollable_content_region.width - GUTTER_WIDTH
        await read_sideways(pilot, instruction_list, y, GUTTER_WIDTH, full)


async def test_a_cut_lima_line_shows_an_ellipsis_and_scrolls_sideways() -> None:
    path = LIMA_PROGRAMS / "atan_asin.pp"
    document = LimaDocument(path.read_bytes(), str(path))
    app = InspectorApp(document)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("2")
        await pilot.pause()
        lima_list = app.screen.query_one(LimaInstructionList)
        assert lima_list.has_focus
        top = round(lima_list.scroll_offset.y)
        visible = range(top, top + lima_list.scrollable_content_region.height - 1)
        row = next(r for r in visible if len(lima_list.shown_text(r)) > lima_list.scrollable_content_region.width - LIMA_GUTTER + 10)
        await read_sideways(pilot, lima_list, row - top, LIMA_GUTTER, lima_list.shown_text(row))
