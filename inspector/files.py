"""Writing a file the way users expect from an editor: whole or not at all.

A regular file (or a new one) is replaced atomically: the data goes to a temporary file
in the same directory, is flushed and synced, takes the old file's permission bits (and
owner, when the process may give it away), and is renamed over the old name, so a
failure at any point leaves the old file as it was. A symbolic link is followed to the
file it names, which is the one replaced; the link stays a link. Anything that is not a
regular file (a device such as /dev/null, a FIFO, a terminal) is written directly and
never replaced, and so is a process's own descriptor (/dev/stdout, /dev/fd/N), which is
written through the descriptor itself so an appending redirection keeps appending.

A regular file with several hard links is replaced under the name written only; the
other names keep the old contents.

This module knows nothing of the interface: it raises `WriteError`, whose text says
what failed, and callers show it as they see fit.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from collections.abc import Iterable
from pathlib import Path

MAX_LINKS = 40
"""Symbolic links followed before giving up, as the kernel's ELOOP limit does."""


class WriteError(OSError):
    """A file could not be written; `str(error)` is the reason in words, `filename` the file."""

    def __str__(self) -> str:
        return self.strerror or "cannot write"


def write_file(
    path: str | os.PathLike[str], data: bytes | Iterable[bytes], *, backup: bool = False
) -> None:
    """Write `data` to `path` whole, or raise `WriteError` and leave `path` as it was.
    `data` may be an iterable of byte strings, written one by one as they come (a large
    output then never needs to be in memory at once).

    A file the process may not write is refused, as an ordinary open() would refuse it,
    even though the directory would allow replacing it. With `backup`, an existing
    regular file is first kept as `FILE.bak` next to it (replacing an older `.bak`); a
    device or FIFO has nothing to keep.
    """
    target, descriptor = _follow_links(os.fspath(path))
    if descriptor is not None:
        _write_all(descriptor, data, target)
        return
    try:
        existing = os.stat(target)
    except FileNotFoundError:
        existing = None
    except OSError as error:
        raise _directory_error(error, os.path.dirname(target) or ".", target) from error
    if existing is not None and stat.S_ISDIR(existing.st_mode):
        raise WriteError(errno.EISDIR, f"{target} is a directory", target)
    if existing is not None and not stat.S_ISREG(existing.st_mode):
        _write_in_place(target, data)
        return
    if existing is not None and not os.access(target, os.W_OK):
        raise WriteError(errno.EACCES, f"{target} is read-only", target)
    if backup and existing is not None:
        _replace(target + ".bak", _read(target), existing)
    _replace(target, data, existing)


def _follow_links(path: str) -> tuple[str, int | None]:
    """The file a path names once its symbolic links are followed, and, when the chain
    reaches one of this process's open descriptors, that descriptor's number.

    Links under /proc are not followed further: their targets (`pipe:[…]`, a file the
    shell opened) are only reachable by opening the link itself.
    """
    own_descriptor = re.compile(rf"/(?:dev/fd|proc/(?:self|thread-self|{os.getpid()})/fd)/(\d+)")
    for _ in range(MAX_LINKS):
        absolute = os.path.abspath(path)
        match = own_descriptor.fullmatch(absolute)
        if match:
            return path, int(match.group(1))
        if absolute.startswith("/proc/") or not os.path.islink(path):
            return path, None
        path = os.path.join(os.path.dirname(path), os.readlink(path))
    raise WriteError(errno.ELOOP, f"{path}: too many levels of symbolic links", path)


def _replace(target: str, data: bytes, existing: os.stat_result | None) -> None:
    """Write `target` through a synced temporary file renamed over it."""
    directory = os.path.dirname(target) or "."
    fd, temporary = _create_temporary(directory, os.path.basename(target))
    try:
        if existing is not None:
            os.fchmod(fd, stat.S_IMODE(existing.st_mode))
            _keep_owner(fd, existing)
        _write_all(fd, data, target)
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(temporary, target)
    except OSError as error:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise _error(error, target) from error
    _sync_directory(directory)


def _create_temporary(directory: str, name: str) -> tuple[int, str]:
    """A new, empty file beside the target, created with the mode a plain open() gives
    (0o666 less the umask, applied by the kernel: reading the umask is not thread-safe)."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC
    while True:
        temporary = os.path.join(directory, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(temporary, flags, 0o666), temporary
        except FileExistsError:
            continue
        except OSError as error:
            raise _directory_error(error, directory, os.path.join(directory, name)) from error


def _keep_owner(fd: int, existing: os.stat_result) -> None:
    """Give the new file the old one's owner and group, when the process may."""
    made = os.fstat(fd)
    if (made.st_uid, made.st_gid) != (existing.st_uid, existing.st_gid):
        with contextlib.suppress(PermissionError):
            os.fchown(fd, existing.st_uid, existing.st_gid)


def _sync_directory(directory: str) -> None:
    """Make the rename durable. Some file systems cannot sync a directory; the rename
    itself has happened by then, so that is not a failure to write."""
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_in_place(target: str, data: bytes) -> None:
    """Write a device, FIFO or other special file through an ordinary open."""
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CLOEXEC)
    except OSError as error:
        raise _error(error, target) from error
    try:
        _write_all(fd, data, target)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes | Iterable[bytes], target: str) -> None:
    """Write every byte of `data` (or of each of its pieces) to `fd` (os.write may write
    less than asked)."""
    pieces = (data,) if isinstance(data, (bytes, bytearray, memoryview)) else data
    try:
        for piece in pieces:
            view = memoryview(piece).cast("B")
            while view:
                view = view[os.write(fd, view) :]
    except OSError as error:
        raise _error(error, target) from error


def _read(target: str) -> bytes:
    """The current contents of `target`, for its backup."""
    try:
        return Path(target).read_bytes()
    except OSError as error:
        raise _error(error, target) from error


def _directory_error(error: OSError, directory: str, target: str) -> WriteError:
    """Why no file can be created in `directory`, in words."""
    if error.errno == errno.ENOENT:
        reason = f"directory {directory} does not exist"
    elif error.errno == errno.ENOTDIR:
        reason = f"{directory} is not a directory"
    elif error.errno in (errno.EACCES, errno.EPERM):
        reason = f"directory {directory} is not writable"
    elif error.errno == errno.EROFS:
        reason = f"directory {directory} is on a read-only file system"
    else:
        return _error(error, target)
    return WriteError(error.errno, reason, target)


def _error(error: OSError, target: str) -> WriteError:
    """`error` as a WriteError naming `target`."""
    if isinstance(error, WriteError):
        return error
    return WriteError(error.errno, error.strerror or str(error), target)
