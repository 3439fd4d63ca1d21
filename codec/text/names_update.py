"""An edited module's friendly names derived from the unedited module's, without a new pass.

Typing into a constant's literal or a type's operands renames ids (`%uint_37` becomes
`%uint_377`), and a fresh naming pass over the part before the functions of a huge module
takes a good part of a second. The pass gives each id its name once, in module order, so
an edit that keeps every instruction's opcode and result id keeps the order in which ids
are named; only ids whose suggested name changes, or whose suffix search (`_0`, `_1`, …)
meets a name that was freed or newly taken before them, can be named differently. Those
are found from the edit outwards (the changed instructions, the types and constants that
spell a renamed id's name into their own, and the ids whose name shares a renamed one's
base) and named again in order, each against the names given before it. The result is the
names a fresh pass gives (tests/codec/test_names_update.py compares them on the corpus).
An edit may reach into the functions (a type's width changed re-encodes the switches on
its values): the pass does not read the bodies, so there only the opcodes must stay.
"""

from __future__ import annotations

import copy
import heapq
import re

import numpy as np

from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.text.names import NAMING_OPNAMES, FriendlyNames, NameMap, sanitize

MAX_RENAMED = 20_000
"""Ids looked at again before a new pass is judged cheaper."""
MAX_OWNER_CHANGES = 4_096
"""Names changed since the first pass that a derived pass keeps apart from its table."""
_SUFFIX = re.compile(r"^(.*)_(0|[1-9][0-9]*)$")
_UNCHANGED_BY_TARGET = frozenset({"OpName", "OpDecorate"})


def names_after_edit(
    previous: NameMap, old: LazyModule, new: LazyModule, change: tuple[int, int, int]
) -> NameMap | None:
    """`new`'s friendly names, where `new` is `old` with words [start, old_end) replaced by
    words [start, new_end) (`change`) and `previous` names `old`; None when the edit is not
    one this can follow (instructions added, removed or changed in kind or result, an
    OpName or decoration edited, a body edited that names something): then a new pass."""
    if not new.indexed or not old.indexed:
        return None
    changed = _changed_results(old, new, change)  # first: it may refuse before a pass is finished
    namer = previous.finished_pass() if changed is not None else None
    if namer is None:
        return None
    try:
        return NameMap.of_pass(new, _Renaming(namer, new).run(changed))
    except _Unfollowable:
        return None


def _changed_results(old: LazyModule, new: LazyModule, change: tuple[int, int, int]) -> list[int] | None:
    """The result ids of the edited instructions before the functions, when the edit
    keeps every instruction's opcode, and the result id of each one it changes there;
    else None. Instructions in the functions (a switch whose case literals were
    re-encoded) name nothing, and keep their names whatever their words, when their
    opcodes stay (the naming pass reads only the part before the functions, given bodies
    that name nothing)."""
    start, old_end, new_end = change
    count = old.instruction_count
    if count != new.instruction_count or old.first_function != new.first_function:
        return None
    first = old.index_at(start)
    if first is None or old.offset(first) != start:
        return None
    old_at = np.frombuffer(old.index.offsets, dtype=np.uint32)
    new_at = np.frombuffer(new.index.offsets, dtype=np.uint32)
    last = int(np.searchsorted(old_at, old_end))
    if (old.offset(last) if last < count else old.tail_offset) != old_end:
        return None
    if (new.offset(last) if last < count else new.tail_offset) != new_end:
        return None
    old_words = np.frombuffer(old.words, dtype=np.uint32)
    new_words = np.frombuffer(new.words, dtype=np.uint32)
    old_heads, new_heads = old_words[old_at[first:last]], new_words[new_at[first:last]]
    if not np.array_equal(old_heads & 0xFFFF, new_heads & 0xFFFF):
        return None
    limit = min(last, old.first_function if old.first_function is not None else count)
    if limit <= first:
        return []
    kept = _same_words(old_words, new_words, old_at[first:limit], new_at[first:limit],
                       (old_heads[: limit - first] >> 16).astype(np.int64),
                       (new_heads[: limit - first] >> 16).astype(np.int64))
    results = []
    for index in (np.flatnonzero(~kept) + first).tolist():
        before, after = old.instruction(index), new.instruction(index)
        if not (before.valid and after.valid):
            return None
        if before.result_id != after.result_id or before.opname in _UNCHANGED_BY_TARGET:
            return None
        if before.result_id:
            results.append(before.result_id)
    return results


