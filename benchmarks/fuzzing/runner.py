"""A campaign: inputs handed out in batches to worker processes, each input under a time limit.

A worker that spends more than the limit of CPU time on one input (or ten times the limit of
wall time, for one that blocks) is killed and replaced, and the input it was on is a hang:
CPU time, so that a loaded machine does not turn a slow input into a hang; one that dies is a crash (an exception finding). Findings are
grouped (exception type and place, or the broken property), and the first input of each
group is shrunk and written to the output folder with a note.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path

from benchmarks.fuzzing.kinds import KINDS, Input, Kind, input_bytes, make_input
from benchmarks.fuzzing.outcome import Outcome, evaluate, minimize

HANG = "hang"
CRASH = "worker died"
BLOCKED_AFTER = 10
"""Multiples of the time limit, in wall time, after which a worker using no CPU is stuck too."""


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU time a process has used (Linux's /proc); None where it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


@dataclass(frozen=True)
class Settings:
    """How a campaign runs."""

    kinds: tuple[str, ...]
    count: int
    """Inputs per kind."""
    seed: int = 0
    timeout: float = 10.0
    """Seconds one input may take."""
    corpus: Path | None = None
    out: Path | None = None
    """Folder for reproducers and `summary.json`; None writes nothing."""
    workers: int = 2
    batch: int = 20
    memory_mb: int = 4096
    """Address-space limit of a worker, so that a runaway input raises MemoryError."""
    minimize_seconds: float = 20.0
    """Time to shrink each group's first input; 0 keeps inputs as generated."""


@dataclass
class Finding:
    """One group of inputs that failed the same way."""

    kind: str
    category: str
    """`exception`, `hang` or `round trip`."""
    signature: str
    count: int = 0
    first_index: int = 0
    detail: str = ""
    reproducer: Path | None = None


@dataclass
class KindTally:
    """The figures of one kind."""

    inputs: int = 0
    exceptions: int = 0
    hangs: int = 0
    violations: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    """Wall time from the kind's first batch to its last answer."""


@dataclass
class Report:
    """Figures by kind and findings by group."""

    settings: Settings
    tallies: dict[str, KindTally] = field(default_factory=dict)
    findings: dict[tuple[str, str, str], Finding] = field(default_factory=dict)

    def record(self, kind: str, index: int, outcome: Outcome, category: str = "") -> None:
        """Counts one input's outcome; `category` overrides it for hangs and crashes."""
        tally = self.tallies[kind]
        tally.inputs += 1
        if outcome.exception:
            category = category or "exception"
            tally.hangs += category == HANG
            tally.exceptions += category != HANG
        tally.violations.update(outcome.violations)
        for signature in outcome.signatures:
            key = (kind, category or "round trip", signature)
            finding = self.findings.setdefault(key, Finding(kind, key[1], signature, first_index=index, detail=outcome.detail))
            finding.count += 1

    def summary(self) -> dict:
        """The figures and findings as plain data (what `summary.json` holds)."""
        return {
            "seed": self.settings.seed,
            "count_per_kind": self.settings.count,
            "kinds": {
                name: {
                    "inputs": t.inputs,
                    "exceptions": t.exceptions,
                    "hangs": t.hangs,
                    "round_trip_violations": dict(t.violations),
                    "seconds": round(t.seconds, 1),
                }
                for name, t in self.tallies.items()
            },
            "findings": [
                {
                    "kind": f.kind,
                    "category": f.category,
                    "signature": f.signature,
                    "count": f.count,
                    "first_index": f.first_index,
                    "reproducer": str(f.reproducer) if f.reproducer else None,
                }
                for f in self.findings.values()
            ],
        }


def _limit_memory(megabytes: int) -> None:
    limit = megabytes << 20
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (limit if hard == resource.RLIM_INFINITY else min(limit, hard), hard))


def _work(conn: Connection, settings: Settings) -> None:
    """A worker: answers `("run", kind, indices)` with one outcome per input, and
    `("minimize", kind, index, signature)` with every smaller input found, then `None`."""
    _limit_memory(settings.memory_mb)
    while True:
        try:
            request = conn.recv()
        except EOFError:
            return
        if request is None:
            return
        action, kind_name, *rest = request
        kind = KINDS[kind_name]
        if action == "run":
            for index in rest[0]:
                try:
                    data = make_input(kind, settings.seed, index, settings.corpus)
                except Exception as error:  # a generator fault is a finding too
                    conn.send(Outcome(exception=f"generator: {type(error).__name__}: {error}"))
                    continue
                conn.send(evaluate(kind, data))
        else:
            index, signature = rest
            data = make_input(kind, settings.seed, index, settings.corpus)
            minimize(kind, data, signature, settings.minimize_seconds, conn.send)
            conn.send(None)


