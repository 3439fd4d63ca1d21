"""Whether the module's text after a region can hold a `"`: read off the words.

A quoted string left open in a region's text runs on to the next `"` of the whole text.
The disassembler writes a `"` only in a literal string operand (names are sanitized,
comments after the instructions quote nothing), so the text after the region holds
one only when an instruction there has a string operand: an opcode the grammar gives
one (`OpName`, `OpString`, `OpSource`, `OpEntryPoint`, ...), or a decoration that takes
a string parameter. The opcodes and decorations are the grammar's
(`codec.text.line_breaks`' tables); one numpy pass over the instructions after the
region, no decoding. An opcode the grammar does not know is taken to hold one.
"""

from __future__ import annotations

import numpy as np

from spvinspect.codec.text.line_breaks import string_operands
from spvinspect.codec.text.region import Region


def quote_after(module, region: Region) -> bool:
    """True when the text of the (indexed) `module` after `region`'s instructions may
    hold a `"` (then a string left open in the region may close there)."""
    count = module.instruction_count
    if region.end >= count:
        return False
    grammar = module.grammar
    stringy, with_strings, decorating = string_operands(grammar)
    words = np.frombuffer(module.words, dtype=np.uint32)
    offsets = np.frombuffer(module.index.offsets, dtype=np.uint32)[region.end : count].astype(np.int64)
    heads = words[offsets]
    opcodes = heads & 0xFFFF
    known = np.fromiter(grammar.instructions, dtype=np.uint32, count=len(grammar.instructions))
    if np.isin(opcodes, stringy).any() or not np.isin(opcodes, known).all():
        return True
    for opcode, at in decorating.items():
        decorates = (opcodes == opcode) & ((heads >> 16) > at)
        if np.isin(words[offsets[decorates] + at], with_strings).any():
            return True
    return False

