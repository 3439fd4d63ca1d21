"""`codec.asm.assembler` against `spirv-as`, one case per syntax point of the assembly language.

Each case is assembled by both; the words must be identical except word 2 (the
generator), or both must reject the text and our diagnostic must point at the line
spirv-as names.
"""

from __future__ import annotations

import re
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracle import run_tool

from every_opcode import every_ext_instruction_text, every_opcode_text, ext_import_names

from spvinspect.codec.asm.assembler import assemble

TYPES = """OpCapability Shader
OpCapability Int8
OpCapability Int16
OpCapability Int64
OpCapability Float16
OpCapability Float64
OpMemoryModel Logical GLSL450
%i8 = OpTypeInt 8 1
%u8 = OpTypeInt 8 0
%i16 = OpTypeInt 16 1
%u16 = OpTypeInt 16 0
%i32 = OpTypeInt 32 1
%u32 = OpTypeInt 32 0
%i64 = OpTypeInt 64 1
%u64 = OpTypeInt 64 0
%f16 = OpTypeFloat 16
%f32 = OpTypeFloat 32
%f64 = OpTypeFloat 64
"""

GLSL = TYPES + '%glsl = OpExtInstImport "GLSL.std.450"\n%x = OpUndef %f32\n'

CASES = {
    "named ids numbered by first appearance": "%b = OpTypeVoid\n%a = OpTypeFunction %b\n%z = OpTypePointer Function %y",
    "numeric ids": "%7 = OpTypeVoid\n%2 = OpTypeFunction %7",
    "several instructions on a line": "OpCapability Shader OpMemoryModel Logical GLSL450 %1 = OpTypeVoid",
    "comments": "; leading\nOpCapability Shader ; trailing\n;last",
    "i16 hex sign-extends": TYPES + "%c = OpConstant %i16 0xffff",
    "u16 hex": TYPES + "%c = OpConstant %u16 0xffff",
    "i8 negative": TYPES + "%c = OpConstant %i8 -128",
    "minus zero is zero": TYPES + "%c = OpConstant %i32 -0\n%d = OpConstant %i64 -0x0\n%e = OpConstant %i8 -00",
    "minus zero is still negative for unsigned": TYPES + "%c = OpConstant %u32 -0",
    "minus zero as a case": TYPES + "%c = OpConstant %i32 5\nOpSwitch %c %c 1 %c -0 %c",
    "i8 out of range": TYPES + "%c = OpConstant %i8 128",
    "u8 negative rejected": TYPES + "%c = OpConstant %u8 -1",
    "i32 min": TYPES + "%c = OpConstant %i32 -2147483648",
    "u32 max": TYPES + "%c = OpConstant %u32 4294967295",
    "u32 overflow": TYPES + "%c = OpConstant %u32 4294967296",
    "i64 two words": TYPES + "%c = OpConstant %i64 -5000000000",
    "u64 max": TYPES + "%c = OpConstant %u64 0xFFFFFFFFFFFFFFFF",
    "u64 overflow": TYPES + "%c = OpConstant %u64 18446744073709551616",
    "octal like C": TYPES + "%c = OpConstant %u32 010",
    "bad octal": TYPES + "%c = OpConstant %u32 08",
    "plus sign": TYPES + "%c = OpConstant %i32 +7",
    "float in int": TYPES + "%c = OpConstant %i32 1.5",
    "f32 decimal": TYPES + "%c = OpConstant %f32 3.14159",
    "f32 exponent": TYPES + "%c = OpConstant %f32 -1.5e-3",
    "f32 hex": TYPES + "%c = OpConstant %f32 0x1.8p+3",
    "f32 infinity": TYPES + "%c = OpConstant %f32 0x1p+128",
    "f32 -infinity": TYPES + "%c = OpConstant %f32 -0x1p+128",
    "f32 quiet NaN": TYPES + "%c = OpConstant %f32 0x1.8p+128",
    "f32 NaN payload": TYPES + "%c = OpConstant %f32 -0x1.0002p+128",
    "f32 subnormal": TYPES + "%c = OpConstant %f32 0x1p-149",
    "f32 overflow": TYPES + "%c = OpConstant %f32 1e39",
    "f32 uppercase P rejected": TYPES + "%c = OpConstant %f32 0x1P+3",
    "f32 no exponent rejected": TYPES + "%c = OpConstant %f32 0x1.8",
    "f32 inf word rejected": TYPES + "%c = OpConstant %f32 inf",
    "f16 decimal toward zero": TYPES + "%c = OpConstant %f16 1.000732421875",
    "f16 hex": TYPES + "%c = OpConstant %f16 0x1.ffcp+15",
    "f16 NaN": TYPES + "%c = OpConstant %f16 0x1.1p+16",
    "f16 overflow": TYPES + "%c = OpConstant %f16 1e5",
    "f64 decimal": TYPES + "%c = OpConstant %f64 0.1",
    "f64 NaN payload": TYPES + "%c = OpConstant %f64 -0x1.0000000000001p+1024",
    "f64 overflow": TYPES + "%c = OpConstant %f64 1e309",
    "constant of unknown type": "%c = OpConstant %t 5",
    "string escapes": 'OpSourceExtension "a\\"b\\\\c\\q"',
    "string with newline": 'OpSourceExtension "two\nlines"',
    "string with semicolon": 'OpSourceExtension "a;b" ; comment',
    "unterminated string": 'OpSourceExtension "abc',
    "number for string": "OpSourceExtension 123",
    "mask": "OpLoopMerge %m %c Unroll|DependencyLength 4",
    "mask FP fast math": "OpDecorate %x FPFastMathMode NotNaN|NotInf|NSZ",
    "bad mask part": "OpLoopMerge %m %c Unroll|Foo",
    "enumerant with parameters": "OpExecutionMode %main LocalSize 64 1 1",
    "enumerant in the wrong place": "OpDecorate %x Logical",
    "unknown decoration": "OpDecorate %x Foo",
    "ext inst by name": '%s = OpExtInstImport "GLSL.std.450"\n%r = OpExtInst %f %s Sqrt %x',
    "ext inst unknown name": '%s = OpExtInstImport "GLSL.std.450"\n%r = OpExtInst %f %s sqrt %x',
    "ext inst non-semantic number": '%s = OpExtInstImport "NonSemantic.Foo"\n%r = OpExtInst %v %s 7 %a %b',
    "ext inst without import": "%r = OpExtInst %f %s Sqrt %x",
    "unknown ext set": '%s = OpExtInstImport "Foo.bar"',
    "spec constant op": TYPES + "%a = OpSpecConstant %i32 1\n%sum = OpSpecConstantOp %i32 IAdd %a %a",
    "spec constant op bad name": TYPES + "%sum = OpSpecConstantOp %i32 OpIAdd %a %a",
    "switch 64-bit literals": TYPES
    + "%s = OpConstant %u64 5\nOpSwitch %s %d 0x100000000 %a 5 %b",
    "switch 16-bit signed": TYPES + "%s = OpConstant %i16 5\nOpSwitch %s %d 0xffff %a -2 %b",
    "switch unknown selector": "OpSwitch %s %d 1 %a",
    "immediate instruction": "!262187 %1 %2 \"abc\" !327739 %1 %3 6 %2",
    "immediate opcode then ids": "OpCapability !0x0000FF00",
    "immediate enum": "OpExecutionMode %2 !5 11 22 33 44",
    "immediate type": "%4 = OpConstant !1 123 456 789",
    "immediate before =": "!5 = OpTypeVoid",
    "immediate result": "%1 = !5",
    "immediate bad number": "OpCapability !-1",
    "immediate octal and hex": "!010 !0x10 !4294967295",
    "immediate overflow": "!4294967296",
    "OpUnknown": "OpUnknown(17, 2) 1",
    "OpUnknown spaced": "OpUnknown ( 17 , 3 ) 1 %x",
    "OpUnknown zero count": "OpUnknown(17, 0)",
    "unknown opcode": "OpCapability Shader\nOpFoo",
    "opcode not in version": "%x = OpCopyLogical %a %b",
    "missing result": "OpTypeVoid",
    "result on no-result opcode": "%x = OpCapability Shader",
    "missing =": "%x OpTypeVoid",
    "invalid id": "%a-b = OpTypeVoid",
    "expected id": "OpEntryPoint GLCompute 3.0 \"main\"",
    "missing operand at end": "OpMemoryModel Logical",
    "missing operand before next": "OpMemoryModel Logical\nOpCapability Shader",
    "optional operand absent": "OpSource GLSL 450\nOpCapability Shader",
    "optional literal mismatch": "OpSource GLSL 450 %f foo",
    "comma": "OpCapability Shader,",
    "duplicate type": "%1 = OpTypeVoid\n%1 = OpTypeVoid",
    "duplicate value accepted": "%x = OpUndef %a\n%x = OpUndef %a",
    "empty after NUL": "OpCapability Shader\0garbage",
    "whitespace only": "  ; nothing\n",
    "CRLF": "OpCapability Shader\r\nOpCapability Int8\r\n",
    "vertical tab is not a blank": "OpCapability Shader\vOpCapability Int8",
    "extended instruction takes its own operands only": GLSL + "%r = OpExtInst %f32 %glsl Sqrt %x %x",
    "extended instruction missing an operand": GLSL + "%r = OpExtInst %f32 %glsl FMix %x %x",
    "extended instruction then the next": GLSL + "%r = OpExtInst %f32 %glsl Sqrt %x\n%s = OpExtInst %f32 %glsl Sqrt %r",
    "set id checked after !<integer>": GLSL + "%r = OpExtInst !7 %f32 %glsl",
    "non-semantic set by number takes any ids": GLSL + '%n = OpExtInstImport "NonSemantic.Foo"\n%r = OpExtInst %f32 %n 5 %x %x %x',
    "DebugPrintf is known to spirv-as by number only": GLSL + '%p = OpExtInstImport "NonSemantic.DebugPrintf"\n%r = OpExtInst %f32 %p 1 %x',
    "DebugPrintf by name is not": GLSL + '%p = OpExtInstImport "NonSemantic.DebugPrintf"\n%r = OpExtInst %f32 %p DebugPrintf %x',
    "float encoding must be an FPEncoding": "OpCapability Shader\n%f = OpTypeFloat !0x00020011 32",
}


