"""Decoded instructions -> the proposed syntax (seed 004), one instruction per line.

Each field prints as `opcode.unit output inputs`. The printed op is read back with the
assembler's own op reader; every range whose value differs from what that text says is
appended as `{name=value}`, so the text always assembles back to the same bits.
"""

from __future__ import annotations

from spvinspect.lima.asm_words import branch_next_count
from spvinspect.lima.decoder import words_needed
from spvinspect.lima.fields import CONTROL
from spvinspect.lima.meanings import (
    COMPONENTS,
    half_text,
    index_text,
    mask_text,
    sign_extend,
    signed_index_text,
)
from spvinspect.lima.model import Field, Instruction, LimaProgram
from spvinspect.lima.ops import op_name, op_sources
from spvinspect.lima.seed_ops import BRANCH_CONDITIONS, OUTMODS, parse_op
from spvinspect.lima.syntax import Token, scalar_source_text, vector_source_text

_OUTMOD_SUFFIX = {value: suffix for suffix, value in OUTMODS.items()}
_SIGNED = {"constant_lod_bias": 9, "target": 27}
_CONTROL_UNKNOWN = tuple(r.name for r in CONTROL.ranges if r.kind == "unknown")
"""Control ranges nobody has named, written as `{name=value}` when set."""


def _vdest(reg: int, mask: int) -> str:
    return f"${reg}" if mask in (0, 0xF) else f"${reg}.{mask_text(mask)}"


def _sdest(reg: int) -> str:
    return f"${reg >> 2}.{COMPONENTS[reg & 3]}"


def _index(alignment: int, index: int, offset: str = "", signed: bool = False) -> str:
    text = signed_index_text(alignment, index) if signed else index_text(alignment, index)
    return text + (f"+{offset}" if offset else "")


def _arg(f: Field, prefix: str, special: str | None = None, vector: bool = True) -> str:
    negate, absolute = f[f"{prefix}_negate"], f[f"{prefix}_absolute"]
    source = f[f"{prefix}_src"] if f.name == "combine" else f[f"{prefix}_source"]
    if vector:
        return vector_source_text(special or source, f[f"{prefix}_swizzle"], negate, absolute)
    return scalar_source_text(special or source, negate, absolute)


def _varying(f: Field) -> str:
    source_type, perspective = f["source_type"], f["perspective"]
    dest = "^discard" if f["dest"] == 15 else f"${f['dest']}"
    if f["mask"] not in (0, 0xF):
        dest += "." + mask_text(f["mask"])
    if f.layout == "register":
        source = vector_source_text(f["source"], f["swizzle"], f["negate"], f["absolute"])
    elif source_type in (0, 2):
        offset = ""
        if f["offset_vector"] != 15:
            offset = scalar_source_text(f["offset_vector"] << 2 | f["offset_scalar"])
        source = _index(f["alignment"], f["index"], offset)
    if source_type == 2:
        op = {0: "load_cube", 1: "load_cube", 2: "normalize"}.get(perspective, "load")
        if perspective == 3:
            source = "gl_FragCoord"
    elif source_type == 3:
        op, source = "load", "gl_FrontFacing" if perspective else "gl_PointCoord"
    else:
        op = {2: "load_persp_z", 3: "load_persp_w"}.get(perspective, "load")
    return f"{op}.v {dest} {source}"


def _sampler(f: Field) -> str:
    offset = scalar_source_text(f["index_offset"]) if f["offset_en"] else ""
    text = ("texld_lod" if f["explicit_lod"] else "texld") + " " + _index(2, f["index"], offset)
    if f["lod_bias_register"]:
        text += " " + scalar_source_text(f["lod_bias"])
    return text


def _uniform(f: Field) -> str:
    offset = scalar_source_text(f["offset_reg"]) if f["offset_en"] else ""
    unit = "t" if f["source"] == 3 else "u"
    return f"load.{unit} " + _index(f["alignment"], f["index"], offset, signed=True)


def _alu(f: Field, unit: str) -> str:
    op = f["op"]
    name = op_name(f.name, op) + _OUTMOD_SUFFIX.get(f["dest_modifier"], "")
    vector = f.name.startswith("vec4")
    if f.name == "vec4_mul":
        dest = _vdest(f["dest"], f["mask"]) if f["mask"] else "^v0"
    elif vector:
        dest = _vdest(f["dest"], f["mask"])
    elif f.name == "float_mul" and not f["output_en"]:
        dest = "^s0"
    else:
        dest = _sdest(f["dest"])
    special = None
    if f.name in ("vec4_acc", "float_acc") and f["mul_in"]:
        special = "^v0" if vector else "^s0"
    args = [_arg(f, "arg0", special, vector)]
    if op_sources(f.name, op) > 1:
        args.append(_arg(f, "arg1", None, vector))
    return f"{name}.{unit} {dest} " + " ".join(args)


