"""The assembler's bulk path (`codec.asm.bulk`, taken for big texts) must change nothing
but speed: forced onto small texts, it gives the same words, diagnostics and instruction
spans as the engines, on a sample of the corpus and on texts made to meet each of its
cases (a type first seen as an assignment's result type, results defined twice, a
selector defined by an instruction it encodes itself, literals that depend on earlier
declarations, words that make it give way to the engines)."""

from __future__ import annotations

from unittest.mock import patch

import pytest
from oracle import corpus_files, corpus_sample, run_tool

from spvinspect.codec.asm import assembler, bulk, bulk_words
from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.asm.declarations import FLOAT, INT
from spvinspect.codec.asm.ids import numeric_ids
from spvinspect.codec.asm.literal_operands import encode_typed
from spvinspect.codec.asm.lexer import tokenize, word_codes

MODULE = """\
; SPIR-V
; Version: 1.3
; Generator: Khronos SPIR-V Tools Assembler; 0
; Bound: 90
; Schema: 0
OpCapability Shader
OpCapability Int64
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
OpName %f "f(i1;"
OpDecorate %out Location 0
%fwd_ptr = OpTypePointer Function %fwd
%fwd = OpTypeStruct %float
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%long = OpTypeInt 64 0
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %float
%optr = OpTypePointer Output %float
%out = OpVariable %optr Output
%40 = OpConstant %float 1.5
%c2 = OpConstant %int -7
%c3 = OpConstant %long 0x100000000
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
%x = OpLoad %float %v Aligned 4
%y = OpLoad %float %v
%s = OpExtInst %float %glsl Sqrt %y
%m = OpExtInst %float %glsl FMix %x %y %s
%sel = OpCopyObject %int %c2
%sum = OpFAdd %float %x %later
OpStore %out %sum Volatile
OpSelectionMerge %merge None
OpSwitch %sel %merge 1 %case 2 %merge
%case = OpLabel
OpLoopMerge %merge %case Unroll|DependencyLength 4
OpBranchConditional %40 %merge %case 1 2
%merge = OpLabel
%later = OpCopyObject %float %x
%p = OpAccessChain %ptr %v %c2 %c2
%q = OpPhi %float %x %entry %y %case
%7 = OpFMul %float %q %q
OpReturn
OpFunctionEnd
"""

VARIANTS = {
    "a result type first seen in its assignment": MODULE.replace(
        "OpReturn\n", "%fresh = OpUndef %newtype\n%fresh2 = OpUndef %newtype\nOpReturn\n")
    + "%newtype = OpTypeFloat 16\n",
    "a result defined twice": MODULE.replace("%7 = OpFMul", "%q = OpFMul"),
    "a '!' word": MODULE.replace("OpStore %out %sum Volatile", "OpStore %out %sum !1"),
    "a constant's type declared after it": MODULE.replace("%c2 = OpConstant %int -7", "%c2 = OpConstant %late -7")
    + "%late = OpTypeInt 32 1\n",
    "an extended instruction with an operand too many": MODULE.replace("Sqrt %y", "Sqrt %y %y"),
    "an extended instruction from a later import": MODULE.replace("%glsl Sqrt", "%glsl2 Sqrt")
    + '%glsl2 = OpExtInstImport "GLSL.std.450"\n',
    "an invalid id": MODULE.replace("%y = OpLoad", "%y-1 = OpLoad"),
    "an unknown opcode": MODULE.replace("OpFAdd", "OpFAddd"),
    "an enumerant with parameters": MODULE.replace("OpDecorate %out Location 0", "OpDecorate %out Location 0\n"
                                                   "OpExecutionMode %main LocalSize 1 1 1"),
    "a string with an escape": MODULE.replace('"f(i1;"', '"f\\"(i1;"'),
    "no header comments": MODULE.split("; Schema: 0\n")[1],
    "no words": "  \n; a comment\n",
    "a switch on a float": MODULE.replace("OpSwitch %sel", "OpSwitch %x"),
    "a switch on a value the engines define": MODULE.replace("%sel = OpCopyObject %int %c2",
                                                              "%sel = OpLoad %int %iv Aligned 4")
    .replace("%v = OpVariable %ptr Function", "%v = OpVariable %ptr Function\n%iv = OpVariable %iptr Function")
    .replace("%optr = ", "%iptr = OpTypePointer Function %int\n%optr = "),
    "a switch on a value defined after it": MODULE.replace("OpSwitch %sel", "OpSwitch %later"),
    "a selector defined twice": MODULE.replace("%sel = OpCopyObject %int %c2",
                                               "%sel = OpCopyObject %int %c2\n%sel = OpCopyObject %long %c3"),
    "a switch on a 64-bit value": MODULE.replace("%sel = OpCopyObject %int %c2", "%sel = OpCopyObject %long %c3"),
}


def outcome(result) -> tuple:
    return (
        None if result.words is None else list(result.words),
        [(d.message, d.line, d.column) for d in result.diagnostics],
        result.spans,
    )


