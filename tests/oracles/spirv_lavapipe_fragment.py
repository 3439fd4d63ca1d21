"""Writes golden data for fragment shaders: each corpus fragment shader whose interface a
full-screen triangle can feed (inputs by location, uniform blocks, push constants, sampled
images and samplers: 1D, 2D, 3D, cube, arrays) drawn by Mesa's lavapipe over a 4x4 grid
into RGBA32 attachments, with the same inputs the interpreter gets (the vertex shader
writes them as constants; the images are the very texels, mip levels included, that the
interpreter samples). Input sets: the defaults, then seeded random values (floats in
[-2, 2], so outside [0, 1] too) with random image sizes, texels and sampler settings.

    python tests/oracles/spirv_lavapipe_fragment.py CORPUS_DIR [OUT.json]
    python tests/oracles/spirv_lavapipe_fragment.py --trim CORPUS_DIR [OUT.json]

The suite replays every recorded grid, so a module keeps the input sets whose grids
fit in STEP_BUDGET interpreter steps, and one over STEP_CAP is left out (`--trim` applies
that to a file already written).
"""

from __future__ import annotations

import json
import multiprocessing
import random
import struct
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent), str(HERE.parent / "codec" / "interp")]

from agreement import Agreement, compare  # noqa: E402
from lavapipe import DriverError, Lavapipe, draw  # noqa: E402
from lavapipe_images import SamplerData, TextureData  # noqa: E402
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
STEP_BUDGET = 2_000
"""Interpreter steps a module's recorded grids may take together, so the suite compares
them all in seconds: the input sets that would go over it are left out (the random
sets come first; every module keeps one)."""
STEP_CAP = 10_000
"""A module whose one kept grid takes more steps than this is left out of the golden
data (its long loops would cost the suite seconds)."""
BUILTIN_INPUTS = {"FragCoord", "FrontFacing", "HelperInvocation"}
CAPABILITIES = {"Shader", "DerivativeControl", "DemoteToHelperInvocation", "Matrix", "Float64", "Int64", "Int16",
                "ImageQuery", "Sampled1D", "SampledCubeArray", "MinLod", "ImageGatherExtended",
                "SampledImageArrayDynamicIndexing"}
DIM_1D, DIM_2D, DIM_3D, DIM_CUBE = 0, 1, 2, 3
DREF_OPS = {"OpImageSampleDrefImplicitLod", "OpImageSampleDrefExplicitLod", "OpImageSampleProjDrefImplicitLod",
            "OpImageSampleProjDrefExplicitLod", "OpImageDrefGather", "OpImageSparseSampleDrefImplicitLod",
            "OpImageSparseSampleDrefExplicitLod", "OpImageSparseDrefGather"}
PASS_THROUGH = {"OpLoad", "OpAccessChain", "OpInBoundsAccessChain", "OpCopyObject", "OpImage", "OpSampledImage"}


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
        elif var.storage == "UniformConstant":
            why = _resource_problem(var.type)
            if why:
                return why
        elif var.storage not in ("PushConstant", "Private", "Function"):
            return f"a {var.storage} variable"
    return None


def _resource_problem(t: Type) -> str | None:
    """Why an image or sampler variable cannot be fed as a sampled resource (None if it can)."""
    if t.kind == "array":
        t = t.elem
    if t.kind == "sampler":
        return None
    if t.kind == "sampled_image":
        t = t.elem
    if t.kind != "image":
        return f"a UniformConstant {t.kind}"
    _, dim, _, _, ms, sampled, _ = t.image
    if sampled != 1 or ms:
        return "a storage or multisampled image"
    if dim not in (DIM_1D, DIM_2D, DIM_3D, DIM_CUBE):
        return "a rect, buffer or subpass image"
    return None


def _image_type(t: Type) -> Type:
    if t.kind == "array":
        t = t.elem
    return t.elem if t.kind == "sampled_image" else t


def compared_resources(shader: Shader) -> set[int]:
    """Image and sampler variables that reach a depth-comparison instruction (following
    loads, access chains, OpSampledImage and function arguments)."""
    roots: dict[int, set[int]] = {v.id: {v.id} for v in shader.variables.values() if v.storage == "UniformConstant"}
    for _ in range(3):
        for fn in shader.functions.values():
            for ins in fn.code:
                if ins.opname in PASS_THROUGH and ins.result_id is not None:
                    found = set().union(*(roots.get(a, set()) for a in ins.args[:2] if isinstance(a, int)))
                    if found:
                        roots.setdefault(ins.result_id, set()).update(found)
                elif ins.opname == "OpFunctionCall":
                    callee = shader.functions.get(ins.args[0])
                    for param, arg in zip(callee.params if callee else [], ins.args[1:]):
                        if arg in roots:
                            roots.setdefault(param, set()).update(roots[arg])
    out: set[int] = set()
    for fn in shader.functions.values():
        for ins in fn.code:
            if ins.opname in DREF_OPS:
                out |= roots.get(ins.args[0], set())
    return out


