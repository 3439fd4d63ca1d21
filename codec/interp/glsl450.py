"""GLSL.std.450: every extended instruction, named by the grammar, on values of the
operand's width (float32 in numpy's float32; integers wrapping at their width).

Results the extended instruction set's specification (GLSL.std.450, version 1.00
revision 4) leaves undefined are `UNDEF`: Asin and Acos of |x| > 1, Atan2 of (0, 0),
Acosh of x < 1, Atanh of |x| >= 1, Pow of x < 0 or of 0 to a power <= 0, Log and Log2 of
x <= 0, Sqrt of x < 0, InverseSqrt of x <= 0, FClamp, UClamp, SClamp and NClamp with
minVal > maxVal, SmoothStep with edge0 >= edge1, Ldexp with an exponent over +128
(float32) or +1024 (float64), Frexp of an infinity or NaN, MatrixInverse of a singular
matrix."""

from __future__ import annotations

import math

import numpy as np

from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.interp.types import FLOAT_DTYPES, UNDEF, mask, pick, to_signed, undefined_where


def _cw(f):
    """Component by component over vectors; undefined in, undefined out."""

    def op(rt, *vals):
        if isinstance(vals[0], tuple):
            n = len(vals[0])
            srt = rt.scalar
            return tuple(
                _guard(f, srt, [v[i] if isinstance(v, tuple) else v for v in vals]) for i in range(n)
            )
        return _guard(f, rt, vals)

    return op


def _guard(f, rt, vals):
    if any(v is UNDEF for v in vals):
        return UNDEF
    return f(rt, *vals)


def _fl(f):
    """A float function evaluated in the operand's precision and rounded to it."""
    return _cw(lambda rt, *xs: FLOAT_DTYPES[rt.width](f(*xs)))


def _partial(f, undefined):
    """Like `_fl`, for a function the specification leaves undefined where
    `undefined(*xs)` holds."""
    return _cw(lambda rt, *xs: UNDEF if undefined_where(undefined(*xs)) else FLOAT_DTYPES[rt.width](f(*xs)))


def _clamped(f, above):
    """A clamp, undefined when its minVal is above its maxVal (`above(rt, lo, hi)`)."""
    return _cw(lambda rt, x, lo, hi: UNDEF if undefined_where(above(rt, lo, hi)) else f(rt, x, lo, hi))


def _lo_above_hi(rt, lo, hi):
    return lo > hi


LDEXP_LIMITS = {32: 128, 64: 1024}
"""The largest exponent Ldexp is defined for, by width (none is given for float16)."""


def _ldexp(rt, x, e):
    e = to_signed(e, 32)
    if undefined_where(e > LDEXP_LIMITS.get(rt.width, 1 << 31)):
        return UNDEF
    return FLOAT_DTYPES[rt.width](np.ldexp(x, e))


def _pow(rt, x, y):
    """Undefined for x < 0, and for x = 0 with y <= 0 (GLSL.std.450)."""
    if x < 0 or (x == 0 and y <= 0):
        return UNDEF
    return FLOAT_DTYPES[rt.width](np.power(x, y))


def _s(rt, v):
    return to_signed(v, rt.width)


def _vec(v):
    return v if isinstance(v, tuple) else (v,)


def _dot(a, b):
    a, b = _vec(a), _vec(b)
    dt = a[0].dtype.type
    acc = dt(0)
    for x, y in zip(a, b):
        acc = dt(acc + x * y)
    return acc


def _length(rt, x):
    return FLOAT_DTYPES[rt.width](np.sqrt(_dot(x, x)))


def _normalize(rt, x):
    n = np.sqrt(_dot(x, x))
    if isinstance(x, tuple):
        return tuple(c / n for c in x)
    return x / n


def _fsign(rt, x):
    return FLOAT_DTYPES[rt.width](np.sign(x))


def _round_half_away(x):
    return np.copysign(np.floor(np.abs(x) + 0.5), x)


def _fclamp(rt, x, lo, hi):
    # NaN in: undefined by GLSL; max then min that drop a NaN operand, as Mesa does.
    return _nmin(rt, _nmax(rt, x, lo), hi)


