"""A module opened in two steps: the index, then instructions decoded on demand, exactly
as the eager decoder decodes them (instructions, diagnostics and their order)."""

from __future__ import annotations

import gc
from array import array
import random
import struct
import threading

import pytest
from oracle import corpus_files
from corruptions import corruptions

from spvinspect.codec.binary import lazy
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.index import InstructionIndex
from spvinspect.codec.binary.lazy import FunctionSpan, LazyModule, open_module
from spvinspect.codec.binary.tables import decoder_tables
from spvinspect.codec.grammar import load_grammar
from spvinspect.commands.open import EXAMPLE_MODULE

HEADER = [0x07230203, 0x00010500, 0x00080001, 100, 0]


def module_of(*words: int) -> bytes:
    return struct.pack(f"<{5 + len(words)}I", *HEADER, *words)


def assert_on_demand_is_eager(data: bytes, rng: random.Random, name: str) -> None:
    """Instructions asked for in any order, then the whole-module check, give what the
    eager decoder gives."""
    eager = decode(data)
    module = open_module(data)
    module.ensure_indexed()
    assert module.indexed and module.instruction_count == len(eager.instructions), name
    assert module.tail_offset == eager.tail_offset and module.header == eager.header, name
    order = list(range(module.instruction_count))
    rng.shuffle(order)
    for index in order:
        assert module.instruction(index) == eager.instructions[index], f"{name}: instruction {index}"
    assert module.diagnostics == eager.diagnostics, name
    assert module.check() == eager.diagnostics, name
    whole = module.to_module()
    assert whole.instructions == eager.instructions and whole.ext_inst_imports == eager.ext_inst_imports


def shuffled_variants(data: bytes, rng: random.Random, count: int) -> list[bytes]:
    """The module with instructions duplicated (ids defined twice), moved (types and
    imports after their uses, into function bodies) and dropped."""
    eager = decode(data)
    instructions = [list(eager.words[i.offset : i.end]) for i in eager.instructions]
    variants = []
    for _ in range(count):
        edited = [list(words) for words in instructions]
        for _ in range(rng.randrange(1, 6)):
            source, target = rng.randrange(len(edited)), rng.randrange(len(edited) + 1)
            action = rng.randrange(3)
            if action == 0:
                edited.insert(target, list(edited[source]))
            elif action == 1:
                edited.insert(target, edited.pop(source))
            elif len(edited) > 1:
                del edited[source]
        words = [*eager.words[:5], *(w for instruction in edited for w in instruction)]
        variants.append(struct.pack(f"<{len(words)}I", *words))
    return variants


@pytest.fixture
def small_chunks(monkeypatch):
    """Chunks of a few instructions, so that decoding seeds state across many chunks."""
    monkeypatch.setattr(lazy, "CHUNK", 5)


def test_example_module_opens_as_it_decodes(small_chunks):
    rng = random.Random(1)
    data = EXAMPLE_MODULE.read_bytes()
    assert_on_demand_is_eager(data, rng, "example")
    for seed in range(4):
        for case in corruptions(data, seed):
            assert_on_demand_is_eager(case.data, rng, case.name)
    for variant in shuffled_variants(data, rng, 40):
        assert_on_demand_is_eager(variant, rng, "shuffled")


def test_corpus_modules_open_as_they_decode(corpus, small_chunks):
    rng = random.Random(2)
    files = corpus_files("spv")
    assert files
    for number, path in enumerate(files):
        data = path.read_bytes()
        assert_on_demand_is_eager(data, rng, path.name)
        if number % 8 == 0:
            for case in corruptions(data, number):
                assert_on_demand_is_eager(case.data, rng, f"{path.name}: {case.name}")
            for variant in shuffled_variants(data, rng, 3):
                assert_on_demand_is_eager(variant, rng, f"{path.name}: shuffled")


