"""Grammar cards: what the grammar says about one instruction, enumerant or extended
instruction, as records the inspector renders (the teaching view of the grammar).

Every card links to its entry in the Khronos specification: core instructions have an
anchor of their own (`SPIRV.html#OpTypeInt`), enumerants the section of their operand
kind (`SPIRV.html#_storage_class`), extended instructions the page of their set.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache

from spvinspect.codec.grammar import (
    Enumerant,
    Grammar,
    InstructionDesc,
    OperandDesc,
    OperandKind,
    grammar_files,
    mask_bits,
)
from spvinspect.codec.binary.model import Instruction

SPEC_URL = "https://registry.khronos.org/SPIR-V/specs/unified1/SPIRV.html"
EXT_SET_SPEC_URLS = {
    "GLSL.std.450": "https://registry.khronos.org/SPIR-V/specs/unified1/GLSL.std.450.html",
    "OpenCL.std": "https://registry.khronos.org/SPIR-V/specs/unified1/OpenCL.ExtendedInstructionSet.100.html",
    "NonSemantic.Shader.DebugInfo.100": (
        "https://github.khronos.org/SPIRV-Registry/nonsemantic/NonSemantic.Shader.DebugInfo.100.html"
    ),
}
"""The published pages of the extended sets that have one; the others link to OpExtInst."""

_SECTION_TITLE_EXCEPTIONS = {"BuiltIn": "builtin"}
"""Operand kinds whose specification section title is not their CamelCase name split
into words (the spec titles the BuiltIn section as one word)."""

_CAMEL_WORDS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

QUANTIFIER_TEXT = {None: "", "?": "optional", "*": "zero or more"}


@dataclass(frozen=True, slots=True)
class Availability:
    """When something may be used: SPIR-V versions, enabling capabilities and extensions."""

    version: str | None = None
    """First version (`"1.3"`); `"None"` when only a capability or extension enables it."""
    last_version: str | None = None
    capabilities: tuple[str, ...] = ()
    extensions: tuple[str, ...] = ()

    @property
    def version_text(self) -> str:
        """`SPIR-V 1.3 and later`, `SPIR-V 1.0 to 1.5`, `only through an extension or
        capability`, or '' when the grammar does not say."""
        if self.version == "None":
            return "only through an extension or capability"
        if self.version is None:
            return f"up to SPIR-V {self.last_version}" if self.last_version else ""
        if self.last_version:
            return f"SPIR-V {self.version} to {self.last_version}"
        return f"SPIR-V {self.version} and later"


@dataclass(frozen=True, slots=True)
class OperandEntry:
    """One operand (or enumerant parameter) on a card."""

    kind: str
    category: str
    """The kind's category: Id, Literal, ValueEnum, BitEnum, Composite ('' if unknown)."""
    quantifier: str | None
    name: str = ""

    @property
    def quantifier_text(self) -> str:
        """'' for exactly one, 'optional' or 'zero or more'."""
        return QUANTIFIER_TEXT.get(self.quantifier, self.quantifier or "")

    @property
    def text(self) -> str:
        """`'Width' (LiteralInteger)`, `IdRef (zero or more)`: name, kind, quantifier."""
        extra = f", {self.quantifier_text}" if self.quantifier_text else ""
        if self.name:
            return f"'{self.name}' ({self.kind}{extra})"
        return f"{self.kind} ({self.quantifier_text})" if extra else self.kind


