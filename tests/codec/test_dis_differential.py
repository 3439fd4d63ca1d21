"""`spvinspect dis` against `spirv-dis --no-color`, byte for byte, on real modules."""

from __future__ import annotations

from pathlib import Path

import pytest
from oracle import corpus_files
from every_opcode import every_ext_instruction_text, every_opcode_text, ext_import_names
from glsl_shaders import SHADERS
from oracle import compile_glsl, first_difference, run_tool

from spvinspect.cli import main
from spvinspect.codec.grammar import load_grammar

FLAG_SETS = ([], ["--raw-id"])


def ours(capsysbinary, path: Path, flags: list[str]) -> bytes:
    capsysbinary.readouterr()
    code = main(["dis", *flags, str(path)])
    out = capsysbinary.readouterr()
    assert code == 0, out.err.decode()
    return out.out


def reference(path: Path, flags: list[str]) -> bytes:
    result = run_tool("spirv-dis", "--no-color", *flags, str(path))
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> dict[str, Path]:
    """Every test shader compiled once."""
    out = tmp_path_factory.mktemp("glsl")
    paths = {}
    for name, (stage, source, extra) in SHADERS.items():
        path = out / f"{name}.spv"
        compile_glsl(source, stage, path, *extra)
        paths[name] = path
    return paths


@pytest.mark.parametrize("flags", FLAG_SETS, ids=["friendly", "raw-id"])
@pytest.mark.parametrize("name", sorted(SHADERS))
def test_own_glsl_modules_match_spirv_dis(compiled, capsysbinary, name, flags):
    path = compiled[name]
    expected, actual = reference(path, flags), ours(capsysbinary, path, flags)
    assert actual == expected, first_difference(expected, actual)


@pytest.mark.parametrize(
    "flags",
    [["--no-header"], ["--no-indent"], ["--offsets"], ["--raw-id", "--no-indent"], ["--raw-id", "--no-indent", "--offsets"]],
)
def test_flags_match_spirv_dis(compiled, capsysbinary, flags):
    for path in compiled.values():
        expected, actual = reference(path, flags), ours(capsysbinary, path, flags)
        assert actual == expected, f"{path.name}: {first_difference(expected, actual)}"


@pytest.mark.parametrize("flags", FLAG_SETS, ids=["friendly", "raw-id"])
def test_corpus_matches_spirv_dis(corpus, capsysbinary, flags):
    files = corpus_files("spv")
    assert files, f"no modules in {corpus / 'spv'}"
    failures = []
    for path in files:
        expected, actual = reference(path, flags), ours(capsysbinary, path, flags)
        if actual != expected:
            failures.append(f"{path.name}: {first_difference(expected, actual)}")
    assert not failures, f"{len(failures)} of {len(files)} differ:\n" + "\n".join(failures[:10])


PEER_COMPILERS = ("glsl", "hlsl", "slang")


@pytest.mark.parametrize("flags", FLAG_SETS, ids=["friendly", "raw-id"])
@pytest.mark.parametrize("compiler", PEER_COMPILERS)
def test_peer_corpus_matches_spirv_dis(corpus, capsysbinary, compiler, flags):
    """Modules another project built with glslang, DXC and Slang. A module spirv-dis
    refuses (an enumerant newer than its grammar) must fail here too, with a message."""
    files = corpus_files(f"peer/{compiler}", "*.spv")
    assert files, f"no modules in {corpus / 'peer' / compiler}"
    failures = []
    for path in files:
        expected = run_tool("spirv-dis", "--no-color", *flags, str(path))
        if expected.returncode != 0:
            capsysbinary.readouterr()
            code = main(["dis", *flags, str(path)])
            err = capsysbinary.readouterr().err
            if code == 0 or b"error:" not in err:
                failures.append(f"{path.name}: spirv-dis refuses it, we print it with no error")
            continue
        actual = ours(capsysbinary, path, flags)
        if actual != expected.stdout:
            failures.append(f"{path.name}: {first_difference(expected.stdout, actual)}")
    assert not failures, f"{len(failures)} of {len(files)} differ:\n" + "\n".join(failures[:10])


def test_every_builtin_variable_is_named_as_spirv_dis_names_it(tmp_path, capsysbinary):
    """One unnamed variable per BuiltIn of the grammar that spirv-as knows: the names
    SPIRV-Tools gives (`%gl_BaseInstance`, `%SubgroupId`) or keeps the number."""
    kind = load_grammar().operand_kinds["BuiltIn"]
    names = sorted({e.name for e in kind.enumerants}, key=lambda n: kind.by_name[n].value)
    head = ["OpCapability Shader", "OpMemoryModel Logical GLSL450"]
    body = ["%int = OpTypeInt 32 1", "%ptr = OpTypePointer Input %int"]
    known = []
    for name in names:
        probe = tmp_path / "probe.spvasm"
        probe.write_text("\n".join([*head, f"OpDecorate %x BuiltIn {name}", *body, "%x = OpVariable %ptr Input", ""]))
        if run_tool("spirv-as", "-o", str(tmp_path / "probe.spv"), str(probe)).returncode == 0:
            known.append(name)
    assert "BaseInstance" in known and len(known) > 60, known
    decorations = [f"OpDecorate %{i + 100} BuiltIn {name}" for i, name in enumerate(known)]
    variables = [f"%{i + 100} = OpVariable %ptr Input" for i in range(len(known))]
    assert_spirv_dis_agrees("\n".join([*head, *decorations, *body, *variables, ""]), tmp_path, capsysbinary)


