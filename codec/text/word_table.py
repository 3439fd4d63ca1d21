"""Every word of one instruction (or of the header) on its own row: the teaching table.

A row gives the word's index within the instruction, its file offset, its hex as the file
holds it and what it is: the first word split into word count and opcode, the result type
and id, each operand's words with the operand's spec name and kind, the enumerant or mask
bit that brought a parameter word, each pair of a pair operand (`OpPhi`'s value from
block), the halves of a 64-bit literal and the bytes of a string word. The table also
carries the grammar's word-count rule. Values are read as the listing prints them
(`OperandFormatter`), string words as `string_word_text` tells them.
"""

from __future__ import annotations

from dataclasses import dataclass

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import HEADER_WORDS, Instruction, Module, Operand
from spvinspect.codec.grammar import Grammar, OperandKind, load_grammar, mask_bits
from spvinspect.codec.text.explain import explain, special_value
from spvinspect.codec.text.grammar_card import word_count_rule
from spvinspect.codec.text.listing import OperandFormatter
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.string_words import string_word_text
from spvinspect.codec.text.word_detail import (
    HEADER_FIELD_NAMES,
    WordKind,
    instruction_word_kinds,
)


@dataclass(frozen=True, slots=True)
class WordRow:
    """One word of the table."""

    index: int
    """The word's index within its instruction (0: the first word); within the header, 0-4."""
    word_offset: int
    """The word's offset in the module, in words."""
    value: int
    """The word as the module reads it (host order)."""
    file_bytes: bytes
    """The word's four bytes in the file's order."""
    kind: WordKind
    role: str
    """What the word is: `word count | opcode`, `Result Type`, `Result <id>`,
    `operand 2 'Object' (IdRef)`, `raw word`, or a header field name."""
    text: str
    """What it holds: `%float`, `Aligned`, `4294967296, low word`, `bytes 1-4 of 6: 'main'`."""
    bits: str = ""
    """The first word's two halves in binary (`0000000000000100 | 0000000000111110`); the
    version word's bytes, high to low (`0 | 1 | 5 | 0`)."""
    tied_to: str = ""
    """The enumerant or mask bit that brought a parameter word (`MemoryAccess Aligned
    (bit 0x2)`), or the pair a word is half of (`pair 1: value %one from block %a`)."""

    @property
    def byte_offset(self) -> int:
        """The word's offset in the file, in bytes."""
        return self.word_offset * 4

    @property
    def hex(self) -> str:
        """The word's value in hex (`0x0004003e`)."""
        return f"0x{self.value:08x}"

    @property
    def file_hex(self) -> str:
        """The word's bytes as the file holds them (`3e 00 04 00`)."""
        return self.file_bytes.hex(" ")


@dataclass(frozen=True, slots=True)
class WordTable:
    """The rows of one instruction (or of the header) and its word-count rule."""

    title: str
    """`OpStore, words 20-23` or `header, words 0-4`."""
    word_count_rule: str
    """The grammar's rule (`3 + variable`, `4`); '' for the header and unknown opcodes."""
    rows: tuple[WordRow, ...]


def header_table(module: Module | LazyModule) -> WordTable:
    """The five header words, one row each; the version word shown as its bytes."""
    words = module.words
    count = min(HEADER_WORDS, len(words))
    grammar = module.grammar if isinstance(module, LazyModule) else load_grammar()
    meanings = [e.text for _, e in zip(range(count), explain(module, grammar, NameMap(None, friendly=False)))]
    rows = []
    for offset in range(count):
        value = words[offset]
        bits = " | ".join(str(b) for b in value.to_bytes(4, "big")) if offset == 1 else ""
        field = HEADER_FIELD_NAMES[offset] if module.header is not None else "incomplete header word"
        rows.append(
            WordRow(
                offset,
                offset,
                value,
                _file_bytes(module, value),
                WordKind.HEADER,
                field,
                meanings[offset],
                bits,
            )
        )
    return WordTable(f"header, words 0-{count - 1}", "", tuple(rows))


def word_table(
    module: Module | LazyModule, inst: Instruction, formatter: OperandFormatter | None = None
) -> WordTable:
    """Every word of `inst` (an instruction of `module`, lazy or eager), one row each.
    `formatter` prints operands with the module's names (raw numbers when None)."""
    grammar = module.grammar if isinstance(module, LazyModule) else load_grammar()
    if formatter is None:
        formatter = OperandFormatter(grammar, NameMap(None, friendly=False))
    words = module.words
    kinds = instruction_word_kinds(inst)
    first = words[inst.offset]
    rows = [
        WordRow(
            0,
            inst.offset,
            first,
            _file_bytes(module, first),
            WordKind.OPCODE,
            "word count | opcode",
            f"word count {first >> 16}, opcode {first & 0xFFFF} ({inst.opname})",
            f"{first >> 16:016b} | {first & 0xFFFF:016b}",
        )
    ]
    ext_kinds = formatter.ext_kinds(inst)
    all_kinds = {**grammar.operand_kinds, **(ext_kinds or {})}
    ties = _ties(grammar, inst, all_kinds, formatter, ext_kinds)
    numbered = [o.offset for o in inst.operands if o.kind not in ("IdResultType", "IdResult", "Raw")]
    spec_numbers = {offset: n for n, offset in enumerate(numbered, 1)}
    for number, operand in enumerate(inst.operands):
        role = _role(operand, spec_numbers)
        value_text = "" if operand.kind == "Raw" else formatter.operand_text(operand, inst, ext_kinds)
        special = special_value(operand) if operand.kind != "Raw" else ""
        if special:
            value_text += f", which is {special}"
        for part in range(operand.num_words):
            offset = operand.offset + part
            if not inst.offset < offset < inst.end:
                continue
            value = words[offset]
            rows.append(
                WordRow(
                    offset - inst.offset,
                    offset,
                    value,
                    _file_bytes(module, value),
                    kinds[offset - inst.offset],
                    role,
                    _part_text(operand, part, value_text),
                    tied_to=ties[number],
                )
            )
    return WordTable(
        f"{inst.opname}, words {inst.offset}-{inst.end - 1}", _rule(grammar, inst), tuple(rows)
    )


