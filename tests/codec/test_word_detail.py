"""The detail of any word: what `spvinspect explain` says about it, and the facts around
it (offsets, value as every type, operand, decoded value, part, definition, diagnostics)."""

from __future__ import annotations

import struct

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.explain import explain
from spvinspect.codec.text.listing import OperandFormatter
from spvinspect.codec.text.names import NameMap
from spvinspect.codec.text.word_detail import WordKind, instruction_word_kinds, word_detail, word_kind
from spvinspect.cli import main
from spvinspect.commands.open import EXAMPLE_MODULE

SAMPLED_WORDS = 40
"""Words checked per corpus module (spread evenly, from a different first word in each
module), to keep the test quick; the example module is checked word by word."""


def friendly(module) -> OperandFormatter:
    """Operands printed with the module's friendly names, as the instruction list does."""
    return OperandFormatter(load_grammar(), NameMap(module))


def definitions(module) -> dict[int, int]:
    """Id -> index of the instruction defining it."""
    found: dict[int, int] = {}
    for index, inst in enumerate(module.instructions):
        if inst.result_id:
            found.setdefault(inst.result_id, index)
    return found


def kind_from_explanation(text: str) -> WordKind:
    """The word kind `explain`'s sentence implies, read independently of the model."""
    if text.startswith("header:") or text == "incomplete header word":
        return WordKind.HEADER
    if text.startswith("undecoded word"):
        return WordKind.TAIL
    if " word 0: word count" in text:
        return WordKind.OPCODE
    if "raw word, does not fit the grammar" in text:
        return WordKind.RAW
    for marker, kind in (
        ("(IdResultType)", WordKind.TYPE_ID),
        ("(IdResult)", WordKind.RESULT_ID),
        ("(LiteralString)", WordKind.STRING),
        ("(Id", WordKind.ID),
        ("(Literal", WordKind.LITERAL),
    ):
        if marker in text:
            return kind
    return WordKind.ENUM


