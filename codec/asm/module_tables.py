"""The assembler's tables read off a module's words, for assembling a part of its text.

Assembling a region of a module's text on its own needs what the whole run would have
declared by then: each type's number type (`Declarations.types`), each value's type
(`Declarations.value_types`, first definition wins), the extended set of each import,
which ids exist (so that a new name skips them, as it skips pinned ids in the whole run)
and the selectors of the OpSwitch instructions. Here they come from the binary: a few
vectorised passes over the instruction heads (numpy), no decoding but of the imports.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, MutableMapping

import numpy as np

from spvinspect.codec.asm.declarations import FLOAT, INT, OTHER, NumberType
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.grammar import ExtInstSet

DENSE_IDS = 1 << 24
"""Ids past this make the tables refuse the module (they are arrays indexed by id)."""


class ValueTypes(MutableMapping):
    """Value id → its type id: an array indexed by id (0: no entry), with the entries
    set later kept beside it."""

    def __init__(self, dense: np.ndarray) -> None:
        self._dense = dense
        self._added: dict[int, int] = {}

    def get(self, key, default=None):
        """The type of value `key`, else `default` (no KeyError)."""
        found = self._added.get(key)
        if found is not None:
            return found
        if isinstance(key, int) and 0 <= key < len(self._dense):
            value = int(self._dense[key])
            if value:
                return value
        return default

    def __getitem__(self, key: int) -> int:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return self.get(key) is not None

    def __setitem__(self, key: int, value: int) -> None:
        self._added[key] = value

    def __delitem__(self, key: int) -> None:
        raise TypeError("value types are never removed")

    def __iter__(self) -> Iterator[int]:
        yield from (int(k) for k in np.flatnonzero(self._dense) if int(k) not in self._added)
        yield from self._added

    def __len__(self) -> int:
        return int(np.count_nonzero(self._dense)) + sum(1 for k in self._added if not self._in_dense(k))

    def _in_dense(self, key: int) -> bool:
        return 0 <= key < len(self._dense) and bool(self._dense[key])


class IdsInUse:
    """The ids a module defines, plus given ones: the numbers a new name skips."""

    def __init__(self, defined: np.ndarray, extra: set[int]) -> None:
        self._defined = defined
        self._extra = extra

    def __contains__(self, number: object) -> bool:
        if number in self._extra:
            return True
        return isinstance(number, int) and 0 <= number < len(self._defined) and bool(self._defined[number])

    def free_from(self, number: int) -> int:
        """The first number from `number` on that is not in use."""
        defined = self._defined
        while True:
            if number < len(defined):
                free = np.flatnonzero(~defined[number:])
                if not len(free):
                    number = len(defined)
                    continue
                number += int(free[0])
            if number not in self._extra:
                return number
            number += 1

    @property
    def top(self) -> int:
        """The largest id in use (0 when none)."""
        defined = self._defined
        last = len(defined) - 1 - int(np.argmax(defined[::-1])) if len(defined) and defined.any() else 0
        return max(last, max(self._extra, default=0))


class ModuleTables:
    """What the whole text's assembly run declares, read from `module`'s binary (see the
    module's docstring). `usable` is False for a module these tables cannot describe
    (not fully indexed, ids past `DENSE_IDS`, an id defined twice)."""

    def __init__(self, module: LazyModule) -> None:
        module.ensure_indexed()
        tables = module.tables
        program = tables.program
        self.usable = module.header is not None and module.index.stop is None and not module.definitions.repeated
        words = np.frombuffer(module.words, dtype=np.uint32)
        offsets = np.frombuffer(module.index.offsets, dtype=np.uint32).astype(np.int64)
        heads = words[offsets]
        opcodes = (heads & 0xFFFF).astype(np.int64)
        counts = (heads >> 16).astype(np.int64)
        result_at = np.frombuffer(bytes(tables.result_positions), dtype=np.uint8)[opcodes].astype(np.int64)
        has_result = (result_at > 0) & (result_at < counts)
        results = words[offsets[has_result] + result_at[has_result]]
        top = int(results.max()) if len(results) else 0
        if top >= DENSE_IDS:
            self.usable = False
            top = 0
            results = results[:0]
        self.defined = np.zeros(top + 1, dtype=bool)
        self.defined[results] = True
        typed = (np.frombuffer(bytes(tables.type_positions), dtype=np.uint8)[opcodes] > 0) & (counts > 2)
        typed_at = offsets[typed]
        values, value_type_ids = words[typed_at + 2], words[typed_at + 1]
        dense = np.zeros(top + 1, dtype=np.uint32)
        keep = values <= top
        # An id defined twice makes the tables unusable, so each value is set once.
        dense[values[keep]] = value_type_ids[keep]
        self.value_types = ValueTypes(dense)
        declaring = np.array(
            [opcode for opcode, op in program.by_opcode.items() if op.declares_type], dtype=np.int64
        )
        self.types: dict[int, NumberType] = {}
        ops = program.opcodes
        for offset in offsets[np.isin(opcodes, declaring) & (counts >= 2)].tolist():
            self.types.setdefault(*_number_type(module.words, offset, ops.OpTypeInt, ops.OpTypeFloat))
        self.imports: dict[int, ExtInstSet | None] = {}
        for index in np.flatnonzero(opcodes == ops.OpExtInstImport).tolist():
            inst = module.instruction(index)
            if inst.valid:
                self.imports[inst.result_id] = module.grammar.ext_inst_set(str(inst.operands[1].value))
        switches = offsets[(opcodes == ops.OpSwitch) & (counts > 1)]
        self.selectors: Counter[int] = Counter(words[switches + 1].tolist())
        """Each id that is an OpSwitch selector, with how many it selects for."""

    def in_use(self, extra: set[int]) -> IdsInUse:
        """The ids defined, with `extra` (named ids that may be defined nowhere)."""
        return IdsInUse(self.defined, extra)


def _number_type(words, offset: int, op_int: int, op_float: int) -> tuple[int, NumberType]:
    """A type declaration's id and what it is, as `Declarations.record_type` records it."""
    head = words[offset]
    opcode, count = head & 0xFFFF, head >> 16
    type_id = words[offset + 1]
    if opcode == op_int and count == 4:
        return type_id, (INT, words[offset + 2], words[offset + 3] != 0)
    if opcode == op_float and count in (3, 4):
        return type_id, (FLOAT, words[offset + 2], words[offset + 3] if count == 4 else None)
    return type_id, (OTHER, 0, False)
