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
There is no reference emulator to compare with: the figures stand beside the budgets.
The machine is shared with other agents (2 cores): compare figures within one run.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from spvinspect import lima
from spvinspect.lima.emulator import Machine, parse_inputs, run_grid

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


if __name__ == "__main__":
    main()
