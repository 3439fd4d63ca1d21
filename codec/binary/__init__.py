"""The binary layer: bytes to words, words to a decoded `Module`, eagerly or on demand."""

from spvinspect.codec.binary.decoder import decode
from spvinspect.codec.binary.lazy import FunctionSpan, LazyModule, open_module
from spvinspect.codec.binary.model import Header, Instruction, Module, Operand

__all__ = [
    "FunctionSpan",
    "Header",
    "Instruction",
    "LazyModule",
    "Module",
    "Operand",
    "decode",
    "open_module",
]
