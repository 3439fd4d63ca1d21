"""Words -> instructions: split the stream by `count`, the fields by the presence bits."""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import cache

from codec.diagnostics import Diagnostic, Severity
from lima.fields import CONTROL, FIELDS, FieldSpec, Layout
from lima.meanings import meaning
from lima.model import BitRange, Field, Instruction, LayoutView, LimaProgram


def words_to_int(words: Sequence[int]) -> int:
    """The words as one little-endian integer: bit 0 is bit 0 of the first word."""
    value = 0
    for i, word in enumerate(words):
        value |= (word & 0xFFFFFFFF) << (32 * i)
    return value


def read_ranges(layout: Layout, raw: int, base_bit: int) -> tuple[BitRange, ...]:
    """`raw` split by `layout`; `base_bit` is where the field starts in the instruction."""
    return tuple(
        BitRange(
            spec.name,
            spec.first_bit,
            spec.width,
            spec.extract(raw),
            meaning(spec.kind, spec.extract(raw)),
            base_bit + spec.first_bit,
        )
        for spec in layout.ranges
    )


@cache
def fields_size(presence: int) -> int:
    """Total bits of the fields whose presence bits are set."""
    return sum(spec.size for spec in FIELDS if presence & (1 << spec.index))


def words_needed(presence: int) -> int:
    """The count an instruction with these fields has: control word plus packed fields."""
    return 1 + (fields_size(presence) + 31) // 32


def _read_field(spec: FieldSpec, value: int, bit: int, word_offset: int, available: int) -> Field:
    raw = (value >> bit) & ((1 << spec.size) - 1)
    chosen = spec.layout_for(raw)
    others = tuple(
        LayoutView(other.name, read_ranges(other, raw, bit))
        for other in spec.layouts
        if other is not chosen
    )
    return Field(
        index=spec.index,
        name=spec.name,
        layout=chosen.name,
        word_offset=word_offset + bit // 32,
        bit_offset=bit,
        width=spec.size,
        raw=raw,
        ranges=read_ranges(chosen, raw, bit),
        alternatives=others,
        missing_bits=max(0, bit + spec.size - available),
    )


def decode_instruction(
    index: int, word_offset: int, words: Sequence[int]
) -> tuple[Instruction, list[Diagnostic]]:
    """One instruction from exactly its `count` words; diagnostics for what does not fit."""
    value = words_to_int(words)
    available = 32 * len(words)
    control = read_ranges(CONTROL, value & 0xFFFFFFFF, 0)
    presence = CONTROL.extract(value, "fields")
    diagnostics: list[Diagnostic] = []
    fields = []
    bit = 32
    for spec in FIELDS:
        if presence & (1 << spec.index):
            fields.append(_read_field(spec, value, bit, word_offset, available))
            bit += spec.size
    needed = words_needed(presence)
    if needed > len(words):
        diagnostics.append(
            Diagnostic(
                f"instruction {index}: its fields ({', '.join(f.name for f in fields)}) need "
                f"{needed} words but count is {len(words)}; the {bit - available} missing bits "
                "read as zero",
                word_offset=word_offset,
            )
        )
    elif needed < len(words):
        diagnostics.append(
            Diagnostic(
                f"instruction {index}: count is {len(words)} but its fields need {needed} words; "
                "the extra words are kept as padding",
                Severity.WARNING,
                word_offset=word_offset,
            )
        )
    padding = None
    if bit < available:
        pad_value = value >> bit
        padding = BitRange("padding", bit, available - bit, pad_value, meaning("padding", pad_value), bit)
    instruction = Instruction(index, word_offset, tuple(words), control, tuple(fields), padding)
    return instruction, diagnostics


def decode_words(words: Sequence[int]) -> LimaProgram:
    """Every instruction of a raw stream; stops with a diagnostic where `count` is unusable."""
    diagnostics: list[Diagnostic] = []
    instructions: list[Instruction] = []
    offset = 0
    total = len(words)
    if total == 0:
        diagnostics.append(Diagnostic("no instruction words", word_offset=0))
    while offset < total:
        count = CONTROL.extract(words[offset], "count")
        index = len(instructions)
        if count == 0:
            diagnostics.append(
                Diagnostic(
                    f"instruction {index} has count 0; {total - offset} words left undecoded",
                    word_offset=offset,
                )
            )
            break
        if offset + count > total:
            diagnostics.append(
                Diagnostic(
                    f"instruction {index} claims {count} words but the stream ends at word "
                    f"{total}, {total - offset} words after it",
                    word_offset=offset,
                )
            )
            break
        instruction, found = decode_instruction(index, offset, words[offset : offset + count])
        instructions.append(instruction)
        diagnostics.extend(found)
        offset += count
    return LimaProgram(tuple(instructions), tuple(diagnostics), trailing_words=tuple(words[offset:]))


def bytes_to_words(data: bytes, base_word: int = 0) -> tuple[list[int], list[Diagnostic]]:
    """Little-endian words of `data`; a diagnostic when bytes are left over."""
    whole = len(data) // 4
    words = list(struct.unpack_from(f"<{whole}I", data))
    diagnostics = []
    if len(data) % 4:
        diagnostics.append(
            Diagnostic(
                f"{len(data) % 4} bytes after the last whole word are ignored "
                f"(length {len(data)} is not a multiple of 4)",
                word_offset=base_word + whole,
            )
        )
    return words, diagnostics
