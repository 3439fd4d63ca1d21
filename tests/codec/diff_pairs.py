"""Pairs of modules for testing the diff: a module with every id renumbered (a random
permutation, also onto numbers past the old bound) and K random edits, with the rows
the diff must report for exactly those edits.

Edits: a constant's value changed, an instruction inserted (`%new = OpCopyObject` of a
value just defined), an instruction without a result removed, a decoration added, a
block moved later in its function. Expected rows are given in A's instruction indexes
(changed, removed, moved labels) and B's (added).
"""

from __future__ import annotations

import random
from array import array
from dataclasses import dataclass, field

from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.diff.shape import ModuleShape

EDIT_KINDS = ("constant", "insert", "remove", "decorate", "move_block")


@dataclass
class Expected:
    """The rows a diff of the pair must report, and nothing else."""

    changed: set[int] = field(default_factory=set)
    removed: set[int] = field(default_factory=set)
    added: set[int] = field(default_factory=set)
    moved: set[int] = field(default_factory=set)
    edits: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.changed) + len(self.removed) + len(self.added) + len(self.moved)


class _Item:
    """One instruction of the module being edited: its words, id positions, and the A
    index it came from (None for an inserted one)."""

    __slots__ = ("words", "ids", "origin")

    def __init__(self, words: list[int], ids: tuple[int, ...], origin: int | None) -> None:
        self.words = words
        self.ids = ids
        self.origin = origin


def renumbered(data: bytes, rng: random.Random) -> bytes:
    """The module with every id renumbered and nothing else changed."""
    return make_pair(data, rng, 0)[0]


def make_pair(data: bytes, rng: random.Random, edits: int) -> tuple[bytes, Expected]:
    """B (renumbered, with `edits` random edits; fewer when the module offers fewer
    places) and what the diff of A against B must report."""
    module = open_module(data)
    shape = ModuleShape(module)
    grammar = module.grammar
    items = [_Item(shape.words_of(i), shape.id_positions[i], i) for i in range(shape.count)]
    expected = Expected()
    bound = shape.bound
    touched: set[int] = set()
    editor = _Editor(shape, grammar, items, expected, touched, rng)
    for _ in range(edits):
        for _attempt in range(20):
            kind = rng.choice(EDIT_KINDS)
            made = getattr(editor, kind)()
            if made:
                expected.edits.append(kind)
                break
    bound = max(bound, editor.next_id)
    # Renumber: every id 1..bound-1 onto a random sample of 1..new_bound-1.
    new_bound = bound + rng.randint(0, bound)
    targets = rng.sample(range(1, new_bound), bound - 1)
    permutation = [0] + targets
    out = array("I", shape.words[:5].tolist())
    out[3] = new_bound
    for position, item in enumerate(items):
        words = list(item.words)
        for p in item.ids:
            words[p] = permutation[words[p]]
        out.extend(words)
        if item.origin is None:
            expected.added.add(position)
    if module.big_endian:
        out.byteswap()
    return out.tobytes(), expected


