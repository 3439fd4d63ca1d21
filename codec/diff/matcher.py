"""Matching two modules' ids by what they are, not by their numbers.

In steps, each using what the earlier ones matched:

1. Module-level ids (types, constants, variables, imports, strings, functions) by
   structure: a key made of the defining instruction's words, its ids replaced by their
   own keys, and the id's `OpName`. Keys found the same number of times on both sides
   are paired in order.
2. The sections before the functions are aligned (`codec.diff.align`), ids replaced by
   their match (unmatched ones all alike), and aligned instructions pair the ids they
   still hold unmatched: a constant whose value changed pairs with its old self, so
   its uses stay equal.
3. Functions by their key (name, type), the rest in order; parameters by position;
   blocks by position in the control-flow graph (entry to entry, then successors,
   merge and continue targets by position), the rest in order.
4. Each function's instructions, B's blocks put in A's order, are aligned the same way
   until nothing more is learnt; an unmatched result id is told apart by how often the
   function reads it.

The result is a pairing of ids (`IdPairs`) and, for each region (a section or a
function pair), the alignment of its instructions.
"""

from __future__ import annotations

from collections import Counter
from difflib import SequenceMatcher
from collections.abc import Callable
from typing import NamedTuple

from spvinspect.codec.diff.align import Op, align
from spvinspect.codec.diff.shape import SECTIONS, Function, ModuleShape

UNKNOWN = -1
"""What an unmatched id becomes in an instruction's key."""
FORWARD = -2
"""An id referred to before its structural key is known (a forward pointer)."""
Progress = Callable[[str, int, int], None]
"""Told a step's name, how much of it is done, and of how much."""
PASSES = 4
"""Rounds of align-and-learn, at most, per region."""


class IdPairs:
    """The pairing of A's ids with B's. `canon_a[x]` is x once x is paired (else
    UNKNOWN); `canon_b[y]` is the A id y is paired with (else UNKNOWN)."""

    def __init__(self, bound_a: int, bound_b: int) -> None:
        self.canon_a = [UNKNOWN] * max(bound_a, 1)
        self.canon_b = [UNKNOWN] * max(bound_b, 1)

        self.journal: list[tuple[int, int]] | None = None
        """The pairs made since `mark()`, while an attempt may be undone."""

    def pair(self, a: int, b: int) -> bool:
        """Pair `a` with `b` when both are still free; True when they were."""
        if self.canon_a[a] == UNKNOWN and self.canon_b[b] == UNKNOWN:
            self.canon_a[a] = a
            self.canon_b[b] = a
            if self.journal is not None:
                self.journal.append((a, b))
            return True
        return False

    def mark(self) -> None:
        """Start keeping the pairs made, to undo them."""
        self.journal = []

    def undo(self) -> list[tuple[int, int]]:
        """Unpair what was paired since `mark()` (which goes on); the pairs undone."""
        undone = self.journal or []
        for a, b in reversed(undone):
            self.canon_a[a] = UNKNOWN
            self.canon_b[b] = UNKNOWN
        self.journal = []
        return undone

    def keep(self, pairs: list[tuple[int, int]]) -> None:
        """Stop keeping a journal, after pairing `pairs` again."""
        self.journal = None
        for a, b in pairs:
            self.pair(a, b)

    def b_of(self) -> dict[int, int]:
        """A id → the B id paired with it."""
        return {a: b for b, a in enumerate(self.canon_b) if a != UNKNOWN}


class Region(NamedTuple):
    """A part of the modules compared as one sequence: a section, or a function (A's
    and B's instruction indexes in comparison order, B's blocks put in A's order)."""

    name: str
    a: list[int]
    b: list[int]
    ops: list[Op]
    function_a: Function | None = None
    function_b: Function | None = None


def instruction_key(shape: ModuleShape, index: int, canon: list[int], tokens: dict[int, int] | None = None) -> int:
    """The key of an instruction: its words with each id replaced by `canon` (its A
    id, or UNKNOWN), an unknown result by its token when given."""
    words = shape.words
    offset = shape.offsets[index]
    ids = shape.id_positions[index]
    chunk = words[offset : offset + (words[offset] >> 16)]
    if not ids:
        return hash(tuple(chunk))
    values = chunk.tolist()
    if tokens is None:
        for p in ids:
            values[p] = canon[values[p]]
    else:
        for p in ids:
            values[p] = canon[values[p]]
        result = shape.result_positions[index]
        if result and values[result] == UNKNOWN:
            values[result] = tokens.get(words[offset + result], UNKNOWN)
    return hash(tuple(values))


