"""Names once: a module's friendly names (or raw numbers) computed once, lazily, and
exactly those of the ordered pass over every instruction."""

from __future__ import annotations

import random
import struct

import pytest

from spvinspect.codec.binary import lazy
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.cfg.graph import build_cfg
from spvinspect.codec.text.explain import explain
from spvinspect.codec.text.names import friendly_names, module_names, sanitize
from spvinspect.commands.open import EXAMPLE_MODULE

HEADER = [0x07230203, 0x00010500, 0x00080001, 40, 0]


def words_of(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data))


def pack(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def string_words(text: str) -> list[int]:
    raw = text.encode() + b"\0"
    raw += b"\0" * (-len(raw) % 4)
    return list(struct.unpack(f"<{len(raw) // 4}I", raw))


def op_name(target: int, text: str) -> list[int]:
    words = string_words(text)
    return [(2 + len(words)) << 16 | 5, target, *words]


def assert_names_are_the_ordered_pass(data: bytes, rng: random.Random, name: str) -> None:
    """The lazy names, asked for in any order (and as a table), are the eager pass's."""
    eager = friendly_names(decode(data).instructions)
    module = open_module(data)
    names = module_names(module)
    ids = list(eager) + list(range(60))
    rng.shuffle(ids)
    for id_ in ids:
        assert names.name(id_) == (eager.get(id_) or str(id_)), f"{name}: id {id_}"
    table = names.table()
    assert {i: table.get(i) or str(i) for i in ids} == {i: eager.get(i) or str(i) for i in ids}, name
    assert module_names(open_module(data)).id_hints() == {n: i for i, n in eager.items()}, name


def test_corpus_names_are_the_ordered_pass(spv_modules):
    rng = random.Random(3)
    for path in spv_modules:
        assert_names_are_the_ordered_pass(path.read_bytes(), rng, path.name)


def test_raw_names_are_numbers():
    names = module_names(open_module(EXAMPLE_MODULE.read_bytes()), friendly=False)
    assert names.name(5) == "5" and names.id_hints() == {} and names.table() == {}


def test_first_names_need_no_function_body(decoded):
    """Naming the ids of the first lines reads only the part before the functions."""
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data)
    decoded.clear()
    module = open_module(data)
    names = module_names(module)
    main = eager.instructions[3].operands[1].value  # OpEntryPoint's function
    assert names.name(main) == "main"
    first_function = next(i for i in eager.instructions if i.opname == "OpFunction")
    assert decoded and max(decoded) < first_function.offset


def test_ids_that_keep_their_numbers_need_only_the_naming_section(decoded):
    """An id no OpName or decoration names, defined by an instruction that names
    nothing (here one in the last function, and a constant composite after the types),
    is its number once the pass has read the OpNames and decorations: the types and
    constants are not named first."""
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data).instructions
    names = module_names(open_module(data))
    decoded.clear()
    last_body_id = [i for i in eager if i.result_id][-1].result_id
    composite = next(i for i in eager if i.opname == "OpConstantComposite").result_id
    assert names.name(last_body_id) == str(last_body_id)
    assert names.name(composite) == str(composite)
    first_constant = next(i for i in eager if i.opname == "OpConstant")
    assert decoded and max(decoded) < first_constant.offset


def test_the_naming_pass_runs_in_steps_to_the_same_names():
    data = EXAMPLE_MODULE.read_bytes()
    eager = friendly_names(decode(data).instructions)
    names = module_names(open_module(data))
    names.prepare()
    steps = 0
    while names.name_more(8):
        steps += 1
    assert steps > 3
    assert {i: n for i, n in names.table().items() if n != str(i)} == {i: n for i, n in eager.items() if n != str(i)}


def test_names_in_a_function_body_are_named_in_order():
    """A broken module that names things inside a function body: the ordered pass runs
    through the bodies, so the names stay exactly the eager pass's."""
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data)
    words = words_of(data)
    label = next(i for i in eager.instructions if i.opname == "OpLabel")
    body_id = [i for i in eager.instructions if i.result_id][-1].result_id  # defined later
    defined = {i.result_id for i in eager.instructions}
    nowhere = next(id_ for id_ in range(1, eager.header.bound) if id_ not in defined)
    words[label.end : label.end] = op_name(body_id, "late_value") + op_name(nowhere, "never_defined")
    assert_names_are_the_ordered_pass(pack(words), random.Random(4), "OpName in a body")
    names = module_names(open_module(pack(words)))
    assert names.name(body_id) == "late_value"
    assert module_names(open_module(pack(words))).name(nowhere) == "never_defined"


def test_a_body_id_whose_number_is_taken_gets_a_suffix():
    data = EXAMPLE_MODULE.read_bytes()
    eager = decode(data)
    words = words_of(data)
    label = next(i for i in eager.instructions if i.opname == "OpLabel")
    first_name = next(i for i in eager.instructions if i.opname == "OpName")
    main = eager.instructions[3].operands[1].value  # named before its own OpName
    words[first_name.offset : first_name.offset] = op_name(main, str(label.result_id))
    data = pack(words)
    assert_names_are_the_ordered_pass(data, random.Random(5), "number taken")
    assert module_names(open_module(data)).name(label.result_id) == f"{label.result_id}_0"


@pytest.mark.parametrize("chunk", [3, 256])
def test_shuffled_modules_names_are_the_ordered_pass(monkeypatch, chunk):
    monkeypatch.setattr(lazy, "CHUNK", chunk)
    rng = random.Random(chunk)
    eager = decode(EXAMPLE_MODULE.read_bytes())
    instructions = [list(eager.words[i.offset : i.end]) for i in eager.instructions]
    for _ in range(30):
        edited = [list(words) for words in instructions]
        for _ in range(rng.randrange(1, 4)):
            source, target = rng.randrange(len(edited)), rng.randrange(len(edited) + 1)
            if rng.random() < 0.5:
                edited.insert(target, list(edited[source]))
            else:
                edited.insert(target, edited.pop(source))
        data = pack([*eager.words[:5], *(w for words in edited for w in words)])
        assert_names_are_the_ordered_pass(data, rng, "shuffled")


def test_the_name_map_is_handed_to_explain_and_the_cfg():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    raw = module_names(module, friendly=False)
    cfg = build_cfg(module, raw)
    assert all(block.name == str(block.id) for f in cfg.functions for block in f.blocks)
    assert build_cfg(module, module_names(module)).functions[0].name == "main"
    assert not any("%main" in e.text for e in explain(module, names=raw))
    assert any("%main" in t for t in (e.text for e in explain(open_module(data))))


def test_every_builtin_name_is_keyed_by_a_grammar_enumerant():
    """The table names BuiltIns by the grammar's spelling: a key the grammar does not
    know would silently name nothing."""
    from spvinspect.codec.grammar import load_grammar
    from spvinspect.codec.text.names import BUILTIN_NAMES

    kind = load_grammar().operand_kinds["BuiltIn"]
    assert [key for key in BUILTIN_NAMES if key not in kind.by_name] == []


def test_sanitize_keeps_only_ascii_letters_digits_and_underscores():
    """As spirv-dis: any other character (a non-ASCII letter too, which a Python
    identifier may hold) becomes '_', and the empty name is '_'."""
    cases = {
        "main": "main",
        "if": "if",
        "_x_1": "_x_1",
        "1st": "1st",
        "42": "42",
        "": "_",
        "a.b": "a_b",
        "ñame": "_ame",
        "vé̀c": "v__c",
        "a b-c": "a_b_c",
        "x\udcff": "x_",
        "١٢": "__",
    }
    assert {name: sanitize(name) for name in cases} == cases
