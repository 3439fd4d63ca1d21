"""Modules with one instruction of each opcode in the grammar, and of each instruction
of each extended set, for comparisons with SPIRV-Tools that reach every operand kind,
enumerant parameter and quantifier."""

from __future__ import annotations

from spvinspect.codec.grammar import Grammar, load_grammar

PLAIN_WORDS = {
    "LiteralInteger": ["7"], "LiteralString": ['"s"'], "LiteralFloat": ["1.5"],
    "LiteralContextDependentNumber": ["5"], "LiteralExtInstInteger": ["Sqrt"],
    "LiteralSpecConstantOpInteger": ["IAdd", "%a", "%a"],
}


def sample_words(kind: str, choice: int, grammar: Grammar, local: dict | None = None) -> list[str]:
    """Words for one operand of `kind`: the `choice`-th enumerant (with its parameters)
    for enumerated kinds, a fixed plain word for the rest. `local` holds an extended
    set's own operand kinds."""
    if kind.startswith("Id"):
        return ["%a"]
    if kind in PLAIN_WORDS:
        return PLAIN_WORDS[kind]
    described = (local or {}).get(kind) or grammar.operand_kinds[kind]
    if described.category == "Composite":
        return [word for base in described.bases for word in sample_words(base, choice, grammar, local)]
    enumerant = described.enumerants[choice % len(described.enumerants)]
    words = [enumerant.name]
    for parameter in enumerant.parameters:
        words += sample_words(parameter.kind, choice, grammar, local)
    return words


def every_opcode_text(shift: int) -> str:
    """Assembly with every opcode once, every operand present (`*` ones twice), and
    enumerants chosen in turn (moved on by `shift`) so that each kind's values and
    parameters come up. spirv-as accepts it for SPIR-V 1.6."""
    grammar = load_grammar()
    lines = [
        "OpCapability Shader", '%glsl = OpExtInstImport "GLSL.std.450"',
        "%i = OpTypeInt 32 0", "%a = OpUndef %i",
    ]
    for number, (name, desc) in enumerate(sorted(grammar.by_name.items())):
        words = []
        for operand in desc.operands:
            if operand.kind != "IdResult":
                for _ in range(2 if operand.quantifier == "*" else 1):
                    words += sample_words(operand.kind, number + shift, grammar)
        if name in ("OpConstant", "OpSpecConstant"):
            words[0] = "%i"
        elif name in ("OpExtInst", "OpExtInstWithForwardRefsKHR"):
            words = ["%a", "%glsl", "Sqrt", "%a"]
        elif name == "OpExtInstImport":
            words = ['"GLSL.std.450"']
        lines.append((f"%r{number} = " if desc.has_result else "") + " ".join([name, *words]))
    return "\n".join(lines) + "\n"


def ext_import_names() -> list[str]:
    """The import names of the extended sets the grammar knows (prefixes made whole)."""
    return sorted(name + "1" if name.endswith(".") else name for name in load_grammar().ext_inst_sets)


def every_ext_instruction_text(import_name: str) -> str:
    """Assembly with every instruction of one extended set once, as `every_opcode_text`
    builds them."""
    grammar = load_grammar()
    ext = grammar.ext_inst_set(import_name)
    lines = [
        "OpCapability Shader", f'%set = OpExtInstImport "{import_name}"',
        "%i = OpTypeInt 32 0", "%a = OpUndef %i",
    ]
    for number, (name, desc) in enumerate(sorted(ext.by_name.items())):
        words = []
        for operand in desc.operands:
            for _ in range(2 if operand.quantifier == "*" else 1):
                words += sample_words(operand.kind, number, grammar, ext.operand_kinds)
        lines.append(f"%r{number} = OpExtInst %a %set {name} " + " ".join(words))
    return "\n".join(lines) + "\n"
