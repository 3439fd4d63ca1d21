"""Lima mode's editing session: seed-004 text re-assembles into the raw stream or the MBS."""

from __future__ import annotations

import struct

from spvinspect import lima

from spvinspect.editing.lima_fix import fixed_line
from spvinspect.editing.lima_assembler import open_lima_session
from spvinspect.editing.session import EditSession
from spvinspect.lima.mbs import parse_mbs

PROGRAM = "stop, mov.v0 $0 $1"


def settled(session: EditSession) -> EditSession:
    while (job := session.request()) is not None:
        session.accept(job.run())
    return session


def raw(text: str) -> bytes:
    words, diagnostics = lima.assemble(text)
    assert diagnostics == []
    return struct.pack(f"<{len(words)}I", *words)


def chunk(ident: bytes, body: bytes) -> bytes:
    return ident + struct.pack("<I", len(body)) + body


def test_unchanged_text_gives_back_the_stream():
    data = raw(PROGRAM)
    session = settled(open_lima_session(data))
    assert session.binary == data and not session.changed and session.assembles


def test_an_order_error_keeps_the_last_good_file_and_the_fix_clears_it():
    data = raw(PROGRAM)
    session = settled(open_lima_session(data))
    row = next(i for i, line in enumerate(session.lines) if "mov.v0" in line)
    session.replace_lines(row, row + 1, ["load.u 1, load.v 1 $0"])
    settled(session)
    assert not session.assembles and session.binary == data
    messages = session.messages()
    assert [m.line for m in messages] == [row, row]
    fixed = fixed_line(session.lines[row], [m.diagnostic.message for m in messages])
    session.replace_lines(row, row + 1, [fixed])
    settled(session)
    assert session.assembles and session.binary == raw("load.v $0 1, load.u 1") and session.changed


def test_an_mbs_file_keeps_its_container_around_the_edited_code():
    code = raw(PROGRAM)
    container = chunk(b"MBS1", chunk(b"CFRA", struct.pack("<I", 7) + chunk(b"DBIN", code)))
    session = settled(open_lima_session(container))
    assert session.binary == container
    row = next(i for i, line in enumerate(session.lines) if "mov.v0" in line)
    session.replace_lines(row, row + 1, ["stop, mov.v0 $0 $2"])
    settled(session)
    parsed = parse_mbs(session.binary)
    assert parsed.diagnostics == []
    assert session.binary[parsed.code_offset : parsed.code_offset + parsed.code_size] == raw("stop, mov.v0 $0 $2")
    assert session.changed.count >= 1
