"""Bytes -> `LimaProgram`: a raw instruction stream or an MBS file, told apart by content."""

from __future__ import annotations

from dataclasses import replace

from spvinspect.lima.decoder import bytes_to_words, decode_words
from spvinspect.lima.mbs import is_mbs, parse_mbs
from spvinspect.lima.model import LimaProgram


def decode(data: bytes) -> LimaProgram:
    """Every instruction, chunk and problem in `data`; never raises.

    An MBS file (starting `MBS1`) gives its chunk tree and the instructions of its first
    fragment program; anything else is read as little-endian instruction words.
    """
    if not is_mbs(data):
        words, problems = bytes_to_words(data)
        program = decode_words(words)
        return replace(program, diagnostics=(*problems, *program.diagnostics))
    container = parse_mbs(data)
    if container.code_offset is None:
        return LimaProgram((), tuple(container.diagnostics), chunks=container.chunks)
    code = data[container.code_offset : container.code_offset + container.code_size]
    words, problems = bytes_to_words(code)
    program = decode_words(words)
    return replace(
        program,
        diagnostics=(*container.diagnostics, *problems, *program.diagnostics),
        chunks=container.chunks,
        code_byte_offset=container.code_offset,
    )
