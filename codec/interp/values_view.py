"""What a values pane shows of a stepped invocation, as rows of a tree (Textual-free):
the next instruction's operands and the last step's result, the current function's live
ids, and the variables (inputs, outputs, buffers, private and function variables) laid out
member by member. Values are the interpreter's own: float32 printed as numpy prints it
(the shortest text that reads back to the same float32), integers signed as their type
says, NaN/Inf as such, undefined as `undef`; every scalar's bits are one column away."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from spvinspect.codec.interp.images import Sampler, Texture
from spvinspect.codec.interp.interface import defaulted_runtime_arrays
from spvinspect.codec.interp.memory import Cell, Pointer
from spvinspect.codec.interp.types import UNDEF, Type, bits_of_float, describe, mask, to_signed

ELEMENTS_SHOWN = 32
"""Elements of an array (a buffer's runtime array) laid out before `… N more`."""
STORAGE_ORDER = ("Input", "Output", "Uniform", "UniformConstant", "StorageBuffer", "PushConstant", "Private",
                 "Workgroup", "Function")
"""The order the variables are listed in, by storage class."""


@dataclass(frozen=True, slots=True)
class ValueRow:
    """One row: a heading (`depth` 0, no value) or a value at some depth of the tree."""

    key: str
    """Stable across steps (`id:42`, `var:7/1/0`): what says a value changed."""
    depth: int
    label: str
    type_text: str = ""
    value: str = ""
    bits: str = ""
    """The hex encoding of each scalar (float32 bits, the integer's word), when numeric."""
    heading: bool = False


def scalar_text(t: Type | None, v) -> str:
    """A scalar as the pane prints it."""
    if v is UNDEF:
        return "undef"
    if isinstance(v, (bool, np.bool_)):
        return "true" if v else "false"
    if isinstance(v, np.floating):
        return str(v)
    if isinstance(v, (int, np.integer)):
        v = int(v)
        if t is not None and t.kind == "int" and t.signed:
            return str(to_signed(v & mask(t.width), t.width))
        return str(v)
    if isinstance(v, Pointer):
        return "&" + v.describe()
    if isinstance(v, Texture):
        w, h, d = v.size
        return f"texture {w}×{h}" + (f"×{d}" if d > 1 else "") + f", {len(v.levels)} level(s)"
    if isinstance(v, Sampler):
        return f"sampler {v.filter}, mipmap {v.mipmap}, {v.address}"
    return repr(v)


def scalar_bits(t: Type | None, v) -> str:
    """The scalar's encoding in hex (empty for a bool, undef or anything not numeric)."""
    if v is UNDEF or isinstance(v, (bool, np.bool_)):
        return ""
    if isinstance(v, np.floating):
        width = v.dtype.itemsize * 8
        return f"0x{bits_of_float(v, width):0{width // 4}x}"
    if isinstance(v, (int, np.integer)):
        width = t.width if t is not None and t.kind == "int" else 32
        return f"0x{int(v) & mask(width):0{width // 4}x}"
    return ""


def _flat(t: Type | None) -> bool:
    """Values printed on one line: scalars, vectors and the handles of images and samplers."""
    return t is None or t.is_scalar or t.kind in ("vector", "image", "sampler", "sampled_image")


def _inline(t: Type | None, v) -> tuple[str, str]:
    if isinstance(v, tuple) and not isinstance(v, Pointer):
        elem = t.elem if t is not None else None
        parts = [_inline(elem, x) for x in v]
        return "(" + ", ".join(p[0] for p in parts) + ")", " ".join(p[1] for p in parts if p[1])
    return scalar_text(t, v), scalar_bits(t, v)


def value_rows(key: str, label: str, t: Type | None, v, depth: int = 1) -> list[ValueRow]:
    """A value as rows: one for a scalar or vector, a row and its parts for the rest."""
    if isinstance(v, Pointer) or _flat(t) or not isinstance(v, tuple):
        text, bits = _inline(t, v)
        if t is not None and t.kind == "sampled_image" and isinstance(v, tuple):
            text, bits = " + ".join(scalar_text(None, part) for part in v), ""
        return [ValueRow(key, depth, label, describe(t) if t is not None else "", text, bits)]
    rows = [ValueRow(key, depth, label, describe(t), "" if v else "(no elements)")]
    if t.kind == "struct":
        for i, part in enumerate(v):
            member = t.members[i] if i < len(t.members) else None
            rows += value_rows(f"{key}/{i}", t.member_name(i), member, part, depth + 1)
        return rows
    name = "col" if t.kind == "matrix" else ""
    for i, part in enumerate(v[:ELEMENTS_SHOWN]):
        rows += value_rows(f"{key}/{i}", f"{name}[{i}]", t.elem, part, depth + 1)
    if len(v) > ELEMENTS_SHOWN:
        rows.append(ValueRow(f"{key}/more", depth + 1, f"… {len(v) - ELEMENTS_SHOWN:,} more"))
    return rows


class KeptRows:
    """The rows each value gave at the last call of `invocation_rows`, by its key: a value
    whose parts are the very objects of then (the interpreter keeps the objects of what a
    step did not touch, and a saved state shares them) gives the same rows, not formatted
    again. Parts that are new objects, even of an equal value, are formatted again."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[object, str, Type | None, list[ValueRow]]] = {}
        self._next: dict[str, tuple[object, str, Type | None, list[ValueRow]]] = {}

    def rows(self, key: str, label: str, t: Type | None, v) -> list[ValueRow]:
        """`value_rows(key, label, t, v)`, the rows of the last call when `v` is made of the same objects."""
        kept = self._kept.get(key)
        if kept is not None and kept[2] is t and kept[1] == label and _same(kept[0], v):
            rows = kept[3]
        else:
            rows = value_rows(key, label, t, v)
        self._next[key] = (v, label, t, rows)
        return rows

    def turn(self) -> None:
        """The call is over: keep what it gave (and only that) for the next one."""
        self._kept, self._next = self._next, {}


def _same(a, b) -> bool:
    """`a` and `b` are the same object, or plain tuples of the same objects."""
    if a is b:
        return True
    if type(a) is not tuple or type(b) is not tuple or len(a) != len(b):
        return False
    return all(x is y or _same(x, y) for x, y in zip(a, b))


def invocation_rows(debugger, name: Callable[[int], str], kept: KeptRows | None = None) -> list[ValueRow]:
    """The rows of a stepped invocation (`codec.interp.debugger.Debugger`); `name` gives
    an id's name without `%`; `kept` (the same one at each step) spares formatting the
    live ids and variables a step did not change."""
    kept = kept if kept is not None else KeptRows()
    shader, inv = debugger.shader, debugger.invocation
    rows: list[ValueRow] = []
    current = debugger.current
    if current is not None:
        rows.append(ValueRow("next", 0, f"Next: {current.opname} (word {current.offset})", heading=True))
        for operand in current.inst.operands:
            if operand.kind in ("IdRef",) and isinstance(operand.value, int):
                id_ = operand.value
                v = inv.value(id_)
                if v is UNDEF and id_ not in shader.constants and id_ not in inv.frames[-1].ids:
                    continue  # a label, a function, a type: nothing to show
                rows += value_rows(f"next:{id_}", f"%{name(id_)}", shader.id_types.get(id_), v)
    else:
        rows.append(ValueRow("next", 0, f"Ended: {inv.status}" + (f" — {inv.message}" if inv.message else ""), heading=True))
    if debugger.history:
        last = debugger.history[-1]
        rows.append(ValueRow("last", 0, f"Last step: {last.opname} (word {last.offset})", heading=True))
        if last.result_id and last.value is not None:
            rows += value_rows(f"last:{last.result_id}", f"%{name(last.result_id)}", shader.id_types.get(last.result_id),
                               last.value)
        for i, (where, stored) in enumerate(last.stores):
            text, bits = _inline(None, stored) if not isinstance(stored, Pointer) else ("&" + stored.describe(), "")
            rows.append(ValueRow(f"last:store{i}", 1, f"{where} ←", "", text, bits))
        if last.note:
            rows.append(ValueRow("last:note", 1, last.note))
    if inv.frames:
        frame = inv.frames[-1]
        function = frame.fn.name or name(frame.fn.id)
        rows.append(ValueRow("ids", 0, f"Live ids in %{name(frame.fn.id)}" + (f" ({function})" if frame.fn.name else ""),
                             heading=True))
        for id_, v in frame.ids.items():
            if isinstance(v, Pointer) and v.cell.storage == "Function" and not v.path:
                continue  # listed with the variables
            rows += kept.rows(f"id:{id_}", f"%{name(id_)}", shader.id_types.get(id_), v)
    rows += _variable_rows(debugger, name, kept)
    kept.turn()
    return rows


def _variable_rows(debugger, name: Callable[[int], str], kept: KeptRows) -> list[ValueRow]:
    inv = debugger.invocation
    cells: dict[int, Cell] = dict(inv.cells)
    for frame in inv.frames:
        for v in frame.ids.values():
            if isinstance(v, Pointer) and v.cell.storage == "Function" and not v.path:
                cells.setdefault(v.cell.var_id, v.cell)
    by_storage: dict[str, list[Cell]] = {}
    for cell in cells.values():
        by_storage.setdefault(cell.storage, []).append(cell)
    rows: list[ValueRow] = []
    defaults = defaulted_runtime_arrays(debugger.shader, debugger.entry, debugger.inputs, len(debugger.group.invocations))
    order = [s for s in STORAGE_ORDER if s in by_storage] + sorted(s for s in by_storage if s not in STORAGE_ORDER)
    for storage in order:
        if not any(_shown(cell) for cell in by_storage[storage]):
            continue
        rows.append(ValueRow(f"storage:{storage}", 0, f"{storage} variables", heading=True))
        for cell in sorted(by_storage[storage], key=lambda c: c.var_id):
            if _shown(cell):
                label = f"%{name(cell.var_id)}" if cell.var_id else cell.name
                rows += kept.rows(f"var:{cell.var_id}", label, cell.type, cell.snapshot())
                rows += [ValueRow(f"var:{cell.var_id}/note{i}", 2, f"note: {note}")
                         for i, note in enumerate(defaults.get(cell.var_id, ()))]
    return rows


def _shown(cell: Cell) -> bool:
    """Images, samplers and acceleration structures have no value to lay out."""
    return cell.type.kind not in ("image", "sampler", "sampled_image", "accel")


def changed_keys(before: list[ValueRow], after: list[ValueRow]) -> set[str]:
    """The keys of rows whose value differs from (or was missing) before."""
    old = {row.key: row.value for row in before}
    return {row.key for row in after if row.value and old.get(row.key) != row.value}
