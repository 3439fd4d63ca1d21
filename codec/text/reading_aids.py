"""The reading aids of spirv-dis v2025.5 — `--comment`, `--nested-indent` and
`--reorder-blocks` — as a layer over the disassembler's lines.

The result is a list of rows, each the text of one output line and the index of the
instruction it shows (None for comments and blank lines), so that a view can show
these forms and still know the word offset of every instruction; joined, the rows are
byte for byte what spirv-dis prints with the same flags. In lossless form the header
comments and the raw tail of `dis --lossless` stay around them, and without
`--reorder-blocks` the text still assembles to the same bytes.

How spirv-dis builds the text, which this follows:

- With `--comment`, a blank line and a section comment come before the first
  decoration (`; Annotations`), the first debug instruction (`; Debug Information`),
  the first type (`; Types, variables and constants`) and every OpFunction
  (`; Function <name>`, after two blank lines with `--nested-indent`). OpName lines
  end in `; id %N`; a definition's line ends in what OpDecorate said of its id.
- With `--nested-indent` or `--reorder-blocks`, the blocks of a function are held back
  until its OpFunctionEnd and printed in structured order (`codec.text.block_order`),
  or in module order with their nesting. Section comments are printed when their
  instruction is reached, so one raised by an instruction inside a function comes
  before the function's blocks.
- With `--nested-indent`, each OpLabel follows a blank line and is indented two spaces
  per level; the instructions of its block two more.
- Comments after an instruction (its byte offset with `--offsets`, then the id of an
  OpName, then decorations) start in column 52 at least, on a multiple of 4, and never
  left of the previous line's comment column while consecutive lines have comments.

Blocks still held back when the module ends (a function without OpFunctionEnd) are
printed there; spirv-dis would drop them, and it crashes on some inputs this handles
(a function without blocks, a branch to an id that is not a block of the function).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import Instruction, Module
from spvinspect.codec.grammar import Grammar
from spvinspect.codec.text.block_order import BranchOpcodes, block_successors, order_and_nest
from spvinspect.codec.text.listing import INDENT, DisassemblyOptions, Listing, Role

COMMENT_COLUMN = 50
"""Comments start at least here (rounded up to a multiple of 4, so in column 52) …"""
COMMENT_COLUMN_MAX = 256
"""… and a long line does not carry the column of the next lines past this one."""
NEST_INDENT = 2
"""Spaces per nesting level before an OpLabel."""
BODY_INDENT = 2
"""Further spaces before the instructions of a block."""

# spirv-dis decides which instruction opens the types section by a list of its own
# (spvOpcodeGeneratesType), which differs from the grammar's Type-Declaration class by
# these opcodes; named here, resolved through the grammar.
EXTRA_TYPE_OPNAMES = ("OpTypeNodePayloadArrayAMDX", "OpTypeTaskSequenceALTERA")
NOT_TYPE_OPNAMES = ("OpTypeBufferSurfaceINTEL",)

ANNOTATIONS = "Annotations"
DEBUG_INFORMATION = "Debug Information"
TYPES = "Types, variables and constants"


@dataclass(frozen=True, slots=True)
class ReadingAids:
    """Which reading aids to apply; all off gives the plain disassembly."""

    comment: bool = False
    nested_indent: bool = False
    reorder_blocks: bool = False

    @property
    def defers_blocks(self) -> bool:
        """True when a function's blocks are printed only once the whole function is read."""
        return self.nested_indent or self.reorder_blocks


ALL_AIDS = ReadingAids(comment=True, nested_indent=True, reorder_blocks=True)


class Row(NamedTuple):
    """One output line: the index in `module.instructions` of the instruction it
    shows, or None for a comment or blank line."""

    instruction: int | None
    text: str


