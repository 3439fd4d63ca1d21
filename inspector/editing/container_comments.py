"""The comments at the top of a Lima editor's text that describe the MBS container (its
chunks, offsets and sizes, as `lima dis` prints them), brought up to date after a save
changed the container. Textual-free."""

from __future__ import annotations

from spvinspect import lima
from spvinspect.lima.mbs import is_mbs, parse_mbs


def container_comments(data: bytes) -> list[str]:
    """The comment lines `lima dis` prints for the container of `data` (none for a raw stream)."""
    if not is_mbs(data):
        return []
    return [f"# {line}" for line in lima.chunk_lines(parse_mbs(data).chunks)]


def refreshed_comments(lines: list[str], shown: bytes, saved: bytes) -> tuple[int, list[str]] | None:
    """When `lines` start with the container comments of `shown` and `saved`'s differ:
    (how many lines to replace, the comments of `saved`). None when they are the same or
    the user has changed them (an edited comment is the user's)."""
    old, new = container_comments(shown), container_comments(saved)
    if not old or not new or old == new or lines[: len(old)] != old:
        return None
    return len(old), new
