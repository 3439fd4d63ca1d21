"""Re-encoding the instructions whose words depend on what an edited stretch declares.

Three of the whole run's tables decide how an operand encodes: a number type gives the
literal of an OpConstant or OpSpecConstant of that type its width, the value type of an
OpSwitch's selector gives the case literals theirs, and an import gives an OpExtInst's
instruction name its number. An edit that changes such an entry (a type declared anew,
a selector defined with another type, an import of another set) changes those
instructions' words in the whole run, and nothing else. `changed_definitions` tells
which entries changed; `reencode` finds the instructions that read them (one vectorised
pass over the instruction heads) and assembles each from its own line against the
edited tables, giving the words the whole text's assembly gives; outside a region's
text, a number constant or a switch is re-encoded from its words instead (its line is
never made: `dependent_words`). It gives up (None: assemble the whole text) where it
cannot be sure: a dependent before the stretch, a new name in a dependent's line, or,
outside a region's text, a dependent whose size changes (unless the whole region is
re-assembled from the module's words, `ModuleOutside.resizing`, with at most
`RESIZED_LIMIT` dependents from their lines) or that does not assemble (its
diagnostic's line is the whole text's).
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from spvinspect.codec.asm.errors import AssemblyError
from spvinspect.codec.asm.lexer import SourceMap, tokenize
from spvinspect.codec.asm.declarations import FLOAT, INT
from spvinspect.codec.asm.plans import load_plans
from spvinspect.codec.asm.quick import QuickEncoder
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.text.line_breaks import line_breaks
from spvinspect.codec.text.listing import DisassemblyOptions, Listing
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.region import Region, region_words
from spvinspect.editing.assembly_state import AssemblyState, DeclaredChanges, error_diagnostic
from spvinspect.editing import open_string
from spvinspect.editing.dependent_words import numbers_from_words
from spvinspect.editing.new_names import StretchIds


@dataclass(slots=True)
class Dependents:
    """The table entries an edit changed that other instructions' words read."""

    types: set[int] = field(default_factory=set)
    """Type ids whose number type changed (their constants, and switches on their values)."""
    selectors: set[int] = field(default_factory=set)
    """Selector values whose value type changed (their switches)."""
    imports: set[int] = field(default_factory=set)
    """Import ids whose set changed (their OpExtInst instructions)."""

    def __bool__(self) -> bool:
        return bool(self.types or self.selectors or self.imports)


def masked(base: Mapping, hidden) -> Mapping:
    """`base` without the keys in `hidden` (`base` itself when there are none)."""
    return Masked(base, hidden) if hidden else base


class Masked(Mapping):
    """A table without some keys: the whole run's imports less the ones an edited
    stretch imported before (the stretch imports them again), the types and selectors'
    value types an edit no longer declares."""

    __slots__ = ("base", "hidden")

    def __init__(self, base: Mapping, hidden: set) -> None:
        self.base = base
        self.hidden = hidden

    def __getitem__(self, key):
        if key in self.hidden:
            raise KeyError(key)
        return self.base[key]

    def __contains__(self, key) -> bool:
        return key not in self.hidden and key in self.base

    def __iter__(self):
        return (key for key in self.base if key not in self.hidden)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def imported(toks: list[str], numbers) -> dict[int, str] | None:
    """The results of the OpExtInstImport instructions in `toks` (number → id word); None
    when one's id word has no number yet."""
    found: dict[int, str] = {}
    at = -1
    try:
        while True:
            at = toks.index("OpExtInstImport", at + 1)
            if at >= 2 and toks[at - 1] == "=":
                number = numbers.get(toks[at - 2])
                if number is None:
                    return None
                found[number] = toks[at - 2]
    except ValueError:
        return found


def _set_key(ext) -> str | None:
    return None if ext is None else ext.import_name


