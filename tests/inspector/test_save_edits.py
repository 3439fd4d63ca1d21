"""Saving an edit: atomic, .bak on the first save, changed-on-disk detection, clear failures
that keep the edit, never a binary that failed to assemble."""

from __future__ import annotations

import errno
import os
import struct

from spvinspect import lima
import pytest

from spvinspect.commands.open import EXAMPLE_MODULE
from spvinspect.editing.lima_assembler import open_lima_session
from spvinspect.editing.saving import (
    ChangedOnDisk, NotAssembled, SavedFile, SaveError, WouldReplace, save_assembly, save_binary,
)
from spvinspect.editing.lima_saving import save_lima
from spvinspect.editing.session import EditSession
from spvinspect.editing.spirv_assembler import open_spirv_session
from spvinspect.lima.mbs import parse_mbs, raw_stream as lima_raw


def settled(session: EditSession) -> EditSession:
    while (job := session.request()) is not None:
        session.accept(job.run())
    return session


@pytest.fixture
def opened(tmp_path):
    """The example module copied to a file, with its editing session and saved file."""
    path = tmp_path / "module.spv"
    path.write_bytes(EXAMPLE_MODULE.read_bytes())
    return path, settled(open_spirv_session(path.read_bytes())), SavedFile(path)


def edit_a_constant(session: EditSession) -> None:
    row = next(i for i, line in enumerate(session.lines) if "OpConstant %float " in line)
    end = len(session.lines[row])
    session.edit((row, end), (row, end), "5")
    settled(session)


def test_unchanged_text_saves_byte_identical_and_keeps_a_backup(opened):
    path, session, file = opened
    original = path.read_bytes()
    save_binary(session, file)
    assert path.read_bytes() == original
    assert file.backup_path.read_bytes() == original


def test_the_backup_is_the_original_even_after_later_saves(opened):
    path, session, file = opened
    original = path.read_bytes()
    edit_a_constant(session)
    assert session.modified
    save_binary(session, file)
    assert path.read_bytes() == session.binary != original
    assert not session.modified
    edit_a_constant(session)
    save_binary(session, file)
    assert file.backup_path.read_bytes() == original


