"""SPIR-V assembly text from a decoded module, exactly as `spirv-dis --no-color` prints it.

The lines are those of `codec.text.listing.Listing`; this module puts them together:
the header comments, one line per instruction, the offsets column (whose position
depends on the lines before it, so it exists only here) and, in lossless form, the raw
tail. Instructions that do not fit the grammar are printed as `!0x…` raw words, which
the assembler turns back into the same words.
"""

from __future__ import annotations

from collections.abc import Iterator

from spvinspect.codec.binary.fast_forms import FastForms
from spvinspect.codec.binary.lazy import DecodedRun, LazyModule
from spvinspect.codec.binary.model import Module
from spvinspect.codec.grammar import Grammar
from spvinspect.codec.text.line_forms import LineForms
from spvinspect.codec.text.listing import DisassemblyOptions, Listing
from spvinspect.codec.text.names import NameMap

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
        index = 0
        column = OFFSET_COLUMN
        for lines in self.line_runs():
            if self.options.offsets:
                column = self._add_offsets(lines, index, column)
            index += len(lines)
            out.extend(lines)
        out.extend(listing.tail_lines())
        return out

    def text(self) -> str:
        """The whole disassembly, newline-terminated."""
        return "".join(self.chunks())

    def chunks(self) -> Iterator[str]:
        """The whole disassembly a piece at a time, newline-terminated lines each: the
        header comments, a run of instructions at a time, then the tail. Written as they
        come, they never hold the text of a large module in memory at once."""
        listing = self.listing
        header = listing.header_lines()
        if header:
            yield "".join([line + "\n" for line in header])
        if self._fast and not self.options.offsets:
            forms, fast = self._line_forms()
            for run in self.module.in_order(fast):  # type: ignore[union-attr]
                yield forms.text(self._pieces(forms, run))
        else:
            column = OFFSET_COLUMN
            index = 0
            for lines in self.line_runs():
                if self.options.offsets:
                    column = self._add_offsets(lines, index, column)
                index += len(lines)
                yield "".join([line + "\n" for line in lines])
        for tail in listing.tail_runs():
            yield "".join([line + "\n" for line in tail])

    @property
    def _fast(self) -> bool:
        """True when the lines are made in one pass over a lazy module with line forms."""
        return isinstance(self.module, LazyModule) and not self.listing.broken_lossless

    def _line_forms(self) -> tuple[LineForms, FastForms]:
        module = self.module
        assert isinstance(module, LazyModule)
        forms = LineForms(self.listing, module.tables.result_positions)
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

    def line_runs(self) -> Iterator[list[str]]:
        """The instructions' lines, one line each, a run (the decoder's chunk) at a time."""
        listing = self.listing
        module = self.module
        segments = listing.instruction_segments
        sealed = listing.sealed
        if not isinstance(module, LazyModule):
            yield [
                "".join([s.text for s in segments(inst, index == sealed)])
                for index, inst in enumerate(module.instructions)
            ]
            return
        if not self._fast:
            index = 0
            for run in module.in_order():
                yield [
                    "".join([s.text for s in segments(inst, k == sealed)])
                    for k, inst in enumerate(run.entries, index)
                ]
                index += len(run.entries)
            return
        forms, fast = self._line_forms()
        words = module.words
        index = 0
        for run in module.in_order(fast):
            out: list[str] = []
            for piece in self._pieces(forms, run):
                offset = module.offset(index)
                out.append(forms.line(piece, offset, words[offset] >> 16))
                index += 1
            yield out

    def _add_offsets(self, lines: list[str], first: int, column: int) -> int:
        """Append `; 0x…` byte offsets to the lines of instructions `first` on, in a
        column that moves right after a long line, as spirv-dis aligns them; returns
        the column the next line starts from."""
        module = self.module
        offset_of = module.offset if isinstance(module, LazyModule) else lambda i: module.instructions[i].offset
        for k, line in enumerate(lines):
            width = _display_width(line)
            needed = (width + 2 + 3) // 4 * 4
            if needed > column:
                column = min(needed, OFFSET_COLUMN_MAX)
            lines[k] = f"{line}{' ' * (max(column, needed) - width)}; 0x{offset_of(first + k) * 4:08x}"
        return column

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
