"""What one word of a module is, in full: the data inspector behind the hex pane.

`word_kind` and `instruction_word_kinds` say what kind of word each word is (header,
opcode word, type id, result id, id, literal, string, enum, raw, tail, trailing), from the
decoded operands' spans, never by decoding again. `word_detail` gathers everything about
one word: its offsets, its value read as every type at once, and what it is — the header
field, the instruction's first word split into word count and opcode, or the operand it
belongs to with its grammar kind, decoded value and, for ids, where they are defined.
The per-word meaning is `explain`'s, so the panel and `spvinspect explain` agree.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from itertools import islice

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import HEADER_WORDS, Instruction, Module, Operand
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.float_formats import special_float
from spvinspect.codec.text.explain import UNDECODED_WORD, explain, instruction_words, special_value
from spvinspect.codec.text.listing import OperandFormatter
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.number_format import format_float
from spvinspect.codec.text.string_words import string_word_text

HEADER_FIELD_NAMES = ("magic number", "version", "generator", "bound", "schema")


class WordKind(str, Enum):
    """What a word is, for colouring; the values match the listing's roles where they meet."""

    HEADER = "header"
    OPCODE = "opcode"
    """An instruction's first word: word count and opcode."""
    TYPE_ID = "type_id"
    RESULT_ID = "result_id"
    ID = "id"
    LITERAL = "literal"
    STRING = "string"
    ENUM = "enum"
    RAW = "raw"
    """A word of an instruction that does not fit the grammar."""
    TAIL = "tail"
    """A word after the point where decoding stopped for good."""
    TRAILING = "trailing"
    """Bytes past the last whole word."""


def operand_word_kind(kind: str) -> WordKind:
    """The word kind of an operand of grammar kind `kind` (or `Raw`)."""
    if kind == "IdResultType":
        return WordKind.TYPE_ID
    if kind == "IdResult":
        return WordKind.RESULT_ID
    if kind.startswith("Id"):
        return WordKind.ID
    if kind == "LiteralString":
        return WordKind.STRING
    if kind == "Raw":
        return WordKind.RAW
    if kind.startswith("Literal"):
        return WordKind.LITERAL
    return WordKind.ENUM


def instruction_word_kinds(inst: Instruction) -> tuple[WordKind, ...]:
    """The kind of each word of `inst`, first word first; words no operand covers are raw."""
    kinds = [WordKind.RAW] * inst.word_count
    kinds[0] = WordKind.OPCODE
    for operand in inst.operands:
        kind = operand_word_kind(operand.kind)
        for offset in range(max(operand.offset, inst.offset + 1), min(operand.end, inst.end)):
            kinds[offset - inst.offset] = kind
    return tuple(kinds)


def locate(module: Module | LazyModule, word_offset: int) -> tuple[int, Instruction] | None:
    """The index and the instruction holding `word_offset`, or None (header, tail)."""
    if isinstance(module, Module):
        inst = module.instruction_at(word_offset)
        if inst is None:
            return None
        index = _eager_index(module, inst)
        return index, inst
    index = module.index_at(word_offset)
    if index is None:
        return None
    return index, module.instruction(index)


def _eager_index(module: Module, inst: Instruction) -> int:
    return bisect.bisect_left(module.instructions, inst.offset, key=lambda i: i.offset)


def word_kind(module: Module | LazyModule, word_offset: int) -> WordKind:
    """The kind of the word at `word_offset` (`len(words)`: the trailing bytes)."""
    if word_offset >= len(module.words):
        return WordKind.TRAILING
    if word_offset < HEADER_WORDS:
        return WordKind.HEADER
    found = locate(module, word_offset)
    if found is None:
        return WordKind.TAIL
    _, inst = found
    return instruction_word_kinds(inst)[word_offset - inst.offset]


