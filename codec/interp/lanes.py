"""A fragment shader over a whole grid at once, as a GPU wave runs it: every value an
array over the lanes (numpy; a value the lanes share stays one scalar), and an active-lane
mask for each path through divergent control flow. The instructions run through the
interpreter's own handlers and operations (their semantics are written once, in `ops`,
`glsl450` and `invocation`); this module adds only what a wave does differently: writes
merged under the mask, branches that split the lanes, calls and returns per lane, kills,
and derivatives from the lanes of each 2x2 quad.

Paths are scheduled lowest position first (the call sites, then the instruction), so
lanes that leave a branch or a loop early wait at the merge block for the others and
run on together. What the lanes cannot do raises `LaneFallback`, naming it; the caller
then runs the grid invocation by invocation.

An undefined value is one `UNDEF` for all lanes: a value undefined in some lanes only
falls back, except in variables, where a lane that reads what only other lanes stored
sees their value (an Output variable's scalars a lane never stored are undefined in its
pixel, as one invocation gives them)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spvinspect.codec.interp import memory
from spvinspect.codec.interp.images_lanes import LANE_SAMPLING, NotInLanes, execute_lanes
from spvinspect.codec.interp.interface import SHARED_STORAGE, lane_cells, outputs_json, shared_cells
from spvinspect.codec.interp.invocation import HANDLERS, Frame, Invocation, Unsupported, position, prepare
from spvinspect.codec.interp.memory import Cell, Pointer
from spvinspect.codec.interp.ops import LITERAL_OPS, OPS
from spvinspect.codec.interp.shader import EntryPoint, Ins, Shader
from spvinspect.codec.interp.types import FLOAT_DTYPES, UNDEF, Type, mask, undef


class LaneFallback(Exception):
    """Something the lanes cannot run together; the message says what (and where)."""


NOT_IN_LANES = {
    "OpControlBarrier": "barriers", "OpImageWrite": "image writes", "OpImageTexelPointer": "image atomics",
    "OpUnreachable": "OpUnreachable",
}
"""Instructions the lanes leave to the per-invocation interpreter, and what to call them."""

LANE_BY_LANE = {"OpExtInst", "OpVectorExtractDynamic", "OpVectorInsertDynamic", "OpSampledImage", "OpImage",
                "OpImageSampleImplicitLod", "OpImageSampleExplicitLod", "OpImageSampleDrefImplicitLod",
                "OpImageSampleDrefExplicitLod", "OpImageSampleProjImplicitLod", "OpImageSampleProjExplicitLod",
                "OpImageSampleProjDrefImplicitLod", "OpImageSampleProjDrefExplicitLod", "OpImageFetch",
                "OpImageGather", "OpImageDrefGather", "OpImageRead", "OpImageQuerySize", "OpImageQuerySizeLod",
                "OpImageQueryLevels", "OpImageQueryLod", "OpImageQuerySamples"}
"""Instructions that only define their result: where their handler is not written for
arrays (it raises on one), they run lane by lane through the same handler."""

SAMPLING = {op for op in LANE_BY_LANE if op.startswith("OpImage")} | {"OpSampledImage"}
"""Those that run lane by lane as soon as an operand differs between lanes (the image
code reads scalars)."""


def lanes_unsupported(shader: Shader) -> str | None:
    """Why the module's code cannot run in lanes (checked before running), or None."""
    for fn in shader.functions.values():
        for ins in fn.code:
            op = ins.opname
            if op in NOT_IN_LANES:
                return f"{NOT_IN_LANES[op]} ({op} at word {ins.offset})"
            if op.startswith(("OpGroupNonUniform", "OpSubgroup", "OpAtomic")) or (
                    op.startswith("OpImage") and op not in LANE_BY_LANE):
                return f"{op} at word {ins.offset}"
    return None


