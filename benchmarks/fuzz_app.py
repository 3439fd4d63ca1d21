"""Random keys on the app: seeded inputs of every kind it opens, random terminal sizes,
random keys through Pilot (the panes, the editor, saves and their questions).

Each input is a module (valid, mutated or big-endian SPIR-V, a Lima raw stream or MBS
file) written to a temporary folder and opened as `spvinspect FILE` would; the keys
include typing into the editor, ctrl+s, "save as" under every kind of name and ctrl+c
(the copy dialog and its export). Counted: exceptions that end the app, workers'
failures (told in a notice), error notices that say they are a bug, and hangs. The same
seed gives the same inputs and keys; a finding's input is written to --out with its keys.

Run: python benchmarks/fuzz_app.py --count 500 --keys 100 --out /tmp/fuzz-app
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fuzzing.app_inputs import APP_KINDS, app_input, key_sequence  # noqa: E402
from benchmarks.fuzzing.app_run import SIZES, drive  # noqa: E402


def run(count: int, keys: int, seed: int, timeout: float, corpus: Path | None, out: Path | None,
        progress=lambda line: None) -> dict:
    """The campaign's figures: inputs, keys pressed, findings by category and signature."""
    by_kind: Counter[str] = Counter()
    findings: Counter[tuple[str, str]] = Counter()
    pressed = 0
    start = time.perf_counter()
    for index in range(count):
        kind = APP_KINDS[index % len(APP_KINDS)]
        rng = random.Random(f"{seed}/app/{index}")
        item = app_input(rng, kind, corpus)
        steps = key_sequence(rng, keys)
        outcome = drive(item, steps, rng.choice(SIZES), timeout)
        by_kind[kind] += 1
        pressed += outcome.keys
        for finding in outcome.findings:
            if findings[finding] == 0 and out is not None:
                out.mkdir(parents=True, exist_ok=True)
                stem = out / f"{kind}-{index}"
                stem.with_suffix(".input").write_bytes(item.data)
                stem.with_suffix(".json").write_text(json.dumps(
                    {"kind": kind, "name": item.name, "finding": finding, "steps": steps, "detail": outcome.detail},
                    indent=1))
            findings[finding] += 1
        progress(f"input {index} ({kind}, {len(item.data)} bytes): {outcome.keys} keys, "
                 f"{time.perf_counter() - start:.0f} s, findings {outcome.findings}")
    categories = Counter()
    for (category, _), n in findings.items():
        categories[category] += n
    return {
        "inputs": count, "keys per input": keys, "keys pressed": pressed, "by kind": dict(by_kind),
        "seconds": round(time.perf_counter() - start, 1),
        "exceptions": categories["exception"], "worker failures": categories["worker"],
        "bug notices": categories["notice"], "hangs": categories["hang"],
        "findings": [{"category": c, "signature": s, "count": n} for (c, s), n in findings.most_common()],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="inputs (default 100)")
    parser.add_argument("--keys", type=int, default=100, help="keys per input (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds a key may take on average before the input counts as hung (default 5)")
    parser.add_argument("--corpus", type=Path, default=os.environ.get("SPVINSPECT_CORPUS"))
    parser.add_argument("--out", type=Path, default=None, help="folder for the inputs of findings")
    args = parser.parse_args(argv)
    figures = run(args.count, args.keys, args.seed, 30 + args.timeout * args.keys, args.corpus, args.out,
                  progress=lambda line: print(line, flush=True))
    print(json.dumps(figures, indent=1))
    return 1 if figures["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
