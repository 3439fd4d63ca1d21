"""The opcodes the codec treats specially, resolved from the grammar by name, in one place.

Each field of `Opcodes` is named exactly as the grammar names the instruction, and
its number is looked up under that name, so no opcode number is written anywhere in
the codec. Opcodes chosen by what their operands are rather than by name (the
extended instructions, say) are derived in `codec.program`.
"""

from __future__ import annotations

from typing import NamedTuple

from spvinspect.codec.grammar import Grammar, load_grammar


class Opcodes(NamedTuple):
    """Opcode numbers by the grammar's names: `opcodes().OpSwitch` is 251."""

    OpExtInstImport: int
    OpExtInst: int
    OpExtInstWithForwardRefsKHR: int
    OpTypeInt: int
    OpTypeFloat: int
    OpConstant: int
    OpSpecConstant: int
    OpSwitch: int
    OpFunction: int
    OpFunctionEnd: int
    OpFunctionParameter: int
    OpLabel: int
    OpBranch: int
    OpBranchConditional: int
    OpSelectionMerge: int
    OpLoopMerge: int


_RESOLVED: dict[int, tuple[Grammar, Opcodes]] = {}


def opcodes(grammar: Grammar | None = None) -> Opcodes:
    """The opcodes of `grammar` (the installed one by default), resolved once per grammar.

    Raises KeyError naming the opname when a grammar lacks one of them."""
    grammar = grammar or load_grammar()
    entry = _RESOLVED.get(id(grammar))
    if entry is None or entry[0] is not grammar:
        by_name = grammar.by_name
        entry = _RESOLVED[id(grammar)] = (grammar, Opcodes(*(by_name[name].opcode for name in Opcodes._fields)))
    return entry[1]