# -- values over lanes ----------------------------------------------------------------------
def merge(m: np.ndarray, new, old):
    """`new` in the lanes of `m`, `old` in the others (trees of lane arrays and scalars)."""
    if new is old:
        return new
    if new.__class__ is tuple:
        if old.__class__ is not tuple or len(old) != len(new):
            if old is UNDEF:
                return new
            raise LaneFallback("a composite value whose shape differs between lanes")
        return tuple([merge(m, a, b) for a, b in zip(new, old)])
    if isinstance(new, (Pointer, LanePointer)) or isinstance(old, (Pointer, LanePointer)):
        if old is UNDEF or new == old:
            return new
        if new is UNDEF:
            raise LaneFallback("a pointer undefined in some lanes and not in others")
        return LanePointer.merge(m, new, old)
    if old is UNDEF:
        return new
    if new is UNDEF:
        raise LaneFallback("a value undefined in some lanes and not in others")
    out = np.where(m, new, old)
    if out.dtype == np.int64:
        out = out.astype(np.uint64)
    return out


class LanePointer:
    """A pointer that differs between lanes (a call's pointer parameter from two call
    sites, an access chain with an index per lane): `choices[which[lane]]`."""

    __slots__ = ("choices", "which")

    def __init__(self, choices: list[Pointer], which: np.ndarray) -> None:
        self.choices = choices
        self.which = which

    @staticmethod
    def parts(p) -> tuple[list[Pointer], object]:
        return (p.choices, p.which) if isinstance(p, LanePointer) else ([p], 0)

    @staticmethod
    def merge(m: np.ndarray, new, old):
        choices, which = LanePointer.parts(old)
        choices = list(choices)
        new_choices, new_which = LanePointer.parts(new)
        where = []
        for c in new_choices:
            for k, d in enumerate(choices):
                if d == c:
                    where.append(k)
                    break
            else:
                where.append(len(choices))
                choices.append(c)
        which = np.where(m, np.asarray(where)[new_which], which)
        return LanePointer.of(choices, which)

    @staticmethod
    def of(choices: list[Pointer], which: np.ndarray):
        """The pointers with the unused ones dropped; a plain Pointer when one is left."""
        used = np.unique(which)
        if len(used) == 1:
            return choices[int(used[0])]
        if len(used) < len(choices):
            renumber = np.zeros(len(choices), dtype=np.int64)
            renumber[used] = np.arange(len(used))
            return LanePointer([choices[int(k)] for k in used], renumber[which])
        return LanePointer(choices, which)

    def __eq__(self, other) -> bool:
        return (isinstance(other, LanePointer) and self.choices == other.choices
                and np.array_equal(self.which, other.which))

    def used(self, m: np.ndarray) -> list[tuple[Pointer, np.ndarray]]:
        """Each pointer the lanes of `m` hold, with those lanes."""
        out = []
        for k, p in enumerate(self.choices):
            lanes = m & (self.which == k)
            if lanes.any():
                out.append((p, lanes))
        return out


class MaskedIds(dict):
    """A function's ids over the lanes: a write changes only the lanes of the running path."""

    __slots__ = ("wave",)

    def __setitem__(self, key, value) -> None:
        wave = self.wave
        value = _unsigned(value)
        if not wave.full:
            old = self.get(key, _MISSING)
            if old is not _MISSING:
                value = merge(wave.mask, value, old)
        dict.__setitem__(self, key, value)


_MISSING = object()


def _unsigned(v):
    """Integers over lanes kept as uint64 (a signed reading, int64, is only ever a step
    on the way: mixing the two would make numpy go to float64)."""
    if v.__class__ is tuple:
        return tuple([_unsigned(x) for x in v])
    if v.__class__ is np.ndarray and v.dtype.kind == "i":
        return v.astype(np.uint64)
    return v


