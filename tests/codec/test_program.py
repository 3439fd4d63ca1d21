"""The operand program and the opcodes by name: what the decoder and the assembler share.

Opcode numbers are checked against the SPIR-V specification's values; the program's
codes against the grammar's quantifiers and against the quirks SPIRV-Tools settles
(OpExtInst, OpPhi, OpSwitch, OpSpecConstantOp, enumerants with parameters)."""

from __future__ import annotations

from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.opcodes import Opcodes, opcodes
from spvinspect.codec.program import (
    ENUM_BASE, EXT_INST_NUM, ID, LIT_INT, OPT_ID, OPT_TYPED_INT, REPEATED_ENUM_BASE, RESULT_ID,
    SPEC_OP_NUM, TYPE_ID, VAR_ID, VAR_LIT_INT_ID, is_optional, program_of, repetition,
)

SPEC_OPCODES = {
    "OpExtInstImport": 11, "OpExtInst": 12, "OpExtInstWithForwardRefsKHR": 4433, "OpTypeInt": 21,
    "OpTypeFloat": 22, "OpConstant": 43, "OpSpecConstant": 50, "OpSwitch": 251, "OpFunction": 54,
    "OpFunctionEnd": 56, "OpFunctionParameter": 55, "OpLabel": 248, "OpBranch": 249,
    "OpBranchConditional": 250, "OpSelectionMerge": 247, "OpLoopMerge": 246,
}
"""The numbers the SPIR-V specification gives these opcodes."""


def test_opcodes_by_name_are_the_specifications() -> None:
    assert opcodes()._asdict() == SPEC_OPCODES
    assert set(Opcodes._fields) == set(SPEC_OPCODES)
    assert opcodes() is opcodes(load_grammar())


def test_every_operand_has_one_code_optional_as_the_grammar_says() -> None:
    program = program_of()
    assert program is program_of(load_grammar())
    for name, op in program.by_name.items():
        assert len(op.codes) == len(op.operands), name
        for code, operand in zip(op.codes, op.operands):
            assert is_optional(code) == (operand.quantifier is not None), (name, operand)
        assert program.by_opcode[op.opcode].opcode == op.opcode


def test_extended_instructions_take_their_own_operands() -> None:
    program = program_of()
    for name in ("OpExtInst", "OpExtInstWithForwardRefsKHR"):
        assert program.by_name[name].codes == (TYPE_ID, RESULT_ID, ID, EXT_INST_NUM)
    assert program.ext_inst_opcodes == {12, 4433}
    glsl = program.ext_instructions(program.grammar.ext_inst_set("GLSL.std.450"))
    assert glsl.by_name["Sqrt"].number == 31 and glsl.by_name["Sqrt"].codes == (ID,)
    assert glsl.by_name["FMix"].codes == (ID, ID, ID)
    assert glsl.by_number[31].name == "Sqrt"


def test_extended_sets_own_enum_kinds_resolve() -> None:
    """A set's own kinds are its own, even where a name clashes; core kinds are the core's."""
    program = program_of()
    ext = program.grammar.ext_inst_set("OpenCL.DebugInfo.100")
    kinds = [
        (operand.kind, program.enum(code).kind)
        for instruction in program.ext_instructions(ext).by_name.values()
        for code, operand in zip(instruction.codes, instruction.operands)
        if code >= ENUM_BASE
    ]
    assert {"DebugInfoFlags", "StorageClass"} <= {name for name, _ in kinds}
    for name, kind in kinds:
        assert kind is ext.operand_kinds.get(name, program.grammar.operand_kinds.get(name)), name


def test_grammar_quirks_settled_as_spirv_tools_does() -> None:
    program = program_of()
    assert program.by_name["OpPhi"].codes == (TYPE_ID, RESULT_ID, VAR_ID)  # pairs as a list of ids
    assert repetition(VAR_ID) == (OPT_ID,)
    assert program.by_name["OpSwitch"].codes == (ID, ID, VAR_LIT_INT_ID)
    assert repetition(VAR_LIT_INT_ID) == (OPT_TYPED_INT, ID)  # the literal as wide as the selector
    assert program.by_name["OpSpecConstantOp"].codes == (TYPE_ID, RESULT_ID, SPEC_OP_NUM)
    capabilities = program.by_name["OpSpecConstantCapabilitiesINTEL"].codes[-1]
    assert capabilities >= REPEATED_ENUM_BASE
    assert repetition(capabilities) == (capabilities - REPEATED_ENUM_BASE + 1,)
    assert program.enum(capabilities).kind.kind == "Capability"


def test_enumerants_bring_their_parameters() -> None:
    program = program_of()
    decoration = program.enum(program.by_name["OpDecorate"].codes[1])
    location = decoration.kind.by_name["Location"].value
    assert decoration.parameters[location] == (LIT_INT,)
    assert "Location" not in decoration.plain and decoration.plain["Block"] == 2
    loop = program.enum(program.by_name["OpLoopMerge"].codes[2])
    dependency = loop.kind.by_name["DependencyLength"].value
    assert loop.is_mask and loop.parameter_bits & dependency
    assert loop.parameters[dependency] == (LIT_INT,)
    assert "DependencyLength" not in loop.plain and loop.plain["Unroll"] == 1
    optional = program.enum(program.by_name["OpTypeFloat"].codes[-1])
    assert optional.kind.kind == "FPEncoding" and program.by_name["OpTypeFloat"].codes[-1] & 1


def test_availability_by_version() -> None:
    copy_logical = program_of().by_name["OpCopyLogical"]
    assert not copy_logical.available(0x00010300)
    assert copy_logical.available(0x00010400)
    assert program_of().by_name["OpTypeVoid"].available(0x00010000)
