"""Disassembly lines as segments: each piece of a line knows what it shows.

`Listing(module, names, options).segments(i)` is instruction `i`'s line as
`(text, role, operand index)` pieces whose concatenation is exactly the line
`spvinspect dis` prints for it (without `--offsets`); any line is produced on its own,
from its instruction alone. The whole text (`codec.text.disassembler`) is these lines
with the header comments, the offsets column and, in lossless form, the raw tail.

Instructions that do not fit the grammar keep the operands decoded before the fault,
then `!0x…` raw words; when that prefix cannot be written (unknown opcode, fault before
the result id, operands missing, a type declaration) the instruction is written whole as
`OpUnknown(opcode, word count)` and raw words, the one form whose extent the assembler
never guesses.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import Header, Instruction, Module, Operand
from spvinspect.codec.binary.words import MAGIC
from spvinspect.codec.grammar import Grammar, OperandKind, load_grammar, mask_bits
from spvinspect.codec.text.names import NameMap, module_names
from spvinspect.codec.text.number_format import format_float, format_number

INDENT = 15
"""Column of the opcode: `%name = ` is right-aligned before it."""


class Role(str, Enum):
    """What a segment of a line shows."""

    INDENT = "indent"
    RESULT_ID = "result_id"
    EQUALS = "equals"
    OPCODE = "opcode"
    TYPE_ID = "type_id"
    ID = "id"
    LITERAL = "literal"
    STRING = "string"
    ENUM = "enum"
    """An enumerant or mask, and the named values `OpExtInst`'s instruction number
    (`Sin`) and OpSpecConstantOp's opcode (`IAdd`)."""
    RAW = "raw"
    """A `!0x…` word that does not fit the grammar."""
    COMMENT = "comment"
    SPACE = "space"


class Segment(NamedTuple):
    """A piece of a line: its text, what it shows, and the operand it belongs to."""

    text: str
    role: Role
    operand: int | None
    """Index into `Instruction.operands`; None for the opcode, indentation and spaces."""


SPACE = Segment(" ", Role.SPACE, None)
EQUALS = Segment(" = ", Role.EQUALS, None)


@dataclass(frozen=True, slots=True)
class DisassemblyOptions:
    """The spirv-dis flags we honour."""

    friendly_names: bool = True
    header: bool = True
    indent: bool = True
    offsets: bool = False
    lossless: bool = False
    """Text that the assembler turns back into the same bytes: `!0x…` words where
    decoding failed, the header comments always, with the exact header words of a
    module with faults and of an incomplete header. A module with faults gets raw ids;
    a valid one keeps friendly names when asked for, whose numbers then come from
    `Disassembler.id_hints` (the command line's `dis --lossless` asks for raw ids).

    In every form, a header the five standard comments do not give back (big-endian,
    not the magic number, odd version or generator words, bound 0) gets its exact words
    too."""


def generator_text(header: Header, grammar: Grammar) -> str:
    """`Khronos Glslang Reference Front End; 11`, or `Unknown(99); 3` when unregistered."""
    tool = header.generator_tool
    known = grammar.generators.get(tool)
    name = known.display if known is not None else f"Unknown({tool})"
    return f"{name}; {header.generator_version}"


def header_lines(header: Header, grammar: Grammar) -> list[str]:
    """The five header comment lines spirv-dis prints."""
    return [
        "; SPIR-V",
        f"; Version: {header.version_text}",
        f"; Generator: {generator_text(header, grammar)}",
        f"; Bound: {header.bound}",
        f"; Schema: {header.schema}",
    ]


HEADER_WORDS_COMMENT = "Header words:"
"""Lossless header comment: the five header words exactly, honoured by the assembler."""
BIG_ENDIAN_COMMENT = "Byte order: big-endian"
TRAILING_BYTES_COMMENT = "Trailing bytes:"
"""Lossless trailing comment: bytes past the last whole word, in hex."""


def header_reproduced(header: Header, grammar: Grammar) -> bool:
    """True when the five standard header comments give the header's words back: the
    magic in little-endian order, a version word of the form 0x00MMmm00, a bound the
    assembler writes (at least 1) and a generator whose tool the comment names without
    ambiguity."""
    if header.magic != MAGIC or header.big_endian or header.version & 0xFF0000FF or not header.bound:
        return False
    tool = header.generator_tool
    known = grammar.generators.get(tool)
    if known is None:
        return True  # `Unknown(tool)` names it
    return min(t for t, g in grammar.generators.items() if g.display == known.display) == tool


def quote_string(text: str) -> str:
    """A literal string in assembly syntax: quotes and backslashes escaped."""
    if '"' in text or "\\" in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def enum_text(kind: OperandKind, value: int) -> str:
    """An enumerant's name, or a mask's bit names joined by `|`, as spirv-dis writes them."""
    if kind.category == "BitEnum":
        names = []
        for bit in mask_bits(value):
            enumerant = kind.by_value.get(bit)
            names.append(enumerant.name if enumerant else f"0x{bit:x}")
        if names:
            return "|".join(names)
        zero = kind.by_value.get(0)
        return zero.name if zero is not None else ""
    enumerant = kind.by_value.get(value)
    return enumerant.name if enumerant is not None else str(value)


