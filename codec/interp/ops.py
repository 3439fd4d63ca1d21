"""The pure instructions: arithmetic, bit, logical, relational, conversion and
composite operations on values, each written once as a function of the result type,
the operand values and the operand types. Integer results wrap at their width; float
results keep their width (numpy scalars); what the spec leaves undefined is `UNDEF`.

Which results are undefined, and where it is said:
- OpUDiv, OpSDiv, OpUMod, OpSRem, OpSMod by 0, and the signed ones of the minimum value
  by -1 (the SPIR-V specification, Arithmetic Instructions).
- OpSRem and OpSMod with a negative operand (the Vulkan environment, "Precision and
  Operation of SPIR-V Instructions": "if either operand is negative the result is
  undefined"; GLSL's % says the same).
- OpFRem and OpFMod by 0 (SPIR-V specification). OpFDiv is defined for every divisor in
  SPIR-V; the Vulkan environment makes a non-zero over a zero the signed infinity (kept),
  and lets drivers assume no NaN is generated (without SignedZeroInfNanPreserve), so a
  division that makes a NaN of numbers (0/0, inf/inf) is undefined: lavapipe gives 0.
- Shifts by the width or more, bit fields past the width, float to integer conversions
  out of range (SPIR-V specification)."""

from __future__ import annotations

import math
import operator

import numpy as np

from spvinspect.codec.interp.types import (FLOAT_DTYPES, UINT_DTYPES, UNDEF, Type, mask, to_signed, truth,
                                           undefined_where)


def _cw(f):
    """Apply a scalar function `f(rt, *scalars)` component by component to vectors."""

    def op(rt: Type, vals, tys):
        if isinstance(vals[0], tuple):
            srt = rt.scalar if rt is not None else None
            n = len(vals[0])
            return tuple(
                _undef_guard(f, srt, [v[i] if isinstance(v, tuple) else v for v in vals]) for i in range(n)
            )
        return _undef_guard(f, rt, vals)

    return op


def _undef_guard(f, rt, vals):
    for v in vals:
        if v is UNDEF:
            return UNDEF
    return f(rt, *vals)


def _tys(f):
    """Like `_cw`, for functions that also need the operands' scalar types."""

    def op(rt: Type, vals, tys):
        stys = [t.scalar for t in tys]
        if isinstance(vals[0], tuple):
            n = len(vals[0])
            out = []
            for i in range(n):
                comps = [v[i] if isinstance(v, tuple) else v for v in vals]
                out.append(UNDEF if any(c is UNDEF for c in comps) else f(rt.scalar, stys, *comps))
            return tuple(out)
        if any(v is UNDEF for v in vals):
            return UNDEF
        return f(rt, stys, *vals)

    return op


def sgn(v: int, t: Type) -> int:
    return to_signed(v, t.width)


def _w(rt):
    return rt.width


def _sdiv(rt, a, b):
    w = rt.width
    a, b = to_signed(a, w), to_signed(b, w)
    if b == 0 or (a == -(1 << (w - 1)) and b == -1):
        return UNDEF
    q = abs(a) // abs(b)
    return (q if (a < 0) == (b < 0) else -q) & mask(w)


def _signed_remainder(rt, a, b):
    """OpSRem and OpSMod: defined (in Vulkan) only for non-negative operands, where the
    two agree (they differ only in the sign a negative operand gives)."""
    w = rt.width
    a, b = to_signed(a, w), to_signed(b, w)
    if b <= 0 or a < 0:
        return UNDEF
    return a % b


def _udiv(rt, a, b):
    return UNDEF if b == 0 else a // b


def _umod(rt, a, b):
    return UNDEF if b == 0 else a % b


def _f(rt, x):
    return FLOAT_DTYPES[rt.width](x)


def _fdiv(rt, a, b):
    q = np.divide(a, b)
    if undefined_where(np.isnan(q) & ~np.isnan(a) & ~np.isnan(b)):
        return UNDEF
    return _f(rt, q)


def _frem(rt, a, b):
    if undefined_where(b == 0):
        return UNDEF
    return _f(rt, np.fmod(a, b))


def _fmod(rt, a, b):
    # OpFMod: the result's sign is the divisor's.
    if undefined_where(b == 0):
        return UNDEF
    r = np.fmod(a, b)
    if r != 0 and (r < 0) != (b < 0):
        r = r + b
    return _f(rt, r)


def _shift_ok(rt, s):
    return s < rt.width


