"""The line Mesa's lima disassembler (`ppir_disassemble_instr`) prints, byte for byte.

Each function follows the printing function of the same field in Mesa's `disasm.c`,
spaces included (several end with a space that Mesa leaves before the next comma).
Where Mesa indexes past an op table (combine ops 10-15) we print `opN`, as Mesa does for
the gaps inside its tables.
"""

from __future__ import annotations

import math

from spvinspect.lima.meanings import (
    COMPONENTS,
    PIPELINE_REGISTERS,
    half_to_float,
    index_text,
    mask_text,
    sign_extend,
    swizzle_text,
)
from spvinspect.lima.model import Field, Instruction
from spvinspect.lima.ops import mesa_op
from spvinspect.lima.seed_ops import BRANCH_CONDITIONS
from spvinspect.lima.syntax import IDENTITY_SWIZZLE

_OUTMOD = ("", ".sat", ".pos", ".int")


def _swizzle(swizzle: int) -> str:
    return "" if swizzle == IDENTITY_SWIZZLE else "." + swizzle_text(swizzle)


def _mask(mask: int) -> str:
    return "" if mask == 0xF else "." + mask_text(mask)


def _reg(reg: int, special: str | None = None) -> str:
    return special or PIPELINE_REGISTERS.get(reg, f"${reg}")


def _vector(reg: int, swizzle: int, absolute: int, negate: int, special: str | None = None) -> str:
    text = _reg(reg, special) + _swizzle(swizzle)
    return ("-" if negate else "") + (f"abs({text})" if absolute else text)


def _scalar(reg: int, absolute: int = 0, negate: int = 0, special: str | None = None) -> str:
    text = _reg(reg >> 2, special) + ("" if special else "." + COMPONENTS[reg & 3])
    return ("-" if negate else "") + (f"abs({text})" if absolute else text)


def _dest_scalar(reg: int) -> str:
    return f"${reg >> 2}.{COMPONENTS[reg & 3]} "


