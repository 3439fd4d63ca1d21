"""A module opened in two steps: an index of instruction boundaries, then instructions
decoded on demand, a chunk at a time, and cached.

`open_module(data)` reads only the header. `ensure_indexed(upto)` follows word counts as
far as asked. `instruction(i)` decodes the chunk of instructions holding `i` (`CHUNK`
of them, fewer when they are long: a chunk starts every `CHUNK_WORDS` words at most),
so a window anywhere in the module (even inside one huge function) costs a chunk or
two, not the instructions before it, and no chunk holds millions of operands.

Decoding is stateful (an id already defined makes a redefinition invalid; a literal's
width comes from its type; an extended instruction's grammar from its import), so a
chunk is decoded with its state *seeded*: for every id the chunk reads (its result ids,
the types of its typed literals, its switch selectors and their types, its import ids),
the first earlier instruction that validly defines it — found among that id's candidate
definers (`Definitions`), whose validity is known once their own chunks have been
decoded (done first, earliest first). The result equals the eager decode of the whole
module, instruction for instruction and diagnostic for diagnostic; `to_module()` is
that eager decode.
"""

from __future__ import annotations

import threading
from bisect import bisect_right
from array import array
from collections import OrderedDict
from collections.abc import Iterator
from typing import NamedTuple

from spvinspect.codec.binary.definitions import Definitions
from spvinspect.codec.binary.index import InstructionIndex
from spvinspect.codec.binary.fast_forms import FastForms
from spvinspect.codec.binary.instruction_decoder import InstructionDecoder, number_type_of
from spvinspect.codec.binary.model import HEADER_WORDS, MAGIC, Header, Instruction, Module, NumberType
from spvinspect.codec.binary.tables import DecoderTables, decoder_tables
from spvinspect.codec.binary.untracked import untrack
from spvinspect.codec.binary.words import words_from_bytes
from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.codec.grammar import Grammar, load_grammar
from spvinspect.codec.plural import counted

CHUNK = 256
"""Instructions decoded together, at most: a 60-line window touches at most two chunks."""
CHUNK_WORDS = 1 << 16
"""A chunk's instructions start within this many words of its first one: a chunk of
instructions thousands of words long (random words) would make millions of records."""
CACHED_CHUNKS = 256
"""Decoded chunks kept (least recently used dropped): about 65,000 instructions …"""
CACHED_WORDS = 1 << 19
"""… or fewer, so that they cover this many words at most (one chunk is always kept):
a record per word of random data would otherwise take gigabytes."""
INDEX_STEP = 1 << 16
"""Instructions indexed per step while holding the lock, so other threads get a turn."""


class DecodedRun(NamedTuple):
    """A chunk of instructions decoded in module order: what the decoder made of each."""

    entries: list
    """`Instruction`s, or what the fast path's forms made of the instructions they took."""
    general: list[int]
    """Indexes in `entries` of the instructions the general path decoded (`Instruction`s)."""


class FunctionSpan(NamedTuple):
    """A function's instructions: indexes [first, end) from OpFunction to OpFunctionEnd."""

    first: int
    end: int
    result_id: int
    """The id OpFunction's words define (0 when the instruction is too short to say)."""


def open_module(data: bytes, grammar: Grammar | None = None, read: tuple[array, bool] | None = None) -> LazyModule:
    """Open a SPIR-V binary: the header now, instructions as they are asked for (`read`:
    its words already read, see `words_from_bytes`)."""
    return LazyModule(data, grammar, read)


