"""Buffer memory as the layout decorations lay it out (Offset, ArrayStride, MatrixStride,
RowMajor; a member's MatrixStride and RowMajor reach the matrices of its arrays): a
value of a type to bytes and back, for a real driver's buffers."""

from __future__ import annotations

import numpy as np

from spvinspect.codec.interp.types import FLOAT_DTYPES, UNDEF, Type, mask


def scalar_size(t: Type) -> int:
    return 4 if t.kind == "bool" else t.width // 8


def size_of(t: Type, value=None, matrix_stride: int | None = None, row_major: bool = False) -> int:
    """Bytes the value takes (a runtime array's length comes from `value`)."""
    k = t.kind
    if t.is_scalar:
        return scalar_size(t)
    if k == "vector":
        return scalar_size(t.elem) * t.count
    if k == "matrix":
        col = t.elem
        stride = matrix_stride or scalar_size(col.elem) * (4 if col.count == 3 else col.count)
        if row_major:
            return stride * col.count
        return stride * t.count
    if k in ("array", "runtime_array"):
        n = t.count if k == "array" else len(value or ())
        return _stride(t, matrix_stride, row_major) * n
    if k == "struct":
        end = 0
        for i, m in enumerate(t.members):
            mv = value[i] if isinstance(value, tuple) and i < len(value) else None
            end = max(end, _offset(t, i) + size_of(m, mv, t.matrix_strides.get(i), i in t.row_major))
        return end
    return 0


def _stride(t: Type, matrix_stride: int | None = None, row_major: bool = False) -> int:
    if t.array_stride is not None:
        return t.array_stride
    return size_of(t.elem, None, matrix_stride, row_major)


def _offset(t: Type, i: int) -> int:
    if i in t.offsets:
        return t.offsets[i]
    off = 0
    for j in range(i):
        off += size_of(t.members[j])
    return off


def _scalar_bytes(t: Type, v) -> bytes:
    n = scalar_size(t)
    if v is UNDEF:
        return bytes(n)
    if t.kind == "float":
        return np.array([v], dtype=FLOAT_DTYPES[t.width]).tobytes()
    return (int(v) & mask(n * 8)).to_bytes(n, "little")


def _scalar_from(t: Type, data: bytes, at: int):
    n = scalar_size(t)
    chunk = bytes(data[at : at + n])
    if len(chunk) < n:
        return UNDEF
    if t.kind == "float":
        return np.frombuffer(chunk, dtype=FLOAT_DTYPES[t.width])[0]
    v = int.from_bytes(chunk, "little")
    return bool(v) if t.kind == "bool" else v


def encode(t: Type, value, out: bytearray, at: int = 0, matrix_stride: int | None = None, row_major: bool = False) -> None:
    """Write `value` into `out` at byte `at` (growing `out` as needed)."""
    need = at + size_of(t, value, matrix_stride, row_major)
    if len(out) < need:
        out.extend(bytes(need - len(out)))
    k = t.kind
    if t.is_scalar:
        b = _scalar_bytes(t, value)
        out[at : at + len(b)] = b
    elif k == "vector":
        s = scalar_size(t.elem)
        for i, c in enumerate(value):
            encode(t.elem, c, out, at + i * s)
    elif k == "matrix":
        col = t.elem
        s = scalar_size(col.elem)
        stride = matrix_stride or s * (4 if col.count == 3 else col.count)
        for c, column in enumerate(value):
            for r, x in enumerate(column):
                where = at + (r * stride + c * s if row_major else c * stride + r * s)
                encode(col.elem, x, out, where)
    elif k in ("array", "runtime_array"):
        stride = _stride(t, matrix_stride, row_major)
        for i, x in enumerate(value):
            encode(t.elem, x, out, at + i * stride, matrix_stride, row_major)
    elif k == "struct":
        for i, m in enumerate(t.members):
            encode(m, value[i], out, at + _offset(t, i), t.matrix_strides.get(i), i in t.row_major)


def decode(t: Type, data: bytes, at: int = 0, matrix_stride: int | None = None, row_major: bool = False,
           runtime_length: int = 0):
    """The value of `t` at byte `at` of `data` (a runtime array of `runtime_length`)."""
    k = t.kind
    if t.is_scalar:
        return _scalar_from(t, data, at)
    if k == "vector":
        s = scalar_size(t.elem)
        return tuple(_scalar_from(t.elem, data, at + i * s) for i in range(t.count))
    if k == "matrix":
        col = t.elem
        s = scalar_size(col.elem)
        stride = matrix_stride or s * (4 if col.count == 3 else col.count)
        return tuple(
            tuple(_scalar_from(col.elem, data, at + (r * stride + c * s if row_major else c * stride + r * s))
                  for r in range(col.count))
            for c in range(t.count)
        )
    if k in ("array", "runtime_array"):
        n = t.count if k == "array" else runtime_length
        stride = _stride(t, matrix_stride, row_major)
        return tuple(decode(t.elem, data, at + i * stride, matrix_stride, row_major, runtime_length) for i in range(n))
    if k == "struct":
        return tuple(
            decode(m, data, at + _offset(t, i), t.matrix_strides.get(i), i in t.row_major, runtime_length)
            for i, m in enumerate(t.members)
        )
    return UNDEF
