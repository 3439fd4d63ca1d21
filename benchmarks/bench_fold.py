"""Folding and the word table on the large module: fold and unfold a function in the
middle, the biggest function, a block, and a list move with the word table shown, against
the 50 ms target.

Usage: python benchmarks/bench_fold.py [--module PATH] [--repeat N]
The module is opened and indexed as the app does before timing starts. Times are
wall-clock from the key press to the list repainted, best of N, in a headless app at
120x40, and the CPU time of that work (see bench_hex.py for what wall time holds). There
is no reference tool for folding in a terminal, so the figures are printed beside the
target. The machine is shared: compare within a run, not absolutes.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_hex import TARGET_MS, Timing, indexed_document, timed_press  # noqa: E402
from large_module import module_and_repeat  # noqa: E402

from spvinspect.app import InspectorApp  # noqa: E402
from spvinspect.document import Document  # noqa: E402


async def measure(document: Document, repeat: int) -> dict[str, Timing]:
    """Timings of a key bound to nothing (the harness's own cost), `f` on a function's
    OpFunction row (fold, then unfold), on the biggest function's, inside a block, and of
    `j` without and with the word table shown."""
    app = InspectorApp(document)
    names = ("a key bound to nothing", "fold", "unfold", "fold biggest", "unfold biggest", "fold block", "move", "move with word table")
    timings = {name: Timing() for name in names}
    spans = document.module.functions()
    biggest = max(spans, key=lambda span: span.end - span.first)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        screen = app.screen
        for attempt in range(repeat):
            span = spans[len(spans) // 2 + attempt]
            screen.select(document.select_instruction(span.first), jump=True)
            await pilot.pause()
            await timed_press(pilot, "f12", timings["a key bound to nothing"])
            await timed_press(pilot, "f", timings["fold"])
            await timed_press(pilot, "f", timings["unfold"])
            screen.select(document.select_instruction(biggest.first), jump=True)
            await pilot.pause()
            await timed_press(pilot, "f", timings["fold biggest"])
            await timed_press(pilot, "f", timings["unfold biggest"])
            screen.select(document.select_instruction(span.first + 4), jump=True)
            await pilot.pause()
            await timed_press(pilot, "f", timings["fold block"])
            await timed_press(pilot, "f", timings["unfold"])
        assert document.row_count == document.instruction_count + len(document.tail_lines)
        for _ in range(repeat):
            await timed_press(pilot, "j", timings["move"])
        await pilot.press("6")
        for _ in range(repeat):
            await pilot.press("2")
            await timed_press(pilot, "j", timings["move with word table"])
    return timings


def main() -> int:
    path, repeat = module_and_repeat(__doc__, repeat=5)
    document, data, opened = indexed_document(path)
    spans = document.module.functions()
    biggest = max(span.end - span.first for span in spans)
    print(f"module: {path} ({len(data) / 1e6:.1f} MB, {document.instruction_count} instructions, "
          f"{len(spans)} functions, the biggest {biggest} instructions; opened in {opened:.2f}s, not timed)")
    timings = asyncio.run(measure(document, repeat))
    print(f"{'action':<32}{'wall':>9}{'CPU':>9}{'target':>9}")
    for name, timing in timings.items():
        print(f"{name:<32}{timing.wall:>7.1f}ms{timing.cpu:>7.1f}ms{TARGET_MS:>7.0f}ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