@dataclass(frozen=True, slots=True)
class WordDetail:
    """Everything about one word: where it is, its value read as every type, what it is."""

    word_offset: int
    value: int | None
    """The word as the module reads it (host order); None for the trailing bytes."""
    file_bytes: bytes
    """The word's bytes as stored in the file (the trailing bytes, for that cell)."""
    kind: WordKind
    meaning: str
    """What `spvinspect explain` says about this word."""
    header_field: str = ""
    """For a header word: `magic number`, `version`, `generator`, `bound` or `schema`."""
    instruction_index: int | None = None
    instruction: Instruction | None = None
    operand_index: int | None = None
    """Index into the instruction's operands; None on its first word."""
    value_text: str = ""
    """The operand as the disassembler prints it (`%main`, `Function`, `32`, `"abc"`)."""
    part: str = ""
    """For an operand of several words, which part this word is."""
    definition: Instruction | None = None
    """For an id: the instruction that defines it, when known."""
    definition_index: int | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    """Why this word (or its instruction, or the tail it is in) could not be decoded."""
    instruction_total: int | None = None
    """How many instructions the module has (None while a lazy module is being indexed)."""

    @property
    def byte_offset(self) -> int:
        """The word's byte offset in the file."""
        return self.word_offset * 4

    @property
    def operand(self) -> Operand | None:
        """The operand this word belongs to, if any."""
        if self.instruction is None or self.operand_index is None:
            return None
        return self.instruction.operands[self.operand_index]

    @property
    def operand_label(self) -> str:
        """`'Width' (LiteralInteger)`, or `(IdRef)` for an operand the grammar leaves unnamed."""
        operand = self.operand
        if operand is None:
            return ""
        return f"'{operand.name}' ({operand.kind})" if operand.name else f"({operand.kind})"

    @property
    def signed(self) -> int | None:
        """The word as a two's-complement 32-bit integer."""
        if self.value is None:
            return None
        return self.value - (1 << 32) if self.value & 0x80000000 else self.value

    @property
    def as_float(self) -> str:
        """The word as a 32-bit float, as the disassembler prints one; an infinity or a
        NaN is named first (`NaN (quiet), printed 0x1.8p+128`)."""
        if self.value is None:
            return ""
        printed = format_float(self.value, 32)
        special = special_float(self.value, 32)
        return f"{special}, printed {printed}" if special else printed

    @property
    def as_chars(self) -> str:
        """The word as four characters of a SPIR-V string (first character in the low
        byte); `.` for bytes that are not printable ASCII."""
        if self.value is None:
            return ""
        return "".join(chr(b) if 0x20 <= b < 0x7F else "." for b in self.value.to_bytes(4, "little"))

    @property
    def operand_place(self) -> str:
        """Which operand this is, as the specification numbers them: `the Result Type`,
        `the Result <id>`, or `operand 2 of 4 (spec numbering)` — from 1, after those two."""
        operand, inst = self.operand, self.instruction
        if operand is None or inst is None:
            return ""
        if operand.kind == "IdResultType":
            return "the Result Type"
        if operand.kind == "IdResult":
            return "the Result <id>"
        numbered = [o for o in inst.operands if o.kind not in ("IdResultType", "IdResult")]
        return f"operand {numbered.index(operand) + 1} of {len(numbered)} (spec numbering)"

    @property
    def instruction_place(self) -> str:
        """`instruction 85 of 199`, counting from 1 (`instruction 85` while the module is
        still being indexed)."""
        if self.instruction_index is None:
            return ""
        place = f"instruction {self.instruction_index + 1}"
        return f"{place} of {self.instruction_total}" if self.instruction_total else place

    @property
    def first_word_split(self) -> tuple[int, int] | None:
        """For an instruction's first word: (word count, opcode)."""
        if self.kind is not WordKind.OPCODE or self.value is None:
            return None
        return self.value >> 16, self.value & 0xFFFF

    def rows(self) -> list[tuple[str, str]]:
        """(label, text) pairs in reading order: what a panel shows."""
        rows = [("Offset", f"byte 0x{self.byte_offset:08x} ({self.byte_offset}), word {self.word_offset}")]
        if self.value is None:
            rows.append(("Bytes", self.file_bytes.hex(" ")))
        else:
            rows += [
                ("Hex", f"0x{self.value:08x}  (file bytes {self.file_bytes.hex(' ')})"),
                ("Unsigned", str(self.value)),
                ("Signed", str(self.signed)),
                ("Float", self.as_float),
                ("Chars", repr(self.as_chars)),
            ]
        rows.append(("What", self.meaning))
        inst = self.instruction
        if self.header_field:
            rows.append(("Header", self.header_field))
        if inst is not None:
            rows.append(
                (
                    "Instruction",
                    f"{inst.opname}, {self.instruction_place}, words {inst.offset}-{inst.end - 1} "
                    f"(byte 0x{inst.offset * 4:08x})",
                )
            )
        split = self.first_word_split
        if split is not None and inst is not None:
            rows.append(("Word 0", f"word count {split[0]}, opcode {split[1]} ({inst.opname})"))
        if self.operand is not None:
            rows.append(("Operand", f"{self.operand_label}, {self.operand_place}"))
            special = special_value(self.operand)
            rows.append(("Value", f"{self.value_text}, which is {special}" if special else self.value_text))
        if self.part:
            rows.append(("Part", self.part))
        if self.definition is not None:
            rows.append(
                (
                    "Defined",
                    f"by {self.definition.opname}, instruction {(self.definition_index or 0) + 1} at word "
                    f"{self.definition.offset} (byte 0x{self.definition.offset * 4:08x})",
                )
            )
        for diagnostic in self.diagnostics:
            rows.append(("Diagnostic", f"{diagnostic.location}: {diagnostic.severity.value}: {diagnostic.message}"))
        return rows


