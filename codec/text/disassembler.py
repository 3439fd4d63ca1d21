"""SPIR-V assembly text from a decoded module, exactly as `spirv-dis --no-color` prints it.

The lines are those of `codec.text.listing.Listing`; this module puts them together:
the header comments, one line per instruction, the offsets column (whose position
depends on the lines before it, so it exists only here) and, in lossless form, the raw
tail. Instructions that do not fit the grammar are printed as `!0x…` raw words, which
the assembler turns back into the same words.
"""

from __future__ import annotations

from codec.binary.lazy import LazyModule
from codec.binary.model import Instruction, Module, Operand
from codec.grammar import Grammar, OperandKind
from codec.text.listing import (
    BIG_ENDIAN_COMMENT,
    HEADER_WORDS_COMMENT,
    INDENT,
    TRAILING_BYTES_COMMENT,
    DisassemblyOptions,
    Listing,
    generator_text,
    header_lines,
    quote_string,
)
from codec.text.names import NameMap

__all__ = [
    "BIG_ENDIAN_COMMENT",
    "HEADER_WORDS_COMMENT",
    "INDENT",
    "TRAILING_BYTES_COMMENT",
    "Disassembler",
    "DisassemblyOptions",
    "disassemble",
    "generator_text",
    "header_lines",
    "quote_string",
]

OFFSET_COLUMN = 52
"""Offset comments start in this column, or further right after a longer line …"""
OFFSET_COLUMN_MAX = 256
"""… but a single very long line does not push the column past this one."""


class Disassembler:
    """Renders the instructions of one module to assembly text lines."""

    def __init__(
        self,
        module: Module | LazyModule,
        options: DisassemblyOptions = DisassemblyOptions(),
        grammar: Grammar | None = None,
        names: NameMap | None = None,
    ) -> None:
        self.module = module
        self.options = options
        self.listing = Listing(module, names, options, grammar)
        self.grammar = self.listing.grammar
        self.broken_lossless = self.listing.broken_lossless
        self.name_map = self.listing.names

    @property
    def names(self) -> dict[int, str]:
        """Every id whose name is not its number, with its name."""
        return self.name_map.table()

    def instruction_text(self, inst: Instruction) -> str:
        """The text of one instruction after its `%result =`, without indentation."""
        return self.listing.instruction_text(inst)

    def operand_text(
        self, operand: Operand, inst: Instruction, ext_kinds: dict[str, OperandKind] | None
    ) -> str:
        """One operand as spirv-dis prints it."""
        return self.listing.formatter.operand_text(operand, inst, ext_kinds)

    def result_id(self, inst: Instruction) -> int:
        """The id printed before `=` for this instruction, or 0."""
        return self.listing.result_id(inst)

    def id_hints(self) -> dict[str, int]:
        """Friendly name → id number, for `codec.asm.assembler.assemble(id_hints=…)`: with
        it, friendly-named text reassembles to the very same ids."""
        return self.name_map.id_hints()

    def lines(self) -> list[str]:
        """Every line of the disassembly, header comments included when asked for."""
        listing = self.listing
        out = listing.header_lines()
        module = self.module
        if isinstance(module, LazyModule):
            module.ensure_indexed()
            instructions = module.instructions()
        else:
            instructions = iter(module.instructions)
        segments = listing.instruction_segments
        sealed = listing.sealed
        offsets = self.options.offsets
        column = OFFSET_COLUMN
        for index, inst in enumerate(instructions):
            line = "".join([s.text for s in segments(inst, index == sealed)])
            if offsets:
                width = _display_width(line)
                needed = (width + 2 + 3) // 4 * 4
                if needed > column:
                    column = min(needed, OFFSET_COLUMN_MAX)
                line = f"{line}{' ' * (max(column, needed) - width)}; 0x{inst.offset * 4:08x}"
            out.append(line)
        out.extend(listing.tail_lines())
        return out

    def text(self) -> str:
        """The whole disassembly, newline-terminated."""
        lines = self.lines()
        return "\n".join(lines) + "\n" if lines else ""


def _display_width(line: str) -> int:
    """Width in bytes, as SPIRV-Tools counts it when aligning offset comments."""
    return len(line) if line.isascii() else len(line.encode("utf-8", "surrogateescape"))


def disassemble(
    module: Module | LazyModule,
    options: DisassemblyOptions = DisassemblyOptions(),
    grammar: Grammar | None = None,
    names: NameMap | None = None,
) -> str:
    """The assembly text of a module (eager or lazy)."""
    return Disassembler(module, options, grammar, names).text()
