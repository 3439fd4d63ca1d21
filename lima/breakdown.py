"""One instruction drawn bit by bit: the control word and each present field as a strip.

Every strip is split into labelled ranges (name, bit range, raw value, meaning) read off
the decoded instruction, whose ranges come from `lima.fields` — the one table of the
encoding; nothing here restates a bit position. Unknown bits and padding are ranges like
any other, so every bit of the instruction is in exactly one label. Each label knows the
words and the per-word bit masks that hold it, for a hex view to frame exactly those bits.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from spvinspect.lima.fields import CONTROL, FIELDS
from spvinspect.lima.model import BitRange, Field, Instruction

FIELD_UNITS = {
    "varying": "varying",
    "sampler": "texture",
    "uniform": "uniform",
    "vec4_mul": "vec4-mul",
    "float_mul": "scalar-mul",
    "vec4_acc": "vec4-add",
    "float_acc": "scalar-add",
    "combine": "complex",
    "temp_write": "temporary",
    "branch": "branch",
    "vec4_const_0": "constant",
    "vec4_const_1": "constant",
}
"""Field name -> the unit as the themes name it (`lima-unit-…` colour variables)."""
CONTROL_UNIT = "control"
"""The unit of the control word's strip (coloured by `lima-control-word`)."""
PADDING_UNIT = "padding"
"""The unit of the bits after the last field (coloured as unknown bits)."""
_UNKNOWN_KINDS = frozenset({"unknown", "padding"})


def field_unit(f: Field) -> str:
    """The themes' unit of a field; a uniform-field load from temporaries is `temporary`."""
    if f.name == "uniform" and f.layout == "load" and f["source"] == 3:
        return "temporary"
    return FIELD_UNITS[f.name]


@dataclass(frozen=True, slots=True)
class BitSelection:
    """Bits of an instruction stream as (word offset, 32-bit mask) pairs, lowest word first."""

    words: tuple[tuple[int, int], ...]
    missing: int = 0
    """Bits asked for past the instruction's last word (they read as zero)."""

    @classmethod
    def span(cls, first_bit: int, width: int, end_bit: int | None = None) -> BitSelection:
        """The bits `first_bit .. first_bit + width - 1`, counted from bit 0 of stream word
        0; bits at or past `end_bit` are left out and counted as missing."""
        stop = first_bit + width if end_bit is None else min(first_bit + width, end_bit)
        words = []
        bit = first_bit
        while bit < stop:
            word, low = divmod(bit, 32)
            high = min(32, low + stop - bit)
            words.append((word, ((1 << high) - 1) ^ ((1 << low) - 1)))
            bit += high - low
        return cls(tuple(words), max(0, first_bit + width - max(stop, first_bit)))

    @property
    def word_offsets(self) -> range:
        """The words touched, first to last; empty when no bit is held by a word."""
        if not self.words:
            return range(0)
        return range(self.words[0][0], self.words[-1][0] + 1)

    @property
    def bit_count(self) -> int:
        """How many bits are selected within the words."""
        return sum(bin(mask).count("1") for _, mask in self.words)

    def mask_of(self, word_offset: int) -> int:
        """The selected bits of one word (0 when none)."""
        return dict(self.words).get(word_offset, 0)


@dataclass(frozen=True, slots=True)
class Label(BitRange):
    """One labelled range of a strip (its `first_bit` counted within the strip): the
    decoded range, and what the breakdown adds to show it."""

    unknown: bool
    """Bits nobody has named (and padding): shown with their value, never hidden."""
    bits: BitSelection
    """Where the range lies in the stream, for the hex view."""

    @property
    def last_bit(self) -> int:
        """Last bit within the strip."""
        return self.first_bit + self.width - 1

    @property
    def bit_range_text(self) -> str:
        """`5` for one bit, `19-24` for several (within the strip)."""
        return str(self.first_bit) if self.width == 1 else f"{self.first_bit}-{self.last_bit}"

    @property
    def binary(self) -> str:
        """The raw value as `width` binary digits, most significant first."""
        return format(self.value, f"0{self.width}b")

    @property
    def value_text(self) -> str:
        """The raw value as a number: decimal below 10, else hex."""
        return str(self.value) if self.value < 10 else hex(self.value)


@dataclass(frozen=True, slots=True)
class BitStrip:
    """The control word, one present field, or the padding: its labelled ranges in bit order."""

    name: str
    unit: str
    """`control`, `padding`, or the themes' unit of the field (`vec4-mul`…)."""
    syntax_unit: str
    """The unit as the proposed syntax writes it (`.v0`, `texld`); empty for control/padding."""
    field_index: int | None
    """Presence-bit index of the field; None for the control word and the padding."""
    layout: str
    """Which layout the hardware reads the bits through (fields with several layouts)."""
    other_layouts: tuple[str, ...]
    instruction_bit: int
    """Where the strip starts in the instruction's bit stream."""
    width: int
    raw: int
    labels: tuple[Label, ...]
    bits: BitSelection
    missing_bits: int = 0
    """Bits past the instruction's last word: the count is too small for the fields."""
    word_values: tuple[tuple[int, int], ...] = ()
    """(stream word offset, value) of every word holding the strip's bits."""

    @property
    def words_text(self) -> str:
        """`word 5 = 0x0000f00d, word 6 = 0x12345678`: the stream words under the strip,
        to read it against a hex dump."""
        return ", ".join(f"word {offset} = 0x{value:08x}" for offset, value in self.word_values)

    @property
    def title(self) -> str:
        """`vec4_mul .v0 · 43 bits from bit 32 (word 1 bit 0) · word 5 = 0x…, word 6 = 0x…`."""
        unit = f" {self.syntax_unit}" if self.syntax_unit not in ("", self.name) else ""
        layout = f" ({self.layout} layout)" if self.other_layouts else ""
        word, bit = divmod(self.instruction_bit, 32)
        missing = f" · {self.missing_bits} bits missing" if self.missing_bits else ""
        words = f" · {self.words_text}" if self.word_values else ""
        return (
            f"{self.name}{unit}{layout} · {self.width} bits from bit {self.instruction_bit} "
            f"(word {word} bit {bit}){missing}{words}"
        )

    def label(self, name: str) -> Label:
        """The label called `name`; KeyError when the strip has none."""
        for found in self.labels:
            if found.name == name:
                return found
        raise KeyError(f"{self.name} has no range {name}")