def _shl(rt, a, s):
    return (a << s) & mask(rt.width) if _shift_ok(rt, s) else UNDEF


def _shr(rt, a, s):
    return a >> s if _shift_ok(rt, s) else UNDEF


def _sar(rt, a, s):
    return (to_signed(a, rt.width) >> s) & mask(rt.width) if _shift_ok(rt, s) else UNDEF


def _bit_reverse(rt, a):
    w = rt.width
    return int(format(a, f"0{w}b")[::-1], 2)


def _field_insert(rt, base, insert, offset, count):
    w = rt.width
    if offset + count > w:
        return UNDEF
    m = ((1 << count) - 1) << offset
    return (base & ~m | (insert << offset) & m) & mask(w)


def _field_uextract(rt, base, offset, count):
    if offset + count > rt.width:
        return UNDEF
    return (base >> offset) & ((1 << count) - 1)


def _field_sextract(rt, base, offset, count):
    if offset + count > rt.width:
        return UNDEF
    if count == 0:
        return 0
    v = (base >> offset) & ((1 << count) - 1)
    return to_signed(v, count) & mask(rt.width)


def _fconv(rt, tys, a):
    return FLOAT_DTYPES[rt.width](a)


def _f_to_u(rt, tys, a):
    if not np.isfinite(a):
        return UNDEF
    v = math.trunc(float(a))
    return v if 0 <= v <= mask(rt.width) else UNDEF


def _f_to_s(rt, tys, a):
    if not np.isfinite(a):
        return UNDEF
    v = math.trunc(float(a))
    lim = 1 << (rt.width - 1)
    return v & mask(rt.width) if -lim <= v < lim else UNDEF


def _s_to_f(rt, tys, a):
    return FLOAT_DTYPES[rt.width](to_signed(a, tys[0].width))


def _u_to_f(rt, tys, a):
    return FLOAT_DTYPES[rt.width](a)


def _uconv(rt, tys, a):
    return a & mask(rt.width)


def _sconv(rt, tys, a):
    return to_signed(a, tys[0].width) & mask(rt.width)


def _quantize(rt, tys, a):
    h = np.float16(a)
    if np.isinf(h) and not np.isinf(a):
        return _f(rt, np.copysign(np.inf, a))
    if h != 0 and abs(h) < np.float16(6.103515625e-05):
        return _f(rt, np.copysign(0.0, a))
    return _f(rt, h)


# -- packing values into bits, for OpBitcast ------------------------------------------------
def scalars_to_bits(t: Type, v) -> tuple[int, int]:
    """`v` (scalar or vector of `t`) as (bits, total width), component 0 lowest."""
    comps = v if isinstance(v, tuple) else (v,)
    st = t.scalar
    bits, shift = 0, 0
    for c in comps:
        if c is UNDEF:
            raise ValueError("undef")
        if st.kind == "float":
            c = int(np.array([c], dtype=FLOAT_DTYPES[st.width]).view(UINT_DTYPES[st.width])[0])
        elif st.kind == "bool":
            c = int(c)
        bits |= (c & mask(st.width)) << shift
        shift += st.width
    return bits, shift


def bits_to_scalars(t: Type, bits: int):
    st = t.scalar
    n = t.count if t.kind == "vector" else 1
    out = []
    for i in range(n):
        c = (bits >> (i * st.width)) & mask(st.width)
        if st.kind == "float":
            c = np.array([c], dtype=UINT_DTYPES[st.width]).view(FLOAT_DTYPES[st.width])[0]
        out.append(c)
    return tuple(out) if t.kind == "vector" else out[0]


def _bitcast(rt, vals, tys):
    try:
        bits, _ = scalars_to_bits(tys[0], vals[0])
    except ValueError:
        from spvinspect.codec.interp.types import undef

        return undef(rt)
    if rt.kind == "pointer" or tys[0].kind == "pointer":
        return UNDEF
    return bits_to_scalars(rt, bits)


# -- composites -----------------------------------------------------------------------------
def _construct(rt, vals, tys):
    if rt.kind == "vector":
        out = []
        for v in vals:
            out.extend(v if isinstance(v, tuple) else (v,))
        return tuple(out)
    return tuple(vals)


def extract(v, indexes):
    for i in indexes:
        if v is UNDEF:
            return UNDEF
        if not isinstance(v, tuple) or i >= len(v):
            return UNDEF
        v = v[i]
    return v


