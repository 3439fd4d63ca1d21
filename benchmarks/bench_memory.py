"""Peak memory on hostile inputs: `spvinspect dis --lossless` and `explain` of 64 MB files,
the app's way of reading one, and the assembler on a 10 MB string literal.

Usage: python benchmarks/bench_memory.py [--folder /tmp] [--size-mb 64]

Builds (once, seeded) two inputs of random words: one with no SPIR-V header at all (the
whole file is an undecodable tail) and one with a valid header (instructions thousands
of words long that do not fit the grammar). Runs each command in a fresh process and
prints its peak RSS beside the target, and `spirv-dis`'s (its real binary, which
stops at the first fault) on the same input for reference. Targets (issue 16): dis
--lossless and explain <= 1.5 GB for a 64 MB input, the app's reading far below that
(<= 400 MB, the app's own target), a 10 MB string literal rejected in <= 20x its size.
Wall times are shown too, but the machine may be shared: they are indicative only.
"""

from __future__ import annotations

import argparse
import os
import random
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from large_module import tool_path

ROOT = Path(__file__).resolve().parent.parent
TARGET_MB = 1500
APP_TARGET_MB = 400
STRING_BYTES = 10_000_000
STRING_FACTOR = 20


class Run(NamedTuple):
    """One process: peak RSS, wall time and exit code."""

    rss_mb: float
    wall: float
    code: int


def measure(command: list[str]) -> Run:
    """Peak RSS and wall time of one run of `command`, output discarded."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    _, status, usage = os.wait4(process.pid, 0)
    return Run(usage.ru_maxrss / 1024, time.perf_counter() - start, os.waitstatus_to_exitcode(status))


def random_words(path: Path, size: int, header: bool) -> Path:
    """`size` seeded random bytes, after a valid SPIR-V 1.0 header when `header` (built once)."""
    if not path.exists() or path.stat().st_size != size:
        rng = random.Random(f"bench_memory/{header}")
        prefix = struct.pack("<5I", 0x07230203, 0x00010000, 0, 1000, 0) if header else b""
        with path.open("wb") as file:
            file.write(prefix)
            # A megabyte at a time: a child forked from a large process starts its peak
            # RSS at the parent's size.
            for start in range(len(prefix), size, 1 << 20):
                file.write(rng.randbytes(min(1 << 20, size - start)))
    return path


def string_literal(path: Path) -> Path:
    """A module whose OpName carries a 10 MB string: far past an instruction's 65,535 words."""
    if not path.exists():
        with path.open("w") as file:
            file.write('OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpName %1 "')
            for _ in range(STRING_BYTES // 1000):
                file.write("a" * 1000)
            file.write('"\n')
    return path


def probe_app(path: str) -> None:
    """Read a module as the app does: the first window, the whole index and diagnostics
    (its worker), then the last window (its lines made one by one, none kept)."""
    sys.path.insert(0, str(ROOT))
    from spvinspect.codec.binary.lazy import open_module

    module = open_module(Path(path).read_bytes())
    for _ in module.instructions(0, 60):
        pass
    module.ensure_indexed()
    module.check()
    for _ in module.instructions(max(0, module.instruction_count - 60)):
        pass


def row(what: str, run: Run, target: str) -> None:
    """One line of the table."""
    print(f"{what:<44}{run.rss_mb:>8.0f} MB{run.wall:>8.1f}s{run.code:>5}   {target}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp"))
    parser.add_argument("--size-mb", type=int, default=64)
    parser.add_argument("--probe-app", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe_app:
        probe_app(args.probe_app)
        return 0
    size = args.size_mb << 20
    args.folder.mkdir(parents=True, exist_ok=True)
    ours = [sys.executable, "-m", "spvinspect.cli"]
    reference = tool_path("spirv-dis")
    output = args.folder / "spvinspect-bench-memory.out"
    print(f"reference: {reference} (stops at the first fault)")
    print(f"{'':<44}{'peak RSS':>11}{'wall':>9}{'exit':>5}   target")
    for header in (False, True):
        name = f"spvinspect-random-{args.size_mb}mb{'-header' if header else ''}.spv"
        module = random_words(args.folder / name, size, header)
        print(f"{args.size_mb} MB of random words, {'after a valid header' if header else 'no header'}: {module}")
        for command in (["dis", "--lossless"], ["explain"]):
            run = measure([*ours, *command, str(module), "-o", str(output)])
            row(f"  spvinspect {' '.join(command)}", run, f"<= {TARGET_MB} MB")
        run = measure([sys.executable, __file__, "--probe-app", str(module)])
        row("  as the app reads it (windows, index, check)", run, f"<= {APP_TARGET_MB} MB")
        row("  spirv-dis --no-color (reference)", measure([reference, "--no-color", str(module), "-o", str(output)]), "-")
    output.unlink(missing_ok=True)
    text = string_literal(args.folder / "spvinspect-bench-memory-string.spvasm")
    run = measure([*ours, "as", str(text), "-o", str(output)])
    limit = STRING_FACTOR * text.stat().st_size / 2**20
    print(f"a {STRING_BYTES / 1e6:.0f} MB string literal (refused: too long): {text}")
    row("  spvinspect as", run, f"<= {limit:.0f} MB ({STRING_FACTOR}x the input)")
    output.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
