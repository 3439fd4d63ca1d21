"""The editing session: the text being edited, the last good binary, and re-assembly jobs.

No Textual here. The screen forwards each edit (`edit`, `replace_lines`), asks for a job
(`request`), runs `job.run()` in a thread worker and hands the outcome back (`accept`),
then asks again: one job runs at a time, and edits made meanwhile are taken up by the
next one, so a burst of keys costs one assembly, not one each (the debounce), and the
text assembled is always the newest. Every outcome carries the generation of the text it
was made from; one made from text that has since changed is not shown (its good
assembly still becomes the base the next incremental job splices from).

The text is kept whole (a list of lines). On a module too big for one `TextArea`, the
editor shows a window of it (`window`) and its edits are forwarded with the window's
first line added, so they land in the whole text.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field

from spvinspect.codec.binary.lazy import LazyModule, open_module
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.text.disassembler import DisassemblyOptions, disassemble
from spvinspect.codec.text.names import module_names
from spvinspect.editing.assembly_state import AssemblyState, assemble_full
from spvinspect.editing.saved_text import SavedText
from spvinspect.editing.changes import ChangedWords, changed_words
from spvinspect.editing.incremental import StretchError, merge_changes, splice
from spvinspect.editing.validation import Validation, validate

_FUNCTION = re.compile(r"(?:^|\s)OpFunction(?:\s|$)")
_FUNCTION_END = re.compile(r"(?:^|\s)OpFunctionEnd(?:\s|;|$)")

WINDOW_LINES = 2_000
"""Lines a huge module's editor shows at once: the function around the cursor when it
is no longer, else this many lines around the cursor."""

HUGE_LINES = 20_000
"""From this many lines on, the editor works on a window (`TextArea` re-measures every
line on each edit, which grows with the text)."""


@dataclass(frozen=True, slots=True)
class AssemblyOutcome:
    """What one job made of the text of one generation."""

    generation: int
    state: AssemblyState | None
    """The good assembly, or None (errors, or skipped because the text changed)."""
    diagnostics: list[Diagnostic]
    changed: ChangedWords | None = None
    """The words that differ from the original file (with a good assembly)."""
    incremental: bool = False
    skipped: bool = False
    """True when the job stopped early because a newer edit had come."""
    seconds: float = 0.0


@dataclass(slots=True)
class AssemblyJob:
    """One re-assembly, self-contained: `run()` touches no session state (thread-safe)."""

    generation: int
    base: AssemblyState | None
    lines: list[str]
    hints: dict[str, int]
    original: bytes
    change: tuple[int, int, int] | None = None
    """The lines changed since the base: (first, end in the base's text, end now)."""

    def run(self, stale: Callable[[], bool] = lambda: False) -> AssemblyOutcome:
        """Assemble: splice into the base when possible, else the whole text; `stale`
        says a newer edit has come, and a whole assembly is then not started. On a huge
        text, an error in the changed stretch is reported from the stretch alone (see
        `incremental.StretchError`) rather than after a whole assembly of seconds."""
        start = time.perf_counter()
        state = None
        if self.base is not None:
            state = self.base if self.change is None else splice(self.base, self.lines, self.change)
        if isinstance(state, StretchError):
            if len(self.lines) >= HUGE_LINES:
                return AssemblyOutcome(self.generation, None, [state.diagnostic], incremental=True,
                                       seconds=time.perf_counter() - start)
            state = None
        incremental = state is not None
        diagnostics: list[Diagnostic] = []
        if state is None:
            if stale():
                return AssemblyOutcome(self.generation, None, [], skipped=True)
            full = assemble_full(self.lines, self.hints)
            state, diagnostics = full.state, full.diagnostics
        changed = changed_words(self.original, state.binary) if state is not None else None
        return AssemblyOutcome(
            self.generation, state, diagnostics, changed, incremental, seconds=time.perf_counter() - start
        )


@dataclass(slots=True)
class ValidationJob:
    """One validator run on the good binary of one generation."""

    generation: int
    binary: bytes
    tool: str | None = None

    def run(self) -> Validation:
        """Run spirv-val (in a worker: it takes a while on a big module)."""
        return validate(self.binary, tool=self.tool)


@dataclass(frozen=True, slots=True)
class LineMessage:
    """A message the editor shows at a line: an assembler or validator diagnostic."""

    line: int
    """0-based line in the whole text."""
    column: int
    """0-based column (0 for validator messages, which name instructions)."""
    diagnostic: Diagnostic


@dataclass(slots=True)
class EditSession:
    """One module's editing session (see the module's docstring)."""

    original: bytes
    """The file's bytes as opened."""
    lines: list[str]
    """The text being edited, whole."""
    hints: dict[str, int]
    """Friendly name → id from the original's NameMap: names keep their ids."""
    generation: int = 0
    """Bumped by every change to the text."""
    state: AssemblyState | None = None
    """The good assembly on screen (None until the first job is accepted)."""
    diagnostics: list[Diagnostic] = field(default_factory=list)
    """The assembler's diagnostics for the newest text assembled (line:col)."""
    changed: ChangedWords = field(default_factory=ChangedWords)
    validation: Validation | None = None
    """spirv-val's verdict on the binary on screen (None until it has run)."""
    validator: str | None = None
    """The spirv-val to run; None for the installed one."""
    saved_generation: int = 0
    """The generation whose text matches the file (the one opened, or the last saved)."""
    _base: AssemblyState | None = None
    _base_generation: int = -1
    _edits: list[tuple[int, tuple[int, int, int]]] = field(default_factory=list)
    """(generation, (start, end, new end)) of each edit since the base's generation."""
    _running: bool = False
    _saved: SavedText | None = None
    """The text as opened or last saved."""
    _shown_generation: int = -1
    _validated_generation: int = -1
    _module: LazyModule | None = None
    _since_shown: tuple[int, int, int] | tuple[()] | None = ()
    """The words changed from the binary on screen to the base (() none; None unknown)."""

    def __post_init__(self) -> None:
        self._saved = SavedText(self.lines, self.saved_generation)

    @classmethod
    def open(cls, data: bytes, text: str | None = None, hints: dict[str, int] | None = None) -> EditSession:
        """A session over a module's bytes. Without `text`, the text is the module's
        lossless disassembly with friendly names (what the instruction list shows,
        plus raw words where decoding failed); without `hints`, the module's names."""
        module = open_module(data)
        if text is None:
            text = disassemble(module, DisassemblyOptions(lossless=True))
        if hints is None:
            hints = module_names(module).id_hints()
        return cls(data, text.split("\n"), hints)

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
        self.generation += 1
        self._edits.append((self.generation, (start, end, start + len(new_lines))))
        return self.generation

    def set_text(self, text: str) -> int:
        """Replace the whole text; returns the new generation."""
        old_count = len(self.lines)
        self.lines = text.split("\n")
        self.generation += 1
        self._edits.append((self.generation, (0, old_count, len(self.lines))))
        return self.generation

    @property
    def modified(self) -> bool:
        """True when the text differs from what was opened or last saved (by content:
        undoing back to it counts as unchanged)."""
        return self._saved.differs(self.lines, self.generation)

    @property
    def huge(self) -> bool:
        """True when the editor should show a window rather than the whole text."""
        return len(self.lines) >= HUGE_LINES

    def window(self, line: int, limit: int = WINDOW_LINES) -> tuple[int, int]:
        """Lines [start, end) for an editor over a huge module, holding `line`: its
        function when that has at most `limit` lines, else `limit` lines around it."""
        total = len(self.lines)
        if total <= limit:
            return 0, total
        function = self._function_lines(line, limit)
        if function is not None:
            return function
        start = max(0, min(line - limit // 2, total - limit))
        return start, min(total, start + limit)

    def _function_lines(self, line: int, limit: int) -> tuple[int, int] | None:
        """The lines from the OpFunction before `line` to the OpFunctionEnd after it,
        when there are at most `limit` of them."""
        lines = self.lines
        begin = line
        while not _FUNCTION.search(lines[begin]):
            begin -= 1
            if begin < 0 or line - begin >= limit or (_FUNCTION_END.search(lines[begin])):
                return None
        end = line
        while not _FUNCTION_END.search(lines[end]):
            end += 1
            if end >= len(lines) or end - begin >= limit or _FUNCTION.search(lines[end]):
                return None
        return begin, end + 1

    # ------------------------------------------------------------- re-assembly

    def request(self) -> AssemblyJob | None:
        """The job to run now: None while one is running or when the newest text has
        been assembled. Call after each edit and after each `accept`."""
        if self._running or self._shown_generation == self.generation:
            return None
        self._running = True
        change = None
        for generation, edit in self._edits:
            if generation > self._base_generation:
                change = merge_changes(change, edit)
        return AssemblyJob(self.generation, self._base, self.lines, self.hints, self.original, change)

    def accept(self, outcome: AssemblyOutcome) -> bool:
        """Take a job's outcome; True when it is for the newest text (the panes should
        follow it), False when it is stale (its good assembly is kept only as the base
        of the next incremental job)."""
        self._running = False
        if outcome.state is not None and outcome.state is not self._base:
            state = outcome.state
            state.commit()
            self._since_shown = self.change_since_shown(state)
            self._base = state
            self._base_generation = outcome.generation
            self._edits = [(g, edit) for g, edit in self._edits if g > outcome.generation]
        if outcome.skipped or outcome.generation != self.generation:
            return False
        if outcome.state is not None:
            self._since_shown = ()
        self._shown_generation = outcome.generation
        self.diagnostics = outcome.diagnostics
        if outcome.state is not None:
            if outcome.state is not self.state:
                self._module = None
                self.validation = None
            self.state = outcome.state
            self.changed = outcome.changed or ChangedWords()
        return True

    def change_since_shown(self, state: AssemblyState) -> tuple[int, int, int] | tuple[()] | None:
        """The words `state` (a job's outcome, made from the base) changed in the binary
        on screen: () none, None unknown (a whole assembly), else (start, old end, new end)."""
        if state is self._base:
            return self._since_shown
        if state.word_change is None or self._since_shown is None:
            return None
        return state.word_change if not self._since_shown else merge_changes(self._since_shown, state.word_change)

    def cancelled(self, generation: int) -> Callable[[], bool]:
        """For `AssemblyJob.run`: True once the text has moved past `generation`."""
        return lambda: self.generation != generation

    @property
    def busy(self) -> bool:
        """True while a job runs or the newest text is not assembled yet."""
        return self._running or self._shown_generation != self.generation

    @property
    def binary(self) -> bytes:
        """The last good binary: the original until an edit assembles."""
        return self.state.binary if self.state is not None else self.original

    @property
    def module(self) -> LazyModule:
        """The last good binary, opened (lazily, once per binary)."""
        if self._module is None:
            self._module = open_module(self.binary)
        return self._module

    @property
    def assembles(self) -> bool:
        """True when the newest text assembled (no assembler diagnostics)."""
        return not self.diagnostics

    # -------------------------------------------------------------- validation

    def validation_job(self) -> ValidationJob | None:
        """spirv-val for the binary on screen, unless it has been validated."""
        if self.state is None or self._validated_generation == self._shown_generation:
            return None
        self._validated_generation = self._shown_generation
        return ValidationJob(self._shown_generation, self.state.binary, self.validator)

    def accept_validation(self, job: ValidationJob, validation: Validation) -> bool:
        """Take the validator's verdict; False when the binary has changed since."""
        if job.generation != self._shown_generation:
            return False
        self.validation = validation
        return True

    # ------------------------------------------------------- messages by line

    def line_of_word(self, word: int) -> int | None:
        """The 0-based line of the instruction group holding module word `word`."""
        state = self.state
        if state is None or state.group_words is None or not state.group_words:
            return None
        at = bisect_right(state.group_words, word) - 1
        return state.group_lines[at] if at >= 0 else None

    def word_of_line(self, line: int) -> int | None:
        """The first word of the instruction group on or before `line` (0-based), for
        the panes to follow the editor's cursor; None before the first instruction."""
        state = self.state
        if state is None or state.group_lines is None:
            return None
        at = bisect_right(state.group_lines, line) - 1
        return state.group_words[at] if at >= 0 else None

    def messages(self) -> list[LineMessage]:
        """Assembler and validator messages with their lines, in line order."""
        found = [
            LineMessage((d.line or 1) - 1, (d.column or 1) - 1, d) for d in self.diagnostics
        ]
        if self.assembles and self.validation is not None:
            module = self.module
            for message in self.validation.messages:
                word = None
                if message.instruction is not None:
                    module.ensure_indexed(message.instruction)
                    if message.instruction < module.instruction_count:
                        word = module.offset(message.instruction)
                line = self.line_of_word(word) if word is not None else None
                found.append(LineMessage(line or 0, 0, message.diagnostic(word)))
        return sorted(found, key=lambda m: (m.line, m.column))

    # ------------------------------------------------------------------ saving

    def mark_saved(self) -> None:
        """The text now matches the file (the changed words still count from the file
        as it was opened)."""
        self.saved_generation = self.generation
        self._saved.mark(self.lines, self.generation)
