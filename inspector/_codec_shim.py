"""TEMPORARY: the #10 contract (LazyModule, NameMap, Listing) over the eager codec.

Deleted as soon as codec/binary/lazy.py, codec/text/names.py and codec/text/listing.py
provide the real thing; only inspector/document.py imports it.
"""

from __future__ import annotations

import bisect
from enum import Enum
from typing import NamedTuple

from codec.binary.decoder import decode
from codec.binary.model import Module
from codec.grammar import Grammar, load_grammar
from codec.text.disassembler import INDENT, Disassembler, DisassemblyOptions, header_lines
from codec.text.names import friendly_names


class FunctionSpan(NamedTuple):
    first: int
    end: int
    result_id: int


class LazyModule:
    def __init__(self, data: bytes, grammar: Grammar | None = None) -> None:
        self.grammar = grammar or load_grammar()
        self._module = decode(data, self.grammar)
        m = self._module
        self.words = m.words
        self.header = m.header
        self.trailing_bytes = m.trailing_bytes
        self.diagnostics = m.diagnostics
        self.indexed = True
        self.instruction_count = len(m.instructions)
        self.tail_offset = m.tail_offset
        self._offsets = [i.offset for i in m.instructions]

    def ensure_indexed(self, upto: int | None = None) -> None:
        pass

    def offset(self, index: int) -> int:
        return self._offsets[index]

    def index_at(self, word_offset: int) -> int | None:
        i = bisect.bisect_right(self._offsets, word_offset) - 1
        if i < 0 or word_offset >= self._module.instructions[i].end:
            return None
        return i

    def instruction(self, index: int):
        return self._module.instructions[index]

    def functions(self) -> list[FunctionSpan]:
        spans = []
        first = None
        for i, inst in enumerate(self._module.instructions):
            if inst.opname == "OpFunction":
                first = i
            elif inst.opname == "OpFunctionEnd" and first is not None:
                spans.append(FunctionSpan(first, i + 1, self._module.instructions[first].result_id))
                first = None
        return spans

    def check(self):
        return self.diagnostics

    def to_module(self) -> Module:
        return self._module


def open_module(data: bytes, grammar: Grammar | None = None) -> LazyModule:
    return LazyModule(data, grammar)


class NameMap:
    def __init__(self, names: dict[int, str]) -> None:
        self._names = names

    def name(self, id_: int) -> str:
        return self._names.get(id_) or str(id_)

    def id_hints(self) -> dict[str, int]:
        return {n: i for i, n in self._names.items()}


def module_names(module: LazyModule, friendly: bool = True) -> NameMap:
    if not friendly:
        return NameMap({})
    return NameMap(friendly_names(module.to_module().instructions, module.grammar))


class Role(str, Enum):
    INDENT = "indent"
    RESULT_ID = "result_id"
    EQUALS = "equals"
    OPCODE = "opcode"
    TYPE_ID = "type_id"
    ID = "id"
    LITERAL = "literal"
    STRING = "string"
    ENUM = "enum"
    RAW = "raw"
    COMMENT = "comment"
    SPACE = "space"


class Segment(NamedTuple):
    text: str
    role: Role
    operand: int | None


class Listing:
    def __init__(self, module: LazyModule, names: NameMap, options: DisassemblyOptions = DisassemblyOptions()) -> None:
        self.module = module
        self.names = names
        self._dis = Disassembler(module.to_module(), options, module.grammar)
        self._dis.names = names._names

    def segments(self, index: int) -> tuple[Segment, ...]:
        inst = self.module.instruction(index)
        dis = self._dis
        out: list[Segment] = []
        result = dis.result_id(inst)
        if not inst.valid and dis._raw_prefix_result(inst) is None:
            out.append(Segment(" " * INDENT, Role.INDENT, None))
            out.append(Segment(dis.unknown_text(inst), Role.RAW, None))
            return tuple(out)
        if result:
            name = self.names.name(result)
            lead = max(0, INDENT - 4 - len(name))
            if lead:
                out.append(Segment(" " * lead, Role.INDENT, None))
            ri = next(k for k, o in enumerate(inst.operands) if o.kind == "IdResult")
            out.append(Segment("%" + name, Role.RESULT_ID, ri))
            out.append(Segment(" = ", Role.EQUALS, None))
        else:
            out.append(Segment(" " * INDENT, Role.INDENT, None))
        out.append(Segment(inst.opname, Role.OPCODE, None))
        ext = None
        if inst.ext_inst_set:
            e = module_ext = self.module.grammar.ext_inst_set(inst.ext_inst_set)
            ext = module_ext.operand_kinds if e is not None else None
        for k, operand in enumerate(inst.operands):
            if operand.kind == "IdResult":
                continue
            out.append(Segment(" ", Role.SPACE, None))
            kind = operand.kind
            role = (
                Role.TYPE_ID if kind == "IdResultType" else Role.ID if kind.startswith("Id")
                else Role.STRING if kind == "LiteralString" else Role.RAW if kind == "Raw"
                else Role.LITERAL if kind.startswith("Literal") else Role.ENUM
            )
            out.append(Segment(dis.operand_text(operand, inst, ext), role, k))
        return tuple(out)

    def line(self, index: int) -> str:
        return "".join(s.text for s in self.segments(index))

    def tail_lines(self) -> list[str]:
        words = self.module.words
        pad = " " * INDENT
        return [f"{pad}!0x{words[i]:08x}" for i in range(self.module.tail_offset, len(words))]

    def header_lines(self) -> list[str]:
        if self.module.header is None:
            return []
        return header_lines(self.module.header, self.module.grammar)
