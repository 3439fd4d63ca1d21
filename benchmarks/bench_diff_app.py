"""The side-by-side comparison in the app on the large module against itself renumbered
with 100 edits: how long until both sides are shown, and whether the app kept answering
meanwhile (the match runs in a worker).

Usage: python benchmarks/bench_diff_app.py [--module PATH] [--edits N] [--seed S]

How it measures (Textual headless, 120x40, in this process):
- Shown: from the app's start to the screen showing the comparison (both lists mounted,
  the cursor on the first difference), wall and CPU.
- Answering: a timer asks for a tick every 50 ms while the worker matches, and for a
  second once the comparison is shown; the longest wait between two ticks is how long
  a key could have waited. Keys are pressed meanwhile
  (`x`, `?` and escape) and each must be answered before the match ends.
- Then `n` to the next difference and `G` to the last row, each timed to the next frame.
The machine is shared with other agents (2 cores): compare figures within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from pathlib import Path

from large_module import build_large_module

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "codec"))
from diff_pairs import make_pair  # noqa: E402

from spvinspect.diff_app import DiffApp  # noqa: E402
from spvinspect.document import Document  # noqa: E402
from spvinspect.formats.compare_files import comparing  # noqa: E402
from spvinspect.screens.diff import DiffScreen  # noqa: E402
from spvinspect.screens.help import HelpScreen  # noqa: E402
from spvinspect.widgets.diff_list import DiffList  # noqa: E402

TICK = 0.05


async def measure(data_a: bytes, data_b: bytes) -> None:
    start, start_cpu = time.perf_counter(), time.process_time()
    document = Document(data_a, "large.spv")
    app = DiffApp(document, comparing(document, (data_b, "large-edited.spv"), False), "large ⇄ edited")
    gaps: list[float] = []
    answered: list[str] = []
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, DiffScreen)
        last = time.perf_counter()

        def tick() -> None:
            nonlocal last
            now = time.perf_counter()
            gaps.append(now - last)
            last = now

        timer = app.set_interval(TICK, tick)
        keys = iter(["question_mark", "escape"])
        while screen.comparison is None or not screen.query(DiffList):
            await pilot.pause(0.2)
            key = next(keys, None)
            if key is not None and screen.comparison is None:
                await pilot.press(key)
                await pilot.pause()
                shown = isinstance(app.screen, HelpScreen)
                answered.append(f"{key}: {'help shown' if shown else 'back'}")
            if screen.problem:
                print("failed:", screen.problem)
                return
        matched = len(gaps)
        await pilot.pause(1.0)  # the first paints of the comparison, ticks still counted
        timer.stop()
        wall, cpu = time.perf_counter() - start, time.process_time() - start_cpu
        print(f"{'shown':<34}{wall:>8.2f} s wall {cpu:>8.2f} s CPU "
              f"({screen.comparison.row_count:,} rows; {screen.comparison.summary_line()[:60]}…)")
        worst = max(gaps[:matched], default=0.0)
        print(f"{'longest wait between ticks':<34}{worst:>8.2f} s ({matched} ticks of {TICK} s while matching)")
        print(f"{'… and once shown':<34}{max(gaps[matched:], default=0.0):>8.2f} s (the first paints)")
        print(f"{'keys answered while matching':<34}{', '.join(answered) or 'none'}")
        for key in ("n", "G"):
            before = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            print(f"{'key ' + key:<34}{time.perf_counter() - before:>8.3f} s (to row {screen.row:,})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", type=Path, default=None, help="default: the 7.9 MB generated module")
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    path = args.module or build_large_module()
    data_a = path.read_bytes()
    data_b, expected = make_pair(data_a, random.Random(args.seed), args.edits)
    print(f"A: {path} ({len(data_a):,} bytes); B: renumbered with {expected.count} edits")
    asyncio.run(measure(data_a, data_b))
    return 0


if __name__ == "__main__":
    sys.exit(main())
