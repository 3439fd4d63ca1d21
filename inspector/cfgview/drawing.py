"""The layered drawing of one function: boxes, routed edges with arrowheads, labels.

Textual-free. `draw_function` sizes every block's box from its text and the ports its
edges need, lets `layout.lay_out` (grandalf) place the boxes in layers, then routes
each edge on the character grid: down from a port on the bottom border of the upper
block, through the columns the layout kept free in the layers between, across the gap
above the lower block on a track of its own, and into an arrowhead over the lower
block. Edges drawn upwards (back edges) leave from the top border and end in `▲` under
their target; an edge from a block to itself loops beside it; the branch edges between
the same two blocks (switch cases with one target) share a line, their labels joined
(`2,-3`). Line styles tell edges apart without colour: back edges heavy, merge declarations dashed, continue
declarations dotted; the style class of each cell carries the theme colour.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import replace

from spvinspect.codec.cfg.graph import CASE, CONTINUE, DEFAULT, FALSE, MERGE, TRUE, Block, Edge, FunctionCFG
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.cfgview.layout import lay_out, upward_edges
from spvinspect.cfgview.model import Canvas, CfgDrawing, Cell, EdgeRoute, Exit, Rect, cell_styles, style_runs

UP, DOWN, LEFT, RIGHT = 1, 2, 4, 8
GLYPHS = {
    "light": "│─╭╮╰╯├┤┬┴┼",
    "heavy": "┃━┏┓┗┛┣┫┳┻╋",
    "dashed": "╎╌╭╮╰╯├┤┬┴┼",
    "dotted": "┊┈╭╮╰╯├┤┬┴┼",
}
"""Per line family: vertical, horizontal, the four corners, the five junctions."""
_SHAPES = (
    UP | DOWN, LEFT | RIGHT, DOWN | RIGHT, DOWN | LEFT, UP | RIGHT, UP | LEFT,
    UP | DOWN | RIGHT, UP | DOWN | LEFT, DOWN | LEFT | RIGHT, UP | LEFT | RIGHT, UP | DOWN | LEFT | RIGHT,
)
_GLYPH_INDEX = {shape: i for i, shape in enumerate(_SHAPES)} | {UP: 0, DOWN: 0, LEFT: 1, RIGHT: 1}
FAMILY = {"back-edge": "heavy", "merge-edge": "dashed", "continue-edge": "dotted"}
"""Line family of an edge style; every other style is drawn light."""
PRIORITY = {"merge-edge": 0, "continue-edge": 1, "back-edge": 3}
"""Which edge a shared cell shows (highest wins); branch edges rank 2."""
ARROWS = {UP: "▲", DOWN: "▼", LEFT: "◀", RIGHT: "▶"}
"""Arrowhead pointing in a direction."""
LABEL_STYLES = {TRUE: "true", FALSE: "false", CASE: "case-label", DEFAULT: "case-label"}
PROBLEM_WIDTH, PROBLEM_LINES = 30, 3
"""A problem is wrapped to this many columns and lines in its box; the drawing keeps
the full text in `CfgDrawing.problems`."""
NAME_WIDTH = 40
"""Longer block names are cut (with `…`) to keep boxes narrow; the list shows them whole."""
MIN_BOX_WIDTH = 9
BOX_BORDER = "╭╮╰╯─│"
UNREACHABLE_BORDER = "╭╮╰╯╌╎"


def edge_style(edge: Edge, back: bool) -> str:
    """The style class of an edge's line: its kind, or `back-edge` for a back edge."""
    if edge.kind == MERGE:
        return "merge-edge"
    if edge.kind == CONTINUE:
        return "continue-edge"
    if back:
        return "back-edge"
    return {TRUE: "true", FALSE: "false"}.get(edge.kind, "edge")


