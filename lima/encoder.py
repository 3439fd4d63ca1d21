"""Instructions -> words: the inverse of the decoder, driven by the same field table."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from lima.fields import CONTROL, FIELDS, FieldSpec, Layout
from lima.model import BitRange, Instruction, LimaProgram


def pack_ranges(layout: Layout, values: Mapping[str, int]) -> int:
    """The raw bits of a field (or control word) from its range values; absent names are 0."""
    raw = 0
    for name, value in values.items():
        raw = layout.range(name).insert(raw, value)
    return raw


def pack_instruction(
    control: int, fields: Sequence[tuple[FieldSpec, int]], padding: int, count: int
) -> tuple[int, ...]:
    """`count` words: the control word, then the field bits packed LSB first, then padding."""
    value = control & 0xFFFFFFFF
    bit = 32
    for spec, raw in fields:
        value |= (raw & ((1 << spec.size) - 1)) << bit
        bit += spec.size
    value |= padding << bit
    return tuple((value >> (32 * i)) & 0xFFFFFFFF for i in range(count))


def _values(ranges: Iterable[BitRange]) -> dict[str, int]:
    return {r.name: r.value for r in ranges}


def encode_instruction(instruction: Instruction) -> tuple[int, ...]:
    """The words of a decoded instruction, rebuilt from its ranges alone."""
    control = pack_ranges(CONTROL, _values(instruction.control))
    fields = [
        (FIELDS[f.index], pack_ranges(FIELDS[f.index].layout(f.layout), _values(f.ranges)))
        for f in instruction.fields
    ]
    padding = instruction.padding.value if instruction.padding else 0
    return pack_instruction(control, fields, padding, CONTROL.extract(control, "count"))


def encode_words(program: LimaProgram) -> list[int]:
    """Every word of a decoded program: its instructions, then the words it could not decode."""
    words: list[int] = []
    for instruction in program.instructions:
        words.extend(encode_instruction(instruction))
    words.extend(program.trailing_words)
    return words