def test_index_is_built_as_far_as_asked():
    module = open_module(EXAMPLE_MODULE.read_bytes())
    assert module.instruction_count == 0 and not module.indexed
    module.ensure_indexed(10)
    assert 11 <= module.instruction_count < 30 and not module.indexed
    assert module.instruction(3).opname == decode(EXAMPLE_MODULE.read_bytes()).instructions[3].opname
    module.ensure_indexed()
    assert module.indexed
    eager = decode(EXAMPLE_MODULE.read_bytes())
    for index, inst in enumerate(eager.instructions):
        assert module.offset(index) == inst.offset
        assert module.index_at(inst.offset) == index and module.index_at(inst.end - 1) == index
    assert module.index_at(2) is None
    assert module.opcode(0) == eager.instructions[0].opcode


def test_index_built_in_steps_of_any_size_is_the_eager_decoders():
    """Cut anywhere (inside the first function's OpFunction too), the index built a few
    instructions at a time has the eager decoder's offsets, first function and tail."""
    data = EXAMPLE_MODULE.read_bytes()
    words = array("I", data)
    op_function = decoder_tables(load_grammar()).opcodes.OpFunction
    first_function_word = next(i.offset for i in decode(data).instructions if i.opcode == op_function)
    for cut in (6, 40, first_function_word + 3, first_function_word + 6, len(words) - 1, len(words)):
        eager = decode(words[:cut].tobytes())
        offsets = [inst.offset for inst in eager.instructions]
        first_function = next((k for k, o in enumerate(offsets) if words[o] & 0xFFFF == op_function), None)
        for step in (1, 2, 3, 7, None):
            index = InstructionIndex(words[:cut], 5, op_function)
            while not index.done:
                index.extend(None if step is None else len(index.offsets) + step - 1)
            assert list(index.offsets) == offsets, (cut, step)
            assert index.next_offset == eager.tail_offset, (cut, step)
            assert index.first_function == first_function, (cut, step)
            assert (index.stop is None) == (eager.tail_offset == cut), (cut, step)


def test_index_at_a_word_indexes_up_to_it(small_chunks):
    eager = decode(EXAMPLE_MODULE.read_bytes())
    inst = eager.instructions[150]
    module = open_module(EXAMPLE_MODULE.read_bytes())
    assert module.index_at(inst.offset + 1) == 150
    assert not module.indexed


def test_functions_span_opfunction_to_opfunctionend():
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data)
    spans = open_module(data).functions()
    starts = [i for i, inst in enumerate(eager.instructions) if inst.opname == "OpFunction"]
    assert [s.first for s in spans] == starts
    for span in spans:
        assert eager.instructions[span.end - 1].opname == "OpFunctionEnd"
        assert span.result_id == eager.instructions[span.first].result_id


def test_opcode_set_and_definers_read_the_words(monkeypatch):
    monkeypatch.setattr(lazy, "INDEX_STEP", 7)
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data).instructions
    module = open_module(data)
    for start in (0, 40, len(eager) - 3, len(eager)):
        assert module.opcode_set(start) == {inst.opcode for inst in eager[start:]}
    for inst in eager[::5]:
        if inst.result_id:
            assert module.definers(inst.result_id) == [eager.index(inst)]
    assert module.definers(module.header.bound + 5) == []


def test_function_cut_short_ends_at_the_next_function_or_the_end():
    void, fn_type = [0x00020013, 1], [0x00030021, 2, 1]
    function = [0x00050036, 1, 3, 0, 2]
    label = [0x000200F8, 4]
    data = module_of(*void, *fn_type, *function, *label, *function[:2], 5, *function[3:], 0x00010038)
    spans = open_module(data).functions()
    assert spans == [FunctionSpan(2, 4, 3), FunctionSpan(4, 6, 5)]


def test_bad_inputs_open_with_their_diagnostics():
    for data in (b"", b"\x03\x02\x23", struct.pack("<2I", 0x07230203, 0x10000), module_of(0x00020011)):
        module = open_module(data)
        eager = decode(data)
        module.ensure_indexed()
        assert module.check() == eager.diagnostics and module.instruction_count == len(eager.instructions)
        assert module.header == eager.header and module.tail_offset == eager.tail_offset
    with pytest.raises(IndexError):
        open_module(module_of(0x00020011, 1)).instruction(5)


