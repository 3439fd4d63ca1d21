"""SPIR-V assembly text from a decoded module, exactly as `spirv-dis --no-color` prints it.

The lines are those of `codec.text.listing.Listing`; this module puts them together:
the header comments, one line per instruction, the offsets column (whose position
depends on the lines before it, so it exists only here) and, in lossless form, the raw
tail. Instructions that do not fit the grammar are printed as `!0x…` raw words, which
the assembler turns back into the same words.
"""

from __future__ import annotations

from codec.binary.fast_forms import FastForms
from codec.binary.lazy import DecodedRun, LazyModule
from codec.binary.model import Module
from codec.grammar import Grammar
from codec.text.line_forms import LineForms
from codec.text.listing import DisassemblyOptions, Listing
from codec.text.names import NameMap

__all__ = ["Disassembler", "DisassemblyOptions", "disassemble"]

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

    def id_hints(self) -> dict[str, int]:
        """Friendly name → id number, for `codec.asm.assembler.assemble(id_hints=…)`: with
        it, friendly-named text reassembles to the very same ids."""
        return self.listing.names.id_hints()

    def lines(self) -> list[str]:
        """Every line of the disassembly, header comments included when asked for."""
        listing = self.listing
        out = listing.header_lines()
        first = len(out)
        out.extend(self._instruction_lines())
        if self.options.offsets:
            self._add_offsets(out, first)
        out.extend(listing.tail_lines())
        return out

    def text(self) -> str:
        """The whole disassembly, newline-terminated."""
        if not self._fast or self.options.offsets:
            lines = self.lines()
            return "\n".join(lines) + "\n" if lines else ""
        listing = self.listing
        forms, fast = self._line_forms()
        parts = [line + "\n" for line in listing.header_lines()]
        for run in self.module.in_order(fast):  # type: ignore[union-attr]
            parts.append(forms.text(self._pieces(forms, run)))
        parts.extend(line + "\n" for line in listing.tail_lines())
        return "".join(parts)

    @property
    def _fast(self) -> bool:
        """True when the lines are made in one pass over a lazy module with line forms."""
        return isinstance(self.module, LazyModule) and not self.listing.broken_lossless

    def _line_forms(self) -> tuple[LineForms, FastForms]:
        module = self.module
        assert isinstance(module, LazyModule)
        forms = LineForms(self.listing, module.header.bound if module.header is not None else 0)
        return forms, FastForms(module.tables, forms.compile, forms.prepare)

    def _pieces(self, forms: LineForms, run: DecodedRun) -> list[str]:
        """The pieces of a run, with the lines of the instructions the fast path did not
        take (decoded, then joined from their segments) put in place."""
        segments = self.listing.instruction_segments
        pieces = run.entries
        for k in run.general:
            inst = pieces[k]
            pieces[k] = forms.place(inst.offset, inst.word_count, "".join([s.text for s in segments(inst)]))
        return pieces

    def _instruction_lines(self) -> list[str]:
        """One line per instruction."""
        listing = self.listing
        module = self.module
        segments = listing.instruction_segments
        sealed = listing.sealed
        if not self._fast:
            instructions = module.instructions() if isinstance(module, LazyModule) else module.instructions
            return [
                "".join([s.text for s in segments(inst, index == sealed)])
                for index, inst in enumerate(instructions)
            ]
        assert isinstance(module, LazyModule)
        forms, fast = self._line_forms()
        words = module.words
        out: list[str] = []
        index = 0
        for run in module.in_order(fast):
            for piece in self._pieces(forms, run):
                offset = module.offset(index)
                out.append(forms.line(piece, offset, words[offset] >> 16))
                index += 1
        return out

    def _add_offsets(self, lines: list[str], first: int) -> None:
        """Append `; 0x…` byte offsets to the instruction lines from `first` on, in a
        column that moves right after a long line, as spirv-dis aligns them."""
        module = self.module
        if isinstance(module, LazyModule):
            offsets = [module.offset(i) for i in range(module.instruction_count)]
        else:
            offsets = [inst.offset for inst in module.instructions]
        column = OFFSET_COLUMN
        for k, offset in enumerate(offsets, first):
            line = lines[k]
            width = _display_width(line)
            needed = (width + 2 + 3) // 4 * 4
            if needed > column:
                column = min(needed, OFFSET_COLUMN_MAX)
            lines[k] = f"{line}{' ' * (max(column, needed) - width)}; 0x{offset * 4:08x}"

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