def _smoothstep(rt, e0, e1, x):
    if undefined_where(e0 >= e1):
        return UNDEF
    t = (x - e0) / (e1 - e0)
    t = pick(0 > t, 0, t)
    t = pick(1 < t, 1, t)
    return FLOAT_DTYPES[rt.width](t * t * (3 - 2 * t))


def _find_lsb(rt, x):
    return (x & -x).bit_length() - 1 & mask(32) if x else mask(32)


def _find_smsb(rt, x):
    v = to_signed(x, rt.width)
    if v < 0:
        v = ~v
    return (v.bit_length() - 1) & mask(32) if v else mask(32)


def _find_umsb(rt, x):
    return (x.bit_length() - 1) & mask(32) if x else mask(32)


def _determinant(m):
    a = np.array([[float(c) for c in col] for col in m], dtype=np.float64).T
    return np.float32(np.linalg.det(a))


def _inverse(m):
    a = np.array([[float(c) for c in col] for col in m], dtype=np.float64).T
    if np.linalg.det(a) == 0:
        return tuple((UNDEF,) * a.shape[0] for _ in range(a.shape[1]))  # singular: undefined
    inv = np.linalg.inv(a)
    return tuple(tuple(np.float32(inv[r, c]) for r in range(a.shape[0])) for c in range(a.shape[1]))


def _pack(values, bits):
    out = 0
    for i, v in enumerate(values):
        out |= (int(v) & mask(bits)) << (i * bits)
    return out


def _unpack(x, bits, n):
    return [(x >> (i * bits)) & mask(bits) for i in range(n)]


def _round_even(x):
    return np.float32(np.rint(x))


def _pack_snorm(v, bits):
    scale = (1 << (bits - 1)) - 1
    return _pack([_round_even(np.clip(float(c), -1, 1) * scale) for c in v], bits)


def _pack_unorm(v, bits):
    scale = (1 << bits) - 1
    return _pack([_round_even(np.clip(float(c), 0, 1) * scale) for c in v], bits)


def _unpack_snorm(x, bits, n):
    scale = (1 << (bits - 1)) - 1
    return tuple(np.float32(np.clip(np.float32(to_signed(c, bits)) / np.float32(scale), -1, 1)) for c in _unpack(x, bits, n))


def _unpack_unorm(x, bits, n):
    scale = (1 << bits) - 1
    return tuple(np.float32(np.float32(c) / np.float32(scale)) for c in _unpack(x, bits, n))


def _pack_half(v):
    return _pack([int(np.array([np.float16(c)]).view(np.uint16)[0]) for c in v], 16)


def _unpack_half(x):
    return tuple(np.float32(np.array([c], dtype=np.uint16).view(np.float16)[0]) for c in _unpack(x, 16, 2))


def _refract(rt, i, n, eta):
    d = _dot(n, i)
    k = 1 - eta * eta * (1 - d * d)
    if k < 0:
        return tuple(type(c)(0) for c in _vec(i)) if isinstance(i, tuple) else type(i)(0)
    s = eta * d + np.sqrt(k)
    if isinstance(i, tuple):
        return tuple(eta * a - s * b for a, b in zip(i, n))
    return eta * i - s * n


def _frexp(x):
    if x is UNDEF or not np.isfinite(x):
        return UNDEF, UNDEF
    m, e = np.frexp(x)
    return type(x)(m), int(e) & mask(32)


def _modf(x):
    if x is UNDEF:
        return UNDEF, UNDEF
    f, i = np.modf(x)
    return type(x)(f), type(x)(i)


def _nmin(rt, a, b):
    return pick(np.isnan(a), b, pick(np.isnan(b), a, pick(b < a, b, a)))


def _nmax(rt, a, b):
    return pick(np.isnan(a), b, pick(np.isnan(b), a, pick(b > a, b, a)))


