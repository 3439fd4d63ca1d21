"""Regenerates tests/lima/golden/*.json: what Mesa's llvmpipe draws for each GLSL program in
../shared/lima/programs, with input sets the emulator replays against the PP code.

Needs a GL driver (run by hand, not by the suite): `pip install moderngl` in the venv;
Debian's libegl1 and libgl1-mesa-dri give llvmpipe on EGL. Usage:

    python tests/oracles/lima_llvmpipe.py [PROGRAMS_DIR] [NAME ...]

Our own programs, covering the units and ops Mesa's 37 do not use, are in
tests/oracles/lima_extra: `NAME.s` (our assembly) beside `NAME.frag` (the same computation
in GLSL); their varyings and uniforms take slots in declaration order.

Each program gets 8 input sets on a 2x2 grid (one quad, varyings as ramps across it,
values well outside [0, 1] in most) and one 16x16 grid. The GLSL ES 1.00 source is made
desktop GLSL 3.30 mechanically (`varying` -> `in`, `gl_FragColor` -> an output,
`texture2D*` -> `texture*`). The colour target is RGBA32F, so nothing is clamped; a
fragment counts as discarded when two draws over different clear colours differ.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
GOLDEN = HERE.parent / "lima" / "golden"
PROGRAMS = Path("/work/shared/lima/programs")
SETS = 8
SMALL, LARGE = 2, 16
RANGES = [(0.0, 1.0), (-1.0, 1.0), (-4.0, 4.0), (0.0, 2.0), (-2.0, 0.5), (-8.0, 8.0), (0.0, 1.0), (-1.0, 3.0)]
SLOTS = {"float": 1, "int": 1, "bool": 1, "vec2": 1, "vec3": 1, "vec4": 1, "ivec2": 1, "ivec3": 1, "ivec4": 1,
         "bvec2": 1, "bvec3": 1, "bvec4": 1, "mat2": 2, "mat3": 3, "mat4": 4}
WIDTH = {"float": 1, "int": 1, "bool": 1, "mat2": 2, "mat3": 3, "mat4": 4}

VERTEX = """#version 330
in vec2 a_pos;
{ins}
{outs}
void main() {{
{moves}
  gl_Position = vec4(a_pos, 0.0, 1.0);
  gl_PointSize = {point_size:.1f};
}}
"""


def components(glsl_type: str) -> int:
    if glsl_type in WIDTH:
        return WIDTH[glsl_type]
    return int(glsl_type[-1])


def to_desktop(source: str) -> str:
    """GLSL ES 1.00 -> GLSL 3.30, by substitution only."""
    text = source.replace("#version 100", "#version 330")
    text = re.sub(r"#extension GL_OES_standard_derivatives\s*:\s*\w+\n", "", text)
    text = re.sub(r"\bvarying\b", "in", text)
    text = re.sub(r"\bgl_FragColor\b", "lima_color", text)
    text = re.sub(r"\btexture2DProj\b", "textureProj", text)
    text = re.sub(r"\btexture2D\b|\btextureCube\b", "texture", text)
    head, _, tail = text.partition("\n")
    return head + "\nout vec4 lima_color;\n" + tail


def declarations(source: str):
    """(uniforms [(name, type)] in order, struct members {struct: [(name, type)]},
    samplers [name], varyings [(name, type)])."""
    structs = {}
    for name, body in re.findall(r"struct\s+(\w+)\s*\{([^}]*)\}", source):
        structs[name] = re.findall(r"(\w+)\s+(\w+)\s*;", body)
    uniforms, samplers = [], []
    for glsl_type, names in re.findall(r"uniform\s+(?:\w+p\s+)?(\w+)\s+([^;]+);", source):
        for name in (n.strip() for n in names.split(",")):
            if glsl_type.startswith("sampler"):
                samplers.append(name)
            else:
                uniforms.append((name, glsl_type))
    varyings = []
    for glsl_type, names in re.findall(r"varying\s+(?:\w+p\s+)?(\w+)\s+([^;]+);", source):
        varyings.extend((n.strip(), glsl_type) for n in names.split(","))
    return uniforms, structs, samplers, varyings


def varying_slots(layout: str) -> dict[str, int]:
    """Varying name -> vec4 slot (driver location minus the three special inputs)."""
    slots = {}
    for name, location in re.findall(r"decl_var shader_in \S+ (?:\w+ )?\w+ (\w+) \([^,]*, (\d+), \d+\)", layout):
        if not name.startswith("gl_"):
            slots[name] = max(slots.get(name, 0), int(location) - 3)
    return slots


def uniform_slots(layout: str) -> dict[str, int]:
    """Uniform name -> the vec4 slot Mesa gave it (samplers take slots too)."""
    slots = {}
    for name, location in re.findall(r"decl_var uniform \S+ (?:\w+ )?\w+ (\w+) \(~0, (\d+), \d+\)", layout):
        slots[name] = max(slots.get(name, 0), int(location))
    return slots


def flat_uniforms(uniforms, structs, placed: dict[str, int]):
    """[(gl name, type, first slot, array length)] with struct members expanded: each
    uniform at the slot the layout gives it (else after the one before), members and array
    entries one after another."""
    out, slot = [], 0
    for name, glsl_type in uniforms:
        name, _, length = name.partition("[")
        count = int(length.rstrip("]")) if length else 1
        slot = placed.get(name, slot)
        members = structs.get(glsl_type)
        for member_type, member in members if members else [(glsl_type, None)]:
            out.append((f"{name}.{member}" if member else name, member_type, slot, count))
            slot += SLOTS[member_type] * count
    return out


def make_inputs(rng, kind: int, flat, samplers, varyings, slots, grid_set: bool, points: bool) -> dict:
    low, high = (-2.0, 2.0) if grid_set else RANGES[kind]
    # Points are always front facing; other primitives are drawn back facing in sets 3 and 7.
    inputs = {"varyings": {}, "uniforms": {}, "textures": {}, "frontfacing": points or kind not in (3, 7)}
    for name, glsl_type in varyings:
        n = components(glsl_type)
        ramp = {key: [round(float(x), 3) for x in rng.uniform(low, high, n)] + [0.0] * (4 - n)
                for key in ("bottom_left", "bottom_right", "top_left")}
        inputs["varyings"][str(slots[name])] = ramp
    for name, glsl_type, slot, count in flat:
        for column in range(SLOTS[glsl_type] * count):
            if glsl_type.startswith("b") or glsl_type == "bool":
                values = [float(x) for x in rng.integers(0, 2, 4)]
            elif glsl_type.startswith("i") or glsl_type == "int":
                values = [float(x) for x in rng.integers(-5, 6, 4)]
            else:
                values = [round(float(x), 3) for x in rng.uniform(low, high, 4)]
            n = 4 if glsl_type.startswith("mat") else components(glsl_type)
            inputs["uniforms"][str(slot + column)] = values[:n] + [0.0] * (4 - n)
    for index, _ in enumerate(samplers):
        size = 4
        texels = [round(float(x), 3) for x in rng.uniform(0.0, 1.0, size * size * 4)]
        inputs["textures"][str(index)] = {
            "width": size, "height": size, "rgba": texels,
            "filter": "linear" if kind in (1, 6) else "nearest", "wrap": "clamp" if kind == 5 else "repeat",
        }
    return inputs


def ramp_at(ramp: dict, u: float, v: float) -> list[float]:
    bl, br, tl = (np.array(ramp[k]) for k in ("bottom_left", "bottom_right", "top_left"))
    return list(bl + (br - bl) * u + (tl - bl) * v)


def render(ctx, moderngl, source: str, flat, samplers, varyings, slots, inputs: dict, size: int):
    """(colours (size, size, 4), discarded (size, size)), row 0 at the bottom."""
    fragment = to_desktop(source)
    uses_points = "gl_PointCoord" in source
    ins = "\n".join(f"in vec4 a_{name};" for name, _ in varyings)
    outs = "\n".join(f"out {t} {name};" for name, t in varyings)
    moves = "\n".join(
        f"  {name} = {'a_' + name + ('.x' if t == 'float' else '.' + 'xyzw'[:components(t)]) if components(t) < 4 else 'a_' + name};"
        for name, t in varyings
    )
    program = ctx.program(vertex_shader=VERTEX.format(ins=ins, outs=outs, moves=moves, point_size=size),
                          fragment_shader=fragment)
    for name, glsl_type, slot, count in flat:
        if name not in program:
            continue
        rows = [inputs["uniforms"][str(slot + c)] for c in range(SLOTS[glsl_type] * count)]
        if count > 1:
            n = components(glsl_type)
            program[name].write(np.array([row[:n] for row in rows], dtype="f4").tobytes())
        elif glsl_type.startswith("mat"):
            n = SLOTS[glsl_type]
            program[name].value = tuple(x for row in rows for x in row[:n])
        elif glsl_type in ("bool", "int"):
            program[name].value = int(rows[0][0]) if glsl_type == "int" else bool(rows[0][0])
        elif glsl_type.startswith("b"):
            program[name].value = tuple(bool(x) for x in rows[0][: components(glsl_type)])
        elif glsl_type.startswith("i"):
            program[name].value = tuple(int(x) for x in rows[0][: components(glsl_type)])
        elif glsl_type == "float":
            program[name].value = rows[0][0]
        else:
            program[name].value = tuple(rows[0][: components(glsl_type)])
    textures = []
    for index, name in enumerate(samplers):
        spec = inputs["textures"][str(index)]
        texture = ctx.texture((spec["width"], spec["height"]), 4, np.array(spec["rgba"], dtype="f4").tobytes(), dtype="f4")
        flt = moderngl.LINEAR if spec["filter"] == "linear" else moderngl.NEAREST
        texture.filter = (flt, flt)
        texture.repeat_x = texture.repeat_y = spec["wrap"] == "repeat"
        texture.use(index)
        if name in program:
            program[name].value = index
        textures.append(texture)
    if uses_points:
        corners = [(0.0, 0.0, 0.5, 0.5)]
    else:
        corners = [(-1.0, -1.0, 0.0, 0.0), (1.0, -1.0, 1.0, 0.0), (-1.0, 1.0, 0.0, 1.0), (1.0, 1.0, 1.0, 1.0)]
    if not inputs["frontfacing"] and not uses_points:
        corners = [corners[1], corners[0], corners[3], corners[2]]
    rows = []
    for x, y, u, v in corners:
        row = [x, y]
        for name, _ in varyings:
            row += ramp_at(inputs["varyings"][str(slots[name])], u, v)
        rows.append(row)
    vbo = ctx.buffer(np.array(rows, dtype="f4").tobytes())
    names = ["a_pos"] + [f"a_{n}" for n, _ in varyings]
    present = [n for n in names if n in program]
    fmt = " ".join(("2f" if n == "a_pos" else "4f") if n in present else ("2x4" if n == "a_pos" else "16x") for n in names)
    vao = ctx.vertex_array(program, [(vbo, fmt, *present)])
    target = ctx.texture((size, size), 4, dtype="f4")
    fbo = ctx.framebuffer(color_attachments=[target])
    fbo.use()
    ctx.viewport = (0, 0, size, size)
    images = []
    for clear in ((0.125, 0.25, 0.375, 0.5), (-7.0, 9.0, -11.0, 13.0)):
        fbo.clear(*clear)
        vao.render(moderngl.POINTS if uses_points else moderngl.TRIANGLE_STRIP)
        images.append(np.frombuffer(fbo.read(components=4, dtype="f4"), dtype="f4").reshape(size, size, 4))
    discarded = np.any(images[0] != images[1], axis=2) & ~(np.isnan(images[0]).any(axis=2))
    for resource in (vao, vbo, fbo, target, program, *textures):
        resource.release()
    return images[1], discarded


def program_words(path: Path) -> list[int]:
    """The PP words: Mesa's `NAME.pp`, or our `NAME.s` assembled."""
    if path.with_suffix(".pp").exists():
        return [int(w) for w in np.frombuffer(path.with_suffix(".pp").read_bytes(), dtype="<u4")]
    from spvinspect import lima

    words, diagnostics = lima.assemble(path.with_suffix(".s").read_text())
    if words is None:
        raise SystemExit(f"{path.with_suffix('.s')}: {[d.message for d in diagnostics]}")
    return words


