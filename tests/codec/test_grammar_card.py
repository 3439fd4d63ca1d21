"""Grammar cards: an instruction, an enumerant and an extended instruction, as the grammar
describes them, each with its specification URL."""

from __future__ import annotations

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.grammar_card import (
    SPEC_URL,
    card_for,
    enumerant_card,
    ext_instruction_card,
    instruction_card,
    mask_card,
    section_anchor,
)

GRAMMAR = load_grammar()


def test_instruction_card_by_name_and_by_opcode():
    card = instruction_card(GRAMMAR, "OpTypeInt")
    assert card == instruction_card(GRAMMAR, 21)
    assert card.title == "OpTypeInt (opcode 21)"
    assert card.opclass == "Type-Declaration"
    assert [o.text for o in card.operands] == [
        "IdResult",
        "'Width' (LiteralInteger)",
        "'Signedness' (LiteralInteger)",
    ]
    assert card.availability.version_text == "SPIR-V 1.0 and later"
    assert card.spec_url == "https://registry.khronos.org/SPIR-V/specs/unified1/SPIRV.html#OpTypeInt"


def test_instruction_card_shows_quantifiers_capabilities_and_versions():
    ballot = instruction_card(GRAMMAR, "OpGroupNonUniformBallot")
    assert ballot.availability.capabilities == ("GroupNonUniformBallot",)
    assert ballot.availability.version_text == "SPIR-V 1.3 and later"
    entry = instruction_card(GRAMMAR, "OpEntryPoint").operands[-1]
    assert (entry.kind, entry.quantifier_text, entry.category) == ("IdRef", "zero or more", "Id")
    image = instruction_card(GRAMMAR, "OpImageSampleImplicitLod").operands[-1]
    assert image.text == "ImageOperands (optional)"
    extension_only = instruction_card(GRAMMAR, "OpSubgroupBallotKHR").availability
    assert extension_only.extensions == ("SPV_KHR_shader_ballot",)
    assert extension_only.version_text == "only through an extension or capability"


def test_enumerant_card_value_parameters_capabilities():
    builtin = enumerant_card(GRAMMAR, "Decoration", "BuiltIn")
    assert builtin == enumerant_card(GRAMMAR, "Decoration", 11)
    assert builtin.title == "Decoration BuiltIn (11)"
    assert [p.kind for p in builtin.parameters] == ["BuiltIn"]
    assert builtin.spec_url == f"{SPEC_URL}#_decoration"
    bias = enumerant_card(GRAMMAR, "ImageOperands", "Bias")
    assert bias.title == "ImageOperands Bias (bit 0x1)"
    assert bias.availability.capabilities == ("Shader",)
    assert [p.kind for p in bias.parameters] == ["IdRef"]


def test_extended_instruction_card():
    fmix = ext_instruction_card(GRAMMAR, "GLSL.std.450", "FMix")
    assert fmix == ext_instruction_card(GRAMMAR, "GLSL.std.450", 46)
    assert fmix.title == "GLSL.std.450 FMix (instruction 46)"
    assert [o.text for o in fmix.operands] == ["'x' (IdRef)", "'y' (IdRef)", "'a' (IdRef)"]
    assert fmix.spec_url.startswith(
        "https://registry.khronos.org/SPIR-V/specs/unified1/GLSL.std.450.html"
    )
    assert fmix.spec_url.endswith("FMix")


def test_unknown_entries_have_no_card():
    assert instruction_card(GRAMMAR, "OpNoSuchThing") is None
    assert instruction_card(GRAMMAR, 0xFFFF) is None
    assert enumerant_card(GRAMMAR, "StorageClass", 0xFFFF) is None
    assert enumerant_card(GRAMMAR, "IdRef", 1) is None
    assert ext_instruction_card(GRAMMAR, "No.Such.Set", 1) is None
    assert ext_instruction_card(GRAMMAR, "GLSL.std.450", 9999) is None


