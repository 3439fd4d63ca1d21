"""The editing session in Lima mode: seed-004 text (or Mesa's syntax, told apart by
`lima.assemble`'s `auto` style), re-assembled whole on each edit.

The same protocol as `inspector.editing.session.EditSession` (edit / request / run /
accept, generations, one job at a time, `messages()` for the editor), over the text
`spvinspect lima dis` prints. A Lima program is a few hundred instructions at most, and
the Lima assembler is linear, so every job assembles the whole text. The new file is the
original with its code replaced: the raw stream itself, or the MBS container with its
code chunk replaced (`lima.mbs.mbs_with_code`); a container with no code chunk to
replace shows the raw stream, with a warning that saving over it cannot work.
"""

from __future__ import annotations

import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from spvinspect import lima
from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.editing.saved_text import SavedText
from spvinspect.editing.changes import ChangedWords, changed_words
from spvinspect.editing.session import LineMessage
from spvinspect.lima.mbs import ContainerError, is_mbs, mbs_with_code, raw_stream


@dataclass(frozen=True, slots=True)
class LimaOutcome:
    """What one job made of the text of one generation."""

    generation: int
    data: bytes | None
    """The whole file with the edited code (raw stream or MBS), or None on errors."""
    diagnostics: list[Diagnostic]
    changed: ChangedWords | None = None
    """Words of the file that differ from the original."""
    seconds: float = 0.0


@dataclass(slots=True)
class LimaJob:
    """One assembly of the whole text; touches no session state (thread-safe)."""

    generation: int
    lines: list[str]
    original: bytes

    def run(self, stale: Callable[[], bool] = lambda: False) -> LimaOutcome:
        """Assemble and rebuild the file (`stale` is taken for the same call as
        `AssemblyJob.run`; a Lima assembly is too short to stop early)."""
        start = time.perf_counter()
        words, diagnostics = lima.assemble("\n".join(self.lines), "auto")
        if words is None:
            return LimaOutcome(self.generation, None, diagnostics, seconds=time.perf_counter() - start)
        data = raw_stream(words)
        if is_mbs(self.original):
            try:
                data = mbs_with_code(self.original, words)
            except ContainerError as error:
                diagnostics = [*diagnostics, Diagnostic(
                    f"{error}: the panes show the code as a raw stream, and it can be saved only as one (a .bin name)",
                    Severity.WARNING, line=1, column=1)]
        return LimaOutcome(
            self.generation, data, diagnostics, changed_words(self.original, data), time.perf_counter() - start
        )


@dataclass(slots=True)
class LimaEditSession:
    """A Lima program's editing session (see the module's docstring)."""

    original: bytes
    lines: list[str]
    generation: int = 0
    data: bytes | None = None
    """The last good file (None until the first job is accepted: then `original`)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    changed: ChangedWords = field(default_factory=ChangedWords)
    saved_generation: int = 0
    style: str = "seed"
    """The syntax the text was opened in (`lima.listing.STYLES`); both assemble."""
    _running: bool = False
    _saved: SavedText | None = None
    """The text as opened or last saved."""
    _shown_generation: int = -1

    def __post_init__(self) -> None:
        self._saved = SavedText(self.lines, self.saved_generation)

    @classmethod
    def open(cls, data: bytes, style: str = "seed") -> LimaEditSession:
        """A session over a raw stream or MBS file, its text as `lima dis --style STYLE`
        prints it."""
        return cls(data, lima.listing_lines(lima.decode(data), style), style=style)

    @property
    def text(self) -> str:
        """The whole text being edited."""
        return "\n".join(self.lines)

    def edit(self, start: tuple[int, int], end: tuple[int, int], text: str) -> int:
        """Replace the text between two (line, column) locations; the new generation."""
        (row0, col0), (row1, col1) = sorted((start, end))
        return self.replace_lines(row0, row1 + 1, (self.lines[row0][:col0] + text + self.lines[row1][col1:]).split("\n"))

    def replace_lines(self, start: int, end: int, new_lines: list[str]) -> int:
        """Replace lines [start, end); the new generation."""
        self.lines = self.lines[:start] + list(new_lines) + self.lines[end:]
        self.generation += 1
        return self.generation

    @property
    def modified(self) -> bool:
        """True when the text differs from what was opened or last saved (by content:
        undoing back to it counts as unchanged)."""
        return self._saved.differs(self.lines, self.generation)

    @property
    def assembles(self) -> bool:
        """True when the newest text assembled."""
        return not any(d.severity.value == "error" for d in self.diagnostics)

    @property
    def binary(self) -> bytes:
        """The last good file: the original until an edit assembles."""
        return self.data if self.data is not None else self.original

    def request(self) -> LimaJob | None:
        """The job to run now, or None (one is running, or the newest text is done)."""
        if self._running or self._shown_generation == self.generation:
            return None
        self._running = True
        return LimaJob(self.generation, self.lines, self.original)

    def accept(self, outcome: LimaOutcome) -> bool:
        """Take a job's outcome; True when it is for the newest text."""
        self._running = False
        if outcome.generation != self.generation:
            return False
        self._shown_generation = outcome.generation
        self.diagnostics = outcome.diagnostics
        if outcome.data is not None:
            self.data = outcome.data
            self.changed = outcome.changed or ChangedWords()
        return True

    @property
    def busy(self) -> bool:
        """True while a job runs or the newest text is not assembled yet."""
        return self._running or self._shown_generation != self.generation

    def cancelled(self, generation: int) -> Callable[[], bool]:
        """For `LimaJob.run`, as `EditSession.cancelled`."""
        return lambda: self.generation != generation

    def _code_lines(self) -> list[int]:
        """The lines that hold an instruction (not a `#` comment, a label or blank)."""
        return [
            k for k, line in enumerate(self.lines)
            if (code := line.partition("#")[0].strip()) and not code.endswith(":")
        ]

    def window(self, line: int) -> tuple[int, int]:
        """Lines [start, end) the editor holds: the whole text (a PP program is short)."""
        return 0, len(self.lines)

    def line_of_instruction(self, index: int) -> int:
        """The line of instruction `index` (the last instruction's past the end)."""
        code = self._code_lines()
        return code[min(index, len(code) - 1)] if code else 0

    def instruction_of_line(self, line: int) -> int | None:
        """The instruction on or before `line`, None before the first."""
        at = bisect_right(self._code_lines(), line) - 1
        return at if at >= 0 else None

    def messages(self) -> list[LineMessage]:
        """The assembler's diagnostics with their (0-based) lines, in line order."""
        found = [LineMessage((d.line or 1) - 1, (d.column or 1) - 1, d) for d in self.diagnostics]
        return sorted(found, key=lambda m: (m.line, m.column))

    def mark_saved(self) -> None:
        """The text now matches the file."""
        self.saved_generation = self.generation
        self._saved.mark(self.lines, self.generation)
