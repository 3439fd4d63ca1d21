"""Control-flow analysis speed on the large module, against `spirv-cfg`, in one run.

Usage: python benchmarks/bench_cfg.py [--module PATH] [--repeat N]
Prints best-of-N wall (and, in-process, CPU) times for: decoding, friendly names, building the CFG of every
function (blocks, edges, dominators, back edges, depth), the DOT text, the whole
`spvinspect cfg` command, and `spirv-cfg`. Target: every function's CFG in well under
a second.

Then the CFG pane (#13): the layered drawing of every function (median, p95 and max of
the per-function times; target: a function laid out and drawn in about 100 ms, beyond
which the pane shows a list first and lays out in a worker), and the time to first show
the pane on the largest function, from the opened lazy module with nothing cached
(its graph built from its own instructions, laid out, drawn and painted) in a headless
app. spirv-cfg draws nothing, so these figures have no reference beside them.

Then the CFG pane on one huge function (#27): the large module with every call inlined
(`spirv-opt --inline-entry-points-exhaustive`, built once beside it), opened in the headless
app; the selection is put in the middle of its function, and the figures are the time to
the first blocks shown, to the window laid out, and the process's peak RSS before and
after. `--big-only` prints only these.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import time
from pathlib import Path

from large_module import build_large_module, tool_path
from measuring import best_of

from spvinspect.codec.cfg.graph import build_cfg
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.cfg.dot import to_dot
from spvinspect.codec.text.names import friendly_names, module_names
from spvinspect.codec.binary.lazy import open_module
from spvinspect.cfgview.drawing import draw_function
from spvinspect.cfgview.graphs import FunctionGraphs


def drawing_times(functions) -> list[tuple[float, object]]:
    """Wall time of the layered drawing of each function, with the function."""
    times = []
    for function in functions:
        start = time.perf_counter()
        draw_function(function)
        times.append((time.perf_counter() - start, function))
    return times


def percentile(sorted_values: list[float], fraction: float) -> float:
    """The value below which `fraction` of the sorted values lie (nearest rank)."""
    return sorted_values[min(len(sorted_values) - 1, max(0, round(fraction * len(sorted_values)) - 1))]


def cold_graphs(data: bytes) -> FunctionGraphs:
    """Graphs over a freshly opened lazy module: indexed, its functions listed, nothing
    decoded or named yet (what the app has when the pane first shows)."""
    module = open_module(data)
    module.ensure_indexed()
    graphs = FunctionGraphs(module, module_names(module))
    graphs.span_at(0)
    return graphs


async def first_show(graphs: FunctionGraphs, function_id: int) -> tuple[float, float, str]:
    """Seconds from `show_block` to the pane holding the function's drawing (its graph
    built and drawn in the pane's worker), and to the pane painted with it; and what
    the pane showed."""
    from textual.app import App

    from spvinspect.widgets.cfg_view import CfgView
    from spvinspect.themes import DEFAULT_THEME, THEMES

    class Host(App):
        def __init__(self) -> None:
            super().__init__()
            for theme in THEMES.values():
                self.register_theme(theme)
            self.theme = DEFAULT_THEME

        def compose(self):
            yield CfgView(graphs)

    app = Host()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(CfgView)
        await pilot.pause()
        start = time.perf_counter()
        view.show_block(function_id, None)
        while view.drawing is None:
            await asyncio.sleep(0.001)
        ready = time.perf_counter() - start
        await pilot.pause()
        for y in range(view.size.height):
            view.render_line(y)  # every row painted (cached if the pause painted them)
        painted = time.perf_counter() - start
        return ready, painted, view.drawing.kind


def inlined_module(large: Path) -> Path:
    """The large module with every function inlined into its entry point: one function of
    hundreds of thousands of instructions (built once, next to the large module)."""
    out = large.with_name(large.stem + "-inlined.spv")
    if not out.exists() or out.stat().st_mtime < large.stat().st_mtime:
        subprocess.run(
            [tool_path("spirv-opt"), "--inline-entry-points-exhaustive", "--eliminate-dead-functions", str(large), "-o", str(out)],
            check=True,
        )
    return out


def peak_rss_mb() -> float:
    """This process's peak resident set size so far, in MB."""
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def rss_mb() -> float:
    """This process's resident set size now, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


RSS_TARGET_MB = 100
"""How much the process may grow while the pane shows and edits a huge function."""
FIRST_BLOCKS_TARGET_S = 1.0
"""Blocks near the selection shown within this long of selecting."""


async def _until(condition, limit: float = 600.0) -> float:
    """Seconds until `condition()` holds (polled every 5 ms), or `limit`."""
    start = time.perf_counter()
    while not condition() and time.perf_counter() - start < limit:
        await asyncio.sleep(0.005)
    return time.perf_counter() - start


def _edited(words, start: int, old_end: int, replacement: list[int]) -> tuple[bytes, tuple[int, int, int]]:
    """The module's bytes with words [start, old_end) replaced, and the change."""
    from array import array

    edited = array("I", words[:start]) + array("I", replacement) + array("I", words[old_end:])
    return edited.tobytes(), (start, old_end, start + len(replacement))


