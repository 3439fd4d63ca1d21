"""What the diff needs of a module, per instruction: where it is, its words, which of its
words are ids, and the module's layout (sections, functions, blocks).

Which words are ids comes from the decoder's plans (`codec.diff.id_words`), so that a
module of half a million instructions costs no operand records.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.diff.id_words import scan

SECTIONS = ("mode setting", "debug", "annotations", "declarations")
"""The sections before the functions, in the order the layout rules give them."""

_SECTION_OF_CLASS = {"Mode-Setting": 0, "Extension": 0, "Debug": 1, "Annotation": 2}
"""The section an instruction class opens (any other class opens the declarations)."""


class Block(NamedTuple):
    """A block of a function: instruction indexes [first, end), its label id."""

    first: int
    end: int
    label: int


class Function(NamedTuple):
    """A function: instruction indexes [first, end), its id, its parameters' and blocks'
    extents."""

    first: int
    end: int
    result_id: int
    params: tuple[int, ...]
    """Indexes of the OpFunctionParameter instructions."""
    blocks: tuple[Block, ...]


class ModuleShape:
    """One module as the diff reads it: per instruction, its word offset, its id
    positions and its result id; the sections before the functions; the functions."""

    def __init__(self, module: LazyModule) -> None:
        self.module = module
        self.words = module.words
        header = module.header
        self.bound = header.bound if header is not None else 0
        offsets, facts, results = scan(module, self.bound)
        self.offsets = offsets
        self.id_positions = [f[0] for f in facts]
        self.result_positions = [f[1] for f in facts]
        self.results = results
        words = self.words
        self.count = len(offsets)
        self.tail = self.word_range(self.count - 1)[1] if offsets else min(len(self.words), 5)
        """Where the instructions end: any words from here on could not be read."""
        grammar = module.grammar
        self.opcodes = array("H", [words[o] & 0xFFFF for o in offsets])
        ops = module.tables.opcodes
        self.op_label = ops.OpLabel
        self.op_function = ops.OpFunction
        self.op_parameter = ops.OpFunctionParameter
        spans = self._spans()
        self.global_end = spans[0][0] if spans else self.count
        self.sections = self._sections(grammar)
        self.functions = [self._function(*span) for span in spans]
        self.module_ids = set(results[: self.global_end])
        self.module_ids.update(result for _, _, result in spans)
        self.module_ids.discard(0)
        """The ids defined before the functions, and the functions' own: any other id
        is a function's value (or defined nowhere)."""

    def _spans(self) -> list[tuple[int, int, int]]:
        """Each function's instructions [first, end) and id: OpFunction up to its
        OpFunctionEnd, or to the next OpFunction, or to the last instruction, when it is
        cut short (as `LazyModule.functions` has them)."""
        opcodes = self.opcodes
        starts = _indexes(opcodes, self.op_function, 0, self.count)
        op_end = self.module.tables.opcodes.OpFunctionEnd
        spans = []
        for k, first in enumerate(starts):
            limit = starts[k + 1] if k + 1 < len(starts) else self.count
            ends = _indexes(opcodes, op_end, first + 1, limit, 1)
            offset = self.offsets[first]
            result = self.words[offset + 2] if self.words[offset] >> 16 >= 3 else 0
            spans.append((first, ends[0] + 1 if ends else limit, result))
        return spans

    def _sections(self, grammar) -> list[list[int]]:
        """Instruction indexes of each section before the functions: an instruction
        belongs to the latest section opened so far (an OpLine among the types stays
        with them)."""
        sections: list[list[int]] = [[] for _ in SECTIONS]
        classes: dict[int, int] = {}
        current = 0
        for index in range(self.global_end):
            opcode = self.opcodes[index]
            section = classes.get(opcode)
            if section is None:
                desc = grammar.instructions.get(opcode)
                section = classes[opcode] = _SECTION_OF_CLASS.get(desc.opclass if desc else "", 3)
            current = max(current, section)
            sections[current].append(index)
        return sections

    def _function(self, first: int, end: int, result_id: int) -> Function:
        opcodes = self.opcodes
        labels = _indexes(opcodes, self.op_label, first + 1, end)
        head_end = labels[0] if labels else end
        params = tuple(k for k in range(first + 1, head_end) if opcodes[k] == self.op_parameter)
        blocks = [Block(start, stop, self.results[start]) for start, stop in zip(labels, labels[1:])]
        if labels:
            # The last block runs to the OpFunctionEnd, which belongs to no block.
            start = labels[-1]
            last = end - 1 if end - 1 > start and opcodes[end - 1] != self.op_label else end
            blocks.append(Block(start, last, self.results[start]))
        return Function(first, end, result_id, params, tuple(blocks))

    # -- one instruction -------------------------------------------------------------

    def words_of(self, index: int) -> list[int]:
        """The words of instruction `index`."""
        offset = self.offsets[index]
        return self.words[offset : offset + (self.words[offset] >> 16)].tolist()

    def word_range(self, index: int) -> tuple[int, int]:
        """Word offsets [start, end) of instruction `index` in the module."""
        offset = self.offsets[index]
        return offset, offset + (self.words[offset] >> 16)

    def ids_read(self, index: int) -> list[int]:
        """The ids instruction `index` reads (not its result), in word order."""
        offset = self.offsets[index]
        words = self.words
        result = self.result_positions[index]
        return [words[offset + p] for p in self.id_positions[index] if p != result]

    def string_at(self, index: int, position: int) -> str:
        """The nul-terminated string from word `position` of instruction `index`."""
        start, end = self.word_range(index)
        # The words hold values (either byte order); a string's first character is
        # the low byte of its first word.
        raw = b"".join(word.to_bytes(4, "little") for word in self.words[start + position : end])
        return raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")


def _indexes(values: array, value: int, start: int, stop: int, most: int = -1) -> list[int]:
    """Where `value` is in `values[start:stop]` (the first `most` places), found at C
    speed."""
    out = []
    at = start
    while most and at < stop:
        try:
            at = values.index(value, at, stop)
        except ValueError:
            break
        out.append(at)
        at += 1
        most -= 1
    return out
