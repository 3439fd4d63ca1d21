"""The CFG pane on a function too big to draw (more instructions than `WINDOW_AFTER`): it
shows the blocks round the selection from a window of the function's blocks, never
building, laying out or keeping the whole function's graph; on the function's first row
it shows the entry block."""

from __future__ import annotations

import functools

from cfg_functions import chain, module_bytes
from inspector_apps import make_app

from spvinspect.codec.binary.lazy import open_module
from spvinspect.cfgview import graphs as graphs_module
from spvinspect.cfgview.graphs import WINDOW_AFTER, WINDOW_TILE, Window
from spvinspect.widgets.cfg_view import CfgView
from waiting import until

CONSTRUCTS = 1500
"""About 7.6 instructions a construct: past WINDOW_AFTER."""
ENTRY_INSTRUCTIONS = 4 * WINDOW_TILE
"""The entry block is longer than a window's runs (as an inlined function's, holding
every variable, is)."""


@functools.cache
def big_function() -> tuple[bytes, int, int]:
    """The module, the byte offset of its function's OpFunction, and its block count."""
    body = chain(CONSTRUCTS).replace("%entry = OpLabel\n", "%entry = OpLabel\n" + "OpNop\n" * ENTRY_INSTRUCTIONS, 1)
    data = module_bytes(body)
    module = open_module(data)
    span = module.functions()[0]
    assert span.end - span.first > WINDOW_AFTER
    blocks = sum(1 for i in range(span.first, span.end) if module.opcode(i) == module.tables.opcodes.OpLabel)
    return data, 4 * module.offset(span.first), blocks


async def shown(pilot, cfg: CfgView, text: str) -> str:
    """Wait until the pane's drawing holds `text`; the drawing's text."""
    await until(pilot, lambda: cfg.drawing is not None and text in cfg.drawing.text() and not cfg.laying_out,
                f"the CFG drawing showing {text!r}")
    return cfg.drawing.text()


async def selected_block(pilot, cfg: CfgView, name: str) -> None:
    """Wait until the pane's selected block is `name` (the drawing can show it before
    the pane follows the last key: the row after the last block is in the same window)."""
    def selected() -> bool:
        function = cfg.function
        block = function.block(cfg.block_id) if function is not None and cfg.block_id is not None else None
        return block is not None and block.name == name

    await until(pilot, selected, f"block {name} selected in the CFG pane")


def no_whole_graph(cfg: CfgView) -> None:
    graphs = cfg.graphs
    function_id = graphs.module.functions()[0].result_id
    assert not graphs.has_graph(function_id), "the whole function's graph was built"
    assert isinstance(cfg.function_id, Window)
    blocks = cfg.function.blocks
    assert blocks[-1].end - blocks[0].offset <= 3 * WINDOW_TILE * 10, "a window of a few runs of instructions"


async def test_zoomed_on_the_first_row_the_cfg_shows_the_entry_block():
    data, at, blocks = big_function()
    app = make_app(data, at=at // 4, pane="cfg")
    async with app.run_test(size=(120, 40)) as pilot:
        cfg = app.screen.query_one(CfgView)
        text = await shown(pilot, cfg, "entry")
        assert "%entry" in text
        assert cfg.block_id == cfg.function.entry
        assert "round the selection" in cfg.border_title
        no_whole_graph(cfg)


async def test_the_blocks_near_the_selection_anywhere_in_the_function():
    data, at, blocks = big_function()
    app = make_app(data, at=at // 4)
    async with app.run_test(size=(120, 40)) as pilot:
        cfg = app.screen.query_one(CfgView)
        await shown(pilot, cfg, "%entry")
        await pilot.press("G")  # the last row: OpFunctionEnd, after the last block
        await pilot.press("k", "k")  # into the last block
        text = await shown(pilot, cfg, f"%b{CONSTRUCTS}")
        assert "%entry" not in text
        await selected_block(pilot, cfg, f"b{CONSTRUCTS}")
        assert "%entry" not in cfg.drawing.text()
        no_whole_graph(cfg)
        await pilot.press("g", "g")  # back to the top, then to the function's first row
        await pilot.press("]")
        await shown(pilot, cfg, "%entry")
        assert cfg.block_id == cfg.function.entry
        no_whole_graph(cfg)


async def test_edges_leaving_the_window_end_in_stubs_that_move_it(monkeypatch):
    monkeypatch.setattr(graphs_module, "WINDOW_TILE", 100)  # a window of a hundred-odd blocks: quick to lay out
    data, at, blocks = big_function()
    module = open_module(data)
    span = module.functions()[0]
    middle = next(i for i in range((span.first + span.end) // 2, span.end) if module.opcode(i) == module.tables.opcodes.OpLabel)
    app = make_app(data, at=module.offset(middle))
    async with app.run_test(size=(120, 40)) as pilot:
        cfg = app.screen.query_one(CfgView)
        await until(pilot, lambda: cfg.drawing is not None and cfg.drawing.kind == "graph" and not cfg.laying_out,
                    "the window's graph laid out")
        drawing, window = cfg.drawing, cfg.function_id
        exits = [x for x in cfg.graphs.exits(window) if x.edge.is_branch]  # (merge and continue declarations are not drawn)
        assert exits and set(drawing.exits) == {x.edge.target for x in exits}
        for x in exits:
            stub = drawing.exits[x.edge.target]
            assert f"→ %{x.name}" in drawing.rows[stub.y + 1]
            route = next(r for r in drawing.routes if r.edge == x.edge)
            assert stub.touches(*route.arrowhead) and drawing.boxes[x.edge.source].touches(*route.cells[0])
        # The last stub scrolled into view and clicked: the selection goes to its block,
        # and the pane shows the window round it.
        target = max(drawing.exits, key=lambda t: drawing.exits[t].y)
        stub = drawing.exits[target]
        cfg.scroll_to(x=max(0, stub.x - 10), y=max(0, stub.y - 10), animate=False, immediate=True)
        await pilot.pause()
        x, y = cfg.scroll_offset
        await pilot.click(CfgView, offset=(stub.x + 2 - x + cfg.gutter.left, stub.y + 1 - y + cfg.gutter.top))
        await until(pilot, lambda: cfg.function_id != window and cfg.block_id == target and cfg.drawing is not None
                    and target in cfg.drawing.boxes, f"the window moved to %{target}")
        selection = app.screen.selection
        assert module.instruction(selection.instruction).result_id == target
        assert isinstance(cfg.function_id, Window) and cfg.function_id.tile > window.tile
