"""Subgroup (OpGroupNonUniform*) instructions: the invocations of a subgroup that reach
the same instruction together (the active ones) exchange their values. A compute
workgroup is cut into subgroups of 32; a fragment quad is one subgroup of 4."""

from __future__ import annotations

import numpy as np

from spvinspect.codec.interp.ops import OPS
from spvinspect.codec.interp.types import UNDEF, mask, to_signed

SUBGROUP_SIZE = 32

REDUCTIONS = {
    "OpGroupNonUniformIAdd": ("OpIAdd", 0), "OpGroupNonUniformFAdd": ("OpFAdd", 0.0),
    "OpGroupNonUniformIMul": ("OpIMul", 1), "OpGroupNonUniformFMul": ("OpFMul", 1.0),
    "OpGroupNonUniformSMin": ("SMin", None), "OpGroupNonUniformUMin": ("UMin", None),
    "OpGroupNonUniformFMin": ("FMin", None), "OpGroupNonUniformSMax": ("SMax", None),
    "OpGroupNonUniformUMax": ("UMax", None), "OpGroupNonUniformFMax": ("FMax", None),
    "OpGroupNonUniformBitwiseAnd": ("OpBitwiseAnd", None), "OpGroupNonUniformBitwiseOr": ("OpBitwiseOr", None),
    "OpGroupNonUniformBitwiseXor": ("OpBitwiseXor", None), "OpGroupNonUniformLogicalAnd": ("OpLogicalAnd", None),
    "OpGroupNonUniformLogicalOr": ("OpLogicalOr", None), "OpGroupNonUniformLogicalXor": ("OpLogicalNotEqual", None),
}
OTHERS = {"OpGroupNonUniformElect", "OpGroupNonUniformAll", "OpGroupNonUniformAny", "OpGroupNonUniformAllEqual",
          "OpGroupNonUniformBroadcast", "OpGroupNonUniformBroadcastFirst", "OpGroupNonUniformBallot",
          "OpGroupNonUniformShuffle", "OpGroupNonUniformShuffleXor", "OpGroupNonUniformShuffleUp",
          "OpGroupNonUniformShuffleDown", "OpGroupNonUniformQuadBroadcast", "OpGroupNonUniformQuadSwap",
          "OpGroupNonUniformInverseBallot", "OpGroupNonUniformBallotBitCount", "OpGroupNonUniformBallotFindLSB",
          "OpGroupNonUniformBallotFindMSB", "OpGroupNonUniformBallotBitExtract", "OpSubgroupBallotKHR",
          "OpSubgroupFirstInvocationKHR", "OpSubgroupAllKHR", "OpSubgroupAnyKHR", "OpSubgroupAllEqualKHR",
          "OpSubgroupReadInvocationKHR"}
NAMES = set(REDUCTIONS) | OTHERS


def execute(inv, ins) -> None:
    """Block until the subgroup answers; then the answer is this invocation's result."""
    has_group_op = ins.opname in REDUCTIONS or ins.opname == "OpGroupNonUniformBallotBitCount"
    scope = 1 if ins.opname.startswith("OpGroupNonUniform") else 0
    payload = tuple(inv.value(a) for a in ins.args[scope + has_group_op:])
    if not inv.block_on("subgroup", ins, payload):
        return
    result = inv.answer.value
    inv.answer = None
    inv.set(ins, result)


def _combine(opname, rt, a, b):
    if opname.startswith("Op"):
        return OPS[opname](rt, [a, b], [rt, rt])
    from spvinspect.codec.interp.glsl450 import FUNCS

    return FUNCS[opname](rt, a, b)


