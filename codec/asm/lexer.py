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
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import count
from operator import methodcaller

_WORD = r"""[,()]|(?:[^ \t\r\n;,()"\\]++|\\[\s\S]?|"(?:[^"\\]++|\\[\s\S]?)*+"?)++"""
"""One word. Its repeats are possessive: a word never gives characters back, and
without that the regular expression engine keeps a backtracking entry per character
(gigabytes for a long string literal)."""
_STEP = re.compile(r"[ \t\r]*(?:;[^\n]*)?(?:(" + _WORD + r")|\n|\Z)")
"""Skips blanks and a comment on one line, then takes one word, or the newline, or the end."""

_SPLIT_BREAKS = "\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
"""Characters `str.split` splits at and spirv-as does not."""
_PLAIN_STRING = re.compile(r'"[^"\s;\\,()]*"')
"""A quoted string that `str.split` splits around as spirv-as does: nothing inside it
that either would split at, and no backslash."""
_PLAIN_RUN = re.compile('(?:[^"\\\\;,()' + _SPLIT_BREAKS + ']++|' + _PLAIN_STRING.pattern + ")*+")
"""Text that `str.split` splits as spirv-as does: no special character but in plain
quoted strings. Its match ends at the first special character that is not."""

_WORD_START = methodcaller("start", 1)
"""Where a step's word starts."""

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


def _blocks(text: str) -> Iterator[list[str]]:
    """The words of `text` (already cut at its NUL) in order, a list at a time: blocks
    of lines without special characters split plainly, and the lines that hold such
    characters split exactly."""
    pos = 0
    end = len(text)
    plain_run = _PLAIN_RUN.match
    while pos < end:
        special = plain_run(text, pos).end()
        stop = end if special == end else text.rfind("\n", pos, special) + 1
        while pos < stop:
            cut = text.find("\n", min(pos + _BLOCK, stop), stop) + 1 if stop - pos > _BLOCK else 0
            cut = cut or stop
            yield text[pos:cut].split()
            pos = cut
        if special == end:
            break
        words: list[str] = []
        pos = _exact_words(text, pos, special, words)
        yield words


def tokenize(text: str) -> list[str]:
    """Every word of `text` (already cut at its NUL), in order. Each word is the one
    string object kept for its spelling, so that a word written a million times is
    held once."""
    words: list[str] = []
    intern = {}.setdefault
    for block in _blocks(text):
        words += map(intern, block, block)
    return words


def word_codes(text: str) -> tuple[list[int], list[str]]:
    """Every word of `text` (already cut at its NUL) as a number: each word's index
    among the distinct words, and those in order of first appearance."""
    index: defaultdict[str, int] = defaultdict(count().__next__)
    code = index.__getitem__  # numbers a new spelling in C, without a Python call
    codes: list[int] = []
    for block in _blocks(text):
        codes += map(code, block)
    return codes, list(index)


def word_offsets(text: str) -> list[int]:
    """The character offset of each word `tokenize` returns, in the same order."""
    # A step that took a newline or the end has no word: its start is -1.
    return [start for start in map(_WORD_START, _STEP.finditer(text)) if start >= 0]


SCAN_AHEAD = 64
"""Words a `SourceMap` locates at least per scan (it scans at least as far again as it
has, so that a whole text costs one pass)."""


@dataclass
class SourceMap:
    """Turns word indexes and character offsets into 1-based lines and columns."""

    text: str
    _offsets: list[int] = field(default_factory=list, repr=False)
    _scanned: int | None = field(default=0, repr=False)
    """Where the scan for words goes on; None once it has reached the end of the text."""
    _line_starts: list[int] | None = field(default=None, repr=False)

    @property
    def offsets(self) -> list[int]:
        """Offsets of every word, computed on first use."""
        self._scan(None)
        return self._offsets

    def _scan(self, index: int | None) -> list[int]:
        """The word offsets known once word `index` (every word, for None) is located or
        the text ends: a diagnostic near the top of a long text scans only its top."""
        offsets = self._offsets
        if self._scanned is None or (index is not None and index < len(offsets)):
            return offsets
        want = None if index is None else max(index + 1, 2 * len(offsets), SCAN_AHEAD)
        for step in _STEP.finditer(self.text, self._scanned):
            start = step.start(1)
            if start >= 0:
                offsets.append(start)
                if want is not None and len(offsets) >= want:
                    self._scanned = step.end()
                    return offsets
        self._scanned = None
        return offsets

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
        offsets = self._scan(index)
        return offsets[index] if index < len(offsets) else len(self.text)

    def word_end(self, index: int) -> int:
        """Offset just past word `index`."""
        start = self.word_start(index)
        m = _STEP.match(self.text, start)
        return m.end(1) if m is not None and m.group(1) is not None else start

    def word_line(self, index: int) -> int:
        """1-based line of word `index`."""
        return self.line_col(self.word_start(index))[0]
