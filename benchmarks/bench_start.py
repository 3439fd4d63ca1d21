"""The app's start-up CPU: one launch to its first screen (Textual headless, as the
Pilot tests start it), for the bundled SPIR-V example, a corpus module and a Lima PP
program, at 120x40 and 80x24.

Usage: python benchmarks/bench_start.py [--repeat N] [--module SPV] [--lima PP]
       python benchmarks/bench_start.py --before-python PATH [--rounds K]   (before: that install)

A launch is `app.run_test(size=…)` and one `pilot.pause()`: compose, mount, the first
layouts and the first paint, then the app exits. Its figure is the CPU time of this
process (`time.process_time`), the median of N launches after one warm-up launch of the
same case (imports, bytecode, grammar tables and Textual's caches are then warm, as for
every launch after a test process's first). A full garbage collection runs before each
launch, outside the figure. With `--before-python`, this script runs itself under that
Python (where the "before" app is installed) and then under its own, `--rounds` times
in turn, and prints the medians of all their launches with the change. CPU time, not wall time: the machine is
shared, and a loaded machine stretches wall time far more than CPU time.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = ((120, 40), (80, 24))
"""The terminal sizes measured: the default window, and the smallest common one."""
CORPUS = Path(os.environ.get("SPVINSPECT_CORPUS", "/work/shared/corpus"))
CORPUS_MODULE = CORPUS / "spv" / "shaders-hlsl_frag_control-dependent-in-branch.desktop.frag.spv"
"""A fragment shader of the shared corpus: a few functions, a CFG with branches."""
LIMA_PROGRAM = Path("/work/shared/lima/programs/atan_asin.pp")
"""A raw PP stream of the shared Lima programs (Lima mode, as `--lima` opens it)."""


def app_factory(case: str, path: Path | None):
    """A function making the app `spvinspect` opens for `case` (a fresh one each call)."""
    from spvinspect.app import InspectorApp

    if case == "lima":
        from spvinspect.lima_document import LimaDocument

        data = path.read_bytes()
        return lambda: InspectorApp(LimaDocument(data, path.name), theme="spvinspect-dark")
    from spvinspect.commands.open import EXAMPLE_MODULE
    from spvinspect.document import Document

    path = path or EXAMPLE_MODULE
    data = path.read_bytes()
    return lambda: InspectorApp(Document(data, path.name), theme="spvinspect-dark")


async def launch(make, size: tuple[int, int]) -> float:
    """CPU seconds of one launch to the first screen (with what the app's worker threads
    did meanwhile: a few milliseconds)."""
    gc.collect()
    app = make()
    start = time.process_time()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
    return time.process_time() - start


def measure(cases: list[tuple[str, str, Path | None]], repeat: int) -> dict:
    """The CPU milliseconds of each launch, for every case at every size."""
    async def run() -> list[tuple[str, list[float]]]:
        rows = []
        for label, case, path in cases:
            make = app_factory(case, path)
            for size in SIZES:
                await launch(make, size)  # warm-up
                figures = [await launch(make, size) for _ in range(repeat)]
                rows.append((f"{label} {size[0]}x{size[1]}", [round(figure * 1000, 1) for figure in figures]))
        return rows

    return {"rows": asyncio.run(run()), "load": os.getloadavg()[0]}


def run_under(python: str, arguments: list[str], cache: Path | None = None) -> dict:
    """This script's figures under another Python (`--json`); `cache`: its own cache
    directory (an older app's grammar cache is not the newer one's)."""
    env = dict(os.environ)
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    done = subprocess.run([python, str(Path(__file__).resolve()), "--json", *arguments],
                          stdout=subprocess.PIPE, text=True, check=True, env=env)
    return json.loads(done.stdout)


def pooled(runs: list[dict]) -> dict[str, list[float]]:
    """Every launch's figure of several runs, by case."""
    figures: dict[str, list[float]] = {}
    for run in runs:
        for label, launches in run["rows"]:
            figures.setdefault(label, []).extend(launches)
    return figures


def median_ms(launches: list[float]) -> str:
    """The median of launches' CPU milliseconds, as the table shows it."""
    return f"{statistics.median(launches):.0f}ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="launches measured per case, size and run")
    parser.add_argument("--rounds", type=int, default=1, help="with --before-python: runs of each, alternating")
    parser.add_argument("--module", type=Path, default=CORPUS_MODULE, help="the SPIR-V module besides the example")
    parser.add_argument("--lima", type=Path, default=LIMA_PROGRAM, help="the PP program (raw stream or MBS)")
    parser.add_argument("--before-python", metavar="PATH", help="before: the app installed for this Python")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    cases = [("example", "spirv", None)]
    for label, case, path in (("corpus", "spirv", args.module), ("lima", "lima", args.lima)):
        if path.is_file():
            cases.append((label, case, path))
        else:
            print(f"{path}: not there, {label} left out", file=sys.stderr)
    if args.json:
        print(json.dumps(measure(cases, args.repeat)))
        return 0
    about = f"median CPU per launch, {args.repeat} launches a run after a warm-up"
    if args.before_python is None:
        figures = measure(cases, args.repeat)
        print(f"{about}; load average {figures['load']:.1f} at the end")
        for label, launches in figures["rows"]:
            print(f"{label:<18}{median_ms(launches):>10}")
        return 0
    arguments = ["--repeat", str(args.repeat), "--module", str(args.module), "--lima", str(args.lima)]
    befores, afters = [], []
    with tempfile.TemporaryDirectory(prefix="spvinspect-before-cache-") as cache:
        for _ in range(args.rounds):
            befores.append(run_under(args.before_python, arguments, Path(cache)))
            afters.append(run_under(sys.executable, arguments))
    loads = " ".join(f"{run['load']:.1f}" for run in befores + afters)
    print(f"{about}, {args.rounds} round(s) alternating; load average after each run: {loads}")
    print(f"before: {args.before_python}\nafter:  {sys.executable}")
    print(f"{'launch':<18}{'before':>10}{'after':>10}{'change':>8}")
    old, new = pooled(befores), pooled(afters)
    for label, launches in new.items():
        before = statistics.median(old[label]) if label in old else None
        after = statistics.median(launches)
        change = f"{(after / before - 1) * 100:+.0f}%" if before else ""
        print(f"{label:<18}{median_ms(old[label]) if before else '-':>10}{median_ms(launches):>10}{change:>8}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
