"""Broken binaries: a diagnostic at the right word, the prefix still decoded, no exception."""

from __future__ import annotations

import random
import struct

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.model import HEADER_WORDS
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.disassembler import disassemble

HEADER = [0x07230203, 0x00010500, 0x00080001, 100, 0]
CAPABILITY_SHADER = [0x00020011, 1]
MEMORY_MODEL = [0x0003000E, 0, 1]
TYPE_INT = [0x00040015, 5, 32, 1]  # %5 = OpTypeInt 32 1
TYPE_VOID = [0x00020013, 6]
GRAMMAR = load_grammar()
OPCODES = sorted(GRAMMAR.instructions)


def binary(*words: int) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def module_of(*parts: list[int]) -> bytes:
    return binary(*HEADER, *[w for part in parts for w in part])


def opnames(module) -> list[str]:
    return [inst.opname for inst in module.instructions]


def offsets(module) -> list[int | None]:
    return [d.word_offset for d in module.diagnostics]


def test_valid_module_has_no_diagnostics():
    module = decode(module_of(CAPABILITY_SHADER, MEMORY_MODEL, TYPE_INT))
    assert module.diagnostics == []
    assert opnames(module) == ["OpCapability", "OpMemoryModel", "OpTypeInt"]
    assert [i.offset for i in module.instructions] == [5, 7, 10]
    width = module.instructions[2].operands[1]
    assert (width.name, width.value, width.offset, width.num_words) == ("Width", 32, 12, 1)


def test_truncated_header():
    module = decode(binary(0x07230203, 0x00010500))
    assert module.header is None
    assert offsets(module) == [2]
    assert "incomplete header" in module.diagnostics[0].message


def test_word_count_zero_stops_decoding_and_keeps_prefix():
    module = decode(module_of(CAPABILITY_SHADER, [0x00000011, 1], MEMORY_MODEL))
    assert opnames(module) == ["OpCapability"]
    assert offsets(module) == [7]
    assert "word count 0" in module.diagnostics[0].message
    assert module.tail_offset == 7


def test_word_count_past_the_end():
    module = decode(module_of(CAPABILITY_SHADER, [0x00090015, 5, 32]))
    assert opnames(module) == ["OpCapability"]
    assert offsets(module) == [7]
    assert "claims 9 words but the binary ends at word 10" in module.diagnostics[0].message


def test_byte_length_not_a_multiple_of_four():
    module = decode(module_of(CAPABILITY_SHADER) + b"\x01\x02")
    assert opnames(module) == ["OpCapability"]
    assert offsets(module) == [7]
    assert module.trailing_bytes == b"\x01\x02"
    assert "not a multiple of 4" in module.diagnostics[0].message


def test_bad_magic():
    module = decode(binary(0xDEADBEEF, *HEADER[1:], *CAPABILITY_SHADER))
    assert module.instructions == []
    assert offsets(module) == [0]
    assert "magic number 0xdeadbeef" in module.diagnostics[0].message


def test_unterminated_string():
    name = [0x00040005, 6, *struct.unpack("<2I", b"abcdefgh")]  # OpName %6 "abcdefgh" without nul
    module = decode(module_of(CAPABILITY_SHADER, name, TYPE_VOID))
    assert opnames(module) == ["OpCapability", "OpName", "OpTypeVoid"]
    assert offsets(module) == [9]
    assert "no terminating nul" in module.diagnostics[0].message
    assert not module.instructions[1].valid


def test_id_not_below_bound():
    module = decode(module_of(CAPABILITY_SHADER, [0x00040015, 250, 32, 1]))
    assert opnames(module) == ["OpCapability", "OpTypeInt"]
    assert offsets(module) == [8]
    assert "id 250" in module.diagnostics[0].message and "bound 100" in module.diagnostics[0].message


def test_missing_operands_keep_decoding_the_next_instruction():
    module = decode(module_of(CAPABILITY_SHADER, [0x00030015, 5, 32], TYPE_VOID))
    assert opnames(module) == ["OpCapability", "OpTypeInt", "OpTypeVoid"]
    assert offsets(module) == [7]
    message = module.diagnostics[0].message
    assert message.startswith("instruction at word 7 (OpTypeInt) has 2 operand word(s)")
    assert "missing 'Signedness'" in message
    assert module.instructions[2].result_id == 6


def test_unknown_opcode_is_kept_as_raw_words():
    module = decode(module_of(CAPABILITY_SHADER, [0x0003FFF0, 1, 2], TYPE_VOID))
    assert opnames(module) == ["OpCapability", "Op65520", "OpTypeVoid"]
    assert offsets(module) == [7]
    text = disassemble(module)
    assert "OpUnknown(65520, 3) !0x00000001 !0x00000002" in text


def test_unknown_enumerant():
    module = decode(module_of([0x00020011, 0xABCDE], MEMORY_MODEL))
    assert opnames(module) == ["OpCapability", "OpMemoryModel"]
    assert offsets(module) == [6]
    assert "has 703710 as operand 'Capability', which is not a known Capability" in module.diagnostics[0].message


