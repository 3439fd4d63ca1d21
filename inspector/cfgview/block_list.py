"""The quick form of a big function's graph: one line per block, with its successors.

Textual-free, and linear in the function's size, so it shows at once while the layered
drawing of a big function is laid out in a worker (or for good, when the function is
too big to draw legibly). Each line says what a box would: the block, its instruction
count and roles, its problems, then where its branches go (with `T`/`F` and case
values) and the merge and continue targets it declares; in a window on a huge function,
its edges to blocks outside the window too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from spvinspect.codec.cfg.graph import CONTINUE, MERGE, FunctionCFG
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.cfgview.drawing import block_problems, block_roles, edge_label, edge_style
from spvinspect.cfgview.model import Canvas, CfgDrawing, Exit, Rect


def list_function(function: FunctionCFG, diagnostics: Iterable[Diagnostic] = (), exits: Sequence[Exit] = ()) -> CfgDrawing:
    """One line per block of `function`, in module order; `boxes` maps each block to its
    line. `exits` are a window's edges to blocks outside it."""
    problems = block_problems(function, diagnostics)
    names = {b.id: b.name for b in function.blocks} | {x.edge.target: x.name for x in exits}
    back = set(function.back_edges)
    outgoing: dict[int, list] = {}
    for edge in function.edges + tuple(x.edge for x in exits):
        outgoing.setdefault(edge.source, []).append(edge)
    name_width = max((len(b.name) for b in function.blocks), default=0) + 1
    lines: list[list[tuple[str, str]]] = []
    for block in function.blocks:
        unreachable = block.id in function.unreachable
        roles = "".join(f" · {role}" for role in block_roles(function, block))
        parts = [
            (f"%{block.name}".ljust(name_width), "unreachable" if unreachable else "block-name"),
            (f" {block.instruction_count:>4} instr{roles}", "unreachable" if unreachable else "block-info"),
        ]
        branches = [e for e in outgoing.get(block.id, ()) if e.is_branch]
        if branches:
            parts.append(("  →", "edge"))
            for edge in branches:
                label = edge_label(edge)
                parts.append((f" {label}:" if label else " ", edge_style(edge, edge in back)))
                parts.append((f"%{names[edge.target]}", "block-name"))
        for edge in outgoing.get(block.id, ()):
            if edge.kind in (MERGE, CONTINUE):
                parts.append((f"  {edge.kind} %{names[edge.target]}", edge_style(edge, False)))
        for problem in problems.get(block.id, ()):
            parts.append((f"  ⚠ {problem}", "problem"))
        lines.append(parts)
    width = max((sum(len(text) for text, _ in parts) for parts in lines), default=0)
    canvas = Canvas(width, len(lines))
    boxes = {}
    for y, (block, parts) in enumerate(zip(function.blocks, lines)):
        x = 0
        for text, style in parts:
            canvas.write(x, y, text, style)
            x += len(text)
        boxes[block.id] = Rect(0, y, width, 1)
    return canvas.finish(function.id, "list", boxes=boxes, problems=problems)