def _stack(values: list, t: Type | None):
    """One value over the lanes from each lane's value: a scalar when they agree."""
    first = values[0]
    if first.__class__ is tuple:
        n = len(first)
        if any(v.__class__ is not tuple or len(v) != n for v in values):
            raise LaneFallback("an input whose shape differs between lanes")
        parts = []
        for i in range(n):
            sub = t.members[i] if t is not None and t.kind == "struct" else t.elem if t is not None else None
            parts.append(_stack([v[i] for v in values], sub))
        return tuple(parts)
    if all(v is first or (v.__class__ is first.__class__ and v == first) for v in values):
        return first
    if any(v is UNDEF for v in values):
        raise LaneFallback("an input undefined in some lanes")
    if isinstance(first, Pointer):
        choices: list[Pointer] = []
        which = np.zeros(len(values), dtype=np.int64)
        for lane, v in enumerate(values):
            for k, c in enumerate(choices):
                if c == v:
                    which[lane] = k
                    break
            else:
                which[lane] = len(choices)
                choices.append(v)
        return LanePointer(choices, which)
    kind = t.kind if t is not None else _kind_of(first)
    if kind == "int":
        return np.array(values, dtype=np.uint64)
    if kind == "float":
        return np.array(values, dtype=FLOAT_DTYPES[t.width] if t is not None else type(first))
    if kind == "bool":
        return np.array(values, dtype=bool)
    raise LaneFallback(f"a value of kind {kind} that differs between lanes")


def _kind_of(v) -> str:
    if isinstance(v, (bool, np.bool_)):
        return "bool"
    if isinstance(v, np.floating):
        return "float"
    if isinstance(v, int):
        return "int"
    return type(v).__name__


def _leaves(v, path: tuple = ()):
    """The paths to the scalars of a value."""
    if v.__class__ is tuple:
        for i, x in enumerate(v):
            yield from _leaves(x, path + (i,))
    else:
        yield path


def _with_leaf(v, path: tuple, leaf):
    """`v` with the scalar at `path` replaced by `leaf` (a value undefined as a whole has
    every scalar undefined already)."""
    if not path or v is UNDEF:
        return leaf if not path else v
    i = path[0]
    return v[:i] + (_with_leaf(v[i], path[1:], leaf),) + v[i + 1:]


def _lane_value(v, t: Type | None, lane: int):
    """One lane's value out of a value over the lanes, in the interpreter's scalar types."""
    if v.__class__ is tuple:
        out = []
        for i, x in enumerate(v):
            sub = t.members[i] if t is not None and t.kind == "struct" and i < len(t.members) else t.elem if t is not None else None
            out.append(_lane_value(x, sub, lane))
        return tuple(out)
    if isinstance(v, LanePointer):
        return v.choices[int(v.which[lane])] if isinstance(v.which, np.ndarray) else v.choices[v.which]
    if isinstance(v, np.ndarray):
        x = v[lane]
        if t is not None and t.kind == "int":
            return int(x)
        if t is not None and t.kind == "bool":
            return bool(x)
        return x
    return v


# -- the wave -------------------------------------------------------------------------------
class Path:
    """Lanes at the same place: their call stack (frames) and which lanes they are."""

    __slots__ = ("frames", "mask")

    def __init__(self, frames: list[Frame], mask_: np.ndarray) -> None:
        self.frames = frames
        self.mask = mask_

    def key(self) -> tuple:
        return position(self.frames)

    def fork(self, mask_: np.ndarray) -> Path:
        frames = []
        for f in self.frames:
            g = Frame(f.fn, f.ret_id)
            g.pc, g.ids, g.block, g.prev_block = f.pc, f.ids, f.block, f.prev_block
            frames.append(g)
        return Path(frames, mask_)


