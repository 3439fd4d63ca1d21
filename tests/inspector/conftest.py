"""Modules and app launchers shared by the inspector's tests."""

from __future__ import annotations

import struct

import pytest

from codec.binary.decoder import decode
from codec.grammar import load_grammar
from inspector.app import InspectorApp
from inspector.commands.open import EXAMPLE_MODULE
from inspector.document import Document

def broken_module_bytes() -> bytes:
    """The example module with three faults: an OpDecorate whose decoration is not in the
    grammar (its words stay raw), an instruction at the end claiming more words than
    remain (the undecodable tail), and two bytes past the last whole word."""
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    decorate = next(i for i in module.instructions if i.opname == "OpDecorate")
    words[decorate.offset + 2] = 9999
    nop = load_grammar().by_name["OpNop"].opcode
    words += [(40 << 16) | nop, 0xDEADBEEF, 0x12345678]
    return struct.pack(f"<{len(words)}I", *words) + b"\xab\xcd"


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


def make_app(data: bytes, name: str = "module.spv", **options) -> InspectorApp:
    """The app over `data`, as `spvinspect` would open it."""
    return InspectorApp(Document(data, name), **options)
