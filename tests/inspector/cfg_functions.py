"""Hand-written functions for the CFG pane's tests, assembled from text with our assembler.

Each body is the blocks of `main`; every label gets an OpName of its own name, so the
drawing shows `%outer_header` rather than a number and the tests can name blocks.
"""

from __future__ import annotations


from cfg_source import module_text

from spvinspect.codec.asm import assemble
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.names import module_names
from spvinspect.cfgview.graphs import FunctionGraphs

DIAMOND = """%entry = OpLabel
OpSelectionMerge %join None
OpBranchConditional %cond %then %else
%then = OpLabel
OpBranch %join
%else = OpLabel
OpBranch %join
%join = OpLabel
OpReturn
"""

NESTED_LOOPS = """%entry = OpLabel
OpBranch %outer
%outer = OpLabel
OpLoopMerge %outer_merge %outer_continue None
OpBranch %inner
%inner = OpLabel
OpLoopMerge %inner_merge %inner_continue None
OpBranchConditional %cond %body %inner_merge
%body = OpLabel
OpSelectionMerge %join None
OpBranchConditional %cond %early %join
%early = OpLabel
OpBranch %inner_continue
%join = OpLabel
OpBranch %inner_continue
%inner_continue = OpLabel
OpBranch %inner
%inner_merge = OpLabel
OpBranch %outer_continue
%outer_continue = OpLabel
OpBranchConditional %cond %outer %outer_merge
%outer_merge = OpLabel
OpReturn
"""

SWITCH = """%entry = OpLabel
OpSelectionMerge %end None
OpSwitch %one %fallback 1 %first 2 %second -3 %second
%first = OpLabel
OpBranch %second
%second = OpLabel
OpBranch %end
%fallback = OpLabel
OpBranch %end
%end = OpLabel
OpReturn
"""
"""Case 1 falls through into case 2; two case values share a target."""

UNREACHABLE = """%entry = OpLabel
OpSelectionMerge %join None
OpBranchConditional %cond %then %join
%then = OpLabel
OpReturn
%dead = OpLabel
OpBranch %join
%join = OpLabel
OpReturn
"""

SELF_LOOP = """%entry = OpLabel
OpBranch %spin
%spin = OpLabel
OpLoopMerge %done %spin None
OpBranchConditional %cond %spin %done
%done = OpLabel
OpReturn
"""

NO_TERMINATOR = """%entry = OpLabel
OpBranch %open
%open = OpLabel
%sum = OpIAdd %int %one %one
%after = OpLabel
OpReturn
"""

BRANCH_TO_VALUE = """%entry = OpLabel
OpBranchConditional %cond %good %one
%good = OpLabel
OpReturn
"""
"""The false target is a constant, not a label."""


def chain(constructs: int) -> str:
    """A longer function: `constructs` if-then blocks one after the other, every fifth
    a loop around one, so layers hold blocks of different widths and long edges."""
    lines = ["%entry = OpLabel", "OpBranch %b0"]
    for i in range(constructs):
        if i % 5 == 0:
            lines += [
                f"%b{i} = OpLabel", f"OpLoopMerge %m{i} %c{i} None", f"OpBranchConditional %cond %t{i} %m{i}",
                f"%t{i} = OpLabel", f"OpSelectionMerge %j{i} None", f"OpBranchConditional %cond %x{i} %j{i}",
                f"%x{i} = OpLabel", f"OpBranch %j{i}", f"%j{i} = OpLabel", f"OpBranch %c{i}",
                f"%c{i} = OpLabel", f"OpBranch %b{i}", f"%m{i} = OpLabel", f"OpBranch %b{i + 1}",
            ]
        else:
            lines += [
                f"%b{i} = OpLabel", f"OpSelectionMerge %j{i} None", f"OpBranchConditional %cond %x{i} %j{i}",
                f"%x{i} = OpLabel", f"OpBranch %j{i}", f"%j{i} = OpLabel", f"OpBranch %b{i + 1}",
            ]
    lines += [f"%b{constructs} = OpLabel", "OpReturn"]
    return "\n".join(lines) + "\n"


def module_bytes(body: str) -> bytes:
    """The binary of a module whose `main` has `body` as its blocks."""
    result = assemble(module_text(body))
    assert result.ok, result.diagnostics
    return result.binary


def graphs_of(body: str, **limits: int) -> FunctionGraphs:
    """The function graphs of a module whose `main` has `body` as its blocks; `limits`
    are `FunctionGraphs`'s `inline_blocks`, `draw_blocks` and `inline_instructions`."""
    module = open_module(module_bytes(body))
    return FunctionGraphs(module, module_names(module), **limits)


def main_id(graphs: FunctionGraphs) -> int:
    """The id of `main`, the module's only function."""
    return graphs.module.functions()[0].result_id
