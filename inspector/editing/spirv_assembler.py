"""SPIR-V's assembler for the edit session: incremental re-assembly spliced into the last
good assembly, a whole assembly otherwise, and spirv-val as the validator.

The assembler keeps the base (the newest good assembly, shown or not) and the line
changes made since it, so a job re-assembles only the changed stretch (`incremental`).
Friendly names keep their ids (`hints`, from the original's NameMap). A location is a
word of the module: the first word of the instruction group on a line.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_right
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.text.disassembler import DisassemblyOptions, disassemble
from spvinspect.codec.text.names import module_names
from spvinspect.editing import session as editing_session
from spvinspect.editing.assembly_state import AssemblyState, assemble_full
from spvinspect.editing.changes import changed_words
from spvinspect.editing.incremental import StretchError, merge_changes, splice
from spvinspect.editing.session import AssemblyOutcome, Change, EditSession, LineMessage
from spvinspect.editing.validation import Validation, validate

_FUNCTION = re.compile(r"(?:^|\s)OpFunction(?:\s|$)")
_FUNCTION_END = re.compile(r"(?:^|\s)OpFunctionEnd(?:\s|;|$)")


def open_spirv_session(data: bytes, text: str | None = None, hints: dict[str, int] | None = None) -> EditSession:
    """A session over a module's bytes. Without `text`, the text is the module's
    lossless disassembly with friendly names (what the instruction list shows, plus raw
    words where decoding failed); without `hints`, the module's names."""
    module = open_module(data)
    if text is None:
        text = disassemble(module, DisassemblyOptions(lossless=True))
    if hints is None:
        hints = module_names(module).id_hints()
    return EditSession(data, text.split("\n"), SpirvAssembler(hints))


@dataclass(slots=True)
class SpirvJob:
    """One re-assembly, self-contained: `run()` touches no session state (thread-safe)."""

    generation: int
    base: AssemblyState | None
    lines: list[str]
    hints: dict[str, int]
    original: bytes
    change: Change | None = None
    """The lines changed since the base: (first, end in the base's text, end now)."""

    def run(self, stale: Callable[[], bool] = lambda: False) -> AssemblyOutcome:
        """Assemble: splice into the base when possible, else the whole text; `stale`
        says a newer edit has come, and a whole assembly is then not started. On a huge
        text, an error in the changed stretch is reported from the stretch alone (see
        `incremental.StretchError`) rather than after a whole assembly."""
        start = time.perf_counter()
        state = None
        if self.base is not None:
            state = self.base if self.change is None else splice(self.base, self.lines, self.change)
        if isinstance(state, StretchError):
            if len(self.lines) >= editing_session.HUGE_LINES:
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
        if state is None:
            return AssemblyOutcome(self.generation, None, diagnostics, seconds=time.perf_counter() - start)
        binary = state.binary
        return AssemblyOutcome(self.generation, binary, diagnostics, changed_words(self.original, binary),
                               state, incremental, seconds=time.perf_counter() - start)


@dataclass(slots=True)
class SpirvAssembler:
    """The SPIR-V side of an `EditSession` (see the module's docstring)."""

    hints: dict[str, int]
    """Friendly name → id from the original's NameMap: names keep their ids."""
    validator: str | None = None
    """The spirv-val to run; None for the installed one."""
    _base: AssemblyState | None = None
    _base_generation: int = -1
    _edits: list[tuple[int, Change]] = field(default_factory=list)
    """(generation, (start, end, new end)) of each edit since the base's generation."""
    _since_shown: Change | tuple[()] | None = ()
    """The words changed from the binary on screen to the base (() none; None unknown)."""

    def job(self, generation: int, lines: list[str], original: bytes) -> SpirvJob:
        """Splice the lines changed since the base into it (or assemble the whole text)."""
        change = None
        for edited, edit in self._edits:
            if edited > self._base_generation:
                change = merge_changes(change, edit)
        return SpirvJob(generation, self._base, lines, self.hints, original, change)

    def edited(self, generation: int, change: Change) -> None:
        """Remember the edit until a base includes it."""
        self._edits.append((generation, change))

    def took(self, outcome: AssemblyOutcome, newest: bool) -> None:
        """A new good assembly becomes the base of the next job."""
        state = outcome.state
        if state is not self._base:
            state.commit()
            self._since_shown = self.change_since_shown(state)
            self._base = state
            self._base_generation = outcome.generation
            self._edits = [(g, edit) for g, edit in self._edits if g > outcome.generation]
        if newest:
            self._since_shown = ()

    def change_since_shown(self, state: AssemblyState) -> Change | tuple[()] | None:
        """The words `state` (a job's outcome, made from the base) changed in the binary
        on screen: () none, None unknown (a whole assembly), else (start, old end, new end)."""
        if state is self._base:
            return self._since_shown
        if state.word_change is None or self._since_shown is None:
            return None
        return state.word_change if not self._since_shown else merge_changes(self._since_shown, state.word_change)

    def assemble_now(self, lines: list[str], original: bytes) -> tuple[bytes | None, list[Diagnostic]]:
        """A whole assembly of `lines`."""
        full = assemble_full(lines, self.hints)
        return (full.state.binary if full.state is not None else None), full.diagnostics

    # -- lines and words -------------------------------------------------------------

    def line_of(self, state: AssemblyState | None, lines: list[str], word: int) -> int | None:
        """The 0-based line of the instruction group holding module word `word`."""
        if state is None or not state.group_words:
            return None
        at = bisect_right(state.group_words, word) - 1
        return state.group_lines[at] if at >= 0 else None

    def location_of_line(self, state: AssemblyState | None, lines: list[str], line: int) -> int | None:
        """The first word of the instruction group on or before `line` (0-based)."""
        if state is None or state.group_lines is None:
            return None
        at = bisect_right(state.group_lines, line) - 1
        return state.group_words[at] if at >= 0 else None

    def span(self, lines: list[str], line: int, limit: int) -> tuple[int, int] | None:
        """The lines from the OpFunction before `line` to the OpFunctionEnd after it,
        when there are at most `limit` of them."""
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

    # -- validation ------------------------------------------------------------------

    @property
    def validate(self) -> Callable[[bytes], Validation]:
        """spirv-val (`validator`, or the installed one)."""
        tool = self.validator
        return lambda binary: validate(binary, tool=tool)

    def placed(self, state: AssemblyState | None, binary: bytes, validation: Validation) -> list[LineMessage]:
        """spirv-val's messages at the lines of the instructions they name (the binary
        opened for them, not kept: the session keeps the messages placed)."""
        module = open_module(binary)
        found = []
        for message in validation.messages:
            word = None
            if message.instruction is not None:
                module.ensure_indexed(message.instruction)
                if message.instruction < module.instruction_count:
                    word = module.offset(message.instruction)
            line = self.line_of(state, [], word) if word is not None else None
            found.append(LineMessage(line or 0, 0, message.diagnostic(word)))
        return found

    def comments_after_save(self, lines: list[str], original: bytes, written: Path) -> None:
        """No comment describes the file (the header comments stay as the user left them)."""
        return None
