"""Counts with their noun in the right number: `1 function`, `2 functions`, `0 bytes`.

Every message and pane that prints a count of things says it through `counted`, so no
"1 functions" is ever shown."""

from __future__ import annotations


def noun(count: int, singular: str, plural: str | None = None) -> str:
    """`singular` for a count of one (or minus one), else `plural` (`singular` + s)."""
    return singular if abs(count) == 1 else plural or singular + "s"


def counted(count: int, singular: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """The count and its noun: `1 word`, `3 words`; `grouped` writes `4,040 bytes`."""
    return f"{count:,} " + noun(count, singular, plural) if grouped else f"{count} " + noun(count, singular, plural)
