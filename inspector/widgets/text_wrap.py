"""Wrapping a line of text word by word, as Rich's `Text.wrap` does it (left-justified,
an overlong word cut with an ellipsis): worked out directly for a line of plain ASCII, the
common case of the word detail's values, and by Rich for anything else (wide characters,
tabs, several lines). Rich's wrap builds a `Text` per line and measures every word's cells
through its tables; the word detail wraps a few values for each word the cursor meets."""

from __future__ import annotations

import re

from rich.console import Console
from rich.text import Text

_WORD = re.compile(r"\s*\S+\s*")
"""A word with the spaces around it, as Rich's wrap splits a line."""


def wrapped(console: Console, value: str, width: int) -> tuple[str, ...]:
    """`value` as the lines `Text(value).wrap(console, width, justify="left",
    overflow="ellipsis")` gives, each `width` cells (padded with spaces)."""
    if width < 1 or not (value.isascii() and value.isprintable()):
        return tuple(line.plain for line in Text(value).wrap(console, width, justify="left", overflow="ellipsis"))
    breaks = [0]
    offset = 0
    for match in _WORD.finditer(value):
        start, end = match.span()
        length = len(value[start:end].rstrip())
        if width - offset >= length:
            offset += end - start
        elif start and (length > width or offset):
            breaks.append(start)
            offset = end - start
        elif length > width:
            offset = end - start
    breaks.append(len(value))
    return tuple(_fitted(value[a:b], width) for a, b in zip(breaks, breaks[1:]))


def _fitted(line: str, width: int) -> str:
    """A wrapped line as Rich finishes it: spaces past `width` dropped, then cut with an
    ellipsis when still longer, or padded to `width`."""
    if len(line) > width:
        line = line[: len(line) - min(len(line) - len(line.rstrip()), len(line) - width)]
    if len(line) > width:
        return line[: width - 1] + "…"
    return line + " " * (width - len(line))