def test_a_failure_before_the_rename_leaves_the_original(opened, monkeypatch):
    path, session, file = opened
    original = path.read_bytes()
    edit_a_constant(session)

    def failing_replace(source, target):
        if str(target) == str(path):
            raise OSError(errno.EIO, "Input/output error")
        return os.rename(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    with pytest.raises(SaveError, match="the edit is still in memory"):
        save_binary(session, file)
    assert path.read_bytes() == original
    assert session.modified and "5" in session.text
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []


def test_a_full_disk_is_said_in_words_and_leaves_the_original(opened, monkeypatch):
    path, session, file = opened
    original = path.read_bytes()
    edit_a_constant(session)
    real_write = os.write

    def full_disk(fd, data):
        if os.fstat(fd).st_size > 0 or len(data) > 100:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(SaveError) as failure:
        save_binary(session, file)
    assert "is full" in str(failure.value) and "still in memory" in str(failure.value)
    assert path.read_bytes() == original


def test_a_file_changed_on_disk_is_not_overwritten_unless_asked(opened):
    path, session, file = opened
    edit_a_constant(session)
    path.write_bytes(path.read_bytes() + b"\0\0\0\0")
    assert file.changed_on_disk()
    with pytest.raises(ChangedOnDisk):
        save_binary(session, file)
    save_binary(session, file, overwrite=True)
    assert path.read_bytes() == session.binary and not file.changed_on_disk()


def test_touching_the_file_without_changing_it_is_not_a_change(opened):
    path, _, file = opened
    os.utime(path, ns=(1, 1))
    assert not file.changed_on_disk()


def test_a_binary_that_failed_to_assemble_is_never_saved(opened):
    path, session, file = opened
    original = path.read_bytes()
    row = next(i for i, line in enumerate(session.lines) if "OpConstant %float " in line)
    session.edit((row, 0), (row, len(session.lines[row])), "%bad = OpConstant %float zz")
    settled(session)
    with pytest.raises(NotAssembled, match=rf"{row + 1}:\d+"):
        save_binary(session, file)
    assert path.read_bytes() == original and not file.backup_path.exists()


def test_an_edit_not_assembled_yet_is_assembled_for_the_save(opened):
    path, session, file = opened
    row = next(i for i, line in enumerate(session.lines) if "OpConstant %float " in line)
    end = len(session.lines[row])
    session.edit((row, end), (row, end), "5")
    assert session.busy
    save_binary(session, file)
    assert path.read_bytes() == settled(session).binary != EXAMPLE_MODULE.read_bytes()


def test_save_as_assembly_text_and_into_a_missing_directory(opened, tmp_path):
    _, session, file = opened
    text_path = save_assembly(session, file, tmp_path / "module.spvasm")
    assert text_path.read_text(encoding="utf-8") == session.text
    with pytest.raises(SaveError, match="does not exist.*still in memory"):
        save_binary(session, file, tmp_path / "no" / "such" / "dir.spv")


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_a_read_only_file_is_said_in_words(opened):
    path, session, file = opened
    path.chmod(0o444)
    with pytest.raises(SaveError, match="read-only"):
        save_binary(session, file)


def chunk(ident: bytes, body: bytes) -> bytes:
    return ident + struct.pack("<I", len(body)) + body


def lima_session(data: bytes, text: str) -> EditSession:
    """A Lima session over `data` whose text is now `text`."""
    session = open_lima_session(data)
    session.replace_lines(0, len(session.lines), text.split("\n"))
    return session


def test_lima_saves_a_raw_stream_and_an_mbs_with_the_edited_code(tmp_path):
    text = "stop, mov.v0 $0 $1"
    words, _ = lima.assemble(text)
    program = chunk(b"CFRA", struct.pack("<I", 7) + chunk(b"FDIS", b"\0" * 4) + chunk(b"DBIN", b"\xee" * 8))
    container = chunk(b"MBS1", program + chunk(b"CVER", struct.pack("<I", 6) + chunk(b"DBIN", b"\xff" * 16)))
    original = tmp_path / "shader.mbs"
    original.write_bytes(container)
    file = SavedFile(original)
    session = lima_session(container, text)
    save_lima(session, file, tmp_path / "shader.bin")
    assert (tmp_path / "shader.bin").read_bytes() == struct.pack(f"<{len(words)}I", *words)
    save_lima(session, file)
    saved = parse_mbs(original.read_bytes())
    assert saved.diagnostics == []
    assert original.read_bytes()[saved.code_offset : saved.code_offset + saved.code_size] == struct.pack(
        f"<{len(words)}I", *words
    )
    assert original.read_bytes().endswith(chunk(b"CVER", struct.pack("<I", 6) + chunk(b"DBIN", b"\xff" * 16)))
    assert file.backup_path.read_bytes() == container
    with pytest.raises(NotAssembled):
        save_lima(lima_session(container, "load.u 1, load.v 1 $0"), file)


def test_an_mbs_saved_with_more_instructions_says_so_in_its_fins_chunk(tmp_path):
    text = "stop, mov.v0 $0 $1"
    one, _ = lima.assemble(text)
    three, _ = lima.assemble("mov.v0 $0 $1\nmov.v0 $1 $0\n" + text)
    fins = chunk(b"FINS", struct.pack("<III", 0, 1, 0))
    program = chunk(b"CFRA", struct.pack("<I", 7) + chunk(b"DBIN", lima_raw(one)) + fins)
    original = tmp_path / "shader.mbs"
    original.write_bytes(chunk(b"MBS1", program))
    save_lima(lima_session(original.read_bytes(), "mov.v0 $0 $1\nmov.v0 $1 $0\n" + text), SavedFile(original))
    saved = parse_mbs(original.read_bytes())
    assert saved.diagnostics == []
    counts = {f.name: f.value for c in saved.chunks[0].children[0].children if c.ident == "FINS" for f in c.fields}
    assert counts["instructions"] == 3
    assert original.read_bytes()[saved.code_offset : saved.code_offset + saved.code_size] == lima_raw(three)


def test_a_raw_stream_is_never_saved_under_an_mbs_name(tmp_path):
    words, _ = lima.assemble("stop, mov.v0 $0 $1")
    raw = tmp_path / "shader.bin"
    raw.write_bytes(lima_raw(words))
    session = lima_session(raw.read_bytes(), "stop, mov.v0 $1 $0")
    with pytest.raises(SaveError, match=r"raw stream with no MBS container.*still in memory"):
        save_lima(session, SavedFile(raw), tmp_path / "shader.MBS")
    assert not (tmp_path / "shader.MBS").exists()


def test_a_damaged_mbs_is_refused_in_words_and_its_code_can_still_be_saved_raw(tmp_path):
    words, _ = lima.assemble("stop, mov.v0 $0 $1")
    damaged = chunk(b"MBS1", chunk(b"CFRA", struct.pack("<I", 7) + chunk(b"XBIN", lima_raw(words))))
    path = tmp_path / "shader.mbs"
    path.write_bytes(damaged)
    session = lima_session(damaged, "stop, mov.v0 $1 $0")
    with pytest.raises(SaveError, match="no fragment program code chunk.*still in memory"):
        save_lima(session, SavedFile(path))
    assert path.read_bytes() == damaged
    save_lima(session, SavedFile(path), tmp_path / "shader.bin")
    assert (tmp_path / "shader.bin").read_bytes() == lima_raw(lima.assemble("stop, mov.v0 $1 $0")[0])


def test_the_file_as_opened_is_the_bytes_read_not_the_file_when_the_editor_opens(opened):
    path, session, _ = opened
    opened_bytes = path.read_bytes()
    file = SavedFile.opened(path, opened_bytes)
    path.write_bytes(b"another module")
    assert file.changed_on_disk() and file.poll() and not file.poll()  # told once
    with pytest.raises(ChangedOnDisk):
        save_binary(session, file)
    assert path.read_bytes() == b"another module"
    save_binary(session, file, overwrite=True)
    assert file.backup_path.read_bytes() == b"another module"  # what the save replaced
    assert not file.changed_on_disk() and not file.poll()


def test_save_as_onto_an_existing_file_asks_and_keeps_what_it_replaces(opened, tmp_path):
    _, session, file = opened
    other = tmp_path / "other.spv"
    other.write_bytes(b"another module")
    with pytest.raises(WouldReplace):
        save_binary(session, file, other)
    with pytest.raises(WouldReplace):
        save_assembly(session, file, other)
    assert other.read_bytes() == b"another module"
    save_binary(session, file, other, overwrite=True)
    assert other.read_bytes() == session.binary
    assert (tmp_path / "other.spv.bak").read_bytes() == b"another module"
    save_binary(session, file, tmp_path / "new.spv")  # a new name needs no question
    assert not (tmp_path / "new.spv.bak").exists()


def test_a_lima_edit_in_mesa_syntax_saves_what_the_editor_assembled(tmp_path):
    raw = tmp_path / "shader.bin"
    seed_words, _ = lima.assemble("mov.v0 $0 $1\nstop, mov.v0 $1 $0")
    raw.write_bytes(lima_raw(seed_words))
    mesa_text = "\n".join(lima.listing_lines(lima.decode(raw.read_bytes()), style="mesa"))
    session = lima_session(raw.read_bytes(), mesa_text)
    assert session.assembles, session.messages()
    save_lima(session, SavedFile(raw), tmp_path / "again.bin")
    assert (tmp_path / "again.bin").read_bytes() == raw.read_bytes()