class _Editor:
    def __init__(self, shape, grammar, items, expected, touched, rng) -> None:
        self.shape = shape
        self.grammar = grammar
        self.items = items
        self.expected = expected
        self.touched = touched
        self.rng = rng
        self.next_id = shape.bound
        self.op = {name: grammar.by_name[name].opcode for name in (
            "OpConstant", "OpCopyObject", "OpDecorate", "OpLabel", "OpPhi", "OpVariable",
            "OpFunctionParameter", "OpStore", "OpTypeInt", "OpTypeFloat", "OpName", "OpMemberName",
            "OpMemberDecorate",
        )}
        self.relaxed = grammar.operand_kinds["Decoration"].by_name["RelaxedPrecision"].value
        in_functions = set()
        for f in shape.functions:
            in_functions.update(range(f.first, f.end))
        self.in_functions = in_functions
        self.decorated: set[int] = set()
        self.cache: dict[str, object] = {}

    def _free(self, index: int) -> bool:
        return index not in self.touched

    def _position(self, origin: int) -> int:
        return next(k for k, item in enumerate(self.items) if item.origin == origin)

    def _once(self, name: str, make):
        """A candidate list, made on first use (a module of half a million instructions
        is scanned once, not once per edit)."""
        if name not in self.cache:
            self.cache[name] = make()
        return self.cache[name]

    def _pick(self, candidates: list[int]) -> int | None:
        """A random candidate not touched yet, or None."""
        for _ in range(20):
            index = self.rng.choice(candidates)
            if self._free(index):
                return index
        return None

    def _constants(self):
        shape = self.shape
        scalar_types = set()
        for index in range(shape.global_end):
            opcode = shape.opcodes[index]
            if opcode in (self.op["OpTypeInt"], self.op["OpTypeFloat"]) and shape.words_of(index)[2] == 32:
                scalar_types.add(shape.results[index])
        values: dict[int, set[int]] = {}
        candidates = []
        for index in range(shape.global_end):
            if shape.opcodes[index] == self.op["OpConstant"]:
                words = shape.words_of(index)
                if len(words) == 4 and words[1] in scalar_types:
                    values.setdefault(words[1], set()).add(words[3])
                    candidates.append(index)
        return candidates, values

    def constant(self) -> bool:
        candidates, values = self._once("constants", self._constants)
        index = self._pick(candidates) if candidates else None
        if index is None:
            return False
        item = self.items[self._position(index)]
        taken = values[item.words[1]]
        value = item.words[3]
        while value in taken:
            value = (value + self.rng.randint(1, 1000)) & 0x7FFFFFFF
        taken.add(value)
        item.words[3] = value
        self.touched.add(index)
        self.expected.changed.add(index)
        return True

    def _insertable(self) -> list[int]:
        shape = self.shape
        skip = {self.op[n] for n in ("OpLabel", "OpPhi", "OpVariable", "OpFunctionParameter")}
        return sorted(
            index
            for index in self.in_functions
            if shape.results[index]
            and shape.opcodes[index] not in skip
            and shape.opcodes[index] != shape.op_function
            and shape.result_positions[index] == 2
        )

    def insert(self) -> bool:
        candidates = self._once("insertable", self._insertable)
        if not candidates:
            return False
        index = self.rng.choice(candidates)
        words = self.shape.words_of(index)
        new = self.next_id
        self.next_id += 1
        copy = [(4 << 16) | self.op["OpCopyObject"], words[1], new, words[2]]
        self.items.insert(self._position(index) + 1, _Item(copy, (1, 2, 3), None))
        return True

    def _removable(self) -> list[int]:
        shape = self.shape
        globals_removable = {self.op[n] for n in ("OpName", "OpMemberName", "OpDecorate", "OpMemberDecorate")}
        return [
            index
            for index in range(shape.count)
            if shape.opcodes[index] == self.op["OpStore"] and index in self.in_functions
            or index < shape.global_end and shape.opcodes[index] in globals_removable
        ]

    def remove(self) -> bool:
        candidates = self._once("removable", self._removable)
        index = self._pick(candidates) if candidates else None
        if index is None:
            return False
        del self.items[self._position(index)]
        self.touched.add(index)
        self.expected.removed.add(index)
        return True

    def _decoratable(self) -> list[int]:
        shape = self.shape
        decorated = set()
        for index in shape.sections[2]:
            words = shape.words_of(index)
            if shape.opcodes[index] == self.op["OpDecorate"] and len(words) >= 3 and words[2] == self.relaxed:
                decorated.add(words[1])
        return sorted(
            {
                shape.results[i]
                for i in self.in_functions
                if shape.results[i] and shape.opcodes[i] not in (self.op["OpLabel"], shape.op_function)
            }
            - decorated
        )

    def decorate(self) -> bool:
        shape = self.shape
        targets = self._once("decoratable", self._decoratable)
        if not targets or not shape.sections[2]:
            return False
        target = self.rng.choice(targets)
        if target in self.decorated:
            return False
        annotations = set(shape.sections[2])
        positions = [k for k, item in enumerate(self.items) if item.origin in annotations]
        if not positions:
            return False
        self.decorated.add(target)
        self.items.insert(positions[-1] + 1, _Item([(3 << 16) | self.op["OpDecorate"], target, self.relaxed], (1,), None))
        return True

    def move_block(self) -> bool:
        shape = self.shape
        candidates = [f for f in shape.functions if len(f.blocks) >= 4]
        if not candidates:
            return False
        f = self.rng.choice(candidates)
        choices = [k for k in range(1, len(f.blocks) - 2) if self._free(f.blocks[k].first)]
        if not choices:
            return False
        k = self.rng.choice(choices)
        block = f.blocks[k]
        # The block's items (with what inserts put there) go just before OpFunctionEnd.
        start = self._position(block.first)
        stop = self._position(f.blocks[k + 1].first)
        moving = self.items[start:stop]
        del self.items[start:stop]
        end = self._position(f.end - 1)
        self.items[end:end] = moving
        for b in f.blocks:
            self.touched.add(b.first)
        self.expected.moved.add(block.first)
        return True


def reported(diff) -> dict[str, list]:
    """What a diff reports, in the terms of `Expected`: A indexes of changed rows and
    moved labels, the words of removed (A) and added (B) instructions."""
    out: dict[str, list] = {"changed": [], "removed": [], "added": [], "moved": []}
    for k in diff.differences:
        row = diff.row(k)
        if row.kind == "removed":
            out["removed"].append(tuple(diff.shape_a.words_of(row.a)))
        elif row.kind == "added":
            out["added"].append(tuple(diff.shape_b.words_of(row.b)))
        else:
            out[row.kind].append(row.a)
    return out


def reports_exactly(diff, expected: Expected) -> bool:
    """True when the diff reports the edits and nothing else (a removed or added
    instruction identical to its neighbour may be reported for it)."""
    got = reported(diff)
    want_removed = sorted(tuple(diff.shape_a.words_of(i)) for i in expected.removed)
    want_added = sorted(tuple(diff.shape_b.words_of(j)) for j in expected.added)
    return (
        not diff.header_changes()
        and sorted(got["changed"]) == sorted(expected.changed)
        and sorted(got["moved"]) == sorted(expected.moved)
        and sorted(got["removed"]) == want_removed
        and sorted(got["added"]) == want_added
    )
