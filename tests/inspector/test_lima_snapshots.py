"""Snapshots of Lima mode at 120x40 and 80x24: an MBS file with a field's bits picked out
in the hex pane, the real instruction of ENCODING.md in Mesa's syntax, a damaged stream."""

from __future__ import annotations

from lima_apps import REAL_INSTRUCTION, launched, mbs_file, program_words, to_bytes


def test_mbs_120x40(snap_compare, monkeypatch, tmp_path):
    # Instruction 1, the breakdown on vec4_acc's first source: its bits in the hex pane.
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    assert snap_compare(app, terminal_size=(120, 40), press=["n", "5", "right_square_bracket", "right_square_bracket", "down"])


def test_mbs_80x24(snap_compare, monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, mbs_file(program_words()))
    assert snap_compare(app, terminal_size=(80, 24), press=["n", "n", "5", "right_square_bracket", "down"])


def test_real_instruction_mesa_80x24(snap_compare, monkeypatch, tmp_path):
    app = launched(monkeypatch, tmp_path, to_bytes(REAL_INSTRUCTION), "--lima", name="real.bin")
    assert snap_compare(app, terminal_size=(80, 24), press=["m", "5", "right_square_bracket", "down"])


def test_real_instruction_hex_zoomed_80x24(snap_compare, monkeypatch, tmp_path):
    # The op of vec4_mul, bits 6-10 of word 2, picked out in the zoomed hex pane.
    app = launched(monkeypatch, tmp_path, to_bytes(REAL_INSTRUCTION), "--lima", name="real.bin")
    assert snap_compare(app, terminal_size=(80, 24), press=["5", "right_square_bracket", *["down"] * 12, "4"])


def test_damaged_stream_120x40(snap_compare, monkeypatch, tmp_path):
    words = program_words()
    app = launched(monkeypatch, tmp_path, to_bytes(words[:-3]) + b"\xff", "--lima", name="broken.bin")
    assert snap_compare(app, terminal_size=(120, 40), press=["end"])


def test_damaged_stream_80x24(snap_compare, monkeypatch, tmp_path):
    words = program_words()
    app = launched(monkeypatch, tmp_path, to_bytes(words[:-3]) + b"\xff", "--lima", name="broken.bin")
    assert snap_compare(app, terminal_size=(80, 24), press=["end"])
