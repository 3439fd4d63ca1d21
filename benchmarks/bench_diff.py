"""Diff speed on the large module against itself renumbered with 100 edits, beside
spirv-diff on the same pair.

Usage: python benchmarks/bench_diff.py [--module PATH] [--edits N] [--seed S] [--repeat N] [--no-spirv-diff]

Prints best-of-N wall and CPU times (a subprocess's CPU from its resource usage) for: opening and comparing the two modules (ids
matched, every region aligned), the unified diff and summary text, the whole
`spvinspect diff` command (a subprocess, as a user runs it), and `spirv-diff` (the
real binary under cmeel.prefix/bin). Also whether our diff reports exactly the edits.
Target: the whole command in 10 s or less.
"""

from __future__ import annotations

import argparse
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from large_module import build_large_module, tool_path
from measuring import best_of

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "codec"))
from diff_pairs import make_pair, reports_exactly  # noqa: E402

from spvinspect.codec.binary.lazy import open_module  # noqa: E402
from spvinspect.codec.diff import compare  # noqa: E402
from spvinspect.codec.diff.render import summary_lines, unified  # noqa: E402


def children_cpu() -> float:
    """CPU seconds (user and system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def child_best_of(repeat: int, work):
    """Best wall and CPU seconds of a subprocess run (its CPU from its resource usage,
    which a busy machine does not inflate as it does wall time)."""
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), children_cpu()
        result = work()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, children_cpu() - start_cpu)
    return wall, cpu, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--module", type=Path, default=None, help="default: the 7.9 MB generated module")
    parser.add_argument("--edits", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--no-spirv-diff", action="store_true")
    args = parser.parse_args()
    path_a = args.module or build_large_module()
    data_a = path_a.read_bytes()
    start = time.perf_counter()
    data_b, expected = make_pair(data_a, random.Random(args.seed), args.edits)
    print(f"A: {path_a} ({len(data_a):,} bytes); B: renumbered with {expected.count} edits "
          f"({', '.join(sorted(set(expected.edits)))}), made in {time.perf_counter() - start:.1f} s")
    with tempfile.TemporaryDirectory() as tmp:
        path_b = Path(tmp) / "b.spv"
        path_b.write_bytes(data_b)

        wall, cpu, diff = best_of(args.repeat, lambda: compare(open_module(data_a), open_module(data_b)))
        print(f"{'open and compare':<28}{wall:>8.2f} s wall {cpu:>8.2f} s CPU")
        exact = reports_exactly(diff, expected)
        print(f"{'reports exactly the edits':<28}{'yes' if exact else 'NO'}")

        def text() -> int:
            lines = list(unified(diff, str(path_a), str(path_b)))
            return len(lines) + len(summary_lines(diff))

        wall, cpu, count = best_of(args.repeat, text)
        print(f"{'diff and summary text':<28}{wall:>8.2f} s wall {cpu:>8.2f} s CPU ({count} lines)")

        command = [str(Path(sys.executable).parent / "spvinspect"), "diff", str(path_a), str(path_b)]
        wall, ours_cpu, run = child_best_of(args.repeat, lambda: subprocess.run(command, capture_output=True))
        print(f"{'spvinspect diff':<28}{wall:>8.2f} s wall {ours_cpu:>8.2f} s CPU (exit {run.returncode}, "
              f"{len(run.stdout):,} bytes; target 10 s)")
        if not args.no_spirv_diff:
            tool = tool_path("spirv-diff")
            their, their_cpu, run = child_best_of(
                args.repeat, lambda: subprocess.run([tool, "--no-color", str(path_a), str(path_b)], capture_output=True)
            )
            lines = [line for line in run.stdout.decode("utf-8", "replace").splitlines() if line[:1] in "-+"]
            print(f"{'spirv-diff':<28}{their:>8.2f} s wall {their_cpu:>8.2f} s CPU (exit {run.returncode}, "
                  f"{len(lines)} -/+ lines; the edits need "
                  f"{2 * len(expected.changed) + len(expected.removed) + len(expected.added)})")
            print(f"{'ratio spvinspect/spirv-diff':<28}{wall / their:>8.2f} wall {ours_cpu / their_cpu:>8.2f} CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
