"""The CFG pane in a host app wired the way the main screen will wire it: the pane posts
`CfgView.BlockChosen`, the host moves its selection to the block's OpLabel and shows the
block back with `show_block`."""

from __future__ import annotations

import threading

from textual import on
from textual.app import App, ComposeResult

from cfg_functions import NESTED_LOOPS, SWITCH, graphs_of, main_id
from spvinspect.cfgview.graphs import FunctionGraphs
from spvinspect.widgets.cfg_view import CfgView
from spvinspect.themes import DEFAULT_THEME, THEMES
from waiting import until


class CfgHost(App):
    """The CFG pane alone, following a selection the host keeps as a word offset."""

    CSS = "CfgView { border: round $primary; height: 1fr; }"

    def __init__(self, graphs: FunctionGraphs, start: str = "entry") -> None:
        super().__init__()
        for theme in THEMES.values():
            self.register_theme(theme)
        self.theme = DEFAULT_THEME
        self.graphs = graphs
        self.function_id = main_id(graphs)
        self.start = start
        self.chosen: list[CfgView.BlockChosen] = []
        self.selected_word: int | None = None

    def compose(self) -> ComposeResult:
        yield CfgView(self.graphs)

    def on_mount(self) -> None:
        view = self.query_one(CfgView)
        view.focus()
        view.follow(self.label_index(self.start))

    def label_index(self, name: str) -> int:
        """The instruction index of the OpLabel named `name` (found without the graph)."""
        module, names = self.graphs.module, self.graphs.names
        span = module.functions()[0]
        for index in range(span.first, span.end):
            inst = module.instruction(index)
            if inst.opname == "OpLabel" and names.name(inst.result_id) == name:
                return index
        raise LookupError(name)

    def block(self, name: str) -> int:
        function = self.graphs.function(self.function_id)
        return next(b.id for b in function.blocks if b.name == name)

    def block_name(self, block_id: int | None) -> str | None:
        function = self.graphs.function(self.function_id)
        return None if block_id is None else function.block(block_id).name

    @on(CfgView.BlockChosen)
    def block_chosen(self, message: CfgView.BlockChosen) -> None:
        self.chosen.append(message)
        self.selected_word = message.word
        self.query_one(CfgView).show_block(message.function_id, message.block_id)


async def settled(pilot) -> None:
    """Wait until the pane's worker has built and drawn the graph, and the screen shows it."""
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def test_moves_along_edges_and_back():
    app = CfgHost(graphs_of(NESTED_LOOPS))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        view = app.query_one(CfgView)
        await pilot.press("j")
        assert app.block_name(view.block_id) == "outer"
        await pilot.press("j", "j")
        assert app.block_name(view.block_id) == "body", "the first edge of %inner is its true edge"
        await pilot.press("l", "j")
        assert app.block_name(view.block_id) == "join", "right chooses the false edge"
        await pilot.press("k")
        assert app.block_name(view.block_id) == "body", "back to where we came from"
        await pilot.press("m")
        assert app.block_name(view.block_id) == "join", "the merge of the selection %body heads"
        await pilot.press("c")
        assert app.block_name(view.block_id) == "inner_continue"
        await pilot.press("j")
        assert app.block_name(view.block_id) == "inner", "along the back edge"
        await pilot.press("m")
        assert app.block_name(view.block_id) == "inner_merge", "a header's own merge"
        await pilot.press("c")
        assert app.block_name(view.block_id) == "outer_continue", "the continue target of the enclosing loop"
        await pilot.press("home")
        assert app.block_name(view.block_id) == "entry"


async def test_choosing_a_block_asks_for_its_label():
    graphs = graphs_of(NESTED_LOOPS)
    app = CfgHost(graphs)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        await pilot.press("j")
        (message,) = app.chosen
        outer = graphs.function(message.function_id).block(message.block_id)
        assert message.word == outer.offset
        label = graphs.module.instruction(graphs.module.index_at(message.word))
        assert label.opname == "OpLabel" and label.result_id == outer.id


async def test_follows_the_instruction_list():
    graphs = graphs_of(NESTED_LOOPS)
    app = CfgHost(graphs)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        view = app.query_one(CfgView)
        function = graphs.function(main_id(graphs))
        module = graphs.module
        for block in function.blocks:
            last = module.index_at(block.end - 1)
            view.follow(last)
            await pilot.pause()
            assert view.block_id == block.id
        view.follow(0)
        await pilot.pause()
        assert view.drawing is None, "outside every function the pane shows nothing"


async def test_clicking_a_box_chooses_its_block():
    app = CfgHost(graphs_of(NESTED_LOOPS))
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        view = app.query_one(CfgView)
        rect = view.drawing.boxes[app.block("outer")]
        x, y = view.scroll_offset
        await pilot.click(CfgView, offset=(rect.x - x + 2 + 1, rect.y - y + 1 + 1))
        assert app.block_name(view.block_id) == "outer"