FUNCS = {
    "Round": _fl(_round_half_away),
    "RoundEven": _fl(np.rint),
    "Trunc": _fl(np.trunc),
    "FAbs": _fl(np.abs),
    "SAbs": _cw(lambda rt, x: abs(_s(rt, x)) & mask(rt.width)),
    "FSign": _cw(_fsign),
    "SSign": _cw(lambda rt, x: (1 if _s(rt, x) > 0 else -1 if _s(rt, x) < 0 else 0) & mask(rt.width)),
    "Floor": _fl(np.floor),
    "Ceil": _fl(np.ceil),
    "Fract": _fl(lambda x: x - np.floor(x)),
    "Radians": _fl(lambda x: x * type(x)(math.pi / 180)),
    "Degrees": _fl(lambda x: x * type(x)(180 / math.pi)),
    "Sin": _fl(np.sin), "Cos": _fl(np.cos), "Tan": _fl(np.tan),
    "Asin": _partial(np.arcsin, lambda x: np.abs(x) > 1), "Acos": _partial(np.arccos, lambda x: np.abs(x) > 1),
    "Atan": _fl(np.arctan),
    "Sinh": _fl(np.sinh), "Cosh": _fl(np.cosh), "Tanh": _fl(np.tanh),
    "Asinh": _fl(np.arcsinh), "Acosh": _partial(np.arccosh, lambda x: x < 1),
    "Atanh": _partial(np.arctanh, lambda x: np.abs(x) >= 1),
    "Atan2": _partial(np.arctan2, lambda y, x: (y == 0) & (x == 0)),
    "Pow": _cw(_pow),
    "Exp": _fl(np.exp), "Log": _partial(np.log, lambda x: x <= 0), "Exp2": _fl(np.exp2),
    "Log2": _partial(np.log2, lambda x: x <= 0),
    "Sqrt": _partial(np.sqrt, lambda x: x < 0),
    "InverseSqrt": _partial(lambda x: 1 / np.sqrt(x), lambda x: x <= 0),
    "FMin": _cw(_nmin),
    "FMax": _cw(_nmax),
    "UMin": _cw(lambda rt, a, b: min(a, b)),
    "UMax": _cw(lambda rt, a, b: max(a, b)),
    "SMin": _cw(lambda rt, a, b: a if _s(rt, a) <= _s(rt, b) else b),
    "SMax": _cw(lambda rt, a, b: a if _s(rt, a) >= _s(rt, b) else b),
    "FClamp": _clamped(_fclamp, _lo_above_hi),
    "UClamp": _clamped(lambda rt, x, lo, hi: min(max(x, lo), hi), _lo_above_hi),
    "SClamp": _clamped(lambda rt, x, lo, hi: min(max(x, lo, key=lambda v: _s(rt, v)), hi, key=lambda v: _s(rt, v)),
                       lambda rt, lo, hi: _s(rt, lo) > _s(rt, hi)),
    "FMix": _fl(lambda x, y, a: x * (1 - a) + y * a),
    "IMix": _cw(lambda rt, x, y, a: y if a else x),
    "Step": _fl(lambda edge, x: pick(x < edge, 0.0, 1.0)),
    "SmoothStep": _cw(_smoothstep),
    "Fma": _fl(lambda a, b, c: np.float64(a) * np.float64(b) + np.float64(c)),
    "Ldexp": _cw(_ldexp),
    "FindILsb": _cw(_find_lsb),
    "FindSMsb": _cw(_find_smsb),
    "FindUMsb": _cw(_find_umsb),
    "NMin": _cw(_nmin), "NMax": _cw(_nmax),
    "NClamp": _clamped(_fclamp, _lo_above_hi),
}


