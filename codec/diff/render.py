"""The comparison as text: a unified diff of the two disassemblies in A's id space, and
the summary table.

B's lines name B's ids by their partners in A (`PairedNames`), so a renumbered module
reads the same; an id only B has gets its own friendly name, or (raw ids) a number past
A's bound. Line numbers are those of `spvinspect dis` (five header lines, then one line
per instruction). A block that moved is one `~` line: its label, with where it is in B.
"""

from __future__ import annotations

from collections.abc import Iterator

from spvinspect.codec.diff.matcher import UNKNOWN
from spvinspect.codec.diff.model import ADDED, CHANGED, EQUAL, MOVED, REMOVED, Counts, ModuleDiff, Summary
from spvinspect.codec.text.listing import DisassemblyOptions, Listing, generator_text
from spvinspect.codec.text.names import NameMap

HEADER_LINES = 5
"""The comment lines `spvinspect dis` prints before the first instruction."""


class PairedNames:
    """Names for B's ids in A's id space (what `Listing` asks of a name map)."""

    def __init__(self, diff: ModuleDiff, names_a: ValueNumbers, names_b: NameMap, friendly: bool) -> None:
        self.canon_b = diff.matcher.ids.canon_b
        self.names_a = names_a
        self.names_b = names_b
        self.friendly = friendly
        self.next_number = max(diff.shape_a.bound, 1)
        self.module_ids_b = diff.shape_b.module_ids
        self.named_b = diff.matcher.op_names(diff.shape_b)
        self.fresh: dict[int, str] = {}

    def name(self, id_: int) -> str:
        paired = self.canon_b[id_] if id_ < len(self.canon_b) else UNKNOWN
        if paired != UNKNOWN:
            return self.names_a.name(paired)
        found = self.fresh.get(id_)
        if found is None:
            # A function's value without an OpName is a number: asking B's names would
            # run B's naming pass over the whole module to learn just that.
            local = id_ not in self.module_ids_b and id_ not in self.named_b
            own = self.names_b.name(id_) if self.friendly and not local else str(id_)
            if own == str(id_):
                own = str(self.next_number)
                self.next_number += 1
            found = self.fresh[id_] = own
        return found


class ValueNumbers:
    """A's names, a function's value without an OpName named by its number at once (as
    the name map would name it, after reading the whole module to make sure)."""

    def __init__(self, diff: ModuleDiff, names: NameMap) -> None:
        self.names = names
        self.module_ids = diff.shape_a.module_ids
        self.named = diff.matcher.op_names(diff.shape_a)
        # A name made of digits could take a value's number: then only the map knows.
        self.shortcut = names.friendly and not any(name.isdigit() for name in self.named.values())

    def name(self, id_: int) -> str:
        if self.shortcut and id_ not in self.module_ids and id_ not in self.named:
            return str(id_)
        return self.names.name(id_)


class DiffText:
    """The lines of both modules for the diff: A's as `dis` prints them, B's in A's
    id space."""

    def __init__(self, diff: ModuleDiff, friendly: bool = True, indent: bool = True) -> None:
        self.diff = diff
        options = DisassemblyOptions(friendly_names=friendly, header=False, indent=indent)
        names_a = ValueNumbers(diff, NameMap(diff.module_a, friendly))
        names_b = NameMap(diff.module_b, friendly)
        self.listing_a = Listing(diff.module_a, names_a, options)  # type: ignore[arg-type]
        self.names_b = PairedNames(diff, names_a, names_b, friendly)
        self.listing_b = Listing(diff.module_b, self.names_b, options)  # type: ignore[arg-type]

    def line_a(self, index: int) -> str:
        return self.listing_a.line(index)

    def line_b(self, index: int) -> str:
        return self.listing_b.line(index)

    def region_title(self, number: int) -> str:
        """`declarations`, or `function %main` (B's own functions named in A's space)."""
        region = self.diff.regions[number]
        if region.function_a is not None:
            return "function %" + self.listing_a.names.name(region.function_a.result_id)
        if region.function_b is not None:
            return "function %" + self.names_b.name(region.function_b.result_id) + " (only in B)"
        return region.name


def _header_lines(diff: ModuleDiff) -> Iterator[str]:
    """`-; Version: 1.0` / `+; Version: 1.3` for each header word that differs."""
    grammar = diff.module_a.grammar
    ha, hb = diff.module_a.header, diff.module_b.header
    for name, _, _ in diff.header_changes():
        if name == "version":
            yield f"-; Version: {ha.version_text}"  # type: ignore[union-attr]
            yield f"+; Version: {hb.version_text}"  # type: ignore[union-attr]
        elif name == "generator":
            yield f"-; Generator: {generator_text(ha, grammar)}"  # type: ignore[arg-type]
            yield f"+; Generator: {generator_text(hb, grammar)}"  # type: ignore[arg-type]
        else:
            yield f"-; Schema: {ha.schema}"  # type: ignore[union-attr]
            yield f"+; Schema: {hb.schema}"  # type: ignore[union-attr]


