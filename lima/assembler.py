"""Text in the proposed syntax -> PP instruction words.

One instruction per line (a trailing comma continues it on the next line), labels as
`name:` lines, `#` comments. Ops must follow control-word bit order. `count`,
`next_count` and `prefetch` are computed unless written; `{name=value}` sets a range the
syntax does not otherwise reach. Numbers are read by `lima.numbers` (ASCII decimal or 0x
hex, no leading zeros). Never raises: problems come back as diagnostics.

Linear in the text: fields are packed as their ops are read, and `lima.asm_words` writes
each instruction once the next is read; branches wait for the end, where the labels and
the counts of their targets are known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import islice

from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.lima.asm_words import Branch, ParsedInstruction, WordWriter, pack_field
from spvinspect.lima.fields import CONTROL, FieldSpec
from spvinspect.lima.mesa_input import looks_like_mesa, mesa_column, mesa_to_seed
from spvinspect.lima.seed_ops import DestinationLast, op_field, parse_op, parse_override
from spvinspect.lima.syntax import AsmError, Token, parse_int
from spvinspect.codec.plural import counted

_CONTROL_KEYWORDS = {"count": 0, "stop": 5, "sync": 6, "next_count": 19, "prefetch": 25}
"""Control items and the control-word bit they sit at, which orders them."""
_TOKEN = re.compile(r"[^\s,]+|,")
"""A word of an instruction, or the comma between ops."""
_FIELDS_BIT = CONTROL.range("fields").first_bit
_PADDING_POSITION = 32
MAX_INSTRUCTION_WORDS = 4096
"""Words (ops, operands, commas) one instruction may have: far more than its twelve fields
and control items can use, few enough to bound what a runaway continuation holds."""
MAX_ERRORS = 1000
"""Errors after which the assembler stops reading: past that, more only cost time and memory."""
_SHOWN_LINE = 200
"""Longest corrected line quoted in full in a message."""
_PADDING_BITS = 32 * (CONTROL.range("count").mask - 1)
"""The most padding an instruction can hold: every word after the control word of the
longest count; `WordWriter` checks what the instruction at hand leaves."""


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
        self.text = text
        self.diagnostics: list[Diagnostic] = []
        self.errors = 0
        self.labels: dict[str, tuple[int, Token, int]] = {}
        """Label -> (word offset of the instruction after it, its token, its line)."""
        self.fixes: dict[int, tuple[str, list[_Fix]]] = {}
        """Line -> (its text, the misordered ops in it)."""
        self.misordered = 0
        self.lines: dict[int, str] = {}
        """Text of the lines of the instruction being read."""
        self.writer = WordWriter(self.error)

    def error(self, line: int, column: int | None, message: str, severity=Severity.ERROR) -> None:
        self.diagnostics.append(Diagnostic(message, severity, line=line, column=column or 1))
        self.errors += severity is Severity.ERROR

    def run(self) -> list[int] | None:
        for line, items in self._logical_lines():
            self.writer.add(self._instruction(line, items))
            if self.errors or self.fixes:
                self.writer.stop_writing()
            if self._too_many():
                self.error(line, 1, f"stopped after {self.errors + self.misordered} errors; what follows is not read")
                break
        self._report_fixes()
        words = self.writer.finish(self._resolve)
        return None if self.errors else words

    def _too_many(self) -> bool:
        return self.errors + self.misordered >= MAX_ERRORS

    def _logical_lines(self):
        """(first line, items) of each instruction; labels are taken on the way."""
        pending: list[tuple[int, list[Token]]] = []
        held = 0
        for number, text in enumerate(_source_lines(self.text), start=1):
            if not pending:
                self.lines.clear()
                held = 0
            code = text.partition("#")[0]
            room = MAX_INSTRUCTION_WORDS - held
            found = _TOKEN.finditer(code) if len(code) <= room else islice(_TOKEN.finditer(code), room + 1)
            tokens = [Token(m.group(), m.start() + 1) for m in found]
            if not tokens:
                continue
            if not pending and len(tokens) == 1 and tokens[0].text.endswith(":"):
                self._label(number, tokens[0])
                continue
            if len(tokens) > room:
                if room:
                    self.error(number, tokens[room].column, f"an instruction has more than {MAX_INSTRUCTION_WORDS}"
                               " words (ops, operands and commas); the rest of it is not read")
                tokens = tokens[:room]
            if tokens:
                pending.append((number, tokens))
                self.lines[number] = text
                held += len(tokens)
            continued = tokens[-1].text == "," if tokens and len(tokens) < room else code.rstrip().endswith(",")
            if not continued:
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
                if token.text == "," and self._too_many():
                    return items
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
            self.labels[name] = (self.writer.total, token, line)

    def _instruction(self, line: int, items: list[tuple[int, list[Token]]]) -> ParsedInstruction:
        instruction = ParsedInstruction(line)
        previous: _Item | None = None
        for item_line, tokens in items:
            if self._too_many():
                break
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
        return instruction

    def _item(self, instruction: ParsedInstruction, line: int, tokens: list[Token]) -> _Item | None:
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
                instruction.fields.append((parsed.field, Branch.of(parsed, applied)))
                instruction.has_branch = True
            else:
                instruction.fields.append((parsed.field, pack_field(parsed, applied, line, self.error)))
        return _Item(_FIELDS_BIT + parsed.field.index, head, parsed.field)

    def _unparsed_item(self, head: Token) -> _Item | None:
        spec = op_field(head.text)
        if spec is None:
            return None
        return _Item(_FIELDS_BIT + spec.index, head, spec)

    def _control_item(self, instruction: ParsedInstruction, head: Token, rest: list[Token]) -> _Item:
        bit_range = CONTROL.range(head.text)
        if head.text in ("stop", "sync"):
            if rest:
                raise rest[0].fail(f"{head.text} takes no operands, found {rest[0].text!r}")
            value = 1
        else:
            if len(rest) != 1:
                raise head.fail(f"{head.text} takes one number, found {counted(len(rest), 'operand')}")
            value = parse_int(rest[0], f"a {head.text} value", bit_range.width)
        instruction.control[head.text] = value
        last = bit_range.first_bit + bit_range.width - 1
        where = f"control bit {last}" if bit_range.width == 1 else f"control bits {bit_range.first_bit}-{last}"
        return _Item(_CONTROL_KEYWORDS[head.text], head, f"{head.text} ({where})")

    def _control_override(self, instruction: ParsedInstruction, tokens: list[Token]) -> _Item:
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
        self.fixes.setdefault(line, (self.lines[line], []))[1].append(fix)
        self.misordered += 1

    def _report_fixes(self) -> None:
        """Each misordered op's error shows the corrected line, or the corrected op alone
        when the line is long (the line is built once, so many fixes stay linear)."""
        for line, (original, fixes) in self.fixes.items():
            pieces, at = [], 0
            for fix in sorted(fixes, key=lambda f: f.start):
                pieces += [original[at : fix.start], fix.text]
                at = fix.end
            corrected = "".join([*pieces, original[at:]]).strip()
            for fix in fixes:
                shown = f"corrected line: {corrected}" if len(corrected) <= _SHOWN_LINE else f"corrected op: {fix.op} {fix.text}"
                self.error(line, fix.column, f"{fix.message}; {shown}")

    def _resolve(self, label: Token, line: int) -> int | None:
        if label.text not in self.labels:
            self.error(line, label.column, f"undefined label {label.text!r}")
            return None
        return self.labels[label.text][0]


def _source_lines(text: str):
    """The lines as editors count them: only `\\n` ends one (`\\r` is blank space). One at a
    time, so that a long text is not held twice."""
    start = 0
    while (end := text.find("\n", start)) >= 0:
        yield text[start:end]
        start = end + 1
    yield text[start:]


STYLES = ("seed", "mesa", "auto")
"""What `assemble` reads: the proposed syntax, Mesa's disassembly, or whichever the text is."""


