"""SPIR-V inputs: corpus modules and texts, hand-made modules, the issue's reproducers, mutated.

Targeted mutations find their spots in the decoded seed (instruction and operand spans,
opcode names), so no opcode number is written here.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from benchmarks.fuzzing import mutate
from spvinspect.codec.asm import assemble
from spvinspect.codec.binary import decode
from spvinspect.codec.text import DisassemblyOptions, disassemble

HAND_MADE = (
    """; SPIR-V
; Version: 1.0
; Generator: Khronos Glslang Reference Front End; 11
; Bound: 40
; Schema: 0
               OpCapability Shader
               OpCapability Float16
               OpCapability Int16
          %1 = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Logical GLSL450
               OpEntryPoint Fragment %main "main" %color
               OpExecutionMode %main OriginUpperLeft
               OpSource GLSL 450
               OpName %main "main"
               OpName %color "color"
               OpMemberName %S 0 "field"
               OpDecorate %color Location 0
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
      %short = OpTypeInt 16 1
       %bool = OpTypeBool
    %v4float = OpTypeVector %float 4
          %S = OpTypeStruct %float
%_ptr_Output_v4float = OpTypePointer Output %v4float
      %color = OpVariable %_ptr_Output_v4float Output
    %float_1 = OpConstant %float 1
     %half_1 = OpConstant %half 1
  %short_m3 = OpConstant %short -3
       %true = OpConstantTrue %bool
       %main = OpFunction %void None %3
          %5 = OpLabel
          %6 = OpExtInst %float %1 Sqrt %float_1
          %7 = OpCompositeConstruct %v4float %6 %float_1 %float_1 %float_1
               OpSelectionMerge %9 None
               OpBranchConditional %true %8 %9
          %8 = OpLabel
               OpStore %color %7
               OpBranch %9
          %9 = OpLabel
               OpReturn
               OpFunctionEnd
""",
    """               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
       %void = OpTypeVoid
          %3 = OpTypeFunction %void
        %int = OpTypeInt 32 1
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
       %main = OpFunction %void None %3
          %5 = OpLabel
               OpBranch %6
          %6 = OpLabel
          %7 = OpPhi %int %int_0 %5 %8 %9
               OpLoopMerge %10 %9 None
               OpSwitch %7 %10 0 %9 1 %10
          %9 = OpLabel
          %8 = OpIAdd %int %7 %int_1
               OpBranch %6
         %10 = OpLabel
               OpReturn
               OpFunctionEnd
""",
)
"""Small modules with the shapes the issue's reproducers needed: 16-bit types, extended
instructions, strings in several instructions, a loop and a switch."""

ISSUE_REPRODUCERS = (
    "07230203000100000000000000000001000000000002001100000001",
    "0302230700000100000000000200000000000000050003000100000061620001",
    "03022307000000000000000001000000000000001100020001000000",
    "03022307000001000000000004000000000000001500040001000000200000000000000090010400010000000200000003000000",
    "07",
    "0302230700000100000000000300000000000000150004000100000002000000010000002b00040001000000020000001b000000",
    "03022307000001000000000003000000000000001600030001000000040000002b00040001000000020000000000003f",
    "03022307000001000000000003000000000000001600030001000000100000002b00040001000000020000000000803f",
    "0302230700000100000000000300000000000000150004000100000010000000010000002b00040001000000020000000000e1c0",
    "03022307000001000000000006000000000000000b00060001000000474c534c2e7374642e343530000000001600030002000000"
    "200000002b00040002000000030000000000803f0c000700020000000400000001000000280000000300000000000000",
)
"""The modules issue 16 lists, as hex."""

HEADER_VALUES = (
    0, 1, 0x00010000, 0x00010300, 0x00010600, 0x00010700, 0x00010001, 0x00020000, 0x01010000,
    0xFFFFFFFF, 0x07230203, 0x03022307, 0x7FFFFFFF, 0x80000000,
)
WIDTHS = (0, 1, 2, 3, 4, 7, 8, 12, 16, 24, 31, 33, 48, 63, 64, 65, 128, 256, 0xFFFFFFFF)


@dataclass
class SpirvSeeds:
    """Starting points for SPIR-V binaries and texts."""

    binaries: list[bytes]
    texts: list[str]
    vocabulary: tuple[str, ...] = field(default=())
    """Words for text edits: opcode and operand names of the seeds, ids, numbers, comments."""


def load_seeds(corpus: Path | None, max_bytes: int) -> SpirvSeeds:
    """Corpus modules up to `max_bytes` and corpus texts, plus the hand-made modules and the
    issue's reproducers; the hand-made modules alone when there is no corpus."""
    binaries = [bytes.fromhex(hex_text) for hex_text in ISSUE_REPRODUCERS]
    texts = list(HAND_MADE)
    for text in HAND_MADE:
        result = assemble(text)
        if result.binary is not None:
            binaries.append(result.binary)
    if corpus is not None:
        binaries += [p.read_bytes() for p in sorted((corpus / "spv").glob("*.spv")) if p.stat().st_size <= max_bytes]
        texts += [
            p.read_text("utf-8", "surrogateescape")
            for p in sorted((corpus / "asm").iterdir())
            if p.stat().st_size <= max_bytes * 4
        ]
    names = set()
    for data in binaries[-40:]:
        for inst in decode(data).instructions:
            names.add(inst.opname)
    vocabulary = (
        *sorted(names), "%1", "%main", "%undefined", "%", "%0", "%4294967295", "=", "%x =", ";", '""',
        '"a\\"b"', "0", "-1", "0x7fffffff", "0x100000000", "1.5", "-0x1p-149", "0x1.8p+1", "nan", "inf",
        "Shader", "Logical", "GLSL450", "None", "!0x00020011", "!0", "; Version: 1.7", "; Version: 0.0",
        "; Bound: 99999999999999999999", "; Generator: Unknown(99); 3", "; Schema: 5", "OpExtInst", "Sqrt",
        "|", "Float16", "Int16",
    )
    return SpirvSeeds(binaries, texts, vocabulary)


