"""Hostile text for the assembler: numbers of thousands of digits, lone surrogates, the
longest strings an instruction holds. Whatever the text, `assemble` answers with words
or with a diagnostic at a line and column, as spirv-as would, and never raises."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import run_tool
from test_assembler import TYPES, check_against_spirv_as

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.text.disassembler import disassemble

HUGE = "1" * 5000
"""Past the 4,300 digits Python's int() converts from text."""
ZEROS = "0" * 4400

NON_SEMANTIC = TYPES + '%ns = OpExtInstImport "NonSemantic.Foo"\n%x = OpUndef %u32\n'

HUGE_NUMBERS = {
    "integer constant": TYPES + f"%c = OpConstant %u32 {HUGE}",
    "negative integer constant": TYPES + f"%c = OpConstant %i64 -{HUGE}",
    "float constant": TYPES + f"%c = OpConstant %f32 {HUGE}",
    "float constant, a tie between two floats": TYPES + f"%c = OpConstant %f32 16777217.{ZEROS}",
    "float constant, tiny": TYPES + f"%c = OpConstant %f64 0.{ZEROS}1",
    "octal with thousands of zeros": TYPES + f"%c = OpConstant %u32 {ZEROS}7",
    "hex float exponent": TYPES + f"%c = OpConstant %f32 0x1p+{HUGE}",
    "negative hex float exponent": TYPES + f"%c = OpConstant %f32 0x1p-{HUGE}",
    "hex float exponent of zeros": TYPES + f"%c = OpConstant %f32 0x1p+{ZEROS}",
    "literal integer (quick path)": f'OpMemberName %s {HUGE} "x"',
    "literal integer of zeros (quick path)": f'OpMemberName %s {ZEROS} "x"',
    "enumerant parameter": f"OpDecorate %x Location {HUGE}",
    "switch case": TYPES + f"%s = OpConstant %u32 5\nOpSwitch %s %d {HUGE} %a",
    "!<integer>": f"!{HUGE}",
    "after !<integer>": f"OpCapability !1 {HUGE}",
    "non-semantic instruction number": NON_SEMANTIC + f"%r = OpExtInst %u32 %ns {HUGE} %x",
    "non-semantic instruction number with leading zeros": NON_SEMANTIC + f"%r = OpExtInst %u32 %ns {ZEROS}5 %x",
    "id": f"%{HUGE} = OpTypeVoid\n%1 = OpTypeFunction %{HUGE}",
}


@pytest.mark.parametrize("text", HUGE_NUMBERS.values(), ids=HUGE_NUMBERS.keys())
def test_huge_numbers_same_as_spirv_as(text: str) -> None:
    check_against_spirv_as(text, "--target-env", "spv1.6", target_env="spv1.6")


def test_huge_numeric_id_is_a_name_when_numbers_are_preserved() -> None:
    text = f"%{HUGE} = OpTypeVoid\n%12 = OpTypeFunction %{HUGE}\n%{ZEROS}3 = OpTypeBool"
    check_against_spirv_as(text, "--preserve-numeric-ids", preserve_numeric_ids=True)


HEADER = "; SPIR-V\n; Version: {}.{}\n; Generator: Khronos; {}\n; Bound: {}\n; Schema: {}\nOpCapability Shader\n"


@pytest.mark.parametrize(
    "fields, line, column, what",
    [
        ((1, HUGE, 0, 9, 0), 2, 14, "minor version"),
        ((256, 0, 0, 9, 0), 2, 12, "major version"),
        ((1, 0, 0, HUGE, 0), 4, 10, "bound"),
        ((1, 0, 0, 1 << 32, 0), 4, 10, "bound"),
        ((1, 0, 0, 9, HUGE), 5, 11, "schema"),
    ],
)
def test_header_comment_numbers_that_do_not_fit_are_diagnosed(fields, line, column, what) -> None:
    result = assemble(HEADER.format(*fields))
    assert result.words is None
    (diagnostic,) = result.diagnostics
    assert (diagnostic.line, diagnostic.column) == (line, column)
    assert f"header comment's {what}" in diagnostic.message and "does not fit" in diagnostic.message


def test_header_comment_generator_past_16_bits_is_ours() -> None:
    """A tool version no generator word holds leaves spirv-as's generator, as before."""
    for version in (HUGE, "65536"):
        words = assemble(HEADER.format(1, 3, version, 9, 0)).words
        assert list(words[:5]) == [0x07230203, 0x00010300, 7 << 16, 9, 0]
    words = assemble(HEADER.format(1, 3, ZEROS + "11", 9, 0)).words
    assert words[2] == 11  # tool 0, Khronos


@pytest.mark.parametrize(
    "text, column",
    [
        ('OpName %t "\ud800"', 11),
        ('OpName %t "a\\"\udfff"', 11),
        ('OpName %t !5 "\ud800"', 14),
        ('%i = OpExtInstImport "\udbff"', 22),
    ],
)
def test_lone_surrogate_in_a_string_is_a_diagnostic(text: str, column: int) -> None:
    result = assemble(text)
    assert result.words is None
    (diagnostic,) = result.diagnostics
    assert (diagnostic.line, diagnostic.column) == (1, column)
    assert "lone surrogate" in diagnostic.message and "cannot encode" in diagnostic.message