def test_big_endian_module_decodes_like_little_endian():
    words = [*HEADER, *CAPABILITY_SHADER, *MEMORY_MODEL, *TYPE_INT]
    little = decode(binary(*words))
    big = decode(struct.pack(f">{len(words)}I", *words))
    assert big.header.big_endian and not little.header.big_endian
    assert big.instructions == little.instructions
    # The text is the same but for the comments that carry the byte order, so that it
    # assembles back to the big-endian bytes (issue 16).
    extra = [line for line in disassemble(big).splitlines() if line not in disassemble(little).splitlines()]
    assert extra == [
        "; Header words: " + " ".join(f"0x{w:08x}" for w in HEADER),
        "; Byte order: big-endian",
    ]


def assert_words_accounted_for(module, data: bytes) -> None:
    """What the decoder must report for any input: whole words and trailing bytes as
    given; instructions that follow one another from the header to where decoding
    stopped, each covered by its operands; a diagnostic at that stopping point, at every
    unknown opcode and inside every instruction that does not fit the grammar; every
    diagnostic at a word of the input; one disassembly line per instruction."""
    whole = len(data) // 4
    assert module.word_count == whole and module.trailing_bytes == data[whole * 4 :]
    assert all(d.message and 0 <= d.word_offset <= whole for d in module.diagnostics)
    at = [d.word_offset for d in module.diagnostics]
    if len(data) % 4:
        assert any(f"{len(data)} bytes long, not a multiple of 4" in d.message for d in module.diagnostics)
    end = HEADER_WORDS
    for inst in module.instructions:
        assert inst.offset == end, f"instruction at word {inst.offset} does not follow word {end}"
        end = inst.end
        covered = inst.offset + 1
        for operand in inst.operands:
            assert operand.offset == covered, f"{inst.opname} at word {inst.offset}: gap before {operand.name}"
            covered = operand.end
        assert covered == inst.end, f"{inst.opname} at word {inst.offset}: words past its operands"
        known = GRAMMAR.instructions.get(inst.opcode)
        assert inst.opname == (known.opname if known else f"Op{inst.opcode}")
        if known is None:
            assert inst.offset in at, f"no diagnostic for unknown opcode {inst.opcode} at word {inst.offset}"
        if not inst.valid:
            assert any(inst.offset <= w < inst.end for w in at), f"{inst.opname} at word {inst.offset}"
    if module.header is not None and not any("magic number" in d.message for d in module.diagnostics):
        assert module.tail_offset == end
        if end < whole:
            assert end in at, f"decoding stopped at word {end} without saying why"
    lines = [line for line in disassemble(module).splitlines() if line and not line.startswith(";")]
    assert len(lines) == len(module.instructions)


def instruction_noise(rng: random.Random) -> list[int]:
    """Words shaped like instructions: mostly the grammar's opcodes with small word counts
    (sometimes 0) and small operand values, which ids and enumerants accept more often."""
    words = []
    for _ in range(rng.randint(1, 12)):
        count = 0 if rng.random() < 0.03 else rng.randint(1, 7)
        opcode = rng.choice(OPCODES) if rng.random() < 0.9 else rng.randrange(1 << 16)
        words.append(count << 16 | opcode)
        words += [rng.randrange(8) if rng.random() < 0.8 else rng.getrandbits(32) for _ in range(count - 1)]
    return words


def test_random_bytes_never_raise():
    """Random bytes alone (a short header or a bad magic number) and after a good header."""
    rng = random.Random(1234)
    for size in range(0, 200, 3):
        data = bytes(rng.randrange(256) for _ in range(size))
        module = decode(data)
        assert_words_accounted_for(module, data)
        if size < 4 * HEADER_WORDS:
            assert module.header is None and module.instructions == []
            words = "word" if size // 4 == 1 else "words"
            assert f"incomplete header: {size // 4} {words}," in module.diagnostics[-1].message
        else:
            assert module.instructions == []
            assert module.diagnostics[-1].word_offset == 0
            assert f"magic number 0x{struct.unpack_from('<I', data)[0]:08x}" in module.diagnostics[-1].message
        with_header = binary(*HEADER) + data
        module = decode(with_header)
        assert module.header[:5] == tuple(HEADER)
        assert_words_accounted_for(module, with_header)


def test_instruction_shaped_noise_is_reported_word_by_word():
    """Noise that gets past the first instruction: unknown opcodes, operands that do not
    fit, word counts of 0 and past the end, trailing bytes."""
    rng = random.Random(99)
    for _ in range(300):
        data = binary(*HEADER, *instruction_noise(rng)) + bytes(rng.randrange(256) for _ in range(rng.randrange(4)))
        assert_words_accounted_for(decode(data), data)


def test_switch_on_a_zero_width_integer_is_reported_not_raised():
    """Fuzzing found an OpSwitch whose selector type is OpTypeInt 0: its case literal
    holds no value, so the decoder reports it and keeps the words raw."""
    data = bytes.fromhex(
        "030223070000010000000000080000000000000011000200010000000e000300000000000100000013000200"
        "01000000210003000200000001000000150004000300000000000000010000000100030003000000040000003600"
        "050001000000050000000000000002000000f800020006000000fb00050004000000070000000100000007000000"
        "f800020007000000fd00010038000100"
    )
    module = decode(data)
    assert [d.message for d in module.diagnostics if "0-bit" in d.message]
    assert "OpSwitch %4 %7 !0x00000001 !0x00000007" in disassemble(module)
