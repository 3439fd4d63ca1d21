"""Splits SPIR-V assembly into words exactly as spirv-as does, and maps words to positions.

A word ends at whitespace (space, tab, CR, LF), `;`, `,`, `(` or `)`, except inside
double quotes or after a backslash, which escapes the next character. `;` at the start
of a word begins a comment that runs to the end of the line. A NUL ends the text. A
lone `,`, `(` or `)` where a word should start is an empty word; `tokenize` returns it
as `''` (only `OpUnknown(opcode, count)` reads the character itself).

Tokenizing is the assembler's hot path: stretches without comments, escapes,
punctuation or quoted strings with such characters or blanks inside go through
`str.split`, and only the lines holding such characters through the exact regular
expression. Positions are computed separately and lazily, only for
diagnostics and instruction spans. Words split plainly are kept one string object per
spelling, which bounds the memory of a huge text by its distinct words.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

_WORD = r"""[,()]|(?:[^ \t\r\n;,()"\\]++|\\[\s\S]?|"(?:[^"\\]++|\\[\s\S]?)*+"?)++"""
"""One word. Its repeats are possessive: a word never gives characters back, and
without that the regular expression engine keeps a backtracking entry per character
(gigabytes for a long string literal)."""
_STEP = re.compile(r"[ \t\r]*(?:;[^\n]*)?(?:(" + _WORD + r")|\n|\Z)")
"""Skips blanks and a comment on one line, then takes one word, or the newline, or the end."""

_SPLIT_BREAKS = "\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Characters `str.split` splits at and spirv-as does not."""
_SPECIAL = re.compile('["\\\\;,()' + _SPLIT_BREAKS + "]")
"""Characters after which `str.split` may not split as spirv-as does."""
_PLAIN_STRING = re.compile(r'"[^"\s;\\,()]*"')
"""A quoted string that `str.split` splits around as spirv-as does: nothing inside it
that either would split at, and no backslash."""

PUNCTUATION = frozenset(",()")


def source_text(text: str) -> str:
    """The part of the text spirv-as reads: everything before the first NUL."""
    nul = text.find("\0")
    return text if nul < 0 else text[:nul]


def _exact_words(text: str, pos: int, special: int, words: list[str]) -> int:
    """Appends the words from line start `pos` until a line end past `special`; returns
    the start of the next line (or the text's length)."""
    step = _STEP.match
    end = len(text)
    while True:
        m = step(text, pos)
        word = m.group(1)
        pos = m.end()
        if word is not None:
            words.append("" if word in PUNCTUATION else word)
        elif pos >= end or pos > special:
            return pos


_BLOCK = 1 << 20
"""Characters split at a time: a block's new string objects live only until interned."""


def _plain_words(text: str, start: int, stop: int, words: list[str], unique: dict[str, str]) -> None:
    """Appends the words of `text[start:stop]` (no special characters), a block of lines
    at a time, each word as the one string object kept for its spelling, so that a
    word written a million times is held once."""
    intern = unique.setdefault
    while start < stop:
        cut = text.find("\n", min(start + _BLOCK, stop), stop) + 1 if stop - start > _BLOCK else 0
        cut = cut or stop
        block = text[start:cut].split()
        words += map(intern, block, block)
        start = cut


def tokenize(text: str) -> list[str]:
    """Every word of `text` (already cut at its NUL), in order."""
    words: list[str] = []
    unique: dict[str, str] = {}
    pos = 0
    end = len(text)
    search = _SPECIAL.search
    plain_string = _PLAIN_STRING.match
    while pos < end:
        m = search(text, pos)
        while m is not None and (plain := plain_string(text, m.start())) is not None:
            m = search(text, plain.end())
        if m is None:
            _plain_words(text, pos, end, words, unique)
            break
        special = m.start()
        line_start = text.rfind("\n", pos, special) + 1
        if line_start > pos:
            _plain_words(text, pos, line_start, words, unique)
        else:
            line_start = pos
        pos = _exact_words(text, line_start, special, words)
    return words


def word_offsets(text: str) -> list[int]:
    """The character offset of each word `tokenize` returns, in the same order."""
    offsets = []
    step = _STEP.match
    pos = 0
    end = len(text)
    while True:
        m = step(text, pos)
        if m.group(1) is not None:
            offsets.append(m.start(1))
        elif m.end() >= end:
            return offsets
        pos = m.end()


@dataclass
class SourceMap:
    """Turns word indexes and character offsets into 1-based lines and columns."""

    text: str
    _offsets: list[int] | None = field(default=None, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)

    @property
    def offsets(self) -> list[int]:
        """Offsets of every word, computed on first use."""
        if self._offsets is None:
            self._offsets = word_offsets(self.text)
        return self._offsets

    def _starts(self) -> list[int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column of a character offset."""
        starts = self._starts()
        line = bisect_right(starts, offset)
        return line, offset - starts[line - 1] + 1

    def word_start(self, index: int) -> int:
        """Offset of word `index`; the end of the text past the last word."""
        offsets = self.offsets
        return offsets[index] if index < len(offsets) else len(self.text)

    def word_end(self, index: int) -> int:
        """Offset just past word `index`."""
        start = self.word_start(index)
        m = _STEP.match(self.text, start)
        return m.end(1) if m is not None and m.group(1) is not None else start

    def word_line(self, index: int) -> int:
        """1-based line of word `index`."""
        return self.line_col(self.word_start(index))[0]
