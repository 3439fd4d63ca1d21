"""Sampling over lanes: the sampling instructions of `images` for a coordinate that
differs between the lanes of a wave, with numpy arrays, giving bit for bit what
`images.sample` gives lane by lane (a level is read by the same `images._sample_level`;
this module chooses each lane's face, layer, LOD and levels as `images` does for one).
What it does not cover (gathers, fetches, integer textures, per-lane offsets, a lane
undefined) raises `NotInLanes`, and the wave then runs the instruction lane by lane."""

from __future__ import annotations

import math

import numpy as np

from spvinspect.codec.interp.images import (DIM_1D, DIM_2D, DIM_CUBE, NotInLanes, Sampler, Texture, _offset,
                                            _sample_level, _split, _squared, _weight, gradient_sizes, image_operands,
                                            lerp)
from spvinspect.codec.interp.types import FLOAT_DTYPES, UNDEF

LANE_SAMPLING = {"OpImageSampleImplicitLod", "OpImageSampleExplicitLod", "OpImageSampleDrefImplicitLod",
                 "OpImageSampleDrefExplicitLod", "OpImageSampleProjImplicitLod", "OpImageSampleProjExplicitLod",
                 "OpImageSampleProjDrefImplicitLod", "OpImageSampleProjDrefExplicitLod"}
"""The instructions sampled over lanes at once."""


def _over(v, idx: np.ndarray, dtype=np.float64) -> np.ndarray:
    """A scalar number or an array over all lanes as an array over the lanes `idx`."""
    if isinstance(v, np.ndarray):
        return v[idx].astype(dtype)
    if v is UNDEF or isinstance(v, tuple) or v is None:
        raise NotInLanes
    return np.full(idx.size, v, dtype=dtype)


def _components(v) -> tuple:
    return v if isinstance(v, tuple) else (v,)


def execute_lanes(inv, ins, active: np.ndarray) -> None:
    """`ins` (one of LANE_SAMPLING) for the lanes of `active`; the other lanes get zeros
    (the wave keeps their old values)."""
    op, a = ins.opname, ins.args
    rt = inv.shader.types.get(ins.type_id)
    tex, smp = _split(inv.value(a[0]))
    ct = inv.shader.id_types.get(a[1])
    if (tex is None or rt is None or rt.scalar.kind != "float" or ct is None
            or ct.scalar.kind != "float" or ct.scalar.width != 32):
        raise NotInLanes
    idx = np.flatnonzero(active)
    coord = tuple(_over(c, idx, np.float32) for c in _components(inv.value(a[1])))
    dref = None
    rest = a[2:]
    if "Dref" in op:
        dref = _over(inv.value(a[2]), idx, np.float32)
        rest = a[3:]
    ops = image_operands(inv, rest)
    if any(isinstance(c, np.ndarray) for v in ops.get("ConstOffset", []) + ops.get("Offset", []) for c in _components(v)):
        raise NotInLanes
    if "Proj" in op:
        q = coord[-1]
        coord = tuple(x / q for x in coord[:-1])
        if dref is not None:
            dref = dref / q
    if not all(np.isfinite(c).all() for c in coord):
        raise NotInLanes
    if "ImplicitLod" in op:
        seen = _components(inv.value(a[1]))  # every lane's, as the quads' derivatives need
        if "Proj" in op:
            seen = tuple(x / seen[-1] for x in seen[:-1])
        inv.block_on("coarse", ins, seen if len(seen) > 1 else seen[0])
        dx, dy = inv.answer
        inv.answer = None
        lod = lod_over_lanes(tex, dx, dy, idx) + _over(ops.get("Bias", [0])[0], idx)
    elif "Grad" in ops:
        lod = lod_over_lanes(tex, ops["Grad"][0], ops["Grad"][1], idx)
    else:
        lod = _over(ops.get("Lod", [0])[0], idx)
    if "MinLod" in ops:
        lod = np.maximum(lod, _over(ops["MinLod"][0], idx))
    lod = np.where(np.isnan(lod), 0.0, lod)
    rgba = sample_lanes(tex, smp or Sampler(), coord, lod, _offset(ops))
    n = active.size
    if dref is not None:
        full = np.zeros(n, dtype=np.float32)
        full[idx] = np.where(dref <= rgba[:, 0], np.float32(1), np.float32(0))
        inv.set(ins, full)
        return
    full = np.zeros((n, 4), dtype=np.float32)
    full[idx] = rgba
    dt = FLOAT_DTYPES[rt.scalar.width]
    if rt.kind == "vector":
        inv.set(ins, tuple(full[:, i].astype(dt) if i < 4 else np.zeros(n, dtype=dt) for i in range(rt.count)))
    else:
        inv.set(ins, full[:, 0].astype(dt))


