"""The editing session, whatever the format: the text being edited, the last good binary,
and re-assembly jobs, over an assembler the format supplies.

No Textual here. The screen forwards each edit (`edit`, `replace_lines`), asks for a job
(`request`), runs `job.run()` in a thread worker and hands the outcome back (`accept`),
then asks again: one job runs at a time, and edits made meanwhile are taken up by the
next one, so a burst of keys costs one assembly, not one each (the debounce), and the
text assembled is always the newest. Every outcome carries the generation of the text it
was made from; one made from text that has since changed is not shown (its good
assembly is still handed to the assembler, which may continue from it).

What differs by format is the assembler's (`Assembler`): the job it makes of a text, how
a line maps to the format's location (a word of a SPIR-V module, a Lima instruction),
the span a huge text's editor shows, and the validator. The text is kept whole (a list
of lines); on a module too big for one `TextArea` the editor shows a window of it
(`window`) and its edits are forwarded with the window's first line added.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.editing.changes import ChangedWords
from spvinspect.editing.saved_text import SavedText
from spvinspect.editing.validation import Validation

WINDOW_LINES = 2_000
"""Lines a huge module's editor shows at once: the span around the cursor the assembler
names (a SPIR-V function) when it is no longer, else this many lines around the cursor."""

HUGE_LINES = 20_000
"""From this many lines on, the editor works on a window (`TextArea` re-measures every
line on each edit, which grows with the text)."""

Change = tuple[int, int, int]
"""Lines [start, end) of one text that are lines [start, new end) of the next."""


@dataclass(frozen=True, slots=True)
class AssemblyOutcome:
    """What one job made of the text of one generation."""

    generation: int
    binary: bytes | None
    """The whole file as assembled, or None (errors, or skipped because the text changed)."""
    diagnostics: list[Diagnostic]
    changed: ChangedWords | None = None
    """The words that differ from the original file (with a good assembly)."""
    state: Any = None
    """What the assembler keeps of a good assembly (SPIR-V: its `AssemblyState`)."""
    incremental: bool = False
    skipped: bool = False
    """True when the job stopped early because a newer edit had come."""
    seconds: float = 0.0


class AssemblyJob(Protocol):
    """One re-assembly, self-contained: `run()` touches no session state (thread-safe)."""

    generation: int

    def run(self, stale: Callable[[], bool] = lambda: False) -> AssemblyOutcome:
        """Assemble; `stale` says a newer edit has come (the job may then stop early)."""


class Assembler(Protocol):
    """What a session asks of the format's assembler. It may keep state across jobs (a
    base to continue from); the session calls it on the UI thread only."""

    def job(self, generation: int, lines: list[str], original: bytes) -> AssemblyJob:
        """The job that assembles `lines` (the text of `generation`) into a whole file."""

    def edited(self, generation: int, change: Change) -> None:
        """The text of `generation` is the previous one with `change`."""

    def took(self, outcome: AssemblyOutcome, newest: bool) -> None:
        """A job's good assembly, before it is shown (`newest`) or dropped as stale."""

    def assemble_now(self, lines: list[str], original: bytes) -> tuple[bytes | None, list[Diagnostic]]:
        """The whole file of `lines` now, on the calling thread (saving before a job
        has caught up), or None with the diagnostics."""

    def line_of(self, state: Any, lines: list[str], location: int) -> int | None:
        """The 0-based line of the format's `location` (the selection's word or
        instruction) in the text `state` was assembled from."""

    def location_of_line(self, state: Any, lines: list[str], line: int) -> int | None:
        """The location on or before `line`, for the panes to follow the editor's
        cursor; None before the first instruction."""

    def span(self, lines: list[str], line: int, limit: int) -> tuple[int, int] | None:
        """Lines [start, end) of the unit around `line` a window should show (a
        function), when it has at most `limit` lines; None otherwise."""

    validate: Callable[[bytes], Validation] | None
    """The format's validator (None: the format has none)."""

    def placed(self, state: Any, binary: bytes, validation: Validation) -> list[LineMessage]:
        """The validator's messages on `binary`, each at its line."""

    def comments_after_save(self, lines: list[str], original: bytes, written: Path) -> tuple[int, list[str]] | None:
        """The text's top comments that describe the file, refreshed after a save to
        `written` (see `EditSession.comments_after_save`)."""


@dataclass(slots=True)
class ValidationJob:
    """One validator run on the good binary of one generation."""

    generation: int
    binary: bytes
    validate: Callable[[bytes], Validation]

    def run(self) -> Validation:
        """Run the validator (in a worker: it takes a while on a big module)."""
        return self.validate(self.binary)


@dataclass(frozen=True, slots=True)
class LineMessage:
    """A message the editor shows at a line: an assembler or validator diagnostic."""

    line: int
    """0-based line in the whole text."""
    column: int
    """0-based column (0 for validator messages, which name instructions)."""
    diagnostic: Diagnostic


