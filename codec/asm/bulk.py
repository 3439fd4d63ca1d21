"""The assembler's bulk path for big texts: the instructions of quick shapes (most of a
module: ids, plain literals, enumerants without parameters) are found, numbered and
encoded by whole-array passes (numpy); the others go through the quick and exact
engines one by one, in order, and their words are spliced in.

This is a plan laid over the words, checked as it is carried out: every instruction
the array passes encode is one that `QuickEncoder.simple` encodes (a `QuickShape`
whose fixed run and id tail end where the next instruction starts, each literal
encoded by the same function), and every other instruction must end, for the
engines, where the plan says. spirv-as numbers named ids in order of first appearance
in the words it encodes: the text's order, but for an assignment's result, taken after
its result type. With no `!<integer>` in the text, and as every word starting with '%'
is an id when the assembly succeeds, that order is known before any instruction is
encoded. Whenever the plan does not hold, or the text has an error, `run_bulk` says
so and the assembler runs the engines over the whole text, which give the exact
words and diagnostics.
"""

from __future__ import annotations

from array import array
from collections import deque

import numpy as np

from spvinspect.codec.asm.bulk_words import EQ, OP, PCT, Distinct, number_ids, plain_number_words
from spvinspect.codec.asm.declarations import INT
from spvinspect.codec.asm.errors import AssemblyError
from spvinspect.codec.asm.literal_operands import MAX_WORD_COUNT, encode_typed
from spvinspect.codec.asm.plans import TAIL_CASES, TAIL_IDS, TAIL_NONE, TAIL_OPTIONAL, QuickShape
from spvinspect.codec.asm.quick import QuickEncoder, plain_literal
from spvinspect.codec.program import EXT_INST_NUM, ID, RESULT_ID, TYPE_ID, TYPED_NUM

_CHUNK = 1 << 21
"""Words gathered into the output at a time, which bounds the index arrays' memory."""


