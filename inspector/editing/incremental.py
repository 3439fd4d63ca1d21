"""Re-assembling only the instructions an edit touched, and splicing their words in.

`splice(state, lines)` takes the last good assembly and the edited text. It finds the
changed lines (equal leading and trailing lines are skipped), widens them to whole
instruction groups plus one group of context on each side, and assembles that stretch
alone against the tables the whole run declared (ids, types, imports, value types).
The result is the whole assembly's words, or None when it cannot be sure of that —
then the caller assembles the whole text. It is sure when the edit

- lies after the text before the first instruction (an edit there, the header
  comments, rewrites the header words only: `header_comments`), and leaves no string
  open at the stretch's end (in a region's text, a string left open that nothing after
  the region can close gives the whole run's first error from the region alone:
  `open_string`, `_open_string_error`),
- brings in a numeric id or drops the last use of one only while the text holds no
  name the user typed (`numeric_ids`: the bound word follows), and numbers the names
  it brings in, renames or drops as
  the whole run would without changing the numbers of names outside it
  (`new_names`: the disassembler's names and numeric ids are pinned; a name the user
  typed is numbered on first sight),
- defines what it defined before, or defines new numbers and drops definitions, and
  imports no id the rest of the text imports; a type, a switch selector's value type
  or an import that it changes, adds or drops is read by instructions outside the
  stretch, which are re-encoded (`dependents`: those after the stretch, from their own
  lines or, outside a region's text, from their words; there, when their size changes,
  only in a re-assembly of the whole region, `region_whole`),
- and the stretch assembles. When it does not, its first error is returned
  (`StretchError`); the session shows it at once on a huge text and otherwise assembles
  the whole text for the whole run's own diagnostic.

One case is not covered: an operand whose encoding depends on a type or a value
defined further down (a forward reference, which a valid module never holds) is read
against the final tables here but against the tables so far by the whole run.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import ChainMap, Counter
from dataclasses import dataclass

from spvinspect.codec.asm.errors import AssemblyError
from spvinspect.codec.asm.lexer import SourceMap, tokenize
from spvinspect.codec.asm.plans import load_plans
from spvinspect.codec.asm.quick import QuickEncoder
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.editing import dependents, header_comments, new_names, numeric_ids
from spvinspect.editing.assembly_state import (
    AssemblyState, error_diagnostic, instruction_groups, switch_selectors,
)


class _Overlay(dict):
    """A table a stretch records into, read through to the whole run's.

    `in` and `setdefault` see the stretch's own entries only, so a type the stretch
    declares again is recorded again (not refused as declared twice) and then compared
    with the whole run's; `get` reads through."""

    __slots__ = ("base",)

    def __init__(self, base: dict) -> None:
        super().__init__()
        self.base = base

    def get(self, key, default=None):
        """This stretch's entry, else the whole run's."""
        found = dict.get(self, key)
        return found if found is not None else self.base.get(key, default)


def changed_lines(old: list[str], new: list[str]) -> tuple[int, int, int] | None:
    """(first changed line, end in `old`, end in `new`), or None when equal (a binary
    search over prefix lengths: a few passes over the lists; the session knows the
    change from its edits and passes it to `splice` instead)."""
    if old is new or old == new:
        return None
    shortest = min(len(old), len(new))
    lo, hi = 0, shortest
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[:mid] == new[:mid]:
            lo = mid
        else:
            hi = mid - 1
    prefix = lo
    lo, hi = 0, shortest - prefix
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if old[len(old) - mid :] == new[len(new) - mid :]:
            lo = mid
        else:
            hi = mid - 1
    return prefix, len(old) - lo, len(new) - lo


def _closed(text: str, toks: list[str]) -> bool:
    """True when the stretch's words end where it ends: no string left open, no
    backslash escaping the line end, no NUL (which ends the whole text)."""
    if "\0" in text:
        return False
    followed = tokenize(text + "\nOpNop")
    return len(followed) == len(toks) + 1 and followed[-1] == "OpNop"


def _defined(toks: list[str]) -> list[str]:
    """The id words defined (`%x =`) in a stretch, sorted."""
    return sorted(tok for tok, nxt in zip(toks, toks[1:]) if nxt == "=")


