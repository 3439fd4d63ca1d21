"""The Lima emulator's speed beside issue #22's budgets: a 64x64 grid of a 100-instruction
program (<= 2 s), and stepping a 1,000-instruction program (<= 16 ms a step).

Usage: python benchmarks/bench_lima_run.py [--repeat N]

How it measures:
- Grid: `run_grid` on a 64x64 grid (4,096 fragments) of (a) a straight-line program of 100
  instructions assembled here that keeps every arithmetic unit busy (varying fetch, uniform
  load, vec4 and scalar mul/add, combine, temporary store) and (b) the longest of Mesa's
  programs in ../shared/lima/programs when that folder is there. Best and median of N runs.
- Stepping: a `Machine` on a 1,000-instruction version of the same program, stepped one
  instruction at a time to the end (each step keeps an undo copy of the state); the median
  and worst step, and `back` over all of them.
- In the app (`--app`): Lima mode over the 1,000-instruction program with the registers
  and image panes shown; for `.` (step, until the run and the list are on the next
  instruction), `,` (back), `n` and `p` (the next or previous instruction, no run): the
  time from the key to the last frame it caused (`key_frames.FrameClock`: the app's
  display hook, not Pilot's waiting), median and 95th percentile, CPU time and frames per
  key, beside the 16 ms budget; and the image pane's 64x64 grid of the 100-instruction
  program in its worker, from the restart to the drawn image.
There is no reference emulator to compare with: the figures stand beside the budgets.
The machine is shared with other agents (2 cores): compare figures within one run.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from spvinspect import lima
from spvinspect.lima.emulator import Machine, parse_inputs, run_grid

sys.path.insert(0, str(Path(__file__).resolve().parent))

from key_frames import FrameClock, summary  # noqa: E402

PROGRAMS = Path("/work/shared/lima/programs")
BODY = [
    "load.v $1 0, mul.v0 ^v0 $1 ^const0.xxxx, add.v1 $2 ^v0 $2, const0 0.5 0 0 0",
    "load.u 0, mul.s0 ^s0 $2.x ^uniform.y, add.s1 $3.x ^s0 $3.y",
    "rsqrt.s2 $3.z $3.x_abs",
    "mul.v0 $4 $2 $3.zzzz, max.v1 $2 $4 -$2, store.t 65535 $4",
    "load.t 65535, mul.v0 ^v0 ^uniform $2.wzyx, add.v1 $3 ^v0 $3",
]
INPUTS = {
    "varyings": {"0": {"bottom_left": [0, 0, 0, 1], "bottom_right": [1, 0.5, 0, 1], "top_left": [0, 1, 0.25, 1]}},
    "uniforms": {"0": [0.5, 0.25, -1.0, 2.0]},
}


def straight_program(instructions: int):
    lines = [BODY[i % len(BODY)] for i in range(instructions - 1)] + ["stop, mov.v1 $0 $3"]
    words, diagnostics = lima.assemble("\n".join(lines))
    assert words is not None, diagnostics
    return lima.decode_words(words)


def time_grid(program, repeat: int) -> list[float]:
    inputs = parse_inputs(INPUTS)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run_grid(program, inputs, (64, 64))
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--app", action="store_true", help="also time stepping and the grid in the app")
    parser.add_argument("--keys", type=int, default=50, help="steps timed in the app (half as many of each other key)")
    args = parser.parse_args()
    print("grid 64x64 (budget 2.000 s)")
    hundred = straight_program(100)
    times = time_grid(hundred, args.repeat)
    print(f"  100-instruction program        best {min(times):.3f} s  median {statistics.median(times):.3f} s")
    if PROGRAMS.is_dir():
        longest = max(
            (lima.decode(p.read_bytes()) for p in PROGRAMS.glob("*.pp")), key=lambda prog: len(prog.instructions)
        )
        times = time_grid(longest, args.repeat)
        print(
            f"  longest Mesa program ({len(longest.instructions)} instructions) "
            f"best {min(times):.3f} s  median {statistics.median(times):.3f} s"
        )
    print("stepping (budget 16 ms a step)")
    machine = Machine(straight_program(1000), parse_inputs(INPUTS))
    steps = []
    while not machine.finished:
        start = time.perf_counter()
        machine.step()
        steps.append(time.perf_counter() - start)
    backs = []
    while True:
        start = time.perf_counter()
        moved = machine.back()
        backs.append(time.perf_counter() - start)
        if not moved:
            break
    print(
        f"  1,000-instruction program      step median {statistics.median(steps) * 1e3:.3f} ms  "
        f"worst {max(steps) * 1e3:.3f} ms; back median {statistics.median(backs) * 1e3:.3f} ms"
    )
    if args.app:
        asyncio.run(time_app(args.keys))


def _program_bytes(instructions: int) -> bytes:
    lines = [BODY[i % len(BODY)] for i in range(instructions - 1)] + ["stop, mov.v1 $0 $3"]
    words, _ = lima.assemble("\n".join(lines))
    return b"".join(w.to_bytes(4, "little") for w in words)


async def _until(pilot, condition) -> None:
    while not condition():
        await pilot.pause(0.001)


async def time_app(keys: int = 50) -> None:
    from spvinspect.app import InspectorApp
    from spvinspect.lima_document import LimaDocument

    app = InspectorApp(LimaDocument(_program_bytes(1000), "bench.bin"), theme="spvinspect-dark")
    clock = FrameClock(app)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("6", "8", "2")
        registers = screen.query_one("#registers")
        image = screen.query_one("#image")
        screen.execution.settings.data = INPUTS
        screen.restart_run()
        await _until(pilot, lambda: image.pixels is not None and not image.progress)
        idle = [await clock.press(pilot, "f24", redraws=False) for _ in range(5)]
        steps = []
        for k in range(1, keys + 1):
            done = lambda k=k: screen.execution.run.steps == k and screen.selection.instruction == k  # noqa: E731
            steps.append(await clock.press(pilot, "full_stop", done))
        assert f"step {keys} ·" in registers.render_text().plain
        others = max(keys // 2, 1)
        backs = [await clock.press(pilot, "comma") for _ in range(others)]
        moves = [await clock.press(pilot, "n") for _ in range(others)]
        previous = [await clock.press(pilot, "p") for _ in range(others)]
        actions = []
        for _ in range(20):  # the step's own work: the engine, the registers' text, the gutter
            start = time.perf_counter()
            screen.action_run_step()
            actions.append(time.perf_counter() - start)
            await clock.settle()
        print("in the app, key to its first frame, then to its last (1,000-instruction program; registers and image shown)")
        print(summary(". (step)", steps))
        print(summary(", (step back)", backs))
        print(summary("n (next instruction, no run)", moves))
        print(summary("p (previous instruction, no run)", previous))
        print(summary("f24 (bound to nothing)", idle))
        print(f"  the step's own work (engine, registers text, gutter marks) median {statistics.median(actions) * 1e3:.1f} ms")
    app = InspectorApp(LimaDocument(_program_bytes(100), "bench.bin"), theme="spvinspect-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await pilot.press("8")
        image = screen.query_one("#image")
        await _until(pilot, lambda: image.pixels is not None and not image.progress)
        screen.execution.settings.data = INPUTS
        screen.execution.settings.grid = (64, 64)
        start = time.perf_counter()
        screen.restart_run()
        await _until(pilot, lambda: image.pixels is not None and image.pixels.shape[:2] == (64, 64) and not image.progress)
        print(f"  64x64 grid, 100 instructions   in the worker, drawn {time.perf_counter() - start:.3f} s (budget 2 s)")


if __name__ == "__main__":
    main()
