"""Text in the proposed syntax -> PP instruction words.

One instruction per line (a trailing comma continues it on the next line), labels as
`name:` lines, `#` comments. Ops must follow control-word bit order. `count`,
`next_count` and `prefetch` are computed unless written; `{name=value}` sets a range the
syntax does not otherwise reach. Numbers are read by `lima.numbers` (ASCII decimal or 0x
hex, no leading zeros). Never raises: problems come back as diagnostics.

Linear in the text: fields are packed as their ops are read, except branches, which wait
for the word offsets (one running sum) to resolve labels and the target's count.
"""

from __future__ import annotations

import gc
import re
from dataclasses import dataclass, field
from itertools import accumulate

from codec.diagnostics import Diagnostic, Severity, has_errors
from lima.decoder import fields_size, words_needed
from lima.encoder import pack_bits, split_words
from lima.fields import CONTROL, FieldSpec
from lima.seed_ops import DestinationLast, ParsedOp, op_field, parse_op, parse_override
from lima.syntax import AsmError, Token, parse_int

_CONTROL_KEYWORDS = {"count": 0, "stop": 5, "sync": 6, "next_count": 19, "prefetch": 25}
"""Control items and the control-word bit they sit at, which orders them."""
_TOKEN = re.compile(r"[^\s,]+|,")
"""A word of an instruction, or the comma between ops."""
_FIELDS_BIT = CONTROL.range("fields").first_bit
_PADDING_POSITION = 32
_SHOWN_LINE = 200
"""Longest corrected line quoted in full in a message."""
_PADDING_BITS = 32 * (CONTROL.range("count").mask - 1)
"""The most padding an instruction can hold: every word after the control word of the
longest count; `_encode` checks what the instruction at hand leaves."""


@dataclass(slots=True)
class _Item:
    """One op or control item, placed where its control-word bit orders it."""

    position: int
    token: Token
    what: str | FieldSpec
    """What to call it in a message: the text itself, or the field an op fills."""
    line: int = 0

    @property
    def label(self) -> str:
        """`mov.v0 (vec4_mul, field 3)`, `stop (control bit 5)`…"""
        if isinstance(self.what, str):
            return self.what
        return f"{self.token.text} ({self.what.name}, field {self.what.index})"


_Overrides = list[tuple[Token, str, int]]
"""`{name=value}` items of one op: the token, the range name and its value."""


@dataclass(slots=True)
class _Branch:
    """A branch op, packed last: its target and next_count need every instruction's offset."""

    parsed: ParsedOp
    applied: _Overrides


@dataclass(slots=True)
class _Instruction:
    """One instruction as parsed: its fields already packed, except branches."""

    line: int
    fields: list[tuple[FieldSpec, int | _Branch]] = field(default_factory=list)
    control: dict[str, int] = field(default_factory=dict)
    padding: tuple[Token, int] | None = None
    presence: int = 0

    @property
    def count(self) -> int:
        """The count written, or the one the fields need."""
        return self.control.get("count", words_needed(self.presence))


@dataclass
class _Fix:
    """Operands of one op to write in another order: columns, the new text, the message."""

    start: int
    end: int
    text: str
    message: str
    column: int
    op: str


