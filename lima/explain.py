"""Every bit range of every instruction, one per line, with its offsets: the `explain` text."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from spvinspect.lima.fields import FIELDS
from spvinspect.lima.model import BitRange, Chunk, LimaProgram
from spvinspect.codec.plural import counted


def _value(value: int) -> str:
    return str(value) if value < 10 else hex(value)


def _line(word_base: int, owner: str, bit_range: BitRange, field_bit: int | None, note: str = "") -> str:
    word = word_base + bit_range.instruction_bit // 32
    first = bit_range.instruction_bit
    last = first + bit_range.width - 1
    within = "" if field_bit is None else f"{field_bit}-{field_bit + bit_range.width - 1}"
    meaning = bit_range.meaning + note
    return (
        f"  word {word:<5} bits {first:>3}-{last:<3} {owner:<24} {within:>7}  "
        f"{bit_range.name:<18} {_value(bit_range.value):>10}  {meaning}"
    ).rstrip()


def _ident(ident: str) -> str:
    """`CFRA` as it is; an identifier with unprintable bytes (a newline…) escaped and quoted."""
    return ident if ident.isascii() and ident.isprintable() else ascii(ident)


def chunk_lines(chunks: Iterable[Chunk], depth: int = 0) -> Iterator[str]:
    """The MBS chunk tree, one chunk per line with its byte offset, then its values."""
    for chunk in chunks:
        yield f"{'  ' * depth}{_ident(chunk.ident)} at byte 0x{chunk.byte_offset:x}, {counted(chunk.size, 'byte')}"
        for value in chunk.fields:
            meaning = f" ({value.meaning})" if value.meaning else ""
            shown = repr(value.value) if isinstance(value.value, str) else value.value
            yield f"{'  ' * (depth + 1)}{value.name} = {shown}{meaning} (byte 0x{value.byte_offset:x})"
        yield from chunk_lines(chunk.children, depth + 1)


def explain_lines(program: LimaProgram) -> Iterator[str]:
    """Chunks (for MBS), then for each instruction its words and every range of it.

    Word numbers count from the start of the instruction stream; bits count from bit 0 of
    the instruction's control word; the column after the owner gives the bits within the
    field. Layouts the hardware does not use for these bits are listed after the used one.
    """
    yield from chunk_lines(program.chunks)
    for instr in program.instructions:
        words = " ".join(f"{w:08x}" for w in instr.words)
        yield f"instruction {instr.index} at word {instr.word_offset} ({counted(len(instr.words), 'word')}): {words}"
        for bit_range in instr.control:
            yield _line(instr.word_offset, "control", bit_range, bit_range.first_bit)
        for field in instr.fields:
            several = len(FIELDS[field.index].layouts) > 1
            owner = f"{field.name} ({field.layout})" if several else field.name
            for bit_range in field.ranges:
                yield _line(instr.word_offset, owner, bit_range, bit_range.first_bit)
            for view in field.alternatives:
                for bit_range in view.ranges:
                    yield _line(
                        instr.word_offset, f"{field.name} [{view.layout}]", bit_range,
                        bit_range.first_bit, " (layout not in use)",
                    )
        if instr.padding:
            yield _line(instr.word_offset, "padding", instr.padding, None)
    first = sum(len(instr.words) for instr in program.instructions)
    for i, word in enumerate(program.trailing_words):
        yield f"word {first + i}: {word:08x} (not decoded)"
