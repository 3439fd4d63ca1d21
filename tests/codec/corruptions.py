"""Seeded corruptions of valid modules, each knowing where its fault is."""

from __future__ import annotations

import random
import struct
from dataclasses import dataclass

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.grammar import load_grammar


@dataclass(frozen=True)
class Corruption:
    """A broken module, what was done to it, and the instruction the fault is in."""

    name: str
    data: bytes
    fault_instruction: int | None
    """Word offset of the corrupted instruction, when the corruption targets one."""
    resumes_at: int | None
    """Word offset where the next instruction starts, when decoding should resume."""


def _words(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 4}I", data[: len(data) // 4 * 4]))


def _pack(words: list[int]) -> bytes:
    return struct.pack(f"<{len(words)}I", *words)


def corruptions(data: bytes, seed: int) -> list[Corruption]:
    """Every kind of corruption, applied to `data` at places chosen by `seed`."""
    rng = random.Random(seed)
    module = decode(data)
    words = _words(data)
    insts = module.instructions
    out: list[Corruption] = []

    def pick(predicate=lambda inst: True):
        candidates = [inst for inst in insts if predicate(inst)]
        return rng.choice(candidates) if candidates else None

    replaced = list(words)
    for _ in range(3):
        replaced[rng.randrange(5, len(words))] = rng.getrandbits(32)
    out.append(Corruption("random words", _pack(replaced), None, None))

    grammar = load_grammar()

    def fixed_length(inst) -> bool:
        desc = grammar.instructions.get(inst.opcode)
        return desc is not None and all(o.quantifier is None for o in desc.operands)

    inst = pick(lambda i: i.word_count > 2 and fixed_length(i))
    if inst is not None:
        dropped = list(words)
        del dropped[inst.end - 1]
        dropped[inst.offset] = ((inst.word_count - 1) << 16) | inst.opcode
        out.append(Corruption("operand dropped", _pack(dropped), inst.offset, inst.end - 1))

    inst = pick(fixed_length)  # no '?' or '*' operand to absorb the change
    added = list(words)
    added.insert(inst.end, 0x12345)
    added[inst.offset] = ((inst.word_count + 1) << 16) | inst.opcode
    out.append(Corruption("operand added", _pack(added), inst.offset, inst.end + 1))

    inst = pick()
    unknown = list(words)
    unknown[inst.offset] = (inst.word_count << 16) | 0xFFF0
    out.append(Corruption("unknown opcode", _pack(unknown), inst.offset, inst.end))

    enum_operand = [
        (i, o)
        for i in insts
        for o in i.operands
        if o.kind in ("Decoration", "StorageClass", "Capability", "ExecutionMode", "BuiltIn")
    ]
    if enum_operand:
        inst, operand = rng.choice(enum_operand)
        bad_enum = list(words)
        bad_enum[operand.offset] = 0xABCDE
        out.append(Corruption("unknown enumerant", _pack(bad_enum), inst.offset, inst.end))

    inst = pick(lambda i: any(o.kind == "LiteralString" for o in i.operands))
    if inst is not None:
        string = next(o for o in inst.operands if o.kind == "LiteralString")
        unterminated = list(words)
        for k in range(string.offset, inst.end):
            unterminated[k] = 0x61616161  # 'aaaa': no nul left in the instruction
        out.append(Corruption("truncated string", _pack(unterminated), inst.offset, inst.end))

    inst = pick()
    zero = list(words)
    zero[inst.offset] = inst.opcode
    out.append(Corruption("word count 0", _pack(zero), inst.offset, None))

    cut = rng.randrange(20, len(data))
    out.append(Corruption("truncated", data[:cut], None, None))
    return out