def word_detail(
    module: Module | LazyModule,
    word_offset: int,
    formatter: OperandFormatter | None = None,
    *,
    definition: Callable[[int], int | None] | None = None,
) -> WordDetail:
    """Everything about the word at `word_offset` of `module` (lazy or eager; `len(words)`
    is the trailing bytes). `formatter` prints operands with the module's names (the
    listing's own, `Listing.formatter`; raw numbers when None). `definition` maps an id to
    the index of the instruction defining it, when the caller has that index."""
    if formatter is None:
        grammar = module.grammar if isinstance(module, LazyModule) else load_grammar()
        formatter = OperandFormatter(grammar, NameMap(None, friendly=False))
    words = module.words
    if word_offset >= len(words):
        return WordDetail(
            word_offset,
            None,
            module.trailing_bytes,
            WordKind.TRAILING,
            f"{len(module.trailing_bytes)} trailing byte(s), not a whole word",
            diagnostics=_diagnostics_at(module, range(word_offset, word_offset + 1)),
        )
    value = words[word_offset]
    file_bytes = value.to_bytes(4, "big" if module.big_endian else "little")
    if word_offset < HEADER_WORDS:
        return WordDetail(
            word_offset,
            value,
            file_bytes,
            WordKind.HEADER,
            _meaning(module, word_offset, None, formatter),
            header_field=HEADER_FIELD_NAMES[word_offset],
            diagnostics=_diagnostics_at(module, range(word_offset, word_offset + 1)),
        )
    found = locate(module, word_offset)
    if found is None:
        return WordDetail(
            word_offset,
            value,
            file_bytes,
            WordKind.TAIL,
            _meaning(module, word_offset, None, formatter),
            diagnostics=_diagnostics_at(module, range(module.tail_offset, word_offset + 1)),
        )
    index, inst = found
    number = next(
        (k for k, o in enumerate(inst.operands) if o.offset <= word_offset < o.end), None
    )
    operand = inst.operands[number] if number is not None else None
    value_text = part = ""
    defined_by = defined_index = None
    if operand is not None:
        value_text = formatter.operand_text(operand, inst, formatter.ext_kinds(inst))
        part = _part(operand, word_offset)
        if operand.kind.startswith("Id") and operand.kind != "IdResult" and definition is not None:
            defined_index = definition(operand.value)  # type: ignore[arg-type]
            if defined_index is not None:
                defined_by = _instruction(module, defined_index)
    # An instruction that does not fit the grammar shows its diagnostics on every one of
    # its words; elsewhere a word shows those that name it.
    faulty = range(inst.offset, inst.end) if not inst.valid else range(word_offset, word_offset + 1)
    return WordDetail(
        word_offset,
        value,
        file_bytes,
        instruction_word_kinds(inst)[word_offset - inst.offset],
        _meaning(module, word_offset, found, formatter),
        instruction_index=index,
        instruction=inst,
        operand_index=number,
        value_text=value_text,
        part=part,
        definition=defined_by,
        definition_index=defined_index,
        diagnostics=_diagnostics_at(module, faulty),
        instruction_total=_instruction_total(module),
    )


def _instruction_total(module: Module | LazyModule) -> int | None:
    """The module's instruction count, or None while a lazy module is not fully indexed."""
    if isinstance(module, Module):
        return len(module.instructions)
    return module.instruction_count if module.indexed else None


def _instruction(module: Module | LazyModule, index: int) -> Instruction:
    if isinstance(module, Module):
        return module.instructions[index]
    return module.instruction(index)


def _part(operand: Operand, word_offset: int) -> str:
    """`word 2 of 3: bytes 5-8 of 11: 'ng_n'`, `word 2 of 2 (high bits)`, or '' for a
    one-word operand."""
    if operand.num_words < 2:
        return ""
    k = word_offset - operand.offset
    if operand.kind == "LiteralString":
        encoded = str(operand.value).encode("utf-8", "surrogateescape")
        return f"word {k + 1} of {operand.num_words}: {string_word_text(encoded, k)}"
    bits = "low bits" if k == 0 else "high bits" if k == operand.num_words - 1 else "middle bits"
    return f"word {k + 1} of {operand.num_words} ({bits})"


def _diagnostics_at(module: Module | LazyModule, words: range) -> tuple[Diagnostic, ...]:
    """The diagnostics naming a word in `words`."""
    return tuple(
        d for d in module.diagnostics if d.word_offset is not None and d.word_offset in words
    )


def _meaning(
    module: Module | LazyModule,
    word_offset: int,
    found: tuple[int, Instruction] | None,
    formatter: OperandFormatter,
) -> str:
    """`explain`'s sentence for the word: the header's, the instruction's or the tail's."""
    if found is None:
        if word_offset < HEADER_WORDS:
            return next(islice(explain(module, formatter.grammar, formatter.names), word_offset, None)).text
        return UNDECODED_WORD
    index, inst = found
    return next(
        e.text for e in instruction_words(inst, index, module, formatter) if e.offset == word_offset
    )
