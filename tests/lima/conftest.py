"""Fixtures for the Lima tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

@pytest.fixture
def cli(monkeypatch, capsys):
    """Runs `spvinspect ARGS…` through `inspector.cli.main`; returns (code, stdout, stderr).

    Subcommand modules that sibling issues have not landed yet are left out of the parser.
    """
    import inspector.cli as main_cli

    present = tuple(
        name
        for name in main_cli.SUBCOMMAND_MODULES
        if importlib.util.find_spec(f"inspector.commands.{name}") is not None
    )
    monkeypatch.setattr(main_cli, "SUBCOMMAND_MODULES", present)

    def run(*args: str) -> tuple[int, str, str]:
        code = main_cli.main(list(args))
        out, err = capsys.readouterr()
        return code, out, err

    return run
