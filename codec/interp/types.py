"""The types of a module as the interpreter sees them, with their layout decorations,
and the values of each type: zero, undefined, and their JSON forms.

Values: bool; integers as Python ints kept unsigned modulo 2**width (signless, as
SPIR-V's are); floats as numpy scalars of their width (float16/32/64); vectors, matrices
(columns), arrays and structs as tuples; `UNDEF` for an undefined scalar.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

FLOAT_DTYPES = {16: np.float16, 32: np.float32, 64: np.float64}
UINT_DTYPES = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


class _Undef:
    """An undefined value: OpUndef, an out-of-bounds load, a division by zero."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "undef"

    def __reduce__(self):
        return (_Undef, ())


UNDEF = _Undef()


@dataclass(eq=False)
class Type:
    """One OpType*: its kind and what it is made of, with the layout the decorations give."""

    id: int
    kind: str
    """void bool int float vector matrix array runtime_array struct pointer image sampler
    sampled_image function accel other"""
    width: int = 0
    signed: bool = False
    count: int = 0
    """Components of a vector, columns of a matrix, elements of an array."""
    elem: Type | None = None
    """Component, column, element or pointee type."""
    members: list[Type] = field(default_factory=list)
    storage: int = -1
    """A pointer's storage class."""
    name: str = ""
    member_names: dict[int, str] = field(default_factory=dict)
    array_stride: int | None = None
    offsets: dict[int, int] = field(default_factory=dict)
    matrix_strides: dict[int, int] = field(default_factory=dict)
    row_major: set[int] = field(default_factory=set)
    block: bool = False
    buffer_block: bool = False
    image: tuple = ()
    """An image's (sampled type, Dim, Depth, Arrayed, MS, Sampled, Format)."""
    opname: str = ""

    @property
    def is_scalar(self) -> bool:
        return self.kind in ("bool", "int", "float")

    @property
    def scalar(self) -> Type:
        """The component type of a scalar or vector (a matrix's too)."""
        t = self
        while t.kind in ("vector", "matrix"):
            t = t.elem
        return t

    def member_name(self, i: int) -> str:
        return self.member_names.get(i) or f"member {i}"


def mask(width: int) -> int:
    return (1 << width) - 1


def to_signed(value: int, width: int) -> int:
    """The two's-complement reading of an unsigned `value` of `width` bits (an array of
    them lane by lane, as int64)."""
    if isinstance(value, np.ndarray):
        if width == 64:
            return value.astype(np.uint64).view(np.int64)
        value = value.astype(np.int64)
        return value - ((value >> (width - 1)) & 1) * (1 << width)
    return value - (1 << width) if value >> (width - 1) & 1 else value


def pick(cond, a, b):
    """`a` where `cond` holds, else `b`: for a scalar condition, one of them as it is; for
    an array (one condition a lane), lane by lane."""
    if isinstance(cond, np.ndarray):
        return np.where(cond, a, b)
    return a if cond else b


def undefined_where(cond) -> bool:
    """Whether a result the spec leaves undefined where `cond` holds is undefined. For one
    condition a lane: True in every lane, False in none, and in some lanes only a
    ValueError, so that the lanes run the instruction lane by lane."""
    if isinstance(cond, np.ndarray):
        if not cond.any():
            return False
        if cond.all():
            return True
        raise ValueError("undefined in some lanes only")
    return bool(cond)


def truth(x):
    """A condition as the interpreter keeps it: a bool, or an array of them over lanes."""
    return x if isinstance(x, np.ndarray) else bool(x)


def zero(t: Type):
    """OpConstantNull's value of `t`."""
    k = t.kind
    if k == "bool":
        return False
    if k == "int":
        return 0
    if k == "float":
        return FLOAT_DTYPES[t.width](0)
    if k in ("vector", "matrix", "array"):
        z = zero(t.elem)
        return (z,) * t.count
    if k == "struct":
        return tuple(zero(m) for m in t.members)
    if k == "runtime_array":
        return ()
    return UNDEF


def undef(t: Type):
    """An undefined value of `t`, with its composite shape kept so parts can be set."""
    k = t.kind
    if k in ("vector", "matrix", "array"):
        return (undef(t.elem),) * t.count
    if k == "struct":
        return tuple(undef(m) for m in t.members)
    if k == "runtime_array":
        return ()
    return UNDEF


