"""Benchmark: `spvinspect as` against `spirv-as` on the large module's disassembly, and
the live editor's case, a 5,000-line module assembled in-process.

Run: python benchmarks/bench_as.py   (prints wall times and ratios)
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from benchmarks.large_module import build_large_module, glsl_source  # noqa: E402
from codec.asm.assembler import assemble  # noqa: E402
from oracle import tool_path  # noqa: E402

EDITOR_LINES = 5_000
EDITOR_BUDGET_MS = 50


def wall(command: list[str], repeat: int = 3) -> float:
    """Best wall time of a command, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    return min(times)


def in_process(text: str, repeat: int) -> float:
    """Best time of `assemble(text)` in this process, in seconds."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = assemble(text)
        times.append(time.perf_counter() - start)
        assert result.ok, result.diagnostics[0].format()
    return min(times)


def disassemble(module: Path, out: Path) -> Path:
    """spirv-dis text of `module` (what `spvinspect dis` prints too)."""
    subprocess.run([tool_path("spirv-dis"), "--no-color", str(module), "-o", str(out)], check=True)
    return out


def editor_text(tmp: Path) -> str:
    """A valid module of at least EDITOR_LINES lines of function-heavy disassembly."""
    functions = 40
    while True:
        src = tmp / "editor.frag"
        src.write_text(glsl_source(functions), encoding="utf-8")
        spv = tmp / "editor.spv"
        subprocess.run([tool_path("glslangValidator"), "-V", "-o", str(spv), str(src)], check=True, capture_output=True)
        text = disassemble(spv, tmp / "editor.spvasm").read_text(encoding="utf-8")
        if text.count("\n") >= EDITOR_LINES:
            return text
        functions = functions * 3 // 2


def main() -> None:
    """Prints the large-module comparison and the editor case."""
    assemble("OpCapability Shader")  # load the grammar and plans once, as the editor has
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        module = build_large_module(Path(tempfile.gettempdir()) / "spvinspect-large.spv")
        text_path = disassemble(module, tmp / "large.spvasm")
        text = text_path.read_text(encoding="utf-8")
        lines = text.count("\n")
        reference = wall([tool_path("spirv-as"), str(text_path), "-o", str(tmp / "ref.spv")])
        ours_cli = wall([sys.executable, "-m", "inspector.cli", "as", str(text_path), "-o", str(tmp / "ours.spv")])
        ours = in_process(text, 3)
        print(f"large module: {module.stat().st_size / 1e6:.1f} MB, {lines} lines of text")
        print(f"  spirv-as                 {reference:7.3f} s")
        print(f"  spvinspect as (command)  {ours_cli:7.3f} s   ratio {ours_cli / reference:.2f}")
        print(f"  assemble() in-process    {ours:7.3f} s   ratio {ours / reference:.2f}  (target <= 3)")

        small = editor_text(tmp)
        head = "\n".join(small.splitlines()[:EDITOR_LINES])
        times = [in_process(small, 1) for _ in range(20)]
        print(f"editor case: {small.count(chr(10))} lines (whole module)")
        print(f"  assemble() median {statistics.median(times) * 1e3:6.1f} ms, best {min(times) * 1e3:6.1f} ms"
              f"  (budget {EDITOR_BUDGET_MS} ms)")
        start = time.perf_counter()
        cut = assemble(head)
        print(f"  first {EDITOR_LINES} lines only (cut mid-function): {(time.perf_counter() - start) * 1e3:6.1f} ms,"
              f" {len(cut.diagnostics)} diagnostic(s)")


if __name__ == "__main__":
    main()
