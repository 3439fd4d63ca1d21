"""Lima inputs: PP instruction streams, MBS containers and assembly texts, generated and mutated."""

from __future__ import annotations

import random
import struct

from spvinspect import lima
from benchmarks.fuzzing import mutate
from spvinspect.lima.fields import CONTROL, FIELDS

LINES = (
    "load.v $0 1, load.u 1",
    "sync, load_persp_w.v $1.xy 2.zw, texld 3 $0.x",
    "load.v ^discard gl_FragCoord",
    "load_cube.v $2 $1.zyx, texld_lod 0+$3.y",
    "normalize.v $3.xyz $3",
    "mov.v0 $0 ^const0.xxxx, const0 1.0 0.5 0.0 -1.678",
    "add.v1 $1 $0 $2",
    "sel.v1 $1 ^v0 $2, mul.s0 ^s0 $0.x $1.x",
    "rcp.s2 $0.x $1.x",
    "atan_pt2.s2 $1.x $2.xyz",
    "mul.s2 $3 $0.y $4.xxyz",
    "sqrt_vec.s2 $4.xy $1.z",
    "mul.s0 $2.y $0.x $1.y, add.s1 $3.z ^s0 $2.w",
    "store.t 3 $1",
    "store.t 2.z+$0.x $5.w",
    "load.t 7.xy, fb_color $2",
    "fb_depth $1",
    "mul_x2_sat.v0 $3.xz -$1_abs.yx $2, max.v1 $1 ^v0 $4.wzyx, const1 0.25 2.0 inf -0.0",
    "op18.v1 $0 $1 $2 {unknown_4=3}",
    "count 9, mov.v0 $0 $1, {padding=0x1234}",
    "stop, discard",
    "branch_ge $0.x $1.y +5",
    "nop",
    "{unknown_26=0x3f}, mov.v0 $0 $1",
)
"""Ops of every unit, the overrides and control items, one instruction a line."""

VOCABULARY = (
    "$0", "$11", "$12", "$15", "$16", "$²", "$01", "$99999999999999999999", "^const0", "^const1", "^v0", "^s0",
    "^texture", "^uniform", "^discard", "^fmul", ".x", ".xyzw", ".q", "_abs", "-", "abs(", ")", ",", ":",
    "L1:", "#", "{", "}", "{padding=0x1}", "{index=-1}", "{unknown_42=0x39001}", "{bogus=1}", "{op=99}",
    "count", "count 0", "count 31", "next_count 63", "prefetch", "stop", "sync", "const0", "const0.", "0x",
    "09", "0x7e00", "nan", "inf", "1e400", "mov.v0", "add.v1", "rcp.s2", "op31.v0", "op①_vec.s2", "load.v",
    "load.u", "store.t", "texld", "branch", "branch_xx", "discard", "gl_FragCoord", "+5", "-67108865",
)
"""Words for text edits: registers good and bad, ops, overrides, control items, numbers."""

IDENTS = (b"MBS1", b"CFRA", b"CVER", b"FSTA", b"FDIS", b"FBUU", b"FINS", b"SUNI", b"SVAR", b"SATT",
          b"VUNI", b"VVAR", b"VATT", b"STRI", b"DBIN")
"""Chunk identifiers the MBS parser knows."""


def stream_words(rng: random.Random) -> list[int]:
    """One to eight instructions: random fields and bits, a count that fits them, or an
    assembled block of realistic lines."""
    if rng.random() < 0.3:
        words, _ = lima.assemble(text_program(rng))
        return words or []
    words: list[int] = []
    instructions = rng.randint(1, 8)
    for index in range(instructions):
        presence = sum(1 << spec.index for spec in FIELDS if rng.random() < 0.2)
        size = sum(spec.size for spec in FIELDS if presence >> spec.index & 1)
        count = 1 + (size + 31) // 32
        if rng.random() < 0.1:
            count = rng.randint(1, CONTROL.range("count").mask)
        body = rng.getrandbits(32 * (count - 1)) if rng.random() < 0.7 and count > 1 else 0
        control = count | presence << 7
        control |= int(index == instructions - 1) << 5 | rng.getrandbits(1) << 6
        if rng.random() < 0.2:
            control |= rng.getrandbits(6) << 26
        words += [control] + [body >> (32 * k) & 0xFFFFFFFF for k in range(count - 1)]
    return words


def text_program(rng: random.Random) -> str:
    """A few of the realistic lines, with labels and branches to them."""
    lines = []
    for n in range(rng.randint(1, 10)):
        if rng.random() < 0.2:
            lines.append(f"L{n}:")
        lines.append(rng.choice(LINES))
        if rng.random() < 0.1 and any(line.endswith(":") for line in lines):
            label = rng.choice([line[:-1] for line in lines if line.endswith(":")])
            lines.append(f"branch_lt $0.x $1.y {label}")
    return "\n".join(lines)


GIANT = 0.002
"""Share of inputs that are giant: thousands of instructions or lines, tokens of 200k characters."""


def giant_words(rng: random.Random) -> list[int]:
    """About 16,000 words of instructions."""
    words: list[int] = []
    while len(words) < 16_000:
        words += stream_words(rng)
    return words