@dataclass(slots=True, weakref_slot=True)
class EditSession:
    """One file's editing session (see the module's docstring)."""

    original: bytes
    """The file's bytes as opened."""
    lines: list[str]
    """The text being edited, whole."""
    assembler: Any
    """The format's `Assembler`."""
    generation: int = 0
    """Bumped by every change to the text."""
    state: Any = None
    """The assembler's state of the good assembly on screen (see `AssemblyOutcome.state`)."""
    good: bytes | None = None
    """The good binary on screen (None until the first good job is accepted)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """The assembler's diagnostics for the newest text assembled (line:col)."""
    changed: ChangedWords = field(default_factory=ChangedWords)
    validation: Validation | None = None
    """The validator's verdict on the binary on screen (None until it has run)."""
    saved_generation: int = 0
    """The generation whose text matches the file (the one opened, or the last saved)."""
    opened: bytes | None = None
    """The bytes the text was opened from, when they are not the file's: a part of a
    module edited elsewhere before (a region, see `region_assembler`). None: `original`."""
    saved_binary: bytes | None = None
    """The file's bytes as opened (None: `original`) or last saved."""
    _running: bool = False
    _saved: SavedText | None = None
    """The text as opened or last saved."""
    _shown_generation: int = -1
    _validated_generation: int = -1
    _placed: list[LineMessage] | None = None
    """The validator's messages at their lines, once placed (for `validation`)."""

    def __post_init__(self) -> None:
        self._saved = SavedText(self.lines, self.saved_generation)
        if self.saved_binary is None:
            self.saved_binary = self.original

    # ------------------------------------------------------------------ the text

    @property
    def text(self) -> str:
        """The whole text being edited."""
        return "\n".join(self.lines)

    def edit(self, start: tuple[int, int], end: tuple[int, int], text: str) -> int:
        """Replace the text between two (line, column) locations, as `TextArea.edit`
        does; returns the new generation."""
        (row0, col0), (row1, col1) = sorted((start, end))
        head = self.lines[row0][:col0]
        tail = self.lines[row1][col1:]
        return self.replace_lines(row0, row1 + 1, (head + text + tail).split("\n"))

    def replace_lines(self, start: int, end: int, new_lines: list[str]) -> int:
        """Replace lines [start, end) (a window's whole text, say); returns the new
        generation. The line list is replaced, never changed in place: a job holds
        the list it was given."""
        self.lines = self.lines[:start] + list(new_lines) + self.lines[end:]
        return self._changed((start, end, start + len(new_lines)))

    def set_text(self, text: str) -> int:
        """Replace the whole text; returns the new generation."""
        old_count = len(self.lines)
        self.lines = text.split("\n")
        return self._changed((0, old_count, len(self.lines)))

    def _changed(self, change: Change) -> int:
        self.generation += 1
        self.assembler.edited(self.generation, change)
        return self.generation

    @property
    def modified(self) -> bool:
        """True when the text differs from what was opened or last saved (by content:
        undoing back to it counts as unchanged). Opened from bytes that are not the
        file's (`opened`), by the bytes: the text as opened, or assembled, differs when
        its binary does."""
        differs = self._saved.differs(self.lines, self.generation)
        if self.opened is None:
            return differs
        if not differs:
            return self.opened != self.saved_binary
        return self.busy or not self.assembles or self.binary != self.saved_binary

    @property
    def huge(self) -> bool:
        """True when the editor should show a window rather than the whole text, or the
        text is a part of a module big enough to be edited a part at a time."""
        return len(self.lines) >= HUGE_LINES or self.partial

    def window(self, line: int, limit: int = WINDOW_LINES) -> tuple[int, int]:
        """Lines [start, end) for the editor, holding `line`: the whole text when it has
        at most `limit` lines, else the assembler's span around it when that is no
        longer, else `limit` lines around it."""
        total = len(self.lines)
        if total <= limit:
            return 0, total
        span = self.assembler.span(self.lines, line, limit)
        if span is not None:
            return span
        start = max(0, min(line - limit // 2, total - limit))
        return start, min(total, start + limit)

    # ------------------------------------------------------------- re-assembly

    def request(self) -> AssemblyJob | None:
        """The job to run now: None while one is running or when the newest text has
        been assembled. Call after each edit and after each `accept`."""
        if self._running or self._shown_generation == self.generation:
            return None
        self._running = True
        return self.assembler.job(self.generation, self.lines, self.original)

    def accept(self, outcome: AssemblyOutcome) -> bool:
        """Take a job's outcome; True when it is for the newest text (the panes should
        follow it), False when it is stale (its good assembly goes to the assembler
        only, as the base of its next job)."""
        self._running = False
        newest = not outcome.skipped and outcome.generation == self.generation
        if outcome.binary is not None:
            self.assembler.took(outcome, newest)
        if not newest:
            return False
        self._shown_generation = outcome.generation
        self.diagnostics = outcome.diagnostics
        if outcome.binary is not None:
            if outcome.state is None or outcome.state is not self.state:
                self.validation = None
                self._placed = None
            self.state = outcome.state
            self.good = outcome.binary
            self.changed = outcome.changed or ChangedWords()
        return True

    def cancelled(self, generation: int) -> Callable[[], bool]:
        """For `AssemblyJob.run`: True once the text has moved past `generation`."""
        return lambda: self.generation != generation

    @property
    def busy(self) -> bool:
        """True while a job runs or the newest text is not assembled yet."""
        return self._running or self._shown_generation != self.generation

    @property
    def binary(self) -> bytes:
        """The last good binary: the bytes opened until an edit assembles."""
        if self.good is not None:
            return self.good
        return self.opened if self.opened is not None else self.original

    @property
    def assembles(self) -> bool:
        """True when the newest text assembled (no error among its diagnostics)."""
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)

    def assemble_now(self) -> tuple[bytes | None, list[Diagnostic]]:
        """The newest text's binary, assembled here when no job has caught up with it
        yet; None with the diagnostics when it does not assemble."""
        if not self.busy:
            return (self.binary if self.assembles else None), self.diagnostics
        return self.assembler.assemble_now(list(self.lines), self.original)

    # ------------------------------------------------------- lines and locations

    def line_of(self, location: int) -> int | None:
        """The 0-based line of the format's location (a word, an instruction)."""
        return self.assembler.line_of(self.state, self.lines, location)

    def location_of_line(self, line: int) -> int | None:
        """The location on or before the 0-based `line` (None before the first)."""
        return self.assembler.location_of_line(self.state, self.lines, line)

    # -------------------------------------------------------------- validation

    @property
    def validates(self) -> bool:
        """True when the format checks an edited binary with a validator (spirv-val)."""
        return self.assembler.validate is not None

    def validation_job(self) -> ValidationJob | None:
        """The validator for the binary on screen, unless it has been validated (or the
        format has no validator)."""
        validate = self.assembler.validate
        if validate is None or self.good is None or self._validated_generation == self._shown_generation:
            return None
        self._validated_generation = self._shown_generation
        return ValidationJob(self._shown_generation, self.good, validate)

    def accept_validation(self, job: ValidationJob, validation: Validation) -> bool:
        """Take the validator's verdict; False when the binary has changed since."""
        if job.generation != self._shown_generation:
            return False
        self.validation = validation
        self._placed = None
        return True

    def messages(self) -> list[LineMessage]:
        """Assembler and validator messages with their lines, in line order."""
        found = [
            LineMessage((d.line or 1) - 1, (d.column or 1) - 1, d) for d in self.diagnostics
        ]
        if self.assembles and self.validation is not None and self.good is not None:
            if self._placed is None:
                self._placed = self.assembler.placed(self.state, self.good, self.validation)
            found += self._placed
        return sorted(found, key=lambda m: (m.line, m.column))

    # ------------------------------------------------------------------ saving

    def comments_after_save(self, written: Path) -> tuple[int, list[str]] | None:
        """After a save to `written`: (how many of the text's first lines to replace, the
        comments that now describe the file), or None to leave the text alone."""
        return self.assembler.comments_after_save(self.lines, self.original, written)

    def mark_saved(self) -> None:
        """The text now matches the file (the changed words still count from the file
        as it was opened)."""
        self.saved_generation = self.generation
        self._saved.mark(self.lines, self.generation)
        self.saved_binary = self.binary
        if self.opened is not None:
            self.opened = self.saved_binary

    @property
    def lines_before(self) -> int:
        """The module's whole text's lines before this text's first (a region's: the
        header comments, the instructions before it, the line breaks in their strings),
        so the editor and the diagnostics number lines as the whole text does."""
        return getattr(self.assembler, "lines_before", 0)

    def numbered(self, diagnostic: Diagnostic) -> Diagnostic:
        """`diagnostic` at its line of the module's whole text (`lines_before`), for a
        message that names the line in words."""
        before = self.lines_before
        if not before or diagnostic.line is None:
            return diagnostic
        return replace(diagnostic, line=diagnostic.line + before)

    @property
    def partial(self) -> bool:
        """True when the text is a part of the module (a region): the rest is the
        module's own, and a location outside the part has no line here."""
        return bool(getattr(self.assembler, "partial", False))

    def tell_long_steps(self, tell: Callable[[str], None]) -> None:
        """Have the assembler's jobs call `tell` (on their thread) before a step that
        takes long, when they have such steps (a region's whole assembly)."""
        if hasattr(self.assembler, "tell"):
            self.assembler.tell = tell

    def whole_text(self) -> str:
        """The module's whole text as edited (a region's: the module's text around it)."""
        whole = getattr(self.assembler, "whole_text", None)
        return whole(self.lines) if whole is not None else self.text