@dataclass(frozen=True, slots=True)
class InstructionCard:
    """A core or extended instruction as the grammar describes it."""

    opname: str
    opcode: int
    opclass: str
    operands: tuple[OperandEntry, ...]
    availability: Availability
    aliases: tuple[str, ...]
    spec_url: str
    ext_set: str = ""
    """The extended set's import name (`GLSL.std.450`); '' for a core instruction."""
    word_count: str = ""
    """The specification's word-count rule: `4`, `3 + variable` (`word_count_rule`)."""

    @property
    def numbered_operands(self) -> tuple[tuple[str, OperandEntry], ...]:
        """Each operand with its label in the specification's numbering, as the word
        table numbers them: `Result Type`, `Result <id>`, then `1`, `2`... (an extended
        instruction's after OpExtInst's 'Set' and 'Instruction', so from 3)."""
        labels = []
        number = 3 if self.ext_set else 1
        for entry in self.operands:
            if entry.kind == "IdResultType":
                labels.append(("Result Type", entry))
            elif entry.kind == "IdResult":
                labels.append(("Result <id>", entry))
            else:
                labels.append((str(number), entry))
                number += 1
        return tuple(labels)

    @property
    def title(self) -> str:
        """`OpTypeInt (opcode 21)` or `GLSL.std.450 FMix (instruction 46)`."""
        if self.ext_set:
            return f"{self.ext_set} {self.opname} (instruction {self.opcode})"
        return f"{self.opname} (opcode {self.opcode})"


@dataclass(frozen=True, slots=True)
class EnumerantCard:
    """One value of a ValueEnum or one bit of a BitEnum, with what it needs."""

    kind: str
    category: str
    name: str
    value: int
    parameters: tuple[OperandEntry, ...]
    availability: Availability
    aliases: tuple[str, ...]
    spec_url: str

    @property
    def title(self) -> str:
        """`StorageClass Function (7)`, or `ImageOperands Bias (bit 0x1)` for a mask bit."""
        shown = f"bit 0x{self.value:x}" if self.category == "BitEnum" and self.value else str(self.value)
        return f"{self.kind} {self.name} ({shown})"


@dataclass(frozen=True, slots=True)
class MaskCard:
    """A BitEnum value with more than one bit set (or a bit the grammar does not know):
    every set bit, lowest first, each with its parameters and what it needs."""

    kind: str
    category: str
    value: int
    bits: tuple[EnumerantCard, ...]
    """The cards of the set bits the grammar knows, lowest first."""
    unknown: int
    """The set bits the grammar does not know (0 when none)."""
    spec_url: str
    availability: Availability = Availability()
    """Empty: each bit says what it needs (`bit_lines`)."""
    aliases: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """`FunctionControl Inline|Pure (0x5)`: the bits as the disassembly joins them."""
        names = [bit.name for bit in self.bits]
        names += [f"0x{bit:x}" for bit in mask_bits(self.unknown)]
        return f"{self.kind} {'|'.join(names)} (0x{self.value:x})"

    @property
    def bit_lines(self) -> tuple[str, ...]:
        """One line per set bit: `0x2 Aligned, then LiteralInteger · SPIR-V 1.0 and later`."""
        lines = []
        for bit in self.bits:
            line = f"0x{bit.value:x} {bit.name}"
            if bit.parameters:
                line += ", then " + ", ".join(p.text for p in bit.parameters)
            needs = _needs(bit.availability)
            lines.append(f"{line} · {needs}" if needs else line)
        lines += [f"0x{bit:x} not in the grammar" for bit in mask_bits(self.unknown)]
        return tuple(lines)


GrammarCard = InstructionCard | EnumerantCard | MaskCard


def _needs(availability: Availability) -> str:
    """What an enumerant needs, on one line: capabilities, extensions, versions."""
    parts = []
    if availability.capabilities:
        parts.append("capabilities " + ", ".join(availability.capabilities))
    if availability.extensions:
        parts.append("extensions " + ", ".join(availability.extensions))
    if availability.version_text:
        parts.append(availability.version_text)
    return " · ".join(parts)


def instruction_card(grammar: Grammar, opname_or_opcode: str | int) -> InstructionCard | None:
    """The card of a core instruction by opname (or alias) or opcode; None if unknown."""
    if isinstance(opname_or_opcode, int):
        desc = grammar.instructions.get(opname_or_opcode)
    else:
        desc = grammar.by_name.get(opname_or_opcode)
    if desc is None:
        return None
    return _instruction(desc, grammar.operand_kinds, f"{SPEC_URL}#{desc.opname}", "")


