"""One op of the proposed syntax -> the field it fills, its layout and its range values.

`parse_op` is the single reading of an op: the assembler uses it, and the seed
disassembler runs it on what it prints to find the bits its text does not carry.
"""

from __future__ import annotations

import math
import re
import struct
from dataclasses import dataclass
from functools import cache, lru_cache

from spvinspect.lima.fields import (
    DISCARD_WORDS,
    FB_READ_SELECTOR,
    FIELDS,
    SAMPLER_UNKNOWN_DEFAULT,
    FieldSpec,
)
from spvinspect.lima.meanings import COMPONENTS
from spvinspect.lima.numbers import NumberError, parse_integer, parse_real, shown
from spvinspect.lima.ops import op_sources, op_value
from spvinspect.lima.syntax import (
    AsmError,
    Source,
    Token,
    by_text,
    is_register,
    looks_like_dest,
    parse_int,
    parse_plain_scalar,
    parse_scalar_dest,
    parse_scalar_source,
    parse_vector_dest,
    parse_vector_source,
    register_number,
    scalar_index,
)
from spvinspect.codec.plural import counted

OUTMODS = {"_sat": 1, "_pos": 2, "_int": 3}
"""Instruction modifiers and their output-modifier values."""

BRANCH_CONDITIONS = ("nv", "lt", "eq", "le", "gt", "ne", "ge", "")
"""Condition suffix by `lt | eq << 1 | gt << 2`; all three set is unconditional."""

SPECIAL_INPUTS = {
    "gl_FragCoord": {"source_type": 2, "perspective": 3},
    "gl_PointCoord": {"source_type": 3, "perspective": 0},
    "gl_FrontFacing": {"source_type": 3, "perspective": 1},
}
VARYING_OPS = {"load": 0, "load_persp_z": 2, "load_persp_w": 3}
"""Varying loads and the perspective divide they ask for."""

_UNITS = {"v0": "vec4_mul", "s0": "float_mul", "v1": "vec4_acc", "s1": "float_acc", "s2": "combine"}
_HALF_MAX = 65504.0


class DestinationLast(AsmError):
    """The destination was written last, as the proposal's examples do."""

    def __init__(self, message: str, column: int, reordered: list[Token]) -> None:
        super().__init__(message, column)
        self.reordered = reordered


@dataclass
class ParsedOp:
    """What one op sets: a field, the layout it is read with, and range values."""

    field: FieldSpec
    layout: str
    values: dict[str, int]
    label: Token | None = None
    """Branch target still to resolve into a relative word count."""


_FIELDS_BY_NAME = {spec.name: spec for spec in FIELDS}


def field_by_name(name: str) -> FieldSpec:
    """The field spec called `name`."""
    return _FIELDS_BY_NAME[name]


def defaults(spec: FieldSpec, layout: str) -> dict[str, int]:
    """Every range of the layout at the value it takes when the text says nothing of it."""
    return dict(_defaults(spec.name, layout))


@cache
def _defaults(name: str, layout: str) -> dict[str, int]:
    spec = _FIELDS_BY_NAME[name]
    values = {r.name: 0 for r in spec.layout(layout).ranges}
    if spec.name == "sampler":
        values["unknown_42"] = SAMPLER_UNKNOWN_DEFAULT
    if spec.name == "varying" and layout == "index":
        values["offset_vector"] = 15
    if spec.name == "temp_write":
        values.update({"dest": 3} if layout == "store" else {"selector": FB_READ_SELECTOR})
    if spec.name == "branch" and layout == "discard":
        values.update(DISCARD_WORDS)
    return values


def _expect(op: Token, operands: list[Token], count: int, what: str) -> None:
    if len(operands) != count:
        raise op.fail(f"{op.text} takes {what} ({counted(count, 'operand')}), found {len(operands)}")


def _check_width(token: Token, value: int, bits: int, what: str) -> int:
    if not 0 <= value < (1 << bits):
        raise token.fail(f"{what} {value} does not fit in {bits} bits (0-{(1 << bits) - 1})")
    return value


@cache
def _split_outmod(name: str) -> tuple[str, int]:
    for suffix, value in OUTMODS.items():
        if name.endswith(suffix):
            return name[: -len(suffix)], value
    return name, 0


