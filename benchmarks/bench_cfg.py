"""Control-flow analysis speed on the large module, against `spirv-cfg`, in one run.

Usage: python benchmarks/bench_cfg.py [--module PATH] [--repeat N]
Prints best-of-N wall (and, in-process, CPU) times for: decoding, friendly names, building the CFG of every
function (blocks, edges, dominators, back edges, depth), the DOT text, the whole
`spvinspect cfg` command, and `spirv-cfg`. Target: every function's CFG in well under
a second.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from large_module import build_large_module, tool_path

from codec.cfg.graph import build_cfg
from codec.binary.decoder import decode
from codec.cfg.dot import to_dot
from codec.text.names import friendly_names


def best_of(repeat: int, work: Callable[[], object]) -> tuple[float, float, object]:
    """Best wall and best CPU time of `repeat` calls of `work` (the CPU time of this
    process only: for subprocesses it is meaningless), and the last result."""
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", type=Path, default=Path("/tmp/spvinspect-large.spv"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    path = build_large_module(args.module)
    data = path.read_bytes()

    decode_s = best_of(args.repeat, lambda: decode(data))
    module = decode_s[2]
    names_s = best_of(args.repeat, lambda: friendly_names(module.instructions))
    cfg_s = best_of(args.repeat, lambda: build_cfg(module, names_s[2]))
    cfg = cfg_s[2]
    dot_s = best_of(args.repeat, lambda: to_dot(cfg))
    command = [sys.executable, "-m", "inspector.cli", "cfg", str(path)]
    ours_s = best_of(args.repeat, lambda: subprocess.run(command, check=True, stdout=subprocess.DEVNULL))
    reference = [tool_path("spirv-cfg") or "spirv-cfg", str(path)]
    ref_s = best_of(args.repeat, lambda: subprocess.run(reference, check=True, stdout=subprocess.DEVNULL))

    functions = cfg.functions
    blocks = sum(len(f.blocks) for f in functions)
    largest = max(functions, key=lambda f: len(f.blocks))
    print(f"module: {path} ({len(data) / 1e6:.1f} MB, {len(module.instructions)} instructions)")
    print(f"functions: {len(functions)}, blocks: {blocks}, edges: {sum(len(f.edges) for f in functions)}")
    print(f"largest function: %{largest.name} with {len(largest.blocks)} blocks")
    per_function = cfg_s[0] / len(functions) * 1e6
    print(f"{'step':<34}{'wall':>9}{'cpu':>9}")
    for label, (wall, cpu, _) in (
        ("decode", decode_s),
        ("friendly names", names_s),
        ("CFG of every function", cfg_s),
        ("DOT text", dot_s),
    ):
        print(f"{label:<34}{wall:>8.3f}s{cpu:>8.3f}s")
    print(f"{'':<34}({per_function:.0f} us a function, wall)")
    print(f"{'spvinspect cfg (whole command)':<34}{ours_s[0]:>8.3f}s")
    print(f"{'spirv-cfg':<34}{ref_s[0]:>8.3f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