class _Assembler:
    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        """Lines as editors count them: only `\\n` ends one (`\\r` is blank space)."""
        self.diagnostics: list[Diagnostic] = []
        self.instructions: list[_Instruction] = []
        self.labels: dict[str, tuple[int, Token, int]] = {}
        self.fixes: dict[int, list[_Fix]] = {}
        self.offsets: list[int] = []
        """Word offset of each instruction, then the total; filled by `_encode`."""

    def error(self, line: int, column: int | None, message: str, severity=Severity.ERROR) -> None:
        self.diagnostics.append(Diagnostic(message, severity, line=line, column=column or 1))

    def run(self) -> list[int] | None:
        for line, items in self._logical_lines():
            self._instruction(line, items)
        self._report_fixes()
        if has_errors(self.diagnostics):
            return None
        words = self._encode()
        return None if has_errors(self.diagnostics) else words

    def _logical_lines(self):
        pending: list[tuple[int, list[Token]]] = []
        for number, text in enumerate(self.lines, start=1):
            text = text.split("#", 1)[0]
            tokens = [Token(m.group(), m.start() + 1) for m in _TOKEN.finditer(text)]
            if not tokens:
                continue
            if not pending and len(tokens) == 1 and tokens[0].text.endswith(":"):
                self._label(number, tokens[0])
                continue
            pending.append((number, tokens))
            if tokens[-1].text != ",":
                yield pending[0][0], self._items(pending)
                pending = []
        if pending:
            line, tokens = pending[-1]
            self.error(line, tokens[-1].column, "the last instruction ends with a comma: expected another op after it")
            yield pending[0][0], self._items(pending)

    def _items(self, lines: list[tuple[int, list[Token]]]) -> list[tuple[int, list[Token]]]:
        items: list[tuple[int, list[Token]]] = []
        for number, tokens in lines:
            current: list[Token] = []
            for token in tokens:
                if token.text == ",":
                    if not current:
                        self.error(number, token.column, "expected an op before this comma, found nothing")
                    else:
                        items.append((number, current))
                    current = []
                else:
                    current.append(token)
            if current:
                items.append((number, current))
        return items

    def _label(self, line: int, token: Token) -> None:
        name = token.text[:-1]
        if not re.fullmatch(r"[A-Za-z_.][\w.]*", name):
            self.error(line, token.column, f"expected a label name (letters, digits, _ and .), found {name!r}")
        elif name in self.labels:
            first = self.labels[name][2]
            self.error(line, token.column, f"label {name!r} is already defined on line {first}")
        else:
            self.labels[name] = (len(self.instructions), token, line)

    def _instruction(self, line: int, items: list[tuple[int, list[Token]]]) -> None:
        instruction = _Instruction(line)
        previous: _Item | None = None
        for item_line, tokens in items:
            try:
                item = self._item(instruction, item_line, tokens)
            except AsmError as problem:
                if isinstance(problem, DestinationLast):
                    self._remember_fix(item_line, tokens, problem)
                else:
                    self.error(item_line, problem.column, problem.message)
                item = self._unparsed_item(tokens[0])
            if item is None:
                continue
            item.line = item_line
            if previous is not None and item.position <= previous.position:
                if item.position == previous.position:
                    self.error(item_line, item.token.column, f"{item.label} appears twice in one instruction")
                else:
                    message = f"{previous.label} must come after {item.label}"
                    self.error(previous.line, previous.token.column, message)
            previous = item
        self.instructions.append(instruction)

    def _item(self, instruction: _Instruction, line: int, tokens: list[Token]) -> _Item | None:
        head, *rest = tokens
        if head.text == "nop":
            if rest:
                raise rest[0].fail(f"nop takes no operands, found {rest[0].text!r}")
            return None
        if head.text.startswith("{"):
            return self._control_override(instruction, tokens)
        if head.text in _CONTROL_KEYWORDS:
            return self._control_item(instruction, head, rest)
        overrides = [t for t in rest if t.text.startswith("{")]
        operands = [t for t in rest if not t.text.startswith("{")] if overrides else rest
        if overrides and rest[-len(overrides) :] != overrides:
            raise overrides[0].fail("{name=value} goes after the operands")
        parsed = parse_op(head, operands)
        applied = []
        if overrides:
            widths = {r.name: r.width for r in parsed.field.layout(parsed.layout).ranges}
            applied = [(token, *parse_override(token, widths)) for token in overrides]
        if not instruction.presence & (1 << parsed.field.index):
            instruction.presence |= 1 << parsed.field.index
            if parsed.layout == "branch":
                instruction.fields.append((parsed.field, _Branch(parsed, applied)))
            else:
                instruction.fields.append((parsed.field, self._pack(line, parsed, parsed.values, applied)))
        return _Item(_FIELDS_BIT + parsed.field.index, head, parsed.field)

    def _unparsed_item(self, head: Token) -> _Item | None:
        spec = op_field(head.text)
        if spec is None:
            return None
        return _Item(_FIELDS_BIT + spec.index, head, spec)

    def _control_item(self, instruction: _Instruction, head: Token, rest: list[Token]) -> _Item:
        bit_range = CONTROL.range(head.text)
        if head.text in ("stop", "sync"):
            if rest:
                raise rest[0].fail(f"{head.text} takes no operands, found {rest[0].text!r}")
            value = 1
        else:
            if len(rest) != 1:
                raise head.fail(f"{head.text} takes one number, found {len(rest)} operands")
            value = parse_int(rest[0], f"a {head.text} value", bit_range.width)
        instruction.control[head.text] = value
        last = bit_range.first_bit + bit_range.width - 1
        where = f"control bit {last}" if bit_range.width == 1 else f"control bits {bit_range.first_bit}-{last}"
        return _Item(_CONTROL_KEYWORDS[head.text], head, f"{head.text} ({where})")

    def _control_override(self, instruction: _Instruction, tokens: list[Token]) -> _Item:
        if len(tokens) != 1:
            raise tokens[1].fail(f"expected a comma after {tokens[0].text}, found {tokens[1].text!r}")
        token = tokens[0]
        if token.text.startswith("{padding="):
            _, value = parse_override(token, {"padding": _PADDING_BITS})
            instruction.padding = (token, value)
            return _Item(_PADDING_POSITION, token, "{padding=…}")
        unknown = {r.name: r.width for r in CONTROL.ranges if r.kind == "unknown"}
        name, value = parse_override(token, unknown)
        instruction.control[name] = value
        return _Item(CONTROL.range(name).first_bit, token, f"{{{name}=…}} (control bits)")

    def _remember_fix(self, line: int, tokens: list[Token], problem: DestinationLast) -> None:
        operands = tokens[1 : 1 + len(problem.reordered)]
        start = operands[0].column - 1
        end = operands[-1].column - 1 + len(operands[-1].text)
        text = " ".join(t.text for t in problem.reordered)
        fix = _Fix(start, end, text, problem.message, problem.column, tokens[0].text)
        self.fixes.setdefault(line, []).append(fix)

    def _report_fixes(self) -> None:
        """Each misordered op's error shows the corrected line, or the corrected op alone
        when the line is long (the line is built once, so many fixes stay linear)."""
        for line, fixes in self.fixes.items():
            original = self.lines[line - 1]
            pieces, at = [], 0
            for fix in sorted(fixes, key=lambda f: f.start):
                pieces += [original[at : fix.start], fix.text]
                at = fix.end
            corrected = "".join([*pieces, original[at:]]).strip()
            for fix in fixes:
                shown = f"corrected line: {corrected}" if len(corrected) <= _SHOWN_LINE else f"corrected op: {fix.op} {fix.text}"
                self.error(line, fix.column, f"{fix.message}; {shown}")

    def _encode(self) -> list[int]:
        counts = [inst.count for inst in self.instructions]
        self.offsets = list(accumulate(counts, initial=0))
        starts = dict(zip(self.offsets, counts))
        words: list[int] = []
        for i, inst in enumerate(self.instructions):
            has_next = i + 1 < len(self.instructions)
            control = {
                "count": counts[i],
                "fields": inst.presence,
                "next_count": counts[i + 1] if has_next else 0,
                "prefetch": int(has_next),
                **inst.control,
            }
            fields = [
                (spec, raw if isinstance(raw, int) else self._branch(inst.line, raw, self.offsets[i], starts))
                for spec, raw in sorted(inst.fields, key=lambda item: item[0].index)
            ]
            padding = inst.padding[1] if inst.padding else 0
            value = pack_bits(CONTROL.pack(control), fields, padding)
            if self._fits(inst, counts[i], value, padding):
                words.extend(split_words(value, counts[i]))
        return words

    def _fits(self, inst: _Instruction, count: int, value: int, padding: int) -> bool:
        """False (with an error) when the bits reach past `count` words.

        A count below what the fields need is kept when the bits it cuts off are zero:
        that is how the decoder reads such an instruction, so its text assembles back.
        """
        if count == 0:
            self.error(inst.line, 1, "count 0 leaves no room for the control word (the least is 1)")
            return False
        needed = words_needed(inst.presence)
        room = 32 * (count - 1) - fields_size(inst.presence)
        if inst.padding and padding >> max(room, 0):
            token = inst.padding[0]
            self.error(inst.line, token.column, f"padding 0x{padding:x} does not fit in the {max(room, 0)} padding bits")
            return False
        if needed <= count:
            return True
        excess = value >> (32 * count)
        if excess:
            first = 32 * count + (excess & -excess).bit_length() - 1
            self.error(inst.line, 1, f"count {count} is too small: the fields need {needed} words and bit"
                       f" {first} of the instruction is set, past its last word (word {count - 1})")
            return False
        self.error(inst.line, 1, f"count {count} cuts the fields short (they need {needed} words);"
                   " the bits left out are zero", Severity.WARNING)
        return True

    def _branch(self, line: int, branch: _Branch, offset: int, starts: dict[int, int]) -> int:
        values = dict(branch.parsed.values)
        if branch.parsed.label is not None:
            target = self._resolve(line, branch.parsed.label)
            if target is not None:
                values["target"] = target - offset
        values["next_count"] = branch_next_count(offset + values["target"], starts)
        return self._pack(line, branch.parsed, values, branch.applied)

    def _pack(self, line: int, parsed: ParsedOp, values: dict[str, int], applied: _Overrides) -> int:
        """The field's raw bits from `values` and the overrides, which win."""
        for _token, name, value in applied:
            values[name] = value
        raw = parsed.field.layout(parsed.layout).pack(values)
        chosen = parsed.field.choose(raw)
        if chosen != parsed.layout:
            self.error(line, applied[-1][0].column if applied else 1,
                       f"these bits read as the {chosen} layout of {parsed.field.name}, not {parsed.layout}",
                       Severity.WARNING)
        return raw

    def _resolve(self, line: int, label: Token) -> int | None:
        if label.text not in self.labels:
            self.error(line, label.column, f"undefined label {label.text!r}")
            return None
        return self.offsets[self.labels[label.text][0]]


def branch_next_count(target: int, starts: dict[int, int]) -> int:
    """The `next_count` a branch gets by default: the count of the instruction it jumps to."""
    return starts.get(target, 0)


def assemble(text: str) -> tuple[list[int] | None, list[Diagnostic]]:
    """Words for `text`, or None with the diagnostics (line:column) that say why.

    The cyclic garbage collector is paused meanwhile, as `codec.binary.decode` does: the
    records of a long text form no cycles, and the collector's passes over them would
    cost more than the parse (a third of the time at a million lines).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        assembler = _Assembler(text)
        words = assembler.run()
    finally:
        if collecting:
            gc.enable()
    return words, sorted(assembler.diagnostics, key=lambda d: (d.line or 0, d.column or 0))

