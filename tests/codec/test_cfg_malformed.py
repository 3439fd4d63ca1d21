"""Malformed functions: diagnostics at exact word offsets, and the rest of the graph.

Each broken binary is a valid compiled module with some words edited: a terminator
dropped, a branch pointed at an id that is not a label, a label moved outside any
function, an OpFunctionEnd removed, the module cut short mid-function.
"""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spvinspect.codec.cfg.graph import ModuleCFG, build_cfg
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.model import Instruction, Module
from spvinspect.cli import main
from oracle import compile_glsl

SOURCE = """#version 450
layout(location = 0) flat in int mode;
layout(location = 0) out vec4 fout;
float helper(int k) {
    float r = 0.0;
    for (int i = 0; i < k; i++) { r += 1.0; }
    return r;
}
void main() {
    if (mode > 2) { fout = vec4(helper(mode)); } else { fout = vec4(0.0); }
}
"""


@pytest.fixture(scope="module")
def valid(tmp_path_factory) -> Module:
    """A module with two functions: main (if/else) and helper (a loop)."""
    path = tmp_path_factory.mktemp("malformed") / "valid.spv"
    return decode(compile_glsl(SOURCE, "frag", path))


def edges_of(cfg: ModuleCFG) -> set[tuple[int, int, str]]:
    """Every edge of every function, as (source, target, kind)."""
    return {(e.source, e.target, e.kind) for f in cfg.functions for e in f.edges}


def nth(module: Module, opname: str, n: int = 0) -> Instruction:
    """The n-th instruction called `opname`."""
    return [i for i in module.instructions if i.opname == opname][n]


def rebuilt(words: array) -> tuple[Module, ModuleCFG]:
    """Decode edited words and build their CFG."""
    module = decode(words.tobytes())
    return module, build_cfg(module)


def only_error(cfg: ModuleCFG):
    """The single diagnostic the CFG builder gave."""
    assert len(cfg.diagnostics) == 1, cfg.diagnostics
    return cfg.diagnostics[0]


def test_valid_module_has_no_diagnostics(valid: Module) -> None:
    assert build_cfg(valid).diagnostics == ()


def test_missing_terminator(valid: Module) -> None:
    branch = nth(valid, "OpBranch")  # main's then-block: OpBranch to the merge block
    words = array("I", valid.words)
    del words[branch.offset : branch.end]
    module, cfg = rebuilt(words)
    diagnostic = only_error(cfg)
    next_label = module.instruction_at(branch.offset)
    assert next_label.opname == "OpLabel"
    assert diagnostic.word_offset == branch.offset
    assert "has no terminator" in diagnostic.message and "OpLabel follows" in diagnostic.message
    main_cfg = cfg.functions[0]
    broken = next(b for b in main_cfg.blocks if b.end == branch.offset)
    assert broken.terminator == "" and module.instructions[broken.last].opname == "OpStore"
    assert not [e for e in main_cfg.edges if e.source == broken.id]
    assert edges_of(cfg) == edges_of(build_cfg(valid)) - {(broken.id, branch.operands[0].value, "branch")}


def test_branch_to_an_id_that_is_not_a_label(valid: Module) -> None:
    branch = nth(valid, "OpBranch")
    void_type = nth(valid, "OpTypeVoid").result_id
    words = array("I", valid.words)
    words[branch.operands[0].offset] = void_type
    _, cfg = rebuilt(words)
    diagnostic = only_error(cfg)
    assert diagnostic.word_offset == branch.operands[0].offset
    assert diagnostic.message == "OpBranch branch target %void is not a label of function %main"
    before = build_cfg(valid)
    dropped = {(e.source, e.target, e.kind) for e in before.functions[0].edges if e.offset == branch.offset}
    assert len(dropped) == 1 and edges_of(cfg) == edges_of(before) - dropped
    assert cfg.functions[0].blocks == before.functions[0].blocks


def test_merge_target_that_is_not_a_label(valid: Module) -> None:
    loop_merge = nth(valid, "OpLoopMerge")
    words = array("I", valid.words)
    words[loop_merge.operands[1].offset] = nth(valid, "OpTypeBool").result_id
    _, cfg = rebuilt(words)
    diagnostic = only_error(cfg)
    assert diagnostic.word_offset == loop_merge.operands[1].offset
    assert "OpLoopMerge continue target %bool is not a label" in diagnostic.message
    helper = cfg.functions[1]
    assert helper.continue_targets == {} and len(helper.merge_targets) == 1
    assert helper.back_edges  # the branch edges are all still there


