"""What every word of a module is: the teaching view of the binary and the hex pane's data.

`explain(module)` yields one `WordExplanation` per word, in order, with no gaps: header
words, each instruction's first word, each operand word (strings word by word), raw
words of instructions that do not fit the grammar, and the undecoded tail.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import Instruction, Module, Operand
from spvinspect.codec.float_formats import special_float
from spvinspect.codec.grammar import Grammar, load_grammar
from spvinspect.codec.text.listing import OperandFormatter, generator_text
from spvinspect.codec.text.names import NameMap, module_names
from spvinspect.codec.text.string_words import string_word_text


UNDECODED_WORD = "undecoded word (after the point where decoding stopped)"
"""What a word of the undecodable tail is."""


class WordExplanation(NamedTuple):
    """One word of the module and what it is."""

    offset: int
    """Word offset from the module start."""
    value: int
    text: str
    instruction: int | None = None
    """Index of the instruction the word belongs to, if any."""
    operand: int | None = None
    """Index of the operand within that instruction, if any."""

    @property
    def byte_offset(self) -> int:
        """Byte offset of the word in the file."""
        return self.offset * 4


def explain(
    module: Module | LazyModule, grammar: Grammar | None = None, names: NameMap | None = None
) -> Iterator[WordExplanation]:
    """Every word of `module` (eager or lazy), explained, in file order. Ids are shown by
    `names` (the module's friendly names when None)."""
    grammar = module.grammar if isinstance(module, LazyModule) else grammar or load_grammar()
    words = module.words
    header = module.header
    if header is not None:
        order = "big-endian" if header.big_endian else "little-endian"
        magic_note = f"SPIR-V, {order}" if header.magic == 0x07230203 else "not SPIR-V"
        yield WordExplanation(0, words[0], f"header: magic number 0x{header.magic:08x} ({magic_note})")
        yield WordExplanation(1, words[1], f"header: version = {header.version_text}")
        yield WordExplanation(
            2, words[2], f"header: generator = {generator_text(header, grammar)}"
        )
        yield WordExplanation(3, words[3], f"header: bound = {header.bound}")
        yield WordExplanation(4, words[4], f"header: schema = {header.schema}")
    else:
        for offset in range(len(words)):
            yield WordExplanation(offset, words[offset], "incomplete header word")
        return
    formatter = OperandFormatter(grammar, names or module_names(module, True, grammar))
    if isinstance(module, LazyModule):
        instructions = module.instructions()
    else:
        instructions = iter(module.instructions)
    for index, inst in enumerate(instructions):
        yield from instruction_words(inst, index, module, formatter)
    for offset in range(module.tail_offset, len(words)):
        yield WordExplanation(offset, words[offset], UNDECODED_WORD)


def instruction_words(
    inst: Instruction, index: int, module: Module | LazyModule, formatter: OperandFormatter
) -> Iterator[WordExplanation]:
    """The words of instruction number `index`, explained: what `explain` says of them,
    one instruction at a time (the hex pane's word detail asks for one word)."""
    words = module.words
    op = inst.opname
    yield WordExplanation(
        inst.offset,
        words[inst.offset],
        f"{op} word 0: word count {inst.word_count}, opcode {inst.opcode}",
        index,
    )
    ext_kinds = formatter.ext_kinds(inst)
    for number, operand in enumerate(inst.operands):
        label = f"{op} operand '{operand.name}'" if operand.name else f"{op} operand"
        if operand.kind == "Raw":
            yield WordExplanation(
                operand.offset,
                operand.value,  # type: ignore[arg-type]
                f"{op} word {operand.offset - inst.offset}: raw word, does not fit the grammar",
                index,
                number,
            )
        elif operand.kind == "LiteralString":
            yield from _string_words(operand, label, words, index, number)
        else:
            shown = (
                f"%{operand.value}"
                if operand.kind[:2] == "Id"
                else str(operand.value)
            )
            text = formatter.operand_text(operand, inst, ext_kinds)
            meaning = f"{label} ({operand.kind}) = {text}"
            if operand.kind[:2] == "Id" and text != shown:
                meaning += f" ({shown})"
            elif operand.kind[:2] != "Id" and text != shown and operand.num_words == 1:
                meaning += f" ({shown})"
            special = special_value(operand)
            if special:
                meaning += f", which is {special}"
            for part in range(operand.num_words):
                suffix = (
                    f" [word {part + 1} of {operand.num_words}, {'low' if part == 0 else 'high'} bits]"
                    if operand.num_words > 1
                    else ""
                )
                offset = operand.offset + part
                yield WordExplanation(offset, words[offset], meaning + suffix, index, number)


def special_value(operand: Operand) -> str:
    """For a float literal that is no finite number: `+Inf`, `-Inf`, `NaN (quiet)`… (the
    disassembly prints these as hex floats); '' otherwise."""
    number_type = operand.number_type
    if number_type is None or number_type.category != "float" or not isinstance(operand.value, int):
        return ""
    width = 64 if operand.num_words == 2 else number_type.width
    return special_float(operand.value, width, number_type.encoding)


def _string_words(
    operand: Operand, label: str, words, index: int, number: int
) -> Iterator[WordExplanation]:
    encoded = str(operand.value).encode("utf-8", "surrogateescape")
    for part in range(operand.num_words):
        offset = operand.offset + part
        where = string_word_text(encoded, part)
        yield WordExplanation(offset, words[offset], f"{label} (LiteralString) {where}", index, number)


EXPLAIN_CHUNK = 1 << 16
"""Words explained per piece of `explain_chunks`."""


def explain_chunks(
    module: Module | LazyModule, grammar: Grammar | None = None, names: NameMap | None = None
) -> Iterator[str]:
    """`explain_text` a piece at a time (newline-terminated lines, `EXPLAIN_CHUNK` words
    each), to be written as they come: a large module's text is never held at once."""
    lines: list[str] = []
    for e in explain(module, grammar, names):
        lines.append(f"0x{e.byte_offset:08x}  {e.value:08x}  {e.text}\n")
        if len(lines) == EXPLAIN_CHUNK:
            yield "".join(lines)
            lines = []
    if module.trailing_bytes:
        start = len(module.words) * 4
        lines.append(
            f"0x{start:08x}  {module.trailing_bytes.hex():<8}  "
            f"{len(module.trailing_bytes)} trailing byte(s), not a whole word\n"
        )
    if lines:
        yield "".join(lines)


def explain_text(
    module: Module | LazyModule, grammar: Grammar | None = None, names: NameMap | None = None
) -> str:
    """`explain` as text: byte offset, hex word and meaning, one line per word."""
    return "".join(explain_chunks(module, grammar, names)) or "\n"
