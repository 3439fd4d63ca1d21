"""Peak memory on hostile inputs: `spvinspect dis --lossless` and `explain` of 64 MB files,
the app's way of reading one, and the assembler on a 10 MB string literal.

Usage: python benchmarks/bench_memory.py [--folder /tmp] [--size-mb 64] [--text-mb 200]

Builds (once, seeded) two inputs of random words: one with no SPIR-V header at all (the
whole file is an undecodable tail) and one with a valid header (instructions thousands
of words long that do not fit the grammar). Runs each command in a fresh process and
prints its peak RSS beside the target, and `spirv-dis`'s (its real binary, which
stops at the first fault) on the same input for reference. Targets (issue 16): dis
--lossless and explain <= 1.5 GB for a 64 MB input, the app's reading far below that
(<= 400 MB, the app's own target), a 10 MB string literal rejected in <= 20x its size.
Wall times are shown too, but the machine may be shared: they are indicative only.

Last, `as` on a 200 MB text (issue 23: peak RSS <= 10x the text's size): the benchmark
module's disassembly with its functions repeated, each copy's numeric ids moved past
the previous copy's, beside `spirv-as` on the same text.
"""

from __future__ import annotations

import argparse
import random
import re
import struct
import subprocess
import sys
from pathlib import Path

from large_module import build_large_module, tool_path
from measuring import ChildRun, run_child

ROOT = Path(__file__).resolve().parent.parent
TARGET_MB = 1500
APP_TARGET_MB = 400
STRING_BYTES = 10_000_000
STRING_FACTOR = 20
TEXT_FACTOR = 10


def measure(command: list[str]) -> ChildRun:
    """Peak RSS and wall time of one run of `command`, output discarded."""
    return run_child(command, ROOT, quiet=True)


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


def big_text(path: Path, size: int) -> Path:
    """At least `size` bytes of assembly (built once): the benchmark module's spirv-dis
    text, then its function section again and again with each copy's numeric ids
    shifted past the previous copy's (those the head defines kept), so that every copy
    defines new ids."""
    if path.exists() and path.stat().st_size >= size:
        return path
    module = build_large_module()
    text = subprocess.run([tool_path("spirv-dis"), "--no-color", str(module)],
                          check=True, capture_output=True, text=True).stdout
    bound = int(re.search(r"^; Bound: (\d+)", text, re.M).group(1))
    start = text.index("\n", text.index(" = OpFunction ") - 80) + 1
    head, functions = text[:start], text[start:]
    copies = -(-(size - len(head)) // len(functions))
    shared = set(re.findall(r"%([0-9]+) =", head))  # types, constants, imports: not copied
    header = head.replace(f"; Bound: {bound}", f"; Bound: {bound * copies}")
    with path.open("w", encoding="utf-8") as file:
        file.write(header)
        file.write(functions)
        for copy in range(1, copies):
            shift = bound * copy
            file.write(re.sub(r"%([0-9]+)\b", lambda m: m.group(0) if m.group(1) in shared
                              else f"%{int(m.group(1)) + shift}", functions))
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


def row(what: str, run: ChildRun, target: str) -> None:
    """One line of the table."""
    print(f"{what:<44}{run.rss_mb:>8.0f} MB{run.wall:>8.1f}s{run.code:>5}   {target}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folder", type=Path, default=Path("/tmp"))
    parser.add_argument("--size-mb", type=int, default=64)
    parser.add_argument("--text-mb", type=int, default=200)
    parser.add_argument("--only-text", action="store_true", help="only the `as` on a big text")
    parser.add_argument("--probe-app", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe_app:
        probe_app(args.probe_app)
        return 0
    size = args.size_mb << 20
    args.folder.mkdir(parents=True, exist_ok=True)
    ours = [sys.executable, "-m", "spvinspect.cli"]
    if args.only_text:
        print(f"{'':<44}{'peak RSS':>11}{'wall':>9}{'exit':>5}   target")
        big_text_rows(args.folder, args.text_mb, ours)
        return 0
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
    big_text_rows(args.folder, args.text_mb, ours)
    return 0


def big_text_rows(folder: Path, text_mb: int, ours: list[str]) -> None:
    """`as` and spirv-as on a text of `text_mb` MB: peak RSS beside the target."""
    output = folder / "spvinspect-bench-memory.out"
    text = big_text(folder / f"spvinspect-bench-memory-{text_mb}mb.spvasm", text_mb * 10**6)
    size_mb = text.stat().st_size / 2**20
    print(f"a {size_mb:.0f} MB text (the benchmark module's functions repeated): {text}")
    row("  spvinspect as", measure([*ours, "as", str(text), "-o", str(output)]),
        f"<= {TEXT_FACTOR * size_mb:.0f} MB ({TEXT_FACTOR}x the input)")
    row("  spirv-as (reference)", measure([tool_path("spirv-as"), str(text), "-o", str(output)]), "-")
    output.unlink(missing_ok=True)


if __name__ == "__main__":
    sys.exit(main())
