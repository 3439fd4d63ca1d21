"""Where a module's text has more lines than instructions: a string holding a line feed
(an OpSource's source text, say) spreads its instruction over several lines of `dis`
text. Found from the words, without making any text: the instructions with a line-feed
byte and a string operand are found with numpy, and only those are decoded (alone, no
names), their strings' line feeds counted."""

from __future__ import annotations

import numpy as np

from spvinspect.codec.binary.instruction_decoder import InstructionDecoder
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.grammar import Grammar

_DECORATING = {"OpDecorate": 2, "OpMemberDecorate": 3, "OpDecorateString": 2, "OpMemberDecorateString": 3}
"""The instructions whose decoration (at that word) may take a string parameter."""


class LineBreaks:
    """The instructions whose text breaks lines, ascending (`at`), and how many breaks
    the instructions before each hold (`cumulated`, one longer)."""

    __slots__ = ("at", "cumulated")

    def __init__(self, at: np.ndarray, cumulated: np.ndarray) -> None:
        self.at = at
        self.cumulated = cumulated

    def between(self, first: int, end: int) -> int:
        """The line breaks of instructions [first, end)."""
        at, cumulated = self.at, self.cumulated
        return int(cumulated[np.searchsorted(at, end)] - cumulated[np.searchsorted(at, first)])


_STRINGY: dict[int, tuple] = {}
"""id(grammar) -> (the grammar, kept alive so the id stays its, and `string_operands`'s tables)."""


def string_operands(grammar: Grammar) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
    """The opcodes with a string operand, the decorations with a string parameter, and
    the decorating opcodes with the word of their decoration (made once a grammar)."""
    entry = _STRINGY.get(id(grammar))
    if entry is None:
        entry = _STRINGY[id(grammar)] = (grammar, _stringy_tables(grammar))
    return entry[1]


def _stringy_tables(grammar: Grammar) -> tuple[np.ndarray, np.ndarray, dict[int, int]]:
    opcodes = [op.opcode for op in grammar.by_name.values()
               if any(operand.kind == "LiteralString" for operand in op.operands)]
    decorations = [e.value for e in grammar.operand_kinds["Decoration"].enumerants
                   if any(getattr(p, "kind", p) == "LiteralString" for p in e.parameters)]
    decorating = {grammar.by_name[name].opcode: at for name, at in _DECORATING.items() if name in grammar.by_name}
    return np.array(opcodes, dtype=np.uint32), np.array(decorations, dtype=np.uint32), decorating


def line_breaks(module: LazyModule) -> LineBreaks:
    """The line breaks in the strings of the (indexed) module's instructions."""
    stringy, with_strings, decorating = string_operands(module.grammar)
    data = np.frombuffer(module.words, dtype=np.uint8)
    words = np.frombuffer(module.words, dtype=np.uint32)
    offsets = np.frombuffer(module.index.offsets, dtype=np.uint32)[: module.instruction_count].astype(np.int64)
    holders = _distinct(np.searchsorted(offsets, _distinct(np.flatnonzero(data == 0x0A) // 4), side="right") - 1)
    holders = holders[holders >= 0]
    heads = words[offsets[holders]]
    opcodes = heads & 0xFFFF
    keep = np.isin(opcodes, stringy)
    for opcode, at in decorating.items():
        decorates = (opcodes == opcode) & ((heads >> 16) > at)
        keep[decorates] = np.isin(words[offsets[holders[decorates]] + at], with_strings)
    decoder = InstructionDecoder(module.tables, module.header.bound if module.header is not None else 0)
    found, counts = [], []
    for index in holders[keep].tolist():
        (inst,) = decoder.run(module.words, [int(offsets[index])])
        breaks = sum(operand.value.count("\n") for operand in inst.operands if operand.kind == "LiteralString")
        if breaks:
            found.append(index)
            counts.append(breaks)
    return LineBreaks(np.array(found, dtype=np.int64), np.cumsum(np.array([0] + counts, dtype=np.int64)))


def _distinct(ascending: np.ndarray) -> np.ndarray:
    """An ascending array without its repeats (`np.unique` sorts again)."""
    if len(ascending) < 2:
        return ascending
    return ascending[np.concatenate(([True], ascending[1:] != ascending[:-1]))]