def operand_role(kind: str) -> Role:
    """The role of an operand of grammar kind `kind` (`Raw` for undecoded words)."""
    if kind[:2] == "Id":
        return Role.RESULT_ID if kind == "IdResult" else Role.TYPE_ID if kind == "IdResultType" else Role.ID
    if kind == "LiteralString":
        return Role.STRING
    if kind == "Raw":
        return Role.RAW
    if kind in ("LiteralExtInstInteger", "LiteralSpecConstantOpInteger"):
        return Role.ENUM
    if kind[:7] == "Literal":
        return Role.LITERAL
    return Role.ENUM


class OperandFormatter:
    """Operand values as spirv-dis prints them, for one grammar and one name map."""

    def __init__(self, grammar: Grammar, names: NameMap) -> None:
        self.grammar = grammar
        self.names = names
        self.value_names = {
            kind: {e.value: e.name for e in ko.enumerants}
            for kind, ko in grammar.operand_kinds.items()
            if ko.category == "ValueEnum"
        }

    def ext_kinds(self, inst: Instruction) -> dict[str, OperandKind] | None:
        """The operand kinds local to `inst`'s extended instruction set, if any."""
        if not inst.ext_inst_set:
            return None
        ext = self.grammar.ext_inst_set(inst.ext_inst_set)
        return ext.operand_kinds if ext is not None else None

    def operand_text(
        self, operand: Operand, inst: Instruction, ext_kinds: dict[str, OperandKind] | None
    ) -> str:
        """One operand as spirv-dis prints it."""
        kind = operand.kind
        value = operand.value
        if kind[:2] == "Id":
            return "%" + self.names.name(value)  # type: ignore[arg-type]
        if operand.number_type is not None:
            if kind == "LiteralFloat":
                return format_float(value, 32)  # type: ignore[arg-type]
            return format_number(value, operand.number_type, operand.num_words)  # type: ignore[arg-type]
        if kind == "LiteralInteger":
            return str(value)
        if kind == "LiteralString":
            return quote_string(value)  # type: ignore[arg-type]
        if kind == "LiteralExtInstInteger":
            if not inst.valid:  # the set is unknown when the instruction does not fit
                return f"!0x{value:08x}"
            ext = self.grammar.ext_inst_set(inst.ext_inst_set)
            desc = ext.instructions.get(value) if ext is not None else None  # type: ignore[arg-type]
            return desc.opname if desc is not None else str(value)
        if kind == "LiteralSpecConstantOpInteger":
            return self.grammar.instructions[value].opname[2:]  # type: ignore[index]
        if kind == "Raw":
            return f"!0x{value:08x}"
        if ext_kinds is not None and kind in ext_kinds:
            return enum_text(ext_kinds[kind], value)  # type: ignore[arg-type]
        names = self.value_names.get(kind)
        if names is not None:
            return names.get(value) or str(value)  # type: ignore[arg-type]
        return enum_text(self.grammar.operand_kinds[kind], value)  # type: ignore[arg-type]


