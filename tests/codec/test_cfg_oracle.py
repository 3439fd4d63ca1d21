"""`spvinspect cfg` draws the graph spirv-cfg draws: same nodes, same edges, same kinds.

Both DOT texts are parsed into nodes (with whether each is a function's boxed entry)
and a multiset of edges (source, target, kind), kind being `branch`, `merge` (dashed)
or `continue` (dotted). Labels may differ; the graph may not.

One known difference is modelled explicitly: spirv-cfg (v2025.5) writes a node only
for a block that ends in one of the seven terminators of SPIR-V 1.0, and calls the
first such block of a function its entry. A block ending in OpTerminateInvocation,
OpIgnoreIntersectionKHR, OpTerminateRayKHR or OpEmitMeshTasksEXT is then only in its
graph when an edge names it, and a function whose entry ends so gets the wrong entry.
"""

from __future__ import annotations

import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NamedTuple

import pytest

from spvinspect.codec.cfg.graph import ModuleCFG, build_cfg
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.cfg.dot import to_dot
from oracle import corpus_files
from spvinspect.cli import main
from oracle import compile_glsl, run_tool

SPIRV_CFG_TERMINATORS = frozenset(
    ("OpBranch", "OpBranchConditional", "OpSwitch", "OpReturn", "OpReturnValue", "OpKill", "OpUnreachable")
)
"""The terminators after which spirv-cfg writes a block's node statement."""

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|->|[A-Za-z0-9_.]+|[\[\]=,;{}]|\s+', re.S)
_EDGE_KINDS = {"dashed": "merge", "dotted": "continue"}


class Graph(NamedTuple):
    """A DOT digraph reduced to what the issue compares."""

    nodes: dict[str, bool]
    """Node name → drawn as a function entry (shape=box)."""
    edges: Counter
    """(source, target, kind) → how many times the edge is drawn."""


def parse_dot(text: str) -> Graph:
    """Nodes and edges of a flat `digraph { … }` (node and edge statements only)."""
    every = _TOKEN.findall(text)
    assert sum(map(len, every)) == len(text), "text the tokenizer does not know"
    tokens = [t for t in every if not t.isspace()]
    assert tokens[:2] == ["digraph", "{"] and tokens[-1] == "}", text[:200]
    nodes: dict[str, bool] = {}
    edges: Counter = Counter()
    statement: list[str] = []
    for token in tokens[2:-1]:
        if token != ";":
            statement.append(token)
            continue
        attributes: dict[str, str] = {}
        if "[" in statement:
            start = statement.index("[")
            listed = [t for t in statement[start + 1 : -1] if t != ","]
            attributes = {listed[i]: listed[i + 2] for i in range(0, len(listed), 3)}
            statement = statement[:start]
        if len(statement) == 3 and statement[1] == "->":
            source, _, target = statement
            edges[(source, target, _EDGE_KINDS.get(attributes.get("style"), "branch"))] += 1
            nodes.setdefault(source, False)
            nodes.setdefault(target, False)
        else:
            assert len(statement) == 1, statement
            nodes[statement[0]] = attributes.get("shape") == "box"
        statement = []
    return Graph(nodes, edges)


def as_spirv_cfg_draws(graph: Graph, cfg: ModuleCFG) -> Graph:
    """Our graph with spirv-cfg's known difference applied (see the module docstring)."""
    nodes = dict(graph.nodes)
    named_by_edges = {end for edge in graph.edges for end in edge[:2]}
    for function in cfg.functions:
        for block in function.blocks:
            key = str(block.id)
            if block.terminator not in SPIRV_CFG_TERMINATORS:
                if key in named_by_edges:
                    nodes[key] = False
                else:
                    nodes.pop(key, None)
        flushed = [b for b in function.blocks if b.terminator in SPIRV_CFG_TERMINATORS]
        if flushed:
            nodes[str(flushed[0].id)] = True
    return Graph(nodes, graph.edges)


def assert_same_graph(module_bytes: bytes, reference_dot: str) -> ModuleCFG:
    """Our DOT and spirv-cfg's describe the same graph; returns our CFG."""
    cfg = build_cfg(decode(module_bytes))
    ours = as_spirv_cfg_draws(parse_dot(to_dot(cfg)), cfg)
    reference = parse_dot(reference_dot)
    assert ours.nodes == reference.nodes
    assert ours.edges == reference.edges
    return cfg


def spirv_cfg(path: Path) -> str:
    """spirv-cfg's DOT for a module file."""
    result = run_tool("spirv-cfg", str(path))
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode()