def import_changes(before: Mapping, old: dict[int, str], own: dict) -> tuple[dict, frozenset[int]] | None:
    """The imports a stretch changed (number → new set, a number it imports anew
    included) and the numbers it no longer imports: it imported `own` where it imported
    `old`, whose sets `before` holds. The OpExtInst instructions that name any of them
    are re-encoded (one naming a number no longer imported gives the whole run's error);
    None when it imports a number the rest of the text imports too."""
    if any(number in before for number in own if number not in old):
        return None
    changed = {number: ext for number, ext in own.items()
               if number not in old or _set_key(ext) != _set_key(before.get(number))}
    return changed, frozenset(set(old) - set(own))


def changed_definitions(
    state: AssemblyState, old_numbers: set[int], new_numbers: set[int], own_types: dict, own_value_types: dict,
    selector_changes: Counter, number_of, assigned: dict[str, int], dropped: list[str], imports: dict,
    unimported: frozenset[int] = frozenset(),
) -> tuple[DeclaredChanges, Dependents] | None:
    """The tables' changes for a stretch that defined `new_numbers` where it defined
    `old_numbers`, with the entries other instructions read that changed; None when a
    later operand could read them in a way not re-encoded here. `imports` and
    `unimported` are `import_changes`'s.

    A number newly defined records its type and value type (it was defined nowhere else:
    the tables had no entry); a type kept may change what it is, and a type no longer
    defined (or defined as another instruction) leaves the table (its constants and
    switches are re-encoded: they then give the whole run's error). Value
    types are read only for OpSwitch selectors: a value type that changes is left as it
    was and marked stale, unless it is a selector's (its switches are re-encoded); a
    selector no longer defined leaves the table (its switches are re-encoded: those with
    cases give the whole run's error); a stale one becoming a selector takes the whole
    assembly."""
    declared = state.declared
    types, value_types = declared.types, declared.value_types
    kept, added, removed = new_numbers & old_numbers, new_numbers - old_numbers, old_numbers - new_numbers
    retyped = {n for n in kept if types.get(n) != own_types.get(n)}
    untyped = frozenset({n for n in retyped if n not in own_types} | {n for n in removed if n in types})
    retyped -= untyped
    if any(n in types for n in added):
        return None
    counts = declared.selectors
    if any(number_of(word) in declared.stale for word, change in selector_changes.items()
           if counts.get(word, 0) + change > 0):
        return None
    stale = {n for n in kept if value_types.get(n) != own_value_types.get(n)} | (removed & value_types.keys())
    stale |= {n for n in added if n in value_types}
    reselected: set[int] = set()
    unvalued: frozenset[int] = frozenset()
    if stale:
        selectors = counts.copy()
        selectors.update(selector_changes)
        watched = {number_of(word) for word, count in selectors.items() if count > 0} & stale
        reselected = {n for n in watched & kept if own_value_types.get(n) is not None}
        unvalued = frozenset((watched - reselected) & removed)
        if watched - reselected - unvalued:
            return None
        stale -= reselected | unvalued
    new_types = {n: own_types[n] for n in added if n in own_types}
    new_types.update((n, own_types[n]) for n in retyped)
    new_value_types = {n: own_value_types[n] for n in added if n in own_value_types and n not in value_types}
    new_value_types.update((n, own_value_types[n]) for n in reselected)
    changes = DeclaredChanges(
        assigned, dropped, new_types, new_value_types, stale,
        {word: change for word, change in selector_changes.items() if change}, imports, unimported=unimported,
        untyped=untyped, unvalued=unvalued,
    )
    return changes, Dependents(retyped | untyped, reselected | unvalued, set(imports) | unimported)


RESIZED_LIMIT = 500
"""The most dependents outside a region re-encoded from their lines when they may change
size (each is assembled from its own line; those re-encoded from their words are not
counted); past it, the whole text's assembly is the faster way to the same words."""

