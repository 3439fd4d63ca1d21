"""A group of invocations run together: a fragment shader's 2x2 quad, a compute shader's
workgroup, one vertex. The group answers what an invocation cannot do alone — derivatives
and implicit-LOD sampling from the quad's values, barriers once every invocation waits."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from spvinspect.codec.interp.interface import (
    buffers_json, images_json, lane_cells, outputs_json, shared_cells,
)
from spvinspect.codec.interp.invocation import BLOCKED, DONE, KILLED, RUNNING, STOPPED, Invocation, position
from spvinspect.codec.interp.shader import EntryPoint, Shader, ShaderError
from spvinspect.codec.interp.trace import undefined_paths
from spvinspect.codec.interp.types import UNDEF

STEP_LIMIT = 2_000_000
"""Steps of a whole group before it is stopped as running away."""

STAGES = {"Fragment": "fragment", "GLCompute": "compute", "Vertex": "vertex", "Geometry": "geometry",
          "TessellationControl": "tessellation control", "TessellationEvaluation": "tessellation evaluation",
          "MeshEXT": "mesh", "TaskEXT": "task", "MeshNV": "mesh", "TaskNV": "task", "Kernel": "kernel",
          "RayGenerationKHR": "ray generation", "ClosestHitKHR": "closest hit", "MissKHR": "miss",
          "AnyHitKHR": "any hit", "IntersectionKHR": "intersection", "CallableKHR": "callable"}


@dataclass
class Launch:
    """Where the group runs: a fragment's pixel, or a workgroup and the invocation in it."""

    fragment: tuple[int, int] = (0, 0)
    workgroup: tuple[int, int, int] = (0, 0, 0)
    invocation: tuple[int, int, int] = (0, 0, 0)


def workgroup_size(shader: Shader, entry: EntryPoint) -> tuple[int, int, int]:
    for var_id, decs in shader.decorations.items():
        if "BuiltIn" in decs and shader.builtin(var_id) == "WorkgroupSize":
            v = shader.constants.get(var_id)
            if isinstance(v, tuple) and all(isinstance(c, int) for c in v):
                return tuple(v)
    if "LocalSize" in entry.modes:
        return tuple(entry.modes["LocalSize"][:3])
    if "LocalSizeId" in entry.modes:
        return tuple(shader.constants.get(i, 1) for i in entry.modes["LocalSizeId"][:3])
    return (1, 1, 1)


