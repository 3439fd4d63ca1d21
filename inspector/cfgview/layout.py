"""A layered (Sugiyama) layout of a function's blocks with grandalf, in grid cells.

grandalf ranks the blocks into layers, orders each layer to cut crossings and places
every block (and a dummy point for each layer a long edge crosses) on the x axis. It
is given the codec's back edges as the edges to invert, so loop headers stay above
their bodies; any other edge that still closes a cycle (irreducible flow, a merge or
continue declaration pointing up) is found by a depth-first search in block order.
Components are built by hand, vertices and edges in the codec's order: grandalf's own
`Graph` collects edges through a `set`, whose order changes from run to run, and the
same function must always be laid out the same way.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from grandalf.graphs import Edge as LayoutEdge
from grandalf.graphs import Vertex, graph_core

from spvinspect.codec.cfg.graph import FunctionCFG


def _without_numpy():
    """grandalf.layouts, imported with numpy out of reach unless something loaded it
    already: its geometry module takes numpy when it can, for what this layout never calls
    (Digco layouts, edge curves; its pure-Python vectors stand in), and importing numpy
    would cost every launch that draws a CFG a tenth of a second."""
    if "numpy" in sys.modules or "grandalf.layouts" in sys.modules:
        import grandalf.layouts
    else:
        sys.modules["numpy"] = None  # `import numpy` raises ImportError meanwhile
        try:
            import grandalf.layouts
        finally:
            if sys.modules.get("numpy", 0) is None:
                del sys.modules["numpy"]
    return grandalf.layouts


_layouts = _without_numpy()
DummyVertex, SugiyamaLayout = _layouts.DummyVertex, _layouts.SugiyamaLayout

COLUMN_GAP = 3
"""Columns kept free between two neighbours in a layer (blocks or edges passing by)."""
COMPONENT_GAP = 4
"""Columns between the drawings of disconnected parts of the function."""
ORDERING_ROUNDS = 1.5
"""grandalf's `draw(N)`: down-and-up ordering sweeps against crossings."""