def texel_kind(shader: Shader, var, compared: set[int]) -> str:
    """How the driver stores the variable's texels: "float", "int", "uint" or "depth"."""
    t = _image_type(var.type)
    if t.kind != "image":
        return "none"
    if t.image[2] == 1 or var.id in compared:
        return "depth"
    s = t.elem
    return "float" if s.kind == "float" else "int" if s.signed else "uint"


def random_image(t: Type, kind: str, rng: random.Random, n: int) -> dict:
    """A texture of image type `t` as inputs JSON: a small random size (input set `n`),
    texels on a 1/16 grid in [-2, 2] (depth: [0, 1] in red, then 0, 0, 1; ints small)."""
    _, dim, _, arrayed, _, _, _ = t.image
    w = rng.choice((2, 4, 5)) if n else 4
    h = 1 if dim == DIM_1D else w if dim == DIM_CUBE else rng.choice((3, 4)) if n else 4
    d = rng.choice((2, 3)) if dim == DIM_3D or arrayed else 1
    if dim == DIM_CUBE:
        d = 6 * d if arrayed else 6
    rgba = []
    for _ in range(w * h * d):
        if kind == "depth":
            rgba += [rng.randint(0, 16) / 16, 0.0, 0.0, 1.0]
        elif kind == "float":
            rgba += [rng.randint(-32, 32) / 16 for _ in range(4)]
        elif kind == "int":
            rgba += [rng.randint(-4, 3) for _ in range(4)]
        else:
            rgba += [rng.randint(0, 7) for _ in range(4)]
    out = {"width": w, "height": h, "rgba": rgba}
    if d > 1:
        out["depth" if dim == DIM_3D else "layers"] = d
    return out


def sampler_json(n: int, kind: str) -> dict:
    """The sampler of input set `n`: the default, then nearest texels with repeat, then
    linear between mip levels; depth and integer textures are always read nearest."""
    exact = kind in ("depth", "int", "uint")
    if n == 1:
        return {"filter": "nearest", "mipmap": "nearest", "address": "repeat"}
    return {"filter": "nearest" if exact else "linear", "mipmap": "nearest" if exact or n == 0 else "linear",
            "address": "clamp"}


def image_inputs(shader: Shader, rng: random.Random, n: int) -> tuple[dict, dict]:
    """The `images` and `samplers` entries of input set `n` (set 0 gives only what the
    defaults cannot: depth and integer textures, which are read without filtering)."""
    compared = compared_resources(shader)
    kinds = {v.id: texel_kind(shader, v, compared) for v in shader.variables.values() if v.storage == "UniformConstant"}
    exact = any(k in ("depth", "int", "uint") for k in kinds.values())
    images, samplers = {}, {}
    for var in shader.variables.values():
        if var.storage != "UniformConstant":
            continue
        key = shader.binding_key(var)
        t = var.type.elem if var.type.kind == "array" else var.type
        count = var.type.count if var.type.kind == "array" else None
        kind = kinds[var.id]
        if t.kind == "sampler":
            if n or exact:
                one = sampler_json(n, "depth" if exact else "float")
                samplers[key] = [one] * count if count else one
            continue
        if not n and kind not in ("depth", "int", "uint"):
            continue
        entries = []
        for _ in range(count or 1):
            entry = random_image(_image_type(t), kind, rng, n)
            if t.kind == "sampled_image":
                entry["sampler"] = sampler_json(n, kind)
            entries.append(entry)
        images[key] = entries if count else entries[0]
    return images, samplers


def resources_for_driver(shader: Shader, probe: Group) -> dict:
    """(set, binding) → (descriptor kind, [(TextureData, SamplerData)]) from the very
    textures and samplers the interpreter built for this input set."""
    from spvinspect.codec.interp.images import Sampler, Texture

    compared = compared_resources(shader)
    out = {}
    for var in shader.variables.values():
        if var.storage != "UniformConstant":
            continue
        value = probe.shared[var.id].snapshot()
        items = list(value) if var.type.kind == "array" else [value]
        t = var.type.elem if var.type.kind == "array" else var.type
        kind = {"sampled_image": "combined", "image": "sampled", "sampler": "sampler"}[t.kind]
        texel = texel_kind(shader, var, compared)
        pairs = []
        for item in items:
            tex, smp = (item if isinstance(item, tuple) else (item, None))
            if isinstance(tex, Sampler):
                tex, smp = None, tex
            data = TextureData(tex.levels, tex.dim, tex.arrayed, texel) if isinstance(tex, Texture) else None
            sampler = SamplerData(smp.filter, smp.mipmap, smp.address, var.id in compared or texel == "depth") \
                if smp is not None else None
            pairs.append((data, sampler))
        s, b = (int(x) for x in shader.binding_key(var).split("."))
        out[(s, b)] = (kind, pairs)
    return out


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
    got = draw(driver, vertex_shader(shader, inputs, tmp), data, entry.name, GRID, outputs, uniforms, push,
               resources_for_driver(shader, probe))
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


_DRIVER: list = []


