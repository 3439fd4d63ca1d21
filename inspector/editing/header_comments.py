"""Edits of the text before the first instruction: the header comments, without a whole assembly.

The lines before a text's first instruction hold no words of an instruction, only
comments; in a whole module's text the first of them are the header comments, which
give the five header words (`codec.asm.header.read_header_comment`: version, generator,
bound, schema, or the words verbatim, the byte order and trailing bytes). An edit there
changes the header words only, as the whole run would write them; an edit at a region's
top (comments between two instructions of the whole text) changes no word. A new version
changes nothing else when every opcode the text uses is accepted for both. Anything that
could change more (a word that is not a comment, an opcode the new version does not
accept, a header number that does not fit) is left to the whole assembly (None).
"""

from __future__ import annotations

from array import array

import numpy as np
from dataclasses import replace

from spvinspect.codec.asm.header import (
    ASSEMBLER_GENERATOR, DEFAULT_VERSION, MAGIC, HeaderError, read_header_comment,
)
from spvinspect.codec.asm.lexer import tokenize
from spvinspect.codec.asm.plans import load_plans
from spvinspect.editing.assembly_state import AssemblyState
from spvinspect.editing.dependents import instruction_starts


def spliced(state: AssemblyState, lines: list[str], change: tuple[int, int, int]) -> AssemblyState | None:
    """The assembly of `lines`, which differ from `state`'s text in lines [first, old
    end) → [first, new end) before its first instruction; None when the whole text must
    be assembled."""
    first, old_end, new_end = change
    group_lines = state.group_lines
    top = group_lines[0]
    if old_end > top:
        return None
    line_delta = new_end - old_end
    prelude = "\n".join(lines[: top + line_delta])
    if "\0" in prelude or tokenize(prelude) or tokenize(prelude + "\nOpNop") != ["OpNop"]:
        return None
    if state.words_end is not None:  # a region's top: comments between two instructions
        if state.group_words[0] <= 5:
            return None
        words, big_endian, trailing, declared = state.words, state.big_endian, state.trailing_bytes, state.declared
    else:
        found = _header(state, lines, prelude)
        if found is None:
            return None
        header_words, big_endian, trailing, declared = found
        words = header_words + state.words[5:]
    unpinned = state.unpinned
    if unpinned is not None:
        unpinned = {name: line + line_delta for name, line in unpinned.items()}
    return AssemblyState(
        lines, words, big_endian, trailing, declared, state.counts,
        array("I", [line + line_delta for line in group_lines]), state.group_words, unpinned,
        full=False, word_change=(5, 5, 5),  # no instruction changed
        words_end=state.words_end,
    )


def _header(state: AssemblyState, lines: list[str], prelude: str):
    """The header words the whole run writes for a text whose lines before the first
    instruction are `prelude` (the text's last lines may hold the trailing bytes), with
    the byte order, trailing bytes and tables; None when the instructions could read
    differently (another version) or the header does not parse."""
    last = len(lines) - 1
    while last > 0 and not lines[last].strip():
        last -= 1
    probe = prelude + "\n" + "\n".join(lines[last:])
    try:
        header = read_header_comment(probe, load_plans().grammar)
    except HeaderError:
        return None
    declared = state.declared
    version = header.version if header is not None else DEFAULT_VERSION
    if version != declared.version:
        if not _same_encoding(state, version):
            return None
        declared = replace(declared, version=version)
    if header is not None and header.words is not None:
        if len(header.words) != 5:
            return None
        words = array("I", header.words)
        return words, header.big_endian, header.trailing_bytes, replace(declared, header_bound=None)
    asked = header.bound if header is not None else 0
    bound = _ids_bound(declared.numbers)
    if bound is None:
        return None
    generator = header.generator if header is not None and header.generator is not None else ASSEMBLER_GENERATOR
    schema = header.schema if header is not None else 0
    words = array("I", (MAGIC, version, generator, max(bound, asked), schema))
    return words, False, b"", replace(declared, header_bound=asked)


def _same_encoding(state: AssemblyState, version: int) -> bool:
    """True when the text's instructions encode as they do for its version for
    `version` too: the version only decides which opcodes the assembler accepts (those
    of the instructions, and those OpSpecConstantOp names), so every one used must be
    known and accepted for both."""
    words = state.words
    view = np.frombuffer(words, dtype=np.uint32)
    starts = instruction_starts(view, state.group_words, len(words))
    if starts is None:
        return False
    program = load_plans().program
    opcodes = (view[starts] & 0xFFFF).astype(np.int64)
    spec_op = program.grammar.by_name["OpSpecConstantOp"].opcode
    embedded = starts[(opcodes == spec_op) & ((view[starts] >> 16) >= 4)] + 3
    by_opcode = program.by_opcode
    for opcode in set(np.unique(opcodes).tolist()) | set(view[embedded].tolist()):
        op = by_opcode.get(opcode)
        if op is None or not (op.available(version) and op.available(state.declared.version)):
            return False
    return True


def _ids_bound(numbers: dict[str, int]) -> int | None:
    """One past the largest id number (what the whole run's id table gives); None when
    that is 2^32 (the bound wraps)."""
    top = max(numbers.values(), default=0)
    if top >= 0xFFFFFFFF:
        return None
    return max(top + 1, 1)