class LaneInvocation(Invocation):
    """The interpreter's invocation with values over lanes: the handlers run unchanged;
    stores merge under the running path's mask; derivatives come from the quads."""

    def __init__(self, wave: Wave, shader: Shader, entry_fn: int, cells: dict[int, Cell]) -> None:
        super().__init__(shader, entry_fn, cells)
        self.wave = wave

    def goto(self, label: int) -> None:
        super().goto(label)
        frame = self.frames[-1]
        for rid, v in frame.phis.items():
            frame.ids[rid] = v
        frame.phis = {}

    def load(self, p):
        if not isinstance(p, LanePointer):
            return super().load(p)
        out = UNDEF
        for one, lanes in p.used(self.wave.mask):
            try:
                v = memory.read(one)
            except memory.OutOfBounds:
                raise LaneFallback(f"an out-of-bounds load ({one.describe()}) in some lanes") from None
            out = v if out is UNDEF else merge(lanes, v, out)
        return out

    def store(self, p, value) -> None:
        if isinstance(p, LanePointer):
            wave = self.wave
            m, full = wave.mask, wave.full
            try:
                for one, lanes in p.used(m):
                    wave.mask, wave.full = lanes, False
                    self.store(one, value)
            finally:
                wave.mask, wave.full = m, full
            return
        if not isinstance(p, Pointer):
            return
        if p.cell.storage in SHARED_STORAGE:
            raise LaneFallback(f"stores to {p.cell.storage} memory ({p.describe()})")
        wave = self.wave
        value = _unsigned(value)
        if not wave.full:
            try:
                old = memory.read(p)
            except memory.OutOfBounds:
                return
            value = merge(wave.mask, value, old)
        if p.cell.storage == "Output" and memory.in_bounds(p):
            for path in _leaves(value, p.path):
                key = (p.cell.var_id, path)
                had = wave.written.get(key)
                wave.written[key] = wave.mask if had is None else had | wave.mask
        memory.store(p, value)

    def block_on(self, kind: str, ins: Ins, value=None) -> bool:
        if kind in ("fine", "coarse"):
            self.answer = self.wave.derivatives(kind, value)
            return True
        raise LaneFallback(f"{ins.opname} at word {ins.offset} needs the other invocations ({kind})")


def _varies_value(v) -> bool:
    if v.__class__ is tuple:
        return any(_varies_value(x) for x in v)
    return isinstance(v, np.ndarray)


def _varies(inv: Invocation, ins: Ins) -> bool:
    """Whether an operand of `ins` differs between lanes."""
    ids = inv.frames[-1].ids
    for i in ins.args:
        if i in ids and _varies_value(ids[i]):
            return True
    return False


class LaneView:
    """One lane of the wave seen as an invocation of scalars, for a handler that is not
    written for arrays: its operands are the lane's values, its result is kept."""

    def __init__(self, wave: Wave) -> None:
        self.wave = wave
        self.shader = wave.shader
        self.lane = 0
        self.result = _MISSING
        self.status = "running"
        self.recording = False
        self.record = None
        self.answer = None
        self.answers: tuple | None = None
        self.asked = None
        self.kind = ""

    @property
    def frames(self):
        return [_LaneFrame(self)]

    def value(self, id_: int):
        return _lane_value(self.wave.inv.value(id_), self.shader.id_types.get(id_), self.lane)

    def type_of(self, id_: int):
        return self.shader.id_types.get(id_)

    def set(self, ins: Ins, v) -> None:
        self.result = v

    def note(self, text: str) -> None:
        pass

    def load(self, p):
        inv = self.wave.inv
        return _lane_value(inv.load(p), p.type if isinstance(p, Pointer) else None, self.lane)

    def store(self, p, value) -> None:
        raise LaneFallback("a store lane by lane")

    def block_on(self, kind: str, ins: Ins, value=None) -> bool:
        """Derivatives: the first time round every lane says what it differentiates
        (`_Asked`); the second time each gets its answer."""
        if kind not in ("fine", "coarse"):
            raise LaneFallback(f"{ins.opname} at word {ins.offset} needs the other invocations ({kind})")
        if self.answers is None:
            self.kind, self.asked = kind, value
            raise _Asked
        self.answer = self.answers
        return True


class _Asked(Exception):
    """A lane asked for derivatives (see `LaneView.block_on`)."""


class _LaneFrame:
    """What a pure operation's handler reads of the frame: ids as one lane's values."""

    __slots__ = ("ids",)

    def __init__(self, view: LaneView) -> None:
        self.ids = _LaneIds(view)


class _LaneIds(dict):
    __slots__ = ("view",)

    def __init__(self, view: LaneView) -> None:
        super().__init__()
        self.view = view

    def __contains__(self, key) -> bool:
        return False

    def __setitem__(self, key, value) -> None:
        self.view.result = value