class Listing:
    """The disassembly of a module, line by line, each line as segments."""

    def __init__(
        self,
        module: LazyModule | Module,
        names: NameMap | None = None,
        options: DisassemblyOptions = DisassemblyOptions(),
        grammar: Grammar | None = None,
    ) -> None:
        self.module = module
        self.options = options
        lazy = isinstance(module, LazyModule)
        self.grammar = module.grammar if lazy else grammar or load_grammar()
        if lazy and options.lossless:
            module.check()
        # A broken module keeps raw ids in lossless form: only numbers survive the
        # round trip through the assembler whatever the faults did to the names.
        self.broken_lossless = options.lossless and bool(module.diagnostics)
        if names is None or self.broken_lossless:
            friendly = options.friendly_names and not self.broken_lossless
            names = module_names(module, friendly, self.grammar)
        self.names = names
        self.formatter = OperandFormatter(self.grammar, names)
        if lazy:
            self.instruction = module.instruction
        else:
            self.instruction = module.instructions.__getitem__
        self._indent = INDENT if options.indent else 0
        self._pad = Segment(" " * self._indent, Role.INDENT, None) if options.indent else None
        # Raw tail words would be taken as operands of an instruction whose last operands
        # are optional; written as OpUnknown, the instruction before them ends exactly.
        self.sealed: int | None = None
        if self.broken_lossless and module.tail_offset < len(module.words):
            count = module.instruction_count if lazy else len(module.instructions)
            self.sealed = count - 1 if count else None

    # -- one line --------------------------------------------------------------------

    def segments(self, index: int) -> tuple[Segment, ...]:
        """Instruction `index`'s line, as segments."""
        return self.instruction_segments(self.instruction(index), index == self.sealed)

    def line(self, index: int) -> str:
        """Instruction `index`'s line: exactly what `spvinspect dis` prints for it."""
        return "".join([s.text for s in self.segments(index)])

    def instruction_segments(self, inst: Instruction, sealed: bool = False) -> tuple[Segment, ...]:
        """The line of `inst`, as segments (`sealed`: in the whole-instruction raw form)."""
        result = self.result_id(inst) if not sealed else 0
        out: list[Segment] = []
        if result:
            name = self.names.name(result)
            lead = self._indent - 4 - len(name)
            if lead > 0:
                out.append(Segment(" " * lead, Role.INDENT, None))
            k = next(k for k, o in enumerate(inst.operands) if o.kind == "IdResult")
            out.append(Segment("%" + name, Role.RESULT_ID, k))
            out.append(EQUALS)
        elif self._pad is not None:
            out.append(self._pad)
        if sealed or (not inst.valid and self._raw_prefix_result(inst) is None):
            out.extend(self._unknown_segments(inst))
        else:
            out.extend(self._operand_segments(inst))
        return tuple(out)

    def instruction_text(self, inst: Instruction) -> str:
        """The text of one instruction after its `%result =`, without indentation."""
        segments = self.instruction_segments(inst)
        start = next(k for k, s in enumerate(segments) if s.role is Role.OPCODE)
        return "".join([s.text for s in segments[start:]])

    def _operand_segments(self, inst: Instruction) -> list[Segment]:
        out = [Segment(inst.opname, Role.OPCODE, None)]
        formatter = self.formatter
        ext_kinds = formatter.ext_kinds(inst)
        for k, operand in enumerate(inst.operands):
            kind = operand.kind
            if kind == "IdResult":
                continue
            out.append(SPACE)
            out.append(Segment(formatter.operand_text(operand, inst, ext_kinds), operand_role(kind), k))
        return out

    def _unknown_segments(self, inst: Instruction) -> list[Segment]:
        """`OpUnknown(opcode, word count)` and every operand word raw, each word tied to
        the operand that covers it."""
        out = [Segment(f"OpUnknown({inst.opcode}, {inst.word_count})", Role.OPCODE, None)]
        words = self.module.words
        for k, operand in enumerate(inst.operands):
            for offset in range(operand.offset, operand.end):
                out.append(SPACE)
                out.append(Segment(f"!0x{words[offset]:08x}", Role.RAW, k))
        return out

    def _raw_prefix_result(self, inst: Instruction) -> int | None:
        """For an invalid instruction that can be printed as decoded operands followed
        by raw words: its result id (0 when it has none); otherwise None."""
        desc = self.grammar.instructions.get(inst.opcode)
        operands = inst.operands
        if desc is None or not operands or operands[-1].kind != "Raw" or operands[0].kind == "Raw":
            # Nothing decoded (or nothing raw): the assembler could not tell where the
            # instruction ends, so only OpUnknown is exact.
            return None
        if desc.opclass == "Type-Declaration":
            return None  # the assembler checks type declarations' shapes; OpUnknown is exempt
        decoded = [o for o in operands if o.kind != "Raw"]
        result = next((o.value for o in decoded if o.kind == "IdResult"), None)
        if desc.has_result:
            return result  # type: ignore[return-value]
        return 0

    def result_id(self, inst: Instruction) -> int:
        """The id printed before `=` for this instruction, or 0."""
        if inst.valid:
            return inst.result_id
        return self._raw_prefix_result(inst) or 0

    # -- around the instructions -----------------------------------------------------

    def header_lines(self) -> list[str]:
        """The `; SPIR-V` … comments dis prints before the instructions (with the comments
        that carry the header words and byte order exactly, in lossless form for a
        module with faults, and whenever the standard comments do not give them back)."""
        module = self.module
        header = module.header
        if header is None:
            if not self.options.lossless:
                return []
            # An incomplete header: its words (up to four) and their byte order; nothing
            # else can follow.
            lines = ["; SPIR-V", f"; {HEADER_WORDS_COMMENT}" + "".join(f" 0x{w:08x}" for w in module.words)]
            if module.big_endian:
                lines.append(f"; {BIG_ENDIAN_COMMENT}")
            return lines
        if not self.options.header and not self.options.lossless:
            return []
        lines = header_lines(header, self.grammar)
        if self.broken_lossless or not header_reproduced(header, self.grammar):
            words = " ".join(f"0x{w:08x}" for w in module.words[:5])
            lines.append(f"; {HEADER_WORDS_COMMENT} {words}")
            if header.big_endian:
                lines.append(f"; {BIG_ENDIAN_COMMENT}")
        return lines

    def tail_lines(self) -> list[str]:
        """Lossless form only: the undecodable tail as `!0x…` words, and the bytes past
        the last whole word as a comment."""
        return [line for lines in self.tail_runs() for line in lines]

    def tail_runs(self, size: int = 1 << 16) -> Iterator[list[str]]:
        """`tail_lines`, `size` lines at a time: a tail of millions of words is never
        held as text at once."""
        if not self.broken_lossless:
            return
        module = self.module
        words = module.words
        pad = " " * self._indent
        start = module.tail_offset if module.header is not None else len(words)
        for first in range(start, len(words), size):
            yield [f"{pad}!0x{word:08x}" for word in words[first : min(first + size, len(words))]]
        if module.trailing_bytes:
            yield [f"; {TRAILING_BYTES_COMMENT} {module.trailing_bytes.hex()}"]