def _combine(f: Field) -> str:
    if f.layout == "scalar_vec_mul":
        arg1 = vector_source_text(f["arg1_source"], f["arg1_swizzle"], 0, 0)
        return f"mul.s2 {_vdest(f['dest'], f['mask'])} {_arg(f, 'arg0', vector=False)} {arg1}"
    outmod = _OUTMOD_SUFFIX.get(f["dest_modifier"], "") if f.layout != "vector_dest" else ""
    if f.layout == "atan_pt2":
        arg1 = vector_source_text(f["arg1_source"], f["arg1_swizzle"], 0, 0)
        return f"atan_pt2{outmod}.s2 {_sdest(f['dest'])} {arg1}"
    name = op_name("combine", f["op"])
    if f.layout == "vector_dest":
        head = f"{name}_vec.s2 {_vdest(f['dest'], f['mask'])}"
    else:
        head = f"{name}{outmod}.s2 {_sdest(f['dest'])}"
    args = [_arg(f, "arg0", vector=False)]
    if op_sources("combine", f["op"]) > 1:
        args.append(_arg(f, "arg1", vector=False))
    return head + " " + " ".join(args)


def _temp_write(f: Field) -> str:
    if f.layout == "fb_read":
        return ("fb_color" if f["source"] else "fb_depth") + f" ${f['dest']}"
    offset = scalar_source_text(f["offset_reg"]) if f["offset_en"] else ""
    source = f["source"]
    if f["alignment"] and source & 3 == 0:
        text = vector_source_text(source >> 2, 0xE4, 0, 0)
    else:
        text = scalar_source_text(source)
    return f"store.t {_index(f['alignment'], f['index'], offset, signed=True)} {text}"


def _branch(f: Field, target: str) -> str:
    if f.layout == "discard":
        return "discard"
    condition = f["cond_lt"] | f["cond_eq"] << 1 | f["cond_gt"] << 2
    if condition == 7:
        return f"branch {target}"
    arg0, arg1 = scalar_source_text(f["arg0_source"]), scalar_source_text(f["arg1_source"])
    return f"branch_{BRANCH_CONDITIONS[condition]} {arg0} {arg1} {target}"


def _const(f: Field) -> str:
    number = 0 if f.name == "vec4_const_0" else 1
    return f"const{number} " + " ".join(half_text(f[c]) for c in "xyzw")


_ALU_UNITS = {"vec4_mul": "v0", "float_mul": "s0", "vec4_acc": "v1", "float_acc": "s1"}


def _op_text(f: Field, target: str) -> str:
    if f.name in _ALU_UNITS:
        return _alu(f, _ALU_UNITS[f.name])
    printers = {
        "varying": _varying,
        "sampler": _sampler,
        "uniform": _uniform,
        "combine": _combine,
        "temp_write": _temp_write,
        "vec4_const_0": _const,
        "vec4_const_1": _const,
    }
    if f.name == "branch":
        return _branch(f, target)
    return printers[f.name](f)


def _override(name: str, value: int) -> str:
    if name in _SIGNED:
        return f"{{{name}={sign_extend(value, _SIGNED[name])}}}"
    return f"{{{name}={value if value < 10 else hex(value)}}}"


def op_line(f: Field, offset: int, labels: dict[int, str], starts: dict[int, int]) -> str:
    """One field as an op of the proposed syntax, with `{name=value}` for what the text misses."""
    absolute = offset + sign_extend(f["target"], 27) if f.layout == "branch" else 0
    relative = sign_extend(f["target"], 27) if f.layout == "branch" else 0
    text = _op_text(f, labels.get(absolute, f"{relative:+d}"))
    head, *operands = text.split()
    implied = parse_op(Token(head, 1), [Token(t, 1) for t in operands]).values
    if f.layout == "branch":
        implied.update(target=f["target"], next_count=branch_next_count(absolute, starts))
    extra = [_override(name, value) for name, value in f.values().items() if value != implied[name]]
    return " ".join([text, *extra])


def instruction_line(
    instruction: Instruction, next_count: int, labels: dict[int, str], starts: dict[int, int]
) -> str:
    """One instruction in the proposed syntax; `next_count` is the count of the next one."""
    items = []
    presence = instruction.control_value("fields")
    if instruction.count != words_needed(presence):
        items.append(f"count {instruction.count}")
    items += [name for name in ("stop", "sync") if instruction.control_value(name)]
    items += [op_line(f, instruction.word_offset, labels, starts) for f in instruction.fields]
    if instruction.control_value("next_count") != next_count:
        items.append(f"next_count {instruction.control_value('next_count')}")
    if instruction.control_value("prefetch") != int(next_count != 0):
        items.append(f"prefetch {instruction.control_value('prefetch')}")
    items += [_override(name, value) for name in _CONTROL_UNKNOWN if (value := instruction.control_value(name))]
    padding = instruction.padding
    if padding and padding.value:
        items.append(_override(padding.name, padding.value))
    return ", ".join(items) or "nop"


def branch_labels(program: LimaProgram) -> dict[int, str]:
    """Word offset -> label name, for every branch target that starts an instruction."""
    starts = {instr.word_offset for instr in program.instructions}
    labels = {}
    for instr in program.instructions:
        for f in instr.fields:
            if f.layout == "branch":
                target = instr.word_offset + sign_extend(f["target"], 27)
                if target in starts:
                    labels[target] = f"L{target}"
    return labels


def seed_lines(program: LimaProgram) -> list[str]:
    """The program in the proposed syntax: labels on their own lines, one line per instruction."""
    labels = branch_labels(program)
    starts = {instr.word_offset: len(instr.words) for instr in program.instructions}
    lines = []
    instructions = program.instructions
    for i, instr in enumerate(instructions):
        if instr.word_offset in labels:
            lines.append(f"{labels[instr.word_offset]}:")
        next_count = len(instructions[i + 1].words) if i + 1 < len(instructions) else 0
        lines.append(instruction_line(instr, next_count, labels, starts))
    return lines