class Wave:
    """The lanes of a W x H grid (its quads, four lanes each, in the order `run_grid` runs
    them), run together to the end."""

    def __init__(self, shader: Shader, entry: EntryPoint, inputs: dict, size: tuple[int, int]) -> None:
        from spvinspect.codec.interp.group import Launch, _lanes

        self.shader, self.entry, self.inputs, self.size = shader, entry, inputs, size
        w, h = size
        self.quads = [(qx, qy) for qy in range(0, h, 2) for qx in range(0, w, 2)]
        lanes = []
        for qx, qy in self.quads:
            quad, _, _ = _lanes(shader, entry, inputs, Launch(fragment=(qx, qy)))
            lanes.extend(quad)
        self.count = len(lanes)
        per_lane = [lane_cells(shader, entry, inputs, lane) for lane in lanes]
        self.shared = shared_cells(shader, entry, inputs, 4)
        self.lane_cells: dict[int, Cell] = {}
        for vid, cell in per_lane[0].items():
            value = _stack([cells[vid].snapshot() for cells in per_lane], cell.type)
            self.lane_cells[vid] = Cell(value, cell.type, cell.name, cell.storage, cell.var_id)
        cells = dict(self.shared)
        cells.update(self.lane_cells)
        self.inv = LaneInvocation(self, shader, entry.function, cells)
        self.ids: dict[int, MaskedIds] = {}
        self.variables: dict[int, Cell] = {}
        """Function variables, one cell per OpVariable over the lanes."""
        self.written: dict[tuple[int, tuple], np.ndarray] = {}
        """(Output variable, path to a scalar) → the lanes that have stored it."""
        self.unset = {vid: [path for path in _leaves(c.snapshot()) if memory.read(Pointer(c, path, c.type)) is UNDEF]
                      for vid, c in self.lane_cells.items() if c.storage == "Output"}
        """Output variable → the paths to its scalars that start undefined."""
        self.alive = np.ones(self.count, dtype=bool)
        self.killed = np.zeros(self.count, dtype=bool)
        self.helper = np.zeros(self.count, dtype=bool)
        self.mask = self.alive
        self.full = True
        root = self.inv.frames[0]
        root.ids = self._ids(root.fn.id)
        self.paths = [Path(self.inv.frames, self.alive.copy())]
        self.steps = 0

    def _ids(self, fn_id: int) -> MaskedIds:
        ids = self.ids.get(fn_id)
        if ids is None:
            ids = self.ids[fn_id] = MaskedIds()
            ids.wave = self
        return ids

    # -- running --------------------------------------------------------------------------
    def run(self, limit: int, going: Callable[[], bool] | None = None) -> bool:
        """Run every path to its end; LaneFallback when something cannot run in lanes.
        `going()` is asked every 64 steps; False stops the run (returns False)."""
        inv = self.inv
        with np.errstate(all="ignore"):
            while self.paths:
                if going is not None and self.steps % 64 == 0 and not going():
                    return False
                path = min(self.paths, key=Path.key)
                key = path.key()
                for other in [p for p in self.paths if p is not path and p.key() == key]:
                    path.mask = path.mask | other.mask
                    self.paths.remove(other)
                self.mask = path.mask
                self.full = bool((path.mask | ~self.alive).all())
                inv.frames = path.frames
                frame = path.frames[-1]
                ins = frame.fn.code[frame.pc]
                frame.pc += 1
                self.steps += 1
                if self.steps > limit:
                    raise LaneFallback(f"more than {limit} steps")
                try:
                    self._execute(path, ins)
                except LaneFallback:
                    raise
                except Unsupported as error:
                    raise LaneFallback(str(error)) from None
                except (ArithmeticError, ValueError, TypeError, IndexError, KeyError, AttributeError) as error:
                    raise LaneFallback(f"{ins.opname} at word {ins.offset}: {type(error).__name__}: {error}") from None
        return True

    def _execute(self, path: Path, ins: Ins) -> None:
        op = ins.opname
        special = LANE_HANDLERS.get(op)
        if special is not None:
            special(self, path, ins)
            return
        run = ins.run
        if run is None:
            run = ins.run = prepare(self.shader, ins)
        if op in SAMPLING and _varies(self.inv, ins):
            if op in LANE_SAMPLING and not _varies_value(self.inv.value(ins.args[0])):
                try:
                    execute_lanes(self.inv, ins, self.mask)
                    return
                except NotInLanes:
                    pass
            self._lane_by_lane(ins, run)
        elif op in OPS or op in LITERAL_OPS or op in LANE_BY_LANE:
            try:
                run(self.inv, ins)
            except (ArithmeticError, ValueError, TypeError, IndexError, AttributeError) as error:
                if not any(_varies_value(self.inv.value(i)) for i in ins.args if isinstance(i, int)):
                    raise error
                self._lane_by_lane(ins, run)
        else:
            run(self.inv, ins)
        if self.inv.status != "running":
            raise LaneFallback(f"{op} at word {ins.offset} ended the invocation ({self.inv.status})")

    def _lane_by_lane(self, ins: Ins, run) -> None:
        """`ins` run once for each lane of the path, its results put together. A handler
        that needs derivatives asks in every lane first; the quads then answer."""
        lanes = [int(lane) for lane in np.flatnonzero(self.mask)]
        view = LaneView(self)
        results = []
        for lane in lanes:
            view.lane = lane
            view.result = _MISSING
            try:
                run(view, ins)
            except _Asked:
                results = None
                break
            results.append(view.result)
        if results is None:
            asked: dict[int, object] = {}
            for lane in lanes:
                view.lane = lane
                try:
                    run(view, ins)
                except _Asked:
                    asked[lane] = view.asked
                else:
                    raise LaneFallback(f"{ins.opname} at word {ins.offset} asks for derivatives in some lanes only")
            kind = view.kind
            full = [asked[lanes[0]]] * self.count
            for lane, v in asked.items():
                full[lane] = v
            dx, dy = self.derivatives(kind, _stack(full, None))
            results = []
            for lane in lanes:
                view.lane = lane
                view.answers = (_lane_value(dx, None, lane), _lane_value(dy, None, lane))
                run(view, ins)
                results.append(view.result)
        if view.status != "running":
            raise LaneFallback(f"{ins.opname} at word {ins.offset} stopped a lane")
        if not results or ins.result_id == 0:
            return
        full = [results[0]] * self.count
        for lane, r in zip(lanes, results):
            full[lane] = r
        self.inv.set(ins, _stack(full, self.shader.types.get(ins.type_id)))

    def _split(self, path: Path, targets: list[tuple[np.ndarray, int]]) -> None:
        """The path's lanes go to several blocks: each (lanes, label) not empty gets a path."""
        live = [(m, label) for m, label in targets if m.any()]
        # Fork before any goes: each leaves from the block the lanes are in.
        paths = [path] + [path.fork(m) for m, _ in live[1:]]
        for p, (m, label) in zip(paths, live):
            p.mask = m
            if p is not path:
                self.paths.append(p)
            self.inv.frames = p.frames
            self.mask = m
            self.full = bool((m | ~self.alive).all())
            self.inv.goto(label)

    def _end(self, path: Path, lanes: np.ndarray, killed: bool) -> None:
        self.alive = self.alive & ~lanes
        if killed:
            self.killed = self.killed | lanes
        self.paths.remove(path)

    # -- derivatives ----------------------------------------------------------------------
    def derivatives(self, kind: str, value):
        """(d/dx, d/dy) of `value` in each lane, from its quad's lanes on this path (a lane
        of the quad not here counts as the lane's own value, as the group does)."""
        present = self.mask.reshape(-1, 4)

        def one(v):
            if v.__class__ is tuple:
                parts = [one(x) for x in v]
                return tuple(p[0] for p in parts), tuple(p[1] for p in parts)
            if v is UNDEF:
                return UNDEF, UNDEF
            if not isinstance(v, np.ndarray):
                z = v - v
                return z, z
            q = v.reshape(-1, 4)
            # s[quad, lane, slot]: the slot's value as the lane sees it.
            s = np.where(present[:, None, :], q[:, None, :], q[:, :, None])
            lane = np.arange(4)
            if kind == "fine":
                row, col = lane // 2, lane % 2
                dx = s[:, lane, row * 2 + 1] - s[:, lane, row * 2]
                dy = s[:, lane, 2 + col] - s[:, lane, col]
            else:
                dx = s[:, lane, 1] - s[:, lane, 0]
                dy = s[:, lane, 2] - s[:, lane, 0]
            return dx.reshape(-1), dy.reshape(-1)

        return one(value)

    # -- results --------------------------------------------------------------------------
    def pixels(self) -> list:
        """Each pixel's outputs as `run_grid` gives them (None for a discarded fragment)."""
        w, h = self.size
        out: list = [None] * (w * h)
        outputs = [c for c in self.lane_cells.values() if c.storage == "Output"]
        values = [(c, c.snapshot()) for c in outputs]
        done = ~self.killed & ~self.helper & ~self.alive
        for qi, (qx, qy) in enumerate(self.quads):
            for i in range(4):
                x, y = qx + i % 2, qy + i // 2
                lane = qi * 4 + i
                if x < w and y < h and done[lane]:
                    cells = {c.var_id: Cell(self._output(c, v, lane), c.type, c.name, c.storage, c.var_id)
                             for c, v in values}
                    out[y * w + x] = outputs_json(self.shader, cells)
        return out


    def _output(self, cell: Cell, value, lane: int):
        """One lane's value of an Output variable: a scalar it never stored stays undefined
        (the lanes share one array, so another lane's store shows there)."""
        v = _lane_value(value, cell.type, lane)
        for path in self.unset.get(cell.var_id, ()):
            written = self.written.get((cell.var_id, path))
            if written is None or not written[lane]:
                v = _with_leaf(v, path, UNDEF)
        return v


