"""Fuzz campaign: seeded mutants of the corpus and generated inputs against both codecs.

Five kinds: spirv-binary, spirv-text, lima-stream, mbs, lima-text. Every input runs in a
worker process under a time limit; exceptions (grouped by type and place), hangs and
round-trip violations are counted by kind, and each group's first input is shrunk and
written to --out with a note. The same seed gives the same inputs.

Run: python benchmarks/fuzz.py --count 10000 --out /tmp/fuzz
     python benchmarks/fuzz.py --kinds lima-text --replay /tmp/fuzz/lima-text-exception-001.s
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fuzzing.kinds import KINDS  # noqa: E402
from benchmarks.fuzzing.runner import Report, Settings, run_campaign  # noqa: E402


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of: {', '.join(KINDS)}")
    parser.add_argument("--count", type=int, default=1000, help="inputs per kind (default 1000)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds one input may take (default 10)")
    parser.add_argument("--out", type=Path, default=None, help="folder for reproducers and summary.json")
    parser.add_argument("--corpus", type=Path, default=os.environ.get("SPVINSPECT_CORPUS"),
                        help="corpus folder (default: $SPVINSPECT_CORPUS; without one, generated inputs only)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--minimize-seconds", type=float, default=20.0, help="time to shrink each finding (0: none)")
    parser.add_argument("--replay", type=Path, default=None, help="run the check of the one kind on this file and show the outcome")
    args = parser.parse_args(argv)
    args.kinds = tuple(args.kinds.split(","))
    unknown = [k for k in args.kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}; choose from {', '.join(KINDS)}")
    if args.replay and len(args.kinds) != 1:
        parser.error("--replay needs exactly one kind in --kinds")
    return args


def print_report(report: Report) -> None:
    """A table of figures by kind, then every finding with its reproducer."""
    print(f"{'kind':<13} {'inputs':>8} {'exceptions':>10} {'hangs':>6} {'round trip':>10} {'seconds':>8}")
    for name, tally in report.tallies.items():
        violations = sum(tally.violations.values())
        print(f"{name:<13} {tally.inputs:>8} {tally.exceptions:>10} {tally.hangs:>6} {violations:>10} {tally.seconds:>8.1f}")
        for prop, count in sorted(tally.violations.items()):
            print(f"{'':<13} {count:>8}  {prop}")
    if report.findings:
        print("\nfindings (inputs, kind, category, group):")
    for finding in report.findings.values():
        where = f"\n      reproducer: {finding.reproducer}" if finding.reproducer else ""
        print(f"  {finding.count:>6}  {finding.kind}  {finding.category}: {finding.signature}{where}")


def replay(kind_name: str, path: Path) -> int:
    """Runs one kind's check on a file, printing the traceback or the broken properties."""
    kind = KINDS[kind_name]
    data = path.read_bytes()
    if kind.suffix in (".spvasm", ".s"):
        data = data.decode("utf-8", "surrogatepass")
    try:
        broken = kind.check(data)
    except Exception:
        traceback.print_exc()
        return 1
    for prop in broken:
        print(prop)
    return 1 if broken else 0


def main(argv: list[str] | None = None) -> int:
    """Runs the campaign and prints its figures; exit code 1 when anything was found."""
    args = parse_arguments(argv)
    if args.replay:
        return replay(args.kinds[0], args.replay)
    settings = Settings(
        kinds=args.kinds, count=args.count, seed=args.seed, timeout=args.timeout,
        corpus=Path(args.corpus) if args.corpus else None, out=args.out, workers=args.workers,
        minimize_seconds=args.minimize_seconds,
    )
    start = time.monotonic()

    def progress(report: Report) -> None:
        done = sum(t.inputs for t in report.tallies.values())
        print(f"  {done} inputs, {time.monotonic() - start:.0f} s", file=sys.stderr, flush=True)

    report = run_campaign(settings, progress)
    print(f"seed {args.seed}, {args.count} inputs per kind, {time.monotonic() - start:.0f} s in all"
          f" ({settings.workers} workers, shared machine: seconds are indicative)")
    print_report(report)
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
