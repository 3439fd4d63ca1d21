"""Images and samplers: textures as float32 RGBA arrays with their mip levels, sampled
with nearest or linear filtering (repeat or clamp-to-edge addressing), fetched, queried,
read and written. Inputs give a texture as `{"width", "height", "rgba": [...]}` (plus
`depth`, `layers`, `mips`) and a sampler as `{"filter", "mipmap", "address"}`."""

from __future__ import annotations

import math

import numpy as np

from spvinspect.codec.interp.types import FLOAT_DTYPES, UNDEF, Type, mask, to_signed, undef

DIM_1D, DIM_2D, DIM_3D, DIM_CUBE, DIM_RECT, DIM_BUFFER, DIM_SUBPASS = 0, 1, 2, 3, 4, 5, 6


class Sampler:
    def __init__(self, filter_: str = "linear", mipmap: str = "nearest", address: str = "clamp") -> None:
        for what, value, allowed in (("filter", filter_, ("nearest", "linear")), ("mipmap", mipmap, ("nearest", "linear")),
                                     ("address", address, ("clamp", "repeat"))):
            if value not in allowed:
                raise ValueError(f"sampler {what} must be one of {', '.join(allowed)}, not {value!r}")
        self.filter, self.mipmap, self.address = filter_, mipmap, address

    def to_json(self):
        return {"filter": self.filter, "mipmap": self.mipmap, "address": self.address}


class Texture:
    """An image's texels: levels[i] is an array [layers or depth, height, width, 4]."""

    def __init__(self, levels: list[np.ndarray], dim: int, arrayed: bool) -> None:
        self.levels = levels
        self.dim = dim
        self.arrayed = arrayed
        self.written = False

    @property
    def size(self):
        d, h, w, _ = self.levels[0].shape
        return w, h, d

    def to_json(self):
        lv = self.levels[0]
        d, h, w, _ = lv.shape
        out = {"width": w, "height": h, "rgba": [float(x) for x in lv.reshape(-1)]}
        if d > 1:
            out["depth" if self.dim == DIM_3D else "layers"] = d
        return out