def bulk_outcome(text: str, **options) -> tuple[tuple, list[bool]]:
    """`assemble(text)` with the bulk path forced, and whether it held each time."""
    held: list[bool] = []
    run = bulk.run_bulk

    def recording(*args) -> bool:
        held.append(run(*args))
        return held[-1]

    with patch.object(assembler, "BULK_MIN_CHARS", 0), patch.object(bulk, "run_bulk", recording):
        return outcome(assemble(text, **options)), held


def test_bulk_path_on_each_case() -> None:
    """The module and each variant, with and without numeric ids kept: as the engines."""
    held_for = {}
    for name, text in {"the module": MODULE, **VARIANTS}.items():
        for options in ({}, {"preserve_numeric_ids": True}, {"target_env": "spv1.3"}):
            got, held = bulk_outcome(text, **options)
            assert got == outcome(assemble(text, **options)), f"{name}, {options}"
            held_for[name] = held_for.get(name, False) or held == [True]
    assert outcome(assemble(MODULE))[0] is not None
    # Where it can, the bulk path holds; where it cannot, the engines answer.
    assert [name for name, held in held_for.items() if held] == [
        "the module", "a result type first seen in its assignment", "a result defined twice",
        "an enumerant with parameters",
        "a string with an escape", "no header comments", "a switch on a value the engines define",
        "a selector defined twice", "a switch on a 64-bit value",
    ]


def test_bulk_path_on_every_word_dropped_or_doubled() -> None:
    """Each word dropped or doubled (alternately: every place meets one of the two)."""
    words = MODULE.split("; Schema: 0\n")[1].split()
    for at in range(len(words)):
        text = " ".join(words[:at] + words[at + 1:]) if at % 2 else "\n".join(words[: at + 1] + words[at:])
        assert bulk_outcome(text)[0] == outcome(assemble(text)), text


def test_numeric_ids_found_as_the_engines_find_them() -> None:
    words = ["%0", "%0x1f", "%017", "%1", "%4294967295", "%4294967296", "%99999999999", "%12abc", "%main",
             "%0x100000000", "OpNop", "=", "%9_", "%00"]
    codes, unique = word_codes(" ".join(words))
    assert bulk_words.Distinct(unique).numeric_ids() == numeric_ids(words)


SPV = corpus_sample(corpus_files("spv", "*.spv"))[::2]
ASM = corpus_sample(corpus_files("asm"))[::2]


@pytest.mark.skipif(not SPV, reason="SPVINSPECT_CORPUS is not set: corpus tests skipped")
def test_bulk_path_on_the_corpus() -> None:
    """Every eighth corpus module's friendly disassembly (with the names' numbers as
    hints) and every eighth `asm/` file: as the engines; the bulk path holds on all
    those modules and on most `asm/` files (not on errors, nor on non-semantic sets'
    instructions with literal operands)."""
    failures = []
    held_count = 0
    for path in SPV:
        friendly = run_tool("spirv-dis", "--no-color", str(path)).stdout.decode("utf-8", "surrogateescape")
        raw = run_tool("spirv-dis", "--no-color", "--raw-id", str(path)).stdout.decode("utf-8", "surrogateescape")
        hints = {name: int(number[1:]) for name, number in zip(tokenize(friendly), tokenize(raw))
                 if name[:1] == "%" and name != number}
        got, held = bulk_outcome(friendly, id_hints=hints)
        if got != outcome(assemble(friendly, id_hints=hints)) or held != [True]:
            failures.append(path.name)
    for path in ASM:
        text = path.read_bytes().decode("utf-8", "surrogateescape")
        expected = outcome(assemble(text, target_env="spv1.6"))
        got, held = bulk_outcome(text, target_env="spv1.6")
        held_count += held == [True]
        if got != expected:
            failures.append(path.name)
    assert not failures, failures[:10]
    assert held_count > len(ASM) * 3 // 4


def test_plain_numbers_by_array_passes_as_encode_typed() -> None:
    """OpConstant's 32-bit numbers read in bulk give `encode_typed`'s words; the
    doubles that fall on a tie between two floats, and overflows, are left to it."""
    floats = ["1.5", "-0", "-0.0", "0", "0.1", "-7.25", "16777217", "3.5e2", "1.000000059604644775390625",
              "1.0000000596046447753906251", "1.00000005960464477539062", "340282346638528859811704183484516925440.0",
              "340282356779733661637539395458142568448", "1.", ".5", "+1", "0x1p3", "nan"]
    ints = ["0", "-0", "5", "-5", "123456789", "-123456789", "1234567890", "4294967295", "0x10", "+3", "1e3"]
    for info, toks in (((FLOAT, 32, None), floats), ((INT, 32, True), ints), ((INT, 32, False), ints)):
        values, at = bulk_words.plain_number_words(info, toks)
        handled = dict(zip(at.tolist(), values.tolist()))
        for i, tok in enumerate(toks):
            if i in handled:
                assert [handled[i]] == encode_typed(tok, info)[0], (info, tok)
        assert len(handled) >= len(toks) // 3
    # The ties and the overflow are left to encode_typed.
    values, at = bulk_words.plain_number_words((FLOAT, 32, None), floats)
    assert not {floats.index("1.000000059604644775390625"), floats.index("1.0000000596046447753906251"),
                floats.index("340282356779733661637539395458142568448")} & set(at.tolist())
    assert bulk_words.plain_number_words((FLOAT, 16, None), floats) is None
