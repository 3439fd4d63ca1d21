"""Small modules for the interpreter's tests: a compute entry point around a body of
SPIR-V assembly, every `%name = ...` of the body named (OpName) so a test reads its value."""

from __future__ import annotations

import re

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.shader import Shader
from spvinspect.codec.interp.types import to_json

HEADER = """OpCapability Shader
OpCapability Int64
OpCapability Float64
OpCapability Int16
OpCapability Float16
%glsl = OpExtInstImport "GLSL.std.450"
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
"""

TYPES = """%void = OpTypeVoid
%fn = OpTypeFunction %void
%bool = OpTypeBool
%int = OpTypeInt 32 1
%uint = OpTypeInt 32 0
%long = OpTypeInt 64 1
%ushort = OpTypeInt 16 0
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%half = OpTypeFloat 16
%v2float = OpTypeVector %float 2
%v3float = OpTypeVector %float 3
%v4float = OpTypeVector %float 4
%v2int = OpTypeVector %int 2
%v2uint = OpTypeVector %uint 2
%v4uint = OpTypeVector %uint 4
%v2bool = OpTypeVector %bool 2
%mat2 = OpTypeMatrix %v2float 2
%true = OpConstantTrue %bool
%false = OpConstantFalse %bool
"""


CONSTS = """%i7 = OpConstant %int 7
%im7 = OpConstant %int -7
%i2 = OpConstant %int 2
%im2 = OpConstant %int -2
%i0 = OpConstant %int 0
%imax = OpConstant %int 2147483647
%u3 = OpConstant %uint 3
%u0 = OpConstant %uint 0
%u31 = OpConstant %uint 31
%u32 = OpConstant %uint 32
%umax = OpConstant %uint 4294967295
%f1 = OpConstant %float 1
%f3 = OpConstant %float 3
%f0 = OpConstant %float 0
%fm1 = OpConstant %float -1
%ftenth = OpConstant %float 0.1
%f2_5 = OpConstant %float 2.5
%im1 = OpConstant %int -1
%imin = OpConstant %int -2147483648
%u2 = OpConstant %uint 2
%e128 = OpConstant %int 128
%e129 = OpConstant %int 129
%f2 = OpConstant %float 2
%fhalf = OpConstant %float 0.5
%f1_5 = OpConstant %float 1.5
"""
"""Named constants the instruction tests share."""


def module(body: str, decls: str = "", functions: str = "") -> bytes:
    """The module's bytes: `decls` after the standard types, `body` in main."""
    names = re.findall(r"^\s*%(\w+)\s*=", body + "\n" + decls + "\n" + functions, re.M)
    name_lines = "".join(f'OpName %{n} "{n}"\n' for n in dict.fromkeys(names))
    text = (HEADER + name_lines + TYPES + decls + "\n%main = OpFunction %void None %fn\n%entry = OpLabel\n"
            + body + "\nOpReturn\nOpFunctionEnd\n" + functions)
    result = assemble(text)
    assert result.words is not None, result.diagnostics
    return result.words.tobytes()


def run_values(body: str, decls: str = "", functions: str = "", inputs: dict | None = None) -> dict:
    """Run main to its end: every named id's last value, as JSON (signed ints signed)."""
    shader = Shader(module(body, decls, functions))
    debugger = Debugger(shader, inputs=inputs)
    debugger.run()
    inv = debugger.invocation
    assert inv.status == "done", inv.message
    values = {}
    for rec in debugger.history:
        if rec.result_id and rec.value is not None and rec.result_id in shader.names:
            values[shader.names[rec.result_id]] = to_json(shader.id_types.get(rec.result_id), rec.value)
    return values
