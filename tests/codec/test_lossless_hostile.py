"""`spvinspect dis --lossless` turns every binary, valid or not, into a text that
`spvinspect as` turns back into the same bytes; `dis --raw-id | as` gives back every
module that decodes without diagnostics. The reproducers are issue 16's."""

from __future__ import annotations

import struct

import pytest
from corruptions import corruptions
from oracle import corpus_sample

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.grammar import load_grammar
from spvinspect.codec.text.disassembler import DisassemblyOptions, disassemble
from spvinspect.cli import main
from spvinspect.commands.open import EXAMPLE_MODULE

LOSSLESS = DisassemblyOptions(lossless=True, friendly_names=False)
"""What `spvinspect dis --lossless` prints."""
RAW_ID = DisassemblyOptions(friendly_names=False)

REPRODUCERS = {
    "big-endian valid module": "07230203000100000000000000000001000000000002001100000001",
    "bytes after a string's nul": "0302230700000100000000000200000000000000050003000100000061620001",
    "version 0.0": "03022307000000000000000001000000000000001100020001000000",
    "OpCopyLogical in a 1.0 module": "030223070000010000000000040000000000000015000400010000002000000000000000"
    "90010400010000000200000003000000",
    "one byte": "07",
    "big-endian magic alone (found by the fuzzer)": "07230203",
    "OpTypeInt 2": "0302230700000100000000000300000000000000150004000100000002000000010000002b000400"
    "01000000020000001b000000",
    "OpTypeFloat 4": "03022307000001000000000003000000000000001600030001000000040000002b00040001000000"
    "020000000000003f",
    "half float with high bits": "03022307000001000000000003000000000000001600030001000000100000002b000400"
    "01000000020000000000803f",
    "signed 16-bit int with high bits": "0302230700000100000000000300000000000000150004000100000010000000"
    "010000002b00040001000000020000000000e1c0",
    "OpExtInst with a raw tail": "03022307000001000000000006000000000000000b00060001000000474c534c2e737464"
    "2e343530000000001600030002000000200000002b00040002000000030000000000803f0c00070002000000040000000100"
    "0000280000000300000000000000",
}


def cli_round_trip(tmp_path, data: bytes, *flags: str) -> bytes:
    """`spvinspect dis FLAGS m.spv -o m.spvasm; spvinspect as m.spvasm -o m2.spv`."""
    original, text, out = tmp_path / "m.spv", tmp_path / "m.spvasm", tmp_path / "m2.spv"
    original.write_bytes(data)
    main(["dis", *flags, str(original), "-o", str(text)])
    assert main(["as", str(text), "-o", str(out)]) == 0, text.read_text(errors="replace")[:2000]
    return out.read_bytes()


def text_round_trip(data: bytes, options: DisassemblyOptions) -> bytes | None:
    text = disassemble(open_module(data), options)
    result = assemble(text)
    assert result.ok, f"the text does not assemble: {result.diagnostics[:2]}\n{text[:1500]}"
    return result.binary


@pytest.mark.parametrize("name", REPRODUCERS)
def test_reproducer_round_trips_through_the_command_line(tmp_path, name):
    data = bytes.fromhex(REPRODUCERS[name])
    assert cli_round_trip(tmp_path, data, "--lossless") == data


def test_valid_big_endian_module_keeps_its_byte_order():
    data = bytes.fromhex(REPRODUCERS["big-endian valid module"])
    assert not decode(data).diagnostics
    assert "; Byte order: big-endian" in disassemble(decode(data), LOSSLESS)
    assert text_round_trip(data, RAW_ID) == data


def test_valid_modules_whose_header_the_standard_comments_cannot_carry_round_trip_raw_id():
    body = struct.pack("<2I", 0x00020011, 1)
    for header in (
        [0x07230203, 0x00F2B3FF, 0, 2, 0],  # bytes outside major.minor
        [0x07230203, 0x00010000, 0x00FF0001, 2, 0],  # tool 255 is unregistered: Unknown(255)
    ):
        data = struct.pack("<5I", *header) + body
        assert not decode(data).diagnostics
        assert text_round_trip(data, RAW_ID) == data
        assert text_round_trip(data, LOSSLESS) == data


def test_a_header_alone_with_bound_0_round_trips_raw_id():
    """Found by the fuzzer: the assembler writes a bound of at least 1, so a bound of 0
    takes the exact header words."""
    data = struct.pack("<5I", 0x07230203, 0, 0, 0, 0)
    assert not decode(data).diagnostics
    assert text_round_trip(data, RAW_ID) == data
    assert text_round_trip(data, LOSSLESS) == data


@pytest.mark.parametrize(
    ("name", "word"),
    [
        ("bytes after a string's nul", 7),
        ("OpTypeInt 2", 12),
        ("OpTypeFloat 4", 11),
        ("half float with high bits", 11),
        ("signed 16-bit int with high bits", 12),
    ],
)
def test_words_no_text_gives_back_are_reported_at_their_word_and_kept(name, word):
    data = bytes.fromhex(REPRODUCERS[name])
    module = decode(data)
    assert [d.word_offset for d in module.diagnostics] == [word]
    assert f"!0x{module.words[word]:08x}" in disassemble(module, LOSSLESS)