def insert(v, indexes, obj):
    if not indexes:
        return obj
    i = indexes[0]
    if not isinstance(v, tuple) or i >= len(v):
        return v
    return v[:i] + (insert(v[i], indexes[1:], obj),) + v[i + 1 :]


def _shuffle(rt, vals, tys, comps):
    pool = tuple(vals[0]) + tuple(vals[1])
    return tuple(UNDEF if c == 0xFFFFFFFF or c >= len(pool) else pool[c] for c in comps)


def _transpose(rt, vals, tys):
    m = vals[0]
    return tuple(tuple(col[r] for col in m) for r in range(len(m[0])))


# -- linear algebra -------------------------------------------------------------------------
def _dot_values(a, b, st):
    if any(x is UNDEF for x in a + b):
        return UNDEF
    f = FLOAT_DTYPES[st.width]
    acc = f(0)
    for x, y in zip(a, b):
        acc = f(acc + f(x * y))
    return acc


def _dot(rt, vals, tys):
    return _dot_values(vals[0], vals[1], rt)


def _vts(rt, vals, tys):
    s = vals[1]
    if not isinstance(vals[0], tuple):
        return (UNDEF,) * rt.count
    return tuple(UNDEF if x is UNDEF or s is UNDEF else x * s for x in vals[0])


def _mts(rt, vals, tys):
    s = vals[1]
    return tuple(tuple(UNDEF if x is UNDEF or s is UNDEF else x * s for x in col) for col in vals[0])


def _mtv(rt, vals, tys):
    m, v = vals
    st = rt.scalar
    rows = len(m[0])
    return tuple(_dot_values(tuple(col[r] for col in m), v, st) for r in range(rows))


def _vtm(rt, vals, tys):
    v, m = vals
    st = rt.scalar
    return tuple(_dot_values(v, col, st) for col in m)


def _mtm(rt, vals, tys):
    a, b = vals
    st = rt.scalar
    rows = len(a[0])
    return tuple(tuple(_dot_values(tuple(col[r] for col in a), bcol, st) for r in range(rows)) for bcol in b)


def _outer(rt, vals, tys):
    a, b = vals
    return tuple(tuple(UNDEF if x is UNDEF or y is UNDEF else x * y for x in a) for y in b)


def _carry(rt, vals, tys):
    t = rt.members[0].scalar
    w = t.width

    def one(a, b):
        s = a + b
        return s & mask(w), int(s >> w)

    return _pairwise(vals, one)


def _borrow(rt, vals, tys):
    w = rt.members[0].scalar.width

    def one(a, b):
        return (a - b) & mask(w), int(a < b)

    return _pairwise(vals, one)


def _umul_ext(rt, vals, tys):
    w = rt.members[0].scalar.width

    def one(a, b):
        p = a * b
        return p & mask(w), (p >> w) & mask(w)

    return _pairwise(vals, one)


def _smul_ext(rt, vals, tys):
    w = rt.members[0].scalar.width

    def one(a, b):
        p = (to_signed(a, w) * to_signed(b, w)) & mask(2 * w)
        return p & mask(w), (p >> w) & mask(w)

    return _pairwise(vals, one)


def _pairwise(vals, one):
    a, b = vals
    if isinstance(a, tuple):
        pairs = [(UNDEF, UNDEF) if x is UNDEF or y is UNDEF else one(x, y) for x, y in zip(a, b)]
        return tuple(p[0] for p in pairs), tuple(p[1] for p in pairs)
    if a is UNDEF or b is UNDEF:
        return UNDEF, UNDEF
    return one(a, b)


def _select(rt, vals, tys):
    c, a, b = vals
    if isinstance(c, tuple):
        return tuple(UNDEF if ci is UNDEF else _pick_value(ci, ai, bi) for ci, ai, bi in zip(c, a, b))
    if c is UNDEF:
        from spvinspect.codec.interp.types import undef

        return undef(rt)
    return _pick_value(c, a, b)


def _pick_value(c, a, b):
    """`a` if `c` else `b`; with a condition per lane (an array), lane by lane through
    composites (numbers only: anything else raises, to be run lane by lane)."""
    if not isinstance(c, np.ndarray):
        return a if c else b
    if isinstance(a, tuple):
        return tuple(_pick_value(c, x, y) for x, y in zip(a, b))
    if not (isinstance(a, (int, np.generic, np.ndarray)) and isinstance(b, (int, np.generic, np.ndarray))):
        raise TypeError("a selection of values that are not numbers, per lane")
    return np.where(c, a, b)


