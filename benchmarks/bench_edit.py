"""Benchmark: keystroke to new binary in the editing session, on a 5,000-line module and on
the 468,000-instruction large module, next to spirv-as assembling the same text.

Run: python benchmarks/bench_edit.py [--keys N] [--no-large]

Each keystroke is one character typed into the text and then deleted again (two
keystrokes), at places spread evenly through the functions: a digit at the end of a
line ending in a number (a literal or an id: the common edit, which the incremental path
takes; such lines are mostly the constants before the functions), and, separately, an
arbitrary character at an arbitrary place in the functions (which may make an error or a
new name and so a whole re-assembly). A keystroke's time is
`session.edit` + the job (`request().run()`: assembly and the changed words) +
`accept`, as the screen's worker runs them; p50, p95 and max are printed with the
targets (100 ms p95 at 5,000 lines, 250 ms on the large module). The editor widget's
own cost per key (TextArea edit, re-highlight) is timed on the 5,000-line text in a
headless app. spirv-as (the real binary, not cmeel's launcher) is what assembling the
whole text on every key would cost. The machine is shared: compare within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.large_module import build_large_module, glsl_source, tool_path  # noqa: E402
from inspector.editing.session import EditSession  # noqa: E402

EDITOR_LINES = 5_000
TARGETS_MS = {"5,000 lines": 100.0, "large module": 250.0}
_ENDS_IN_NUMBER = re.compile(r" -?\d+$")


def editor_module(tmp: Path) -> bytes:
    """A valid module whose disassembly has at least EDITOR_LINES lines."""
    functions = 40
    while True:
        src = tmp / "editor.frag"
        src.write_text(glsl_source(functions), encoding="utf-8")
        spv = tmp / "editor.spv"
        glslang = Path(sys.executable).parent / "glslangValidator"
        subprocess.run([str(glslang), "-V", "-o", str(spv), str(src)], check=True, capture_output=True)
        session = EditSession.open(spv.read_bytes())
        if len(session.lines) >= EDITOR_LINES:
            return spv.read_bytes()
        functions = functions * 3 // 2


def opened(data: bytes) -> EditSession:
    """A session over `data`, assembled once (as the editor opens)."""
    session = EditSession.open(data)
    while (job := session.request()) is not None:
        session.accept(job.run())
    assert session.binary == data, "the unedited text does not give back the module"
    return session


def keystroke(session: EditSession, start: tuple[int, int], end: tuple[int, int], text: str) -> tuple[float, bool]:
    """Seconds from the edit to the accepted new binary; whether it was incremental."""
    began = time.perf_counter()
    session.edit(start, end, text)
    job = session.request()
    outcome = job.run()
    session.accept(outcome)
    return time.perf_counter() - began, outcome.incremental


def places(session: EditSession, count: int, rng: random.Random, numbered: bool) -> list[tuple[int, int]]:
    """(line, column) spread through the instructions (lines ending in a number are
    mostly constants before the functions; arbitrary places are in the functions)."""
    lines = session.lines
    first = next(i for i, line in enumerate(lines) if ("OpFunction " if not numbered else "OpCapability") in line)
    if numbered:
        rows = [i for i in range(first, len(lines)) if _ENDS_IN_NUMBER.search(lines[i])]
        step = max(1, len(rows) // count)
        return [(row, len(lines[row])) for row in rows[::step][:count]]
    step = max(1, (len(lines) - first) // count)
    chosen = []
    for row in range(first, len(lines), step):
        if lines[row].strip():
            chosen.append((row, rng.randrange(len(lines[row]) + 1)))
    return chosen[:count]


def run_keys(session: EditSession, spots: list[tuple[int, int]], rng: random.Random, numbered: bool):
    """Type and delete one character at each spot; times and how many were incremental."""
    times, incremental = [], 0
    for row, column in spots:
        char = rng.choice("0123456789") if numbered else rng.choice("0123456789abcxyz% =,;\"")
        for start, end, text in (((row, column), (row, column), char), ((row, column), (row, column + 1), "")):
            seconds, fast = keystroke(session, start, end, text)
            times.append(seconds)
            incremental += fast
    return times, incremental


def spirv_as_seconds(text: str, tmp: Path) -> float:
    """spirv-as on the whole text, best of two."""
    source = tmp / "bench.spvasm"
    source.write_text(text, encoding="utf-8")
    best = float("inf")
    for _ in range(2):
        began = time.perf_counter()
        subprocess.run([tool_path("spirv-as"), str(source), "-o", str(tmp / "bench.spv"),
                        "--preserve-numeric-ids"], check=True)
        best = min(best, time.perf_counter() - began)
    return best


def row(label: str, times: list[float], incremental: int, target: float | None, reference: float) -> str:
    ms = sorted(t * 1000 for t in times)
    p50 = statistics.median(ms)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    verdict = "" if target is None else ("  ok" if p95 <= target else "  OVER")
    goal = f"target p95 {target:.0f} ms" if target is not None else "no target"
    return (f"  {label:<34} keys {len(ms):4}  incremental {incremental:4}  p50 {p50:8.1f}  p95 {p95:8.1f}"
            f"  max {ms[-1]:8.1f} ms  ({goal}{verdict}; spirv-as whole text {reference * 1000:.0f} ms)")


async def widget_ms(text: str, keys: int) -> list[float]:
    """The editor widget's own time per typed character on `text` (headless)."""
    from textual.app import App, ComposeResult

    from inspector.widgets.asm_editor import AsmEditor

    class Host(App):
        def compose(self) -> ComposeResult:
            yield AsmEditor(text)

    times = []
    async with Host().run_test(size=(120, 40)) as pilot:
        editor = pilot.app.query_one(AsmEditor)
        lines = text.split("\n")
        step = max(1, len(lines) // keys)
        for line in range(0, len(lines), step)[:keys]:
            began = time.perf_counter()
            editor.insert("7", (line, len(lines[line])))
            times.append(time.perf_counter() - began)
            editor.undo()
    return times


def bench(label: str, data: bytes, keys: int, arbitrary_keys: int, tmp: Path, rng: random.Random) -> EditSession:
    began = time.perf_counter()
    session = opened(data)
    print(f"{label}: {len(session.lines):,} lines, {len(data):,} bytes; opened and assembled in "
          f"{time.perf_counter() - began:.1f} s")
    reference = spirv_as_seconds(session.text, tmp)
    times, fast = run_keys(session, places(session, keys, rng, True), rng, True)
    print(row("digit at a number's end", times, fast, TARGETS_MS[label], reference))
    times, fast = run_keys(session, places(session, arbitrary_keys, rng, False), rng, False)
    print(row("any character, anywhere", times, fast, None, reference))
    return session


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=100, help="places typed at (two keystrokes each)")
    parser.add_argument("--no-large", action="store_true", help="skip the large module")
    args = parser.parse_args()
    rng = random.Random(4)
    print("keystroke -> new binary (edit, assembly, changed words); shared machine: compare ratios within a run")
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        small = bench("5,000 lines", editor_module(tmp), args.keys, args.keys, tmp, rng)
        widget = sorted(t * 1000 for t in asyncio.run(widget_ms(small.text, 40)))
        print(f"  {'editor widget alone (5,000 lines)':<34} keys {len(widget):4}  p50 "
              f"{statistics.median(widget):8.1f}  max {widget[-1]:8.1f} ms")
        if not args.no_large:
            bench("large module", build_large_module().read_bytes(), args.keys, 6, tmp, rng)


if __name__ == "__main__":
    main()
