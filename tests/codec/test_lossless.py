"""Broken modules: decoding goes on past faults, and `dis --lossless` text assembles back
to the very same bytes."""

from __future__ import annotations

import struct

import pytest
from oracle import corpus_files
from corruptions import corruptions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spvinspect.codec.asm.assembler import assemble
from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.text.disassembler import Disassembler, DisassemblyOptions, disassemble
from spvinspect.commands.open import EXAMPLE_MODULE

LOSSLESS = DisassemblyOptions(lossless=True)
HEADER = [0x07230203, 0x00010500, 0x00080001, 0x40, 0]


def round_trip(data: bytes) -> bytes | None:
    """Lossless text and back, as the editor does it: friendly names (valid modules
    only) are pinned to their numbers by the disassembler's id hints."""
    dis = Disassembler(decode(data), LOSSLESS)
    text = dis.text()
    result = assemble(text, id_hints=dis.id_hints())
    assert result.ok, f"lossless text does not assemble: {result.diagnostics[:3]}\n{text[:2000]}"
    return result.binary


def check_corruption(case, original: bytes) -> None:
    module = decode(case.data)
    if case.fault_instruction is not None:
        at = [d.word_offset for d in module.diagnostics]
        assert any(
            case.fault_instruction <= offset < (case.resumes_at or len(module.words) + 1)
            for offset in at
        ), f"{case.name}: no diagnostic at the corrupted instruction (word {case.fault_instruction}): {at}"
    if case.resumes_at is not None:
        offsets = {inst.offset for inst in module.instructions}
        assert case.resumes_at in offsets or case.resumes_at >= len(module.words), (
            f"{case.name}: decoding did not resume at word {case.resumes_at}"
        )
    assert round_trip(case.data) == case.data, f"{case.name}: lossless round trip differs"


def test_valid_module_lossless_equals_plain_dis():
    module = decode(EXAMPLE_MODULE.read_bytes())
    assert disassemble(module, LOSSLESS) == disassemble(module)


@pytest.mark.parametrize("seed", range(6))
def test_corrupted_example_module(seed):
    original = EXAMPLE_MODULE.read_bytes()
    for case in corruptions(original, seed):
        check_corruption(case, original)


def test_corrupted_corpus_modules(corpus):
    files = corpus_files("spv")[::6]
    assert files
    for number, path in enumerate(files):
        original = path.read_bytes()
        for case in corruptions(original, number):
            try:
                check_corruption(case, original)
            except AssertionError as error:
                raise AssertionError(f"{path.name}: {error}") from None


def test_bad_magic_big_endian_and_trailing_bytes_round_trip():
    body = [0x00020011, 1, 0x0003000E, 0, 1]
    for data in (
        struct.pack("<10I", 0xDEADBEEF, *HEADER[1:], *body),
        struct.pack(">10I", *HEADER, *body) + b"\x07",
        struct.pack("<10I", 0x07230203, 0xFF010203, *HEADER[2:], *body) + b"\x01\x02\x03",
    ):
        assert round_trip(data) == data


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 2**32 - 1), max_size=40), st.binary(max_size=3))
def test_arbitrary_words_behind_a_valid_header_round_trip(words, tail):
    data = struct.pack(f"<{5 + len(words)}I", *HEADER, *words) + tail
    assert round_trip(data) == data


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 6), st.sampled_from([17, 19, 20, 21, 22, 23, 71, 5, 65520]),
                  st.lists(st.integers(0, 70), min_size=6, max_size=6)),
        max_size=12,
    )
)
def test_plausible_instruction_soup_round_trips(instructions):
    """Instructions with real opcodes and small operands: mostly decodable, often not."""
    words = []
    for count, opcode, operands in instructions:
        words.append((count << 16) | opcode)
        words.extend(operands[: count - 1])
    data = struct.pack(f"<{5 + len(words)}I", *HEADER, *words)
    assert round_trip(data) == data
