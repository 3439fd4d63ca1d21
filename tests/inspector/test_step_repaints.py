"""Stepping repaints the panes that changed and never lays the whole screen out again
(#22, #26: a step within 16 ms; a new layout repaints every pane, in a frame of its own).
Both formats, with their run panes shown, over steps whose panes change size (the Lima
breakdown of another instruction, the SPIR-V values of a longer step); the widgets a step
leaves as they were are not drawn again."""

from __future__ import annotations

from lima_apps import program_words, to_bytes
from waiting import until
from textual._styles_cache import StylesCache
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget

from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.widgets.hex_view import HexView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.row_list import RowList
from spvinspect.widgets.values_pane import ValuesPane
from spvinspect.widgets.word_detail import WordDetailPanel


UNCHANGED_BY_A_STEP = {"InspectorScreen", "LimaView", "SpirvView", "Column", "LimaHeader", "KeyFooter", "KeptCorner", "KeptScrollBar"}
"""Widgets a step leaves as they were: the compositor gets their last lines (`KeptLines`),
Textual works none of their styles out again."""


async def _step_and_count_layouts(app: InspectorApp, panes: tuple[str, ...], steps: int, shown, monkeypatch,
                                   drawn: list[tuple[str, int]] | None = None) -> list[str]:
    """Show `panes`, take the first step (it opens the run: panes fill in), then count
    the screen's layouts over `steps` more; `shown()` is read after each step. `drawn`
    gets each widget Textual drew lines of in those steps, with how many lines."""
    layouts: list[object] = []
    seen = []
    drawn = [] if drawn is None else drawn
    render_widget = StylesCache.render_widget

    def spied(cache, widget, crop):
        drawn.append((type(widget).__name__, crop.height))
        return render_widget(cache, widget, crop)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*panes, "full_stop")
        await pilot.pause()
        screen = app.screen
        view = screen.view
        fold = getattr(view, "_fold_cfg", None)
        # The SPIR-V CFG pane follows the run a moment after the key, then unfolds for the
        # run's function once the keys pause (a layout, once): before the steps counted,
        # however long a loaded machine takes between them. A fold not yet asked for is
        # not waiting, so the box's class says when it is done.
        await until(
            pilot,
            lambda: fold is None
            or (view._cfg_follow._timer is None and not fold._waiting and not screen.query_one("#cfg-box").has_class("-idle")),
            "the CFG pane following the run and unfolding",
        )
        await pilot.pause()
        screen.screen_layout_refresh_signal.subscribe(screen, layouts.append, immediate=True)
        monkeypatch.setattr(StylesCache, "render_widget", spied)
        for _ in range(steps):
            await pilot.press("full_stop")
            await pilot.pause()
            seen.append(shown(screen))
    assert layouts == [], f"{len(layouts)} layouts in {steps} steps"
    names = {name for name, _ in drawn}
    assert drawn and not UNCHANGED_BY_A_STEP & names, sorted(names)
    return seen


def _drawn_as_textual_draws(pane) -> bool:
    """The pane's (the registers', the status line's) screen lines are what Textual draws
    for its text (colours, wrapping and each cell's offset in the text, which selecting
    with the mouse reads)."""
    width, height = pane.content_region.size
    expected = Visual.to_strips(pane, pane._render(), width, height, pane.visual_style)
    blank = Strip.blank(pane.size.width, pane.visual_style.rich_style)
    expected += [blank] * (height - len(expected))
    return all(list(pane.render_line(y)) == list(expected[y]) for y in range(height))


def _bit_rows_segments(breakdown) -> list[tuple[int, int]]:
    """(segments drawn, ranges in the row) for each row of bits of the breakdown."""
    rows = []
    for y, cells in enumerate(breakdown._lines):
        ranges = {position for _, _, position in cells if position is not None}
        if len(cells) > 1 and not cells[0][0].strip() and all(set(text) <= {"0", "1", " "} for text, _, _ in cells[1:]):
            rows.append((len(list(breakdown.render_line(y - breakdown.scroll_offset.y))), len(ranges)))
    return rows


