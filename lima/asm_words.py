"""Parsed instructions -> words, as they come: the assembler's second half.

An instruction is written as soon as the next one is parsed (its control word holds the
next instruction's count); an instruction with a branch waits for the end, where labels
and the target's count are known, in a slot of zero words reserved for it. So memory is
the words plus the branches, whatever the length of the text.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field

from spvinspect.codec.diagnostics import Severity
from spvinspect.lima.decoder import words_needed
from spvinspect.lima.encoder import pack_bits, split_words
from spvinspect.lima.fields import CONTROL, FieldSpec
from spvinspect.lima.model import fields_size
from spvinspect.lima.seed_ops import ParsedOp, field_by_name
from spvinspect.lima.syntax import Token

Overrides = list[tuple[Token, str, int]]
"""`{name=value}` items of one op: the token, the range name and its value."""
Report = Callable[..., None]
"""`report(line, column, message, severity=ERROR)`: how problems reach the assembler."""


_BRANCH_FIELD = field_by_name("branch")
_TARGET = _BRANCH_FIELD.layout("branch").range("target")
_NEXT_COUNT = _BRANCH_FIELD.layout("branch").range("next_count")


@dataclass(slots=True)
class Branch:
    """A branch field, packed but for what needs later instructions: the target of a label
    and the next_count (the count of the target), unless the text overrides them."""

    raw: int
    label: Token | None
    target: int
    """The relative target written as a number; 0 for a label."""
    keeps_target: bool
    keeps_next_count: bool
    column: int
    """Where a warning about the finished bits points."""

    @classmethod
    def of(cls, parsed: ParsedOp, applied: Overrides) -> Branch:
        """The branch op `parsed`, with its overrides."""
        overridden = {name for _token, name, _value in applied}
        raw = pack_values(parsed, parsed.values, applied)
        column = applied[-1][0].column if applied else 1
        return cls(raw, parsed.label, parsed.values["target"], "target" in overridden, "next_count" in overridden, column)


@dataclass(slots=True)
class ParsedInstruction:
    """One instruction as parsed: its fields already packed, except branches."""

    line: int
    fields: list[tuple[FieldSpec, int | Branch]] = field(default_factory=list)
    control: dict[str, int] = field(default_factory=dict)
    padding: tuple[Token, int] | None = None
    presence: int = 0
    has_branch: bool = False
    """True when a field is a `Branch`, which waits for the end to be packed."""
    offset: int = 0
    """Word offset in the program, set when the instruction is added."""
    count: int = 0
    """The count written, or the one the fields need; set when the instruction is added."""


def pack_values(parsed: ParsedOp, values: dict[str, int], applied: Overrides) -> int:
    """The field's raw bits from `values` and the overrides, which win."""
    for _token, name, value in applied:
        values[name] = value
    return parsed.field.layout(parsed.layout).pack(values)


def check_layout(spec: FieldSpec, layout: str, raw: int, line: int, column: int, report: Report) -> None:
    """A warning when the bits would read back through another layout than the one written."""
    if len(spec.layouts) == 1:
        return
    chosen = spec.choose(raw)
    if chosen != layout:
        report(line, column, f"these bits read as the {chosen} layout of {spec.name}, not {layout}", Severity.WARNING)


def pack_field(parsed: ParsedOp, applied: Overrides, line: int, report: Report) -> int:
    """`pack_values` of the op's own values, checked with `check_layout`."""
    raw = pack_values(parsed, parsed.values, applied)
    check_layout(parsed.field, parsed.layout, raw, line, applied[-1][0].column if applied else 1, report)
    return raw


def branch_next_count(target: int, starts) -> int:
    """The `next_count` a branch gets by default: the count of the instruction it jumps to
    (`starts` maps instruction offsets to counts)."""
    return starts.get(target, 0)


_COMPUTED_CONTROL = tuple(CONTROL.range(name) for name in ("count", "fields", "next_count", "prefetch"))


def _control_word(instruction: ParsedInstruction, following: ParsedInstruction | None) -> int:
    """The control word: count, presence bits, the next instruction's count and prefetch,
    then what the text writes itself, which wins."""
    computed = (instruction.count, instruction.presence, following.count if following else 0, int(following is not None))
    if instruction.control:
        return CONTROL.pack({**{r.name: value for r, value in zip(_COMPUTED_CONTROL, computed)}, **instruction.control})
    word = 0
    for bit_range, value in zip(_COMPUTED_CONTROL, computed):
        word |= (value & bit_range.mask) << bit_range.first_bit
    return word


def _field_index(item: tuple[FieldSpec, int | Branch]) -> int:
    return item[0].index


