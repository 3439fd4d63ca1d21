"""`explain`: every word of a module has exactly one line, and each line says what it is."""

from __future__ import annotations

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import open_module
from spvinspect.codec.binary.model import Module
from spvinspect.codec.text.explain import explain
from spvinspect.cli import main
from spvinspect.commands.open import EXAMPLE_MODULE


def assert_every_word_explained(data: bytes, name: str) -> None:
    module = decode(data)
    entries = list(explain(module))
    assert [e.offset for e in entries] == list(range(len(module.words))), name
    for entry in entries:
        assert entry.value == module.words[entry.offset]
        assert entry.text.strip(), f"{name}: word {entry.offset} has no meaning"
    owners = word_owners(module)
    for entry in entries:
        assert (entry.instruction, entry.operand) == owners.get(entry.offset, (None, None)), (
            f"{name}: word {entry.offset} attributed to {entry.instruction, entry.operand}"
        )
    assert list(explain(open_module(data))) == entries, f"{name}: the lazy module explains otherwise"


def word_owners(module: Module) -> dict[int, tuple[int, int | None]]:
    """Instruction index and operand index of every word, from the model's offsets: the
    first word of an instruction has no operand; header and tail words no instruction."""
    owners: dict[int, tuple[int, int | None]] = {}
    for index, inst in enumerate(module.instructions):
        owners[inst.offset] = (index, None)
        for number, operand in enumerate(inst.operands):
            for offset in range(operand.offset, operand.end):
                owners[offset] = (index, number)
    return owners


def test_example_module_lines(capsys):
    assert main(["explain", str(EXAMPLE_MODULE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == EXAMPLE_MODULE.stat().st_size // 4
    assert lines[0] == "0x00000000  07230203  header: magic number 0x07230203 (SPIR-V, little-endian)"
    assert lines[3].endswith("header: bound = 126")
    assert any("OpTypeInt operand 'Width' (LiteralInteger) = 32" in line for line in lines)
    assert any("OpString operand 'String' (LiteralString) bytes 1-4 of 12: 'exam'" in line for line in lines)
    assert any("OpTypeInt word 0: word count 4, opcode 21" in line for line in lines)


def test_every_corpus_word_is_explained(spv_modules):
    for path in spv_modules:
        assert_every_word_explained(path.read_bytes(), path.name)


def test_broken_module_words_are_all_explained():
    data = EXAMPLE_MODULE.read_bytes()
    broken = bytearray(data)
    broken[40:44] = (0x0003FFF0).to_bytes(4, "little")  # an unknown opcode mid-module
    assert_every_word_explained(bytes(broken), "broken")
    truncated = data[: len(data) // 2 + 2]
    assert_every_word_explained(truncated, "truncated")
