"""Pilot steps the editing tests share: wait for the editor, open it at a line, edit a
float constant, type a "save as" name; and the files they open (a module, a Lima program
as a raw stream or inside an MBS container)."""

from __future__ import annotations

import re
import struct
from pathlib import Path

from textual.widgets import Input

from spvinspect import lima
from spvinspect.app import InspectorApp
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument
from spvinspect.widgets.asm_editor import AsmEditor
from waiting import PATIENCE, until

TIMEOUT = PATIENCE
TWO_MOVES = "mov.v0 $0 $1\nstop, mov.v0 $1 $0"
"""A two-instruction Lima program."""


async def settled(pilot) -> None:
    """Wait until the editor is open and its newest text is assembled and shown."""
    app = pilot.app

    def done() -> bool:
        screen = app.screen
        session = getattr(getattr(screen, "editing", None), "edit_session", None)
        return session is not None and screen.editing.editor is not None and not session.busy

    await pilot.pause()
    await until(pilot, done, "the editor open, its newest text assembled")
    await pilot.pause()


async def open_editor(pilot, line_pattern: str | None = None) -> AsmEditor:
    """`e`, then (optionally) the cursor to the end of the first line matching a pattern."""
    await pilot.press("e")
    await settled(pilot)
    editor = pilot.app.screen.editing.editor
    if line_pattern is not None:
        lines = pilot.app.screen.editing.edit_session.lines
        row = next(k for k, line in enumerate(lines) if re.search(line_pattern, line))
        editor.move_cursor((row - editor.first_line, len(lines[row])))
        await pilot.pause()
    return editor


async def edit_a_float(pilot) -> None:
    """An edit that assembles: a 5 typed after a float constant's first digit."""
    await open_editor(pilot, r"= OpConstant %float \d")
    await pilot.press("5")
    await settled(pilot)


async def insert_a_move(pilot) -> AsmEditor:
    """An edit of `TWO_MOVES` that assembles: a third move after the first."""
    editor = await open_editor(pilot, r"^mov\.v0 \$0 \$1$")
    editor.insert("\nmov.v0 $2 $0")
    await settled(pilot)
    return editor


async def ctrl_s_after_a_change_on_disk(pilot, path: Path, data: bytes) -> None:
    """An edit, then `data` written to the open file behind the app's back, then ctrl+s."""
    await edit_a_float(pilot)
    path.write_bytes(data)
    await pilot.press("ctrl+s")
    await pilot.pause()


async def save_as(pilot, path: Path) -> None:
    """f12, and the name typed in."""
    await pilot.press("f12")
    await pilot.pause()
    pilot.app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()


def opened_from(path: Path, data: bytes) -> InspectorApp:
    """The app on a SPIR-V module written to `path` first."""
    path.write_bytes(data)
    return InspectorApp(Document(path.read_bytes(), path))


def lima_opened_from(path: Path, data: bytes) -> InspectorApp:
    """The app in Lima mode on a program written to `path` first."""
    path.write_bytes(data)
    return InspectorApp(LimaDocument(path.read_bytes(), str(path)))


def raw_stream(source: str) -> bytes:
    """The little-endian instruction words of a Lima program."""
    words, _ = lima.assemble(source)
    return struct.pack(f"<{len(words)}I", *words)


def chunk(ident: bytes, body: bytes) -> bytes:
    """An MBS chunk: its four-letter name, its length, its body."""
    return ident + struct.pack("<I", len(body)) + body


def mbs_of(code: bytes, before_code: bytes = b"", code_chunk: bytes = b"DBIN") -> bytes:
    """An MBS file whose fragment program (CFRA) holds `before_code`'s chunks, then `code`."""
    return chunk(b"MBS1", chunk(b"CFRA", struct.pack("<I", 7) + before_code + chunk(code_chunk, code)))
