"""What `spvinspect lima dis` prints: chunks and undecoded words as comments around the code."""

from __future__ import annotations

from spvinspect.lima.disasm_mesa import mesa_line
from spvinspect.lima.disasm_seed import seed_lines
from spvinspect.lima.explain import chunk_lines
from spvinspect.lima.model import LimaProgram

STYLES = ("seed", "mesa")
"""seed: the proposed syntax, which `lima.assemble` reads back; mesa: Mesa's disassembler."""


def listing_lines(program: LimaProgram, style: str = "seed", offsets: bool = False) -> list[str]:
    """The MBS chunk tree as `#` comments, one line per instruction, then a comment for each
    word after the last decoded instruction. The text assembles back to the words of the
    decoded instructions (in Mesa's style, as far as Mesa prints them). With `offsets`,
    each instruction says its word offset: `@     5: ` before a Mesa line, as Mesa's
    disassembler prints it; a `# @5` comment after a seed line."""
    lines = [f"# {line}" for line in chunk_lines(program.chunks)]
    if style == "mesa":
        for instr in program.instructions:
            line = mesa_line(instr)
            lines.append(f"@{instr.word_offset:6d}: {line}" if offsets else line)
    elif offsets:
        starts = iter(instr.word_offset for instr in program.instructions)
        lines += [line if line.endswith(":") else f"{line}  # @{next(starts)}" for line in seed_lines(program)]
    else:
        lines += seed_lines(program)
    first = sum(len(instr.words) for instr in program.instructions)
    lines += [
        f"# word {first + i}: 0x{word:08x} (not decoded)" for i, word in enumerate(program.trailing_words)
    ]
    return lines