def ext_instruction_card(
    grammar: Grammar, set_name: str, number_or_name: int | str
) -> InstructionCard | None:
    """The card of an extended instruction (`GLSL.std.450`, `FMix` or 46); None if unknown."""
    ext = grammar.ext_inst_set(set_name)
    if ext is None:
        return None
    if isinstance(number_or_name, int):
        desc = ext.instructions.get(number_or_name)
    else:
        desc = ext.by_name.get(number_or_name)
    if desc is None:
        return None
    kinds = {**grammar.operand_kinds, **ext.operand_kinds}
    page = EXT_SET_SPEC_URLS.get(ext.import_name)
    # The set pages have no per-instruction anchors; a text fragment finds the name.
    url = f"{page}#:~:text={desc.opname}" if page else f"{SPEC_URL}#OpExtInst"
    return _instruction(desc, kinds, url, ext.import_name)


def enumerant_card(grammar: Grammar, kind: str, value_or_name: int | str) -> EnumerantCard | None:
    """The card of one enumerant of `kind` by value or name (alias); None if unknown."""
    operand_kind = grammar.operand_kinds.get(kind)
    if operand_kind is None or not operand_kind.is_enum:
        return None
    if isinstance(value_or_name, int):
        enumerant = operand_kind.by_value.get(value_or_name)
    else:
        enumerant = operand_kind.by_name.get(value_or_name)
    if enumerant is None:
        return None
    return _enumerant(operand_kind, enumerant, grammar.operand_kinds)


def mask_card(grammar: Grammar, kind: str, value: int) -> EnumerantCard | MaskCard | None:
    """The card of a BitEnum value: its one bit's (or None's) enumerant card when the
    grammar knows it, else a mask card of every set bit; None if `kind` is no BitEnum."""
    operand_kind = grammar.operand_kinds.get(kind)
    if operand_kind is None or operand_kind.category != "BitEnum":
        return None
    known = operand_kind.by_value.get(value)
    if known is not None and (value == 0 or value & (value - 1) == 0):
        return _enumerant(operand_kind, known, grammar.operand_kinds)
    bits, unknown = [], 0
    for bit in mask_bits(value):
        enumerant = operand_kind.by_value.get(bit)
        if enumerant is None:
            unknown |= bit
        else:
            bits.append(_enumerant(operand_kind, enumerant, grammar.operand_kinds))
    return MaskCard(
        kind=operand_kind.kind,
        category=operand_kind.category,
        value=value,
        bits=tuple(bits),
        unknown=unknown,
        spec_url=f"{SPEC_URL}#{section_anchor(operand_kind.kind)}",
    )


def card_for(grammar: Grammar, inst: Instruction, operand: int | None = None) -> GrammarCard | None:
    """The card for an instruction of a module, or for one of its operands: an enumerant
    operand gives the enumerant's card (a mask of several bits a card of every bit), an extended
    instruction number the extended instruction's, any other operand the instruction's
    (for OpExtInst, the extended instruction's)."""
    if operand is not None and 0 <= operand < len(inst.operands):
        op = inst.operands[operand]
        if op.kind == "LiteralExtInstInteger" and isinstance(op.value, int):
            card = ext_instruction_card(grammar, inst.ext_inst_set, op.value)
            if card is not None:
                return card
        kind = grammar.operand_kinds.get(op.kind)
        if kind is not None and kind.is_enum and isinstance(op.value, int):
            if kind.category == "BitEnum":
                card = mask_card(grammar, op.kind, op.value)
            else:
                card = enumerant_card(grammar, op.kind, op.value)
            if card is not None:
                return card
    if inst.ext_inst_set:
        number = next((o.value for o in inst.operands if o.kind == "LiteralExtInstInteger"), None)
        if isinstance(number, int):
            card = ext_instruction_card(grammar, inst.ext_inst_set, number)
            if card is not None:
                return card
    return instruction_card(grammar, inst.opcode)


