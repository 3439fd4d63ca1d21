"""Memory with logical addressing: a variable is a cell holding a tree of values
(lists while stored, tuples once loaded); a pointer is a cell and a path of indexes into
it. Out-of-bounds loads give undefined values and out-of-bounds stores are dropped, and
both are reported, never raised."""

from __future__ import annotations

import copy
from typing import NamedTuple

import numpy as np

from spvinspect.codec.interp.types import UNDEF, Type, _Undef, undef

_IMMUTABLE = (int, float, str, bytes, np.generic, _Undef)
"""Values a copy of the state shares with the original (numbers, numpy scalars, undef)."""


class Cell:
    """One variable's storage."""

    __slots__ = ("value", "type", "name", "storage", "var_id")

    def __init__(self, value, type_: Type, name: str = "", storage: str = "", var_id: int = 0) -> None:
        self.value = thaw(value)
        self.type = type_
        self.name = name
        self.storage = storage
        self.var_id = var_id

    def snapshot(self):
        return freeze(self.value)

    def __deepcopy__(self, memo: dict) -> Cell:
        new = Cell.__new__(Cell)
        memo[id(self)] = new
        new.value = copied(self.value, memo)
        new.type, new.name, new.storage, new.var_id = self.type, self.name, self.storage, self.var_id
        return new


def copied(value, memo: dict):
    """`value` deep-copied for a saved state (`copy.deepcopy` with `memo`), the cheap way
    for what states hold most: numbers and undef shared, tuples of them kept, lists of
    them copied, a pointer to its cell's copy; anything else (a texture) as `copy.deepcopy`
    copies it."""
    if isinstance(value, _IMMUTABLE):
        return value
    kind = type(value)
    if kind is Pointer:
        cell = memo.get(id(value.cell))
        return Pointer(copy.deepcopy(value.cell, memo) if cell is None else cell, value.path, value.type)
    if kind is tuple:
        parts = [copied(part, memo) for part in value]
        return value if all(new is old for new, old in zip(parts, value)) else tuple(parts)
    if kind is list:
        kept = memo.get(id(value))
        if kept is not None:
            return kept
        new: list = []
        memo[id(value)] = new
        new.extend(copied(part, memo) for part in value)
        return new
    return copy.deepcopy(value, memo)


class Pointer(NamedTuple):
    cell: Cell
    path: tuple[int, ...]
    type: Type
    """The pointee type."""

    def describe(self) -> str:
        return (self.cell.name or f"%{self.cell.var_id}") + "".join(f"[{i}]" for i in self.path)


class OutOfBounds(Exception):
    """An access past the end of an array, vector or struct."""


def thaw(v):
    if isinstance(v, tuple):
        return [thaw(x) for x in v]
    return v


def freeze(v):
    if isinstance(v, list):
        for x in v:
            if isinstance(x, list):
                return tuple([freeze(y) for y in v])
        return tuple(v)
    return v


def _walk(cell: Cell, path):
    v = cell.value
    for i in path:
        if not isinstance(v, list) or not 0 <= i < len(v):
            raise OutOfBounds
        v = v[i]
    return v


def read(p: Pointer):
    """The value `p` points at; OutOfBounds when the path leaves the variable."""
    v = p.cell.value
    for i in p.path:
        if not isinstance(v, list) or not 0 <= i < len(v):
            raise OutOfBounds
        v = v[i]
    if isinstance(v, list):
        return freeze(v)
    return v


def load(p: Pointer):
    """The value `p` points at; an undefined value when out of bounds."""
    try:
        return freeze(_walk(p.cell, p.path))
    except OutOfBounds:
        return undef(p.type)


def store(p: Pointer, value) -> bool:
    """Store `value` where `p` points; False (and nothing stored) when out of bounds."""
    if not p.path:
        p.cell.value = thaw(value)
        return True
    try:
        parent = _walk(p.cell, p.path[:-1])
    except OutOfBounds:
        return False
    i = p.path[-1]
    if not isinstance(parent, list) or not 0 <= i < len(parent):
        return False
    parent[i] = thaw(value)
    return True


def in_bounds(p: Pointer) -> bool:
    try:
        _walk(p.cell, p.path)
        return True
    except OutOfBounds:
        return False


def member_type(t: Type, index: int) -> Type | None:
    if t.kind == "struct":
        return t.members[index] if 0 <= index < len(t.members) else None
    return t.elem


def chain(p: Pointer, indexes) -> Pointer:
    t, path = p.type, list(p.path)
    for i in indexes:
        path.append(i)
        nt = member_type(t, i)
        t = nt if nt is not None else t
    return Pointer(p.cell, tuple(path), t)


def _ignore(_):
    return UNDEF