@dataclass(frozen=True, slots=True)
class Breakdown:
    """Every bit of one instruction, strip by strip: control word, fields, padding."""

    index: int
    word_offset: int
    words: tuple[int, ...]
    strips: tuple[BitStrip, ...]

    def strip(self, name: str) -> BitStrip:
        """The strip called `name` (`control`, a field name, `padding`)."""
        for found in self.strips:
            if found.name == name:
                return found
        raise KeyError(f"instruction {self.index} has no {name} strip")

    def labels(self) -> Iterator[tuple[BitStrip, Label]]:
        """Every label with its strip, in bit order."""
        for strip in self.strips:
            for label in strip.labels:
                yield strip, label


def _kind(field_index: int | None, layout: str, name: str) -> str:
    if field_index is None:
        return CONTROL.range(name).kind
    return FIELDS[field_index].layout(layout).range(name).kind


def _labels(
    ranges: tuple[BitRange, ...], field_index: int | None, layout: str, base: int, end: int
) -> tuple[Label, ...]:
    return tuple(
        Label(
            r.name,
            r.first_bit,
            r.width,
            r.value,
            r.meaning,
            r.instruction_bit,
            _kind(field_index, layout, r.name) in _UNKNOWN_KINDS,
            BitSelection.span(base + r.instruction_bit, r.width, end),
        )
        for r in ranges
    )


def _word_values(instruction: Instruction, bits: BitSelection) -> tuple[tuple[int, int], ...]:
    first = instruction.word_offset
    return tuple(
        (offset, instruction.words[offset - first])
        for offset in bits.word_offsets
        if 0 <= offset - first < len(instruction.words)
    )


def target_text(starts: Sequence[int]) -> Callable[[int], str]:
    """Word offset -> the instruction starting there and its label in the seed text
    (`instruction 5 (label L12)`), from the instructions' sorted first words."""

    def text(word: int) -> str:
        i = bisect.bisect_left(starts, word)
        if i < len(starts) and starts[i] == word:
            return f"instruction {i} (label L{word})"
        if word < 0 or not starts:
            return "before the program: not an instruction"
        if i == len(starts):
            return f"past instruction {i - 1}: not the start of an instruction"
        return f"inside instruction {i - 1}: not the start of an instruction"

    return text


def _field_strip(f: Field, base: int, end: int, instruction: Instruction, targets) -> BitStrip:
    spec = FIELDS[f.index]
    bits = BitSelection.span(base + f.bit_offset, f.width, end)
    return BitStrip(
        name=f.name,
        unit=field_unit(f),
        syntax_unit=spec.unit,
        field_index=f.index,
        layout=f.layout,
        other_layouts=tuple(view.layout for view in f.alternatives),
        instruction_bit=f.bit_offset,
        width=f.width,
        raw=f.raw,
        labels=_labels(f.ranges_in(targets), f.index, f.layout, base, end),
        bits=bits,
        missing_bits=f.missing_bits,
        word_values=_word_values(instruction, bits),
    )


def breakdown(instruction: Instruction, starts: Sequence[int] | None = None) -> Breakdown:
    """The strips of one decoded instruction; `starts`, the first words of the program's
    instructions in order, lets a branch name its target instruction."""
    targets = target_text(starts) if starts is not None else None
    base = 32 * instruction.word_offset
    end = base + 32 * len(instruction.words)
    control_raw = instruction.words[0] if instruction.words else 0
    strips = [
        BitStrip(
            name="control",
            unit=CONTROL_UNIT,
            syntax_unit="",
            field_index=None,
            layout=CONTROL.name,
            other_layouts=(),
            instruction_bit=0,
            width=CONTROL.width,
            raw=control_raw,
            labels=_labels(instruction.control, None, CONTROL.name, base, end),
            bits=BitSelection.span(base, CONTROL.width, end),
            word_values=((instruction.word_offset, control_raw),) if instruction.words else (),
        )
    ]
    strips += [_field_strip(f, base, end, instruction, targets) for f in instruction.fields]
    padding = instruction.padding
    if padding is not None:
        label = Label(
            padding.name, 0, padding.width, padding.value, padding.meaning,
            padding.instruction_bit, True, BitSelection.span(base + padding.instruction_bit, padding.width, end),
        )
        strips.append(
            BitStrip(
                name="padding", unit=PADDING_UNIT, syntax_unit="", field_index=None, layout="padding",
                other_layouts=(), instruction_bit=padding.instruction_bit, width=padding.width,
                raw=padding.value, labels=(label,), bits=label.bits,
            )
        )
    return Breakdown(instruction.index, instruction.word_offset, instruction.words, tuple(strips))