def _between(at: np.ndarray, cumulated: np.ndarray, first: int, end: int) -> int:
    """The line breaks of the instructions [first, end) (`at`, `cumulated`: see
    `ModuleOutside._line_breaks`)."""
    return int(cumulated[np.searchsorted(at, end)] - cumulated[np.searchsorted(at, first)])


class ModuleOutside:
    """The instructions of a region's module outside the region: where they are in an
    edited module's words (the module's own, shifted after the region) and their lines."""

    resizes = False
    """True when a dependent outside the region may change size (`resizing`)."""

    def __init__(self, module: LazyModule, names: NameMap, region: Region) -> None:
        self.module = module
        self.names = names
        self.region = region
        self._listing: Listing | None = None
        self._breaks: tuple[np.ndarray, np.ndarray] | None = None
        self._quote_after: bool | None = None

    def quote_after(self) -> bool:
        """Whether the module's text after the region may hold a `"`
        (`open_string.quote_after`), found once."""
        if self._quote_after is None:
            self._quote_after = open_string.quote_after(self.module, self.region)
        return self._quote_after

    def resizing(self) -> ModuleOutside:
        """The same instructions, for a re-assembly of the whole region from the module's
        own words (`region_whole`): there a dependent after the region may change size,
        as in the whole text's assembly (the words after it move; the region's do not)."""
        found = ModuleOutside.__new__(ModuleOutside)
        found.module, found.names, found.region = self.module, self.names, self.region
        found._listing, found._breaks, found._quote_after = self._listing, self._breaks, self._quote_after
        found.resizes = True
        return found

    def instructions(self, words: np.ndarray, text_start: int, text_end: int) -> tuple[np.ndarray, np.ndarray] | None:
        """The offsets in `words` of the module's instructions outside the region, and
        their indexes in the module; None when the words outside the region's
        [text_start, text_end) are not laid out as the module's."""
        module = self.module
        region = self.region
        start, end = region_words(module, region)
        if text_start != start or len(words) - text_end != len(module.words) - end:
            return None
        offsets = np.frombuffer(module.index.offsets, dtype=np.uint32).astype(np.int64)
        indexes = np.concatenate([np.arange(region.first), np.arange(region.end, len(offsets))])
        at = offsets[indexes]
        at[region.first :] += text_end - end
        own = np.frombuffer(module.words, dtype=np.uint32)[offsets[indexes]]
        if not np.array_equal(words[at], own):
            return None
        return at, indexes

    @property
    def listing(self) -> Listing:
        if self._listing is None:
            self._listing = Listing(self.module, self.names, DisassemblyOptions())
        return self._listing

    def line(self, index: int) -> str:
        """Instruction `index`'s line, as the whole text holds it."""
        inst = self.module.instruction(index)
        return "".join(s.text for s in self.listing.instruction_segments(inst))

    def region_line(self) -> int:
        """The line (0-based) the region starts at in the whole text: the header comments,
        then a line per instruction before it and one more per line break in a string."""
        if self._breaks is None:
            self._breaks = self._line_breaks()
        at, extra = self._breaks
        first = self.region.first
        return len(self.listing.header_lines()) + first + _between(at, extra, 0, first)

    def whole_line(self, index: int, region_lines: int) -> int:
        """The line (0-based) instruction `index`, outside the region, starts at in the
        whole text whose region holds `region_lines` lines: the header comments, then
        a line per instruction and one more per line break in a string."""
        region = self.region
        if self._breaks is None:
            self._breaks = self._line_breaks()
        at, extra = self._breaks
        if index < region.first:
            before = index + _between(at, extra, 0, index)
        else:
            before = (region.first + _between(at, extra, 0, region.first) + region_lines
                      + index - region.end + _between(at, extra, region.end, index))
        return len(self.listing.header_lines()) + before

    def _line_breaks(self) -> tuple[np.ndarray, np.ndarray]:
        """The instructions whose text breaks lines (a string holding a line feed), in
        order, with how many times each does (cumulated): `codec.text.line_breaks`."""
        found = line_breaks(self.module)
        return found.at, found.cumulated