def module_cases(path: Path, corpus: Path) -> tuple[list[dict], Agreement, list[str]]:
    """The golden cases of one module (its input sets lavapipe and the interpreter both
    ran), how far they agreed, and what to report. Runs in a worker process, so a
    driver crash loses only this module."""
    if not _DRIVER:
        _DRIVER.append(Lavapipe())
    driver = _DRIVER[0]
    cases, total, log = [], Agreement(), []
    name = str(path.relative_to(corpus))
    try:
        shader = Shader(path.read_bytes())
    except ShaderError:
        return cases, total, log
    if runnable(shader):
        return cases, total, log
    data = path.read_bytes()
    rng = random.Random(path.name)
    with tempfile.TemporaryDirectory() as tmpdir:
        for n in range(INPUT_SETS):
            inputs = input_set(shader, rng, n)
            try:
                got = run_one(driver, data, shader, inputs, Path(tmpdir))
            except (DriverError, InputError, ShaderError, RuntimeError, ValueError, TypeError, KeyError) as error:
                log.append(f"{name}: skipped: {str(error)[:200]}")
                break
            if got is None:
                break
            ours, ref = got
            a = Agreement()
            for o, r in zip(ours, ref):
                if o is not None:
                    compare(o, r, name, a)
            total.add(a)
            cases.append({"module": name, "entry": shader.entry_points[0].name,
                          "inputs": inputs, "grid": list(GRID), "pixels": ref})
            if a.missed:
                log.append(f"{name} set {n}: {a.missed} of {a.compared} differ, e.g. {a.misses[:2]}")
    cases = within_budget(shader, cases)
    if cases:
        log.append(f"{name}: {len(cases)} input sets")
    return cases, total, log


def grid_steps(shader: Shader, case: dict) -> int:
    """Steps the interpreter takes over the case's grid, quad by quad as run_grid does."""
    from spvinspect.codec.interp.group import Launch

    w, h = case["grid"]
    steps = 0
    for qy in range(0, h, 2):
        for qx in range(0, w, 2):
            group = Group(shader, shader.entry_point(case["entry"]), case["inputs"], Launch(fragment=(qx, qy)))
            group.run(200_000)
            steps += sum(inv.steps for inv in group.invocations)
    return steps


def within_budget(shader: Shader, cases: list[dict]) -> list[dict]:
    """A module's cases while their grids take at most STEP_BUDGET steps together (the
    random input sets first; at least one), none if that one takes over STEP_CAP."""
    ordered = sorted(cases, key=lambda c: 0 if "inputs" in c["inputs"] else 1)
    kept, steps = [], 0
    for case in ordered:
        n = grid_steps(shader, case)
        if not kept and n > STEP_CAP:
            return []
        if kept and steps + n > STEP_BUDGET:
            continue
        kept.append(case)
        steps += n
    return kept


def trim(out_path: Path, corpus: Path) -> int:
    """Applies the step budget to golden data already written (no driver needed)."""
    data = json.loads(out_path.read_text())
    by_module: dict[str, list[dict]] = {}
    for case in data["cases"]:
        by_module.setdefault(case["module"], []).append(case)
    cases = []
    for name, group in by_module.items():
        cases += within_budget(Shader((corpus / name).read_bytes()), group)
    data["cases"] = cases
    out_path.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{len({c['module'] for c in cases})} of {len(by_module)} shaders, {len(cases)} runs kept")
    return 0


def input_set(shader: Shader, rng: random.Random, n: int) -> dict:
    """Input set `n` as inputs JSON: 0 the defaults (images only where the defaults
    cannot be read unfiltered), then seeded random values."""
    inputs: dict = {}
    images, samplers = image_inputs(shader, rng, n)
    if images:
        inputs["images"] = images
    if samplers:
        inputs["samplers"] = samplers
    if n:
        inputs["inputs"] = {shader.variable_name(v): random_json(v.type, rng, 4)
                            for v in shader.variables.values()
                            if v.storage == "Input" and shader.builtin(v.id) is None}
        inputs["buffers"] = {shader.binding_key(v): random_json(v.type, rng, 4)
                             for v in shader.variables.values() if v.storage == "Uniform"}
        for v in shader.variables.values():
            if v.storage == "PushConstant":
                inputs["push_constants"] = random_json(v.type, rng, 4)
    return inputs


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--trim":
        corpus, _, out_path = command_line(argv[1:], "frag", OUT)
        return trim(out_path, corpus)
    corpus, paths, out_path = command_line(argv, "frag", OUT)
    cases, total = [], Agreement()
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(1, mp_context=context)
    for path in paths:
        try:
            got, agreement, log = pool.submit(module_cases, path, corpus).result()
        except BrokenProcessPool:
            print(f"{path.relative_to(corpus)}: skipped: lavapipe crashed", file=sys.stderr)
            pool = ProcessPoolExecutor(1, mp_context=context)
            continue
        for line in log:
            print(line, file=sys.stderr)
        cases += got
        total.add(agreement)
    pool.shutdown()
    return write_golden(out_path, cases, total)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
