"""Text in the proposed syntax -> PP instruction words.

One instruction per line (a trailing comma continues it on the next line), labels as
`name:` lines, `#` comments. Ops must follow control-word bit order. `count`,
`next_count` and `prefetch` are computed unless written; `{name=value}` sets a range the
syntax does not otherwise reach. Never raises: problems come back as diagnostics.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from codec.diagnostics import Diagnostic, Severity, has_errors
from lima.decoder import fields_size, words_needed
from lima.encoder import pack_instruction, pack_ranges
from lima.fields import CONTROL, FieldSpec
from lima.seed_ops import DestinationLast, ParsedOp, op_field, parse_op, parse_override
from lima.syntax import AsmError, Token, parse_int

_CONTROL_KEYWORDS = {"count": 0, "stop": 5, "sync": 6, "next_count": 19, "prefetch": 25}
"""Control items and the control-word bit they sit at, which orders them."""
_PADDING_POSITION = 32


@dataclass
class _Item:
    position: int
    label: str
    token: Token
    line: int = 0


@dataclass
class _Instruction:
    line: int
    ops: list[tuple[ParsedOp, list[tuple[Token, str, int]]]] = field(default_factory=list)
    control: dict[str, int] = field(default_factory=dict)
    padding: tuple[Token, int] | None = None
    presence: int = 0


@dataclass
class _Fix:
    start: int
    end: int
    text: str
    message: str
    column: int


class _Assembler:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.diagnostics: list[Diagnostic] = []
        self.instructions: list[_Instruction] = []
        self.labels: dict[str, tuple[int, Token, int]] = {}
        self.fixes: dict[int, list[_Fix]] = {}

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
            tokens = [Token(m.group(), m.start() + 1) for m in re.finditer(r"[^\s,]+|,", text)]
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
        operands = [t for t in rest if not t.text.startswith("{")]
        if overrides and rest[-len(overrides) :] != overrides:
            raise overrides[0].fail("{name=value} goes after the operands")
        parsed = parse_op(head, operands)
        widths = {r.name: r.width for r in parsed.field.layout(parsed.layout).ranges}
        applied = [(token, *parse_override(token, widths)) for token in overrides]
        if not instruction.presence & (1 << parsed.field.index):
            instruction.presence |= 1 << parsed.field.index
            instruction.ops.append((parsed, applied))
        return _Item(CONTROL.range("fields").first_bit + parsed.field.index, self._describe(head, parsed.field), head)

    def _unparsed_item(self, head: Token) -> _Item | None:
        spec = op_field(head.text)
        if spec is None:
            return None
        return _Item(CONTROL.range("fields").first_bit + spec.index, self._describe(head, spec), head)

    @staticmethod
    def _describe(head: Token, spec: FieldSpec) -> str:
        return f"{head.text} ({spec.name}, field {spec.index})"

    def _control_item(self, instruction: _Instruction, head: Token, rest: list[Token]) -> _Item:
        bit_range = CONTROL.range(head.text)
        if head.text in ("stop", "sync"):
            if rest:
                raise rest[0].fail(f"{head.text} takes no operands, found {rest[0].text!r}")
            value = 1
        else:
            if len(rest) != 1:
                raise head.fail(f"{head.text} takes one number, found {len(rest)} operands")
            value = parse_int(rest[0], f"a {head.text} value")
            if not 0 <= value <= bit_range.mask:
                raise rest[0].fail(f"{head.text} {value} does not fit in {bit_range.width} bits")
        instruction.control[head.text] = value
        last = bit_range.first_bit + bit_range.width - 1
        where = f"control bit {last}" if bit_range.width == 1 else f"control bits {bit_range.first_bit}-{last}"
        return _Item(_CONTROL_KEYWORDS[head.text], f"{head.text} ({where})", head)

    def _control_override(self, instruction: _Instruction, tokens: list[Token]) -> _Item:
        if len(tokens) != 1:
            raise tokens[1].fail(f"expected a comma after {tokens[0].text}, found {tokens[1].text!r}")
        token = tokens[0]
        if token.text.startswith("{padding="):
            _, value = parse_override(token, {"padding": 32 * 19})
            instruction.padding = (token, value)
            return _Item(_PADDING_POSITION, "{padding=…}", token)
        unknown = {r.name: r.width for r in CONTROL.ranges if r.kind == "unknown"}
        name, value = parse_override(token, unknown)
        instruction.control[name] = value
        return _Item(CONTROL.range(name).first_bit, f"{{{name}=…}} (control bits)", token)

    def _remember_fix(self, line: int, tokens: list[Token], problem: DestinationLast) -> None:
        operands = tokens[1 : 1 + len(problem.reordered)]
        start = operands[0].column - 1
        end = operands[-1].column - 1 + len(operands[-1].text)
        text = " ".join(t.text for t in problem.reordered)
        self.fixes.setdefault(line, []).append(_Fix(start, end, text, problem.message, problem.column))

    def _report_fixes(self) -> None:
        for line, fixes in self.fixes.items():
            corrected = self.lines[line - 1]
            for fix in sorted(fixes, key=lambda f: f.start, reverse=True):
                corrected = corrected[: fix.start] + fix.text + corrected[fix.end :]
            for fix in fixes:
                self.error(line, fix.column, f"{fix.message}; corrected line: {corrected.strip()}")

    def _encode(self) -> list[int]:
        counts = [
            inst.control.get("count", words_needed(inst.presence)) for inst in self.instructions
        ]
        offsets = [sum(counts[:i]) for i in range(len(counts))]
        starts = dict(zip(offsets, counts))
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
            if words_needed(inst.presence) > control["count"]:
                self.error(inst.line, 1, f"count {control['count']} is too small: the fields need {words_needed(inst.presence)} words")
                continue
            fields = [self._field_raw(inst, parsed, applied, offsets[i], starts) for parsed, applied in sorted(inst.ops, key=lambda op: op[0].field.index)]
            padding = 0
            if inst.padding:
                token, padding = inst.padding
                room = 32 * (control["count"] - 1) - fields_size(inst.presence)
                if padding >> room:
                    self.error(inst.line, token.column, f"padding 0x{padding:x} does not fit in the {room} padding bits")
            words.extend(pack_instruction(pack_ranges(CONTROL, control), fields, padding, control["count"]))
        return words

    def _field_raw(self, inst: _Instruction, parsed: ParsedOp, applied, offset: int, starts: dict[int, int]) -> tuple[FieldSpec, int]:
        values = dict(parsed.values)
        if parsed.label is not None:
            target = self._resolve(inst.line, parsed.label)
            if target is not None:
                values["target"] = target - offset
        if parsed.field.name == "branch" and parsed.layout == "branch":
            values["next_count"] = branch_next_count(offset + values["target"], starts)
        for _token, name, value in applied:
            values[name] = value
        layout = parsed.field.layout(parsed.layout)
        raw = pack_ranges(layout, values)
        chosen = parsed.field.choose(raw)
        if chosen != parsed.layout:
            self.error(inst.line, applied[-1][0].column if applied else 1,
                       f"these bits read as the {chosen} layout of {parsed.field.name}, not {parsed.layout}",
                       Severity.WARNING)
        return parsed.field, raw

    def _resolve(self, line: int, label: Token) -> int | None:
        if label.text not in self.labels:
            self.error(line, label.column, f"undefined label {label.text!r}")
            return None
        index = self.labels[label.text][0]
        return sum(
            inst.control.get("count", words_needed(inst.presence)) for inst in self.instructions[:index]
        )


def branch_next_count(target: int, starts: dict[int, int]) -> int:
    """The `next_count` a branch gets by default: the count of the instruction it jumps to."""
    return starts.get(target, 0)


def assemble(text: str) -> tuple[list[int] | None, list[Diagnostic]]:
    """Words for `text`, or None with the diagnostics (line:column) that say why."""
    assembler = _Assembler(text)
    words = assembler.run()
    return words, sorted(assembler.diagnostics, key=lambda d: (d.line or 0, d.column or 0))

