"""The MBS container of the Mali offline compiler: a tree of `{ident[4], size}` chunks.

Every chunk is kept with its byte offset and its parsed values; the words of the first
fragment program (`CFRA` / `DBIN`) are handed to the instruction decoder. Vertex
programs (`CVER`) are shown as chunks only: they are GP code, not PP. `mbs_with_code`
writes the other way: a container with its fragment code replaced.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.lima.decoder import decode_words
from spvinspect.lima.model import Chunk, ChunkField
from spvinspect.codec.plural import counted

MAGIC = b"MBS1"

_VERSIONS = {2: "Mali-GP2", 5: "Mali-200", 6: "Mali-400 GP", 7: "Mali-400 PP"}
_SYMBOL_TYPES = {
    1: "float",
    2: "int",
    3: "bool",
    4: "matrix",
    5: "sampler2D",
    6: "samplerCube",
    8: "struct",
    9: "samplerExternalOES",
}
_FORMATS = {"u8": "<B", "u16": "<H", "u32": "<I"}

_FIXED = {
    "FSTA": (("stack_size", "u32"), ("stack_offset", "u32")),
    "FDIS": (("discard", "u32"),),
    "FBUU": tuple(
        (name, "u8")
        for name in (
            "reads_color",
            "writes_color",
            "reads_depth",
            "writes_depth",
            "reads_stencil",
            "writes_stencil",
            "unknown_6",
            "unknown_7",
        )
    ),
    "FINS": (("unknown_0", "u32"), ("instructions", "u32"), ("attrib_prefetch", "u32")),
}
"""Chunks that hold only fixed values: (name, type) in order."""

_SYMBOL = (
    ("unknown_0", "u8"),
    ("type", "u8"),
    ("component_count", "u16"),
    ("component_size", "u16"),
    ("entry_count", "u16"),
    ("src_stride", "u16"),
    ("dst_stride", "u8"),
    ("precision", "u8"),
    ("invariant", "u32"),
    ("offset", "u16"),
    ("index", "u16"),
)
"""What follows the name of a `VUNI` / `VVAR` / `VATT` symbol."""

MAX_DEPTH = 16
"""Deepest chunk nesting parsed. Real files nest five deep (MBS1 > CFRA > SUNI > VUNI >
STRI); a cap keeps hostile nesting (8 bytes a level) from exhausting the stack here and
in every consumer that walks the tree."""

_PROGRAMS = {"CFRA", "CVER"}
_TABLES = {"SUNI", "SVAR", "SATT"}
_SYMBOLS = {"VUNI", "VVAR", "VATT"}
_CONTAINERS = {"MBS1"} | _PROGRAMS | _TABLES | _SYMBOLS
"""Chunks that hold child chunks."""


def _meaning(name: str, value: int) -> str:
    if name == "version":
        return _VERSIONS.get(value, "unknown core")
    if name == "type":
        return _SYMBOL_TYPES.get(value, "unknown type")
    if name == "index" and value == 0xFFFF:
        return "none"
    return ""


@dataclass
class MbsFile:
    """The parsed container: chunk tree, the fragment code span, and what went wrong."""

    chunks: tuple[Chunk, ...] = ()
    code_offset: int | None = None
    """Byte offset of the first fragment program's `DBIN` contents."""
    code_size: int = 0
    diagnostics: list[Diagnostic] = field(default_factory=list)


