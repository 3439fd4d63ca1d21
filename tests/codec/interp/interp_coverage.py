"""Counts the entry points of the corpus that run to completion with default inputs,
and what stops the others: `python tests/codec/interp/interp_coverage.py CORPUS_DIR...`."""

from __future__ import annotations

import collections
import sys
from pathlib import Path

from spvinspect.codec.interp.group import Group, STEP_LIMIT
from spvinspect.codec.interp.interface import InputError
from spvinspect.codec.interp.shader import Shader, ShaderError


def run_module(path: Path, limit: int = STEP_LIMIT) -> list[tuple[str, str]]:
    """(entry point, outcome) for every entry point: `ok`, or why it stopped."""
    try:
        shader = Shader(path.read_bytes())
    except ShaderError as error:
        return [("-", f"module: {error}")]
    out = []
    for ep in shader.entry_points:
        try:
            group = Group(shader, ep)
            group.run(limit)
        except (ShaderError, InputError) as error:
            out.append((ep.name, f"setup: {error}"))
            continue
        stopped = group.stopped
        if stopped is not None:
            ins = stopped.unsupported
            out.append((ep.name, f"unsupported {ins.opname}" if ins else f"stopped: {stopped.message[:60]}"))
        elif not group.finished:
            out.append((ep.name, "step limit"))
        else:
            out.append((ep.name, "ok"))
    return out


def count(dirs: list[Path], limit: int = STEP_LIMIT) -> tuple[int, int, collections.Counter]:
    ok = total = 0
    reasons: collections.Counter = collections.Counter()
    for d in dirs:
        for path in sorted(d.rglob("*.spv")):
            for _, outcome in run_module(path, limit):
                total += 1
                if outcome == "ok":
                    ok += 1
                else:
                    reasons[outcome] += 1
    return ok, total, reasons


if __name__ == "__main__":
    ok, total, reasons = count([Path(a) for a in sys.argv[1:]])
    print(f"{ok}/{total} entry points ran to completion ({100 * ok / max(total, 1):.1f}%)")
    for reason, n in reasons.most_common():
        print(f"{n:5d}  {reason}")