def spirv_as(text: str, *args: str) -> tuple[list[int] | None, int | None]:
    """spirv-as's words, or None and the line of its error."""
    result = run_tool("spirv-as", *args, "-o", "-", "-", input=text.encode("utf-8"))
    if result.returncode == 0:
        data = result.stdout
        return list(struct.unpack(f"<{len(data) // 4}I", data)), None
    m = re.search(rb"error: (\d+): (\d+):", result.stderr)
    return None, int(m.group(1)) if m else None


def check_against_spirv_as(text: str, *args: str, **options) -> None:
    """Both accept with the same words (word 2 aside), or both reject on the same line."""
    expected, line = spirv_as(text, *args)
    result = assemble(text, **options)
    if expected is None:
        assert result.words is None, "spirv-as rejects this text but we accept it"
        assert result.diagnostics and result.diagnostics[0].line == line, (
            f"spirv-as points at line {line}, we say {result.diagnostics[0].format()}"
        )
        return
    assert result.words is not None, f"spirv-as accepts this text: {result.diagnostics[0].format()}"
    ours = list(result.words)
    ours[2] = expected[2]
    assert ours == expected


@pytest.mark.parametrize("text", CASES.values(), ids=CASES.keys())
def test_same_as_spirv_as(text: str) -> None:
    check_against_spirv_as(text, "--target-env", "spv1.6", target_env="spv1.6")


