"""Fixtures for the Lima tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

@pytest.fixture
def lima_main(monkeypatch):
    """`inspector.cli.main`, with subcommand modules that sibling issues have not landed left out."""
    import inspector.cli as main_cli

    present = tuple(
        name
        for name in main_cli.SUBCOMMAND_MODULES
        if importlib.util.find_spec(f"inspector.commands.{name}") is not None
    )
    monkeypatch.setattr(main_cli, "SUBCOMMAND_MODULES", present)
    return main_cli.main


@pytest.fixture
def cli(lima_main, capsys):
    """Runs `spvinspect ARGS…`; returns (exit code, stdout, stderr)."""

    def run(*args: str) -> tuple[int, str, str]:
        code = lima_main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run