def execute(inv, ins) -> None:
    from spvinspect.codec.interp.invocation import Unsupported

    ext = load_grammar().ext_inst_set("GLSL.std.450")
    desc = ext.instructions.get(ins.args[1]) if ext else None
    if desc is None:
        raise Unsupported(ins, f"GLSL.std.450 instruction {ins.args[1]}")
    name = desc.opname
    rt = inv.shader.types.get(ins.type_id)
    ids = ins.args[2:]
    vals = [inv.value(i) for i in ids]
    if name in FUNCS:
        inv.set(ins, FUNCS[name](rt, *vals))
        return
    undef = any(v is UNDEF or (isinstance(v, tuple) and any(c is UNDEF for c in v)) for v in vals if not hasattr(v, "cell"))
    if undef and name not in ("Modf", "Frexp", "InterpolateAtCentroid", "InterpolateAtSample", "InterpolateAtOffset"):
        from spvinspect.codec.interp.types import undef as undef_of

        inv.set(ins, undef_of(rt))
        return
    x = vals[0] if vals else None
    if name == "Length":
        out = _length(rt, x)
    elif name == "Distance":
        d = tuple(a - b for a, b in zip(_vec(x), _vec(vals[1])))
        out = _length(rt, d)
    elif name == "Normalize":
        out = _normalize(rt, x)
    elif name == "Cross":
        a, b = x, vals[1]
        out = (a[1] * b[2] - b[1] * a[2], a[2] * b[0] - b[2] * a[0], a[0] * b[1] - b[0] * a[1])
    elif name == "FaceForward":
        n, i, nref = vals
        out = n if _dot(nref, i) < 0 else (tuple(-c for c in n) if isinstance(n, tuple) else -n)
    elif name == "Reflect":
        i, n = vals
        d = _dot(n, i)
        out = tuple(a - 2 * d * b for a, b in zip(i, n)) if isinstance(i, tuple) else i - 2 * d * n
    elif name == "Refract":
        out = _refract(rt, *vals)
    elif name == "Determinant":
        out = _determinant(x)
    elif name == "MatrixInverse":
        out = _inverse(x)
    elif name in ("Modf", "Frexp"):
        f = _modf if name == "Modf" else _frexp
        if x is UNDEF:  # undefined as a whole: each component is, in both results
            from spvinspect.codec.interp.types import undef as undef_of

            x = undef_of(rt)
        parts = [f(c) for c in _vec(x)] if x is not UNDEF else [(UNDEF, UNDEF)]
        first = tuple(p[0] for p in parts) if isinstance(x, tuple) else parts[0][0]
        second = tuple(p[1] for p in parts) if isinstance(x, tuple) else parts[0][1]
        inv.store(vals[1], second)
        out = first
    elif name in ("ModfStruct", "FrexpStruct"):
        f = _modf if name == "ModfStruct" else _frexp
        parts = [f(c) for c in _vec(x)]
        if isinstance(x, tuple):
            out = (tuple(p[0] for p in parts), tuple(p[1] for p in parts))
        else:
            out = parts[0]
    elif name == "PackSnorm4x8":
        out = _pack_snorm(x, 8)
    elif name == "PackUnorm4x8":
        out = _pack_unorm(x, 8)
    elif name == "PackSnorm2x16":
        out = _pack_snorm(x, 16)
    elif name == "PackUnorm2x16":
        out = _pack_unorm(x, 16)
    elif name == "PackHalf2x16":
        out = _pack_half(x)
    elif name == "UnpackSnorm2x16":
        out = _unpack_snorm(x, 16, 2)
    elif name == "UnpackUnorm2x16":
        out = _unpack_unorm(x, 16, 2)
    elif name == "UnpackSnorm4x8":
        out = _unpack_snorm(x, 8, 4)
    elif name == "UnpackUnorm4x8":
        out = _unpack_unorm(x, 8, 4)
    elif name == "UnpackHalf2x16":
        out = _unpack_half(x)
    elif name == "PackDouble2x32":
        out = np.array([x[0] | (x[1] << 32)], dtype=np.uint64).view(np.float64)[0]
    elif name == "UnpackDouble2x32":
        bits = int(np.array([x], dtype=np.float64).view(np.uint64)[0])
        out = (bits & mask(32), bits >> 32)
    elif name in ("InterpolateAtCentroid", "InterpolateAtSample", "InterpolateAtOffset"):
        out = inv.load(x)
    else:
        raise Unsupported(ins, f"GLSL.std.450 {name}")
    inv.set(ins, out)
