"""Instructions -> words: the inverse of the decoder, driven by the same field table."""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from functools import cache

from spvinspect.lima.fields import CONTROL, FIELDS, FieldSpec
from spvinspect.lima.model import BitRange, Instruction, LimaProgram


def pack_bits(control: int, fields: Sequence[tuple[FieldSpec, int]], padding: int) -> int:
    """An instruction as one integer: the control word, the field bits LSB first, padding."""
    value = control & 0xFFFFFFFF
    bit = 32
    for spec, raw in fields:
        value |= (raw & ((1 << spec.size) - 1)) << bit
        bit += spec.size
    return value | padding << bit


@cache
def _words_format(count: int) -> struct.Struct:
    return struct.Struct(f"<{count}I")


def split_words(value: int, count: int) -> tuple[int, ...]:
    """The first `count` 32-bit words of `value`, lowest first."""
    low = value & ((1 << (32 * count)) - 1)
    return _words_format(count).unpack(low.to_bytes(4 * count, "little"))


def pack_instruction(
    control: int, fields: Sequence[tuple[FieldSpec, int]], padding: int, count: int
) -> tuple[int, ...]:
    """`count` words: the control word, then the field bits packed LSB first, then padding."""
    return split_words(pack_bits(control, fields, padding), count)


def _values(ranges: Iterable[BitRange]) -> dict[str, int]:
    return {r.name: r.value for r in ranges}


def encode_instruction(instruction: Instruction) -> tuple[int, ...]:
    """The words of a decoded instruction, rebuilt from its ranges alone."""
    control = CONTROL.pack(_values(instruction.control))
    fields = [(FIELDS[f.index], FIELDS[f.index].layout(f.layout).pack(f.values())) for f in instruction.fields]
    padding = instruction.padding.value if instruction.padding else 0
    return pack_instruction(control, fields, padding, CONTROL.extract(control, "count"))


def encode_words(program: LimaProgram) -> list[int]:
    """Every word of a decoded program: its instructions, then the words it could not decode."""
    words: list[int] = []
    for instruction in program.instructions:
        words.extend(encode_instruction(instruction))
    words.extend(program.trailing_words)
    return words