def _c_div(a: int, b: int) -> int:
    return -(-a // b) if a < 0 else a // b


def _index(alignment: int, raw_index: int) -> str:
    index = sign_extend(raw_index, 16)
    if alignment == 2:
        return f" {index}"
    if alignment == 1:
        return f" {_c_div(index, 2)}.{'zw' if index & 1 else 'xy'}"
    return f" {_c_div(index, 4)}.{COMPONENTS[index & 3]}"


def _varying_source(f: Field) -> str:
    text = index_text(f["alignment"], f["index"])
    if f["offset_vector"] != 15:
        text += "+" + _scalar((f["offset_vector"] << 2) + f["offset_scalar"])
    return text


def _varying(f: Field, offset: int) -> str:
    imm = f.values("index")
    reg = f.values("register")
    source_type, perspective = imm["source_type"], imm["perspective"]
    text = "load"
    if source_type < 2 and perspective:
        text += ".perspective" + {2: ".z", 3: ".w"}.get(perspective, ".unknown")
    text += ".v "
    text += "^discard" if imm["dest"] == 15 else f"${imm['dest']}"
    text += _mask(imm["mask"]) + " "
    register = _vector(reg["source"], reg["swizzle"], reg["absolute"], reg["negate"])
    if source_type == 1:
        return text + register
    if source_type == 2:
        if perspective == 0:
            return text + f"cube({_varying_source(f)})"
        if perspective == 1:
            return text + f"cube({register})"
        if perspective == 2:
            return text + f"normalize({register})"
        return text + "gl_FragCoord"
    if source_type == 3:
        return text + ("gl_FrontFacing" if perspective else "gl_PointCoord")
    return text + _varying_source(f)


def _sampler(f: Field, offset: int) -> str:
    text = "texld" + (".b" if f["lod_bias_register"] else "")
    text += f" bias{f['constant_lod_bias'] & 0x1FF:03x} {f['index']}"
    if f["offset_en"]:
        text += "+" + _scalar(f["index_offset"])
    if f["lod_bias_register"]:
        text += " " + _scalar(f["lod_bias"])
    return text


def _uniform(f: Field, offset: int) -> str:
    source = f["source"]
    text = "load." + {0: "u", 3: "t"}.get(source, f".u{source}")
    text += _index(f["alignment"], f["index"])
    if f["offset_en"]:
        text += "+" + _scalar(f["offset_reg"])
    return text


def _op_name(unit: str, value: int) -> tuple[str, int]:
    op = mesa_op(unit, value)
    return (op.name, op.sources) if op else (f"op{value}", 0)


def _vec4_mul(f: Field, offset: int) -> str:
    name, sources = _op_name("vec4_mul", f["op"])
    text = name + _OUTMOD[f["dest_modifier"]] + ".v0 "
    if f["mask"]:
        text += f"${f['dest']}" + _mask(f["mask"]) + " "
    text += _vector(f["arg0_source"], f["arg0_swizzle"], f["arg0_absolute"], f["arg0_negate"])
    if 0 < f["op"] < 8:
        text += f"<<{f['op']}"
    text += " "
    if sources > 1:
        text += _vector(f["arg1_source"], f["arg1_swizzle"], f["arg1_absolute"], f["arg1_negate"])
    return text


def _float_mul(f: Field, offset: int) -> str:
    name, sources = _op_name("float_mul", f["op"])
    text = name + _OUTMOD[f["dest_modifier"]] + ".s0 "
    if f["output_en"]:
        text += _dest_scalar(f["dest"])
    text += _scalar(f["arg0_source"], f["arg0_absolute"], f["arg0_negate"])
    if 0 < f["op"] < 8:
        text += f"<<{f['op']}"
    if sources > 1:
        text += " " + _scalar(f["arg1_source"], f["arg1_absolute"], f["arg1_negate"])
    return text


def _accumulate(f: Field, offset: int) -> str:
    """print_vec4_acc and print_float_acc: arg0 may be the multiplier's result."""
    vector = f.name == "vec4_acc"
    name, sources = _op_name(f.name, f["op"])
    text = name + _OUTMOD[f["dest_modifier"]] + (".v1 " if vector else ".s1 ")
    if vector and f["mask"]:
        text += f"${f['dest']}" + _mask(f["mask"]) + " "
    elif not vector and f["output_en"]:
        text += _dest_scalar(f["dest"])

    def arg(prefix: str, special: str | None = None) -> str:
        modifiers = (f[f"{prefix}_absolute"], f[f"{prefix}_negate"])
        if vector:
            return _vector(f[f"{prefix}_source"], f[f"{prefix}_swizzle"], *modifiers, special)
        return _scalar(f[f"{prefix}_source"], *modifiers, special)

    text += arg("arg0", ("^v0" if vector else "^s0") if f["mul_in"] else None)
    if sources > 1:
        text += " " + arg("arg1")
    return text


def _combine(f: Field, offset: int) -> str:
    if f.layout == "scalar_vec_mul":
        return (
            f"mul.s2 ${f['dest']}{_mask(f['mask'])} "
            + _scalar(f["arg0_src"], f["arg0_absolute"], f["arg0_negate"])
            + " "
            + _vector(f["arg1_source"], f["arg1_swizzle"], 0, 0)
        )
    if f.layout == "atan_pt2":
        return (
            "atan_pt2.s2 "
            + _OUTMOD[f["dest_modifier"]]
            + _dest_scalar(f["dest"])
            + _vector(f["arg1_source"], f["arg1_swizzle"], 0, 0)
        )
    name, sources = _op_name("combine", f["op"])
    if f.layout == "scalar":
        text = name + _OUTMOD[f["dest_modifier"]] + ".s2 " + _dest_scalar(f["dest"])
    else:
        text = name + f".s2 ${f['dest']}{_mask(f['mask'])} "
    text += _scalar(f["arg0_src"], f["arg0_absolute"], f["arg0_negate"])
    if sources > 1:
        text += " " + _scalar(f["arg1_src"], f["arg1_absolute"], f["arg1_negate"])
    return text


def _temp_write(f: Field, offset: int) -> str:
    if f.layout == "fb_read":
        return ("fb_color" if f["source"] else "fb_depth") + f" ${f['dest']}"
    text = "store.t" + _index(f["alignment"], f["index"])
    if f["offset_en"]:
        text += "+" + _scalar(f["offset_reg"])
    text += " "
    if f["alignment"]:
        return text + _reg(f["source"] >> 2)
    return text + _scalar(f["source"])


def _branch(f: Field, offset: int) -> str:
    if f.layout == "discard":
        return "discard"
    condition = f["cond_lt"] | f["cond_eq"] << 1 | f["cond_gt"] << 2
    text = "branch"
    if condition != 7:
        text += f".{BRANCH_CONDITIONS[condition]} " + _scalar(f["arg0_source"]) + " " + _scalar(f["arg1_source"])
    return text + f" {sign_extend(f['target'], 27) + offset}"


def _c_float(bits: int) -> str:
    value = half_to_float(bits)
    if math.isnan(value):
        return "-nan" if bits & 0x8000 else "nan"
    if math.isinf(value):
        return "-inf" if value < 0 else "inf"
    return f"{value:f}"


def _const(f: Field, offset: int) -> str:
    number = 0 if f.name == "vec4_const_0" else 1
    return f"const{number}" + "".join(" " + _c_float(f[c]) for c in "xyzw")


_PRINTERS = {
    "varying": _varying,
    "sampler": _sampler,
    "uniform": _uniform,
    "vec4_mul": _vec4_mul,
    "float_mul": _float_mul,
    "vec4_acc": _accumulate,
    "float_acc": _accumulate,
    "combine": _combine,
    "temp_write": _temp_write,
    "branch": _branch,
    "vec4_const_0": _const,
    "vec4_const_1": _const,
}


def mesa_line(instruction: Instruction) -> str:
    """What `ppir_disassemble_instr` prints for this instruction, without the newline."""
    text = ", ".join(_PRINTERS[f.name](f, instruction.word_offset) for f in instruction.fields)
    if instruction.sync:
        text += ", sync"
    if instruction.stop:
        text += ", stop"
    return text
