"""The source text a module carries and each instruction's line (OpSource/OpLine and the
non-semantic DebugSource/DebugLine)."""

from __future__ import annotations

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.codec.source_map import SourceFile, SourceLocation, source_map

DEBUG_INFO = """
OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%dbg = OpExtInstImport "NonSemantic.Shader.DebugInfo.100"
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%file = OpString "a.frag"
%text1 = OpString "line one\nline two\n"
%text2 = OpString "line three\n"
%glsl = OpString "b.frag"
OpSource GLSL 450 %glsl "first\n"
OpSourceContinued "second\n"
%void = OpTypeVoid
%fn = OpTypeFunction %void
%uint = OpTypeInt 32 0
%u1 = OpConstant %uint 1
%u3 = OpConstant %uint 3
%src = OpExtInst %void %dbg DebugSource %file %text1
%more = OpExtInst %void %dbg DebugSourceContinued %text2
%main = OpFunction %void None %fn
%entry = OpLabel
%l3 = OpExtInst %void %dbg DebugLine %src %u3 %u3 %u1 %u1
%x = OpIAdd %uint %u1 %u1
%y = OpIAdd %uint %x %u1
OpLine %glsl 2 7
%z = OpIAdd %uint %y %u1
OpNoLine
%w = OpIAdd %uint %z %u1
OpLine %glsl 1 0
OpBranch %next
%next = OpLabel
%v = OpIAdd %uint %w %u1
OpReturn
OpFunctionEnd
"""


def _index(module, opname: str, nth: int = 0) -> int:
    return [i for i, inst in enumerate(module.instructions) if inst.opname == opname][nth]


def test_debug_source_and_op_source_texts_and_the_lines_of_each_directive() -> None:
    module = decode(assemble(DEBUG_INFO).words.tobytes())
    sources = source_map(module.instructions)
    names = [f.name for f in sources.files]
    assert names == ["b.frag", "a.frag"]
    glsl, debug = sources.files
    assert glsl.language == "GLSL 450" and glsl.lines == ["first", "second"]
    assert debug.lines == ["line one", "line two", "line three"]
    debug_line = _index(module, "OpExtInst", 2)
    first_add, second_add, third_add, fourth_add, fifth_add = (_index(module, "OpIAdd", n) for n in range(5))
    # DebugLine: the directive is tied to its line, the instructions after it are its instructions.
    assert sources.location(debug_line) == SourceLocation(1, 3, 1)
    assert sources.instructions(1, 3) == [first_add, second_add]
    # OpLine takes over; OpNoLine ends it; a block's end ends the last one (its branch included).
    assert sources.location(third_add) == SourceLocation(0, 2, 7)
    assert sources.location(fourth_add) is None
    assert sources.instructions(0, 1) == [_index(module, "OpBranch")]
    assert sources.location(fifth_add) is None
    assert sources.location(_index(module, "OpReturn")) is None


def test_the_bundled_example_ties_its_texture_line_to_the_sample() -> None:
    module = decode(EXAMPLE_MODULE.read_bytes())
    sources = source_map(module.instructions)
    (example,) = sources.files
    assert example.name == "example.frag" and example.language == "GLSL 450"
    assert example.lines[16].strip() == "vec4 base = texture(albedo, uv);"
    ops = [module.instructions[i].opname for i in sources.instructions(0, 17)]
    assert ops == ["OpLoad", "OpLoad", "OpImageSampleImplicitLod", "OpStore"]
    assert all(sources.location(i).line == 17 for i in sources.instructions(0, 17))


def test_a_module_without_debug_information_has_no_sources() -> None:
    text = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n"
    module = decode(assemble(text).words.tobytes())
    sources = source_map(module.instructions)
    assert not sources and sources.location(2) is None


def test_a_files_lines_are_split_once_for_each_text():
    """The source pane asks for the lines with every row it draws: a long file is not
    split again each time, and a text made longer (a continued source) is."""
    file = SourceFile(1, "a.frag", text="void main() {\n}")
    assert file.lines is file.lines and file.lines == ["void main() {", "}"]
    file.text += "\n// more"
    assert file.lines == ["void main() {", "}", "// more"]
