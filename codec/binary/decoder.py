"""Grammar-driven SPIR-V decoder: bytes in, a `Module` and diagnostics out. Never raises.

Layers: `words.py` turns bytes into words (endianness, trailing bytes); `index.py`
follows word counts to the instruction boundaries; `instruction_decoder.py` decodes
each instruction following the grammar. Only a word count of 0 or one running past the
end stops decoding; an instruction whose operands do not fit the grammar is kept as
raw words with a diagnostic, and decoding goes on at the next one.
"""

from __future__ import annotations

from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.binary.model import Module
from spvinspect.codec.grammar import Grammar


def decode(data: bytes, grammar: Grammar | None = None) -> Module:
    """Decode a SPIR-V binary whole. The module's `diagnostics` say what went wrong, and
    where. (`open_module` decodes the same on demand.)"""
    return open_module(data, grammar).to_module()