def test_diagnostics_known_so_far_are_those_of_the_decoded_chunks(small_chunks):
    data = module_of(0x00020011, 1, *[0x00020011, 1] * 8, 0x0003FFF0, 1, 2)
    module = open_module(data)
    module.instruction(0)
    assert module.diagnostics == []
    module.instruction(9)
    assert [d.word_offset for d in module.diagnostics] == [23]
    assert module.check() == decode(data).diagnostics


def test_threads_reading_one_module_see_the_eager_instructions(small_chunks):
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data)
    module = open_module(data)
    failures: list[str] = []

    def read(order: list[int]) -> None:
        for index in order:
            if module.instruction(index) != eager.instructions[index]:
                failures.append(f"instruction {index}")

    orders = [list(range(len(eager.instructions)))[::step] for step in (1, -1, 3)]
    threads = [threading.Thread(target=read, args=(order,)) for order in orders]
    checker = threading.Thread(target=module.check)
    for thread in [*threads, checker]:
        thread.start()
    for thread in [*threads, checker]:
        thread.join()
    assert not failures
    assert module.diagnostics == eager.diagnostics


def test_decoding_leaves_the_garbage_collector_alone():
    assert gc.isenabled()
    decode(EXAMPLE_MODULE.read_bytes())
    open_module(EXAMPLE_MODULE.read_bytes()).check()
    assert gc.isenabled()


def test_cached_instructions_are_out_of_the_cyclic_collectors_walks():
    """The instructions a chunk caches, their operand tuples and operands (records of
    numbers and strings: no cycle) are not tracked: a full collection with a large
    module's chunks cached walked them all (over 60% of what it walked, editor open).
    Reference counting still frees them."""
    import weakref

    module = open_module(EXAMPLE_MODULE.read_bytes())
    module.ensure_indexed()
    instructions = [module.instruction(k) for k in range(module.instruction_count)]
    assert instructions == decode(EXAMPLE_MODULE.read_bytes()).instructions
    tracked = [i for i in instructions if gc.is_tracked(i) or gc.is_tracked(i.operands)]
    tracked += [o for i in instructions for o in i.operands if gc.is_tracked(o)]
    assert not tracked, f"{len(tracked)} of the decoded records are walked by the collector"
    opened = weakref.ref(module)
    del module
    assert opened() is None, "the module and its cached chunks are freed by reference counting"


def test_decoder_tables_are_built_once_per_grammar():
    grammar = load_grammar()
    assert decoder_tables(grammar) is decoder_tables(grammar)
    assert isinstance(open_module(b"", grammar), LazyModule)


def test_a_chunk_of_huge_instructions_is_a_few_words_long(monkeypatch):
    """Instructions thousands of words long (random words) make chunks of fewer
    instructions (starting within CHUNK_WORDS words of the first), so that neither a pass
    (dis, explain) nor a window (the app) holds millions of raw operands, and the cache
    keeps chunks of a few words; the instructions and diagnostics are the eager
    decoder's, in any order."""
    monkeypatch.setattr(lazy, "CHUNK_WORDS", 1000)
    monkeypatch.setattr(lazy, "CHUNK", 16)
    monkeypatch.setattr(lazy, "CACHED_WORDS", 3000)  # chunks dropped and decoded again
    rng = random.Random(16)
    body = []
    for _ in range(60):
        count = rng.randrange(1, 700)
        body += [(count << 16) | rng.randrange(1 << 16), *(rng.getrandbits(32) for _ in range(count - 1))]
    body += op_names(40)  # short instructions: chunks of CHUNK
    data = module_of(*body)
    module = open_module(data)
    runs = list(module.in_order())
    sizes = [len(run.entries) for run in runs]
    assert len(runs) >= 10 and sizes[-2:] == [16, 8]
    for run in runs:
        first = run.entries[0].offset
        assert all(inst.offset <= first + 1000 for inst in run.entries)
    eager = decode(data)
    assert [inst for run in runs for inst in run.entries] == eager.instructions
    assert module.diagnostics == eager.diagnostics
    assert_on_demand_is_eager(data, rng, "huge instructions")


def op_names(count: int) -> list[int]:
    """`count` instructions `OpName %1 "a"` (3 words each)."""
    op_name = load_grammar().by_name["OpName"].opcode
    return [(3 << 16) | op_name, 1, ord("a")] * count
