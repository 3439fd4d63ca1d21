"""Opening the large module on demand: the first screen, and windows anywhere in it.

Usage: python benchmarks/bench_open.py [--module PATH] [--repeat N]

In one process, with the module's bytes already in memory and the grammar loaded (as
the app has them when it opens a file), times:
  1. bytes -> the first 60 lines as segments (open_module, module_names, Listing):
     target <= 150 ms, friendly names and raw ids;
  2. the work the app leaves to a worker: every boundary indexed (ensure_indexed())
     and the names settled (NameMap.table());
  3. 60-line windows once that is done: a quarter, half and three quarters in, the
     last lines, and the middle of the largest function: target <= 30 ms each.
Wall and CPU times are printed (best of N, each repeat on a freshly opened module);
on a shared machine the wall time includes waiting for a CPU. For scale, the time
`spirv-dis` (its real binary) takes to print the whole module is printed too: it has
no way to show part of a module without disassembling all of it.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from large_module import module_and_repeat, tool_path  # noqa: E402

from spvinspect.codec.binary.lazy import LazyModule, open_module  # noqa: E402
from spvinspect.codec.binary.tables import decoder_tables  # noqa: E402
from spvinspect.codec.grammar import load_grammar  # noqa: E402
from spvinspect.codec.text.listing import Listing  # noqa: E402
from spvinspect.codec.text.names import module_names  # noqa: E402

LINES = 60
FIRST_SCREEN_TARGET_MS = 150
WINDOW_TARGET_MS = 30


def timed(work: Callable[[], object]) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call."""
    wall, cpu = time.perf_counter(), time.process_time()
    work()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def first_screen(data: bytes, friendly: bool) -> tuple[LazyModule, Listing]:
    """Open the module and render its first lines, as the app's first paint does."""
    module = open_module(data)
    listing = Listing(module, module_names(module, friendly))
    for index in range(LINES):
        listing.segments(index)
    return module, listing


def windows(module: LazyModule) -> dict[str, int]:
    """Where the timed windows start."""
    count = module.instruction_count
    largest = max(module.functions(), key=lambda span: span.end - span.first)
    return {
        "25%": count // 4,
        "50%": count // 2,
        "75%": count * 3 // 4,
        "last lines": count - LINES,
        f"largest function ({largest.end - largest.first} instructions), middle": (largest.first + largest.end) // 2,
    }


def main() -> int:
    path, repeat = module_and_repeat(__doc__)
    data = path.read_bytes()
    setup = timed(lambda: decoder_tables(load_grammar()))
    print(f"module: {path} ({len(data) / 1e6:.1f} MB)")
    print(f"grammar and decoder tables (once per process, before opening): {setup[0]:.0f} ms")
    print(f"{'step':<72}{'wall':>9}{'cpu':>9}  target")
    for friendly in (True, False):
        label = "friendly names" if friendly else "raw ids"
        screen: list[tuple[float, float]] = []
        background: list[tuple[float, float]] = []
        spots: dict[str, list[tuple[float, float]]] = {}
        for _ in range(repeat):
            holder: list = []
            screen.append(timed(lambda: holder.append(first_screen(data, friendly))))
            module, listing = holder[0]
            background.append(timed(lambda: (module.ensure_indexed(), listing.names.table())))
            for name, start in windows(module).items():
                spots.setdefault(name, []).append(
                    timed(lambda: [listing.segments(i) for i in range(start, start + LINES)])
                )
        print(f"{f'first {LINES} lines as segments, {label}':<72}{_best(screen)}  <= {FIRST_SCREEN_TARGET_MS} ms")
        print(f"{'  then in a worker: index and names':<72}{_best(background)}")
        for name, times in spots.items():
            print(f"{f'  {LINES}-line window at {name}':<72}{_best(times)}  <= {WINDOW_TARGET_MS} ms")
    reference = [tool_path("spirv-dis"), "--no-color", "--raw-id", str(path)]
    start = time.perf_counter()
    subprocess.run(reference, check=True, stdout=subprocess.DEVNULL)
    whole = (time.perf_counter() - start) * 1000
    print(f"{'spirv-dis --raw-id, whole module (for scale)':<72}{whole:>7.0f}ms")
    return 0


def _best(times: list[tuple[float, float]]) -> str:
    return f"{min(w for w, _ in times):>7.1f}ms{min(c for _, c in times):>7.1f}ms"


if __name__ == "__main__":
    sys.exit(main())