# -- what lanes do differently --------------------------------------------------------------
def _branch_cond(wave: Wave, path: Path, ins: Ins) -> None:
    c = wave.inv.value(ins.args[0])
    if not isinstance(c, np.ndarray):
        if isinstance(c, np.bool_):
            c = bool(c)
        HANDLERS["OpBranchConditional"](wave.inv, ins)
        return
    m = path.mask
    wave._split(path, [(m & c, ins.args[1]), (m & ~c, ins.args[2])])


def _switch(wave: Wave, path: Path, ins: Ins) -> None:
    a = ins.args
    sel = wave.inv.value(a[0])
    if not isinstance(sel, np.ndarray):
        HANDLERS["OpSwitch"](wave.inv, ins)
        return
    t = wave.inv.type_of(a[0])
    w = t.width if t is not None else 32
    rest = path.mask.copy()
    targets = []
    for k in range(2, len(a) - 1, 2):
        hit = rest & (sel == (a[k] & mask(w)))
        targets.append((hit, a[k + 1]))
        rest = rest & ~hit
    targets.append((rest, a[1]))
    # Lanes bound for the same block go as one path.
    by_label: dict[int, np.ndarray] = {}
    for m, label in targets:
        by_label[label] = by_label[label] | m if label in by_label else m
    wave._split(path, [(m, label) for label, m in by_label.items()])


