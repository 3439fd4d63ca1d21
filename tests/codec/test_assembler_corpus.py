"""The assembler on the shared corpus: every `asm/` file against spirv-as, and every
`spv/` module disassembled by spirv-dis and assembled back, byte for byte."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest
from oracle import corpus_files
from oracle import run_tool

from spvinspect.codec.asm.lexer import tokenize
from spvinspect.codec.asm.assembler import assemble

ASM = corpus_files("asm")
SPV = corpus_files("spv", "*.spv")
NOT_SET = "SPVINSPECT_CORPUS is not set: corpus tests skipped"


def spirv_as_file(path: Path) -> tuple[list[int] | None, int | None]:
    result = run_tool("spirv-as", "--target-env", "spv1.6", "-o", "-", str(path))
    if result.returncode != 0:
        m = re.search(rb"error: (\d+): (\d+):", result.stderr)
        return None, int(m.group(1)) if m else None
    data = result.stdout
    return list(struct.unpack(f"<{len(data) // 4}I", data)), None


def spirv_dis(path: Path, *flags: str) -> str:
    result = run_tool("spirv-dis", "--no-color", *flags, str(path))
    assert result.returncode == 0, result.stderr.decode()
    return result.stdout.decode("utf-8", "surrogateescape")


def failures_over(paths: list[Path], check) -> list[str]:
    """`check(path)` on every file: the assertion messages of those that fail, by name (one
    test over the whole directory, not a test per file: a few thousand tests of a few
    milliseconds each cost the suite more in per-test overhead than in checking)."""
    failures = []
    for path in paths:
        try:
            check(path)
        except AssertionError as error:
            failures.append(f"{path.name}: {error}")
    return failures


def same_as_spirv_as(path: Path) -> None:
    expected, line = spirv_as_file(path)
    result = assemble(path.read_bytes().decode("utf-8", "surrogateescape"), target_env="spv1.6")
    if expected is None:
        assert result.words is None, f"spirv-as rejects {path.name} (line {line}); we accept it"
        assert result.diagnostics[0].line == line, (
            f"spirv-as rejects line {line}; we say {result.diagnostics[0].format(path.name)}"
        )
        return
    assert result.words is not None, result.diagnostics[0].format(path.name)
    ours = list(result.words)
    ours[2] = expected[2]
    assert ours == expected, f"{path.name}: words differ from spirv-as"


@pytest.mark.skipif(not ASM, reason=NOT_SET)
def test_asm_corpus_same_as_spirv_as() -> None:
    failures = failures_over(ASM, same_as_spirv_as)
    assert not failures, f"{len(failures)} of {len(ASM)} differ:\n" + "\n".join(failures[:10])


def round_trips(path: Path) -> None:
    """Raw-id text reassembles exactly; friendly-named text does with the names'
    numbers (which the disassembler that chose the names knows) as hints."""
    module = path.read_bytes()
    raw = spirv_dis(path, "--raw-id")
    assert assemble(raw).binary == module, "--raw-id disassembly does not round-trip"
    friendly = spirv_dis(path)
    hints = {
        name: int(number[1:])
        for name, number in zip(tokenize(friendly), tokenize(raw))
        if name[:1] == "%" and name != number
    }
    assert assemble(friendly, id_hints=hints).binary == module, "friendly disassembly does not round-trip"


@pytest.mark.skipif(not SPV, reason=NOT_SET)
def test_spv_round_trip() -> None:
    """Every `spv/` module through spirv-dis, raw-id and friendly, and back."""
    failures = failures_over(SPV, round_trips)
    assert not failures, f"{len(failures)} of {len(SPV)} do not round-trip:\n" + "\n".join(failures[:10])
