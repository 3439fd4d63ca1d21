"""The interpreter's speed against the issue's targets: one invocation of the bundled
example (a fragment quad) <= 20 ms, a step <= 16 ms, a 64x64 grid of a fragment shader
<= 3 s; with lavapipe's time for the same grid beside it when the `vulkan` bindings and
Mesa's lavapipe are installed.

Usage: python benchmarks/bench_run.py [--module PATH] [--repeat N]

Each figure is the best of N runs (the machine is shared: compare figures within a run).
"""

from __future__ import annotations

import argparse
import sys
import time
from importlib.resources import files
from pathlib import Path

from spvinspect.codec.interp.debugger import Debugger
from spvinspect.codec.interp.group import Group, run_grid
from spvinspect.codec.interp.shader import Shader


EXAMPLE_INPUTS = {"buffers": {"0.1": {"tint": [1, 1, 1, 1], "mode": 1, "steps": 8, "threshold": 0.0}},
                  "inputs": {"uv": [0.25, 0.5]}}
"""The bundled example's blur branch: a loop of 17 texture reads."""


def best(fn, repeat: int, clock=time.perf_counter) -> float:
    times = []
    for _ in range(repeat):
        start = clock()
        fn()
        times.append(clock() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--module", default=None, help="a fragment shader (default: the bundled example)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--grid", type=int, default=64)
    parser.add_argument("--inputs", default=None, help="inputs JSON (default for the example: the blur of 17 taps)")
    args = parser.parse_args()
    import json

    inputs = json.loads(Path(args.inputs).read_text()) if args.inputs else {} if args.module else EXAMPLE_INPUTS
    data = Path(args.module).read_bytes() if args.module else (files("spvinspect") / "examples" / "example.spv").read_bytes()
    shader = Shader(data)
    entry = shader.entry_point()
    print(f"module: {args.module or 'bundled example.spv'}, {len(shader.instructions)} instructions, entry {entry.name} ({entry.model})")

    prepare = best(lambda: Shader(data), args.repeat)
    print(f"prepare the module          {prepare * 1000:8.1f} ms")

    def one():
        g = Group(shader, entry, inputs)
        g.run()
        return g

    group = one()
    inv = group.invocations[group.focus]
    run = best(one, args.repeat)
    cpu = best(one, args.repeat, time.process_time)
    print(f"one invocation (its group)  {run * 1000:8.1f} ms   target 20 ms   ({inv.steps} steps, {len(group.invocations)} invocations;"
          f" {cpu * 1000:.1f} ms of CPU)")

    debugger = Debugger(shader, inputs=inputs)
    worst = 0.0
    count = 0
    while not debugger.finished:
        start = time.perf_counter()
        if debugger.step() is None:
            break
        worst = max(worst, time.perf_counter() - start)
        count += 1
    print(f"worst single step           {worst * 1000:8.3f} ms   target 16 ms   ({count} steps)")
    worst_back = 0.0
    backs = 0
    while debugger.history and backs < 64:
        start = time.perf_counter()
        debugger.back()
        worst_back = max(worst_back, time.perf_counter() - start)
        backs += 1
    print(f"worst back (of {backs})         {worst_back * 1000:8.1f} ms   target 16 ms   (a saved state every "
          f"{debugger.interval} steps, then replay)")

    n = args.grid
    start = time.perf_counter()
    run_grid(shader, entry, inputs, (n, n))
    grid = time.perf_counter() - start
    print(f"{n}x{n} grid                  {grid:8.2f} s    target 3 s (one quad at a time, not yet vectorised)")

    reference = lavapipe_grid(data, entry.name, n)
    if reference is not None:
        print(f"lavapipe {n}x{n} draw          {reference:8.3f} s    (pipeline creation included)")
    return 0


def lavapipe_grid(data: bytes, entry: str, n: int) -> float | None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "oracles"))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "codec" / "interp"))
    try:
        import tempfile

        from lavapipe import Lavapipe, draw
        from spirv_lavapipe_fragment import runnable, vertex_shader
    except ImportError:
        return None
    shader = Shader(data)
    why = runnable(shader)
    if why:
        print(f"lavapipe: not run ({why})")
        return None
    driver = Lavapipe()
    outputs = {}
    for var in shader.variables.values():
        if var.storage == "Output":
            s = var.type.elem if var.type.kind == "vector" else var.type
            outputs[shader.decoration(var.id, "Location")] = "float" if s.kind == "float" else "int" if s.signed else "uint"
    from spvinspect.codec.interp import layout

    group = Group(shader, shader.entry_point(entry))
    uniforms = {}
    for var in shader.variables.values():
        if var.storage == "Uniform":
            out = bytearray()
            layout.encode(var.type, group.shared[var.id].snapshot(), out)
            s, b = (int(x) for x in shader.binding_key(var).split("."))
            uniforms[(s, b)] = bytes(out)
    with tempfile.TemporaryDirectory() as tmp:
        vert = vertex_shader(shader, {}, Path(tmp))
        start = time.perf_counter()
        draw(driver, vert, data, entry, (n, n), outputs, uniforms)
        return time.perf_counter() - start


if __name__ == "__main__":
    sys.exit(main())
