"""Which words of each instruction are ids, for the whole module at once.

The decoder's fast-path plans (`codec.binary.decode_plans`) say, for an instruction's
first word, which of its words are ids; the diff needs nothing else of most
instructions. So the words are walked by their counts and each first word's plan is
looked up once: no decoding, no operand records. What a plan cannot settle from the
first word alone is settled as the decoder settles it: a plan with enumerants or masks
only when the words fit it, an extended instruction by its set's import name and its
number, OpSwitch by its selector's type; anything else is decoded
(`LazyModule.instruction`). A module whose ids do not all lie below its bound is left to
the decoder's own pass (`facts_by_decoding`), which knows what to make of it.
"""

from __future__ import annotations

from array import array

from spvinspect.codec.binary.decode_plans import WordPlan, words_fit
from spvinspect.codec.binary.fast_forms import FastForms
from spvinspect.codec.binary.lazy import LazyModule
from spvinspect.codec.binary.model import Instruction, NumberType

Facts = tuple[tuple[int, ...], int]
"""An instruction's id positions (from its first word) and its result's position (0
when it has none)."""


class _Marker:
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name


EXTENDED = _Marker("extended")
SWITCH = _Marker("switch")
DECODE = _Marker("decode")
IMPORT = _Marker("import")
GROUPED_FROM = 20_000
"""Instructions from which a module's first words are grouped with numpy (imported only
then: a fraction of a second that a small module's diff would notice)."""
RESULT_ONLY: Facts = ((1,), 1)
"""OpTypeInt, OpTypeFloat: the decoder reads them whole, but their only id is their result."""


def plan_facts(plan: WordPlan) -> Facts:
    return tuple(k + 1 for k in plan.ids), plan.result_index + 1 if plan.result_index >= 0 else 0


def instruction_facts(inst: Instruction, bound: int) -> Facts:
    """The facts of a decoded instruction; words that are not valid ids (0, or past the
    bound) are left as literals."""
    ids = []
    result = 0
    for operand in inst.operands:
        if operand.kind[:2] == "Id" and operand.num_words == 1 and 0 < operand.value < bound:  # type: ignore[operator]
            position = operand.offset - inst.offset
            ids.append(position)
            if operand.kind == "IdResult":
                result = position
    return tuple(ids), result


def facts_by_decoding(module: LazyModule, bound: int) -> tuple[array, list[Facts]]:
    """Offsets and facts from the decoder's pass (its fast path where it can)."""
    offsets = array("I")
    facts: list[Facts] = []

    def form(plan: WordPlan):
        known = plan_facts(plan)
        return lambda words, offset, value, number_type: (offset, known)

    for run in module.in_order(FastForms(module.tables, form)):
        general = set(run.general)
        for k, entry in enumerate(run.entries):
            if k in general:
                offsets.append(entry.offset)
                facts.append(instruction_facts(entry, bound))
            else:
                offsets.append(entry[0])
                facts.append(entry[1])
    return offsets, facts


