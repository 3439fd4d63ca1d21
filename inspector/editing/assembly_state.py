"""A good assembly of the editor's text, kept so that the next edit can be assembled in part.

`assemble_full(lines, hints)` assembles the whole text exactly as
`codec.asm.assembler.assemble(text, id_hints=hints, preserve_numeric_ids=True)` does
(what `spvinspect as --ids-from` does: the same header comments, id pinning and quick
paths) and keeps what an incremental re-assembly continues from: the id table, the
types and imports declared, how often each id word occurs, and where each instruction
group starts in the text and in the words. A *group* is a run of instructions whose
first one starts a line: in `dis` text, one instruction per line, so one per group.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from itertools import accumulate, islice, repeat

from spvinspect.codec.asm.assembler import placed_diagnostic, assemble
from spvinspect.codec.asm.errors import AssemblyError
from spvinspect.codec.asm.header import ASSEMBLER_GENERATOR, DEFAULT_VERSION, MAGIC, HeaderError, read_header_comment
from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.codec.asm.lexer import SourceMap, tokenize, word_offsets
from spvinspect.codec.asm.plans import load_plans
from spvinspect.codec.asm.quick import QuickEncoder
from spvinspect.codec.binary.words import file_bytes
from spvinspect.codec.diagnostics import Diagnostic

_EXACT_LINE = re.compile('["\\\\;,()\x0b\x0c\x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]')
"""Characters after which `str.split` may split a line differently from spirv-as."""


@dataclass(slots=True)
class Declared:
    """What a whole assembly run declared: the tables later operands are read against."""

    numbers: dict[str, int]
    """Id word → number, for every id word of the text (and every pinned name)."""
    pinned: frozenset[str]
    """Id words whose number does not depend on where they first appear: numeric ids
    and the disassembler's names."""
    types: dict
    value_types: dict[int, int]
    imports: dict
    version: int
    numeric: frozenset[str] = frozenset()
    """The numeric id words (`%12`): their numbers are kept from the others."""
    preserve: frozenset[int] = frozenset()
    """The numbers pinned (numeric ids and named ones), which new names skip."""
    pin_bound: int = 0
    """The id bound the pinned numbers alone give (0: 2^32, past 32 bits)."""
    header_bound: int | None = None
    """The bound the header comment asks for (the header's bound word is the larger of
    it and the ids'); None when the header words are given verbatim."""
    selectors: Counter = field(default_factory=Counter)
    """Id word → how many OpSwitch instructions it is the selector of: the only values
    whose value types a later operand reads."""
    stale: set[int] = field(default_factory=set)
    """Numbers whose `value_types` entry an incremental edit left as it was (not a
    selector then); a stretch making one a selector takes a whole assembly."""


@dataclass(slots=True)
class DeclaredChanges:
    """What an incremental state changes in the shared tables, applied once it is accepted."""

    numbers: dict[str, int]
    """Names numbered anew (a name not seen before, or renumbered within the stretch)."""
    dropped: list[str]
    """Names no longer in the text."""
    types: dict
    value_types: dict[int, int]
    stale: set[int]
    selectors: dict[str, int]
    """Changes to the selectors' counts."""
    imports: dict = field(default_factory=dict)
    """Imports whose set an edit changed (result id → the new set), new ones included."""
    unimported: frozenset[int] = frozenset()
    """Result ids an edit no longer imports."""
    untyped: frozenset[int] = frozenset()
    """Type ids an edit no longer declares as types."""
    unvalued: frozenset[int] = frozenset()
    """Switch selectors an edit no longer defines (their switches' cases have no type now)."""
    numeric: object | None = None
    """The numeric ids a region's edit brought in or dropped (`numeric_ids.NumericChange`)."""


