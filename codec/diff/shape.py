"""What the diff needs of a module, per instruction: where it is, its words, which of its
words are ids, and the module's layout (sections, functions, blocks).

Made in one pass of the decoder's fast path (`LazyModule.in_order` with a form that only
says which words are ids), so that a module of half a million instructions costs no
operand records; instructions the fast path does not take are read from their decoded
operands.
"""

from __future__ import annotations

from array import array
from typing import NamedTuple

from spvinspect.codec.binary.fast_forms import FastForms
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import Instruction

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


def _ids_form(plan):
    """The fast path's form for the diff: the instruction's offset with the word
    positions (from its first word) of its ids and of its result id (0 when none)."""
    ids = tuple(k + 1 for k in plan.ids)
    result = plan.result_index + 1 if plan.result_index >= 0 else 0
    facts = (ids, result)
    return lambda words, offset, value, number_type: (offset, facts)


def _ids_of(inst: Instruction, bound: int) -> tuple[tuple[int, ...], int]:
    """The id positions and result position of an instruction the general path decoded;
    words that are not valid ids (0, or past the bound) are left as literals."""
    ids = []
    result = 0
    for operand in inst.operands:
        if operand.kind[:2] == "Id" and operand.num_words == 1 and 0 < operand.value < bound:  # type: ignore[operator]
            position = operand.offset - inst.offset
            ids.append(position)
            if operand.kind == "IdResult":
                result = position
    return tuple(ids), result


class ModuleShape:
    """One module as the diff reads it: per instruction, its word offset, its id
    positions and its result id; the sections before the functions; the functions."""

    def __init__(self, module: LazyModule) -> None:
        self.module = module
        self.words = module.words
        header = module.header
        self.bound = header.bound if header is not None else 0
        offsets = array("I")
        id_positions: list[tuple[int, ...]] = []
        result_positions: list[int] = []
        forms = FastForms(module.tables, _ids_form)
        for run in module.in_order(forms):
            general = set(run.general)
            for k, entry in enumerate(run.entries):
                if k in general:
                    ids, result = _ids_of(entry, self.bound)
                    offsets.append(entry.offset)
                else:
                    offset, (ids, result) = entry
                    offsets.append(offset)
                id_positions.append(ids)
                result_positions.append(result)
        self.offsets = offsets
        self.id_positions = id_positions
        words = self.words
        self.results = array("I", [words[o + r] if r else 0 for o, r in zip(offsets, result_positions)])
        self.result_positions = result_positions
        self.count = len(offsets)
        grammar = module.grammar
        self.opcodes = array("H", [words[o] & 0xFFFF for o in offsets])
        ops = module.tables.opcodes
        self.op_label = ops.OpLabel
        self.op_function = ops.OpFunction
        self.op_parameter = ops.OpFunctionParameter
        spans = module.functions()
        self.global_end = spans[0].first if spans else self.count
        self.sections = self._sections(grammar)
        self.functions = [self._function(s.first, s.end, s.result_id) for s in spans]
        local = bytearray(max(self.bound, 1))
        results = self.results
        for s in spans:
            for index in range(s.first + 1, s.end):
                local[results[index]] = 1
        local[0] = 0
        self.local = local
        """1 for each id a function's instructions define (not the functions' own ids)."""

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
        params = []
        blocks = []
        start = None
        for index in range(first + 1, end):
            opcode = opcodes[index]
            if opcode == self.op_label:
                if start is not None:
                    blocks.append(Block(start, index, self.results[start]))
                start = index
            elif start is None and opcode == self.op_parameter:
                params.append(index)
        if start is not None:
            # The last block runs to the OpFunctionEnd, which belongs to no block.
            last = end - 1 if end - 1 > start and opcodes[end - 1] != self.op_label else end
            blocks.append(Block(start, last, self.results[start]))
        return Function(first, end, result_id, tuple(params), tuple(blocks))

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