class _Starts:
    """Offset -> count of every instruction, in two flat arrays (offsets increase)."""

    def __init__(self) -> None:
        self.offsets = array("Q")
        self.counts = array("B")

    def add(self, offset: int, count: int) -> None:
        self.offsets.append(offset)
        self.counts.append(count)

    def get(self, offset: int, default: int = 0) -> int:
        at = bisect_left(self.offsets, offset)
        return self.counts[at] if at < len(self.offsets) and self.offsets[at] == offset else default


class WordWriter:
    """Collects the words of a program one parsed instruction at a time."""

    def __init__(self, report: Report) -> None:
        self.report = report
        self.words: list[int] = []
        self.total = 0
        """Word offset of the next instruction to come."""
        self.starts = _Starts()
        self.held: ParsedInstruction | None = None
        self.branches: list[tuple[int, ParsedInstruction, int]] = []
        """(where its words go, the instruction, its control word) of each instruction with a branch."""
        self.writing = True

    def add(self, instruction: ParsedInstruction) -> None:
        """Takes the next instruction; writes the one before it."""
        instruction.offset = self.total
        instruction.count = instruction.control.get("count", words_needed(instruction.presence))
        self.starts.add(self.total, instruction.count)
        self.total += instruction.count
        self._write(following=instruction)
        self.held = instruction

    def stop_writing(self) -> None:
        """No words are wanted any more (there are errors): only count the offsets."""
        self.writing = False
        self.words.clear()
        self.branches.clear()

    def finish(self, resolve: Callable[[Token, int], int | None]) -> list[int]:
        """Every word: the last instruction, then the branches, whose labels `resolve` turns
        into word offsets (None when undefined, having said so)."""
        self._write(following=None)
        for at, instruction, control in self.branches if self.writing else ():
            fields = [
                (spec, raw if isinstance(raw, int) else self._branch(instruction, raw, resolve))
                for spec, raw in instruction.fields
            ]
            self._pack(instruction, control, fields, at)
        return self.words

    def _write(self, following: ParsedInstruction | None) -> None:
        """Writes the held instruction, now that the one `following` it is known."""
        instruction, self.held = self.held, None
        if instruction is None or not self.writing:
            return
        control = _control_word(instruction, following)
        if len(instruction.fields) > 1:
            instruction.fields.sort(key=_field_index)
        at = len(self.words)
        if instruction.has_branch:
            self.words.extend([0] * instruction.count)
            self.branches.append((at, instruction, control))
        else:
            self._pack(instruction, control, instruction.fields, None)

    def _pack(self, instruction: ParsedInstruction, control: int, fields, at: int | None) -> None:
        padding = instruction.padding[1] if instruction.padding else 0
        value = pack_bits(control, fields, padding)
        count = instruction.count
        if not self._fits(instruction, count, value, padding):
            return
        words = split_words(value, count)
        if at is None:
            self.words.extend(words)
        else:
            self.words[at : at + len(words)] = words

    def _branch(self, instruction: ParsedInstruction, branch: Branch, resolve) -> int:
        target, raw = branch.target, branch.raw
        if branch.label is not None:
            offset = resolve(branch.label, instruction.line)
            target = 0 if offset is None else offset - instruction.offset
        if not branch.keeps_target:
            raw = _TARGET.insert(raw, target)
        if not branch.keeps_next_count:
            raw = _NEXT_COUNT.insert(raw, branch_next_count(instruction.offset + target, self.starts))
        check_layout(_BRANCH_FIELD, "branch", raw, instruction.line, branch.column, self.report)
        return raw

    def _fits(self, instruction: ParsedInstruction, count: int, value: int, padding: int) -> bool:
        """False (with an error) when the bits reach past `count` words.

        A count below what the fields need is kept when the bits it cuts off are zero:
        that is how the decoder reads such an instruction, so its text assembles back.
        """
        line = instruction.line
        if count == 0:
            self.report(line, 1, "count 0 leaves no room for the control word (the least is 1)")
            return False
        needed = words_needed(instruction.presence)
        room = max(0, 32 * (count - 1) - fields_size(instruction.presence))
        if instruction.padding and padding >> room:
            self.report(line, instruction.padding[0].column, f"padding 0x{padding:x} does not fit in the {room} padding bits")
            return False
        if needed <= count:
            return True
        excess = value >> (32 * count)
        if excess:
            first = 32 * count + (excess & -excess).bit_length() - 1
            self.report(line, 1, f"count {count} is too small: the fields need {needed} words and bit"
                        f" {first} of the instruction is set, past its last word (word {count - 1})")
            return False
        self.report(line, 1, f"count {count} cuts the fields short (they need {needed} words);"
                    " the bits left out are zero", Severity.WARNING)
        return True
