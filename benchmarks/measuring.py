"""How the benchmarks measure: the best of repeated calls in this process, and one child
process's wall time, CPU time, peak RSS and exit code."""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple


def best_of(repeat: int, work: Callable[[], object]) -> tuple[float, float, object]:
    """Best wall and best CPU time of `repeat` calls of `work` (the CPU time of this
    process only: for subprocesses it is meaningless), and the last result."""
    wall, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = work()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, time.process_time() - start_cpu)
    return wall, cpu, result


class ChildRun(NamedTuple):
    """One child process, as the kernel accounts for it."""

    wall: float
    cpu: float
    rss_mb: float
    code: int


def run_child(command: list[str], cwd: Path, quiet: bool = False) -> ChildRun:
    """Runs `command` with its output discarded (its stderr too when `quiet`)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL if quiet else None, cwd=cwd)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    return ChildRun(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status))
