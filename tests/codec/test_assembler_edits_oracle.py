"""Edited modules against spirv-as: what an editor's buffer looks like mid-keystroke
(a word dropped, repeated, swapped, replaced or inserted) must be accepted or rejected
as spirv-as does, with the same words or an error on the same line.

The edits are seeded, so a failure names a case that can be replayed. Texts with a
line break inside a quoted string are left out: spirv-as does not count those breaks
in its line numbers, and ours are the real lines.
"""

from __future__ import annotations

import random
import re
import struct

import pytest
from oracle import run_tool
from test_assembler_quick_paths import MODULE, apply_edit

from spvinspect.codec.asm.lexer import tokenize
from spvinspect.codec.asm.assembler import assemble

NEW_WORDS = [
    "!7", "!0x00020011", "=", "%new", "%1", "None", '"s"', "5", "-1", "0x10", "1.5", "-0x1p+3",
    "4294967296", "OpNop", "OpLabel", "OpIAdd", "Volatile|Aligned", "Aligned", "Function",
    "Output", "Location", "Offset", "Flat", "Lod", "Unroll", "Sqrt", ",", "(",
]


def edited(words: list[str], rng: random.Random) -> str:
    words = list(words)
    for _ in range(rng.randint(1, 3)):
        kind = rng.choice(["drop", "repeat", "swap", "replace", "insert", "copy"])
        at = rng.randrange(len(words))
        word = rng.choice(words) if kind == "copy" else rng.choice(NEW_WORDS)
        apply_edit(words, kind, at, word)
    return "\n".join(word or "," for word in words)


def spirv_as(text: str) -> tuple[list[int] | None, int | None]:
    result = run_tool("spirv-as", "--target-env", "spv1.6", "-o", "-", "-", input=text.encode("utf-8"))
    if result.returncode == 0:
        return list(struct.unpack(f"<{len(result.stdout) // 4}I", result.stdout)), None
    m = re.search(rb"error: (\d+):", result.stderr)
    return None, int(m.group(1)) if m else None


def disagreement(text: str) -> str | None:
    """None when we and spirv-as agree on `text`, else what differs."""
    expected, line = spirv_as(text)
    result = assemble(text, target_env="spv1.6")
    if expected is None:
        if result.words is not None:
            return f"spirv-as rejects (line {line}), we accept"
        if result.diagnostics[0].line != line:
            return f"spirv-as rejects on line {line}, we say {result.diagnostics[0].format()}"
        return None
    if result.words is None:
        return f"spirv-as accepts, we say {result.diagnostics[0].format()}"
    ours = list(result.words)
    ours[2] = expected[2]
    return None if ours == expected else "the words differ"


def check(sources: list[list[str]], cases: int, seed: int) -> None:
    rng = random.Random(seed)
    failures = []
    for case in range(cases):
        text = edited(rng.choice(sources), rng)
        problem = disagreement(text)
        if problem:
            failures.append(f"case {case}: {problem}\n{text[:400]}")
    assert not failures, f"{len(failures)} of {cases} disagree:\n\n" + "\n\n".join(failures[:3])


def test_edited_module_of_every_quick_shape() -> None:
    check([tokenize(MODULE)], cases=200, seed=1)


def test_edited_corpus_assembly(corpus) -> None:
    sources = []
    for path in sorted((corpus / "asm").iterdir())[::5]:
        words = tokenize(path.read_text(encoding="utf-8"))
        if len(words) < 3000 and not any("\n" in word for word in words):
            sources.append(words)
    if not sources:
        pytest.skip("no assembly files in the corpus")
    check(sources, cases=150, seed=2)
