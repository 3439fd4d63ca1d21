"""Editing a big SPIR-V module a region at a time: the session's text is one region.

The region (`codec.text.region`: the function around the selection, or a window of
lines) is disassembled from the module's words with the module's friendly names; the
rest of the text is never made. Its lines map to words through the module's index. The
first job reads the assembler's tables off the binary (`region_state`), then each edit
is assembled against them and spliced into the module's words (`incremental.splice`),
with the bytes the whole text's assembly would give (an edit of a type, a selector's
type or an import re-encodes the module's instructions that read it: `dependents`). An
edit the splice cannot be sure of (a numeric id with a name the user typed, a size
change outside the region) re-assembles the whole region over the unedited module's
tables (`region_whole`), on the job thread; where even that is not sure (many
dependents after the region changing size that are not integer constants or switches),
the whole text's assembly: the module's text outside the region, as the
whole-text editor would hold it, with the region's lines in place, the user told first
(`RegionJob.tell`), and stopped as soon as a newer edit comes (`stoppable`: the next
keystroke never waits behind it). Either way the instructions it changed are found from the words
(`whole_change`, so the panes' module keeps its index), and the region then continues
from that assembly's tables.
"""

from __future__ import annotations

import time
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import accumulate

from spvinspect.codec.asm.module_tables import ModuleTables
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.text.disassembler import Disassembler
from spvinspect.codec.text.listing import DisassemblyOptions
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.region import REGION_FROM_BYTES, Region, region_around, region_lines, region_texts
from spvinspect.editing.assembly_state import AssemblyState, assemble_full
from spvinspect.editing.changes import changed_words
from spvinspect.editing.dependents import ModuleOutside
from spvinspect.editing.whole_change import whole_change
from spvinspect.editing.incremental import StretchError, open_at_end, splice
from spvinspect.editing.region_state import region_state
from spvinspect.editing.region_whole import region_reassembled
from spvinspect.editing.session import AssemblyOutcome, Change, EditSession, LineMessage
from spvinspect.editing.spirv_assembler import SpirvAssembler
from spvinspect.editing.stoppable import Stopped, stoppable

WHOLE_ASSEMBLY = ("This edit changes what the rest of the module depends on (a numeric id beside a name you typed, "
                  "a size outside the region): assembling the whole module's text in the background; "
                  "the panes follow when it is done")


class RegionSource:
    """The module a region session was opened on, its names, the region, and the
    region's text as opened. Thread-safe: the job thread reads it, nothing changes it."""

    def __init__(self, module: LazyModule, names: NameMap, region: Region, texts: list[str] | None = None) -> None:
        self.module = module
        self.names = names
        self.region = region
        self.texts = texts if texts is not None else region_lines(module, region, names)
        """Each instruction's text (a string may spread one over several lines)."""
        self.lines = "\n".join(self.texts).split("\n")
        self.group_lines = array("I", accumulate((t.count("\n") + 1 for t in self.texts[:-1]), initial=0))
        self.group_words = array("I", [module.offset(k) for k in range(region.first, region.end)])
        self._outside: tuple[str, str] | None = None
        """The text around the region, once made (two strings: compact, and split at will)."""
        self.around = ModuleOutside(module, names, region)
        """The module's instructions around the region (those an edit re-encodes)."""
        self.lines_before = self.around.region_line()
        """The module's whole text's lines before the region's (header comments and line
        breaks in strings included): the editor numbers the region's lines after them."""

    def state(self) -> AssemblyState | None:
        """The region's assembly state read off the module (the job thread: the whole
        module's index and names); None when the module's tables cannot describe it."""
        return region_state(self.module, self.region, self.texts, self.names.table(), ModuleTables(self.module))

    def outside(self, stale: Callable[[], bool] = lambda: False) -> tuple[list[str], list[str]]:
        """The module's text before the region (header comments included) and after it:
        made once (the module does not change), kept as text. `Stopped` once `stale()`
        (asked between runs of instructions) while it is made."""
        if self._outside is None:
            self._outside = _text_around(self.module, self.names, self.region, stale)
        before, after = self._outside
        return (before.split("\n") if before else []), (after.split("\n") if after else [])

    def whole(self, lines: list[str], tell: Callable[[str], None] | None = None,
              stale: Callable[[], bool] = lambda: False) -> tuple[AssemblyState | None, list[Diagnostic]]:
        """The whole text's assembly with this region's lines in it, as the region's
        state: from the module's words and the region re-assembled over its tables
        (`region_whole`) where that is sure, else `text_assembly`'s (`tell` is called
        first, with what to tell the user); or the diagnostics (placed in the region's
        lines). `Stopped` once `stale()` says a newer text has come."""
        if stale():
            raise Stopped
        if not open_at_end("\n".join(lines)):  # else the region's re-assembly is left open too
            found = region_reassembled(self, lines)
            if isinstance(found, StretchError):
                return None, [_placed(found.diagnostic, 0, 0) if found.outside else found.diagnostic]
            if found is not None:
                return found, []
        if stale():
            raise Stopped
        if tell is not None:
            tell(WHOLE_ASSEMBLY)
        return self.text_assembly(lines, stale)

    def text_assembly(self, lines: list[str], stale: Callable[[], bool] = lambda: False
                      ) -> tuple[AssemblyState | None, list[Diagnostic]]:
        """The whole text assembled, this region's lines in it (the friendly names
        pinned, as the whole-text editor pins them; the region's new names numbered as
        its run numbers them): the region's state cut from the whole assembly, or the
        diagnostics (placed in the region's lines). `Stopped` once `stale()`, the
        assembly stopped where it is (`stoppable`)."""
        before, after = self.outside(stale)
        text = before + lines + after
        hints = {name: id_ for id_, name in self.names.table().items()}
        full = stoppable(lambda: assemble_full(text, hints), stale)
        top = len(before)
        if full.state is None:
            return None, [_placed(d, top, len(lines)) for d in full.diagnostics]
        return cut(full.state, top, top + len(lines), lines), []


