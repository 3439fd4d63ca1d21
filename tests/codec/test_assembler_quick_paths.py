"""The assembler's quick paths must change nothing but speed: on any text, with them or
without them (every instruction operand by operand, as spirv-as goes), the words,
the diagnostics and the instruction spans are the same.

The texts are a module that touches every quick shape, mutated word by word the way
an editor's buffer looks mid-keystroke: words dropped, repeated, swapped or replaced.
"""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from spvinspect.codec.asm import assembler
from spvinspect.codec.asm.encoder import Encoder
from spvinspect.codec.asm.assembler import assemble

MODULE = """\
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
%cl = OpExtInstImport "OpenCL.std"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main" %out
OpExecutionMode %main OriginUpperLeft
OpSource GLSL 450
OpName %main "main"
OpName %f "f(i1;"
OpMemberName %S 0 "x"
OpDecorate %out Location 0
OpDecorate %S Block
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%long = OpTypeInt 64 0
%float = OpTypeFloat 32
%S = OpTypeStruct %float
%ptr = OpTypePointer Function %float
%optr = OpTypePointer Output %float
%out = OpVariable %optr Output
%c1 = OpConstant %float 1.5
%c2 = OpConstant %int -7
%c4 = OpConstant %int -2
%c3 = OpConstant %long 0x100000000
%cc = OpConstantComposite %S %c1
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
%x = OpLoad %float %v Aligned 4
%y = OpLoad %float %v
%s = OpExtInst %float %glsl Sqrt %y
%m = OpExtInst %float %glsl FMix %x %y %s
%n = OpExtInst %float %cl vloadn %c2 %v 4
%sum = OpFAdd %float %x %later
OpStore %out %sum Volatile
OpSelectionMerge %merge None
OpSwitch %c2 %merge 1 %case 2 %merge
OpSwitch %c3 %merge 5000000000 %case
%case = OpLabel
OpLoopMerge %merge %case Unroll|DependencyLength 4
OpBranchConditional %c1 %merge %case 1 2
%merge = OpLabel
%later = OpCopyObject %float %x
%p = OpAccessChain %ptr %v %c2 %c2
%q = OpPhi %float %x %entry %y %case
OpLine %glsl 3 4
OpReturn
OpFunctionEnd
"""

WORDS = MODULE.split()
REPLACEMENTS = [
    "!7", "=", "%new", "%1", "%0", "None", '"s"', '"a b"', "5", "-1", "0x10", "1.5", "OpNop",
    "OpLabel", "Volatile|Aligned", "Aligned", "Sqrt", "%glsl", "%float", "Output", "Function",
    "OpUnknown", "(", ")", ",", ";", "%c1", "%c2", "%merge", "Unroll", "DontUnroll|Unroll",
]


def without_quick_paths(text: str):
    """`assemble(text)` with every instruction taken operand by operand."""
    with patch.object(assembler, "QuickEncoder", Encoder):
        return assemble(text)


def same_outcome(text: str) -> None:
    quick = assemble(text)
    exact = without_quick_paths(text)
    assert (quick.words is None) == (exact.words is None)
    if quick.words is not None:
        assert list(quick.words) == list(exact.words)
    assert [(d.message, d.line, d.column) for d in quick.diagnostics] == [
        (d.message, d.line, d.column) for d in exact.diagnostics
    ]
    assert quick.spans == exact.spans


def test_the_module_itself() -> None:
    result = assemble(MODULE)
    assert result.ok, result.diagnostics[0].format()
    same_outcome(MODULE)


edits = st.lists(
    st.tuples(
        st.sampled_from(["drop", "repeat", "swap", "replace", "insert"]),
        st.integers(0, len(WORDS) - 1),
        st.sampled_from(REPLACEMENTS),
    ),
    min_size=1,
    max_size=4,
)


def apply_edit(words: list[str], kind: str, at: int, word: str) -> None:
    """One keystroke's worth of change to a list of words, in place."""
    at %= len(words)
    if kind == "drop":
        del words[at]
    elif kind == "repeat":
        words.insert(at, words[at])
    elif kind == "swap" and at + 1 < len(words):
        words[at], words[at + 1] = words[at + 1], words[at]
    elif kind == "insert":
        words.insert(at, word)
    else:
        words[at] = word


@settings(max_examples=600, deadline=None)
@given(edits, st.sampled_from([" ", "\n"]))
def test_edited_modules(changes, separator: str) -> None:
    words = list(WORDS)
    for kind, at, word in changes:
        apply_edit(words, kind, at, word)
    same_outcome(separator.join(words))


def test_every_cut() -> None:
    """The text as it is while being typed from the top."""
    for length in range(1, len(WORDS)):
        same_outcome(" ".join(WORDS[:length]))


def test_every_word_dropped_or_doubled() -> None:
    for at in range(len(WORDS)):
        same_outcome("\n".join(WORDS[:at] + WORDS[at + 1 :]))
        same_outcome("\n".join(WORDS[: at + 1] + WORDS[at:]))


def test_every_word_replaced() -> None:
    """Each word by every other replacement, the two halves alternating along the text (so
    each replacement meets every kind of place in half the time of the whole matrix)."""
    for at in range(len(WORDS)):
        for word in REPLACEMENTS[at % 2 :: 2]:
            same_outcome(" ".join(WORDS[:at] + [word] + WORDS[at + 1 :]))
