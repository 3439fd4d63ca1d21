"""One invocation of an entry point: a stack of frames over the prepared functions,
executing one instruction per step and recording what each step did.

An instruction that needs the other invocations (a derivative, implicit-LOD sampling,
a barrier) blocks the invocation: the group it belongs to answers and it goes on."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from spvinspect.codec.interp import memory
from spvinspect.codec.interp.memory import Cell, Pointer
from spvinspect.codec.interp.ops import LITERAL_OPS, OPS, literal_op
from spvinspect.codec.interp.shader import Function, Ins, Shader
from spvinspect.codec.interp.types import UNDEF, Type, mask, to_signed, undef

RUNNING, DONE, KILLED, BLOCKED, STOPPED = "running", "done", "killed", "blocked", "stopped"


class Unsupported(Exception):
    """An instruction the interpreter cannot execute."""

    def __init__(self, ins: Ins, why: str = "") -> None:
        self.ins = ins
        self.why = why
        super().__init__(f"{ins.opname} at word {ins.offset} is not supported" + (f": {why}" if why else ""))


@dataclass
class StepRecord:
    """What one step did: the instruction (its word offset), the value it defined, the
    stores it made (pointer text, value) and anything undefined it met."""

    offset: int
    opname: str
    result_id: int
    value: object = None
    stores: list = field(default_factory=list)
    note: str = ""
    invocation: int = 0


class Frame:
    __slots__ = ("fn", "pc", "ids", "block", "prev_block", "ret_id", "phis")

    def __init__(self, fn: Function, ret_id: int = 0) -> None:
        self.fn = fn
        self.pc = 0
        self.ids: dict[int, object] = {}
        self.block = 0
        self.prev_block = 0
        self.ret_id = ret_id
        self.phis: dict[int, object] = {}

    def __deepcopy__(self, memo: dict) -> Frame:
        """A copy for a saved state: the function shared, the values copied (`memory.copied`)."""
        new = Frame.__new__(Frame)
        memo[id(self)] = new
        new.fn, new.pc, new.block, new.prev_block, new.ret_id = self.fn, self.pc, self.block, self.prev_block, self.ret_id
        new.ids = {id_: memory.copied(v, memo) for id_, v in self.ids.items()}
        new.phis = {id_: memory.copied(v, memo) for id_, v in self.phis.items()}
        return new


def position(frames: list[Frame]) -> tuple:
    """Where a stack of frames is, comparable between invocations (and lanes): its call
    sites, then its next instruction. Invocations that wait go on earliest first."""
    return tuple([f.pc - 1 for f in frames[:-1]]) + (frames[-1].pc,)


class Invocation:
    """One invocation: its frames, its private variables, its status."""

    def __init__(self, shader: Shader, entry_fn: int, cells: dict[int, Cell], index: int = 0) -> None:
        self.shader = shader
        self.cells = cells
        """Variable id → its cell (shared cells for buffers and workgroup memory)."""
        self.index = index
        self.status = RUNNING
        self.message = ""
        self.unsupported: Ins | None = None
        self.steps = 0
        self.helper = False
        self.sync: tuple | None = None
        """While blocked: (kind, instruction, value) the group must answer."""
        self.answer = None
        self.record: StepRecord | None = None
        self.recording = False
        self.notes: list[str] = []
        self.emitted: list = []
        fn = shader.functions[entry_fn]
        self.frames = [Frame(fn)]
        self.frames[0].pc = 1

    # -- values ---------------------------------------------------------------------------
    def value(self, id_: int):
        frame = self.frames[-1]
        v = frame.ids.get(id_, _MISSING)
        if v is not _MISSING:
            return v
        v = self.shader.constants.get(id_, _MISSING)
        if v is not _MISSING:
            return v
        cell = self.cells.get(id_)
        if cell is not None:
            return Pointer(cell, (), cell.type)
        for f in reversed(self.frames[:-1]):
            if id_ in f.ids:
                return f.ids[id_]
        return UNDEF

    def type_of(self, id_: int) -> Type | None:
        return self.shader.id_types.get(id_)

    def set(self, ins: Ins, v) -> None:
        self.frames[-1].ids[ins.result_id] = v

    @property
    def current(self) -> Ins | None:
        if self.status not in (RUNNING, BLOCKED) or not self.frames:
            return None
        f = self.frames[-1]
        return f.fn.code[f.pc] if f.pc < len(f.fn.code) else None

    # -- stepping -------------------------------------------------------------------------
    def step(self) -> StepRecord | None:
        """Execute one instruction; its record when recording, None when blocked or over."""
        if self.status != RUNNING:
            return None
        frame = self.frames[-1]
        ins = frame.fn.code[frame.pc]
        recording = self.recording
        if recording:
            self.record = StepRecord(ins.offset, ins.opname, ins.result_id, invocation=self.index)
        frame.pc += 1
        run = ins.run
        if run is None:
            run = ins.run = prepare(self.shader, ins)
        try:
            run(self, ins)
        except Unsupported as error:
            self.status, self.unsupported, self.message = STOPPED, error.ins, str(error)
            frame.pc -= 1
            return None
        except (ArithmeticError, ValueError, TypeError, IndexError, KeyError, AttributeError) as error:
            self.status, self.unsupported = STOPPED, ins
            self.message = f"{ins.opname} at word {ins.offset} failed: {type(error).__name__}: {error}"
            frame.pc -= 1
            return None
        if self.status == BLOCKED:
            return None
        self.steps += 1
        if recording:
            rec = self.record
            if ins.result_id and self.frames and ins.result_id in self.frames[-1].ids:
                rec.value = self.frames[-1].ids[ins.result_id]
            return rec
        return None

    def run(self, limit: int) -> int:
        """Steps until blocked, finished or `limit` steps; the steps taken."""
        start = self.steps
        with np.errstate(all="ignore"):
            while self.status == RUNNING and self.steps - start < limit:
                self.step()
        return self.steps - start

    # -- helpers for handlers -------------------------------------------------------------
    def goto(self, label: int) -> None:
        frame = self.frames[-1]
        frame.prev_block, frame.block = frame.block, label
        code = frame.fn.code
        i = frame.fn.labels[label] + 1
        frame.pc = i
        phis = {}
        while i < len(code) and code[i].opname in ("OpPhi", "OpLine", "OpNoLine"):
            ins = code[i]
            if ins.opname == "OpPhi":
                a = ins.args
                v = UNDEF
                for k in range(0, len(a) - 1, 2):
                    if a[k + 1] == frame.prev_block:
                        v = self.value(a[k])
                        break
                phis[ins.result_id] = v
            i += 1
        frame.phis = phis

    def note(self, text: str) -> None:
        self.notes.append(text)
        if self.record is not None and self.recording:
            self.record.note = text

    def store(self, p, value) -> None:
        if not isinstance(p, Pointer):
            self.note("store through an undefined pointer dropped")
            return
        if not memory.store(p, value):
            self.note(f"out-of-bounds store to {p.describe()} dropped")
        elif self.recording and self.record is not None:
            self.record.stores.append((p.describe(), value))

    def load(self, p):
        if not isinstance(p, Pointer):
            return UNDEF
        try:
            return memory.read(p)
        except memory.OutOfBounds:
            self.note(f"out-of-bounds load from {p.describe()} is undefined")
            return undef(p.type)

    def block_on(self, kind: str, ins: Ins, value=None) -> bool:
        """True when the group has answered this instruction (the answer is in
        `self.answer`); otherwise blocks the invocation until it does."""
        if self.sync is not None and self.sync[1] is ins and self.answer is not None:
            self.sync = None
            return True
        self.sync = (kind, ins, value)
        self.answer = None
        self.status = BLOCKED
        self.frames[-1].pc -= 1
        return False


_MISSING = object()


def prepare(shader: Shader, ins: Ins):
    """The handler that runs `ins`, built once per instruction of a module: a pure operation
    gets its function, result type and operand types bound here rather than at each step."""
    handler = HANDLERS.get(ins.opname)
    if handler is not None:
        return handler
    if ins.opname in OPS:
        return _pure(shader, ins)
    if ins.opname in LITERAL_OPS:
        return _literal
    return _unsupported


def _pure(shader: Shader, ins: Ins):
    fn = OPS[ins.opname]
    args = ins.args
    rt = shader.types.get(ins.type_id)
    tys = [shader.id_types.get(i) for i in args]
    rid = ins.result_id

    def run(inv: Invocation, ins: Ins) -> None:
        ids = inv.frames[-1].ids
        value = inv.value
        ids[rid] = fn(rt, [ids[i] if i in ids else value(i) for i in args], tys)

    return run


def _literal(inv: Invocation, ins: Ins) -> None:
    inv.set(ins, literal_op(ins.opname, inv.shader.types.get(ins.type_id), ins.args, inv.value))


def _nop(inv: Invocation, ins: Ins) -> None:
    pass


def _unsupported(inv: Invocation, ins: Ins) -> None:
    raise Unsupported(ins)


# -- control flow ---------------------------------------------------------------------------
def _branch(inv, ins):
    inv.goto(ins.args[0])


def _branch_cond(inv, ins):
    c = inv.value(ins.args[0])
    if c is UNDEF:
        inv.note("branch on an undefined condition: took the false side")
    inv.goto(ins.args[1] if c is True else ins.args[2])


def _switch(inv, ins):
    sel = inv.value(ins.args[0])
    a = ins.args
    target = a[1]
    if sel is UNDEF:
        inv.note("switch on an undefined selector: took the default")
    else:
        t = inv.type_of(a[0])
        w = t.width if t is not None else 32
        for k in range(2, len(a) - 1, 2):
            if a[k] & mask(w) == sel:
                target = a[k + 1]
                break
    inv.goto(target)


def _phi(inv, ins):
    frame = inv.frames[-1]
    inv.set(ins, frame.phis.get(ins.result_id, UNDEF))


def _label(inv, ins):
    frame = inv.frames[-1]
    frame.prev_block, frame.block = frame.block, ins.result_id


def _return(inv, ins, value=None):
    frame = inv.frames.pop()
    if not inv.frames:
        inv.status = DONE
        return
    if frame.ret_id:
        inv.frames[-1].ids[frame.ret_id] = value


def _return_value(inv, ins):
    _return(inv, ins, inv.value(ins.args[0]))


def _call(inv, ins):
    fn = inv.shader.functions.get(ins.args[0])
    if fn is None:
        raise Unsupported(ins, "calls a function the module does not define")
    args = [inv.value(i) for i in ins.args[1:]]
    frame = Frame(fn, ins.result_id)
    for pid, v in zip(fn.params, args):
        frame.ids[pid] = v
    # Skip OpFunction and the parameters: start at the first block's label.
    frame.pc = 1 + len(fn.params)
    inv.frames.append(frame)


def _kill(inv, ins):
    inv.status = KILLED
    inv.frames = []


def _demote(inv, ins):
    inv.helper = True


def _is_helper(inv, ins):
    inv.set(ins, inv.helper)


def _unreachable(inv, ins):
    inv.status = STOPPED
    inv.message = f"OpUnreachable reached at word {ins.offset}"
    inv.unsupported = None


# -- memory ---------------------------------------------------------------------------------
def _variable(inv, ins):
    var = inv.shader.variables.get(ins.result_id)
    t = var.type if var else inv.shader.types[ins.type_id].elem
    init = undef(t)
    if len(ins.args) > 1:
        init = inv.value(ins.args[1])
    cell = Cell(init, t, inv.shader.names.get(ins.result_id, ""), "Function", ins.result_id)
    inv.set(ins, Pointer(cell, (), t))


def _load(inv, ins):
    inv.set(ins, inv.load(inv.value(ins.args[0])))


def _store(inv, ins):
    inv.store(inv.value(ins.args[0]), inv.value(ins.args[1]))


def _copy_memory(inv, ins):
    inv.store(inv.value(ins.args[0]), inv.load(inv.value(ins.args[1])))


def _access_chain(inv, ins):
    base = inv.value(ins.args[0])
    if not isinstance(base, Pointer):
        inv.set(ins, UNDEF)
        return
    idx = []
    for i in ins.args[1:]:
        v = inv.value(i)
        if v is UNDEF:
            v = -1
        else:
            t = inv.type_of(i)
            if t is not None and t.kind == "int" and t.signed:
                v = to_signed(v, t.width)
        idx.append(v)
    inv.set(ins, memory.chain(base, idx))


def _array_length(inv, ins):
    p = inv.value(ins.args[0])
    member = ins.args[1]
    v = inv.load(memory.chain(p, [member])) if isinstance(p, Pointer) else UNDEF
    inv.set(ins, len(v) if isinstance(v, tuple) else UNDEF)


def _vector_extract_dynamic(inv, ins):
    v, i = inv.value(ins.args[0]), inv.value(ins.args[1])
    inv.set(ins, v[i] if isinstance(v, tuple) and i is not UNDEF and 0 <= i < len(v) else UNDEF)


def _vector_insert_dynamic(inv, ins):
    v, c, i = inv.value(ins.args[0]), inv.value(ins.args[1]), inv.value(ins.args[2])
    if isinstance(v, tuple) and i is not UNDEF and 0 <= i < len(v):
        v = v[:i] + (c,) + v[i + 1 :]
    else:
        v = undef(inv.shader.types[ins.type_id])
    inv.set(ins, v)


def _undef(inv, ins):
    inv.set(ins, undef(inv.shader.types[ins.type_id]))


ATOMIC_RMW = {
    "OpAtomicIAdd": lambda w, o, v: (o + v) & mask(w),
    "OpAtomicISub": lambda w, o, v: (o - v) & mask(w),
    "OpAtomicSMin": lambda w, o, v: o if to_signed(o, w) <= to_signed(v, w) else v,
    "OpAtomicSMax": lambda w, o, v: o if to_signed(o, w) >= to_signed(v, w) else v,
    "OpAtomicUMin": lambda w, o, v: min(o, v),
    "OpAtomicUMax": lambda w, o, v: max(o, v),
    "OpAtomicAnd": lambda w, o, v: o & v,
    "OpAtomicOr": lambda w, o, v: o | v,
    "OpAtomicXor": lambda w, o, v: o ^ v,
    "OpAtomicExchange": lambda w, o, v: v,
    "OpAtomicFAddEXT": lambda w, o, v: o + v,
    "OpAtomicFMinEXT": lambda w, o, v: min(o, v),
    "OpAtomicFMaxEXT": lambda w, o, v: max(o, v),
}


def _atomic(inv, ins):
    op = ins.opname
    p = inv.value(ins.args[0])
    t = inv.shader.types.get(ins.type_id)
    old = inv.load(p)
    if op in ATOMIC_RMW:
        v = inv.value(ins.args[3])
        new = UNDEF if old is UNDEF or v is UNDEF else ATOMIC_RMW[op](t.width, old, v)
    elif op == "OpAtomicIIncrement":
        new = UNDEF if old is UNDEF else (old + 1) & mask(t.width)
    elif op == "OpAtomicIDecrement":
        new = UNDEF if old is UNDEF else (old - 1) & mask(t.width)
    elif op in ("OpAtomicCompareExchange", "OpAtomicCompareExchangeWeak"):
        v, cmp = inv.value(ins.args[4]), inv.value(ins.args[5])
        new = v if old == cmp else old
    elif op == "OpAtomicLoad":
        inv.set(ins, old)
        return
    else:
        raise Unsupported(ins)
    inv.store(p, new)
    inv.set(ins, old)


def _atomic_store(inv, ins):
    inv.store(inv.value(ins.args[0]), inv.value(ins.args[3]))


def _barrier(inv, ins):
    if inv.block_on("barrier", ins):
        pass


def _derivative(inv, ins):
    fine = "Fine" in ins.opname
    if not inv.block_on("fine" if fine else "coarse", ins, inv.value(ins.args[0])):
        return
    dx, dy = inv.answer
    inv.answer = None
    op = ins.opname
    if op.startswith("OpDPdx"):
        out = dx
    elif op.startswith("OpDPdy"):
        out = dy
    else:
        out = _map2(lambda a, b: abs(a) + abs(b), dx, dy)
    inv.set(ins, out)


def _map2(f, a, b):
    if isinstance(a, tuple):
        return tuple(_map2(f, x, y) for x, y in zip(a, b))
    if a is UNDEF or b is UNDEF:
        return UNDEF
    return f(a, b)


def _ext_inst(inv, ins):
    set_name = inv.shader.ext_sets.get(ins.args[0], "")
    if set_name.startswith("NonSemantic."):
        return
    if set_name == "GLSL.std.450":
        from spvinspect.codec.interp.glsl450 import execute

        execute(inv, ins)
        return
    raise Unsupported(ins, f"extended instruction set {set_name!r}")


def _emit(inv, ins):
    inv.emitted.append(ins.opname)


def _subgroup(inv, ins):
    from spvinspect.codec.interp.subgroup import execute

    execute(inv, ins)


def _image(inv, ins):
    from spvinspect.codec.interp.images import execute

    execute(inv, ins)


HANDLERS = {
    "OpNop": _nop, "OpLine": _nop, "OpNoLine": _nop, "OpSelectionMerge": _nop, "OpLoopMerge": _nop,
    "OpSource": _nop, "OpName": _nop, "OpModuleProcessed": _nop, "OpString": _nop,
    "OpLabel": _label, "OpBranch": _branch, "OpBranchConditional": _branch_cond, "OpSwitch": _switch,
    "OpPhi": _phi, "OpReturn": _return, "OpReturnValue": _return_value, "OpFunctionCall": _call,
    "OpKill": _kill, "OpTerminateInvocation": _kill, "OpDemoteToHelperInvocation": _demote,
    "OpDemoteToHelperInvocationEXT": _demote, "OpIsHelperInvocationEXT": _is_helper,
    "OpUnreachable": _unreachable, "OpFunctionEnd": _return,
    "OpVariable": _variable, "OpLoad": _load, "OpStore": _store, "OpCopyMemory": _copy_memory,
    "OpAccessChain": _access_chain, "OpInBoundsAccessChain": _access_chain, "OpArrayLength": _array_length,
    "OpVectorExtractDynamic": _vector_extract_dynamic, "OpVectorInsertDynamic": _vector_insert_dynamic,
    "OpUndef": _undef, "OpAtomicStore": _atomic_store,
    "OpControlBarrier": _barrier, "OpMemoryBarrier": _nop,
    "OpDPdx": _derivative, "OpDPdy": _derivative, "OpFwidth": _derivative,
    "OpDPdxFine": _derivative, "OpDPdyFine": _derivative, "OpFwidthFine": _derivative,
    "OpDPdxCoarse": _derivative, "OpDPdyCoarse": _derivative, "OpFwidthCoarse": _derivative,
    "OpExtInst": _ext_inst, "OpEmitVertex": _emit, "OpEndPrimitive": _emit,
    "OpEmitStreamVertex": _emit, "OpEndStreamPrimitive": _emit, "OpBeginInvocationInterlockEXT": _nop,
    "OpEndInvocationInterlockEXT": _nop, "OpSetMeshOutputsEXT": _nop, "OpEmitMeshTasksEXT": _return,
    "OpImageSparseTexelsResident": lambda inv, ins: inv.set(ins, True), "OpAssumeTrueKHR": _nop,
}
from spvinspect.codec.interp.subgroup import NAMES as _SUBGROUP  # noqa: E402

for _name in _SUBGROUP:
    HANDLERS[_name] = _subgroup
for _name in ATOMIC_RMW:
    HANDLERS[_name] = _atomic
for _name in ("OpAtomicIIncrement", "OpAtomicIDecrement", "OpAtomicCompareExchange",
              "OpAtomicCompareExchangeWeak", "OpAtomicLoad"):
    HANDLERS[_name] = _atomic
for _name in ("OpSampledImage", "OpImage", "OpImageSampleImplicitLod", "OpImageSampleExplicitLod",
              "OpImageSampleDrefImplicitLod", "OpImageSampleDrefExplicitLod", "OpImageSampleProjImplicitLod",
              "OpImageSampleProjExplicitLod", "OpImageFetch", "OpImageGather", "OpImageDrefGather",
              "OpImageRead", "OpImageWrite", "OpImageQuerySize", "OpImageQuerySizeLod", "OpImageQueryLevels",
              "OpImageQueryLod", "OpImageQuerySamples", "OpImageTexelPointer", "OpImageSampleProjDrefImplicitLod",
              "OpImageSampleProjDrefExplicitLod", "OpImageSparseSampleImplicitLod", "OpImageSparseSampleExplicitLod",
              "OpImageSparseFetch", "OpImageSparseRead", "OpImageSparseGather", "OpImageSparseDrefGather",
              "OpImageSparseSampleDrefImplicitLod", "OpImageSparseSampleDrefExplicitLod"):
    HANDLERS[_name] = _image