STRING_OPERAND_PREFIX = {"OpName": [1], "OpExtension": [], "OpSourceExtension": [], "OpEntryPoint": [5, 1],
                         "OpMemberName": [1, 0], "OpExtInstImport": [1]}
"""Operand words before the string, for instructions with a string operand."""


@pytest.mark.parametrize("name", STRING_OPERAND_PREFIX)
def test_bytes_after_a_strings_nul_are_kept_for_every_string_operand(name):
    prefix = STRING_OPERAND_PREFIX[name]
    opcode = load_grammar().by_name[name].opcode
    words = [0x07230203, 0x00010000, 0, 2, 0, ((2 + len(prefix)) << 16) | opcode, *prefix, 0x01006261]
    data = struct.pack(f"<{len(words)}I", *words)
    module = decode(data)
    assert [d.word_offset for d in module.diagnostics] == [len(words) - 1]
    assert text_round_trip(data, LOSSLESS) == data


@pytest.mark.parametrize(
    "data", [b"", b"\x07", b"\x03\x02\x23\x07\x00\x00", struct.pack("<4I", 0x07230203, 1, 2, 3) + b"\xaa"]
)
def test_input_shorter_than_a_header_round_trips(data):
    assert text_round_trip(data, LOSSLESS) == data


@pytest.mark.parametrize("data", [struct.pack(">I", 0x07230203), struct.pack(">4I", 0x07230203, 0x10000, 0, 9) + b"\x01\x02"])
def test_input_shorter_than_a_header_keeps_its_big_endian_byte_order(data):
    module = decode(data)
    assert module.header is None and module.big_endian
    assert "; Byte order: big-endian" in disassemble(module, LOSSLESS)
    assert text_round_trip(data, LOSSLESS) == data


def test_instructions_after_an_incomplete_header_are_refused():
    result = assemble("; SPIR-V\n; Header words: 0x07230203\nOpCapability Shader\n")
    assert not result.ok
    assert "incomplete header" in result.diagnostics[0].message


def test_odd_header_words_are_kept():
    body = struct.pack("<2I", 0x00020011, 1)
    for header in (
        [0x07230203, 0x00010203, 0, 2, 0],  # a minor-version byte
        [0x07230203, 0x01010000, 0, 2, 0],  # a high byte
        [0x07230203, 0x00010000, 0xFFFF0001, 2, 0],  # an unregistered tool
        [0xDEADBEEF, 0x00010000, 0, 2, 0],  # not the magic number
    ):
        data = struct.pack("<5I", *header) + body
        assert text_round_trip(data, LOSSLESS) == data


@pytest.mark.parametrize(("width", "value"), [(4, 0x3), (31, 0x41200000), (12, 0xFFF), (48, 0x123456789ABC)])
def test_constants_of_floats_with_no_ieee_layout_round_trip_as_their_bits(width, value):
    literal = [value & 0xFFFFFFFF] + ([value >> 32] if width > 32 else [])
    words = [0x07230203, 0x00010000, 0, 3, 0, 0x00030016, 1, width, ((3 + len(literal)) << 16) | 0x2B, 1, 2, *literal]
    data = struct.pack(f"<{len(words)}I", *words)
    assert not decode(data).diagnostics
    assert text_round_trip(data, RAW_ID) == data


def test_a_65535_byte_name_round_trips_with_raw_ids():
    name = b"a" * 65535 + b"\0"
    name += b"\0" * (-len(name) % 4)
    words = [0x07230203, 0x00010000, 0, 2, 0, 0x00020011, 1, ((2 + len(name) // 4) << 16) | 5, 1]
    data = struct.pack(f"<{len(words)}I", *words) + name
    assert not decode(data).diagnostics
    assert text_round_trip(data, RAW_ID) == data
    assert text_round_trip(data, LOSSLESS) == data


def test_valid_module_with_debug_names_round_trips_through_the_command_line(tmp_path):
    data = EXAMPLE_MODULE.read_bytes()
    assert "OpName" in disassemble(decode(data))
    assert cli_round_trip(tmp_path, data, "--lossless") == data


def test_lossless_form_of_a_valid_module_is_the_raw_id_form():
    module = decode(EXAMPLE_MODULE.read_bytes())
    assert disassemble(module, LOSSLESS) == disassemble(module, RAW_ID)


def test_every_corpus_module_round_trips_lossless_and_raw_id(spv_modules):
    for path in spv_modules:
        data = path.read_bytes()
        assert text_round_trip(data, LOSSLESS) == data, path.name
        if not decode(data).diagnostics:
            assert text_round_trip(data, RAW_ID) == data, path.name


def test_every_corrupted_corpus_module_round_trips_lossless(spv_modules):
    sampled = set(corpus_sample(spv_modules))
    for number, path in enumerate(spv_modules):
        if path not in sampled:
            continue
        for case in corruptions(path.read_bytes(), number):
            assert text_round_trip(case.data, LOSSLESS) == case.data, f"{path.name}: {case.name}"