@pytest.mark.parametrize("env", ["vulkan1.0", "vulkan1.1", "vulkan1.1spv1.4", "vulkan1.2", "spv1.3", "opencl2.2", "opengl4.5"])
def test_target_env_version_word(env: str) -> None:
    check_against_spirv_as("OpCapability Shader", "--target-env", env, target_env=env)


def test_default_version_is_spirv_as_default() -> None:
    check_against_spirv_as("OpCapability Shader")


def test_opcode_gated_by_version() -> None:
    check_against_spirv_as("%x = OpCopyLogical %a %b", "--target-env", "spv1.3", target_env="spv1.3")
    check_against_spirv_as("%x = OpCopyLogical %a %b", "--target-env", "spv1.4", target_env="spv1.4")


PRESERVE = "%x = OpTypeVoid\n%010 = OpTypeVoid\n%0x3 = OpTypeVoid\n%y = OpTypeVoid\n%1 = OpTypeFunction %x"


def test_preserve_numeric_ids() -> None:
    check_against_spirv_as(PRESERVE, "--preserve-numeric-ids", preserve_numeric_ids=True)


def test_header_comments_give_version_generator_bound_schema() -> None:
    text = (
        "; SPIR-V\n; Version: 1.3\n; Generator: Khronos Glslang Reference Front End; 11\n"
        "; Bound: 40\n; Schema: 0\n%5 = OpTypeVoid\n"
    )
    words = assemble(text).words
    assert list(words[:5]) == [0x07230203, 0x00010300, (8 << 16) | 11, 40, 0]
    assert words[6] == 5, "numeric ids keep their numbers in disassembly text"


def test_header_comment_unknown_generator() -> None:
    text = "; SPIR-V\n; Version: 1.0\n; Generator: Unknown(65534); 5\n; Bound: 7\n; Schema: 0\n"
    assert assemble(text).words[2] == 0xFFFE0005


