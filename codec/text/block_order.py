"""Block order and nesting levels of one function, as `spirv-dis --reorder-blocks` and
`--nested-indent` (SPIRV-Tools v2025.5) compute them.

spirv-dis does not use dominators here: it reads each block's successors off its last
two instructions, walks them depth first from the entry block with its own push order,
and gives each successor a level when first seen from a visited block:

- the merge block, and the target of a plain `OpBranch`, stay at the block's level;
- the continue target of a loop is one level deeper;
- a loop body, both targets of `OpBranchConditional` and every `OpSwitch` target are
  two levels deeper.

The order is the walk's reverse postorder (a header, then its branches, its continue
target, then its merge block), followed by the blocks the walk never reached, at
level 0. A target that is not a block of the function is ignored (spirv-dis aborts on
it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from spvinspect.codec.binary.model import Instruction
from spvinspect.codec.grammar import Grammar


class Successors(NamedTuple):
    """The blocks one block leads to, by the role spirv-dis gives them (0: none)."""

    merge: int = 0
    continue_target: int = 0
    true: int = 0
    false: int = 0
    body: int = 0
    """The target of the `OpBranch` of a block that declares a merge."""
    next: int = 0
    """The target of an `OpBranch` of a block that declares no merge."""
    cases: tuple[int, ...] = ()
    """`OpSwitch`'s default target, then its case targets."""


class BranchOpcodes(NamedTuple):
    """The opcodes that shape the order, resolved from the grammar by name."""

    loop_merge: int
    selection_merge: int
    branch: int
    branch_conditional: int
    switch: int

    @classmethod
    def from_grammar(cls, grammar: Grammar) -> BranchOpcodes:
        """The opcodes of the installed grammar."""
        by_name = grammar.by_name
        return cls(
            *(by_name[name].opcode
              for name in ("OpLoopMerge", "OpSelectionMerge", "OpBranch", "OpBranchConditional", "OpSwitch"))
        )


def _id_operand(inst: Instruction, index: int) -> int:
    """The id in operand `index`, or 0 when the instruction has no such id operand."""
    operands = inst.operands
    if index < len(operands) and operands[index].kind[:2] == "Id":
        return operands[index].value  # type: ignore[return-value]
    return 0


def block_successors(block: Sequence[Instruction], opcodes: BranchOpcodes) -> Successors:
    """The successors of a block: its OpLabel and every instruction up to the next
    OpLabel or OpFunctionEnd. The merge instruction counts only as the next-to-last
    instruction of a block of three or more; the branch is the last instruction."""
    merge = continue_target = 0
    if len(block) >= 3:
        declared = block[-2]
        if declared.opcode == opcodes.loop_merge:
            merge, continue_target = _id_operand(declared, 0), _id_operand(declared, 1)
        elif declared.opcode == opcodes.selection_merge:
            merge = _id_operand(declared, 0)
    branch = block[-1]
    opcode = branch.opcode
    if opcode == opcodes.branch:
        target = _id_operand(branch, 0)
        if merge:
            return Successors(merge, continue_target, body=target)
        return Successors(merge, continue_target, next=target)
    if opcode == opcodes.branch_conditional:
        return Successors(merge, continue_target, _id_operand(branch, 1), _id_operand(branch, 2))
    if opcode == opcodes.switch:
        cases = tuple(_id_operand(branch, k) for k in range(1, len(branch.operands), 2))
        return Successors(merge, continue_target, cases=cases)
    return Successors(merge, continue_target)


def order_and_nest(labels: Sequence[int], successors: Sequence[Successors]) -> tuple[list[int], list[int]]:
    """For blocks given by their label ids and successors, in module order (the first
    is the entry): the order spirv-dis prints them in with `--reorder-blocks` (indexes
    into `labels`), and the nesting level of each block."""
    count = len(labels)
    if not count:
        return [], []
    index = {label: k for k, label in enumerate(labels)}  # a repeated label: the last wins
    levels: list[int | None] = [None] * count
    levels[0] = 0

    def nest(target: int, level: int) -> None:
        k = index.get(target) if target else None
        if k is not None and levels[k] is None:
            levels[k] = level

    visited = bytearray(count)
    postorder: list[int] = []
    stack: list[tuple[int, bool]] = [(0, False)]
    while stack:
        k, finished = stack.pop()
        if finished:
            postorder.append(k)
            continue
        if visited[k]:
            continue  # reached first along another path, a case fallthrough for one
        visited[k] = 1
        stack.append((k, True))
        s = successors[k]
        level = levels[k]
        assert level is not None  # every block pushed was given a level first
        nest(s.merge, level)
        nest(s.continue_target, level + 1)
        for target in (s.true, s.false, s.body):
            nest(target, level + 2)
        nest(s.next, level)
        for target in s.cases:
            nest(target, level + 2)
        # Blocks pushed last are visited first and so come last in reverse postorder.
        for target in (s.true, s.false, s.body, s.next, *s.cases, s.continue_target, s.merge):
            if target and target in index:
                stack.append((index[target], False))
    order = postorder[::-1]
    for k in range(count):
        if not visited[k]:
            order.append(k)
            levels[k] = 0
    return order, levels  # type: ignore[return-value]