def golden(ctx, moderngl, path: Path) -> dict:
    source = path.read_text()
    layout_path = path.with_suffix(".layout.txt")
    # Our own programs have no layout: varyings take slots 0, 1… in declaration order.
    layout = layout_path.read_text() if layout_path.exists() else ""
    uniforms, structs, samplers, varyings = declarations(source)
    slots = varying_slots(layout) if layout else {name: i for i, (name, _) in enumerate(varyings)}
    flat = flat_uniforms(uniforms, structs, uniform_slots(layout))
    rng = np.random.default_rng(sum(path.stem.encode()))
    sets = []
    for kind in range(SETS + 1):
        grid_set = kind == SETS
        size = LARGE if grid_set else SMALL
        inputs = make_inputs(rng, kind % SETS, flat, samplers, varyings, slots, grid_set, "gl_PointCoord" in source)
        colors, discarded = render(ctx, moderngl, source, flat, samplers, varyings, slots, inputs, size)
        sets.append({
            "name": "grid" if grid_set else f"set{kind}",
            "grid": [size, size],
            "inputs": inputs,
            "colors": [[float(f"{c:.6g}") for c in px] for px in colors.reshape(-1, 4)],
            "discarded": [int(d) for d in discarded.reshape(-1)],
        })
    words = program_words(path)
    return {
        "program": path.stem,
        "oracle": "Mesa llvmpipe via moderngl (EGL), RGBA32F target",
        "words": [f"{int(w):08x}" for w in words],
        "glsl": source,
        "sets": sets,
    }


def main(argv: list[str]) -> int:
    import moderngl

    directory = Path(argv[0]) if argv else PROGRAMS
    names = set(argv[1:])
    ctx = moderngl.create_standalone_context(backend="egl")
    ctx.enable(moderngl.PROGRAM_POINT_SIZE)
    print(ctx.info["GL_RENDERER"], file=sys.stderr)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for path in sorted([*directory.glob("*.frag"), *(HERE / "lima_extra").glob("*.frag")]):
        if names and path.stem not in names:
            continue
        data = golden(ctx, moderngl, path)
        (GOLDEN / f"{path.stem}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")
        print(path.stem, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
