"""Reading inputs, writing outputs and reporting diagnostics, for every subcommand.

`-` means standard input or output. Output files go through `inspector.files.write_file`:
written whole or not at all, through symbolic links, devices and FIFOs written directly.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path

from spvinspect.codec.diagnostics import Diagnostic, has_errors


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


def write_output(path: str | None, data: bytes | Iterable[bytes]) -> bool:
    """Write `data` (bytes, or byte strings written as they come) to `path` (stdout for
    None or `-`); False after printing why not."""
    if path is None or path == "-":
        for piece in (data,) if isinstance(data, bytes) else data:
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.flush()
        return True
    from spvinspect.files import write_file  # imported only for a file: stdout needs none of it

    try:
        write_file(path, data)
    except OSError as error:
        print(f"{path}: error: cannot write: {error}", file=sys.stderr)
        return False
    return True


@contextmanager
def few_collections() -> Iterator[None]:
    """Run the cyclic garbage collector less often meanwhile: disassembling or assembling
    allocates many short-lived objects, none in cycles, and frequent collections of them
    cost a tenth of the time on a large module (a third of the Lima assembler's at a
    million lines). This is the commands' policy: the codecs leave the collector alone."""
    threshold = gc.get_threshold()
    gc.set_threshold(100_000, *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)


def report(path: str, diagnostics: Iterable[Diagnostic]) -> int:
    """Print diagnostics to stderr; the exit code: 1 when any is an error."""
    listed = list(diagnostics)
    source = source_name(path)
    for diagnostic in listed:
        print(diagnostic.format(source), file=sys.stderr)
    return 1 if has_errors(listed) else 0