def answer(shader, ins, lanes: list[tuple[int, object]]) -> dict[int, object]:
    """Each active lane's result: `lanes` holds (lane id in the subgroup, payload)."""
    op = ins.opname
    rt = shader.types.get(ins.type_id)
    ids = [lane for lane, _ in lanes]
    first = min(ids)
    payload = dict(lanes)
    out = {}
    args = ins.args
    if op in REDUCTIONS:
        base, _ = REDUCTIONS[op]
        group_op = args[1]
        for lane in ids:
            # GroupOperation: 0 Reduce, 1 InclusiveScan, 2 ExclusiveScan, 3 ClusteredReduce.
            if group_op == 1:
                take = [i for i in ids if i <= lane]
            elif group_op == 2:
                take = [i for i in ids if i < lane]
            elif group_op == 3:
                size = payload[lane][1] if len(payload[lane]) > 1 else SUBGROUP_SIZE
                take = [i for i in ids if i // size == lane // size]
            else:
                take = ids
            vals = [payload[i][0] for i in take]
            if not vals:
                out[lane] = _identity(op, rt)
                continue
            acc = vals[0]
            for v in vals[1:]:
                acc = _combine(base, rt, acc, v)
            out[lane] = acc
        return out
    value = {i: p[0] if p else None for i, p in payload.items()}
    for lane in ids:
        if op in ("OpGroupNonUniformElect", "OpSubgroupFirstInvocationKHR"):
            r = lane == first if op == "OpGroupNonUniformElect" else first
        elif op in ("OpGroupNonUniformAll", "OpSubgroupAllKHR"):
            r = all(value[i] is True for i in ids)
        elif op in ("OpGroupNonUniformAny", "OpSubgroupAnyKHR"):
            r = any(value[i] is True for i in ids)
        elif op in ("OpGroupNonUniformAllEqual", "OpSubgroupAllEqualKHR"):
            r = all(_same(value[i], value[first]) for i in ids)
        elif op in ("OpGroupNonUniformBroadcastFirst",):
            r = value[first]
        elif op in ("OpGroupNonUniformBroadcast", "OpGroupNonUniformShuffle", "OpSubgroupReadInvocationKHR",
                    "OpGroupNonUniformQuadBroadcast"):
            src = payload[lane][1]
            if op == "OpGroupNonUniformQuadBroadcast":
                src = lane - lane % 4 + src
            r = value.get(src, UNDEF) if src is not UNDEF else UNDEF
        elif op == "OpGroupNonUniformShuffleXor":
            r = value.get(lane ^ payload[lane][1], UNDEF)
        elif op == "OpGroupNonUniformShuffleUp":
            r = value.get(lane - payload[lane][1], UNDEF)
        elif op == "OpGroupNonUniformShuffleDown":
            r = value.get(lane + payload[lane][1], UNDEF)
        elif op == "OpGroupNonUniformQuadSwap":
            d = payload[lane][1]
            r = value.get(lane ^ (1 if d == 0 else 2 if d == 1 else 3), UNDEF)
        elif op in ("OpGroupNonUniformBallot", "OpSubgroupBallotKHR"):
            bits = sum(1 << i for i in ids if value[i] is True)
            r = tuple((bits >> (32 * k)) & mask(32) for k in range(4))
        elif op == "OpGroupNonUniformInverseBallot":
            r = bool(_bits(value[lane]) >> lane & 1)
        elif op == "OpGroupNonUniformBallotBitExtract":
            r = bool(_bits(value[lane]) >> payload[lane][1] & 1)
        elif op == "OpGroupNonUniformBallotBitCount":
            bits = _bits(value[lane])
            group_op = args[1]
            if group_op == 1:
                bits &= (1 << (lane + 1)) - 1
            elif group_op == 2:
                bits &= (1 << lane) - 1
            r = bin(bits).count("1")
        elif op == "OpGroupNonUniformBallotFindLSB":
            bits = _bits(value[lane])
            r = (bits & -bits).bit_length() - 1 & mask(32) if bits else mask(32)
        elif op == "OpGroupNonUniformBallotFindMSB":
            bits = _bits(value[lane])
            r = bits.bit_length() - 1 & mask(32) if bits else mask(32)
        else:
            r = UNDEF
        out[lane] = r
    return out


def _bits(v) -> int:
    if not isinstance(v, tuple):
        return 0
    return sum((c if isinstance(c, int) else 0) << (32 * k) for k, c in enumerate(v))


def _same(a, b) -> bool:
    if isinstance(a, tuple):
        return all(_same(x, y) for x, y in zip(a, b))
    return a is not UNDEF and b is not UNDEF and bool(a == b)


def _identity(op, rt):
    st = rt.scalar
    if op in ("OpGroupNonUniformIAdd", "OpGroupNonUniformBitwiseOr", "OpGroupNonUniformBitwiseXor", "OpGroupNonUniformUMax"):
        v = 0
    elif op == "OpGroupNonUniformIMul":
        v = 1
    elif op in ("OpGroupNonUniformFAdd",):
        v = np.float32(0) if st.width == 32 else type(np.float64(0))(0)
    elif op == "OpGroupNonUniformFMul":
        v = np.float32(1)
    elif op in ("OpGroupNonUniformUMin", "OpGroupNonUniformBitwiseAnd"):
        v = mask(st.width)
    elif op == "OpGroupNonUniformSMin":
        v = (1 << (st.width - 1)) - 1
    elif op == "OpGroupNonUniformSMax":
        v = (1 << (st.width - 1)) & mask(st.width)
    elif op == "OpGroupNonUniformFMin":
        v = np.float32(np.inf)
    elif op == "OpGroupNonUniformFMax":
        v = np.float32(-np.inf)
    elif op == "OpGroupNonUniformLogicalAnd":
        v = True
    elif op in ("OpGroupNonUniformLogicalOr", "OpGroupNonUniformLogicalXor"):
        v = False
    else:
        return UNDEF
    if rt.kind == "vector":
        return (v,) * rt.count
    return v


_ = to_signed