@dataclass(slots=True)
class AssemblyState:
    """One good assembly: the text, its words, and what continuing from it needs."""

    lines: list[str]
    """The text, split at '\\n' (never mutated: an edit makes a new list)."""
    words: array
    """The module's words in host order, header included."""
    big_endian: bool
    trailing_bytes: bytes
    declared: Declared
    counts: Counter
    """Id word → occurrences in the text. Shared along a chain of incremental states
    and updated when the session accepts one (`count_changes`)."""
    group_lines: array | None
    """First line (0-based) of each instruction group; None when the text has not
    been assembled by `assemble_full`'s own run (a NUL, a bad header comment), which
    turns incremental re-assembly off until the next full one."""
    group_words: array | None
    """First word of each group (word 5 is the first instruction)."""
    unpinned: dict[str, int] | None = field(default_factory=dict)
    """Names that are not pinned, in the order they are numbered, each with the line
    (0-based) of its first appearance; None when not known (incremental re-assembly
    then leaves them alone)."""
    count_changes: dict[str, int] = field(default_factory=dict)
    """Changes to `counts` this state brings, applied once when it is accepted."""
    declared_changes: DeclaredChanges | None = None
    """Changes to the shared tables this state brings, applied once when it is accepted."""
    full: bool = True
    """True when the whole text was assembled (False: spliced from an earlier state)."""
    word_change: tuple[int, int, int] | None = None
    """For a spliced state, the instruction words it changed in its base's: words
    [start, old end) of the base are words [start, new end) here."""
    words_end: int | None = None
    """Where the text's last instruction group ends in `words` (None: at their end). A
    region's text covers part of the module's words; the rest are the module's own."""

    def commit(self) -> None:
        """Apply the changes this state brings to the tables it shares with its base
        (once: the session calls this when it takes the state as its new base)."""
        for tok, change in self.count_changes.items():
            self.counts[tok] += change
        self.count_changes = {}
        changes, self.declared_changes = self.declared_changes, None
        if changes is None:
            return
        declared = self.declared
        declared.numbers.update(changes.numbers)
        for name in changes.dropped:
            declared.numbers.pop(name, None)
        declared.types.update(changes.types)
        for number in changes.untyped:
            declared.types.pop(number, None)
        declared.value_types.update(changes.value_types)
        for number in changes.unvalued:
            declared.value_types.pop(number, None)
        declared.stale |= changes.stale
        declared.selectors.update(changes.selectors)
        declared.imports.update(changes.imports)
        for number in changes.unimported:
            declared.imports.pop(number, None)
        if changes.numeric is not None:
            changes.numeric.commit(declared)

    @property
    def binary(self) -> bytes:
        """The module's bytes as the file holds them."""
        return file_bytes(self.words, self.big_endian, self.trailing_bytes)

    @property
    def text(self) -> str:
        """The text this state was assembled from."""
        return "\n".join(self.lines)


@dataclass(frozen=True, slots=True)
class FullAssembly:
    """The outcome of a whole assembly: a state, or the diagnostics that stopped it."""

    state: AssemblyState | None
    diagnostics: list[Diagnostic]


def assemble_full(lines: list[str], hints: dict[str, int]) -> FullAssembly:
    """Assemble the whole text (`lines` joined with '\\n'); never raises."""
    text = "\n".join(lines)
    if "\0" in text or not text:
        return _plain(text, hints)
    plans = load_plans()
    try:
        header = read_header_comment(text, plans.grammar)
    except HeaderError:
        return _plain(text, hints)
    version = header.version if header is not None else DEFAULT_VERSION
    pins = {"%" + name.lstrip("%"): number & 0xFFFFFFFF for name, number in hints.items()}
    toks = tokenize(text)
    numbered = numeric_ids(toks)
    source = SourceMap(text)

    def punctuation(index: int) -> str:
        offset = source.word_start(index)
        return text[offset : offset + 1]

    preserve = frozenset(numbered.values()) | frozenset(pins.values())
    encoder = QuickEncoder(toks, plans, version, preserve, punctuation)
    encoder.ids.pin(numbered)
    encoder.ids.pin(pins)
    pin_bound, pinned_count = encoder.ids.bound, len(encoder.ids.numbers)
    try:
        encoder.run()
    except AssemblyError as error:
        return FullAssembly(None, [error_diagnostic(error, source)])
    bound = encoder.ids.bound
    if header is not None:
        words = array("I", header.words) if header.words is not None else array(
            "I", (MAGIC, version, header.generator if header.generator is not None else ASSEMBLER_GENERATOR,
                  max(bound, header.bound), header.schema)
        )
    else:
        words = array("I", (MAGIC, version, ASSEMBLER_GENERATOR, bound, 0))
    words += encoder.out
    n = encoder.n
    del toks[n:]  # the two empty words the encoder added
    groups = instruction_groups(lines, toks, encoder.inst_first, encoder.inst_words, 5, text=text)
    declared = Declared(
        encoder.ids.numbers, frozenset(numbered) | frozenset(pins),
        encoder.declared.types, encoder.declared.value_types, encoder.declared.imports, version,
        frozenset(numbered), preserve, pin_bound,
        None if header is not None and header.words is not None else header.bound if header is not None else 0,
        switch_selectors(toks),
    )
    counts = Counter(tok for tok in toks if tok[:1] == "%")
    unpinned = _first_lines(lines, toks, list(islice(encoder.ids.numbers, pinned_count, None)), text)
    return FullAssembly(
        AssemblyState(
            list(lines), words,
            header is not None and header.big_endian,
            header.trailing_bytes if header is not None else b"",
            declared, counts,
            *groups,
            unpinned,
        ),
        [],
    )


