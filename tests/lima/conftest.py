"""Fixtures for the Lima tests."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from spvinspect.cli import main

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture
def cli(capsys):
    """Runs `spvinspect ARGS…`; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run