def _mip_chain(base: np.ndarray, dim: int) -> list[np.ndarray]:
    levels = [base]
    while True:
        d, h, w, _ = levels[-1].shape
        if h == 1 and w == 1 and (dim != DIM_3D or d == 1):
            return levels
        lv = levels[-1]
        nh, nw = max(1, h // 2), max(1, w // 2)
        nd = max(1, d // 2) if dim == DIM_3D else d
        ys = np.minimum(np.arange(nh) * 2, h - 1)
        xs = np.minimum(np.arange(nw) * 2, w - 1)
        ys1, xs1 = np.minimum(ys + 1, h - 1), np.minimum(xs + 1, w - 1)
        if dim == DIM_3D:
            zs = np.minimum(np.arange(nd) * 2, d - 1)
            zs1 = np.minimum(zs + 1, d - 1)
            lv = (lv[zs] + lv[zs1]) * np.float32(0.5)
        out = (lv[:, ys][:, :, xs] + lv[:, ys][:, :, xs1] + lv[:, ys1][:, :, xs] + lv[:, ys1][:, :, xs1]) * np.float32(0.25)
        levels.append(out.astype(np.float32))


def texture_from_json(t: Type, given: dict) -> Texture:
    dim, arrayed = t.image[1], bool(t.image[3])
    w, h = int(given.get("width", 1)), int(given.get("height", 1))
    d = int(given.get("depth", given.get("layers", 6 if dim == DIM_CUBE else 1)))
    rgba = np.asarray(given.get("rgba", []), dtype=np.float32)
    if w < 1 or h < 1 or d < 1 or w * h * d > 1 << 22:
        raise ValueError(f"bad image size {w}x{h}x{d}")
    if rgba.size != w * h * d * 4:
        raise ValueError(f"rgba has {rgba.size} numbers, {w}x{h}x{d} RGBA needs {w * h * d * 4}")
    base = rgba.reshape(d, h, w, 4)
    levels = _mip_chain(base, dim) if given.get("mips", True) else [base]
    return Texture(levels, dim, arrayed)


_DEFAULTS: dict[tuple[int, bool], list[np.ndarray]] = {}


def default_texture(t: Type) -> Texture:
    """A 4x4 gradient (red across, green down, blue by layer), with its mip chain."""
    dim, arrayed = t.image[1], bool(t.image[3])
    levels = _DEFAULTS.get((dim, arrayed))
    if levels is None:
        levels = _DEFAULTS[(dim, arrayed)] = _default_levels(dim, arrayed)
    return Texture([lv.copy() for lv in levels], dim, arrayed)


def _default_levels(dim: int, arrayed: bool) -> list[np.ndarray]:
    w = h = 4
    d = 4 if dim == DIM_3D else (12 if arrayed else 6) if dim == DIM_CUBE else 2 if arrayed else 1
    if dim == DIM_1D:
        h = 1
    z, y, x = np.meshgrid(np.arange(d), np.arange(h), np.arange(w), indexing="ij")
    base = np.stack([(x + 0.5) / w, (y + 0.5) / h, (z + 0.5) / d, np.ones_like(x, dtype=float)], axis=-1)
    return _mip_chain(base.astype(np.float32), dim)


def _resource(t: Type, given, key):
    if t.kind == "image":
        return texture_from_json(t, given) if isinstance(given, dict) and "rgba" in given else default_texture(t)
    if t.kind == "sampler":
        g = given if isinstance(given, dict) else {}
        return Sampler(g.get("filter", "linear"), g.get("mipmap", "nearest"), g.get("address", "clamp"))
    if t.kind == "sampled_image":
        g = given if isinstance(given, dict) else {}
        tex = texture_from_json(t.elem, g) if "rgba" in g else default_texture(t.elem)
        s = g.get("sampler", {})
        return (tex, Sampler(s.get("filter", "linear"), s.get("mipmap", "nearest"), s.get("address", "clamp")))
    if t.kind in ("array", "runtime_array"):
        n = t.count if t.kind == "array" else 4
        items = given if isinstance(given, list) else [given] * n
        return tuple(_resource(t.elem, items[i] if i < len(items) else None, key) for i in range(n))
    return UNDEF


def default_resource(t: Type, key):
    return _resource(t, None, key)


def resource_from_json(t: Type, given, key):
    return _resource(t, given, key)


# -- sampling -------------------------------------------------------------------------------
def _wrap(i, n, address):
    """Texel index `i` (an int, or an array of them over lanes) addressed into 0..n-1."""
    if address == "repeat":
        return i % n
    if isinstance(i, np.ndarray):
        return np.clip(i, 0, n - 1)
    return 0 if i < 0 else n - 1 if i >= n else i


LARGEST_TEXEL = 2.0 ** 52
"""Past this a texel coordinate over lanes is not an exact int64: such lanes sample one by one."""


class NotInLanes(Exception):
    """A sampling over lanes left to the lanes one by one (see `images_lanes`)."""


def _floor(x):
    """The texel index below `x`: a Python int for one lane, int64 over lanes."""
    if not isinstance(x, np.ndarray):
        return math.floor(x)
    if (np.abs(x) > LARGEST_TEXEL).any():
        raise NotInLanes
    return np.floor(x).astype(np.int64)


def _weight(f):
    """A filter weight in float32: a scalar for one lane, a column [lanes, 1] over lanes."""
    return f.astype(np.float32)[:, None] if isinstance(f, np.ndarray) else np.float32(f)


def lerp(a, b, t):
    """The one blend of linear filtering (of texels, of 3D planes, of mip levels)."""
    return a * (1 - t) + b * t


def _sample_level(tex: Texture, level: int, coord, sampler: Sampler, layer, offset=(0, 0, 0)):
    """RGBA at `coord` (float64) on one mip level: for one lane (floats, an int layer;
    RGBA [4]) or for many with the very same arithmetic (arrays over the lanes; RGBA
    [lanes, 4])."""
    lv = tex.levels[min(max(level, 0), len(tex.levels) - 1)]
    d, h, w, _ = lv.shape
    u = coord[0] + offset[0] / w
    v = (coord[1] if len(coord) > 1 and tex.dim != DIM_1D else 0.5) + offset[1] / h
    zc = coord[2] + offset[2] / d if tex.dim == DIM_3D else None
    if sampler.filter == "nearest":
        x = _wrap(_floor(u * w), w, sampler.address)
        y = _wrap(_floor(v * h), h, sampler.address)
        z = _wrap(_floor(zc * d), d, sampler.address) if zc is not None else layer
        return lv[z, y, x].astype(np.float32)
    fx, fy = u * w - 0.5, v * h - 0.5
    x0, y0 = _floor(fx), _floor(fy)
    ax, ay = _weight(fx - x0), _weight(fy - y0)
    if tex.dim == DIM_CUBE:
        quad = [[_cube_texels(lv, layer, x, y) for x in (x0, x0 + 1)] for y in (y0, y0 + 1)]
        return lerp(lerp(quad[0][0], quad[0][1], ax), lerp(quad[1][0], quad[1][1], ax), ay).astype(np.float32)
    xs = [_wrap(x0, w, sampler.address), _wrap(x0 + 1, w, sampler.address)]
    ys = [_wrap(y0, h, sampler.address), _wrap(y0 + 1, h, sampler.address)]

    def plane(z):
        return lerp(lerp(lv[z, ys[0], xs[0]], lv[z, ys[0], xs[1]], ax), lerp(lv[z, ys[1], xs[0]], lv[z, ys[1], xs[1]], ax), ay)

    if zc is not None:
        fz = zc * d - 0.5
        z0 = _floor(fz)
        az = _weight(fz - z0)
        return lerp(plane(_wrap(z0, d, sampler.address)), plane(_wrap(z0 + 1, d, sampler.address)), az).astype(np.float32)
    return plane(layer).astype(np.float32)


def _cube_texels(lv: np.ndarray, layer, x, y):
    """`_cube_texel` for one lane, or for each lane of arrays (those inside the face
    read at once)."""
    if not isinstance(x, np.ndarray) and not isinstance(y, np.ndarray):
        return _cube_texel(lv, layer, x, y)
    _, h, w, _ = lv.shape
    x, y = np.broadcast_to(x, np.shape(layer)), np.broadcast_to(y, np.shape(layer))
    inside = (x >= 0) & (x < w) & (y >= 0) & (y < h)
    out = lv[layer, np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]
    for k in np.flatnonzero(~inside).tolist():
        out[k] = _cube_texel(lv, int(layer[k]), int(x[k]), int(y[k]))
    return out


def _cube_texel(lv: np.ndarray, layer: int, x: int, y: int):
    """Texel (x, y) of a cube face, seamless as Vulkan filters cube maps: a texel past
    an edge is read from the neighbouring face; past a corner, the three texels
    around the corner are averaged."""
    _, h, w, _ = lv.shape
    inside_x, inside_y = 0 <= x < w, 0 <= y < h
    if inside_x and inside_y:
        return lv[layer, y, x]
    if not inside_x and not inside_y:
        cx, cy = min(max(x, 0), w - 1), min(max(y, 0), h - 1)
        return (lv[layer, cy, cx] + _cube_texel(lv, layer, x, cy) + _cube_texel(lv, layer, cx, y)) / np.float32(3)
    face = layer % 6
    sc, tc = 2 * (x + 0.5) / w - 1, 2 * (y + 0.5) / h - 1
    direction = {0: (1, -tc, -sc), 1: (-1, -tc, sc), 2: (sc, 1, tc), 3: (sc, -1, -tc),
                 4: (sc, -tc, 1), 5: (-sc, -tc, -1)}[face]
    other, (s2, t2) = _cube(direction)
    nx, ny = min(max(math.floor(s2 * w), 0), w - 1), min(max(math.floor(t2 * h), 0), h - 1)
    return lv[layer - face + other, ny, nx]


def _cube(coord):
    x, y, z = (float(c) for c in coord[:3])
    ax, ay, az = abs(x), abs(y), abs(z)
    if ax >= ay and ax >= az:
        face, sc, tc, ma = (0, -z, -y, ax) if x >= 0 else (1, z, -y, ax)
    elif ay >= az:
        face, sc, tc, ma = (2, x, z, ay) if y >= 0 else (3, x, -z, ay)
    else:
        face, sc, tc, ma = (4, x, -y, az) if z >= 0 else (5, -x, -y, az)
    if ma == 0:
        return face, (0.5, 0.5)
    return face, ((sc / ma + 1) / 2, (tc / ma + 1) / 2)


def sample(tex: Texture, sampler: Sampler, coord, lod: float, offset=(0, 0, 0)):
    """RGBA at `coord` (normalised; arrays' last component is the layer) at `lod`."""
    coord = tuple(coord) if isinstance(coord, tuple) else (coord,)
    layer = 0
    if tex.dim == DIM_CUBE:
        face, uv = _cube(coord)
        cubes = tex.levels[0].shape[0] // 6
        layer = face + (6 * min(max(int(round(float(coord[3]))), 0), cubes - 1) if tex.arrayed else 0)
        coord = uv
    elif tex.arrayed:
        n = {DIM_1D: 1, DIM_2D: 2}.get(tex.dim, 2)
        layer = min(max(int(round(float(coord[n]))), 0), tex.levels[0].shape[0] - 1)
        coord = coord[:n]
    coord = tuple(float(c) for c in coord)
    levels = len(tex.levels)
    lod = min(max(lod, 0.0), levels - 1) if not math.isnan(lod) else 0.0
    if sampler.mipmap == "nearest" or lod == int(lod):
        level = math.ceil(lod + 0.5) - 1 if sampler.mipmap == "nearest" else int(lod)
        return _sample_level(tex, level, coord, sampler, layer, offset)
    l0 = int(math.floor(lod))
    a = np.float32(lod - l0)
    return lerp(_sample_level(tex, l0, coord, sampler, layer, offset), _sample_level(tex, l0 + 1, coord, sampler, layer, offset), a).astype(np.float32)


def gradient_sizes(tex: Texture) -> tuple[list[int], int]:
    """What a coordinate's derivatives are scaled by (the base level's width, height and a
    3D image's depth), and how many of the coordinate's components count."""
    d, h, w, _ = tex.levels[0].shape
    return [w, h, d if tex.dim == DIM_3D else 1], {DIM_1D: 1, DIM_3D: 3, DIM_CUBE: 3}.get(tex.dim, 2)


def lod_from_gradients(tex: Texture, dx, dy) -> float:
    sizes, n = gradient_sizes(tex)
    dx = dx if isinstance(dx, tuple) else (dx,)
    dy = dy if isinstance(dy, tuple) else (dy,)
    lx = math.sqrt(sum(_squared(float(dx[i]) * sizes[i]) for i in range(min(n, len(dx)))))
    ly = math.sqrt(sum(_squared(float(dy[i]) * sizes[i]) for i in range(min(n, len(dy)))))
    rho = max(lx, ly)
    return math.log2(rho) if rho > 0 else -math.inf


def _squared(x: float) -> float:
    return x * x  # one rounding, as over lanes (images_lanes)


class TexelRef(list):
    """A texel's first component seen as memory, for atomics on images: writes go
    through to the texture."""

    def __init__(self, tex: Texture, where, t: Type) -> None:
        lv, z, y, x = where
        self.tex, self.where, self.t = tex, where, t
        v = lv[z, y, x, 0]
        super().__init__([FLOAT_DTYPES[t.width](v) if t.kind == "float" else int(v) & mask(t.width)])

    def __getitem__(self, i):
        lv, z, y, x = self.where
        v = lv[z, y, x, 0]
        t = self.t
        return FLOAT_DTYPES[t.width](v) if t.kind == "float" else int(v) & mask(t.width)

    def __setitem__(self, i, value) -> None:
        super().__setitem__(i, value)
        lv, z, y, x = self.where
        lv[z, y, x, 0] = to_signed(value, self.t.width) if self.t.kind == "int" and self.t.signed else value
        self.tex.written = True


def _offset(ops):
    for name in ("ConstOffset", "Offset"):
        if name in ops:
            v = ops[name][0]
            v = v if isinstance(v, tuple) else (v,)
            return tuple(to_signed(int(c), 32) for c in v) + (0,) * (3 - len(v))
    return (0, 0, 0)


def gather(tex: Texture, sampler: Sampler, coord, comp: int, offset, dref=None):
    """The four texels bilinear filtering would read, component `comp` of each, in
    the order (i0,j1) (i1,j1) (i1,j0) (i0,j0)."""
    coord = coord if isinstance(coord, tuple) else (coord,)
    layer = int(np.clip(round(float(coord[2])), 0, tex.levels[0].shape[0] - 1)) if tex.arrayed and len(coord) > 2 else 0
    lv = tex.levels[0]
    d, h, w, _ = lv.shape
    fx = float(coord[0]) * w - 0.5 + offset[0]
    fy = float(coord[1]) * h - 0.5 + offset[1]
    x0, y0 = math.floor(fx), math.floor(fy)
    xs = [_wrap(x0, w, sampler.address), _wrap(x0 + 1, w, sampler.address)]
    ys = [_wrap(y0, h, sampler.address), _wrap(y0 + 1, h, sampler.address)]
    picks = [(xs[0], ys[1]), (xs[1], ys[1]), (xs[1], ys[0]), (xs[0], ys[0])]
    vals = [lv[layer, y, x, comp] for x, y in picks]
    if dref is not None:
        vals = [np.float32(1.0 if np.float32(dref) <= v else 0.0) for v in vals]
    return vals


# -- the instructions -----------------------------------------------------------------------
OPERAND_BITS = [(0x1, "Bias", 1), (0x2, "Lod", 1), (0x4, "Grad", 2), (0x8, "ConstOffset", 1),
                (0x10, "Offset", 1), (0x20, "ConstOffsets", 1), (0x40, "Sample", 1), (0x80, "MinLod", 1),
                (0x100, "MakeTexelAvailable", 1), (0x200, "MakeTexelVisible", 1), (0x10000, "Offsets", 1)]


def image_operands(inv, args):
    if not args:
        return {}
    m = args[0]
    out, i = {}, 1
    for bit, name, n in OPERAND_BITS:
        if m & bit:
            out[name] = [inv.value(a) for a in args[i : i + n]]
            i += n
    return out


def _result(rt: Type, rgba):
    st = rt.scalar
    n = rt.count if rt.kind == "vector" else 1
    vals = []
    for c in list(rgba)[:n] + [0] * max(0, n - 4):
        if st.kind == "float":
            vals.append(FLOAT_DTYPES[st.width](c))
        else:
            vals.append(int(c) & mask(st.width))
    return tuple(vals) if rt.kind == "vector" else vals[0]


def _split(v):
    if isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], Texture):
        return v
    if isinstance(v, Texture):
        return v, Sampler()
    return None, None