@lru_cache(maxsize=256)
def _decoded(data: bytes):
    return decode(data)


def _targeted(data: bytes, rng: random.Random) -> bytes:
    """A mutation aimed at one instruction or operand of the decoded module."""
    module = _decoded(data)
    words, tail = mutate.words_of(data)
    instructions = module.instructions
    if not instructions or module.header is None or module.header.big_endian:
        return mutate.flip_bits(data, rng)
    inst = rng.choice(instructions)
    choice = rng.randrange(7)
    named = [i for i in instructions if i.opname in ("OpTypeInt", "OpTypeFloat")]
    strings = [(i, o) for i in instructions for o in i.operands if o.kind == "LiteralString"]
    if choice == 0 and strings:  # bytes after the NUL, no NUL, or bytes that are not UTF-8
        _, operand = rng.choice(strings)
        last = operand.offset + operand.num_words - 1
        words[last] = rng.choice((words[last] | 0x61000000, 0x61616161, 0xFFFFFFFF, 0x0080A0ED, 0x00C3C3C3))
    elif choice == 1 and named:  # odd widths
        type_inst = rng.choice(named)
        if type_inst.operands[1:]:
            words[type_inst.operands[1].offset] = rng.choice(WIDTHS)
    elif choice == 2:  # an operand word at a boundary: ids past the bound, enum values nobody defined
        if inst.operands:
            operand = rng.choice(inst.operands)
            bound = module.header.bound
            words[operand.offset] = rng.choice((0, bound, bound - 1, bound + 1, *mutate.INTERESTING_WORDS))
    elif choice == 3:  # the word count
        count = inst.word_count
        words[inst.offset] = (rng.choice((0, 1, count - 1, count + 1, 0xFFFF, rng.randrange(0x10000))) & 0xFFFF) << 16 | words[inst.offset] & 0xFFFF
    elif choice == 4:  # the opcode, keeping the word count
        words[inst.offset] = words[inst.offset] & 0xFFFF0000 | rng.choice((0, 0xFFFF, rng.randrange(0x10000), rng.choice(instructions).opcode))
    elif choice == 5:  # a header field
        words[rng.randrange(5)] = rng.choice(HEADER_VALUES) if rng.random() < 0.8 else rng.getrandbits(32)
    else:  # an instruction copied elsewhere, at an instruction boundary
        target = rng.choice(instructions)
        words[target.offset : target.offset] = words[inst.offset : inst.offset + inst.word_count]
    return mutate.bytes_of(words, tail)


def _generic(data: bytes, rng: random.Random, other: bytes) -> bytes:
    choice = rng.randrange(8)
    words, tail = mutate.words_of(data)
    if choice == 0:
        return mutate.flip_bits(data, rng)
    if choice == 1:
        return mutate.bytes_of(mutate.set_words(words, rng, first=rng.choice((0, 5))), tail)
    if choice == 2:
        return mutate.bytes_of(mutate.insert_words(words, rng, first=5), tail)
    if choice == 3:
        return mutate.bytes_of(mutate.delete_words(words, rng, first=rng.choice((0, 5))), tail)
    if choice == 4:
        return mutate.truncate(data, rng)
    if choice == 5:
        return mutate.splice(data, other, rng)
    if choice == 6:
        return mutate.swap_byte_order(data)
    return data + bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 3)))


def _giant(data: bytes, rng: random.Random) -> bytes:
    """The module with one instruction of 65,535 words appended: a huge string or raw tail."""
    words, _ = mutate.words_of(data)
    module = _decoded(data)
    opcode = rng.choice(module.instructions).opcode if module.instructions else 5
    body = [rng.choice((0x61616161, 0, rng.getrandbits(32))) for _ in range(0xFFFE)]
    return mutate.bytes_of(words + [0xFFFF << 16 | opcode] + body)


def binary_input(rng: random.Random, seeds: SpirvSeeds) -> bytes:
    """A seed module after one to three mutations; now and then a giant one."""
    data = rng.choice(seeds.binaries)
    if rng.random() < 0.002:
        return _giant(data, rng)
    if rng.random() < 0.6:
        data = _targeted(data, rng)
    for _ in range(rng.randint(0 if data else 1, 2)):
        data = _generic(data, rng, rng.choice(seeds.binaries))
    return data


def text_input(rng: random.Random, seeds: SpirvSeeds) -> str:
    """A seed text, or the disassembly of a seed module, after one to four edits."""
    pick = rng.random()
    if pick < 0.3:
        module = _decoded(rng.choice(seeds.binaries))
        options = rng.choice((DisassemblyOptions(), DisassemblyOptions(friendly_names=False), DisassemblyOptions(lossless=True)))
        text = disassemble(module, options)
    else:
        text = rng.choice(seeds.texts)
    for _ in range(rng.randint(1, 4)):
        text = mutate.text_edit(text, rng, seeds.vocabulary)
    return mutate.as_file_text(text) if rng.random() < 0.3 else text
