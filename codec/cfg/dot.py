"""Graphviz DOT for a module's control-flow graphs, describing the graph spirv-cfg draws.

The same nodes (named by label result id), the same branch edges (one per switch case,
so repeated targets repeat as in spirv-cfg), merge edges dashed and continue edges
dotted, the entry block of each function boxed, and spirv-cfg's legend. Labels say
more than spirv-cfg's: the friendly name, the instruction count, the edge's condition
(`true`, `false`, `case 3`, `default`); unreachable blocks are grey.
"""

from __future__ import annotations

from spvinspect.codec.cfg.graph import CASE, CONTINUE, MERGE, Block, Edge, FunctionCFG, ModuleCFG
from spvinspect.codec.plural import counted

LEGEND = (
    'legend_merge_src [shape=plaintext, label=""];',
    'legend_merge_dest [shape=plaintext, label=""];',
    'legend_merge_src -> legend_merge_dest [label=" merge",style=dashed];',
    'legend_continue_src [shape=plaintext, label=""];',
    'legend_continue_dest [shape=plaintext, label=""];',
    'legend_continue_src -> legend_continue_dest [label=" continue",style=dotted];',
)
"""spirv-cfg's legend, so that both graphs hold the same nodes."""

EDGE_STYLES = {MERGE: "dashed", CONTINUE: "dotted"}


def quote(text: str) -> str:
    """A DOT quoted string; `\\n` in `text` stays a DOT line break."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def edge_label(edge: Edge) -> str:
    """What an edge's label says: its condition, or nothing for plain branches."""
    if edge.kind == CASE:
        return f"case {edge.value}"
    if edge.kind in (MERGE, CONTINUE) or not edge.condition:
        return ""
    return edge.kind


def node_line(function: FunctionCFG, block: Block) -> str:
    """The node statement of a block: friendly name, entry mark, instruction count."""
    count = block.instruction_count
    text = [block.name]
    attributes = []
    if block.id == function.entry:
        text.append(f"Fn {function.name} entry")
        attributes.append("shape=box")
    if block.id in function.unreachable:
        attributes.append("color=gray, fontcolor=gray")
    text.append(counted(count, "instruction"))
    label = "\n".join(text)
    return f"{block.id} [label={quote(label)}{''.join(', ' + a for a in attributes)}];"


def edge_line(edge: Edge) -> str:
    """The edge statement: merge edges dashed, continue edges dotted, conditions labelled."""
    attributes = []
    label = edge_label(edge)
    if label:
        attributes.append(f"label={quote(label)}")
    style = EDGE_STYLES.get(edge.kind)
    if style:
        attributes.append(f"style={style}")
    suffix = f" [{', '.join(attributes)}]" if attributes else ""
    return f"{edge.source} -> {edge.target}{suffix};"


def function_lines(function: FunctionCFG) -> list[str]:
    """The statements of one function: each block in module order, then its edges."""
    by_source: dict[int, list[Edge]] = {}
    for edge in function.edges:
        by_source.setdefault(edge.source, []).append(edge)
    lines: list[str] = []
    for block in function.blocks:
        lines.append(node_line(function, block))
        lines += [edge_line(edge) for edge in by_source.get(block.id, ())]
    return lines


def to_dot(cfg: ModuleCFG) -> str:
    """The whole module as one DOT digraph, functions in module order."""
    lines = ["digraph {", *LEGEND]
    for function in cfg.functions:
        lines += function_lines(function)
    lines.append("}")
    return "\n".join(lines) + "\n"
