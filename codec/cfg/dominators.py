"""Graph algorithms for control-flow graphs over dense node numbers 0..n-1.

Everything here is iterative (no recursion: functions can have thousands of blocks)
and near-linear: a depth-first search for the reverse postorder, the Cooper–Harvey–
Kennedy iteration for immediate dominators, one walk of the dominator tree for
pre/post numbers (so that `a dominates b` is a constant-time interval test), and the
structured nesting depth in one pass over that walk's preorder.
"""

from __future__ import annotations

from collections.abc import Sequence

UNDEFINED = -1
"""The immediate dominator of a node unreachable from the entry."""


def reverse_postorder(entry: int, successors: Sequence[Sequence[int]]) -> list[int]:
    """The nodes reachable from `entry`, in reverse postorder of a depth-first search."""
    seen = [False] * len(successors)
    seen[entry] = True
    postorder: list[int] = []
    stack = [(entry, iter(successors[entry]))]
    while stack:
        node, children = stack[-1]
        for child in children:
            if not seen[child]:
                seen[child] = True
                stack.append((child, iter(successors[child])))
                break
        else:
            stack.pop()
            postorder.append(node)
    postorder.reverse()
    return postorder


def immediate_dominators(rpo: Sequence[int], predecessors: Sequence[Sequence[int]]) -> list[int]:
    """The immediate dominator of every node (Cooper, Harvey and Kennedy, 2001).

    `rpo` starts with the entry, which is its own immediate dominator; nodes missing
    from `rpo` (unreachable) get `UNDEFINED`.
    """
    count = len(predecessors)
    order = [count] * count
    for position, node in enumerate(rpo):
        order[node] = position
    idom = [UNDEFINED] * count
    if not rpo:
        return idom
    idom[rpo[0]] = rpo[0]
    changed = True
    while changed:
        changed = False
        for node in rpo[1:]:
            new = UNDEFINED
            for pred in predecessors[node]:
                if idom[pred] == UNDEFINED:
                    continue
                if new == UNDEFINED:
                    new = pred
                    continue
                a, b = pred, new
                while a != b:
                    while order[a] > order[b]:
                        a = idom[a]
                    while order[b] > order[a]:
                        b = idom[b]
                new = a
            if idom[node] != new:
                idom[node] = new
                changed = True
    return idom


def dominator_children(idom: Sequence[int]) -> list[list[int]]:
    """The children of every node in the dominator tree, in node order."""
    children: list[list[int]] = [[] for _ in idom]
    for node, parent in enumerate(idom):
        if parent != UNDEFINED and parent != node:
            children[parent].append(node)
    return children


def tree_walk(root: int, children: Sequence[Sequence[int]]) -> tuple[list[int], list[int], list[int]]:
    """A depth-first walk of a tree: the nodes in preorder, and each node's pre- and
    post-number. `a` is an ancestor of `b` (or `b` itself) exactly when
    `pre[a] <= pre[b]` and `post[b] <= post[a]`. Nodes off the tree get -1."""
    pre = [UNDEFINED] * len(children)
    post = [UNDEFINED] * len(children)
    preorder = [root]
    pre[root] = 0
    clock = 1
    stack = [(root, iter(children[root]))]
    while stack:
        node, rest = stack[-1]
        child = next(rest, None)
        if child is None:
            stack.pop()
            post[node] = clock
        else:
            pre[child] = clock
            preorder.append(child)
            stack.append((child, iter(children[child])))
        clock += 1
    return preorder, pre, post


def nesting_depths(
    preorder: Sequence[int],
    idom: Sequence[int],
    pre: Sequence[int],
    post: Sequence[int],
    headers: Sequence[bool],
    merged_by: dict[int, list[int]],
) -> list[int]:
    """The structured nesting depth of every node on the dominator tree; 0 elsewhere.

    A header `h` (a block with OpSelectionMerge or OpLoopMerge naming merge block `m`)
    opens a construct that holds the blocks `h` strictly dominates and `m` does not
    dominate. The depth of a block is the number of constructs that hold it: a header
    sits at the depth of its surroundings, its body one deeper, its merge block back at
    the header's depth. `merged_by[m]` lists the headers whose merge block is `m`.
    Unreachable blocks are in no construct (depth 0).

    So a block has its immediate dominator's depth, one more when that dominator is a
    header, less one for each header that strictly dominates it and names it as merge
    block. `preorder` (dominators before what they dominate), `pre` and `post` come
    from `tree_walk` of the dominator tree.
    """
    depth = [0] * len(idom)
    for node in preorder[1:]:
        parent = idom[node]
        value = depth[parent] + headers[parent]
        for header in merged_by.get(node, ()):
            if header != node and is_ancestor(pre, post, header, parent):
                value -= 1
        depth[node] = value
    return depth


def is_ancestor(pre: Sequence[int], post: Sequence[int], a: int, b: int) -> bool:
    """Whether tree node `a` is `b` or an ancestor of it, from `tree_walk` numbers; false
    when either is off the tree. On the dominator tree: whether `a` dominates `b`."""
    return 0 <= pre[a] <= pre[b] and post[b] <= post[a]
