"""The machine state of a batch of fragments (lanes), and the record of one step's writes."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

GENERAL_REGISTERS = 12
"""`$0`-`$11`: what the 4-bit register fields can name (Mesa allocates `$0`-`$5`)."""
CONST0, CONST1, TEXTURE, UNIFORM = 12, 13, 14, 15
"""Register numbers 12-15 as sources: the pipeline registers of the current instruction."""
PIPELINE_NAMES = {CONST0: "^const0", CONST1: "^const1", TEXTURE: "^texture", UNIFORM: "^uniform"}


class EmulationError(Exception):
    """The program does something the emulator cannot execute faithfully."""

    def __init__(self, message: str, instruction: int | None = None, unit: str | None = None) -> None:
        super().__init__(message)
        self.instruction = instruction
        self.unit = unit


@dataclass
class State:
    """Registers, pipeline registers, temporaries and progress of N lanes.

    `bank` holds `$0`-`$11` and, at 12-15, the pipeline registers `^const0`, `^const1`,
    `^texture` and `^uniform`, so any 4-bit register field indexes it directly.
    """

    bank: np.ndarray
    """(N, 16, 4) fp16."""
    vmul: np.ndarray
    """(N, 4) fp16: `^v0`, the vec4 multiplier's result in this instruction."""
    fmul: np.ndarray
    """(N,) fp16: `^s0`, the scalar multiplier's result in this instruction."""
    coords: np.ndarray
    """(N, 4) fp16: what the varying unit fetched this instruction (texld's coordinates)."""
    temps: dict[int, np.ndarray]
    """Temporary (vec4 index) -> (N, 4) fp16; never-written temporaries read as zero."""
    pc: np.ndarray
    """(N,) word offset of each lane's next instruction."""
    done: np.ndarray
    discarded: np.ndarray
    steps: np.ndarray

    @classmethod
    def fresh(cls, lanes: int) -> State:
        """All registers zero, every lane at word 0."""
        return cls(
            np.zeros((lanes, 16, 4), dtype=np.float16),
            np.zeros((lanes, 4), dtype=np.float16),
            np.zeros(lanes, dtype=np.float16),
            np.zeros((lanes, 4), dtype=np.float16),
            {},
            np.zeros(lanes, dtype=np.int64),
            np.zeros(lanes, dtype=bool),
            np.zeros(lanes, dtype=bool),
            np.zeros(lanes, dtype=np.int64),
        )

    def copy(self) -> State:
        """A deep copy (what stepping back restores)."""
        return State(
            self.bank.copy(),
            self.vmul.copy(),
            self.fmul.copy(),
            self.coords.copy(),
            {index: values.copy() for index, values in self.temps.items()},
            self.pc.copy(),
            self.done.copy(),
            self.discarded.copy(),
            self.steps.copy(),
        )


@dataclass(frozen=True, slots=True)
class Write:
    """One value an instruction wrote, in the lane being watched."""

    unit: str
    """The field that wrote it: `varying`, `vec4_mul`…"""
    kind: str
    """`register`, `pipeline` or `temporary`."""
    name: str
    """`$1.xy`, `^v0`, `temp[-3]`."""
    old: tuple[float, ...] | None
    new: tuple[float, ...]


@dataclass
class StepRecord:
    """What one instruction did in the watched lane."""

    instruction: int
    word_offset: int
    writes: list[Write] = field(default_factory=list)
    branch: str | None = None
    """Why the branch went where it went (None when the instruction has no branch)."""
    taken: bool = False
    outcome: str | None = None
    """`stop`, `discard` or None while the fragment runs on."""