@dataclass(slots=True)
class Reencoded:
    """The words with the dependents re-encoded, the text's groups' words, and how far the
    change reaches."""

    words: array
    group_words: array
    words_end: int | None
    old_end: int
    """In the words given, where the last re-encoded instruction ended."""
    new_end: int


def _replaced(words: array, pieces: list[tuple[int, int, array]], delta: int) -> array:
    """A copy of `words` with words [start, stop) of each piece (ascending) replaced by
    its encoding; `delta` is how the size changes (none: replaced in place in the copy)."""
    if not delta and all(len(encoded) == stop - start for start, stop, encoded in pieces):
        new_words = array("I", words)
        for start, stop, encoded in pieces:
            new_words[start:stop] = encoded
        return new_words
    new_words = array("I")
    at = 0
    for start, stop, encoded in pieces:
        new_words += words[at:start]
        new_words += encoded
        at = stop
    new_words += words[at:]
    return new_words


def reencode(
    state: AssemblyState, lines: list[str], words: array, group_lines: array, group_words: array,
    words_end: int | None, stretch: tuple[int, int], changes: DeclaredChanges, dependents: Dependents,
    outside: ModuleOutside | None,
) -> Reencoded | tuple[Diagnostic, int, bool] | None:
    """The dependents of `words` (a stretch spliced into `state`'s at words `stretch`,
    the text now `lines` with its groups at `group_lines`/`group_words`, its last group
    ending at `words_end`) re-encoded against `state`'s tables with `changes`; when one
    does not assemble, the first one's diagnostic with the line it starts at (in the
    text, or True and in the whole text outside a region's); None when it cannot be
    sure (see the module's docstring)."""
    view = np.frombuffer(words, dtype=np.uint32)
    end = len(words) if words_end is None else words_end
    text_starts = instruction_starts(view, group_words, end)
    if text_starts is None:
        return None
    outer = outer_indexes = None
    if outside is not None:
        found = outside.instructions(view, int(group_words[0]) if len(group_words) else end, end)
        if found is None:
            return None
        outer, outer_indexes = found
    elif len(group_words) and (group_words[0] != 5 or (words_end is not None and words_end != len(words))):
        return None
    every = text_starts if outer is None else np.concatenate([text_starts, outer])
    hits = _dependents(view, every, state, changes, dependents)
    before, after = stretch
    if changes.untyped:  # the stretch read a type it no longer declares as the table had it
        gone = _dependents(view, every, state, changes, Dependents(types=set(changes.untyped)))
        if ((gone >= before) & (gone < after)).any():
            return None
    if hits.size and int(hits.min()) < before:
        return None
    hits = hits[hits >= after]
    plan = _plan(view, hits, outer, outer_indexes, group_lines, group_words, end, len(lines))
    if plan is None:
        return None
    if not plan:
        return Reencoded(words, group_words, words_end, after, after)
    from_words: dict[int, array] = {}
    unfit = None
    if outside is not None:
        from_words, unfit = numbers_from_words(view, plan, _Kinds(state, changes), outside.resizes)
        if from_words is None:  # one would change size where sizes must stay
            return None
        if unfit is not None:  # the whole run's first error is this one's, or an earlier one's
            del plan[unfit + 1 :]
    if outside is not None and outside.resizes and sum(
            not isinstance(p[2], tuple) and k not in from_words and k != unfit
            for k, p in enumerate(plan)) > RESIZED_LIMIT:
        return None
    tables = _Tables(state, changes)
    pieces: list[tuple[int, int, array]] = []
    delta = text_delta = 0
    group_shift: list[tuple[int, int]] = []
    for k, (start, stop, source) in enumerate(plan):
        if k in from_words:
            first_line, text = None, None
        elif isinstance(source, tuple):
            first_line, end_line = source
            text = "\n".join(lines[first_line:end_line])
        else:
            first_line, text = None, outside.line(source)
        encoded = from_words[k] if text is None else tables.encode(text)
        if isinstance(encoded, Diagnostic):
            if first_line is None:  # at its line of the whole text (0-based)
                return encoded, outside.whole_line(source, len(lines)), True
            return encoded, first_line, False
        if encoded is None or (first_line is None and len(encoded) != stop - start and not outside.resizes):
            return None
        pieces.append((start, stop, encoded))
        delta += len(encoded) - (stop - start)
        if first_line is not None:
            text_delta += len(encoded) - (stop - start)
        group_shift.append((stop, delta))
    new_words = _replaced(words, pieces, delta)
    last_stop = plan[-1][1]
    shifted = group_words
    if any(d for _, d in group_shift):
        stops = np.array([s for s, _ in group_shift], dtype=np.int64)
        deltas = np.array([d for _, d in group_shift], dtype=np.int64)
        groups = np.frombuffer(group_words, dtype=np.uint32).astype(np.int64)
        which = np.searchsorted(stops, groups, side="right") - 1
        moved = groups + np.where(which >= 0, deltas[np.maximum(which, 0)], 0)
        shifted = array("I", moved.astype(np.uint32).tobytes())
    # The text's own growth (a dependent outside a region's text is after it).
    new_words_end = None if words_end is None else words_end + text_delta
    return Reencoded(new_words, shifted, new_words_end, last_stop, last_stop + delta)


