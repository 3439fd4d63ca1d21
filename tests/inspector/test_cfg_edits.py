"""The CFG pane across an edit (issue #27 item 16): an edit in another function touches
neither this function's graph nor its layout; an edit that keeps a function's blocks and
edges reuses its layout, only the changed box's text written again; an edit that changes
the edges lays the function out again."""

from __future__ import annotations

from cfg_functions import DIAMOND, NESTED_LOOPS, module_bytes
from edit_pilot import open_editor, settled

from spvinspect.app import InspectorApp
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.names import module_names
from spvinspect.cfgview.block_list import list_function
from spvinspect.cfgview.graphs import FunctionGraphs
from spvinspect.document import Document
from spvinspect.widgets.cfg_view import CfgView
from waiting import until

OTHER = "OpFunctionEnd\n%other = OpFunction %void None %fn\n" + NESTED_LOOPS.replace("%", "%o_").replace("%o_cond", "%cond")
"""A second function after `main`: the nested loops, its labels prefixed `o_`."""


def graphs_over(body: str, previous: FunctionGraphs | None = None) -> FunctionGraphs:
    module = open_module(module_bytes(body))
    module.ensure_indexed()  # as the editor's modules are
    return FunctionGraphs(module, module_names(module), previous=previous)


def other_id(graphs: FunctionGraphs) -> int:
    return graphs.module.functions()[1].result_id


def same_as_fresh(graphs: FunctionGraphs, function_id: int) -> None:
    """The graph and drawing equal those a fresh build and layout give."""
    fresh = graphs_over_module(graphs.module)
    assert graphs.function(function_id) == fresh.function(function_id)
    drawing, expected = graphs.drawing(function_id), fresh.drawing(function_id)
    assert (drawing.rows, drawing.runs, drawing.boxes) == (expected.rows, expected.runs, expected.boxes)
    assert [r.edge for r in drawing.routes] == [r.edge for r in expected.routes]


def graphs_over_module(module) -> FunctionGraphs:
    return FunctionGraphs(module, module_names(module))


def test_graphs_and_layouts_carried_across_edits():
    first = graphs_over(DIAMOND + OTHER)
    function_id = other_id(first)
    drawn = first.drawing(function_id)
    # An instruction more in `main`: `other` moves down the module, untouched.
    edited = DIAMOND.replace("%then = OpLabel\n", "%then = OpLabel\nOpNop\n")
    second = graphs_over(edited + OTHER, previous=first)
    assert second.has_graph(function_id)
    assert second.drawing(function_id).rows == drawn.rows
    assert (second.built, second.layouts) == (0, 0), "an edit in another function touches nothing here"
    same_as_fresh(second, function_id)
    # An instruction more in one of `other`'s blocks: built again, laid out as before.
    body = OTHER.replace("%o_early = OpLabel\n", "%o_early = OpLabel\nOpNop\n")
    third = graphs_over(edited + body, previous=second)
    drawing = third.drawing(function_id)
    assert (third.built, third.layouts) == (1, 0), "the same blocks and edges: the layout is reused"
    assert drawing.boxes is drawn.boxes
    early = drawing.boxes[next(b.id for b in third.function(function_id).blocks if b.name == "o_early")]
    assert "3 instr" in drawing.rows[early.y + 2][early.x : early.right]
    same_as_fresh(third, function_id)
    # Branch targets swapped: other edges, laid out again.
    swapped = body.replace("OpBranchConditional %cond %o_early %o_join", "OpBranchConditional %cond %o_join %o_early")
    fourth = graphs_over(edited + swapped, previous=third)
    fourth.drawing(function_id)
    assert (fourth.built, fourth.layouts) == (1, 1)
    same_as_fresh(fourth, function_id)


async def shown_after_edit(pilot, cfg: CfgView, before: FunctionGraphs) -> FunctionGraphs:
    """Wait until the pane shows a drawing from graphs over the edited module."""
    await until(pilot, lambda: cfg.graphs is not before and cfg.drawing is not None and cfg.function is not None
                and not cfg.laying_out, "the pane showing the edited module")
    return cfg.graphs