def error_diagnostic(error: AssemblyError, source: SourceMap) -> Diagnostic:
    """The error at its line:col, placed as `codec.asm.assembler.assemble` places it."""
    return placed_diagnostic(error.message, error.where, source)


def _plain(text: str, hints: dict[str, int]) -> FullAssembly:
    """The codec's own assembly: its exact diagnostics, and a state without the
    tables incremental work needs (a text with a NUL or a bad header comment)."""
    result = assemble(text, id_hints=hints, preserve_numeric_ids=True)
    if not result.ok:
        return FullAssembly(None, result.diagnostics)
    words = result.words
    assert words is not None
    declared = Declared({}, frozenset(), {}, {}, {}, words[1])
    state = AssemblyState(text.split("\n"), words, result.big_endian, result.trailing_bytes, declared,
                          Counter(), None, None)
    return FullAssembly(state, [])


def instruction_groups(
    lines: list[str], toks: list[str], inst_first, inst_words, first_word: int, first_line: int = 0,
    text: str | None = None,
) -> tuple[array, array]:
    """First line and first word of each instruction group of `lines`, whose words are
    `toks` and whose instructions start at words `inst_first` of the text and at
    `inst_words` of the output (plus `first_word`); lines are numbered from
    `first_line`. `text`: the lines joined, when the caller has it (not joined again)."""
    starts = _line_start_words(lines, len(toks), text)
    group_lines, group_words = array("I"), array("I")
    if starts is not None:
        rows = map(bisect_right, repeat(starts), inst_first)
        for first, word, row in zip(inst_first, inst_words, rows):
            if starts[row - 1] == first:  # the instruction's first word starts its line
                group_lines.append(row - 1 + first_line)
                group_words.append(word + first_word)
        return group_lines, group_words
    if text is None:
        text = "\n".join(lines)
    offsets = word_offsets(text)
    line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
    previous_end = -1
    for first, word in zip(inst_first, inst_words):
        line = bisect_right(line_starts, offsets[first]) - 1
        if first > 0:
            before = first - 1
            previous_end = bisect_right(line_starts, offsets[before] + max(len(toks[before]), 1) - 1) - 1
        if previous_end < line:
            group_lines.append(line + first_line)
            group_words.append(word + first_word)
    return group_lines, group_words


def switch_selectors(toks: list[str]) -> Counter:
    """The selector id word of each OpSwitch in `toks`, counted."""
    found: Counter = Counter()
    at = -1
    try:
        while True:
            at = toks.index("OpSwitch", at + 1)
            if at + 1 < len(toks):
                found[toks[at + 1]] += 1
    except ValueError:
        return found


def _first_lines(lines: list[str], toks: list[str], names: list[str], text: str | None = None) -> dict[str, int] | None:
    """`names` (in order) with the line of each one's first word; None when the words
    cannot be placed on lines (a quoted string over several). `text`: the lines joined."""
    if not names:
        return {}
    starts = _line_start_words(lines, len(toks), text)
    if starts is None:
        return None
    wanted = set(names)
    first: dict[str, int] = {}
    for index, tok in enumerate(toks):
        if tok in wanted and tok not in first:
            first[tok] = bisect_right(starts, index) - 1
            if len(first) == len(wanted):
                break
    return {name: first[name] for name in names}


def _line_start_words(lines: list[str], total: int, text: str | None = None) -> list[int] | None:
    """The index of the first word of each line, when every word lies within one line
    (None when a quoted string runs over several). Lines are split by `str.split`, and
    those holding a character it may split differently at by the assembler's rules.
    `text`: the lines joined, when the caller has it (a huge text is not joined twice)."""
    counts = list(map(len, map(str.split, lines)))
    if text is None:
        text = "\n".join(lines)
    line_ends = None
    done = -1
    for match in _EXACT_LINE.finditer(text):
        if line_ends is None:
            line_ends = list(accumulate(len(line) + 1 for line in lines))
        row = bisect_right(line_ends, match.start())
        if row != done:
            counts[row] = len(tokenize(lines[row]))
            done = row
    starts = list(accumulate(counts, initial=0))
    return starts[:-1] if starts[-1] == total else None
