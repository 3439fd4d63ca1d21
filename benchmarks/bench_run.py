"""The interpreter's speed against the issue's targets: one invocation of the bundled
example (a fragment quad) <= 20 ms, a step and a back <= 16 ms, a 64x64 grid of a
300-instruction fragment shader (benchmarks/grid_shader.frag, or --module) <= 3 s in
lanes, with a smaller grid quad by quad beside it, and the same for a sampling shader
with a coordinate per pixel (benchmarks/sampling_shader.frag); lavapipe's time for the
same grid when the `vulkan` bindings and Mesa's lavapipe are installed.

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
    worst = worst_cpu = 0.0
    count = 0
    while not debugger.finished:
        start, cpu = time.perf_counter(), time.process_time()
        if debugger.step() is None:
            break
        worst = max(worst, time.perf_counter() - start)
        worst_cpu = max(worst_cpu, time.process_time() - cpu)
        count += 1
    print(f"worst single step           {worst * 1000:8.3f} ms   target 16 ms   ({count} steps; {worst_cpu * 1000:.1f} ms of CPU)")
    worst_back = worst_back_cpu = 0.0
    backs = 0
    while debugger.history and backs < 64:
        start, cpu = time.perf_counter(), time.process_time()
        debugger.back()
        worst_back = max(worst_back, time.perf_counter() - start)
        worst_back_cpu = max(worst_back_cpu, time.process_time() - cpu)
        backs += 1
    print(f"worst back (of {backs})         {worst_back * 1000:8.1f} ms   target 16 ms   ({worst_back_cpu * 1000:.1f} ms of CPU;"
          f" a saved state every {debugger.interval} steps, then replay)")

    n = args.grid
    grid_data, grid_name = (data, "the module") if args.module else (grid_module(), "benchmarks/grid_shader.frag")
    bench_grid(grid_data, grid_name, inputs if args.module else {}, n)
    if not args.module:
        bench_grid(grid_module("sampling_shader.frag"), "benchmarks/sampling_shader.frag", {}, n)

    reference = lavapipe_grid(grid_data, Shader(grid_data).entry_point().name, n)
    if reference is not None:
        print(f"lavapipe {n}x{n} draw          {reference:8.3f} s    (pipeline creation included)")
    return 0


def bench_grid(grid_data: bytes, grid_name: str, grid_inputs: dict, n: int) -> None:
    """An n x n grid in lanes, and an n/8 grid quad by quad beside it."""
    grid_shader = Shader(grid_data)
    grid_entry = grid_shader.entry_point()
    size = sum(len(fn.code) for fn in grid_shader.functions.values())
    print(f"grid: {grid_name}, {len(grid_shader.instructions)} instructions ({size} in its functions)")
    start, cpu = time.perf_counter(), time.process_time()
    result = run_grid(grid_shader, grid_entry, grid_inputs, (n, n))
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    how = f"invocation by invocation: {result['per_invocation']}" if "per_invocation" in result else "in lanes"
    print(f"{n}x{n} grid                  {wall:8.2f} s    target 3 s   ({cpu:.2f} s of CPU, {how})")
    m = max(2, n // 8)
    start, cpu = time.perf_counter(), time.process_time()
    run_grid(grid_shader, grid_entry, grid_inputs, (m, m), lanes=False)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"{m}x{m} grid quad by quad       {wall:8.2f} s    ({cpu:.2f} s of CPU; x{(n * n) / (m * m):.0f} for {n}x{n})")


def grid_module(name: str = "grid_shader.frag") -> bytes:
    """benchmarks/`name` compiled with glslang (as the tests compile GLSL)."""
    import tempfile

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    from oracle import compile_glsl

    source = (Path(__file__).resolve().parent / name).read_text()
    with tempfile.TemporaryDirectory() as tmp:
        return compile_glsl(source, "frag", Path(tmp) / "grid.spv")


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
    try:
        driver = Lavapipe()
    except (ImportError, OSError, RuntimeError) as error:
        print(f"lavapipe: not run ({type(error).__name__}: {error})")
        return None
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
