"""A SPIR-V step repaints only what changed in its panes (#26: a step within 16 ms): the
values pane its changed rows, the source pane its old and new lines, the word detail the
lines of the new word that differ, the CFG the boxes whose taken state or selection
changed; the list repaints its old and new current rows (it scrolls only when the current
row leaves it), the values and source panes draw anew only rows they have not drawn as
they look now (rows shift in the values pane) — and what is on screen then is what a full
repaint of every pane, with nothing kept, draws."""

from __future__ import annotations

from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.widgets.cfg_view import CfgView
from spvinspect.widgets.instruction_list import InstructionList
from spvinspect.widgets.source_pane import SourcePane
from spvinspect.widgets.values_pane import ValuesPane
from spvinspect.widgets.word_detail import WordDetailPanel
from waiting import until

BLUR = {"buffers": {"0.1": {"tint": [1, 1, 1, 1], "mode": 1, "steps": 8, "threshold": 0.0}}, "inputs": {"uv": [0.25, 0.5]}}
"""The example's blur branch: a loop, so the steps go round blocks the CFG marks taken."""
PANES = (ValuesPane, SourcePane, WordDetailPanel, CfgView)


def _cells(strips) -> list[list[tuple[str, object]]]:
    return [[(char, segment.style) for segment in strip for char in segment.text] for strip in strips]


async def test_a_spirv_step_repaints_only_the_changed_rows_and_shows_what_a_full_repaint_does() -> None:
    document = Document(EXAMPLE_MODULE.read_bytes(), "example.spv")
    document.run_inputs = BLUR
    app = InspectorApp(document, theme="spvinspect-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        # The CFG pane stays three rows high: it would grow (and the list shrink) once the
        # keys pause, at a step that depends on how loaded the machine is.
        await pilot.press("5", "7", "8", "full_stop")
        await pilot.pause()
        fold = screen.view._fold_cfg
        # The CFG pane follows the run a moment after the key, then unfolds for the function
        # once the keys pause: its box no longer idle (a fold not yet asked for is not waiting).
        box = screen.query_one("#cfg-box")
        await until(
            pilot,
            lambda: screen.view._cfg_follow._timer is None and not fold._waiting and not box.has_class("-idle"),
            "the CFG pane following the run and unfolding",
        )
        await pilot.pause()
        fold._callback = lambda: None  # and keeps its height from then on: the list's rows stay
        full: dict[str, int] = {}
        partial: dict[str, int] = {}

        def recording(pane):
            refresh = pane.refresh

            def refreshed(*regions, **kwargs):
                name = type(pane).__name__  # partial repaints counted by their regions (rows)
                (partial if regions else full)[name] = (partial if regions else full).get(name, 0) + max(1, len(regions))
                return refresh(*regions, **kwargs)

            return refreshed

        for kind in PANES:
            pane = screen.query_one(kind)
            pane.refresh = recording(pane)
        listing = screen.query_one(InstructionList)
        drawn = {"rows": 0, "anew": 0}
        render_row, draw_row = listing.render_row, listing._draw_row

        def counted_render(*args):
            drawn["rows"] += 1
            return render_row(*args)

        def counted_draw(*args):
            drawn["anew"] += 1
            return draw_row(*args)

        listing.render_row, listing._draw_row = counted_render, counted_draw
        cfg = screen.query_one(CfgView)
        for _ in range(40):
            await pilot.press("full_stop")
            await pilot.pause()
            # The CFG follows a moment after the key.
            await until(pilot, lambda: screen.view._cfg_follow._timer is None, "the CFG pane following the step")
        run = screen.execution.run
        assert run.steps == 41 and len(run.visited) > 3 and cfg.visited == frozenset(run.visited)
        # Each pane changed with the steps, by rows; the source and word panes were never
        # repainted whole, the values pane only when its size changed (a longer value,
        # more live ids), the CFG when a step scrolled it or entered another function.
        assert {"ValuesPane", "SourcePane", "WordDetailPanel", "CfgView"} <= set(partial)
        assert "SourcePane" not in full and "WordDetailPanel" not in full
        assert full.get("ValuesPane", 0) < partial["ValuesPane"] / 10 and full.get("CfgView", 0) < partial["CfgView"] / 4
        # Stepping down the blur loop keeps the list still while the current row is in
        # sight (two rows repainted a step) and re-centres it when it leaves: far fewer
        # rows than a list scrolled a row a step, which repaints every row each time.
        height = listing.scrollable_content_region.height
        # Two rows a step, and the list's rows once each time the current row leaves the
        # view's middle half (a list scrolled a row a step draws 40 * height).
        assert 80 < drawn["rows"] <= 40 * 2 + (40 // (height // 2) + 1) * height < 40 * height
        assert drawn["anew"] <= drawn["rows"]
        compositor = screen._compositor
        shown = _cells(compositor.render_strips())
        for pane in (*(screen.query_one(kind) for kind in PANES), listing):
            pane.notify_style_update()  # forgets every row and style kept
            pane.refresh()
        assert shown == _cells(compositor.render_strips())


async def test_hidden_values_and_source_panes_catch_up_when_shown_not_at_every_step(monkeypatch) -> None:
    from spvinspect.codec.interp import values_view
    from spvinspect.widgets import values_pane

    worked_out = []
    rows_of = values_pane.invocation_rows
    monkeypatch.setattr(values_pane, "invocation_rows", lambda *args: worked_out.append("values") or rows_of(*args))
    follow = SourcePane._follow
    monkeypatch.setattr(SourcePane, "_follow", lambda pane: worked_out.append("source") or follow(pane))
    app = InspectorApp(Document(EXAMPLE_MODULE.read_bytes(), "example.spv"), theme="spvinspect-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("7", "8", "full_stop", "x", "7", "x")  # shown, a step, then both hidden
        await pilot.pause()
        values, source = screen.query_one(ValuesPane), screen.query_one(SourcePane)
        assert not values.display and not source.display and worked_out
        worked_out.clear()
        for _ in range(3):
            await pilot.press("full_stop")
        await pilot.pause()
        assert worked_out == []  # hidden: neither follows the steps
        run = screen.execution.run
        await pilot.press("8", "7")
        await pilot.pause()
        # Shown again: each shows the run as it is now.
        assert values.border_subtitle.startswith(f"{run.steps} steps")
        fresh = values_view.invocation_rows(run.debugger, screen.document.names(False).name, values_view.KeptRows())
        assert [row.value for row in values.rows] == [row.value for row in fresh]
        location = source.sources.location(run.current_instruction)
        assert location is not None and source.current_line == location.line
