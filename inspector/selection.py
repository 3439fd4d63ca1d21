"""The shared selection (the word every pane follows) and the jump history over it.

Textual-free: the screen owns one `Selection` and hands it to every pane; panes turn
the user's keys into requests for a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

Place = TypeVar("Place")
"""What a history remembers: a `Selection`, or a Lima instruction index."""


@dataclass(frozen=True, slots=True)
class Selection:
    """The word the user is on, and the row, instruction and operand that hold it."""

    word: int
    """Word offset from the start of the module."""
    row: int | None
    """The instruction list's row (instructions, then the undecodable tail); None in the header."""
    instruction: int | None = None
    """Index of the instruction holding `word`; None in the header or the tail."""
    operand: int | None = None
    """Index into that instruction's operands; None on its first word (count and opcode)."""

    @property
    def byte_offset(self) -> int:
        """The byte offset users see in error messages and `--at`."""
        return self.word * 4


class JumpHistory(Generic[Place]):
    """Back and forward through the places a jump left, like a browser's history (one
    class for both formats: any place that compares by value)."""

    def __init__(self, limit: int = 200) -> None:
        self._back: list[Place] = []
        self._forward: list[Place] = []
        self._limit = limit

    def record(self, left: Place) -> None:
        """Remember `left` as the place a new jump leaves; forward history is dropped."""
        if self._back and self._back[-1] == left:
            return
        self._back.append(left)
        del self._back[: -self._limit]
        self._forward.clear()

    def back(self, current: Place) -> Place | None:
        """The place before `current`, or None at the start of the history."""
        if not self._back:
            return None
        self._forward.append(current)
        return self._back.pop()

    def forward(self, current: Place) -> Place | None:
        """The place `back` left, or None when there is nothing to go forward to."""
        if not self._forward:
            return None
        self._back.append(current)
        return self._forward.pop()

    @property
    def can_go_back(self) -> bool:
        """True when `back` has somewhere to go."""
        return bool(self._back)

    @property
    def can_go_forward(self) -> bool:
        """True when `forward` has somewhere to go."""
        return bool(self._forward)
