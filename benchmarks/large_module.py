"""Builds the large benchmark module: generated GLSL compiled with glslangValidator."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from oracle import tool_path  # noqa: E402

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


def build_large_module(out: Path, min_bytes: int = 5_000_000) -> Path:
    """Compile a generated shader of at least `min_bytes` into `out` (cached by size)."""
    if out.exists() and out.stat().st_size >= min_bytes:
        return out
    functions = max(1, min_bytes // 1200)
    while True:
        with tempfile.TemporaryDirectory() as tmp:
            src = Path(tmp) / "large.frag"
            src.write_text(glsl_source(functions), encoding="utf-8")
            subprocess.run(
                [tool_path("glslangValidator") or "glslangValidator", "-V", "-o", str(out), str(src)],
                check=True,
                capture_output=True,
            )
        if out.stat().st_size >= min_bytes:
            return out
        functions = functions * 3 // 2