async def test_lima_steps_repaint_without_a_layout(monkeypatch) -> None:
    app = InspectorApp(LimaDocument(to_bytes(program_words()), "shader.bin"), theme="spvinspect-dark")

    def shown(screen) -> tuple[tuple[str, str], tuple[str, str]]:
        run = screen.execution.run
        registers = screen.query_one("#registers")
        breakdown = screen.query_one("#breakdown")
        # A row of bits is drawn as runs of ranges: its range's digits, a space (and the
        # blank after the row), never a segment per bit.
        bit_rows = _bit_rows_segments(breakdown)
        assert bit_rows and all(segments <= 2 * ranges + 1 for segments, ranges in bit_rows), bit_rows
        assert _drawn_as_textual_draws(registers) and _drawn_as_textual_draws(screen.query_one("#status"))
        return (
            (breakdown.border_title, registers.render_text().plain.splitlines()[0].split(" · ")[1]),
            (f"Breakdown · instruction {run.current_instruction}", f"step {run.steps}"),
        )

    seen = await _step_and_count_layouts(app, ("6",), 2, shown, monkeypatch)
    # The breakdown followed the run to each instruction (of different shapes), and the
    # registers pane counted the steps.
    assert [drawn for drawn, _ in seen] == [expected for _, expected in seen]
    assert [expected[1] for _, expected in seen] == ["step 2", "step 3"]


async def test_spirv_steps_repaint_without_a_layout(monkeypatch) -> None:
    document = Document(EXAMPLE_MODULE.read_bytes(), "example.spv")
    app = InspectorApp(document, theme="spvinspect-dark")

    drawn: list[tuple[str, int]] = []
    steps: list[tuple[int, object]] = []

    def shown(screen) -> str:
        assert _drawn_as_textual_draws(screen.query_one("#status"))
        steps.append((len(drawn), screen.query_one("#values").virtual_size))
        return screen.query_one("#status").place

    # The lists (instructions, values, source), the hex pane and the word detail work out their view
    # (scroll offset, text width, base style) once for all the rows they draw in a frame,
    # not for every row.
    passes, views, rows = [0], [0], [0]
    region = Widget.scrollable_content_region.fget

    word_passes, layout_keys, layout_key = [0], [0], WordDetailPanel._layout_key

    def counted_lines(pane, crop, render_lines):
        passes[0] += 1
        word_passes[0] += isinstance(pane, WordDetailPanel)
        pane._counting = True
        try:
            return render_lines(pane, crop)
        finally:
            pane._counting = False

    def counted_view(pane):
        views[0] += getattr(pane, "_counting", False)
        return region(pane)

    # The pane's region on screen (a walk up to the screen): a few times a frame, not a row.
    regions, screen_region = [0], Widget.region.fget

    def counted_region(pane):
        regions[0] += getattr(pane, "_counting", False)
        return screen_region(pane)

    for cls in (RowList, HexView, WordDetailPanel):
        monkeypatch.setattr(cls, "render_lines", lambda pane, crop, f=cls.render_lines: counted_lines(pane, crop, f))
        monkeypatch.setattr(cls, "render_line", lambda pane, y, f=cls.render_line: rows.__setitem__(0, rows[0] + 1) or f(pane, y))
        monkeypatch.setattr(cls, "scrollable_content_region", property(counted_view))
        monkeypatch.setattr(cls, "region", property(counted_region))
    # So do the list's looks (role styles, the selected id) and the values' row styles.
    looks, values_rows, values_styles = [0], [0], [0]
    looks_of, render_value, memo_style = InstructionList._looks, ValuesPane.render_row, ValuesPane.memo_style
    monkeypatch.setattr(InstructionList, "_looks", lambda pane, base: looks.__setitem__(0, looks[0] + 1) or looks_of(pane, base))
    monkeypatch.setattr(ValuesPane, "render_row", lambda pane, *args: values_rows.__setitem__(0, values_rows[0] + 1) or render_value(pane, *args))
    monkeypatch.setattr(ValuesPane, "memo_style", lambda pane, name: values_styles.__setitem__(0, values_styles[0] + getattr(pane, "_counting", False)) or memo_style(pane, name))
    monkeypatch.setattr(WordDetailPanel, "_layout_key", lambda pane: layout_keys.__setitem__(0, layout_keys[0] + getattr(pane, "_counting", False)) or layout_key(pane))
    seen = await _step_and_count_layouts(app, ("7", "8"), 5, shown, monkeypatch, drawn)
    assert layout_keys[0] <= word_passes[0], (layout_keys, word_passes)
    assert rows[0] > 2 * passes[0] and views[0] <= passes[0] and regions[0] <= 3 * passes[0], (rows, passes, views, regions)
    assert looks[0] <= passes[0] and values_rows[0] > 10 and values_styles[0] < 2 * values_rows[0], (looks, passes, values_rows, values_styles)
    # The list, and the status line with it, followed each step to another instruction.
    assert len(set(seen)) == 5 and all("instruction" in place for place in seen)
    # The panes that put their changed lines between their borders themselves draw a
    # changed border line (the values' and source's subtitles) with Textual's line
    # function, and leave Textual's whole-widget drawing none of their lines (the word
    # detail marks no line past its height), not even the values pane when a step gives
    # it a new width or its labels another width (all its rows repaint, not its frame).
    framed = {"ValuesPane", "SourcePane", "WordDetailPanel", "HexView"}
    sizes = [size for _, size in steps]
    assert len(set(sizes)) > 1, sizes
    for number, (start, end) in enumerate(zip([0, *(at for at, _ in steps)], (at for at, _ in steps))):
        whole = {name for name, _ in drawn[start:end] if name in framed}
        assert whole == set(), (number, sorted(whole), sizes)