def assert_details_agree_with_explain(data: bytes, name: str, sample: int | None = None) -> None:
    module = decode(data)
    formatter = friendly(module)
    entries = list(explain(module))
    step = max(1, len(entries) // sample) if sample else 1
    for entry in entries[len(name) % step :: step]:
        detail = word_detail(module, entry.offset, formatter)
        where = f"{name}: word {entry.offset}"
        assert detail.meaning == entry.text, where
        assert detail.value == entry.value, where
        assert detail.instruction_index == entry.instruction, where
        assert detail.operand_index == entry.operand, where
        if detail.instruction is not None:
            assert entry.text.startswith(detail.instruction.opname), where
        if detail.operand is not None and detail.operand.name:
            assert f"'{detail.operand.name}'" in entry.text, where
        assert detail.kind is kind_from_explanation(entry.text), where
        assert word_kind(module, entry.offset) is detail.kind, where


def test_every_word_of_the_example_names_what_explain_names():
    assert_details_agree_with_explain(EXAMPLE_MODULE.read_bytes(), "example")


def test_corpus_words_name_what_explain_names(corpus):
    files = sorted((corpus / "spv").glob("*.spv"))
    assert files
    for path in files:
        assert_details_agree_with_explain(path.read_bytes(), path.name, SAMPLED_WORDS)


def test_details_match_the_explain_command(capsys):
    assert main(["explain", str(EXAMPLE_MODULE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    module = decode(EXAMPLE_MODULE.read_bytes())
    for offset in range(0, len(module.words), 7):
        detail = word_detail(module, offset, friendly(module))
        assert lines[offset] == f"0x{detail.byte_offset:08x}  {detail.value:08x}  {detail.meaning}"


def test_lazy_and_eager_modules_give_the_same_details(corpus):
    path = max((corpus / "spv").glob("*.spv"), key=lambda p: p.stat().st_size)
    data = path.read_bytes()
    eager, lazy = decode(data), open_module(data)
    lazy.check()
    eager_formatter, lazy_formatter = friendly(eager), OperandFormatter(lazy.grammar, NameMap(lazy))
    for offset in range(0, len(eager.words) + 1, 3):
        assert word_detail(lazy, offset, lazy_formatter) == word_detail(eager, offset, eager_formatter)


def test_instruction_word_kinds_cover_each_instruction():
    module = decode(EXAMPLE_MODULE.read_bytes())
    for inst in module.instructions:
        kinds = instruction_word_kinds(inst)
        assert len(kinds) == inst.word_count and kinds[0] is WordKind.OPCODE
        for operand in inst.operands:
            assert len(set(kinds[operand.offset - inst.offset : operand.end - inst.offset])) == 1


TYPED_MODULE = """
OpCapability Shader
OpCapability Int64
OpMemoryModel Logical GLSL450
OpName %big "a_long_name"
%void = OpTypeVoid
%long = OpTypeInt 64 1
%float = OpTypeFloat 32
%ptr = OpTypePointer Function %float
%fn = OpTypeFunction %void
%big = OpConstant %long -4294967296
%main = OpFunction %void None %fn
%entry = OpLabel
%var = OpVariable %ptr Function
OpStore %var %var Volatile|Aligned 4
OpReturn
OpFunctionEnd
"""


def typed_module():
    return decode(assemble(TYPED_MODULE).words.tobytes())


def find(module, opname: str):
    return next(i for i in module.instructions if i.opname == opname)


def test_operand_word_detail_kind_value_and_definition():
    module = typed_module()
    formatter = friendly(module)
    pointer = find(module, "OpTypePointer")
    detail = word_detail(module, pointer.offset + 3, formatter, definition=definitions(module).get)
    assert detail.operand_label == "'Type' (IdRef)"
    assert detail.value_text == "%float"
    assert detail.kind is WordKind.ID
    assert detail.definition.opname == "OpTypeFloat"
    assert detail.definition is module.instructions[detail.definition_index]
    assert ("Defined", f"by OpTypeFloat, instruction {detail.definition_index + 1} at word {detail.definition.offset} "
            f"(byte 0x{detail.definition.offset * 4:08x})") in detail.rows()
    storage = word_detail(module, pointer.offset + 2, formatter)
    assert (storage.kind, storage.value_text) == (WordKind.ENUM, "Function")
    store = find(module, "OpStore")
    mask = word_detail(module, store.offset + 3, formatter)
    assert mask.value_text == "Volatile|Aligned" and mask.operand.kind == "MemoryAccess"


def test_first_word_splits_into_count_and_opcode():
    module = typed_module()
    type_int = find(module, "OpTypeInt")
    detail = word_detail(module, type_int.offset)
    assert detail.kind is WordKind.OPCODE
    assert detail.first_word_split == (4, 21)
    assert ("Word 0", "word count 4, opcode 21 (OpTypeInt)") in detail.rows()


def test_multi_word_operands_say_which_part_a_word_is():
    module = typed_module()
    constant = find(module, "OpConstant")
    low = word_detail(module, constant.offset + 3, friendly(module))
    high = word_detail(module, constant.offset + 4, friendly(module))
    assert (low.part, high.part) == ("word 1 of 2 (low bits)", "word 2 of 2 (high bits)")
    assert low.value_text == high.value_text == "-4294967296"
    assert high.signed == -1 and high.value == 0xFFFFFFFF
    name = find(module, "OpName")
    second = word_detail(module, name.offset + 3)
    assert second.part == "word 2 of 3: bytes 5-8 of 11: 'ng_n'"
    assert second.as_chars == "ng_n"
    padding = word_detail(module, name.offset + 4)
    assert padding.part == "word 3 of 3: bytes 9-11 of 11: 'ame' + nul and zero padding"


def test_value_read_as_every_type():
    module = typed_module()
    float_type = find(module, "OpTypeFloat")
    width = word_detail(module, float_type.offset + 2)
    assert (width.value, width.signed, width.as_float) == (32, 32, "0x1p-144")
    header = word_detail(module, 0)
    assert header.header_field == "magic number" and header.kind is WordKind.HEADER
    assert header.file_bytes == bytes.fromhex("03022307")


def test_big_endian_words_keep_their_value_and_show_file_bytes():
    data = EXAMPLE_MODULE.read_bytes()
    swapped = struct.pack(f">{len(data) // 4}I", *struct.unpack(f"<{len(data) // 4}I", data))
    detail = word_detail(decode(swapped), 0)
    assert detail.value == 0x07230203 and detail.file_bytes == bytes.fromhex("07230203")


def test_broken_words_say_why_they_could_not_be_decoded():
    data = EXAMPLE_MODULE.read_bytes()
    module = decode(data)
    victim = module.instructions[len(module.instructions) // 2]
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    words[victim.offset] = (victim.word_count << 16) | 0xFFF0  # an opcode nobody knows
    module = decode(struct.pack(f"<{len(words)}I", *words) + b"\x01\x02\x03")
    raw = word_detail(module, victim.offset + 1)
    assert raw.kind is WordKind.RAW and not raw.instruction.valid
    assert raw.diagnostics
    assert all(d.word_offset in range(victim.offset, victim.end) for d in raw.diagnostics)
    assert any(row[0] == "Diagnostic" for row in raw.rows())
    trailing = word_detail(module, len(module.words))
    assert trailing.kind is WordKind.TRAILING and trailing.file_bytes == b"\x01\x02\x03"
    assert trailing.value is None and trailing.meaning == "3 trailing byte(s), not a whole word"
    assert "not a multiple of 4" in trailing.diagnostics[0].message
    truncated = decode(data[:402])
    tail = word_detail(truncated, len(truncated.words) - 1)
    assert tail.kind is WordKind.TAIL
    assert tail.diagnostics and tail.diagnostics[0].word_offset == truncated.tail_offset


def test_words_of_an_incomplete_header():
    module = decode(EXAMPLE_MODULE.read_bytes()[:10])
    first = word_detail(module, 0)
    assert (first.kind, first.meaning) == (WordKind.HEADER, "incomplete header word")
    assert word_detail(module, 2).file_bytes == EXAMPLE_MODULE.read_bytes()[8:10]


MEANINGS_MODULE = """
OpCapability Shader
OpCapability Float16
OpCapability Float64
OpMemoryModel Logical GLSL450
OpName %nan "abcé!"
%half = OpTypeFloat 16
%float = OpTypeFloat 32
%double = OpTypeFloat 64
%nan = OpConstant %float !0x7fc00000
%inf = OpConstant %float !0xff800000
%snan = OpConstant %float !0x7f800001
%hinf = OpConstant %half !0x7c00
%dinf = OpConstant %double !0x00000000 !0x7ff00000
%one = OpConstant %float 1
"""


def meanings_module():
    result = assemble(MEANINGS_MODULE)
    assert result.ok, result.diagnostics
    return decode(result.binary)


CONSTANTS = ("nan", "inf", "snan", "hinf", "dinf", "one")
"""MEANINGS_MODULE's constants, in order."""


def constant(module, name: str):
    constants = [i for i in module.instructions if i.opname == "OpConstant"]
    return constants[CONSTANTS.index(name)]


def test_string_words_count_bytes_and_show_characters_whole():
    """`é` is two bytes, the fourth and fifth: each word shows it whole and says so."""
    module = meanings_module()
    name = find(module, "OpName")
    first = word_detail(module, name.offset + 2)
    second = word_detail(module, name.offset + 3)
    assert first.part == "word 1 of 2: bytes 1-4 of 6: 'abcé' (é ends in the next word)"
    assert second.part == "word 2 of 2: bytes 5-6 of 6: 'é!' (é begins in the word before) + nul and zero padding"
    lines = {e.offset: e.text for e in explain(module)}
    assert lines[name.offset + 2] == "OpName operand 'Name' (LiteralString) bytes 1-4 of 6: 'abcé' (é ends in the next word)"
    assert "'é!'" in lines[name.offset + 3] and "�" not in lines[name.offset + 3]


def test_nan_and_infinities_are_named_in_the_detail_but_printed_as_spirv_dis_does():
    module = meanings_module()
    nan = word_detail(module, constant(module, "nan").offset + 3, friendly(module))
    assert nan.as_float == "NaN (quiet), printed 0x1.8p+128"
    assert nan.value_text == "0x1.8p+128"
    assert ("Value", "0x1.8p+128, which is NaN (quiet)") in nan.rows()
    assert nan.meaning.endswith("= 0x1.8p+128 (2143289344), which is NaN (quiet)")
    inf = word_detail(module, constant(module, "inf").offset + 3, friendly(module))
    assert inf.as_float == "-Inf, printed -0x1p+128"
    assert inf.meaning.endswith("which is -Inf")
    snan = word_detail(module, constant(module, "snan").offset + 3, friendly(module))
    assert snan.as_float == "NaN (signalling, payload 0x1), printed 0x1.000002p+128"
    half = word_detail(module, constant(module, "hinf").offset + 3, friendly(module))
    assert ("Value", "0x1p+16, which is +Inf") in half.rows()
    double_low = word_detail(module, constant(module, "dinf").offset + 3, friendly(module))
    double_high = word_detail(module, constant(module, "dinf").offset + 4, friendly(module))
    for word in (double_low, double_high):
        assert ("Value", "0x1p+1024, which is +Inf") in word.rows()
        assert "which is +Inf" in word.meaning
    one = word_detail(module, constant(module, "one").offset + 3, friendly(module))
    assert one.as_float == "1" and "which is" not in one.meaning


def test_numbering_says_what_it_counts():
    """Operands as the specification numbers them (from 1, after the Result Type and
    Result <id>); instructions from 1, of how many."""
    module = typed_module()
    count = len(module.instructions)
    store = find(module, "OpStore")
    index = module.instructions.index(store)
    object_ = word_detail(module, store.offset + 2, friendly(module))
    rows = dict(object_.rows())
    assert rows["Operand"] == "'Object' (IdRef), operand 2 of 4 (spec numbering)"
    assert rows["Instruction"].startswith(f"OpStore, instruction {index + 1} of {count}, words")
    pointer = find(module, "OpTypePointer")
    result = dict(word_detail(module, pointer.offset + 1, friendly(module)).rows())
    assert result["Operand"] == "(IdResult), the Result <id>"
    storage = dict(word_detail(module, pointer.offset + 2, friendly(module)).rows())
    assert storage["Operand"] == "(StorageClass), operand 1 of 2 (spec numbering)"
    variable = find(module, "OpVariable")
    result_type = dict(word_detail(module, variable.offset + 1, friendly(module)).rows())
    assert result_type["Operand"] == "(IdResultType), the Result Type"
    defined = word_detail(module, pointer.offset + 3, friendly(module), definition=definitions(module).get)
    assert dict(defined.rows())["Defined"].startswith(f"by OpTypeFloat, instruction {defined.definition_index + 1} at word")