def module(*instructions: list[int], bound: int = 2) -> bytes:
    """A module of these instructions (each its operand words), behind a 1.0 header."""
    words = [0x07230203, 0x00010000, 0, bound, 0]
    for opcode, *operands in instructions:
        words += [((len(operands) + 1) << 16) | opcode, *operands]
    return struct.pack(f"<{len(words)}I", *words)


def string_operand(data: bytes) -> list[int]:
    data += b"\0" * (4 - len(data) % 4)
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def named_void(name: bytes) -> bytes:
    """OpCapability Shader, OpMemoryModel Logical GLSL450, OpName %1 name, %1 = OpTypeVoid."""
    return module([17, 1], [14, 0, 1], [5, 1, *string_operand(name)], [19, 1])


@pytest.mark.parametrize("name", [b"a\xffb\x80", b"\xed\xa0\x80", "é".encode() + b"\xc3"])
def test_bytes_that_are_not_utf8_round_trip(name: bytes) -> None:
    """The decoder reads such bytes as U+DC80…U+DCFF (surrogateescape); the assembler
    writes those back as the same bytes, from our text and from spirv-dis's."""
    data = named_void(name)
    assert decode(data).diagnostics == []
    assert assemble(disassemble(decode(data))).binary == data
    reference = run_tool("spirv-dis", "--raw-id", "-", input=data).stdout
    assert assemble(reference.decode("utf-8", "surrogateescape")).binary == data


def test_65535_byte_string_round_trips() -> None:
    data = named_void(b"n" * 65535)
    assert decode(data).diagnostics == []
    assert assemble(disassemble(decode(data))).binary == data
    reference = run_tool("spirv-dis", "--raw-id", "-", input=data).stdout
    assert assemble(reference.decode("utf-8")).binary == data


@pytest.mark.parametrize("length", [65535, 65536, 4 * 65532 - 1, 4 * 65532 + 3, 4 * 65533])
def test_the_longest_string_an_instruction_holds_same_as_spirv_as(length: int) -> None:
    """OpName takes its opcode word, an id and the string's words: 65,535 in all holds
    a string of 262,131 bytes and its nul, and no more."""
    check_against_spirv_as('OpCapability Shader\nOpName %t "' + "a" * length + '"')


@pytest.mark.parametrize("length", [4 * 65532 - 1, 4 * 65532])
def test_the_instruction_limit_counts_the_words_before_the_string(length: int) -> None:
    """OpEntryPoint has one word more than OpName before its string."""
    check_against_spirv_as('OpEntryPoint Fragment %main "' + "a" * length + '"')


def test_a_string_too_long_for_its_instruction_is_reported_at_the_string() -> None:
    result = assemble('OpCapability Shader\nOpEntryPoint Fragment %main "' + "a" * (4 * 65532) + '"')
    assert result.words is None
    (diagnostic,) = result.diagnostics
    assert (diagnostic.line, diagnostic.column) == (2, 29)
    assert diagnostic.message.endswith("65536 words long; the limit is 65535")


FRAGMENTS = [
    "OpCapability", "Shader", "OpName", "%t", "%u32", "=", "OpConstant", "OpTypeInt", "32", "0",
    "OpSwitch", "OpExtInst", "OpExtInstImport", '"GLSL.std.450"', "!", "!7", "OpUnknown", "(", ",", ")",
    '"', "\\", ";", " ", "\t", "\n", "\r\n", "\r", "\0", "\v", "\u2028",
    "\ud800", "\udc80", "\udfff", '"\ud800"', '"\udcff"',
    HUGE, ZEROS, "-" + HUGE, "0x" + HUGE, "1." + HUGE, "0x1p+" + HUGE, "0x1p-" + HUGE, "%" + HUGE, "!" + HUGE,
    "; SPIR-V\n; Version: 1." + HUGE + "\n; Generator: Khronos; 0\n; Bound: 9\n; Schema: 0\n",
    "; SPIR-V\n; Version: 1.0\n; Generator: Unknown(" + HUGE + "); " + HUGE + "\n; Bound: 9\n; Schema: 0\n",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=6)), max_size=20),
    st.sampled_from([" ", "\n", "\r\n", ""]),
    st.booleans(),
)
def test_arbitrary_text_never_raises(parts: list[str], separator: str, preserve: bool) -> None:
    """Arbitrary text, with huge numbers, surrogates, NULs and CRLF: words or diagnostics
    that say where, never an exception."""
    result = assemble(separator.join(parts), preserve_numeric_ids=preserve)
    assert (result.words is None) == bool(result.diagnostics)
    assert all(d.line is not None and d.column is not None for d in result.diagnostics)
    assert result.binary is None or len(result.binary) % 4 == 0
    result.spans
