"""Fixtures of the inspector's tests: the example and a broken module."""

from __future__ import annotations

import os

import pytest

from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.document import Document
from inspector_apps import broken_module_bytes

if os.environ.get("SPVINSPECT_SLEEP_LOG"):
    from sleep_log import pytest_runtest_call  # noqa: F401  (a hook: each test's requested sleeps)


@pytest.fixture
def example_bytes() -> bytes:
    """The bundled example module."""
    return EXAMPLE_MODULE.read_bytes()


@pytest.fixture
def example_document(example_bytes) -> Document:
    """The bundled example module, opened."""
    return Document(example_bytes, EXAMPLE_MODULE)


@pytest.fixture
def broken_bytes() -> bytes:
    """A module with a raw instruction, an undecodable tail and trailing bytes."""
    return broken_module_bytes()