async def big_function_figures(path: Path) -> list[tuple[str, str]]:
    """The CFG pane following a selection into the middle of the module's biggest
    function, in the headless app: times to the first blocks shown and to the laid-out
    window; then three edits (an instruction more in the shown block, a constant outside
    every function, a branch's targets swapped) and the time to the pane showing the
    edited module, with what was built and laid out again; then the pane zoomed on the
    function's first row (its entry block); RSS all along."""
    from spvinspect.app import InspectorApp
    from spvinspect.codec.binary.splice import WordChange
    from spvinspect.document import Document
    from spvinspect.editing.follow import edited_document
    from spvinspect.widgets.cfg_view import CfgView

    data = path.read_bytes()
    app = InspectorApp(Document(data, str(path)))
    figures = []
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        screen = app.screen
        module = screen.document.module
        span = max(module.functions(), key=lambda s: s.end - s.first)
        figures.append(("biggest function", f"{span.end - span.first:,} instructions"))
        opened = rss_mb()
        figures.append(("RSS, opened and indexed", f"{opened:.0f} MB (peak {peak_rss_mb():.0f} MB)"))
        cfg = screen.query_one(CfgView)
        middle = (span.first + span.end) // 2
        start = time.perf_counter()
        screen.select(screen.document.select_instruction(middle), True)
        shown = await _until(lambda: cfg.drawing is not None and bool(cfg.drawing.boxes) and cfg.block_id is not None)
        kind = cfg.drawing.kind if cfg.drawing is not None else "nothing"
        figures.append(("selection to first blocks shown", f"{shown:.2f} s  ({kind}; target {FIRST_BLOCKS_TARGET_S:.0f} s)"))
        await _until(lambda: cfg.drawing is not None and cfg.drawing.kind == "graph" and not cfg.laying_out)
        laid = time.perf_counter() - start
        figures.append(("selection to the window laid out", f"{laid:.2f} s  ({cfg.border_title})"))
        exits = len(cfg.drawing.exits) if cfg.drawing is not None else 0
        figures.append(("  edges leaving it: stubs drawn", f"{exits}"))
        figures.append(("RSS, window shown", _grown(opened)))

        async def edit(label: str, start: int, old_end: int, replacement: list[int]) -> None:
            binary, change = _edited(screen.document.module.words, start, old_end, replacement)
            before = cfg.graphs
            began = time.perf_counter()
            document = edited_document(screen.document, binary, WordChange(*change))
            made = time.perf_counter() - began
            began = time.perf_counter()
            screen.show_edited_document(document)
            taken = await _until(lambda: cfg.graphs is not before)
            await _until(
                lambda: cfg.function is not None and cfg.drawing is not None and cfg.drawing.kind == "graph" and not cfg.laying_out
            )
            took = time.perf_counter() - began
            graphs = cfg.graphs
            figures.append((f"edit: {label}", f"{took:.2f} s to the pane redrawn (the edited document: {made:.2f} s before)"))
            figures.append(("  the pane's own part", f"{took - taken:.2f} s from taking the new module (after the edits' pause and the other panes)"))
            figures.append(("  graphs built, laid out again", f"{graphs.built}, {graphs.layouts}"))

        block = cfg.function.block(cfg.block_id)
        await edit("OpNop in the shown block", block.offset + 2, block.offset + 2, [0x00010000])
        words = screen.document.module.words
        constant = next(
            module.offset(i) for i in range(span.first)
            if screen.document.module.opcode(i) == screen.document.module.tables.opcodes.OpConstant and words[module.offset(i)] >> 16 == 4
        )
        await edit("a constant outside functions", constant + 3, constant + 4, [words[constant + 3] ^ 1])
        function = cfg.function
        inside = {b.id for b in function.blocks}
        conditional = next(
            e for e in function.edges if e.kind == "true" and e.target in inside
            and any(f.offset == e.offset and f.kind == "false" and f.target in inside for f in function.edges)
        )
        at = conditional.offset
        words = screen.document.module.words
        await edit("a branch's targets swapped", at + 2, at + 4, [words[at + 3], words[at + 2]])
        figures.append(("RSS, after the edits", _grown(opened)))
        figures.append(("  modules alive (all of the app)", f"{_modules_alive()} (the shown one, the editor's undo, …)"))

        document = screen.document
        entry_span = max(document.module.functions(), key=lambda s: s.end - s.first)
        screen.select(document.select_instruction(entry_span.first), True)
        cfg.focus()
        began = time.perf_counter()
        await pilot.press("z")

        def entry_shown() -> bool:
            function, drawing = cfg.function, cfg.drawing
            if function is None or drawing is None or cfg.block_id != function.entry or function.entry not in drawing.boxes:
                return False
            rect, (x, y) = drawing.boxes[function.entry], cfg.scroll_offset
            return y <= rect.y < y + cfg.scrollable_content_region.height and x <= rect.x < x + cfg.scrollable_content_region.width

        took = await _until(entry_shown)
        figures.append(("zoomed (z) on its first row", f"{took:.2f} s to the entry block in view ({'shown' if entry_shown() else 'NOT shown'})"))
        figures.append(("RSS at the end", _grown(opened)))
    return figures