def _return(wave: Wave, path: Path, ins: Ins) -> None:
    HANDLERS[ins.opname](wave.inv, ins)
    if not path.frames:
        wave.inv.status = "running"
        wave._end(path, path.mask, killed=False)


def _call(wave: Wave, path: Path, ins: Ins) -> None:
    inv = wave.inv
    fn = inv.shader.functions.get(ins.args[0])
    if fn is None:
        raise Unsupported(ins, "calls a function the module does not define")
    args = [inv.value(i) for i in ins.args[1:]]
    frame = Frame(fn, ins.result_id)
    frame.ids = wave._ids(fn.id)
    for pid, v in zip(fn.params, args):
        frame.ids[pid] = v
    frame.pc = 1 + len(fn.params)
    path.frames.append(frame)


def _kill(wave: Wave, path: Path, ins: Ins) -> None:
    wave._end(path, path.mask, killed=True)


def _demote(wave: Wave, path: Path, ins: Ins) -> None:
    wave.helper = wave.helper | path.mask


def _is_helper(wave: Wave, path: Path, ins: Ins) -> None:
    wave.inv.set(ins, wave.helper.copy())


def _variable(wave: Wave, path: Path, ins: Ins) -> None:
    inv = wave.inv
    cell = wave.variables.get(ins.result_id)
    if cell is None:
        var = inv.shader.variables.get(ins.result_id)
        t = var.type if var else inv.shader.types[ins.type_id].elem
        cell = wave.variables[ins.result_id] = Cell(undef(t), t, inv.shader.names.get(ins.result_id, ""),
                                                    "Function", ins.result_id)
    p = Pointer(cell, (), cell.type)
    if len(ins.args) > 1:
        inv.store(p, inv.value(ins.args[1]))
    inv.set(ins, p)


