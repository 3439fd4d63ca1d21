"""Stepping a SPIR-V shader in the app (issue #26's budget: a step <= 16 ms from the key to
the updated panes), with the values, source and CFG panes shown:

- the bundled example's blur branch (a loop of 17 texture reads), and a corpus module
  (`--module`, default a fragment shader of ../shared/corpus when it is there);
- for `.` (step), `,` (back, which replays the group from the start to the step before)
  and `j` (a plain move of the list's cursor, no run): the time from the key to the last
  frame it caused (`key_frames.FrameClock`: the app's display hook, the key sent as the
  terminal driver sends it, nothing of Pilot's in between), median and 95th percentile,
  CPU time and frames per key, beside the budget;
- the step's own work: the screen's step action (the interpreter's step, the values
  pane's rows, the gutter marks, the CFG's blocks taken) and drawing the values pane's lines.

With `--profile`, the step keys run under cProfile instead, and the CPU per step of each
SPIR-V pane's share (word detail, values, source, CFG) is printed beside the whole.

Usage: python benchmarks/bench_spirv_step.py [--steps N] [--module PATH] [--profile]

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
        if profiler is not None:
            return times
        for _ in range(min(len(times["key"]), 20)):
            times["back"].append(await clock.press(pilot, "comma"))
        await pilot.press("2")
        for _ in range(20):
            times["j"].append(await clock.press(pilot, "j"))
    return times


def report(label: str, times: dict[str, list]) -> None:
    print(f"{label}, key to its last frame (CFG, source and values panes shown)")
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--module", type=Path, default=CORPUS_MODULE if CORPUS_MODULE.is_file() else None)
    parser.add_argument("--profile", action="store_true", help="each pane's share of a step, from cProfile")
    args = parser.parse_args()
    example = Document(EXAMPLE_MODULE.read_bytes(), "example.spv")
    example.run_inputs = BLUR
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
