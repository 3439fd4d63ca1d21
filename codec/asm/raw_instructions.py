"""Instructions the grammar does not describe: those that start with `!<integer>`, whose
words are emitted as they are, and `OpUnknown(opcode, word count)`, which the
disassembler prints for opcodes it does not know."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spvinspect.codec.asm import literals as lit
from spvinspect.codec.asm.errors import AssemblyError, shown
from spvinspect.codec.asm.literal_operands import immediate

if TYPE_CHECKING:
    from spvinspect.codec.asm.encoder import Encoder


def immediate_instruction(encoder: Encoder, i: int) -> int:
    """An instruction that starts with `!<integer>` at word `i`: every word up to the
    next instruction is emitted as it is. Returns the next word index."""
    toks = encoder.toks
    out = encoder.out
    first = toks[i]
    out.append(immediate(first, i))
    start = len(out) - 1
    i += 1
    while i < encoder.n and not encoder.new_instruction(i):
        tok = toks[i]
        if tok == "=":
            raise AssemblyError(f"'=' cannot follow {first}", ("start", i))
        encoder.literals.civ(tok, i, start, 0)
        i += 1
    return i


def unknown_instruction(encoder: Encoder, i: int) -> int:
    """`OpUnknown(opcode, word count) operands…` at word `i`; returns the next word index."""
    toks = encoder.toks
    n = encoder.n
    char = encoder.punctuation

    def expect(j: int, ch: str, what: str) -> None:
        if j >= n:
            raise AssemblyError(f"expected '{ch}' {what}, found the end of the text", ("eof", 0))
        if toks[j] != "" or char(j) != ch:
            found = toks[j] or char(j)
            raise AssemblyError(f"expected '{ch}' {what}, found '{shown(found)}'", ("start", j))

    def number(j: int, what: str) -> int:
        if j >= n:
            raise AssemblyError(f"expected {what}, found the end of the text", ("eof", 0))
        value = lit.parse_u16(toks[j])
        if value is None:
            raise AssemblyError(f"expected {what} (0 to 65535), found '{shown(toks[j])}'", ("start", j))
        return value

    expect(i + 1, "(", "after OpUnknown")
    opcode = number(i + 2, "an opcode number")
    expect(i + 3, ",", "after the opcode number")
    count = number(i + 4, "a word count")
    if count == 0:
        raise AssemblyError("the word count includes the opcode word, so it must be at least 1", ("start", i + 4))
    expect(i + 5, ")", "after the word count")
    out = encoder.out
    start = len(out)
    out.append((count << 16) | opcode)
    i += 6
    for remaining in range(count - 1, 0, -1):
        if i >= n:
            raise AssemblyError(f"expected {remaining} more operands, found the end of the text", ("eof", 0))
        if encoder.new_instruction(i):
            raise AssemblyError(
                f"expected {remaining} more operands, found the next instruction '{shown(toks[i])}'", ("start", i)
            )
        if toks[i] == "=":
            raise AssemblyError("'=' cannot follow OpUnknown", ("start", i))
        encoder.literals.civ(toks[i], i, start, opcode)
        i += 1
    return i
