"""Benchmark: `spvinspect as` against `spirv-as` on the large module's disassembly, and
the live editor's case, a 5,000-line module assembled in-process.

Run: python benchmarks/bench_as.py   (prints times and ratios; targets: the command <= 1.5x,
assemble() <= 3x)

The reference is spirv-as's real binary, not cmeel's launcher script. Each figure is
the best of a few runs, as wall time and as CPU time (the process's own for
assemble(), the child's for commands): on a shared, busy machine the CPU-time ratio
is the steadier of the two.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.large_module import build_large_module, module_of_lines, tool_path  # noqa: E402
from spvinspect.codec.asm.assembler import assemble  # noqa: E402

EDITOR_LINES = 5_000
EDITOR_BUDGET_MS = 50


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def command_times(command: list[str], repeat: int = 3) -> tuple[float, float]:
    """Best wall time and best CPU time of a command, in seconds."""
    walls, cpus = [], []
    for _ in range(repeat):
        cpu, start = _children_cpu(), time.perf_counter()
        subprocess.run(command, check=True, capture_output=True)
        walls.append(time.perf_counter() - start)
        cpus.append(_children_cpu() - cpu)
    return min(walls), min(cpus)


def in_process(text: str, repeat: int) -> tuple[float, float]:
    """Best wall time and best CPU time of `assemble(text)` in this process, in seconds."""
    walls, cpus = [], []
    for _ in range(repeat):
        cpu, start = time.process_time(), time.perf_counter()
        result = assemble(text)
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
        assert result.ok, result.diagnostics[0].format()
    return min(walls), min(cpus)


def disassemble(module: Path, out: Path) -> Path:
    """spirv-dis text of `module` (what `spvinspect dis` prints too)."""
    subprocess.run([tool_path("spirv-dis"), "--no-color", str(module), "-o", str(out)], check=True)
    return out


def editor_text(tmp: Path) -> str:
    """A valid module of at least EDITOR_LINES lines of function-heavy disassembly."""
    return disassemble(module_of_lines(tmp, EDITOR_LINES), tmp / "editor.spvasm").read_text(encoding="utf-8")


def row(label: str, times: tuple[float, float], reference: tuple[float, float] | None = None) -> str:
    """One line of figures: wall and CPU seconds, and their ratios to the reference."""
    wall, cpu = times
    line = f"  {label:<26}{wall:7.3f} s wall {cpu:7.3f} s CPU"
    if reference is not None:
        line += f"   ratio {wall / reference[0]:.2f} wall, {cpu / reference[1]:.2f} CPU"
    return line


def main() -> None:
    """Prints the large-module comparison and the editor case."""
    assemble("OpCapability Shader")  # load the grammar and plans once, as the editor has
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        module = build_large_module()
        text_path = disassemble(module, tmp / "large.spvasm")
        text = text_path.read_text(encoding="utf-8")
        lines = text.count("\n")
        reference = command_times([tool_path("spirv-as"), str(text_path), "-o", str(tmp / "ref.spv")])
        ours_cli = command_times([sys.executable, "-m", "spvinspect.cli", "as", str(text_path), "-o", str(tmp / "ours.spv")])
        ours = in_process(text, 3)
        print(f"large module: {module.stat().st_size / 1e6:.1f} MB, {lines} lines of text")
        print(row("spirv-as", reference))
        print(row("spvinspect as (command)", ours_cli, reference) + "  (target <= 1.5, issue 23)")
        print(row("assemble() in-process", ours, reference) + "  (target <= 3)")

        small = editor_text(tmp)
        head = "\n".join(small.splitlines()[:EDITOR_LINES])
        times = [in_process(small, 1)[0] for _ in range(20)]
        print(f"editor case: {small.count(chr(10))} lines (whole module)")
        print(f"  assemble() median {statistics.median(times) * 1e3:6.1f} ms, best {min(times) * 1e3:6.1f} ms"
              f"  (budget {EDITOR_BUDGET_MS} ms)")
        start = time.perf_counter()
        cut = assemble(head)
        print(f"  first {EDITOR_LINES} lines only (cut mid-function): {(time.perf_counter() - start) * 1e3:6.1f} ms,"
              f" {len(cut.diagnostics)} diagnostic(s)")


if __name__ == "__main__":
    main()