@by_text
def _index(token: Token, plain_alignment: int, bits: int, signed: bool = False) -> tuple[int, int, int | None]:
    """`N`, `N.xy`/`N.zw`, `N.x`…, optionally `+$r.c` -> (alignment, index, offset).
    A `signed` index (uniforms, temporaries) may also be negative: `-1`, `-1.w`."""
    match = re.fullmatch(r"([^.+]*)(?:\.(xy|zw|[xyzw]))?(?:\+(.+))?", token.text)
    if not match:
        raise token.fail(f"expected an index such as 3, 3.xy or 3.z, found {shown(token.text)}")
    if signed:
        try:
            number = parse_integer(match.group(1), "an index", bits, either=True)
        except NumberError as problem:
            raise token.fail(str(problem)) from None
        number -= (1 << bits) if match.group(1).startswith("-") else 0
    else:
        number = parse_int(Token(match.group(1), token.column), "an index", bits)
    suffix = match.group(2)
    if suffix is None:
        alignment, index = plain_alignment, number
    elif len(suffix) == 2:
        alignment, index = 1, number * 2 + (suffix == "zw")
    else:
        alignment, index = 0, number * 4 + COMPONENTS.index(suffix)
    if signed and -(1 << (bits - 1)) <= index < 0:
        index &= (1 << bits) - 1
    _check_width(token, index, bits, "index")
    offset = None
    if match.group(3):
        offset = parse_plain_scalar(Token(match.group(3), token.column + match.start(3)))
    return alignment, index, offset


_SOURCE_RANGES = {
    prefix: tuple(f"{prefix}_{name}" for name in ("negate", "absolute", "source", "swizzle"))
    for prefix in ("arg0", "arg1")
}
"""Range names of each source's negate, absolute, register and swizzle."""


def _source_values(prefix: str, source: Source, scalar: bool) -> dict[str, int]:
    negate, absolute, register, swizzle = _SOURCE_RANGES[prefix]
    values = {negate: int(source.negate), absolute: int(source.absolute)}
    if scalar:
        values[register] = 0 if isinstance(source.register, str) else scalar_index(source)
    else:
        values[register] = 0 if isinstance(source.register, str) else int(source.register)
        values[swizzle] = source.swizzle
    return values


def _varying(op: Token, base: str, operands: list[Token]) -> ParsedOp:
    spec = field_by_name("varying")
    _expect(op, operands, 2, "a destination and a source")
    dest, mask = parse_vector_dest(operands[0], numbered=(("^discard", 15),))
    source = operands[1]
    if source.text in SPECIAL_INPUTS:
        if base != "load":
            raise op.fail(f"{source.text} is read with load.v, not {op.text}")
        values = {**defaults(spec, "index"), **SPECIAL_INPUTS[source.text]}
        layout = "index"
    elif source.text[:1] in "$^-" or source.text.startswith("abs("):
        parsed = parse_vector_source(source)
        if isinstance(parsed.register, str):
            raise source.fail(f"a varying cannot read {parsed.register}")
        layout = "register"
        values = defaults(spec, layout)
        values.update(source=int(parsed.register), swizzle=parsed.swizzle)
        values.update(negate=int(parsed.negate), absolute=int(parsed.absolute))
        if base == "load_cube":
            values.update(source_type=2, perspective=1)
        elif base == "normalize":
            values.update(source_type=2, perspective=2)
        else:
            values.update(source_type=1, perspective=VARYING_OPS[base])
    else:
        if base == "normalize":
            raise source.fail(f"normalize.v reads a register, found {source.text!r}")
        layout = "index"
        values = defaults(spec, layout)
        alignment, index, offset = _index(source, 3, 6)
        values.update(alignment=alignment, index=index)
        if offset is not None:
            values.update(offset_vector=offset >> 2, offset_scalar=offset & 3)
        if base == "load_cube":
            values.update(source_type=2, perspective=0)
        else:
            values.update(source_type=0, perspective=VARYING_OPS[base])
    values.update(dest=int(dest), mask=mask)
    return ParsedOp(spec, layout, values)


