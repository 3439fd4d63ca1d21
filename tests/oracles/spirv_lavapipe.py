"""Writes golden data: the corpus's compute shaders run by Mesa's lavapipe on the very
same module and the same inputs the interpreter gets (zeros, then seeded random values),
their buffers after workgroup 0 stored as JSON for the suite to compare against.

    python tests/oracles/spirv_lavapipe.py CORPUS_DIR [OUT.json]
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "codec" / "interp")]

from agreement import Agreement, compare  # noqa: E402
from lavapipe import DriverError, Lavapipe  # noqa: E402

from spvinspect.codec.interp import layout  # noqa: E402
from spvinspect.codec.interp.group import Group, workgroup_size  # noqa: E402
from spvinspect.codec.interp.interface import InputError, default_runtime_length  # noqa: E402
from spvinspect.codec.interp.shader import Shader, ShaderError  # noqa: E402
from spvinspect.codec.interp.types import Type, to_json  # noqa: E402

OUT = HERE.parent / "codec" / "golden" / "lavapipe_compute.json"
INPUT_SETS = 3
ALLOWED_STORAGE = {"StorageBuffer", "Uniform", "PushConstant", "Workgroup", "Input", "Private", "Output"}


def random_json(t: Type, rng: random.Random, length: int):
    """A random value of `t` as inputs JSON: floats on a 1/16 grid in [-2, 2], small ints."""
    k = t.kind
    if k == "float":
        return rng.randint(-32, 32) / 16
    if k == "int":
        return rng.randint(-4, 3) if t.signed else rng.randint(0, 7)
    if k == "bool":
        return rng.random() < 0.5
    if k in ("vector", "matrix", "array"):
        return [random_json(t.elem, rng, length) for _ in range(t.count)]
    if k == "runtime_array":
        return [random_json(t.elem, rng, length) for _ in range(length)]
    if k == "struct":
        return {t.member_name(i): random_json(m, rng, length) for i, m in enumerate(t.members)}
    return None


def runnable(shader: Shader) -> str | None:
    """Why lavapipe cannot run this shader here (None when it can)."""
    for var in shader.variables.values():
        if var.storage not in ALLOWED_STORAGE and var.storage != "Function":
            return f"a {var.storage} variable"
        if var.storage in ("StorageBuffer", "Uniform") and var.type.kind != "struct":
            return "an array of buffers"
    keys = [shader.binding_key(v) for v in shader.variables.values() if shader.binding_key(v)]
    if len(keys) != len(set(keys)):
        return "variables aliased on one binding"
    if len(shader.entry_points) != 1 or shader.entry_points[0].model != "GLCompute":
        return "not a single compute entry point"
    for cap in shader.capabilities:
        if cap not in ("Shader", "Int16", "Int64", "Float16", "Float64", "Int8", "StorageBuffer16BitAccess",
                       "UniformAndStorageBuffer16BitAccess", "StorageBuffer8BitAccess", "GroupNonUniform"):
            return f"capability {cap}"
    return None


def buffer_keys(shader: Shader):
    for var in shader.variables.values():
        if var.storage in ("StorageBuffer", "Uniform"):
            key = shader.binding_key(var)
            kind = "storage" if var.storage == "StorageBuffer" or var.type.buffer_block else "uniform"
            yield var, key, kind


def run_one(driver: Lavapipe, path: Path, data: bytes, shader: Shader, inputs: dict) -> tuple[dict, dict] | None:
    """(our buffers, lavapipe's buffers) as JSON for one input set, or None."""
    entry = shader.entry_points[0]
    group = Group(shader, entry, inputs)
    group.run(200_000)
    if not group.finished or group.stopped is not None:
        return None
    ours = group.result()["buffers"]
    fresh = Group(shader, entry, inputs)  # the inputs as the interpreter laid them out
    buffers, kinds, lengths = {}, {}, {}
    for var, key, kind in buffer_keys(shader):
        cell = fresh.shared[var.id]
        value = cell.snapshot()
        out = bytearray()
        layout.encode(var.type, value, out)
        s, b = (int(x) for x in key.split("."))
        buffers[(s, b)] = (kind, bytes(out))
        kinds[key] = var
        lengths[key] = _runtime_length(var.type, value)
    push = b""
    for var in shader.variables.values():
        if var.storage == "PushConstant":
            out = bytearray()
            layout.encode(var.type, fresh.shared[var.id].snapshot(), out)
            push = bytes(out)
    result = driver.dispatch(data, entry.name, buffers, push)
    ref = {}
    for key, var in kinds.items():
        s, b = (int(x) for x in key.split("."))
        if buffers[(s, b)][0] != "storage":
            continue
        value = layout.decode(var.type, result[(s, b)], runtime_length=lengths[key])
        ref[key] = to_json(var.type, value)
    return ours, ref


def _runtime_length(t: Type, value) -> int:
    if t.kind == "struct" and t.members and t.members[-1].kind == "runtime_array":
        return len(value[-1])
    return 0


def command_line(argv: list[str], stage: str, out: Path) -> tuple[Path, list[Path], Path]:
    """CORPUS_DIR [OUT.json]: the corpus, its modules of `stage` (`comp`, `frag`; spv/, then
    peer/'s), and where the golden data goes (`out` unless given)."""
    corpus = Path(argv[0])
    pattern = f"*.{stage}.spv"
    paths = sorted((corpus / "spv").glob(pattern)) + sorted((corpus / "peer").rglob(pattern))
    return corpus, paths, Path(argv[1]) if len(argv) > 1 else out


def main(argv: list[str]) -> int:
    corpus, paths, out_path = command_line(argv, "comp", OUT)
    driver = Lavapipe()
    cases, total = [], Agreement()
    for path in paths:
        data = path.read_bytes()
        try:
            shader = Shader(data)
        except ShaderError:
            continue
        why = runnable(shader)
        if why:
            continue
        size = workgroup_size(shader, shader.entry_points[0])
        length = default_runtime_length(size[0] * size[1] * size[2])
        rng = random.Random(path.name)
        kept = 0
        for n in range(INPUT_SETS):
            inputs: dict = {}
            if n:
                inputs["buffers"] = {key: random_json(var.type, rng, length) for var, key, _ in buffer_keys(shader)}
                for var in shader.variables.values():
                    if var.storage == "PushConstant":
                        inputs["push_constants"] = random_json(var.type, rng, length)
            try:
                got = run_one(driver, path, data, shader, inputs)
            except (DriverError, InputError, ShaderError, ValueError, TypeError, KeyError) as error:
                print(f"{path.name}: skipped: {error}", file=sys.stderr)
                break
            if got is None:
                break
            ours, ref = got
            a = compare(ours, ref)
            total.add(a)
            kept += 1
            cases.append({"module": str(path.relative_to(corpus)), "entry": shader.entry_points[0].name,
                          "inputs": inputs, "buffers": ref})
            if a.missed:
                print(f"{path.name} set {n}: {a.missed} of {a.compared} differ, e.g. {a.misses[:2]}", file=sys.stderr)
        if kept:
            print(f"{path.name}: {kept} input sets", file=sys.stderr)
    return write_golden(out_path, cases, total)


def write_golden(out_path: Path, cases: list[dict], total: Agreement) -> int:
    """Writes the cases as golden JSON and prints how far the interpreter agreed; the exit code."""
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(json.dumps({"driver": "lavapipe", "cases": cases}, separators=(",", ":")) + "\n")
    shaders = len({c["module"] for c in cases})
    print(f"{shaders} shaders, {len(cases)} runs; {total.exact + total.close}/{total.compared} components agree "
          f"({100 * total.ratio:.2f}%; {total.exact} within rounding, {total.close} within GLSL precision, "
          f"{total.undefined} undefined in ours)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
