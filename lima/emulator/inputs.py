"""What a fragment reads from outside the program: varyings, uniforms, textures, specials.

Read from the JSON shape of issue #22 (`varyings`, `uniforms`, `textures`, `fragcoord`,
`frontfacing`, `pointcoord`); keys are the vec4 slots and sampler numbers the code uses,
or for MBS files the names in its symbol chunks. Extensions, all optional: a varying may be
`{"bottom_left": v, "bottom_right": v, "top_left": v}`, an affine ramp over the grid (what a
rasteriser interpolates from a triangle); a texture may have `"filter": "nearest"|"linear"`
and `"wrap": "repeat"|"clamp"`; `"color_register"` names the register holding the output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from spvinspect.lima.symbols import SymbolTable

RAMP_KEYS = ("bottom_left", "bottom_right", "top_left")
FILTERS = ("nearest", "linear")
WRAPS = ("repeat", "clamp")


class InputError(ValueError):
    """Inputs that cannot be used, with where the problem is."""


@dataclass(frozen=True)
class Texture:
    """One 2D texture: texels row by row from the bottom-left, values 0-1."""

    width: int
    height: int
    texels: np.ndarray
    """(height, width, 4) float32."""
    filter: str = "nearest"
    wrap: str = "repeat"


DEFAULT_TEXTURE = Texture(
    2, 2, np.array([[[1, 1, 1, 1], [0, 0, 0, 1]], [[0, 0, 0, 1], [1, 1, 1, 1]]], dtype=np.float32)
)
"""A sampler without a texture reads a 2x2 white/black checker (a default so any program runs)."""


@dataclass
class Inputs:
    """Everything a run reads besides the program. Varyings and uniforms are component
    arrays (vec4 slot N is components 4N-4N+3); a varying component is a ramp
    (bottom-left value, change across the grid in x, change in y)."""

    varyings: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), dtype=np.float64))
    """(components, 3): value at the bottom-left corner, x slope, y slope (per whole grid)."""
    uniforms: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.float64))
    textures: dict[int, Texture] = field(default_factory=dict)
    fragcoord: tuple[float, float, float, float] | None = None
    """None: each fragment's centre (x + 0.5, y + 0.5), z 0.5, w 1."""
    frontfacing: bool = True
    pointcoord: tuple[float, float] | None = None
    """None: the fragment's place in the grid as one point sprite (origin top-left)."""
    color_register: int | None = None

    def varying_at(self, u: np.ndarray, v: np.ndarray, components: int) -> np.ndarray:
        """(N, components) varying values at grid fractions (u, v) of the N fragments."""
        table = np.zeros((components, 3))
        rows = min(components, len(self.varyings))
        table[:rows] = self.varyings[:rows]
        return table[:, 0] + np.outer(u, table[:, 1]) + np.outer(v, table[:, 2])

    def uniform_components(self, components: int) -> np.ndarray:
        """The first `components` uniform components (zero where not given)."""
        out = np.zeros(components)
        rows = min(components, len(self.uniforms))
        out[:rows] = self.uniforms[:rows]
        return out


NON_FINITE = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}
"""NaN and infinities as strings, as `lima run --json` writes them (JSON has no such numbers)."""


