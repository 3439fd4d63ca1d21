"""The assembler's word splitting: the fast `str.split` path must split exactly as the
one-word-at-a-time rule does (the rule spirv-as follows), whatever the text holds."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from spvinspect.codec.asm.lexer import SourceMap, tokenize, word_offsets

ALPHABET = ' \t\r\n;,()"\\%=Op1a.\x0b\x0c\x1c\x85\xa0\u2028\u3000'
"""Every character the split treats specially, and a few ordinary ones."""


def rule_words(text: str) -> list[str]:
    """The words by the one-word-at-a-time rule, punctuation as ''."""
    source = SourceMap(text)
    words = []
    for offset in word_offsets(text):
        end = source.word_end(len(words))
        word = text[offset:end]
        words.append("" if word in (",", "(", ")") else word)
    return words


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=60))
def test_fast_split_equals_the_rule(text: str) -> None:
    assert tokenize(text) == rule_words(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([
    'OpName %a "a"', 'OpName %b "two words"', 'OpString "x;y"', '"a\\"b"', '"a\\\\"',
    '%x = OpLoad %t %p', '; comment "quoted', 'OpSource GLSL 450', '"(,)"', '"\x0b"', '"é"',
    'x"a b"y', '"unterminated', '\\ ', 'OpUnknown(1, 2)',
]), max_size=12), st.sampled_from([" ", "\n", "\t", " \n "]))
def test_lines_of_instructions_and_strings(parts: list[str], joiner: str) -> None:
    text = joiner.join(parts)
    assert tokenize(text) == rule_words(text)


def test_plain_strings_stay_whole() -> None:
    text = 'OpName %main "main"\nOpName %x "a b" ; "c"\nOpString "p\\"q"\n'
    assert tokenize(text) == ["OpName", "%main", '"main"', "OpName", "%x", '"a b"', "OpString", '"p\\"q"']


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=ALPHABET, max_size=60), st.integers(1, 12),
       st.lists(st.integers(0, 800), min_size=1, max_size=6))
def test_words_located_on_demand_are_the_words_of_the_whole_text(text: str, copies: int, asked: list[int]) -> None:
    """A source map locates words only as far as it is asked (in steps of `SCAN_AHEAD`
    and more): any order of questions gives the offsets of the one whole pass."""
    text = "OpNop a\n" * copies * 5 + text * copies
    whole = word_offsets(text)
    source = SourceMap(text)
    for index in asked:
        assert source.word_start(index) == (whole[index] if index < len(whole) else len(text))
    assert source.offsets == whole
    assert [source.word_start(index) for index in range(len(whole) + 1)] == [*whole, len(text)]
