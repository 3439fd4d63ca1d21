"""Putting new code into an MBS container (`lima.mbs.mbs_with_code`): the chunk sizes on
the way down to the code follow its length, the FINS count follows its instructions, the
rest of the file stays byte for byte, and bytes it cannot use are refused in words."""

from __future__ import annotations

import struct

import pytest
from lima_words import chunk, mbs_file

from spvinspect import lima
from spvinspect.lima.mbs import ContainerError, mbs_with_code, parse_mbs, raw_stream


def code_of(data: bytes) -> bytes:
    parsed = parse_mbs(data)
    return data[parsed.code_offset : parsed.code_offset + parsed.code_size]


def test_longer_code_grows_every_chunk_above_it_and_keeps_the_rest():
    one, _ = lima.assemble("stop, mov.v0 $0 $1")
    three, _ = lima.assemble("mov.v0 $0 $1\nmov.v0 $1 $0\nstop, mov.v0 $0 $1")
    original = mbs_file(one)
    saved = mbs_with_code(original, three)
    parsed = parse_mbs(saved)
    assert parsed.diagnostics == []
    assert code_of(saved) == raw_stream(three)
    grown = len(raw_stream(three)) - len(raw_stream(one))
    assert len(saved) == len(original) + grown
    (top,) = parsed.chunks
    assert top.size == parse_mbs(original).chunks[0].size + grown
    assert saved.endswith(original[-(8 + 8 + 4 + 8 + 12 + 8 + 16):])  # the vertex program, as it was
    assert lima.decode(saved).instructions and len(lima.decode(saved).instructions) == 3


def test_the_fins_count_follows_the_new_code_before_or_after_it():
    one, _ = lima.assemble("stop, mov.v0 $0 $1")
    two, _ = lima.assemble("mov.v0 $0 $1\nstop, mov.v0 $1 $0")
    fins = chunk(b"FINS", struct.pack("<III", 0, 1, 0))
    for body in (chunk(b"DBIN", raw_stream(one)) + fins, fins + chunk(b"DBIN", raw_stream(one))):
        saved = mbs_with_code(chunk(b"MBS1", chunk(b"CFRA", struct.pack("<I", 7) + body)), two)
        parsed = parse_mbs(saved)
        assert parsed.diagnostics == []
        counts = {f.name: f.value for c in parsed.chunks[0].children[0].children if c.ident == "FINS" for f in c.fields}
        assert counts == {"unknown_0": 0, "instructions": 2, "attrib_prefetch": 0}
        assert code_of(saved) == raw_stream(two)


def test_bytes_with_no_container_or_no_code_chunk_are_refused_in_words():
    words, _ = lima.assemble("stop, mov.v0 $0 $1")
    with pytest.raises(ContainerError, match="not an MBS container"):
        mbs_with_code(raw_stream(words), words)
    no_code = mbs_file(words).replace(b"DBIN", b"XBIN", 1)
    with pytest.raises(ContainerError, match="no fragment program code chunk"):
        mbs_with_code(no_code, words)
