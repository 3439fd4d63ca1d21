"""Meanings of ranges that depend on the rest of their field (or on the program).

`lima.meanings` reads one range's value alone; here a range is read as Mesa main's
disassembler reads it in context: `perspective` under a special `source_type`, signed
16-bit indices, a whole register stored by an aligned temporary write, `^v0`/`^s0` when
`mul_in` is set, a mask of 0 that writes nothing, the sampler bits that older Mesa reads
as a texture type, and a branch's target instruction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from spvinspect.lima.meanings import COMPONENTS, sign_extend, signed_index_text, sreg_name, vreg_name

if TYPE_CHECKING:
    from spvinspect.lima.model import Field

SPECIAL_PERSPECTIVE = {
    (2, 0): "cube coordinate from the varying index: cube(index)",
    (2, 1): "cube coordinate from a register: cube($r) (texcube_reflect)",
    (2, 2): "normalize a register: normalize($r)",
    (2, 3): "selects gl_FragCoord (fragcoord)",
    (3, 0): "selects gl_PointCoord (pointcoord)",
    (3, 1): "selects gl_FrontFacing (frontfacing)",
    (3, 2): "selects gl_FrontFacing (frontfacing; any non-zero value)",
    (3, 3): "selects gl_FrontFacing (frontfacing; any non-zero value)",
}
"""(source_type, perspective) -> what the special varying loads (Mesa's print_varying)."""

OLD_SAMPLER_TYPES = {0: "2D (generic)", 0x1F: "cube"}
"""Sampler bits 24-28 as Mesa up to 22.x names them (`ppir_codegen_sampler_type`)."""

Targets = Callable[[int], str]
"""Word offset of a branch target -> what starts there (`instruction 5 (L12)`)."""

_NOTHING = "nothing written"


def _varying(f: Field) -> dict[str, str]:
    found = {}
    special = SPECIAL_PERSPECTIVE.get((f["source_type"], f["perspective"]))
    if f["source_type"] >= 2 and special:
        found["perspective"] = special
    if f["mask"] == 0:
        found["mask"] = f"none: {_NOTHING}"
        found["dest"] = f"{_NOTHING} (mask 0)"
    return found


def _index(f: Field) -> dict[str, str]:
    text = signed_index_text(f["alignment"], f["index"])
    value = sign_extend(f["index"], 16)
    return {"index": text if text == str(value) else f"{value}: element {text}"}


def _uniform(f: Field) -> dict[str, str]:
    return _index(f)


def _temp_write(f: Field) -> dict[str, str]:
    if f.layout != "store":
        return {}
    found = _index(f)
    if f["alignment"]:
        low = f["source"] & 3
        note = "" if low == 0 else f" (component bits {low}: {COMPONENTS[low]}, not read)"
        found["source"] = f"{vreg_name(f['source'] >> 2)} (the whole register){note}"
    return found


def _vector_alu(f: Field) -> dict[str, str]:
    found = {}
    if f["mask"] == 0:
        passed = " (the result is only passed on as ^v0)" if f.name == "vec4_mul" else ""
        found["mask"] = f"none: {_NOTHING}"
        found["dest"] = f"{_NOTHING} (mask 0){passed}"
    if f.name == "vec4_acc" and f["mul_in"]:
        found["arg0_source"] = f"^v0: the multiplier's result (mul_in); register field {vreg_name(f['arg0_source'])} unused"
    return found


def _scalar_alu(f: Field) -> dict[str, str]:
    found = {}
    if not f["output_en"]:
        passed = " (the result is only passed on as ^s0)" if f.name == "float_mul" else ""
        found["dest"] = f"{_NOTHING} (output_en 0){passed}"
    if f.name == "float_acc" and f["mul_in"]:
        found["arg0_source"] = f"^s0: the multiplier's result (mul_in); register field {sreg_name(f['arg0_source'])} unused"
    return found


def _combine(f: Field) -> dict[str, str]:
    if f.layout in ("vector_dest", "scalar_vec_mul") and f["mask"] == 0:
        return {"mask": f"none: {_NOTHING}", "dest": f"{_NOTHING} (mask 0)"}
    return {}


def sampler_bias_text(value: int) -> str:
    """Bits 20-28 in both readings: Mesa main's constant LOD bias (in 1/16), and the
    texture type that Mesa up to 22.x reads in bits 24-28."""
    bias = sign_extend(value, 9)
    kind = value >> 4
    old = OLD_SAMPLER_TYPES.get(kind, f"type {kind}")
    low = f", bits 20-23 = {value & 0xF}" if value & 0xF else ""
    return f"{bias} = LOD bias {bias / 16:g} (Mesa main) · {old} (Mesa ≤ 22: bits 24-28 = 0x{kind:x}{low})"


def _sampler(f: Field) -> dict[str, str]:
    return {"constant_lod_bias": sampler_bias_text(f["constant_lod_bias"])}


def _branch(f: Field, word_offset: int, targets: Targets | None) -> dict[str, str]:
    if f.layout != "branch":
        return {}
    relative = sign_extend(f["target"], 27)
    target = word_offset + relative
    where = targets(target) if targets else ""
    return {"target": f"{relative:+d} words → word {target}" + (f": {where}" if where else "")}


_BY_FIELD = {
    "varying": _varying,
    "uniform": _uniform,
    "temp_write": _temp_write,
    "vec4_mul": _vector_alu,
    "vec4_acc": _vector_alu,
    "float_mul": _scalar_alu,
    "float_acc": _scalar_alu,
    "combine": _combine,
    "sampler": _sampler,
}


def field_meanings(f: Field, word_offset: int, targets: Targets | None = None) -> dict[str, str]:
    """Range name -> meaning, for the ranges of `f` whose meaning its other ranges (or the
    program) decide; `word_offset` is where the field's instruction starts."""
    if f.name == "branch":
        return _branch(f, word_offset, targets)
    read = _BY_FIELD.get(f.name)
    return read(f) if read else {}