def edge_label(edge: Edge) -> str:
    """What is written where an edge leaves its block: `T`, `F`, the case value, `default`."""
    if edge.kind == TRUE:
        return "T"
    if edge.kind == FALSE:
        return "F"
    if edge.kind == CASE:
        return str(edge.value)
    if edge.kind == DEFAULT:
        return "default"
    return ""


def block_roles(function: FunctionCFG, block: Block) -> list[str]:
    """What a block is in the function's structure, in words."""
    roles = []
    if block.id == function.entry:
        roles.append("entry")
    if block.construct == "loop":
        roles.append("loop header")
    elif block.construct == "selection":
        roles.append("selection header")
    if block.id in function.merge_targets.values():
        roles.append("merge")
    if block.id in function.continue_targets.values():
        roles.append("continue")
    if block.id in function.unreachable:
        roles.append("unreachable")
    return roles


def block_problems(function: FunctionCFG, diagnostics: Iterable[Diagnostic]) -> dict[int, tuple[str, ...]]:
    """Block id → what is wrong with it: a missing terminator, and the diagnostics at a
    word inside it. A diagnostic at a block's OpLabel is about the block before (the
    label cut it short), whose missing terminator is already said."""
    problems: dict[int, list[str]] = {}
    for block in function.blocks:
        if not block.terminator:
            problems.setdefault(block.id, []).append("no terminator")
    labels = {b.offset for b in function.blocks}
    for diagnostic in diagnostics:
        word = diagnostic.word_offset
        if word is None or word in labels:
            continue
        for block in function.blocks:
            if block.offset <= word < block.end:
                problems.setdefault(block.id, []).append(diagnostic.message)
                break
    return {b: tuple(p) for b, p in problems.items()}


def box_lines(
    function: FunctionCFG, block: Block, problems: tuple[str, ...], hidden_edges: int = 0
) -> list[tuple[str, str]]:
    """The text inside a block's box, line by line, with the style of each line;
    `hidden_edges` (in a neighbourhood) counts its edges to blocks not drawn."""
    count = block.instruction_count
    info = f"{count} instr" + "".join(f" · {role}" for role in block_roles(function, block))
    if hidden_edges:
        info += f" · {hidden_edges} more edge{'s' if hidden_edges != 1 else ''}"
    name = f"%{block.name}"
    if len(name) > NAME_WIDTH:
        name = name[: NAME_WIDTH - 1] + "…"
    lines = [(name, "block-name"), (info, "block-info")]
    for problem in problems:
        wrapped = textwrap.wrap(
            f"⚠ {problem}", PROBLEM_WIDTH, subsequent_indent="  ", max_lines=PROBLEM_LINES, placeholder=" …"
        )
        lines += [(line, "problem") for line in wrapped]
    return lines


class _Ports:
    """The edges that meet each side of each box, and the column each one gets."""

    def __init__(self) -> None:
        self.sides: dict[tuple[int, str], list[int]] = {}

    def add(self, block_id: int, side: str, edge_index: int) -> None:
        self.sides.setdefault((block_id, side), []).append(edge_index)

    def edges(self, block_id: int, side: str) -> list[int]:
        return self.sides.get((block_id, side), [])


def draw_function(
    function: FunctionCFG,
    diagnostics: Iterable[Diagnostic] = (),
    only: Iterable[int] | None = None,
    exits: Sequence[Exit] = (),
) -> CfgDrawing:
    """The layered drawing of `function`, problems from `diagnostics` marked on their
    blocks. With `only` (block ids), a neighbourhood: just those blocks and the edges
    between them, each box saying how many of its edges lead out of it. `exits` (of a
    window on a function) are drawn to a stub each target, `→ %name` in a dashed box."""
    return _Drawer(function, block_problems(function, diagnostics), only, exits).draw()