CONTROL_FLOW_FRAG = """#version 450
#extension GL_EXT_terminate_invocation : require
layout(location = 0) in vec4 vin;
layout(location = 1) flat in int mode;
layout(location = 0) out vec4 fout;

int early(int k) {
    if (k < 0) return -1;
    for (int i = 0; i < k; i++) {
        if (i == 7) return i;
    }
    return k;
}

int both(int k) {
    if (k > 0) { return 1; } else { return 2; }
}

int forever(int k) {
    for (;;) { k += 1; if (k > 10) return k; }
}

void main() {
    vec4 acc = vin;
    for (int i = 0; i < mode; i++) {
        if (acc.x > 1.0) {
            if (acc.y > 2.0) continue;
            else acc.z += 1.0;
        } else if (acc.w < 0.0) {
            break;
        }
        int j = 0;
        do { acc.y -= 0.5; j++; } while (j < i);
        while (acc.x < 10.0) { acc.x += 3.0; if (acc.x == 7.0) break; }
    }
    switch (mode) {
        case 0:
        case 1: acc.x += 1.0;
        case 2: acc.y += 2.0; break;
        case -3: acc.z = 0.0; break;
        case 5: discard;
        default: acc.w = float(early(mode) + both(mode) + forever(mode));
    }
    if (acc.x < -100.0) terminateInvocation;
    if (acc.y < -100.0) discard;
    fout = acc;
}
"""

ANY_HIT_RAHIT = """#version 460
#extension GL_EXT_ray_tracing : require
layout(location = 0) rayPayloadInEXT vec4 payload;
hitAttributeEXT vec2 bary;
void main() {
    if (bary.x > 0.5) ignoreIntersectionEXT;
    if (bary.y > 0.5) terminateRayEXT;
    payload = vec4(bary, 0.0, 1.0);
}
"""

ENTRY_ENDS_IN_IGNORE_RAHIT = """#version 460
#extension GL_EXT_ray_tracing : require
void main() {
    ignoreIntersectionEXT;
}
"""


@pytest.fixture(scope="module")
def control_flow_module(tmp_path_factory) -> Path:
    """The fragment shader above, compiled: loops, nested ifs, switch, returns, discard."""
    path = tmp_path_factory.mktemp("cfg") / "control.spv"
    compile_glsl(CONTROL_FLOW_FRAG, "frag", path)
    return path


def test_glsl_control_flow_matches_spirv_cfg(control_flow_module: Path) -> None:
    cfg = assert_same_graph(control_flow_module.read_bytes(), spirv_cfg(control_flow_module))
    functions = {f.name: f for f in cfg.functions}
    main_cfg = functions["main"]
    terminators = Counter(b.terminator for b in main_cfg.blocks)
    assert terminators["OpKill"] == 2 and terminators["OpTerminateInvocation"] == 1
    assert len(main_cfg.loop_headers) == 3
    assert {e.value for e in main_cfg.edges if e.kind == "case"} == {0, 1, 2, -3, 5}
    # Fallthrough: the body of `case 0: case 1:` branches into the body of `case 2`.
    switch_header = next(b for b in main_cfg.blocks if b.terminator == "OpSwitch")
    case_target = {e.value: e.target for e in main_cfg.edges if e.source == switch_header.id and e.kind == "case"}
    assert case_target[0] == case_target[1]
    assert case_target[2] in main_cfg.successors(case_target[1])
    # `both` returns from both arms: its selection merge is unreachable.
    assert len(functions["both_i1_"].unreachable) == 1
    assert functions["forever_i1_"].back_edges


@pytest.mark.parametrize("source", [ANY_HIT_RAHIT, ENTRY_ENDS_IN_IGNORE_RAHIT], ids=["any-hit", "entry-ignores"])
def test_ray_tracing_terminators_match_spirv_cfg_modulo_its_known_gap(tmp_path: Path, source: str) -> None:
    path = tmp_path / "hit.spv"
    compile_glsl(source, "rahit", path)
    cfg = assert_same_graph(path.read_bytes(), spirv_cfg(path))
    ours = parse_dot(to_dot(cfg))
    entry = cfg.functions[0].entry
    assert ours.nodes[str(entry)] is True


def test_cli_writes_the_same_graph(control_flow_module: Path, tmp_path: Path) -> None:
    out = tmp_path / "graph.dot"
    assert main(["cfg", str(control_flow_module), "-o", str(out)]) == 0
    assert parse_dot(out.read_text()) == parse_dot(to_dot(build_cfg(decode(control_flow_module.read_bytes()))))


def test_corpus_graphs_match_spirv_cfg(corpus: Path) -> None:
    files = corpus_files("spv", "*.spv")
    assert files, f"no .spv files in {corpus / 'spv'}"
    with ThreadPoolExecutor(max_workers=4) as pool:
        references = list(pool.map(spirv_cfg, files))
    mismatched = []
    for path, reference in zip(files, references):
        try:
            assert_same_graph(path.read_bytes(), reference)
        except AssertionError:
            mismatched.append(path.name)
    assert not mismatched, f"{len(mismatched)} of {len(files)} graphs differ: {mismatched[:10]}"
