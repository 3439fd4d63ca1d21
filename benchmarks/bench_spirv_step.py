"""Stepping a SPIR-V shader in the app (issue #26's budget: a step <= 16 ms) on the bundled
example's blur branch (a loop of 17 texture reads):

- the step's own work: the screen's step action (the interpreter's step, the values pane's
  rows, the gutter marks, the CFG's blocks taken) and drawing the values pane's lines;
- from the key to the next frame with Textual's Pilot, beside the same for `j` (a plain
  move of the list's cursor), which is what the framework and the other panes cost;
- `back`, which replays the group from the start to the step before.

Usage: python benchmarks/bench_spirv_step.py [--steps N]

The figures are medians and worsts over the steps (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time

from spvinspect.app import InspectorApp
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from spvinspect.widgets.values_pane import ValuesPane

BLUR = {"buffers": {"0.1": {"tint": [1, 1, 1, 1], "mode": 1, "steps": 8, "threshold": 0.0}}, "inputs": {"uv": [0.25, 0.5]}}


async def measure(steps: int) -> dict[str, list[float]]:
    document = Document(EXAMPLE_MODULE.read_bytes(), "example.spv")
    document.run_inputs = BLUR
    app = InspectorApp(document)
    times: dict[str, list[float]] = {"work": [], "key": [], "j": [], "back": []}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("8")
        await pilot.pause()
        screen = app.screen
        values = screen.query_one(ValuesPane)
        height = values.scrollable_content_region.height
        for number in range(steps):
            if number % 2:
                start = time.perf_counter()
                screen.action_run_step()
                for y in range(height):
                    values.render_line(y)
                times["work"].append(time.perf_counter() - start)
                await pilot.pause()
            else:
                start = time.perf_counter()
                await pilot.press("full_stop")
                await pilot.pause()
                times["key"].append(time.perf_counter() - start)
            assert values.rows
        await pilot.press("2")
        for _ in range(20):
            start = time.perf_counter()
            await pilot.press("j")
            await pilot.pause()
            times["j"].append(time.perf_counter() - start)
        for _ in range(min(steps, 20)):
            start = time.perf_counter()
            await pilot.press("comma")
            await pilot.pause()
            times["back"].append(time.perf_counter() - start)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=150)
    args = parser.parse_args()
    times = asyncio.run(measure(args.steps))
    ms = lambda seconds: f"{seconds * 1000:7.1f} ms"  # noqa: E731
    print(f"example, blur branch, {args.steps} steps in the app (budget 16 ms a step)")
    for name, text in (("work", "a step's own work"), ("key", "key . to frame (Pilot)"), ("j", "key j to frame (Pilot)"),
                       ("back", "key , (back) to frame")):
        figures = times[name]
        print(f"  {text:<24} median {ms(statistics.median(figures))}  worst {ms(max(figures))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