class LazyModule:
    """A SPIR-V module decoded on demand. Never raises on bad input; thread-safe."""

    def __init__(self, data: bytes, grammar: Grammar | None = None, read: tuple[array, bool] | None = None) -> None:
        self.grammar = grammar or load_grammar()
        self._tables = tables = decoder_tables(self.grammar)
        words, trailing, big_endian, problems = words_from_bytes(data, read)
        self.words: array = words
        self.trailing_bytes: bytes = trailing
        self.big_endian: bool = big_endian
        """The byte order the magic number gave: kept for a module shorter than its
        header too, whose words are then the only record of it."""
        self._prefix_diagnostics: list[Diagnostic] = problems
        n = len(words)
        self.header: Header | None = None
        if n < HEADER_WORDS:
            problems.append(
                Diagnostic(
                    f"module has an incomplete header: {counted(n, 'word')}, a header needs {HEADER_WORDS}",
                    word_offset=n,
                )
            )
            self._index = InstructionIndex(words, 0, tables.opcodes.OpFunction, scan=False)
            bound = 0
        else:
            self.header = Header(words[0], words[1], words[2], words[3], words[4], big_endian)
            bound = self.header.bound
            good = self.header.magic == MAGIC
            if not good:
                problems.append(
                    Diagnostic(f"invalid SPIR-V magic number 0x{self.header.magic:08x}", word_offset=0)
                )
            self._index = InstructionIndex(words, HEADER_WORDS, tables.opcodes.OpFunction, scan=good)
        self._bound = bound
        self._definitions = Definitions(tables, words, bound)
        self._lock = threading.RLock()
        self._starts = array("I", [0])
        """Index of the first instruction of each chunk bounded so far, then where the
        next chunk starts (the instruction count once every chunk is bounded)."""
        self._cache: OrderedDict[int, list[Instruction]] = OrderedDict()
        self._cached_words = 0
        """Words covered by the cached chunks."""
        self._chunk_diagnostics: dict[int, list[Diagnostic]] = {}
        """Diagnostics of every chunk decoded at least once (the chunk is then *known*)."""
        self._invalid: set[int] = set()
        """Indexes of instructions that did not fit the grammar, in known chunks."""
        self._import_names: dict[int, str] = {}
        """Import name of each valid OpExtInstImport in known chunks, by index."""
        self._functions: list[FunctionSpan] | None = None

    # -- the index -------------------------------------------------------------------

    def ensure_indexed(self, upto: int | None = None) -> None:
        """Index instruction boundaries up to instruction `upto`. With None: every
        boundary, and which instructions define which ids, so that any chunk then
        decodes at once (otherwise that scan runs up to a chunk when it is first
        decoded). Idempotent; may run in a worker thread (the lock is taken in steps)."""
        index = self._index
        while not index.done and (upto is None or len(index.offsets) <= upto):
            step = len(index.offsets) + INDEX_STEP
            with self._lock:
                index.extend(step if upto is None else min(upto, step))
        if upto is None:
            definitions = self._definitions
            while definitions.scanned < len(index.offsets):
                with self._lock:
                    definitions.extend(index.offsets, definitions.scanned + INDEX_STEP)

    @property
    def index(self) -> InstructionIndex:
        """The instruction boundaries found so far."""
        return self._index

    @property
    def definitions(self) -> Definitions:
        """The candidate definers of ids among the instructions scanned so far."""
        return self._definitions

    @property
    def known_functions(self) -> list[FunctionSpan] | None:
        """The function spans if `functions()` has found them, else None (not found here)."""
        return self._functions

    def adopt_index(
        self, index: InstructionIndex, definitions: Definitions, functions: list[FunctionSpan] | None
    ) -> None:
        """Take a complete index of these words made elsewhere (`splice_module`), before
        anything is decoded; `functions` None means found when asked."""
        with self._lock:
            if self._chunk_diagnostics or self._cache or len(self._starts) > 1:
                raise RuntimeError("adopt_index after decoding has started")
            self._index, self._definitions, self._functions = index, definitions, functions

    def adopt_decoded(self, old: LazyModule, first: int, end: int, later: bool) -> None:
        """Take what `old` decoded of the chunks these words decode alike (`splice_module`,
        which checked that both have the same instruction boundaries and that only
        instructions [first, end) differ): the chunks before the edit's, and with `later`
        those after it too (the edit changes nothing they read). Adds to what is known
        here; the edited chunks are decoded again when asked."""
        with old._lock:
            starts = array("I", old._starts)
            cache = list(old._cache.items())
            known = dict(old._chunk_diagnostics)
            invalid = sorted(old._invalid)
            imports = dict(old._import_names)
        bounded = len(starts) - 1
        low = bisect_right(starts, first) - 1
        high = bisect_right(starts, max(first, end - 1))

        def carried(chunk: int) -> bool:
            return chunk < bounded and (chunk < low or (later and chunk >= high))

        with self._lock:
            if len(self._starts) == 1 and not self._chunk_diagnostics and not self._cache:
                self._starts = starts
            elif self._starts[: len(starts)] != starts[: len(self._starts)]:
                return
            for chunk, diagnostics in known.items():
                if carried(chunk) and chunk not in self._chunk_diagnostics:
                    self._chunk_diagnostics[chunk] = diagnostics
                    self._invalid.update(k for k in invalid if starts[chunk] <= k < starts[chunk + 1])
                    self._import_names.update(
                        (k, name) for k, name in imports.items() if starts[chunk] <= k < starts[chunk + 1]
                    )
            for chunk, entries in cache:
                if carried(chunk) and chunk not in self._cache and chunk in self._chunk_diagnostics:
                    self._cache[chunk] = entries
                    self._cached_words += _words_of(entries)

    def _index_all(self) -> None:
        """Every instruction boundary (and nothing more)."""
        self.ensure_indexed(1 << 62)

    def _index_word(self, word_offset: int) -> None:
        """Index at least up to the instruction holding `word_offset`."""
        index = self._index
        while not index.done and index.next_offset <= word_offset:
            with self._lock:
                index.extend(len(index.offsets) + CHUNK)

    @property
    def indexed(self) -> bool:
        """True once every instruction boundary is known."""
        return self._index.done

    @property
    def instruction_count(self) -> int:
        """Instructions indexed so far (all of them once `indexed`)."""
        return len(self._index.offsets)

    @property
    def tail_offset(self) -> int:
        """The word where decoding stops for good (valid once `indexed`)."""
        return self._index.next_offset

    @property
    def first_function(self) -> int | None:
        """Index of the first OpFunction, or None (also while the index has not reached it)."""
        return self._index.first_function

    def offset(self, index: int) -> int:
        """Word offset of instruction `index`."""
        self.ensure_indexed(index)
        return self._index.offsets[index]

    def opcode(self, index: int) -> int:
        """The opcode of instruction `index`, from its first word (no decoding)."""
        return self.words[self.offset(index)] & 0xFFFF

    def opcodes(self, start: int = 0) -> Iterator[int]:
        """The opcodes of instructions `start` on, from their first words (no decoding)."""
        words = self.words
        offsets = self._index.offsets
        index = start
        while True:
            self.ensure_indexed(index + INDEX_STEP - 1)
            stop = min(index + INDEX_STEP, len(offsets))
            if index >= stop:
                return
            yield from [words[offset] & 0xFFFF for offset in offsets[index:stop]]
            index = stop

    def opcode_set(self, start: int = 0) -> set[int]:
        """The distinct opcodes of instructions `start` on (indexing every boundary): one
        pass at C speed, for asking whether a part of the module holds some opcode. The
        distinct first words are gathered a step at a time, so that hostile input (word
        counts and opcodes all different) never makes a set of millions."""
        self._index_all()
        offsets = self._index.offsets
        opcodes: set[int] = set()
        for step in range(start, len(offsets), INDEX_STEP):
            heads = set(map(self.words.__getitem__, offsets[step : step + INDEX_STEP]))
            opcodes.update({head & 0xFFFF for head in heads})
        return opcodes

    def definers(self, id_: int) -> list[int]:
        """Every instruction whose words define `id_` (its candidates: one that does not
        decode defines nothing), in order; scans the whole module's definitions first."""
        self.ensure_indexed()
        return self._definitions.before(id_, self.instruction_count)

    def index_at(self, word_offset: int) -> int | None:
        """The index of the instruction holding word `word_offset`, or None (header, tail)."""
        if word_offset < HEADER_WORDS:
            return None
        self._index_word(word_offset)
        offsets = self._index.offsets
        low, high = 0, len(offsets)
        while low < high:
            middle = (low + high) // 2
            if offsets[middle] <= word_offset:
                low = middle + 1
            else:
                high = middle
        index = low - 1
        if index < 0 or word_offset >= offsets[index] + (self.words[offsets[index]] >> 16):
            return None
        return index

    def functions(self) -> list[FunctionSpan]:
        """Every function: OpFunction up to its OpFunctionEnd (or the next OpFunction, or
        the last instruction, when a function is cut short)."""
        if self._functions is None:
            self._index_all()
            words = self.words
            op_function, op_end = self._tables.opcodes.OpFunction, self._tables.opcodes.OpFunctionEnd
            spans = []
            start = -1
            for index, offset in enumerate(self._index.offsets):
                opcode = words[offset] & 0xFFFF
                if opcode == op_function:
                    if start >= 0:
                        spans.append(self._span(start, index))
                    start = index
                elif opcode == op_end and start >= 0:
                    spans.append(self._span(start, index + 1))
                    start = -1
            if start >= 0:
                spans.append(self._span(start, self.instruction_count))
            self._functions = spans
        return self._functions

    def _span(self, first: int, end: int) -> FunctionSpan:
        offset = self._index.offsets[first]
        result = self.words[offset + 2] if self.words[offset] >> 16 >= 3 else 0
        return FunctionSpan(first, end, result)

    # -- instructions ----------------------------------------------------------------

    def instruction(self, index: int) -> Instruction:
        """Instruction `index`, decoded with its chunk (cached)."""
        self.ensure_indexed(index)
        if not 0 <= index < self.instruction_count:
            raise IndexError(f"instruction {index} out of range ({self.instruction_count})")
        number = self._chunk_of(index)
        return self._chunk(number)[index - self._starts[number]]

    def instructions(self, start: int = 0, stop: int | None = None) -> Iterator[Instruction]:
        """Instructions `start` to `stop` (the last when None), in order, chunk by chunk.
        The whole module is decoded in one pass, without filling the cache."""
        if start == 0 and stop is None:
            for run in self.in_order():
                yield from run.entries
            return
        index = start
        while stop is None or index < stop:
            self.ensure_indexed(index)
            if index >= self.instruction_count:
                return
            number = self._chunk_of(index)
            chunk = self._chunk(number)
            first = index - self._starts[number]
            last = len(chunk) if stop is None else min(len(chunk), first + stop - index)
            yield from chunk[first:last]
            index += last - first

    def _bound_chunks(self, until: int) -> None:
        """Find where chunks start, up to the chunk holding instruction `until` (every
        chunk when the module ends before it)."""
        starts = self._starts
        with self._lock:
            while starts[-1] <= until:
                start = starts[-1]
                self.ensure_indexed(start + CHUNK)
                offsets = self._index.offsets
                if start >= len(offsets):
                    return
                stop = min(start + CHUNK, len(offsets))
                starts.append(max(start + 1, bisect_right(offsets, offsets[start] + CHUNK_WORDS, start + 1, stop)))

    def _chunk_of(self, index: int) -> int:
        """The number of the chunk holding instruction `index` (one that exists)."""
        starts = self._starts
        if index >= starts[-1]:
            self._bound_chunks(index)
        return bisect_right(starts, index) - 1

    def _chunk(self, number: int) -> list[Instruction]:
        with self._lock:
            cached = self._cache.get(number)
            if cached is not None:
                self._cache.move_to_end(number)
                return cached
            needs: dict[int, set[int]] = {}
            stack = [number]
            while stack:
                chunk = stack[-1]
                if chunk != number and chunk in self._chunk_diagnostics:
                    stack.pop()
                    continue
                ids = needs.get(chunk)
                if ids is None:
                    ids = needs[chunk] = self._ids_read(chunk)
                start = self._starts[chunk]
                missing = sorted(
                    {
                        definer
                        for id_ in ids
                        for j in self._definitions.before(id_, start)
                        if (definer := self._chunk_of(j)) not in self._chunk_diagnostics
                    },
                    reverse=True,
                )
                if missing:
                    stack.extend(missing)
                    continue
                stack.pop()
                self._decode_chunk(chunk, ids)
            return self._cache[number]

    def _ids_read(self, chunk: int) -> set[int]:
        """The ids whose earlier definitions decoding `chunk` reads: its result ids, the
        result types of its typed literals, its import ids, its switch selectors and
        their types."""
        tables = self._tables
        words = self.words
        offsets = self._index.offsets
        start, stop = self._starts[chunk], self._starts[chunk + 1]
        self._definitions.extend(offsets, stop)
        result_positions = tables.result_positions
        typed, ext_set_positions = tables.typed_literal_opcodes, tables.ext_set_positions
        selector_typed = tables.selector_typed_opcodes
        ids: set[int] = set()
        add = ids.add
        for index in range(start, stop):
            offset = offsets[index]
            head = words[offset]
            opcode, count = head & 0xFFFF, head >> 16
            position = result_positions[opcode]
            if position and position < count:
                add(words[offset + position])
            if opcode in typed:
                if count > 1:
                    add(words[offset + 1])
                at = ext_set_positions[opcode]
                if at and count > at:
                    add(words[offset + at])
            elif opcode in selector_typed and count > 1:
                selector = words[offset + 1]
                add(selector)
                for j in self._definitions.before(selector, index):
                    definer = offsets[j]
                    if tables.type_positions[words[definer] & 0xFFFF] and words[definer] >> 16 > 1:
                        add(words[definer + 1])
        return ids

    def _decode_chunk(self, chunk: int, ids: set[int]) -> None:
        """Decode `chunk`, seeded with the earlier definitions of `ids` (all known)."""
        tables = self._tables
        words = self.words
        offsets = self._index.offsets
        start, stop = self._starts[chunk], self._starts[chunk + 1]
        value_types: dict[int, int] = {}
        number_types: dict[int, NumberType] = {}
        ext_imports: dict[int, str] = {}
        for id_ in ids:
            for j in self._definitions.before(id_, start):
                if j in self._invalid:
                    continue
                definer = offsets[j]
                opcode = words[definer] & 0xFFFF
                value_types[id_] = words[definer + 1] if tables.type_positions[opcode] else 0
                number_type = number_type_of(tables, words, definer)
                if number_type is not None:
                    number_types[id_] = number_type
                elif opcode == tables.opcodes.OpExtInstImport:
                    ext_imports[id_] = self._import_names[j]
                break
        decoder = InstructionDecoder(tables, self._bound, value_types, number_types, ext_imports)
        instructions = decoder.run(words, offsets[start:stop])
        untrack(instructions)  # cached long: out of the cyclic collector's walks
        if chunk not in self._chunk_diagnostics:
            self._chunk_diagnostics[chunk] = decoder.diagnostics
            self._learn(start, instructions, decoder.general)
        self._cache[chunk] = instructions
        self._cached_words += _words_of(instructions)
        while len(self._cache) > 1 and (len(self._cache) > CACHED_CHUNKS or self._cached_words > CACHED_WORDS):
            self._cached_words -= _words_of(self._cache.popitem(last=False)[1])

    def _learn(self, first: int, entries: list, general: list[int]) -> None:
        """Keep what decoding a run of instructions from index `first` told: its invalid
        instructions and its imports' names (all among the `general` entries: the fast
        path takes only valid instructions, and never an import). Learning a run twice
        changes nothing."""
        op_import = self._tables.opcodes.OpExtInstImport
        for k in general:
            inst = entries[k]
            if not inst.valid:
                self._invalid.add(first + k)
            elif inst.opcode == op_import:
                self._import_names[first + k] = str(inst.operands[1].value)

    # -- the whole module ------------------------------------------------------------

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What is known so far: every diagnostic once `check()` has run. In the eager
        decoder's order: length and header problems, then instruction by instruction,
        then where decoding stopped."""
        out = list(self._prefix_diagnostics)
        for chunk in sorted(self._chunk_diagnostics):
            out.extend(self._chunk_diagnostics[chunk])
        if self._index.stop is not None:
            out.append(self._index.stop)
        return out

    def check(self) -> list[Diagnostic]:
        """Decode every instruction once (nothing kept but what it tells), so that
        `diagnostics` is complete; returns them. May run in a worker thread. Nothing is
        decoded again when every chunk has already been (by a pass over the whole module)."""
        self._index_all()
        self._bound_chunks(self.instruction_count)
        if len(self._chunk_diagnostics) < len(self._starts) - 1:
            for _ in self.in_order():
                pass
        return self.diagnostics

    def to_module(self) -> Module:
        """The eager `Module`: every instruction decoded, in order."""
        instructions: list[Instruction] = []
        decoder = InstructionDecoder(self._tables, self._bound)
        for run in self._in_order(decoder, None):
            instructions.extend(run.entries)
        stop = [self._index.stop] if self._index.stop is not None else []
        return Module(
            self.words,
            self.header,
            instructions,
            [*self._prefix_diagnostics, *decoder.diagnostics, *stop],
            self.tail_offset,
            self.trailing_bytes,
            decoder.ext_imports,
            self.big_endian,
        )

    def in_order(self, forms: FastForms | None = None) -> Iterator[DecodedRun]:
        """Every instruction, a chunk at a time, decoded in one pass from the start (the
        chunks are learnt, not cached). With `forms`, what the decoder's fast path takes
        is made by them instead (see `InstructionDecoder.run`)."""
        return self._in_order(InstructionDecoder(self._tables, self._bound), forms)

    @property
    def tables(self) -> DecoderTables:
        """The decoder's tables for this module's grammar."""
        return self._tables

    def _in_order(self, decoder: InstructionDecoder, forms: FastForms | None) -> Iterator[DecodedRun]:
        """`decoder` (fresh) over every instruction, chunk by chunk, indexing as it goes;
        chunks not yet known are learnt on the way. The lock is taken per chunk, so
        other threads get a turn."""
        starts = self._starts
        number = 0
        while True:
            start = starts[number]
            self._bound_chunks(start)
            if number + 1 >= len(starts):
                return
            stop = starts[number + 1]
            seen = len(decoder.diagnostics)
            entries = decoder.run(self.words, self._index.offsets[start:stop], forms)
            with self._lock:
                if number not in self._chunk_diagnostics:
                    self._chunk_diagnostics[number] = decoder.diagnostics[seen:]
                    self._learn(start, entries, decoder.general)
            number += 1
            yield DecodedRun(entries, decoder.general)


def _words_of(chunk: list[Instruction]) -> int:
    """The words a decoded chunk covers."""
    return chunk[-1].end - chunk[0].offset