async def test_selected_block_is_kept_in_view():
    app = CfgHost(graphs_of(NESTED_LOOPS))
    async with app.run_test(size=(60, 16)) as pilot:
        await settled(pilot)
        view = app.query_one(CfgView)
        for _ in range(6):
            await pilot.press("j")
            rect = view.drawing.boxes[view.block_id]
            x, y = view.scroll_offset
            region = view.scrollable_content_region
            assert y <= rect.y and rect.bottom < y + region.height
            assert x <= rect.x < x + region.width


class HeldGraphs(FunctionGraphs):
    """Graphs whose building (`hold="graph"`) or layered drawing (`hold="drawing"`) waits
    until the test releases it, so the test sees what the pane shows meanwhile."""

    def __init__(self, graphs: FunctionGraphs, hold: str) -> None:
        super().__init__(graphs.module, graphs.names, graphs.inline_blocks, graphs.draw_blocks, graphs.inline_instructions)
        self.hold = hold
        self.release = threading.Event()

    def _graph(self, function_id: int, pace=None, wait=True):
        if self.hold == "graph" and not self.has_graph(function_id):
            self.release.wait(10)
        return super()._graph(function_id, pace, wait)

    def drawing(self, function_id: int):
        if self.hold == "drawing":
            self.release.wait(10)
        return super().drawing(function_id)


async def shown(pilot, view: CfgView) -> None:
    """Wait until the pane shows a drawing."""
    await until(pilot, lambda: view.drawing is not None, "the pane shows a drawing")


async def test_graph_is_built_in_a_worker():
    graphs = HeldGraphs(graphs_of(NESTED_LOOPS, inline_instructions=0), hold="graph")
    app = CfgHost(graphs, start="body")
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(CfgView)
        await pilot.pause()
        assert view.drawing is None and view.laying_out
        assert not graphs.has_graph(main_id(graphs))
        assert view.render_line(0).text.startswith("Building the graph…")
        graphs.release.set()
        await settled(pilot)
        assert view.drawing is graphs.cached_drawing(main_id(graphs))
        assert view.drawing.kind == "graph" and not view.laying_out
        assert app.block_name(view.block_id) == "body", "the block of the followed instruction"
        assert view.border_title == "CFG %main · 10 blocks"


async def test_big_function_shows_the_blocks_near_the_selection_while_laid_out():
    graphs = HeldGraphs(graphs_of(NESTED_LOOPS, inline_blocks=3), hold="drawing")
    app = CfgHost(graphs)
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(CfgView)
        await shown(pilot, view)
        assert view.drawing.kind == "neighbourhood"
        assert view.laying_out and "blocks near the selection, laying out…" in str(view.border_title)
        assert {app.block_name(b) for b in view.drawing.boxes} == {"entry", "outer", "inner", "outer_continue"}
        await pilot.press("j", "j")
        assert app.block_name(view.block_id) == "inner", "moves work in the neighbourhood"
        assert view.drawing.kind == "neighbourhood" and view.block_id in view.drawing.boxes
        await pilot.press("v")
        assert view.drawing.kind == "list" and len(view.drawing.boxes) == 10
        assert view.drawing.boxes[view.block_id].y == 2, "the list shows every block, the selected one marked"
        await pilot.press("j")
        assert app.block_name(view.block_id) == "body", "moves work in the list"
        graphs.release.set()
        await settled(pilot)
        assert view.drawing.kind == "graph"
        assert not view.laying_out and "laying out" not in str(view.border_title)
        assert app.block_name(view.block_id) == "body", "the selection stays"


async def test_function_too_big_to_draw_is_shown_near_the_selection():
    graphs = graphs_of(NESTED_LOOPS, inline_blocks=3, draw_blocks=5)
    app = CfgHost(graphs, start="body")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        view = app.query_one(CfgView)
        assert view.drawing.kind == "neighbourhood" and not view.laying_out
        assert view.border_title.endswith("too big to draw")
        assert graphs.cached_drawing(main_id(graphs)) is None, "never laid out"
        assert app.block_name(view.block_id) == "body"
        await pilot.press("v")
        assert view.drawing.kind == "list"
        assert view.render_line(view.drawing.boxes[view.block_id].y).text.startswith("%body ")


async def test_colours_follow_the_theme():
    app = CfgHost(graphs_of(NESTED_LOOPS), start="inner")
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot)
        view = app.query_one(CfgView)
        back = next(r for r in view.drawing.routes if r.style == "back-edge")
        x, y = back.arrowhead

        def colour() -> str:
            sx, sy = view.scroll_offset
            strip = view.render_line(y - sy).crop(x - sx, x - sx + 1)
            (segment,) = [s for s in strip if s.text]
            return segment.style.color.name

        assert colour() == THEMES[DEFAULT_THEME].variables["cfg-back-edge"]
        app.theme = "spvinspect-light"
        await pilot.pause()
        assert colour() == THEMES["spvinspect-light"].variables["cfg-back-edge"]


def test_snapshot_nested_loops_120x40(snap_compare):
    app = CfgHost(graphs_of(NESTED_LOOPS), start="inner")
    assert snap_compare(app, terminal_size=(120, 40), run_before=settled)


def test_snapshot_switch_120x40(snap_compare):
    app = CfgHost(graphs_of(SWITCH), start="first")
    assert snap_compare(app, terminal_size=(120, 40), run_before=settled)
