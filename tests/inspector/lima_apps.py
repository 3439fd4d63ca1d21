"""PP programs and the launcher the Lima mode tests share (a unique module name, imported
by name like `inspector_apps`)."""

from __future__ import annotations

import sys
from pathlib import Path

from launched_app import launched_app

from spvinspect import lima
from spvinspect.app import InspectorApp

sys.path.insert(0, str(Path(__file__).parents[1] / "lima"))
from lima_words import PROGRAM, REAL_INSTRUCTION, mbs_file, to_bytes  # noqa: E402

__all__ = ["PROGRAM", "REAL_INSTRUCTION", "launched", "mbs_file", "program_words", "to_bytes"]



def program_words() -> list[int]:
    """`PROGRAM` assembled by the Lima assembler."""
    words, diagnostics = lima.assemble(PROGRAM)
    assert diagnostics == []
    return words


def launched(monkeypatch, tmp_path, data: bytes, *options: str, name: str = "shader.mbs") -> InspectorApp:
    """The app `spvinspect FILE OPTIONS…` opens on a terminal, over `data` written to
    `name`, before it runs (the tests drive it with `run_test`)."""
    (tmp_path / name).write_bytes(data)
    return launched_app(monkeypatch, tmp_path, [name, "--theme", "spvinspect-dark", *options])