def stream_input(rng: random.Random) -> bytes:
    """A stream after zero to three mutations: bits, words, counts, truncation, splices."""
    words = giant_words(rng) if rng.random() < GIANT else stream_words(rng)
    data = mutate.bytes_of(words)
    for _ in range(rng.randint(0, 3)):
        choice = rng.randrange(6)
        words, tail = mutate.words_of(data)
        if choice == 0:
            data = mutate.flip_bits(data, rng)
        elif choice == 1:
            data = mutate.bytes_of(mutate.set_words(words, rng), tail)
        elif choice == 2 and words:  # count or presence bits of a control word
            at = rng.randrange(len(words))
            words[at] ^= rng.getrandbits(5) if rng.random() < 0.5 else rng.getrandbits(12) << 7
            data = mutate.bytes_of(words, tail)
        elif choice == 3:
            data = mutate.truncate(data, rng)
        elif choice == 4:
            data = mutate.bytes_of(mutate.insert_words(words, rng), tail)
        else:
            data = mutate.splice(data, mutate.bytes_of(stream_words(rng)), rng)
    return data


def _chunk(ident: bytes, body: bytes) -> bytes:
    return ident + struct.pack("<I", len(body)) + body


def _symbol(rng: random.Random, ident: bytes) -> bytes:
    name = rng.choice((b"u_color", b"v_uv", b"", b"x" * rng.randint(1, 300), bytes(rng.getrandbits(8) for _ in range(5))))
    text = name + b"\0" * (4 - len(name) % 4)
    fixed = struct.pack("<BBHHHHBBIHH", 0, rng.randint(0, 10), 4, 4, 1, 4, 4, 3, 0, 0, rng.choice((0, 1, 0xFFFF)))
    return _chunk(ident, _chunk(b"STRI", text) + fixed)


def container(rng: random.Random) -> bytes:
    """An MBS file: a fragment program with its tables and code, sometimes a vertex program."""
    code = mutate.bytes_of(giant_words(rng) if rng.random() < GIANT else stream_words(rng))
    uniforms = [_symbol(rng, b"VUNI") for _ in range(rng.randint(0, 3))]
    varyings = [_symbol(rng, b"VVAR") for _ in range(rng.randint(0, 3))]
    fragment = _chunk(
        b"CFRA",
        struct.pack("<I", rng.choice((5, 7, 0, 99)))
        + _chunk(b"FSTA", struct.pack("<II", 1, 2))
        + _chunk(b"FDIS", struct.pack("<I", rng.randint(0, 1)))
        + _chunk(b"FBUU", bytes(rng.getrandbits(1) for _ in range(8)))
        + _chunk(b"SUNI", struct.pack("<I", len(uniforms)) + b"".join(uniforms))
        + _chunk(b"SVAR", struct.pack("<I", len(varyings)) + b"".join(varyings))
        + _chunk(b"DBIN", code),
    )
    vertex = b""
    if rng.random() < 0.5:
        vertex = _chunk(b"CVER", struct.pack("<I", 6) + _chunk(b"FINS", struct.pack("<III", 0, 1, 0)) + _chunk(b"DBIN", b"\xff" * 16))
    parts = [fragment, vertex] if rng.random() < 0.7 else [vertex, fragment]
    return _chunk(b"MBS1", b"".join(parts))


def _header_spots(data: bytes) -> list[int]:
    return [at for at in range(0, max(0, len(data) - 3)) if data[at : at + 4] in IDENTS]


def mbs_input(rng: random.Random) -> bytes:
    """A container after one to three mutations of chunk sizes, identifiers, nesting or bytes."""
    data = container(rng)
    for _ in range(rng.randint(1, 3)):
        spots = _header_spots(data)
        choice = rng.randrange(7)
        if choice == 0 and spots:  # a chunk size
            at = rng.choice(spots) + 4
            (size,) = struct.unpack_from("<I", data, at) if at + 4 <= len(data) else (0,)
            size = rng.choice((0, 1, 3, 7, 8, size - 1, size + 1, size + 8, 0x7FFFFFFF, 0xFFFFFFFF, rng.getrandbits(32)))
            data = data[:at] + struct.pack("<I", size & 0xFFFFFFFF) + data[at + 4 :]
        elif choice == 1 and spots:  # an identifier
            at = rng.choice(spots)
            data = data[:at] + rng.choice((*IDENTS, b"\0\0\0\0", b"\xff\xfe\xfd\xfc")) + data[at + 4 :]
        elif choice == 2:  # nesting: wrapped in containers, sometimes very deep
            for _ in range(rng.choice((1, 1, 2, 2, 20, 600))):
                data = _chunk(rng.choice((b"MBS1", b"CFRA", b"SUNI", b"VUNI")), data)
        elif choice == 3 and spots:  # a chunk repeated
            at = rng.choice(spots)
            data = data[:at] + data[at : at + rng.randint(8, 64)] + data[at:]
        elif choice == 4:
            data = mutate.truncate(data, rng)
        elif choice == 5:
            data = mutate.flip_bits(data, rng)
        else:
            at = rng.randrange(len(data) + 1)
            data = data[:at] + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 12))) + data[at:]
    return data


def text_input(rng: random.Random) -> str:
    """Realistic lines or what `lima dis` prints for a random stream, after one to four edits."""
    pick = rng.random()
    if pick < GIANT:
        text = rng.choice(("\n".join(text_program(rng) for _ in range(2000)), "load.u 1 " + "9" * 200_000))
    elif pick < 0.5:
        text = text_program(rng)
    else:
        text = "\n".join(lima.listing_lines(lima.decode(stream_input(rng))))
    for _ in range(rng.randint(1, 4)):
        text = mutate.text_edit(text, rng, VOCABULARY)
    return text