def _file_bytes(module: Module | LazyModule, value: int) -> bytes:
    return value.to_bytes(4, "big" if module.big_endian else "little")


def _role(operand: Operand, spec_numbers: dict[int, int]) -> str:
    """`Result Type`, `Result <id>`, `raw word`, or `operand 2 'Object' (IdRef)` in the
    specification's numbering (`spec_numbers`: operand offset -> number from 1, after
    the result type and id)."""
    if operand.kind == "IdResultType":
        return "Result Type"
    if operand.kind == "IdResult":
        return "Result <id>"
    if operand.kind == "Raw":
        return "raw word"
    name = f" '{operand.name}'" if operand.name else ""
    return f"operand {spec_numbers[operand.offset]}{name} ({operand.kind})"


def _part_text(operand: Operand, part: int, value_text: str) -> str:
    """What word `part` of `operand` holds."""
    if operand.kind == "Raw":
        return "raw word, does not fit the grammar"
    if operand.kind == "LiteralString":
        encoded = str(operand.value).encode("utf-8", "surrogateescape")
        return f"{value_text}, word {part + 1} of {operand.num_words}: {string_word_text(encoded, part)}"
    if operand.num_words == 2:
        return f"{value_text}, {'low' if part == 0 else 'high'} word"
    if operand.num_words > 2:
        return f"{value_text}, word {part + 1} of {operand.num_words}"
    return value_text


def _ties(
    grammar: Grammar,
    inst: Instruction,
    kinds: dict[str, OperandKind],
    formatter: OperandFormatter,
    ext_kinds: dict[str, OperandKind] | None,
) -> list[str]:
    """For each operand, what it is tied to: the enumerant or mask bit whose parameter it
    is (parameters follow their enum operand, a mask's bit by bit, lowest first, as the
    decoder reads them), or the pair of a pair operand it is half of; '' otherwise."""
    ties = [""] * len(inst.operands)
    pending: list[str] = []
    for number, operand in enumerate(inst.operands):
        if operand.kind == "Raw":
            break
        if pending:
            ties[number] = pending.pop(0)
        kind = kinds.get(operand.kind)
        if kind is None or not kind.is_enum or not isinstance(operand.value, int):
            continue
        if kind.category == "BitEnum":
            brought = []
            for bit in mask_bits(operand.value):
                enumerant = kind.by_value.get(bit)
                if enumerant is not None:
                    label = f"{kind.kind} {enumerant.name} (bit 0x{bit:x})"
                    brought += [label] * len(enumerant.parameters)
        else:
            enumerant = kind.by_value.get(operand.value)
            brought = [f"{kind.kind} {enumerant.name}"] * len(enumerant.parameters) if enumerant else []
        pending[0:0] = brought
    for number, pair in _pairs(grammar, inst, kinds):
        first, second = (inst.operands[n] for n in pair)
        texts = [formatter.operand_text(o, inst, ext_kinds) for o in (first, second)]
        place = f"pair {number}"
        halves, shown = _PAIR_HALVES.get(inst.opname, ("first", "second")), f"{texts[0]} -> {texts[1]}"
        if inst.opname == "OpPhi":
            shown = f"value {texts[0]} from block {texts[1]}"
        for n, half in zip(pair, halves):
            ties[n] = f"{place} ({half}): {shown}"
    return ties


_PAIR_HALVES = {"OpPhi": ("value", "from block"), "OpSwitch": ("case literal", "target label")}
"""What each half of a pair is, where the specification says it in words."""


def _pairs(
    grammar: Grammar, inst: Instruction, kinds: dict[str, OperandKind]
) -> list[tuple[int, tuple[int, int]]]:
    """(pair number from 1, the operand indexes of its halves) for each pair of a
    Composite (pair) operand of a core instruction: the decoder gives both halves of a
    pair the pair's spec name."""
    desc = grammar.instructions.get(inst.opcode)
    if desc is None or inst.ext_inst_set:
        return []
    names = {
        d.name for d in desc.operands if (k := kinds.get(d.kind)) is not None and k.category == "Composite"
    }
    pairs = []
    for name in names:
        members = [n for n, o in enumerate(inst.operands) if o.name == name and o.kind != "Raw"]
        pairs += [(k // 2 + 1, (members[k], members[k + 1])) for k in range(0, len(members) - 1, 2)]
    return pairs


def _rule(grammar: Grammar, inst: Instruction) -> str:
    """The grammar's word-count rule for `inst` (for OpExtInst, the extended instruction's)."""
    if inst.ext_inst_set:
        ext = grammar.ext_inst_set(inst.ext_inst_set)
        number = next((o.value for o in inst.operands if o.kind == "LiteralExtInstInteger"), None)
        if ext is not None and isinstance(number, int) and number in ext.instructions:
            kinds = {**grammar.operand_kinds, **ext.operand_kinds}
            return word_count_rule(ext.instructions[number].operands, kinds, 5)
    desc = grammar.instructions.get(inst.opcode)
    return word_count_rule(desc.operands, grammar.operand_kinds) if desc is not None else ""
