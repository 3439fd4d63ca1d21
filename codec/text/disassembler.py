"""SPIR-V assembly text from a decoded module, exactly as `spirv-dis --no-color` prints it.

Formatting is separate from decoding: `Disassembler` takes a `Module` and a name map
and renders one line per instruction. Instructions that do not fit the grammar are
printed as `!0x…` raw words, which the assembler turns back into the same words.
"""

from __future__ import annotations

from dataclasses import dataclass

from codec.grammar import Grammar, OperandKind, load_grammar, mask_bits
from codec.binary.model import Header, Instruction, Module, Operand
from codec.text.names import friendly_names
from codec.text.number_format import format_float, format_number

INDENT = 15
OFFSET_COLUMN = 52
"""Offset comments start in this column, or further right after a longer line …"""
OFFSET_COLUMN_MAX = 256
"""… but a single very long line does not push the column past this one."""


@dataclass(frozen=True, slots=True)
class DisassemblyOptions:
    """The spirv-dis flags we honour."""

    friendly_names: bool = True
    header: bool = True
    indent: bool = True
    offsets: bool = False
    lossless: bool = False
    """For a module with faults: raw ids, `!0x…` words where decoding failed, and header
    comments that the assembler honours, so the text assembles to the same bytes."""


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


def lossless_header_lines(module: Module) -> list[str]:
    """The comments after the standard header that carry what it cannot say."""
    words = " ".join(f"0x{w:08x}" for w in module.words[:5])
    lines = [f"; {HEADER_WORDS_COMMENT} {words}"]
    if module.header is not None and module.header.big_endian:
        lines.append(f"; {BIG_ENDIAN_COMMENT}")
    return lines


def quote_string(text: str) -> str:
    """A literal string in assembly syntax: quotes and backslashes escaped."""
    if '"' in text or "\\" in text:
        text = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


