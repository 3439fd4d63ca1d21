"""The assembler's one error: the first thing wrong in the text, and where it is."""

from __future__ import annotations

Where = tuple[str, int]
"""Where a diagnostic points: ('start', word) or ('end', word) by word index,
('char', offset) by character offset, or ('eof', 0)."""


SHOWN_CHARACTERS = 60
"""The most of a word a message quotes."""


def shown(word: str) -> str:
    """A word as a message quotes it: its first line, at most `SHOWN_CHARACTERS`
    characters, `…` where it goes on (a quoted string left open runs to the end of the
    text, which may be megabytes)."""
    line = word.split("\n", 1)[0]
    if len(line) > SHOWN_CHARACTERS:
        line = line[: SHOWN_CHARACTERS - 1]
    return line if line == word else line + "…"


class AssemblyError(Exception):
    """The first error in the text; stops assembly, as in spirv-as."""

    def __init__(self, message: str, where: Where) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
