"""Stepping a SPIR-V shader in the app (issue #26's budget: a step <= 16 ms from the key to
the updated panes), with the values, source and CFG panes shown:

- the bundled example's blur branch (a loop of 17 texture reads), and a corpus module
  (`--module`, default a fragment shader of ../shared/corpus when it is there);
- for `.` (step), `,` (back, which restores the saved state copied ahead after the last
  move and replays the few steps after it) and `j` (a plain move of the list's cursor, no run): the time from the key to its first
  frame and to the last frame it caused (`key_frames.FrameClock`: the app's display hook, the key sent as the
  terminal driver sends it, nothing of Pilot's in between), median and 95th percentile,
  CPU time to each and frames per key, beside the budget;
- the step's own work: the screen's step action (the interpreter's step, the values
  pane's rows, the gutter marks, the CFG's blocks taken) and drawing the values pane's lines.

With `--profile`, the step keys run under cProfile instead, and the CPU per step of each
SPIR-V pane's share (word detail, values, source, CFG) is printed beside the whole.
With `--frames`, the first frame after each step key is taken apart instead: the CPU each
widget takes to give its lines (Textual's borders, styles and caches included), beside
the whole frame (the rest is Textual cutting the screen's lines where widgets meet).

Usage: python benchmarks/bench_spirv_step.py [--steps N] [--module PATH] [--profile | --frames]

The machine is shared with other agents (2 cores): compare figures within one run; the
CPU time says more than the wall time when the machine is loaded.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

from textual._compositor import Compositor
from textual.widget import Widget

from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.widgets.values_pane import ValuesPane

sys.path.insert(0, str(Path(__file__).resolve().parent))

from key_frames import FrameClock, summary  # noqa: E402

BLUR = {"buffers": {"0.1": {"tint": [1, 1, 1, 1], "mode": 1, "steps": 8, "threshold": 0.0}}, "inputs": {"uv": [0.25, 0.5]}}
CORPUS_MODULE = Path("/work/shared/corpus/spv/shaders-hlsl_frag_control-dependent-in-branch.desktop.frag.spv")
PANES = ("5", "7", "8")
"""The CFG, source and values panes."""
SHARES = {
    "word detail": (("word_detail.py", "show"), ("word_detail.py", "render_line"), ("spirv_view.py", "_word_detail")),
    "values": (("values_pane.py", "run_changed"), ("values_pane.py", "render_row")),
    "source": (("source_pane.py", "follow_selection"), ("source_pane.py", "render_row")),
    "CFG": (("cfg_view.py", "run_changed"), ("cfg_view.py", "render_line")),
    "CFG follow": (("cfg_view.py", "follow"),),
}
"""Each pane's share of a step: (file, function) whose cumulative CPU a profile adds up
(the CFG's follow comes a moment after the step's first frame, on purpose)."""


async def measure(document: Document, steps: int, profiler: cProfile.Profile | None = None) -> dict[str, list]:
    app = InspectorApp(document)
    clock = FrameClock(app)
    times: dict[str, list] = {"work": [], "key": [], "j": [], "back": []}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press(*PANES)
        await pilot.pause()
        await app.workers.wait_for_complete()
        screen = app.screen
        values = screen.query_one(ValuesPane)
        height = values.scrollable_content_region.height
        for number in range(steps):
            run = screen.execution.run
            if run is not None and run.finished:
                break
            if number % 2:
                start = time.perf_counter()
                screen.action_run_step()
                for y in range(height):
                    values.render_line(y)
                times["work"].append(time.perf_counter() - start)
                await clock.settle()
            else:
                if profiler is not None:
                    profiler.enable()
                times["key"].append(await clock.press(pilot, "full_stop"))
                if profiler is not None:
                    profiler.disable()
            assert values.rows
            fold = getattr(screen.view, "_fold_cfg", None)
            while fold is not None and fold._waiting:
                # The CFG pane unfolds for the run's function once the keys pause (a layout
                # of the whole screen, once): not inside a later key's time.
                await asyncio.sleep(0.05)
                await clock.settle()
        if profiler is not None:
            return times
        for _ in range(min(len(times["key"]), 20)):
            times["back"].append(await clock.press(pilot, "comma"))
        await pilot.press("2")
        for _ in range(20):
            times["j"].append(await clock.press(pilot, "j"))
    return times


def report(label: str, times: dict[str, list]) -> None:
    print(f"{label}, key to its first frame, then to its last (CFG, source and values panes shown)")
    print(summary(". (step)", times["key"]))
    print(summary(", (step back)", times["back"]))
    print(summary("j (list cursor, no run)", times["j"]))
    work = times["work"]
    print(f"  the step's own work (action and the values pane's lines) median {statistics.median(work) * 1e3:.1f} ms  worst {max(work) * 1e3:.1f} ms")


def profile(label: str, document: Document, steps: int) -> None:
    """The step keys under cProfile: each pane's share and the whole, in CPU ms per step
    (the profiler's overhead included: compare shares within one run)."""
    profiler = cProfile.Profile(time.process_time)
    times = asyncio.run(measure(document, steps, profiler))
    keys = len(times["key"])
    stats = pstats.Stats(profiler).stats
    whole = sum(tt for (_, _, tt, _, _) in stats.values())
    print(f"{label}: {keys} steps profiled, CPU per step (profiled) {whole / keys * 1e3:.1f} ms, of which")
    for pane, functions in SHARES.items():
        total = 0.0
        for (path, _, name), (_, _, _, cumulative, _) in stats.items():
            if any(path.endswith("/" + file) and name == function for file, function in functions):
                total += cumulative
        print(f"  {pane:<12} {total / keys * 1e3:6.2f} ms")
    if os.environ.get("BENCH_PROFILE_TOP"):
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(int(os.environ["BENCH_PROFILE_TOP"]))


def frames(label: str, document: Document, steps: int) -> None:
    """Each widget's CPU in the first frame after a step key, and the whole frame's, in
    ms per step (widgets that draw nothing in it are left out)."""
    shares: dict[str, float] = {}
    whole = [0.0]
    first = [False]
    render_lines, render_chops = Widget.render_lines, Compositor._render_chops

    def timed_lines(widget, crop):
        start = time.process_time()
        try:
            return render_lines(widget, crop)
        finally:
            if first[0]:
                name = type(widget).__name__ + (f"#{widget.id}" if widget.id else "")
                shares[name] = shares.get(name, 0.0) + time.process_time() - start

    def timed_chops(compositor, *args):
        start = time.process_time()
        try:
            return render_chops(compositor, *args)
        finally:
            if first[0]:
                whole[0] += time.process_time() - start
                first[0] = False

    async def run() -> int:
        app = InspectorApp(document)
        clock = FrameClock(app)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press(*PANES)
            await pilot.pause()
            await app.workers.wait_for_complete()
            for number in range(steps):
                first[0] = True
                await clock.press(pilot, "full_stop")
            return steps

    Widget.render_lines, Compositor._render_chops = timed_lines, timed_chops
    try:
        keys = asyncio.run(run())
    finally:
        Widget.render_lines, Compositor._render_chops = render_lines, render_chops
    print(f"{label}: the first frame after a step, CPU {whole[0] / keys * 1e3:.1f} ms per step, of which")
    for name, seconds in sorted(shares.items(), key=lambda item: -item[1]):
        if seconds / keys >= 5e-5:
            print(f"  {name:<28} {seconds / keys * 1e3:6.2f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--module", type=Path, default=CORPUS_MODULE if CORPUS_MODULE.is_file() else None)
    parser.add_argument("--profile", action="store_true", help="each pane's share of a step, from cProfile")
    parser.add_argument("--frames", action="store_true", help="each widget's share of a step's first frame")
    args = parser.parse_args()
    example = Document(EXAMPLE_MODULE.read_bytes(), "example.spv")
    example.run_inputs = BLUR
    if args.frames:
        frames("example, blur branch", example, args.steps)
        if args.module is not None:
            frames(args.module.name, Document(args.module.read_bytes(), args.module.name), args.steps)
        return 0
    if args.profile:
        profile("example, blur branch", example, args.steps)
        if args.module is not None:
            profile(args.module.name, Document(args.module.read_bytes(), args.module.name), args.steps)
        return 0
    report(f"example, blur branch, {args.steps} steps", asyncio.run(measure(example, args.steps)))
    if args.module is not None:
        report(f"{args.module.name}, {args.steps} steps", asyncio.run(measure(Document(args.module.read_bytes(), args.module.name), args.steps)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