def _shifted(values: array, by: int) -> array:
    """`values` plus `by`, each."""
    if by == 0:
        return values
    return array("I", [value + by for value in values])


def merge_changes(change: tuple[int, int, int] | None, edit: tuple[int, int, int]) -> tuple[int, int, int]:
    """Two changes in a row as one: `change` is (first line, end in the old text, end
    in the new text); `edit`, in the new text's lines, replaces [start, end) by lines
    [start, new_end)."""
    start, end, new_end = edit
    if change is None:
        return edit
    first, old_end, mid_end = change
    return min(first, start), old_end + max(0, end - mid_end), max(mid_end, end) + (new_end - end)


def splice(
    state: AssemblyState, lines: list[str], change: tuple[int, int, int] | None = None,
    outside: dependents.ModuleOutside | None = None,
) -> AssemblyState | StretchError | None:
    """The assembly of `lines` made from `state` by re-assembling the changed
    instructions only; `state` itself when nothing changed; the stretch's first error
    when it does not assemble; None when the whole text must be assembled (see the
    module's docstring for when). `change` says which lines changed (as
    `changed_lines` gives it), when the caller knows; `outside` gives a region's text
    the module's instructions around it (for the instructions an edit re-encodes)."""
    group_lines, group_words = state.group_lines, state.group_words
    if group_lines is None or group_words is None or not group_lines:
        return None
    if change is None:
        change = changed_lines(state.lines, lines)
        if change is None:
            return state
    first, old_end, new_end = change
    if first < group_lines[0]:
        return header_comments.spliced(state, lines, change)
    count = len(group_lines)
    g0 = max(bisect_right(group_lines, first) - 2, 0)
    g1 = min(bisect_right(group_lines, max(first, old_end - 1)), count - 1)
    line0, word0 = group_lines[g0], group_words[g0]
    line1 = group_lines[g1 + 1] if g1 + 1 < count else len(state.lines)
    words_end = len(state.words) if state.words_end is None else state.words_end
    word1 = group_words[g1 + 1] if g1 + 1 < count else words_end
    line_delta = len(lines) - len(state.lines)
    old_stretch = state.lines[line0:line1]
    new_stretch = lines[line0 : line1 + line_delta]
    old_toks = tokenize("\n".join(old_stretch))
    new_text = "\n".join(new_stretch)
    new_toks = tokenize(new_text)
    if not _closed(new_text, new_toks):
        return _open_string_error(state, lines, line0, outside)
    changes = _count_changes(state, old_toks, new_toks, any_numeric=True)
    numeric = numeric_ids.numeric_change(state, changes)  # a numeric id coming in or going
    if numeric is None:
        return None
    if not numeric:
        numeric = None
        changes = _count_changes(state, old_toks, new_toks)
    names = new_names.plan(state, old_toks, new_toks, line0, numeric.added if numeric is not None else {})
    old_imports = dependents.imported(old_toks, state.declared.numbers)
    if changes is None or names is None or old_imports is None:
        return None
    encoder = _stretch_encoder(state, new_toks, new_text, names, set(old_imports))
    if numeric is not None:
        dict.update(encoder.ids.numbers, numeric.added)
    try:
        encoder.run()
    except AssemblyError as error:
        return _stretch_error(error, encoder, new_text, line0)
    declared = encoder.declared
    imported = dependents.import_changes(state.declared.imports, old_imports, declared.imports.maps[0])
    if imported is None:
        return None
    imports, unimported = imported
    del new_toks[encoder.n :]
    if numeric is not None:  # not names the stretch numbered
        for word in numeric.added:
            dict.pop(encoder.ids.numbers, word, None)
    numbered = new_names.renumbered(
        state, names, encoder.ids, old_toks, new_toks, new_stretch, line0, line1, line_delta
    )
    if numbered is None:
        return None
    assigned, unpinned, dropped, bound = numbered
    if numeric is not None:
        named_top = numeric_ids.names_top(state.declared, assigned, unpinned)
        if named_top is None or named_top >= numeric.lowest:  # the names would be numbered otherwise
            return None
        dict.update(encoder.ids.numbers, numeric.added)
        bound = max(named_top + 1, numeric_ids.top_after(state.declared, numeric) + 1)
        if bound > numeric_ids.MAX_NUMBER + 1:  # 2^32 wraps in the header's word (`region_whole`)
            return None
    number = encoder.ids.numbers.get
    old_number = state.declared.numbers.get
    selectors = switch_selectors(new_toks)
    selectors.subtract(switch_selectors(old_toks))
    found = dependents.changed_definitions(
        state, {old_number(name) for name in _defined(old_toks)}, {number(name) for name in _defined(new_toks)},
        dict(declared.types), dict(declared.value_types), selectors, number, assigned, dropped, imports,
        unimported,
    )
    if found is None:
        return None
    tables, reading = found
    if numeric is not None:
        tables.numeric = numeric
    groups = instruction_groups(new_stretch, new_toks, encoder.inst_first, encoder.inst_words, word0, line0)
    if not groups[0] or (groups[0][0] != line0 and not _region_top(state, g0, word0)):
        return None
    out = encoder.out
    word_delta = len(out) - (word1 - word0)
    words = state.words[:]  # one copy of the module's words, the stretch's put in place
    words[word0:word1] = out
    if bound is not None and state.declared.header_bound is not None:
        words[3] = max(bound, state.declared.header_bound)
    new_group_lines = group_lines[:g0] + groups[0] + _shifted(group_lines[g1 + 1 :], line_delta)
    new_group_words = group_words[:g0] + groups[1] + _shifted(group_words[g1 + 1 :], word_delta)
    new_words_end = None if state.words_end is None else words_end + word_delta
    word_change = (word0, word1, word0 + len(out))
    if reading:
        again = dependents.reencode(state, lines, words, new_group_lines, new_group_words, new_words_end,
                                    (word0, word0 + len(out)), tables, reading, outside)
        if again is None:
            return None
        if isinstance(again, tuple):
            diagnostic, line, outside_text = again
            return StretchError(Diagnostic(diagnostic.message, diagnostic.severity,
                                           line=(diagnostic.line or 1) + line, column=diagnostic.column), outside_text)
        words, new_group_words, new_words_end = again.words, again.group_words, again.words_end
        word_change = (word0, again.old_end - word_delta, again.new_end)
    return AssemblyState(
        lines, words, state.big_endian, state.trailing_bytes, state.declared, state.counts,
        new_group_lines, new_group_words,
        unpinned=unpinned, count_changes=changes, declared_changes=tables, full=False,
        word_change=word_change, words_end=new_words_end,
    )