def assemble(text: str, style: str = "seed") -> tuple[list[int] | None, list[Diagnostic]]:
    """Words for `text`, or None with the diagnostics (line:column) that say why.

    `style` is `seed` (the proposed syntax), `mesa` (what Mesa's disassembler prints), or
    `auto`: the one the text assembles in; when it assembles in both (to different words,
    as `store.t 3 $1` does: Mesa's compiler sets bits the text does not show), or in
    neither, the style it looks written in: Mesa's when it has a spelling only Mesa's
    disassembly uses (`looks_like_mesa`), else the seed syntax."""
    if style == "seed":
        return _assemble_seed(text)
    if style == "mesa":
        return _assemble_mesa(text)
    if style != "auto":
        raise ValueError(f"no assembler style {style!r}; expected one of {', '.join(STYLES)}")
    seed = _assemble_seed(text)
    mesa_like = looks_like_mesa(text)
    if seed[0] is not None and not mesa_like:
        return seed
    mesa = _assemble_mesa(text)
    if (seed[0] is None) != (mesa[0] is None):
        return seed if seed[0] is not None else mesa
    return mesa if mesa_like else seed


def _assemble_seed(text: str) -> tuple[list[int] | None, list[Diagnostic]]:
    assembler = _Assembler(text)
    words = assembler.run()
    return words, sorted(assembler.diagnostics, key=lambda d: (d.line or 0, d.column or 0))


def _assemble_mesa(text: str) -> tuple[list[int] | None, list[Diagnostic]]:
    seed, problems, columns = mesa_to_seed(text)
    words, diagnostics = _assemble_seed(seed)
    for d in diagnostics:
        mapping = columns.get(d.line or 0)
        column = mesa_column(mapping, d.column or 1) if mapping else d.column
        problems.append(Diagnostic(d.message, d.severity, line=d.line, column=column))
    if any(p.severity is Severity.ERROR for p in problems):
        words = None
    return words, sorted(problems, key=lambda d: (d.line or 0, d.column or 0))
