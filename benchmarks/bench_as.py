"""Benchmark: `spvinspect as` against `spirv-as` on the large module's disassembly, and
the live editor's case, a 5,000-line module assembled in-process.

Run: python benchmarks/bench_as.py   (prints times and ratios; targets: the command <= 1.5x,
assemble() <= 3x); `--editor-only` prints only the editor case.

The reference is spirv-as's real binary, not cmeel's launcher script. Each figure is
the best of a few runs, as wall time and as CPU time (the process's own for
assemble(), the child's for commands): on a shared, busy machine the CPU-time ratio
is the steadier of the two. The command runs as installed, with its bytecode cached
(`PYTHONDONTWRITEBYTECODE`, set in some sandboxes, is removed from its environment and
a first run writes the bytecode), and its output is checked against
`spirv-as --preserve-numeric-ids` (the text's header comments keep numeric ids): the
same bytes but for the generator word, which ours takes from the header comment.

The other figure of issue 23, the peak memory of `as` on a 200 MB text (target <= 10x
the text), is printed by `python benchmarks/bench_memory.py --only-text`.
"""

from __future__ import annotations

import os
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


INSTALLED = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
"""The environment of a command run as installed: bytecode written once and reused."""


def command_times(command: list[str], repeat: int = 3) -> tuple[float, float]:
    """Best wall time and best CPU time of a command, in seconds."""
    walls, cpus = [], []
    for _ in range(repeat):
        cpu, start = _children_cpu(), time.perf_counter()
        subprocess.run(command, check=True, capture_output=True, env=INSTALLED)
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


def same_as_spirv_as(text: Path, ours: Path, reference: Path) -> str:
    """Whether our output is `spirv-as --preserve-numeric-ids`'s but for the generator word."""
    subprocess.run([tool_path("spirv-as"), "--preserve-numeric-ids", str(text), "-o", str(reference)], check=True)
    a, b = reference.read_bytes(), ours.read_bytes()
    if a[:8] + a[12:] == b[:8] + b[12:]:
        return "the bytes of spirv-as --preserve-numeric-ids (but the generator word, from the header comment)"
    return f"DIFFERS from spirv-as --preserve-numeric-ids ({len(b)} bytes against {len(a)})"


def row(label: str, times: tuple[float, float], reference: tuple[float, float] | None = None) -> str:
    """One line of figures: wall and CPU seconds, and their ratios to the reference."""
    wall, cpu = times
    line = f"  {label:<26}{wall:7.3f} s wall {cpu:7.3f} s CPU"
    if reference is not None:
        line += f"   ratio {wall / reference[0]:.2f} wall, {cpu / reference[1]:.2f} CPU"
    return line


def typo_cpu(text: str, repeat: int = 20) -> tuple[float, int]:
    """Median CPU seconds of `assemble(text)` for a text with an error, and the error's line."""
    cpus = []
    for _ in range(repeat):
        cpu = time.process_time()
        result = assemble(text)
        cpus.append(time.process_time() - cpu)
    return statistics.median(cpus), result.diagnostics[0].line


def editor_case(tmp: Path) -> None:
    """Prints the editor case: the whole module, a cut, and a typo near its top."""
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
    cpu, line = typo_cpu(small.replace("OpCapability Shader", "OpCapability Shadr", 1))
    print(f"  a typo on line {line}: assemble() median {cpu * 1e3:6.1f} ms CPU")


def main() -> None:
    """Prints the large-module comparison and the editor case."""
    assemble("OpCapability Shader")  # load the grammar and plans once, as the editor has
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        if "--editor-only" in sys.argv[1:]:
            editor_case(tmp)
            return
        module = build_large_module()
        text_path = disassemble(module, tmp / "large.spvasm")
        text = text_path.read_text(encoding="utf-8")
        lines = text.count("\n")
        reference = command_times([tool_path("spirv-as"), str(text_path), "-o", str(tmp / "ref.spv")])
        ours_command = [sys.executable, "-m", "spvinspect.cli", "as", str(text_path), "-o", str(tmp / "ours.spv")]
        subprocess.run(ours_command, check=True, capture_output=True, env=INSTALLED)  # writes the bytecode
        ours_cli = command_times(ours_command)
        ours = in_process(text, 3)
        print(f"large module: {module.stat().st_size / 1e6:.1f} MB, {lines} lines of text")
        print(row("spirv-as", reference))
        print(row("spvinspect as (command)", ours_cli, reference) + "  (target <= 1.5, issue 23)")
        print(row("assemble() in-process", ours, reference) + "  (target <= 3)")
        print("  output: " + same_as_spirv_as(text_path, tmp / "ours.spv", tmp / "preserved.spv"))

        editor_case(tmp)


if __name__ == "__main__":
    main()
