"""What a range's value means, as the breakdown shows it: register, op, swizzle text."""

from __future__ import annotations

import math
import struct

from spvinspect.lima.fields import FIELDS
from spvinspect.lima.ops import MUL_SHIFTS, op_name
from spvinspect.codec.plural import counted

COMPONENTS = "xyzw"

PIPELINE_REGISTERS = {12: "^const0", 13: "^const1", 14: "^texture", 15: "^uniform"}
"""vec4 source registers above the general ones, in their canonical spelling."""


def vreg_name(reg: int) -> str:
    """A vec4 source register: `$3`, `^const0`, `^texture`…"""
    return PIPELINE_REGISTERS.get(reg, f"${reg}")


def sreg_name(reg: int) -> str:
    """A scalar register (`reg << 2 | component`): `$3.y`, `^const1.w`."""
    return f"{vreg_name(reg >> 2)}.{COMPONENTS[reg & 3]}"


def swizzle_text(swizzle: int) -> str:
    """Four component letters, x in the lowest bits: 0xE4 is `xyzw`."""
    return "".join(COMPONENTS[(swizzle >> (2 * i)) & 3] for i in range(4))


def mask_text(mask: int) -> str:
    """The written components in order: `xz`; empty for no write."""
    return "".join(c for i, c in enumerate(COMPONENTS) if mask & (1 << i))


def index_text(alignment: int, index: int) -> str:
    """An unsigned load/store index: `N.c` (scalar), `N.xy` / `N.zw` (vec2), `N` (vec4)."""
    if alignment == 0:
        return f"{index >> 2}.{COMPONENTS[index & 3]}"
    if alignment == 1:
        return f"{index >> 1}.{'zw' if index & 1 else 'xy'}"
    return str(index)


def signed_index_text(alignment: int, index: int) -> str:
    """A 16-bit uniform/temporary index read as signed, as Mesa declares it: `-1`,
    `-1.w` (element -1 component w: index -1 is -4 + 3), `-1.zw`."""
    value = sign_extend(index, 16)
    if alignment == 0:
        return f"{value >> 2}.{COMPONENTS[value & 3]}"
    if alignment == 1:
        return f"{value >> 1}.{'zw' if value & 1 else 'xy'}"
    return str(value)


def half_to_float(bits: int) -> float:
    """The IEEE-754 half float with these 16 bits."""
    return struct.unpack("<e", struct.pack("<H", bits & 0xFFFF))[0]


def half_text(bits: int) -> str:
    """The shortest decimal that reads back as the same half; `0x7e01` for NaNs."""
    value = half_to_float(bits)
    if math.isnan(value):
        return f"0x{bits:04x}"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    for digits in range(1, 18):
        text = f"{value:.{digits}g}"
        if abs(float(text)) <= 65504 and struct.pack("<e", float(text)) == struct.pack("<H", bits):
            break
    if not any(c in text for c in ".en"):
        text += ".0"
    return text


def sign_extend(value: int, width: int) -> int:
    """`value` read as a `width`-bit two's-complement number."""
    return value - (1 << width) if value & (1 << (width - 1)) else value


_OUTMODS = ("none", "sat: clamp to [0, 1]", "pos: clamp to >= 0", "int: round to integer")
_ALIGNMENTS = ("scalar", "vec2", "vec4", "vec4")
_SOURCE_TYPES = ("varying index", "register", "cube / normalize / gl_FragCoord", "gl_PointCoord / gl_FrontFacing")
_PERSPECTIVE = ("none", "unknown", "divide by z", "divide by w")


def _presence(value: int) -> str:
    names = [spec.name for spec in FIELDS if value & (1 << spec.index)]
    return ", ".join(names) if names else "no fields"


def _op(kind: str, value: int) -> str:
    unit = kind.split(":", 1)[1]
    name = op_name(unit, value)
    if name.startswith("mul_"):
        return f"{name}: multiply, result shifted ({MUL_SHIFTS[value]})"
    return name


_MEANINGS = {
    "uint": str,
    "bool": lambda v: "yes" if v else "no",
    "unknown": lambda v: "unknown" if v == 0 else f"unknown, non-zero: 0x{v:x}",
    "padding": lambda v: "padding" if v == 0 else f"padding, non-zero: 0x{v:x}",
    "words": lambda v: counted(v, "word"),
    "presence": _presence,
    "vreg": vreg_name,
    "vdest": lambda v: f"${v}",
    "varying_dest": lambda v: "^discard (no register write)" if v == 15 else f"${v}",
    "sreg": sreg_name,
    "sdest": lambda v: f"${v >> 2}.{COMPONENTS[v & 3]}",
    "component": lambda v: COMPONENTS[v],
    "swizzle": swizzle_text,
    "mask": lambda v: mask_text(v) or "none",
    "outmod": lambda v: _OUTMODS[v],
    "alignment": lambda v: _ALIGNMENTS[v],
    "source_type": lambda v: _SOURCE_TYPES[v],
    "perspective": lambda v: _PERSPECTIVE[v],
    "offset_vector": lambda v: "no offset" if v == 15 else f"offset register ${v}",
    "uniform_source": lambda v: {0: "uniform", 3: "temporary"}.get(v, f"unknown source {v}"),
    "temp_dest": lambda v: "temporary" if v == 3 else f"unknown destination {v}",
    "fb_source": lambda v: "color" if v else "depth",
    "fb_selector": lambda v: "framebuffer read" if v == 7 else str(v),
    "lod_bias": lambda v: f"{sign_extend(v, 9) / 16:g} (in 1/16)",
    "target": lambda v: f"{sign_extend(v, 27):+d} words",
    "discard_word": lambda v: f"0x{v:x}",
    "half": lambda v: half_text(v),
}


def meaning(kind: str, value: int) -> str:
    """The text the breakdown shows for `value` of a range of this kind."""
    if kind.startswith("op:"):
        return _op(kind, value)
    return _MEANINGS[kind](value)
