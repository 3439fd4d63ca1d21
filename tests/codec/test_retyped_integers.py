"""Integer literals re-encoded from their words for another integer type give the words
(or the refusal) spirv-as gives for the decimal spirv-dis prints for them."""

from __future__ import annotations

import numpy as np

from spvinspect.codec.asm.literals import encode_integer
from spvinspect.codec.asm.retyped_integers import literal_values, retyped
from spvinspect.codec.binary.model import NumberType
from spvinspect.codec.text.number_format import format_number

_EDGES = [0, 1, 7, 0x7FFF, 0x8000, 0xFFFF, 0x10000, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x1_0000_0000,
          0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 0xFFFF_FFFF_FFFF_8000]


def test_retyped_literals_are_the_words_of_their_printed_text():
    for old_width in (16, 32, 64):
        for old_signed in (False, True):
            words = 2 if old_width == 64 else 1
            patterns = sorted({value & ((1 << (32 * words)) - 1) for value in _EDGES})
            if old_width == 16:  # a 16-bit literal's word: zero- or sign-extended
                patterns = sorted({(value & 0xFFFF) | (0xFFFF0000 if old_signed and value & 0x8000 else 0)
                                   for value in _EDGES})
            low = np.array([p & 0xFFFFFFFF for p in patterns], dtype=np.uint32)
            high = np.array([p >> 32 for p in patterns], dtype=np.uint32)
            bits, negative = literal_values(low, high, np.full(len(patterns), words == 2), old_signed)
            for new_width in (8, 16, 32, 64):
                for new_signed in (False, True):
                    found = retyped(bits, negative, new_width, new_signed)
                    for k, pattern in enumerate(patterns):
                        text = format_number(pattern, NumberType("int", old_width, old_signed), words)
                        expected, _ = encode_integer(text, new_width, new_signed)
                        got = None
                        if found.fits[k]:
                            got = [int(found.low[k])] + ([int(found.high[k])] if new_width > 32 else [])
                        assert got == expected, (old_width, old_signed, new_width, new_signed, text)