def section_anchor(kind: str) -> str:
    """The specification's anchor for an operand kind's section (`_storage_class`)."""
    title = _SECTION_TITLE_EXCEPTIONS.get(kind)
    if title is None:
        title = "_".join(word.lower() for word in _CAMEL_WORDS.findall(kind))
    return f"_{title}"


def word_count_rule(
    operands: tuple[OperandDesc, ...], kinds: dict[str, OperandKind], fixed: int = 1
) -> str:
    """The word count as the specification states it: `4`, or `3 + variable` when an
    operand is optional, repeated, a string, a number as wide as its type, or an enum
    whose values can bring parameters. `fixed` counts the words before `operands` (the
    first word; for an extended instruction, OpExtInst's five)."""
    words, variable = fixed, False
    for desc in operands:
        if desc.quantifier is not None:
            variable = True
            continue
        kind = kinds.get(desc.kind)
        words += len(kind.bases) if kind is not None and kind.category == "Composite" else 1
        if desc.kind in _VARIABLE_KINDS or (
            kind is not None and any(e.parameters for e in kind.enumerants)
        ):
            variable = True
    return f"{words} + variable" if variable else str(words)


_VARIABLE_KINDS = frozenset(
    {"LiteralString", "LiteralContextDependentNumber", "LiteralSpecConstantOpInteger"}
)
"""Operand kinds of one operand that may hold more than one word."""


def _entries(
    operands: tuple[OperandDesc, ...], kinds: dict[str, OperandKind]
) -> tuple[OperandEntry, ...]:
    return tuple(
        OperandEntry(
            o.kind,
            kinds[o.kind].category if o.kind in kinds else "",
            o.quantifier,
            o.name,
        )
        for o in operands
    )


def _instruction(
    desc: InstructionDesc, kinds: dict[str, OperandKind], url: str, ext_set: str
) -> InstructionCard:
    return InstructionCard(
        opname=desc.opname,
        opcode=desc.opcode,
        opclass=desc.opclass,
        operands=_entries(desc.operands, kinds),
        availability=Availability(
            desc.version, desc.last_version, desc.capabilities, desc.extensions
        ),
        aliases=desc.aliases,
        spec_url=url,
        ext_set=ext_set,
        word_count=word_count_rule(desc.operands, kinds, 5 if ext_set else 1),
    )


def _enumerant(
    kind: OperandKind, enumerant: Enumerant, kinds: dict[str, OperandKind]
) -> EnumerantCard:
    return EnumerantCard(
        kind=kind.kind,
        category=kind.category,
        name=enumerant.name,
        value=enumerant.value,
        parameters=_entries(enumerant.parameters, kinds),
        availability=_enumerant_availability().get(
            (kind.kind, enumerant.name), Availability()
        ),
        aliases=enumerant.aliases,
        spec_url=f"{SPEC_URL}#{section_anchor(kind.kind)}",
    )


@cache
def _enumerant_availability() -> dict[tuple[str, str], Availability]:
    """(kind, enumerant name) → availability, read from the core JSON grammar once.

    The grammar records (`codec.grammar.Enumerant`) do not carry capabilities,
    extensions or versions; only cards need them, so they are read here on first use.
    """
    core_path, _, _ = grammar_files()
    raw = json.loads(core_path.read_text(encoding="utf-8"))
    table: dict[tuple[str, str], Availability] = {}
    for kind in raw["operand_kinds"]:
        for e in kind.get("enumerants", ()):
            table[(kind["kind"], e["enumerant"])] = Availability(
                e.get("version"),
                e.get("lastVersion"),
                tuple(e.get("capabilities", ())),
                tuple(e.get("extensions", ())),
            )
    return table
