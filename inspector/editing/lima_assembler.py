"""Lima's assembler for the edit session: seed-004 text (or Mesa's syntax, told apart by
`lima.assemble`'s `auto` style), re-assembled whole on each edit.

A Lima program is a few hundred instructions at most and the Lima assembler is linear,
so every job assembles the whole text. The new file is the original with its code
replaced: the raw stream itself, or the MBS container with its code chunk replaced; a
container with no code chunk to replace gives the raw stream, with a warning that saving
over it cannot work. A location is an instruction's index; there is no validator.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from spvinspect import lima
from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.editing.changes import changed_words
from spvinspect.editing.container_comments import refreshed_comments
from spvinspect.editing.session import AssemblyOutcome, Change, EditSession, LineMessage
from spvinspect.lima.mbs import ContainerError, is_mbs, mbs_with_code, raw_stream


def open_lima_session(data: bytes, style: str = "seed") -> EditSession:
    """A session over a raw stream or MBS file, its text as `lima dis --style STYLE` prints it."""
    return EditSession(data, lima.listing_lines(lima.decode(data), style), LimaAssembler(style))


@dataclass(slots=True)
class LimaJob:
    """One assembly of the whole text; touches no session state (thread-safe)."""

    generation: int
    lines: list[str]
    original: bytes

    def run(self, stale: Callable[[], bool] = lambda: False) -> AssemblyOutcome:
        """Assemble and rebuild the file (a Lima assembly is too short to stop early)."""
        start = time.perf_counter()
        data, diagnostics = assembled_file(self.lines, self.original)
        changed = changed_words(self.original, data) if data is not None else None
        return AssemblyOutcome(self.generation, data, diagnostics, changed, seconds=time.perf_counter() - start)


def assembled_file(lines: list[str], original: bytes) -> tuple[bytes | None, list[Diagnostic]]:
    """The file `original` with the code of `lines`, or None with the diagnostics."""
    words, diagnostics = lima.assemble("\n".join(lines), "auto")
    if words is None:
        return None, diagnostics
    data = raw_stream(words)
    if is_mbs(original):
        try:
            data = mbs_with_code(original, words)
        except ContainerError as error:
            diagnostics = [*diagnostics, Diagnostic(
                f"{error}: the panes show the code as a raw stream, and it can be saved only as one (a .bin name)",
                Severity.WARNING, line=1, column=1)]
    return data, diagnostics


@dataclass(slots=True)
class LimaAssembler:
    """The Lima side of an `EditSession` (see the module's docstring)."""

    style: str = "seed"
    """The syntax the text was opened in (`lima.listing.STYLES`); both assemble."""
    validate: None = None
    """Lima has no validator."""
    _described: bytes | None = None
    """The file whose container the text's top comments describe (None: the original)."""

    def job(self, generation: int, lines: list[str], original: bytes) -> LimaJob:
        """Assemble the whole text."""
        return LimaJob(generation, lines, original)

    def edited(self, generation: int, change: Change) -> None:
        """Nothing to remember: every job assembles the whole text."""

    def took(self, outcome: AssemblyOutcome, newest: bool) -> None:
        """Nothing to continue from."""

    def assemble_now(self, lines: list[str], original: bytes) -> tuple[bytes | None, list[Diagnostic]]:
        """The whole file of `lines`."""
        return assembled_file(lines, original)

    @staticmethod
    def _code_lines(lines: list[str]) -> list[int]:
        """The lines that hold an instruction (not a `#` comment, a label or blank)."""
        return [
            k for k, line in enumerate(lines)
            if (code := line.partition("#")[0].strip()) and not code.endswith(":")
        ]

    def line_of(self, state: None, lines: list[str], index: int) -> int:
        """The line of instruction `index` (the last instruction's past the end)."""
        code = self._code_lines(lines)
        return code[min(index, len(code) - 1)] if code else 0

    def location_of_line(self, state: None, lines: list[str], line: int) -> int | None:
        """The instruction on or before `line`, None before the first."""
        at = bisect_right(self._code_lines(lines), line) - 1
        return at if at >= 0 else None

    def span(self, lines: list[str], line: int, limit: int) -> None:
        """No unit narrower than the program (a PP program is short)."""
        return None

    def placed(self, state: None, binary: bytes, validation) -> list[LineMessage]:
        """No validator, no messages."""
        return []

    def comments_after_save(self, lines: list[str], original: bytes, written: Path) -> tuple[int, list[str]] | None:
        """After a save into an MBS container, its chunk comments with the new sizes
        (unless the user has edited them)."""
        try:
            saved = written.read_bytes()
        except OSError:
            return None
        shown = self._described if self._described is not None else original
        self._described = saved
        return refreshed_comments(lines, shown, saved)
