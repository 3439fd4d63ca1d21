"""The file a module was opened from: what it looked like on disk, whether someone else
has changed it since, and writing over it (or over any other existing file) only when
the user said so, keeping what a write replaces as `FILE.bak`.

A file's identity is its size, modification time and a SHA-256 digest of its bytes. The
digest of the opened file is the digest of the bytes the app read, computed when first
needed; a check that finds the same size and time hashes nothing, so a periodic check of
a big file costs one `stat`. Textual-free: the interface asks the questions
(`NeedsAnswer.question`) and repeats the write with `overwrite=True`.
"""

from __future__ import annotations

import errno
import hashlib
import os
from pathlib import Path

from spvinspect.files import WriteError, write_file

KEPT = "the edit is still in memory"


class SaveError(Exception):
    """A save that did not happen; `str(error)` says why, in words."""


class NeedsAnswer(SaveError):
    """A save that would replace bytes the user has not seen: `question` asks whether to;
    the same save with `overwrite=True` goes ahead."""

    def __init__(self, message: str, question: str) -> None:
        super().__init__(message)
        self.question = question


class ChangedOnDisk(NeedsAnswer):
    """The opened file changed on disk since it was opened or last saved."""


class WouldReplace(NeedsAnswer):
    """"Save as" onto a file that exists."""


class FileStamp:
    """What a file looked like: size, modification time and (on demand) a digest."""

    __slots__ = ("size", "mtime_ns", "_digest", "_data")

    def __init__(self, size: int, mtime_ns: int, digest: bytes | None = None, data: bytes | None = None) -> None:
        self.size = size
        self.mtime_ns = mtime_ns
        self._digest = digest
        self._data = data
        """The bytes the digest is of, hashed when first asked (then dropped)."""

    @property
    def digest(self) -> bytes:
        """SHA-256 of the file's bytes."""
        if self._digest is None:
            self._digest = hashlib.sha256(self._data or b"").digest()
            self._data = None
        return self._digest

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> FileStamp | None:
        """The file's stamp now (reading and hashing it); None when it cannot be read."""
        try:
            info = os.stat(path)
            data = Path(path).read_bytes()
        except OSError:
            return None
        return cls(info.st_size, info.st_mtime_ns, hashlib.sha256(data).digest())

    @classmethod
    def of_data(cls, path: str | os.PathLike[str], data: bytes) -> FileStamp | None:
        """The stamp of a file known to hold `data` (read or just written): its size and
        time now, the digest of `data`. When the size on disk is not `len(data)` the file
        already differs: the time then matches nothing, so the digest decides."""
        try:
            info = os.stat(path)
        except OSError:
            return None
        mtime = info.st_mtime_ns if info.st_size == len(data) else -1
        return cls(len(data), mtime, data=bytes(data))

    def matches(self, path: str | os.PathLike[str]) -> bool | None:
        """True when the file at `path` has these contents, False when not, None when it
        cannot be read (gone). Hashes the file only when its size is equal and its time is not."""
        try:
            info = os.stat(path)
        except OSError:
            return None
        if info.st_size != self.size:
            return False
        if info.st_mtime_ns == self.mtime_ns:
            return True
        now = FileStamp.of(path)
        if now is None:
            return None
        if now.digest != self.digest:
            return False
        self.mtime_ns = now.mtime_ns  # touched, same bytes: later checks need no hashing
        return True


class SavedFile:
    """The file an editing session was opened from, and how saving over it goes."""

    def __init__(self, path: str | os.PathLike[str], stamp: FileStamp | None = None, *, new: bool = False) -> None:
        self.path = Path(path)
        self.stamp = None if new else stamp if stamp is not None else FileStamp.of(self.path)
        """The file as opened or last saved (None: it did not exist, or `new`: a module
        not opened from a file, whose first save must not replace one unasked)."""
        self.backed_up = False
        """True once the original has been kept as FILE.bak."""
        self._seen: tuple[int, int] | None = None
        """(size, time) of the last foreign change `poll` reported, so it is told once."""

    @classmethod
    def opened(cls, path: str | os.PathLike[str], data: bytes) -> SavedFile:
        """The file the app opened `data` from (its digest is the digest of `data`)."""
        return cls(path, FileStamp.of_data(path, data))

    @property
    def backup_path(self) -> Path:
        """Where the original is kept on the first save: `FILE.bak`."""
        return self.path.with_name(self.path.name + ".bak")

    def changed_on_disk(self) -> bool:
        """True when the file is no longer what was opened or last saved."""
        if self.stamp is None:
            return self.path.exists()
        return self.stamp.matches(self.path) is not True

    def poll(self) -> bool:
        """A cheap check for a periodic timer: True once for each new change on disk (a
        `stat`, and a digest only when size and time moved)."""
        try:
            info = os.stat(self.path)
            now = (info.st_size, info.st_mtime_ns)
        except OSError:
            now = (-1, -1)
        if self.stamp is not None and now == (self.stamp.size, self.stamp.mtime_ns):
            self._seen = None
            return False
        if now == self._seen:
            return False
        if not self.changed_on_disk():
            self._seen = None
            return False
        self._seen = now
        return True

    def write(self, data: bytes, path: str | os.PathLike[str] | None = None, *, overwrite: bool = False) -> Path:
        """Write `data` to the opened file (or `path`); returns the path written.

        Over the opened file: refused with ChangedOnDisk unless `overwrite`; what it
        replaces is kept as FILE.bak the first time, and whenever it had changed on disk.
        Over any other existing file: refused with WouldReplace unless `overwrite`, and
        what it replaces is kept as FILE.bak."""
        target = Path(path) if path is not None else self.path
        own = same_path(target, self.path)
        if own and self.stamp is None and os.path.isfile(target) and not overwrite:
            raise WouldReplace(
                f"{target} exists; not saved ({KEPT})",
                f"{target} exists. Replace it with the edit (its bytes go to {target.name}.bak)?",
            )
        if own:
            foreign = self.changed_on_disk()
            if foreign and not overwrite:
                gone = not self.path.exists()
                what = "was deleted" if gone else "changed on disk"
                raise ChangedOnDisk(
                    f"{self.path} {what} since it was opened or last saved; not saved ({KEPT})",
                    f"{self.path} {what} since it was opened or last saved (by another program?). "
                    + ("Save the edit there anyway?" if gone else
                       f"Overwrite it with the edit (its bytes now go to {self.backup_path.name})?"),
                )
            backup = foreign or not self.backed_up
        else:
            backup = os.path.isfile(target)
            if backup and not overwrite:
                raise WouldReplace(
                    f"{target} exists; not saved ({KEPT})",
                    f"{target} exists. Replace it with the edit (its bytes go to {target.name}.bak)?",
                )
        try:
            write_file(target, data, backup=backup)
        except OSError as error:
            raise SaveError(describe(error, target)) from error
        if own:
            self.backed_up = True
            self.stamp = FileStamp.of_data(self.path, data)
            self._seen = None
        return target


def same_path(a: Path, b: Path) -> bool:
    """True when two paths name the same file (or would, once created)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


def describe(error: OSError, target: Path) -> str:
    """A failed write in words, saying the edit is kept."""
    code = error.errno
    if code in (errno.ENOSPC, errno.EDQUOT):
        reason = f"the disk holding {target.parent or '.'} is full"
    elif isinstance(error, WriteError):
        reason = str(error)
    elif code in (errno.EACCES, errno.EPERM, errno.EROFS):
        reason = f"{target} is read-only"
    else:
        reason = error.strerror or str(error)
    return f"cannot save {target}: {reason}; {KEPT}"
