"""The document model without the app: header, rows, selection, definitions, uses, search."""

from __future__ import annotations

import struct

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.grammar import load_grammar
from spvinspect.document import Document, looks_like_spirv
from spvinspect.selection import JumpHistory, Selection


def indexed(document: Document, raw: bool = False) -> Document:
    for _ in document.index_steps(raw):
        pass
    return document


def row_of(document: Document, text: str) -> int:
    """The first row whose line contains `text`."""
    return next(row for row in range(document.row_count) if text in document.row_text(row))


def test_header_fields_are_the_decoded_header(example_bytes):
    header = decode(example_bytes).header
    fields = {f.name: f for f in Document(example_bytes).header_fields()}
    assert [fields[n].value for n in ("magic", "version", "generator", "bound", "schema")] == [
        header.magic, header.version, header.generator, header.bound, header.schema
    ]
    assert [fields[n].word for n in ("magic", "version", "generator", "bound", "schema")] == [0, 1, 2, 3, 4]
    assert fields["magic"].meaning == "SPIR-V, little-endian"
    assert fields["version"].meaning == header.version_text
    assert dict(fields["generator"].details) == {
        "vendor": "Khronos",
        "tool": "Glslang Reference Front End (id 8)",
        "version": str(header.generator_version),
    }


def test_a_word_selects_its_instruction_and_operand(example_document):
    module = decode(example_document.data)
    inst = next(i for i in module.instructions if i.opname == "OpEntryPoint")
    index = module.instructions.index(inst)
    name = inst.operands[2]
    selection = example_document.select_word(name.offset + 1)
    assert selection == Selection(name.offset + 1, index, index, 2)
    assert example_document.select_word(inst.offset) == Selection(inst.offset, index, index, None)
    assert example_document.select_word(2) == Selection(2, None)


def test_rows_cover_instructions_then_the_tail(broken_bytes):
    document = Document(broken_bytes)
    module = decode(broken_bytes)
    count = len(module.instructions)
    tail_words = len(module.words) - module.tail_offset
    assert document.row_count == count + tail_words + 1
    assert document.row_text(document.row_count - 1) == "; Trailing bytes: abcd"
    assert document.row_word(document.row_count - 1) == len(module.words)
    assert document.row_text(count) == "               !0x00280000"
    assert document.row_word(count + 1) == module.tail_offset + 1
    assert document.select_word(module.tail_offset + 2).row == count + 2



def shapes_of(example: bytes) -> dict[str, bytes]:
    """Files the hex pane can show, each with its own corner: short, headerless, cut,
    with an undecodable tail, with trailing bytes, with a bad magic number."""
    zero_count = example[:40] + bytes(4) + example[44:]
    return {
        "empty": b"",
        "two bytes": example[:2],
        "magic only": example[:4],
        "magic and 2 bytes": example[:4] + b"ab",
        "header and 3 bytes": example[:20] + b"abc",
        "whole": example,
        "whole and 1 byte": example + b"x",
        "cut mid-instruction": example[:-6],
        "raw tail and trailing bytes": example[:-8] + b"\xff\xff\xff\xff" * 3 + b"zz",
        "word count 0 and trailing bytes": zero_count + b"qq",
        "bad magic and a byte": bytes(4) + example[4:] + b"q",
    }


def test_every_word_and_the_trailing_bytes_select_something(example_bytes):
    """What the hex pane can put its cursor on (every word, and the trailing bytes as the
    word after the last) gives a selection in the rows: its instruction when it has one,
    None in the header, the tail and the trailing bytes; out of range is clamped."""
    for shape, data in shapes_of(example_bytes).items():
        document = Document(data)
        module = document.module
        words = len(module.words)
        shown = words + (1 if module.trailing_bytes else 0)
        for word in range(-1, shown + 2):
            selection = document.select_word(word)
            at = min(max(word, 0), max(shown - 1, 0))
            assert selection.word == at, (shape, word)
            assert selection.row is None or 0 <= selection.row < document.row_count, (shape, word)
            index = selection.instruction
            if at >= words or at < 5:
                assert index is None and selection.operand is None, (shape, word)
            if index is not None:
                start = module.offset(index)
                assert start <= at < start + (module.words[start] >> 16), (shape, word)
                assert document.row_instruction(selection.row) == index, (shape, word)
            elif at >= 5:
                assert selection.row is not None and document.row_word(selection.row) == min(at, words), (shape, word)


def test_definition_before_and_after_indexing(example_document):
    names = example_document.names().id_hints()
    defined = row_of(example_document, "%base = OpVariable")
    use = row_of(example_document, "OpStore %base")
    assert example_document.definition(names["base"], near=use) == defined
    indexed(example_document)
    assert example_document.definition(names["base"]) == defined
    assert example_document.ids_defined == len({i.result_id for i in decode(example_document.data).instructions if i.result_id})


def test_uses_are_every_operand_naming_the_id(example_document):
    indexed(example_document)
    id_ = example_document.names().id_hints()["sum"]
    uses = example_document.uses(id_)
    expected = [
        row for row, inst in enumerate(decode(example_document.data).instructions)
        if any(o.kind.startswith("Id") and o.kind != "IdResult" and o.value == id_ for o in inst.operands)
    ]
    assert [use.row for use in uses] == expected
    for use in uses:
        operands = decode(example_document.data).instructions[use.row].operands
        assert operands[use.operand].value == id_


