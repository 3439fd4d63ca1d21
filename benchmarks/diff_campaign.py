"""The diff's pair campaign, long run: every corpus module (spv/ and peer/) against
itself renumbered, and renumbered with K random edits, for several seeds; the share of
pairs whose diff reports exactly the edits, ours beside spirv-diff's on the same pairs.

    python benchmarks/diff_campaign.py [--corpus DIR] [--seeds N] [--edits 0,1,3,8] [--no-spirv-diff] [--lima-seeds N]

spirv-diff is judged on its `-`/`+` lines: exact when it has one `-` per removed and
changed instruction and one `+` per added and changed one (a moved block may add one
of each, or nothing); "no header" leaves out its `; Bound:` comment lines (a renumbered
module's bound differs, which it reports).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "codec"))
sys.path.insert(0, str(HERE.parent / "tests" / "lima"))
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE))

from diff_pairs import make_pair, reports_exactly  # noqa: E402
from large_module import tool_path  # noqa: E402

from lima_pairs import assembled, edited, reports_exactly as lima_reports_exactly  # noqa: E402

from spvinspect import lima  # noqa: E402
from spvinspect.codec.binary.lazy import open_module  # noqa: E402
from spvinspect.codec.diff import compare  # noqa: E402
from spvinspect.lima.compare import compare_programs  # noqa: E402


def lima_campaign(programs: Path, seeds: int) -> None:
    """Mesa's Lima programs with 1, 2 and 4 random instructions inserted, removed or
    changed: the share of pairs whose diff reports exactly those."""
    files = sorted(programs.glob("*.pp"))
    print(f"Lima: {len(files)} programs from {programs}, seeds {seeds}")
    for edits in (1, 2, 4):
        pairs = exact = 0
        for seed in range(seeds):
            for n, path in enumerate(files):
                program = lima.decode(path.read_bytes())
                text = "\n".join(lima.listing_lines(program)) + "\n"
                other, expected = edited(text, random.Random(seed * 1009 + n * 31 + edits), edits)
                pairs += 1
                exact += lima_reports_exactly(compare_programs(program, lima.decode(assembled(other))), expected)
        print(f"  {edits} edits: {pairs} pairs, exactly reported {100 * exact / pairs:.2f}%")


def spirv_diff_verdict(tool: str, a: Path, b: Path, expected) -> tuple[bool, bool, float]:
    """(exact, exact leaving out header comments, seconds) for spirv-diff on a pair."""
    start = time.perf_counter()
    run = subprocess.run([tool, "--no-color", str(a), str(b)], capture_output=True, text=True, errors="replace")
    seconds = time.perf_counter() - start
    if run.returncode not in (0, 1):
        return False, False, seconds
    lines = [line for line in run.stdout.splitlines() if line[:1] in "-+"]
    body = [line for line in lines if not line[1:].lstrip().startswith(";")]

    def exact(selected: list[str]) -> bool:
        minus = sum(1 for line in selected if line[0] == "-")
        plus = len(selected) - minus
        moved = len(expected.moved)
        want_minus = len(expected.changed) + len(expected.removed)
        want_plus = len(expected.changed) + len(expected.added)
        return want_minus <= minus <= want_minus + moved and want_plus <= plus <= want_plus + moved and (
            minus - want_minus == plus - want_plus
        )

    return exact(lines), exact(body), seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", default=os.environ.get("SPVINSPECT_CORPUS"), help="default: $SPVINSPECT_CORPUS")
    parser.add_argument("--seeds", type=int, default=2)
    parser.add_argument("--edits", default="0,1,3,8")
    parser.add_argument("--no-spirv-diff", action="store_true")
    parser.add_argument("--show", type=int, default=5, help="failures of ours to list per K")
    parser.add_argument("--lima-seeds", type=int, default=0, help="also run the Lima campaign with this many seeds")
    args = parser.parse_args()
    if not args.corpus:
        parser.error("no corpus: give --corpus DIR or set SPVINSPECT_CORPUS")
    corpus = Path(args.corpus)
    files = sorted((corpus / "spv").glob("*.spv")) + sorted((corpus / "peer").glob("*/*.spv"))
    if not files:
        parser.error(f"{corpus}: no spv/*.spv or peer/*/*.spv modules")
    tool = None if args.no_spirv_diff else tool_path("spirv-diff")
    if args.lima_seeds:
        lima_campaign(corpus.parent / "lima" / "programs", args.lima_seeds)
    print(f"{len(files)} modules, seeds {args.seeds}, edits {args.edits}")
    print(f"{'K':>3} {'pairs':>6} {'ours exact':>11} {'ours s':>8} {'spirv-diff':>11} {'no header':>10} {'s-d s':>8}")
    with tempfile.TemporaryDirectory() as tmp:
        path_a, path_b = Path(tmp) / "a.spv", Path(tmp) / "b.spv"
        for k in (int(x) for x in args.edits.split(",")):
            pairs = ours = theirs = theirs_body = 0
            our_time = their_time = 0.0
            shown = 0
            for seed in range(args.seeds):
                for n, path in enumerate(files):
                    data = path.read_bytes()
                    other, expected = make_pair(data, random.Random(seed * 100_003 + n * 7 + k), k)
                    start = time.perf_counter()
                    diff = compare(open_module(data), open_module(other))
                    good = diff.same if k == 0 else reports_exactly(diff, expected)
                    our_time += time.perf_counter() - start
                    pairs += 1
                    ours += good
                    if not good and shown < args.show:
                        shown += 1
                        print(f"    ours, K={k}: {path.name} seed {seed} {expected.edits}")
                    if tool is not None:
                        path_a.write_bytes(data)
                        path_b.write_bytes(other)
                        strict, body, seconds = spirv_diff_verdict(tool, path_a, path_b, expected)
                        theirs += strict
                        theirs_body += body
                        their_time += seconds
            if not pairs:
                continue
            share = f"{100 * ours / pairs:.2f}%"
            if tool is not None:
                print(f"{k:>3} {pairs:>6} {share:>11} {our_time:>8.1f} {100 * theirs / pairs:>10.2f}% "
                      f"{100 * theirs_body / pairs:>9.2f}% {their_time:>8.1f}")
            else:
                print(f"{k:>3} {pairs:>6} {share:>11} {our_time:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
