"""A type's width edited in a region (`%int` 32 -> 64 bits) whose constants and switches
after the region grow: the panes' document names the edited module as a fresh naming
pass (and spirv-dis) names it — the type and its constants renamed (`%int_7` ->
`%long_0_7`) — derived from the shown names, with no naming pass of its own."""

from __future__ import annotations

import re

from test_edit_names import spirv_dis

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.region import Region
from spvinspect.document import Document
from spvinspect.editing import dependents, region_assembler

SOURCE = """\
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
%void = OpTypeVoid
%fn = OpTypeFunction %void
%int = OpTypeInt 32 1
%long = OpTypeInt 64 1
%ptr = OpTypePointer Function %int
%arr = OpTypeArray %int %c3
%c3 = OpConstant %int 3
%c7 = OpConstant %int 7
%neg = OpConstant %int -1000
%l7 = OpConstant %long 7
%big = OpConstant %long 1099511627776
%main = OpFunction %void None %fn
%entry = OpLabel
%v = OpVariable %ptr Function
%sel = OpLoad %int %v
OpSelectionMerge %merge None
OpSwitch %sel %merge 1 %a -3 %b 7 %a
%a = OpLabel
OpBranch %merge
%b = OpLabel
OpSwitch %c7 %merge 2 %merge
%merge = OpLabel
OpReturn
OpFunctionEnd
"""


def test_a_types_width_changed_in_a_region_renames_as_a_fresh_pass_without_one(monkeypatch, tmp_path):
    monkeypatch.setattr(dependents, "RESIZED_LIMIT", 0)  # the dependents after the region from their words
    monkeypatch.setattr(region_assembler, "region_around", lambda module, at: Region(0, 10))  # up to %arr
    data = assemble(SOURCE).binary
    document = Document(data, tmp_path / "module.spv")
    document.module.ensure_indexed()
    assert document.names(False).table()  # the shown names' pass, finished as on screen
    session = document.open_edit_session(0)
    session.accept(session.request().run())
    passes = []
    advance = NameMap._advance
    monkeypatch.setattr(NameMap, "_advance", lambda self, *a: passes.append(self) or advance(self, *a))
    for old, new, renamed in [("32 1", "64 1", "%long_0_7"), ("64 1", "32 1", "%int_7")]:
        row = next(k for k, line in enumerate(session.lines) if line.strip().startswith("%int = OpTypeInt"))
        session.replace_lines(row, row + 1, [session.lines[row].replace(old, new)])
        outcome = session.request().run()
        edited = document.edited(session, outcome)
        session.accept(outcome)
        assert edited is not None and outcome.binary == assemble("\n".join(session.lines)).binary
        assert not passes, "a naming pass over the edited module"
        fresh = open_module(outcome.binary)
        assert edited.names(False).table() == NameMap(fresh).table()
        shown = [edited.row_text(row).strip() for row in range(edited.instruction_count)]
        dis = [re.sub(r"\s+", " ", line.strip()) for line in spirv_dis(outcome.binary).splitlines()]
        assert [re.sub(r"\s+", " ", line) for line in shown] == dis
        assert any(line.startswith(f"{renamed} = OpConstant") for line in dis)
        passes.clear()  # the fresh pass's, here
        document = edited
    assert outcome.binary == data