class _Kinds:
    """The number types before and after an edit (`_Tables`' lookups, without encoding)."""

    def __init__(self, state: AssemblyState, changes: DeclaredChanges) -> None:
        declared = state.declared
        self.old_types, self.old_value_types = declared.types, declared.value_types
        self.types = _Through(changes.types, masked(declared.types, changes.untyped))
        self.value_types = _Through(changes.value_types, masked(declared.value_types, changes.unvalued))

    def numbers(self, old_type, new_type) -> tuple[tuple, tuple] | None:
        """The number types (`declarations.NumberType`) a literal had and has, or None
        when either is not a number type of at most 64 bits."""
        old, new = self.old_types.get(old_type), self.types.get(new_type)
        if old is None or new is None or old[0] not in (INT, FLOAT) or new[0] not in (INT, FLOAT):
            return None
        return (old, new) if 0 < old[1] <= 64 and 0 < new[1] <= 64 else None


def instruction_starts(view: np.ndarray, group_words: array, end: int) -> np.ndarray | None:
    """Every instruction's first word in the text's words (its groups' words, walked
    where a group holds more than one instruction); None when the words do not walk."""
    groups = np.frombuffer(group_words, dtype=np.uint32).astype(np.int64)
    if not len(groups):
        return groups
    counts = (view[groups] >> 16).astype(np.int64)
    if not counts.all():
        return None
    following = np.append(groups[1:], end)
    nxt = groups + counts
    if np.array_equal(nxt, following):
        return groups
    found = []
    for first, stop in zip(groups.tolist(), following.tolist()):
        at = first
        while at < stop:
            found.append(at)
            count = int(view[at]) >> 16
            if not count:
                return None
            at += count
        if at != stop:
            return None
    return np.array(found, dtype=np.int64)


