"""Writes golden data for fragment shaders: each corpus fragment shader whose interface a
full-screen triangle can feed (inputs by location, uniform blocks, push constants; no
images) drawn by Mesa's lavapipe over a 4x4 grid into RGBA32 attachments, with the same
inputs the interpreter gets (the vertex shader writes them as constants).

    python tests/oracles/spirv_lavapipe_fragment.py CORPUS_DIR [OUT.json]
"""

from __future__ import annotations

import random
import struct
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "codec" / "interp")]

from agreement import Agreement, compare  # noqa: E402
from lavapipe import DriverError, Lavapipe, draw  # noqa: E402
from oracle import compile_glsl  # noqa: E402
from spirv_lavapipe import command_line, random_json, write_golden  # noqa: E402

from spvinspect.codec.interp import layout  # noqa: E402
from spvinspect.codec.interp.group import Group, run_grid  # noqa: E402
from spvinspect.codec.interp.interface import InputError  # noqa: E402
from spvinspect.codec.interp.shader import Shader, ShaderError  # noqa: E402
from spvinspect.codec.interp.types import Type, to_json  # noqa: E402

OUT = HERE.parent / "codec" / "golden" / "lavapipe_fragment.json"
GRID = (4, 4)
INPUT_SETS = 3
BUILTIN_INPUTS = {"FragCoord", "FrontFacing", "HelperInvocation"}
CAPABILITIES = {"Shader", "DerivativeControl", "DemoteToHelperInvocation", "Matrix", "Float64", "Int64", "Int16"}


def _plain(t: Type) -> bool:
    s = t.elem if t.kind == "vector" else t
    return t.kind in ("int", "float", "vector") and s.kind in ("int", "float") and s.width == 32


def glsl_type(t: Type) -> str:
    s = t.elem if t.kind == "vector" else t
    base = "float" if s.kind == "float" else "int" if s.signed else "uint"
    if t.kind != "vector":
        return base
    return {"float": "vec", "int": "ivec", "uint": "uvec"}[base] + str(t.count)


def glsl_literal(t: Type, v) -> str:
    s = t.elem if t.kind == "vector" else t
    comps = v if isinstance(v, list) else [v]

    def one(x):
        if s.kind == "float":
            return repr(float(x))
        return f"{int(x)}u" if not s.signed else f"int({int(x)})"

    return f"{glsl_type(t)}({', '.join(one(x) for x in comps)})"


def runnable(shader: Shader) -> str | None:
    if len(shader.entry_points) != 1 or shader.entry_points[0].model != "Fragment":
        return "not a single fragment entry point"
    if not set(shader.capabilities) <= CAPABILITIES:
        return "capabilities"
    keys = [shader.binding_key(v) for v in shader.variables.values() if shader.binding_key(v)]
    if len(keys) != len(set(keys)):
        return "variables aliased on one binding"
    for var in shader.variables.values():
        b = shader.builtin(var.id)
        if var.storage == "Input":
            if b is not None and b not in BUILTIN_INPUTS:
                return f"builtin {b}"
            if b is None and (not _plain(var.type) or shader.decoration(var.id, "Location") is None
                              or shader.decoration(var.id, "Component") is not None):
                return "an input a constant cannot feed"
        elif var.storage == "Output":
            if b is not None or not _plain(var.type) or shader.decoration(var.id, "Location") is None \
                    or shader.decoration(var.id, "Component") is not None:
                return "an output not in a colour attachment"
        elif var.storage == "Uniform":
            if var.type.kind != "struct" or var.type.buffer_block:
                return "not a uniform block"
        elif var.storage not in ("PushConstant", "Private", "Function"):
            return f"a {var.storage} variable"
    return None


def vertex_shader(shader: Shader, inputs: dict, tmp: Path) -> bytes:
    lines = ["#version 450"]
    body = []
    for var in shader.variables.values():
        if var.storage != "Input" or shader.builtin(var.id) is not None:
            continue
        loc = shader.decoration(var.id, "Location")
        s = var.type.elem if var.type.kind == "vector" else var.type
        flat = "flat " if s.kind == "int" else ""
        lines.append(f"layout(location = {loc}) {flat}out {glsl_type(var.type)} v{loc};")
        value = inputs.get("inputs", {}).get(shader.variable_name(var))
        if value is None:
            value = [0] * (var.type.count if var.type.kind == "vector" else 1)
        body.append(f"    v{loc} = {glsl_literal(var.type, value)};")
    lines.append("void main() {")
    lines.append("    vec2 p = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);")
    lines.append("    gl_Position = vec4(p * 2.0 - 1.0, 0.5, 1.0);")
    lines.extend(body)
    lines.append("}")
    return compile_glsl("\n".join(lines) + "\n", "vert", tmp / "v.spv")


