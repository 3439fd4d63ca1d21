"""While a run steps, the list and hex panes keep still as long as the current instruction
is in sight, and bring it to the middle when it leaves (a debugger's way: a step then
repaints two rows, not every row), in both formats (#22, #26)."""

from __future__ import annotations

from spvinspect import lima
from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.lima_registers import CELL, LimaRegisters, _line_text, cell_text

STRAIGHT = "rsqrt.s2 $3.z $3.x_abs"


def straight_program(instructions: int) -> bytes:
    words, diagnostics = lima.assemble("\n".join([STRAIGHT] * (instructions - 1) + ["stop, mov.v1 $0 $3"]))
    assert diagnostics == []
    return b"".join(word.to_bytes(4, "little") for word in words)


async def _follow(app: InspectorApp, list_id: str, steps: int) -> tuple[int, int, int]:
    """Step `steps` times: the current row is always on the list, and each scroll of the
    list put it mid-list. How many places the list and the hex pane took, and the list's
    height."""
    async with app.run_test(size=(120, 26)) as pilot:
        screen = app.screen
        listing, hex_view = screen.query_one(list_id), screen.query_one(HexView)
        await pilot.press("full_stop")
        await pilot.pause()
        list_tops, hex_tops, rows = set(), set(), []
        for _ in range(steps):
            await pilot.press("full_stop")
            await pilot.pause()
            row, top, height = screen.selection.row, listing.scroll_offset.y, listing.scrollable_content_region.height
            if not top <= row < top + height:
                raise AssertionError(f"the current row {row} is off the list ({top}..{top + height})")
            rows.append((row, top, height))
            list_tops.add(top)
            hex_tops.add(hex_view.scroll_offset.y)
            cursor_row = hex_view.cursor // hex_view.words_per_row
            assert hex_view.scroll_offset.y <= cursor_row < hex_view.scroll_offset.y + hex_view.scrollable_content_region.height
        # Each scroll of the list put the current row mid-list; between scrolls it stayed.
        scrolled = [(row, top, height) for (row, top, height), (_, before, _) in zip(rows[1:], rows) if top != before]
        assert scrolled and all(row - top == height // 2 for row, top, height in scrolled), rows
        return len(list_tops), len(hex_tops), rows[0][2]


async def test_a_lima_run_scrolls_the_list_and_hex_only_when_the_instruction_leaves_them() -> None:
    app = InspectorApp(LimaDocument(straight_program(80), "straight.bin"), theme="spvinspect-dark")
    list_places, hex_places, height = await _follow(app, "#list", 16)
    # A straight program: the list moves once every half list, the hex pane likewise.
    assert list_places <= 1 + 16 // (height // 2) and hex_places <= 16 // 4, (list_places, hex_places)


async def test_a_spirv_run_scrolls_the_list_only_when_the_instruction_leaves_it() -> None:
    app = InspectorApp(Document(EXAMPLE_MODULE.read_bytes(), "example.spv"), theme="spvinspect-dark")
    await _follow(app, "#list", 12)


def test_register_values_keep_their_columns() -> None:
    """A value longer than a column (a small fp16) keeps fewer digits, so the columns and
    the highlight of a changed component stay where they are."""
    assert [cell_text(v) for v in (0.003906, -0.0001221, 65504.0, 6.104e-05, 0.1937)] == [
        "0.00391", "-1.2e-4", "65504", "6.1e-5", "0.1937"]
    pane = LimaRegisters()
    vector = _line_text(pane._vector([0.003906, -0.0001221, 1.0, 65504.0], {1, 3}))
    assert vector.plain == "0.00391 -1.2e-4     1.0   65504 " and len(vector.plain) == 4 * (CELL + 1)
    assert [(span.start, span.end) for span in vector.spans] == [(8, 15), (24, 31)]
