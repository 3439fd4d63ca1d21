"""The CFG drawing (inspector/cfgview), checked through its own model of boxes and edge
routes: every block of the codec's graph has a box, every edge a route that leaves its
source box, runs cell by cell around the other boxes and ends in an arrowhead pointing
into its target box, with its condition written where it leaves."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cfg_functions import (
    BRANCH_TO_VALUE,
    DIAMOND,
    NESTED_LOOPS,
    NO_TERMINATOR,
    SELF_LOOP,
    SWITCH,
    UNREACHABLE,
    chain,
    graphs_of,
    main_id,
)
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.cfg.graph import CONTINUE, MERGE, FunctionCFG
from spvinspect.codec.text.names import module_names
from spvinspect.cfgview.block_list import list_function
from spvinspect.cfgview.drawing import ARROWS, DOWN, GLYPHS, LEFT, RIGHT, UP, draw_function
from spvinspect.cfgview.graphs import FunctionGraphs
from spvinspect.cfgview.model import CfgDrawing, Rect
from spvinspect.cfgview.navigation import neighbourhood

HAND_WRITTEN = {
    "diamond": DIAMOND,
    "nested loops with continue": NESTED_LOOPS,
    "switch with fallthrough": SWITCH,
    "unreachable block": UNREACHABLE,
    "self-loop": SELF_LOOP,
    "no terminator": NO_TERMINATOR,
    "branch to a non-label": BRANCH_TO_VALUE,
    "twenty constructs in a row": chain(20),
}


def drawn(body: str) -> tuple[FunctionCFG, CfgDrawing]:
    graphs = graphs_of(body)
    function_id = main_id(graphs)
    return graphs.function(function_id), graphs.drawing(function_id)


def block_named(function: FunctionCFG, name: str) -> int:
    return next(b.id for b in function.blocks if b.name == name)


def arrow_into(rect: Rect, cell: tuple[int, int]) -> str:
    """The arrowhead that, at `cell` beside `rect`, points into it."""
    x, y = cell
    if y < rect.y:
        return ARROWS[DOWN]
    if y > rect.bottom:
        return ARROWS[UP]
    return ARROWS[RIGHT] if x < rect.x else ARROWS[LEFT]


def box_text(drawing: CfgDrawing, rect: Rect) -> str:
    return "\n".join(drawing.rows[y][rect.x : rect.right + 1] for y in range(rect.y, rect.bottom + 1))


def check_drawing(function: FunctionCFG, drawing: CfgDrawing, only: list[int] | None = None) -> None:
    """Every block (of `only`, for a neighbourhood) boxed once, boxes apart; every edge
    between them routed from its source box to an arrowhead into its target box, never
    through a box; no two lines run along the same cells (edges drawn as one line,
    switch cases with one target, share all of theirs)."""
    blocks = {b.id for b in function.blocks} if only is None else set(only)
    assert set(drawing.boxes) == blocks
    rects = list(drawing.boxes.values())
    for i, a in enumerate(rects):
        for b in rects[i + 1 :]:
            apart = a.right < b.x or b.right < a.x or a.bottom < b.y or b.bottom < a.y
            assert apart, f"boxes {a} and {b} overlap"
    for block_id in blocks:
        assert f"%{function.block(block_id).name}" in box_text(drawing, drawing.boxes[block_id])
    assert [route.edge for route in drawing.routes] == [e for e in function.edges if {e.source, e.target} <= blocks]
    for route in drawing.routes:
        source, target = drawing.boxes[route.edge.source], drawing.boxes[route.edge.target]
        cells = route.cells
        assert len(cells) >= 2
        assert source.touches(*cells[0]), f"{route.edge} does not leave its source box"
        assert target.touches(*cells[-1]), f"{route.edge} does not end beside its target box"
        for (x0, y0), (x1, y1) in zip(cells, cells[1:]):
            assert abs(x0 - x1) + abs(y0 - y1) == 1, f"{route.edge} jumps from {(x0, y0)} to {(x1, y1)}"
        for cell in cells:
            assert not any(rect.contains(*cell) for rect in rects), f"{route.edge} runs through a box at {cell}"
        x, y = route.arrowhead
        assert drawing.rows[y][x] == arrow_into(target, route.arrowhead)
        assert drawing.style_at(x, y) == route.style
    lines = {}
    for route in drawing.routes:
        lines.setdefault(route.cells, []).append(route)
    runs: dict = {}
    for cells, shared in lines.items():
        for a, b in zip(cells, cells[1:]):
            runs.setdefault(frozenset((a, b)), []).append(shared[0].edge)
    for step, edges in runs.items():
        assert len(edges) == 1, f"{edges} run along the same cells at {sorted(step)}"


@pytest.mark.parametrize("body", HAND_WRITTEN.values(), ids=HAND_WRITTEN.keys())
def test_every_block_and_edge_is_drawn(body):
    function, drawing = drawn(body)
    check_drawing(function, drawing)


@pytest.mark.parametrize("body", HAND_WRITTEN.values(), ids=HAND_WRITTEN.keys())
def test_conditions_are_written_where_edges_leave(body):
    function, drawing = drawn(body)
    for route in drawing.routes:
        expected = {"true": "T", "false": "F", "default": "default"}.get(route.edge.kind)
        if route.edge.kind == "case":
            expected = str(route.edge.value)
        if expected is None:
            assert route.label == "" or route.edge.kind == "branch"
        else:
            assert expected in route.label.split(","), f"{route.edge} is not labelled {expected}"
        if route.label:
            x, y = route.cells[0]
            source = drawing.boxes[route.edge.source]
            port = (x, source.y if y < source.y else source.bottom) if not source.y <= y <= source.bottom else (source.right, y)
            text = drawing.rows[port[1]][port[0] + 1 : port[0] + 1 + len(route.label)]
            assert text == route.label


def test_switch_cases_sharing_a_target_share_a_line():
    function, drawing = drawn(SWITCH)
    labels = {r.edge.value if r.edge.kind == "case" else "default": r.label for r in drawing.routes if r.edge.kind in ("case", "default")}
    assert labels == {"default": "default", 1: "1", 2: "2,-3", -3: "2,-3"}
    second = block_named(function, "second")
    into_second = [r for r in drawing.routes if r.edge.target == second and r.edge.is_branch]
    assert len(into_second) == 3, "two cases and the fallthrough from case 1 reach %second"
    assert len({r.arrowhead for r in into_second}) == 2, "one line for the two cases, one for the fallthrough"
    entry = drawing.boxes[function.entry]
    assert "┬2,-3" in drawing.rows[entry.bottom]


def test_loop_headers_stay_above_their_bodies():
    function, drawing = drawn(NESTED_LOOPS)
    assert len(function.back_edges) == 2
    for edge in function.back_edges:
        header, latch = drawing.boxes[edge.target], drawing.boxes[edge.source]
        assert header.bottom < latch.y
        route = next(r for r in drawing.routes if r.edge == edge)
        assert route.style == "back-edge"
        assert drawing.rows[route.arrowhead[1]][route.arrowhead[0]] == "▲"
    outer, inner = block_named(function, "outer"), block_named(function, "inner")
    assert drawing.boxes[outer].bottom < drawing.boxes[inner].y


def test_edge_kinds_look_different():
    function, drawing = drawn(NESTED_LOOPS)
    families = {"back-edge": GLYPHS["heavy"], "merge-edge": GLYPHS["dashed"], "continue-edge": GLYPHS["dotted"]}
    for route in drawing.routes:
        expected = {MERGE: "merge-edge", CONTINUE: "continue-edge"}.get(route.edge.kind)
        if route.edge in function.back_edges:
            expected = "back-edge"
        if expected is not None:
            assert route.style == expected
    for style, glyphs in families.items():
        straight = glyphs[:2]
        cells = [(x, y) for y in range(drawing.height) for x in range(drawing.width) if drawing.style_at(x, y) == style]
        assert cells, f"no {style} is drawn"
        assert any(drawing.rows[y][x] in straight for x, y in cells)
        assert all(drawing.rows[y][x] in glyphs + "▲▼◀▶┬┴├┤" for x, y in cells)


def test_roles_are_in_the_boxes():
    function, drawing = drawn(NESTED_LOOPS)
    text = {b.name: box_text(drawing, drawing.boxes[b.id]) for b in function.blocks}
    assert "loop header" in text["outer"] and "loop header" in text["inner"]
    assert "selection header" in text["body"]
    assert "continue" in text["inner_continue"] and "continue" in text["outer_continue"]
    assert "merge" in text["inner_merge"] and "merge" in text["join"]
    assert "entry" in text["entry"]
    assert "3 instr" in text["outer"]


def test_unreachable_block_is_marked():
    function, drawing = drawn(UNREACHABLE)
    dead = block_named(function, "dead")
    assert function.unreachable == {dead}
    rect = drawing.boxes[dead]
    assert "unreachable" in box_text(drawing, rect)
    assert drawing.style_at(rect.x, rect.y) == "unreachable"
    assert drawing.rows[rect.y + 1][rect.x] == "╎", "an unreachable block's box is dashed"


def test_self_loop_goes_round_its_block():
    function, drawing = drawn(SELF_LOOP)
    spin = block_named(function, "spin")
    loops = [r for r in drawing.routes if r.edge.source == r.edge.target == spin]
    assert {r.edge.kind for r in loops} == {"true", "continue"}
    rect = drawing.boxes[spin]
    for route in loops:
        assert all(not rect.contains(*c) for c in route.cells)
        assert rect.y < route.cells[0][1] < rect.bottom and rect.y < route.arrowhead[1] < rect.bottom
    assert len({c for r in loops for c in r.cells}) == sum(len(r.cells) for r in loops), "the loops do not share cells"


def test_block_without_terminator_is_marked():
    function, drawing = drawn(NO_TERMINATOR)
    open_block = block_named(function, "open")
    assert drawing.problems[open_block] == ("no terminator",)
    rect = drawing.boxes[open_block]
    assert "⚠ no terminator" in box_text(drawing, rect)
    assert drawing.style_at(rect.x, rect.y) == "problem"
    assert len(drawing.problems) == 1, "the diagnostic at the next label is not blamed on it"


def test_branch_to_a_non_label_draws_the_rest():
    function, drawing = drawn(BRANCH_TO_VALUE)
    entry = function.entry
    (problem,) = drawing.problems[entry]
    assert "is not a label" in problem
    assert [r.edge.kind for r in drawing.routes] == ["true"]
    assert "⚠" in box_text(drawing, drawing.boxes[entry])


def test_list_has_a_line_per_block_with_its_successors():
    function, _ = drawn(NESTED_LOOPS)
    listed = list_function(function)
    assert listed.kind == "list" and listed.height == len(function.blocks)
    names = {b.id: b.name for b in function.blocks}
    for block in function.blocks:
        rect = listed.boxes[block.id]
        line = listed.rows[rect.y]
        assert line.startswith(f"%{block.name} ")
        for edge in function.edges:
            if edge.source == block.id:
                assert f"%{names[edge.target]}" in line
    outer_continue = listed.boxes[block_named(function, "outer_continue")].y
    assert "T:%outer" in listed.rows[outer_continue]


def test_neighbourhood_draws_the_blocks_near_one():
    function, _ = drawn(NESTED_LOOPS)
    body = block_named(function, "body")
    near = neighbourhood(function, body, radius=1)
    assert {function.block(b).name for b in near} == {"body", "inner", "early", "join"}
    drawing = draw_function(function, (), near)
    assert drawing.kind == "neighbourhood" and set(drawing.boxes) == set(near)
    check_drawing(function, drawing, near)
    inner = box_text(drawing, drawing.boxes[block_named(function, "inner")])
    assert "loop header · 5 more edges" in inner, "its merge, continue, back and false edges, and the one from %outer"


def test_drawings_are_kept():
    graphs = graphs_of(DIAMOND)
    function_id = main_id(graphs)
    assert graphs.cached_drawing(function_id) is None
    drawing = graphs.drawing(function_id)
    assert graphs.cached_drawing(function_id) is drawing
    assert graphs.drawing(function_id) is drawing and graphs.quick_drawing(function_id) is drawing


def test_the_same_function_always_draws_the_same(tmp_path):
    text = drawn(NESTED_LOOPS)[1].text()
    assert drawn(NESTED_LOOPS)[1].text() == text
    script = tmp_path / "draw.py"
    script.write_text(
        "import sys\nsys.path[:0] = sys.argv[1:]\n"
        "from cfg_functions import NESTED_LOOPS, graphs_of, main_id\n"
        "g = graphs_of(NESTED_LOOPS)\nprint(g.drawing(main_id(g)).text())\n"
    )
    here = Path(__file__).parent
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, str(script), str(here), str(here.parent)], capture_output=True, text=True,
                         env=env, check=True)
    assert out.stdout.rstrip("\n") == text


def corpus_modules(limit: int) -> list[Path]:
    root = os.environ.get("SPVINSPECT_CORPUS")
    if not root:
        return []
    return sorted(Path(root).rglob("*.spv"))[:limit]


@pytest.mark.parametrize("path", corpus_modules(40), ids=lambda p: p.name)
def test_corpus_functions_draw_every_block_and_edge(path):
    module = open_module(path.read_bytes())
    module.ensure_indexed()
    graphs = FunctionGraphs(module, module_names(module))
    for span in module.functions():
        function = graphs.function(span.result_id)
        if function is None or len(function.blocks) > 60:
            continue
        check_drawing(function, draw_function(function, graphs.diagnostics(span.result_id)))
