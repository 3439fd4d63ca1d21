"""The module header the assembler writes: version by target environment, and the
header comments that `spirv-dis` prints, read back so that a round trip is exact."""

from __future__ import annotations

import re
from dataclasses import dataclass

from spvinspect.codec.grammar import Grammar

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
    r"; Version: ([0-9]+)\.([0-9]+)\r?\n"
    r"; Generator: ([^\n]*); ([0-9]+)\r?\n"
    r"; Bound: ([0-9]+)\r?\n"
    r"; Schema: ([0-9]+)\r?(?:\n|\Z)"
)
_UNKNOWN_TOOL = re.compile(r"Unknown\(([0-9]{1,10})\)\Z")
# What `spvinspect dis --lossless` adds when the standard comments do not give the header
# back (see codec.text.listing), and what it prints for a module shorter than a header.
_HEADER_WORDS = re.compile(r"; Header words:((?: 0x[0-9a-fA-F]{8}){5})\r?(?:\n|\Z)")
_INCOMPLETE_HEADER = re.compile(r"; SPIR-V\r?\n; Header words:((?: 0x[0-9a-fA-F]{8}){0,4})\r?(?:\n|\Z)")
_BIG_ENDIAN = re.compile(r"; Byte order: big-endian\r?(?:\n|\Z)")
_TRAILING_BYTES = re.compile(r"^; Trailing bytes: ((?:[0-9a-f]{2}){1,3})\s*\Z", re.MULTILINE)


class HeaderError(ValueError):
    """A header comment holds a number its header word cannot: the message, and the
    number's character offset in the text."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass(frozen=True, slots=True)
class HeaderComment:
    """The header as `spirv-dis` described it in its leading comments."""

    version: int
    generator: int | None
    """None when the tool name is not one the registry (or `Unknown(N)`) names."""
    bound: int
    schema: int
    words: tuple[int, ...] | None = None
    """The five header words exactly, from a lossless `; Header words:` comment (fewer
    for a module shorter than its header, which has no instructions)."""
    big_endian: bool = False
    trailing_bytes: bytes = b""
    """Bytes past the last whole word, from a lossless `; Trailing bytes:` comment."""


def _tool_id(name: str, grammar: Grammar) -> int | None:
    m = _UNKNOWN_TOOL.match(name)
    if m:
        return int(m.group(1))
    ids = [tool for tool, gen in grammar.generators.items() if gen.display == name]
    return min(ids) if ids else None


def _number(m: re.Match, group: int, limit: int, what: str) -> int:
    """Group `group` of the header match as a number up to `limit`; raises HeaderError."""
    digits = m.group(group)
    significant = digits.lstrip("0")
    # At most 10 digits go to int(), which refuses more than 4,300.
    value = int(significant or "0") if len(significant) <= 10 else None
    if value is None or value > limit:
        shown = digits if len(digits) <= 20 else f"{digits[:20]}… ({len(digits)} digits)"
        raise HeaderError(
            f"the header comment's {what} {shown} does not fit in {limit.bit_length()} bits",
            m.start(group),
        )
    return value


def read_header_comment(text: str, grammar: Grammar) -> HeaderComment | None:
    """The header comments at the very start of `text`, or None when absent; raises
    HeaderError when one of their numbers does not fit its header word."""
    m = _HEADER.match(text)
    if m is None:
        return _incomplete_header(text)
    major = _number(m, 1, 0xFF, "major version")
    minor = _number(m, 2, 0xFF, "minor version")
    bound = _number(m, 5, 0xFFFFFFFF, "bound")
    schema = _number(m, 6, 0xFFFFFFFF, "schema")
    tool = m.group(3)
    tool_version = m.group(4).lstrip("0") or "0"
    words = None
    big_endian = False
    rest = m.end()
    exact = _HEADER_WORDS.match(text, rest)
    if exact is not None:
        words = tuple(int(w, 16) for w in exact.group(1).split())
        big_endian = _BIG_ENDIAN.match(text, exact.end()) is not None
    trailing = _TRAILING_BYTES.search(text, rest) if words is not None else None
    tool_id = _tool_id(tool, grammar)
    generator = None
    if tool_id is not None and tool_id <= 0xFFFF and len(tool_version) <= 5 and int(tool_version) <= 0xFFFF:
        generator = (tool_id << 16) | int(tool_version)
    return HeaderComment(
        (major << 16) | (minor << 8),
        generator,
        bound,
        schema,
        words,
        big_endian,
        bytes.fromhex(trailing.group(1)) if trailing else b"",
    )


def _incomplete_header(text: str) -> HeaderComment | None:
    """The lossless comments of a module shorter than a header: `; SPIR-V`, then
    `; Header words:` with the zero to four words there are (and the trailing bytes)."""
    m = _INCOMPLETE_HEADER.match(text)
    if m is None:
        return None
    words = tuple(int(w, 16) for w in m.group(1).split())
    big_endian = _BIG_ENDIAN.match(text, m.end()) is not None
    trailing = _TRAILING_BYTES.search(text, m.end())
    trailing_bytes = bytes.fromhex(trailing.group(1)) if trailing else b""
    return HeaderComment(0, None, 0, 0, words, big_endian, trailing_bytes)
