"""Immutable records of a decoded Lima PP program: bit ranges, fields, instructions, chunks.

An instruction holds its words and nothing more: its control ranges, fields and padding
are read from the words each time they are asked for (as `lima.fields` lays them out),
so a decoded program costs little more than its words, however long it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.lima.field_meanings import Targets, field_meanings
from spvinspect.lima.fields import CONTROL, FIELDS, FieldSpec, Layout, RangeSpec
from spvinspect.lima.meanings import meaning


def words_to_int(words: Sequence[int]) -> int:
    """The words as one little-endian integer: bit 0 is bit 0 of the first word."""
    value = 0
    for i, word in enumerate(words):
        value |= (word & 0xFFFFFFFF) << (32 * i)
    return value


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


def read_ranges(layout: Layout, raw: int, base_bit: int) -> tuple[BitRange, ...]:
    """`raw` split by `layout`; `base_bit` is where the field starts in the instruction."""
    return tuple(_bit_range(spec, raw, base_bit) for spec in layout.ranges)


def _bit_range(spec: RangeSpec, raw: int, base_bit: int) -> BitRange:
    value = spec.extract(raw)
    return BitRange(spec.name, spec.first_bit, spec.width, value, meaning(spec.kind, value), base_bit + spec.first_bit)


_LAYOUTS = {(spec.index, layout.name): layout for spec in FIELDS for layout in spec.layouts}
"""(field index, layout name) -> the layout."""


@dataclass(frozen=True, slots=True)
class Field:
    """One present field of an instruction: its raw bits, read through its layout."""

    index: int
    layout: str
    """The layout the hardware reads the bits through."""
    word_offset: int
    """Word of the instruction stream holding the field's first bit."""
    bit_offset: int
    """First bit of the field counted from bit 0 of the control word."""
    raw: int
    missing_bits: int = 0
    """Bits of the field past the instruction's last word (read as zero)."""

    @property
    def name(self) -> str:
        """`vec4_mul`, `branch`…: the field's name in `lima.fields`."""
        return FIELDS[self.index].name

    @property
    def width(self) -> int:
        """Bits of the field."""
        return FIELDS[self.index].size

    @property
    def ranges(self) -> tuple[BitRange, ...]:
        """The bits split into named ranges by the chosen layout, each meaning read in the
        context of the field (`lima.field_meanings`)."""
        return self.ranges_in(None)

    def ranges_in(self, targets: Targets | None) -> tuple[BitRange, ...]:
        """`ranges`, with a branch target named by `targets` (word offset -> text)."""
        ranges = read_ranges(_LAYOUTS[self.index, self.layout], self.raw, self.bit_offset)
        context = field_meanings(self, self.instruction_offset, targets)
        if not context:
            return ranges
        return tuple(
            BitRange(r.name, r.first_bit, r.width, r.value, context[r.name], r.instruction_bit)
            if r.name in context
            else r
            for r in ranges
        )

    @property
    def instruction_offset(self) -> int:
        """Word offset of the field's instruction (its control word)."""
        return self.word_offset - self.bit_offset // 32

    @property
    def alternatives(self) -> tuple[LayoutView, ...]:
        """The field's bits read through every layout the hardware did not pick."""
        return tuple(
            LayoutView(other.name, read_ranges(other, self.raw, self.bit_offset))
            for other in FIELDS[self.index].layouts
            if other.name != self.layout
        )

    def __getitem__(self, name: str) -> int:
        """The value of range `name` in the chosen layout."""
        return self._spec(name).extract(self.raw)

    def range(self, name: str) -> BitRange:
        """The range `name` in the chosen layout."""
        return _bit_range(self._spec(name), self.raw, self.bit_offset)

    def _spec(self, name: str) -> RangeSpec:
        try:
            return _LAYOUTS[self.index, self.layout].range(name)
        except KeyError:
            raise KeyError(f"{self.name} ({self.layout}) has no range {name}") from None

    def view(self, layout: str) -> tuple[BitRange, ...]:
        """The ranges of the field read through `layout`, chosen or not."""
        return read_ranges(self._layout(layout), self.raw, self.bit_offset)

    def values(self, layout: str | None = None) -> dict[str, int]:
        """Range name -> value, read through `layout` (the chosen one by default): the
        values alone, without the meanings `ranges` and `view` spell out."""
        raw = self.raw
        return {spec.name: spec.extract(raw) for spec in self._layout(layout or self.layout).ranges}

    def _layout(self, layout: str) -> Layout:
        if (self.index, layout) not in _LAYOUTS:
            raise KeyError(f"{self.name} has no layout {layout}")
        return _LAYOUTS[self.index, layout]


def fields_size(presence: int) -> int:
    """Total bits of the fields whose presence bits are set."""
    return _FIELDS_SIZE[presence & _PRESENCE.mask]


_PRESENCE = CONTROL.range("fields")
_FIELDS_SIZE = tuple(
    sum(spec.size for spec in FIELDS if presence & (1 << spec.index)) for presence in range(1 << len(FIELDS))
)
"""Presence bits -> bits of the fields present: every combination, worked out once."""


@cache
def _field_places(presence: int) -> tuple[tuple[FieldSpec, int, int], ...]:
    """(spec, first bit in the instruction, mask of its size) of each field present."""
    places = []
    bit = 32
    for spec in FIELDS:
        if presence & (1 << spec.index):
            places.append((spec, bit, (1 << spec.size) - 1))
            bit += spec.size
    return tuple(places)


@dataclass(frozen=True, slots=True)
class Instruction:
    """One instruction: its words, and read from them, its control word split into ranges,
    its fields and its padding."""

    index: int
    word_offset: int
    words: tuple[int, ...]

    @property
    def control(self) -> tuple[BitRange, ...]:
        """The control word (word 0) split into its ranges."""
        return read_ranges(CONTROL, self.words[0], 0)

    @property
    def fields(self) -> tuple[Field, ...]:
        """The present fields, in presence-bit order, which is their packing order."""
        places = _field_places(_PRESENCE.extract(self.words[0]))
        if not places:
            return ()
        value = words_to_int(self.words)
        available = 32 * len(self.words)
        return tuple(
            Field(
                spec.index,
                spec.choose(raw := (value >> bit) & mask),
                self.word_offset + bit // 32,
                bit,
                raw,
                max(0, bit + spec.size - available),
            )
            for spec, bit, mask in places
        )

    @property
    def padding(self) -> BitRange | None:
        """Bits after the last field up to the end of the last word, kept as they are."""
        bit = 32 + fields_size(_PRESENCE.extract(self.words[0]))
        available = 32 * len(self.words)
        if bit >= available:
            return None
        value = words_to_int(self.words) >> bit
        return BitRange("padding", bit, available - bit, value, meaning("padding", value), bit)

    def control_value(self, name: str) -> int:
        """The value of control-word range `name` (KeyError when there is none)."""
        return CONTROL.range(name).extract(self.words[0])

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