class _Worker:
    def __init__(self, context, settings: Settings) -> None:
        self.conn, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child, settings), daemon=True)
        self.process.start()
        child.close()
        self.kind = ""
        self.pending: deque[int] = deque()
        self.restart_clock()

    def restart_clock(self) -> None:
        """The current input starts now."""
        self.since = time.monotonic()
        self.cpu_since = _cpu_seconds(self.process.pid)

    def stuck(self, limit: float) -> bool:
        """Whether the current input has used more than `limit` seconds of CPU (of wall time
        where CPU time cannot be read), or `BLOCKED_AFTER` times that of wall time."""
        wall = time.monotonic() - self.since
        cpu = _cpu_seconds(self.process.pid)
        if cpu is None or self.cpu_since is None:
            return wall > limit
        return cpu - self.cpu_since > limit or wall > BLOCKED_AFTER * limit

    def give(self, kind: str, indices: list[int]) -> None:
        self.kind, self.pending = kind, deque(indices)
        self.restart_clock()
        self.conn.send(("run", kind, indices))

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join()
        self.conn.close()


def run_campaign(settings: Settings, progress=lambda report: None) -> Report:
    """Runs every input of every kind; never raises for what an input does."""
    context = multiprocessing.get_context("fork")
    report = Report(settings, {name: KindTally() for name in settings.kinds})
    queue = deque(
        (kind, list(range(start, min(start + settings.batch, settings.count))))
        for kind in settings.kinds
        for start in range(0, settings.count, settings.batch)
    )
    started: dict[str, float] = {}
    workers = [_Worker(context, settings) for _ in range(max(1, settings.workers))]
    last_progress = time.monotonic()
    try:
        while queue or any(w.pending for w in workers):
            for i, worker in enumerate(workers):
                if not worker.pending and queue:
                    if not worker.process.is_alive():  # died between batches
                        worker.stop()
                        workers[i] = worker = _Worker(context, settings)
                    kind, indices = queue.popleft()
                    started.setdefault(kind, time.monotonic())
                    worker.give(kind, indices)
            busy = [w for w in workers if w.pending]
            wait([w.conn for w in busy], timeout=min(1.0, settings.timeout))
            for i, worker in enumerate(workers):
                state = _collect(worker, report, started) if worker.pending else "answering"
                if state != "answering":
                    category = HANG if state == "stuck" else CRASH
                    index = worker.pending.popleft()
                    detail = f"input {index} ran longer than {settings.timeout} s of CPU time" if category == HANG else (
                        f"the worker exited with code {worker.process.exitcode} on input {index}")
                    report.record(worker.kind, index, Outcome(exception=category, detail=detail), category)
                    if worker.pending:
                        queue.appendleft((worker.kind, list(worker.pending)))
                    worker.stop()
                    workers[i] = _Worker(context, settings)
            if time.monotonic() - last_progress > 5:
                progress(report)
                last_progress = time.monotonic()
    finally:
        for worker in workers:
            if worker.process.is_alive():
                worker.conn.send(None)
            worker.stop()
    if settings.out is not None:
        _write_findings(report, context)
    return report


def _collect(worker: _Worker, report: Report, started: dict[str, float]) -> str:
    """Takes every answer the worker has sent: `answering`, `stuck` past the time limit, or `dead`."""
    try:
        while worker.pending and worker.conn.poll():
            outcome = worker.conn.recv()
            index = worker.pending.popleft()
            report.record(worker.kind, index, outcome)
            worker.restart_clock()
            report.tallies[worker.kind].seconds = worker.since - started[worker.kind]
    except (EOFError, OSError):
        return "dead"
    return "stuck" if worker.stuck(report.settings.timeout) else "answering"


def _shrunk(context, settings: Settings, finding: Finding) -> Input:
    """The finding's first input, as small as a worker could make it in the time allowed."""
    kind = KINDS[finding.kind]
    best = make_input(kind, settings.seed, finding.first_index, settings.corpus)
    if finding.category == HANG or finding.signature == CRASH or settings.minimize_seconds <= 0:
        return best
    worker = _Worker(context, settings)
    worker.conn.send(("minimize", finding.kind, finding.first_index, finding.signature))
    deadline = time.monotonic() + settings.minimize_seconds + settings.timeout
    try:
        while time.monotonic() < deadline and worker.conn.poll(max(0.0, deadline - time.monotonic())):
            smaller = worker.conn.recv()
            if smaller is None:
                break
            best = smaller
    except (EOFError, OSError):
        pass
    worker.stop()
    return best


def _write_findings(report: Report, context) -> None:
    out = report.settings.out
    out.mkdir(parents=True, exist_ok=True)
    for number, finding in enumerate(report.findings.values(), start=1):
        kind: Kind = KINDS[finding.kind]
        data = _shrunk(context, report.settings, finding)
        stem = f"{finding.kind}-{finding.category.replace(' ', '-')}-{number:03d}"
        finding.reproducer = out / (stem + kind.suffix)
        finding.reproducer.write_bytes(input_bytes(data))
        note = [
            f"kind: {finding.kind}",
            f"finding: {finding.category}: {finding.signature}",
            f"inputs with it: {finding.count} (first: index {finding.first_index}, seed {report.settings.seed})",
            f"replay: python benchmarks/fuzz.py --kinds {finding.kind} --replay {finding.reproducer}",
            "",
            finding.detail,
        ]
        (out / (stem + ".txt")).write_text("\n".join(note), encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(report.summary(), indent=2), encoding="utf-8")
