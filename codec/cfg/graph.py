"""Control-flow graphs of a decoded module: blocks, edges, dominators, structure.

`build_cfg(module)` never raises. Per function it finds the basic blocks (an OpLabel up
to its terminator), the edges that branches and structured merges make, and from the
branch edges the dominator tree, back edges, unreachable blocks and nesting depth.
Every block and edge keeps the word offsets of the instructions it comes from, so a
view can jump from the graph to the words. Malformed functions (a block without a
terminator, a branch to an id that is not a label, a label outside a function, a
function cut short) give diagnostics, and the rest of the graph is still built.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from spvinspect.codec.cfg import dominators
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.grammar import Grammar, load_grammar
from spvinspect.codec.opcodes import opcodes as opcodes_of
from spvinspect.codec.binary.model import Instruction, Module
from spvinspect.codec.text.names import NameMap, module_names

BRANCH = "branch"
TRUE = "true"
FALSE = "false"
CASE = "case"
DEFAULT = "default"
MERGE = "merge"
CONTINUE = "continue"
BRANCH_KINDS = frozenset((BRANCH, TRUE, FALSE, CASE, DEFAULT))
"""Edge kinds that transfer control; merge and continue edges only declare structure."""

# The grammar marks no instruction as a terminator, so the sets are named here as the
# specification defines them (2.2.5 "Termination Instructions"); the opcodes, and any
# aliases, come from the installed grammar.
BRANCH_OPNAMES = ("OpBranch", "OpBranchConditional", "OpSwitch")
EXIT_OPNAMES = (
    "OpReturn",
    "OpReturnValue",
    "OpKill",
    "OpUnreachable",
    "OpTerminateInvocation",
    "OpIgnoreIntersectionKHR",
    "OpTerminateRayKHR",
    "OpEmitMeshTasksEXT",
)
MERGE_OPNAMES = ("OpSelectionMerge", "OpLoopMerge")


class Block(NamedTuple):
    """A basic block: its OpLabel up to its terminator, as instruction indexes and words."""

    id: int
    """The result id of the OpLabel."""
    name: str
    """The friendly name, as the disassembler prints it (without `%`)."""
    first: int
    """Index in `module.instructions` of the OpLabel."""
    last: int
    """Index of the terminator, or of the block's last instruction when it has none."""
    offset: int
    """Word offset of the OpLabel."""
    end: int
    """Word offset just past the block's last instruction."""
    terminator: str
    """Opname of the terminator; empty when the block has none (malformed)."""
    construct: str = ""
    """`loop` or `selection` when the block declares a merge (it is a header), else empty."""
    merge: int = 0
    """The merge block its OpLoopMerge or OpSelectionMerge names, or 0."""
    continue_target: int = 0
    """The continue target its OpLoopMerge names, or 0."""

    @property
    def instruction_count(self) -> int:
        """Instructions in the block, OpLabel and terminator included."""
        return self.last - self.first + 1


class Edge(NamedTuple):
    """An edge from one block to another, and the instruction that makes it."""

    source: int
    target: int
    kind: str
    """`branch`, `true`, `false`, `case`, `default`, `merge` or `continue`."""
    offset: int
    """Word offset of the instruction that makes the edge (branch or merge)."""
    value: int | None = None
    """The case literal of a `case` edge, sign-extended when the selector is signed."""
    condition: int = 0
    """The condition id of `true`/`false` edges, the selector id of `case`/`default`."""

    @property
    def is_branch(self) -> bool:
        """True when control flows along the edge (not a merge or continue declaration)."""
        return self.kind in BRANCH_KINDS


