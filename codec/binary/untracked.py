"""Decoded records taken out of the cyclic garbage collector's sight.

An instruction, its tuple of operands and each operand are immutable records of numbers
and strings (a number type at most): none can be part of a reference cycle, so the cyclic
collector has nothing to find in them, yet every collection that reaches them walks each
one. A large module's cached chunks are hundreds of thousands of them (most of what a
full collection walked with the editor open). CPython leaves a plain tuple of such values
out by itself, but not a named tuple; `untrack` does the same for a run of decoded
instructions. Reference counting frees them as before."""

from __future__ import annotations

import ctypes
from collections.abc import Iterable

from spvinspect.codec.binary.model import Instruction

_untrack = ctypes.pythonapi.PyObject_GC_UnTrack
_untrack.argtypes = [ctypes.py_object]
_untrack.restype = None


def untrack(instructions: Iterable[Instruction]) -> None:
    """Leave `instructions`, their operand tuples and operands out of the collector's walks
    (decoded records only: their fields hold no container but those records)."""
    for instruction in instructions:
        _untrack(instruction)
        operands = instruction.operands
        _untrack(operands)
        for operand in operands:
            _untrack(operand)