def _lanes(shader: Shader, entry: EntryPoint, inputs: dict, launch: Launch):
    """Each invocation's builtins, and the index of the one the caller asked for."""
    stage = entry.model
    if stage == "Fragment":
        fx, fy = launch.fragment
        qx, qy = fx - fx % 2, fy - fy % 2
        z, w = 0.5, 1.0
        fc = inputs.get("fragcoord")
        if isinstance(fc, list) and len(fc) >= 4:
            z, w = fc[2], fc[3]
        lanes = []
        for i in range(4):
            x, y = qx + i % 2, qy + i // 2
            lanes.append({"FragCoord": [x + 0.5, y + 0.5, z, w], "FrontFacing": True, "HelperInvocation": False,
                          "PointCoord": [0.5, 0.5], "SamplePosition": [0.5, 0.5], "SampleId": 0,
                          "SampleMask": [1], "_pixel": (x, y)})
        if isinstance(fc, list) and len(fc) >= 2:
            # An explicit fragcoord moves the chosen pixel; its quad keeps the 1-pixel spacing.
            own = (fx - qx) + 2 * (fy - qy)
            dx, dy = fc[0] - lanes[own]["FragCoord"][0], fc[1] - lanes[own]["FragCoord"][1]
            for lane in lanes:
                lane["FragCoord"] = [lane["FragCoord"][0] + dx, lane["FragCoord"][1] + dy, z, w]
        return lanes, (fx - qx) + 2 * (fy - qy), 4
    if stage in ("GLCompute", "Kernel", "MeshEXT", "TaskEXT", "MeshNV", "TaskNV"):
        sx, sy, sz = workgroup_size(shader, entry)
        wg = launch.workgroup
        lanes = []
        for z in range(sz):
            for y in range(sy):
                for x in range(sx):
                    index = x + sx * (y + sy * z)
                    g = [wg[0] * sx + x, wg[1] * sy + y, wg[2] * sz + z]
                    lanes.append({"LocalInvocationId": [x, y, z], "GlobalInvocationId": g, "WorkgroupId": list(wg),
                                  "NumWorkgroups": [wg[0] + 1, wg[1] + 1, wg[2] + 1], "WorkgroupSize": [sx, sy, sz],
                                  "LocalInvocationIndex": index, "SubgroupSize": 32, "SubgroupLocalInvocationId": index % 32,
                                  "SubgroupId": index // 32, "NumSubgroups": (sx * sy * sz + 31) // 32})
        ix, iy, iz = launch.invocation
        if not (0 <= ix < sx and 0 <= iy < sy and 0 <= iz < sz):
            raise ShaderError(f"invocation {ix},{iy},{iz} is outside the workgroup of {sx}x{sy}x{sz}")
        return lanes, ix + sx * (iy + sy * iz), 1
    inv = inputs.get("invocation") or [0, 0, 0]
    lane = {"VertexIndex": 0, "InstanceIndex": 0, "BaseVertex": 0, "BaseInstance": 0, "DrawIndex": 0,
            "InvocationId": inv[0] if inv else 0, "PrimitiveId": 0, "LaunchIdKHR": list(inv), "LaunchSizeKHR": [1, 1, 1],
            "TessCoord": [0.25, 0.25, 0.5], "PatchVertices": 3}
    return [lane], 0, 1


class Group:
    """The invocations of one launch, sharing buffers, images and workgroup memory."""

    def __init__(self, shader: Shader, entry: EntryPoint, inputs: dict | None = None, launch: Launch | None = None) -> None:
        try:
            self._setup(shader, entry, inputs, launch)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as error:
            raise ShaderError(f"cannot set up entry point {entry.name!r}: {type(error).__name__}: {error}") from None

    def _setup(self, shader: Shader, entry: EntryPoint, inputs: dict | None, launch: Launch | None) -> None:
        self.shader, self.entry = shader, entry
        self.inputs = inputs or {}
        self.launch = launch or Launch()
        lanes, self.focus, self.quad = _lanes(shader, entry, self.inputs, self.launch)
        self.shared = shared_cells(shader, entry, self.inputs, len(lanes))
        self.invocations: list[Invocation] = []
        self.lane_cells = []
        for i, lane in enumerate(lanes):
            cells = dict(self.shared)
            own = lane_cells(shader, entry, self.inputs, lane)
            cells.update(own)
            self.lane_cells.append(own)
            self.invocations.append(Invocation(shader, entry.function, cells, i))
        self.steps = 0

    @property
    def stage(self) -> str:
        return STAGES.get(self.entry.model, self.entry.model)

    @property
    def stopped(self) -> Invocation | None:
        for inv in self.invocations:
            if inv.status == STOPPED:
                return inv
        return None

    @property
    def finished(self) -> bool:
        return all(inv.status in (DONE, KILLED, STOPPED) for inv in self.invocations) or self.stopped is not None

    def run(self, limit: int = STEP_LIMIT) -> None:
        """Run every invocation to its end (or until one stops, or `limit` steps)."""
        invocations = self.invocations
        if self.stopped is not None:
            return
        with np.errstate(all="ignore"):
            while self.steps < limit:
                ran = stopped = False
                for inv in invocations:
                    if inv.status == RUNNING:
                        inv.step()
                        self.steps += 1
                        ran = True
                        stopped = stopped or inv.status == STOPPED
                if stopped or not ran and not self.resolve():
                    break

    def advance(self, skip: Invocation | None = None) -> bool:
        """One step of every running invocation but `skip`, in lockstep as a GPU wave
        steps (so two invocations racing on memory both load before either stores);
        False when none was running."""
        ran = False
        for inv in self.invocations:
            if inv.status == RUNNING and inv is not skip:
                inv.step()
                self.steps += 1
                ran = True
        return ran

    def resolve(self) -> bool:
        """Answer the blocked invocations; False when none was blocked."""
        blocked = [inv for inv in self.invocations if inv.status == BLOCKED]
        if not blocked:
            return False
        subgroup = [inv for inv in blocked if inv.sync[0] == "subgroup"]
        if subgroup:
            self._subgroups(subgroup)
            return True
        derivs = [inv for inv in blocked if inv.sync[0] != "barrier"]
        if derivs:
            # The invocations waiting earliest in the program go first, as a wave's lanes
            # that took a branch finish it before the others go on: a quad's lanes reach a
            # derivative after the branch together, not one of them still inside it.
            first = min(position(inv.frames) for inv in derivs)
            ready = [inv for inv in derivs if position(inv.frames) == first]
            for inv in ready:
                inv.answer = self._derivatives(inv, ready)
            for inv in ready:
                inv.status = RUNNING
            return True
        for inv in blocked:
            inv.answer = True
            inv.status = RUNNING
        return True

    def _subgroups(self, blocked: list[Invocation]) -> None:
        """Answer the invocations blocked on a subgroup instruction, subgroup by subgroup
        (a fragment quad; 32 invocations of a workgroup) and instruction by instruction."""
        from spvinspect.codec.interp.subgroup import SUBGROUP_SIZE, answer

        size = self.quad if self.quad > 1 else SUBGROUP_SIZE
        parts: dict[tuple[int, int], list[Invocation]] = {}
        for inv in blocked:
            parts.setdefault((inv.index // size, id(inv.sync[1])), []).append(inv)
        for invs in parts.values():
            ins = invs[0].sync[1]
            results = answer(self.shader, ins, [(inv.index % size, inv.sync[2]) for inv in invs])
            for inv in invs:
                inv.answer = _Answer(results[inv.index % size])
                inv.status = RUNNING

    def _derivatives(self, inv: Invocation, ready: list[Invocation]):
        """(d/dx, d/dy) for `inv` from its quad's invocations in `ready` (the others count
        as its own value)."""
        base = inv.index - inv.index % self.quad
        kind, ins, own = inv.sync
        vals = []
        for q in range(self.quad):
            other = self.invocations[base + q] if base + q < len(self.invocations) else None
            if other is not None and other in ready and other.sync[1] is ins:
                vals.append(other.sync[2])
            else:
                vals.append(own)
        if self.quad < 4:
            z = _sub(own, own)
            return z, z
        pos = inv.index - base
        if kind == "fine":
            row, col = pos // 2, pos % 2
            return _sub(vals[row * 2 + 1], vals[row * 2]), _sub(vals[2 + col], vals[col])
        return _sub(vals[1], vals[0]), _sub(vals[2], vals[0])

    # -- results --------------------------------------------------------------------------
    def result(self) -> dict:
        """The JSON the `run` command prints."""
        inv = self.invocations[self.focus]
        stopped = self.stopped
        if stopped is not None and stopped.unsupported is not None:
            return {"unsupported": {"opcode": stopped.unsupported.opname, "offset": stopped.unsupported.offset,
                                    "message": stopped.message}}
        out = {"entry": self.entry.name, "stage": self.stage,
               "outputs": outputs_json(self.shader, self.lane_cells[self.focus]),
               "buffers": buffers_json(self.shader, self.shared),
               "steps": inv.steps}
        images = images_json(self.shader, self.shared)
        if images:
            out["images"] = images
        undefined = undefined_paths({k: out[k] for k in ("outputs", "buffers", "images") if k in out})
        if undefined:
            out["undefined"] = undefined
        if inv.status == KILLED:
            out["killed"] = True
        if stopped is not None:
            out["stopped"] = stopped.message
        elif not self.finished:
            out["stopped"] = f"step limit: {self.steps} steps without finishing"
        if inv.helper:
            out["helper"] = True
        return out


class _Answer:
    """A subgroup result (which may itself be None-like, e.g. False) as a non-None answer."""

    __slots__ = ("value",)

    def __init__(self, value) -> None:
        self.value = value


def _sub(a, b):
    if isinstance(a, tuple):
        return tuple(_sub(x, y) for x, y in zip(a, b))
    if a is UNDEF or b is UNDEF:
        return UNDEF
    return a - b


def run_entry(data: bytes, entry: str | None = None, inputs: dict | None = None, launch: Launch | None = None,
              limit: int = STEP_LIMIT) -> dict:
    """Run an entry point of the module in `data`; the result as JSON (see `Group.result`)."""
    inputs = inputs or {}
    shader = Shader(data, inputs.get("spec_constants"))
    group = Group(shader, shader.entry_point(entry), inputs, launch)
    group.run(limit)
    return group.result()


def run_grid(shader: Shader, entry: EntryPoint, inputs: dict, size: tuple[int, int], limit: int = STEP_LIMIT,
             progress: Callable[[int, int], bool] | None = None, lanes: bool = True) -> dict:
    """A fragment shader over a W x H grid: each pixel's outputs (None for a killed
    fragment), rows from the top. All the grid's invocations run together in lanes
    (`lanes.run_lanes`) when the module allows; otherwise quad by quad, and "per_invocation"
    says why. `progress(rows done, rows)` is called as the run goes; when it returns False
    the run stops there (the rest stay None)."""
    from spvinspect.codec.interp.lanes import LaneFallback, run_lanes

    w, h = size
    why = "lanes turned off"
    if lanes:
        going = (lambda: progress(0, h)) if progress is not None else None
        try:
            pixels = run_lanes(shader, entry, inputs, size, limit, going)
        except LaneFallback as error:
            why = str(error)
        else:
            if pixels is None:
                pixels = [None] * (w * h)
            elif progress is not None:
                progress(h, h)
            return {"width": w, "height": h, "pixels": pixels}
    pixels = [None] * (w * h)
    for qy in range(0, h, 2):
        if progress is not None and not progress(qy, h):
            break
        for qx in range(0, w, 2):
            group = Group(shader, entry, inputs, Launch(fragment=(qx, qy)))
            group.run(limit)
            for i, inv in enumerate(group.invocations):
                x, y = qx + i % 2, qy + i // 2
                if x < w and y < h and inv.status == DONE and not inv.helper:
                    pixels[y * w + x] = outputs_json(shader, group.lane_cells[i])
    return {"width": w, "height": h, "pixels": pixels, "per_invocation": why}
