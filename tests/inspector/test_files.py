"""Output files written whole or not at all: through symbolic links, devices and FIFOs
written directly, permission bits kept, the old file intact after any failure."""

from __future__ import annotations

import errno
import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from spvinspect.cli import main
from spvinspect.files import WriteError, write_file

EXAMPLE = Path(__file__).resolve().parents[2] / "inspector" / "examples" / "example.spv"


def leftovers(directory: Path) -> list[str]:
    """Temporary files a write left behind."""
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_new_file_gets_the_mode_a_plain_open_gives(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.write_bytes(b"")
    write_file(tmp_path / "out.bin", b"\x01\x02")
    assert (tmp_path / "out.bin").read_bytes() == b"\x01\x02"
    assert stat.S_IMODE((tmp_path / "out.bin").stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)
    assert leftovers(tmp_path) == []


def test_existing_file_keeps_its_permission_bits(tmp_path: Path) -> None:
    out = tmp_path / "out.spvasm"
    out.write_bytes(b"old")
    out.chmod(0o751)
    write_file(out, b"new")
    assert out.read_bytes() == b"new"
    assert stat.S_IMODE(out.stat().st_mode) == 0o751


def test_existing_file_keeps_its_owner_when_the_writer_may_give_it(tmp_path: Path) -> None:
    out = tmp_path / "theirs.spv"
    out.write_bytes(b"old")
    try:
        os.chown(out, 12345, 54321)
    except PermissionError:
        pytest.skip("only root can give a file to another owner")
    write_file(out, b"new")
    assert (out.stat().st_uid, out.stat().st_gid) == (12345, 54321)


def test_symlink_is_written_through_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "real" / "module.spv"
    target.parent.mkdir()
    target.write_bytes(b"old")
    target.chmod(0o640)
    (tmp_path / "middle").symlink_to("real/module.spv")
    link = tmp_path / "link.spv"
    link.symlink_to(tmp_path / "middle")
    write_file(link, b"new")
    assert link.is_symlink() and (tmp_path / "middle").is_symlink()
    assert target.read_bytes() == b"new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert leftovers(tmp_path) == [] and leftovers(target.parent) == []


def test_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    link = tmp_path / "link"
    link.symlink_to("made.bin")
    write_file(link, b"data")
    assert link.is_symlink() and (tmp_path / "made.bin").read_bytes() == b"data"


def test_cli_output_through_a_symlink(tmp_path: Path, capsys) -> None:
    target = tmp_path / "listing.spvasm"
    target.write_text("old")
    link = tmp_path / "link.spvasm"
    link.symlink_to(target)
    assert main(["dis", str(EXAMPLE), "-o", str(link)]) == 0
    assert link.is_symlink()
    assert "OpCapability Shader" in target.read_text()


@contextmanager
def fifo_read(tmp_path: Path) -> Iterator[tuple[Path, list[bytes]]]:
    """A FIFO, and the list that gets what a thread reads from it until the block ends."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    yield fifo, received
    reader.join(timeout=10)


def test_fifo_is_written_directly(tmp_path: Path) -> None:
    with fifo_read(tmp_path) as (fifo, received):
        write_file(fifo, b"through the pipe")
    assert received == [b"through the pipe"]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert leftovers(tmp_path) == []


def test_cli_output_into_a_fifo(tmp_path: Path) -> None:
    with fifo_read(tmp_path) as (fifo, received):
        assert main(["dis", str(EXAMPLE), "-o", str(fifo)]) == 0
    assert b"OpCapability Shader" in received[0]
    assert stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.fixture
def null_device(tmp_path: Path) -> Path:
    """A character device that discards writes: /dev/null itself when this process could
    not replace it even if the writer were wrong, else a private twin of it."""
    if not os.access("/dev", os.W_OK):
        return Path("/dev/null")
    twin = tmp_path / "null"
    try:
        os.mknod(twin, stat.S_IFCHR | 0o666, os.stat("/dev/null").st_rdev)
    except PermissionError:
        pytest.skip("/dev is writable here but device nodes cannot be made")
    return twin


def test_device_is_written_never_replaced(null_device: Path, capsys) -> None:
    before = null_device.stat()
    assert main(["dis", str(EXAMPLE), "-o", str(null_device)]) == 0
    after = null_device.stat()
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)
    assert capsys.readouterr().err == ""


def test_own_descriptor_is_written_through_the_descriptor(tmp_path: Path) -> None:
    """/dev/fd/N (and /dev/stdout) write through the open descriptor: an appending
    redirection keeps what was written before."""
    log = tmp_path / "log"
    log.write_bytes(b"before\n")
    inode = log.stat().st_ino
    fd = os.open(log, os.O_WRONLY | os.O_APPEND)
    try:
        write_file(f"/dev/fd/{fd}", b"after\n")
    finally:
        os.close(fd)
    assert log.read_bytes() == b"before\nafter\n"
    assert log.stat().st_ino == inode


def test_cli_output_to_dev_stdout(capfd) -> None:
    assert main(["dis", str(EXAMPLE), "-o", "/dev/stdout"]) == 0
    out, err = capfd.readouterr()
    assert "OpCapability Shader" in out and err == ""


def test_read_only_directory_gives_a_clear_message(tmp_path: Path) -> None:
    directory = tmp_path / "locked"
    directory.mkdir()
    (directory / "out.spv").write_bytes(b"old")
    directory.chmod(0o555)
    try:
        if os.access(directory, os.W_OK):
            pytest.skip("this process may write into a read-only directory (root)")
        with pytest.raises(WriteError, match=f"directory {directory} is not writable"):
            write_file(directory / "out.spv", b"new")
    finally:
        directory.chmod(0o755)
    assert (directory / "out.spv").read_bytes() == b"old"


def test_directory_refusing_new_files_gives_a_clear_message(tmp_path: Path, monkeypatch, capsys) -> None:
    """What a read-only directory does, for any user (root can write into one anyway):
    creating the temporary file beside the target is refused."""
    out = tmp_path / "out.spv"
    out.write_bytes(b"old")
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    assert main(["dis", str(EXAMPLE), "-o", str(out)]) == 1
    err = capsys.readouterr().err
    assert err == f"{out}: error: cannot write: directory {tmp_path} is not writable\n"
    assert out.read_bytes() == b"old"


def test_read_only_file_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "out.spv"
    out.write_bytes(b"old")
    out.chmod(0o444)
    if os.access(out, os.W_OK):
        pytest.skip("this process may write a read-only file (root)")
    with pytest.raises(WriteError, match="is read-only"):
        write_file(out, b"new")
    assert out.read_bytes() == b"old"


def test_missing_directory_gives_a_clear_message(tmp_path: Path, capsys) -> None:
    out = tmp_path / "absent" / "out.spv"
    assert main(["dis", str(EXAMPLE), "-o", str(out)]) == 1
    assert capsys.readouterr().err == (
        f"{out}: error: cannot write: directory {tmp_path / 'absent'} does not exist\n"
    )


def test_path_under_a_regular_file_gives_a_clear_message(tmp_path: Path) -> None:
    (tmp_path / "file").write_bytes(b"")
    with pytest.raises(WriteError, match=f"{tmp_path / 'file'} is not a directory"):
        write_file(tmp_path / "file" / "out.spv", b"new")


def test_directory_target_gives_a_clear_message(tmp_path: Path) -> None:
    with pytest.raises(WriteError, match=f"{tmp_path} is a directory"):
        write_file(tmp_path, b"new")


@pytest.mark.parametrize("failing", ["write", "fsync", "replace"])
def test_failure_before_the_rename_leaves_the_original_intact(tmp_path: Path, monkeypatch, failing: str) -> None:
    out = tmp_path / "out.spv"
    out.write_bytes(b"original")
    out.chmod(0o600)

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, failing, disk_full)
    with pytest.raises(WriteError, match="No space left on device") as raised:
        write_file(out, b"replacement that never lands")
    monkeypatch.undo()
    assert raised.value.filename == str(out) and raised.value.errno == errno.ENOSPC
    assert out.read_bytes() == b"original"
    assert stat.S_IMODE(out.stat().st_mode) == 0o600
    assert leftovers(tmp_path) == []


def test_backup_keeps_the_original_beside_the_new_file(tmp_path: Path) -> None:
    out = tmp_path / "module.spv"
    out.write_bytes(b"first")
    out.chmod(0o640)
    write_file(out, b"second", backup=True)
    backup = tmp_path / "module.spv.bak"
    assert (out.read_bytes(), backup.read_bytes()) == (b"second", b"first")
    assert stat.S_IMODE(backup.stat().st_mode) == 0o640
    write_file(out, b"third", backup=True)
    assert (out.read_bytes(), backup.read_bytes()) == (b"third", b"second")
