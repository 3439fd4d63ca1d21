"""`spvinspect as` imports only what assembling needs: none of the inspector's user
interface (Textual, Rich, Pygments, grandalf), nor numpy for a text the bulk path does
not take."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TEXT = "OpCapability Shader\nOpMemoryModel Logical GLSL450\n%void = OpTypeVoid\n"

PROBE = """
import sys
from spvinspect.cli import main
code = main(["as", sys.argv[1], "-o", sys.argv[2]])
print(code, sorted({m.split(".")[0] for m in sys.modules} & {"textual", "rich", "pygments", "grandalf", "numpy"}))
"""


def test_as_imports_no_user_interface(tmp_path: Path) -> None:
    source, output = tmp_path / "small.spvasm", tmp_path / "small.spv"
    source.write_text(TEXT)
    run = subprocess.run([sys.executable, "-c", PROBE, str(source), str(output)],
                         capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["0", "[]"], run.stdout + run.stderr
    assert output.read_bytes()[:4] == b"\x03\x02\x23\x07"
