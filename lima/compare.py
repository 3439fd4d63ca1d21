"""Comparing two Lima PP programs: instructions aligned, each pair compared unit by unit,
and a summary of instructions, words, temporaries (spills) and unit use.

An instruction is compared by its line in the proposed syntax (`disasm_seed`), which
already leaves out what its neighbours decide (the next instruction's count, prefetch);
a branch is compared by the instruction it jumps to, not by its word offset, so an
instruction inserted before a branch's target changes neither the branch nor the lines
after it. B's labels are named after their partners in A.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from difflib import SequenceMatcher

from spvinspect.codec.diff.align import align
from spvinspect.lima.breakdown import field_unit
from spvinspect.lima.disasm_seed import instruction_line
from spvinspect.lima.meanings import sign_extend
from spvinspect.lima.model import Instruction, LimaProgram

EQUAL, CHANGED, REMOVED, ADDED = "equal", "changed", "removed", "added"


def _starts(program: LimaProgram) -> dict[int, int]:
    return {instr.word_offset: len(instr.words) for instr in program.instructions}


def _targets(program: LimaProgram) -> dict[int, int]:
    """Instruction index -> the index of the instruction its branch jumps to."""
    index_of = {instr.word_offset: k for k, instr in enumerate(program.instructions)}
    out = {}
    for k, instr in enumerate(program.instructions):
        for f in instr.fields:
            if f.layout == "branch":
                target = instr.word_offset + sign_extend(f["target"], 27)
                if target in index_of:
                    out[k] = index_of[target]
    return out


def _lines(program: LimaProgram, labels: dict[int, str]) -> list[str]:
    """Each instruction's line in the proposed syntax, with these labels."""
    starts = _starts(program)
    instructions = program.instructions
    return [
        instruction_line(instr, len(instructions[k + 1].words) if k + 1 < len(instructions) else 0, labels, starts)
        for k, instr in enumerate(instructions)
    ]


def units(instr: Instruction) -> Counter:
    """How often each unit is used by an instruction (two constants are two uses)."""
    return Counter(field_unit(f) for f in instr.fields)


def temporaries(instr: Instruction) -> tuple[int, int]:
    """(loads, stores) of temporaries: spills read back and written."""
    loads = sum(1 for f in instr.fields if f.name == "uniform" and f.layout == "load" and f["source"] == 3)
    stores = sum(1 for f in instr.fields if f.name == "temp_write" and f.layout == "store")
    return loads, stores


@dataclass
class ProgramCounts:
    """One program's figures."""

    instructions: int = 0
    words: int = 0
    temp_loads: int = 0
    temp_stores: int = 0
    units: Counter = field(default_factory=Counter)


def program_counts(program: LimaProgram) -> ProgramCounts:
    out = ProgramCounts(len(program.instructions), sum(len(i.words) for i in program.instructions))
    for instr in program.instructions:
        loads, stores = temporaries(instr)
        out.temp_loads += loads
        out.temp_stores += stores
        out.units.update(units(instr))
    return out


class LimaDiff:
    """The rows of a comparison of two programs: (kind, A's index, B's index), None for
    the side an instruction is missing from."""

    def __init__(self, a: LimaProgram, b: LimaProgram) -> None:
        self.a = a
        self.b = b
        placeholder_a = {offset: "L" for offset in _starts(a)}
        placeholder_b = {offset: "L" for offset in _starts(b)}
        keys_a = _lines(a, placeholder_a)
        keys_b = _lines(b, placeholder_b)
        self.rows: list[tuple[str, int | None, int | None]] = []
        pairs: dict[int, int] = {}
        ops = align(keys_a, keys_b)
        for op in ops:
            if op.tag == "equal":
                pairs.update(zip(range(op.a1, op.a2), range(op.b1, op.b2)))
            elif op.tag == "replace":
                pairs.update(self._changed_pairs(keys_a, keys_b, op))
        self.partner_of_b = {j: i for i, j in pairs.items()}
        # Lines: A's with its own labels, B's with labels named after their partners.
        self.labels_a = {instr.word_offset: f"L{instr.word_offset}" for instr in a.instructions}
        self.labels_b = {
            instr.word_offset: (
                f"L{a.instructions[self.partner_of_b[k]].word_offset}" if k in self.partner_of_b
                else f"L{instr.word_offset}.b"
            )
            for k, instr in enumerate(b.instructions)
        }
        self.lines_a = _lines(a, self.labels_a)
        self.lines_b = _lines(b, self.labels_b)
        paired = sorted(pairs.items())
        i = j = 0
        for pa, pb in paired + [(len(a.instructions), len(b.instructions))]:
            while i < pa:
                self.rows.append((REMOVED, i, None))
                i += 1
            while j < pb:
                self.rows.append((ADDED, None, j))
                j += 1
            if pa == len(a.instructions) and pb == len(b.instructions):
                break
            if self.lines_a[pa] == self.lines_b[pb]:
                self.rows.append((EQUAL, pa, pb))
            elif self._similar(a.instructions[pa], b.instructions[pb]):
                self.rows.append((CHANGED, pa, pb))
            else:
                self.rows.append((REMOVED, pa, None))
                self.rows.append((ADDED, None, pb))
            i, j = pa + 1, pb + 1
        self.differences = [k for k, row in enumerate(self.rows) if row[0] != EQUAL]

    @staticmethod
    def _similar(ia: Instruction, ib: Instruction) -> bool:
        """Whether two instructions of the same units are one changed instruction rather
        than one removed and one added: some unit is the same in both."""
        fields_b = {f.name: f for f in ib.fields}
        return any(f.name in fields_b and _same_field(f, fields_b[f.name]) for f in ia.fields)

    @staticmethod
    def _changed_pairs(keys_a: list[str], keys_b: list[str], op) -> list[tuple[int, int]]:
        """Instructions of a replaced run that pair as changed: the same units in the same
        order of runs, most alike first."""
        run_a, run_b = range(op.a1, op.a2), range(op.b1, op.b2)
        shape_a = [_shape(keys_a[i]) for i in run_a]
        shape_b = [_shape(keys_b[j]) for j in run_b]
        matcher = SequenceMatcher(None, shape_a, shape_b, autojunk=False)
        return [
            (run_a[block.a + k], run_b[block.b + k])
            for block in matcher.get_matching_blocks()
            for k in range(block.size)
        ]

    @property
    def same(self) -> bool:
        return not self.differences

    def next_difference(self, k: int) -> int | None:
        return next((d for d in self.differences if d > k), None)

    def previous_difference(self, k: int) -> int | None:
        return next((d for d in reversed(self.differences) if d < k), None)

    def changed_units(self, k: int) -> list[str]:
        """For a changed row: the units whose fields differ (present on one side only, or
        other bits), and `control` when the control word's own bits differ."""
        kind, i, j = self.rows[k]
        if kind != CHANGED:
            return []
        ia, ib = self.a.instructions[i], self.b.instructions[j]  # type: ignore[index]
        fields_a = {f.name: f for f in ia.fields}
        fields_b = {f.name: f for f in ib.fields}
        out = []
        for name in dict.fromkeys([*fields_a, *fields_b]):
            fa, fb = fields_a.get(name), fields_b.get(name)
            if fa is None or fb is None:
                out.append(field_unit(fa or fb))  # type: ignore[arg-type]
            elif not _same_field(fa, fb):
                out.append(field_unit(fa))
        for name in ("stop", "sync"):
            if ia.control_value(name) != ib.control_value(name):
                out.append("control")
                break
        if not out:
            # The bits are the same but for where a branch jumps: it jumps elsewhere.
            out = ["branch" if "branch" in fields_a else "control"]
        return list(dict.fromkeys(out))