@dataclass(frozen=True, slots=True)
class FunctionCFG:
    """The control-flow graph of one function and what is derived from its branches.

    Dominance, back edges, unreachability and depth use the branch edges only.
    """

    id: int
    name: str
    offset: int
    """Word offset of the OpFunction."""
    end: int
    """Word offset just past the OpFunctionEnd, or where the function was cut short."""
    blocks: tuple[Block, ...]
    """In module order; the first is the entry."""
    edges: tuple[Edge, ...]
    """Per block in module order: its branch edges, then its merge and continue edges."""
    idom: dict[int, int]
    """Immediate dominator of every reachable block but the entry."""
    back_edges: tuple[Edge, ...]
    """Branch edges whose target dominates their source."""
    unreachable: frozenset[int]
    """Blocks no branch path from the entry reaches."""
    depth: dict[int, int]
    """Structured nesting depth of every block (see `dominators.nesting_depths`)."""
    rpo: tuple[int, ...]
    """Reachable blocks in reverse postorder."""
    _index: dict[int, int] = field(repr=False, compare=False)
    _pre: list[int] = field(repr=False, compare=False)
    _post: list[int] = field(repr=False, compare=False)

    @property
    def entry(self) -> int:
        """The entry block's id, or 0 for a function without blocks (a declaration)."""
        return self.blocks[0].id if self.blocks else 0

    @property
    def loop_headers(self) -> frozenset[int]:
        """Blocks that declare an OpLoopMerge."""
        return frozenset(b.id for b in self.blocks if b.construct == "loop")

    @property
    def selection_headers(self) -> frozenset[int]:
        """Blocks that declare an OpSelectionMerge."""
        return frozenset(b.id for b in self.blocks if b.construct == "selection")

    @property
    def merge_targets(self) -> dict[int, int]:
        """Header id → the merge block it declares."""
        return {b.id: b.merge for b in self.blocks if b.merge}

    @property
    def continue_targets(self) -> dict[int, int]:
        """Loop header id → the continue target it declares."""
        return {b.id: b.continue_target for b in self.blocks if b.continue_target}

    def block(self, block_id: int) -> Block | None:
        """The block labelled `block_id`, or None."""
        position = self._index.get(block_id)
        return None if position is None else self.blocks[position]

    def successors(self, block_id: int) -> list[int]:
        """Targets of the block's branch edges, in order, without repeats."""
        return list(dict.fromkeys(e.target for e in self.edges if e.source == block_id and e.is_branch))

    def dominates(self, a: int, b: int) -> bool:
        """True when every path from the entry to `b` goes through `a` (`a` == `b` too)."""
        i, j = self._index.get(a), self._index.get(b)
        return i is not None and j is not None and dominators.is_ancestor(self._pre, self._post, i, j)

    def dominator_children(self, block_id: int) -> list[int]:
        """The blocks `block_id` immediately dominates, in module order."""
        return [b.id for b in self.blocks if self.idom.get(b.id) == block_id]


@dataclass(frozen=True, slots=True)
class ModuleCFG:
    """The graphs of every function of a module, and what was wrong with them."""

    functions: tuple[FunctionCFG, ...]
    diagnostics: tuple[Diagnostic, ...]

    def function(self, function_id: int) -> FunctionCFG | None:
        """The function whose OpFunction defines `function_id`, or None."""
        return next((f for f in self.functions if f.id == function_id), None)


class _Opcodes:
    """The control-flow opcodes, resolved through the grammar."""

    def __init__(self, grammar: Grammar) -> None:
        def opcodes(names: tuple[str, ...]) -> frozenset[int]:
            return frozenset(grammar.by_name[n].opcode for n in names if n in grammar.by_name)

        named = opcodes_of(grammar)
        self.terminators = opcodes(BRANCH_OPNAMES + EXIT_OPNAMES)
        self.merges = opcodes(MERGE_OPNAMES)
        self.label = named.OpLabel
        self.function = named.OpFunction
        self.function_end = named.OpFunctionEnd
        self.parameter = named.OpFunctionParameter
        self.debug = frozenset(d.opcode for d in grammar.instructions.values() if d.opclass == "Debug")
        """OpLine, OpNoLine and the like, which may stand between blocks."""
        self.branch = named.OpBranch
        self.conditional = named.OpBranchConditional
        self.switch = named.OpSwitch
        self.loop_merge = named.OpLoopMerge


def build_cfg(
    module: Module,
    names: NameMap | Mapping[int, str] | None = None,
    grammar: Grammar | None = None,
    exits: list[Edge] | None = None,
) -> ModuleCFG:
    """The control-flow graph of every function of `module`. Never raises.

    `names` is the module's `NameMap` (`codec.text.names.module_names`), or a plain
    id → name mapping (ids missing from it keep their numbers); the friendly names are
    computed when not given. With `exits`, the edges to an id that is no label of the
    function are appended to it rather than reported (for a run of a function's blocks,
    whose other blocks are not there).
    """
    if names is None:
        names = module_names(module, True, grammar)
    if not isinstance(names, NameMap):
        names = _MappedNames(names)
    return _Builder(module, names, _Opcodes(grammar or load_grammar()), exits).build()


class _MappedNames:
    """A plain mapping seen as a name map."""

    def __init__(self, table: Mapping[int, str]) -> None:
        self.table = table

    def name(self, id_: int) -> str:
        """The mapped name, or the number."""
        return self.table.get(id_) or str(id_)