def redrawn(
    drawing: CfgDrawing,
    before: FunctionCFG,
    problems_before: Iterable[Diagnostic],
    after: FunctionCFG,
    problems_after: Iterable[Diagnostic],
    exits_before: Sequence[Exit] = (),
    exits_after: Sequence[Exit] = (),
) -> CfgDrawing | None:
    """`drawing` (the layered drawing of `before`) as the drawing of `after`, the same
    function after an edit, without laying it out again: when the blocks, edges and
    structure are the same and every box's new text fits its box, only the boxes whose
    text changed are written again. None when it must be laid out afresh."""
    if drawing.kind != "graph" or not _same_structure(before, after):
        return None
    if [(x.edge.source, x.edge.target, x.edge.kind, x.edge.value, x.name) for x in exits_before] != [
        (x.edge.source, x.edge.target, x.edge.kind, x.edge.value, x.name) for x in exits_after
    ]:
        return None
    old_problems, new_problems = block_problems(before, problems_before), block_problems(after, problems_after)
    if old_problems.keys() != new_problems.keys():
        return None
    changed = {}
    for old, new in zip(before.blocks, after.blocks):
        lines = box_lines(after, new, new_problems.get(new.id, ()))
        if lines == box_lines(before, old, old_problems.get(old.id, ())):
            continue
        rect = drawing.boxes[new.id]
        if max(len(text) for text, _ in lines) + 4 > rect.width or len(lines) + 2 > rect.height:
            return None
        changed[new.id] = lines
    edges = after.edges + tuple(x.edge for x in exits_after if x.edge.is_branch)
    routes = tuple(replace(route, edge=edge) for route, edge in zip(drawing.routes, edges))
    if not changed:
        return replace(drawing, routes=routes, problems=new_problems)
    rows = list(drawing.rows)
    runs = list(drawing.runs)
    for block_id, lines in changed.items():
        rect = drawing.boxes[block_id]
        unreachable = block_id in after.unreachable
        for y in range(rect.y + 1, rect.bottom):
            k = y - rect.y - 1
            text, style = lines[k] if k < len(lines) else ("", "")
            if unreachable and style != "problem":
                style = "unreachable" if text else style
            inner = rect.width - 2
            cells = (" " + text).ljust(inner)
            row = rows[y]
            rows[y] = row[: rect.x + 1] + cells + row[rect.right :]
            styles = cell_styles(runs[y], len(row))
            styles[rect.x + 1 : rect.right] = [""] + [style] * len(text) + [""] * (inner - 1 - len(text))
            runs[y] = style_runs(styles)
    return replace(drawing, rows=tuple(rows), runs=tuple(runs), routes=routes, problems=new_problems)


def _same_structure(before: FunctionCFG, after: FunctionCFG) -> bool:
    """True when two graphs have the same blocks and edges, drawn the same way."""

    def edges(edges: Iterable[Edge]) -> list[tuple]:
        return [(e.source, e.target, e.kind, e.value) for e in edges]

    return (
        [b.id for b in before.blocks] == [b.id for b in after.blocks]
        and edges(before.edges) == edges(after.edges)
        and edges(before.back_edges) == edges(after.back_edges)
        and before.unreachable == after.unreachable
    )


