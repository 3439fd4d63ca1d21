"""The benchmark scripts over the large module start: their imports resolve and they read
their command line (`--help` stops before the module is built or timed)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.mark.parametrize("script", ["bench_dis.py", "bench_fold.py", "bench_hex.py", "bench_open.py"])
def test_a_large_module_benchmark_starts(script):
    done = subprocess.run([sys.executable, str(BENCHMARKS / script), "--help"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert "--module" in done.stdout and "--repeat" in done.stdout