class Matcher:
    """Pairs the ids of two module shapes and aligns their regions."""

    def __init__(self, a: ModuleShape, b: ModuleShape, progress: Progress | None = None) -> None:
        self.a = a
        self.b = b
        self.progress = progress
        """Told each function pair's turn (`functions`, done, of), for a view's progress."""
        self.ids = IdPairs(a.bound, b.bound)
        self.regions: list[Region] = []
        self.function_pairs: list[tuple[Function | None, Function | None]] = []
        self.conflicts = 0
        self.names: dict[int, dict[int, str]] = {}
        """Each shape's OpName strings by target id (keyed by the shape's id())."""

    def op_names(self, shape: ModuleShape) -> dict[int, str]:
        """Target id -> the string of its first OpName, in `shape`."""
        return self.names.get(id(shape), {})

    def run(self) -> Matcher:
        keys_a = self._structural_keys(self.a)
        keys_b = self._structural_keys(self.b)
        self._pair_by_keys(keys_a, keys_b)
        self._sections()
        self._functions(keys_a, keys_b)
        self._sections_again()
        return self

    # -- 1. module-level ids by structure --------------------------------------------

    def _structural_keys(self, shape: ModuleShape) -> dict[int, int]:
        """The structural key of every id defined before the functions, and of every
        function."""
        names: dict[int, str] = {}
        op_name = shape.module.grammar.by_name["OpName"].opcode
        for index in shape.sections[1]:
            if shape.opcodes[index] == op_name and len(shape.id_positions[index]) == 1:
                names.setdefault(shape.words_of(index)[1], shape.string_at(index, 2))
        self.names[id(shape)] = names
        keys: dict[int, int] = {}
        order = list(range(shape.global_end)) + [f.first for f in shape.functions]
        words = shape.words
        for index in order:
            result = shape.results[index]
            if not result:
                continue
            offset = shape.offsets[index]
            values = words[offset : offset + (words[offset] >> 16)].tolist()
            at = shape.result_positions[index]
            for p in shape.id_positions[index]:
                values[p] = 0 if p == at else keys.get(values[p], FORWARD)
            keys.setdefault(result, hash((tuple(values), names.get(result))))
        return keys

    def _pair_by_keys(self, keys_a: dict[int, int], keys_b: dict[int, int]) -> None:
        groups_a: dict[int, list[int]] = {}
        for id_, key in keys_a.items():
            groups_a.setdefault(key, []).append(id_)
        groups_b: dict[int, list[int]] = {}
        for id_, key in keys_b.items():
            groups_b.setdefault(key, []).append(id_)
        for key, ids_a in groups_a.items():
            ids_b = groups_b.get(key)
            if ids_b is not None and len(ids_b) == len(ids_a):
                for x, y in zip(ids_a, ids_b):
                    self.ids.pair(x, y)

    # -- 2. the sections -------------------------------------------------------------

    def _sections(self) -> None:
        names = list(SECTIONS)
        pairs = [(self.a.sections[k], self.b.sections[k]) for k in range(len(names))]
        ops_of: list[list[Op]] = [[] for _ in names]
        for _ in range(PASSES):
            learnt = 0
            for k, (seq_a, seq_b) in enumerate(pairs):
                ops_of[k] = self._align(seq_a, seq_b)
                learnt += self._learn(seq_a, seq_b, ops_of[k], module_level=True)
            if not learnt:
                break
        for k, (seq_a, seq_b) in enumerate(pairs):
            self.regions.append(Region(names[k], seq_a, seq_b, ops_of[k]))

    def _sections_again(self) -> None:
        """The sections that can name a function's values (all but the declarations)
        aligned again, with every id the functions paired."""
        for k in range(len(SECTIONS) - 1):
            region = self.regions[k]
            ops = self._align(region.a, region.b)
            if self._learn(region.a, region.b, ops):
                ops = self._align(region.a, region.b)
            self.regions[k] = region._replace(ops=ops)

    def _align(self, seq_a: list[int], seq_b: list[int], tokens=(None, None)) -> list[Op]:
        canon_a, canon_b = self.ids.canon_a, self.ids.canon_b
        keys_a = [instruction_key(self.a, i, canon_a, tokens[0]) for i in seq_a]
        keys_b = [instruction_key(self.b, j, canon_b, tokens[1]) for j in seq_b]
        if keys_a == keys_b:
            return [Op("equal", 0, len(seq_a), 0, len(seq_b))] if seq_a else []
        return align(keys_a, keys_b)

    def _learn(
        self, seq_a: list[int], seq_b: list[int], ops: list[Op], module_level: bool = False, strict: bool = False
    ) -> int:
        """Pair the unmatched ids that aligned instructions hold at the same places:
        equal runs first, then the instructions a replaced run pairs; the count of new
        pairs. `module_level`: only ids defined outside the functions (a decoration of a
        function's value waits for the functions to be matched). `strict`: a pair
        teaches only when every id it reads is already paired, with each other."""
        learnt = 0
        for op in ops:
            if op.tag == "equal":
                for k in range(op.a2 - op.a1):
                    learnt += self._learn_pair(seq_a[op.a1 + k], seq_b[op.b1 + k], module_level, strict)
        for op in ops:
            if op.tag == "replace":
                for i, j in self.changed_pairs(seq_a[op.a1 : op.a2], seq_b[op.b1 : op.b2]):
                    learnt += self._learn_pair(i, j, module_level, strict)
        return learnt

    def changed_pairs(self, run_a: list[int], run_b: list[int]) -> list[tuple[int, int]]:
        """The instructions of a replaced run that pair as changed: same opcodes, in
        order (the longest such run)."""
        ops_a = [self.a.opcodes[i] for i in run_a]
        ops_b = [self.b.opcodes[j] for j in run_b]
        if ops_a == ops_b:
            return list(zip(run_a, run_b))
        matcher = SequenceMatcher(None, ops_a, ops_b, autojunk=False)
        return [
            (run_a[block.a + k], run_b[block.b + k])
            for block in matcher.get_matching_blocks()
            for k in range(block.size)
        ]

    def _learn_pair(self, i: int, j: int, module_level: bool = False, strict: bool = False) -> int:
        ids_a, ids_b = self.a.id_positions[i], self.b.id_positions[j]
        if ids_a != ids_b or not ids_a:
            return 0
        words_a, words_b = self.a.words, self.b.words
        oa, ob = self.a.offsets[i], self.b.offsets[j]
        canon_a, canon_b = self.ids.canon_a, self.ids.canon_b
        module_a, module_b = self.a.module_ids, self.b.module_ids
        result = self.a.result_positions[i]
        fresh = []
        for p in ids_a:
            x, y = words_a[oa + p], words_b[ob + p]
            known = canon_b[y]
            if known == x:
                continue
            if strict and p != result:
                return 0
            if known != UNKNOWN or canon_a[x] != UNKNOWN:
                # Aligned, but against what is already known: learn nothing from it.
                self.conflicts += 1
                return 0
            if not module_level or x in module_a and y in module_b:
                fresh.append((x, y))
        pair = self.ids.pair
        return sum(pair(x, y) for x, y in fresh)

    # -- 3. functions ----------------------------------------------------------------

    def _functions(self, keys_a: dict[int, int], keys_b: dict[int, int]) -> None:
        a, b = self.a, self.b
        canon_b = self.ids.canon_b
        paired_b: set[int] = set()
        partner: dict[int, Function] = {}
        b_of = {canon_b[f.result_id]: f for f in b.functions if f.result_id < len(canon_b) and canon_b[f.result_id] != UNKNOWN}
        for k, f in enumerate(a.functions):
            g = b_of.get(f.result_id)
            if g is not None:
                partner[k] = g
                paired_b.add(g.first)
        # The rest in order, equal keys first, then one for one within replaced runs.
        rest_a = [k for k in range(len(a.functions)) if k not in partner]
        rest_b = [g for g in b.functions if g.first not in paired_b]
        if rest_a and rest_b:
            ka = [keys_a.get(a.functions[k].result_id) for k in rest_a]
            kb = [keys_b.get(g.result_id) for g in rest_b]
            for op in align(ka, kb):
                if op.tag in ("equal", "replace"):
                    for k, g in zip(rest_a[op.a1 : op.a2], rest_b[op.b1 : op.b2]):
                        partner[k] = g
                        paired_b.add(g.first)
                        self.ids.pair(a.functions[k].result_id, g.result_id)
        # Comparison order: A's functions, each B-only function after the paired one
        # it follows in B.
        after: dict[int, list[Function]] = {}
        previous = -1
        first_of_a = {g.first: k for k, g in partner.items()}
        for g in b.functions:
            if g.first in first_of_a:
                previous = first_of_a[g.first]
            else:
                after.setdefault(previous, []).append(g)
        order: list[tuple[Function | None, Function | None]] = [(None, g) for g in after.get(-1, [])]
        for k, f in enumerate(a.functions):
            order.append((f, partner.get(k)))
            order.extend((None, g) for g in after.get(k, []))
        self.function_pairs = order
        for done, (f, g) in enumerate(order):
            if self.progress is not None:
                self.progress("functions", done, len(order))
            self.regions.append(self._function_region(f, g))

    def _function_region(self, f: Function | None, g: Function | None) -> Region:
        a, b = self.a, self.b
        if f is None or g is None:
            seq_a = list(range(f.first, f.end)) if f is not None else []
            seq_b = list(range(g.first, g.end)) if g is not None else []
            tag = "delete" if f is not None else "insert"
            ops = [Op(tag, 0, len(seq_a), 0, len(seq_b))] if seq_a or seq_b else []
            return Region(self._function_name(f, g), seq_a, seq_b, ops, f, g)
        if self._same_function(f, g):
            seq_a, seq_b = list(range(f.first, f.end)), list(range(g.first, g.end))
            return Region(self._function_name(f, g), seq_a, seq_b, [Op("equal", 0, len(seq_a), 0, len(seq_b))], f, g)
        self.ids.pair(f.result_id, g.result_id)
        for pa, pb in zip(f.params, g.params):
            self.ids.pair(a.results[pa], b.results[pb])
        self._pair_blocks(f, g)
        seq_a = list(range(f.first, f.end))
        seq_b = self._b_in_a_order(f, g)
        ops = self._align(seq_a, seq_b)
        if len(ops) == 1 and ops[0].tag == "equal":
            before = self.conflicts
            learnt = self._learn(seq_a, seq_b, ops)
            if self.conflicts == before:
                return Region(self._function_name(f, g), seq_a, seq_b, ops, f, g)
        # Two attempts, the one with fewer differences kept: unmatched results all
        # alike (an edit that removes a read changes no key), then told apart by how
        # often they are read (a copy of an instruction is told from the original).
        ids = self.ids
        ids.mark()
        best: tuple[int, list[Op], list[tuple[int, int]]] | None = None
        for tokens in ((None, None), (self._use_tokens(a, seq_a), self._use_tokens(b, seq_b))):
            if best is not None:
                ids.undo()
            ops = self._settle(seq_a, seq_b, tokens)
            score = sum(op.a2 - op.a1 + op.b2 - op.b1 for op in ops if op.tag != "equal")
            if best is None or score < best[0]:
                best = (score, ops, list(ids.journal or []))
            if not score:
                break
        assert best is not None
        ids.undo()
        ids.keep(best[2])
        return Region(self._function_name(f, g), seq_a, seq_b, best[1], f, g)

    def _settle(self, seq_a: list[int], seq_b: list[int], tokens) -> list[Op]:
        """Align and learn until nothing more is learnt. Definitions before uses: first
        learn only from pairs whose reads are all paired already, as long as that
        teaches; then from any aligned pair."""
        ops: list[Op] = []
        for strict in (True, False):
            for _ in range(PASSES):
                ops = self._align(seq_a, seq_b, tokens)
                if not self._learn(seq_a, seq_b, ops, strict=strict):
                    break
            else:
                ops = self._align(seq_a, seq_b, tokens)
        return ops

    def _same_function(self, f: Function, g: Function) -> bool:
        """Whether two functions are word for word the same but for their ids, which
        pair one to one consistently with what is paired already; their ids are paired
        when so. (The quick path for the functions an edit did not touch: whole word
        lists compared, one pass over the ids.)"""
        a, b = self.a, self.b
        if f.end - f.first != g.end - g.first:
            return False
        ids = a.id_positions[f.first : f.end]
        if ids != b.id_positions[g.first : g.end]:
            return False
        start_a, end_a = a.offsets[f.first], a.word_range(f.end - 1)[1]
        start_b, end_b = b.offsets[g.first], b.word_range(g.end - 1)[1]
        if end_a - start_a != end_b - start_b:
            return False
        places = [o - start_a + p for o, positions in zip(a.offsets[f.first : f.end], ids) for p in positions]
        words_a = a.words[start_a:end_a].tolist()
        words_b = b.words[start_b:end_b].tolist()
        xs = [words_a[p] for p in places]
        ys = [words_b[p] for p in places]
        for p in places:
            words_a[p] = words_b[p] = 0
        if words_a != words_b:
            return False
        canon_a, canon_b = self.ids.canon_a, self.ids.canon_b
        new_a: dict[int, int] = {}
        new_b: dict[int, int] = {}
        for x, y in zip(xs, ys):
            known = canon_b[y]
            if known == x:
                continue
            if known != UNKNOWN or canon_a[x] != UNKNOWN:
                return False
            seen = new_b.get(y)
            if seen is None:
                if x in new_a:
                    return False
                new_a[x] = y
                new_b[y] = x
            elif seen != x:
                return False
        for x in new_a:
            canon_a[x] = x
        for y, x in new_b.items():
            canon_b[y] = x
        return True

    def _function_name(self, f: Function | None, g: Function | None) -> str:
        return f"function {f.result_id}" if f is not None else f"function {g.result_id} (B)"  # type: ignore[union-attr]

    @staticmethod
    def _use_tokens(shape: ModuleShape, seq: list[int]) -> dict[int, int]:
        """For each result id the instructions of `seq` define: a token saying how
        often they read it (a dead copy of an instruction is told from the original)."""
        uses: Counter = Counter()
        for index in seq:
            uses.update(shape.ids_read(index))
        return {r: -3 - min(uses[r], 64) for index in seq if (r := shape.results[index])}

    def _pair_blocks(self, f: Function, g: Function) -> None:
        """Pair the blocks of two functions by position in the control-flow graph, then
        the rest in order."""
        if not f.blocks or not g.blocks:
            return
        a, b = self.a, self.b
        blocks_a = {block.label: block for block in f.blocks}
        blocks_b = {block.label: block for block in g.blocks}
        ids = self.ids
        ids.pair(f.blocks[0].label, g.blocks[0].label)
        queue = [(f.blocks[0], g.blocks[0])]
        seen = {f.blocks[0].label}
        while queue:
            block_a, block_b = queue.pop()
            next_a = self._targets(a, block_a, blocks_a)
            next_b = self._targets(b, block_b, blocks_b)
            if len(next_a) != len(next_b):
                continue
            for x, y in zip(next_a, next_b):
                if ids.canon_b[y] == x or ids.pair(x, y):
                    if x not in seen:
                        seen.add(x)
                        queue.append((blocks_a[x], blocks_b[y]))
        rest_a = [block.label for block in f.blocks if ids.canon_a[block.label] == UNKNOWN]
        rest_b = [block.label for block in g.blocks if ids.canon_b[block.label] == UNKNOWN]
        for x, y in zip(rest_a, rest_b):
            ids.pair(x, y)

    @staticmethod
    def _targets(shape: ModuleShape, block, labels: dict) -> list[int]:
        """The labels a block's merge instruction and terminator name, in order."""
        ops = shape.module.tables.opcodes
        last = block.end - 1
        merge = last - 1 > block.first and shape.opcodes[last - 1] in (ops.OpSelectionMerge, ops.OpLoopMerge)
        start = last - 1 if merge else last
        return [x for index in range(start, last + 1) for x in shape.ids_read(index) if x in labels]

    def _b_in_a_order(self, f: Function, g: Function) -> list[int]:
        """B's instructions of `g`, its blocks in the order of their partners in `f`
        (a B-only block after the block it follows in B)."""
        ids = self.ids
        head_end = g.blocks[0].first if g.blocks else g.end
        tail_start = g.blocks[-1].end if g.blocks else g.end
        seq = list(range(g.first, head_end))
        position = {block.label: k for k, block in enumerate(f.blocks)}
        after: dict[int, list] = {}
        previous = -1
        for block in g.blocks:
            x = ids.canon_b[block.label]
            if x != UNKNOWN and x in position:
                previous = position[x]
            else:
                after.setdefault(previous, []).append(block)
        placed = {ids.canon_b[block.label]: block for block in g.blocks if ids.canon_b[block.label] in position}
        for block in after.get(-1, []):
            seq.extend(range(block.first, block.end))
        for k, block_a in enumerate(f.blocks):
            block = placed.get(block_a.label)
            if block is not None:
                seq.extend(range(block.first, block.end))
            for extra in after.get(k, []):
                seq.extend(range(extra.first, extra.end))
        seq.extend(range(tail_start, g.end))
        return seq


def match(a: ModuleShape, b: ModuleShape, progress: Progress | None = None) -> Matcher:
    """Pair the ids of A and B and align every region; `progress` is told how far."""
    return Matcher(a, b, progress).run()