OPEN_TAIL = "\n" + " ".join("x" * 200)
"""The text after a region as a string left open in it swallows it: blanks in it (no
other word takes them in), and long, as the module's text after the region is (a
message suggests a close name for a word only when it is short: difflib's ratio of a
word over 400 characters to a name of 71, the grammar's longest, stays under 0.6)."""
LINE_CHARACTERS = 6
"""The fewest characters an instruction's line takes in the text (`OpNop`, a line break)."""


def open_at_end(text: str) -> bool:
    """True when `text` ends inside a quoted string (left open: it swallows what follows)."""
    toks = tokenize(text + OPEN_TAIL)
    return bool(toks) and toks[-1].endswith(OPEN_TAIL)


def _open_string_error(state: AssemblyState, lines: list[str], line0: int,
                       outside: dependents.ModuleOutside | None) -> StretchError | None:
    """The whole text's first error when a region's text from line `line0` on ends in a
    string left open that nothing after the region can close (`open_string`, `ModuleOutside.quote_after`): that
    string then runs to the end of the whole text, and the run stops at it or before
    it (spirv-as: where a string operand goes, an invalid literal string; elsewhere,
    what it expected there). The region's text from `line0` is assembled against the
    run's tables, the open string its last word (its text after the region stood in
    for: a message quotes a word's first line only). None when the stretch is not
    such a string, or its run does not stop (then the whole text tells)."""
    if outside is None or state.words_end is None:
        return None
    text = "\n".join(lines[line0:])
    if "\0" in text or not open_at_end(text) or outside.quote_after():
        return None
    module, region = outside.module, outside.region
    after = module.instruction_count - region.end
    if after or module.trailing_bytes:  # else the region ends the text
        if after * LINE_CHARACTERS < len(OPEN_TAIL):  # only the short text after it tells a name suggested
            return None
        text += OPEN_TAIL
    toks = tokenize(text)
    old_toks = tokenize("\n".join(state.lines[line0:]))
    added = {word: number for word, number in numeric_ids.numeric_ids(
        [tok for tok in toks if tok[:1] == "%"]).items() if word not in state.declared.numbers}
    names = new_names.plan(state, old_toks, toks, line0, added)
    old_imports = dependents.imported(old_toks, state.declared.numbers)
    if names is None or old_imports is None:
        return None
    encoder = _stretch_encoder(state, toks, text, names, set(old_imports))
    dict.update(encoder.ids.numbers, added)
    try:
        encoder.run()
    except AssemblyError as error:
        return _stretch_error(error, encoder, text, line0)
    return None