def _number(value, where: str) -> float:
    if isinstance(value, str) and value in NON_FINITE:
        return NON_FINITE[value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InputError(f"{where}: expected a number, found {json_text(value)}")
    return float(value)


def json_text(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _vector(value, where: str, most: int = 4) -> list[float]:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return [float(value)]
    if not isinstance(value, list) or not 1 <= len(value) <= most:
        raise InputError(f"{where}: expected a list of 1 to {most} numbers, found {json_text(value)}")
    return [_number(item, f"{where}[{i}]") for i, item in enumerate(value)]


def _address(key: str, table: str, symbols: SymbolTable | None, where: str) -> int:
    """The first component a key names: `N` is vec4 slot N, a name is a symbol's offset."""
    if key.isdigit():
        return 4 * int(key)
    for symbol in (symbols.uniforms if table == "uniform" else symbols.varyings) if symbols else ():
        if symbol.name == key:
            return symbol.offset
    known = ""
    if symbols:
        names = [s.name for s in (symbols.uniforms if table == "uniform" else symbols.varyings)]
        known = f" (this file's {table}s: {', '.join(names) or 'none'})"
    raise InputError(f"{where}: {key!r} is neither a slot number nor a {table} name{known}")


def _grow(array: np.ndarray, rows: int) -> np.ndarray:
    if len(array) >= rows:
        return array
    grown = np.zeros((rows, *array.shape[1:]))
    grown[: len(array)] = array
    return grown


def parse_inputs(data, symbols: SymbolTable | None = None) -> Inputs:
    """Inputs from parsed JSON; InputError naming the key when something is wrong."""
    if not isinstance(data, dict):
        raise InputError(f"inputs: expected an object, found {json_text(data)}")
    known = {"varyings", "uniforms", "textures", "fragcoord", "frontfacing", "pointcoord", "color_register"}
    for key in data:
        if key not in known:
            raise InputError(f"inputs: unknown key {key!r} (known: {', '.join(sorted(known))})")
    inputs = Inputs()
    varyings = np.zeros((0, 3))
    for key, value in _object(data.get("varyings", {}), "varyings").items():
        where = f"varyings.{key}"
        start = _address(key, "varying", symbols, where)
        if isinstance(value, dict):
            corners = {}
            for name in value:
                if name not in RAMP_KEYS:
                    raise InputError(f"{where}: unknown key {name!r} (a ramp has {', '.join(RAMP_KEYS)})")
            for name in RAMP_KEYS:
                if name not in value:
                    raise InputError(f"{where}: a ramp needs {', '.join(RAMP_KEYS)}; {name} is missing")
                corners[name] = _vector(value[name], f"{where}.{name}")
            width = max(len(c) for c in corners.values())
            rows = np.zeros((width, 3))
            for i in range(width):
                bl, br, tl = (c[i] if i < len(c) else 0.0 for c in corners.values())
                rows[i] = (bl, br - bl, tl - bl)
        else:
            rows = np.array([[x, 0.0, 0.0] for x in _vector(value, where)])
        varyings = _grow(varyings, start + len(rows))
        varyings[start : start + len(rows)] = rows
    inputs.varyings = varyings
    uniforms = np.zeros(0)
    for key, value in _object(data.get("uniforms", {}), "uniforms").items():
        where = f"uniforms.{key}"
        start = _address(key, "uniform", symbols, where)
        values = _vector(value, where, most=64)
        uniforms = _grow(uniforms, start + len(values))
        uniforms[start : start + len(values)] = values
    inputs.uniforms = uniforms
    for key, value in _object(data.get("textures", {}), "textures").items():
        index = int(key) if key.isdigit() else _address(key, "uniform", symbols, f"textures.{key}")
        inputs.textures[index] = _texture(value, f"textures.{key}")
    if "fragcoord" in data:
        values = _vector(data["fragcoord"], "fragcoord")
        inputs.fragcoord = tuple((values + [0.0, 0.0, 0.5, 1.0][len(values) :])[:4])
    if "frontfacing" in data:
        if not isinstance(data["frontfacing"], bool):
            raise InputError(f"frontfacing: expected true or false, found {json_text(data['frontfacing'])}")
        inputs.frontfacing = data["frontfacing"]
    if "pointcoord" in data:
        values = _vector(data["pointcoord"], "pointcoord", most=2)
        inputs.pointcoord = tuple((values + [0.0])[:2])
    if "color_register" in data:
        register = data["color_register"]
        if isinstance(register, bool) or not isinstance(register, int) or not 0 <= register <= 11:
            raise InputError(f"color_register: expected a register number 0-11, found {json_text(register)}")
        inputs.color_register = register
    return inputs


def _object(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise InputError(f"{where}: expected an object, found {json_text(value)}")
    return value


def _texture(value, where: str) -> Texture:
    value = _object(value, where)
    for key in value:
        if key not in ("width", "height", "rgba", "filter", "wrap"):
            raise InputError(f"{where}: unknown key {key!r}")
    sizes = []
    for key in ("width", "height"):
        size = value.get(key)
        if isinstance(size, bool) or not isinstance(size, int) or not 1 <= size <= 4096:
            raise InputError(f"{where}.{key}: expected a whole number 1-4096, found {json_text(size)}")
        sizes.append(size)
    width, height = sizes
    rgba = value.get("rgba")
    if not isinstance(rgba, list) or len(rgba) != width * height * 4:
        found = len(rgba) if isinstance(rgba, list) else json_text(rgba)
        raise InputError(f"{where}.rgba: expected {width * height * 4} numbers (width x height x 4), found {found}")
    texels = np.array([_number(x, f"{where}.rgba[{i}]") for i, x in enumerate(rgba)], dtype=np.float32)
    filter_ = value.get("filter", "nearest")
    wrap = value.get("wrap", "repeat")
    if filter_ not in FILTERS:
        raise InputError(f"{where}.filter: expected one of {', '.join(FILTERS)}, found {json_text(filter_)}")
    if wrap not in WRAPS:
        raise InputError(f"{where}.wrap: expected one of {', '.join(WRAPS)}, found {json_text(wrap)}")
    return Texture(width, height, texels.reshape(height, width, 4), filter_, wrap)


def inputs_to_json(inputs: Inputs) -> dict:
    """The inputs in the JSON shape `parse_inputs` reads (slot numbers as keys)."""
    out: dict = {"varyings": {}, "uniforms": {}, "textures": {}}
    for slot in range(math.ceil(len(inputs.varyings) / 4)):
        rows = _grow(inputs.varyings, 4 * slot + 4)[4 * slot : 4 * slot + 4]
        if np.any(rows[:, 1:]):
            out["varyings"][str(slot)] = {
                "bottom_left": rows[:, 0].tolist(),
                "bottom_right": (rows[:, 0] + rows[:, 1]).tolist(),
                "top_left": (rows[:, 0] + rows[:, 2]).tolist(),
            }
        else:
            out["varyings"][str(slot)] = rows[:, 0].tolist()
    for slot in range(math.ceil(len(inputs.uniforms) / 4)):
        out["uniforms"][str(slot)] = _grow(inputs.uniforms, 4 * slot + 4)[4 * slot : 4 * slot + 4].tolist()
    for index, texture in inputs.textures.items():
        out["textures"][str(index)] = {
            "width": texture.width,
            "height": texture.height,
            "rgba": texture.texels.reshape(-1).tolist(),
            "filter": texture.filter,
            "wrap": texture.wrap,
        }
    if inputs.fragcoord is not None:
        out["fragcoord"] = list(inputs.fragcoord)
    out["frontfacing"] = inputs.frontfacing
    if inputs.pointcoord is not None:
        out["pointcoord"] = list(inputs.pointcoord)
    if inputs.color_register is not None:
        out["color_register"] = inputs.color_register
    return out