def _access_chain(wave: Wave, path: Path, ins: Ins) -> None:
    """A pointer per lane when the base or an index differs between lanes: the
    interpreter's access chain once for each different (base, indexes) the lanes hold."""
    inv = wave.inv
    operands = [inv.value(i) for i in ins.args]
    if not any(isinstance(v, (np.ndarray, LanePointer)) for v in operands):
        HANDLERS["OpAccessChain"](inv, ins)
        return
    lanes = np.flatnonzero(path.mask)
    columns = []
    for v in operands:
        if isinstance(v, LanePointer):
            v = v.which
        columns.append(np.broadcast_to(v, (wave.count,))[lanes].astype(np.int64) if isinstance(v, (np.ndarray, int))
                       else np.zeros(len(lanes), dtype=np.int64))
    combos, first, inverse = np.unique(np.stack(columns, axis=1), axis=0, return_index=True, return_inverse=True)
    view = LaneView(wave)
    choices = []
    for k in range(len(combos)):
        view.lane = int(lanes[first[k]])
        view.result = _MISSING
        HANDLERS["OpAccessChain"](view, ins)
        if not isinstance(view.result, Pointer):
            raise LaneFallback(f"{ins.opname} at word {ins.offset}: an undefined pointer in some lanes")
        choices.append(view.result)
    which = np.zeros(wave.count, dtype=np.int64)
    which[lanes] = inverse.reshape(-1)
    inv.set(ins, LanePointer.of(choices, which))


def _array_length(wave: Wave, path: Path, ins: Ins) -> None:
    if isinstance(wave.inv.value(ins.args[0]), LanePointer):
        raise LaneFallback(f"{ins.opname} at word {ins.offset} through a pointer that differs between lanes")
    HANDLERS[ins.opname](wave.inv, ins)


def _phi(wave: Wave, path: Path, ins: Ins) -> None:
    """Phis are set as the lanes enter the block (their values differ by the block they come from)."""


LANE_HANDLERS = {
    "OpBranchConditional": _branch_cond, "OpSwitch": _switch, "OpReturn": _return, "OpReturnValue": _return,
    "OpFunctionEnd": _return, "OpFunctionCall": _call, "OpKill": _kill, "OpTerminateInvocation": _kill,
    "OpDemoteToHelperInvocation": _demote, "OpDemoteToHelperInvocationEXT": _demote,
    "OpIsHelperInvocationEXT": _is_helper, "OpVariable": _variable, "OpPhi": _phi,
    "OpAccessChain": _access_chain, "OpInBoundsAccessChain": _access_chain, "OpArrayLength": _array_length,
}


def run_lanes(shader: Shader, entry: EntryPoint, inputs: dict, size: tuple[int, int], limit: int,
              going: Callable[[], bool] | None = None) -> list | None:
    """Each pixel's outputs over a W x H grid, all lanes together (None when `going()`
    said stop); LaneFallback names what keeps the module from running in lanes."""
    why = lanes_unsupported(shader)
    if why:
        raise LaneFallback(why)
    wave = Wave(shader, entry, inputs, size)
    if not wave.run(limit, going):
        return None
    return wave.pixels()
