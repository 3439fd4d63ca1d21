"""Running one check on one input, and shrinking an input while it still fails the same way."""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.fuzzing.kinds import Input, Kind

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Outcome:
    """What one input did: the properties it broke, or the exception it raised."""

    violations: tuple[str, ...] = ()
    exception: str = ""
    """`Type at file:line in function`, the group an exception falls in; empty when none."""
    detail: str = ""
    """The traceback, for the reproducer's note."""

    @property
    def signatures(self) -> tuple[str, ...]:
        """Every finding of this outcome, as grouped in a report."""
        return (self.exception,) if self.exception else self.violations


def exception_signature(error: BaseException) -> str:
    """The exception's type and the innermost frame of the project (not the library) it came from."""
    frames = traceback.extract_tb(error.__traceback__)
    ours = [f for f in frames if f.filename.startswith(str(ROOT)) and "/.venv/" not in f.filename]
    if not frames:
        return type(error).__name__
    frame = (ours or frames)[-1]
    path = frame.filename
    if path.startswith(str(ROOT)):
        path = str(Path(path).relative_to(ROOT))
    return f"{type(error).__name__} at {path}:{frame.lineno} in {frame.name}"


def evaluate(kind: Kind, data: Input) -> Outcome:
    """Runs the kind's check on `data`; never raises (an exception is the outcome)."""
    try:
        return Outcome(violations=tuple(kind.check(data)))
    except Exception as error:  # every exception is a finding; the campaign goes on
        return Outcome(exception=exception_signature(error), detail=traceback.format_exc(limit=-12))


def _units(data: Input, level: int, pieces) -> list:
    """Level 0: the kind's own pieces (instructions); 1: lines or words; 2: characters or bytes."""
    if level == 0:
        return pieces(data) if pieces else []
    if isinstance(data, str):
        return list(data) if level == 2 else data.splitlines(keepends=True)
    if level == 2 or len(data) % 4:
        return [data[i : i + 1] for i in range(len(data))]
    return [data[i : i + 4] for i in range(0, len(data), 4)]


def _join(units: list, like: Input) -> Input:
    return "".join(units) if isinstance(like, str) else b"".join(units)


def shrink(
    data: Input,
    fails: Callable[[Input], bool],
    seconds: float,
    report: Callable[[Input], None] = lambda _: None,
    pieces: Callable[[Input], list] | None = None,
) -> Input:
    """A smaller input on which `fails` still holds: runs of `pieces` (whole instructions),
    then of lines or words, then of characters or bytes, removed while they can be, halving
    the run length, until `seconds` run out."""
    deadline = time.monotonic() + seconds
    for level in (0, 1, 2):
        units = _units(data, level, pieces)
        run = max(1, len(units) // 2)
        while run >= 1 and time.monotonic() < deadline:
            at = 0
            while at < len(units) and time.monotonic() < deadline:
                candidate = units[:at] + units[at + run :]
                if fails(_join(candidate, data)):
                    units = candidate
                    data = _join(units, data)
                    report(data)
                else:
                    at += run
            run //= 2
    return data


def minimize(kind: Kind, data: Input, signature: str, seconds: float, report: Callable[[Input], None]) -> Input:
    """`data` shrunk while `kind`'s check still gives the finding `signature`."""
    fails = lambda candidate: signature in evaluate(kind, candidate).signatures  # noqa: E731
    return shrink(data, fails, seconds, report, kind.pieces)
