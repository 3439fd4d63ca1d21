"""Buffer layouts: values to bytes and back as Offset, ArrayStride, MatrixStride and
RowMajor say, checked against byte offsets computed by hand."""

from __future__ import annotations

import struct

import numpy as np

from spvinspect.codec.interp import layout
from spvinspect.codec.interp.types import Type

F32 = Type(1, "float", width=32)
U32 = Type(2, "int", width=32)
VEC2 = Type(3, "vector", count=2, elem=F32)
MAT2 = Type(4, "matrix", count=2, elem=VEC2)


def _block():
    arr = Type(5, "array", count=2, elem=U32, array_stride=16)
    t = Type(6, "struct", members=[MAT2, MAT2, arr, F32])
    t.offsets = {0: 0, 1: 32, 2: 64, 3: 100}
    t.matrix_strides = {0: 16, 1: 8}
    t.row_major = {1}
    return t


def _f(*xs):
    return tuple(np.float32(x) for x in xs)


def test_encode_places_members_columns_rows_and_elements_by_their_decorations():
    t = _block()
    value = ((_f(1, 2), _f(3, 4)), (_f(5, 6), _f(7, 8)), (9, 10), np.float32(11))
    out = bytearray()
    layout.encode(t, value, out)
    assert len(out) == 104
    floats = lambda at, n: list(struct.unpack_from(f"<{n}f", out, at))  # noqa: E731
    # Column-major, stride 16: column 0 at 0, column 1 at 16.
    assert floats(0, 2) == [1, 2] and floats(16, 2) == [3, 4]
    # Row-major, stride 8: row 0 = (m[0][0], m[1][0]) at 32, row 1 at 40.
    assert floats(32, 2) == [5, 7] and floats(40, 2) == [6, 8]
    assert struct.unpack_from("<I", out, 64)[0] == 9 and struct.unpack_from("<I", out, 80)[0] == 10
    assert floats(100, 1) == [11]
    assert layout.decode(t, bytes(out)) == value


def test_runtime_arrays_take_their_length_from_the_value():
    rt = Type(7, "runtime_array", elem=U32, array_stride=4)
    t = Type(8, "struct", members=[U32, rt])
    t.offsets = {0: 0, 1: 16}
    out = bytearray()
    layout.encode(t, (1, (2, 3, 4)), out)
    assert len(out) == 28
    assert layout.decode(t, bytes(out), runtime_length=3) == (1, (2, 3, 4))


def test_row_major_and_matrix_stride_reach_matrices_inside_arrays():
    """A member's MatrixStride and RowMajor apply to the matrices of an array (of arrays):
    the struct-packing misses against lavapipe were `layout(row_major) mat2x3 m6[4][2]`
    written column-major."""
    inner = Type(9, "array", count=2, elem=MAT2, array_stride=16)
    outer = Type(10, "array", count=2, elem=inner, array_stride=32)
    t = Type(11, "struct", members=[outer])
    t.offsets = {0: 0}
    t.matrix_strides = {0: 8}
    t.row_major = {0}
    m = lambda k: (_f(k, k + 1), _f(k + 2, k + 3))  # noqa: E731
    value = (((m(0), m(10)), (m(20), m(30))),)
    out = bytearray()
    layout.encode(t, value, out)
    floats = lambda at, n: list(struct.unpack_from(f"<{n}f", out, at))  # noqa: E731
    # Element [1][1] at 32 + 16 = 48, row 0 = (m[0][0], m[1][0]) = (30, 32), row 1 at 56.
    assert floats(48, 2) == [30, 32] and floats(56, 2) == [31, 33]
    assert layout.decode(t, bytes(out)) == value
