"""An entry point's interface: the variables' cells filled from an inputs JSON (or
defaults), the builtins of each invocation, and the outputs and buffers as JSON."""

from __future__ import annotations

import numpy as np

from spvinspect.codec.interp.memory import Cell
from spvinspect.codec.interp.shader import EntryPoint, Shader, Variable
from spvinspect.codec.interp.types import Type, from_json, to_json, undef, zero

SHARED_STORAGE = {"Uniform", "UniformConstant", "StorageBuffer", "PushConstant", "Workgroup",
                  "PhysicalStorageBuffer", "TaskPayloadWorkgroupEXT", "ShaderRecordBufferKHR"}
"""Storage classes whose variables the invocations of a group share."""

BUFFER_STORAGE = {"Uniform", "StorageBuffer", "PushConstant", "ShaderRecordBufferKHR"}


class InputError(Exception):
    """The inputs file does not fit the module: says which input and why."""


def interface_variables(shader: Shader, entry: EntryPoint) -> list[Variable]:
    """The global variables the entry point may use: its interface and every
    module-scope variable (SPIR-V before 1.4 lists only inputs and outputs)."""
    return [v for v in shader.variables.values() if v.storage != "Function"]


def default_runtime_length(invocations: int) -> int:
    """Elements a buffer's runtime array has when the inputs do not give it: one per
    invocation of the group, at least 16."""
    return max(16, invocations)


def default_value(t: Type, runtime_length: int):
    """The zero of `t` with each runtime array `runtime_length` elements long."""
    if t.kind == "runtime_array":
        return (zero(t.elem),) * runtime_length
    if t.kind == "struct":
        return tuple(default_value(m, runtime_length) for m in t.members)
    return zero(t)


def defaulted_runtime_arrays(shader: Shader, entry: EntryPoint, inputs: dict, invocations: int) -> dict[int, list[str]]:
    """Buffer variable → a sentence for each of its runtime arrays the inputs leave out
    (they take `default_runtime_length` elements)."""
    length = default_runtime_length(invocations)
    buffers = inputs.get("buffers", {}) or {}
    out: dict[int, list[str]] = {}
    for var in interface_variables(shader, entry):
        if var.storage not in ("StorageBuffer", "Uniform", "PushConstant", "ShaderRecordBufferKHR"):
            continue
        key = shader.binding_key(var)
        given = inputs.get("push_constants") if var.storage == "PushConstant" else buffers.get(key) if key else None
        t = var.type
        members = [(i, m) for i, m in enumerate(t.members) if m.kind == "runtime_array"] if t.kind == "struct" else []
        for i, _ in members:
            name = t.member_name(i)
            if isinstance(given, dict) and (name in given or f"member {i}" in given):
                continue
            if isinstance(given, list) and i < len(given):
                continue
            where = f"buffers[{key!r}]" if key else "the inputs"
            out.setdefault(var.id, []).append(
                f"{shader.variable_name(var)}.{name}: a runtime array, {length} elements by default "
                f"(give {where} a list to choose its length)")
    return out


def builtin_value(name: str, lane: dict):
    """A builtin's value for one invocation (`lane` holds its coordinates), as JSON."""
    return lane.get(name, lane.get("_default_" + name))