def test_search_by_opcode_id_name_literal_and_text(example_document):
    indexed(example_document)
    module = decode(example_document.data)

    def rows(text: str, raw: bool = False) -> list[int]:
        return example_document.search(example_document.parse_query(text, raw), raw)

    assert rows("OpLoad") == [r for r, i in enumerate(module.instructions) if i.opname == "OpLoad"]
    main = example_document.names().id_hints()["main"]
    assert rows("%main") == rows(f"%{main}")
    assert rows("%main")[-1] == row_of(example_document, "%main = OpFunction")
    assert rows("512") == [row_of(example_document, "%float_512 = OpConstant")]
    assert rows('"uv"') == [row_of(example_document, 'OpName %uv "uv"')]
    assert rows("glsl450") == [row_of(example_document, "OpMemoryModel")]
    assert rows("GLSL450") == [row_of(example_document, "OpMemoryModel")]
    assert rows("OpNoSuchThing") == []


def test_search_waits_for_the_index(example_document):
    query = example_document.parse_query("glsl")
    assert example_document.search(query) is None
    steps = list(example_document.index_steps())
    assert steps[0] == 0.0 and steps[-1] == 1.0
    assert example_document.search(query)


def invalid_definer_first(example: bytes) -> bytes:
    """The example with an OpTypeVector too short to be valid in front of OpTypeVoid,
    its result word naming the void type's id."""
    module = decode(example)
    words = list(struct.unpack(f"<{len(example) // 4}I", example))
    void = next(i for i in module.instructions if i.opname == "OpTypeVoid")
    vector = load_grammar().by_name["OpTypeVector"].opcode
    words[void.offset : void.offset] = [(2 << 16) | vector, void.result_id]
    return struct.pack(f"<{len(words)}I", *words)


def test_the_index_holds_every_row_as_shown_and_each_id_at_its_first_valid_definition(example_bytes, broken_bytes):
    for data in (example_bytes, broken_bytes, invalid_definer_first(example_bytes)):
        document = Document(data)
        module = decode(data)
        for raw in (False, True):
            index = indexed(document, raw).search_index(raw)
            starts = [*index._starts, len(index.text) + 1]
            assert index.rows == document.row_count
            for row in range(document.row_count):
                assert index.text[starts[row] : starts[row + 1] - 1] == document.row_text(row, raw), row
        first: dict[int, int] = {}
        for row, inst in enumerate(module.instructions):
            if inst.valid and inst.result_id:
                first.setdefault(inst.result_id, row)
        assert {id_: document.definition(id_) for id_ in first} == first
        assert document.ids_defined == len(first)


def test_functions_and_blocks(example_document):
    module = decode(example_document.data)
    functions = [r for r, i in enumerate(module.instructions) if i.opname == "OpFunction"]
    labels = [r for r, i in enumerate(module.instructions) if i.opname == "OpLabel"]
    assert example_document.function_starts == functions
    assert example_document.function_row(0, 1) == functions[0]
    assert example_document.function_row(functions[1], -1) == functions[0]
    assert example_document.block_row(functions[0], 1) == labels[0]
    assert example_document.block_row(labels[1], -1) == labels[0]
    labels_in_first = [r for r in labels if r < functions[1]]
    assert example_document.block_row(labels_in_first[-1], 1) == functions[1]


def test_places_name_entry_points_and_functions(example_document):
    places = dict(example_document.places())
    main_row = row_of(example_document, "%main = OpFunction")
    assert places["entry point main (Fragment)"] == main_row
    assert places["function %main"] == main_row
    assert places["function %blur_vf2_"] == row_of(example_document, "%blur_vf2_ = OpFunction")


def test_spirv_is_recognised_in_either_byte_order(example_bytes):
    big = b"".join(example_bytes[i : i + 4][::-1] for i in range(0, len(example_bytes), 4))
    assert looks_like_spirv(example_bytes) and looks_like_spirv(big)
    assert not looks_like_spirv(b"\x7fELF\x02\x01\x01\x00")
    assert not looks_like_spirv(b"\x03\x02")


def test_jump_history_goes_back_and_forward():
    history = JumpHistory()
    a, b, c = (Selection(w, w) for w in (5, 10, 20))
    history.record(a)
    history.record(b)
    assert history.back(c) == b
    assert history.back(b) == a
    assert history.back(a) is None
    assert history.forward(a) == b
    history.record(b)
    assert history.forward(b) is None


def test_search_session_steps_round_the_matches():
    from spvinspect.search import SearchSession, parse_query

    session = SearchSession()
    session.start(parse_query("OpLoad", {"OpLoad"}, lambda name: None))
    assert session.step(5, 1) is None
    session.found([3, 8, 20])
    assert [session.step(5, 1), session.step(8, 1), session.step(20, 1)] == [8, 20, 3]
    assert [session.step(5, -1), session.step(3, -1), session.step(None, 1)] == [3, 20, 3]
    assert session.describe(8) == "opcode OpLoad: match 2 of 3"
    assert session.describe(9) == ""


def test_opcode_search_needs_no_index(example_document):
    module = decode(example_document.data)
    query = example_document.parse_query("OpFunctionCall")
    assert not example_document.needs_index(query)
    assert example_document.search_index() is None
    assert example_document.search(query) == [r for r, i in enumerate(module.instructions) if i.opname == "OpFunctionCall"]
    assert example_document.needs_index(example_document.parse_query("%main"))