def lod_over_lanes(tex: Texture, dx, dy, idx: np.ndarray) -> np.ndarray:
    """`images.lod_from_gradients` for each lane of `idx`."""
    sizes, n = gradient_sizes(tex)
    dx, dy = _components(dx), _components(dy)
    lx = np.sqrt(sum(_squared(_over(dx[i], idx) * sizes[i]) for i in range(min(n, len(dx)))))
    ly = np.sqrt(sum(_squared(_over(dy[i], idx) * sizes[i]) for i in range(min(n, len(dy)))))
    rho = np.maximum(lx, ly)
    return np.array([math.log2(r) if r > 0 else -math.inf for r in rho.tolist()], dtype=np.float64)


def sample_lanes(tex: Texture, sampler: Sampler, coord: tuple, lod: np.ndarray, offset) -> np.ndarray:
    """`images.sample` for each lane: coord's components and lod are arrays over the
    lanes; RGBA as an array [lanes, 4]."""
    layer = np.zeros(lod.size, dtype=np.int64)
    if tex.dim == DIM_CUBE:
        face, uv = _cube_lanes(coord)
        cubes = tex.levels[0].shape[0] // 6
        layer = face + (6 * np.clip(np.rint(coord[3].astype(np.float64)), 0, cubes - 1).astype(np.int64)
                        if tex.arrayed else 0)
        coord = uv
    elif tex.arrayed:
        n = {DIM_1D: 1, DIM_2D: 2}.get(tex.dim, 2)
        layer = np.clip(np.rint(coord[n].astype(np.float64)), 0, tex.levels[0].shape[0] - 1).astype(np.int64)
        coord = coord[:n]
    coord = tuple(c.astype(np.float64) for c in coord)
    levels = len(tex.levels)
    lod = np.clip(lod, 0.0, levels - 1)
    if sampler.mipmap == "nearest":
        return _by_level(tex, np.ceil(lod + 0.5) - 1, coord, sampler, layer, offset)
    l0 = np.floor(lod)
    whole = _by_level(tex, l0, coord, sampler, layer, offset)
    between = lod != l0
    if not between.any():
        return whole
    a = _weight(lod - l0)
    upper = _by_level(tex, np.where(between, l0 + 1, l0), coord, sampler, layer, offset)
    return np.where(between[:, None], lerp(whole, upper, a).astype(np.float32), whole)


def _cube_lanes(coord) -> tuple[np.ndarray, tuple]:
    """`images._cube` for each lane: the face and (s, t) on it."""
    x, y, z = (c.astype(np.float64) for c in coord[:3])
    ax, ay, az = np.abs(x), np.abs(y), np.abs(z)
    if ((ax == 0) & (ay == 0) & (az == 0)).any():
        raise NotInLanes  # the zero direction: undefined, said lane by lane
    on_x = (ax >= ay) & (ax >= az)
    on_y = ~on_x & (ay >= az)
    on_z = ~on_x & ~on_y
    px, py, pz = x >= 0, y >= 0, z >= 0
    face = np.select([on_x & px, on_x, on_y & py, on_y, on_z & pz], [0, 1, 2, 3, 4], 5)
    sc = np.select([on_x & px, on_x, on_y, on_z & pz], [-z, z, x, x], -x)
    tc = np.select([on_x, on_y & py, on_y, on_z], [-y, z, -z, -y], -y)
    ma = np.select([on_x, on_y], [ax, ay], az)
    return face.astype(np.int64), ((sc / ma + 1) / 2, (tc / ma + 1) / 2)


def _by_level(tex, level: np.ndarray, coord, sampler, layer, offset) -> np.ndarray:
    out = np.zeros((level.size, 4), dtype=np.float32)
    for lv in np.unique(level):
        at = level == lv
        out[at] = _sample_level(tex, int(lv), tuple(c[at] for c in coord), sampler, layer[at], offset)
    return out