def _text_around(module: LazyModule, names: NameMap, region: Region,
                 stale: Callable[[], bool] = lambda: False) -> tuple[str, str]:
    """The module's text before the region (header comments included) and after it,
    made a run of instructions at a time: never a list of every line (on a large module
    that list weighs several times the text). `Stopped` once `stale()`, asked between runs."""
    disassembler = Disassembler(module, DisassemblyOptions(), names=names)
    listing = disassembler.listing
    before: list[str] = ["\n".join(listing.header_lines())] if listing.header_lines() else []
    after: list[str] = []
    first, end = region
    index = 0
    for run in disassembler.line_runs():
        if stale():
            raise Stopped
        stop = index + len(run)
        if index < first:
            before.append("\n".join(run[: first - index]))
        if stop > end:
            after.append("\n".join(run[max(end - index, 0) :]))
        index = stop
    tail = listing.tail_lines()
    if tail:
        after.append("\n".join(tail))
    return "\n".join(before), "\n".join(after)


def cut(full: AssemblyState, start: int, end: int, lines: list[str]) -> AssemblyState:
    """The state of lines [start, end) of a whole assembly (`lines`) as a region's: the
    whole run's tables and counts, the groups on those lines."""
    g0 = bisect_left(full.group_lines, start)
    g1 = bisect_left(full.group_lines, end)
    words_end = full.group_words[g1] if g1 < len(full.group_words) else len(full.words)
    unpinned = None if full.unpinned is None else {
        name: line - start for name, line in full.unpinned.items() if start <= line < end
    }
    return AssemblyState(
        lines, full.words, full.big_endian, full.trailing_bytes, full.declared, full.counts,
        array("I", [line - start for line in full.group_lines[g0:g1]]), full.group_words[g0:g1],
        unpinned, words_end=words_end,
    )


def _placed(diagnostic: Diagnostic, top: int, count: int) -> Diagnostic:
    """A whole-text diagnostic at its line of the region (lines from `top`, `count` of
    them); one outside the region says so, at the region's first line."""
    line = diagnostic.line
    if line is None:
        return diagnostic
    if top < line <= top + count:
        return Diagnostic(diagnostic.message, diagnostic.severity, line=line - top, column=diagnostic.column)
    return Diagnostic(f"{diagnostic.message} (at line {line} of the whole module's text, outside this region)",
                      diagnostic.severity, line=1, column=1)


@dataclass(slots=True)
class RegionJob:
    """One re-assembly of the region, self-contained (thread-safe)."""

    generation: int
    base: AssemblyState | None
    lines: list[str]
    source: RegionSource
    original: bytes
    change: Change | None = None
    tell: Callable[[str], None] | None = None
    """Called (on the job thread) before a whole assembly, with what to tell the user."""

    def run(self, stale: Callable[[], bool] = lambda: False) -> AssemblyOutcome:
        """The region's state first (the first job), then the change spliced into it;
        the whole text assembled when the splice cannot be sure (unless `stale`)."""
        began = time.perf_counter()
        base = self.base if self.base is not None else self.source.state()
        state: AssemblyState | StretchError | None = None
        if base is not None:
            state = base if self.change is None else splice(base, self.lines, self.change, self.source.around)
        if isinstance(state, StretchError):
            diagnostic = _placed(state.diagnostic, 0, 0) if state.outside else state.diagnostic
            return AssemblyOutcome(self.generation, None, [diagnostic], incremental=True,
                                   seconds=time.perf_counter() - began)
        incremental = state is not None
        diagnostics: list[Diagnostic] = []
        if state is None:
            try:
                state, diagnostics = self.source.whole(self.lines, self.tell, stale)
            except Stopped:
                return AssemblyOutcome(self.generation, None, [], skipped=True)
            if state is not None and base is not None:
                state.word_change = whole_change(base, state, self.source.around)
        if state is None:
            return AssemblyOutcome(self.generation, None, diagnostics, seconds=time.perf_counter() - began)
        binary = state.binary
        return AssemblyOutcome(self.generation, binary, diagnostics, changed_words(self.original, binary),
                               state, incremental, seconds=time.perf_counter() - began)


