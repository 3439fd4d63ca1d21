"""Fixtures shared by the whole suite."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from oracle import corpus_dir  # noqa: E402


def corpus_files(subdir: str, pattern: str = "*") -> list[Path]:
    """Files of the shared corpus, sorted; empty when SPVINSPECT_CORPUS is unset."""
    root = corpus_dir()
    if root is None:
        return []
    return sorted((root / subdir).glob(pattern))


@pytest.fixture
def corpus() -> Path:
    """The corpus root; skips the test with a message when it is not configured."""
    root = corpus_dir()
    if root is None:
        pytest.skip("SPVINSPECT_CORPUS is not set: corpus tests skipped")
    return root
