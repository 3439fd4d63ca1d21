"""The hex pane's rows follow its width (beside the list, zoomed, back again, on a narrow
screen), and an edit scrolls the pane to the words it changed."""

from __future__ import annotations

import re

from inspector_apps import make_app
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.widgets.hex_view import GUTTER, WORD_CELL, HexView

ROW = re.compile(r"^([0-9a-f]{8})  ((?:[0-9a-f]{8} ?)+)")


def shown_rows(hex_view: HexView) -> list[tuple[int, int]]:
    """(byte offset, words shown) of each hex row on screen, read from what the pane draws."""
    rows = []
    for y in range(hex_view.scrollable_content_region.height):
        match = ROW.match(hex_view.render_line(y).text)
        if match:
            rows.append((int(match.group(1), 16), len(match.group(2).split())))
    return rows


def assert_rows_fill_the_pane(hex_view: HexView) -> None:
    """Consecutive rows are as many words apart as a row shows, and a row shows as many
    words as the pane's width holds."""
    rows = shown_rows(hex_view)
    assert len(rows) >= 2, rows
    for (offset, words), (next_offset, _) in zip(rows, rows[1:]):
        assert next_offset - offset == 4 * words, f"row {offset:#x} shows {words} words of {(next_offset - offset) // 4}"
    width = hex_view.scrollable_content_region.width
    fits = (width - GUTTER + 1) // WORD_CELL
    expected = fits if fits < 8 else 1 << (fits.bit_length() - 1)
    assert rows[0][1] == expected, (width, rows[0])


async def test_rows_follow_the_width_after_zoom_and_moves_and_on_a_narrow_screen() -> None:
    app = make_app(EXAMPLE_MODULE.read_bytes(), at=0x9A0 // 4)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        hex_view = app.screen.query_one(HexView)
        await pilot.press("4", "z", "l", "l", "l", "z")
        await pilot.pause()
        await pilot.pause()
        assert_rows_fill_the_pane(hex_view)
        await pilot.press("z")
        await pilot.pause()
        assert_rows_fill_the_pane(hex_view)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert_rows_fill_the_pane(hex_view)
        assert hex_view.words_per_row >= 7, "an 80-column screen holds more than 4 words"


async def test_rows_follow_the_width_when_textual_sends_the_pane_no_resize(monkeypatch) -> None:
    """In a terminal, ending a zoom resizes the hex pane without a Resize event (seen in
    tmux: `--at 0x9a0`, `4 z l l l z` left rows 0x20 apart showing 4 words); the rows
    must follow the width the pane is drawn at all the same."""
    app = make_app(EXAMPLE_MODULE.read_bytes(), at=0x9A0 // 4)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        hex_view = app.screen.query_one(HexView)
        await pilot.press("4", "z")
        await pilot.pause()
        assert hex_view.words_per_row == 8
        monkeypatch.setattr(HexView, "on_resize", lambda self: None)
        await pilot.press("z")
        await pilot.pause()
        await pilot.pause()
        assert_rows_fill_the_pane(hex_view)


async def test_an_edit_scrolls_the_pane_to_the_words_it_changed() -> None:
    """The constant edited sat one row below the pane: the instruction's first word is
    on the pane's last row, the literal the edit changed on the next."""
    from test_edit_app import open_editor, settled

    app = make_app(EXAMPLE_MODULE.read_bytes())
    async with app.run_test(size=(120, 40)) as pilot:
        await open_editor(pilot, r"= OpConstant %float \d")
        await pilot.press("7")
        await settled(pilot)
        await pilot.pause()
        hex_view = app.screen.query_one(HexView)
        changed = [w for start, end in app.screen.edit_session.changed.ranges for w in range(start, end)]
        assert changed
        shown = {offset // 4 + k for offset, words in shown_rows(hex_view) for k in range(words)}
        assert set(changed) <= shown, f"changed words {changed} not among the {len(shown)} shown"
        assert hex_view.cursor in shown