@dataclass(slots=True)
class RegionAssembler(SpirvAssembler):
    """The SPIR-V assembler of a region session (see the module's docstring)."""

    source: RegionSource | None = None
    tell: Callable[[str], None] | None = None
    """What the jobs call before a long step (a whole assembly), set by the screen."""

    partial = True
    """The session's text is a part of the module (`EditSession.partial`)."""

    def job(self, generation: int, lines: list[str], original: bytes) -> RegionJob:
        """Splice the lines changed since the base into it (the first job makes the base)."""
        spliced = SpirvAssembler.job(self, generation, lines, original)
        return RegionJob(generation, self._base, lines, self.source, original, spliced.change, self.tell)

    def assemble_now(self, lines: list[str], original: bytes) -> tuple[bytes | None, list[Diagnostic]]:
        """The region's lines assembled into the module now (saving before a job has
        caught up)."""
        job = self.job(-1, lines, original)
        job.tell = None
        outcome = job.run()
        return outcome.binary, outcome.diagnostics

    @property
    def lines_before(self) -> int:
        """The whole text's lines before the region's (`EditSession.lines_before`)."""
        return self.source.lines_before

    @property
    def region(self) -> Region:
        """The instructions the text covers, in the module it was opened on."""
        return self.source.region

    def line_of(self, state: AssemblyState | None, lines: list[str], word: int) -> int | None:
        """The line of the instruction holding module word `word`; None outside the region."""
        group_lines, group_words, end = self._groups(state)
        if not group_words or not group_words[0] <= word < end:
            return None
        return group_lines[bisect_right(group_words, word) - 1]

    def location_of_line(self, state: AssemblyState | None, lines: list[str], line: int) -> int | None:
        """The first word of the instruction on or before `line`."""
        group_lines, group_words, _ = self._groups(state)
        at = bisect_right(group_lines, line) - 1
        return group_words[at] if at >= 0 else None

    def _groups(self, state: AssemblyState | None) -> tuple[array, array, int]:
        if state is not None and state.group_lines is not None and state.group_words is not None:
            end = state.words_end if state.words_end is not None else len(state.words)
            return state.group_lines, state.group_words, end
        source = self.source
        module = source.module
        region = source.region
        end = module.offset(region.end) if region.end < module.instruction_count else module.tail_offset
        return source.group_lines, source.group_words, end

    def span(self, lines: list[str], line: int, limit: int) -> tuple[int, int] | None:
        """The whole region (never more than the editor shows at once)."""
        return 0, len(lines)

    def placed(self, state: AssemblyState | None, binary: bytes, validation) -> list[LineMessage]:
        """The validator's messages at their lines; one about an instruction outside the
        region says where it is, at the region's first line."""
        found = []
        for message in SpirvAssembler.placed(self, state, binary, validation):
            word = message.diagnostic.word_offset
            if word is not None and self.line_of(state, [], word) is None:
                diagnostic = message.diagnostic
                message = LineMessage(0, 0, replace(diagnostic, message=f"{diagnostic.message} (outside this "
                                                    f"region: word {word}; e there edits its region)"))
            found.append(message)
        return found

    def whole_text(self, lines: list[str]) -> str:
        """The module's whole text with the region's `lines` in it (saving as text)."""
        before, after = self.source.outside()
        return "\n".join(before + lines + after)


def region_session(module: LazyModule, names: NameMap, at: int, data: bytes, original: bytes | None = None,
                   saved: bytes | None = None, validator: str | None = None) -> EditSession | None:
    """A session over the region of `module` (whose bytes are `data`) around instruction
    `at`, or None when the region's text would not be exact (an instruction there does
    not decode). `original` is the file's bytes as opened (for the changed words) and
    `saved` as last saved, when `data` is an edit of them."""
    module.ensure_indexed()
    if module.header is None or not module.instruction_count:
        return None
    region = region_around(module, at)
    texts = region_texts(module, region, names)
    if texts is None:
        return None
    source = RegionSource(module, names, region, texts)
    assembler = RegionAssembler({}, validator, source=source)
    if original is None or original == data:
        return EditSession(data, list(source.lines), assembler)
    return EditSession(original, list(source.lines), assembler, opened=data, saved_binary=saved)