def _same_words(old_words: np.ndarray, new_words: np.ndarray, old_at: np.ndarray, new_at: np.ndarray,
                old_sizes: np.ndarray, new_sizes: np.ndarray) -> np.ndarray:
    """For each instruction (at `old_at` in the old words, `new_at` in the new), whether
    its words are the same in both."""
    same = old_sizes == new_sizes
    sizes = np.where(same, old_sizes, 0)
    if not sizes.sum():
        return same
    owner = np.repeat(np.arange(len(sizes)), sizes)
    within = np.arange(len(owner)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    differs = old_words[old_at.astype(np.int64)[owner] + within] != new_words[new_at.astype(np.int64)[owner] + within]
    same[np.unique(owner[differs])] = False
    return same


class _Renaming:
    """One edit's renaming: the old pass's names, and the ids named again in order."""

    def __init__(self, namer: FriendlyNames, module: LazyModule) -> None:
        self.namer = namer
        self.module = module
        self.old = namer.names
        if namer.lookups is None:
            collided: dict[str, list[int]] = {}
            for id_, base in namer.suffixed.items():
                collided.setdefault(base, []).append(id_)
            namer.lookups = ({id_: k for k, id_ in enumerate(namer.names)},
                             Owners({name: id_ for id_, name in namer.names.items()}), collided)
        self.position, self.owner, self.collided = namer.lookups
        self.seen: set[int] = set()
        """Ids named again (their suffixed base may have changed, even with the name kept)."""
        self.renamed: dict[int, str] = {}
        self.taken: dict[str, int] = {}
        """New names of renamed ids, with their ids."""
        self.suffixed = dict(namer.suffixed)
        self.probe = copy.copy(namer)
        self.probe.save = self._suggest  # type: ignore[method-assign]
        self.suggested: str | None = None
        self.at = 0
        naming = module.grammar.by_name
        self.naming_opcodes = {naming[n].opcode for n in NAMING_OPNAMES if n in naming} - {
            naming[n].opcode for n in _UNCHANGED_BY_TARGET
        }
        words = np.frombuffer(module.words, dtype=np.uint32)
        end = module.offset(module.first_function) if module.first_function is not None else module.tail_offset
        self.words = words[:end]
        self.offsets = np.frombuffer(module.index.offsets, dtype=np.uint32)

    def run(self, changed: list[int]) -> FriendlyNames:
        """Name again the changed ids and whatever their new names reach; the new pass."""
        queue = [(self.position[id_], id_) for id_ in set(changed) if id_ in self.position]
        if len(queue) != len(set(changed)):
            raise _Unfollowable
        heapq.heapify(queue)
        seen = self.seen
        while queue:
            at, id_ = heapq.heappop(queue)
            if id_ in seen:
                continue
            seen.add(id_)
            if len(seen) > MAX_RENAMED:
                raise _Unfollowable
            name = self._name_again(id_, at)
            if name == self.old[id_]:
                continue
            self.renamed[id_] = name
            self.taken[name] = id_
            for later in self._reached(id_, at, self.old[id_], name):
                heapq.heappush(queue, (self.position[later], later))
        return self._new_pass()

    def _name_again(self, id_: int, at: int) -> str:
        """The name the pass gives `id_` at its place, given the names before it."""
        if id_ in self.namer.targeted:
            raise _Unfollowable
        definers = self.module.definers(id_)
        if len(definers) != 1:
            raise _Unfollowable
        instruction = self.module.instruction(definers[0])
        if not instruction.valid:
            raise _Unfollowable
        if instruction.opname in NAMING_OPNAMES:
            operands = instruction.operands
            literal = None
            if instruction.opname == "OpConstant":
                literal = (operands[2].value, operands[2].number_type, operands[2].num_words)
            self.at, self.suggested = at, None
            self.probe.name = self._name_before  # type: ignore[method-assign]
            self.probe.visit(instruction.opname, id_, instruction.type_id, [o.value for o in operands], literal)
            suggested = self.suggested
            if suggested is None:
                raise _Unfollowable
        else:
            suggested = str(id_)
        base = sanitize(suggested)
        if not self._used_before(base, at):
            self.suffixed.pop(id_, None)
            return base
        index = 0
        while self._used_before(f"{base}_{index}", at):
            index += 1
        self.suffixed[id_] = base
        return f"{base}_{index}"

    def _suggest(self, id_: int, suggested: str) -> None:
        self.suggested = suggested

    def _name_before(self, id_: int) -> str:
        """An id's name as the pass knows it at the place being named again."""
        position = self.position.get(id_)
        if position is None or position >= self.at:
            return str(id_)
        return self.renamed.get(id_) or self.old[id_]

    def _used_before(self, name: str, at: int) -> bool:
        """Whether the new pass has given `name` to an id named before place `at`."""
        owner = self.owner.get(name)
        if owner is not None and self.position[owner] < at and owner not in self.renamed:
            return True
        owner = self.taken.get(name)
        return owner is not None and self.position[owner] < at

    def _reached(self, id_: int, at: int, old_name: str, new_name: str) -> set[int]:
        """Ids named after `id_` whose names a rename of `id_` may change: those that
        spell its name into theirs, the one that held the new name, and those whose
        suffix search passed the old name or may meet the new one."""
        reached = set(self._spelling(id_))
        holder = self.owner.get(new_name)
        if holder is not None:
            reached.add(holder)
        for name in (old_name, new_name):
            for base in _bases_reaching(name):
                reached.update(self.collided.get(base, ()))
        return {other for other in reached if other != id_ and self.position.get(other, -1) > at}

    def _spelling(self, id_: int) -> set[int]:
        """The results of the naming instructions before the functions whose words hold
        `id_` (a type's operand, a constant's type): their names may spell `id_`'s."""
        hits = np.flatnonzero(self.words == id_)
        if not len(hits):
            return set()
        found = set()
        for index in np.unique(np.searchsorted(self.offsets, hits, side="right") - 1).tolist():
            if index >= 0 and self.module.opcode(index) in self.naming_opcodes:
                result = self.module.instruction(index).result_id
                if result and result != id_:
                    found.add(result)
        return found

    def _new_pass(self) -> FriendlyNames:
        """The edited module's finished pass: the old one with the renamed ids' names."""
        old = self.namer
        made = copy.copy(old)
        made.names = dict(old.names)
        made.names.update(self.renamed)
        freed = {old.names[id_] for id_ in self.renamed}
        owner = self.owner.after(freed, self.taken)
        made.used = UsedNames(owner)
        made.suffixed = self.suffixed
        made.next_suffix = dict(old.next_suffix)
        made.lookups = (self.position, owner, self._collided_after())
        for name in freed:
            for base in _bases_reaching(name):
                made.next_suffix.pop(base, None)
        return made


    def _collided_after(self) -> dict[str, list[int]]:
        """The suffixed ids of each base after the renaming: the old pass's lists, new
        ones only for the bases an id named again left or joined (the old pass keeps its own)."""
        before, after = self.namer.suffixed, self.suffixed
        moved = [id_ for id_ in self.seen if before.get(id_) != after.get(id_)]
        if not moved:
            return self.collided
        collided = dict(self.collided)
        for id_ in moved:
            for base in {before.get(id_), after.get(id_)} - {None}:
                collided[base] = [other for other in collided.get(base, ()) if other != id_]
            base = after.get(id_)
            if base is not None:
                collided[base].append(id_)
        for id_ in moved:
            base = before.get(id_)
            if base is not None and not collided.get(base):
                collided.pop(base, None)
        return collided


class Owners:
    """Each name's id in a pass: the first pass's table and what the edits since changed
    (a name freed: None), so that a keystroke does not copy the whole table (a copy
    touches every name: tens of milliseconds on the large module)."""

    __slots__ = ("base", "changes")

    def __init__(self, base: dict[str, int], changes: dict[str, int | None] | None = None) -> None:
        self.base = base
        self.changes = changes if changes is not None else {}

    def get(self, name: str, default: int | None = None) -> int | None:
        """The id named `name`, else `default`."""
        changes = self.changes
        if name in changes:
            found = changes[name]
            return default if found is None else found
        return self.base.get(name, default)

    def after(self, freed: set[str], taken: dict[str, int]) -> Owners:
        """The owners once `freed` names are given up and `taken` ones given (the base
        copied once the changes grow large)."""
        changes = dict(self.changes)
        changes.update(dict.fromkeys(freed))
        changes.update(taken)
        if len(changes) <= MAX_OWNER_CHANGES:
            return Owners(self.base, changes)
        base = dict(self.base)
        for name, id_ in changes.items():
            if id_ is None:
                base.pop(name, None)
            else:
                base[name] = id_
        return Owners(base)


class UsedNames:
    """The names a derived pass has given, as its `used` (what `FriendlyNames.save` asks):
    its owners' names, without a copy of them all."""

    __slots__ = ("owners", "added")

    def __init__(self, owners: Owners) -> None:
        self.owners = owners
        self.added: set[str] = set()

    def __contains__(self, name: object) -> bool:
        return name in self.added or (isinstance(name, str) and self.owners.get(name) is not None)

    def add(self, name: str) -> None:
        self.added.add(name)


class _Unfollowable(Exception):
    """The edit reaches something the renaming cannot follow: a new pass is needed."""


def _bases_reaching(name: str) -> tuple[str, ...]:
    """The bases whose suffix search can give `name`: itself, and `x` for `x_N`."""
    match = _SUFFIX.match(name)
    return (name, match.group(1)) if match else (name,)
