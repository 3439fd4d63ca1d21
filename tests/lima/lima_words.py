"""Instruction words for the Lima tests, built from the bit positions in Mesa's `codegen.h`.

Inputs are packed here independently of `lima/fields.py`, so that a wrong table cannot
agree with itself.
"""

from __future__ import annotations

import struct

MESA_FIELD_SIZES = (34, 62, 41, 43, 30, 44, 31, 30, 41, 73, 64, 64)
"""`ppir_codegen_field_size` in Mesa's disasm.c, in presence-bit order."""

VARYING, SAMPLER, UNIFORM, VEC4_MUL, FLOAT_MUL, VEC4_ACC, FLOAT_ACC, COMBINE, TEMP_WRITE, BRANCH, CONST0, CONST1 = range(12)

REAL_INSTRUCTION = [0x00020425, 0x0000000C, 0x01E007CF, 0xB0000000, 0x000005F5]
"""The limare test driver's five-word shader from ENCODING.md."""


def bits(*parts: tuple[int, int, int]) -> int:
    """A field's raw bits from `(first_bit, width, value)` triples."""
    raw = 0
    for first, width, value in parts:
        assert 0 <= value < (1 << width), (first, width, value)
        raw |= value << first
    return raw


def instruction(fields: dict[int, int], *, stop=0, sync=0, next_count=0, prefetch=0, count=None) -> list[int]:
    """Words of one instruction: control word, then the fields packed in index order."""
    presence = sum(1 << index for index in fields)
    total = sum(MESA_FIELD_SIZES[index] for index in fields)
    count = count if count is not None else 1 + (total + 31) // 32
    control = count | stop << 5 | sync << 6 | presence << 7 | next_count << 19 | prefetch << 25
    value = 0
    bit = 0
    for index in sorted(fields):
        value |= fields[index] << bit
        bit += MESA_FIELD_SIZES[index]
    return [control] + [(value >> (32 * k)) & 0xFFFFFFFF for k in range(count - 1)]


def to_bytes(words: list[int]) -> bytes:
    """Little-endian bytes of the words."""
    return struct.pack(f"<{len(words)}I", *words)


def chunk(ident: bytes, body: bytes) -> bytes:
    """An MBS chunk: ident, little-endian size, body."""
    return ident + struct.pack("<I", len(body)) + body


def symbol(ident: bytes, name: str) -> bytes:
    """A VUNI/VVAR symbol chunk as limadriver's MBS page lays it out."""
    text = name.encode() + b"\0"
    text += b"\0" * (-len(text) % 4)
    fixed = struct.pack("<BBHHHHBBIHH", 0, 1, 4, 4, 1, 4, 4, 3, 0, 0, 0xFFFF)
    return chunk(ident, chunk(b"STRI", text) + fixed)


def mbs_file(code: list[int]) -> bytes:
    """An MBS file with one fragment program holding `code`, and a vertex program."""
    fragment = chunk(
        b"CFRA",
        struct.pack("<I", 7)
        + chunk(b"FSTA", struct.pack("<II", 1, 2))
        + chunk(b"FDIS", struct.pack("<I", 0))
        + chunk(b"FBUU", bytes([0, 1, 0, 0, 0, 0, 0, 0]))
        + chunk(b"SUNI", struct.pack("<I", 1) + symbol(b"VUNI", "u_color"))
        + chunk(b"SVAR", struct.pack("<I", 0))
        + chunk(b"DBIN", to_bytes(code)),
    )
    vertex = chunk(b"CVER", struct.pack("<I", 6) + chunk(b"FINS", struct.pack("<III", 0, 1, 0))
                   + chunk(b"DBIN", b"\xff" * 16))
    return chunk(b"MBS1", fragment + vertex)


PROGRAM = """\
load.v $0 0.xy, load.u 1.y
top:
mov.v0 $1 $0, add.v1 $2 $1 $0
branch_lt $0.x $1.y top
texld 0, mov.v0 $0 ^texture
load.u 0, mov.v0 $0 ^uniform
stop, mov.v0 $0 ^const0.yyyx, const0 1.0 0.0 0.0 0.0
"""
"""Six instructions: loads, a backward branch to `top`, a texture fetch, a constant."""