class _Entries:
    """The words each operand stands for, as one array of words: entry e is
    `words[start[e] : start[e] + length[e]]`. Entries 0 to `base - 1` are the numbers
    of the distinct words (one word each); then the empty entry, the opcode word's
    place, the literals as they are added, and last the engines' instructions."""

    def __init__(self, numbers: np.ndarray) -> None:
        self.numbers = numbers
        self.base = len(numbers)
        self.empty = self.base
        self.header = self.base + 1
        self.words = [0]  # the opcode word's place, filled in later
        self.starts = [0, self.base]
        self.lengths = [0, 1]

    def add(self, words: list[int]) -> int:
        """A new entry of `words`; its index."""
        self.starts.append(self.base + len(self.words))
        self.lengths.append(len(words))
        self.words += words
        return self.base + len(self.starts) - 1

    def add_words(self, words: np.ndarray) -> np.ndarray:
        """A new entry of one word for each of `words`; their indexes."""
        first = self.base + len(self.starts)
        at = self.base + len(self.words)
        self.starts += range(at, at + len(words))
        self.lengths += [1] * len(words)
        self.words += words.tolist()
        return np.arange(first, first + len(words), dtype=np.int32)

    def arrays(self, run: np.ndarray, run_lengths: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """All words, each entry's start and length, with one more entry per run
        length, cut in order from `run`; and the first of those entries' index."""
        first = self.base + len(self.starts)
        run_starts = np.zeros(len(run_lengths), np.int64)
        np.cumsum(run_lengths[:-1], out=run_starts[1:])
        run_starts += self.base + len(self.words)
        return (
            np.concatenate([self.numbers, np.array(self.words, np.uint32), run]),
            np.concatenate([np.arange(self.base, dtype=np.int64), np.array(self.starts, np.int64), run_starts]),
            np.concatenate([np.ones(self.base, np.int32), np.array(self.lengths, np.int32),
                            run_lengths.astype(np.int32)]),
            first,
        )


def run_bulk(encoder: QuickEncoder, distinct: Distinct, numeric: bool, hints: dict[str, int]) -> bool:
    """Assembles the encoder's words (`Words`, whose numbers it turns into an array) as
    `encoder.run()` would, leaving the same `out`, `inst_words`, `inst_first` and id
    bound; returns False, having changed the encoder in unknown ways, when the plan
    does not hold or the text has an error. `numeric` and `hints` say which ids are
    pinned in the encoder's id table: the numeric ids (if True) and the hints."""
    try:
        return _Bulk(encoder).run(distinct, numeric, hints)
    except AssemblyError:
        return False


class _Bulk:
    """One bulk run over an encoder's words."""

    def __init__(self, encoder: QuickEncoder) -> None:
        self.encoder = encoder
        self.plans = encoder.plans

    def run(self, distinct: Distinct, numeric: bool, hints: dict[str, int]) -> bool:
        encoder = self.encoder
        n = encoder.n
        unique = distinct.unique
        padding = len(unique)
        codes = np.empty(n + 2, np.int32)
        codes[:n] = encoder.toks.codes
        codes[n:] = padding
        encoder.toks.codes = codes  # the engines read the array; the list goes
        cls_of, ops = distinct.cls, distinct.ops
        cls = cls_of[codes]

        # Where instructions start: `Op…` but after `%id =`, and `%id = Op…`.
        is_op = cls == OP
        head = np.zeros(n + 2, bool)
        head[:-2] = (cls[:-2] == PCT) & (cls[1:-1] == EQ) & is_op[2:]
        starts_mask = is_op | head
        starts_mask[2:] &= ~head[:-2]
        starts_mask[n:] = False
        if n == 0 or not starts_mask[0]:
            return False
        starts = np.flatnonzero(starts_mask)
        del starts_mask, is_op
        ends = np.empty_like(starts)
        ends[:-1] = starts[1:]
        ends[-1] = n
        assign = head[starts]
        del head
        op_pos = starts + 2 * assign
        op_code = codes[op_pos]
        typed = np.zeros(padding + 1, bool)
        opcode_of = np.zeros(padding + 1, np.int64)
        for i in ops:
            plan = self.plans.by_name.get(unique[i])
            if plan is None:
                continue
            head_codes = (TYPE_ID, RESULT_ID) if plan.has_type else (RESULT_ID,)
            if plan.has_result and plan.program.codes[: len(head_codes)] != head_codes:
                return False  # the result id elsewhere: not the order planned for
            typed[i] = plan.has_type
            opcode_of[i] = plan.opcode
        is_typed = assign & typed[op_code]

        numbers = number_ids(encoder, distinct, numeric, hints, codes, starts[is_typed])
        if numbers is None:
            return False
        entries = _Entries(numbers)
        pct_before = np.zeros(n + 3, np.int32)
        np.cumsum(cls == PCT, out=pct_before[1:])
        del cls
        self.unique, self.codes, self.numbers, self.entries = unique, codes, numbers, entries
        self.pct_before = pct_before
        self.pct = pct_before[1:] != pct_before[:-1]
        self.literal_at: list[tuple[np.ndarray, np.ndarray]] = []
        self.deferred: list[tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        bulk = np.zeros(len(starts), bool)
        quick = self.plans.quick(encoder.version)
        order = np.argsort(op_code * 2 + assign, kind="stable")
        keys = (op_code * 2 + assign)[order]
        cuts = np.flatnonzero(np.diff(keys)) + 1
        for group in np.split(order, cuts):
            first = group[0]
            form = int(assign[first])
            shape = quick[1 - form].get(unique[op_code[first]]) if cls_of[op_code[first]] == OP else None
            if shape is not None:
                self.plan_group(shape, group, op_pos, ends, bulk)
        del pct_before, order, keys, self.pct_before, self.pct

        # The other instructions, through the engines in order; the value types they
        # read (OpSwitch's selector) include those of the bulk instructions before them.
        slow = np.flatnonzero(~bulk)
        # The engines' id table: the ids their instructions hold (all are numbered).
        word_inst = np.repeat(np.arange(len(starts), dtype=np.int32), (ends - starts).astype(np.int64))
        slow_words = ~bulk[word_inst]
        del word_inst
        held = np.zeros(padding + 1, bool)
        held[codes[:n][slow_words]] = True
        slow_ids = np.flatnonzero(held & (cls_of == PCT)).tolist()
        del held
        encoder.ids.numbers = dict(zip([unique[i] for i in slow_ids], numbers[slow_ids].tolist()))
        encoder.ids.numbers.update(hints)
        typed_bulk = np.flatnonzero(bulk & is_typed)
        vt_results = numbers[codes[starts[typed_bulk]]].tolist()
        vt_types = numbers[codes[starts[typed_bulk] + 3]].tolist()
        vt_upto = np.searchsorted(typed_bulk, slow).tolist()
        declared = encoder.declared
        value_types, types, imports = declared.value_types, declared.types, declared.imports
        type_at: dict[int, int] = {}
        value_at: dict[int, int] = {}
        self.typed_values = (numbers[codes[starts[typed_bulk]]], numbers[codes[starts[typed_bulk] + 3]], typed_bulk)
        import_at: dict[int, int] = {}
        done = 0
        out = encoder.out
        slow_counts = array("q")
        encode_one = encoder.encode_one
        for k, s, e, upto in zip(slow.tolist(), starts[slow].tolist(), ends[slow].tolist(), vt_upto):
            if upto > done:
                # The first definition's type stays (a result may be defined again).
                deque(map(value_types.setdefault, vt_results[done:upto], vt_types[done:upto]), 0)
                done = upto
            before = len(out)
            known = len(types) + len(imports)
            values = len(value_types)
            if encode_one(s) != e:
                return False
            slow_counts.append(len(out) - before)
            if len(value_types) != values:
                value_at[next(reversed(value_types))] = k
            if len(types) + len(imports) != known:
                if len(types) > len(type_at):
                    type_at[next(reversed(types))] = k
                if len(imports) > len(import_at):
                    import_at[next(reversed(imports))] = k
        del vt_results, vt_types, vt_upto
        self.value_at = value_at
        if not self.encode_deferred(type_at, import_at):
            return False

        # Every operand's entry (the words array becomes that): the opcode word's place
        # first, then the result after its type; each of the engines' instructions as
        # one entry at its first word.
        v = codes
        v[n:] = entries.empty
        s_a = starts[assign]
        is_t = typed[op_code[assign]]
        t_a, u_a = s_a[is_t], s_a[~is_t]
        t_result, t_type, u_result = codes[t_a], codes[t_a + 3], codes[u_a]
        v[t_a + 3] = t_result
        v[t_a + 2] = t_type
        v[u_a + 2] = u_result
        v[s_a + 1] = entries.empty
        v[starts] = entries.header
        del s_a, is_t, t_a, u_a, t_result, t_type, u_result
        for positions, found in self.literal_at:
            v[positions] = found
        self.literal_at = []
        v[:n][slow_words] = entries.empty
        del slow_words
        slow_lengths = np.frombuffer(slow_counts, np.int64) if len(slow_counts) else np.zeros(0, np.int64)
        run = np.frombuffer(out, np.uint32) if len(out) else np.zeros(0, np.uint32)
        flat, entry_start, entry_length, first_slow = entries.arrays(run, slow_lengths)
        del entries, self.entries, run
        v[starts[slow]] = np.arange(first_slow, first_slow + len(slow), dtype=np.int32)

        lengths = entry_length[v[:n]]
        counts = np.add.reduceat(lengths, starts)
        if (counts[bulk] > MAX_WORD_COUNT).any():
            return False
        offsets = np.zeros(len(counts), np.int64)
        np.cumsum(counts[:-1], out=offsets[1:])
        result = np.empty(int(counts.sum(dtype=np.int64)), np.uint32)
        # The output, a chunk of whole instructions at a time.
        at = np.searchsorted(starts, np.arange(0, n, _CHUNK))
        chunk_starts = starts[at[at < len(starts)]]
        bounds = np.append(chunk_starts, n)  # in order, a start repeated where an instruction is long
        bounds = bounds[np.append(True, bounds[1:] != bounds[:-1])].tolist()
        written = 0
        for a, b in zip(bounds, bounds[1:]):
            part = lengths[a:b]
            first = np.zeros(len(part), np.int64)
            np.cumsum(part[:-1], out=first[1:])
            total = int(first[-1]) + int(part[-1]) if len(part) else 0
            take = np.repeat(entry_start[v[a:b]] - first, part) + np.arange(total)
            result[written:written + total] = flat[take]
            written += total
        del lengths, flat, v
        b_idx = np.flatnonzero(bulk)
        result[offsets[b_idx]] = (counts[b_idx].astype(np.int64) << 16) | opcode_of[op_code[b_idx]]

        emitted = counts > 0
        encoder.out = array("I", result.tobytes())
        encoder.inst_words = array("I", offsets[emitted].astype(np.uint32).tobytes())
        encoder.inst_first = array("I", starts[emitted].astype(np.uint32).tobytes())
        return True

    def plan_group(
        self, shape: QuickShape, group: np.ndarray, op_pos: np.ndarray, ends: np.ndarray, bulk: np.ndarray,
    ) -> None:
        """Marks the instructions in `group` (one opcode, one form) that `simple` would
        encode as bulk, and records their literals' entries."""
        opcode, length, has_type, tail, codes = shape
        if tail not in (TAIL_NONE, TAIL_OPTIONAL, TAIL_IDS, TAIL_CASES):
            return
        codes = codes if codes is not None else (ID,) * length
        if EXT_INST_NUM in codes and codes[codes.index(EXT_INST_NUM) - 1] != ID:
            return  # the set is the id just before the instruction's name
        pct_before = self.pct_before
        base = op_pos[group] + 1
        given = ends[group] - base
        ok = given >= length if tail in (TAIL_IDS, TAIL_CASES) else given == length
        group, base, given = group[ok], base[ok], given[ok]
        pct = self.pct
        if tail == TAIL_IDS:  # the rest are ids
            rest = ends[group] - (base + length)
            ok = pct_before[ends[group]] - pct_before[base + length] == rest
            group, base, given = group[ok], base[ok], given[ok]
        elif tail == TAIL_CASES:  # (literal, label) pairs: every label an id
            ok = (given - length) % 2 == 0
            group, base, given = group[ok], base[ok], given[ok]
            owner, within, positions = _rest_words(base + length, given - length)
            bad = np.zeros(len(group), bool)
            bad[owner[(within % 2 == 1) & ~pct[positions]]] = True
            group, base, given = group[~bad], base[~bad], given[~bad]
        literals: list[tuple[int, int, np.ndarray]] = []
        deferred: list[tuple[int, int]] = []
        for j, code in enumerate(codes):
            if code <= TYPE_ID:
                ok = pct[base + j]
                group, base, given = group[ok], base[ok], given[ok]
                literals = [(jj, cc, found[ok]) for jj, cc, found in literals]
            elif code == TYPED_NUM or code == EXT_INST_NUM:
                deferred.append((j, code))
            else:
                found = self.literal_entries(code, self.codes[base + j])
                ok = found >= 0
                group, base, given = group[ok], base[ok], given[ok]
                literals = [(jj, cc, f[ok]) for jj, cc, f in literals] + [(j, code, found[ok])]
        if not len(group):
            return
        bulk[group] = True
        for j, _code, found in literals:
            self.literal_at.append((base + j, found))
        if tail == TAIL_CASES:  # each literal as wide as the selector's type
            owner, within, positions = _rest_words(base + length, given - length)
            literal = within % 2 == 0
            owner = owner[literal]
            self.deferred.append((_CASES, positions[literal], self.numbers[self.codes[base[owner]]], group[owner],
                                  np.zeros(0, np.int64)))
        for j, code in deferred:
            if code == TYPED_NUM:  # as wide as the result type (the first word) says
                context = self.numbers[self.codes[base]]
                extra = np.zeros(0, np.int64)
            else:  # an instruction of the set named by the id before it
                context = self.numbers[self.codes[base + j - 1]]
                extra = given - length
            self.deferred.append((code, base + j, context, group, extra))

    def literal_entries(self, code: int, word_codes: np.ndarray) -> np.ndarray:
        """The entry of each word as a plain literal of operand `code`; -1 where it is
        not plainly written."""
        distinct, inverse = np.unique(word_codes, return_inverse=True)
        found = np.empty(len(distinct), np.int32)
        plans, unique, add = self.plans, self.unique, self.entries.add
        for i, w in enumerate(distinct.tolist()):
            encoded = plain_literal(plans, code, unique[w]) if w < len(unique) else None
            found[i] = -1 if encoded is None else add(encoded)
        return found[inverse]

    def plain_numbers(self, contexts: list[int], words: list[int], found: np.ndarray) -> None:
        """Entries of OpConstant's plainly written 32-bit numbers (`found`, for each
        (type, word) pair), by array passes; the others stay -1."""
        declared = self.encoder.declared
        by_type: dict[int, list[int]] = {}
        for i, c in enumerate(contexts):
            by_type.setdefault(c, []).append(i)
        for c, pairs in by_type.items():
            info = declared.constant_type(c)
            plain = None if info is None else plain_number_words(info, [self.unique[words[i]] for i in pairs])
            if plain is not None:
                values, at = plain
                found[np.array(pairs, np.int64)[at]] = self.entries.add_words(values)

    def selector_types(self, selectors: np.ndarray, group: np.ndarray, type_at: dict[int, int]) -> np.ndarray | None:
        """The result type of each OpSwitch selector (for the OpSwitch `group`), from
        the value's first definition (by either path), which must come before; None if
        one does not."""
        results, types, defined_at = self.typed_values
        order = np.argsort(results, kind="stable")  # a value's first definition first
        results, types, defined_at = results[order], types[order], defined_at[order]
        first = np.full(len(selectors), np.iinfo(np.int64).max, np.int64)
        selector_type = np.zeros(len(selectors), np.int64)
        if len(results):
            at = np.minimum(np.searchsorted(results, selectors), len(results) - 1)
            found = results[at] == selectors
            first[found] = defined_at[at][found]
            selector_type[found] = types[at][found]
        value_types = self.encoder.declared.value_types
        for i, selector in enumerate(selectors.tolist()):
            k = self.value_at.get(selector)  # where the engines defined it first, if they did
            if k is not None and k < first[i]:
                first[i] = k
                selector_type[i] = value_types[selector]
        if not (first < group).all():
            return None
        return selector_type

    def encode_deferred(self, type_at: dict[int, int], import_at: dict[int, int]) -> bool:
        """The literals that depend on declarations (OpConstant's number, OpExtInst's
        instruction), now that the engines have made them: each must have been
        declared before the instruction, and be plainly written."""
        declared = self.encoder.declared
        unique, codes, entries = self.unique, self.codes, self.entries
        for code, positions, context, group, extra in self.deferred:
            if code == _CASES:
                context = self.selector_types(context, group, type_at)
                if context is None or any(declared.types.get(t, (None,))[0] != INT for t in set(context.tolist())):
                    return False  # a selector that is not an integer: left to the engines
                code = TYPED_NUM  # then a number of that type, as OpConstant's
            declared_at = type_at if code == TYPED_NUM else import_at
            known = np.array([declared_at.get(c, -1) for c in context.tolist()], np.int64)
            if not ((known >= 0) & (known < group)).all():
                return False
            pairs = (context.astype(np.int64) << 32) | codes[positions]
            distinct, inverse = np.unique(pairs, return_inverse=True)
            contexts, words = (distinct >> 32).tolist(), (distinct & 0xFFFFFFFF).tolist()
            found = np.full(len(distinct), -1, np.int32)
            takes = np.full(len(distinct), -1, np.int64)
            if code == TYPED_NUM:
                self.plain_numbers(contexts, words, found)
            for i in np.flatnonzero(found < 0).tolist():
                c, tok = contexts[i], unique[words[i]]
                if code == TYPED_NUM:
                    info = declared.constant_type(c)
                    encoded = None if info is None else encode_typed(tok, info)[0]
                    takes[i] = -1
                else:
                    ext = declared.imports.get(c)
                    plan = None if ext is None else self.plans.ext_instructions(ext).get(tok)
                    encoded = None if plan is None or plan.ids < 0 else [plan.number]
                    takes[i] = -1 if plan is None else plan.ids
                if encoded is None:
                    return False
                found[i] = entries.add(encoded)
            inverse = inverse.reshape(-1)
            if code == EXT_INST_NUM and not (takes[inverse] == extra).all():
                return False
            self.literal_at.append((positions, found[inverse]))
        return True


_CASES = -1
"""A deferred literal's kind: OpSwitch's case literal (the others are operand codes)."""


def _rest_words(first: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For runs of `counts` words from `first`: each word's run, its place in the run
    and its position."""
    owner = np.repeat(np.arange(len(counts)), counts)
    run_start = np.zeros(len(counts), np.int64)
    np.cumsum(counts[:-1], out=run_start[1:])
    within = np.arange(len(owner)) - run_start[owner]
    return owner, within, first[owner] + within