class _Scan:
    """The walk over one module's words."""

    def __init__(self, module: LazyModule, bound: int) -> None:
        self.module = module
        self.tables = module.tables
        self.words = module.words
        self.bound = bound
        ops = self.tables.opcodes
        self.by_head: dict[int, object] = {}
        self.fitted: dict[int, Facts] = {}
        self.extended: dict[tuple, object] = {}
        self.imports: dict[int, str] = {}
        self.whole = {ops.OpTypeInt: RESULT_ONLY, ops.OpTypeFloat: RESULT_ONLY, ops.OpExtInstImport: IMPORT}

    def head(self, head: int) -> object:
        """Facts for every instruction with this first word, a plan to fit the words
        to, or a marker."""
        opcode, count = head & 0xFFFF, head >> 16
        tables = self.tables
        if opcode in self.whole:
            return self.whole[opcode]
        if opcode in tables.ext_inst_opcodes:
            return EXTENDED if count > tables.ext_set_positions[opcode] + 1 else DECODE
        if opcode in tables.selector_typed_opcodes:
            return SWITCH
        plan = tables.word_plan(opcode, count)
        if plan is None:
            return DECODE
        return plan if plan.enums or plan.masks else plan_facts(plan)

    def fit(self, plan: WordPlan, key: object, offset: int, count: int) -> object:
        if not words_fit(plan, self.words[offset + 1 : offset + count], self.bound):
            return DECODE
        found = self.fitted.get(key)  # type: ignore[arg-type]
        if found is None:
            found = self.fitted[key] = plan_facts(plan)  # type: ignore[index]
        return found

    def extended_facts(self, head: int, offset: int) -> object:
        opcode = head & 0xFFFF
        at = self.tables.ext_set_positions[opcode]
        name = self.imports.get(self.words[offset + at])
        if name is None:
            return DECODE
        key = (head, name, self.words[offset + at + 1])
        found = self.extended.get(key)
        if found is None:
            plan = self.tables.ext_word_plan(opcode, head >> 16, name, key[2])
            found = DECODE if plan is None else plan if plan.enums or plan.masks else plan_facts(plan)
            self.extended[key] = found
        if isinstance(found, WordPlan):
            return self.fit(found, key, offset, head >> 16)
        return found

    def run(self) -> tuple[array, list, list[int], list[int]] | None:
        """Offsets, facts (markers where the decoder or a type must settle them), and
        the indexes of those; None when an id is not below the bound. The module's own
        index gives the offsets (its walk stops where this one would: a word count of 0
        or past the end)."""
        module = self.module
        module.ensure_indexed(1 << 62)
        offsets = array("I", module.index.offsets)
        if len(offsets) >= GROUPED_FROM:
            return self._grouped(offsets)
        words = self.words
        by_head = self.by_head
        facts: list = []
        decode: list[int] = []
        switches: list[int] = []
        for index, offset in enumerate(offsets):
            head = words[offset]
            found = by_head.get(head)
            if found is None:
                found = by_head[head] = self.head(head)
            if found.__class__ is not tuple:
                found = self._settle(index, offset, found, decode, switches)
            facts.append(found)
        values = [words[o + p] for o, f in zip(offsets, facts) if f.__class__ is tuple for p in f[0]]
        if values and (min(values) == 0 or max(values) >= self.bound):
            return None
        return offsets, facts, decode, switches

    def _settle(self, index: int, offset: int, found: object, decode: list[int], switches: list[int]) -> object:
        """The facts of an instruction whose first word does not settle them, in order
        (an import's name is known before the extended instructions after it)."""
        words = self.words
        head = words[offset]
        count = head >> 16
        if found is EXTENDED:
            found = self.extended_facts(head, offset)
        elif found is IMPORT:
            raw = b"".join(word.to_bytes(4, "little") for word in words[offset + 2 : offset + count])
            self.imports[words[offset + 1]] = raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")
            found = RESULT_ONLY if count > 2 else DECODE
        elif found is SWITCH:
            switches.append(index)
        elif isinstance(found, WordPlan):
            found = self.fit(found, head, offset, count)
        if found is DECODE:
            decode.append(index)
        return found

    def _grouped(self, offsets: array) -> tuple[array, list, list[int], list[int]] | None:
        """`run` for a large module: instructions grouped by first word, so that each
        distinct first word is looked at once and the ids of a group are checked against
        the bound together (numpy); only instructions whose facts depend on their other
        words go one by one, in order."""
        import numpy as np

        words = self.words
        np_words = np.frombuffer(words, dtype=np.uint32)
        at = np.frombuffer(offsets, dtype=np.uint32).astype(np.int64)
        heads, group = np.unique(np_words[at], return_inverse=True)
        by_head = self.by_head
        found_of = []
        for head in heads.tolist():
            found = by_head.get(head)
            if found is None:
                found = by_head[head] = self.head(head)
            found_of.append(found)
        facts: list = [found_of[k] for k in group.tolist()]
        bound = self.bound
        order = np.argsort(group, kind="stable")
        starts = np.searchsorted(group[order], np.arange(len(heads) + 1))
        one_by_one: list[int] = []
        for k, found in enumerate(found_of):
            members = order[starts[k] : starts[k + 1]]
            if found.__class__ is not tuple:
                one_by_one.extend(members.tolist())
                continue
            for p in found[0]:
                values = np_words[at[members] + p]
                if int(values.min()) == 0 or int(values.max()) >= bound:
                    return None
        one_by_one.sort()
        decode: list[int] = []
        switches: list[int] = []
        checked: list[int] = []
        for index in one_by_one:
            offset = offsets[index]
            found = facts[index] = self._settle(index, offset, facts[index], decode, switches)
            if found.__class__ is tuple:
                checked.extend(words[offset + p] for p in found[0])
        if checked and (min(checked) == 0 or max(checked) >= bound):
            return None
        return offsets, facts, decode, switches