class SectionOpcodes(NamedTuple):
    """The opcodes that open a commented section or that the layout depends on."""

    label: int
    function: int
    function_end: int
    name: int
    decorate: int
    decorations: frozenset[int]
    debug: frozenset[int]
    types: frozenset[int]

    @classmethod
    def from_grammar(cls, grammar: Grammar) -> SectionOpcodes:
        """Decorations are the grammar's annotations that define no id (OpDecorationGroup
        opens no section); debug instructions are its Debug class."""
        by_name = grammar.by_name
        described = grammar.instructions.values()
        types = {d.opcode for d in described if d.opclass == "Type-Declaration" and d.has_result}
        types |= {by_name[name].opcode for name in EXTRA_TYPE_OPNAMES if name in by_name}
        types -= {by_name[name].opcode for name in NOT_TYPE_OPNAMES if name in by_name}
        return cls(
            label=by_name["OpLabel"].opcode,
            function=by_name["OpFunction"].opcode,
            function_end=by_name["OpFunctionEnd"].opcode,
            name=by_name["OpName"].opcode,
            decorate=by_name["OpDecorate"].opcode,
            decorations=frozenset(
                d.opcode for d in described if d.opclass == "Annotation" and not d.has_result
            ),
            debug=frozenset(d.opcode for d in described if d.opclass == "Debug"),
            types=frozenset(types),
        )


_OPCODES: dict[int, tuple[Grammar, SectionOpcodes, BranchOpcodes]] = {}


def _opcodes(grammar: Grammar) -> tuple[SectionOpcodes, BranchOpcodes]:
    """The opcodes the layout needs, resolved once per grammar."""
    known = _OPCODES.get(id(grammar))
    if known is None or known[0] is not grammar:
        sections, branches = SectionOpcodes.from_grammar(grammar), BranchOpcodes.from_grammar(grammar)
        known = _OPCODES[id(grammar)] = (grammar, sections, branches)
    return known[1], known[2]


class _RowWriter:
    """Writes rows in spirv-dis's output order, holding back a function's blocks."""

    def __init__(self, listing: Listing, aids: ReadingAids, instructions: Sequence[Instruction]) -> None:
        self.listing = listing
        self.aids = aids
        self.instructions = instructions
        self.indent = INDENT if listing.options.indent else 0
        self.offsets = listing.options.offsets
        self.ops, self.branch_ops = _opcodes(listing.grammar)
        self.rows: list[Row] = []
        self.sections_opened: set[str] = set()
        self.id_comments: dict[int, str] = {}
        """What OpDecorate said of each id so far."""
        self.comment_column = 0
        self.blocks: list[list[int]] = []
        """The held-back blocks of the current function: [first, end) instruction indexes."""

    def write(self) -> list[Row]:
        """Every row: header comments, the instructions with the reading aids, and in
        lossless form the raw tail."""
        self.rows.extend(Row(None, line) for line in self.listing.header_lines())
        ops = self.ops
        defer = self.aids.defers_blocks
        blocks = self.blocks
        for index, inst in enumerate(self.instructions):
            if self.aids.comment:
                self.section_comments(inst)
            if not defer:
                self.emit(index)
            elif inst.opcode == ops.label:
                blocks.append([index, index + 1])
            elif inst.opcode == ops.function_end:
                self.emit_blocks()
                self.emit(index)
            elif blocks:
                blocks[-1][1] = index + 1
            else:
                self.emit(index)
        self.emit_blocks()
        self.rows.extend(Row(None, line) for line in self.listing.tail_lines())
        return self.rows

    def section_comments(self, inst: Instruction) -> None:
        """The comments spirv-dis puts before `inst` with `--comment`."""
        ops = self.ops
        opcode = inst.opcode
        if opcode == ops.function:
            blank = [Row(None, "")] * (2 if self.aids.nested_indent else 1)
            name = self.listing.names.name(self.listing.result_id(inst))
            self.rows.extend([*blank, Row(None, f"{' ' * self.indent}; Function {name}")])
        sections = ((ANNOTATIONS, ops.decorations), (DEBUG_INFORMATION, ops.debug), (TYPES, ops.types))
        for title, opcodes in sections:
            if opcode in opcodes and title not in self.sections_opened:
                self.sections_opened.add(title)
                self.rows.extend([Row(None, ""), Row(None, f"{' ' * self.indent}; {title}")])

    def emit_blocks(self) -> None:
        """Print the held-back blocks, in structured or module order, with their levels."""
        blocks = self.blocks
        if not blocks:
            return
        instructions = self.instructions
        spans = [instructions[first:end] for first, end in blocks]
        labels = [self.listing.result_id(span[0]) for span in spans]
        successors = [block_successors(span, self.branch_ops) for span in spans]
        order, levels = order_and_nest(labels, successors)
        for k in order if self.aids.reorder_blocks else range(len(blocks)):
            first, end = blocks[k]
            for index in range(first, end):
                self.emit(index, levels[k])
        blocks.clear()

    def emit(self, index: int, level: int | None = None) -> None:
        """The row of one instruction; `level` is its block's nesting level, None
        outside blocks."""
        inst = self.instructions[index]
        nested = self.aids.nested_indent
        is_label = inst.opcode == self.ops.label
        if nested and is_label:
            self.rows.append(Row(None, ""))
        segments = self.listing.instruction_segments(inst, index == self.listing.sealed)
        texts = [segment.text for segment in segments]
        if nested and level is not None:
            # The nesting goes between `%name = ` (or the indentation) and the opcode.
            opcode_at = next(k for k, segment in enumerate(segments) if segment.role is Role.OPCODE)
            texts.insert(opcode_at, " " * (level * NEST_INDENT + (0 if is_label else BODY_INDENT)))
        line = "".join(texts)
        comments = self.comments(inst)
        if comments:
            width = _byte_width(line)
            column = (max(width + 2, self.comment_column, COMMENT_COLUMN) + 3) // 4 * 4
            self.comment_column = min(column, COMMENT_COLUMN_MAX)
            line = f"{line}{' ' * (column - width)}; {comments}"
        else:
            self.comment_column = 0
        self.rows.append(Row(index, line))

    def comments(self, inst: Instruction) -> str:
        """What follows the instruction after `;`: its byte offset, the id an OpName
        names, what was said of its result id, joined by `, ` (an empty part too)."""
        parts = [f"0x{inst.offset * 4:08x}"] if self.offsets else []
        if not self.aids.comment:
            return ", ".join(parts)
        opcode = inst.opcode
        operands = inst.operands
        if opcode == self.ops.decorate and operands and operands[0].kind[:2] == "Id" and operands[0].value:
            target: int = operands[0].value  # type: ignore[assignment]
            operand_text = self.listing.formatter.operand_text
            said = " ".join(operand_text(o, inst, None) for o in operands[1:])
            before = self.id_comments.get(target)
            self.id_comments[target] = f"{before}, {said}" if before else said
        if opcode == self.ops.name and operands and operands[0].kind[:2] == "Id":
            parts.append(f"id %{operands[0].value}")
        result = self.listing.result_id(inst)
        if result and result in self.id_comments:
            parts.append(self.id_comments[result])
        return ", ".join(parts)