class _Parser:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.result = MbsFile()

    def error(self, message: str, byte_offset: int) -> None:
        self.result.diagnostics.append(
            Diagnostic(f"{message} (byte 0x{byte_offset:x})", word_offset=byte_offset // 4)
        )

    def chunks(self, start: int, end: int, parent: str, depth: int = 0) -> tuple[Chunk, ...]:
        found = []
        offset = start
        while offset < end:
            if end - offset < 8:
                self.error(
                    f"truncated chunk header in {parent}: {counted(end - offset, 'byte')} left, 8 needed",
                    offset,
                )
                break
            ident = self.data[offset : offset + 4].decode("latin-1")
            (size,) = struct.unpack_from("<I", self.data, offset + 4)
            body_end = offset + 8 + size
            if body_end > end:
                self.error(
                    f"chunk {ident!r} claims {counted(size, 'byte')} but only {end - offset - 8} remain in {parent}",
                    offset,
                )
                body_end = end
            found.append(self.chunk(offset, ident, size, body_end, parent, depth))
            offset = body_end
        return tuple(found)

    def values(self, ident: str, start: int, end: int, layout) -> tuple[list[ChunkField], int]:
        fields = []
        offset = start
        for name, kind in layout:
            fmt = _FORMATS[kind]
            size = struct.calcsize(fmt)
            if offset + size > end:
                self.error(f"chunk {ident!r} ends before its value {name!r}", offset)
                break
            (value,) = struct.unpack_from(fmt, self.data, offset)
            fields.append(ChunkField(name, offset, size, value, _meaning(name, value)))
            offset += size
        return fields, offset

    def chunk(self, offset: int, ident: str, size: int, end: int, parent: str, depth: int) -> Chunk:
        body = offset + 8
        fields: list[ChunkField] = []
        children: tuple[Chunk, ...] = ()
        if depth >= MAX_DEPTH and ident in _CONTAINERS:
            self.error(f"chunk {ident!r} is nested {depth} levels deep; its contents are not parsed"
                       f" (at most {MAX_DEPTH} levels)", offset)
        elif ident == "MBS1":
            children = self.chunks(body, end, ident, depth + 1)
        elif ident in _PROGRAMS:
            fields, rest = self.values(ident, body, end, (("version", "u32"),))
            children = self.chunks(rest, end, ident, depth + 1)
        elif ident in _TABLES:
            fields, rest = self.values(ident, body, end, (("count", "u32"),))
            children = self.chunks(rest, end, ident, depth + 1)
        elif ident in _SYMBOLS:
            children = self.chunks(body, min(end, body + 8 + self._size_at(body, end)), ident, depth + 1)
            rest = children[0].data_offset + children[0].size if children else end
            fields, _ = self.values(ident, min(rest, end), end, _SYMBOL)
        elif ident in _FIXED:
            fields, _ = self.values(ident, body, end, _FIXED[ident])
        elif ident == "STRI":
            text = self.data[body:end].split(b"\0", 1)[0].decode("latin-1")
            fields = [ChunkField("string", body, end - body, text)]
        elif ident == "DBIN":
            fields = [ChunkField("words", body, end - body, (end - body) // 4)]
            if parent == "CFRA" and self.result.code_offset is None:
                self.result.code_offset = body
                self.result.code_size = end - body
        return Chunk(offset, ident, size, tuple(fields), children)

    def _size_at(self, offset: int, end: int) -> int:
        if end - offset < 8:
            return 0
        return struct.unpack_from("<I", self.data, offset + 4)[0]


def is_mbs(data: bytes) -> bool:
    """True when `data` is an MBS container rather than a raw instruction stream."""
    return data[:4] == MAGIC


def parse_mbs(data: bytes) -> MbsFile:
    """The chunk tree of an MBS file; never raises, problems become diagnostics."""
    parser = _Parser(data)
    parser.result.chunks = parser.chunks(0, len(data), "file")
    if parser.result.code_offset is None:
        parser.result.diagnostics.append(
            Diagnostic("no fragment program: the file has no CFRA chunk with a DBIN chunk", word_offset=0)
        )
    return parser.result


class ContainerError(ValueError):
    """The code cannot be put into these bytes; `str(error)` says why."""


def raw_stream(words: list[int]) -> bytes:
    """A PP instruction stream as a raw file holds it (little-endian words)."""
    return struct.pack(f"<{len(words)}I", *words)


def mbs_with_code(container: bytes, words: list[int]) -> bytes:
    """`container` (an MBS file) with its fragment program's code replaced by `words`:
    the sizes of the code chunk and of the chunks holding it follow the new length, and
    the program's instruction count (`FINS`), if it has one, is the new code's. Raises
    ContainerError when `container` is not an MBS file or has no fragment code chunk."""
    if not is_mbs(container):
        raise ContainerError("the file is not an MBS container (it does not start with MBS1)")
    parsed = parse_mbs(container)
    if parsed.code_offset is None:
        raise ContainerError("the MBS file has no fragment program code chunk (no DBIN in a CFRA chunk)")
    path = _chunk_path(parsed.chunks, parsed.code_offset)
    code = raw_stream(words)
    delta = len(code) - parsed.code_size
    data = bytearray(container[: parsed.code_offset] + code + container[parsed.code_offset + parsed.code_size :])
    for chunk in path:
        size = chunk.size + delta
        if not 0 <= size <= 0xFFFFFFFF:
            raise ContainerError(f"chunk {chunk.ident!r} at byte 0x{chunk.byte_offset:x} cannot hold the new code")
        struct.pack_into("<I", data, chunk.byte_offset + 4, size)
    count = _instruction_count_field(path[-2] if len(path) > 1 else None)
    if count is not None:
        at = count.byte_offset + (delta if count.byte_offset > parsed.code_offset else 0)
        struct.pack_into("<I", data, at, len(decode_words(words).instructions))
    return bytes(data)


def _instruction_count_field(program: Chunk | None) -> ChunkField | None:
    """The `instructions` value of the program's FINS chunk (the code's instruction
    count, which an edit that adds or removes instructions changes), if it has one."""
    if program is None:
        return None
    for chunk in program.children:
        if chunk.ident == "FINS":
            return next((f for f in chunk.fields if f.name == "instructions" and f.size == 4), None)
    return None


def _chunk_path(chunks: tuple[Chunk, ...], code_offset: int) -> list[Chunk]:
    """The chunks from the top down to the one whose contents start at `code_offset`."""
    for chunk in chunks:
        if chunk.byte_offset + 8 == code_offset:
            return [chunk]
        if chunk.byte_offset < code_offset < chunk.byte_offset + 8 + chunk.size:
            below = _chunk_path(chunk.children, code_offset)
            if below:
                return [chunk, *below]
    return []
