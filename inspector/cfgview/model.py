"""What a drawn control-flow graph is made of: boxes, edge routes and a grid of styled cells.

Textual-free. A drawing keeps its own model next to its characters, so that the pane
can find the block under a cell or the rectangle of a block, and tests can check that
every block and every edge of the codec's graph is drawn (and where) without reading
the characters back.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field
from typing import NamedTuple

from spvinspect.codec.cfg.graph import Edge

Cell = tuple[int, int]
"""(x, y): column and row of the grid."""


class Rect(NamedTuple):
    """A block's box on the grid: its border included."""

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        """The column of the right border."""
        return self.x + self.width - 1

    @property
    def bottom(self) -> int:
        """The row of the bottom border."""
        return self.y + self.height - 1

    def contains(self, x: int, y: int) -> bool:
        """True when the cell is on the box or inside it."""
        return self.x <= x <= self.right and self.y <= y <= self.bottom

    def touches(self, x: int, y: int) -> bool:
        """True when the cell is outside the box, next to its border (not diagonally)."""
        if self.contains(x, y):
            return False
        beside = self.y <= y <= self.bottom and x in (self.x - 1, self.right + 1)
        above_or_below = self.x <= x <= self.right and y in (self.y - 1, self.bottom + 1)
        return beside or above_or_below


@dataclass(frozen=True, slots=True)
class EdgeRoute:
    """How one codec edge is drawn: the cells of its line, from beside the source box to
    the arrowhead beside the target box, and the label written on the source's border."""

    edge: Edge
    cells: tuple[Cell, ...]
    """Four-connected; the first touches the source box, the last is the arrowhead."""
    style: str
    """The edge's style class (`edge`, `back-edge`, `merge-edge`, `continue-edge`, …)."""
    label: str = ""
    """`T`, `F`, a case value or `default`, written where the line leaves; the branch
    edges between the same two blocks share a line, and their labels join with commas
    (`1,8,default`). Empty for plain, merge and continue edges."""

    @property
    def arrowhead(self) -> Cell:
        """The cell of the arrowhead, beside the target box."""
        return self.cells[-1]


class Exit(NamedTuple):
    """An edge leaving a window on a function, to a block outside it, and that block's name."""

    edge: Edge
    name: str


@dataclass(frozen=True, slots=True)
class CfgDrawing:
    """A function's graph drawn on a grid of characters, each with a style class.

    Rows are kept as strings and their styles as runs, so a drawing costs about two
    bytes a cell (a big function's drawing has millions of cells)."""

    function_id: int
    kind: str
    """`graph` (the layered drawing), `neighbourhood` (the layered drawing of a few blocks
    round one) or `list` (one line per block); the last two stand in for big functions."""
    rows: tuple[str, ...]
    """The characters, one string per row, every row as wide as the drawing."""
    runs: tuple[tuple[tuple[int, str], ...], ...]
    """Per row: (first column, style class) of each run of cells of one style; the
    style class is empty for none."""
    boxes: dict[int, Rect] = field(default_factory=dict)
    """Block id → the rectangle that shows it (its row in a list drawing)."""
    routes: tuple[EdgeRoute, ...] = ()
    """One per codec edge drawn (all of them in a `graph`, those between its blocks in a
    `neighbourhood`, none in a `list`), in the codec's order."""
    problems: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Block id → what is wrong with it, in full (the box shows a short form)."""
    exits: dict[int, Rect] = field(default_factory=dict)
    """Target block id → the stub drawn for edges leaving a window to it (its routes
    are in `routes`, after the function's own edges)."""

    @property
    def width(self) -> int:
        """Columns of the grid."""
        return len(self.rows[0]) if self.rows else 0

    @property
    def height(self) -> int:
        """Rows of the grid."""
        return len(self.rows)

    def style_at(self, x: int, y: int) -> str:
        """The style class of a cell."""
        runs = self.runs[y]
        position = bisect.bisect_right(runs, (x, "\uffff")) - 1
        return runs[position][1] if position >= 0 else ""

    def text(self) -> str:
        """The whole grid as plain text, one line a row (for snapshots and debugging)."""
        return "\n".join(row.rstrip() for row in self.rows)

    def row_runs(self, y: int) -> list[tuple[str, str]]:
        """Row `y` as runs of (text, style class) of equal style, left to right."""
        row, runs = self.rows[y], self.runs[y]
        ends = [start for start, _ in runs[1:]] + [len(row)]
        return [(row[start:end], style) for (start, style), end in zip(runs, ends)]

    def block_at(self, x: int, y: int) -> int | None:
        """The block whose box (or stub, for a block outside a window) holds the cell, or None."""
        for block_id, rect in (*self.boxes.items(), *self.exits.items()):
            if rect.contains(x, y):
                return block_id
        return None


class Canvas:
    """A grid being drawn: characters and style classes, grown on demand."""

    def __init__(self, width: int, height: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.styles = [[""] * width for _ in range(height)]

    def put(self, x: int, y: int, char: str, style: str) -> None:
        """Set one cell."""
        self.chars[y][x] = char
        self.styles[y][x] = style

    def write(self, x: int, y: int, text: str, style: str) -> None:
        """Write `text` from (x, y) rightwards, one cell per character."""
        for offset, char in enumerate(text):
            self.put(x + offset, y, char, style)

    def finish(self, function_id: int, kind: str, **model) -> CfgDrawing:
        """The drawing of what was drawn, with its model (`boxes`, `routes`, `problems`)."""
        rows = tuple("".join(chars) for chars in self.chars)
        return CfgDrawing(function_id, kind, rows, tuple(style_runs(styles) for styles in self.styles), **model)


def style_runs(styles: list[str]) -> tuple[tuple[int, str], ...]:
    """(first column, style class) of each run of cells of one style, from a row's cells."""
    runs = [(0, styles[0])] if styles else []
    for x in range(1, len(styles)):
        if styles[x] != styles[x - 1]:
            runs.append((x, styles[x]))
    return tuple(runs)


def cell_styles(runs: tuple[tuple[int, str], ...], width: int) -> list[str]:
    """A row's style class cell by cell, from its runs (`style_runs` undone)."""
    styles: list[str] = []
    ends = [start for start, _ in runs[1:]] + [width]
    for (start, style), end in zip(runs, ends):
        styles += [style] * (end - start)
    return styles
