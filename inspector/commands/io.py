"""Reading inputs, writing outputs and reporting diagnostics, for every subcommand.

`-` means standard input or output. An output file is written whole, through a
temporary file renamed into place, so a failure never leaves a truncated file behind.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path

from codec.diagnostics import Diagnostic, has_errors


def source_name(path: str) -> str:
    """How diagnostics name the input."""
    return "<stdin>" if path == "-" else path


def read_input(path: str) -> bytes | None:
    """The bytes of `path` (or stdin); None after printing why it cannot be read."""
    try:
        return sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as error:
        print(f"{path}: error: cannot read: {error.strerror or error}", file=sys.stderr)
        return None


def write_output(path: str | None, data: bytes) -> bool:
    """Write `data` to `path` (stdout for None or `-`); False after printing why not."""
    if path is None or path == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return True
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent or ".", prefix=f".{target.name}.")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        # mkstemp makes the file private; give it the mode a plain open() would.
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, target)
    except OSError as error:
        print(f"{path}: error: cannot write: {error.strerror or error}", file=sys.stderr)
        return False
    return True


def report(path: str, diagnostics: Iterable[Diagnostic]) -> int:
    """Print diagnostics to stderr; the exit code: 1 when any is an error."""
    listed = list(diagnostics)
    source = source_name(path)
    for diagnostic in listed:
        print(diagnostic.format(source), file=sys.stderr)
    return 1 if has_errors(listed) else 0