def _sampler(op: Token, operands: list[Token]) -> ParsedOp:
    spec = field_by_name("sampler")
    if len(operands) not in (1, 2):
        raise op.fail(f"{op.text} takes a sampler index and an optional lod bias register, found {counted(len(operands), 'operand')}")
    values = defaults(spec, "texld")
    alignment, index, offset = _index(operands[0], -1, 12)
    if alignment != -1:
        raise operands[0].fail(f"a sampler index takes no components, found {operands[0].text!r}")
    values.update(index=index, explicit_lod=int(op.text == "texld_lod"))
    if offset is not None:
        values.update(offset_en=1, index_offset=offset)
    if len(operands) == 2:
        values.update(lod_bias_register=1, lod_bias=parse_plain_scalar(operands[1]))
    return ParsedOp(spec, "texld", values)


def _uniform(op: Token, unit: str, operands: list[Token]) -> ParsedOp:
    spec = field_by_name("uniform")
    _expect(op, operands, 1, "an index")
    values = defaults(spec, "load")
    alignment, index, offset = _index(operands[0], 2, 16, signed=True)
    values.update(source=0 if unit == "u" else 3, alignment=alignment, index=index)
    if offset is not None:
        values.update(offset_en=1, offset_reg=offset)
    return ParsedOp(spec, "load", values)


def _store(op: Token, operands: list[Token]) -> ParsedOp:
    spec = field_by_name("temp_write")
    _expect(op, operands, 2, "an index and a source register")
    values = defaults(spec, "store")
    alignment, index, offset = _index(operands[0], 2, 16, signed=True)
    values.update(alignment=alignment, index=index)
    if offset is not None:
        values.update(offset_en=1, offset_reg=offset)
    source = operands[1]
    if "." in source.text:
        values["source"] = parse_plain_scalar(source)
    else:
        parsed = parse_vector_source(source)
        if parsed.negate or parsed.absolute:
            raise source.fail(f"no - or _abs allowed on a stored register, found {source.text!r}")
        values["source"] = int(parsed.register) << 2
    return ParsedOp(spec, "store", values)


def _fb_read(op: Token, operands: list[Token]) -> ParsedOp:
    spec = field_by_name("temp_write")
    _expect(op, operands, 1, "a destination register")
    if not is_register(operands[0].text):
        raise operands[0].fail(f"expected a destination $0-$15, found {shown(operands[0].text)}")
    values = defaults(spec, "fb_read")
    values.update(source=int(op.text == "fb_color"), dest=register_number(operands[0], operands[0].text))
    return ParsedOp(spec, "fb_read", values)


def _branch(op: Token, operands: list[Token]) -> ParsedOp:
    spec = field_by_name("branch")
    if op.text == "discard":
        _expect(op, operands, 0, "no operands")
        return ParsedOp(spec, "discard", defaults(spec, "discard"))
    condition = op.text[len("branch_") :] if op.text.startswith("branch_") else ""
    if condition not in BRANCH_CONDITIONS:
        raise op.fail(f"unknown branch condition {condition!r}; expected one of {', '.join(BRANCH_CONDITIONS[:-1])}")
    mask = BRANCH_CONDITIONS.index(condition)
    values = defaults(spec, "branch")
    values.update(cond_lt=mask & 1, cond_eq=(mask >> 1) & 1, cond_gt=(mask >> 2) & 1)
    if condition:
        _expect(op, operands, 3, "two scalar sources and a target")
        values.update(arg0_source=parse_plain_scalar(operands[0]), arg1_source=parse_plain_scalar(operands[1]))
    else:
        _expect(op, operands, 1, "a target")
    target = operands[-1]
    if target.text[:1] in ("+", "-"):
        width = spec.layout("branch").range("target").width
        values["target"] = parse_int(target, "a relative word count", width, signed=True)
        return ParsedOp(spec, "branch", values)
    if not re.fullmatch(r"[A-Za-z_.][\w.]*", target.text):
        raise target.fail(f"expected a label or a relative word count such as +5, found {target.text!r}")
    return ParsedOp(spec, "branch", values, label=target)


@by_text
def parse_half(token: Token) -> int:
    """A constant as half-float bits: a number, inf, -inf, or 0x-prefixed raw bits."""
    text = token.text
    if text.lower().startswith("0x"):
        return parse_int(token, "half-float bits", 16)
    if text.lower().lstrip("+-") == "nan":
        raise token.fail("write a NaN as its raw half bits, such as 0x7e00")
    try:
        value = parse_real(text)
    except NumberError as problem:
        raise token.fail(str(problem)) from None
    written = text if len(text) <= 24 else shown(text)
    infinite = math.isinf(value) and "inf" not in text.lower()
    try:
        bits = struct.unpack("<H", struct.pack("<e", value))[0]
    except OverflowError:
        infinite = True
    if infinite:
        raise token.fail(f"{written} is not representable as a half float: the largest is {_HALF_MAX:g}")
    nonzero = any(digit in "123456789" for digit in text.lower().partition("e")[0])
    if nonzero and bits & 0x7FFF == 0:
        raise token.fail(f"{written} is not representable as a half float: it rounds to zero (the smallest is 6e-08)")
    return bits


