"""Random keys on the app: seeded inputs of every kind it opens, random terminal sizes,
random keys through Pilot (the panes, the editor, saves and their questions).

Each input is a module (valid, mutated or big-endian SPIR-V, a Lima raw stream or MBS
file) written to a temporary folder and opened as `spvinspect FILE` would; the keys
include typing into the editor, ctrl+s, "save as" under every kind of name and ctrl+c
(the copy dialog and its export). Counted: exceptions that end the app, workers'
failures (told in a notice), error notices that say they are a bug, and hangs. The same
seed gives the same inputs and keys (input N does not depend on the others, so --jobs
does not change what is pressed); a finding prints the command that replays it and its
keys, and its input is written to --out.

Run: python benchmarks/fuzz_app.py --count 500 --keys 100 --jobs 2 --out /tmp/fuzz-app
Replay one input: python benchmarks/fuzz_app.py --seed S --keys K --index N
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
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


def one_input(seed: int, index: int, keys: int, timeout: float, corpus: Path | None) -> dict:
    """Input number `index` of the campaign with `seed`: made, opened and pressed."""
    kind = APP_KINDS[index % len(APP_KINDS)]
    rng = random.Random(f"{seed}/app/{index}")
    item = app_input(rng, kind, corpus)
    steps = key_sequence(rng, keys)
    size = rng.choice(SIZES)
    outcome = drive(item, steps, size, timeout)
    return {"index": index, "kind": kind, "name": item.name, "data": item.data, "size": size, "steps": steps,
            "keys": outcome.keys, "findings": outcome.findings, "detail": outcome.detail}


def _one(job: tuple) -> dict:
    return one_input(*job)


def _results(jobs: list[tuple], processes: int):
    if processes <= 1:
        yield from map(_one, jobs)
        return
    with multiprocessing.get_context("fork").Pool(processes) as pool:
        yield from pool.imap_unordered(_one, jobs)


def replay_command(seed: int, keys: int, index: int) -> str:
    """The command that presses input `index` of a campaign again, alone."""
    return f"python benchmarks/fuzz_app.py --seed {seed} --keys {keys} --index {index}"


def run(count: int, keys: int, seed: int, timeout: float, corpus: Path | None, out: Path | None,
        progress=lambda line: None, processes: int = 1, indexes: list[int] | None = None,
        time_limit: float | None = None) -> dict:
    """The campaign's figures: inputs done, keys pressed, findings by category and signature.
    Past `time_limit` seconds (or on ctrl+c) it stops and gives the figures of the inputs done."""
    by_kind: Counter[str] = Counter()
    findings: Counter[tuple[str, str]] = Counter()
    pressed = done = 0
    stopped = ""
    start = time.perf_counter()
    indexes = list(range(count)) if indexes is None else indexes
    results = _results([(seed, index, keys, timeout, corpus) for index in indexes], processes)
    while True:
        try:
            result = next(results, None)
        except KeyboardInterrupt:
            stopped = "interrupted"
            break
        if result is None:
            break
        if time_limit is not None and time.perf_counter() - start > time_limit:
            stopped = f"time limit of {time_limit:.0f} s"
        done += 1
        by_kind[result["kind"]] += 1
        pressed += result["keys"]
        for finding in result["findings"]:
            finding = tuple(finding)
            if findings[finding] == 0 and out is not None:
                out.mkdir(parents=True, exist_ok=True)
                stem = out / f"{result['kind']}-{result['index']}"
                stem.with_suffix(".input").write_bytes(result["data"])
                stem.with_suffix(".json").write_text(json.dumps(
                    {"seed": seed, "index": result["index"], "kind": result["kind"], "name": result["name"],
                     "size": result["size"], "finding": finding, "steps": result["steps"],
                     "detail": result["detail"]}, indent=1))
            findings[finding] += 1
            progress(f"FINDING {finding[0]}: {finding[1]}\n  replay: {replay_command(seed, keys, result['index'])}\n"
                     f"  size {result['size']}, keys {json.dumps(result['steps'])}\n{result['detail']}")
        categories = Counter(c for (c, _), n in findings.items() for _ in range(n))
        progress(f"input {result['index']} ({result['kind']}, {len(result['data'])} bytes, "
                 f"{result['size'][0]}x{result['size'][1]}): {result['keys']} keys, findings {result['findings']} | "
                 f"{done} inputs done, {pressed} keys sent, {categories['exception']} exceptions, "
                 f"{categories['hang']} hangs, {time.perf_counter() - start:.0f} s")
        if stopped:
            break
    results.close()
    categories = Counter()
    for (category, _), n in findings.items():
        categories[category] += n
    return {
        "inputs done": done, "inputs asked": len(indexes), "stopped": stopped or "no", "keys per input": keys, "keys pressed": pressed, "by kind": dict(by_kind),
        "seconds": round(time.perf_counter() - start, 1), "processes": processes,
        "exceptions": categories["exception"], "worker failures": categories["worker"],
        "bug notices": categories["notice"], "hangs": categories["hang"],
        "findings": [{"category": c, "signature": s, "count": n} for (c, s), n in findings.most_common()],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100, help="inputs (default 100)")
    parser.add_argument("--keys", type=int, default=100, help="keys per input (default 100)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--index", type=int, action="append", default=None,
                        help="run only input N of the campaign (repeatable): replays a finding")
    parser.add_argument("--jobs", type=int, default=1, help="processes pressing inputs at once (default 1)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds a key may take on average before the input counts as hung (default 5)")
    parser.add_argument("--time-limit", type=float, default=None,
                        help="seconds after which no new input is reported and the figures so far are printed")
    parser.add_argument("--corpus", type=Path, default=os.environ.get("SPVINSPECT_CORPUS"))
    parser.add_argument("--out", type=Path, default=None, help="folder for the inputs of findings")
    args = parser.parse_args(argv)
    figures = run(args.count, args.keys, args.seed, 30 + args.timeout * args.keys, args.corpus, args.out,
                  progress=lambda line: print(line, flush=True), processes=args.jobs, indexes=args.index,
                  time_limit=args.time_limit)
    print(json.dumps(figures, indent=1))
    return 1 if figures["findings"] else 0


if __name__ == "__main__":
    sys.exit(main())