def unified(diff: ModuleDiff, name_a: str, name_b: str, context: int = 3, friendly: bool = True) -> Iterator[str]:
    """The unified diff, line by line (nothing when the modules are the same)."""
    if diff.same:
        return
    text = DiffText(diff, friendly)
    yield f"--- {name_a}"
    yield f"+++ {name_b}"
    header = list(_header_lines(diff))
    if header:
        yield "@@ -1,5 +1,5 @@ header"
        yield from header
    kinds, a_index, b_index = diff.kinds, diff.a_index, diff.b_index
    for first, last in _hunks(diff, context):
        a_lines = [a_index[k] for k in range(first, last) if a_index[k] >= 0 and kinds[k] != ADDED]
        b_lines = [b_index[k] for k in range(first, last) if b_index[k] >= 0 and kinds[k] != REMOVED]
        a_start = (a_lines[0] if a_lines else _a_before(diff, first)) + HEADER_LINES + 1
        b_start = (b_lines[0] if b_lines else _b_before(diff, first)) + HEADER_LINES + 1
        title = text.region_title(diff.region_of[first])
        yield f"@@ -{a_start},{len(a_lines)} +{b_start},{len(b_lines)} @@ {title}"
        for k in range(first, last):
            kind = kinds[k]
            if kind == EQUAL:
                yield " " + text.line_a(a_index[k])
            elif kind == REMOVED:
                yield "-" + text.line_a(a_index[k])
            elif kind == ADDED:
                yield "+" + text.line_b(b_index[k])
            elif kind == CHANGED:
                yield "-" + text.line_a(a_index[k])
                yield "+" + text.line_b(b_index[k])
            elif kind == MOVED:
                yield f"~{text.line_a(a_index[k])}    ; block moved: line {b_index[k] + HEADER_LINES + 1} in B"


def _a_before(diff: ModuleDiff, row: int) -> int:
    """A's instruction index just before row `row` (-1 at the start)."""
    for k in range(row - 1, -1, -1):
        if diff.a_index[k] >= 0:
            return diff.a_index[k]
    return -1


def _b_before(diff: ModuleDiff, row: int) -> int:
    for k in range(row - 1, -1, -1):
        if diff.b_index[k] >= 0:
            return diff.b_index[k]
    return -1


def _hunks(diff: ModuleDiff, context: int) -> Iterator[tuple[int, int]]:
    """Row ranges [first, last) of the hunks: each difference with `context` rows
    around it, within its region; ranges that touch are merged."""
    starts = diff.region_starts
    ends = list(starts[1:]) + [len(diff)]
    current: tuple[int, int, int] | None = None
    for k in diff.differences:
        region = diff.region_of[k]
        first = max(starts[region], k - context)
        last = min(ends[region], k + context + 1)
        if current is not None and current[2] == region and first <= current[1]:
            current = (current[0], max(current[1], last), region)
            continue
        if current is not None:
            yield current[0], current[1]
        current = (first, last, region)
    if current is not None:
        yield current[0], current[1]


COLUMNS = ("added", "removed", "changed", "moved", "words_added", "words_removed", "words_changed")
HEADINGS = ("added", "removed", "changed", "moved", "words +", "words -", "words ~")


def summary_lines(diff: ModuleDiff, summary: Summary | None = None, friendly: bool = True) -> list[str]:
    """The summary: a row per section or function that differs, and the total."""
    summary = summary or diff.summary()
    text = DiffText(diff, friendly) if any(c.any for _, c in summary.regions) else None
    rows: list[tuple[str, Counts]] = [
        (text.region_title(number), counts)  # type: ignore[union-attr]
        for number, (_, counts) in enumerate(summary.regions)
        if counts.any
    ]
    rows.append(("total", summary.total))
    width = max(len(title) for title, _ in rows)
    lines = [f"{'instructions':<{width}}  " + "  ".join(f"{h:>8}" for h in HEADINGS)]
    for title, counts in rows:
        lines.append(f"{title:<{width}}  " + "  ".join(f"{getattr(counts, c):>8}" for c in COLUMNS))
    for name, a_value, b_value in summary.header:
        lines.append(f"header {name}: 0x{a_value:08x} -> 0x{b_value:08x}")
    return lines