async def test_a_moved_cursor_repaints_its_old_and_new_rows_in_one_refresh(monkeypatch) -> None:
    # Each refresh clears the widget's caches and prompts its message loop: a step (the
    # cursor's rows, then the run's gutter marks) asked for one per row.
    app = InspectorApp(Document(EXAMPLE_MODULE.read_bytes(), "example.spv"), theme="spvinspect-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        listing = app.screen.query_one(InstructionList)
        listing.focus()
        await pilot.press("j")
        await pilot.pause()
        calls: list[tuple] = []
        refresh = RowList.refresh

        def spied(widget, *regions, **kwargs):
            if widget is listing:
                calls.append(regions)
            return refresh(widget, *regions, **kwargs)

        monkeypatch.setattr(RowList, "refresh", spied, raising=False)
        await pilot.press("j")
        await pilot.pause()
        rows = [regions for regions in calls if regions and all(region.height == 1 for region in regions)]
        assert len(rows) == 1 and len(rows[0]) == 2, calls
        assert listing.cursor_row is not None and listing.cursor_row >= 2


async def test_the_hex_pane_repaints_the_rows_a_highlight_left_and_reached_in_one_refresh(monkeypatch) -> None:
    app = InspectorApp(Document(EXAMPLE_MODULE.read_bytes(), "example.spv"), theme="spvinspect-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        hex_view = app.screen.query_one(HexView)
        per_row = hex_view.words_per_row
        hex_view.highlight(range(per_row, per_row + 2))
        await pilot.pause()
        calls: list[tuple] = []
        refresh = HexView.refresh

        def spied(widget, *regions, **kwargs):
            calls.append(regions)
            return refresh(widget, *regions, **kwargs)

        monkeypatch.setattr(HexView, "refresh", spied, raising=False)
        hex_view.highlight(range(3 * per_row, 3 * per_row + 1))
        top = hex_view.scroll_offset.y
        assert [[(region.y + top, region.height) for region in regions] for regions in calls] == [[(1, 1), (3, 1)]]
        await pilot.pause()
        assert hex_view.highlighted == range(3 * per_row, 3 * per_row + 1)
