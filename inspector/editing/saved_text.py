"""Whether an editing session's text differs from the file: compared by content, so
undoing every edit back to the text as opened (or as last saved) counts as unchanged."""

from __future__ import annotations


class SavedText:
    """The lines that match the file, and the answer for the newest generation asked.

    Sessions replace their line list on each edit and never change it in place, so
    holding the saved list costs only the lines edited since; comparing shares the
    unchanged strings (an identity check each), and is done once per generation."""

    __slots__ = ("_lines", "_generation", "_asked")

    def __init__(self, lines: list[str], generation: int = 0) -> None:
        self._lines = lines
        self._generation = generation
        self._asked: tuple[int, bool] | None = None

    def mark(self, lines: list[str], generation: int) -> None:
        """The file now holds `lines` (opened or just saved)."""
        self._lines = lines
        self._generation = generation
        self._asked = None

    def differs(self, lines: list[str], generation: int) -> bool:
        """True when `lines` (the text of `generation`) is not the saved text."""
        if generation == self._generation:
            return False
        if self._asked is None or self._asked[0] != generation:
            self._asked = (generation, lines is not self._lines and lines != self._lines)
        return self._asked[1]
