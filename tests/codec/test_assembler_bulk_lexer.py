"""The bulk path's word splitter (`codec.asm.bulk_lexer`, array passes over the text's
bytes) must number the words exactly as `lexer.word_codes` does: on the assembly
corpus, and on texts made of everything that needs spirv-as's full rule (strings with
blanks or escapes, strings over several lines, comments, punctuation, control
characters, long words), split into blocks of every size."""

from __future__ import annotations

from unittest.mock import patch

import numpy as np
import pytest
from oracle import corpus_files, corpus_sample

from spvinspect.codec.asm import assembler, bulk_lexer
from spvinspect.codec.asm.bulk_lexer import word_codes_array
from spvinspect.codec.asm.bulk_words import Distinct
from spvinspect.codec.asm.lexer import source_text, word_codes

HOSTILE = (
    '; SPIR-V\n; Version: 1.3\n'
    'OpCapability Shader\n'
    '%glsl = OpExtInstImport "GLSL.std.450"\n'
    'OpName %main "main"\tOpName %f "f(vf4;i1;"\r\n'
    'OpName %s "a string with blanks"   OpName %t "with \\"escapes\\" \\\\ in it"\n'
    'OpSource GLSL 450 %file "line one\nline two ; not a comment\n(still) the string"\n'
    'OpName %u "x"y"z" %v_with_a_long_name_of_more_than_sixty_four_characters_to_hash_in_python\n'
    '%v_with_a_long_name_of_more_than_sixty_four_characters_to_hash_in_python = OpUndef %a_longer_id\n'
    'OpFoo(1, 2) %x;comment after a word\n'
    '%a\x0bb = OpUndef %c\x1fd ; a control character in a word\n'
    'OpUnknown(7,3) "unterminated, (string)\n\n'
    '%a_longer_id %a_longer_ie %a_longer_id\\ %12345678 %123456789 %0x1f %017 %0 !3 "" ,,, ( ) \\\n'
)
"""Every kind of word the exact rule splits, and long words beside near twins."""


def both(text: str) -> tuple:
    """`word_codes_array`'s numbers and words; what it says of the distinct words
    (from their bytes) checked against what they say from their strings."""
    got = word_codes_array(text)
    assert got is not None
    codes, unique, chars = got
    ours, theirs = Distinct(unique, chars), Distinct(unique)
    assert (ours.ok, ours.ops, ours.cls.tolist(), ours.numeric.tolist()) == (
        theirs.ok, theirs.ops, theirs.cls.tolist(), theirs.numeric.tolist())
    return codes.tolist(), unique


def test_hostile_words_in_blocks_of_every_size() -> None:
    """The hostile text, and it with no string left open, in blocks from 8 bytes up."""
    closed = HOSTILE.replace('"unterminated', '"terminated"')
    for text in (HOSTILE, closed, closed * 3, "OpNop " * 40 + closed):
        expected = word_codes(text)
        for block in (8, 33, 120, 1 << 24):
            with patch.object(bulk_lexer, "_BLOCK", block):
                assert both(text) == expected, (block, text[:40])


def test_gives_way_when_it_cannot_be_sure() -> None:
    """A text that is not ASCII, and two long words that got one key, go back to
    `lexer.word_codes` (None)."""
    cafe = "OpCapability Shader\nOpMemoryModel Logical GLSL450\nOpName %main \"caf\u00e9\"\n%void = OpTypeVoid\n"
    assert word_codes_array(cafe) is None
    with patch.object(assembler, "BULK_MIN_CHARS", 0):
        forced = assembler.assemble(cafe)
    assert forced.ok and forced.binary == assembler.assemble(cafe).binary
    same_key = np.uint64(12345)

    def colliding(data, text, pos, starts, lengths):
        keys = keys_of(data, text, pos, starts, lengths)
        keys[np.asarray(lengths) > 8] = same_key
        return keys

    keys_of = bulk_lexer._keys
    with patch.object(bulk_lexer, "_keys", colliding):
        assert word_codes_array("%a_long_name_1 %a_long_name_2 %short") is None
        assert both("%a_long_name_1 %a_long_name_1 %short %short") == word_codes(
            "%a_long_name_1 %a_long_name_1 %short %short")


ASM = corpus_sample(corpus_files("asm"))[::4]


@pytest.mark.skipif(not ASM, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
def test_corpus_texts_split_as_the_lexer_splits_them() -> None:
    """Every fourth `asm/` file of the corpus (ASCII ones; the others give way)."""
    for path in ASM:
        text = source_text(path.read_bytes().decode("utf-8", "surrogateescape"))
        got = word_codes_array(text)
        if text.isascii() and len(text) >= 16:
            assert got is not None and both(text) == word_codes(text), path.name
        else:
            assert got is None, path.name