def float_bits(bits: int, width: int):
    """The float of `width` bits whose encoding is `bits`."""
    return np.array([bits], dtype=UINT_DTYPES[width]).view(FLOAT_DTYPES[width])[0]


def bits_of_float(value, width: int) -> int:
    return int(np.array([value], dtype=FLOAT_DTYPES[width]).view(UINT_DTYPES[width])[0])


def scalar_from_json(t: Type, value):
    """A scalar of `t` from a JSON number (or bool); ints wrap at the width."""
    if t.kind == "bool":
        return bool(value)
    if t.kind == "int":
        if isinstance(value, float):
            value = int(value)
        return int(value) & mask(t.width)
    if t.kind == "float":
        if isinstance(value, str):
            value = float(value)
        return FLOAT_DTYPES[t.width](value)
    raise ValueError(f"cannot make a {t.kind} from {value!r}")


def from_json(t: Type, value, default=None, runtime_length: int = 0):
    """A value of `t` from JSON: numbers, lists (vectors, arrays, matrix columns) and
    objects (struct members by name, else `member N`). What is left out takes `default`
    (a value of `t`) or zero; a runtime array gets `runtime_length` elements by default."""
    if default is None:
        default = zero(t)
        if t.kind == "runtime_array":
            default = (zero(t.elem),) * runtime_length
    if value is None:
        return default
    k = t.kind
    if t.is_scalar:
        if isinstance(value, (list, dict)):
            raise ValueError(f"expected a number for {k}, got {type(value).__name__}")
        return scalar_from_json(t, value)
    if k in ("vector", "matrix", "array", "runtime_array"):
        if not isinstance(value, list):
            if k == "vector" and isinstance(value, (int, float)):
                value = [value] * t.count
            else:
                raise ValueError(f"expected a list for {k}, got {type(value).__name__}")
        count = len(value) if k == "runtime_array" else t.count
        out = []
        for i in range(count):
            d = default[i] if i < len(default) else zero(t.elem)
            out.append(from_json(t.elem, value[i] if i < len(value) else None, d))
        return tuple(out)
    if k == "struct":
        if not isinstance(value, dict):
            if isinstance(value, list):
                value = {t.member_name(i): v for i, v in enumerate(value)}
            else:
                raise ValueError(f"expected an object for a struct, got {type(value).__name__}")
        out = []
        for i, m in enumerate(t.members):
            v = value.get(t.member_name(i), value.get(f"member {i}"))
            out.append(from_json(m, v, default[i] if i < len(default) else None, runtime_length))
        return tuple(out)
    return default


def scalar_json(v):
    """A scalar as JSON: numbers, bools; NaN and infinities as strings; undef as "undef"."""
    if v is UNDEF:
        return "undef"
    if isinstance(v, (bool, int)):
        return v
    if isinstance(v, np.floating):
        f = float(v)
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    if isinstance(v, np.integer):
        return int(v)
    return repr(v)


def to_json(t: Type | None, v):
    """`v` of type `t` as JSON: signed ints as signed, structs as objects."""
    if isinstance(v, tuple):
        if t is not None and t.kind == "struct":
            return {t.member_name(i): to_json(t.members[i] if i < len(t.members) else None, x) for i, x in enumerate(v)}
        elem = t.elem if t is not None else None
        return [to_json(elem, x) for x in v]
    if t is not None and t.kind == "int" and t.signed and isinstance(v, int) and not isinstance(v, bool):
        return to_signed(v, t.width)
    if hasattr(v, "to_json"):
        return v.to_json()
    return scalar_json(v)


def describe(t: Type | None) -> str:
    """A short type name: `float`, `vec4`, `uint`, `int16`, `struct S`."""
    if t is None:
        return "?"
    k = t.kind
    if k == "int":
        return ("int" if t.signed else "uint") + ("" if t.width == 32 else str(t.width))
    if k == "float":
        return {16: "half", 32: "float", 64: "double"}.get(t.width, f"float{t.width}")
    if k == "vector":
        return f"{describe(t.elem)}{t.count}"
    if k == "matrix":
        return f"mat{t.count}x{t.elem.count}"
    if k == "array":
        return f"{describe(t.elem)}[{t.count}]"
    if k == "runtime_array":
        return f"{describe(t.elem)}[]"
    if k == "struct":
        return f"struct {t.name}" if t.name else "struct"
    return k
