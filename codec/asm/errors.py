"""The assembler's one error: the first thing wrong in the text, and where it is."""

from __future__ import annotations

Where = tuple[str, int]
"""Where a diagnostic points: ('start', word) or ('end', word) by word index,
('char', offset) by character offset, or ('eof', 0)."""


class AssemblyError(Exception):
    """The first error in the text; stops assembly, as in spirv-as."""

    def __init__(self, message: str, where: Where) -> None:
        super().__init__(message)
        self.message = message
        self.where = where
