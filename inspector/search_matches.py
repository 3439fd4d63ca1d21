"""Where a search matches in the words and in a line: the instructions holding a word of
some value, the operands of a value, and the operand a hit stands in (for the cursor).

Textual-free. A word query reads the module's words with numpy (a compare over tens of
megabytes is milliseconds), then maps the hits to instructions by their word offsets; a
decimal query decodes only the instructions holding a word of its value.
"""

from __future__ import annotations

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import HEADER_WORDS, Instruction
from spvinspect.codec.grammar import Grammar
from spvinspect.codec.text.listing import Segment
from spvinspect.search import Query

VALUE_CATEGORIES = frozenset({"Literal", "ValueEnum", "BitEnum"})
"""Operand kinds whose number a decimal query finds (ids and strings are not numbers)."""


def words_holding(module: LazyModule, value: int) -> tuple[list[int], list[int]]:
    """The instructions holding a word equal to `value` (indexes, in order, each once),
    and the words of the undecodable tail equal to it (offsets past the tail's start)."""
    import numpy as np  # only when searching: a launch does without numpy

    words = np.frombuffer(module.words, dtype=np.uint32)
    hits = np.flatnonzero(words == value)
    hits = hits[hits >= HEADER_WORDS]
    if not hits.size:
        return [], []
    module.ensure_indexed()
    tail = module.tail_offset
    decoded, undecoded = hits[hits < tail], hits[hits >= tail]
    offsets = np.frombuffer(module.index.offsets, dtype=np.uint32)
    instructions = np.unique(np.searchsorted(offsets, decoded, side="right") - 1)
    return instructions[instructions >= 0].tolist(), (undecoded - tail).tolist()


def value_operand(instruction: Instruction, value: int, grammar: Grammar) -> int | None:
    """The first operand of `instruction` that is a literal number or an enum's value
    equal to `value` (a float literal's bits are not its value), or None."""
    kinds = grammar.operand_kinds
    for k, operand in enumerate(instruction.operands):
        kind = kinds.get(operand.kind)
        if kind is None or kind.category not in VALUE_CATEGORIES or operand.value != value:
            continue
        if isinstance(operand.value, str) or operand.number_type is not None and operand.number_type.category == "float":
            continue
        return k
    return None


def matching_operand(segments: tuple[Segment, ...], query: Query) -> int | None:
    """The operand of a line whose text a query's hit is: an id's spelling or a literal
    whole, or for a text query the first operand holding the text; None (the opcode)."""
    texts: dict[int, str] = {}
    for segment in segments:
        if segment.operand is not None:
            texts[segment.operand] = texts.get(segment.operand, "") + segment.text
    needle = query.needle
    for operand, text in texts.items():
        if query.kind == "text":
            if needle in (text.lower() if query.ignore_case else text):
                return operand
        elif text == needle:
            return operand
    return None