def _const(op: Token, spec: FieldSpec, operands: list[Token]) -> ParsedOp:
    _expect(op, operands, 4, "four numbers")
    values = {name: parse_half(token) for name, token in zip("xyzw", operands)}
    return ParsedOp(spec, spec.layouts[0].name, values)


def _alu_op(op: Token, unit: str, name: str, bits: int) -> int:
    value = op_value(unit, name)
    if value is None:
        raise op.fail(f"unknown {unit} op {name!r}")
    return _check_width(op, value, bits, "op")


_PIPELINE_INPUTS = {"vec4_acc": ("^v0",), "float_acc": ("^s0",)}
"""Units whose first source may be the multiplier's result, and its name."""


def _alu(op: Token, unit: str, base: str, operands: list[Token]) -> ParsedOp:
    spec = field_by_name(unit)
    name, outmod = _split_outmod(base)
    if unit == "combine":
        return _combine(op, spec, name, outmod, operands)
    layout = spec.layouts[0].name
    values = defaults(spec, layout)
    values.update(op=_alu_op(op, unit, name, 5), dest_modifier=outmod)
    sources = op_sources(unit, values["op"])
    if len(operands) != 1 + sources:
        _expect(op, operands, 1 + sources, f"a destination and {sources} source{'s' if sources > 1 else ''}")
    dest_token, *source_tokens = operands
    vector = unit.startswith("vec4")
    if vector:
        dest, mask = parse_vector_dest(dest_token, specials=("^v0",) if unit == "vec4_mul" else ())
        values.update(dest=0 if isinstance(dest, str) else dest, mask=mask)
    elif unit == "float_mul" and dest_token.text in ("^s0", "^fmul"):
        values.update(dest=0, output_en=0)
    else:
        values.update(dest=parse_scalar_dest(dest_token), output_en=1)
    pipe = _PIPELINE_INPUTS.get(unit, ())
    for i, token in enumerate(source_tokens):
        allowed = pipe if i == 0 else ()
        source = parse_vector_source(token, allowed) if vector else parse_scalar_source(token, allowed)
        values.update(_source_values(f"arg{i}", source, not vector))
        if isinstance(source.register, str):
            values["mul_in"] = 1
    return ParsedOp(spec, layout, values)


def _combine(op: Token, spec: FieldSpec, name: str, outmod: int, operands: list[Token]) -> ParsedOp:
    if name == "mul":
        if outmod:
            raise op.fail("mul.s2 takes no output modifier")
        _expect(op, operands, 3, "a vec4 destination, a scalar and a vec4 source")
        values = defaults(spec, "scalar_vec_mul")
        dest, mask = parse_vector_dest(operands[0])
        values.update(dest_vec=1, src_vec=1, dest=dest, mask=mask)
        values.update(_source_values("arg0", parse_scalar_source(operands[1]), True))
        values.update(_plain_vector("arg1", operands[2]))
        values["arg0_src"] = values.pop("arg0_source")
        return ParsedOp(spec, "scalar_vec_mul", values)
    if name == "atan_pt2":
        _expect(op, operands, 2, "a scalar destination and a vec4 source")
        values = defaults(spec, "atan_pt2")
        values.update(src_vec=1, dest_modifier=outmod, dest=parse_scalar_dest(operands[0]))
        values.update(_plain_vector("arg1", operands[1]))
        return ParsedOp(spec, "atan_pt2", values)
    vector_dest = name.endswith("_vec")
    layout = "vector_dest" if vector_dest else "scalar"
    values = defaults(spec, layout)
    values["op"] = _alu_op(op, "combine", name[:-4] if vector_dest else name, 4)
    sources = op_sources("combine", values["op"])
    _expect(op, operands, 1 + sources, f"a destination and {sources} source{'s' if sources > 1 else ''}")
    if vector_dest:
        if outmod:
            raise op.fail(f"{op.text}: a vec4 destination takes no output modifier")
        dest, mask = parse_vector_dest(operands[0])
        values.update(dest_vec=1, dest=dest, mask=mask)
    else:
        values.update(dest=parse_scalar_dest(operands[0]), dest_modifier=outmod)
    for i, token in enumerate(operands[1:]):
        source = _source_values(f"arg{i}", parse_scalar_source(token), True)
        source[f"arg{i}_src"] = source.pop(f"arg{i}_source")
        values.update(source)
    return ParsedOp(spec, layout, values)


