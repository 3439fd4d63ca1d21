"""The bundled example: a small MBS fragment program with symbol names, a texture and a
discard, and inputs that make it draw something, so a viewer can run it the moment it opens.

In GLSL it would read:

    uniform vec4 u_tint; uniform sampler2D s_tex; varying vec2 v_uv;
    void main() {
        vec4 c = texture2D(s_tex, v_uv * 4.0) * u_tint;
        vec2 d = v_uv - 0.5; float r = dot(d, d);
        if (r > 0.25) discard;
        gl_FragColor = vec4(c.rgb * (1.0 - 2.0 * r), 1.0);
    }

The MBS file is built here from the assembly and the symbol chunks (no binary is kept).
"""

from __future__ import annotations

import struct

from spvinspect import lima

ASSEMBLY = """\
load.v $1.xy 0.xy, mul.v0 $2.xy $1.xyyy ^const0.xxxx, const0 4.0 0.0 0.0 0.0
sync, load.v ^discard $2.xyxx {mask=0}, texld 0, load.u 0, mul.v0 $3 ^texture ^uniform
add.v1 $1.xy $1.xyyy ^const0.xxxx, const0 -0.5 0.0 0.0 0.0
mul.v0 $4.xy $1.xyyy $1.xyyy
add.s1 $4.x $4.x $4.y
branch_gt $4.x ^const0.x L1, const0 0.25 0.0 0.0 0.0
mul.s0 ^s0 $4.x ^const0.x, add.s1 $4.y ^s0 ^const0.y, const0 -2.0 1.0 0.0 0.0
stop, mul.v0 $0.xyz $3.xyzz $4.yyyy, mov.s1 $0.w ^const0.x, const0 1.0 0.0 0.0 0.0
L1:
stop, discard
"""

_CHECKER = [
    value
    for row in range(4)
    for column in range(4)
    for value in ((1.0, 0.85, 0.3, 1.0) if (row + column) % 2 else (0.2, 0.45, 0.9, 1.0))
]

INPUTS = {
    "varyings": {"v_uv": {"bottom_left": [0.0, 0.0], "bottom_right": [1.0, 0.0], "top_left": [0.0, 1.0]}},
    "uniforms": {"u_tint": [1.0, 0.9, 0.8, 1.0]},
    "textures": {"0": {"width": 4, "height": 4, "rgba": _CHECKER, "filter": "nearest", "wrap": "repeat"}},
}
"""Inputs in the JSON shape of `lima run --inputs`, keyed by the example's symbol names."""


def _chunk(ident: bytes, body: bytes) -> bytes:
    return ident + struct.pack("<I", len(body)) + body


def _symbol(ident: bytes, name: str, components: int, offset: int) -> bytes:
    # The fixed values after the name, as the MBS page of the limadriver project lays them
    # out: unknown, type, component count and size, entries, strides, precision,
    # invariant, offset (in components), index.
    text = name.encode() + b"\0"
    text += b"\0" * (-len(text) % 4)
    fixed = struct.pack("<BBHHHHBBIHH", 0, 1, components, 4, 1, 4, 4, 2, 0, offset, 0xFFFF)
    return _chunk(ident, _chunk(b"STRI", text) + fixed)


def example_words() -> list[int]:
    """The example's instruction words."""
    words, diagnostics = lima.assemble(ASSEMBLY)
    if words is None:
        raise AssertionError(f"the bundled example does not assemble: {[d.message for d in diagnostics]}")
    return words


def example_mbs() -> bytes:
    """The example as an MBS file: one Mali-400 fragment program with its symbols."""
    code = struct.pack(f"<{len(example_words())}I", *example_words())
    fragment = _chunk(
        b"CFRA",
        struct.pack("<I", 7)
        + _chunk(b"FSTA", struct.pack("<II", 1, 1))
        + _chunk(b"FDIS", struct.pack("<I", 1))
        + _chunk(b"FBUU", bytes(8))
        + _chunk(b"SUNI", struct.pack("<I", 1) + _symbol(b"VUNI", "u_tint", 4, 0))
        + _chunk(b"SVAR", struct.pack("<I", 1) + _symbol(b"VVAR", "v_uv", 2, 0))
        + _chunk(b"DBIN", code),
    )
    return _chunk(b"MBS1", fragment)
