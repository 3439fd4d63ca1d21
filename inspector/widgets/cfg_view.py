"""The CFG pane: the control-flow graph of the function holding the selection.

A `ScrollView` on the Line API over a `CfgDrawing` (inspector/cfgview): `render_line`
crops the drawing's row to the viewport, colours it by the style class of each cell
through the pane's component classes (the theme's `$cfg-*` variables), and highlights
the selected block and the outgoing edge chosen for the next move. The pane follows
the screen (`follow(instruction)` or `show_block(function, block)`) and never moves the
selection itself: moving along an edge, clicking a box or jumping to a merge or continue
target posts `CfgView.BlockChosen`, and the screen answers with `show_block`. A function
too big to lay out on the spot shows at once the blocks near the selected one (or, with
`v`, one line per block) while a worker lays it out; the graph itself is built in a worker too (decoding a function of a big
module and naming its labels can take a moment), with a message shown meanwhile.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual import events, work
from textual.binding import Binding
from textual.cache import LRUCache
from textual.geometry import Size
from textual.message import Message
from textual.reactive import var
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.timer import Timer
from textual.worker import get_current_worker
from textual.content import Content

from spvinspect.codec.cfg.graph import FunctionCFG
from spvinspect.cfgview.graphs import FunctionGraphs, Window
from spvinspect.cfgview.model import CfgDrawing
from spvinspect.cfgview.navigation import continue_of, merge_of, predecessors
from spvinspect.responsive import last_input
from spvinspect.responsive.pacing import Pace
from spvinspect.screens.cfg_follow import CFG_FOLLOWS_AFTER
from spvinspect.screens.run_keys import RunFollower
from spvinspect.widgets.kept_lines import KeptLines
from spvinspect.widgets.scrollbars import KeptScrollbars
from spvinspect.widgets.style_memo import StyleMemo

STYLE_CLASSES = (
    "box", "block-name", "block-info", "unreachable", "problem", "edge", "back-edge",
    "merge-edge", "continue-edge", "true", "false", "case-label",
)
"""Style classes a drawing gives its cells; each is the component class `cfg-view--<name>`."""
LEGEND = (
    "[$cfg-branch-true]T[/]/[$cfg-branch-false]F[/] branch  [$cfg-back-edge]━ back[/]  "
    "[$cfg-merge-edge]╌ merge[/]  [$cfg-continue-edge]┈ continue[/]"
)
"""The border's key to the edges of a layered drawing, in the theme's colours."""
PAN_STEP = 8
"""Columns or rows one pan key moves the view."""


class CfgView(RunFollower, KeptScrollbars, KeptLines, StyleMemo, ScrollView, can_focus=True):
    """The control-flow graph of one function, with a selected block to move from."""

    DEFAULT_CSS = """
    CfgView { background: $background; }
    CfgView > .cfg-view--box { color: $text-muted; }
    CfgView > .cfg-view--block-name { color: $spv-result-id; text-style: bold; }
    CfgView > .cfg-view--block-info { color: $text-muted; }
    CfgView > .cfg-view--unreachable { color: $cfg-unreachable; text-style: italic; }
    CfgView > .cfg-view--problem { color: $diagnostic-error; }
    CfgView > .cfg-view--edge { color: $cfg-edge; }
    CfgView > .cfg-view--back-edge { color: $cfg-back-edge; }
    CfgView > .cfg-view--merge-edge { color: $cfg-merge-edge; }
    CfgView > .cfg-view--continue-edge { color: $cfg-continue-edge; }
    CfgView > .cfg-view--true { color: $cfg-branch-true; }
    CfgView > .cfg-view--false { color: $cfg-branch-false; }
    CfgView > .cfg-view--case-label { color: $spv-literal; }
    CfgView > .cfg-view--visited { background: $success 25%; }
    CfgView > .cfg-view--selected { background: $hex-selection-background; text-style: bold; }
    CfgView > .cfg-view--chosen-edge { text-style: bold reverse; }
    CfgView > .cfg-view--message { color: $text-muted; }
    """

    COMPONENT_CLASSES = {f"cfg-view--{name}" for name in STYLE_CLASSES} | {
        "cfg-view--selected",
        "cfg-view--visited",
        "cfg-view--chosen-edge",
        "cfg-view--message",
    }
    """One per drawing style class, plus the selected block, the chosen edge and messages."""

    BINDINGS = [
        Binding("down,j", "successor", "Successor", id="cfg.successor", tooltip="Go along the chosen edge to its target block"),
        Binding("up,k", "predecessor", "Predecessor", id="cfg.predecessor", tooltip="Go back to a block that branches here (the one you came from first)"),
        Binding("right,l", "choose_edge(1)", "Next edge", show=False, id="cfg.edge_next", tooltip="Choose the next outgoing edge"),
        Binding("left,h", "choose_edge(-1)", "Previous edge", show=False, id="cfg.edge_previous", tooltip="Choose the previous outgoing edge"),
        Binding("m", "merge", "Merge", id="cfg.merge", tooltip="Go to the merge block of the construct this block is in"),
        Binding("c", "continue_target", "Continue", id="cfg.continue", tooltip="Go to the continue target of the loop this block is in"),
        Binding("v", "toggle_list", "List", show=False, id="cfg.list", tooltip="For a big function not (yet) drawn: the blocks near the selection, or every block listed"),
        Binding("home", "entry", "Entry", show=False, id="cfg.entry", tooltip="Go to the function's entry block"),
        Binding("shift+left", "pan(-1, 0)", "Pan left", show=False, id="cfg.pan_left", tooltip="Move the view left without moving the selection"),
        Binding("shift+right", "pan(1, 0)", "Pan right", show=False, id="cfg.pan_right", tooltip="Move the view right without moving the selection"),
        Binding("shift+up", "pan(0, -1)", "Pan up", show=False, id="cfg.pan_up", tooltip="Move the view up without moving the selection"),
        Binding("shift+down", "pan(0, 1)", "Pan down", show=False, id="cfg.pan_down", tooltip="Move the view down without moving the selection"),
    ]

    class BlockChosen(Message):
        """The user chose a block in the pane: move the selection to its OpLabel."""

        def __init__(self, function_id: int, block_id: int, word: int) -> None:
            super().__init__()
            self.function_id = function_id
            self.block_id = block_id
            self.word = word
            """Word offset of the block's OpLabel, for `SelectWord`-style selection."""

    drawing: var[CfgDrawing | None] = var(None, init=False)
    """What is shown: the layered drawing, or for a big function not (yet) drawn the
    blocks near the selection or the list of every block."""
    laying_out: var[bool] = var(False, init=False)
    """True while a worker lays out the shown function."""
    list_view: var[bool] = var(False, init=False)
    """While a big function has no layered drawing: list every block rather than draw
    the blocks near the selected one."""

    def __init__(self, graphs: FunctionGraphs | None = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.border_title = "CFG"  # the pane's name, before it shows any function
        self.graphs = graphs
        """Where graphs and drawings come from; the screen may set it later (`set_graphs`)."""
        self.function_id: int | None = None
        self.block_id: int | None = None
        """The selected block, as the screen last showed it."""
        self.edge_choice = 0
        """Index into the selected block's successors of the edge `successor` follows."""
        self._requested: int | None = None
        self._word: int | None = None
        """The word to select once the graph being built is known (`follow`)."""
        self._came_from: dict[int, int] = {}
        self._stale: tuple | None = None
        """(function, drawing) shown before `set_graphs`: kept up until the function's
        graph over the new module is built."""
        self._strips: LRUCache[tuple[int, int], Strip] = LRUCache(1024)
        self._lines: LRUCache[tuple, Strip] = LRUCache(512)
        """Lines drawn, by the drawing's row, its highlights, the view and the style: a
        step that scrolls the pane, or goes round a loop, draws lines it drew before."""
        self.visited: frozenset[int] = frozenset()
        """Blocks (label ids) the stepped invocation has entered, marked while a run is open."""
        self._taken_changed: set[int] = set()
        """Blocks whose taken mark changed and is still to be repainted (`_show_taken`)."""
        self._taken_timer: Timer | None = None

    def run_changed(self, execution) -> None:
        """Mark the blocks the open run has entered (its `visited` label ids, if it keeps them)."""
        run = execution.run
        taken = getattr(run, "taken_blocks", None) if run is not None else None
        if taken is None:
            taken = frozenset(getattr(run, "visited", ()) if run is not None else ())
        if taken != self.visited:  # a set of the blocks, compared as a set
            visited = frozenset(taken)
            # Only the boxes taken or given back change: their rows alone are drawn again,
            # a moment later with the CFG's follow (not in the frame that answers the key).
            self._taken_changed |= visited ^ self.visited
            self.visited = visited
            if self._taken_timer is None:
                self._taken_timer = self.set_timer(CFG_FOLLOWS_AFTER, self._show_taken)
            else:
                self._taken_timer.reset()

    def _show_taken(self) -> None:
        """Repaint the boxes whose taken mark changed since they were drawn."""
        if self._taken_timer is not None:
            self._taken_timer.stop()
            self._taken_timer = None
        changed, self._taken_changed = self._taken_changed, set()
        drawing = self.drawing
        if changed and drawing is not None:
            self._refresh_drawing_rows(row for block in changed if (box := drawing.boxes.get(block)) is not None
                                       for row in range(box.y, box.bottom + 1))

    # -- what is shown -------------------------------------------------------------

    def set_graphs(self, graphs: FunctionGraphs) -> None:
        """Show graphs from `graphs` (a new module, or new names): forget what is shown
        (the drawing stays up while the same function's new graph is built)."""
        self.graphs = graphs
        self._stale = (self.function_id, self.drawing) if self.drawing is not None else None
        self.function_id = self.block_id = self._requested = self._word = None
        self._came_from.clear()
        self.laying_out = False
        self.drawing = None

    @property
    def function(self) -> FunctionCFG | None:
        """The graph of the shown function, once built (never built here, on the UI thread)."""
        graphs, function_id = self.graphs, self.function_id
        if graphs is None or function_id is None or not graphs.has_graph(function_id):
            return None
        return graphs.function(function_id)

    @property
    def current_block(self) -> int | None:
        """The block moves start from: the last one asked for, else the selected one."""
        return self._requested if self._requested is not None else self.block_id

    def follow(self, instruction: int | None) -> None:
        """Show the function and block holding instruction `instruction` (None, or an
        instruction outside every function: nothing). Cheap when the function is shown
        already or small; else its graph is built in a worker and the block selected
        once known."""
        self._show_taken()
        graphs = self.graphs
        span = None if graphs is None or instruction is None else graphs.span_at(instruction)
        if graphs is None or span is None:
            self.workers.cancel_group(self, "cfg-layout")
            self.function_id = self.block_id = self._word = self._stale = None
            self.laying_out = False
            self.drawing = None
            return
        word = graphs.module.offset(instruction)
        small = span.end - span.first <= graphs.inline_instructions
        if graphs.has_graph(span.result_id) or small and graphs.function(span.result_id, wait=False) is not None:
            self.show_block(span.result_id, graphs.block_at(span.result_id, word))
        else:
            self.show_block(span.result_id, None)
            self._word = word

    def show_block(self, function_id: int, block_id: int | None) -> None:
        """Show function `function_id` with block `block_id` selected and in view."""
        graphs = self.graphs
        if graphs is None:
            return
        before = (self.function_id, self.drawing, self.scroll_offset, self._highlighted_rows())
        self._requested = self._word = None
        if function_id != self.function_id or (self.drawing is None and not self.laying_out):
            if _whole(function_id) != _whole(self.function_id):
                self._came_from.clear()
            self.function_id = function_id
            ready = graphs.has_graph(function_id)
            quick = graphs.quick_drawing(function_id) if ready else None
            self.drawing = quick if quick is None or quick.kind == "graph" else self._stand_in(function_id, block_id)
            if not ready and self._stale is not None and self._stale[0] == function_id:
                self.drawing = self._stale[1]
            self._stale = None
            self.laying_out = not ready or (quick is not None and quick.kind != "graph" and graphs.drawable(function_id))
            if self.laying_out:
                self._prepare(function_id)
        elif block_id != self.block_id and self.drawing is not None and self.drawing.kind == "neighbourhood":
            self.drawing = self._stand_in(function_id, block_id)
        if block_id != self.block_id:
            self.edge_choice = 0
        self.block_id = block_id
        self._scroll_to_block()
        if before[:3] == (self.function_id, self.drawing, self.scroll_offset):
            # Another block of the same drawing, not scrolled: the old and new selections' rows.
            self._refresh_drawing_rows(before[3] | self._highlighted_rows())
        else:
            self.refresh()

    def _highlighted_rows(self) -> set[int]:
        """Rows of the drawing the selection restyles: its block's box, its chosen edge."""
        drawing = self.drawing
        if drawing is None:
            return set()
        rect = drawing.boxes.get(self.block_id) if self.block_id is not None else None
        rows = set(range(rect.y, rect.bottom + 1)) if rect is not None else set()
        route = self._chosen_route(drawing)
        if route is not None:
            rows.update(y for _, y in route.cells)
        return rows

    def _refresh_drawing_rows(self, rows) -> None:
        """Repaint these rows of the drawing where they are in view."""
        top, height = round(self.scroll_offset.y), self.scrollable_content_region.height
        for row in set(rows):
            if top <= row < top + height:
                self.refresh_line(row)

    def _stand_in(self, function_id: int, block_id: int | None) -> CfgDrawing | None:
        """What shows while a big function has no layered drawing: the blocks near the
        selected one, or (`list_view`, or nothing selected) the list of every block."""
        graphs = self.graphs
        if not self.list_view and block_id is not None:
            near = graphs.neighbourhood_drawing(function_id, block_id)
            if near is not None:
                return near
        return graphs.quick_drawing(function_id)

    def watch_drawing(self, drawing: CfgDrawing | None) -> None:
        self._strips.clear()
        self._lines.clear()
        self.virtual_size = Size(drawing.width, drawing.height) if drawing is not None else Size(0, 0)
        self._update_title()
        self.refresh()

    def watch_laying_out(self) -> None:
        self._update_title()
        self.refresh()

    def _update_title(self) -> None:
        function = self.function
        if function is None:
            updating = self.drawing is not None and self.laying_out
            self.border_title = "CFG · updating…" if updating else "CFG"
            self.border_subtitle = ""
            return
        state = ""
        kind = self.drawing.kind if self.drawing is not None else "graph"
        if kind != "graph":
            shown = "list" if kind == "list" else "blocks near the selection"
            state = f" · {shown}, " + ("laying out…" if self.laying_out else "too big to draw")
        self.border_title = Content(f"CFG %{function.name} · {self.graphs.describe(self.function_id)}{state}")
        self.border_subtitle = LEGEND if self.drawing is not None and self.drawing.kind == "graph" else ""

    @work(thread=True, exclusive=True, group="cfg-layout")
    def _prepare(self, function_id: int) -> None:
        """Away from the UI: build the function's graph and show its quick drawing, then
        lay out a big function and show that, if it is still the one shown."""
        graphs = self.graphs
        if graphs is None:
            return
        worker = get_current_worker()
        # Paced: decoding a big function's instructions must not slow the keys down.
        graphs.function(function_id, Pace(lambda: last_input(self.app), lambda: worker.is_cancelled))
        if worker.is_cancelled:
            return
        quick = graphs.quick_drawing(function_id)
        big = quick is not None and quick.kind == "list" and graphs.drawable(function_id)
        if worker.is_cancelled:
            return
        self.app.call_from_thread(self._drawn, function_id, quick, not big)
        if big:
            full = graphs.drawing(function_id)
            if not worker.is_cancelled:
                self.app.call_from_thread(self._drawn, function_id, full, True)

    def _drawn(self, function_id: int, drawing: CfgDrawing | None, final: bool) -> None:
        """A drawing made in the worker: show it if its function is still the one shown."""
        if function_id != self.function_id:
            return
        if self._word is not None and self.graphs is not None:
            self.block_id = self.graphs.block_at(function_id, self._word)
            self._word = None
        self.laying_out = not final
        if drawing is not None and drawing.kind == "list":
            drawing = self._stand_in(function_id, self.block_id)
        self.drawing = drawing
        self._scroll_to_block()

    def _scroll_to_block(self) -> None:
        """Scroll so the selected block is in view, centred when it was not."""
        drawing, block = self.drawing, self.block_id
        if drawing is None or block not in drawing.boxes:
            return
        rect = drawing.boxes[block]
        region = self.scrollable_content_region
        width, height = max(1, region.width), max(1, region.height)
        x, y = self.scroll_offset
        if not (x <= rect.x and rect.right < x + width):
            x = max(0, rect.x + rect.width // 2 - width // 2) if rect.width < width else rect.x
        if not (y <= rect.y and rect.bottom < y + height):
            y = max(0, rect.y + rect.height // 2 - height // 2)
        self.scroll_to(x=x, y=y, animate=False, immediate=True)

    def on_resize(self) -> None:
        self._scroll_to_block()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._strips.clear()
        self._lines.clear()
        self.refresh()

    # -- rendering -----------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        scroll_x, scroll_y = self.scroll_offset
        row = scroll_y + y
        width = self.scrollable_content_region.width
        drawing = self.drawing
        if drawing is None or drawing.height == 0:
            text = self._message() if y == 0 else ""
            message = Strip([Segment(text, self.memo_style("cfg-view--message"))])
            return message.extend_cell_length(width, self.memo_style(""))
        if row >= drawing.height:
            return Strip.blank(width, self.memo_style(""))
        highlights = tuple((x0, x1, self.memo_style(name)) for x0, x1, name in self._highlights(drawing, row))
        base = self.memo_style("")
        key = (id(drawing), row, highlights, scroll_x, width, base)
        line = self._lines.get(key)
        if line is None:
            strip = self._row_strip(drawing, row)
            for x0, x1, style in highlights:
                strip = _restyle(strip, x0, x1, style)
            line = self._lines[key] = strip.crop(scroll_x, scroll_x + width).extend_cell_length(width).apply_style(base)
        return line

    def _message(self) -> str:
        """What the pane says when it has nothing to draw."""
        if self.graphs is None:
            return ""
        if self.drawing is not None:
            return "No blocks: the function is only declared"
        return "Building the graph…" if self.laying_out else "No function holds the selection"

    def _row_strip(self, drawing: CfgDrawing, row: int) -> Strip:
        key = (id(drawing), row)
        strip = self._strips.get(key)
        if strip is None:
            style_of = self.memo_style
            strip = Strip(
                [Segment(text, style_of(f"cfg-view--{name}") if name else Style()) for text, name in drawing.row_runs(row)]
            )
            self._strips[key] = strip
        return strip

    def _highlights(self, drawing: CfgDrawing, row: int) -> list[tuple[int, int, str]]:
        """Column ranges of `row` to restyle: the selected block, the chosen edge's cells."""
        spans = []
        for block in self.visited:
            taken = drawing.boxes.get(block)
            if taken is not None and taken.y <= row <= taken.bottom:
                spans.append((taken.x, taken.right + 1, "cfg-view--visited"))
        rect = drawing.boxes.get(self.block_id) if self.block_id is not None else None
        if rect is not None and rect.y <= row <= rect.bottom:
            spans.append((rect.x, rect.right + 1, "cfg-view--selected"))
        route = self._chosen_route(drawing)
        if route is not None:
            spans += [(x, x + 1, "cfg-view--chosen-edge") for x, y in route.cells if y == row]
        return spans

    def _chosen_route(self, drawing: CfgDrawing):
        """The route of the edge `successor` would follow, in a layered drawing."""
        function, block = self.function, self.block_id
        if function is None or block is None:
            return None
        edges = [r for r in drawing.routes if r.edge.source == block and r.edge.is_branch]
        return edges[self.edge_choice % len(edges)] if edges else None

    # -- moving: each move is a request to the screen ------------------------------

    def _choose(self, block_id: int | None, came_from: int | None = None) -> None:
        """Ask the screen for block `block_id`: of the shown function, or (an edge
        leaving a window) of the rest of it, which moves the window there."""
        function = self.function
        if function is None or block_id is None:
            return
        block = function.block(block_id)
        word = block.offset if block is not None else None
        if block is None and isinstance(self.function_id, Window):
            word = self.graphs.label_word(self.function_id, block_id)
        if word is None:
            return
        if came_from is not None:
            self._came_from[block_id] = came_from
        self._requested = block_id
        self.post_message(self.BlockChosen(function.id, block_id, word))

    def _outgoing(self, block_id: int) -> list[int]:
        """Targets of the block's branch edges, one per edge, in the codec's order (a
        window's edges leaving it last, as the drawing routes them)."""
        function = self.function
        if function is None:
            return []
        edges = function.edges + tuple(x.edge for x in self.graphs.exits(self.function_id))
        return [e.target for e in edges if e.source == block_id and e.is_branch]

    def action_successor(self) -> None:
        """Go along the chosen outgoing edge."""
        block = self.current_block
        targets = [] if block is None else self._outgoing(block)
        if targets:
            choice = self.edge_choice % len(targets) if self._requested is None else 0
            self._choose(targets[choice], came_from=block)

    def action_predecessor(self) -> None:
        """Go to the block this one was reached from, else its first predecessor."""
        function, block = self.function, self.current_block
        if function is None or block is None:
            return
        sources = predecessors(function, block)
        came = self._came_from.get(block)
        outside = came is not None and function.block(came) is None  # came from beyond the window
        self._choose(came if came in sources or outside else (sources[0] if sources else None))

    def action_choose_edge(self, step: int) -> None:
        """Choose another outgoing edge of the selected block for `successor`."""
        if self.block_id is not None and self._outgoing(self.block_id):
            self.edge_choice = (self.edge_choice + step) % len(self._outgoing(self.block_id))
            self.refresh()

    def action_merge(self) -> None:
        """Go to the merge block of the innermost construct holding the block."""
        function, block = self.function, self.current_block
        if function is not None and block is not None:
            self._choose(merge_of(function, block))

    def action_continue_target(self) -> None:
        """Go to the continue target of the innermost loop holding the block."""
        function, block = self.function, self.current_block
        if function is not None and block is not None:
            self._choose(continue_of(function, block))

    def action_entry(self) -> None:
        """Go to the entry block."""
        function = self.function
        if function is not None and function.blocks:
            self._choose(function.entry)

    def action_toggle_list(self) -> None:
        """Switch between the blocks near the selection and the list of every block, for a
        big function shown without its layered drawing."""
        drawing = self.drawing
        if drawing is None or drawing.kind == "graph" or self.function_id is None:
            return
        self.list_view = not self.list_view
        self.drawing = self._stand_in(self.function_id, self.block_id)
        self._scroll_to_block()

    def action_pan(self, dx: int, dy: int) -> None:
        """Move the view without moving the selection."""
        x, y = self.scroll_offset
        self.scroll_to(x=x + dx * PAN_STEP, y=y + dy * PAN_STEP // 2, animate=False)

    def on_click(self, event: events.Click) -> None:
        drawing = self.drawing
        if drawing is None:
            return
        x, y = self.scroll_offset
        self._choose(drawing.block_at(event.x + x, event.y + y))


def _whole(function_id):
    """The function a key shows (of a window: its whole function's id)."""
    return function_id.function_id if isinstance(function_id, Window) else function_id


def _restyle(strip: Strip, start: int, end: int, style: Style) -> Strip:
    """`strip` with the cells [start, end) given `style` on top of their own."""
    length = strip.cell_length
    start, end = max(0, start), min(end, length)
    if start >= end:
        return strip
    before, middle, after = strip.divide([start, end, length])
    return Strip.join([before, middle.apply_style(style), after])
