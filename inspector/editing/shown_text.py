"""How the editor shows a text whose strings hold bytes that are not UTF-8.

The decoder reads such a byte as a lone surrogate (U+DC80-U+DCFF, Python's
`surrogateescape`), which the assembler turns back into the byte, as `dis --lossless`
text does. A terminal cannot show a lone surrogate and Textual's editor cannot even
measure one, so the editor gets a stand-in for each: a braille pattern whose dots are
the byte's bits (U+2880-U+28FF for 0x80-0xFF), or, when the text already holds one of
those, a private-use character. What the editor sends back is mapped the other way, so
an edit elsewhere leaves the string's bytes as they were. Textual-free.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

ESCAPED = re.compile("[\udc80-\udcff]")
"""Characters that stand for a byte that is not UTF-8 (Python's surrogateescape)."""
STAND_IN_BLOCKS = (0x2880, *range(0xE000, 0xF880, 0x80))
"""Where the 128 stand-ins may start: braille first (visible), then private-use blocks."""


class ShownText:
    """The mapping between a session's text and the editor's (identity when the text
    holds no byte that is not UTF-8)."""

    def __init__(self, first: int | None = None) -> None:
        self.first = first
        """The stand-in of byte 0x80 (None: nothing to map)."""
        if first is None:
            self._to: dict[int, int] = {}
            self._back: dict[int, int] = {}
        else:
            self._to = {0xDC80 + k: first + k for k in range(128)}
            self._back = {first + k: 0xDC80 + k for k in range(128)}

    @classmethod
    def for_lines(cls, lines: Sequence[str]) -> ShownText:
        """The mapping for a session's text: stand-ins from a block the text does not use."""
        text = "\n".join(lines)
        if text.isascii() or ESCAPED.search(text) is None:
            return cls()
        for first in STAND_IN_BLOCKS:
            if re.search(f"[{chr(first)}-{chr(first + 127)}]", text) is None:
                return cls(first)
        return cls()  # every block in use: nothing can stand in (the editor will refuse)

    @property
    def note(self) -> str | None:
        """What the user should know when the editor opens with stand-ins, or None."""
        if self.first is None:
            return None
        example = chr(self.first + 0x7F)
        return (f"Strings hold bytes that are not UTF-8: the editor shows each as {example} and its kin "
                f"({example} is 0xff); they are saved as the bytes they were")

    def to_editor(self, text: str) -> str:
        """The session's text as the editor shows it."""
        return text.translate(self._to) if self._to and not text.isascii() else text

    def from_editor(self, lines: Sequence[str]) -> list[str]:
        """The editor's lines as the session holds them."""
        if not self._back:
            return list(lines)
        return [line if line.isascii() else line.translate(self._back) for line in lines]