def test_literals_of_every_width_match_spirv_dis(tmp_path, capsysbinary):
    text = """OpCapability Shader
OpCapability Float16
OpCapability Float64
OpCapability Int64
OpCapability Int16
OpCapability Int8
OpMemoryModel Logical GLSL450
%h = OpTypeFloat 16
%f = OpTypeFloat 32
%d = OpTypeFloat 64
%i16 = OpTypeInt 16 1
%u16 = OpTypeInt 16 0
%i64 = OpTypeInt 64 1
%u64 = OpTypeInt 64 0
%i8 = OpTypeInt 8 1
%1 = OpConstant %h 1.0
%2 = OpConstant %h 0x1p-24
%3 = OpConstant %h -0x1.8p+16
%4 = OpConstant %f 0.1
%5 = OpConstant %f 0x1p+128
%6 = OpConstant %f -0x1.0002p+128
%7 = OpConstant %f 0x1.8p+128
%8 = OpConstant %f 1e-45
%9 = OpConstant %f -0
%10 = OpConstant %d 0.1
%11 = OpConstant %d 0x1p-1074
%12 = OpConstant %d -0x1.8p+1024
%13 = OpConstant %i16 0xffff
%14 = OpConstant %u16 0xffff
%15 = OpConstant %i64 -5
%16 = OpConstant %u64 0xffffffffffffffff
%17 = OpConstant %i8 -1
%18 = OpConstant %f 123456789
%19 = OpConstant %h 0
%20 = OpConstant %h -0.0
%21 = OpConstant %f 1.5e-40
"""
    source = tmp_path / "literals.spvasm"
    source.write_text(text)
    binary = tmp_path / "literals.spv"
    assert run_tool("spirv-as", "-o", str(binary), str(source)).returncode == 0
    expected, actual = reference(binary, []), ours(capsysbinary, binary, [])
    assert actual == expected, first_difference(expected, actual)
    assert b"%float_n0x1_0002p_128 = OpConstant %float -0x1.0002p+128" in actual


def assert_spirv_dis_agrees(text: str, tmp_path, capsysbinary) -> None:
    """Assembles `text` with spirv-as and compares both disassemblies, with and without
    friendly names."""
    source = tmp_path / "module.spvasm"
    source.write_text(text)
    binary = tmp_path / "module.spv"
    assert run_tool("spirv-as", "-o", str(binary), str(source)).returncode == 0
    for flags in ([], ["--raw-id"]):
        expected, actual = reference(binary, flags), ours(capsysbinary, binary, flags)
        assert actual == expected, first_difference(expected, actual)


def test_sets_spirv_tools_knows_only_by_number_match_spirv_dis(tmp_path, capsysbinary):
    """NonSemantic.DebugPrintf and NonSemantic.DebugBreak have grammars in the headers,
    but SPIRV-Tools prints their instructions as numbers, like any unknown NonSemantic set."""
    text = """OpCapability Shader
OpExtension "SPV_KHR_non_semantic_info"
%printf = OpExtInstImport "NonSemantic.DebugPrintf"
%break = OpExtInstImport "NonSemantic.DebugBreak"
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fmt = OpString "x=%d"
%1 = OpExtInst %void %printf 1 %fmt %void
%2 = OpExtInst %void %break 1
"""
    assert_spirv_dis_agrees(text, tmp_path, capsysbinary)


def test_encoded_floats_match_spirv_dis(tmp_path, capsysbinary):
    """bfloat16 and both 8-bit float formats: type names, constant names and hex-float
    literals, for every 8-bit pattern and a spread of 16-bit ones (written as raw words)."""
    lines = [
        "OpCapability Shader", "%bf = OpTypeFloat 16 BFloat16KHR",
        "%e4 = OpTypeFloat 8 Float8E4M3EXT", "%e5 = OpTypeFloat 8 Float8E5M2EXT",
    ]
    for bits in range(256):
        lines += [f"%a{bits} = OpConstant %e4 !{bits}", f"%b{bits} = OpConstant %e5 !{bits}"]
    for bits in [*range(0, 0x10000, 97), 0x7F80, 0xFF80, 0x7FC0, 0x7F81, 0x8000, 0x0080, 0x007F]:
        lines.append(f"%c{bits} = OpConstant %bf !{bits}")
    assert_spirv_dis_agrees("\n".join(lines) + "\n", tmp_path, capsysbinary)


def test_phi_with_an_odd_operand_count_matches_spirv_dis(tmp_path, capsysbinary):
    """SPIRV-Tools reads OpPhi's (value, parent) pairs as a plain list of ids."""
    text = """OpCapability Shader
%int = OpTypeInt 32 1
%a = OpUndef %int
%p = OpPhi %int %a %a %a
%q = OpPhi %int %a
"""
    assert_spirv_dis_agrees(text, tmp_path, capsysbinary)


@pytest.mark.parametrize("shift", [0, 1, 2])
def test_every_opcode_of_the_grammar_matches_spirv_dis(tmp_path, capsysbinary, shift):
    """Every opcode once, with enumerants taken in turn: operand kinds, parameters,
    quantifiers and the friendly names of every type declaration."""
    assert_spirv_dis_agrees(every_opcode_text(shift), tmp_path, capsysbinary)


@pytest.mark.parametrize("import_name", ext_import_names())
def test_every_extended_instruction_matches_spirv_dis(tmp_path, capsysbinary, import_name):
    assert_spirv_dis_agrees(every_ext_instruction_text(import_name), tmp_path, capsysbinary)