class Disassembler:
    """Renders instructions of one module to assembly text lines."""

    def __init__(
        self,
        module: Module,
        options: DisassemblyOptions = DisassemblyOptions(),
        grammar: Grammar | None = None,
    ) -> None:
        self.module = module
        self.options = options
        self.grammar = grammar or load_grammar()
        # A broken module keeps raw ids in lossless form: only numbers survive the
        # round trip through the assembler whatever the faults did to the names.
        self.broken_lossless = options.lossless and bool(module.diagnostics)
        self.names: dict[int, str] = (
            friendly_names(module.instructions, self.grammar)
            if options.friendly_names and not self.broken_lossless
            else {}
        )
        self._value_names = {
            kind: {e.value: e.name for e in ko.enumerants}
            for kind, ko in self.grammar.operand_kinds.items()
            if ko.category == "ValueEnum"
        }

    def instruction_text(self, inst: Instruction) -> str:
        """The text of one instruction after its `%result =`, without indentation.

        An instruction that does not fit the grammar keeps the operands decoded before
        the fault, then `!0x…` raw words; when that prefix cannot be written (unknown
        opcode, fault before the result id, operands missing) it is written whole as
        `OpUnknown(opcode, word count)` and raw words.
        """
        if not inst.valid and self._raw_prefix_result(inst) is None:
            return self.unknown_text(inst)
        parts = [inst.opname]
        ext_kinds = None
        if inst.ext_inst_set:
            ext = self.grammar.ext_inst_set(inst.ext_inst_set)
            ext_kinds = ext.operand_kinds if ext is not None else None
        for operand in inst.operands:
            if operand.kind == "IdResult":
                continue
            parts.append(self.operand_text(operand, inst, ext_kinds))
        return " ".join(parts)

    def operand_text(
        self, operand: Operand, inst: Instruction, ext_kinds: dict[str, OperandKind] | None
    ) -> str:
        """One operand as spirv-dis prints it."""
        kind = operand.kind
        value = operand.value
        if kind[:2] == "Id":
            return "%" + (self.names.get(value) or str(value))  # type: ignore[arg-type]
        if operand.number_type is not None:
            if kind == "LiteralFloat":
                return format_float(value, 32)  # type: ignore[arg-type]
            return format_number(value, operand.number_type, operand.num_words)  # type: ignore[arg-type]
        if kind == "LiteralInteger":
            return str(value)
        if kind == "LiteralString":
            return quote_string(value)  # type: ignore[arg-type]
        if kind == "LiteralExtInstInteger":
            ext = self.grammar.ext_inst_set(inst.ext_inst_set)
            desc = ext.instructions.get(value) if ext is not None else None  # type: ignore[arg-type]
            return desc.opname if desc is not None else str(value)
        if kind == "LiteralSpecConstantOpInteger":
            return self.grammar.instructions[value].opname[2:]  # type: ignore[index]
        if kind == "Raw":
            return f"!0x{value:08x}"
        if ext_kinds is not None and kind in ext_kinds:
            return _enum_text(ext_kinds[kind], value)  # type: ignore[arg-type]
        names = self._value_names.get(kind)
        if names is not None:
            return names.get(value) or str(value)  # type: ignore[arg-type]
        return _enum_text(self.grammar.operand_kinds[kind], value)  # type: ignore[arg-type]

    def id_hints(self) -> dict[str, int]:
        """Friendly name → id number, for `codec.asm.assembler.assemble(id_hints=…)`: with
        it, friendly-named text reassembles to the very same ids."""
        return {name: id_ for id_, name in self.names.items()}

    def unknown_text(self, inst: Instruction) -> str:
        """The instruction as `OpUnknown(opcode, word count)` followed by raw words: the
        one form whose extent the assembler never guesses."""
        words = self.module.words[inst.offset + 1 : inst.end]
        raw = "".join(f" !0x{w:08x}" for w in words)
        return f"OpUnknown({inst.opcode}, {inst.word_count}){raw}"

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

    def lines(self) -> list[str]:
        """Every line of the disassembly, header comments included when asked for."""
        module = self.module
        options = self.options
        out: list[str] = []
        if options.header and module.header is not None:
            out.extend(header_lines(module.header, self.grammar))
            if self.broken_lossless:
                out.extend(lossless_header_lines(module))
        indent = INDENT if options.indent else 0
        pad = " " * indent
        names = self.names
        text_of = self.instruction_text
        column = OFFSET_COLUMN
        result_of = self.result_id
        # Raw tail words would be taken as operands of an instruction whose last operands
        # are optional; written as OpUnknown, the instruction before them ends exactly.
        sealed = (
            module.instructions[-1]
            if self.broken_lossless and module.instructions and module.tail_offset < len(module.words)
            else None
        )
        for inst in module.instructions:
            if inst is sealed:
                out.append(pad + self.unknown_text(inst))
                continue
            text = text_of(inst)
            result = result_of(inst)
            if result:
                name = names.get(result) or str(result)
                lead = " " * max(0, indent - 4 - len(name)) if indent else ""
                line = f"{lead}%{name} = {text}"
            else:
                line = pad + text
            if options.offsets:
                width = _display_width(line)
                needed = (width + 2 + 3) // 4 * 4
                if needed > column:
                    column = min(needed, OFFSET_COLUMN_MAX)
                line = f"{line}{' ' * (max(column, needed) - width)}; 0x{inst.offset * 4:08x}"
            out.append(line)
        if self.broken_lossless:
            words = module.words
            out.extend(f"{pad}!0x{words[i]:08x}" for i in range(module.tail_offset, len(words)))
            if module.trailing_bytes:
                out.append(f"; {TRAILING_BYTES_COMMENT} {module.trailing_bytes.hex()}")
        return out

    def text(self) -> str:
        """The whole disassembly, newline-terminated."""
        lines = self.lines()
        return "\n".join(lines) + "\n" if lines else ""


def _enum_text(kind: OperandKind, value: int) -> str:
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


def _display_width(line: str) -> int:
    """Width in bytes, as SPIRV-Tools counts it when aligning offset comments."""
    return len(line) if line.isascii() else len(line.encode("utf-8", "surrogateescape"))


def disassemble(
    module: Module, options: DisassemblyOptions = DisassemblyOptions(), grammar: Grammar | None = None
) -> str:
    """The assembly text of a decoded module."""
    return Disassembler(module, options, grammar).text()