def _signed_case(operand) -> int:
    """A case literal as the selector's type reads it."""
    value = operand.value
    number_type = operand.number_type
    if number_type is not None and number_type.signed and value >> (number_type.width - 1) & 1:
        return value - (1 << number_type.width)
    return value


class _Builder:
    """One pass over the instructions, one `FunctionCFG` per OpFunction … OpFunctionEnd."""

    def __init__(self, module: Module, names: NameMap | _MappedNames, ops: _Opcodes, exits: list[Edge] | None = None) -> None:
        self.exits = exits
        self.module = module
        self.instructions = module.instructions
        self.names = names
        self.ops = ops
        self.diagnostics: list[Diagnostic] = []
        self.functions: list[FunctionCFG] = []

    def name(self, id_: int) -> str:
        """The friendly name of an id, or its number."""
        return self.names.name(id_)

    def error(self, message: str, offset: int) -> None:
        """Record an error at a word offset."""
        self.diagnostics.append(Diagnostic(message, word_offset=offset))

    def build(self) -> ModuleCFG:
        """Split every function into blocks, then build and analyse its graph."""
        ops = self.ops
        terminators, merges = ops.terminators, ops.merges
        label_op, function_op, end_op, parameter_op = ops.label, ops.function, ops.function_end, ops.parameter
        debug = ops.debug
        function: Instruction | None = None
        blocks: list[list[int]] = []  # [label index, last index, terminator index, merge index]
        block: list[int] | None = None
        stray_reported = False
        for index, inst in enumerate(self.instructions):
            opcode = inst.opcode
            if block is not None:
                if opcode in terminators:
                    block[1] = block[2] = index
                    block = None
                    stray_reported = False
                    continue
                if opcode in merges:
                    block[3] = index
                    continue
                if opcode != label_op and opcode != end_op and opcode != function_op:
                    continue
                self._unterminated(block, index)
                block = None
            if opcode == label_op:
                if function is None:
                    self.error(f"OpLabel %{self.name(inst.result_id)} is outside a function", inst.offset)
                    continue
                block = [index, index, -1, -1]
                blocks.append(block)
                stray_reported = False
            elif opcode == function_op:
                if function is not None:
                    self.error(
                        f"function %{self.name(function.result_id)} has no OpFunctionEnd "
                        f"before the next OpFunction",
                        inst.offset,
                    )
                    self._finish(function, blocks, inst.offset)
                function, blocks, stray_reported = inst, [], False
            elif opcode == end_op:
                if function is None:
                    self.error("OpFunctionEnd is outside a function", inst.offset)
                    continue
                self._finish(function, blocks, inst.end)
                function = None
            elif (
                function is not None
                and not stray_reported
                and opcode not in debug
                and (blocks or opcode != parameter_op)
            ):
                self.error(
                    f"{inst.opname} in function %{self.name(function.result_id)} is in no block "
                    f"(no OpLabel starts a block before it)",
                    inst.offset,
                )
                stray_reported = True
        if function is not None:
            end = self._end_of_instructions()
            where = f" inside block %{self.name(self.instructions[block[0]].result_id)}" if block else ""
            self.error(
                f"function %{self.name(function.result_id)} is cut short: the instructions end "
                f"at word {end}{where}, before its OpFunctionEnd",
                end,
            )
            if block is not None:
                block[1] = len(self.instructions) - 1
            self._finish(function, blocks, end)
        return ModuleCFG(tuple(self.functions), tuple(self.diagnostics))

    def _end_of_instructions(self) -> int:
        if self.instructions:
            return max(self.instructions[-1].end, self.module.tail_offset)
        return self.module.tail_offset

    def _unterminated(self, block: list[int], interrupting: int) -> None:
        """Close a block that instruction `interrupting` (a label, OpFunction or
        OpFunctionEnd) cuts short; its last instruction is the one before."""
        label = self.instructions[block[0]]
        inst = self.instructions[interrupting]
        self.error(
            f"block %{self.name(label.result_id)} has no terminator: "
            f"{inst.opname} follows its last instruction",
            inst.offset,
        )
        block[1] = interrupting - 1

    def _finish(self, function: Instruction, raw_blocks: list[list[int]], end: int) -> None:
        instructions = self.instructions
        function_name = self.name(function.result_id)
        index: dict[int, int] = {}
        kept: list[list[int]] = []
        for raw in raw_blocks:
            label = instructions[raw[0]]
            if label.result_id in index:
                self.error(f"label %{self.name(label.result_id)} is defined twice in function %{function_name}", label.offset)
                continue
            index[label.result_id] = len(kept)
            kept.append(raw)
        blocks: list[Block] = []
        edges: list[Edge] = []
        append = edges.append
        loop_merge = self.ops.loop_merge
        for first, last, term, merge in kept:
            source = instructions[first].result_id
            wanted = self._branch_targets(instructions[term]) if term >= 0 else []
            construct = ""
            if merge >= 0 and instructions[merge].valid:
                declared = instructions[merge]
                construct = "loop" if declared.opcode == loop_merge else "selection"
                wanted.append((declared, declared.operands[0], MERGE, None, 0))
                if construct == "loop":
                    wanted.append((declared, declared.operands[1], CONTINUE, None, 0))
            merge_id = continue_id = 0
            for inst, operand, kind, value, condition in wanted:
                target = operand.value
                if target not in index and self.exits is not None:
                    self.exits.append(Edge(source, target, kind, inst.offset, value, condition))
                    continue
                if target not in index:
                    self.error(
                        f"{inst.opname} {kind} target %{self.name(target)} "
                        f"is not a label of function %{function_name}",
                        operand.offset,
                    )
                    continue
                append(Edge(source, target, kind, inst.offset, value, condition))
                if kind == MERGE:
                    merge_id = target
                elif kind == CONTINUE:
                    continue_id = target
            blocks.append(
                Block(
                    id=source,
                    name=self.name(source),
                    first=first,
                    last=last,
                    offset=instructions[first].offset,
                    end=instructions[last].end,
                    terminator=instructions[term].opname if term >= 0 else "",
                    construct=construct,
                    merge=merge_id,
                    continue_target=continue_id,
                )
            )
        self.functions.append(_analyse(function, function_name, end, blocks, edges, index))

    def _branch_targets(self, inst: Instruction) -> list[tuple]:
        """(instruction, label operand, edge kind, case value, condition) of a terminator."""
        ops = self.ops
        operands = inst.operands
        if not inst.valid:
            return []
        if inst.opcode == ops.branch:
            return [(inst, operands[0], BRANCH, None, 0)]
        if inst.opcode == ops.conditional:
            condition = operands[0].value
            return [(inst, operands[1], TRUE, None, condition), (inst, operands[2], FALSE, None, condition)]
        if inst.opcode == ops.switch:
            selector = operands[0].value
            targets = [(inst, operands[1], DEFAULT, None, selector)]
            for literal, target in zip(operands[2::2], operands[3::2]):
                targets.append((inst, target, CASE, _signed_case(literal), selector))
            return targets
        return []


