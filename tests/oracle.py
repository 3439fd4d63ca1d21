"""The reference tools (SPIRV-Tools, glslang) as the tests and benchmarks call them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path


def tool_path(name: str) -> str | None:
    """The installed reference tool `name`, next to this interpreter or on PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    return shutil.which(name)


def run_tool(name: str, *args: str, input: bytes | None = None) -> subprocess.CompletedProcess:
    """Run a reference tool and capture its output as bytes."""
    path = tool_path(name)
    if path is None:
        raise FileNotFoundError(f"reference tool {name} is not installed (pip install '.[test]')")
    return subprocess.run([path, *args], input=input, capture_output=True, check=False)


def compile_glsl(source: str, stage: str, out: Path, *extra: str) -> bytes:
    """Compile GLSL with glslangValidator into SPIR-V and return the module bytes."""
    src = out.with_suffix(f".{stage}")
    src.write_text(source, encoding="utf-8")
    result = run_tool(
        "glslangValidator", "-V", "--target-env", "vulkan1.2", *extra, "-o", str(out), str(src)
    )
    if result.returncode != 0:
        raise RuntimeError(f"glslangValidator failed:\n{result.stdout.decode()}{result.stderr.decode()}")
    return out.read_bytes()


def corpus_dir() -> Path | None:
    """The shared corpus named by SPVINSPECT_CORPUS, or None when unset."""
    value = os.environ.get("SPVINSPECT_CORPUS")
    return Path(value) if value else None
