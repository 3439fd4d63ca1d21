"""The control-flow graphs of one opened module, function by function, and their drawings.

Textual-free, and what the CFG pane asks: which function and block hold an instruction,
the graph of a function (built from its instructions only, so that a function of a
half-million-instruction module costs what the function costs; still, decoding them and
naming their labels can take a while on a big module, so the pane builds graphs in a
worker), and its drawing, kept while among the recently used. A function with more
blocks than `inline_blocks` is not laid out on the spot: `quick_drawing` gives its
one-line-per-block list at once (`neighbourhood_drawing`, the blocks round the selected
one), and the pane lays it out in a worker with `drawing`. A function of more than
`window_after` instructions is never built whole: the pane is given a `Window` of its
blocks round the selection (`span_at`), whose graph, drawings and layout cost what
those blocks cost, wherever they are in the function; its edges to the rest of the
function are drawn to stubs (`exits`, `label_word` to follow one). Over an edited module
(`previous`: the graphs before the edit), what the edit did not touch is taken over
rather than built and laid out again (see `carry`).
Thread-safe: what is kept is looked up under a short lock, so the UI thread never waits
for a graph a worker is building.
"""

from __future__ import annotations

import bisect
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple, Protocol

from spvinspect.codec.cfg.graph import FunctionCFG, build_cfg
from spvinspect.codec.cfg.window import window_cfg
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.text.names import NameMap
from spvinspect.cfgview.block_list import list_function
from spvinspect.cfgview.carry import Carried, module_edit
from spvinspect.cfgview.drawing import draw_function, redrawn
from spvinspect.cfgview.model import CfgDrawing, Exit
from spvinspect.cfgview.navigation import neighbourhood
from spvinspect.codec.plural import counted

LABEL_SCAN = 256
"""Instructions read at once when looking for a block's label (four times more each
round, so a long block costs a few array passes, a short one little)."""
INLINE_BLOCKS = 80
"""Functions up to this many blocks are laid out on the spot (a layout's time grows
with its blocks); bigger ones in a worker."""
INLINE_INSTRUCTIONS = 1000
"""Functions up to this many instructions get their graph built on the spot: the
pane then changes once, where a worker's round trip would repaint it, and re-lay out
the screen, twice."""
DRAW_BLOCKS = 1000
"""Functions with more blocks are only listed: their drawing would be thousands of rows
(and long to lay out), too big to read."""


WINDOW_AFTER = 10_000
"""Functions of more instructions are shown a `Window` at a time: building, laying out
and keeping their whole graph would take time and memory in proportion to the function."""
WINDOW_TILE = 512
"""A window holds the blocks of three runs of this many instructions: the run holding the
selection and one each side (the selection moves within the middle one)."""
KEPT_WINDOWS = 16
"""Window graphs kept, like `KEPT_GRAPHS`."""


class Window(NamedTuple):
    """The key, in place of a function id, of a run of blocks of a function too big to
    draw: the blocks of its `tile`-th run of `WINDOW_TILE` instructions and its
    neighbours', whole (from an OpLabel to before an OpLabel)."""

    function_id: int
    tile: int


class FunctionModule(Protocol):
    """What is read of the module: the contract's `LazyModule` has it."""

    def functions(self) -> list: ...

    def instruction(self, index: int): ...

    def offset(self, index: int) -> int: ...

    tables: object

    def opcode(self, index: int) -> int: ...


PACED_STEP = 256
"""Instructions decoded between two calls of a worker's pace (a short stretch of work)."""
KEPT_GRAPHS = 1024
KEPT_DRAWINGS = 128
"""How many graphs and drawings are kept (the least recently used are dropped): a
module of thousands of functions, browsed through, must not keep them all."""


class _Kept(OrderedDict):
    """A mapping that keeps only its `limit` most recently used entries."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def get(self, key, default=None):
        """The value, marked as just used; `default` when absent."""
        if key not in self:
            return default
        self.move_to_end(key)
        return self[key]

    def __setitem__(self, key, value) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


class _FunctionSlice(NamedTuple):
    """One function's instructions, seen by `build_cfg` as a module."""

    instructions: list
    tail_offset: int


