"""Hand-written CFG test functions made whole: the module text around a body of blocks.

Each body is the blocks of `main`; every label gets an OpName of its own name, so tests
and drawings can name blocks (`%outer_header` rather than a number). `%cond` is true.
"""

from __future__ import annotations

import re

PREAMBLE = """OpCapability Shader
OpMemoryModel Logical GLSL450
OpEntryPoint Fragment %main "main"
OpExecutionMode %main OriginUpperLeft
OpName %main "main"
{names}
%void = OpTypeVoid
%bool = OpTypeBool
%int = OpTypeInt 32 1
%cond = OpConstantTrue %bool
%one = OpConstant %int 1
%fn = OpTypeFunction %void
%main = OpFunction %void None %fn
"""


def module_text(body: str) -> str:
    """The assembly of a module whose `main` has `body` as its blocks, each label named."""
    labels = re.findall(r"%(\w+) = OpLabel", body)
    names = "\n".join(f'OpName %{label} "{label}"' for label in labels)
    return PREAMBLE.format(names=names) + body + "OpFunctionEnd\n"