def reading_rows(listing: Listing, aids: ReadingAids = ALL_AIDS) -> list[Row]:
    """The disassembly of the listing's module with reading aids, as rows, under the
    listing's options (names, header, indentation, offsets, lossless form)."""
    module = listing.module
    if isinstance(module, LazyModule):
        module.ensure_indexed()
        instructions: Sequence[Instruction] = list(module.instructions())
    else:
        instructions = module.instructions
    return _RowWriter(listing, aids, instructions).write()


def reading_text(
    module: Module | LazyModule,
    options: DisassemblyOptions = DisassemblyOptions(),
    aids: ReadingAids = ALL_AIDS,
) -> str:
    """The text spirv-dis prints for `module` with these options and reading aids."""
    return rows_text(reading_rows(Listing(module, options=options), aids))


def rows_text(rows: Iterable[Row]) -> str:
    """The text of the rows, newline-terminated, as spirv-dis prints it."""
    lines = [row.text for row in rows]
    return "\n".join(lines) + "\n" if lines else ""


def instruction_rows(rows: Sequence[Row]) -> list[int]:
    """For each instruction index, the index of its row (every instruction has one)."""
    row_of = [0] * sum(1 for row in rows if row.instruction is not None)
    for number, row in enumerate(rows):
        if row.instruction is not None:
            row_of[row.instruction] = number
    return row_of


def _byte_width(line: str) -> int:
    """Width in bytes, as SPIRV-Tools counts it when aligning comments."""
    return len(line) if line.isascii() else len(line.encode("utf-8", "surrogateescape"))
