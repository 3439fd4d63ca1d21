"""Control-flow analysis on hand-written functions: blocks, edges, dominators, structure.

Each function is written in SPIR-V assembly, assembled with spirv-as, and the
expected dominators, back edges and merge/continue targets are worked out by hand.
"""

from __future__ import annotations

from pathlib import Path

from spvinspect.codec.cfg.graph import FunctionCFG, build_cfg
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.model import Module
from cfg_source import module_text
from oracle import run_tool

EDGE_MAKERS = {
    "branch": {"OpBranch"},
    "true": {"OpBranchConditional"},
    "false": {"OpBranchConditional"},
    "case": {"OpSwitch"},
    "default": {"OpSwitch"},
    "merge": {"OpLoopMerge", "OpSelectionMerge"},
    "continue": {"OpLoopMerge"},
}


def assemble(body: str, tmp_path: Path) -> bytes:
    """The binary of `main` with `body` as its blocks, each label named by OpName."""
    source = tmp_path / "f.spvasm"
    source.write_text(module_text(body))
    out = tmp_path / "f.spv"
    result = run_tool("spirv-as", "--target-env", "spv1.6", str(source), "-o", str(out))
    assert result.returncode == 0, result.stderr.decode()
    return out.read_bytes()


def function_of(body: str, tmp_path: Path) -> tuple[FunctionCFG, dict[str, int], Module]:
    """The CFG of `main`, the ids of its labels by assembly name, and the module."""
    module = decode(assemble(body, tmp_path))
    cfg = build_cfg(module)
    assert cfg.diagnostics == ()
    function = cfg.functions[0]
    return function, {b.name: b.id for b in function.blocks}, module


LOOP_WITH_IF = """
%entry = OpLabel
OpBranch %header
%header = OpLabel
OpLoopMerge %exit %continue None
OpBranchConditional %cond %body %exit
%body = OpLabel
OpSelectionMerge %join None
OpBranchConditional %cond %then %join
%then = OpLabel
OpBranch %join
%join = OpLabel
OpBranch %continue
%continue = OpLabel
OpBranch %header
%exit = OpLabel
OpReturn
%dead = OpLabel
OpBranch %exit
"""


def test_loop_with_if(tmp_path: Path) -> None:
    f, ids, module = function_of(LOOP_WITH_IF, tmp_path)
    name_of = {v: k for k, v in ids.items()}
    assert [name_of[b.id] for b in f.blocks] == ["entry", "header", "body", "then", "join", "continue", "exit", "dead"]
    assert name_of[f.entry] == "entry"
    assert {name_of[k]: name_of[v] for k, v in f.idom.items()} == {
        "header": "entry",
        "body": "header",
        "then": "body",
        "join": "body",
        "continue": "join",
        "exit": "header",
    }
    assert [(name_of[e.source], name_of[e.target], e.kind) for e in f.back_edges] == [("continue", "header", "branch")]
    assert {name_of[h] for h in f.loop_headers} == {"header"}
    assert {name_of[h] for h in f.selection_headers} == {"body"}
    assert {name_of[k]: name_of[v] for k, v in f.merge_targets.items()} == {"header": "exit", "body": "join"}
    assert {name_of[k]: name_of[v] for k, v in f.continue_targets.items()} == {"header": "continue"}
    assert {name_of[b] for b in f.unreachable} == {"dead"}
    assert {name_of[b]: d for b, d in f.depth.items()} == {
        "entry": 0,
        "header": 0,
        "body": 1,
        "then": 2,
        "join": 1,
        "continue": 1,
        "exit": 0,
        "dead": 0,
    }
    assert f.dominates(ids["header"], ids["continue"])
    assert not f.dominates(ids["then"], ids["join"])
    assert not f.dominates(ids["dead"], ids["exit"]) and not f.dominates(ids["entry"], ids["dead"])
    assert f.dominator_children(ids["body"]) == [ids["then"], ids["join"]]
    assert f.successors(ids["body"]) == [ids["then"], ids["join"]]
    kinds = [(name_of[e.source], name_of[e.target], e.kind) for e in f.edges if e.source == ids["header"]]
    assert kinds == [
        ("header", "body", "true"),
        ("header", "exit", "false"),
        ("header", "exit", "merge"),
        ("header", "continue", "continue"),
    ]


def test_blocks_and_edges_carry_word_offsets(tmp_path: Path) -> None:
    f, ids, module = function_of(LOOP_WITH_IF, tmp_path)
    header = f.block(ids["header"])
    assert module.instructions[header.first].opname == "OpLabel"
    assert module.instructions[header.first].offset == header.offset
    assert module.instructions[header.last].opname == "OpBranchConditional" == header.terminator
    assert module.instructions[header.last].end == header.end
    assert header.instruction_count == 3
    assert header.construct == "loop"
    for edge in f.edges:
        source = f.block(edge.source)
        made_by = module.instruction_at(edge.offset)
        assert made_by.offset == edge.offset and made_by.opname in EDGE_MAKERS[edge.kind]
        assert source.offset <= edge.offset < source.end
    true_constant = next(i.result_id for i in module.instructions if i.opname == "OpConstantTrue")
    assert {e.condition for e in f.edges if e.kind in ("true", "false")} == {true_constant}


