"""The zoomed breakdown pane (`--pane breakdown`) reads on its own: each strip shows its
words in hex, and a branch names the instruction it jumps to (issue #27 item 13)."""

from __future__ import annotations

import struct

from launched_app import launched_app

from spvinspect import lima
from spvinspect.app import InspectorApp
from spvinspect.widgets.lima_breakdown import LimaBreakdown

PROGRAM = "L0:\nmov.v0 $0 $1\nmov.v0 $1 $0\nstop, branch L0\n"


def launched(monkeypatch, tmp_path, data: bytes, *options: str) -> InspectorApp:
    (tmp_path / "loop.bin").write_bytes(data)
    return launched_app(monkeypatch, tmp_path, ["loop.bin", "--lima", "--theme", "spvinspect-dark", *options])


async def test_zoomed_breakdown_shows_hex_words_and_the_branch_target(monkeypatch, tmp_path):
    words, diagnostics = lima.assemble(PROGRAM)
    assert not diagnostics
    program = lima.decode_words(words)
    branch = program.instructions[2]
    data = struct.pack(f"<{len(words)}I", *words)
    app = launched(monkeypatch, tmp_path, data, "--pane", "breakdown", "--at", hex(4 * branch.word_offset))
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(LimaBreakdown)
        await pilot.pause()
        text = "\n".join(pane.rendered_text())
        assert f"word {branch.word_offset} = 0x{branch.words[0]:08x}" in text
        for offset in range(branch.word_offset + 1, branch.word_offset + len(branch.words)):
            assert f"word {offset} = 0x{words[offset]:08x}" in text
        assert f"{-branch.word_offset:+d} words → word 0: instruction 0 (label L0)" in text