def shared_cells(shader: Shader, entry: EntryPoint, inputs: dict, invocations: int) -> dict[int, Cell]:
    """Cells of buffers, push constants, images and workgroup memory, from `inputs`."""
    from spvinspect.codec.interp.images import default_resource, resource_from_json

    cells: dict[int, Cell] = {}
    uniforms = inputs.get("uniforms", {}) or {}
    buffers = inputs.get("buffers", {}) or {}
    images = inputs.get("images", {}) or {}
    samplers = inputs.get("samplers", {}) or {}
    length = default_runtime_length(invocations)
    for var in interface_variables(shader, entry):
        if var.storage not in SHARED_STORAGE:
            continue
        name = shader.variable_name(var)
        key = shader.binding_key(var)
        t = var.type
        if var.storage == "Workgroup":
            value = shader.constants.get(var.initializer) if var.initializer else undef(t)
        elif var.storage == "UniformConstant" or _is_resource(t):
            given = images.get(key) if key else None
            if given is None and key:
                given = samplers.get(key)
            try:
                value = resource_from_json(t, given, key) if given is not None else default_resource(t, key)
            except (ValueError, TypeError, KeyError) as error:
                raise InputError(f"images[{key!r}]: {error}") from None
        else:
            given = None
            if var.storage == "PushConstant":
                given = inputs.get("push_constants")
            if given is None and key is not None:
                given = buffers.get(key)
            if given is None:
                given = uniforms.get(name, uniforms.get(t.name) if t.name else None)
            try:
                value = from_json(t, given, default_value(t, length), runtime_length=length)
            except (ValueError, TypeError) as error:
                where = f"buffers[{key!r}]" if key else f"uniforms[{name!r}]"
                raise InputError(f"{where}: {error}") from None
        cells[var.id] = Cell(value, t, name, var.storage, var.id)
    return cells


def _is_resource(t: Type) -> bool:
    while t.kind in ("array", "runtime_array"):
        t = t.elem
    return t.kind in ("image", "sampler", "sampled_image", "accel")


def lane_cells(shader: Shader, entry: EntryPoint, inputs: dict, lane: dict) -> dict[int, Cell]:
    """Cells private to one invocation: Input (builtins from `lane`, the rest from
    `inputs`), Output and Private variables."""
    cells: dict[int, Cell] = {}
    given = inputs.get("inputs", {}) or {}
    for var in interface_variables(shader, entry):
        if var.storage in SHARED_STORAGE:
            continue
        t = var.type
        name = shader.variable_name(var)
        if var.storage == "Input":
            b = shader.builtin(var.id)
            if b is not None:
                value = from_json(t, _builtin_json(b, lane, t))
            else:
                v = given.get(name)
                if v is None:
                    loc = shader.decoration(var.id, "Location")
                    v = given.get(f"location {loc}") if loc is not None else None
                try:
                    value = from_json(t, v)
                except (ValueError, TypeError) as error:
                    raise InputError(f"inputs[{name!r}]: {error}") from None
                value = _fill_block_builtins(shader, t, value, lane)
        elif var.initializer is not None:
            value = shader.constants.get(var.initializer, undef(t))
        else:
            value = undef(t)  # Output and Private variables start undefined
        cells[var.id] = Cell(value, t, name, var.storage, var.id)
    return cells


def _builtin_json(name: str, lane: dict, t: Type):
    v = lane.get(name)
    if v is None:
        return None
    if t.kind == "vector" and isinstance(v, (list, tuple)):
        return list(v)[: t.count]
    if t.kind in ("int", "float", "bool") and isinstance(v, (list, tuple)):
        return v[0]
    return v


def _fill_block_builtins(shader, t, value, lane):
    if t.kind != "struct":
        return value
    out = list(value)
    for i, m in enumerate(t.members):
        b = shader.block_builtin(t, i)
        if b and b in lane:
            out[i] = from_json(m, _builtin_json(b, lane, m))
    return tuple(out)


def outputs_json(shader: Shader, cells: dict[int, Cell]) -> dict:
    out = {}
    for cell in cells.values():
        if cell.storage == "Output":
            out[cell.name] = to_json(cell.type, cell.snapshot())
    return out


def buffers_json(shader: Shader, cells: dict[int, Cell]) -> dict:
    out = {}
    for cell in cells.values():
        if cell.storage in ("StorageBuffer",) or (
            cell.storage == "Uniform" and cell.type.buffer_block
        ):
            var = shader.variables[cell.var_id]
            key = shader.binding_key(var) or cell.name
            out[key] = to_json(cell.type, cell.snapshot())
    return out


def images_json(shader: Shader, cells: dict[int, Cell]) -> dict:
    """Storage images written by the shader, by set.binding."""
    from spvinspect.codec.interp.images import Texture

    out = {}
    for cell in cells.values():
        if isinstance(cell.value, Texture) and cell.value.written:
            var = shader.variables[cell.var_id]
            out[shader.binding_key(var) or cell.name] = cell.value.to_json()
    return out
