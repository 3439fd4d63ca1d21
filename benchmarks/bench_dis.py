"""Disassembly speed and memory: `spvinspect dis` against `spirv-dis` on the large module.

Usage: python benchmarks/bench_dis.py [--module PATH] [--repeat N]

Runs both tools on the 7.9 MB module in one run, alternating, and prints for each
flag set the best wall time, the best CPU time (user + system) and the peak RSS of
every tool, and the ratios ours / reference. `spirv-dis` is its real binary (not the
Python launcher cmeel installs beside the interpreter). Targets: friendly names <= 1.0x,
--raw-id <= 2x, our peak RSS <= 300 MB. The machine may be shared: wall times then
include waiting for a CPU, so the CPU ratio is printed beside the wall ratio.
"""

from __future__ import annotations

import sys
from pathlib import Path

from large_module import module_and_repeat, tool_path
from measuring import ChildRun, run_child

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"(default)": 1.0, "--raw-id": 2.0}
RSS_TARGET_MB = 300


def measure(command: list[str]) -> ChildRun:
    """Wall time, CPU time and peak RSS of one run of `command`, output discarded."""
    run = run_child(command, ROOT)
    if run.code != 0:
        raise SystemExit(f"{command[0]} failed with exit code {run.code}")
    return run


def best(runs: list[ChildRun]) -> ChildRun:
    """The best of each figure."""
    return ChildRun(min(r.wall for r in runs), min(r.cpu for r in runs), max(r.rss_mb for r in runs), 0)


def main() -> int:
    module, repeat = module_and_repeat(__doc__)
    ours = [sys.executable, "-m", "spvinspect.cli", "dis"]
    reference = [tool_path("spirv-dis"), "--no-color"]
    print(f"module: {module} ({module.stat().st_size / 1e6:.1f} MB)")
    print(f"reference: {reference[0]}")
    header = f"{'flags':<12}{'tool':<16}{'wall':>8}{'cpu':>8}{'peak RSS':>10}"
    print(header)
    for flags, target in TARGETS.items():
        extra = [] if flags == "(default)" else flags.split()
        mine: list[ChildRun] = []
        theirs: list[ChildRun] = []
        for _ in range(repeat):
            mine.append(measure([*ours, *extra, str(module)]))
            theirs.append(measure([*reference, *extra, str(module)]))
        a, b = best(mine), best(theirs)
        print(f"{flags:<12}{'spvinspect dis':<16}{a.wall:>7.2f}s{a.cpu:>7.2f}s{a.rss_mb:>7.0f} MB")
        print(f"{'':<12}{'spirv-dis':<16}{b.wall:>7.2f}s{b.cpu:>7.2f}s{b.rss_mb:>7.0f} MB")
        print(
            f"{'':<12}{'ratio':<16}{a.wall / b.wall:>7.2f}x{a.cpu / b.cpu:>7.2f}x"
            f"   (target <= {target:.1f}x; our RSS target <= {RSS_TARGET_MB} MB)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
