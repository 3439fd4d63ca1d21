"""Texture sampling for `texld`: 2D textures, nearest or bilinear, repeat or clamp.

The filter and wrap live in the texture descriptor, not in the instruction, so they come
with the inputs. One mip level only (`lod_bias` and `explicit_lod` change nothing then).
Coordinates and results are fp16; filtering follows the OpenGL ES 2.0 rules (section
3.7.7: texel centres at half-integers, bilinear weights from the fractional part).
"""

from __future__ import annotations

import numpy as np

from spvinspect.lima.emulator.fp16 import half
from spvinspect.lima.emulator.inputs import Texture


def _wrap(index: np.ndarray, size: int, mode: str) -> np.ndarray:
    if mode == "clamp":
        return np.clip(index, 0, size - 1)
    return np.mod(index, size)


def sample(texture: Texture, s: np.ndarray, t: np.ndarray) -> np.ndarray:
    """(N, 4) fp16 texels at coordinates (s, t); t = 0 is the bottom row."""
    s = np.nan_to_num(s.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0)
    t = np.nan_to_num(t.astype(np.float64), nan=0.0, posinf=0.0, neginf=0.0)
    if texture.wrap == "clamp":
        s = np.clip(s, 0.0, 1.0)
        t = np.clip(t, 0.0, 1.0)
    u = s * texture.width
    v = t * texture.height
    if texture.filter == "nearest":
        i = _wrap(np.floor(u).astype(np.int64), texture.width, texture.wrap)
        j = _wrap(np.floor(v).astype(np.int64), texture.height, texture.wrap)
        return half(texture.texels[j, i])
    u0 = np.floor(u - 0.5)
    v0 = np.floor(v - 0.5)
    a = (u - 0.5 - u0)[:, None]
    b = (v - 0.5 - v0)[:, None]
    i0 = _wrap(u0.astype(np.int64), texture.width, texture.wrap)
    i1 = _wrap(u0.astype(np.int64) + 1, texture.width, texture.wrap)
    j0 = _wrap(v0.astype(np.int64), texture.height, texture.wrap)
    j1 = _wrap(v0.astype(np.int64) + 1, texture.height, texture.wrap)
    texels = texture.texels
    value = (
        (1 - a) * (1 - b) * texels[j0, i0]
        + a * (1 - b) * texels[j0, i1]
        + (1 - a) * b * texels[j1, i0]
        + a * b * texels[j1, i1]
    )
    return half(value)