async def test_editing_keeps_the_layout_of_blocks_and_edges_it_does_not_change():
    data = module_bytes(DIAMOND + OTHER)
    app = InspectorApp(Document(data, "module.spv"))
    async with app.run_test(size=(120, 40)) as pilot:
        cfg = app.screen.query_one(CfgView)
        editor = await open_editor(pilot, r"%o_early = OpLabel$")
        graphs = await shown_after_edit(pilot, cfg, None)
        other = cfg.function_id
        laid_out = cfg.drawing
        assert "%o_early" in laid_out.text()
        editor.insert("\nOpNop")  # one more instruction in the shown block: same blocks and edges
        await settled(pilot)
        graphs = await shown_after_edit(pilot, cfg, graphs)
        assert cfg.function_id == other
        assert (graphs.built, graphs.layouts) == (1, 0)
        assert cfg.drawing.boxes is laid_out.boxes
        early = cfg.drawing.boxes[cfg.block_id]
        assert cfg.function.block(cfg.block_id).name == "o_early"
        assert "3 instr" in cfg.drawing.rows[early.y + 2] and "2 instr" in laid_out.rows[early.y + 2]
        lines = app.screen.editing.edit_session.lines
        editor.move_cursor((next(k for k, line in enumerate(lines) if "%then = OpLabel" in line) - editor.first_line, 99))
        editor.insert("\nOpNop")  # in `main`: the pane follows there; `other` is left as it was
        await settled(pilot)
        graphs = await shown_after_edit(pilot, cfg, graphs)
        assert cfg.function_id != other and graphs.has_graph(other)
        assert graphs.built == 1, "only main is built again"
        assert graphs.drawing(other).boxes is laid_out.boxes and graphs.layouts == 1


def test_windows_on_a_huge_function_carried_across_edits(monkeypatch):
    from cfg_functions import chain

    from spvinspect.cfgview import graphs as graphs_module

    monkeypatch.setattr(graphs_module, "WINDOW_TILE", 40)  # small windows on a small function
    body = chain(60)

    def windowed(body: str, previous=None) -> FunctionGraphs:
        module = open_module(module_bytes(body))
        module.ensure_indexed()
        return FunctionGraphs(module, module_names(module), window_after=100, previous=previous)

    first = windowed(body)
    span = first.module.functions()[0]
    selected = span.first + 6 * 40 + 5
    window = first.span_at(selected).result_id
    drawn = first.drawing(window)
    assert drawn.exits and first.exits(window)
    listed = list_function(first.function(window), (), first.exits(window)).text()  # the `v` list says them too
    assert all(f"%{x.name}" in listed for x in first.exits(window))
    # An instruction more two windows before: this window moves down, untouched.
    earlier = body.replace("%x3 = OpLabel\n", "%x3 = OpLabel\nOpNop\n")
    second = windowed(earlier, previous=first)
    assert second.span_at(selected + 1).result_id == window
    assert second.drawing(window).rows == drawn.rows and (second.built, second.layouts) == (0, 0)
    fresh = windowed(earlier)
    fresh.span_at(selected + 1)
    assert second.function(window) == fresh.function(window) and second.exits(window) == fresh.exits(window)
    assert [r.edge for r in second.drawing(window).routes] == [r.edge for r in fresh.drawing(window).routes]
    # An instruction more in a block of the window: built again, the layout kept.
    block = second.function(window).block(second.function(window).blocks[3].id)
    inside = earlier.replace(f"%{block.name} = OpLabel\n", f"%{block.name} = OpLabel\nOpNop\n")
    third = windowed(inside, previous=second)
    assert third.span_at(selected + 1).result_id == window
    assert third.quick_drawing(window).boxes is drawn.boxes and (third.built, third.layouts) == (1, 0)


def test_window_bounds_found_across_long_blocks(monkeypatch):
    """The labels round a window are found from first words in array passes: long blocks
    (several scans' worth of instructions) give the bounds an instruction-by-instruction
    walk gives, wherever the selection is."""
    from cfg_functions import chain

    from spvinspect.cfgview import graphs as graphs_module

    monkeypatch.setattr(graphs_module, "WINDOW_TILE", 40)
    monkeypatch.setattr(graphs_module, "LABEL_SCAN", 8)
    long_block = "%x7 = OpLabel\n" + "OpNop\n" * 300
    body = chain(12).replace("%x7 = OpLabel\n", long_block).replace("%x2 = OpLabel\n", "%x2 = OpLabel\n" + "OpNop\n" * 90)
    module = open_module(module_bytes(body))
    module.ensure_indexed()
    graphs = FunctionGraphs(module, module_names(module), window_after=100)
    span = module.functions()[0]
    label = module.tables.opcodes.OpLabel
    labels = [k for k in range(span.first + 1, span.end) if module.opcode(k) == label]

    def after(index: int) -> int:
        return next((k for k in labels if k > index), max(index + 1, span.end))

    def start(index: int) -> int:
        return span.end if index >= span.end else max((k for k in labels if k <= index), default=span.first)

    for index in [*range(span.first, span.end + 2, 7), span.end - 1]:
        assert (graphs._label_after(span, index), graphs._block_start(span, index)) == (after(index), start(index))
    for index in range(span.first, span.end, 37):
        first, end = (lambda s: (s.first, s.end))(graphs.span_at(index))
        assert (first == span.first or module.opcode(first) == label) and (end == span.end or module.opcode(end) == label)
