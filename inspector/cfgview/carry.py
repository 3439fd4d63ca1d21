"""What the CFG pane's graphs keep across an edit: the graphs and layouts of the
functions (and windows of a huge function) whose instructions the edit did not touch.

Textual-free. An edit replaces one run of instructions; `module_edit` finds it from the
two modules' words (one vectorised comparison, whatever made the new module: the editor,
a reload). A graph depends only on its own instructions (and the names of its ids), so a
graph whose words lie outside the run is the new module's graph with its word offsets and
instruction indexes moved past the run (`moved_graph`); its drawing holds no offsets but
its edges', so it is kept as it is, edges moved. A graph the edit touched is built again;
`Carried.touched` keeps the old one so its layout can be reused when the blocks and edges
are the same (see `drawing.redrawn`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import NamedTuple

from spvinspect.codec.binary.model import HEADER_WORDS
from spvinspect.codec.cfg.graph import FunctionCFG
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.cfgview.model import CfgDrawing, Exit


class ModuleEdit(NamedTuple):
    """Instructions [first, old_stop) of the old module, words [start, old_end), are
    instructions [first, new_stop), words [start, new_end), of the new; every other
    instruction is the same, those after moved."""

    start: int
    old_end: int
    new_end: int
    first: int
    old_stop: int
    new_stop: int

    def touches(self, start: int, end: int) -> bool:
        """True when old words [start, end) overlap the replaced ones (or hold the place
        where instructions were inserted)."""
        if self.start == self.old_end:
            return start < self.start < end
        return start < self.old_end and self.start < end

    def word(self, offset: int) -> int:
        """The new offset of an old word outside the replaced ones."""
        return offset if offset < self.start else offset + self.new_end - self.old_end

    def word_end(self, end: int) -> int:
        """The new offset of an old end (one past a word) outside the replaced ones."""
        return end if end <= self.start else end + self.new_end - self.old_end

    def index(self, index: int) -> int:
        """The new index of an old instruction outside the replaced ones."""
        return index if index < self.first else index + self.new_stop - self.old_stop

    def index_end(self, end: int) -> int:
        """The new index of an old end (one past an instruction)."""
        return end if end <= self.first else end + self.new_stop - self.old_stop


def module_edit(old, new) -> ModuleEdit | None:
    """Where the modules' instructions differ (the header is not looked at: an edit that
    adds an id changes the bound); None when they are the same. Both modules are indexed."""
    import numpy as np  # only after an edit: a launch does without numpy

    a = np.frombuffer(old.words, dtype=np.uint32)[HEADER_WORDS:]
    b = np.frombuffer(new.words, dtype=np.uint32)[HEADER_WORDS:]
    shortest = min(len(a), len(b))
    differ = np.flatnonzero(a[:shortest] != b[:shortest])
    if not len(differ) and len(a) == len(b):
        return None
    prefix = int(differ[0]) if len(differ) else shortest
    back = np.flatnonzero(a[len(a) - shortest + prefix :][::-1] != b[len(b) - shortest + prefix :][::-1])
    suffix = int(back[0]) if len(back) else shortest - prefix
    old_count, new_count = old.instruction_count, new.instruction_count
    first = _boundary_before(old, HEADER_WORDS + prefix)
    start = old.offset(first) if first < old_count else len(old.words)
    old_stop = _boundary_after(old, len(old.words) - suffix)
    old_end = old.offset(old_stop) if old_stop < old_count else len(old.words)
    new_end = old_end + len(new.words) - len(old.words)
    new_stop = new.index_at(new_end) if new_end < len(new.words) else new_count
    if new_stop is None or (new_stop < new_count and new.offset(new_stop) != new_end) or old_count - old_stop != new_count - new_stop:
        new_stop = new_count  # the words after do not fall on the same boundaries: all of it is new
        old_stop, old_end, new_end = old_count, len(old.words), len(new.words)
    return ModuleEdit(start, old_end, new_end, first, old_stop, new_stop)


def _boundary_before(module, word: int) -> int:
    """The index of the instruction holding `word` (the count, past the last)."""
    if word >= len(module.words):
        return module.instruction_count
    index = module.index_at(word)
    return module.instruction_count if index is None else index


def _boundary_after(module, word: int) -> int:
    """The index of the first instruction starting at or after `word`."""
    index = _boundary_before(module, word)
    if index < module.instruction_count and module.offset(index) < word:
        index += 1
    return index


@dataclass(slots=True)
class Carried:
    """A graph (and its drawing, if made) from before one or more edits."""

    graph: FunctionCFG
    problems: tuple[Diagnostic, ...]
    drawing: CfgDrawing | None
    ranges: tuple[tuple[int, int], ...]
    """The words the graph was built from, in the newest module's offsets while untouched."""
    exits: tuple[Exit, ...] = ()
    """A window's edges to blocks outside it."""
    edits: tuple[ModuleEdit, ...] = ()
    """The edits since it was made, oldest first, to move its offsets by."""
    window: tuple[int, int] | None = None
    """A window's instruction range, in the newest module's indexes while untouched."""
    touched: bool = False
    """An edit changed its words: its graph is only a layout to compare with."""

    def after(self, edit: ModuleEdit) -> Carried:
        """The same graph after another edit."""
        if self.touched or any(edit.touches(a, b) for a, b in self.ranges):
            return replace(self, touched=True)
        ranges = tuple((edit.word(a), edit.word_end(b)) for a, b in self.ranges)
        window = None if self.window is None else (edit.index(self.window[0]), edit.index_end(self.window[1]))
        return replace(self, ranges=ranges, edits=self.edits + (edit,), window=window)

    def moved(self) -> tuple[FunctionCFG, tuple[Diagnostic, ...], tuple[Exit, ...], CfgDrawing | None]:
        """The graph, problems, exits and drawing with the newest module's offsets (untouched)."""
        graph, problems, exits, drawing = self.graph, self.problems, self.exits, self.drawing
        for edit in self.edits:
            graph, problems, exits, drawing = moved_graph(graph, problems, exits, drawing, edit)
        return graph, problems, exits, drawing


def moved_graph(
    graph: FunctionCFG,
    problems: tuple[Diagnostic, ...],
    exits: tuple[Exit, ...],
    drawing: CfgDrawing | None,
    edit: ModuleEdit,
) -> tuple[FunctionCFG, tuple[Diagnostic, ...], tuple[Exit, ...], CfgDrawing | None]:
    """A graph untouched by `edit`, its problems, exits and drawing, with the new module's offsets."""
    if edit.new_end == edit.old_end and edit.new_stop == edit.old_stop:
        return graph, problems, exits, drawing
    word, word_end, index = edit.word, edit.word_end, edit.index
    blocks = tuple(
        b._replace(first=index(b.first), last=index(b.last), offset=word(b.offset), end=word_end(b.end)) for b in graph.blocks
    )
    edges = {e: e._replace(offset=word(e.offset)) for e in graph.edges + tuple(x.edge for x in exits)}
    moved = replace(
        graph,
        offset=word(graph.offset),
        end=word_end(graph.end),
        blocks=blocks,
        edges=tuple(edges[e] for e in graph.edges),
        back_edges=tuple(edges[e] for e in graph.back_edges),
    )
    problems = tuple(d if d.word_offset is None else replace(d, word_offset=word(d.word_offset)) for d in problems)
    exits = tuple(x._replace(edge=edges[x.edge]) for x in exits)
    if drawing is not None:
        drawing = replace(drawing, routes=tuple(replace(r, edge=edges.get(r.edge, r.edge)) for r in drawing.routes))
    return moved, problems, exits, drawing