def run_one(driver, data: bytes, shader: Shader, inputs: dict, tmp: Path):
    entry = shader.entry_points[0]
    ours = run_grid(shader, entry, inputs, GRID, 200_000)
    probe = Group(shader, entry, inputs)
    probe.run(200_000)
    if probe.stopped is not None or not probe.finished:
        return None
    uniforms, push = {}, b""
    for var in shader.variables.values():
        if var.storage in ("Uniform", "PushConstant"):
            out = bytearray()
            layout.encode(var.type, probe.shared[var.id].snapshot(), out)
            if var.storage == "PushConstant":
                push = bytes(out)
            else:
                s, b = (int(x) for x in shader.binding_key(var).split("."))
                uniforms[(s, b)] = bytes(out)
    outputs, names = {}, {}
    for var in shader.variables.values():
        if var.storage == "Output":
            loc = shader.decoration(var.id, "Location")
            s = var.type.elem if var.type.kind == "vector" else var.type
            outputs[loc] = "float" if s.kind == "float" else "int" if s.signed else "uint"
            names[loc] = var
    got = draw(driver, vertex_shader(shader, inputs, tmp), data, entry.name, GRID, outputs, uniforms, push)
    w, h = GRID
    pixels = []
    for p in range(w * h):
        px = {}
        for loc, var in names.items():
            raw = got[loc][p * 16 : p * 16 + 16]
            code = {"float": "<4f", "int": "<4i", "uint": "<4I"}[outputs[loc]]
            comps = list(struct.unpack(code, raw))
            n = var.type.count if var.type.kind == "vector" else 1
            from spvinspect.codec.interp.types import from_json

            value = from_json(var.type, comps[:n] if n > 1 else comps[0])
            px[shader.variable_name(var)] = to_json(var.type, value)
        pixels.append(px)
    return ours["pixels"], pixels


def main(argv: list[str]) -> int:
    corpus, paths, out_path = command_line(argv, "frag", OUT)
    driver = Lavapipe()
    cases, total = [], Agreement()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        for path in paths:
            data = path.read_bytes()
            try:
                shader = Shader(data)
            except ShaderError:
                continue
            if runnable(shader):
                continue
            rng = random.Random(path.name)
            kept = 0
            for n in range(INPUT_SETS):
                inputs: dict = {}
                if n:
                    inputs["inputs"] = {shader.variable_name(v): random_json(v.type, rng, 4)
                                        for v in shader.variables.values()
                                        if v.storage == "Input" and shader.builtin(v.id) is None}
                    inputs["buffers"] = {shader.binding_key(v): random_json(v.type, rng, 4)
                                         for v in shader.variables.values() if v.storage == "Uniform"}
                    for v in shader.variables.values():
                        if v.storage == "PushConstant":
                            inputs["push_constants"] = random_json(v.type, rng, 4)
                try:
                    got = run_one(driver, data, shader, inputs, tmp)
                except (DriverError, InputError, ShaderError, RuntimeError, ValueError, TypeError, KeyError) as error:
                    print(f"{path.name}: skipped: {str(error)[:200]}", file=sys.stderr)
                    break
                if got is None:
                    break
                ours, ref = got
                a = Agreement()
                for o, r in zip(ours, ref):
                    if o is not None:
                        compare(o, r, path.name, a)
                total.add(a)
                kept += 1
                cases.append({"module": str(path.relative_to(corpus)), "entry": shader.entry_points[0].name,
                              "inputs": inputs, "grid": list(GRID), "pixels": ref})
                if a.missed:
                    print(f"{path.name} set {n}: {a.missed} of {a.compared} differ, e.g. {a.misses[:2]}", file=sys.stderr)
            if kept:
                print(f"{path.name}: {kept} input sets", file=sys.stderr)
    return write_golden(out_path, cases, total)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