def test_target_env_overrides_header_comments() -> None:
    text = "; SPIR-V\n; Version: 1.3\n; Generator: Khronos; 5\n; Bound: 40\n; Schema: 0\nOpCapability Shader"
    check_against_spirv_as(text, "--target-env", "spv1.5", target_env="spv1.5")


def test_id_hints_pin_named_ids() -> None:
    text = "; SPIR-V\n; Version: 1.0\n; Generator: Khronos; 0\n; Bound: 9\n; Schema: 0\n%void = OpTypeVoid\n%2 = OpTypeFunction %void"
    words = assemble(text, id_hints={"void": 8}).words
    assert list(words[5:]) == [0x00020013, 8, 0x00030021, 2, 8]


def test_diagnostic_message_says_what_was_expected() -> None:
    result = assemble("OpEntryPoint GLCompute 3.0 \"main\"")
    assert result.diagnostics[0].message == "expected an id (like %name), found '3.0'"
    assert result.diagnostics[0].column == 24
    assert "did you mean 'OpFOrdEqual'" in assemble("%x = OpFOrdEqul %a %b %c").diagnostics[0].message
    assert assemble("OpDecorate %x Foo").diagnostics[0].message.startswith("'Foo' is not a Decoration")


def test_a_quoted_string_left_open_is_named_by_its_first_characters() -> None:
    # The open string runs to the end of the text: a message quoting all of it would
    # carry the rest of a big module into the diagnostics.
    rest = "\n".join(f"%v{k} = OpLoad %int %p" for k in range(2000))
    cases = [
        ('OpEntryPoint GLCompute "main\n' + rest, "expected an id (like %name), found '\"main…'", 24),
        ('%1 = OpTypeVoid\n"' + "x" * 100 + rest,
         "expected an opcode or '%id =' to start an instruction, found '\"" + "x" * 58 + "…'", 1),
    ]
    for text, message, column in cases:
        diagnostic = assemble(text).diagnostics[0]
        assert (diagnostic.message, diagnostic.column) == (message, column)


def test_spans_cover_each_instruction() -> None:
    result = assemble('OpCapability Shader\n%1 = OpTypeVoid OpName %1\n"x"\n')
    assert [(s.word_offset, s.first_line, s.last_line) for s in result.spans] == [
        (5, 1, 1), (7, 2, 2), (9, 2, 3),
    ]


def test_errors_produce_no_words() -> None:
    result = assemble("OpCapability Shader\nOpCapability Foo\n")
    assert result.words is None and result.binary is None
    assert result.diagnostics[0].format("x.spvasm").startswith("x.spvasm:2:14: error:")


def test_empty_text_is_rejected_like_spirv_as() -> None:
    assert assemble("").words is None


WORDS = ["OpCapability", "Shader", "%1", "%x", "=", "OpTypeInt", "32", "1", "OpConstant", "-0x1p+3",
         "OpSwitch", "!5", '"s\\"', "OpUnknown", "(", ",", ")", ";", "\n", "OpExtInst", "OpLoopMerge",
         "Unroll|", "0x", "\\", '"', "OpSpecConstantOp", "IAdd", "\0", "%", "1e99", "OpDecorate",
         "\r\n", "\r", "1" * 5000, "0" * 4400 + "7", "0x1p+" + "9" * 5000, "!" + "9" * 5000, "%" + "9" * 5000,
         "\ud800", '"\ud800"', '"\udc80"', "OpName", "OpMemberName", "OpExtInstImport", '"' + "a" * 262132 + '"']


@given(st.lists(st.sampled_from(WORDS), max_size=30), st.sampled_from([" ", "\n", "\t"]))
@settings(max_examples=300, deadline=None)
def test_never_raises(words: list[str], separator: str) -> None:
    """Whatever the editor holds mid-keystroke, assembly returns words or diagnostics."""
    result = assemble(separator.join(words))
    assert (result.words is None) == bool(result.diagnostics)
    assert all(d.line is not None for d in result.diagnostics)
    result.spans


@pytest.mark.parametrize("shift", [0, 1, 2])
def test_every_opcode_of_the_grammar_same_as_spirv_as(shift: int) -> None:
    check_against_spirv_as(every_opcode_text(shift), "--target-env", "spv1.6", target_env="spv1.6")


@pytest.mark.parametrize("import_name", ext_import_names())
def test_every_extended_instruction_same_as_spirv_as(import_name: str) -> None:
    text = every_ext_instruction_text(import_name)
    check_against_spirv_as(text, "--target-env", "spv1.6", target_env="spv1.6")