def test_label_outside_a_function(valid: Module) -> None:
    function = nth(valid, "OpFunction")
    words = array("I", valid.words)
    stray_id = words[3]
    words[3] += 1  # the id bound
    words[function.offset : function.offset] = array("I", [(2 << 16) | 248, stray_id])
    _, cfg = rebuilt(words)
    diagnostic = only_error(cfg)
    assert diagnostic.word_offset == function.offset
    assert diagnostic.message == f"OpLabel %{stray_id} is outside a function"
    assert edges_of(cfg) == edges_of(build_cfg(valid))


def test_missing_function_end(valid: Module) -> None:
    end = nth(valid, "OpFunctionEnd")
    words = array("I", valid.words)
    del words[end.offset : end.end]
    _, cfg = rebuilt(words)
    diagnostic = only_error(cfg)
    assert diagnostic.word_offset == end.offset  # where the next OpFunction now starts
    assert "function %main has no OpFunctionEnd" in diagnostic.message
    assert [f.name for f in cfg.functions] == ["main", "helper_i1_"]
    assert edges_of(cfg) == edges_of(build_cfg(valid))


@pytest.mark.parametrize("inside", [0, 1], ids=["at-an-instruction", "mid-instruction"])
def test_truncated_function(valid: Module, inside: int) -> None:
    cut_at = nth(valid, "OpLoopMerge")  # in helper, the last function
    words = array("I", valid.words[: cut_at.offset + inside])
    module, cfg = rebuilt(words)
    diagnostic = only_error(cfg)
    assert diagnostic.word_offset == cut_at.offset  # where the last whole instruction ends
    assert "function %helper_i1_ is cut short" in diagnostic.message
    assert "inside block %18" in diagnostic.message
    main_before = build_cfg(valid).functions[0]
    assert cfg.functions[0].edges == main_before.edges
    helper = cfg.functions[1]
    loop_header = helper.blocks[-1]
    assert loop_header.terminator == "" and module.instructions[loop_header.last].opname == "OpLabel"
    assert helper.end == cut_at.offset


def test_cli_reports_and_still_writes_the_graph(valid: Module, tmp_path: Path, capsys) -> None:
    branch = nth(valid, "OpBranch")
    words = array("I", valid.words)
    words[branch.operands[0].offset] = 1
    path = tmp_path / "broken.spv"
    path.write_bytes(words.tobytes())
    out = tmp_path / "out.dot"
    assert main(["cfg", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:word {branch.operands[0].offset}: error: OpBranch branch target" in err
    assert out.read_text().startswith("digraph {")


@pytest.mark.parametrize("data", [b"", b"\x03\x02\x23", b"\x00" * 20, b"\x03\x02\x23\x07" + b"\x00" * 8])
def test_cli_writes_nothing_for_unusable_input(tmp_path: Path, capsys, data: bytes) -> None:
    path = tmp_path / "bad.spv"
    path.write_bytes(data)
    out = tmp_path / "out.dot"
    assert main(["cfg", str(path), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:word " in err and ": error: " in err and "Traceback" not in err
    assert not out.exists()


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_any_word_edit_still_builds(valid: Module, data) -> None:
    words = array("I", valid.words)
    for _ in range(data.draw(st.integers(1, 4))):
        index = data.draw(st.integers(5, len(words) - 1))
        words[index] = data.draw(st.sampled_from([0, 1, 2, 3, 248, 249, 250, 253, 254, 0xFFFFFFFF, words[index] ^ 1]))
    words = words[: data.draw(st.integers(5, len(words)))]
    _, cfg = rebuilt(words)
    for function in cfg.functions:
        ids = {b.id for b in function.blocks}
        assert all(e.source in ids and e.target in ids for e in function.edges)
        assert all(b.first <= b.last and b.offset < b.end for b in function.blocks)
        assert set(function.idom) | {function.entry} | function.unreachable >= ids
    assert all(0 <= d.word_offset <= len(words) for d in cfg.diagnostics)
