"""`spvinspect [FILE] > out`: with standard output redirected, the disassembly of a module
(the bundled example without a file), so pipes and scripts get text, not an app."""

from __future__ import annotations

from pathlib import Path

EXAMPLE_MODULE = Path(__file__).resolve().parent.parent / "examples" / "example.spv"


def print_module(path: str, raw_ids: bool = False) -> int:
    """Print the disassembly of the module at `path`; the exit code (1 on errors).

    The codec is imported here, not at the top: the app's start-up (which imports this
    module for `EXAMPLE_MODULE`) does not need the disassembler."""
    from spvinspect.codec.binary.lazy import open_module
    from spvinspect.codec.text.disassembler import DisassemblyOptions, disassemble
    from spvinspect.commands.io import read_input, report, write_output

    data = read_input(path)
    if data is None:
        return 1
    module = open_module(data)
    text = disassemble(module, DisassemblyOptions(friendly_names=not raw_ids))
    if not write_output(None, text.encode("utf-8", "surrogateescape")):
        return 1
    return report(path, module.check())