def scan(module: LazyModule, bound: int) -> tuple[array, list[Facts], array]:
    """The word offset, facts and result id (0 for none) of every instruction."""
    walk = _Scan(module, bound)
    found = walk.run()
    if found is None:
        offsets, facts = facts_by_decoding(module, bound)
        switches: list[int] = []
    else:
        offsets, facts, decode, switches = found
        for index in decode:
            facts[index] = instruction_facts(module.instruction(index), bound)
    results = _results(module.words, offsets, facts)
    if switches:
        _settle_switches(walk, offsets, facts, results, switches)
    return offsets, facts, results


def _results(words: array, offsets: array, facts: list) -> array:
    """Each instruction's result id (0 for none)."""
    if len(offsets) < GROUPED_FROM:
        return array("I", [words[o + f[1]] if f.__class__ is tuple and f[1] else 0 for o, f in zip(offsets, facts)])
    import numpy as np

    positions = np.fromiter((f[1] if f.__class__ is tuple else 0 for f in facts), dtype=np.int64, count=len(facts))
    at = np.frombuffer(offsets, dtype=np.uint32).astype(np.int64) + positions
    found = np.where(positions > 0, np.frombuffer(words, dtype=np.uint32)[at], 0).astype(np.uint32)
    return array("I", found.tobytes())


def _definers(results: array, offsets: array, wanted: set[int]) -> dict[int, int]:
    """Id -> the word offset of its (last) definer, for the ids `wanted`."""
    return {result: offset for result, offset in zip(results, offsets) if result in wanted}


def _settle_switches(walk: _Scan, offsets: array, facts: list, results: array, switches: list[int]) -> None:
    """Each OpSwitch by its selector's type: the definer of the selector, its type, and
    that type's width and signedness when it is an OpTypeInt."""
    words = walk.words
    tables = walk.tables
    selectors = {words[offsets[index] + 1] for index in switches if words[offsets[index]] >> 16 > 1}
    defined_at = _definers(results, offsets, selectors)
    types = {words[at + 1] for at in defined_at.values() if at + 1 < len(words)}
    defined_at.update(_definers(results, offsets, types))
    op_int = tables.opcodes.OpTypeInt
    for index in switches:
        offset = offsets[index]
        head = words[offset]
        selector = words[offset + 1] if head >> 16 > 1 else 0
        definer = defined_at.get(selector) if selector else None
        plan = None
        if definer is not None and tables.type_positions[words[definer] & 0xFFFF]:
            type_at = defined_at.get(words[definer + 1])
            if type_at is not None and words[type_at] & 0xFFFF == op_int and words[type_at] >> 16 >= 4:
                case_type = NumberType("int", words[type_at + 2], bool(words[type_at + 3]))
                plan = tables.case_word_plan(head & 0xFFFF, head >> 16, case_type)
        if plan is not None and words_fit(plan, words[offset + 1 : offset + (head >> 16)], walk.bound):
            facts[index] = plan_facts(plan)
        else:
            facts[index] = instruction_facts(walk.module.instruction(index), walk.bound)
