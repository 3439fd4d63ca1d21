"""Disassembly speed: `spvinspect dis` against `spirv-dis` on the large module, one run.

Usage: python benchmarks/bench_dis.py [--module PATH] [--repeat N]
Prints wall times (best of N) and the ratio ours / reference, with friendly names
(default flags) and with --raw-id. Target: ratio <= 1.5 with friendly names.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from large_module import build_large_module, tool_path


def best_time(command: list[str], repeat: int) -> float:
    """Best wall time of `repeat` runs of `command`, output discarded."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", type=Path, default=Path("/tmp/spvinspect-large.spv"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    module = build_large_module(args.module)
    ours = [sys.executable, "-m", "inspector.cli", "dis"]
    reference = [tool_path("spirv-dis") or "spirv-dis", "--no-color"]
    print(f"module: {module} ({module.stat().st_size / 1e6:.1f} MB)")
    print(f"{'flags':<14}{'spvinspect dis':>16}{'spirv-dis':>12}{'ratio':>8}")
    for flags in ([], ["--raw-id"]):
        ours_s = best_time([*ours, *flags, str(module)], args.repeat)
        ref_s = best_time([*reference, *flags, str(module)], args.repeat)
        label = " ".join(flags) or "(default)"
        print(f"{label:<14}{ours_s:>15.2f}s{ref_s:>11.2f}s{ours_s / ref_s:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
