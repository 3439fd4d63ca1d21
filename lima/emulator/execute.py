"""One instruction on a batch of lanes: its units in pipeline order, each reading what the
units before it in the same instruction wrote.

Order (the field order, which is the PP pipeline's): varying fetch, texture sampling,
uniform/temporary load, vec4 and scalar multiply, vec4 and scalar add, combine, temporary
store, branch; the constants are there before any unit reads them. A later unit sees an
earlier unit's register writes of the same instruction (Mesa's programs rely on it:
`load.v $0.xy 0.xy, mov.v1 $0.xy $0.yxxx`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spvinspect.lima.emulator import semantics
from spvinspect.lima.emulator.fp16 import half, mask_components, modify, outmod, swizzle, wide
from spvinspect.lima.emulator.inputs import DEFAULT_TEXTURE, Inputs
from spvinspect.lima.emulator.state import (
    CONST0,
    CONST1,
    GENERAL_REGISTERS,
    PIPELINE_NAMES,
    TEXTURE,
    UNIFORM,
    EmulationError,
    StepRecord,
    State,
    Write,
)
from spvinspect.lima.emulator.textures import sample
from spvinspect.lima.meanings import COMPONENTS, sign_extend
from spvinspect.lima.model import Field, Instruction

SAMPLER_2D, SAMPLER_CUBE = 0, 0x1F
_COUNT_BY_ALIGNMENT = {0: 1, 1: 2}


class Lanes:
    """The per-lane inputs of a batch laid out as a grid (row 0 at the bottom), so the
    derivative ops find each lane's neighbours in its 2x2 quad."""

    def __init__(self, inputs: Inputs, xs: np.ndarray, ys: np.ndarray, grid: tuple[int, int], shape: tuple[int, int]):
        self.inputs = inputs
        self.shape = shape
        """(rows, columns) of the lanes; both even."""
        width, height = grid
        u = (xs + 0.5) / width
        v = (ys + 0.5) / height
        components = max(4, -(-len(inputs.varyings) // 4) * 4)
        self.varyings = half(inputs.varying_at(u, v, components))
        self.uniforms = half(inputs.uniform_components(max(4, -(-len(inputs.uniforms) // 4) * 4)))
        n = len(xs)
        if inputs.fragcoord is None:
            self.fragcoord = half(np.stack([xs + 0.5, ys + 0.5, np.full(n, 0.5), np.ones(n)], axis=1))
        else:
            self.fragcoord = half(np.tile(inputs.fragcoord, (n, 1)))
        if inputs.pointcoord is None:
            self.pointcoord = half(np.stack([u, 1.0 - v], axis=1))
        else:
            self.pointcoord = half(np.tile(inputs.pointcoord, (n, 1)))
        self.frontfacing = 1.0 if inputs.frontfacing else 0.0

    @property
    def count(self) -> int:
        return self.shape[0] * self.shape[1]


def _vname(reg: int, mask: int = 0xF) -> str:
    name = PIPELINE_NAMES.get(reg, f"${reg}")
    return name if mask == 0xF else f"{name}.{''.join(COMPONENTS[i] for i in mask_components(mask))}"


def _sname(reg: int) -> str:
    return f"{PIPELINE_NAMES.get(reg >> 2, f'${reg >> 2}')}.{COMPONENTS[reg & 3]}"


class Step:
    """Executes one instruction for the lanes selected by `active`, recording the writes
    seen by lane `watch` (None: record nothing, the fast path of a grid run)."""

    def __init__(self, instruction: Instruction, state: State, lanes: Lanes, active: np.ndarray, watch: int | None):
        self.instruction = instruction
        self.state = state
        self.lanes = lanes
        self.active = active
        self.all = bool(active.all())
        self.watch = watch if watch is not None and active[watch] else None
        self.record = StepRecord(instruction.index, instruction.word_offset)
        self.fields = {f.name: f for f in instruction.fields}
        self.unit = "control"

    # -- errors and recording -------------------------------------------------------

    def fail(self, message: str) -> EmulationError:
        return EmulationError(
            f"instruction {self.instruction.index} (word {self.instruction.word_offset}), "
            f"unit {self.unit}: {message}",
            self.instruction.index,
            self.unit,
        )

    def _note(self, kind: str, name: str, old, new) -> None:
        if self.watch is not None:
            w = self.watch
            self.record.writes.append(
                Write(
                    self.unit,
                    kind,
                    name,
                    None if old is None else tuple(float(x) for x in np.atleast_1d(old[w])),
                    tuple(float(x) for x in np.atleast_1d(new[w])),
                )
            )

    def _merge(self, new: np.ndarray, old: np.ndarray) -> np.ndarray:
        if self.all:
            return new
        mask = self.active.reshape(-1, *([1] * (new.ndim - 1)))
        return np.where(mask, new, old)

    # -- reading ----------------------------------------------------------------------

    def _check_source(self, reg: int) -> None:
        needs = {CONST0: "vec4_const_0", CONST1: "vec4_const_1", TEXTURE: "sampler", UNIFORM: "uniform"}
        if reg in needs and needs[reg] not in self.fields:
            raise self.fail(f"reads {PIPELINE_NAMES[reg]} but the instruction has no {needs[reg]} field")

    def vector(self, reg: int, code: int, absolute: int, negate: int) -> np.ndarray:
        self._check_source(reg)
        return modify(wide(swizzle(self.state.bank[:, reg], code)), absolute, negate)

    def scalar(self, reg: int, absolute: int, negate: int) -> np.ndarray:
        self._check_source(reg >> 2)
        return modify(wide(self.state.bank[:, reg >> 2, reg & 3]), absolute, negate)

    # -- writing ----------------------------------------------------------------------

    def write_vector(self, reg: int, mask: int, values: np.ndarray) -> None:
        if not mask:
            return
        if reg >= GENERAL_REGISTERS:
            raise self.fail(f"writes register {reg}, which is not a general register")
        bank = self.state.bank
        old = bank[:, reg].copy()
        new = old.copy()
        comps = mask_components(mask)
        new[:, comps] = half(values)[:, comps]
        bank[:, reg] = self._merge(new, old)
        self._note("register", _vname(reg, mask), old, bank[:, reg])

    def write_scalar(self, reg: int, values: np.ndarray) -> None:
        if (reg >> 2) >= GENERAL_REGISTERS:
            raise self.fail(f"writes {_sname(reg)}, which is not a general register")
        bank = self.state.bank
        old = bank[:, reg >> 2, reg & 3].copy()
        bank[:, reg >> 2, reg & 3] = self._merge(half(values), old)
        self._note("register", _sname(reg), old, bank[:, reg >> 2, reg & 3])

    def set_pipeline(self, name: str, attribute: str | None, reg: int | None, values: np.ndarray) -> None:
        """A pipeline register: `^v0`/`^s0`/coordinates (attributes) or bank slots 12-15."""
        if attribute is not None:
            target = getattr(self.state, attribute)
            old = target.copy()
            target[...] = self._merge(half(values), old)
            self._note("pipeline", name, old, target)
        else:
            old = self.state.bank[:, reg].copy()
            self.state.bank[:, reg] = self._merge(half(values), old)
            self._note("pipeline", name, old, self.state.bank[:, reg])

    # -- the instruction -----------------------------------------------------------

    def run(self) -> StepRecord:
        with np.errstate(all="ignore"):
            for name, reg in (("vec4_const_0", CONST0), ("vec4_const_1", CONST1)):
                if name in self.fields:
                    self.unit = name
                    raw = self.fields[name].raw
                    bits = np.array([(raw >> (16 * i)) & 0xFFFF for i in range(4)], dtype=np.uint16)
                    self.set_pipeline(PIPELINE_NAMES[reg], None, reg, np.tile(bits.view(np.float16), (len(self.active), 1)))
            for f in self.instruction.fields:
                handler = _UNITS.get(f.name)
                if handler is not None:
                    self.unit = f.name
                    handler(self, f)
            self.unit = "control"
            self._finish()
        return self.record

    def _finish(self) -> None:
        state, active = self.state, self.active
        state.steps[active] += 1
        branch = self.fields.get("branch")
        next_pc = self.instruction.word_offset + len(self.instruction.words)
        taken = np.zeros(len(active), dtype=bool)
        if branch is not None and branch.layout == "branch":
            a = self.scalar(branch["arg0_source"], 0, 0)
            b = self.scalar(branch["arg1_source"], 0, 0)
            gt, eq, lt = branch["cond_gt"], branch["cond_eq"], branch["cond_lt"]
            taken = semantics.branch_taken(a, b, gt, eq, lt) & active
            target = self.instruction.word_offset + sign_extend(branch["target"], 27)
            if self.watch is not None:
                self.record.taken = bool(taken[self.watch])
                self.record.branch = _why(a[self.watch], b[self.watch], gt, eq, lt, branch, target, self.record.taken)
            state.pc[taken] = target
        discard = branch is not None and branch.layout == "discard"
        stay = active & ~taken
        if discard:
            state.discarded[stay] = True
            state.done[stay] = True
            self.record.outcome = "discard"
            return
        if self.instruction.stop:
            state.done[stay] = True
            if self.watch is not None and not self.record.taken:
                self.record.outcome = "stop"
        state.pc[stay] = next_pc


def _why(a, b, gt: int, eq: int, lt: int, branch: Field, target: int, taken: bool) -> str:
    if gt and eq and lt:
        return f"unconditional branch to word {target}: taken"
    relation = "".join(c for c, bit in (("<", lt), ("=", eq), (">", gt)) if bit)
    return (
        f"{_sname(branch['arg0_source'])} = {float(a):g} {relation} "
        f"{_sname(branch['arg1_source'])} = {float(b):g} is {'true' if taken else 'false'}: "
        + (f"taken to word {target}" if taken else "not taken")
    )


# ---- the units --------------------------------------------------------------------------


def _varying(step: Step, f: Field) -> None:
    lanes = step.lanes
    values = f.values()
    source_type, perspective = values["source_type"], values["perspective"]
    if f.layout == "register":
        if source_type == 2:
            raise step.fail("cube-map coordinates from a register are not emulated")
        fetched = step.vector(values["source"], values["swizzle"], values["absolute"], values["negate"])
        if values["normalize"]:
            raise step.fail("the varying unit's normalize is not emulated")
        count = 4
    elif source_type == 0:
        alignment = values["alignment"]
        count = _COUNT_BY_ALIGNMENT.get(alignment, 4)
        address = values["index"] << {0: 0, 1: 1}.get(alignment, 2)
        if values["offset_vector"] != 15:
            raise step.fail("a varying load with a register offset is not emulated")
        table = lanes.varyings
        fetched = np.zeros((lanes.count, 4), dtype=np.float32)
        available = max(0, min(count, table.shape[1] - address))
        fetched[:, :available] = table[:, address : address + available]
    elif source_type == 2 and perspective == 3:
        fetched, count = wide(lanes.fragcoord), 4
    elif source_type == 3 and perspective == 0:
        fetched = np.zeros((lanes.count, 4), dtype=np.float32)
        fetched[:, :2] = lanes.pointcoord
        count = 2
    elif source_type == 3 and perspective == 1:
        # gl_FrontFacing: 1.0 when front facing, 0.0 otherwise (not documented; Mesa only
        # feeds it to `sel`, which tests for non-zero).
        fetched = np.zeros((lanes.count, 4), dtype=np.float32)
        fetched[:, 0] = lanes.frontfacing
        count = 1
    else:
        raise step.fail(f"varying source type {source_type} with perspective {perspective} is not emulated")
    if f.layout == "index" and source_type == 0 or f.layout == "register":
        if perspective == 2:
            fetched[:, :2] = fetched[:, :2] / fetched[:, 2:3]
        elif perspective == 3:
            fetched[:, :3] = fetched[:, :3] / fetched[:, 3:4]
        elif perspective == 1:
            raise step.fail("perspective 1 on a varying is not emulated")
    step.set_pipeline("^coords", "coords", None, fetched)
    dest, mask = values["dest"], values["mask"]
    if dest != 15 and mask:
        # The loaded components fill the masked ones from the lowest up (Mesa shifts the
        # mask to the destination component and leaves the data unswizzled).
        placed = np.zeros((lanes.count, 4), dtype=np.float32)
        comps = mask_components(mask)
        for k, comp in enumerate(comps):
            placed[:, comp] = fetched[:, k]
        step.write_vector(dest, mask, placed)


def _sampler(step: Step, f: Field) -> None:
    values = f.values()
    if "varying" not in step.fields:
        raise step.fail("texld without a varying fetch in the same instruction has no coordinates")
    kind = (f.raw >> 24) & 0x1F  # Mesa's `type` (bits 24-28); our layout folds it into constant_lod_bias
    if kind == SAMPLER_CUBE:
        raise step.fail("cube-map sampling is not emulated")
    if kind != SAMPLER_2D:
        raise step.fail(f"sampler type {kind} is not emulated")
    if values["offset_en"]:
        raise step.fail("a sampler index offset is not emulated")
    texture = step.lanes.inputs.textures.get(values["index"], DEFAULT_TEXTURE)
    coords = wide(step.state.coords)
    step.set_pipeline("^texture", None, TEXTURE, sample(texture, coords[:, 0], coords[:, 1]))


def _uniform(step: Step, f: Field) -> None:
    values = f.values()
    source, alignment = values["source"], values["alignment"]
    index = sign_extend(values["index"], 16)
    count = _COUNT_BY_ALIGNMENT.get(alignment, 4)
    n = step.lanes.count
    if values["offset_en"]:
        offsets = np.trunc(step.scalar(values["offset_reg"], 0, 0)).astype(np.int64)
    else:
        offsets = np.zeros(n, dtype=np.int64)
    loaded = np.zeros((n, 4), dtype=np.float32)
    if source == 0:
        table = step.lanes.uniforms
        unit = {0: 1, 1: 2}.get(alignment, 4)
        start = (index + offsets) * unit
        for k in range(count):
            address = start + k
            inside = (address >= 0) & (address < len(table))
            loaded[:, k] = np.where(inside, wide(table[np.clip(address, 0, max(len(table) - 1, 0))]), 0.0)
    elif source == 3:
        if alignment != 2:
            raise step.fail("a scalar or vec2 temporary load is not emulated")
        for target in np.unique(index + offsets):
            chosen = (index + offsets) == target
            if int(target) in step.state.temps:
                loaded[chosen] = wide(step.state.temps[int(target)][chosen])
    else:
        raise step.fail(f"uniform source {source} is not emulated")
    step.set_pipeline("^uniform", None, UNIFORM, loaded)


def _alu_result(step: Step, table: dict, op: int, args: list[np.ndarray], what: str) -> np.ndarray:
    semantics_ = table.get(op)
    if semantics_ is None:
        raise step.fail(f"op {op} of {what} is not emulated")
    return semantics_.compute(*args[: semantics_.sources])


def _vec4_mul(step: Step, f: Field) -> None:
    v = f.values()
    a = step.vector(v["arg0_source"], v["arg0_swizzle"], v["arg0_absolute"], v["arg0_negate"])
    op = v["op"]
    sem = semantics.MUL_OPS.get(op)
    b = step.vector(v["arg1_source"], v["arg1_swizzle"], v["arg1_absolute"], v["arg1_negate"]) if sem and sem.sources == 2 else None
    result = outmod(_alu_result(step, semantics.MUL_OPS, op, [a, b], "vec4_mul"), v["dest_modifier"])
    step.set_pipeline("^v0", "vmul", None, result)
    step.write_vector(v["dest"], v["mask"], result)


def _float_mul(step: Step, f: Field) -> None:
    v = f.values()
    a = step.scalar(v["arg0_source"], v["arg0_absolute"], v["arg0_negate"])
    op = v["op"]
    sem = semantics.MUL_OPS.get(op)
    b = step.scalar(v["arg1_source"], v["arg1_absolute"], v["arg1_negate"]) if sem and sem.sources == 2 else None
    result = outmod(_alu_result(step, semantics.MUL_OPS, op, [a, b], "float_mul"), v["dest_modifier"])
    step.set_pipeline("^s0", "fmul", None, result)
    if v["output_en"]:
        step.write_scalar(v["dest"], result)


def _quad_neighbours(step: Step, values: np.ndarray, axis: str) -> tuple[np.ndarray, np.ndarray]:
    """(value at the quad's second lane, value at its first lane) along x or y, per lane."""
    rows, cols = step.lanes.shape
    grid = values.reshape(rows, cols, *values.shape[1:])
    if axis == "x":
        first = np.repeat(grid[:, 0::2], 2, axis=1)
        second = np.repeat(grid[:, 1::2], 2, axis=1)
    else:
        first = np.repeat(grid[0::2], 2, axis=0)
        second = np.repeat(grid[1::2], 2, axis=0)
    return second.reshape(values.shape), first.reshape(values.shape)


def _derivative(step: Step, op: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    # dFdx/dFdy take two sources: Mesa passes the value and its negation (`dFdx.v1 $0 $0
    # -$0`; `dFdy.v1 $1 -$1 $1`). Taken here as arg0 at the quad's right (dFdx) or lower
    # (dFdy, the PP counting rows down from the top) lane plus arg1 at its left or upper
    # lane, the same for both lanes of a pair: with Mesa's operands that is the usual
    # difference along +x and +y. Not documented; inferred from Mesa's operand order.
    if op == semantics.DFDX:
        right, left = _quad_neighbours(step, a, "x")[0], _quad_neighbours(step, b, "x")[1]
        return right + left
    lower_in_gl, upper_in_gl = _quad_neighbours(step, a, "y")[1], _quad_neighbours(step, b, "y")[0]
    return lower_in_gl + upper_in_gl


def _acc(step: Step, v: dict, a: np.ndarray, b_reader: Callable[[], np.ndarray], unit: str) -> np.ndarray:
    op = v["op"]
    if op == semantics.SEL:
        if "float_mul" not in step.fields:
            raise step.fail("sel reads ^s0 but the instruction has no float_mul field")
        condition = wide(step.state.fmul) != 0
        b = b_reader()
        if a.ndim == 2:
            condition = condition[:, None]
        return np.where(condition, a, b)
    if op in (semantics.DFDX, semantics.DFDY):
        return _derivative(step, op, a, b_reader())
    if op in (semantics.SUM3, semantics.SUM4):
        if unit != "vec4_acc":
            raise step.fail(f"op {op} of {unit} is not emulated")
        total = a[:, :3].sum(axis=1) if op == semantics.SUM3 else a.sum(axis=1)
        return np.repeat(total[:, None], 4, axis=1)
    sem = semantics.ACC_OPS.get(op)
    if sem is None:
        raise step.fail(f"op {op} of {unit} is not emulated")
    return sem.compute(a, b_reader()) if sem.sources == 2 else sem.compute(a)


def _vec4_acc(step: Step, f: Field) -> None:
    v = f.values()
    if v["mul_in"]:
        if "vec4_mul" not in step.fields:
            raise step.fail("reads ^v0 but the instruction has no vec4_mul field")
        a = modify(wide(swizzle(step.state.vmul, v["arg0_swizzle"])), v["arg0_absolute"], v["arg0_negate"])
    else:
        a = step.vector(v["arg0_source"], v["arg0_swizzle"], v["arg0_absolute"], v["arg0_negate"])
    result = _acc(
        step, v, a, lambda: step.vector(v["arg1_source"], v["arg1_swizzle"], v["arg1_absolute"], v["arg1_negate"]), "vec4_acc"
    )
    step.write_vector(v["dest"], v["mask"], outmod(result, v["dest_modifier"]))


def _float_acc(step: Step, f: Field) -> None:
    v = f.values()
    if v["mul_in"]:
        if "float_mul" not in step.fields:
            raise step.fail("reads ^s0 but the instruction has no float_mul field")
        a = modify(wide(step.state.fmul), v["arg0_absolute"], v["arg0_negate"])
    else:
        a = step.scalar(v["arg0_source"], v["arg0_absolute"], v["arg0_negate"])
    result = _acc(step, v, a, lambda: step.scalar(v["arg1_source"], v["arg1_absolute"], v["arg1_negate"]), "float_acc")
    if v["output_en"]:
        step.write_scalar(v["dest"], outmod(result, v["dest_modifier"]))


def _combine(step: Step, f: Field) -> None:
    v = f.values()
    if f.layout == "atan_pt2":
        raise step.fail("atan part 2 is not emulated (its partial results are not documented)")
    a = step.scalar(v["arg0_src"], v["arg0_absolute"], v["arg0_negate"])
    if f.layout == "scalar_vec_mul":
        # dest_vec and src_vec set: arg0 (scalar) times arg1 (vec4), Mesa's `mul.s2`.
        b = step.vector(v["arg1_source"], v["arg1_swizzle"], 0, 0)
        step.write_vector(v["dest"], v["mask"], a[:, None] * b)
        return
    op = v["op"]
    sem = semantics.COMBINE_OPS.get(op)
    if sem is None:
        raise step.fail(f"op {op} ({'atan' if op in (8, 9) else 'unnamed'}) of combine is not emulated")
    result = sem.compute(a)
    if f.layout == "vector_dest":
        step.write_vector(v["dest"], v["mask"], np.repeat(result[:, None], 4, axis=1))
    else:
        step.write_scalar(v["dest"], outmod(result, v["dest_modifier"]))


def _temp_write(step: Step, f: Field) -> None:
    v = f.values()
    if f.layout == "fb_read":
        raise step.fail("framebuffer reads are not emulated")
    if v["dest"] != 3:
        raise step.fail(f"a temp_write with destination {v['dest']} is not emulated")
    if v["alignment"] != 2:
        raise step.fail("a scalar or vec2 temporary store is not emulated")
    if v["offset_en"]:
        raise step.fail("a temporary store with a register offset is not emulated")
    index = sign_extend(v["index"], 16)
    reg = v["source"] >> 2
    step._check_source(reg)
    value = step.state.bank[:, reg].copy()
    old = step.state.temps.get(index, np.zeros_like(value))
    step.state.temps[index] = step._merge(value, old)
    step._note("temporary", f"temp[{index}]", old, step.state.temps[index])


_UNITS: dict[str, Callable[[Step, Field], None]] = {
    "varying": _varying,
    "sampler": _sampler,
    "uniform": _uniform,
    "vec4_mul": _vec4_mul,
    "float_mul": _float_mul,
    "vec4_acc": _vec4_acc,
    "float_acc": _float_acc,
    "combine": _combine,
    "temp_write": _temp_write,
}
"""Field name -> what it does; branch and constants are handled by `Step` itself."""
