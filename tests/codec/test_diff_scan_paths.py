"""The diff's id scan has two paths, one instruction at a time (small modules) and
grouped by first word with numpy (large ones, from `GROUPED_FROM` instructions): both
must find the same offsets, id positions and results, also where an id is out of bounds
(then the decoder's pass decides) and for OpSwitch (settled by its selector's type)."""

from __future__ import annotations

import struct

import pytest

from spvinspect.codec.asm import assemble
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.diff import id_words
from spvinspect.commands.open import EXAMPLE_MODULE

SWITCH = """OpCapability Shader
OpMemoryModel Logical GLSL450
%void = OpTypeVoid
%fn = OpTypeFunction %void
%long = OpTypeInt 64 1
%k = OpConstant %long 5
%main = OpFunction %void None %fn
%entry = OpLabel
OpSelectionMerge %end None
OpSwitch %k %end 1 %one 4294967296 %end
%one = OpLabel
OpBranch %end
%end = OpLabel
OpReturn
OpFunctionEnd
"""


def both_paths(data: bytes, monkeypatch) -> list:
    found = []
    for threshold in (1 << 30, 0):
        monkeypatch.setattr(id_words, "GROUPED_FROM", threshold)
        module = open_module(data)
        offsets, facts, results = id_words.scan(module, module.header.bound)
        found.append((list(offsets), facts, list(results)))
    return found


@pytest.mark.parametrize("case", ["example", "switch", "id past the bound", "cut short"])
def test_both_paths_find_the_same_ids(case, monkeypatch):
    if case == "switch":
        result = assemble(SWITCH)
        assert result.ok, result.diagnostics
        data = result.binary
    else:
        data = EXAMPLE_MODULE.read_bytes()
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    if case == "id past the bound":
        words[3] = 7  # the bound, below most ids
    elif case == "cut short":
        words = words[:-3]
    data = struct.pack(f"<{len(words)}I", *words)
    small, grouped = both_paths(data, monkeypatch)
    assert small == grouped
    assert small[0]  # something was found