class _Drawer:
    """One drawing in the making."""

    def __init__(
        self,
        function: FunctionCFG,
        problems: dict[int, tuple[str, ...]],
        only: Iterable[int] | None,
        exits: Sequence[Exit] = (),
    ) -> None:
        self.function = function
        kept = None if only is None else set(only)
        self.kind = "graph" if kept is None else "neighbourhood"
        self.blocks = [b for b in function.blocks if kept is None or b.id in kept]
        self.problems = {b: p for b, p in problems.items() if kept is None or b in kept}
        self.hidden: dict[int, int] = {}
        if kept is not None:
            for e in function.edges + tuple(x.edge for x in exits):
                for end, other in ((e.source, e.target), (e.target, e.source)):
                    if end in kept and other not in kept:
                        self.hidden[end] = self.hidden.get(end, 0) + 1
        stubbed = [x for x in exits if x.edge.is_branch] if kept is None else []
        self.stubs = {-x.edge.target: x.name for x in stubbed}
        """Stub id (the target's id, negated) → the target's name: one stub a target."""
        self.originals = function.edges + tuple(x.edge for x in stubbed)
        """The edges drawn, the function's then the exits: what each route is of."""
        edges = function.edges + tuple(x.edge._replace(target=-x.edge.target) for x in stubbed)
        self.drawn = [i for i, e in enumerate(function.edges) if kept is None or {e.source, e.target} <= kept]
        self.drawn += range(len(function.edges), len(edges))
        """Indexes of the edges drawn: all, or those inside the neighbourhood."""
        groups: dict[tuple, list[int]] = {}
        for i in self.drawn:
            e = edges[i]
            groups.setdefault((e.source, e.target) if e.is_branch else (e.source, e.target, e.kind), []).append(i)
        self.groups = list(groups.values())
        """Edges drawn as one line: the branch edges between the same two blocks (switch
        cases sharing a target, or both targets of a conditional), labelled together."""
        stub_blocks = tuple(Block(stub, name, -1, -1, -1, -1, "") for stub, name in self.stubs.items())
        shown = replace(function, blocks=tuple(self.blocks) + stub_blocks, edges=tuple(edges[g[0]] for g in self.groups))
        self.shown = shown
        self.edges = shown.edges
        """One edge per line (the first of its group); what is laid out and routed."""
        back = set(function.back_edges)
        self.upward = upward_edges(shown)
        self.labels = [",".join(filter(None, (edge_label(edges[i]) for i in g))) for g in self.groups]
        kinds = [{edges[i].kind for i in g} for g in self.groups]
        self.label_styles = [LABEL_STYLES.get(k.pop(), "case-label") if len(k) == 1 else "case-label" for k in kinds]
        self.styles = []
        for g in self.groups:
            styles = {edge_style(edges[i], edges[i] in back) for i in g}
            self.styles.append(styles.pop() if len(styles) == 1 else "back-edge" if "back-edge" in styles else "edge")

    # -- sizes ---------------------------------------------------------------------

    def _ends(self, i: int) -> tuple[int, int]:
        """(upper block, lower block) of an edge as laid out."""
        e = self.edges[i]
        return (e.target, e.source) if i in self.upward else (e.source, e.target)

    def _sizes(self) -> None:
        ports = self.ports = _Ports()
        self.loops: dict[int, dict[str, list[int]]] = {}
        for i, e in enumerate(self.edges):
            if e.source == e.target:
                side = "right" if e.is_branch else "left"
                self.loops.setdefault(e.source, {"right": [], "left": []})[side].append(i)
                continue
            upper, lower = self._ends(i)
            ports.add(upper, "bottom", i)
            ports.add(lower, "top", i)
        self.lines = {
            b.id: box_lines(self.function, b, self.problems.get(b.id, ()), self.hidden.get(b.id, 0)) for b in self.blocks
        }
        self.lines |= {stub: [(_stub_text(name), "block-name")] for stub, name in self.stubs.items()}
        self.box_width: dict[int, int] = {}
        self.box_height: dict[int, int] = {}
        self.extra: dict[int, tuple[int, int]] = {}
        for block in self.shown.blocks:
            b = block.id
            text = max(len(line) for line, _ in self.lines[b]) + 4
            need = [self._ports_width(ports.edges(b, side)) for side in ("bottom", "top")]
            self.box_width[b] = max(MIN_BOX_WIDTH, text, *need)
            loops = self.loops.get(b, {"right": [], "left": []})
            self.box_height[b] = max(len(self.lines[b]) + 2, 2 * max(map(len, loops.values())) + 2)
            label = max((len(self.labels[i]) for i in loops["right"]), default=0)
            right = 2 * len(loops["right"]) + label + (1 if loops["right"] else 0)
            self.extra[b] = (2 * len(loops["left"]) + (1 if loops["left"] else 0), right)

    def _ports_width(self, edges: list[int]) -> int:
        """Columns a border needs for these ports, each with its label and a space."""
        return sum(2 + len(self.labels[i]) for i in edges) + 3

    # -- the whole drawing ---------------------------------------------------------

    def draw(self) -> CfgDrawing:
        self._sizes()
        slots = {b: self.box_width[b] + sum(self.extra[b]) for b in self.box_width}
        layering = lay_out(self.shown, slots, self.box_height, self.upward)
        self.layering = layering
        left = {b: layering.left[b] + self.extra[b][0] for b in slots}
        self._place_ports(left)
        jogs = self._jogs()
        band_height = [1] * layering.layers
        for b, r in layering.rank.items():
            band_height[r] = max(band_height[r], self.box_height[b])
        tracks = self._tracks(jogs)
        tops: list[int] = []
        y = 0
        for r in range(layering.layers):
            tops.append(y)
            y += band_height[r] + 2 + len(set(tracks.get(r, {}).values()))
        height = y - 2 if layering.layers else 0
        self.gap_top = [tops[r] + band_height[r] for r in range(layering.layers)]
        self.rects = {b: Rect(left[b], tops[layering.rank[b]], self.box_width[b], self.box_height[b]) for b in slots}
        width = max([layering.width] + [rect.right + 1 + self.extra[b][1] for b, rect in self.rects.items()])
        canvas = Canvas(width, max(height, max((r.bottom + 1 for r in self.rects.values()), default=0)))
        lines = [self._route(i, tracks) for i in range(len(self.edges))]
        for b, rect in self.rects.items():
            self._draw_box(canvas, b, rect)
        self._draw_routes(canvas, lines)
        routes: dict[int, EdgeRoute] = {}
        for line, group in zip(lines, self.groups):
            for i in group:
                routes[i] = EdgeRoute(self.originals[i], line.cells, line.style, line.label)
        return canvas.finish(
            self.function.id,
            self.kind,
            boxes={b: rect for b, rect in self.rects.items() if b not in self.stubs},
            routes=tuple(routes[i] for i in self.drawn),
            problems=self.problems,
            exits={-stub: self.rects[stub] for stub in self.stubs},
        )

    def _place_ports(self, left: dict[int, int]) -> None:
        """The column of every port: as near as the border allows to where the line goes
        next (bottom ports first, then top ports under the lines coming down), so that
        most lines run straight, each port far enough from the next for its label."""
        self.port_x: dict[tuple[int, str], int] = {}
        layering = self.layering
        for side in ("bottom", "top"):
            step = 1 if side == "bottom" else -1
            for (b, s), edges in self.ports.sides.items():
                if s != side:
                    continue

                def ideal(i: int) -> float:
                    passing = layering.through.get(i, {}).get(layering.rank[b] + step)
                    if passing is not None:
                        return passing
                    if side == "top":
                        return self.port_x[(i, "bottom")]
                    lower = self._ends(i)[1]
                    return left[lower] + self.box_width[lower] // 2

                ordered = sorted(edges, key=lambda i: (ideal(i), i))
                lowest, highest = left[b] + 2, left[b] + self.box_width[b] - 3
                xs = []
                for i in ordered:
                    floor = xs[-1] + 2 + len(self.labels[ordered[len(xs) - 1]]) if xs else lowest
                    xs.append(max(floor, round(ideal(i))))
                ceiling = highest
                for k in range(len(ordered) - 1, -1, -1):
                    xs[k] = min(xs[k], ceiling - len(self.labels[ordered[k]]))
                    ceiling = xs[k] - 2
                for i, x in zip(ordered, xs):
                    self.port_x[(i, side)] = x

    def _columns(self, i: int) -> list[tuple[int, int]]:
        """(layer, column) of an edge's points from its upper end to its lower end."""
        upper, lower = self._ends(i)
        r0, r1 = self.layering.rank[upper], self.layering.rank[lower]
        through = self.layering.through.get(i, {})
        return [(r0, self.port_x[(i, "bottom")])] + [(r, through[r]) for r in range(r0 + 1, r1)] + [
            (r1, self.port_x[(i, "top")])
        ]

    def _jogs(self) -> dict[int, list[tuple[int, int, int]]]:
        """Per gap (the layer above it): the sideways moves (from column, to column, line)
        made in it."""
        jogs: dict[int, list[tuple[int, int, int]]] = {}
        for i, e in enumerate(self.edges):
            if e.source == e.target:
                continue
            points = self._columns(i)
            for (r, xa), (_, xb) in zip(points, points[1:]):
                if xa != xb:
                    jogs.setdefault(r, []).append((xa, xb, i))
        return jogs

    @staticmethod
    def _tracks(jogs: dict[int, list[tuple[int, int, int]]]) -> dict[int, dict[int, int]]:
        """Per gap: line → the row (0 = first below the starts) of its sideways move.

        Moves that overlap (or touch) go on different rows. A move that starts in the
        column where another ends goes on a higher row than that one, else both would
        run down the same cells between their rows."""
        tracks: dict[int, dict[int, int]] = {}
        for r, moves in jogs.items():
            starting = {xa: i for xa, _, i in moves}
            above = {i: starting.get(xb) for _, xb, i in moves}
            span = {i: (min(xa, xb), max(xa, xb)) for xa, xb, i in moves}
            rows: list[list[tuple[int, int]]] = []
            chosen = tracks[r] = {}

            def place(i: int, seen: frozenset[int] = frozenset()) -> int:
                if i in chosen:
                    return chosen[i]
                first = above[i]
                floor = 0
                if first is not None and first not in seen:
                    floor = place(first, seen | {i}) + 1
                low, high = span[i]
                t = floor
                while t < len(rows) and any(low <= h + 1 and l - 1 <= high for l, h in rows[t]):
                    t += 1
                if t == len(rows):
                    rows.append([])
                rows[t].append((low, high))
                chosen[i] = t
                return t

            for i in sorted(span, key=lambda i: (span[i], i)):
                place(i)
        return tracks

    # -- routes --------------------------------------------------------------------

    def _route(self, i: int, tracks: dict[int, dict[int, int]]) -> EdgeRoute:
        edge = self.edges[i]
        if edge.source == edge.target:
            cells = self._loop_cells(i)
        else:
            points = self._columns(i)
            upper, lower = self._ends(i)
            corners = [(points[0][1], self.rects[upper].bottom + 1)]
            for (r, xa), (_, xb) in zip(points, points[1:]):
                if xa != xb:
                    row = self.gap_top[r] + 1 + tracks[r][i]
                    corners += [(xa, row), (xb, row)]
            corners.append((points[-1][1], self.rects[lower].y - 1))
            cells = _raster(corners)
            if i in self.upward:
                cells.reverse()
        return EdgeRoute(edge, tuple(cells), self.styles[i], self.labels[i])

    def _loop_cells(self, i: int) -> list[Cell]:
        """A loop beside the block: out of one side on an upper row, round, and back in on
        a lower row. The k-th loop of a side wraps round the ones before it."""
        edge = self.edges[i]
        rect = self.rects[edge.source]
        side = "right" if edge.is_branch else "left"
        loops = self.loops[edge.source][side]
        k = loops.index(i)
        n = len(loops)
        out_row, back_row = rect.y + 1 + (n - 1 - k), rect.y + 2 * n - (n - 1 - k)
        if side == "right":
            label = max(len(self.labels[j]) for j in loops)
            column = rect.right + 2 + label + 2 * k
            start, step = rect.right + 1, 1
        else:
            column = rect.x - 2 - 2 * k
            start, step = rect.x - 1, -1
        return _raster([(start, out_row), (column, out_row), (column, back_row), (start, back_row)])

    # -- painting ------------------------------------------------------------------

    def _draw_box(self, canvas: Canvas, b: int, rect: Rect) -> None:
        function = self.function
        unreachable = b in function.unreachable
        border_style = "problem" if b in self.problems else "unreachable" if unreachable else "box"
        tl, tr, bl, br, h, v = UNREACHABLE_BORDER if unreachable or b in self.stubs else BOX_BORDER
        inner = rect.width - 2
        canvas.write(rect.x, rect.y, tl + h * inner + tr, border_style)
        canvas.write(rect.x, rect.bottom, bl + h * inner + br, border_style)
        for y in range(rect.y + 1, rect.bottom):
            canvas.put(rect.x, y, v, border_style)
            canvas.write(rect.x + 1, y, " " * inner, "")
            canvas.put(rect.right, y, v, border_style)
        for row, (text, style) in enumerate(self.lines[b]):
            canvas.write(rect.x + 2, rect.y + 1 + row, text, "unreachable" if unreachable and style != "problem" else style)

    def _draw_routes(self, canvas: Canvas, routes: list[EdgeRoute]) -> None:
        bits: dict[Cell, int] = {}
        owner: dict[Cell, int] = {}
        order = sorted(range(len(routes)), key=lambda i: (PRIORITY.get(routes[i].style, 2), i))
        for i in order:
            cells = routes[i].cells
            edge = routes[i].edge
            source = self.rects[edge.source]
            for k, cell in enumerate(cells[:-1]):
                before = cells[k - 1] if k else _border_cell(source, cell)
                bits[cell] = bits.get(cell, 0) | _toward(cell, before) | _toward(cell, cells[k + 1])
                owner[cell] = i
        for cell, shape in bits.items():
            style = routes[owner[cell]].style
            canvas.put(*cell, GLYPHS[FAMILY.get(style, "light")][_GLYPH_INDEX[shape]], style)
        for i in order:
            route = routes[i]
            cells, edge = route.cells, route.edge
            target, source = self.rects[edge.target], self.rects[edge.source]
            canvas.put(*cells[-1], ARROWS[_toward(cells[-1], _border_cell(target, cells[-1]))], route.style)
            port = _border_cell(source, cells[0])
            direction = _toward(port, cells[0])
            canvas.put(*port, {DOWN: "┬", UP: "┴", RIGHT: "├", LEFT: "┤"}[direction], route.style)
            if route.label:
                x, y = port
                canvas.write(x + 1, y, route.label, self.label_styles[i])