def _region_top(state: AssemblyState, g0: int, word0: int) -> bool:
    """True when the stretch starts a region's text that is not the module's first
    instructions: lines before its first instruction there are blank or comments, which
    the whole text would hold between two instructions (not among its header comments)."""
    return state.words_end is not None and g0 == 0 and word0 > 5


@dataclass(frozen=True, slots=True)
class StretchError:
    """The changed stretch does not assemble: its first error, placed in the whole text.

    With the text outside the stretch as it was in a good assembly, the whole run's
    first error is this one, up to the forward references the module's docstring names;
    an error the stretch's own ends or tables could cause (the end of the stretch, an
    import seen again) is not given here (splice returns None for those)."""

    diagnostic: Diagnostic
    outside: bool = False
    """True when the error is outside a region's text (at its line of the whole text):
    an instruction there that reads what the stretch changed (`dependents`)."""


def _stretch_error(error: AssemblyError, encoder: QuickEncoder, text: str, line0: int) -> StretchError | None:
    kind, index = error.where
    if kind not in ("start", "end") or index >= encoder.n or "import" in error.message:
        return None
    found = error_diagnostic(error, SourceMap(text))
    return StretchError(Diagnostic(found.message, found.severity, line=(found.line or 1) + line0, column=found.column))


def _count_changes(
    state: AssemblyState, old_toks: list[str], new_toks: list[str], any_numeric: bool = False
) -> dict[str, int] | None:
    """How the id words' counts change; None when a numeric id appears in the text or
    leaves it, unless `any_numeric` (then `numeric_ids` tells whether that splices)."""
    changes = Counter(tok for tok in new_toks if tok[:1] == "%")
    changes.subtract(tok for tok in old_toks if tok[:1] == "%")
    counts, numeric = state.counts, state.declared.numeric
    for tok, change in changes.items() if not any_numeric else ():
        if change and tok in numeric:
            before = counts.get(tok, 0)
            if before == 0 or before + change <= 0:
                return None
    return {tok: change for tok, change in changes.items() if change}


def _stretch_encoder(
    state: AssemblyState, toks: list[str], text: str, names: new_names.NamePlan, imported: set[int]
) -> QuickEncoder:
    """An encoder over a stretch of the text that reads ids, types and imports from
    the whole run's tables and writes what it declares (and the names it numbers, see
    `new_names`) to tables of its own. The imports the stretch made before (`imported`)
    are hidden from it: it makes them again."""
    source = SourceMap(text)

    def punctuation(index: int) -> str:
        offset = source.word_start(index)
        return text[offset : offset + 1]

    declared = state.declared
    encoder = QuickEncoder(toks, load_plans(), declared.version, declared.preserve, punctuation)
    encoder.ids.numbers = new_names.StretchIds(declared.numbers, names.masked)
    encoder.ids.next_id = names.next_id
    encoder.declared.types = _Overlay(declared.types)
    encoder.declared.imports = ChainMap({}, dependents.masked(declared.imports, imported))
    encoder.declared.value_types = _Overlay(declared.value_types)
    return encoder