def _plain_vector(prefix: str, token: Token) -> dict[str, int]:
    source = parse_vector_source(token)
    if source.negate or source.absolute or isinstance(source.register, str):
        raise token.fail(f"expected a vec4 register without - or _abs, found {token.text!r}")
    return {f"{prefix}_source": int(source.register), f"{prefix}_swizzle": source.swizzle}


_DEST_FIRST = {"v", "v0", "s0", "v1", "s1", "s2"}


def _check_destination_first(op: Token, unit: str, operands: list[Token]) -> None:
    if unit not in _DEST_FIRST or len(operands) < 2:
        return
    first, last = operands[0], operands[-1]
    if not looks_like_dest(first) and looks_like_dest(last):
        reordered = [last, *operands[:-1]]
        raise DestinationLast(
            f"the destination comes first: found {shown(first.text)} where {op.text} expects its output,"
            f" and the output {shown(last.text)} last",
            first.column,
            reordered,
        )


@lru_cache(maxsize=4096)
def op_field(op: str) -> FieldSpec | None:
    """The field an op such as `load.u` or `texld` fills, from its name alone; None if unknown."""
    base, dot, unit = op.partition(".")
    if dot and not unit:
        return None
    if unit == "v":
        name = "varying"
    elif unit in ("u", "t") and base == "load":
        name = "uniform"
    elif unit == "t" and base == "store":
        name = "temp_write"
    elif unit:
        name = _UNITS.get(unit, "")
    elif base in ("texld", "texld_2d", "texld_lod"):
        name = "sampler"
    elif base in ("fb_color", "fb_depth"):
        name = "temp_write"
    elif base in ("discard", "branch") or base.startswith("branch_"):
        name = "branch"
    else:
        name = {"const0": "vec4_const_0", "const1": "vec4_const_1"}.get(base, "")
    return field_by_name(name) if name else None


def parse_op(op: Token, operands: list[Token]) -> ParsedOp:
    """The field, layout and range values of `opcode.unit operands…`; raises AsmError."""
    base, _, unit = op.text.partition(".")
    spec = op_field(op.text)
    if spec is None:
        if unit and unit not in ("u", "t"):
            raise op.fail(f"unknown unit .{unit} in {op.text!r}; expected .v .u .t .v0 .s0 .v1 .s1 .s2")
        raise op.fail(f"unknown op {op.text!r}")
    _check_destination_first(op, unit, operands)
    if spec.name == "varying":
        if base not in (*VARYING_OPS, "load_cube", "normalize"):
            raise op.fail(f"unknown varying op {base!r}; expected load, load_persp_z, load_persp_w, load_cube or normalize")
        return _varying(op, base, operands)
    if spec.name == "uniform":
        return _uniform(op, unit, operands)
    if spec.name == "temp_write":
        return _store(op, operands) if unit else _fb_read(op, operands)
    if spec.name == "sampler":
        return _sampler(op, operands)
    if spec.name == "branch":
        return _branch(op, operands)
    if spec.name.startswith("vec4_const"):
        return _const(op, spec, operands)
    return _alu(op, spec.name, base, operands)


def parse_override(token: Token, spec_names: dict[str, int]) -> tuple[str, int]:
    """`{name=value}` -> (name, value), checked against `spec_names` (name -> width)."""
    match = re.fullmatch(r"\{([A-Za-z_][A-Za-z0-9_]*)=([^{}=]+)\}", token.text)
    if not match:
        raise token.fail(f"expected {{name=value}}, found {shown(token.text)}")
    name = match.group(1)
    if name not in spec_names:
        raise token.fail(f"no range {name!r} here; expected one of {', '.join(spec_names)}")
    try:
        return name, parse_integer(match.group(2), name, spec_names[name], either=True)
    except NumberError as problem:
        raise token.fail(str(problem)) from None

