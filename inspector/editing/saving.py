"""Saving an edit: never losing the user's work, never writing a binary that failed to assemble.

Every write goes through `inspector.files.write_file` (atomic: temporary file, fsync,
rename; through symbolic links; permission bits kept). `SavedFile` stands for the file
that was opened: the first save over it keeps the original as `FILE.bak`, and a save
over it is refused with `ChangedOnDisk` when the file changed on disk since it was
opened or last saved (size, modification time or contents), so the interface can ask
and save again with `overwrite=True`. Failures raise `SaveError`, whose text says what
went wrong in words (read-only file, missing directory, full disk) and that the edit
is still in memory; nothing here touches the session's text.
"""

from __future__ import annotations

import errno
import hashlib
import os
import struct
from dataclasses import dataclass
from pathlib import Path

from spvinspect.codec.diagnostics import Diagnostic
from spvinspect.editing.assembly_state import assemble_full
from spvinspect.editing.session import EditSession
from spvinspect.files import WriteError, write_file
from spvinspect.lima import assemble as assemble_lima
from spvinspect.lima.decoder import decode_words
from spvinspect.lima.mbs import is_mbs, parse_mbs
from spvinspect.lima.model import Chunk, ChunkField

KEPT = "the edit is still in memory"


class SaveError(Exception):
    """A save that did not happen; `str(error)` says why, in words."""


class ChangedOnDisk(SaveError):
    """The file changed on disk since it was opened or last saved."""


class NotAssembled(SaveError):
    """The text does not assemble, so there is no binary to write."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        first = diagnostics[0]
        more = f" (and {len(diagnostics) - 1} more)" if len(diagnostics) > 1 else ""
        super().__init__(
            f"not saved: the text does not assemble: {first.location}: {first.message}{more}; "
            f"fix it first, or save the text as assembly"
        )
        self.diagnostics = diagnostics


@dataclass(frozen=True, slots=True)
class FileStamp:
    """What a file looked like: size, modification time and a digest of its bytes."""

    size: int
    mtime_ns: int
    digest: bytes

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> FileStamp | None:
        """The file's stamp now; None when it does not exist or cannot be read."""
        try:
            data = Path(path).read_bytes()
            info = os.stat(path)
        except OSError:
            return None
        return cls(info.st_size, info.st_mtime_ns, hashlib.sha256(data).digest())

    def same_file(self, other: FileStamp | None) -> bool:
        """True when `other` is the same contents (a touched but equal file counts as
        unchanged: the digest decides when size and time disagree)."""
        if other is None:
            return False
        if (self.size, self.mtime_ns) == (other.size, other.mtime_ns):
            return True
        return self.size == other.size and self.digest == other.digest


class SavedFile:
    """The file an editing session was opened from, and how saving over it goes."""

    def __init__(self, path: str | os.PathLike[str], stamp: FileStamp | None = None) -> None:
        self.path = Path(path)
        self.stamp = stamp if stamp is not None else FileStamp.of(self.path)
        """The file as opened or last saved (None: it did not exist)."""
        self.backed_up = False
        """True once the original has been kept as FILE.bak."""

    @property
    def backup_path(self) -> Path:
        """Where the original is kept on the first save: `FILE.bak`."""
        return self.path.with_name(self.path.name + ".bak")

    def changed_on_disk(self) -> bool:
        """True when the file is no longer what was opened or last saved."""
        now = FileStamp.of(self.path)
        if self.stamp is None:
            return now is not None
        return not self.stamp.same_file(now)

    def write(self, data: bytes, path: str | os.PathLike[str] | None = None, *, overwrite: bool = False) -> Path:
        """Write `data` to the opened file (or `path`); returns the path written.

        Over the opened file: refused with ChangedOnDisk unless `overwrite`, and the
        first time the original is kept as FILE.bak."""
        target = Path(path) if path is not None else self.path
        own = _same_path(target, self.path)
        if own and not overwrite and self.changed_on_disk():
            raise ChangedOnDisk(f"{self.path} changed on disk since it was opened; not saved ({KEPT})")
        backup = own and not self.backed_up
        try:
            write_file(target, data, backup=backup)
        except OSError as error:
            raise SaveError(describe(error, target)) from error
        if own:
            self.backed_up = self.backed_up or backup
            self.stamp = FileStamp.of(self.path)
        return target