class _View:
    """What grandalf reads and writes on a vertex: its size and its centre."""

    __slots__ = ("w", "h", "xy")

    def __init__(self, w: float, h: float) -> None:
        self.w, self.h, self.xy = w, h, (0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Layering:
    """Where the layout puts things: a layer and a left column per block, and for
    every edge (by its index in `FunctionCFG.edges`) the column it crosses each
    layer between its ends at."""

    rank: dict[int, int]
    """Block id → layer, 0 at the top."""
    left: dict[int, int]
    """Block id → the leftmost column of its slot (the width it was laid out with)."""
    through: dict[int, dict[int, int]]
    """Edge index → {layer: column} for the layers the edge passes between its ends."""
    layers: int
    width: int
    """Columns the whole layout spans."""


def upward_edges(function: FunctionCFG) -> frozenset[int]:
    """Indexes of the edges to draw upwards: the back edges, and whatever else closes a
    cycle once they are turned around."""
    edges = function.edges
    back = set(function.back_edges)
    flipped = {i for i, e in enumerate(edges) if e in back}
    out: dict[int, list[tuple[int, int]]] = {b.id: [] for b in function.blocks}
    for i, e in enumerate(edges):
        if e.source == e.target:
            continue
        head, tail = (e.target, e.source) if i in flipped else (e.source, e.target)
        out[head].append((tail, i))
    state: dict[int, int] = {}  # 1 on the stack, 2 done
    for root in [function.entry] + [b.id for b in function.blocks]:
        if root in state or root not in out:
            continue
        state[root] = 1
        stack = [(root, iter(out[root]))]
        while stack:
            node, successors = stack[-1]
            for tail, i in successors:
                seen = state.get(tail)
                if seen == 1:
                    flipped ^= {i}
                elif seen is None:
                    state[tail] = 1
                    stack.append((tail, iter(out[tail])))
                    break
            else:
                state[node] = 2
                stack.pop()
    return frozenset(flipped)


def lay_out(
    function: FunctionCFG, widths: dict[int, int], heights: dict[int, int], upward: frozenset[int]
) -> Layering:
    """Lay out `function` with each block's slot `widths[id]` columns wide, the edges
    `upward` (see `upward_edges`) turned round."""
    edges = function.edges
    vertices = {b.id: Vertex(b.id) for b in function.blocks}
    for block_id, vertex in vertices.items():
        vertex.view = _View(widths[block_id], heights[block_id])
    layout_edges: dict[int, LayoutEdge] = {}
    for i, e in enumerate(edges):
        if e.source != e.target:
            layout_edges[i] = LayoutEdge(vertices[e.source], vertices[e.target])
    rank: dict[int, int] = {}
    left: dict[int, int] = {}
    through: dict[int, dict[int, int]] = {}
    offset = 0
    layers = 0
    for members, member_edges in _components(function, layout_edges):
        core = graph_core([vertices[b] for b in members], [layout_edges[i] for i in member_edges])
        sugiyama = SugiyamaLayout(core)
        sugiyama.xspace = COLUMN_GAP
        sugiyama.yspace = 1
        sugiyama.dw, sugiyama.dh = 1, 1
        roots = [vertices[function.entry]] if function.entry in members else []
        sugiyama.init_all(roots=roots, inverted_edges=[layout_edges[i] for i in member_edges if i in upward])
        sugiyama.draw(ORDERING_ROUNDS)
        _keep_apart(sugiyama)
        lefts = {b: vertices[b].view.xy[0] - widths[b] / 2 for b in members}
        dummies = {
            i: {r: d.view.xy[0] for r, d in sugiyama.ctrls[layout_edges[i]].items() if isinstance(d, DummyVertex)}
            for i in member_edges
            if layout_edges[i] in sugiyama.ctrls
        }
        low = min([*lefts.values(), *(x for d in dummies.values() for x in d.values())])
        for b in members:
            rank[b] = sugiyama.grx[vertices[b]].rank
            left[b] = offset + round(lefts[b] - low)
            layers = max(layers, rank[b] + 1)
        for i, columns in dummies.items():
            through[i] = {r: offset + round(x - low) for r, x in columns.items()}
        right = max([left[b] + widths[b] for b in members] + [through[i][r] + 1 for i in dummies for r in through[i]])
        offset = right + COMPONENT_GAP
    return Layering(rank, left, through, layers, max(0, offset - COMPONENT_GAP))


def _keep_apart(sugiyama: SugiyamaLayout) -> None:
    """Push apart, left to right, neighbours in a layer that came out closer than
    `COLUMN_GAP`: grandalf averages four placements at the end, and with blocks of
    different widths the average can overlap them."""
    for layer in sugiyama.layers:
        right = None
        for vertex in sorted(layer, key=lambda v: v.view.xy[0]):
            x, y = vertex.view.xy
            half = vertex.view.w / 2
            if right is not None and x - half < right + COLUMN_GAP:
                x = right + COLUMN_GAP + half
                vertex.view.xy = (x, y)
            right = x + half


def _components(function: FunctionCFG, layout_edges: dict[int, LayoutEdge]) -> list[tuple[list[int], list[int]]]:
    """The connected parts of the graph: (block ids, edge indexes), in the codec's order."""
    parent = {b.id: b.id for b in function.blocks}

    def find(b: int) -> int:
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        return b

    for i in layout_edges:
        e = function.edges[i]
        parent[find(e.source)] = find(e.target)
    groups: dict[int, tuple[list[int], list[int]]] = {}
    for b in function.blocks:
        groups.setdefault(find(b.id), ([], []))[0].append(b.id)
    for i in layout_edges:
        groups[find(function.edges[i].source)][1].append(i)
    return list(groups.values())