def _any(rt, vals, tys):
    v = vals[0]
    return UNDEF if UNDEF in v else any(v)


def _all(rt, vals, tys):
    v = vals[0]
    return UNDEF if UNDEF in v else all(v)


def _ford(cmp):
    return _cw(lambda rt, a, b: truth(~(np.isnan(a) | np.isnan(b)) & cmp(a, b)))


def _funord(cmp):
    return _cw(lambda rt, a, b: truth(np.isnan(a) | np.isnan(b) | cmp(a, b)))


def _scmp(cmp):
    return _tys(lambda rt, tys, a, b: cmp(to_signed(a, tys[0].width), to_signed(b, tys[1].width)))


def _ucmp(cmp):
    return _cw(lambda rt, a, b: cmp(a, b))


def _isnormal(rt, a):
    f = np.finfo(type(a))
    return bool(np.isfinite(a) and abs(a) >= f.tiny)


def _fwrap(f):
    """A float operation on numpy scalars, rounded to the result's width."""
    return _cw(lambda rt, *xs: FLOAT_DTYPES[rt.width](f(*xs)))


def _dot_int(signed_a, signed_b):
    def op(rt, vals, tys):
        a, b = vals[0], vals[1]
        ta, tb = tys[0].scalar, tys[1].scalar
        if isinstance(a, int):  # packed 4x8
            a = tuple((a >> (8 * i)) & 0xFF for i in range(4))
            b = tuple((b >> (8 * i)) & 0xFF for i in range(4))
            ta = tb = Type(0, "int", width=8)
        if UNDEF in a or UNDEF in b:
            return UNDEF
        s = 0
        for x, y in zip(a, b):
            x = to_signed(x, ta.width) if signed_a else x
            y = to_signed(y, tb.width) if signed_b else y
            s += x * y
        return s & mask(rt.width)

    return op


ORDERINGS = {"GreaterThan": operator.gt, "GreaterThanEqual": operator.ge, "LessThan": operator.lt,
             "LessThanEqual": operator.le}
"""The orderings the integer comparisons name (OpUGreaterThan, OpSLessThan…)."""

COMPARISONS = {"Equal": operator.eq, "NotEqual": operator.ne, **ORDERINGS}
"""What the float comparisons name (OpFOrdEqual, OpFUnordLessThan…)."""