def _same_path(a: Path, b: Path) -> bool:
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


def binary_to_save(session: EditSession) -> bytes:
    """The binary of the session's newest text; NotAssembled when it does not assemble.
    Assembles here when the newest text has not been assembled yet."""
    if not session.busy:
        if not session.assembles:
            raise NotAssembled(session.diagnostics)
        return session.binary
    full = assemble_full(list(session.lines), session.hints)
    if full.state is None:
        raise NotAssembled(full.diagnostics)
    return full.state.binary


def save_binary(session: EditSession, file: SavedFile, path=None, *, overwrite: bool = False) -> Path:
    """Save the binary (over the opened file, or to `path`: "save as")."""
    written = file.write(binary_to_save(session), path, overwrite=overwrite)
    if path is None or _same_path(Path(path), file.path):
        session.mark_saved()
    return written


def save_assembly(session: EditSession, file: SavedFile, path) -> Path:
    """Save the text itself (`.spvasm`), errors and all."""
    return file.write(session.text.encode("utf-8", "surrogateescape"), path)


def lima_raw(words: list[int]) -> bytes:
    """A Lima instruction stream as the raw file holds it (little-endian words)."""
    return struct.pack(f"<{len(words)}I", *words)


def mbs_with_code(container: bytes, words: list[int]) -> bytes:
    """`container` (an MBS file) with its fragment program's code replaced by `words`,
    the sizes of the code chunk and of the chunks around it adjusted, and the program's
    instruction count (FINS) set to the new code's."""
    if not is_mbs(container):
        raise SaveError(f"not saved: the original is not an MBS file, so there is no container to put the code in; {KEPT}")
    parsed = parse_mbs(container)
    if parsed.code_offset is None:
        raise SaveError(f"not saved: the MBS file has no fragment program code chunk; {KEPT}")
    path = _chunk_path(parsed.chunks, parsed.code_offset)
    code = lima_raw(words)
    delta = len(code) - parsed.code_size
    data = bytearray(container[: parsed.code_offset] + code + container[parsed.code_offset + parsed.code_size :])
    for chunk in path:
        struct.pack_into("<I", data, chunk.byte_offset + 4, chunk.size + delta)
    count = _instruction_count_field(path[-2] if len(path) > 1 else None)
    if count is not None:
        at = count.byte_offset + (delta if count.byte_offset > parsed.code_offset else 0)
        struct.pack_into("<I", data, at, len(decode_words(words).instructions))
    return bytes(data)


def _instruction_count_field(program: Chunk | None) -> ChunkField | None:
    """The `instructions` value of the program's FINS chunk (the code's instruction
    count, which an edit that adds or removes instructions changes), if it has one."""
    if program is None:
        return None
    for chunk in program.children:
        if chunk.ident == "FINS":
            return next((f for f in chunk.fields if f.name == "instructions"), None)
    return None


def _chunk_path(chunks: tuple[Chunk, ...], code_offset: int) -> list[Chunk]:
    """The chunks from the top down to the one whose contents start at `code_offset`."""
    for chunk in chunks:
        if chunk.byte_offset + 8 == code_offset:
            return [chunk]
        if chunk.byte_offset < code_offset < chunk.byte_offset + 8 + chunk.size:
            below = _chunk_path(chunk.children, code_offset)
            if below:
                return [chunk, *below]
    return []


def save_lima(text: str, file: SavedFile, path=None, *, mbs: bool = False, overwrite: bool = False) -> Path:
    """Assemble Lima (seed-004) text and save it as a raw instruction stream, or with
    `mbs` as the opened MBS file with its code replaced; NotAssembled on errors."""
    words, diagnostics = assemble_lima(text)
    if words is None:
        raise NotAssembled(diagnostics)
    if mbs:
        try:
            container = file.path.read_bytes()
        except OSError as error:
            raise SaveError(f"cannot read {file.path} to put the code in: {error.strerror or error}; {KEPT}") from error
        data = mbs_with_code(container, words)
    else:
        data = lima_raw(words)
    return file.write(data, path, overwrite=overwrite)
