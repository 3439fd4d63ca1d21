"""What earlier instructions declared that later operands depend on: the number types
(how wide OpConstant's and OpSwitch's literals are), the type of each value, and the
extended set each OpExtInstImport result stands for."""

from __future__ import annotations

from array import array

from spvinspect.codec.asm.errors import AssemblyError, Where, shown
from spvinspect.codec.grammar import ExtInstSet
from spvinspect.codec.program import Program

INT, FLOAT, OTHER = 0, 1, 2
"""The first field of a type's entry in `Declarations.types`."""

NumberType = tuple[int, int, object]
"""(INT, width, signed), (FLOAT, width, FPEncoding or None) or (OTHER, 0, False)."""


class Declarations:
    """The types and imports declared so far in one assembly run."""

    __slots__ = ("types", "value_types", "imports", "_program", "_fp_encodings")

    def __init__(self, program: Program) -> None:
        self.types: dict[int, NumberType] = {}
        """Type id → what it is, for the types declared so far."""
        self.value_types: dict[int, int] = {}
        """Result id → its result type id, for the values defined so far."""
        self.imports: dict[int, ExtInstSet | None] = {}
        """OpExtInstImport result id → its set (None for an unknown non-semantic set)."""
        self._program = program
        self._fp_encodings = program.grammar.operand_kinds["FPEncoding"].by_value

    def record_type(self, words: array, where: Where) -> None:
        """Remembers a type declaration (its words, the opcode word first)."""
        if len(words) < 2:
            return
        type_id = words[1]
        if type_id in self.types:
            raise AssemblyError(f"id {type_id} already declares a type", where)
        opcode = words[0] & 0xFFFF
        op = self._program.opcodes
        if opcode == op.OpTypeInt:
            if len(words) != 4:
                raise AssemblyError("OpTypeInt takes a width and a signedness", where)
            self.types[type_id] = (INT, words[2], words[3] != 0)
        elif opcode == op.OpTypeFloat:
            if len(words) not in (3, 4):
                raise AssemblyError("OpTypeFloat takes a width and an optional encoding", where)
            if len(words) == 4 and words[3] not in self._fp_encodings:
                raise AssemblyError(f"{words[3]} is not an FPEncoding", where)
            self.types[type_id] = (FLOAT, words[2], words[3] if len(words) == 4 else None)
        else:
            self.types[type_id] = (OTHER, 0, False)

    def record_import(self, name: str, result: int, i: int) -> None:
        """Remembers which extended set OpExtInstImport's `result` stands for; `i` is
        the name's word."""
        ext = self._program.grammar.ext_inst_set(name)
        if ext is None and not name.startswith("NonSemantic."):
            raise AssemblyError(f"unknown extended instruction set '{shown(name)}'", ("start", i))
        if result in self.imports:
            raise AssemblyError(f"id {result} already imports an extended instruction set", ("start", i))
        self.imports[result] = ext

    def check_ext_set(self, out: array, start: int, opcode: int, tok: str, i: int) -> None:
        """OpExtInst's fourth word, when it has just been emitted for id word `tok`,
        must be an OpExtInstImport result."""
        if len(out) - start == 4 and opcode in self._program.ext_inst_opcodes:
            if out[-1] not in self.imports:
                raise AssemblyError(f"{shown(tok)} is not the result of an OpExtInstImport", ("start", i))

    def constant_type(self, type_id: int) -> NumberType | None:
        """The number type a constant of result type `type_id` takes its literal's
        width from; None when that is not a scalar number type."""
        info = self.types.get(type_id)
        return None if info is None or info[0] == OTHER else info

    def selector_type(self, selector: int) -> NumberType | None:
        """The integer type OpSwitch's case literals take from value `selector`; None
        when it is not a value of a scalar integer type."""
        info = self.types.get(self.value_types.get(selector, -1))
        return None if info is None or info[0] != INT else info
