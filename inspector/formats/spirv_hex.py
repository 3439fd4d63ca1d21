"""How SPIR-V colours the hex pane's cells (Textual-free): the header words, and each word
of the selected instruction by what it is (opcode word, type, result, ids, literals...).
The names are the hex pane's component classes (`hex-view--NAME`)."""

from __future__ import annotations

from spvinspect.codec.binary.model import HEADER_WORDS, Instruction
from spvinspect.codec.text.word_detail import instruction_word_kinds


def header_cell(offset: int) -> str | None:
    """`header` for the module's five header words, else no static kind."""
    return "header" if offset < HEADER_WORDS else None


def instruction_cells(instruction: Instruction) -> tuple[str, ...]:
    """The style name of each word of `instruction`, from its first."""
    return tuple(kind.value.replace("_", "-") for kind in instruction_word_kinds(instruction))
