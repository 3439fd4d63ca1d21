"""`spvinspect [FILE]`: open a module; with no file, the bundled example module.

The inspector app arrives in a later step; until then opening a module prints its
disassembly, so the command already shows what is inside the file.
"""

from __future__ import annotations

from pathlib import Path

from codec.binary.decoder import decode
from codec.text.disassembler import disassemble
from inspector.commands.io import read_input, report, write_output

EXAMPLE_MODULE = Path(__file__).resolve().parent.parent / "examples" / "example.spv"


def open_module(path: str | None) -> int:
    """Show the module at `path`, or the bundled example when `path` is None."""
    source = str(EXAMPLE_MODULE) if path is None else path
    data = read_input(source)
    if data is None:
        return 1
    module = decode(data)
    if not write_output(None, disassemble(module).encode("utf-8", "surrogateescape")):
        return 1
    return report(source, module.diagnostics)
