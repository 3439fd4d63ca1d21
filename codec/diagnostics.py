"""Diagnostics shared by every codec: what went wrong, and where.

A position is a word offset (binary input) or a line and column (text input), so
that the inspector can jump to the faulty word or character.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Severity(str, Enum):
    """How bad a diagnostic is; errors make the input unusable past that point."""

    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One message about the input, with its position."""

    message: str
    severity: Severity = Severity.ERROR
    word_offset: int | None = None
    """Word index from the start of the binary, for binary input."""
    line: int | None = None
    """1-based line, for text input."""
    column: int | None = None
    """1-based column, for text input."""

    @property
    def location(self) -> str:
        """The position as users read it: `word 12` or `3:7`."""
        if self.line is not None:
            return f"{self.line}:{self.column or 1}"
        if self.word_offset is not None:
            return f"word {self.word_offset}"
        return ""

    def format(self, source: str = "") -> str:
        """`source:3:7: error: message`, the compiler-style line for terminals."""
        parts = [p for p in (source, self.location) if p]
        prefix = ":".join(parts)
        head = f"{prefix}: " if prefix else ""
        return f"{head}{self.severity.value}: {self.message}"


def has_errors(diagnostics: list[Diagnostic]) -> bool:
    """True when any diagnostic is an error."""
    return any(d.severity is Severity.ERROR for d in diagnostics)
