"""Moving between blocks along a function's graph: successors, predecessors, the merge
and continue targets of the construct a block is in, and the blocks near one.
Textual-free."""

from __future__ import annotations

from spvinspect.codec.cfg.graph import FunctionCFG


def predecessors(function: FunctionCFG, block_id: int) -> list[int]:
    """Blocks with a branch edge to `block_id`, in module order, without repeats."""
    sources = {e.source for e in function.edges if e.target == block_id and e.is_branch}
    return [b.id for b in function.blocks if b.id in sources]


def _enclosing_headers(function: FunctionCFG, block_id: int):
    """Headers of the constructs holding `block_id`, innermost first: the block itself
    when it is a header, then the dominators whose merge block does not dominate it."""
    header: int | None = block_id
    while header is not None:
        block = function.block(header)
        if block is not None and block.merge and (header == block_id or not function.dominates(block.merge, block_id)):
            yield block
        header = function.idom.get(header)


def merge_of(function: FunctionCFG, block_id: int) -> int | None:
    """The merge block of the innermost construct holding `block_id` (its own, for a
    header); None outside every construct."""
    for header in _enclosing_headers(function, block_id):
        if header.merge != block_id:
            return header.merge
    return None


def continue_of(function: FunctionCFG, block_id: int) -> int | None:
    """The continue target of the innermost loop holding `block_id` (its own, for a loop
    header); None outside every loop."""
    for header in _enclosing_headers(function, block_id):
        if header.continue_target and header.continue_target != block_id:
            return header.continue_target
    return None


def neighbourhood(function: FunctionCFG, block_id: int, radius: int = 2, limit: int = 24) -> list[int]:
    """`block_id` and the blocks at most `radius` branch edges away from it, either way,
    nearest first (at most `limit` blocks)."""
    near: dict[int, list[int]] = {}
    for e in function.edges:
        if e.is_branch:
            near.setdefault(e.source, []).append(e.target)
            near.setdefault(e.target, []).append(e.source)
    found = {block_id: 0}
    frontier = [block_id]
    for distance in range(1, radius + 1):
        following = []
        for b in frontier:
            for other in near.get(b, ()):
                if other not in found and len(found) < limit:
                    found[other] = distance
                    following.append(other)
        frontier = following
    return list(found)
