"""Immutable records of a decoded Lima PP program: bit ranges, fields, instructions, chunks."""

from __future__ import annotations

from dataclasses import dataclass

from codec.diagnostics import Diagnostic


@dataclass(frozen=True, slots=True)
class BitRange:
    """One named run of bits, with its value and what the value means."""

    name: str
    first_bit: int
    """First bit within its field (or within the control word)."""
    width: int
    value: int
    meaning: str
    instruction_bit: int
    """First bit counted from bit 0 of the instruction's control word."""

    @property
    def word(self) -> int:
        """Word of the instruction holding the first bit (0 is the control word)."""
        return self.instruction_bit // 32


@dataclass(frozen=True, slots=True)
class LayoutView:
    """The same field bits read through one layout."""

    layout: str
    ranges: tuple[BitRange, ...]


@dataclass(frozen=True, slots=True)
class Field:
    """One present field of an instruction, split into named ranges."""

    index: int
    name: str
    layout: str
    word_offset: int
    """Word of the instruction stream holding the field's first bit."""
    bit_offset: int
    """First bit of the field counted from bit 0 of the control word."""
    width: int
    raw: int
    ranges: tuple[BitRange, ...]
    alternatives: tuple[LayoutView, ...] = ()
    """The field's bits read through every layout the hardware did not pick."""
    missing_bits: int = 0
    """Bits of the field past the instruction's last word (read as zero)."""

    def __getitem__(self, name: str) -> int:
        """The value of range `name` in the chosen layout."""
        return self.range(name).value

    def range(self, name: str) -> BitRange:
        """The range `name` in the chosen layout."""
        for bit_range in self.ranges:
            if bit_range.name == name:
                return bit_range
        raise KeyError(f"{self.name} ({self.layout}) has no range {name}")

    def view(self, layout: str) -> tuple[BitRange, ...]:
        """The ranges of the field read through `layout`, chosen or not."""
        if layout == self.layout:
            return self.ranges
        for alternative in self.alternatives:
            if alternative.layout == layout:
                return alternative.ranges
        raise KeyError(f"{self.name} has no layout {layout}")


@dataclass(frozen=True, slots=True)
class Instruction:
    """One instruction: its words, its control word split into ranges, its fields."""

    index: int
    word_offset: int
    words: tuple[int, ...]
    control: tuple[BitRange, ...]
    fields: tuple[Field, ...]
    padding: BitRange | None
    """Bits after the last field up to the end of the last word, kept as they are."""

    def control_value(self, name: str) -> int:
        """The value of control-word range `name`."""
        for bit_range in self.control:
            if bit_range.name == name:
                return bit_range.value
        raise KeyError(name)

    @property
    def count(self) -> int:
        """The count the control word claims."""
        return self.control_value("count")

    @property
    def stop(self) -> bool:
        """True on the last instruction of a program."""
        return bool(self.control_value("stop"))

    @property
    def sync(self) -> bool:
        """True when the instruction waits for outstanding results."""
        return bool(self.control_value("sync"))



@dataclass(frozen=True, slots=True)
class ChunkField:
    """One value stored in an MBS chunk."""

    name: str
    byte_offset: int
    size: int
    value: int | str
    meaning: str = ""


@dataclass(frozen=True, slots=True)
class Chunk:
    """One MBS chunk: `{ident[4], size}` then `size` bytes of fields and child chunks."""

    byte_offset: int
    ident: str
    size: int
    fields: tuple[ChunkField, ...]
    children: tuple[Chunk, ...]

    @property
    def data_offset(self) -> int:
        """Byte offset of the chunk's contents, just past its header."""
        return self.byte_offset + 8


@dataclass(frozen=True, slots=True)
class LimaProgram:
    """What `lima.decode` returns; whatever could be read, plus what went wrong."""

    instructions: tuple[Instruction, ...]
    diagnostics: tuple[Diagnostic, ...]
    chunks: tuple[Chunk, ...] = ()
    """The MBS chunk tree; empty for a raw instruction stream."""
    trailing_words: tuple[int, ...] = ()
    """Words after the last instruction that could be decoded, kept as they are."""
    code_byte_offset: int = 0
    """Byte offset of instruction word 0 within the input (the DBIN contents for MBS)."""
