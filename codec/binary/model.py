"""The decoded SPIR-V module: immutable records over the module's words.

Every instruction and every operand carries its word offset from the start of the
module and its length in words, so any word of the file maps back to what it is.
The records are named tuples: immutable, compact and cheap to create by the hundred
thousand.
"""

from __future__ import annotations

import bisect
from array import array
from dataclasses import dataclass, field
from typing import NamedTuple

from spvinspect.codec.diagnostics import Diagnostic

MAGIC = 0x07230203
HEADER_WORDS = 5


class NumberType(NamedTuple):
    """The type that sizes a context-dependent literal: 'int' or 'float', width, sign."""

    category: str
    width: int
    signed: bool = False
    encoding: int | None = None
    """For a float: OpTypeFloat's FPEncoding operand (bfloat16, 8-bit floats), if any."""


class Operand(NamedTuple):
    """One operand of an instruction: a span of words and the value they hold.

    `kind` is the grammar's operand kind (`IdRef`, `LiteralInteger`, `Decoration`, …)
    or `Raw` for words that could not be decoded. `value` is an int (ids, integers,
    enum values, masks, opcode numbers, raw words), a str (`LiteralString`), or for
    multi-word numbers the combined integer (low word first).
    """

    kind: str
    name: str
    value: int | str
    offset: int
    num_words: int
    number_type: NumberType | None = None
    """Set for `LiteralContextDependentNumber` and typed `LiteralInteger` operands."""

    @property
    def end(self) -> int:
        """Word offset just past this operand."""
        return self.offset + self.num_words


class Instruction(NamedTuple):
    """One decoded instruction."""

    offset: int
    """Word offset of the first word (word count and opcode) from the module start."""
    opcode: int
    opname: str
    """`OpFoo` from the grammar, or `Op<N>` for an opcode the grammar does not know."""
    word_count: int
    type_id: int
    """The IdResultType, or 0."""
    result_id: int
    """The IdResult, or 0."""
    operands: tuple[Operand, ...]
    ext_inst_set: str = ""
    """For OpExtInst: the import name of the instruction set."""
    valid: bool = True
    """False when the operands do not fit the grammar; raw operands cover the words."""

    @property
    def end(self) -> int:
        """Word offset just past this instruction."""
        return self.offset + self.word_count


class Header(NamedTuple):
    """The five header words, decoded."""

    magic: int
    version: int
    generator: int
    bound: int
    schema: int
    big_endian: bool = False

    @property
    def version_text(self) -> str:
        """`1.5` from the version word."""
        return f"{(self.version >> 16) & 0xFF}.{(self.version >> 8) & 0xFF}"

    @property
    def generator_tool(self) -> int:
        """The registered tool id (high 16 bits of the generator word)."""
        return self.generator >> 16

    @property
    def generator_version(self) -> int:
        """The tool's own version number (low 16 bits)."""
        return self.generator & 0xFFFF


@dataclass(slots=True, eq=False, repr=False)
class Module:
    """A decoded module: header, instructions, the raw words and what went wrong.

    `tail_offset` is the word offset where decoding stopped for good (a word count of
    0 or one running past the end); words from there on are kept undecoded.
    `trailing_bytes` holds bytes past the last whole word. `big_endian` is the byte order
    the magic number gave (also for a module shorter than its header, which has none).
    """

    words: array
    header: Header | None
    instructions: list[Instruction]
    diagnostics: list[Diagnostic]
    tail_offset: int
    trailing_bytes: bytes
    ext_inst_imports: dict[int, str]
    big_endian: bool = False
    _index_by_offset: list[int] | None = field(default=None, init=False)

    @property
    def word_count(self) -> int:
        """Number of whole words in the input."""
        return len(self.words)

    def instruction_at(self, word_offset: int) -> Instruction | None:
        """The instruction that covers `word_offset`, or None (header or tail)."""
        if self._index_by_offset is None:
            self._index_by_offset = [inst.offset for inst in self.instructions]
        i = bisect.bisect_right(self._index_by_offset, word_offset) - 1
        if i < 0:
            return None
        inst = self.instructions[i]
        return inst if word_offset < inst.end else None