def _modules_alive() -> int:
    """How many opened modules are still in memory (the edits' old ones kept by someone)."""
    import gc

    from spvinspect.codec.binary.lazy import LazyModule

    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, LazyModule))


def _grown(opened: float) -> str:
    """RSS now and peak, and the growth since the module was opened, beside the target."""
    now = rss_mb()
    return f"{now:.0f} MB (peak {peak_rss_mb():.0f} MB), +{now - opened:.0f} MB since opened (target +{RSS_TARGET_MB} MB)"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", type=Path, default=Path("/tmp/spvinspect-large.spv"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--big-only", action="store_true", help="only the CFG pane on the inlined module's huge function")
    args = parser.parse_args()
    path = build_large_module(args.module)
    big = inlined_module(path)
    if args.big_only:
        print(f"CFG pane on one huge function: {big}")
        for label, value in asyncio.run(big_function_figures(big)):
            print(f"  {label:<36}{value}")
        return 0
    data = path.read_bytes()

    decode_s = best_of(args.repeat, lambda: decode(data))
    module = decode_s[2]
    names_s = best_of(args.repeat, lambda: friendly_names(module.instructions))
    cfg_s = best_of(args.repeat, lambda: build_cfg(module, names_s[2]))
    cfg = cfg_s[2]
    dot_s = best_of(args.repeat, lambda: to_dot(cfg))
    command = [sys.executable, "-m", "spvinspect.cli", "cfg", str(path)]
    ours_s = best_of(args.repeat, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))
    reference = [tool_path("spirv-cfg") or "spirv-cfg", str(path)]
    ref_s = best_of(args.repeat, lambda: subprocess.run(reference, check=True, stdout=subprocess.DEVNULL))

    functions = cfg.functions
    blocks = sum(len(f.blocks) for f in functions)
    largest = max(functions, key=lambda f: len(f.blocks))
    print(f"module: {path} ({len(data) / 1e6:.1f} MB, {len(module.instructions)} instructions)")
    print(f"functions: {len(functions)}, blocks: {blocks}, edges: {sum(len(f.edges) for f in functions)}")
    print(f"largest function: %{largest.name} with {len(largest.blocks)} blocks")
    per_function = cfg_s[0] / len(functions) * 1e6
    print(f"{'step':<34}{'wall':>9}{'cpu':>9}")
    for label, (wall, cpu, _) in (
        ("decode", decode_s),
        ("friendly names", names_s),
        ("CFG of every function", cfg_s),
        ("DOT text", dot_s),
    ):
        print(f"{label:<34}{wall:>8.3f}s{cpu:>8.3f}s")
    print(f"{'':<34}({per_function:.0f} us a function, wall)")
    print(f"{'spvinspect cfg (whole command)':<34}{ours_s[0]:>8.3f}s")
    print(f"{'spirv-cfg':<34}{ref_s[0]:>8.3f}s")

    times = drawing_times(functions)
    walls = sorted(t for t, _ in times)
    slowest, slowest_function = max(times, key=lambda pair: pair[0])
    print(f"CFG pane: layered drawing of each of the {len(functions)} functions (wall)")
    print(f"{'  median':<34}{statistics.median(walls) * 1e3:>8.2f}ms")
    print(f"{'  p95':<34}{percentile(walls, 0.95) * 1e3:>8.2f}ms")
    print(
        f"{'  max':<34}{slowest * 1e3:>8.2f}ms  (%{slowest_function.name}, "
        f"{len(slowest_function.blocks)} blocks)"
    )
    print(f"{'  all functions':<34}{sum(walls):>8.3f}s")
    graphs = cold_graphs(data)
    start = time.perf_counter()
    graphs.names.table()
    names_s = time.perf_counter() - start
    start = time.perf_counter()
    graphs.function(largest.id)
    graph_s = time.perf_counter() - start
    cold = asyncio.run(first_show(cold_graphs(data), largest.id))
    named = cold_graphs(data)
    named.names.table()
    warm = asyncio.run(first_show(named, largest.id))
    print(f"first show of the pane on the largest function (%{largest.name}, {len(largest.blocks)} blocks)")
    print(f"{'  module names settled (once)':<34}{names_s * 1e3:>8.1f}ms  (the codec's NameMap, lazy module)")
    print(f"{'  then its graph (decode, build)':<34}{graph_s * 1e3:>8.1f}ms")
    for label, (ready, painted, kind) in (("cold", cold), ("names settled", warm)):
        print(f"{'  show_block to drawn, ' + label:<34}{ready * 1e3:>8.1f}ms  ({kind}; target 100 ms)")
        print(f"{'  ... to painted, ' + label:<34}{painted * 1e3:>8.1f}ms  (+ the headless app's next frame)")
    print(f"CFG pane on one huge function: {big}")
    for label, value in asyncio.run(big_function_figures(big)):
        print(f"  {label:<36}{value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