class FunctionGraphs:
    """Per-function graphs and drawings of one module, made on demand and kept."""

    def __init__(
        self,
        module: FunctionModule,
        names: NameMap,
        inline_blocks: int = INLINE_BLOCKS,
        draw_blocks: int = DRAW_BLOCKS,
        inline_instructions: int = INLINE_INSTRUCTIONS,
        window_after: int = WINDOW_AFTER,
        previous: FunctionGraphs | None = None,
    ) -> None:
        self.module = module
        self.names = names
        self.inline_blocks = inline_blocks
        """Largest function (in blocks) laid out without a worker."""
        self.draw_blocks = draw_blocks
        """Largest function (in blocks) laid out at all; bigger ones are only listed."""
        self.inline_instructions = inline_instructions
        """Largest function (in instructions) whose graph the pane builds on the spot."""
        self.window_after = window_after
        """Largest function (in instructions) whose whole graph is built."""
        self._spans: list | None = None
        self._starts: list[int] = []
        self._graphs: _Kept = _Kept(KEPT_GRAPHS)
        """Function id → (graph, diagnostics)."""
        self._drawings: _Kept = _Kept(KEPT_DRAWINGS)
        self._lists: _Kept = _Kept(KEPT_DRAWINGS)
        self._neighbourhoods: _Kept = _Kept(KEPT_DRAWINGS)
        self._block_starts: _Kept = _Kept(KEPT_GRAPHS)
        self._windows: _Kept = _Kept(KEPT_WINDOWS * 4)
        """Window → (first instruction, end)."""
        self._window_graphs: _Kept = _Kept(KEPT_WINDOWS)
        self._lock = threading.Lock()
        """Held while what is kept is looked up or changed."""
        self._building = threading.Lock()
        """Held while a graph is built: one at a time, the codec's caches shared."""
        self.built = 0
        """Graphs built here from the module's instructions (not carried over)."""
        self.layouts = 0
        """Layered drawings laid out (by grandalf) here, not carried over or redrawn."""
        self._carried: dict = {} if previous is None else previous.carried_to(module)
        """Key → `Carried`: what the graphs before an edit (`previous`) had made."""
        self._same_names = previous is not None and previous.names is names

    def _function_spans(self) -> list:
        if self._spans is None:
            self._spans = list(self.module.functions())
            self._starts = [span.first for span in self._spans]
        return self._spans

    def span_at(self, index: int):
        """The span of the function holding instruction `index`, or None. For a function
        of more than `window_after` instructions, the span of the `Window` of its blocks
        round the instruction, whose `result_id` is that `Window` (the key of its graph)."""
        spans = self._function_spans()
        position = bisect.bisect_right(self._starts, index) - 1
        if position < 0 or index >= spans[position].end:
            return None
        span = spans[position]
        if span.end - span.first <= self.window_after:
            return span
        window = Window(span.result_id, (index - span.first) // WINDOW_TILE)
        found = self._kept(self._windows, window)
        if found is None:
            low = span.first + (window.tile - 1) * WINDOW_TILE
            high = span.first + (window.tile + 2) * WINDOW_TILE
            # Whole blocks, and at least the one holding the tile's last instruction (the
            # entry block before any): a block can be longer than the tiles round it.
            last = min(span.first + (window.tile + 1) * WINDOW_TILE, span.end) - 1
            start = self._block_start(span, last)
            if self.module.opcode(start) != self.module.tables.opcodes.OpLabel:
                start = self._label_after(span, start)
            end = max(self._block_start(span, high), self._label_after(span, start))
            found = self._keep(self._windows, window, (self._block_start(span, low), end))
        return type(span)(found[0], found[1], window)

    def _label_after(self, span, index: int) -> int:
        """The first OpLabel after instruction `index` of the function, or its end."""
        start = index + 1
        size = LABEL_SCAN
        while start < span.end:
            stop = min(start + size, span.end)
            found = self._labels(start, stop)
            if len(found):
                return start + int(found[0])
            start, size = stop, size * 4
        return start

    def _block_start(self, span, index: int) -> int:
        """The OpLabel at or before instruction `index` of the function (its OpFunction
        when there is none, its end past it), found from first words only."""
        if index >= span.end:
            return span.end
        stop = max(index, span.first) + 1
        size = LABEL_SCAN
        while stop > span.first + 1:
            start = max(stop - size, span.first + 1)
            found = self._labels(start, stop)
            if len(found):
                return start + int(found[-1])
            stop, size = start, size * 4
        return span.first

    def _labels(self, start: int, stop: int):
        """Where instructions [start, stop) are OpLabels (positions from `start`), read
        from their first words at once: a block can be tens of thousands of instructions,
        and the pane asks on the UI thread."""
        import numpy as np  # here: the graphs of a small module never load numpy

        module = self.module
        module.ensure_indexed(stop - 1)
        offsets = np.frombuffer(module.index.offsets, dtype=np.uint32)[start:stop]
        opcodes = np.frombuffer(module.words, dtype=np.uint32)[offsets] & 0xFFFF
        return np.flatnonzero(opcodes == module.tables.opcodes.OpLabel)

    def describe(self, function_id) -> str:
        """What the pane's title says of the blocks shown."""
        function = self._kept(self._window_graphs if isinstance(function_id, Window) else self._graphs, function_id)
        count = 0 if function is None else len(function[0].blocks)
        blocks = counted(count, "block", grouped=True)
        return f"{blocks} round the selection, of a function too big to draw" if isinstance(function_id, Window) else blocks

    def function(self, function_id: int, pace: Callable[[], bool] | None = None, wait: bool = True) -> FunctionCFG | None:
        """The graph of the function `function_id` (the OpFunction's result id), or None.

        A worker passes `pace` (see `inspector.pacing`): called every `PACED_STEP`
        instructions while they are decoded; when it says stop, so does the build (None,
        nothing kept). With `wait` False, None at once while another graph is being
        built (the UI thread must not wait for a paced worker)."""
        found = self._graph(function_id, pace, wait)
        return None if found is None else found[0]

    def diagnostics(self, function_id: int) -> tuple[Diagnostic, ...]:
        """What building the function's graph found wrong with it."""
        found = self._graph(function_id)
        return () if found is None else found[1]

    def exits(self, function_id) -> tuple[Exit, ...]:
        """The edges leaving a window (to blocks of its function outside it), with the
        names of their targets; none for a whole function."""
        found = self._graph(function_id)
        return () if found is None else found[2]

    def label_word(self, function_id, label_id: int) -> int | None:
        """The word offset of the OpLabel `label_id` of the function (of a window:
        of its whole function), or None: where following an exit goes."""
        key = function_id.function_id if isinstance(function_id, Window) else function_id
        span = next((s for s in self._function_spans() if s.result_id == key), None)
        if span is None:
            return None
        label = self.module.tables.opcodes.OpLabel
        for index in self.module.definers(label_id):
            if span.first <= index < span.end and self.module.opcode(index) == label:
                return self.module.offset(index)
        return None

    def _graph(
        self, function_id, pace: Callable[[], bool] | None = None, wait: bool = True
    ) -> tuple[FunctionCFG, tuple[Diagnostic, ...], tuple[Exit, ...]] | None:
        kept = self._window_graphs if isinstance(function_id, Window) else self._graphs
        found = self._kept(kept, function_id) or self._take_carried(function_id)
        if found is not None:
            return found
        if not self._building.acquire(blocking=wait):
            return None
        try:
            found = self._kept(kept, function_id)
            if found is not None:
                return found
            if isinstance(function_id, Window):
                window = self._kept(self._windows, function_id)
                span = next((s for s in self._function_spans() if s.result_id == function_id.function_id), None)
                if window is None or span is None:
                    return None
                first, end = window[0], window[1]
            else:
                span = next((s for s in self._function_spans() if s.result_id == function_id), None)
                if span is None:
                    return None
                first, end = span.first, span.end
            self.built += 1
            instruction = self.module.instruction
            instructions = []
            for start in range(first, end, PACED_STEP):
                if pace is not None and not pace():
                    return None
                instructions += [instruction(i) for i in range(start, min(start + PACED_STEP, end))]
            if isinstance(function_id, Window):
                exits: list = []
                graph, problems = window_cfg(instruction(span.first), instructions, self.names, exits=exits)
                if graph is None:
                    return None
                named = tuple(Exit(e, self.names.name(e.target)) for e in exits)
                return self._keep(kept, function_id, (graph, problems, named))
            last = instructions[-1].end if instructions else 0
            built = build_cfg(_FunctionSlice(instructions, last), self.names)
            if not built.functions:
                return None
            return self._keep(kept, function_id, (built.functions[0], built.diagnostics, ()))
        finally:
            self._building.release()

    # -- across an edit ----------------------------------------------------------------

    def carried_to(self, module: FunctionModule) -> dict:
        """Key → `Carried`: the graphs made here (and carried here), as seen from `module`,
        an edit of this one's module: untouched ones to move, touched ones to compare.
        Nothing unless both modules are indexed (indexing a huge one here would hold up
        the caller, the UI thread)."""
        if not (self.module.indexed and module.indexed):
            return {}
        edit = module_edit(self.module, module)
        carried = {}
        with self._lock:
            made = [(key, *value) for key, value in self._graphs.items()]
            made += [(key, *value) for key, value in self._window_graphs.items()]
            drawings = dict(self._drawings)
            windows = dict(self._windows)
            earlier = dict(self._carried)
        words = self.module.words
        for key, graph, problems, exits in made:
            if isinstance(key, Window):
                run = windows.get(key)
                if run is None:
                    continue
                opener = (graph.offset, graph.offset + (words[graph.offset] >> 16))
                ranges = (opener, (self._word_of(run[0]), self._word_of(run[1])))
            else:
                run, ranges = None, ((graph.offset, graph.end),)
            carried[key] = Carried(graph, problems, drawings.get(key), ranges, exits=exits, window=run)
        for key, entry in earlier.items():
            if len(carried) >= KEPT_GRAPHS + KEPT_WINDOWS:
                break
            carried.setdefault(key, entry)
        if edit is not None:
            carried = {key: entry.after(edit) for key, entry in carried.items()}
        # A touched graph is kept only for its layout, to compare with.
        return {key: entry for key, entry in carried.items() if not entry.touched or entry.drawing is not None}

    def _word_of(self, index: int) -> int:
        """The word offset of instruction `index` (the module's end past the last)."""
        return self.module.offset(index) if index < self.module.instruction_count else len(self.module.words)

    def _take_carried(self, key) -> tuple | None:
        """The carried graph of `key`, untouched by the edits since and named the same,
        with this module's offsets (its drawing kept too); None when it must be built."""
        with self._lock:
            entry = self._carried.get(key)
        if entry is None or entry.touched:
            return None
        if isinstance(key, Window) and self._kept(self._windows, key) != entry.window:
            return None
        graph, problems, exits, drawing = entry.moved()
        if not self._same_names:
            name = self.names.name
            if name(graph.id) != graph.name or any(name(b.id) != b.name for b in graph.blocks):
                with self._lock:
                    entry.touched = True
                return None
        with self._lock:
            self._carried.pop(key, None)
        if drawing is not None:
            self._keep(self._drawings, key, drawing)
        kept = self._window_graphs if isinstance(key, Window) else self._graphs
        return self._keep(kept, key, (graph, problems, exits))

    def _redrawn(self, key) -> CfgDrawing | None:
        """The drawing of `key` from the layout carried over from before an edit, if its
        blocks and edges are the same (only the boxes' text redrawn); kept."""
        with self._lock:
            entry = self._carried.get(key)
        if entry is None or entry.drawing is None:
            return None
        found = self._kept(self._window_graphs if isinstance(key, Window) else self._graphs, key)
        if found is None:
            return None
        drawn = redrawn(entry.drawing, entry.graph, entry.problems, found[0], found[1], entry.exits, found[2])
        with self._lock:
            self._carried.pop(key, None)
        return None if drawn is None else self._keep(self._drawings, key, drawn)

    def _kept(self, cache: _Kept, key):
        with self._lock:
            return cache.get(key)

    def _keep(self, cache: _Kept, key, value):
        with self._lock:
            cache[key] = value
        return value

    def has_graph(self, function_id) -> bool:
        """True when the function's graph is built (asking for it costs nothing more)."""
        with self._lock:
            if function_id in (self._window_graphs if isinstance(function_id, Window) else self._graphs):
                return True
        return self._take_carried(function_id) is not None

    def block_at(self, function_id: int, word: int) -> int | None:
        """The block of the function holding word `word`: on `OpFunction` and its
        parameters, the entry block (where the function starts running); None between
        blocks, after the last one, or outside the function."""
        function = self.function(function_id)
        if function is None:
            return None
        starts = self._kept(self._block_starts, function_id)
        if starts is None:
            starts = self._keep(self._block_starts, function_id, [b.offset for b in function.blocks])
        position = bisect.bisect_right(starts, word) - 1
        if position >= 0 and word < function.blocks[position].end:
            return function.blocks[position].id
        if position < 0 and starts and function.offset <= word:
            return function.blocks[0].id
        return None

    def is_big(self, function_id: int) -> bool:
        """True when the function is laid out in a worker (more than `inline_blocks` blocks)."""
        function = self.function(function_id)
        return function is not None and len(function.blocks) > self.inline_blocks

    def drawable(self, function_id: int) -> bool:
        """True unless the function is too big to lay out (more than `draw_blocks` blocks)."""
        function = self.function(function_id)
        return function is not None and len(function.blocks) <= self.draw_blocks

    def cached_drawing(self, function_id: int) -> CfgDrawing | None:
        """The layered drawing, if already made."""
        return self._kept(self._drawings, function_id)

    def drawing(self, function_id: int) -> CfgDrawing | None:
        """The layered drawing of the function, made now if need be (slow for big
        functions: call it from a worker for those). None for an unknown function; the
        list for one too big to draw."""
        if not self.drawable(function_id):
            return self.quick_drawing(function_id)
        drawn = self._kept(self._drawings, function_id) or self._redrawn(function_id)
        if drawn is None:
            function = self.function(function_id)
            if function is None:
                return None
            drawn = draw_function(function, self.diagnostics(function_id), exits=self.exits(function_id))
            drawn = self._keep(self._drawings, function_id, drawn)
            self.layouts += 1
        return drawn

    def quick_drawing(self, function_id: int) -> CfgDrawing | None:
        """What to show at once: the layered drawing if made or small, else the list."""
        drawn = self._kept(self._drawings, function_id)
        if drawn is None and self.function(function_id) is not None:
            drawn = self._redrawn(function_id)
        if drawn is not None or (not self.is_big(function_id) and self.drawable(function_id)):
            return self.drawing(function_id)
        listed = self._kept(self._lists, function_id)
        if listed is None:
            function = self.function(function_id)
            if function is None:
                return None
            listed = list_function(function, self.diagnostics(function_id), self.exits(function_id))
            listed = self._keep(self._lists, function_id, listed)
        return listed

    def neighbourhood_drawing(self, function_id: int, block_id: int) -> CfgDrawing | None:
        """The layered drawing of the blocks near `block_id` (see `navigation.neighbourhood`):
        what a big function shows round the selected block. None for an unknown block."""
        key = (function_id, block_id)
        drawn = self._kept(self._neighbourhoods, key)
        if drawn is None:
            function = self.function(function_id)
            if function is None or function.block(block_id) is None:
                return None
            near = neighbourhood(function, block_id)
            drawn = draw_function(function, self.diagnostics(function_id), near, self.exits(function_id))
            drawn = self._keep(self._neighbourhoods, key, drawn)
        return drawn