def _same_field(fa, fb) -> bool:
    """The same bits, a branch's target and the count it expects there aside (the
    lines compare where branches jump)."""
    if fa.layout == "branch" and fb.layout == "branch":
        linked = {"target": 0, "next_count": 0}
        return {**fa.values(), **linked} == {**fb.values(), **linked}
    return fa.layout == fb.layout and fa.raw == fb.raw


def _shape(line: str) -> tuple[str, ...]:
    """The ops of a line (its units), without their operands."""
    return tuple(item.split()[0] if item.split() else item for item in line.split(", "))


def compare_programs(a: LimaProgram, b: LimaProgram) -> LimaDiff:
    """Compare two decoded programs."""
    return LimaDiff(a, b)


def lima_unified(diff: LimaDiff, name_a: str, name_b: str, context: int = 3) -> Iterator[str]:
    """A unified diff of the two programs' lines in the proposed syntax; line numbers are
    instruction numbers (from 1)."""
    if diff.same:
        return
    yield f"--- {name_a}"
    yield f"+++ {name_b}"
    rows = diff.rows
    hunks: list[list[int]] = []
    for k in diff.differences:
        first, last = max(0, k - context), min(len(rows), k + context + 1)
        if hunks and first <= hunks[-1][1]:
            hunks[-1][1] = max(hunks[-1][1], last)
        else:
            hunks.append([first, last])
    for first, last in hunks:
        a_rows = [rows[k][1] for k in range(first, last) if rows[k][1] is not None]
        b_rows = [rows[k][2] for k in range(first, last) if rows[k][2] is not None]
        a_start = (a_rows[0] if a_rows else _before(rows, first, 1)) + 1
        b_start = (b_rows[0] if b_rows else _before(rows, first, 2)) + 1
        yield f"@@ -{a_start},{len(a_rows)} +{b_start},{len(b_rows)} @@"
        for k in range(first, last):
            kind, i, j = rows[k]
            if kind == EQUAL:
                yield " " + diff.lines_a[i]  # type: ignore[index]
            elif kind == REMOVED:
                yield "-" + diff.lines_a[i]  # type: ignore[index]
            elif kind == ADDED:
                yield "+" + diff.lines_b[j]  # type: ignore[index]
            else:
                yield "-" + diff.lines_a[i]  # type: ignore[index]
                yield "+" + diff.lines_b[j] + "    # changed: " + ", ".join(diff.changed_units(k))  # type: ignore[index]


def _before(rows, row: int, side: int) -> int:
    for k in range(row - 1, -1, -1):
        if rows[k][side] is not None:
            return rows[k][side]
    return -1


def lima_summary_lines(diff: LimaDiff) -> list[str]:
    """Rows added/removed/changed, then each figure for A and B: instructions, words,
    temporary loads and stores, and the use of each unit."""
    kinds = Counter(kind for kind, _, _ in diff.rows)
    ca, cb = program_counts(diff.a), program_counts(diff.b)
    lines = [
        f"instructions: {kinds[ADDED]} added, {kinds[REMOVED]} removed, {kinds[CHANGED]} changed",
        f"{'':<22}{'A':>8}{'B':>8}{'B-A':>8}",
    ]

    def row(title: str, x: int, y: int) -> str:
        return f"{title:<22}{x:>8}{y:>8}{y - x:>+8}"

    lines.append(row("instructions", ca.instructions, cb.instructions))
    lines.append(row("words", ca.words, cb.words))
    lines.append(row("temporary loads", ca.temp_loads, cb.temp_loads))
    lines.append(row("temporary stores", ca.temp_stores, cb.temp_stores))
    for unit in sorted(set(ca.units) | set(cb.units)):
        lines.append(row(f"unit {unit}", ca.units[unit], cb.units[unit]))
    return lines