def test_spec_anchors_follow_the_section_titles():
    assert section_anchor("StorageClass") == "_storage_class"
    assert section_anchor("FPRoundingMode") == "_fp_rounding_mode"
    assert section_anchor("BuiltIn") == "_builtin"
    assert section_anchor("Dim") == "_dim"


def test_every_core_instruction_and_enumerant_has_a_card():
    for opcode, desc in GRAMMAR.instructions.items():
        card = instruction_card(GRAMMAR, opcode)
        assert card.spec_url.endswith(f"#{desc.opname}")
        assert len(card.operands) == len(desc.operands)
    for kind in GRAMMAR.operand_kinds.values():
        for enumerant in kind.enumerants:
            card = enumerant_card(GRAMMAR, kind.kind, enumerant.name)
            assert card is not None and card.value == enumerant.value, enumerant


EXT_INST_MODULE = """
OpCapability Shader
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
%float = OpTypeFloat 32
%one = OpConstant %float 1
%mix = OpExtInst %float %glsl FMix %one %one %one
OpDecorate %one RelaxedPrecision
"""


def test_card_for_a_module_instruction_and_its_operands():
    module = decode(assemble(EXT_INST_MODULE).words.tobytes())
    by_name = {inst.opname: inst for inst in module.instructions}
    decorate = by_name["OpDecorate"]
    assert card_for(GRAMMAR, decorate).opname == "OpDecorate"
    relaxed = card_for(GRAMMAR, decorate, 1)
    assert (relaxed.kind, relaxed.name) == ("Decoration", "RelaxedPrecision")
    ext = by_name["OpExtInst"]
    assert card_for(GRAMMAR, ext).title == "GLSL.std.450 FMix (instruction 46)"
    assert card_for(GRAMMAR, ext, 3) == card_for(GRAMMAR, ext)
    assert card_for(GRAMMAR, ext, 4) == card_for(GRAMMAR, ext)  # FMix's own operand 'x'


MASK_MODULE = """
OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%int = OpTypeInt 32 1
%fn = OpTypeFunction %void
%ptr = OpTypePointer Function %int
%main = OpFunction %void Inline|Pure %fn
%entry = OpLabel
%p = OpVariable %ptr Function
%x = OpLoad %int %p Volatile|Aligned 4
OpBranch %head
%head = OpLabel
OpLoopMerge %merge %head Unroll|DependencyLength 2
OpBranch %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
"""


def mask_operand_card(opname: str):
    module = decode(assemble(MASK_MODULE).words.tobytes())
    inst = next(i for i in module.instructions if i.opname == opname)
    index = next(n for n, o in enumerate(inst.operands) if GRAMMAR.operand_kinds[o.kind].category == "BitEnum")
    return card_for(GRAMMAR, inst, index)


def test_a_mask_card_lists_every_set_bit_with_its_parameters():
    control = mask_operand_card("OpFunction")
    assert control.title == "FunctionControl Inline|Pure (0x5)"
    assert [(b.name, b.value) for b in control.bits] == [("Inline", 1), ("Pure", 4)]
    access = mask_operand_card("OpLoad")
    assert access.title == "MemoryAccess Volatile|Aligned (0x3)"
    assert [b.name for b in access.bits] == ["Volatile", "Aligned"]
    assert [p.kind for p in access.bits[1].parameters] == ["LiteralInteger"]
    assert any("Aligned" in line and "LiteralInteger" in line for line in access.bit_lines)
    loop = mask_operand_card("OpLoopMerge")
    assert loop.title == "LoopControl Unroll|DependencyLength (0x9)"
    assert [b.name for b in loop.bits] == ["Unroll", "DependencyLength"]
    assert any("DependencyLength" in line and "LiteralInteger" in line for line in loop.bit_lines)
    assert loop.spec_url == f"{SPEC_URL}#_loop_control"


def test_a_mask_card_names_the_bits_the_grammar_does_not_know():
    card = mask_card(GRAMMAR, "FunctionControl", 0x1 | 0x80000)
    assert card.title == "FunctionControl Inline|0x80000 (0x80001)"
    assert card.unknown == 0x80000
    assert any("0x80000" in line and "not in the grammar" in line for line in card.bit_lines)