def _texel_index(tex, coord, level):
    lv = tex.levels[min(max(level, 0), len(tex.levels) - 1)]
    d, h, w, _ = lv.shape
    c = [to_signed(int(x), 32) for x in (coord if isinstance(coord, tuple) else (coord,))]
    x = c[0]
    y = c[1] if len(c) > 1 and tex.dim != DIM_1D else 0
    z = c[2] if tex.dim in (DIM_3D, DIM_CUBE) or (tex.arrayed and len(c) > 2) else (c[1] if tex.arrayed and tex.dim == DIM_1D else 0)
    if not (0 <= x < w and 0 <= y < h and 0 <= z < d):
        return None
    return lv, z, y, x


def execute(inv, ins) -> None:
    from spvinspect.codec.interp.invocation import Unsupported

    op, a = ins.opname, ins.args
    rt = inv.shader.types.get(ins.type_id)
    if op == "OpSampledImage":
        img, smp = inv.value(a[0]), inv.value(a[1])
        tex = img if isinstance(img, Texture) else _split(img)[0]
        inv.set(ins, (tex, smp if isinstance(smp, Sampler) else Sampler()) if tex is not None else UNDEF)
        return
    if op == "OpImage":
        tex, _ = _split(inv.value(a[0]))
        inv.set(ins, tex if tex is not None else UNDEF)
        return
    if op == "OpImageTexelPointer":
        tex = inv.value(a[0])
        tex = tex.cell.value if hasattr(tex, "cell") and isinstance(tex.cell.value, Texture) else inv.load(tex) if hasattr(tex, "cell") else tex
        found = _texel_index(tex, inv.value(a[1]), 0) if isinstance(tex, Texture) else None
        from spvinspect.codec.interp.memory import Cell, Pointer

        pointee = inv.shader.types[ins.type_id].elem
        if found is None:
            inv.note("OpImageTexelPointer out of bounds")
            inv.set(ins, UNDEF)
            return
        cell = Cell(None, pointee, "texel", "Image", 0)
        cell.value = TexelRef(tex, found, pointee)
        inv.set(ins, Pointer(cell, (0,), pointee))
        return
    tex, smp = _split(inv.value(a[0]))
    if tex is None:
        inv.note(f"{op} on an undefined image")
        inv.set(ins, UNDEF if rt is None or rt.kind != "vector" else (UNDEF,) * rt.count)
        return
    if op in ("OpImageQuerySize", "OpImageQuerySizeLod"):
        level = inv.value(a[1]) if op == "OpImageQuerySizeLod" else 0
        lv = tex.levels[min(level, len(tex.levels) - 1)]
        d, h, w, _ = lv.shape
        dims = {DIM_1D: [w], DIM_2D: [w, h], DIM_3D: [w, h, d], DIM_CUBE: [w, h], DIM_RECT: [w, h], DIM_BUFFER: [w]}.get(tex.dim, [w, h])
        if tex.arrayed:
            dims.append(d // 6 if tex.dim == DIM_CUBE else d)
        inv.set(ins, tuple(dims) if len(dims) > 1 else dims[0])
        return
    if op == "OpImageQueryLevels":
        inv.set(ins, len(tex.levels))
        return
    if op == "OpImageQuerySamples":
        inv.set(ins, 1)
        return
    if op in ("OpImageFetch", "OpImageRead", "OpImageSparseFetch", "OpImageSparseRead"):
        ops = image_operands(inv, a[2:])
        level = ops.get("Lod", [0])[0]
        c = inv.value(a[1])
        off = _offset(ops)
        if isinstance(c, tuple) and UNDEF not in c:
            c = tuple((int(v) + off[i]) & mask(32) if i < 3 else v for i, v in enumerate(c))
        elif c is not UNDEF:
            c = (int(c) + off[0]) & mask(32)
        found = None if c is UNDEF or (isinstance(c, tuple) and UNDEF in c) else _texel_index(tex, c, level if level is not UNDEF else 0)
        texel_type = rt.members[1] if "Sparse" in op else rt
        if found is None:
            inv.note(f"{op} out of bounds: zero")
            out = _result(texel_type, [0, 0, 0, 0])
        else:
            lv, z, y, x = found
            out = _result(texel_type, lv[z, y, x])
        inv.set(ins, (0, out) if "Sparse" in op else out)
        return
    if op == "OpImageWrite":
        found = _texel_index(tex, inv.value(a[1]), 0)
        texel = inv.value(a[2])
        texel = texel if isinstance(texel, tuple) else (texel,)
        if found is None or UNDEF in texel:
            inv.note("OpImageWrite out of bounds or undefined: dropped")
            return
        lv, z, y, x = found
        vals = [float(c) if not isinstance(c, int) else c for c in texel] + [0, 0, 0, 1][len(texel):]
        lv[z, y, x] = vals[:4]
        tex.written = True
        if inv.recording and inv.record is not None:
            inv.record.stores.append((f"image[{x},{y},{z}]", texel))
        return
    coord = inv.value(a[1])
    if coord is UNDEF or (isinstance(coord, tuple) and UNDEF in coord):
        inv.set(ins, UNDEF if rt.kind != "vector" else (UNDEF,) * rt.count)
        return
    dref = None
    rest = a[2:]
    if "Dref" in op:
        dref = inv.value(a[2])
        rest = a[3:]
    elif "Gather" in op:
        rest = a[3:]  # after the component
    ops = image_operands(inv, rest)
    if "Proj" in op:
        c = coord
        q = c[-1]
        coord = tuple(np.float32(x / q) for x in c[:-1])
        if dref is not None:
            dref = np.float32(np.float32(dref) / q)  # the reference is projected too
    offset = _offset(ops)
    if not all(math.isfinite(float(c)) for c in (coord if isinstance(coord, tuple) else (coord,))):
        inv.note(f"{op} at a NaN or infinite coordinate: undefined")
        inv.set(ins, undef(rt))
        return
    if tex.dim == DIM_CUBE and not any(float(c) for c in coord[:3]):
        inv.note(f"{op} in the zero direction of a cube map: undefined")
        inv.set(ins, undef(rt))
        return
    if op == "OpImageQueryLod":
        if not inv.block_on("coarse", ins, coord):
            return
        dx, dy = inv.answer
        inv.answer = None
        raw = lod_from_gradients(tex, dx, dy)
        clamped = min(max(raw, 0.0), len(tex.levels) - 1)
        inv.set(ins, (np.float32(clamped), np.float32(raw if raw != -math.inf else -1e30)))
        return
    if "Gather" in op:
        comp = 0 if "Dref" in op else inv.value(a[2])
        inv.set(ins, _result(rt, gather(tex, smp or Sampler(), coord, comp, offset, dref if "Dref" in op else None)))
        return
    if "ImplicitLod" in op:
        if not inv.block_on("coarse", ins, coord):
            return
        dx, dy = inv.answer
        inv.answer = None
        lod = lod_from_gradients(tex, dx, dy) + float(ops.get("Bias", [0])[0])
    elif "Grad" in ops:
        lod = lod_from_gradients(tex, ops["Grad"][0], ops["Grad"][1])
    else:
        lod = float(ops.get("Lod", [0])[0])
    if "MinLod" in ops:
        lod = max(lod, float(ops["MinLod"][0]))
    if math.isnan(lod):
        lod = 0.0
    rgba = sample(tex, smp or Sampler(), coord, lod, offset)
    if dref is not None:
        ref = np.float32(dref)
        out = np.float32(1.0 if ref <= rgba[0] else 0.0)
    else:
        out = _result(rt.members[1] if "Sparse" in op else rt, rgba)
    inv.set(ins, (0, out) if "Sparse" in op else out)
