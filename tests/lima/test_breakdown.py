"""The breakdown model: every bit of an instruction in exactly one labelled range, with
the decoder's values, and each range's bits located in the stream for the hex pane."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lima_words import (
    BRANCH,
    CONST0,
    MESA_FIELD_SIZES,
    REAL_INSTRUCTION,
    UNIFORM,
    VEC4_MUL,
    bits,
    instruction,
)

from spvinspect import lima
from spvinspect.themes.tokens import LIMA_UNITS
from spvinspect.lima.breakdown import FIELD_UNITS, BitSelection, breakdown
from spvinspect.lima.fields import FIELDS


def only(words):
    (instr,) = lima.decode_words(words).instructions
    return instr


def coverage(b) -> dict[int, int]:
    """Stream word -> how many labels hold each bit, checked: no bit held twice."""
    masks: dict[int, int] = {}
    for _, label in b.labels():
        for word, mask in label.bits.words:
            assert masks.get(word, 0) & mask == 0, f"{label.name} overlaps another range in word {word}"
            masks[word] = masks.get(word, 0) | mask
    return masks


# --- the real instruction of ENCODING.md ---------------------------------------------------

def test_real_instruction_control_word_is_labelled_range_by_range():
    control = breakdown(only(REAL_INSTRUCTION)).strip("control")
    shown = {label.name: (label.bit_range_text, label.value, label.meaning) for label in control.labels}
    assert shown == {
        "count": ("0-4", 5, "5 words"),
        "stop": ("5", 1, "yes"),
        "sync": ("6", 0, "no"),
        "fields": ("7-18", 0x408, "vec4_mul, vec4_const_0"),
        "next_count": ("19-24", 0, "0 words"),
        "prefetch": ("25", 0, "no"),
        "unknown_26": ("26-31", 0, "unknown"),
    }
    assert [label.unknown for label in control.labels] == [False] * 6 + [True]


def test_real_instruction_fields_read_as_encoding_md_says():
    b = breakdown(only(REAL_INSTRUCTION))
    assert [strip.name for strip in b.strips] == ["control", "vec4_mul", "vec4_const_0", "padding"]
    mul = b.strip("vec4_mul")
    assert (mul.instruction_bit, mul.width, mul.unit, mul.syntax_unit) == (32, 43, "vec4-mul", ".v0")
    assert mul.label("arg0_source").meaning == "^const0"
    assert mul.label("arg0_swizzle").value == 0
    assert mul.label("arg0_swizzle").meaning == "xxxx"
    assert (mul.label("op").value, mul.label("op").meaning) == (31, "mov")
    assert (mul.label("dest").meaning, mul.label("mask").value) == ("$0", 0xF)
    const = b.strip("vec4_const_0")
    assert (const.instruction_bit, const.label("x").value, const.label("x").meaning) == (75, 0x3C00, "1.0")
    padding = b.strip("padding")
    assert (padding.instruction_bit, padding.width) == (32 + 43 + 64, 5 * 32 - (32 + 43 + 64))
    assert padding.labels[0].unknown


def test_real_instruction_field_bits_are_where_mesa_packs_them():
    b = breakdown(only(REAL_INSTRUCTION))
    # vec4_mul: bits 32..74 of the instruction = all of word 1 and the low 11 bits of word 2
    assert b.strip("vec4_mul").bits == BitSelection(((1, 0xFFFFFFFF), (2, 0x7FF)))
    # its op, bits 38..42 of the field = instruction bits 70..74 = bits 6..10 of word 2
    assert b.strip("vec4_mul").label("op").bits == BitSelection(((2, 0b11111 << 6),))
    # const0 from bit 75: word 2 bits 11..31, word 3, word 4 bits 0..10
    assert b.strip("vec4_const_0").bits.words == ((2, 0xFFFFF800), (3, 0xFFFFFFFF), (4, 0x7FF))


# --- labelled values are the decoder's ------------------------------------------------------

KNOWN = [
    REAL_INSTRUCTION,
    instruction({UNIFORM: bits((0, 2, 3), (10, 2, 2), (25, 16, 7)), VEC4_MUL: bits((0, 4, 15), (38, 5, 9))}, stop=1),
    instruction({BRANCH: bits((16, 3, 7), (41, 27, (1 << 27) - 4))}, sync=1),
    instruction({CONST0: bits((0, 16, 0xBC00), (48, 16, 0x7E01))}, count=4),
]


def test_labels_carry_the_decoders_ranges_for_known_instructions():
    for words in KNOWN:
        instr = only(words)
        b = breakdown(instr)
        assert [(l.name, l.value, l.meaning, l.instruction_bit) for l in b.strip("control").labels] == [
            (r.name, r.value, r.meaning, r.instruction_bit) for r in instr.control
        ]
        for f in instr.fields:
            strip = b.strip(f.name)
            assert strip.layout == f.layout
            assert [(l.name, l.value, l.meaning, l.first_bit, l.width) for l in strip.labels] == [
                (r.name, r.value, r.meaning, r.first_bit, r.width) for r in f.ranges
            ]


def test_a_temporary_load_is_coloured_as_the_temporary_unit():
    b = breakdown(only(KNOWN[1]))
    assert b.strip("uniform").unit == "temporary"


def test_every_field_has_a_unit_the_themes_colour():
    assert set(FIELD_UNITS) == {spec.name for spec in FIELDS}
    assert set(FIELD_UNITS.values()) <= set(LIMA_UNITS)


# --- every bit exactly once ------------------------------------------------------------------

def test_every_bit_of_known_instructions_is_in_exactly_one_label():
    for words in KNOWN:
        b = breakdown(only(words))
        assert coverage(b) == {word: 0xFFFFFFFF for word in range(len(words))}


def test_each_strip_is_exactly_the_union_of_its_labels():
    for words in KNOWN:
        for strip in breakdown(only(words)).strips:
            union: dict[int, int] = {}
            for label in strip.labels:
                for word, mask in label.bits.words:
                    union[word] = union.get(word, 0) | mask
            assert tuple(sorted(union.items())) == strip.bits.words
            assert sum(label.width for label in strip.labels) == strip.width


@st.composite
def streams(draw):
    presence = draw(st.integers(0, 0xFFF))
    needed = 1 + (sum(size for i, size in enumerate(MESA_FIELD_SIZES) if presence >> i & 1) + 31) // 32
    words = [needed | draw(st.integers(0, 3)) << 5 | presence << 7 | draw(st.integers(0, 0x1FFF)) << 19]
    words += draw(st.lists(st.integers(0, 0xFFFFFFFF), min_size=needed - 1, max_size=needed - 1))
    return words


@settings(max_examples=150, deadline=None)
@given(streams())
def test_every_bit_of_any_instruction_is_in_exactly_one_label(words):
    b = breakdown(only(words))
    assert coverage(b) == {word: 0xFFFFFFFF for word in range(len(words))}
    # the label values read back from the words through their masks
    for _, label in b.labels():
        value = 0
        shift = 0
        for word, mask in label.bits.words:
            low = (mask & -mask).bit_length() - 1
            value |= ((words[word] & mask) >> low) << shift
            shift += bin(mask).count("1")
        assert value == label.value, label.name


def test_a_count_too_small_for_the_fields_reports_the_missing_bits():
    words = instruction({VEC4_MUL: bits((38, 5, 31))}, count=2)  # 43 bits need 2 words after the control
    b = breakdown(only(words))
    mul = b.strip("vec4_mul")
    assert mul.missing_bits == 11
    assert mul.bits.missing == 11
    assert mul.label("op").bits == BitSelection((), missing=5)
    assert coverage(b) == {0: 0xFFFFFFFF, 1: 0xFFFFFFFF}


def test_bit_selection_spans_words_and_stops_at_the_end():
    assert BitSelection.span(30, 4).words == ((0, 0xC0000000), (1, 0x3))
    assert BitSelection.span(30, 4, end_bit=32) == BitSelection(((0, 0xC0000000),), missing=2)
    assert BitSelection.span(64, 32).word_offsets == range(2, 3)
    assert BitSelection.span(3, 70).bit_count == 70
