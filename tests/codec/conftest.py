"""Fixtures for the codec's tests."""

from __future__ import annotations

import pytest

from spvinspect.codec.binary import lazy
from spvinspect.codec.binary.instruction_decoder import InstructionDecoder


@pytest.fixture
def decoded(monkeypatch) -> list[int]:
    """The word offsets of the instructions the decoder decodes from now on, in chunks of
    8 instructions (so a pass that stops early shows)."""
    monkeypatch.setattr(lazy, "CHUNK", 8)
    offsets: list[int] = []
    run = InstructionDecoder.run

    def spy(self, words, starts, forms=None):
        offsets.extend(starts)
        return run(self, words, starts, forms)

    monkeypatch.setattr(InstructionDecoder, "run", spy)
    return offsets