def test_switch_edges_one_per_case_with_signed_values(tmp_path: Path) -> None:
    f, ids, module = function_of(
        """
%entry = OpLabel
OpSelectionMerge %merge None
OpSwitch %one %other -1 %a 2 %a 7 %merge
%a = OpLabel
OpBranch %b
%b = OpLabel
OpBranch %merge
%other = OpLabel
OpReturn
%merge = OpLabel
OpReturn
""",
        tmp_path,
    )
    switch = [(e.kind, e.value, e.target) for e in f.edges if e.source == ids["entry"]]
    assert switch == [
        ("default", None, ids["other"]),
        ("case", -1, ids["a"]),
        ("case", 2, ids["a"]),
        ("case", 7, ids["merge"]),
        ("merge", None, ids["merge"]),
    ]
    selector = next(i.result_id for i in module.instructions if i.opname == "OpConstant")
    assert {e.condition for e in f.edges if e.kind in ("case", "default")} == {selector}
    assert f.successors(ids["entry"]) == [ids["other"], ids["a"], ids["merge"]]
    assert f.idom[ids["b"]] == ids["a"] and f.idom[ids["merge"]] == ids["entry"]
    assert f.depth[ids["a"]] == f.depth[ids["b"]] == f.depth[ids["other"]] == 1
    assert f.depth[ids["merge"]] == 0
    assert f.back_edges == ()


def test_nested_loops_have_two_back_edges_and_depths(tmp_path: Path) -> None:
    f, ids, module = function_of(
        """
%entry = OpLabel
OpBranch %outer
%outer = OpLabel
OpLoopMerge %done %outer_cont None
OpBranch %inner
%inner = OpLabel
OpLoopMerge %inner_done %inner_cont None
OpBranchConditional %cond %inner_body %inner_done
%inner_body = OpLabel
OpBranch %inner_cont
%inner_cont = OpLabel
OpBranch %inner
%inner_done = OpLabel
OpBranch %outer_cont
%outer_cont = OpLabel
OpBranchConditional %cond %outer %done
%done = OpLabel
OpReturn
""",
        tmp_path,
    )
    back = {(e.source, e.target) for e in f.back_edges}
    assert back == {(ids["inner_cont"], ids["inner"]), (ids["outer_cont"], ids["outer"])}
    depth = {name: f.depth[i] for name, i in ids.items()}
    assert depth == {
        "entry": 0,
        "outer": 0,
        "inner": 1,
        "inner_body": 2,
        "inner_cont": 2,
        "inner_done": 1,
        "outer_cont": 1,
        "done": 0,
    }
    assert f.loop_headers == {ids["outer"], ids["inner"]}
    assert f.rpo[0] == ids["entry"] and set(f.rpo) == set(ids.values())


def test_irreducible_cycle_has_no_back_edge(tmp_path: Path) -> None:
    f, ids, module = function_of(
        """
%entry = OpLabel
OpBranchConditional %cond %a %b
%a = OpLabel
OpBranchConditional %cond %b %exit
%b = OpLabel
OpBranch %a
%exit = OpLabel
OpReturn
""",
        tmp_path,
    )
    assert f.idom == {ids["a"]: ids["entry"], ids["b"]: ids["entry"], ids["exit"]: ids["a"]}
    assert f.back_edges == ()


def test_thousands_of_blocks_need_no_recursion(tmp_path: Path) -> None:
    count = 5000
    chain = "".join(f"%b{i} = OpLabel\nOpBranch %b{i + 1}\n" for i in range(count))
    f, ids, module = function_of(f"%entry = OpLabel\nOpBranch %b0\n{chain}%b{count} = OpLabel\nOpReturn\n", tmp_path)
    assert len(f.blocks) == count + 2
    assert f.idom[ids[f"b{count}"]] == ids[f"b{count - 1}"]
    assert f.dominates(ids["entry"], ids[f"b{count}"])
    assert not f.unreachable and not f.back_edges


def test_function_without_blocks_is_a_declaration(tmp_path: Path) -> None:
    source = tmp_path / "d.spvasm"
    source.write_text(
        """OpCapability Linkage
OpCapability Shader
OpMemoryModel Logical GLSL450
OpDecorate %ext LinkageAttributes "ext" Import
%void = OpTypeVoid
%fn = OpTypeFunction %void
%ext = OpFunction %void None %fn
OpFunctionEnd
"""
    )
    out = tmp_path / "d.spv"
    assert run_tool("spirv-as", str(source), "-o", str(out)).returncode == 0
    cfg = build_cfg(decode(out.read_bytes()))
    assert cfg.diagnostics == ()
    (f,) = cfg.functions
    assert f.blocks == () and f.entry == 0 and f.idom == {} and f.rpo == ()


def test_friendly_names_label_blocks_unless_names_are_given(tmp_path: Path) -> None:
    module = decode(assemble(LOOP_WITH_IF, tmp_path))
    named = build_cfg(module).functions[0]
    assert [b.name for b in named.blocks][:2] == ["entry", "header"] and named.name == "main"
    numbered = build_cfg(module, names={}).functions[0]
    assert [b.name for b in numbered.blocks] == [str(b.id) for b in numbered.blocks]