def _dependents(view: np.ndarray, starts: np.ndarray, state: AssemblyState, changes: DeclaredChanges,
                dependents: Dependents) -> np.ndarray:
    """The first words of the instructions that read a changed entry, sorted."""
    program = load_plans().program
    ops = program.opcodes
    heads = view[starts]
    opcodes = (heads & 0xFFFF).astype(np.int64)
    counts = (heads >> 16).astype(np.int64)
    found = np.zeros(len(starts), dtype=bool)
    if dependents.imports:
        ext = np.isin(opcodes, list(program.ext_inst_opcodes)) & (counts >= 5)
        found[ext] = np.isin(view[starts[ext] + 3], list(dependents.imports))
    if dependents.types:
        constant = np.isin(opcodes, [ops.OpConstant, ops.OpSpecConstant]) & (counts >= 3)
        found[constant] |= np.isin(view[starts[constant] + 1], list(dependents.types))
    if dependents.types or dependents.selectors:
        switch = np.flatnonzero((opcodes == ops.OpSwitch) & (counts >= 3))
        selectors = view[starts[switch] + 1]
        found[switch] = np.isin(selectors, list(dependents.selectors))
        if dependents.types:
            value_types = state.declared.value_types
            for k, selector in zip(switch.tolist(), selectors.tolist()):
                value_type = changes.value_types.get(selector)
                if value_type is None:
                    value_type = value_types.get(selector)
                if value_type in dependents.types:
                    found[k] = True
    return np.sort(starts[found])


def _plan(view: np.ndarray, hits: np.ndarray, outer, outer_indexes, group_lines: array, group_words: array,
          end: int, line_count: int) -> list[tuple[int, int, object]] | None:
    """What to re-encode, in order: (first word, end word, and the lines [first, end) of
    a group of the text or the module's index of an instruction outside it); None when a
    group holds more than one instruction."""
    plan: list[tuple[int, int, object]] = []
    first = group_words[0] if len(group_words) else end
    indexes = None
    if outer is not None and len(outer):  # the outside's starts, sorted
        indexes = outer_indexes[np.minimum(np.searchsorted(outer, hits), len(outer) - 1)]
    for k, word in enumerate(hits.tolist()):
        if indexes is not None and not first <= word < end:
            plan.append((word, word + (int(view[word]) >> 16), int(indexes[k])))
            continue
        g = bisect_right(group_words, word) - 1
        start = group_words[g]
        stop = group_words[g + 1] if g + 1 < len(group_words) else end
        if start + (int(view[start]) >> 16) != stop:
            return None  # a line of several instructions, which may declare what the others read
        last = group_lines[g + 1] if g + 1 < len(group_lines) else line_count
        plan.append((start, stop, (group_lines[g], last)))
    return plan


class _Tables:
    """An encoder's tables for one dependent: the whole run's with the edit's changes."""

    def __init__(self, state: AssemblyState, changes: DeclaredChanges) -> None:
        self.base = state.declared
        self.types = dict(changes.types)
        self.value_types = dict(changes.value_types)
        self.imports = dict(changes.imports)
        self.unimported = changes.unimported
        self.untyped = changes.untyped
        self.unvalued = changes.unvalued
        self.numbers = changes.numbers
        self.plans = load_plans()

    def encode(self, text: str) -> array | Diagnostic | None:
        """The words of `text` (one group of instructions), or its first error placed in
        it; None when it names an id that has no number yet."""
        declared = self.base
        toks = tokenize(text)
        source = SourceMap(text)

        def punctuation(index: int) -> str:
            offset = source.word_start(index)
            return text[offset : offset + 1]

        encoder = QuickEncoder(toks, self.plans, declared.version, declared.preserve, punctuation)
        ids = StretchIds(declared.numbers, frozenset())
        ids.update(self.numbers)
        encoder.ids.numbers = ids
        encoder.declared.types = _Through(self.types, masked(declared.types, self.untyped))
        encoder.declared.value_types = _Through(dict(self.value_types), masked(declared.value_types, self.unvalued))
        encoder.declared.imports = _Through(self.imports, masked(declared.imports, self.unimported))
        known = len(ids)
        try:
            encoder.run()
        except AssemblyError as error:
            return error_diagnostic(error, source)
        if len(ids) != known:
            return None
        return encoder.out


class _Through(dict):
    """A table read through to the whole run's: the edit's entries first."""

    __slots__ = ("base",)

    def __init__(self, own: dict, base) -> None:
        super().__init__(own)
        self.base = base

    def get(self, key, default=None):
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self.base.get(key, default)

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or key in self.base

    def __getitem__(self, key):
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self.base[key]