OPS = {
    "OpSNegate": _cw(lambda rt, a: -a & mask(rt.width)),
    "OpFNegate": _cw(lambda rt, a: -a),
    "OpIAdd": _cw(lambda rt, a, b: (a + b) & mask(rt.width)),
    "OpISub": _cw(lambda rt, a, b: (a - b) & mask(rt.width)),
    "OpIMul": _cw(lambda rt, a, b: (a * b) & mask(rt.width)),
    "OpFAdd": _cw(lambda rt, a, b: a + b),
    "OpFSub": _cw(lambda rt, a, b: a - b),
    "OpFMul": _cw(lambda rt, a, b: a * b),
    "OpFDiv": _cw(_fdiv),
    "OpUDiv": _cw(_udiv),
    "OpSDiv": _cw(_sdiv),
    "OpUMod": _cw(_umod),
    "OpSRem": _cw(_signed_remainder),
    "OpSMod": _cw(_signed_remainder),
    "OpFRem": _cw(_frem),
    "OpFMod": _cw(_fmod),
    "OpVectorTimesScalar": _vts,
    "OpMatrixTimesScalar": _mts,
    "OpMatrixTimesVector": _mtv,
    "OpVectorTimesMatrix": _vtm,
    "OpMatrixTimesMatrix": _mtm,
    "OpOuterProduct": _outer,
    "OpDot": _dot,
    "OpIAddCarry": _carry,
    "OpISubBorrow": _borrow,
    "OpUMulExtended": _umul_ext,
    "OpSMulExtended": _smul_ext,
    "OpShiftLeftLogical": _tys(lambda rt, tys, a, s: _shl(rt, a, s)),
    "OpShiftRightLogical": _tys(lambda rt, tys, a, s: _shr(rt, a, s)),
    "OpShiftRightArithmetic": _tys(lambda rt, tys, a, s: _sar(rt, a, s)),
    "OpBitwiseOr": _cw(lambda rt, a, b: a | b),
    "OpBitwiseXor": _cw(lambda rt, a, b: a ^ b),
    "OpBitwiseAnd": _cw(lambda rt, a, b: a & b),
    "OpNot": _cw(lambda rt, a: ~a & mask(rt.width)),
    "OpBitFieldInsert": _cw(_field_insert),
    "OpBitFieldSExtract": _cw(_field_sextract),
    "OpBitFieldUExtract": _cw(_field_uextract),
    "OpBitReverse": _cw(_bit_reverse),
    "OpBitCount": _tys(lambda rt, tys, a: bin(a).count("1")),
    "OpAny": _any,
    "OpAll": _all,
    "OpIsNan": _cw(lambda rt, a: truth(np.isnan(a))),
    "OpIsInf": _cw(lambda rt, a: truth(np.isinf(a))),
    "OpIsFinite": _cw(lambda rt, a: truth(np.isfinite(a))),
    "OpIsNormal": _cw(_isnormal),
    "OpSignBitSet": _cw(lambda rt, a: bool(np.signbit(a))),
    "OpLogicalEqual": _cw(lambda rt, a, b: a == b),
    "OpLogicalNotEqual": _cw(lambda rt, a, b: a != b),
    "OpLogicalOr": _cw(lambda rt, a, b: truth(np.logical_or(a, b))),
    "OpLogicalAnd": _cw(lambda rt, a, b: truth(np.logical_and(a, b))),
    "OpLogicalNot": _cw(lambda rt, a: truth(np.logical_not(a))),
    "OpSelect": _select,
    "OpIEqual": _cw(lambda rt, a, b: a == b),
    "OpINotEqual": _cw(lambda rt, a, b: a != b),
    **{f"OpU{name}": _ucmp(compare) for name, compare in ORDERINGS.items()},
    **{f"OpS{name}": _scmp(compare) for name, compare in ORDERINGS.items()},
    **{f"OpFOrd{name}": _ford(compare) for name, compare in COMPARISONS.items()},
    **{f"OpFUnord{name}": _funord(compare) for name, compare in COMPARISONS.items()},
    "OpConvertFToU": _tys(_f_to_u),
    "OpConvertFToS": _tys(_f_to_s),
    "OpConvertSToF": _tys(_s_to_f),
    "OpConvertUToF": _tys(_u_to_f),
    "OpUConvert": _tys(_uconv),
    "OpSConvert": _tys(_sconv),
    "OpFConvert": _tys(_fconv),
    "OpQuantizeToF16": _tys(_quantize),
    "OpBitcast": _bitcast,
    "OpCompositeConstruct": _construct,
    "OpTranspose": _transpose,
    "OpCopyObject": lambda rt, vals, tys: vals[0],
    "OpCopyLogical": lambda rt, vals, tys: vals[0],
    "OpSDot": _dot_int(True, True),
    "OpUDot": _dot_int(False, False),
    "OpSUDot": _dot_int(True, False),
    "OpSDotKHR": _dot_int(True, True),
    "OpUDotKHR": _dot_int(False, False),
    "OpSUDotKHR": _dot_int(True, False),
}
"""Opname → f(result type, operand values, operand types): the operations whose operands
are all ids of values."""

LITERAL_OPS = {"OpCompositeExtract", "OpCompositeInsert", "OpVectorShuffle"}


def literal_op(opname: str, rt: Type, args, value_of):
    """The composite operations that take literal indexes after their id operands."""
    if opname == "OpCompositeExtract":
        return extract(value_of(args[0]), args[1:])
    if opname == "OpCompositeInsert":
        return insert(value_of(args[1]), args[2:], value_of(args[0]))
    if opname == "OpVectorShuffle":
        return _shuffle(rt, [value_of(args[0]), value_of(args[1])], None, args[2:])
    raise KeyError(opname)


def spec_constant_op(shader, ins):
    """OpSpecConstantOp's value, computed with the same operations as the instructions."""
    opcode = ins.args[0]
    desc = shader.grammar.instructions.get(opcode)
    opname = "Op" + desc.opname[2:] if desc else f"Op{opcode}"
    rt = shader.types.get(ins.type_id)
    rest = ins.args[1:]
    if opname in LITERAL_OPS:
        return literal_op(opname, rt, rest, lambda i: shader.constants[i])
    fn = OPS[opname]
    vals = [shader.constants[i] for i in rest]
    tys = [shader.id_types.get(i) for i in rest]
    with np.errstate(all="ignore"):
        return fn(rt, vals, tys)