def _analyse(
    function: Instruction,
    name: str,
    end: int,
    blocks: list[Block],
    edges: list[Edge],
    index: dict[int, int],
) -> FunctionCFG:
    """Dominators, back edges, unreachable blocks and depth from the branch edges."""
    count = len(blocks)
    successors: list[list[int]] = [[] for _ in range(count)]
    predecessors: list[list[int]] = [[] for _ in range(count)]
    headers = [False] * count
    merged_by: dict[int, list[int]] = {}
    branch_edges = []
    for edge in edges:
        kind = edge.kind
        if kind == MERGE:
            headers[index[edge.source]] = True
            merged_by.setdefault(index[edge.target], []).append(index[edge.source])
        elif kind != CONTINUE:
            source, target = index[edge.source], index[edge.target]
            successors[source].append(target)
            predecessors[target].append(source)
            branch_edges.append(edge)
    rpo: list[int] = []
    idom: list[int] = []
    pre: list[int] = []
    post: list[int] = []
    depth = [0] * count
    if count:
        rpo = dominators.reverse_postorder(0, successors)
        idom = dominators.immediate_dominators(rpo, predecessors)
        preorder, pre, post = dominators.tree_walk(0, dominators.dominator_children(idom))
        if merged_by:
            depth = dominators.nesting_depths(preorder, idom, pre, post, headers, merged_by)
    ids = [b.id for b in blocks]
    is_ancestor = dominators.is_ancestor
    return FunctionCFG(
        id=function.result_id,
        name=name,
        offset=function.offset,
        end=end,
        blocks=tuple(blocks),
        edges=tuple(edges),
        idom={ids[i]: ids[d] for i, d in enumerate(idom) if d >= 0 and d != i},
        back_edges=tuple(e for e in branch_edges if is_ancestor(pre, post, index[e.target], index[e.source])),
        unreachable=frozenset(ids[i] for i in range(count) if pre[i] < 0) if len(rpo) < count else frozenset(),
        depth=dict(zip(ids, depth)),
        rpo=tuple(ids[i] for i in rpo),
        _index=index,
        _pre=pre,
        _post=post,
    )