def _stub_text(name: str) -> str:
    """What a stub says: where the edge goes, a block outside the window."""
    text = f"→ %{name}"
    return text if len(text) <= NAME_WIDTH else text[: NAME_WIDTH - 1] + "…"


def _toward(cell: Cell, other: Cell) -> int:
    """The direction from `cell` to the neighbouring `other`."""
    dx, dy = other[0] - cell[0], other[1] - cell[1]
    if dx:
        return RIGHT if dx > 0 else LEFT
    return DOWN if dy > 0 else UP


def _border_cell(rect: Rect, beside: Cell) -> Cell:
    """The cell of the box's border next to `beside` (a cell touching the box)."""
    x, y = beside
    if y < rect.y:
        return (x, rect.y)
    if y > rect.bottom:
        return (x, rect.bottom)
    return (rect.x, y) if x < rect.x else (rect.right, y)


def _raster(corners: list[Cell]) -> list[Cell]:
    """The cells of a polyline of horizontal and vertical pieces, corners once each."""
    cells = [corners[0]]
    for (x0, y0), (x1, y1) in zip(corners, corners[1:]):
        while (x0, y0) != (x1, y1):
            if x0 != x1:
                x0 += 1 if x1 > x0 else -1
            else:
                y0 += 1 if y1 > y0 else -1
            cells.append((x0, y0))
    return cells
