"""The editor's language, as a format supplies it: the lexer that colours the text and
the line fix its fix key applies (Lima's field order), so the editor never asks which
format it edits. Textual-free."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pygments.lexer import Lexer

LineFix = Callable[[str, list[str]], "str | None"]
"""(a line, the messages on it) → the fixed line, or None when there is nothing to fix."""


@dataclass(frozen=True, slots=True)
class EditorLanguage:
    """How the editor shows and helps with one format's assembly text."""

    lexer: Lexer
    fix_line: LineFix | None = None
    """The fix key's fix (None: the format has none, and the key goes on to the screen)."""
