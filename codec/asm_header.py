"""The module header the assembler writes: version by target environment, and the
header comments that `spirv-dis` prints, read back so that a round trip is exact."""

from __future__ import annotations

import re
from dataclasses import dataclass

from codec.grammar import Grammar

MAGIC = 0x07230203
ASSEMBLER_GENERATOR = 7 << 16
"""What spirv-as writes: the Khronos SPIR-V assembler (tool 7), version 0."""

DEFAULT_VERSION = 0x00010600
"""spirv-as v2025.5 targets SPIR-V 1.6 unless told otherwise."""

_V = {f"spv1.{m}": 0x00010000 | (m << 8) for m in range(7)}
TARGET_ENV_VERSIONS = {
    **_V,
    "vulkan1.0": _V["spv1.0"],
    "vulkan1.1": _V["spv1.3"],
    "vulkan1.1spv1.4": _V["spv1.4"],
    "vulkan1.2": _V["spv1.5"],
    "vulkan1.3": _V["spv1.6"],
    "vulkan1.4": _V["spv1.6"],
    "opencl1.2embedded": _V["spv1.0"],
    "opencl1.2": _V["spv1.0"],
    "opencl2.0embedded": _V["spv1.0"],
    "opencl2.0": _V["spv1.0"],
    "opencl2.1embedded": _V["spv1.0"],
    "opencl2.1": _V["spv1.0"],
    "opencl2.2embedded": _V["spv1.2"],
    "opencl2.2": _V["spv1.2"],
    "opengl4.0": _V["spv1.0"],
    "opengl4.1": _V["spv1.0"],
    "opengl4.2": _V["spv1.0"],
    "opengl4.3": _V["spv1.0"],
    "opengl4.5": _V["spv1.0"],
}
"""The version word spirv-as v2025.5 writes for each `--target-env` it accepts."""

_HEADER = re.compile(
    r"; SPIR-V\r?\n"
    r"; Version: (\d+)\.(\d+)\r?\n"
    r"; Generator: ([^\n]*); (\d+)\r?\n"
    r"; Bound: (\d+)\r?\n"
    r"; Schema: (\d+)\r?(?:\n|\Z)"
)
_UNKNOWN_TOOL = re.compile(r"Unknown\((\d+)\)\Z")


@dataclass(frozen=True, slots=True)
class HeaderComment:
    """The header as `spirv-dis` described it in its leading comments."""

    version: int
    generator: int | None
    """None when the tool name is not one the registry (or `Unknown(N)`) names."""
    bound: int
    schema: int


def _tool_id(name: str, grammar: Grammar) -> int | None:
    m = _UNKNOWN_TOOL.match(name)
    if m:
        return int(m.group(1))
    ids = [tool for tool, gen in grammar.generators.items() if gen.display == name]
    return min(ids) if ids else None


def read_header_comment(text: str, grammar: Grammar) -> HeaderComment | None:
    """The header comments at the very start of `text`, or None when absent."""
    m = _HEADER.match(text)
    if m is None:
        return None
    major, minor, tool, tool_version, bound, schema = m.groups()
    version = (int(major) << 16) | (int(minor) << 8)
    tool_id = _tool_id(tool, grammar)
    generator = None
    if tool_id is not None and tool_id <= 0xFFFF and int(tool_version) <= 0xFFFF:
        generator = (tool_id << 16) | int(tool_version)
    return HeaderComment(version & 0xFFFFFFFF, generator, int(bound) & 0xFFFFFFFF, int(schema) & 0xFFFFFFFF)
