"""What a launch imports: numpy and the execution engines load only when the opened file
needs them (a run, the image, a search by value), not to show a module or a program."""

from __future__ import annotations

import subprocess
import sys

from spvinspect.commands.open import EXAMPLE_MODULE

from lima_apps import mbs_file, program_words

LAUNCH = """
import asyncio, sys
from pathlib import Path
from spvinspect.app import InspectorApp
from spvinspect.document import Document
from spvinspect.lima_document import LimaDocument

async def launch(document):
    async with InspectorApp(document).run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert pilot.app.screen.selection is not None

asyncio.run(launch(Document(Path(sys.argv[1]).read_bytes(), "example.spv")))
asyncio.run(launch(LimaDocument(Path(sys.argv[2]).read_bytes(), "shader.mbs")))
heavy = ("numpy", "spvinspect.execution.spirv", "spvinspect.execution.lima", "spvinspect.codec.interp.debugger")
print(" ".join(name for name in heavy if sys.modules.get(name) is not None) or "none")
"""


def test_showing_a_module_and_a_program_imports_neither_numpy_nor_an_engine(tmp_path) -> None:
    program = tmp_path / "shader.mbs"
    program.write_bytes(mbs_file(program_words()))
    done = subprocess.run([sys.executable, "-c", LAUNCH, str(EXAMPLE_MODULE), str(program)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["none"]
