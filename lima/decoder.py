"""Words -> instructions: the stream split by `count`, with a diagnostic where a count and the
fields its presence bits name disagree (an instruction reads its fields from its words)."""

from __future__ import annotations

import struct
from collections.abc import Sequence

from spvinspect.codec.diagnostics import Diagnostic, Severity
from spvinspect.lima.fields import CONTROL, FIELDS
from spvinspect.lima.model import Instruction, LimaProgram, fields_size
from spvinspect.codec.plural import counted

_COUNT = CONTROL.range("count")
_PRESENCE = CONTROL.range("fields")


def words_needed(presence: int) -> int:
    """The count an instruction with these fields has: control word plus packed fields."""
    return 1 + (fields_size(presence) + 31) // 32


def decode_instruction(
    index: int, word_offset: int, words: Sequence[int]
) -> tuple[Instruction, list[Diagnostic]]:
    """One instruction from exactly its `count` words; diagnostics for what does not fit."""
    presence = _PRESENCE.extract(words[0])
    needed = words_needed(presence)
    diagnostics: list[Diagnostic] = []
    if needed > len(words):
        names = ", ".join(spec.name for spec in FIELDS if presence & (1 << spec.index))
        missing = 32 + fields_size(presence) - 32 * len(words)
        diagnostics.append(
            Diagnostic(
                f"instruction {index}: its fields ({names}) need {needed} words but count is "
                f"{len(words)}; the {missing} missing bits read as zero",
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
    return Instruction(index, word_offset, tuple(words)), diagnostics


def decode_words(words: Sequence[int]) -> LimaProgram:
    """Every instruction of a raw stream; stops with a diagnostic where `count` is unusable."""
    diagnostics: list[Diagnostic] = []
    instructions: list[Instruction] = []
    offset = 0
    total = len(words)
    if total == 0:
        diagnostics.append(Diagnostic("no instruction words", word_offset=0))
    while offset < total:
        count = _COUNT.extract(words[offset])
        index = len(instructions)
        if count == 0:
            diagnostics.append(
                Diagnostic(
                    f"instruction {index} has count 0; {counted(total - offset, 'word')} left undecoded",
                    word_offset=offset,
                )
            )
            break
        if offset + count > total:
            diagnostics.append(
                Diagnostic(
                    f"instruction {index} claims {count} words but the stream ends at word "
                    f"{total}, {counted(total - offset, 'word')} after it",
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
                f"{counted(len(data) % 4, 'byte')} after the last whole word are ignored "
                f"(length {len(data)} is not a multiple of 4)",
                word_offset=base_word + whole,
            )
        )
    return words, diagnostics
